#!/usr/bin/env bash
# Regenerates the SharedRing study (experiments/README.md has the form): `ringsim ring-sweep` of each
# platform's config of this folder, the figures and the methods table (plot_sharedring.py), and
# BUILD, naming the build they come from.
#   usage: experiments/sharedring/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs each config's quick section (fewer ratios and methods), into DIR (required then);
# --jobs is unused (ring-sweep runs one config at a time). The CSVs' `seconds` column is the
# machine's: it differs from run to run.
. "$(dirname "$0")/../study.sh"
study_begin "$@"
/usr/bin/python3 "$HERE/plot_sharedring.py" --ringsim "$RINGSIM" $QUICK --results "$OUT" --out "$OUT" >"$OUT/plot.log" \
  || { echo "run.sh: plot_sharedring.py failed:" >&2; tail -3 "$OUT/plot.log" >&2; exit 1; }
rm -f "$OUT/plot.log"
study_end
