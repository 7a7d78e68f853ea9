#!/usr/bin/env bash
# Regenerates the KPBS study (experiments/README.md has the form): the planner sweeps against beta
# and k and the planned-against-simulated runs (run_kpbs_experiment.py: ringsim kpbs and
# kpbs-simulate), their figures (plot_kpbs.py), and BUILD, naming the build they come from.
#   usage: experiments/kpbs/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs 2 seeds instead of 10, into DIR (required then).
. "$(dirname "$0")/../study.sh"
study_begin "$@"
seeds=10; [ -n "$QUICK" ] && seeds=2
/usr/bin/python3 "$HERE/run_kpbs_experiment.py" --ringsim "$RINGSIM" --out "$OUT" --seeds "$seeds" --jobs "$JOBS"
/usr/bin/python3 "$HERE/plot_kpbs.py" --results "$OUT" --out "$OUT"
study_end
