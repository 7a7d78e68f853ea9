#!/usr/bin/env bash
# Regenerates the real-load study (experiments/README.md has the form): every sweep of configs/
# (ringsim run, resumable), then its tables and figure (summarize.py), and BUILD, naming the build
# they come from.
#   usage: experiments/real-load/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs each config's quick section into DIR (required then: the committed results stay the
# full sweeps'). The PlanetLab days are read from ../shared/reference/planetlab beside the repository;
# the host-load traces are load/ (written by make_configs.py with hostload.py).
. "$(dirname "$0")/../study.sh"
study_begin "$@"
for config in "$HERE"/configs/*.json; do
  study_sweep "$config" "$(basename "$config" .json)"
done
/usr/bin/python3 "$HERE/summarize.py" "$OUT"
study_end
