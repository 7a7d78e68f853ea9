#!/usr/bin/env bash
# What scheme hindsight costs on a large ring with time-indexed traces: a ring of MEMBERS (default
# 128) random hosts of a 160-host Tiers platform (generated: `ringsim platform tiers 1 10 10 16 16
# 8 2 1 1 2 1 --seed 7 --hosts 160 --prune-routers`), 100 iterations, ratio 1, each member its own
# PlanetLab VM's utilization by time (day 2011-03-03 of ../shared/reference/planetlab, 3000 trace
# seconds per simulated second, random offsets). One whole process per run, REPEAT runs (default
# 1): prints the seconds, the recurrence's own seconds and planner runs (result.json, hindsight),
# whether its points were kept by the check in the simulation, and every fixed scheme's makespan
# beside hindsight's.
#   usage: bench/hindsight_at_scale.sh path/to/ringsim [REPEAT] [MEMBERS]
set -eu
RINGSIM=${1:?usage: hindsight_at_scale.sh path/to/ringsim [REPEAT] [MEMBERS]}
REPEAT=${2:-1}
MEMBERS=${3:-128}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DAY=$ROOT/../shared/reference/planetlab/20110303
[ -d "$DAY" ] || { echo "hindsight_at_scale: $DAY is missing (the PlanetLab days beside the repository)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$RINGSIM" platform tiers 1 10 10 16 16 8 2 1 1 2 1 --seed 7 --hosts 160 --prune-routers -o "$tmp/tiers160.xml" >/dev/null
cat >"$tmp/c.json" <<J
{"platform": "$tmp/tiers160.xml", "ring": {"size": $MEMBERS, "seed": 1}, "ratio": 1, "rows": 1000,
 "columns": 4000, "iterations": 100, "scheme": "hindsight", "baseline": false, "targets": "measured",
 "traces": {"seed": 1, "source": "planetlab", "set": "$DAY", "conversion": "dedicated", "time_scale": 3000,
            "offset": "random"}}
J
echo "members,seconds,recurrence_seconds,planner_calls,points_kept,hindsight_makespan,best_fixed_makespan"
for _ in $(seq "$REPEAT"); do
  s=$(date +%s.%N)
  "$RINGSIM" simulate "$tmp/c.json" --out "$tmp/r.json" 2>"$tmp/err"
  e=$(date +%s.%N)
  /usr/bin/python3 - "$tmp/r.json" "$MEMBERS" "$(echo "$e - $s" | bc -l)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
h = r["hindsight"]
check = h.get("check", {})
fixed = [c["makespan"] for c in check.get("checked", [])]
print(f"{sys.argv[2]},{float(sys.argv[3]):.1f},{h['seconds']:.1f},{h['planner_calls']},{check.get('points_kept', '')},"
      f"{check.get('points_makespan', r['makespan']):.6g},{min(fixed) if fixed else ''}")
PY
done
