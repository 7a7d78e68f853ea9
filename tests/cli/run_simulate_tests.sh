#!/usr/bin/env bash
# Simulation tests (each `ringsim simulate` is its own process: one SimGrid simulation per process).
set -u
RINGSIM=${1:?usage: run_simulate_tests.sh path/to/ringsim}
DATA=$(cd "$(dirname "$0")/../data" && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"

# 1. Homogeneous ring, linear model, zero latency: every simulated redistribution takes exactly the
#    planner's predicted time, and the schedule is optimal.
"$RINGSIM" simulate "$DATA/sim-homogeneous.json" --iterations-csv "$tmp/it.csv" >"$tmp/a.json" 2>"$tmp/err" \
  || { echo "FAIL homogeneous run"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/a.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
pts = [p for p in r["points"] if p["performed"]]
assert len(pts) >= 3, f"only {len(pts)} redistributions performed"
for p in pts:
    assert abs(p["predicted"] - p["simulated"]) <= 1e-9 * max(1, p["predicted"]), p
    assert p["optimal"], p
assert r["normalized_time"] is not None and r["normalized_time"] > 0
print(f"homogeneous: {len(pts)} redistributions, simulated == predicted, normalized_time={r['normalized_time']:.4f}")
PY
[ "$(wc -l <"$tmp/it.csv")" -eq 31 ] || { echo "FAIL iterations csv has $(wc -l <"$tmp/it.csv") lines"; fail=1; }

# 2. Conservation through every scheme (the simulator asserts it after each redistribution and
#    aborts otherwise) and the counts of redistribution points.
for scheme in none once every-20 every-10 every-5 after:3,7,11 adaptive-gather-3 adaptive; do
  sed "s/\"every-5\"/\"$scheme\"/; s/\"bi-homogeneous\"/\"auto\"/" "$DATA/sim-homogeneous.json" >"$tmp/s.json"
  cp "$DATA/ring6-homogeneous.xml" "$tmp/"
  "$RINGSIM" simulate "$tmp/s.json" --no-baseline >"$tmp/s.out" 2>"$tmp/err" || { echo "FAIL scheme $scheme"; cat "$tmp/err"; fail=1; continue; }
  $PY - "$tmp/s.out" "$scheme" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1])); s = sys.argv[2]
expected = {"none": 0, "once": 1, "every-20": 1, "every-10": 2, "every-5": 5, "after:3,7,11": 3,
            "adaptive-gather-3": 9, "adaptive": None}[s]
assert expected is None or r["redistribution_points"] == expected, (s, r["redistribution_points"])
assert all(sum(it) for it in [[1]])
PY
done

# 3. Same config, same seeds: byte-identical output.
"$RINGSIM" simulate "$DATA/sim-homogeneous.json" >"$tmp/b.json" 2>/dev/null
cmp -s "$tmp/a.json" "$tmp/b.json" || { echo "FAIL outputs differ between identical runs"; fail=1; }

# 3b. A ring chosen by the SharedRing planner, its paths as explicit routes and its bandwidth
#     shares on the borders: with latencies ignored (the planner's model has none) an iteration
#     takes about the planner's T_step: borders go both ways at once (a bit less), and columns are
#     whole, so a member holds at most one column more than its share (at most load / (load - 1)
#     times more).
printf '%s' '{"platform": "platforms/tiers37.xml", "ring": {"selection": "planner", "method": "greedy"},
 "ratio": 1, "scheme": "every-20", "iterations": 40}' >"$tmp/planner.json"
"$RINGSIM" simulate "$tmp/planner.json" --no-baseline --iterations-csv "$tmp/pit.csv" --cfg=network/latency-factor:0 \
  >"$tmp/p.json" 2>"$tmp/err" || { echo "FAIL planner ring"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/p.json" "$tmp/pit.csv" <<'PY' || fail=1
import csv, json, sys
r = json.load(open(sys.argv[1]))
first = next(csv.DictReader(open(sys.argv[2])))
ratio = float(first["duration"]) / r["planned_tstep"]
least = min(int(x) for x in first["loads"].split(";"))
assert r["ring_size"] >= 2 and least >= 2 and 0.8 <= ratio <= least / (least - 1) + 1e-9, (r["ring_size"], ratio, least)
print(f"planner ring: {r['ring_size']} members, first iteration / planned T_step = {ratio:.4f}")
PY

# 3c. Reports ride on the border messages: a policy that piggybacks them and never moves anything
#     (observe) makes iterations longer by the report bytes each message carries; the fixed
#     schemes' messages do not grow.
cp "$DATA/ring6-homogeneous.xml" "$tmp/"
for rb in 16 1000000; do
  for scheme in none observe; do
    sed "s/\"every-5\"/\"$scheme\"/; s/\"report_bytes\": 16/\"report_bytes\": $rb/" "$DATA/sim-homogeneous.json" >"$tmp/o.json"
    "$RINGSIM" simulate "$tmp/o.json" --no-baseline >"$tmp/o-$scheme-$rb.out" 2>"$tmp/err" || { echo "FAIL $scheme report_bytes $rb"; cat "$tmp/err"; fail=1; }
  done
done
$PY - "$tmp" <<'PY' || fail=1
import json, sys
m = {(s, rb): json.load(open(f"{sys.argv[1]}/o-{s}-{rb}.out"))["makespan"] for s in ("none", "observe") for rb in (16, 1000000)}
assert m[("none", 16)] == m[("none", 1000000)], m            # no report on fixed schemes' messages
assert m[("observe", 16)] > m[("none", 16)], m               # 16 B a report: a little longer
assert m[("observe", 1000000)] > 2 * m[("none", 16)], m      # 1 MB a report: far longer
print(f"piggybacked reports: makespan none {m[('none', 16)]:.4f} s, observe 16 B {m[('observe', 16)]:.4f} s, 1 MB {m[('observe', 1000000)]:.4f} s")
PY

# 4. Bad configs: exit 2, one line, nothing on stdout, before any run.
bad() {  # name, json, fragment
  printf '%s' "$2" >"$tmp/bad.json"
  expect_refused "$1" "$3" "$RINGSIM" simulate "$tmp/bad.json"
}
cp "$DATA/ring6-homogeneous.xml" "$tmp/"
bad unknown_key '{"platform": "ring6-homogeneous.xml", "ratio": 1, "colour": 2}' "unknown key 'colour'"
bad wrong_type '{"platform": "ring6-homogeneous.xml", "ratio": "high"}' "'ratio' must be a number"
bad missing_platform '{"platform": "nowhere.xml", "ratio": 1}' "does not exist"
bad ratio_zero '{"platform": "ring6-homogeneous.xml", "ratio": 0}' "'ratio' must be > 0"
bad ratio_negative '{"platform": "ring6-homogeneous.xml", "ratio": -3}' "'ratio' must be > 0"
bad ring_too_large '{"platform": "ring6-homogeneous.xml", "ratio": 1, "ring": {"size": 7}}' "does not fit"
bad unknown_host '{"platform": "ring6-homogeneous.xml", "ratio": 1, "ring": {"hosts": ["h0", "zz"]}}' "'zz'"
bad bad_scheme '{"platform": "ring6-homogeneous.xml", "ratio": 1, "scheme": "sometimes"}' "unknown scheme 'sometimes' (known: none, once"
# An unknown redistribution algorithm is refused when the config is read, before the run, not at
# the first redistribution point, mid-run.
bad bad_algorithm '{"platform": "ring6-homogeneous.xml", "ratio": 1, "scheme": "every-5", "algorithm": "magic"}' "bad.json': unknown algorithm 'magic' (known: auto, uni-homogeneous"
bad bad_algorithm_no_point '{"platform": "ring6-homogeneous.xml", "ratio": 1, "algorithm": "magic"}' "unknown algorithm 'magic'"
bad old_adaptive_name '{"platform": "ring6-homogeneous.xml", "ratio": 1, "scheme": "adaptive-3"}' "adaptive-gather-K"
bad bad_period '{"platform": "ring6-homogeneous.xml", "ratio": 1, "scheme": "adaptive-gather-0"}' "positive integer"
bad malformed '{"platform": ' "malformed JSON"
bad bad_method '{"platform": "ring6-homogeneous.xml", "ratio": 1, "ring": {"selection": "planner", "method": "magic"}}' "magic"

# Algorithm 2's paced blocks reach the simulator's executor: items forwarded at the planned pace,
# every column once (the simulation checks conservation after every move).
printf '%s' '{"platform": "platforms/paper2004_tiers90.xml", "ring": {"size": 8, "seed": 3}, "ratio": 0.3,
 "iterations": 40, "scheme": "every-5", "algorithm": "uni-heterogeneous"}' >"$tmp/paced.json"
"$RINGSIM" simulate "$tmp/paced.json" --no-baseline >"$tmp/paced.out" 2>"$tmp/err" || { echo "FAIL paced uni-heterogeneous run"; cat "$tmp/err"; fail=1; }
/usr/bin/python3 - "$tmp/paced.out" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
moved = [p for p in r["points"] if p["performed"] and p["algorithm"] == "uni-heterogeneous" and p["items_moved"] > 0]
if not moved or any(p["simulated"] <= 0 for p in moved):
    print("FAIL no uni-heterogeneous move was simulated:", r["points"])
    sys.exit(1)
PY

# The benchmark's yardstick: a bare S4U ring built beside ringsim, linked with SimGrid only; the
# benchmark prints in-process, whole-process and start-up figures (figures only, never judged).
BARE="$(dirname "$RINGSIM")/ringsim-bare-s4u"
[ -x "$BARE" ] || { echo "FAIL no ringsim-bare-s4u beside ringsim"; fail=1; }
if [ -x "$BARE" ]; then
  ldd "$BARE" | grep -q -E "glpk|pugixml" && { echo "FAIL ringsim-bare-s4u links more than SimGrid"; fail=1; }
  hosts=$(grep -o '<host id="[^"]*"' "$DATA/ring6-homogeneous.xml" | head -n 4 | sed 's/<host id="//; s/"$//')
  [ "$(echo "$hosts" | wc -l)" -eq 4 ] || { echo "FAIL could not read four hosts of ring6-homogeneous.xml"; fail=1; }
  echo "$hosts" | awk '{print $1, 1e6}' >"$tmp/members"
  "$BARE" "$DATA/ring6-homogeneous.xml" "$tmp/members" 3 8000 >"$tmp/bare.out" 2>"$tmp/err" && grep -qE '^[0-9.e+-]+$' "$tmp/bare.out" \
    || { echo "FAIL bare ring"; cat "$tmp/err"; fail=1; }
  "$BARE" "$DATA/ring6-homogeneous.xml" "$tmp/members" 3 8000 >/dev/full 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL bare ring into a full disk: rc=$rc"; cat "$tmp/err"; fail=1; }
  printf '%s\n' "$(echo "$hosts" | head -n 1) many" >"$tmp/badmembers"
  printf 'nosuchhost 1e6\n%s 1e6\n' "$(echo "$hosts" | head -n 1)" >"$tmp/unknownhost"
  for bad in "$tmp/members x 8000" "$tmp/nothing 3 8000" "$tmp/badmembers 3 8000" "$tmp/unknownhost 3 8000"; do
    # shellcheck disable=SC2086
    "$BARE" "$DATA/ring6-homogeneous.xml" $bad >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL bare ring bad arguments '$bad': rc=$rc"; cat "$tmp/err"; fail=1; }
  done
  "$RINGSIM" bench simulate --members 4 --repeat 1 >"$tmp/bench.out" 2>"$tmp/err" || { echo "FAIL bench simulate"; cat "$tmp/err"; fail=1; }
  for key in ratio_to_bare whole_process_ratio_to_bare whole_process_ratio_to_bare_barrier_same_allocator startup_seconds bare_s4u_startup_seconds \
             step_config_seconds step_checks_seconds step_engine_and_platform_seconds step_setup_seconds \
             step_simulation_seconds step_outputs_seconds; do
    grep -qE "^$key=[0-9.]+$" "$tmp/bench.out" || { echo "FAIL bench simulate printed no $key"; cat "$tmp/bench.out"; fail=1; }
  done
  # The yardstick simulates the same ring and work: with its barrier, the very same makespan.
  grep -qx "same_makespan=yes" "$tmp/bench.out" || { echo "FAIL the bare ring does not simulate ringsim's run"; cat "$tmp/bench.out"; fail=1; }
fi

# The at-scale bench script (bench/simulate_at_scale.sh): one row per run, its messages counted from
# the run's own points (2 N per iteration, N (N - 1) per all-gather, one per column and hop moved),
# the iterations and trace source it was told.
SCALE=$(cd "$(dirname "$0")/../../bench" && pwd)/simulate_at_scale.sh
bash "$SCALE" "$RINGSIM" "$DATA/ring6-homogeneous.xml" "4" "none every-5" 400 20 measured >"$tmp/scale.csv" 2>"$tmp/err" \
  || { echo "FAIL simulate_at_scale.sh"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/scale.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["scheme"] for r in rows] == ["none", "every-5"], rows
for r in rows:
    assert r["members"] == "4" and r["iterations"] == "20" and r["traces"] == "measured", r
none, every = rows
assert none["points"] == "0" and int(none["messages"]) == 2 * 4 * 20, none
assert every["points"] == "3" and int(every["gathers"]) == 3, every  # after 5, 10 and 15
assert int(every["messages"]) >= 2 * 4 * 20 + 3 * 4 * 3, every
print(f"at-scale script: {len(rows)} rows, messages {none['messages']} and {every['messages']}")
PY

[ $fail -eq 0 ] && echo "all simulation tests passed"
exit $fail
