#!/usr/bin/env bash
# Regenerates the HiPC 2004 study (experiments/README.md has the form): Figure 2's speed traces
# (`ringsim traces`), the sweeps of Figures 3 and 4 (`ringsim run`, resumable), their figures
# (plot_paper_figures.py) and table (summarize.py), and BUILD, naming the build they come from.
#   usage: experiments/hipc2004/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs the sweeps' quick sections into DIR (required then).
. "$(dirname "$0")/../study.sh"
study_begin "$@"
PLOT=$HERE/plot_paper_figures.py
"$RINGSIM" traces "$HERE/fig2-traces.json" -o "$OUT/fig2-traces" >/dev/null
/usr/bin/python3 "$PLOT" traces "$OUT/fig2-traces/traces.csv" "$OUT/fig2-speed-traces.png"
rm -f "$OUT"/fig2-traces/*.profile
for fig in fig3-ring8 fig4-ring32; do
  study_sweep "$HERE/$fig.json" "$fig"
  /usr/bin/python3 "$PLOT" "${fig%%-*}" "$OUT/$fig/runs.csv" "$OUT/$fig.png"
done
/usr/bin/python3 "$HERE/summarize.py" "$OUT"
study_end
