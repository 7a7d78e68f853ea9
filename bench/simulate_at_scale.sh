#!/usr/bin/env bash
# One run at scale (100 iterations unless told): `ringsim simulate` of a ring of N random members of PLATFORM with
# scheme S, whole process (platform loading included), its wall time and peak resident memory,
# and the messages it simulated: 2 N border messages per iteration, N (N - 1) per all-gather of
# reports (a fixed scheme's points, adaptive's looks), one per column and hop moved; adaptive's
# piggybacked reports add no message but ride on the borders: each member keeps the iteration of
# the newest report of every member that reached it (4 N bytes) and the names of the reports it
# received and sends on (8 bytes each, up to 2 N, 4 I after I iterations), and the reports' values
# are kept once for the ring (N reports of 40 bytes for each of the last N/2 + 1 iterations, or
# for each iteration if fewer): about 4 N^2 + 72 N min(N/2, I) bytes for I iterations, 12 MB at
# 1024 and 97 MB at 4096 for 100 iterations (measured peak over scheme none's on the same ring:
# 13 MB on g5k.xml, 93 MB on the fat tree; a copy of those reports in every member, N (N/2 + 1)
# each, would take 21.5 GB at 1024). The 65536-host fat tree of the README's figures is
# bench/fat_tree_65536.xml; g5k.xml is SimGrid's (examples/platforms/g5k.xml).
# ITERATIONS (default 100) and TRACES (a trace source of the run description, e.g. measured: the
# paper's traces, each member's speed changing twice; default none: constant speeds) let a policy's
# decisions be timed at scale: its snapshots reach every member only after N/2 iterations.
#   usage: bench/simulate_at_scale.sh path/to/ringsim PLATFORM "N ..." "SCHEME ..." [COLUMNS [ITERATIONS [TRACES]]]
set -eu
RINGSIM=${1:?usage: simulate_at_scale.sh path/to/ringsim PLATFORM "N ..." "SCHEME ..." [COLUMNS [ITERATIONS [TRACES]]]}
PLATFORM=${2:?platform}
SIZES=${3:?ring sizes}
SCHEMES=${4:?schemes}
COLUMNS=${5:-16384}
ITERATIONS=${6:-100}
TRACES=${7:-}
traces=""
[ -n "$TRACES" ] && traces=", \"traces\": {\"source\": \"$TRACES\", \"seed\": 1}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "platform,members,scheme,iterations,traces,seconds,peak_mb,makespan,redistributions,points,gathers,messages"
for n in $SIZES; do
  for s in $SCHEMES; do
    printf '{"platform": "%s", "ring": {"size": %d, "seed": 1}, "ratio": 1, "rows": 1000, "columns": %d,
 "iterations": %d, "scheme": "%s", "baseline": false%s}\n' "$PLATFORM" "$n" "$COLUMNS" "$ITERATIONS" "$s" "$traces" >"$tmp/c.json"
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$RINGSIM" simulate "$tmp/c.json" --out "$tmp/r.json"
    read -r secs kb <"$tmp/time"
    /usr/bin/python3 - "$tmp/r.json" "$(basename "$PLATFORM")" "$n" "$s" "$secs" "$kb" "$ITERATIONS" "${TRACES:-none}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
name, n, scheme, secs, kb = sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
iterations, traces = int(sys.argv[7]), sys.argv[8]
gathers = sum(1 for p in r["points"] if p["reports"] == "gathered")
moved = sum(p["items_moved"] for p in r["points"] if p["performed"])
messages = 2 * n * iterations + gathers * n * (n - 1) + moved
print(f"{name},{n},{scheme},{iterations},{traces},{secs:.2f},{kb / 1024:.0f},{r['makespan']:.6g},{r['redistributions']},{len(r['points'])},{gathers},{messages}")
PY
  done
done
