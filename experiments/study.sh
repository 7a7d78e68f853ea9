# Sourced by each experiments/<study>/run.sh: the one form of a study's command (experiments/README.md).
#   usage: experiments/<study>/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# study_begin "$@" reads the options into RINGSIM, JOBS, QUICK (--quick or empty) and OUT, refuses
# --quick into the committed results (they stay the full sweeps') and an OUT holding results of
# another build or of none named, then writes OUT/BUILD: `ringsim --version`, the one file naming
# the build every result of OUT comes from. study_end prints the time the study took.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
STUDY=$(basename "$HERE")

study_begin() {
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
      *) echo "run.sh: unknown option '$1' (usage: run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR])" >&2
         exit 2 ;;
    esac
  done
  if [ -n "$QUICK" ] && [ "$(cd "$(dirname "$OUT")" 2>/dev/null && pwd)/$(basename "$OUT")" = "$HERE/results" ]; then
    echo "run.sh: --quick needs --out DIR (results/ holds the full sweeps)" >&2
    exit 2
  fi
  RINGSIM=$(cd "$(dirname "$RINGSIM")" && pwd)/$(basename "$RINGSIM")
  mkdir -p "$OUT"
  OUT=$(cd "$OUT" && pwd)
  local version
  version=$("$RINGSIM" --version)
  if [ ! -f "$OUT/BUILD" ] && [ -n "$(ls -A "$OUT")" ]; then
    echo "run.sh: $OUT holds results that no BUILD names: move them away first" >&2
    exit 2
  fi
  if [ -f "$OUT/BUILD" ] && [ "$(cat "$OUT/BUILD")" != "$version" ]; then
    echo "run.sh: $OUT holds results of $(cat "$OUT/BUILD"), not of $version: move them away first" >&2
    exit 2
  fi
  printf '%s\n' "$version" >"$OUT/BUILD"
  STUDY_START=$(date +%s)
}

# study_sweep CONFIG NAME: `ringsim run` of one experiment config into OUT/NAME (resumable; its quick
# section with --quick); the sweep's log is shown only when it fails.
study_sweep() {
  local config=$1 name=$2
  mkdir -p "$(dirname "$OUT/$name")"
  "$RINGSIM" run "$config" $QUICK --jobs "$JOBS" --out "$OUT/$name" 2>"$OUT/$name.log" \
    || { echo "run.sh: the sweep $name failed:" >&2; tail -3 "$OUT/$name.log" >&2; exit 1; }
  rm -f "$OUT/$name.log"
}

study_end() {
  echo "run.sh: $STUDY in $(( $(date +%s) - STUDY_START )) s, results in $OUT"
}
