#!/usr/bin/env bash
# The full Figure 3 + 4 sweep (720 runs, --jobs 2) timed as whole processes, and compared byte for
# byte (runs.csv, iterations.csv) with the same sweep by a reference ringsim when one is given.
#   tools/bench-sweeps.sh [--ringsim PATH] [--reference PATH] [--jobs N]
# A reference of an older commit: git worktree add /tmp/ref <commit> &&
#   cmake -S /tmp/ref -B /tmp/ref/build -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/ref/build --target ringsim
# Prints figures (seconds per sweep, their ratio); never judges them.
set -uo pipefail
cd "$(dirname "$0")/.."
RINGSIM=build/ringsim
REFERENCE=""
JOBS=2
while [ $# -gt 0 ]; do
  case "$1" in
    --ringsim) RINGSIM=$2; shift 2 ;;
    --reference) REFERENCE=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    *) echo "bench-sweeps: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for exe in "$RINGSIM" ${REFERENCE:+"$REFERENCE"}; do
  [ -x "$exe" ] || { echo "bench-sweeps: '$exe' is not an executable (build first: tools/build.sh)" >&2; exit 2; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

sweep() {  # executable, output folder: prints the wall seconds of both figures' sweeps
  local start end
  start=$(date +%s.%N)
  for fig in fig3-ring8 fig4-ring32; do
    "$1" run "experiments/hipc2004/$fig.json" --jobs "$JOBS" --out "$2/$fig" >/dev/null 2>"$2.$fig.err" \
      || { echo "bench-sweeps: the $fig sweep of '$1' failed:" >&2; tail -n 3 "$2.$fig.err" >&2; exit 1; }
  done
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.2f", $2 - $1}'
}

echo "# Figure 3 + 4 full sweeps (720 runs), --jobs $JOBS, wall seconds of whole processes; $(nproc) cores"
new=$(sweep "$RINGSIM" "$tmp/new") || exit 1
echo "sweep_seconds=$new"
if [ -n "$REFERENCE" ]; then
  ref=$(sweep "$REFERENCE" "$tmp/ref") || exit 1
  echo "reference_sweep_seconds=$ref"
  echo "speedup=$(echo "$ref $new" | awk '{printf "%.2f", $1 / $2}')"
  same=yes
  for fig in fig3-ring8 fig4-ring32; do
    for f in runs.csv iterations.csv; do
      cmp -s "$tmp/new/$fig/$f" "$tmp/ref/$fig/$f" || same=no
    done
  done
  echo "byte_identical_csvs=$same"
fi
