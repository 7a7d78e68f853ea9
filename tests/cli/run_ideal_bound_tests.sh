#!/usr/bin/env bash
# The ideal time is a lower bound with every trace source (time_over_ideal >= 1): traces that
# follow the clock change speeds inside iterations, and the ideal integrates the hosts' speeds over
# each iteration's time instead of holding the speeds at its start. Cases: an FTA outage that starts
# inside an iteration and lasts many, the same dip as a CSV by time, profiles with changes inside
# iterations, and a trace of a thousand FTA events, each run with a fixed scheme and hindsight.
#   run_ideal_bound_tests.sh path/to/ringsim
set -u
RINGSIM=${1:?usage: run_ideal_bound_tests.sh path/to/ringsim}
source "$(dirname "$0")/lib.sh"
EXAMPLES=$(cd "$(dirname "$0")/../../docs/examples" && pwd)
cp "$EXAMPLES/my-platform.xml" "$tmp/"
cd "$tmp" || exit 1

# a0 and b0 drop to 5% of their peak from 16 s to 64 s of the trace, 1.6 s to 6.4 s of the run
# (time_scale 10; the run's iterations last about 0.14 s: the outage starts inside one and covers
# many); a1 and b1 stay available.
printf 'event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\tevent_stop_time\n' >outage.tab
printf '1\t1\t101\t1\tn101\t1\t0\t16\n2\t1\t101\t1\tn101\t0\t16\t64\n3\t1\t101\t1\tn101\t1\t64\t200\n' >>outage.tab
printf '7\t1\t102\t1\tn102\t1\t0\t200\n8\t1\t104\t1\tn104\t1\t0\t200\n' >>outage.tab
printf '4\t1\t103\t1\tn103\t1\t0\t16.3\n5\t1\t103\t1\tn103\t0\t16.3\t64\n6\t1\t103\t1\tn103\t1\t64\t200\n' >>outage.tab
printf 'host,time,speed\na0,1.65,5e7\na0,6.4,1e9\nb0,1.63,2.5e7\nb0,6.4,5e8\n' >dip.csv
printf '0 1.0\n1.645 0.05\n6.37 1.0\n' >a0.profile
printf '0 1.0\n0.33 0.2\n0.79 1.0\n1.66 0.05\n6.42 1.0\n' >b0.profile
python3 - <<'PY' >many.tab
import random
random.seed(3)
print("event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\tevent_stop_time")
e = 0
for node in (101, 102, 103, 104):
    t = 0.0
    for k in range(250):
        d = round(random.uniform(0.02, 0.12), 3)
        e += 1
        print(f"{e}\t1\t{node}\t1\tn{node}\t{k % 2}\t{t:.3f}\t{t + d:.3f}")
        t += d
PY
nodes='"nodes": {"a0": "101", "a1": "102", "b0": "103", "b1": "104"}'
declare -A traces=(
  [fta-outage]="{\"source\": \"fta\", \"file\": \"outage.tab\", $nodes, \"unavailable_multiplier\": 0.05, \"time_scale\": 10}"
  [csv-by-time]='{"source": "files", "csv": "dip.csv", "default": "constant"}'
  [profiles]='{"source": "files", "profiles": {"a0": "a0.profile", "b0": "b0.profile"}, "default": "constant"}'
  [fta-many]="{\"source\": \"fta\", \"file\": \"many.tab\", $nodes, \"unavailable_multiplier\": 0.05}"
)
for name in fta-outage csv-by-time profiles fta-many; do
  for scheme in none every-10 hindsight; do
    cat >c.json <<J
{"platform": "my-platform.xml", "ring": {"hosts": ["a0", "a1", "b0", "b1"]}, "ratio": 1, "rows": 200, "columns": 200,
 "iterations": 100, "scheme": "$scheme", "baseline": false, "traces": ${traces[$name]}}
J
    if ! "$RINGSIM" simulate c.json --out r.json >/dev/null 2>err.txt; then
      echo "FAIL $name $scheme: simulate failed"; head -3 err.txt; fail=1; continue
    fi
    python3 - "$name" "$scheme" r.json <<'PY' || fail=1
import json, sys
name, scheme, path = sys.argv[1:]
r = json.load(open(path))
ratio = r["time_over_ideal"]
print(f"{name} {scheme}: makespan {r['makespan']:.3f} s, ideal {r['ideal_time']:.3f} s, time_over_ideal {ratio:.4f}")
assert ratio >= 1.0, f"FAIL {name} {scheme}: time_over_ideal {ratio} < 1"
PY
  done
done
exit $fail
