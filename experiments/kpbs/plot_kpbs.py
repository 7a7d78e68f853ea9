#!/usr/bin/python3
"""Plots of the KPBS experiment (experiments/kpbs/run_kpbs_experiment.py).

Usage: /usr/bin/python3 experiments/kpbs/plot_kpbs.py [--results experiments/kpbs/results]
           [--out experiments/kpbs/results] [--describe FILE]
Writes kpbs_ratio_vs_beta.png (RESULTS/ratio_vs_beta.csv: time / eta against beta, at the one k
of the CSV), kpbs_ratio_vs_k.png (RESULTS/ratio_vs_k.csv: against k, at its one beta) and
kpbs_planned_vs_simulated.png (RESULTS/planned_vs_simulated.csv: a panel per network model in it).
A line (or set of points) per algorithm in the CSVs; titles say k, beta and the models from the
CSVs and, when RESULTS/summary.json is there, the matrices. --describe FILE also writes what was
drawn as JSON. Input it cannot draw faithfully (a missing file or column, an empty CSV, a run
twice, several k in ratio_vs_beta.csv or several beta in ratio_vs_k.csv, which would be averaged
together) is refused before anything is written: exit 2 and one line on stderr.
Needs matplotlib (Debian: python3-matplotlib, importable by /usr/bin/python3).
"""
import argparse
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

fail = plotlib.fail
ROOT = plotlib.ROOT
STYLE = {"ggp": ("o", "tab:blue"), "oggp": ("s", "tab:green"), "greedy": ("^", "tab:orange"),
         "all-at-once": ("x", "tab:red")}
MODEL_NAMES = {"linear": "linear model (CM02, no TCP effects)", "lv08": "LV08 (SimGrid's TCP-like default)"}
WHAT = "results CSV"


def style(algo, index):
    """The study's own algorithms keep their marks; any other gets the next free colour."""
    return STYLE.get(algo, ("v", f"C{(len(STYLE) + index) % 10}"))


def read_results(path, numbers, key):
    """A results CSV with its numeric columns parsed and each run (`key`) once."""
    rows = plotlib.read_table(path, WHAT, ["algorithm", "seed"] + numbers + [c for c in key if c not in numbers])
    for r in rows:
        for c in numbers:
            r[c] = plotlib.number(r, c, path, WHAT)
        r["algorithm"], r["seed"] = r["algorithm"].strip(), r["seed"].strip()
    plotlib.no_duplicates(rows, lambda r: tuple(r[c] for c in key), path, WHAT,
                          lambda k: ", ".join(f"{c} {plotlib.show(v)}" for c, v in zip(key, k)))
    return rows


def read_ratio_sweep(path, x_key, fixed_key):
    """ratio_vs_beta.csv or ratio_vs_k.csv: swept on x_key, at one value of fixed_key (several
    would be averaged together at each x)."""
    rows = read_results(path, ["k", "beta", "ratio"], ["k", "beta", "seed", "algorithm"])
    plotlib.same_everywhere(rows, fixed_key, path, WHAT, f"its runs would be averaged together at each {x_key}")
    return rows, rows[0][fixed_key]


def matrices(summary):
    """The matrices as summary.json describes them, for the titles ('' without it)."""
    if not summary or not all(k in summary for k in ("senders", "receivers", "density", "max_time")):
        return ""
    return (f", {summary['senders']}x{summary['receivers']} random matrices ({100 * summary['density']:g}% dense, "
            f"entries in [0.1, {summary['max_time']:g}])")


def ratio_plot(plt, rows, x_key, xlabel, title, path, logx):
    by = defaultdict(list)
    for r in rows:
        by[(r["algorithm"], r[x_key])].append(r["ratio"])
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, algo in enumerate(dict.fromkeys(r["algorithm"] for r in rows)):
        xs = sorted({x for a, x in by if a == algo})
        m, c = style(algo, i)
        ax.plot(xs, [statistics.mean(by[(algo, x)]) for x in xs], marker=m, color=c, label=algo)
        ax.fill_between(xs, [min(by[(algo, x)]) for x in xs], [max(by[(algo, x)]) for x in xs], color=c, alpha=0.12)
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    ax.axhline(2.0, color="grey", lw=0.8, ls="--", label="2 (the KPBS paper's GGP ratio)")
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


def model_panel(ax, rows, model):
    algos = [a for a in dict.fromkeys(r["algorithm"] for r in rows) if a != "all-at-once"]
    for i, algo in enumerate(algos):
        pts = [(r["planned"], r["simulated"]) for r in rows if r["algorithm"] == algo]
        m, c = style(algo, i)
        ax.scatter([p for p, _ in pts], [s for _, s in pts], marker=m, color=c, s=22, label=f"{algo} schedule")
    # all-at-once is the same for every algorithm of a (k, beta, seed): one point each
    seen = {(r["k"], r["beta"], r["seed"]): (r["aao_planned"], r["aao_simulated"]) for r in rows}
    m, c = STYLE["all-at-once"]
    ax.scatter([p for p, _ in seen.values()], [s for _, s in seen.values()], marker=m, color=c, s=30,
               label="all-at-once (no schedule)")
    lim = [0, 1.05 * max(max(r["planned"], r["simulated"], r["aao_simulated"]) for r in rows)]
    ax.plot(lim, lim, color="grey", lw=0.8, ls=":", label="simulated = planned")
    ax.set_xlim(lim)
    ax.set_ylim(lim)
    ax.set_xlabel("planned time (s)")
    ax.set_ylabel("simulated time in SimGrid (s)")
    ax.set_title(MODEL_NAMES.get(model, model), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)


def planned_vs_simulated(plt, rows, summary, path):
    models = sorted({r["network_model"] for r in rows}, key=lambda m: (m not in MODEL_NAMES, m))
    fig, axes = plotlib.panel_grid(plt, len(models), 5, 4.4, columns=2)
    for ax, model in zip(axes, models):
        model_panel(ax, [r for r in rows if r["network_model"] == model], model)
    ks = sorted({r["k"] for r in rows})
    betas = sorted({r["beta"] for r in rows})
    fig.suptitle(f"KPBS: planned vs simulated{matrices(summary)}, "
                 f"k {'= ' + plotlib.show(ks[0]) if len(ks) == 1 else 'in {' + ', '.join(map(plotlib.show, ks)) + '}'}, "
                 f"beta {'= ' + plotlib.show(betas[0]) if len(betas) == 1 else 'in {' + ', '.join(map(plotlib.show, betas)) + '}'}",
                 fontsize=10)
    fig.tight_layout()
    plotlib.save_figure(fig, path, 120)
    plt.close(fig)


def main():
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "experiments", "kpbs", "results"))
    ap.add_argument("--out", default=os.path.join(ROOT, "experiments", "kpbs", "results"))
    plotlib.add_describe_option(ap)
    a = ap.parse_args()
    by_beta, k = read_ratio_sweep(os.path.join(a.results, "ratio_vs_beta.csv"), "beta", "k")
    by_k, beta = read_ratio_sweep(os.path.join(a.results, "ratio_vs_k.csv"), "k", "beta")
    pvs_path = os.path.join(a.results, "planned_vs_simulated.csv")
    pvs = read_results(pvs_path, ["k", "beta", "planned", "simulated", "aao_planned", "aao_simulated"],
                       ["network_model", "k", "beta", "seed", "algorithm"])
    for r in pvs:
        r["network_model"] = r["network_model"].strip()
    summary = plotlib.read_json_if_present(os.path.join(a.results, "summary.json"))
    for key, value, csv_name in (("k_for_beta", k, "ratio_vs_beta.csv"), ("beta_for_k", beta, "ratio_vs_k.csv")):
        if summary and key in summary and float(summary[key]) != value:
            fail(f"'{a.results}': summary.json's {key} {summary[key]} is not the {key[:-8]} of {csv_name} "
                 f"({plotlib.show(value)}): results of two sweeps mixed?")
    plotlib.output_folder(a.out)

    plt = plotlib.pyplot()
    ratio_plot(plt, by_beta, "beta", "setup delay beta (time units)", f"KPBS{matrices(summary)}, k = {plotlib.show(k)}",
               os.path.join(a.out, "kpbs_ratio_vs_beta.png"), True)
    ratio_plot(plt, by_k, "k", "k (simultaneous transfers)", f"KPBS{matrices(summary)}, beta = {plotlib.show(beta)}",
               os.path.join(a.out, "kpbs_ratio_vs_k.png"), False)
    planned_vs_simulated(plt, pvs, summary, os.path.join(a.out, "kpbs_planned_vs_simulated.png"))
    plotlib.write_description(a.describe)
    print("wrote kpbs_ratio_vs_beta.png, kpbs_ratio_vs_k.png, kpbs_planned_vs_simulated.png to " + a.out)


if __name__ == "__main__":
    main()
