#!/usr/bin/env bash
# Load families of issue 23, item 3, through the command line: the daily cycle swept over seeds
# (each seed draws its ring and its traces).
set -u
RINGSIM=${1:?usage: run_load_family_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cp "$ROOT/platforms/paper2004_tiers90.xml" platform.xml

# 1. The daily cycle in a sweep over seeds: every run states the source and its own seed, and the
#    seeds give different rings and different traces.
cat >daily_sweep.json <<'JSON'
{"name": "daily", "base": {"platform": "platform.xml", "iterations": 12, "rows": 100, "columns": 100,
  "traces": {"source": "daily", "period": 6, "low": 0.4, "high": 1.0, "noise": 0.05}},
 "ring_sizes": [4], "ratios": [1], "schemes": ["every-3"], "seeds": [1, 2, 3]}
JSON
if "$RINGSIM" run daily_sweep.json --out out_daily 2>err_daily; then
  $PY - out_daily <<'PY' || { echo "FAIL daily sweep: runs, rings or traces"; fail=1; }
import csv, glob, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
assert len(rows) == 6, len(rows)
assert len({r["ring"] for r in rows if r["scheme"] == "none"}) > 1, rows
configs = [json.load(open(c)) for c in glob.glob(out + "/runs/*/config.json")]
seeds = {c["traces"]["seed"] for c in configs}
assert len(seeds) == 3, seeds
for c in configs:
    t = c["traces"]
    assert t["source"] == "daily" and t["period"] == 6 and t["phase"] == "random" and t["every"] == 1, t
results = [json.load(open(r)) for r in glob.glob(out + "/runs/*/result.json")]
assert all(r["trace_source"] == "daily" and r["makespan"] > 0 for r in results), results
PY
else echo "FAIL daily sweep"; cat err_daily; fail=1; fi

[ $fail -eq 0 ] && echo "load family tests passed"
exit $fail
