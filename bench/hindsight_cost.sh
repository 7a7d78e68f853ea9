#!/usr/bin/env bash
# What schemes hindsight, hindsight-targets and online-optimal cost against a fixed scheme on the
# same run: `ringsim simulate` of one config with scheme every-10, hindsight, hindsight-targets and
# (rings of at most 8) online-optimal,
# whole processes, REPEAT times each (default 5), on the paper's platform, 100 iterations, on/off
# load, targets measured, rings of 8 and 32. Prints the median seconds of each, their ratio, and
# the recurrence's own time and planner runs (result.json, hindsight or online_optimal: seconds
# and planner_calls; for hindsight, the recurrence with present targets, then the one with chosen
# targets that it also reports, hindsight.chosen_targets).
#   usage: bench/hindsight_cost.sh path/to/ringsim [REPEAT]
set -eu
RINGSIM=${1:?usage: hindsight_cost.sh path/to/ringsim [REPEAT]}
REPEAT=${2:-5}
PLATFORM=$(cd "$(dirname "$0")/../platforms" && pwd)/paper2004_tiers90.xml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "ring,scheme,median_seconds,ratio_to_every_10,recurrence_seconds,planner_calls,redistributions"
for ring in 8 32; do
  schemes="every-10 hindsight hindsight-targets"
  [ "$ring" -le 8 ] && schemes="$schemes online-optimal"
  for scheme in $schemes; do
    cat >"$tmp/c.json" <<J
{"platform": "$PLATFORM", "ring": {"size": $ring, "seed": 1}, "ratio": 0.1, "rows": 1000, "columns": 1000,
 "iterations": 100, "scheme": "$scheme", "targets": "measured", "network_model": "linear", "baseline": false,
 "decision_flops": 1e6, "report_bytes": 16, "traces": {"source": "on-off", "available": 30, "loaded": 15, "seed": 1}}
J
    for _ in $(seq "$REPEAT"); do
      s=$(date +%s.%N)
      "$RINGSIM" simulate "$tmp/c.json" --out "$tmp/r.json"
      e=$(date +%s.%N)
      echo "$e - $s" | bc -l
    done >"$tmp/times"
    m=$(median <"$tmp/times")
    [ "$scheme" = every-10 ] && base=$m
    extra=$(/usr/bin/python3 -c "import json; d=json.load(open('$tmp/r.json')); h=d.get('hindsight', d.get('online_optimal', {})); c=h.get('chosen_targets') or {}; print(*(h[k] + c.get(k, 0) if k in h else '' for k in ('seconds', 'planner_calls')), d['redistributions'], sep=',')")
    echo "$ring,$scheme,$m,$(echo "$m / $base" | bc -l | cut -c1-6),$extra"
  done
done
