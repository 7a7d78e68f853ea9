#!/usr/bin/python3
"""The field's rebalancing criteria against the best possible, family by family: per ring and
ratio, the mean normalized time of `hindsight` (the best points of each run, the traces known) and
its redistributions, then for the best fixed period chosen in hindsight (the fixed scheme with the
lowest mean), every criterion and policy the runs hold (Stop-At-Rise, Meta-Balancer, ringsim's
adaptive policies, rent-or-buy, forecast) and `online-optimal` where it was computed, the ratio of
its mean to hindsight's over the same seeds, and its mean number of redistributions.

  when_criteria.py configs OUTDIR
      writes OUTDIR/FAMILY.json for every family of experiments/when (rings of 8 and 32, nine
      ratios over four decades) with the schemes of the comparison (COMPARISON below) and the
      platform's path made absolute; `ringsim run OUTDIR/FAMILY.json --jobs 2 --out OUT/FAMILY`
      runs one. experiments/when/on-off-online-optimal.json adds online-optimal on rings of 8.
  when_criteria.py table TABLE.md FIGURES FAMILY=RUNS.csv[+RUNS.csv ...] ... [--describe FILE]
      the Markdown tables (one per family) and one figure per family in the folder FIGURES
      (when-criteria-FAMILY.png: a panel per ring size, each scheme's mean over hindsight's
      against the ratio).
  when_criteria.py goals GOALS.md POLICY SMOOTH SET/FAMILY=RUNS.csv[+RUNS.csv ...] ...
      the forecasting policy's goals for POLICY, one row per seed set and family: within 1.05 of
      the best fixed scheme (ratio of means, every ring and ratio), within 1.15 of hindsight
      (ratio of means; a goal on the families named in SMOOTH, comma-separated) and within 1.05 of
      online-optimal where the runs hold it (mean of the per-seed ratios, as the late-rule tables
      take it). SET names the seed set (`1-8`), FAMILY the family.

A seed whose hindsight run a table may not divide by (references.py: not exactly optimal under the
model, beaten by a checked fixed scheme in the simulation, or above a fixed scheme of the same run)
is left out of that ring and ratio, and the table says how many were. Bad input: exit 2 and one
line.
"""
import argparse
import glob
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotlib  # noqa: E402  (experiments/plotlib.py)
import references  # noqa: E402  (experiments/when/references.py)

from plotlib import fail  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXED = ["none", "once", "every-20", "every-10", "every-5"]
# The criteria in the order the tables list them: the field's first, then ringsim's policies.
CRITERIA = ["stop-at-rise", "meta-balancer", "boulmier", "adaptive", "adaptive-lasting", "adaptive-gather",
            "rent-or-buy", "forecast", "forecast-lasting", "markov-rule", "online-optimal"]
COMPARISON = FIXED + [c for c in CRITERIA if c != "online-optimal"] + ["hindsight"]
BEST_FIXED = "best fixed"
# The forecasting policy's goals (within 1.05 of the best fixed scheme, 1.15 of hindsight), counted for each.
NEAR_BEST, NEAR_HINDSIGHT = 1.05, 1.15
CLIP = 1.6  # the figures' top: a ratio above it is drawn there (the table has it)


def comparison_configs(out):
    """Each family of the study (rings of 8 and 32 over nine ratios) with the comparison's schemes."""
    os.makedirs(out, exist_ok=True)
    written = []
    for path in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        with open(path) as f:
            exp = json.load(f)
        if exp.get("ring_sizes") != [8, 32] or len(exp.get("ratios", [])) != 9:
            continue
        exp["schemes"] = COMPARISON
        exp["base"]["platform"] = os.path.normpath(os.path.join(HERE, exp["base"]["platform"]))
        exp.pop("quick", None)
        target = os.path.join(out, os.path.basename(path))
        plotlib.write_atomically(target, json.dumps(exp, indent=1) + "\n")
        written.append(target)
    if not written:
        fail(f"no family config in {HERE}")
    print("\n".join(written))


def read_family(name, paths):
    """(ring, ratio) -> scheme -> seed -> (normalized time, redistributions), with the fixed
    schemes also under BEST_FIXED later; and {(ring, ratio, seed): why} for hindsight runs left out."""
    rows = plotlib.join_runs(paths.split("+"), required=("normalized_time", "redistributions", "makespan"))
    runs = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        if r["scheme"] in FIXED or r["scheme"] in CRITERIA or r["scheme"] == "hindsight":
            line = f"{name}: runs CSV line {r['_line']}"
            try:
                value = (float(r["normalized_time"]), float(r["redistributions"]))
            except ValueError:
                fail(f"{line}: normalized_time or redistributions is not a number")
            runs[(int(r["ring_size"]), float(r["ratio"]))][r["scheme"]][int(r["seed"])] = value
    if not any("hindsight" in by for by in runs.values()):
        fail(f"{name}: {paths} holds no hindsight run: nothing to compare with")
    left_out = {key[:3]: why for key, why in references.untrusted_runs(rows, "hindsight").items()}
    return runs, left_out


def point_figures(key, by, left_out):
    """One (ring, ratio): the seeds compared and {scheme: (ratio to hindsight, redistributions)},
    the best fixed scheme (by its mean over those seeds) among them, hindsight's mean and moves."""
    hindsight = by.get("hindsight", {})
    present = [s for s in FIXED + CRITERIA if s in by and s != "online-optimal"]
    seeds = sorted(s for s in hindsight if (key[0], key[1], s) not in left_out
                   and all(s in by[x] for x in present))
    if not seeds:
        return seeds, None, {}, None
    mean = plotlib.mean
    h = mean([hindsight[s][0] for s in seeds])
    figures = {}
    for scheme in present + (["online-optimal"] if "online-optimal" in by else []):
        common = [s for s in seeds if s in by[scheme]]
        if not common:
            continue
        base = mean([hindsight[s][0] for s in common])
        figures[scheme] = (mean([by[scheme][s][0] for s in common]) / base, mean([by[scheme][s][1] for s in common]))
    fixed = [s for s in FIXED if s in figures]
    best = min(fixed, key=lambda s: figures[s][0]) if fixed else None
    if best:
        figures[BEST_FIXED] = figures[best]
    return seeds, best, figures, (h, mean([hindsight[s][1] for s in seeds]))


def family_table(name, runs, points, left_out):
    """`points`: point_figures of each (ring, ratio) of `runs`."""
    columns = [BEST_FIXED] + [c for c in CRITERIA if any(c in by for by in runs.values())]
    out = [f"### {name}", "",
           "Mean normalized time of hindsight (its redistributions); every other column: its mean over "
           "hindsight's on the same seeds (its redistributions).", "",
           "| ring | ratio | seeds | hindsight | best fixed (hindsight) | " + " | ".join(columns) + " |",
           "|---|---|---|---|---|" + "---|" * len(columns)]
    worst, counted, near_best, near_hindsight = {}, defaultdict(int), defaultdict(int), defaultdict(int)
    for key in sorted(runs):
        seeds, best, figures, h = points[key]
        if not seeds:
            continue
        cells = []
        for c in columns:
            if c in figures:
                ratio, moves = figures[c]
                cells.append(f"{ratio:.3f} ({moves:.1f})")
                if ratio > worst.get(c, (0.0, None))[0]:
                    worst[c] = (ratio, key)
                counted[c] += 1
                near_best[c] += BEST_FIXED in figures and ratio <= NEAR_BEST * figures[BEST_FIXED][0]
                near_hindsight[c] += ratio <= NEAR_HINDSIGHT
            else:
                cells.append("")
        out.append(f"| {key[0]} | {key[1]:g} | {len(seeds)} | {h[0]:.3f} ({h[1]:.1f}) | {best or ''} | "
                   + " | ".join(cells) + " |")
    out.append("")
    for c in columns:
        if c in worst:
            ratio, key = worst[c]
            versus_best = "" if c == BEST_FIXED else f"within {NEAR_BEST:g} of the best fixed at {near_best[c]} of {counted[c]} points, "
            out.append(f"- {c}: at most {ratio:.3f} of hindsight (ring {key[0]}, ratio {key[1]:g}); {versus_best}"
                       f"within {NEAR_HINDSIGHT:g} of hindsight at {near_hindsight[c]} of {counted[c]}.")
    out += ["", f"Hindsight runs left out ({references.CRITERIA}): {len(left_out)}"
            + ("" if not left_out else " (" + "; ".join(f"ring {k[0]} ratio {k[1]:g} seed {k[2]}: {why}"
                                                        for k, why in sorted(left_out.items())) + ")") + ".", ""]
    return out


def line_colors(plt):
    """One colour per line of a family's figure, none repeated: black for the best fixed scheme, tab10 and two more
    for the criteria."""
    palette = list(plt.get_cmap("tab10").colors) + ["darkgoldenrod", "darkslategrey"]
    assert len(CRITERIA) <= len(palette)
    return {BEST_FIXED: "black", **dict(zip(CRITERIA, palette))}


def family_figure(plt, name, points, folder):
    rings = sorted({k[0] for k in points})
    colors = line_colors(plt)
    fig, axes = plotlib.panel_grid(plt, len(rings), 5.0, 3.8, columns=len(rings))
    for ax, ring in zip(axes, rings):
        lines = defaultdict(list)
        for key in sorted(k for k in points if k[0] == ring):
            _, _, figures, _ = points[key]
            for scheme, (ratio, _) in figures.items():
                if scheme not in FIXED:
                    lines[scheme].append((key[1], ratio))
        clipped = False
        for scheme in [BEST_FIXED] + CRITERIA:
            if lines.get(scheme):
                xs, ys = zip(*lines[scheme])
                clipped = clipped or max(ys) > CLIP
                ax.plot(xs, [min(y, CLIP) for y in ys], marker="o", ms=3, lw=1.2, color=colors[scheme],
                        ls="--" if scheme == BEST_FIXED else "-", label=scheme)
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("computation-to-communication ratio")
        ax.set_ylabel("mean time / hindsight's")
        ax.set_title(f"{name}: ring of {ring}" + (f" (above {CLIP:g} drawn at {CLIP:g})" if clipped else ""))
    plotlib.legend_of_all(axes, axes[-1], fontsize=7)
    path = os.path.join(folder, f"when-criteria-{name}.png")
    plotlib.save_figure(fig, path, 110, bbox_inches="tight")
    plt.close(fig)


def versus_online_optimal(policy, runs):
    """{ratio: mean over the seeds both hold of the policy's normalized time over online-optimal's}."""
    out = {}
    for key, by in sorted(runs.items()):
        if policy in by and "online-optimal" in by:
            seeds = sorted(set(by[policy]) & set(by["online-optimal"]))
            if seeds:
                out[key] = plotlib.mean([by[policy][s][0] / by["online-optimal"][s][0] for s in seeds])
    return out


def worst_of(values, bound):
    """(points within bound, points, the worst value and its (ring, ratio))."""
    if not values:
        return None
    key = max(values, key=values.get)
    return sum(v <= bound for v in values.values()), len(values), values[key], key


def goal_cell(counted, goal=True):
    if counted is None:
        return "not computed"
    within, total, worst, key = counted
    mark = "" if not goal or within == total else " **(missed)**"
    return f"{within} of {total}; worst {worst:.3f} (ring {key[0]}, ratio {key[1]:g}){mark}"


def goal_table(policy, smooth, read):
    """The rows of the goals command: `read` holds (set, family, runs, left_out)."""
    out = [f"Goals of `{policy}`: points within the bound, of those measured; the worst ratio and where.", "",
           "| seeds | family | within 1.05 of the best fixed scheme | within 1.15 of hindsight | "
           "within 1.05 of online-optimal (mean of per-seed ratios) |",
           "|---|---|---|---|---|"]
    totals = defaultdict(lambda: [0, 0])
    for label, name, runs, left_out in read:
        versus_best, versus_hindsight = {}, {}
        for key, by in runs.items():
            _, best, figures, _ = point_figures(key, by, left_out)
            if policy in figures and best:
                versus_best[key] = figures[policy][0] / figures[BEST_FIXED][0]
                versus_hindsight[key] = figures[policy][0]
        if not versus_best:
            fail(f"{label}/{name}: the runs hold no {policy} run with a hindsight and a fixed scheme to compare with")
        is_smooth = name in smooth
        cells = [worst_of(versus_best, NEAR_BEST), worst_of(versus_hindsight, NEAR_HINDSIGHT),
                 worst_of(versus_online_optimal(policy, runs), NEAR_BEST)]
        for goal, counted in zip(("best fixed", "hindsight", "online-optimal"), cells):
            if counted and (goal != "hindsight" or is_smooth):
                totals[goal][0] += counted[0]
                totals[goal][1] += counted[1]
        out.append(f"| {label} | {name}{' (smooth)' if is_smooth else ''} | {goal_cell(cells[0])} | "
                   f"{goal_cell(cells[1], is_smooth)} | {goal_cell(cells[2])} |")
    out += ["", "Within the goals, every row above (within 1.15 of hindsight: the smooth families only): "
            + "; ".join(f"{goal}: {t[0]} of {t[1]} points" for goal, t in totals.items()) + ".", ""]
    return out


def goals_command(argv):
    ap = plotlib.ArgumentParser(prog="when_criteria.py goals", description="the forecasting policy's goals")
    ap.add_argument("goals", help="the table (Markdown)")
    ap.add_argument("policy", help="the scheme whose goals are counted")
    ap.add_argument("smooth", help="the smooth families, comma-separated (their hindsight goal counts)")
    ap.add_argument("families", nargs="+", metavar="SET/FAMILY=RUNS.csv[+RUNS.csv...]")
    a = ap.parse_args(argv)
    pairs = plotlib.name_value_pairs(a.families, lambda x: f"expected SET/FAMILY=RUNS.csv[+RUNS.csv], got '{x}'")
    read = []
    for name, paths in pairs:
        label, slash, family = name.partition("/")
        if not slash or not label or not family:
            fail(f"expected SET/FAMILY=RUNS.csv[+RUNS.csv], got '{name}={paths}'")
        read.append((label, family, *read_family(f"{label}/{family}", paths)))
    lines = goal_table(a.policy, {f for f in a.smooth.split(",") if f}, read)
    plotlib.write_atomically(a.goals, "\n".join(lines))
    sys.stdout.write("\n".join(lines))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "configs":
        if len(sys.argv) != 3:
            fail("usage: when_criteria.py configs OUTDIR")
        comparison_configs(sys.argv[2])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "goals":
        goals_command(sys.argv[2:])
        return
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["table"])
    ap.add_argument("table", help="the tables (Markdown)")
    ap.add_argument("figures", help="the folder of the figures")
    ap.add_argument("families", nargs="+", metavar="FAMILY=RUNS.csv[+RUNS.csv...]")
    plotlib.add_describe_option(ap)
    a = ap.parse_args()
    families = plotlib.name_value_pairs(a.families, lambda x: f"expected FAMILY=RUNS.csv[+RUNS.csv], got '{x}'")
    read = [(name, *read_family(name, paths)) for name, paths in families]
    folder = plotlib.output_folder(a.figures, "FIGURES")
    plt = plotlib.pyplot()
    lines = []
    for name, runs, left_out in read:
        points = {key: point_figures(key, by, left_out) for key, by in runs.items()}
        lines += family_table(name, runs, points, left_out)
        family_figure(plt, name, points, folder)
    plotlib.write_atomically(a.table, "\n".join(lines))
    if a.describe:
        plotlib.write_description(a.describe)
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
