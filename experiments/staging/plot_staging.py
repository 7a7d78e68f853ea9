#!/usr/bin/python3
"""Plot of the staging experiment (experiments/staging/run_staging_experiment.py).

Usage: /usr/bin/python3 experiments/staging/plot_staging.py [--results experiments/staging/results] [--out docs/figures]
Writes staging.png: simulated (solid) and planned (dashed) times of the staging onto rings of 8
and 32 against the storage nodes' bandwidth, and of a rebuild of a ring of 8 against the new size.
Needs matplotlib (Debian: python3-matplotlib, importable by /usr/bin/python3).
"""
import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

plt = plotlib.pyplot()
ROOT = plotlib.ROOT
STYLE = {"ggp": ("o", "tab:blue"), "oggp": ("s", "tab:green"), "greedy": ("^", "tab:orange"),
         "all-at-once": ("x", "tab:red"), "ggp-one-port": ("D", "tab:purple")}


read = plotlib.read_rows


def panel(ax, rows, x_key, x_scale, xlabel, title):
    by = defaultdict(list)
    for r in rows:
        by[(r["algorithm"], float(r[x_key]))].append(r)
    for algo, (m, c) in STYLE.items():
        xs = sorted({x for a, x in by if a == algo})
        if not xs:
            continue
        mean = lambda key: [statistics.mean(float(r[key]) for r in by[(algo, x)]) for x in xs]
        ax.plot([x * x_scale for x in xs], mean("simulated"), marker=m, color=c, label=f"{algo} simulated")
        if algo != "all-at-once":  # its "planned" is a fluid estimate, not a schedule
            ax.plot([x * x_scale for x in xs], mean("planned"), marker=m, color=c, ls="--", alpha=0.6, lw=1)
    etas = sorted({x for _, x in by})
    ax.plot([x * x_scale for x in etas],
            [statistics.mean(float(r["eta"]) for a, x2 in by for r in by[(a, x2)] if x2 == x and a == "ggp") for x in etas],
            color="grey", ls=":", label="eta (derived k)")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time (s, mean over seeds)")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "experiments", "staging", "results"))
    ap.add_argument("--out", default=plotlib.FIGURES)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    staging = read(os.path.join(a.results, "staging.csv"))
    rebuild = read(os.path.join(a.results, "rebuild.csv"))
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
    for ax, q in zip(axes, ["8", "32"]):
        panel(ax, [r for r in staging if r["ring_size"] == q], "node_bandwidth", 1e-6, "storage node bandwidth b1 (MB/s)",
              f"staging 1000x1000 doubles from 8 storage nodes onto a ring of {q}")
        ax.set_xscale("log")
    panel(axes[2], rebuild, "new_size", 1, "processors of the rebuilt ring", "rebuild of a ring of 8 (columns handed over)")
    axes[0].legend(fontsize=7)
    fig.suptitle("KPBS moves on the HiPC 2004 90-host platform (linear model, WAN latencies; dashed: planned)", fontsize=10)
    fig.tight_layout()
    path = os.path.join(a.out, "staging.png")
    plotlib.save_figure(fig, path, 110)
    plt.close(fig)
    print("wrote " + path)


if __name__ == "__main__":
    main()
