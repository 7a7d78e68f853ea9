#!/usr/bin/env bash
# What one run of ringsim costs beside a bare S4U ring that simulates the same ring, work and
# iteration count on the same platform (bench/bare_s4u_ring.cpp, built as ringsim-bare-s4u beside
# ringsim), and where a run's time goes, step by step. Three cases: 32 and 256 members for 100
# iterations, 32 members for 1000. Each figure is the median of REPEAT runs, each run a process;
# whole processes are taken in turn with the bare ring's (`ringsim bench simulate` says how).
# Prints figures, never judges them.
#   bench/run_cost.sh [--ringsim PATH] [--repeat N] [--small]
# --small: one case of 8 members and 20 iterations, one run each (what the test suite runs, so
# that a change that slows a run shows in its log).
set -uo pipefail
cd "$(dirname "$0")/.."
RINGSIM=build/ringsim
REPEAT=9
CASES="32:100 256:100 32:1000"
while [ $# -gt 0 ]; do
  case "$1" in
    --ringsim) RINGSIM=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --small) CASES="8:20"; REPEAT=1; shift ;;
    *) echo "run_cost: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$RINGSIM" ] || { echo "run_cost: '$RINGSIM' is not an executable (build first: tools/build.sh)" >&2; exit 2; }
[ -x "$(dirname "$RINGSIM")/ringsim-bare-s4u" ] || { echo "run_cost: no ringsim-bare-s4u beside '$RINGSIM'" >&2; exit 2; }

echo "# ringsim runs against a bare S4U ring: medians of $REPEAT; $(nproc) cores"
table="case,whole_process_ratio_to_bare_barrier,whole_process_ratio_to_bare,whole_process_ratio_to_bare_barrier_same_allocator,ratio_to_bare_barrier,whole_process_seconds,bare_s4u_barrier_whole_process_seconds"
for c in $CASES; do
  members=${c%%:*} iterations=${c##*:}
  out=$("$RINGSIM" bench simulate --members "$members" --iterations "$iterations" --repeat "$REPEAT") \
    || { echo "run_cost: bench simulate failed at $members members, $iterations iterations" >&2; exit 1; }
  echo "$out" | grep -v '^#' | sed "s/^/${members}x${iterations} /"
  figure() { echo "$out" | sed -n "s/^$1=//p"; }
  table+=$'\n'"${members}x${iterations},$(figure whole_process_ratio_to_bare_barrier),$(figure whole_process_ratio_to_bare)"
  table+=",$(figure whole_process_ratio_to_bare_barrier_same_allocator)"
  table+=",$(figure ratio_to_bare_barrier),$(figure whole_process_seconds_per_run),$(figure bare_s4u_barrier_whole_process_seconds_per_run)"
done
echo "$table"
