#!/usr/bin/env bash
# adaptive-lasting's way back (src/policy/return_to_initial.hpp, ReturnToInitial): a point whose targets
# balance speeds the policy chose says so in result.json ("balanced_for": "policy"), and after it
# performed, the members hold exactly the initial balance: the loads of iteration 1, read from
# --iterations-csv. Runs of the when families where the policy went back (seeds 1-8), each run
# required to go back at least once: on/off ring 8 ratio 0.3 seed 4 (after iterations 37 and 68),
# Pareto on/off ring 8 ratio 0.3 seed 5 (24, 46, 68), the daily cycle ring 8 ratio 1 seed 4 (24,
# 38, 59). A return balanced for other speeds (one member at 1.5 times its peak) fails here. A
# fixed scheme and adaptive on the same runs: every point balanced for the reports.
set -u
RINGSIM=${1:?usage: run_return_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# run NAME SCHEME SEED RATIO TRACES_JSON: simulate into NAME.json and NAME.csv
run() {
  $PY - "$PLATFORM" "$2" "$3" "$4" "$5" >"$1.cfg.json" <<'PYEOF'
import json, sys
platform, scheme, seed, ratio, traces = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), json.loads(sys.argv[5])
traces["seed"] = seed
print(json.dumps({"platform": platform, "rows": 1000, "columns": 1000, "iterations": 100, "ratio": ratio,
                  "targets": "measured", "network_model": "linear", "decision_flops": 1e6, "report_bytes": 16,
                  "ring": {"size": 8, "seed": seed, "selection": "random"}, "scheme": scheme, "baseline": False,
                  "traces": traces}))
PYEOF
  "$RINGSIM" simulate "$1.cfg.json" --out "$1.json" --iterations-csv "$1.csv" 2>"$1.log" ||
    { echo "FAIL $1: simulate"; tail -3 "$1.log"; fail=1; }
}

# check NAME SCHEME: every return lands on iteration 1's loads; prints how many returns
check() {
  $PY - "$1.json" "$1.csv" "$2" <<'PYEOF' || fail=1
import csv, json, sys
result, rows, scheme = json.load(open(sys.argv[1])), list(csv.DictReader(open(sys.argv[2]))), sys.argv[3]
loads = {int(r["iteration"]): r["loads"] for r in rows}
returns = [p for p in result["points"] if p["balanced_for"] == "policy"]
bad = [p["after_iteration"] for p in returns if p["performed"] and loads.get(p["after_iteration"] + 1) != loads[1]]
if scheme != "adaptive-lasting" and returns:
    print(f"FAIL {sys.argv[1]}: {scheme} balanced for speeds of its own at {[p['after_iteration'] for p in returns]}")
    sys.exit(1)
if bad:
    print(f"FAIL {sys.argv[1]}: after the return at iteration(s) {bad} the loads are not the initial balance")
    sys.exit(1)
done = [p["after_iteration"] for p in returns if p["performed"]]
if scheme == "adaptive-lasting" and not done:
    print(f"FAIL {sys.argv[1]}: no return to the initial balance")
    sys.exit(1)
print(f"ok {sys.argv[1]}: {len(done)} return(s) to the initial balance {done}, "
      f"{sum(p['performed'] for p in result['points'])} moves")
PYEOF
}

ONOFF='{"source": "on-off", "available": 30, "loaded": 15, "load_factor": 0.25, "placement": "iteration"}'
PARETO='{"source": "on-off", "available": 30, "loaded": 15, "load_factor": 0.25, "placement": "iteration", "durations": "pareto", "shape": 1.5}'
DAILY='{"source": "daily", "period": 24, "low": 0.5, "high": 1.0, "noise": 0.05, "placement": "iteration"}'
for spec in "onoff 4 0.3" "pareto 5 0.3" "daily 4 1"; do
  set -- $spec
  case $1 in onoff) traces=$ONOFF ;; pareto) traces=$PARETO ;; daily) traces=$DAILY ;; esac
  for scheme in adaptive-lasting adaptive every-10; do
    run "$1-$2-$scheme" "$scheme" "$2" "$3" "$traces"
    check "$1-$2-$scheme" "$scheme"
  done
done
exit $fail
