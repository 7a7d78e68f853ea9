#!/usr/bin/env bash
# Regenerates the staging study (experiments/README.md has the form): staging onto rings of 8 and 32
# and the rebuilds (run_staging_experiment.py: ringsim simulate runs), its figure (plot_staging.py),
# and BUILD, naming the build they come from.
#   usage: experiments/staging/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs 1 seed instead of 5, into DIR (required then).
. "$(dirname "$0")/../study.sh"
study_begin "$@"
seeds=5; [ -n "$QUICK" ] && seeds=1
/usr/bin/python3 "$HERE/run_staging_experiment.py" --ringsim "$RINGSIM" --out "$OUT" --seeds "$seeds" --jobs "$JOBS"
/usr/bin/python3 "$HERE/plot_staging.py" --results "$OUT" --out "$OUT"
study_end
