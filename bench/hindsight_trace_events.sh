#!/usr/bin/env bash
# What scheme hindsight costs against the length of a time-indexed trace: an FTA event trace of
# EVENTS events (1 000, 10 000, 100 000 by default) on 4 hosts of docs/examples/my-platform.xml,
# alternately available and unavailable (5% of the peak) for 1 to 3 trace seconds each, scaled so
# that the events fall inside the run (100 iterations). Whole processes, REPEAT times each (default
# 3): prints the median seconds, the recurrence's own seconds and planner runs (result.json,
# hindsight), and the run's time_over_ideal (>= 1: the ideal integrates the speeds).
#   usage: bench/hindsight_trace_events.sh path/to/ringsim [REPEAT] [EVENTS ...]
set -eu
RINGSIM=${1:?usage: hindsight_trace_events.sh path/to/ringsim [REPEAT] [EVENTS ...]}
REPEAT=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
SIZES=${*:-1000 10000 100000}
EXAMPLES=$(cd "$(dirname "$0")/../docs/examples" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "events,median_seconds,recurrence_seconds,planner_calls,time_over_ideal"
for events in $SIZES; do
  python3 - "$events" >"$tmp/events.tab" <<'PY'
import random, sys
n = int(sys.argv[1])
random.seed(1)
print("event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\tevent_stop_time")
e = 0
for node in (101, 102, 103, 104):
    t = 0.0
    for k in range(n // 4):
        d = round(random.uniform(1, 3), 3)
        e += 1
        print(f"{e}\t1\t{node}\t1\tn{node}\t{k % 2}\t{t:.3f}\t{t + d:.3f}")
        t += d
PY
  # About 2 trace seconds an event and 226 simulated seconds of run: the events span the run.
  scale=$(python3 -c "print($events / 226)")
  cat >"$tmp/c.json" <<J
{"platform": "$EXAMPLES/my-platform.xml", "ring": {"hosts": ["a0", "a1", "b0", "b1"]}, "ratio": 1, "rows": 200,
 "columns": 200, "iterations": 100, "scheme": "hindsight", "baseline": false,
 "traces": {"source": "fta", "file": "$tmp/events.tab", "nodes": {"a0": "101", "a1": "102", "b0": "103", "b1": "104"},
            "unavailable_multiplier": 0.05, "time_scale": $scale}}
J
  for _ in $(seq "$REPEAT"); do
    s=$(date +%s.%N)
    "$RINGSIM" simulate "$tmp/c.json" --out "$tmp/r.json"
    e=$(date +%s.%N)
    echo "$s $e" | awk '{print $2 - $1}' >>"$tmp/t-$events"
  done
  python3 - "$events" "$(median <"$tmp/t-$events")" "$tmp/r.json" <<'PY'
import json, sys
events, seconds, path = sys.argv[1:]
r = json.load(open(path))
h = r["hindsight"]
print(f"{events},{float(seconds):.3f},{h['seconds']:.3f},{h['planner_calls']},{r['time_over_ideal']:.4f}")
PY
done
