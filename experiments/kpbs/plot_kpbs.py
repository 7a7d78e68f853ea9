#!/usr/bin/python3
"""Plots of the KPBS experiment (experiments/kpbs/run_kpbs_experiment.py).

Usage: /usr/bin/python3 experiments/kpbs/plot_kpbs.py [--results experiments/kpbs/results] [--out docs/figures]
Writes kpbs_ratio_vs_beta.png, kpbs_ratio_vs_k.png, kpbs_planned_vs_simulated.png.
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
ALGOS = ["ggp", "oggp", "greedy", "all-at-once"]
STYLE = {"ggp": ("o", "tab:blue"), "oggp": ("s", "tab:green"), "greedy": ("^", "tab:orange"),
         "all-at-once": ("x", "tab:red")}


read = plotlib.read_rows


def ratio_plot(rows, x_key, xlabel, title, path, logx):
    by = defaultdict(list)
    for r in rows:
        by[(r["algorithm"], float(r[x_key]))].append(float(r["ratio"]))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for algo in ALGOS:
        xs = sorted({x for a, x in by if a == algo})
        mean = [statistics.mean(by[(algo, x)]) for x in xs]
        lo = [min(by[(algo, x)]) for x in xs]
        hi = [max(by[(algo, x)]) for x in xs]
        m, c = STYLE[algo]
        ax.plot(xs, mean, marker=m, color=c, label=algo)
        ax.fill_between(xs, lo, hi, color=c, alpha=0.12)
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    ax.axhline(2.0, color="grey", lw=0.8, ls="--", label="2 (the seed's GGP ratio)")
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time / eta (mean, band: min-max over seeds)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    plotlib.save_figure(fig, path, 120)
    plt.close(fig)


def planned_vs_simulated(rows, path):
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), sharex=False)
    for ax, model in zip(axes, ["linear", "lv08"]):
        sel = [r for r in rows if r["network_model"] == model]
        for algo in ["ggp", "oggp", "greedy"]:
            pts = [(float(r["planned"]), float(r["simulated"])) for r in sel if r["algorithm"] == algo]
            m, c = STYLE[algo]
            ax.scatter([p for p, _ in pts], [s for _, s in pts], marker=m, color=c, s=22, label=f"{algo} schedule")
        # all-at-once is the same for the three algorithms of a (k, seed): one point each
        seen = {}
        for r in sel:
            seen[(r["k"], r["seed"])] = (float(r["aao_planned"]), float(r["aao_simulated"]))
        m, c = STYLE["all-at-once"]
        ax.scatter([p for p, _ in seen.values()], [s for _, s in seen.values()], marker=m, color=c, s=30,
                   label="all-at-once (no schedule)")
        lim = [0, 1.05 * max(max(float(r["planned"]), float(r["simulated"]), float(r["aao_simulated"])) for r in sel)]
        ax.plot(lim, lim, color="grey", lw=0.8, ls=":", label="simulated = planned")
        ax.set_xlim(lim)
        ax.set_ylim(lim)
        ax.set_xlabel("planned time (s)")
        ax.set_ylabel("simulated time in SimGrid (s)")
        name = "linear model (CM02, no TCP effects)" if model == "linear" else "LV08 (SimGrid's TCP-like default)"
        ax.set_title(name, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("KPBS: planned vs simulated, 10x10 random matrices, k in {2, 5}, beta = 1", fontsize=10)
    fig.tight_layout()
    plotlib.save_figure(fig, path, 120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "experiments", "kpbs", "results"))
    ap.add_argument("--out", default=plotlib.FIGURES)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    ratio_plot(read(os.path.join(a.results, "ratio_vs_beta.csv")), "beta", "setup delay beta (time units)",
               "KPBS, 10x10 random matrices (60% dense, entries in [0.1, 10]), k = 5",
               os.path.join(a.out, "kpbs_ratio_vs_beta.png"), True)
    ratio_plot(read(os.path.join(a.results, "ratio_vs_k.csv")), "k", "k (simultaneous transfers)",
               "KPBS, 10x10 random matrices (60% dense, entries in [0.1, 10]), beta = 1",
               os.path.join(a.out, "kpbs_ratio_vs_k.png"), False)
    planned_vs_simulated(read(os.path.join(a.results, "planned_vs_simulated.csv")),
                         os.path.join(a.out, "kpbs_planned_vs_simulated.png"))
    print("wrote kpbs_ratio_vs_beta.png, kpbs_ratio_vs_k.png, kpbs_planned_vs_simulated.png to " + a.out)


if __name__ == "__main__":
    main()
