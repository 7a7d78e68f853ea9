#!/usr/bin/env bash
# A redistribution is a change: with `targets: measured`, a point whose loads are already a
# balance for the measured speeds within their rounding moves nothing, and near ties go where the
# exact speeds send them (docs/schemes.md, "What a redistribution point moves to"). Sweeps of the
# paper's fixed schemes (none, once, every-20, every-10, every-5) on rings of 8 and 32 of the
# paper's platform, each run with measured and with oracle targets:
# - speeds that never change: every run has zero redistributions and moves zero columns, and the
#   measured sweep's runs.csv is the oracle sweep's, byte for byte;
# - the paper's step traces (one speed change per host in each window, placed by iteration, so a
#   member measures the speed the oracle reads, to the clock's rounding): in every run the same
#   points redistribute, to the same loads after each point, and runs.csv and iterations.csv are
#   the oracle sweep's, byte for byte (the same transfers, times and loads at every iteration).
set -u
RINGSIM=${1:?usage: run_measured_targets_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

experiment() {  # file name targets traces ratios seeds
  cat >"$1" <<EOF
{"name": "$2", "base": {"platform": "$PLATFORM", "rows": 1000, "columns": 1000, "iterations": 100,
  "targets": "$3", "network_model": "linear", "traces": $4, "decision_flops": 1e6, "report_bytes": 16},
 "ring_sizes": [8, 32], "ratios": $5, "schemes": ["none", "once", "every-20", "every-10", "every-5"],
 "algorithms": ["auto"], "seeds": $6}
EOF
}
sweep() {  # experiment output-dir (a sweep that fails ends the test)
  "$RINGSIM" run "$1" --jobs 2 --out "$2" >/dev/null 2>"$2.err" || { echo "FAIL sweep $1"; cat "$2.err"; exit 1; }
}
# Two seeds; one under the sanitizers (RINGSIM_TEST_SIZES=sanitizer): other rings, the same branches.
seeds="[1, 2]" runs_constant=60 runs_steps=80
sanitizer_sizes && seeds="[1]" runs_constant=30 runs_steps=40
same_file() {  # what a b
  if cmp -s "$2" "$3"; then echo "$1: byte-identical"; else echo "FAIL $1 differs"; diff "$2" "$3" | head -4 | cut -c1-200; fail=1; fi
}

# 1. Constant speeds.
constant='{"source": "factor", "factor": [1, 1]}'
for t in measured oracle; do
  experiment "constant-$t.json" "constant-$t" "$t" "$constant" "[0.001, 0.1, 10]" "$seeds"
  sweep "constant-$t.json" "constant-$t"
done
$PY - constant-measured $runs_constant <<'PY' || fail=1
import csv, json, pathlib, sys
out = pathlib.Path(sys.argv[1])
rows = list(csv.DictReader(open(out / "runs.csv")))
moving = [(r["run_id"], r["redistributions"]) for r in rows if r["redistributions"] != "0"]
moved = {}
for r in rows:
    points = json.load(open(out / "runs" / r["run_id"] / "result.json"))["points"]
    columns = sum(p["items_moved"] for p in points)
    if columns or any(p["performed"] for p in points):
        moved[r["run_id"]] = columns
if len(rows) != int(sys.argv[2]) or moving or moved:
    print(f"FAIL constant speeds, measured targets: {len(rows)} runs; redistributions {moving[:5]}; "
          f"columns moved {list(moved.items())[:5]}")
    sys.exit(1)
print(f"constant speeds, measured targets: {len(rows)} runs, 0 redistributions, 0 columns moved")
PY
same_file "constant speeds: runs.csv of measured against oracle targets" constant-oracle/runs.csv constant-measured/runs.csv

# 2. The paper's step traces.
for t in measured oracle; do
  experiment "steps-$t.json" "steps-$t" "$t" '{"source": "measured"}' "[0.001, 0.01, 1, 10]" "$seeds"
  sweep "steps-$t.json" "steps-$t"
done
$PY - steps-measured steps-oracle $runs_steps <<'PY' || fail=1
import csv, json, pathlib, sys
measured, oracle = (pathlib.Path(d) for d in sys.argv[1:3])
def points(out, run):
    """Each point's iteration, whether it moved, and the loads of the iteration after it."""
    loads = {int(r["iteration"]): r["loads"] for r in csv.DictReader(open(out / "runs" / run / "iterations.csv"))}
    result = json.load(open(out / "runs" / run / "result.json"))
    return [(p["after_iteration"], p["performed"], loads.get(p["after_iteration"] + 1)) for p in result["points"]]
runs = [r["run_id"] for r in csv.DictReader(open(oracle / "runs.csv"))]
moved = sum(p[1] for run in runs for p in points(oracle, run))
differ = [run for run in runs if points(measured, run) != points(oracle, run)]
if len(runs) != int(sys.argv[3]) or moved == 0 or differ:
    print(f"FAIL step traces: {len(runs)} runs, {moved} moves with oracle targets; points or loads differ with "
          f"measured targets in {len(differ)} runs: {differ[:5]}")
    sys.exit(1)
print(f"step traces: {len(runs)} runs, the same {moved} points redistribute to the same loads with measured targets")
PY
same_file "step traces: runs.csv of measured against oracle targets" steps-oracle/runs.csv steps-measured/runs.csv
same_file "step traces: iterations.csv of measured against oracle targets" steps-oracle/iterations.csv \
  steps-measured/iterations.csv

[ $fail -eq 0 ] && echo "measured targets: a redistribution is a change"
exit $fail
