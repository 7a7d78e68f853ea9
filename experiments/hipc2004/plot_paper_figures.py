#!/usr/bin/python3
"""Draws the HiPC 2004 reproduction from `ringsim run` outputs (Debian's python3-matplotlib).

  plot_paper_figures.py fig3 OUT/fig3-ring8/runs.csv  docs/figures/fig3-ring8.png
  plot_paper_figures.py fig4 OUT/fig4-ring32/runs.csv docs/figures/fig4-ring32.png
  plot_paper_figures.py traces traces/traces.csv docs/figures/fig2-speed-traces.png

Normalized execution time (makespan / makespan without redistribution, same platform, ring,
traces and ratio) against the computation-to-communication ratio, one line per scheme: mean over
seeds, with the range of the seeds as a band.
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

plt = plotlib.pyplot()

SCHEME_LABELS = {"none": "no redistribution", "once": "1 (after 50)", "every-20": "4 (every 20)",
                 "every-10": "9 (every 10)", "every-5": "19 (every 5)"}


def normalized_figure(runs_csv, out_png, title):
    series = defaultdict(lambda: defaultdict(list))
    for row in plotlib.read_rows(runs_csv):
        if row["normalized_time"] == "":
            continue
        key = row["scheme"] if row["algorithm"] in ("-", "auto") else f'{row["scheme"]} ({row["algorithm"]})'
        series[key][float(row["ratio"])].append(float(row["normalized_time"]))
    if not series:
        plotlib.fail(f"no normalized runs in {runs_csv}")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    order = [s for s in SCHEME_LABELS if s in series] + sorted(s for s in series if s not in SCHEME_LABELS)
    for scheme in order:
        ratios = sorted(series[scheme])
        mean = [sum(series[scheme][r]) / len(series[scheme][r]) for r in ratios]
        lo = [min(series[scheme][r]) for r in ratios]
        hi = [max(series[scheme][r]) for r in ratios]
        line, = ax.plot(ratios, mean, marker="o", label=SCHEME_LABELS.get(scheme, scheme))
        ax.fill_between(ratios, lo, hi, color=line.get_color(), alpha=0.12)
    ax.set_xscale("log")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel("computation-to-communication ratio (column update time / column transfer time)")
    ax.set_ylabel("normalized execution time")
    ax.set_title(title)
    ax.legend(title="redistributions", fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    plotlib.save_figure(fig, out_png, 120)


def traces_figure(traces_csv, out_png, hosts=2):
    steps = defaultdict(list)
    with open(traces_csv) as f:
        for row in csv.DictReader(f):
            steps[row["host"]].append((float(row["time"]), float(row["speed_flops"]) / 1e6, int(row["iteration"])))
    fig, ax = plt.subplots(figsize=(7, 3.5))
    horizon = max(t for pts in steps.values() for t, _, _ in pts) * 1.25
    for host in sorted(steps)[:hosts]:
        pts = sorted(steps[host])
        xs = [t for t, _, _ in pts] + [horizon]
        ys = [s for _, s, _ in pts] + [pts[-1][1]]
        ax.step(xs, ys, where="post", label=host)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("processing power (MFlops)")
    ax.set_title("Speed traces of two ring members (changes in iterations [20,40] and [60,80])")
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    plotlib.save_figure(fig, out_png, 120)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("fig3", "fig4", "traces"):
        sys.exit(__doc__)
    kind, src, dst = sys.argv[1:]
    if kind == "traces":
        traces_figure(src, dst)
    else:
        size = "8" if kind == "fig3" else "32"
        normalized_figure(src, dst, f"Figure {kind[-1]}: ring of {size} processors")
