#!/usr/bin/python3
"""Draws the HiPC 2004 reproduction from `ringsim run` outputs (Debian's python3-matplotlib).

  plot_paper_figures.py fig3 OUT/fig3-ring8/runs.csv  OUT/fig3-ring8.png
  plot_paper_figures.py fig4 OUT/fig4-ring32/runs.csv OUT/fig4-ring32.png
  plot_paper_figures.py traces OUT/fig2-traces/traces.csv OUT/fig2-speed-traces.png
  options: [--ring-sizes 8,32] [--schemes none,every-5] [--ratios 0.1,1] [--hosts N] [--describe FILE]

fig3, fig4 (any sweep's runs.csv): normalized execution time (makespan / makespan without
redistribution, same platform, ring, traces and ratio) against the computation-to-communication
ratio, one panel per ring size in the CSV and one line per scheme (and algorithm) in it: mean over
seeds and repetitions, with their range as a band; each line's label gives its scheme's
redistribution points as the runs counted them. fig3 and fig4 differ only in the figure's number.
--ring-sizes, --schemes, --ratios draw only those (each must be in the CSV).

traces (`ringsim traces` or `simulate --traces-dir` traces.csv): the speed of the first --hosts
ring members (default 2), titled with the iterations (or times) their speeds change at.

--describe FILE also writes what was drawn as JSON (panels, titles, lines, points). Input it
cannot draw faithfully (a missing column, an empty CSV, the runs of two network models or two
sweeps mixed, a requested value absent from the data) is refused: exit 2 and one line on stderr.
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

fail = plotlib.fail


# ---------------------------------------------------------------------------------------------
# Figures 3 and 4: normalized time against the ratio, a panel per ring size

def normalized_runs(path, ring_sizes, schemes, ratios):
    """The runs to draw: refused when none is normalized or a requested value is absent."""
    rows = plotlib.join_runs([path], ["redistribution_points"])
    for option, column, noun, wanted in (("--ring-sizes", "ring_size", "ring size(s)", ring_sizes),
                                         ("--schemes", "scheme", "scheme(s)", schemes),
                                         ("--ratios", "ratio", "ratio(s)", ratios)):
        keep = plotlib.choose(wanted, {r[column] for r in rows}, option, noun, f"'{path}'")
        rows = [r for r in rows if r[column] in keep]
    rows = [r for r in rows if r["normalized_time"].strip() != ""]
    if not rows:
        fail(f"runs CSV '{path}' has no normalized run to draw (normalized_time is empty: runs failed, or the "
             f"sweep ran without the none baseline)")
    for r in rows:
        r["normalized"] = plotlib.number(r, "normalized_time", path, "runs CSV")
        r["points"] = plotlib.number(r, "redistribution_points", path, "runs CSV", integer=True)
    return rows


def line_key(row):
    """A line per scheme, and per algorithm where a sweep planned with several: never averaged."""
    return (row["scheme"], row["algorithm"])


def scheme_rank(scheme):
    """The fixed schemes first, from the fewest points to the most (none, once, every-20, every-5),
    then the policies by name."""
    if scheme == "none":
        return (0, 0, "")
    if scheme == "once":
        return (1, 0, "")
    if scheme.startswith("every-") and scheme[6:].isdigit():
        return (2, -int(scheme[6:]), "")
    return (3, 0, scheme)


def line_order(keys):
    return sorted(keys, key=lambda k: (scheme_rank(k[0]), k[1]))


def line_label(key, rows, algorithms):
    scheme, algorithm = key
    name = scheme if len(algorithms) == 1 or algorithm in ("-", "") else f"{scheme} ({algorithm})"
    points = sorted({r["points"] for r in rows})
    return f"{name}: {points[0]}" if len(points) == 1 else f"{name}: {points[0]}-{points[-1]}"


def ring_panel(ax, rows):
    by_line = defaultdict(list)
    for r in rows:
        by_line[line_key(r)].append(r)
    algorithms = {r["algorithm"] for r in rows if r["algorithm"] not in ("-", "")}
    for key in line_order(by_line):
        at = defaultdict(list)
        for r in by_line[key]:
            at[r["ratio"]].append(r["normalized"])
        ratios = sorted(at)
        line, = ax.plot(ratios, [plotlib.mean(at[q]) for q in ratios], marker="o",
                        label=line_label(key, by_line[key], algorithms))
        ax.fill_between(ratios, [min(at[q]) for q in ratios], [max(at[q]) for q in ratios],
                        color=line.get_color(), alpha=0.12)
    ax.set_xscale("log")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel("computation-to-communication ratio (column update time / column transfer time)")
    ax.set_ylabel("normalized execution time")
    ax.legend(title="scheme: redistribution points", fontsize=8, title_fontsize=8)
    ax.grid(True, which="both", alpha=0.3)


def normalized_figure(plt, rows, number, out):
    sizes = sorted({r["ring_size"] for r in rows})
    fig, axes = plotlib.panel_grid(plt, len(sizes), 7, 4.5, columns=2)
    for ax, size in zip(axes, sizes):
        ring_panel(ax, [r for r in rows if r["ring_size"] == size])
        ax.set_title(f"ring of {size} processors" if len(sizes) > 1 else f"Figure {number}: ring of {size} processors")
    if len(sizes) > 1:
        fig.suptitle(f"Figure {number}: rings of {plotlib.words(sizes)} processors")
    fig.tight_layout()
    plotlib.save_figure(fig, out, 120)


# ---------------------------------------------------------------------------------------------
# Figure 2: speed traces

def read_traces(path):
    """{host: [(time, Mflop/s, iteration or None)]} in the CSV's host order (the ring's)."""
    what = "traces CSV"
    steps = {}
    for r in plotlib.read_table(path, what, ["host", "iteration", "time", "speed_flops"]):
        host = r["host"].strip()
        if not host:
            fail(f"{what} '{path}':{r['_line']}: empty host")
        iteration = plotlib.number(r, "iteration", path, what, integer=True) if r["iteration"].strip() else None
        steps.setdefault(host, []).append((plotlib.number(r, "time", path, what),
                                           plotlib.number(r, "speed_flops", path, what) / 1e6, iteration))
    return steps


def changes_text(points):
    """Where the drawn speeds change, by iteration (or by time where the trace speaks in time)."""
    iterations = sorted({i for t, _, i in points if t > 0 and i is not None})
    times = sorted({t for t, _, i in points if t > 0 and i is None})
    parts = []
    if iterations:
        parts.append(f"iteration{'s' if len(iterations) > 1 else ''} " + (
            plotlib.words(iterations) if len(iterations) <= 8 else f"{iterations[0]} to {iterations[-1]}"))
    if times:
        parts.append(f"{len(times)} time{'s' if len(times) > 1 else ''} from {times[0]:g} s to {times[-1]:g} s"
                     if len(times) > 3 else "time " + plotlib.words([f"{t:g} s" for t in times]))
    return "speed changes at " + " and ".join(parts) if parts else "no speed change"


def traces_figure(plt, path, out, hosts):
    steps = read_traces(path)
    if hosts < 1 or hosts > len(steps):
        fail(f"--hosts {hosts}: traces CSV '{path}' has {len(steps)} host(s)")
    shown = list(steps)[:hosts]
    last = max(t for h in shown for t, _, _ in steps[h])
    horizon = last * 1.25 if last > 0 else 1.0  # a trace without change still needs a time axis
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for host in shown:
        pts = sorted(steps[host], key=lambda p: p[0])
        ax.step([t for t, _, _ in pts] + [horizon], [s for _, s, _ in pts] + [pts[-1][1]], where="post", label=host)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("processing power (MFlops)")
    ax.set_title(f"Speed traces of {hosts} of the {len(steps)} ring members "
                 f"({changes_text([p for h in shown for p in steps[h]])})", fontsize=10)
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    plotlib.save_figure(fig, out, 120)


def main():
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["fig3", "fig4", "traces"])
    ap.add_argument("csv", help="a sweep's runs.csv (fig3, fig4) or a traces.csv (traces)")
    ap.add_argument("figure", help="the picture: .png, .pdf or .svg")
    ap.add_argument("--ring-sizes", help="fig3/fig4: draw only these ring sizes (comma-separated)")
    ap.add_argument("--schemes", help="fig3/fig4: draw only these schemes (comma-separated)")
    ap.add_argument("--ratios", help="fig3/fig4: draw only these ratios (comma-separated)")
    ap.add_argument("--hosts", type=int, default=2, help="traces: how many ring members to draw (default 2)")
    plotlib.add_describe_option(ap)
    a = ap.parse_args()
    if os.path.splitext(a.figure)[1].lower() not in (".png", ".pdf", ".svg"):
        fail(f"'{a.figure}': the figure's extension must be .png, .pdf or .svg")
    plt = plotlib.pyplot()
    if a.kind == "traces":
        if a.ring_sizes or a.schemes or a.ratios:
            fail("--ring-sizes, --schemes and --ratios apply to fig3 and fig4, not traces")
        traces_figure(plt, a.csv, a.figure, a.hosts)
    else:
        sizes = a.ring_sizes and plotlib.parse_list(a.ring_sizes, "--ring-sizes", int)
        schemes = a.schemes and plotlib.parse_list(a.schemes, "--schemes", str)
        ratios = a.ratios and plotlib.parse_list(a.ratios, "--ratios", float)
        rows = normalized_runs(a.csv, sizes or None, schemes or None, ratios or None)
        normalized_figure(plt, rows, a.kind[-1], a.figure)
    plotlib.write_description(a.describe)


if __name__ == "__main__":
    main()
