#!/usr/bin/env bash
# Scheme hindsight against brute force in the simulation: on small runs (10 to 12 iterations,
# rings of 3 to 6), every subset of redistribution points is simulated as its own fixed scheme
# (none, after:a,b,..), and hindsight's simulated makespan must be the best of them within a
# tolerance (below), on the paper's traces and on each family, with targets oracle and measured.
# Tolerance: the recurrence predicts with the planners' models (border exchange and all-gather as
# latency + bytes / bandwidth, the planner's schedule time for a move), which the simulated
# network follows to within its own contention and pacing; the worst shortfall measured over
# these cases is printed, and a case fails beyond 0.5% (1% where speeds follow the clock, for
# which the recurrence is an approximation, planners/points/hindsight.hpp).
set -u
RINGSIM=${1:?usage: run_hindsight_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# case NAME RING ITERATIONS TARGETS TOLERANCE TRACES
case_() {
  local name=$1 ring=$2 iters=$3 targets=$4 tol=$5 traces=$6
  $PY - "$name" "$PLATFORM" "$ring" "$iters" "$targets" "$traces" <<'PYEOF'
import itertools, json, sys
name, platform, ring, n, targets, traces = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], json.loads(sys.argv[6])
schemes = ["none"] + ["after:" + ",".join(map(str, c)) for r in range(1, n) for c in itertools.combinations(range(1, n), r)]
exp = {"name": name, "base": {"platform": platform, "rows": 1000, "columns": 40 * ring, "iterations": n,
       "targets": targets, "network_model": "linear", "decision_flops": 1e6, "report_bytes": 16,
       "baseline": False, "traces": traces},
       "ring_sizes": [ring], "ratios": [1], "schemes": schemes + ["hindsight"], "algorithms": ["auto"],
       "seeds": [3], "repetitions": 1}
json.dump(exp, open(name + ".json", "w"))
PYEOF
  "$RINGSIM" run "$name.json" --jobs 2 --out "$name" >"$name.log" 2>&1 || { echo "FAIL $name: run"; tail -3 "$name.log"; fail=1; return; }
  $PY - "$name" "$tol" <<'PYEOF' || fail=1
import csv, json, sys
name, tol = sys.argv[1], float(sys.argv[2])
rows = list(csv.DictReader(open(name + "/runs.csv")))
h = [r for r in rows if r["scheme"] == "hindsight"]
subsets = [r for r in rows if r["scheme"] != "hindsight"]
assert len(h) == 1 and len(subsets) >= 512, (len(h), len(subsets))
best = min(subsets, key=lambda r: float(r["makespan"]))
res = json.load(open(f"{name}/runs/{h[0]['run_id']}/result.json"))
hs = res["hindsight"]
ratio = float(h[0]["makespan"]) / float(best["makespan"])
# The chosen points' own fixed-scheme run is the same simulation.
same = [r for r in subsets if r["scheme"] == hs["simulated_as"]]
ok = ratio <= 1 + tol and len(same) == 1 and same[0]["makespan"] == h[0]["makespan"] \
     and int(h[0]["redistributions"]) == len(hs["points"]) and float(h[0]["time_over_ideal"]) >= 1.0
print(f"{'ok' if ok else 'FAIL'} {name}: hindsight {hs['simulated_as']} {float(h[0]['makespan']):.6g} s, best of "
      f"{len(subsets)} subsets {best['scheme']} {float(best['makespan']):.6g} s, ratio {ratio:.5f}; simulated / "
      f"predicted {hs['simulated_over_predicted']:.5f}; time over ideal {float(h[0]['time_over_ideal']):.4f}")
sys.exit(0 if ok else 1)
PYEOF
}

for targets in oracle measured; do
  case_ "paper-$targets" 4 10 "$targets" 0.005 '{"source": "measured", "windows": [[2, 4], [6, 8]]}'
  case_ "walk-$targets" 5 10 "$targets" 0.005 '{"source": "random-walk", "step": 0.2}'
  case_ "onoff-$targets" 3 10 "$targets" 0.005 '{"source": "on-off", "available": 4, "loaded": 3}'
  case_ "pareto-$targets" 6 10 "$targets" 0.005 '{"source": "on-off", "available": 4, "loaded": 3, "durations": "pareto", "shape": 1.5}'
  case_ "profile-$targets" 4 10 "$targets" 0.01 '{"source": "on-off", "available": 3, "loaded": 2, "placement": "nominal-time"}'
done
case_ "walk12-oracle" 4 12 oracle 0.005 '{"source": "random-walk", "step": 0.2}'

# Bad uses: exit 2 and one line.
echo '{"platform": "'"$PLATFORM"'", "ring": {"size": 4, "seed": 1}, "iterations": 10, "ratio": 1, "scheme": "hindsight",
 "rebuild": [{"after": 5, "size": 4, "seed": 2}]}' >rebuild.json
out=$("$RINGSIM" simulate rebuild.json 2>&1); rc=$?
if [ $rc -ne 2 ] || [ "$(echo "$out" | wc -l)" -ne 1 ] || ! echo "$out" | grep -q "hindsight"; then
  echo "FAIL hindsight with rebuilds: rc=$rc: $out"; fail=1
fi
exit $fail
