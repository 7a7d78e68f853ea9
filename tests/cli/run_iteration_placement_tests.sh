#!/usr/bin/env bash
# Speed changes given by iteration take effect at the start of that iteration (HiPC 2004, Section
# 7: each speed changes "at some iteration"), however iterations stretch (traces.placement
# iteration, the default); traces.placement nominal-time keeps the former placement (iteration *
# the first iteration's predicted time, a SimGrid profile); changes given by time are unchanged.
set -u
RINGSIM=${1:?usage: run_iteration_placement_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
cp "$PLATFORM" platform.xml
# ratio 10: computation dominates; scheme none: loads never change, so an iteration's duration
# follows its speeds alone.
base() { echo "\"platform\": \"platform.xml\", \"ring\": {\"size\": $1, \"seed\": 2}, \"ratio\": 10, \"iterations\": 100, \"rows\": 100, \"columns\": 100, \"scheme\": \"none\", \"baseline\": false"; }
config() { echo "{$(base "$2"), \"traces\": $3}" >"$1"; }
run() {  # name config: DIR name/ with result.json, iterations.csv, traces/
  mkdir -p "$1"
  "$RINGSIM" simulate "$2" --out "$1/result.json" --iterations-csv "$1/iterations.csv" --traces-dir "$1/traces" \
    2>"$1/err" || { echo "FAIL simulate $2"; cat "$1/err"; fail=1; }
}

# The ring's hosts (ringsim traces lists them).
config hosts4.json 4 '{"source": "factor", "windows": []}'
"$RINGSIM" traces hosts4.json -o hosts4 2>/dev/null || { echo "FAIL traces hosts4"; exit 1; }
hosts=$(tail -n +2 hosts4/traces.csv | cut -d, -f1,2)

# 1. A CSV by iteration: every member at 0.8 of its peak from iteration 10 (iterations stretch
#    by 1.25), halved (0.5) at iteration 20, divided by 8 (0.0625) at iteration 70.
{
  echo "host,iteration,speed"
  while IFS=, read -r h peak; do
    $PY -c 'import sys; h, p = sys.argv[1], float(sys.argv[2]); [print(f"{h},{k},{m * p!r}") for k, m in ((10, 0.8), (20, 0.5), (70, 0.0625))]' "$h" "$peak"
  done <<<"$hosts"
} >steps.csv
config it4.json 4 '{"source": "files", "csv": "steps.csv"}'
config nominal4.json 4 '{"source": "files", "csv": "steps.csv", "placement": "nominal-time"}'
config it1.json 1 '{"source": "files", "csv": "steps.csv"}'
run it4 it4.json
run nominal4 nominal4.json
run it1 it1.json
# Durations: constant within [1,9], [10,19], [20,69], [70,100] and changing at 10, 20 and 70 exactly;
# on one member (no border exchange) duration = work / (peak * multiplier) to rounding, and the
# traces.csv times are the simulated starts of iterations 10, 20 and 70.
for d in it4 it1; do
  $PY - "$d" <<'PY' || { echo "FAIL $d: durations do not change exactly at iterations 10, 20, 70"; fail=1; }
import csv, sys
d = sys.argv[1]
its = list(csv.DictReader(open(f"{d}/iterations.csv")))
dur = [float(r["duration"]) for r in its]
start = {int(r["iteration"]): float(r["start"]) for r in its}
mult = lambda k: 1.0 if k < 10 else 0.8 if k < 20 else 0.5 if k < 70 else 0.0625
for k in range(2, 101):
    same = abs(dur[k - 1] - dur[k - 2]) <= 1e-9 * dur[k - 1]
    assert same == (mult(k) == mult(k - 1)), (k, dur[k - 2], dur[k - 1])
if d == "it1":  # duration of iteration k = duration of iteration 1 / multiplier of k
    for k in range(1, 101):
        assert abs(dur[k - 1] - dur[0] / mult(k)) <= 1e-9 * dur[k - 1], (k, dur[k - 1], dur[0] / mult(k))
rows = [r for r in csv.DictReader(open(f"{d}/traces/traces.csv")) if r["iteration"] not in ("", "0")]
assert rows and all(float(r["time"]) == start[int(r["iteration"])] for r in rows), rows
PY
done
# The former placement: the change written for iteration 70 falls at 70 * T0 (T0: the first
# iteration's predicted time), inside an earlier iteration since iterations stretched.
$PY - <<'PY' || { echo "FAIL nominal-time: the change for iteration 70 is not at 70 * T0"; fail=1; }
import csv, json
t0 = json.load(open("nominal4/result.json"))["initial_iteration_time"]
its = list(csv.DictReader(open("nominal4/iterations.csv")))
dur = [float(r["duration"]) for r in its]
hit = next(int(r["iteration"]) for r in its if float(r["start"]) <= 70 * t0 < float(r["end"]))
assert 40 <= hit < 60, hit  # stretched by 1.25 from 10, by 2 from 20: iteration 44
changed = [k for k in range(2, 101) if abs(dur[k - 1] - dur[k - 2]) > 1e-9 * dur[k - 1]]
assert hit in changed and 70 not in changed, (hit, changed)
rows = [r for r in csv.DictReader(open("nominal4/traces/traces.csv")) if r["iteration"] == "70"]
assert rows and all(float(r["time"]) == 70 * t0 for r in rows), rows
print(f"nominal-time: the change written for iteration 70 slows iteration {hit}")
PY

# 2. The generated families on one member (no redistribution): the duration of iteration k is the
#    first iteration's times its multiplier over iteration k's, the multipliers read from traces.csv;
#    on four members, the duration changes only at iterations where some member's speed changes.
config rw1.json 1 '{"seed": 5, "source": "random-walk", "step": 0.3, "low": 0.2, "high": 1.0, "every": 7}'
config oo1.json 1 '{"seed": 5, "source": "on-off", "available": 8, "loaded": 6, "load_factor": 0.25}'
config ms1.json 1 '{"seed": 5, "source": "measured"}'
config oo4.json 4 '{"seed": 5, "source": "on-off", "available": 8, "loaded": 6, "load_factor": 0.25}'
config ms4.json 4 '{"seed": 5, "source": "measured"}'
for c in rw1 oo1 ms1 oo4 ms4; do
  run $c $c.json
  $PY - $c <<'PY' || { echo "FAIL $c: iteration durations do not follow the multipliers of their iterations"; fail=1; }
import csv, sys
d = sys.argv[1]
dur = [float(r["duration"]) for r in csv.DictReader(open(f"{d}/iterations.csv"))]
steps = {}
for r in csv.DictReader(open(f"{d}/traces/traces.csv")):
    steps.setdefault(r["host"], []).append((int(r["iteration"]), float(r["multiplier"])))
def mult(h, k):
    m = 1.0
    for it, v in steps[h]:
        if it <= k: m = v
    return m
if len(steps) == 1:
    (h,) = steps
    changes = sum(1 for k in range(2, 101) if mult(h, k) != mult(h, k - 1))
    assert changes >= 2, f"{d}: too few changes to test ({changes})"
    for k in range(1, 101):
        want = dur[0] * mult(h, 1) / mult(h, k)
        assert abs(dur[k - 1] - want) <= 1e-9 * want, (k, dur[k - 1], want)
else:
    for k in range(2, 101):
        moved = any(mult(h, k) != mult(h, k - 1) for h in steps)
        if not moved: assert abs(dur[k - 1] - dur[k - 2]) <= 1e-9 * dur[k - 1], (k, dur[k - 2], dur[k - 1])
PY
done

# 3. Round trip: simulate --traces-dir writes when each change took effect; those times as a CSV by
#    time (a SimGrid profile) give the same run, to rounding.
for c in it4 oo4; do
  $PY - $c/traces/traces.csv >timed_$c.csv <<'PY'
import csv, sys
print("host,time,speed")
for r in csv.DictReader(open(sys.argv[1])): print(f"{r['host']},{r['time']},{r['speed_flops']}")
PY
  config timed_$c.json 4 "{\"source\": \"files\", \"csv\": \"timed_$c.csv\"}"
  run timed_$c timed_$c.json
  $PY -c 'import json,sys; a,b=(json.load(open(f))["makespan"] for f in sys.argv[1:]); assert abs(a-b) <= 1e-9*a, (a,b)' \
    $c/result.json timed_$c/result.json || { echo "FAIL $c: the traces.csv times do not replay the run"; fail=1; }
done

# 4. Changes given by time do not depend on the placement: a CSV by time runs alike with either.
config timed_nominal.json 4 '{"source": "files", "csv": "timed_it4.csv", "placement": "nominal-time"}'
run timed_nominal timed_nominal.json
cmp -s timed_it4/iterations.csv timed_nominal/iterations.csv || { echo "FAIL time CSV depends on the placement"; fail=1; }

# 5. A periodic profile (LOOPAFTER) is listed in traces.csv over the whole run, not one period.
printf '0 1.0\n2 0.5\nLOOPAFTER 2\n' >loop.profile
profiles=$(while IFS=, read -r h _; do printf '"%s": "loop.profile",' "$h"; done <<<"$hosts")
config loop.json 4 "{\"source\": \"files\", \"profiles\": {${profiles%,}}}"
run loop loop.json
$PY - <<'PY' || { echo "FAIL periodic profile not listed up to the end of the run"; fail=1; }
import csv, json
end = json.load(open("loop/result.json"))["makespan"]
rows = [r for r in csv.DictReader(open("loop/traces/traces.csv"))]
host = rows[0]["host"]
times = [float(r["time"]) for r in rows if r["host"] == host]
assert end > 8 and max(times) > end - 4 and max(times) <= end, (end, times[-3:])
PY

# 6. Bad placement values: exit 2, one line.
bad() {
  config "bad_$1.json" 4 "$2"
  expect_refused "$1" "$3" "$RINGSIM" simulate "bad_$1.json"
}
bad value '{"source": "measured", "placement": "later"}' "traces 'placement' must be iteration or nominal-time, got 'later'"
bad profiles "{\"source\": \"files\", \"placement\": \"iteration\", \"profiles\": {${profiles%,}}}" \
  "traces 'placement' applies to changes given by iteration"

[ $fail -eq 0 ] && echo "all iteration placement tests passed"
exit $fail
