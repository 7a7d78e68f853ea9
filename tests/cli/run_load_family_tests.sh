#!/usr/bin/env bash
# Load families (the daily cycle, FTA availability) through the command line: the daily cycle swept over seeds
# (each seed draws its ring and its traces); CPU availability from a Failure Trace Archive
# event_trace file (tests/data/fta_event_trace.tab): simulated on the paper's platform, its changes
# in traces.csv, swept over seeds (the seeds draw the rings, the file stays), bad files refused.
set -u
RINGSIM=${1:?usage: run_load_family_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
cp "$ROOT/platforms/paper2004_tiers90.xml" platform.xml
cp "$ROOT/tests/data/fta_event_trace.tab" fta.tab
BASE='"platform": "platform.xml", "ratio": 1, "iterations": 10, "rows": 100, "columns": 100, "scheme": "every-3"'

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

# 2. FTA availability: the members take the file's nodes in ring order (101, 102, 103); each
#    unavailable period runs at unavailable_multiplier of the peak, at the file's times (seconds since
#    its earliest event) divided by time_scale.
echo "{$BASE, \"ring\": {\"size\": 3, \"seed\": 2}, \"traces\": {\"source\": \"fta\", \"file\": \"fta.tab\"}}" >fta_order.json
echo "{$BASE, \"ring\": {\"hosts\": [\"SunOS\", \"Browne\", \"Julian\"]}, \"traces\": {\"source\": \"fta\", \"file\": \"fta.tab\",
  \"nodes\": {\"SunOS\": \"103\", \"Browne\": 101, \"Julian\": \"102\"}, \"unavailable_multiplier\": 0.05, \"time_scale\": 2}}" >fta_map.json
for c in fta_order fta_map; do
  "$RINGSIM" simulate $c.json --no-baseline --traces-dir tr_$c >$c.out 2>err || { echo "FAIL simulate $c"; cat err; fail=1; continue; }
  $PY - $c tr_$c/traces.csv $c.out <<'PY' || { echo "FAIL $c: traces.csv"; fail=1; }
import csv, json, sys
name, path, out = sys.argv[1:]
res = json.load(open(out))
assert res["trace_source"] == "fta" and res["makespan"] > 0, res
rows = {}
for r in csv.DictReader(open(path)):
    rows.setdefault(r["host"], []).append((r["iteration"], float(r["time"]), float(r["multiplier"])))
nodes = {  # the example file, in seconds from its first event
    "101": [(30, "u"), (50, 1)],
    "102": [(0, "u"), (20, 1), (80, "u"), (90.5, 1)],
    "103": [(75, "u"), (100, 1)],
}
if name == "fta_order":
    ring = res["ring"]
    want = dict(zip(ring, ["101", "102", "103"]))
    u, scale = 0.01, 1.0
else:
    want = {"SunOS": "103", "Browne": "101", "Julian": "102"}
    u, scale = 0.05, 2.0
assert set(rows) == set(want), (rows.keys(), want)
for host, node in want.items():
    steps = [(t / scale, u if m == "u" else 1.0) for t, m in nodes[node]]
    got = rows[host]
    # the first row: the state at time 0 (a change at time 0 sets it); then the changes, time-indexed
    first = steps[0][1] if steps[0][0] == 0 else 1.0
    assert got[0] == ("0", 0.0, first), (host, got)
    changes = [s for s in steps if s[0] > 0]
    assert [(t, m) for _, t, m in got[1:]] == changes, (host, got, changes)
    assert all(i == "" for i, _, _ in got[1:]), got
PY
done
# An unavailable period slows the run: the same ring without it (multiplier 1) is faster.
sed 's/"unavailable_multiplier": 0.05/"unavailable_multiplier": 1/' fta_map.json >fta_none.json
"$RINGSIM" simulate fta_none.json --no-baseline >fta_none.out 2>err || { echo "FAIL simulate fta_none"; cat err; fail=1; }
$PY -c 'import json,sys; a,b=(json.load(open(f))["makespan"] for f in sys.argv[1:]); assert a > 1.05 * b, (a, b)' fta_map.out fta_none.out \
  || { echo "FAIL fta: unavailability did not slow the run"; fail=1; }

# 3. A sweep over seeds: the seeds draw the rings, every run reads the same file (no trace seed).
mkdir -p exp elsewhere
cp fta.tab platform.xml exp/
cat >exp/fta_sweep.json <<'JSON'
{"name": "fta", "base": {"platform": "platform.xml", "iterations": 8, "rows": 100, "columns": 100,
  "traces": {"source": "fta", "file": "fta.tab", "time_scale": 0.5}},
 "ring_sizes": [3], "ratios": [1], "schemes": ["every-2"], "seeds": [1, 2, 3, 4]}
JSON
if (cd elsewhere && "$RINGSIM" run ../exp/fta_sweep.json --out ../out_fta 2>../err_fta); then
  $PY - out_fta <<'PY' || { echo "FAIL fta sweep: rings or traces"; fail=1; }
import csv, glob, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
assert len(rows) == 8, len(rows)
assert len({r["ring"] for r in rows}) > 1, rows
traces = {json.dumps(json.load(open(c))["traces"], sort_keys=True) for c in glob.glob(out + "/runs/*/config.json")}
assert len(traces) == 1, traces
t = json.loads(next(iter(traces)))
assert "seed" not in t and t["source"] == "fta" and os.path.isabs(t["file"]) and t["time_scale"] == 0.5, t
PY
else echo "FAIL fta sweep"; cat err_fta; fail=1; fi

# 4. Bad files and mappings: exit 2, one stderr line naming the file, the line and the problem.
bad() {  # name file-body-or-empty traces-json expected
  [ -n "$2" ] && printf "$2" >"$1.tab"
  echo "{$BASE, \"ring\": {\"size\": 3, \"seed\": 2}, \"traces\": $3}" >"bad_$1.json"
  expect_refused "fta_$1" "$4" "$RINGSIM" simulate "bad_$1.json" --no-baseline
}
bad columns '1\t1\t7\t1\tn\t0\t100\n' '{"source": "fta", "file": "columns.tab"}' "'columns.tab':1: expected 8 or 9 tab-separated columns"
bad reversed '1\t1\t7\t1\tn\t0\t100\t90\t1\n' '{"source": "fta", "file": "reversed.tab"}' "'reversed.tab':1: event_stop_time 90 is before event_start_time 100"
bad overlap '1\t1\t7\t1\tn\t0\t100\t120\t1\n2\t1\t7\t1\tn\t1\t110\t130\t0\n' '{"source": "fta", "file": "overlap.tab"}' \
  "'overlap.tab':2: the event of node '7' overlaps the one at line 1"
bad type '1\t1\t7\t1\tn\t3\t100\t120\t1\n' '{"source": "fta", "file": "type.tab"}' "'type.tab':1: unknown event_type '3'"
bad missing '' '{"source": "fta", "file": "nothere.tab"}' "cannot read 'nothere.tab'"
bad few_nodes '1\t1\t7\t1\tn\t0\t100\t120\t1\n' '{"source": "fta", "file": "few_nodes.tab"}' \
  "FTA event trace 'few_nodes.tab' has 1 node(s), the run 3 member(s)"
bad unmapped '' '{"source": "fta", "file": "fta.tab", "nodes": {"SunOS": "101"}}' "no FTA node for host"
bad zero '' '{"source": "fta", "file": "fta.tab", "unavailable_multiplier": 0}' "fta 'unavailable_multiplier' must be in (0, 1]"
bad node '' '{"source": "fta", "file": "fta.tab", "nodes": {"SunOS": "101", "Browne": "999", "Julian": "102"}}' \
  "no node '999' in FTA event trace 'fta.tab'"

[ $fail -eq 0 ] && echo "load family tests passed"
exit $fail
