#!/usr/bin/python3
"""The HiPC 2004 study's table: for each sweep folder of RESULTS (fig3-ring8, fig4-ring32), the mean
normalized time (makespan over the same ring's and seed's `none`) per ratio and scheme over the
seeds, and the mean number of redistributions that moved columns (the paper's Section 7 reports
the same normalization). Writes RESULTS/normalized-time.md.

Usage: experiments/hipc2004/summarize.py RESULTS
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

SWEEPS = [("fig3-ring8", "Figure 3"), ("fig4-ring32", "Figure 4")]


def sweep_table(path, title):
    times, moves = defaultdict(list), defaultdict(list)
    schemes, ratios = [], set()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["normalized_time"] == "":
                continue
            key = (r["scheme"], float(r["ratio"]))
            if r["scheme"] not in schemes:
                schemes.append(r["scheme"])
            ratios.add(float(r["ratio"]))
            times[key].append(float(r["normalized_time"]))
            moves[key].append(float(r["redistributions"]))
    if not times:
        plotlib.fail(f"'{path}' holds no normalized run")
    ring = path.split(os.sep)[-2]
    lines = [f"## {title} ({ring}): mean normalized time over the seeds", "",
             "| ratio | " + " | ".join(f"`{s}`" for s in schemes) + " |",
             "|---|" + "---|" * len(schemes)]
    for q in sorted(ratios):
        cells = [f"{sum(times[(s, q)]) / len(times[(s, q)]):.2f}" if times[(s, q)] else "-" for s in schemes]
        lines.append(f"| {q:g} | " + " | ".join(cells) + " |")
    lines += ["", "Mean redistributions that moved columns, over every ratio and seed: " +
              ", ".join(f"`{s}` {sum(sum(moves[(s, q)]) for q in ratios) / sum(len(moves[(s, q)]) for q in ratios):.1f}"
                        for s in schemes), ""]
    return lines


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results = sys.argv[1]
    lines = ["# HiPC 2004, Figures 3 and 4: normalized time", ""]
    for name, title in SWEEPS:
        path = os.path.join(results, name, "runs.csv")
        if not os.path.exists(path):
            plotlib.fail(f"'{path}' does not exist: run experiments/hipc2004/run.sh first")
        lines += sweep_table(path, title)
    plotlib.write_atomically(os.path.join(results, "normalized-time.md"), "\n".join(lines))


if __name__ == "__main__":
    main()
