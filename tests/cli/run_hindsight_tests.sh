#!/usr/bin/env bash
# Scheme hindsight against brute force in the simulation: on small runs (7 to 9 iterations, rings
# of 3 to 6), every subset of redistribution points is simulated as its own fixed scheme
# (none, after:a,b,..), and hindsight's simulated makespan must be the best of them within a
# tolerance (below), on the paper's traces and on each family, with targets oracle and measured.
# Tolerance: the recurrence predicts with the planners' models (border exchange and all-gather as
# latency + bytes / bandwidth, the planner's schedule time for a move), which the simulated
# network follows to within its own contention and pacing; the worst shortfall measured over
# these cases is printed, and a case fails beyond 0.5% (1% where speeds follow the clock, for
# which the recurrence is an approximation, planners/points/hindsight_plan.hpp).
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
       "baseline": False, "traces": traces,
       # the points themselves against brute force, not checked against the subsets in the run
       "reference_check": []},
       "ring_sizes": [ring], "ratios": [1], "algorithms": ["auto"],
       # hindsight-targets where speeds change by iteration only (it refuses the others)
       "schemes": schemes + ["hindsight"] + (["hindsight-targets"] if "placement" not in traces else []),
       "seeds": [3], "repetitions": 1}
json.dump(exp, open(name + ".json", "w"))
PYEOF
  "$RINGSIM" run "$name.json" --jobs 2 --out "$name" >"$name.log" 2>&1 || { echo "FAIL $name: run"; tail -3 "$name.log"; fail=1; return; }
  $PY - "$name" "$tol" "$iters" <<'PYEOF' || fail=1
import csv, json, sys
name, tol, iterations = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(name + "/runs.csv")))
h = [r for r in rows if r["scheme"] == "hindsight"]
ht = [r for r in rows if r["scheme"] == "hindsight-targets"]
subsets = [r for r in rows if not r["scheme"].startswith("hindsight")]
assert len(h) == 1 and len(subsets) == 2 ** (iterations - 1), (len(h), len(subsets))
best = min(subsets, key=lambda r: float(r["makespan"]))
res = json.load(open(f"{name}/runs/{h[0]['run_id']}/result.json"))
hs = res["hindsight"]
ratio = float(h[0]["makespan"]) / float(best["makespan"])
# The chosen points' own fixed-scheme run is the same simulation.
same = [r for r in subsets if r["scheme"] == hs["simulated_as"]]
ok = ratio <= 1 + tol and len(same) == 1 and same[0]["makespan"] == h[0]["makespan"] \
     and int(h[0]["redistributions"]) == len(hs["points"]) and float(h[0]["time_over_ideal"]) >= 1.0
# runs.csv carries what judging the reference needs (the result's flag and simulated / predicted),
# and nothing for the fixed schemes.
ok = ok and h[0]["reference_optimal_under_model"] == ("true" if hs["optimal_under_model"] else "false") \
     and float(h[0]["reference_simulated_over_predicted"]) == hs["simulated_over_predicted"] \
     and all(r["reference_optimal_under_model"] == r["reference_simulated_over_predicted"] == "" for r in subsets)
# hindsight reports its own points only: the optimum with chosen targets is hindsight-targets'.
ok = ok and "chosen_targets" not in hs
# With chosen targets, where speeds change by iteration only: predicted no slower than hindsight,
# simulated as predicted (within 2%: SimGrid's network is not the planners' cost model, as for
# hindsight; measured 0.995-1.012 on these cases) and no slower than hindsight, each point's
# targets a whole distribution of the columns.
chosen = None
if ht:
    t = json.load(open(f"{name}/runs/{ht[0]['run_id']}/result.json"))
    chosen = t["hindsight"]
    columns = json.load(open(f"{name}/runs/{ht[0]['run_id']}/config.json"))["columns"]
    ok = ok and len(ht) == 1 and chosen["predicted_makespan"] <= hs["predicted_makespan"] * (1 + 1e-9) \
         and abs(chosen["simulated_over_predicted"] - 1) <= 0.02 \
         and float(ht[0]["makespan"]) <= float(h[0]["makespan"]) * (1 + tol) \
         and int(ht[0]["redistributions"]) == len(chosen["points"]) == len(chosen["targets"]) \
         and all(min(x) >= 0 and sum(x) == columns for x in chosen["targets"]) \
         and all(p["balanced_for"] == "plan" for p in t.get("points", []))
    print(f"{'ok' if ok else 'FAIL'} {name}: hindsight-targets {chosen['simulated_as']} {float(ht[0]['makespan']):.6g} s, "
          f"simulated / predicted {chosen['simulated_over_predicted']:.5f}")
print(f"{'ok' if ok else 'FAIL'} {name}: hindsight {hs['simulated_as']} {float(h[0]['makespan']):.6g} s, best of "
      f"{len(subsets)} subsets {best['scheme']} {float(best['makespan']):.6g} s, ratio {ratio:.5f}; simulated / "
      f"predicted {hs['simulated_over_predicted']:.5f}; time over ideal {float(h[0]['time_over_ideal']):.4f}; with "
      f"chosen targets {'-' if chosen is None else format(chosen['predicted_makespan'] / hs['predicted_makespan'], '.4f')}"
      f" of its predicted")
sys.exit(0 if ok else 1)
PYEOF
}

# Seven iterations (64 subsets) and nine (256); five and seven under the sanitizers
# (RINGSIM_TEST_SIZES=sanitizer): the same schemes and branches on a quarter of the subsets.
short=7 long=9
sanitizer_sizes && short=5 long=7
for targets in oracle measured; do
  case_ "paper-$targets" 4 $short "$targets" 0.005 '{"source": "measured", "windows": [[1, 3], [4, 6]]}'
  case_ "walk-$targets" 5 $short "$targets" 0.005 '{"source": "random-walk", "step": 0.2}'
  case_ "onoff-$targets" 3 $short "$targets" 0.005 '{"source": "on-off", "available": 4, "loaded": 3}'
  case_ "pareto-$targets" 6 $short "$targets" 0.005 '{"source": "on-off", "available": 4, "loaded": 3, "durations": "pareto", "shape": 1.5}'
  case_ "profile-$targets" 4 $short "$targets" 0.01 '{"source": "on-off", "available": 3, "loaded": 2, "placement": "nominal-time"}'
done
case_ "walk$long-oracle" 4 $long oracle 0.005 '{"source": "random-walk", "step": 0.2}'

# Bad uses: exit 2 and one line.
echo '{"platform": "'"$PLATFORM"'", "ring": {"size": 4, "seed": 1}, "iterations": 10, "ratio": 1, "scheme": "hindsight",
 "rebuild": [{"after": 5, "size": 4, "seed": 2}]}' >rebuild.json
out=$("$RINGSIM" simulate rebuild.json 2>&1); rc=$?
if [ $rc -ne 2 ] || [ "$(echo "$out" | wc -l)" -ne 1 ] || ! echo "$out" | grep -q "hindsight"; then
  echo "FAIL hindsight with rebuilds: rc=$rc: $out"; fail=1
fi
# hindsight-targets where speeds follow the clock: refused before the run (placement) or when it
# starts (a trace by time), exit 2 and one line either way.
echo '{"platform": "'"$PLATFORM"'", "ring": {"size": 4, "seed": 1}, "iterations": 10, "ratio": 1,
 "scheme": "hindsight-targets", "traces": {"source": "on-off", "available": 3, "loaded": 2, "placement": "nominal-time"}}' >timed.json
expect_refused "hindsight-targets with time-placed traces" "needs traces 'placement': 'iteration'" "$RINGSIM" simulate timed.json
printf 'host,time,speed\nJacquelin,0,1e8\nJacquelin,5,2e7\n' >bytime.csv
echo '{"platform": "'"$PLATFORM"'", "ring": {"hosts": ["Jacquelin", "Boivin", "Jean_Yves"]}, "iterations": 10,
 "ratio": 1, "scheme": "hindsight-targets", "traces": {"source": "files", "csv": "bytime.csv", "default": "constant"}}' >bytime.json
expect_refused "hindsight-targets with a trace by time" "these traces follow the clock" "$RINGSIM" simulate bytime.json
# The table of experiments/when/when_chosen_targets.py on rows written here: the means, the ratios and
# the count of points within 1.10 are the rows' own.
TABLE=$(cd "$(dirname "$0")/../../experiments/when" && pwd)/when_chosen_targets.py
cat >rows.csv <<'CSV'
run_id,ring_size,ratio,scheme,seed,normalized_time,redistributions
a,8,0.1,hindsight,1,0.8,2
b,8,0.1,hindsight,2,0.6,4
c,8,0.1,hindsight-targets,1,0.6,3
d,8,0.1,hindsight-targets,2,0.4,5
e,8,0.1,adaptive-lasting,1,0.8,1
f,8,0.1,adaptive-lasting,2,0.7,1
g,8,1,hindsight,1,0.5,6
h,8,1,hindsight-targets,1,0.5,6
i,8,1,adaptive-lasting,1,0.52,7
j,8,1,none,1,1.0,0
CSV
# lines_in NAME FILE FLAGS LINE...: each LINE is in FILE (grep -q FLAGS), else a failure naming NAME.
lines_in() {
  local name=$1 file=$2 flags=$3 want
  shift 3
  for want in "$@"; do
    grep -q"$flags" -- "$want" "$file" || { echo "FAIL $name: no line '$want'"; cat "$file"; fail=1; }
  done
}
if $PY "$TABLE" table.md fam=rows.csv >/dev/null 2>table.err; then
  # ratio 0.1: hindsight 0.7, targets 0.5 (0.714), lasting 0.75 (1.071 and 1.5); ratio 1: 1.04 both
  lines_in when_chosen_targets.py table.md F \
    "| 8 | 0.1 | 2 | 0.700 | 3.0 | 0.500 | 4.0 | 0.714 | 0.750 | 1.071 | 1.500 |" \
    "| 8 | 1 | 1 | 0.500 | 6.0 | 0.500 | 6.0 | 1.000 | 0.520 | 1.040 | 1.040 |" \
    "within 1.1 of hindsight at 2 of 2 (ring, ratio) points, of hindsight-targets at 1."
else
  echo "FAIL when_chosen_targets.py: $(cat table.err)"; fail=1
fi
# Seeds a table must not divide by are left out and counted: seed 2's hindsight is not exactly
# optimal, seed 3's hindsight-targets ended above every-5 by 1%; seed 1 alone remains.
cat >left.csv <<'CSV'
run_id,ring_size,ratio,scheme,seed,repetition,normalized_time,redistributions,makespan,reference_optimal_under_model,reference_simulated_over_predicted
a1,8,1,hindsight,1,0,0.8,2,80,true,1.0
a2,8,1,hindsight,2,0,0.6,2,60,false,1.0
a3,8,1,hindsight,3,0,0.6,2,60,true,1.0
b1,8,1,hindsight-targets,1,0,0.6,3,60,true,1.0
b2,8,1,hindsight-targets,2,0,0.5,3,50,true,1.0
b3,8,1,hindsight-targets,3,0,0.707,3,70.7,true,1.0
c1,8,1,adaptive-lasting,1,0,0.9,1,90,,
c2,8,1,adaptive-lasting,2,0,0.9,1,90,,
c3,8,1,adaptive-lasting,3,0,0.9,1,90,,
d3,8,1,every-5,3,0,0.7,19,70,,
CSV
if $PY "$TABLE" table3.md fam=left.csv >/dev/null 2>table.err; then
  lines_in when_chosen_targets.py table3.md F \
    "| 8 | 1 | 1 | 0.800 | 2.0 | 0.600 | 3.0 | 0.750 | 0.900 | 1.125 | 1.500 |" \
    "Runs left out (a reference not exactly optimal under the model, beaten by a checked fixed scheme in the simulation, or above a fixed scheme of the same run by more than 0.5%): 2 (ring 8 ratio 1 seed 2: hindsight not exactly optimal under the model; ring 8 ratio 1 seed 3: hindsight-targets above a fixed scheme by 1.0%)."
else
  echo "FAIL when_chosen_targets.py: $(cat table.err)"; fail=1
fi
# experiments/when/when_information.py divides by hindsight only where it is an optimum: seed 2's
# hindsight is not exactly optimal, seed 3's ended 1% above never moving; both leave both tables,
# which then hold seed 1's ratios alone, and the count closes the text.
INFO=$(cd "$(dirname "$0")/../../experiments/when" && pwd)/when_information.py
cat >info-runs.csv <<'CSV'
run_id,ring_size,ratio,scheme,algorithm,seed,repetition,makespan,normalized_time,reference_optimal_under_model
n1,8,1,none,-,1,0,100,1,
n2,8,1,none,-,2,0,100,1,
n3,8,1,none,-,3,0,100,1,
h1,8,1,hindsight,auto,1,0,80,0.8,true
h2,8,1,hindsight,auto,2,0,50,0.5,false
h3,8,1,hindsight,auto,3,0,101,1.01,true
o1,8,1,online-optimal,auto,1,0,90,0.9,
o2,8,1,online-optimal,auto,2,0,90,0.9,
o3,8,1,online-optimal,auto,3,0,90,0.9,
l1,8,1,adaptive-lasting,auto,1,0,96,0.96,
l2,8,1,adaptive-lasting,auto,2,0,96,0.96,
l3,8,1,adaptive-lasting,auto,3,0,96,0.96,
CSV
cat >info-bounds.csv <<'CSV'
run_id,ring_size,ratio,seed,scheme,predicted_makespan,predicted_none,expected_makespan,expected_none,expected_any_target,any_target_makespan,any_target_none,hindsight_any_target_makespan
h1,8,1,1,hindsight,80,100,,,,,,
h2,8,1,2,hindsight,50,100,,,,,,
h3,8,1,3,hindsight,99,100,,,,,,
o1,8,1,1,online-optimal,90,100,92,100,88,85,100,75
o2,8,1,2,online-optimal,90,100,92,100,88,85,100,45
o3,8,1,3,online-optimal,90,100,92,100,88,85,100,75
CSV
if $PY "$INFO" info-runs.csv info-bounds.csv info.md >/dev/null 2>info.err; then
  lines_in when_information.py info.md xF \
    "| 8 | 1 | 1 | 1.000 | 0.800 | 0.900 | 0.960 | 1.125; 1.125 +- 0.000 | 1.067; 1.067 +- 0.000 | 1.200; 1.200 +- 0.000 |" \
    "| 8 | 1 | 1 | 0.800 | 0.900 | 0.850 | 1.125 | 1.062 | 0.957 (0.957) | 0.750 | 1.133; 1.133 +- 0.000 |" \
    "Seeds left out of both tables (hindsight not exactly optimal under the model, beaten by a checked fixed scheme in the simulation, or above a fixed scheme of the same run by more than 0.5%): 2 (ring 8 ratio 1 seed 2: hindsight not exactly optimal under the model; ring 8 ratio 1 seed 3: hindsight above a fixed scheme by 1.0%)."
else
  echo "FAIL when_information.py: $(cat info.err)"; fail=1
fi
cut -d, -f8 --complement info-runs.csv >info-no-makespan.csv
expect_refused "when_information.py without makespan" "lacks the column(s) makespan" \
  $PY "$INFO" info-no-makespan.csv info-bounds.csv info2.md
[ -e info2.md ] && { echo "FAIL when_information.py: a table written on bad input"; fail=1; }
# when_information.py late: two online-optimal results of ring 8 ratio 1 (never 100, online-optimal
# 80 and 90, any target 76 and 81, late 84 and 99): online / never (0.8 + 0.9) / 2 = 0.850; any / online
# (0.95 + 0.9) / 2 = 0.925; late / online 1.05 and 1.1, mean 1.075; late / any (84/76 + 99/81) / 2 = 1.164.
# Along the traces: online-optimal predicted 100 and 200 with 3 and 1 points; the late rule 95 and
# 210 (2 and 0 points, 1 and 2 looks), learning 110 and 220 (1 and 3 points, 0 and 1 looks, 3 and 5
# solves): late / online 0.95 and 1.05, learning / online 1.1 both, learning / late
# (110/95 + 220/210) / 2 = 1.103.
mkdir -p late/runs/a late/runs/b late/runs/c
printf '{"ring_size":8,"ratio":1,"online_optimal":{"expected_makespan":80,"expected_makespan_without_points":100,"predicted_makespan":100,"points":[1,2,3],"any_target":{"expected_makespan":76},"late":{"expected_makespan":84,"delay":3,"look":2,"points":[1,2],"looks":[1],"predicted_makespan":95,"learning":{"points":[1],"looks":[],"predicted_makespan":110,"solves":3,"resolve":0.2}}}}' >late/runs/a/result.json
printf '{"ring_size":8,"ratio":1,"online_optimal":{"expected_makespan":90,"expected_makespan_without_points":100,"predicted_makespan":200,"points":[1],"any_target":{"expected_makespan":81},"late":{"expected_makespan":99,"delay":3,"look":4,"points":[],"looks":[2,3],"predicted_makespan":210,"learning":{"points":[4,5,6],"looks":[1],"predicted_makespan":220,"solves":5,"resolve":0.2}}}}' >late/runs/b/result.json
printf '{"ring_size":8,"ratio":1,"scheme":"hindsight"}' >late/runs/c/result.json
# A policy simulated on the same seeds: 110 and 180 against online-optimal's 100 and 200 (1.1 and
# 0.9); its seed 3 has no online-optimal run and is left out.
printf 'ring_size,ratio,scheme,seed,makespan\n8,1,online-optimal,1,100\n8,1,online-optimal,2,200\n8,1,none,1,300\n' >late/runs.csv
printf 'ring_size,ratio,scheme,seed,makespan\n8,1,adaptive-lasting,1,110\n8,1,adaptive-lasting,2,180\n8,1,adaptive-lasting,3,50\n' >late-policies.csv
if $PY "$INFO" late late late.md late-policies.csv >/dev/null 2>late.err; then
  lines_in "when_information.py late" late.md F "| 8 | 1 | 2 | 3 | 3.000 | 0.850 | 0.925 | 1.075 (1.050, 1.100) | 1.164 |" \
    "| 8 | 1 | 2 | 1.000 (0.950, 1.050) | 1.100 (1.100, 1.100) | 1.103 | 2.0, 1.0, 2.0 | 1.5, 0.5 | 4.0 |" \
    "| adaptive-lasting | 8 | 1 | 2 | 1.000 (0.900, 1.100) |"
else
  echo "FAIL when_information.py late: $(cat late.err)"; fail=1
fi
printf 'ring_size,ratio,scheme,makespan\n8,1,adaptive-lasting,110\n' >late-noseed.csv
expect_refused "when_information.py late, policies without seeds" "a row lacks ring_size, ratio, seed" \
  $PY "$INFO" late late late2.md late-noseed.csv
[ -e late2.md ] && { echo "FAIL when_information.py late: a table written on bad input"; fail=1; }
printf '{"ring_size":8,"ratio":1,"online_optimal":{"expected_makespan":80,"expected_makespan_without_points":100,"any_target":{"expected_makespan":76}}}' >late/runs/b/result.json
expect_refused "when_information.py late, an older result" "lacks the late rule" $PY "$INFO" late late late2.md
[ -e late2.md ] && { echo "FAIL when_information.py late: a table written on bad input"; fail=1; }
printf '{"ring_size":8,"ratio":1,"online_optimal":{"expected_makespan":90,"expected_makespan_without_points":100,"predicted_makespan":200,"points":[1],"any_target":{"expected_makespan":81},"late":{"expected_makespan":99,"delay":3,"look":4}}}' >late/runs/b/result.json
expect_refused "when_information.py late, no late rule along the traces" "lacks the late rule along its traces" \
  $PY "$INFO" late late late2.md
[ -e late2.md ] && { echo "FAIL when_information.py late: a table written on bad input"; fail=1; }
expect_refused "when_chosen_targets.py without rows" "cannot read" $PY "$TABLE" table2.md fam=missing.csv
[ -e table2.md ] && { echo "FAIL when_chosen_targets.py: a table written on bad input"; fail=1; }
# experiments/when/when_criteria.py: each criterion's mean over hindsight's on the same seeds, the
# best fixed scheme among them, online-optimal over the seeds it has; ring 32's seed 1 is left out
# (its hindsight is not exactly optimal), so that point holds seed 2 alone.
CRIT=$(cd "$(dirname "$0")/../../experiments/when" && pwd)/when_criteria.py
{
  echo "run_id,ring_size,ratio,scheme,algorithm,seed,repetition,makespan,normalized_time,redistributions,reference_optimal_under_model"
  for row in "8 none 1 1.0 0" "8 none 2 1.0 0" "8 every-5 1 0.6 19" "8 every-5 2 0.9 19" \
             "8 stop-at-rise 1 0.66 3" "8 stop-at-rise 2 0.66 5" "8 hindsight 1 0.5 4" "8 hindsight 2 0.7 6" \
             "8 online-optimal 1 0.55 2" "32 none 1 1.0 0" "32 none 2 1.0 0" "32 every-5 1 0.9 9" \
             "32 every-5 2 0.9 9" "32 stop-at-rise 1 0.88 1" "32 stop-at-rise 2 0.96 1" \
             "32 hindsight-false 1 0.4 3" "32 hindsight 2 0.8 2"; do
    set -- $row
    scheme=${2%-false}; exact=; [ "$scheme" = hindsight ] && exact=true; [ "$2" != "$scheme" ] && exact=false
    echo "r$1$2$3,$1,1,$scheme,auto,$3,0,$(echo "$4 * 100" | bc),$4,$5,$exact"
  done
} >criteria.csv
if $PY "$CRIT" table criteria.md figures t=criteria.csv --describe criteria.json >/dev/null 2>criteria.err; then
  lines_in when_criteria.py criteria.md xF \
    "| ring | ratio | seeds | hindsight | best fixed (hindsight) | best fixed | stop-at-rise | online-optimal |" \
    "| 8 | 1 | 2 | 0.600 (5.0) | every-5 | 1.250 (19.0) | 1.100 (4.0) | 1.100 (2.0) |" \
    "| 32 | 1 | 1 | 0.800 (2.0) | every-5 | 1.125 (9.0) | 1.200 (1.0) |  |" \
    "- best fixed: at most 1.250 of hindsight (ring 8, ratio 1); within 1.15 of hindsight at 1 of 2." \
    "- stop-at-rise: at most 1.200 of hindsight (ring 32, ratio 1); within 1.05 of the best fixed at 1 of 2 points, within 1.15 of hindsight at 1 of 2." \
    "- online-optimal: at most 1.100 of hindsight (ring 8, ratio 1); within 1.05 of the best fixed at 1 of 1 points, within 1.15 of hindsight at 1 of 1."
  lines_in when_criteria.py criteria.md F "runs left out" \
    "): 1 (ring 32 ratio 1 seed 1: not exactly optimal under the model)."
  [ "$($PY -c 'import json, sys; print(sorted(p["title"] for f in json.load(open(sys.argv[1]))["figures"] for p in f["panels"]))' criteria.json)" \
    = "['t: ring of 32', 't: ring of 8']" ] || { echo "FAIL when_criteria.py: the figure's panels"; cat criteria.json; fail=1; }
else
  echo "FAIL when_criteria.py: $(cat criteria.err)"; fail=1
fi
# when_criteria.py goals, stop-at-rise as the policy on the same runs: ring 8 at 0.66 / 0.75 of
# every-5 (0.880), 0.66 / 0.6 of hindsight (1.100), seed 1 alone against online-optimal (0.66 / 0.55
# = 1.200); ring 32 on seed 2 alone, 0.96 / 0.9 of every-5 (1.067) and 0.96 / 0.8 of hindsight (1.200).
if $PY "$CRIT" goals goals.md stop-at-rise t,u s/t=criteria.csv >/dev/null 2>goals.err; then
  lines_in "when_criteria.py goals" goals.md xF \
    "| s | t (smooth) | 1 of 2; worst 1.067 (ring 32, ratio 1) **(missed)** | 1 of 2; worst 1.200 (ring 32, ratio 1) **(missed)** | 0 of 1; worst 1.200 (ring 8, ratio 1) **(missed)** |" \
    "Within the goals, every row above (within 1.15 of hindsight: the smooth families only): best fixed: 1 of 2 points; hindsight: 1 of 2 points; online-optimal: 0 of 1 points."
else
  echo "FAIL when_criteria.py goals: $(cat goals.err)"; fail=1
fi
expect_refused "when_criteria.py goals without a seed set" "expected SET/FAMILY=RUNS.csv" $PY "$CRIT" goals g2.md stop-at-rise t t=criteria.csv
expect_refused "when_criteria.py goals of a policy not run" "hold no forecast run" $PY "$CRIT" goals g2.md forecast t s/t=criteria.csv
[ -e g2.md ] && { echo "FAIL when_criteria.py goals: a table written on bad input"; fail=1; }
grep -v ",hindsight," criteria.csv >no-hindsight.csv
expect_refused "when_criteria.py without hindsight" "holds no hindsight run" $PY "$CRIT" table c2.md figures t=no-hindsight.csv
[ -e c2.md ] && { echo "FAIL when_criteria.py: a table written on bad input"; fail=1; }
exit $fail
