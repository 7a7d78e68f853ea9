#!/usr/bin/env bash
# What a sweep's run costs: the full Figure 3 + 4 sweeps (720 runs, --jobs 2) timed as whole
# processes, split into the checks before the first run (`run --list`: every run's config, files,
# hosts and SimGrid options checked, nothing run), the runs, and the merge (`run --merge`); with
# --reference OLD_RINGSIM the same for another build, its runs.csv and iterations.csv compared
# byte for byte with this one's. A reference of an older commit:
#   git worktree add /tmp/ref <commit> && cmake -S /tmp/ref -B /tmp/ref/build -DCMAKE_BUILD_TYPE=Release &&
#   cmake --build /tmp/ref/build --target ringsim
# Prints figures, never judges them.
#   bench/sweep_cost.sh [--ringsim PATH] [--reference PATH] [--jobs N] [--small]
# --small: the manual's example sweep (docs/examples/my-sweep.json, 24 runs), what the test suite runs.
set -uo pipefail
cd "$(dirname "$0")/.."
RINGSIM=build/ringsim
REFERENCE=""
JOBS=2
EXPERIMENTS="experiments/hipc2004/fig3-ring8.json experiments/hipc2004/fig4-ring32.json"
while [ $# -gt 0 ]; do
  case "$1" in
    --ringsim) RINGSIM=$2; shift 2 ;;
    --reference) REFERENCE=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --small) EXPERIMENTS="docs/examples/my-sweep.json"; shift ;;
    *) echo "sweep_cost: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for exe in "$RINGSIM" ${REFERENCE:+"$REFERENCE"}; do
  [ -x "$exe" ] || { echo "sweep_cost: '$exe' is not an executable (build first: tools/build.sh)" >&2; exit 2; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }

# Times the sweeps of one executable into folder $2; prints "name=value" figures prefixed by $3.
# `run` checks every run, runs them and merges; its checks and its merge are timed alone too
# (`run --list`, `run --merge`), the runs being the rest.
sweep() {
  local exe=$1 dir=$2 prefix=$3 t0 t1 t2 t3 runs=0 e name
  mkdir -p "$dir"
  t0=$(now)
  for e in $EXPERIMENTS; do
    name=$(basename "$e" .json)
    "$exe" run "$e" --list --out "$dir/$name" >"$dir/$name.list" 2>"$dir/$name.err" \
      || { echo "sweep_cost: the checks of $e by '$exe' failed:" >&2; tail -n 3 "$dir/$name.err" >&2; return 1; }
    runs=$((runs + $(grep -c " simulate " "$dir/$name.list")))
  done
  t1=$(now)
  for e in $EXPERIMENTS; do
    name=$(basename "$e" .json)
    "$exe" run "$e" --jobs "$JOBS" --out "$dir/$name" >/dev/null 2>"$dir/$name.err" \
      || { echo "sweep_cost: the sweep $e of '$exe' failed:" >&2; tail -n 3 "$dir/$name.err" >&2; return 1; }
  done
  t2=$(now)
  for e in $EXPERIMENTS; do
    name=$(basename "$e" .json)
    "$exe" run "$e" --merge --out "$dir/$name" >/dev/null 2>>"$dir/$name.err" \
      || { echo "sweep_cost: the merge of $e by '$exe' failed" >&2; return 1; }
  done
  t3=$(now)
  local total checks merge
  total=$(minus "$t2" "$t1") checks=$(minus "$t1" "$t0") merge=$(minus "$t3" "$t2")
  echo "${prefix}runs=$runs"
  echo "${prefix}sweep_seconds=$total"
  echo "${prefix}checks_seconds=$checks"
  echo "${prefix}merge_seconds=$merge"
  # What the runs took of the cores, per run: the sweep less its checks and merge, times its jobs.
  echo "${prefix}core_seconds_per_run=$(awk -v s="$total" -v c="$checks" -v m="$merge" -v j="$JOBS" -v n="$runs" \
    'BEGIN { printf "%.4f", (s - c - m) * j / n }')"
}

echo "# sweeps of $EXPERIMENTS, --jobs $JOBS, wall seconds of whole processes; $(nproc) cores"
echo "# the steps of one run of ring 32 (as a sweep's runs take them, SimGrid loaded):"
"$RINGSIM" bench simulate --members 32 --repeat 5 | grep '^step_' | sed 's/^/# /'
new_figures=$(sweep "$RINGSIM" "$tmp/new" "") || exit 1
echo "$new_figures"
[ -z "$REFERENCE" ] && exit 0
ref_figures=$(sweep "$REFERENCE" "$tmp/ref" "reference_") || exit 1
echo "$ref_figures"
seconds() { echo "$1" | sed -n "s/^\(reference_\)\{0,1\}sweep_seconds=//p"; }
echo "speedup=$(awk -v r="$(seconds "$ref_figures")" -v n="$(seconds "$new_figures")" 'BEGIN { printf "%.2f", r / n }')"
same=yes
for e in $EXPERIMENTS; do
  name=$(basename "$e" .json)
  for f in runs.csv iterations.csv; do
    cmp -s "$tmp/new/$name/$f" "$tmp/ref/$name/$f" || same=no
  done
done
echo "byte_identical_csvs=$same"
