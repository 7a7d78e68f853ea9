#!/usr/bin/env bash
# One 100-iteration run at scale: `ringsim simulate` of a ring of N random members of PLATFORM with
# scheme S, whole process (platform loading included), its wall time and peak resident memory,
# and the messages it simulated: 2 N border messages per iteration, N (N - 1) per all-gather of
# reports (a fixed scheme's points, adaptive's looks), one per column and hop moved; adaptive's
# piggybacked reports add no message but ride on the borders, and every member keeps N (N/2 + 1)
# report slots (about 40 N^2 (N/2 + 1) bytes in all: 0.34 GB at 256, 21.5 GB at 1024).
#   usage: bench/simulate_at_scale.sh path/to/ringsim PLATFORM "N ..." "SCHEME ..." [COLUMNS]
set -eu
RINGSIM=${1:?usage: simulate_at_scale.sh path/to/ringsim PLATFORM "N ..." "SCHEME ..." [COLUMNS]}
PLATFORM=${2:?platform}
SIZES=${3:?ring sizes}
SCHEMES=${4:?schemes}
COLUMNS=${5:-16384}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "platform,members,scheme,seconds,peak_mb,makespan,redistributions,points,gathers,messages"
for n in $SIZES; do
  for s in $SCHEMES; do
    printf '{"platform": "%s", "ring": {"size": %d, "seed": 1}, "ratio": 1, "rows": 1000, "columns": %d,
 "iterations": 100, "scheme": "%s", "baseline": false}\n' "$PLATFORM" "$n" "$COLUMNS" "$s" >"$tmp/c.json"
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$RINGSIM" simulate "$tmp/c.json" --out "$tmp/r.json"
    read -r secs kb <"$tmp/time"
    /usr/bin/python3 - "$tmp/r.json" "$(basename "$PLATFORM")" "$n" "$s" "$secs" "$kb" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
name, n, scheme, secs, kb = sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
gathers = sum(1 for p in r["points"] if p["reports"] == "gathered")
moved = sum(p["items_moved"] for p in r["points"] if p["performed"])
messages = 2 * n * 100 + gathers * n * (n - 1) + moved
print(f"{name},{n},{scheme},{secs:.2f},{kb / 1024:.0f},{r['makespan']:.6g},{r['redistributions']},{len(r['points'])},{gathers},{messages}")
PY
  done
done
