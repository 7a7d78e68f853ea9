#!/usr/bin/env bash
# Scheme online-optimal in the simulation: on small on/off runs, its points simulated as a fixed
# scheme give the same run as that fixed scheme (same makespan, one redistribution per point),
# hindsight's model predicts them to within 0.5%, hindsight's run is no slower than it (hindsight
# knows the trace, within the 0.5% the simulated network may differ from the model), and what its
# recursion expects never exceeds what it expects without points. Then the configs it cannot
# take: exit 2 and one line naming the problem, in `simulate` and before any run of a sweep.
set -u
RINGSIM=${1:?usage: run_online_optimal_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# case NAME RING ITERATIONS RATIO SEED TARGETS
case_() {
  local name=$1 ring=$2 iters=$3 ratio=$4 seed=$5 targets=$6
  $PY - "$name" "$PLATFORM" "$ring" "$iters" "$ratio" "$seed" "$targets" <<'PYEOF'
import json, sys
name, platform, ring, n, ratio, seed, targets = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
exp = {"name": name, "base": {"platform": platform, "rows": 1000, "columns": 40 * ring, "iterations": n,
       "targets": targets, "network_model": "linear", "decision_flops": 1e6, "report_bytes": 16,
       "traces": {"source": "on-off", "available": 10, "loaded": 8, "load_factor": 0.25}},
       "ring_sizes": [ring], "ratios": [ratio], "schemes": ["online-optimal", "hindsight"], "algorithms": ["auto"],
       "seeds": [seed], "repetitions": 1}
json.dump(exp, open(name + ".json", "w"))
PYEOF
  "$RINGSIM" run "$name.json" --jobs 2 --out "$name" >"$name.log" 2>&1 || { echo "FAIL $name: run"; tail -3 "$name.log"; fail=1; return; }
  $PY - "$name" <<'PYEOF' || fail=1
import csv, json, sys
name = sys.argv[1]
rows = {r["scheme"]: r for r in csv.DictReader(open(name + "/runs.csv"))}
o, h = rows["online-optimal"], rows["hindsight"]
res = json.load(open(f"{name}/runs/{o['run_id']}/result.json"))
oo = res["online_optimal"]
ok = int(o["redistributions"]) == len(oo["points"]) and abs(oo["simulated_over_predicted"] - 1) <= 0.005 \
     and float(h["makespan"]) <= float(o["makespan"]) * 1.005 \
     and oo["expected_makespan"] <= oo["expected_makespan_without_points"] * (1 + 1e-12) \
     and oo["loads"] <= 2 ** int(o["ring_size"]) + 1 \
     and oo["any_target"]["expected_makespan"] <= oo["expected_makespan"] * (1 + 1e-12) \
     and oo["any_target"]["predicted_makespan_without_points"] > 0
hs = json.load(open(f"{name}/runs/{h['run_id']}/result.json"))["hindsight"]
# Hindsight over any target: no slower, in the model, than hindsight or the any-target rule.
knowing = oo["any_target"]["hindsight"]
ok = ok and knowing["predicted_makespan"] <= hs["predicted_makespan"] * (1 + 1e-9) \
     and knowing["predicted_makespan"] <= oo["any_target"]["predicted_makespan"] * (1 + 1e-9) \
     and set(knowing["returns_to_initial"]) <= set(knowing["points"])
# The late rule along the trace, told the law and learning it: its points (each once) and looks
# after iterations of the run, a makespan, and at least one solve of the learning rule.
late, iterations = oo["late"], int(json.load(open(name + ".json"))["base"]["iterations"])
for path in (late, late["learning"]):
    ok = ok and all(1 <= t < iterations for t in path["points"] + path["looks"]) \
         and path["predicted_makespan"] > 0 and len(set(path["points"])) == len(path["points"])
ok = ok and late["learning"]["solves"] >= 1 and late["learning"]["resolve"] > 0
print(f"{'ok' if ok else 'FAIL'} {name}: online-optimal {oo['simulated_as']} {float(o['makespan']):.6g} s, hindsight "
      f"{float(h['makespan']):.6g} s; simulated / predicted {oo['simulated_over_predicted']:.5f}; expected "
      f"{oo['expected_makespan']:.6g} s, without points {oo['expected_makespan_without_points']:.6g} s")
sys.exit(0 if ok else 1)
PYEOF
  # Its points as a fixed scheme, simulated on their own: the same makespan.
  local id; id=$($PY -c "import csv,sys; print([r['run_id'] for r in csv.DictReader(open('$name/runs.csv')) if r['scheme']=='online-optimal'][0])")
  $PY - "$name/runs/$id/config.json" "$name/runs/$id/result.json" >"$name-fixed.json" <<'PYEOF'
import json, sys
cfg = json.load(open(sys.argv[1]))
cfg["scheme"] = json.load(open(sys.argv[2]))["online_optimal"]["simulated_as"]
cfg["baseline"] = False
print(json.dumps(cfg))
PYEOF
  "$RINGSIM" simulate "$name-fixed.json" --out "$name-fixed-result.json" 2>"$name-fixed.log" || { echo "FAIL $name: fixed run"; fail=1; return; }
  $PY - "$name/runs/$id/result.json" "$name-fixed-result.json" <<'PYEOF' || { echo "FAIL $name: its fixed scheme differs"; fail=1; }
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(0 if a["makespan"] == b["makespan"] and a["redistributions"] == b["redistributions"] else 1)
PYEOF
}

case_ onoff4-measured 4 12 10 3 measured
case_ onoff5-oracle 5 14 3 4 oracle
case_ onoff6-measured 6 15 10 5 measured

# Bad uses: exit 2 and one line naming the problem.
bad() {
  local what=$1 pattern=$2 cfg=$3
  echo "$cfg" >bad.json
  out=$("$RINGSIM" simulate bad.json 2>&1); rc=$?
  if [ $rc -ne 2 ] || [ "$(echo "$out" | wc -l)" -ne 1 ] || ! echo "$out" | grep -q "$pattern"; then
    echo "FAIL $what: rc=$rc: $out"; fail=1
  else
    echo "ok $what: $out"
  fi
}
base='"platform": "'"$PLATFORM"'", "iterations": 10, "ratio": 1, "scheme": "online-optimal"'
bad "pareto durations" "geometric" '{'"$base"', "ring": {"size": 4}, "traces": {"source": "on-off", "durations": "pareto"}}'
bad "random walk" "on-off" '{'"$base"', "ring": {"size": 4}, "traces": {"source": "random-walk"}}'
bad "paper traces" "on-off" '{'"$base"', "ring": {"size": 4}}'
bad "ring of 9" "at most 8" '{'"$base"', "ring": {"size": 9}, "traces": {"source": "on-off"}}'
bad "nominal-time placement" "placement" '{'"$base"', "ring": {"size": 4}, "traces": {"source": "on-off", "placement": "nominal-time"}}'
bad "rebuilds" "rebuilds" '{'"$base"', "ring": {"size": 4}, "traces": {"source": "on-off"}, "rebuild": [{"after": 5, "size": 4, "seed": 2}]}'

# A sweep with a ring of 32: refused before any run.
echo '{"name": "big", "base": {"platform": "'"$PLATFORM"'", "iterations": 10, "traces": {"source": "on-off"}},
 "ring_sizes": [8, 32], "ratios": [1], "schemes": ["online-optimal"], "algorithms": ["auto"], "seeds": [1], "repetitions": 1}' >big.json
out=$("$RINGSIM" run big.json --out big 2>&1); rc=$?
if [ $rc -ne 2 ] || [ "$(echo "$out" | wc -l)" -ne 1 ] || ! echo "$out" | grep -q "at most 8" || [ -e big/runs ]; then
  echo "FAIL sweep with a ring of 32: rc=$rc: $out"; fail=1
else
  echo "ok sweep with a ring of 32: $out"
fi
exit $fail
