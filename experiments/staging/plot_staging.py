#!/usr/bin/python3
"""Plot of the staging experiment (experiments/staging/run_staging_experiment.py).

Usage: /usr/bin/python3 experiments/staging/plot_staging.py [--results experiments/staging/results]
           [--out experiments/staging/results] [--ring-sizes 8,32] [--describe FILE]
Writes staging.png from RESULTS/staging.csv and RESULTS/rebuild.csv: one panel per ring size of
staging.csv (simulated, solid, and planned, dashed, time of staging the matrix onto it against the
storage nodes' bandwidth) and one per rebuilt ring size of rebuild.csv (against the new ring's
size); a line per algorithm in the CSVs, and dotted the lower bound eta of each group of algorithms
that share it. Titles name the sizes from the CSVs and, when RESULTS/summary.json is there, the
matrix, the storage nodes, the platform and the network model.
--ring-sizes draws only those staging panels (each must be in staging.csv). --describe FILE also
writes what was drawn as JSON. Input it cannot draw faithfully (a missing file or column, an empty
CSV, a run twice) is refused: exit 2 and one line on stderr.
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
         "all-at-once": ("x", "tab:red"), "ggp-one-port": ("D", "tab:purple")}
MEASURES = ["k", "eta", "planned", "simulated"]


def read_moves(path, panel_key, x_key):
    """A staging.csv or rebuild.csv: numbers parsed, each (panel, x, seed, algorithm) once."""
    what = "results CSV"
    rows = plotlib.read_table(path, what, [panel_key, x_key, "seed", "algorithm"] + MEASURES)
    for r in rows:
        r[panel_key] = plotlib.number(r, panel_key, path, what, integer=True)
        r["x"] = plotlib.number(r, x_key, path, what)
        for key in MEASURES:
            r[key] = plotlib.number(r, key, path, what)
        r["algorithm"] = r["algorithm"].strip()
    plotlib.no_duplicates(rows, lambda r: (r[panel_key], r["x"], r["seed"].strip(), r["algorithm"]), path, what,
                          lambda k: f"{panel_key} {k[0]}, {x_key} {k[1]:g}, seed {k[2]}, algorithm {k[3]}")
    return rows


def style(algo, index):
    """The study's own algorithms keep their marks; any other gets the next free colour."""
    return STYLE.get(algo, ("v", f"C{(len(STYLE) + index) % 10}"))


def eta_groups(by, algos, xs):
    """Algorithms whose mean eta is the same at every x share one bound line (eta depends on k:
    ggp-one-port's k is not the others')."""
    groups = {}
    for algo in algos:
        series = tuple(round(statistics.mean(r["eta"] for r in by[(algo, x)]), 9) if (algo, x) in by else None
                       for x in xs)
        groups.setdefault(series, []).append(algo)
    return groups


def panel(ax, rows, x_scale, xlabel, title):
    by = defaultdict(list)
    for r in rows:
        by[(r["algorithm"], r["x"])].append(r)
    algos = list(dict.fromkeys(r["algorithm"] for r in rows))
    for i, algo in enumerate(algos):
        xs = sorted({x for a, x in by if a == algo})
        mean = lambda key: [statistics.mean(r[key] for r in by[(algo, x)]) for x in xs]
        m, c = style(algo, i)
        ax.plot([x * x_scale for x in xs], mean("simulated"), marker=m, color=c, label=f"{algo} simulated")
        if algo != "all-at-once":  # its "planned" is a fluid estimate, not a schedule
            ax.plot([x * x_scale for x in xs], mean("planned"), marker=m, color=c, ls="--", alpha=0.6, lw=1)
    all_xs = sorted({x for _, x in by})
    groups = eta_groups(by, algos, all_xs)
    for n, (series, members) in enumerate(groups.items()):
        pts = [(x * x_scale, v) for x, v in zip(all_xs, series) if v is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color="grey", ls=":" if n == 0 else "-.", lw=1,
                label="eta" if len(groups) == 1 else f"eta ({', '.join(members)})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time (s, mean over seeds)")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)


def describe_setting(summary):
    """What summary.json says of the sweep, for the titles; nothing when it is absent."""
    if not summary:
        return "", "KPBS moves (dashed: planned)"
    matrix = f"{summary['rows']}x{summary['columns']} doubles " if "rows" in summary and "columns" in summary else ""
    nodes = f"from {summary['storage_nodes']} storage nodes " if "storage_nodes" in summary else ""
    where = [os.path.basename(str(summary["platform"]))] if "platform" in summary else []
    where += [f"{summary['network_model']} model"] if "network_model" in summary else []
    return f"{matrix}{nodes}", "KPBS moves" + (f" on {', '.join(where)}" if where else "") + " (dashed: planned)"


def main():
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "experiments", "staging", "results"))
    ap.add_argument("--out", default=os.path.join(ROOT, "experiments", "staging", "results"))
    ap.add_argument("--ring-sizes", help="draw only these staging ring sizes (comma-separated)")
    plotlib.add_describe_option(ap)
    a = ap.parse_args()
    staging_csv = os.path.join(a.results, "staging.csv")
    rebuild_csv = os.path.join(a.results, "rebuild.csv")
    staging = read_moves(staging_csv, "ring_size", "node_bandwidth")
    rebuild = read_moves(rebuild_csv, "old_size", "new_size")
    requested = a.ring_sizes and plotlib.parse_list(a.ring_sizes, "--ring-sizes", int)
    sizes = plotlib.choose(requested or None, {r["ring_size"] for r in staging}, "--ring-sizes", "ring size(s)",
                           f"'{staging_csv}'")
    olds = sorted({r["old_size"] for r in rebuild})
    summary = plotlib.read_json_if_present(os.path.join(a.results, "summary.json"))
    if summary and "ring_sizes" in summary and sorted(summary["ring_sizes"]) != sorted({r["ring_size"] for r in staging}):
        fail(f"'{a.results}': summary.json's ring_sizes {summary['ring_sizes']} are not those of staging.csv "
             f"({plotlib.words(sorted({r['ring_size'] for r in staging}))}): results of two sweeps mixed?")
    what, heading = describe_setting(summary)
    plotlib.output_folder(a.out)

    plt = plotlib.pyplot()
    fig, axes = plotlib.panel_grid(plt, len(sizes) + len(olds), 4.7, 4.4, columns=3)
    for ax, q in zip(axes, sizes):
        panel(ax, [r for r in staging if r["ring_size"] == q], 1e-6, "storage node bandwidth b1 (MB/s)",
              f"staging {what}onto a ring of {q}")
        ax.set_xscale("log")
    for ax, q in zip(axes[len(sizes):], olds):
        panel(ax, [r for r in rebuild if r["old_size"] == q], 1, "processors of the rebuilt ring",
              f"rebuild of a ring of {q} (columns handed over)")
    plotlib.legend_of_all(axes, axes[0], fontsize=7)
    fig.suptitle(heading, fontsize=10)
    fig.tight_layout()
    path = os.path.join(a.out, "staging.png")
    plotlib.save_figure(fig, path, 110)
    plt.close(fig)
    plotlib.write_description(a.describe)
    print("wrote " + path)


if __name__ == "__main__":
    main()
