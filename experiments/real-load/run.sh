#!/usr/bin/env bash
# Regenerates the real-load study: every sweep of configs/ (ringsim run, resumable), then its
# tables and figure (summarize.py), and BUILD, the one file naming the ringsim build (its
# `--version`: version and commit) that made them; results of another build are refused.
#   usage: experiments/real-load/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs each config's quick section into DIR (required then: the committed results stay the
# full sweeps'). The PlanetLab days are read from ../shared/reference/planetlab beside the repository.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RINGSIM=$ROOT/build/ringsim
JOBS=2
QUICK=
OUT=$HERE/results
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=--quick; shift ;;
    --jobs) JOBS=${2:?--jobs needs a number}; shift 2 ;;
    --ringsim) RINGSIM=${2:?--ringsim needs a path}; shift 2 ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    *) echo "run.sh: unknown option '$1' (usage: run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR])" >&2; exit 2 ;;
  esac
done
if [ -n "$QUICK" ] && [ "$OUT" = "$HERE/results" ]; then
  echo "run.sh: --quick needs --out DIR (results/ holds the full sweeps)" >&2
  exit 2
fi
mkdir -p "$OUT"
version=$("$RINGSIM" --version)
if [ -f "$OUT/BUILD" ] && [ "$(cat "$OUT/BUILD")" != "$version" ]; then
  echo "run.sh: $OUT holds results of $(cat "$OUT/BUILD"), not of $version: move them away first" >&2
  exit 2
fi
printf '%s\n' "$version" >"$OUT/BUILD"
start=$(date +%s)
for config in "$HERE"/configs/*.json; do
  name=$(basename "$config" .json)
  "$RINGSIM" run "$config" $QUICK --jobs "$JOBS" --out "$OUT/$name" 2>"$OUT/$name.log" \
    || { echo "run.sh: the sweep $name failed:" >&2; tail -3 "$OUT/$name.log" >&2; exit 1; }
  rm -f "$OUT/$name.log"
done
/usr/bin/python3 "$HERE/summarize.py" "$OUT"
echo "run.sh: $(ls -d "$OUT"/*/ | wc -l) sweeps in $(( $(date +%s) - start )) s, results in $OUT"
