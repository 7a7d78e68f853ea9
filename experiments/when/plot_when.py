#!/usr/bin/python3
"""When to redistribute: the figure and the goal table from `ringsim run` outputs of
experiments/when/*.json (Debian's python3-matplotlib for the figure).

  plot_when.py FIGURE.png TABLE.md NAME=RUNS.csv[+RUNS.csv...] [NAME=RUNS.csv ...]

A family's runs may come from several runs.csv files joined by '+' (a policy swept on its own
with the same experiment: each run depends only on its own config, so its rows are those a full
sweep would write).

One panel per trace family (rows) and ring size (columns): normalized execution time (makespan /
makespan without redistribution, same platform, ring, traces and ratio), mean over the seeds,
against the computation-to-communication ratio, one line per scheme, and the ideal bound (every
iteration balanced, moves free: the runs' ideal_time over the baseline's makespan). TABLE.md gets,
per family, ring and ratio, the best fixed scheme in hindsight (the lowest mean among the fixed
schemes the runs hold: none, once, every-K), the policies' means and their ratios to that best,
scheme hindsight (the best points of each run, chosen with the traces known) with its mean number
of redistributions, the policies' ratios to it, the ideal bound, and where it ran, scheme
online-optimal (the best online rule: the present known, not the future) and its ratio to hindsight.
The figure also draws scheme hindsight-targets where its rows are given (points and targets
chosen with the traces known; its table is when_chosen_targets.py's).

A reference run (hindsight, hindsight-targets) that is not exactly optimal under the model, was
beaten in the simulation by a fixed scheme it was checked against, or ended above a fixed scheme of
the same run (references.py) is no optimum to compare with: it is
left out of its scheme's column, curve and every ratio to it, a ratio to hindsight is of the means
over the runs that have both, and the table (after each family's) and the panel's title say how
many runs were left out, the table also which and why.
Bad input: exit 2 and one line.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotlib  # noqa: E402  (experiments/plotlib.py)
import references  # noqa: E402  (experiments/when/references.py)

FIXED = re.compile(r"none|once|every-[0-9]+")  # the fixed frequencies the best in hindsight is chosen among
LABELS = {"none": "never", "once": "once (after 50)", "every-20": "every 20", "every-10": "every 10",
          "every-5": "every 5", "adaptive": "adaptive", "rent-or-buy": "rent-or-buy",
          "adaptive-lasting": "adaptive-lasting", "adaptive-gather": "adaptive-gather (former)", "hindsight": "hindsight (best points of each run)",
          "hindsight-targets": "hindsight-targets (best points and targets)",
          "online-optimal": "online-optimal (best rule that knows the present, not the future)"}
POLICIES = ["adaptive", "rent-or-buy", "adaptive-lasting"]
GOAL = 1.05
GOAL_HINDSIGHT = 1.10
REFERENCES = ("hindsight", "hindsight-targets")  # the schemes a ratio may divide by, once trusted


fail = plotlib.fail


def read_means(name, paths):
    """{(ring, ratio, scheme): {(seed, repetition): normalized time}} of a family's runs.csv files
    ('+'-joined, each run counted once), and of the same keys the redistributions and the ideal
    bound (ideal_time over the baseline's makespan) of each run. A reference's runs that no ratio
    may divide by (references.py) are left out of every part and listed in "left_out"."""
    rows = plotlib.join_runs(paths.split("+"), ["redistributions", "time_over_ideal", "makespan"])
    refuse_mixed_algorithms(name, rows)
    untrusted = untrusted_references(rows)
    left_out = {}
    means, redistributions, ideal = defaultdict(dict), defaultdict(dict), defaultdict(dict)
    references_run = defaultdict(int)  # (ring, ratio, reference): its runs, left out or not
    for row in rows:
        if row["normalized_time"].strip() == "":
            continue  # a failed run, or one without its baseline
        path, what = row["_file"], "runs CSV"
        key = (row["ring_size"], row["ratio"], row["scheme"])
        run = (row["seed"], row["repetition"])
        normalized = plotlib.number(row, "normalized_time", path, what)
        over_ideal = plotlib.number(row, "time_over_ideal", path, what)
        if over_ideal <= 0:
            fail(f"{what} '{path}':{row['_line']}: column time_over_ideal: {over_ideal:g} is not positive")
        if row["scheme"] in REFERENCES:
            references_run[key] += 1
            why = untrusted.get(references.run_key(row) + (row["scheme"],))
            if why:
                left_out[references.run_key(row) + (row["scheme"],)] = why
                continue
        means[key][run] = normalized
        redistributions[key][run] = plotlib.number(row, "redistributions", path, what, integer=True)
        ideal[key][run] = normalized / over_ideal
    if not means:
        fail(f"family {name}: {paths} holds no normalized run (normalized_time is empty everywhere)")
    return {"time": means, "redistributions": redistributions, "ideal": ideal,
            "left_out": left_out, "references_run": dict(references_run)}


def untrusted_references(rows):
    """{(ring, ratio, seed, repetition, reference): why} for the runs of `hindsight` and
    `hindsight-targets` that are no optimum to divide by (references.py: not exactly optimal under
    the model, beaten by a checked fixed scheme, or above a fixed scheme of the same run). Their makespans and optimality flags are
    checked first, so that a value neither can read is refused rather than silently trusted."""
    for r in rows:
        if r["makespan"].strip():
            plotlib.number(r, "makespan", r["_file"], "runs CSV")
        flag = r.get("reference_optimal_under_model", "").strip()
        if r["scheme"] in REFERENCES and flag not in ("", "true", "false"):
            fail(f"runs CSV '{r['_file']}':{r['_line']}: column reference_optimal_under_model: '{flag}' is "
                 f"not true, false or empty")
    return {key + (reference,): why for reference in REFERENCES
            for key, why in references.untrusted_runs(rows, reference).items()}


def refuse_mixed_algorithms(name, rows):
    """A scheme's line and table cell are keyed by scheme alone: runs of one scheme planned by two
    algorithms would be averaged together."""
    algorithms = defaultdict(set)
    for r in rows:
        algorithms[r["scheme"]].add(r["algorithm"])
    for scheme, algos in sorted(algorithms.items()):
        if len(algos) > 1:
            fail(f"family {name}: scheme {scheme} has runs of algorithms {plotlib.words(sorted(algos))}, which "
                 f"would be averaged together; give each algorithm's runs as a family of its own")


def select_rings(families_means, requested):
    """The ring sizes to draw: every size of every family, or those requested (each in the data)."""
    present = {k[0] for _, d in families_means for k in d["time"]}
    rings = plotlib.choose(requested, present, "--ring-sizes", "ring size(s)", "the runs given")
    for name, d in families_means:
        for part in d.values():
            for k in [k for k in part if k[0] not in rings]:
                del part[k]
        if not d["time"]:
            fail(f"--ring-sizes: family {name} has no run on a ring of {plotlib.words(sorted(rings))}")
    return sorted(rings)


def mean(runs):
    """The mean of a {run: value} part (or of a list)."""
    return plotlib.mean(list(runs.values()) if isinstance(runs, dict) else runs)


def over_hindsight(means, ring, ratio, scheme):
    """A scheme's mean over hindsight's, both over the runs (seed, repetition) that have the
    scheme and a trusted hindsight run: the two means are of the same runs, so the ratio is not
    moved by a run one of them lacks."""
    x, h = means.get((ring, ratio, scheme)), means.get((ring, ratio, "hindsight"))
    runs = sorted(set(x or {}) & set(h or {}))
    return mean([x[r] for r in runs]) / mean([h[r] for r in runs]) if runs else None


def fixed_rank(scheme):
    """none, once, then every-K from the rarest points to the most frequent: the order ties go by."""
    return (0, 0) if scheme == "none" else (1, 0) if scheme == "once" else (2, -int(scheme[len("every-"):]))


def table_rows(name, data):
    means = data["time"]
    rows = []
    for ring in sorted({k[0] for k in means}):
        for ratio in sorted({k[1] for k in means if k[0] == ring}):
            fixed = {k[2]: mean(v) for k, v in means.items() if k[:2] == (ring, ratio) and FIXED.fullmatch(k[2])}
            if not fixed:
                fail(f"family {name}, ring {ring}, ratio {ratio:g}: no fixed scheme (none, once, every-K) to find "
                     f"the best in hindsight among")
            best = min(sorted(fixed, key=fixed_rank), key=fixed.get)
            counted = (ring, ratio, "adaptive") if (ring, ratio, "adaptive") in means else (ring, ratio, best)
            row = {"ring": ring, "ratio": ratio, "best": best, "best_mean": fixed[best],
                   "seeds": len(means[counted]),
                   "ideal": mean(data["ideal"][(ring, ratio, "none")]) if (ring, ratio, "none") in means else None}
            for s in POLICIES + ["adaptive-gather", "hindsight", "online-optimal"]:
                row[s] = mean(means[(ring, ratio, s)]) if (ring, ratio, s) in means else None
            h = (ring, ratio, "hindsight")
            row["hindsight_moves"] = mean(data["redistributions"][h]) if h in means else None
            row["over_hindsight"] = {s: over_hindsight(means, ring, ratio, s) for s in POLICIES + ["online-optimal"]}
            rows.append(row)
    return rows


def number(value, digits):
    return "" if value is None else f"{value:.{digits}f}"


def ratio_text(value, base, goal):
    if value is None or base is None:
        return ""
    return rel_text(value / base, goal)


def rel_text(rel, goal):
    return "" if rel is None else f"{rel:.3f}" + ("" if rel <= goal else f" **(over {goal})**")


def left_out_text(data):
    """How many runs of each reference were left out of its columns, its curve and every ratio to
    it, and why, one run after the other: a reader must be able to tell which cells they move."""
    run = defaultdict(int)
    for (_, _, reference), count in data["references_run"].items():
        run[reference] += count
    if not run:
        return None
    left = data["left_out"]
    counts = ", ".join(f"{reference} {sum(1 for k in left if k[4] == reference)} of {run[reference]}"
                       for reference in REFERENCES if reference in run)
    why = "; ".join(f"ring {k[0]} ratio {k[1]:g} seed {k[2]}" + (f" repetition {k[3]}" if k[3] else "") +
                    f": {k[4]} {reason}" for k, reason in sorted(left.items()))
    return (f"Reference runs left out ({references.CRITERIA}): {counts}" + (f" ({why})" if why else "") + ".\n")


def markdown(families):
    out = []
    for name, rows, data in families:
        out.append(f"### {name}\n")
        out.append("| ring | ratio | best fixed (hindsight) | its mean | adaptive | adaptive / best | rent-or-buy / best "
                   "| adaptive-lasting / best | adaptive-gather / best | hindsight | its redistributions "
                   "| adaptive / hindsight | rent-or-buy / hindsight | adaptive-lasting / hindsight | ideal | seeds "
                   "| online-optimal | online-optimal / hindsight |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            h, oh = r["hindsight"], r["over_hindsight"]
            former = None if r["adaptive-gather"] is None else r["adaptive-gather"] / r["best_mean"]
            out.append(f"| {r['ring']} | {r['ratio']:g} | {r['best']} | {r['best_mean']:.3f} | {number(r['adaptive'], 3)} | "
                       f"{ratio_text(r['adaptive'], r['best_mean'], GOAL)} | "
                       f"{ratio_text(r['rent-or-buy'], r['best_mean'], GOAL)} | "
                       f"{ratio_text(r['adaptive-lasting'], r['best_mean'], GOAL)} | {number(former, 3)} | "
                       f"{number(h, 3)} | {number(r['hindsight_moves'], 1)} | "
                       f"{rel_text(oh['adaptive'], GOAL_HINDSIGHT)} | {rel_text(oh['rent-or-buy'], GOAL_HINDSIGHT)} | "
                       f"{rel_text(oh['adaptive-lasting'], GOAL_HINDSIGHT)} | "
                       f"{number(r['ideal'], 3)} | {r['seeds']} | {number(r['online-optimal'], 3)} | "
                       f"{rel_text(oh['online-optimal'], GOAL_HINDSIGHT)} |")
        out.append("")
        left = left_out_text(data)
        if left:
            out.append(left)
        for p in POLICIES:
            have = [r for r in rows if r[p] is not None]
            if not have:
                continue
            met = sum(1 for r in have if r[p] / r["best_mean"] <= GOAL)
            better = [f"ring {r['ring']} ratio {r['ratio']:g}" for r in have if r[p] / r["best_mean"] < 1.0]
            line = (f"{p} within {GOAL} of the best fixed scheme at {met} of {len(have)} (ring, ratio) points; "
                    f"better than every fixed scheme at {len(better)}" + (f" ({', '.join(better)})" if better else ""))
            hs = [r["over_hindsight"][p] for r in have if r["over_hindsight"][p] is not None]
            if hs:
                line += f"; within {GOAL_HINDSIGHT} of hindsight at {sum(1 for rel in hs if rel <= GOAL_HINDSIGHT)} of {len(hs)}"
            out.append(line + ".\n")
        online = [r for r in rows if r["over_hindsight"]["online-optimal"] is not None]
        if online:
            over = [f"ring {r['ring']} ratio {r['ratio']:g} ({r['over_hindsight']['online-optimal']:.3f})" for r in online
                    if r["over_hindsight"]["online-optimal"] > GOAL_HINDSIGHT]
            out.append(f"online-optimal (knows every member's state and the load's law, not the future) within "
                       f"{GOAL_HINDSIGHT} of hindsight at {len(online) - len(over)} of {len(online)} points where it ran"
                       + (f"; over at {', '.join(over)}: there no policy, knowing less, can be expected within "
                          f"{GOAL_HINDSIGHT}" if over else "") + ".\n")
    return "\n".join(out) + "\n"


STYLES = {"adaptive": dict(color="black", linewidth=2.4, marker="s", markersize=4),
          "rent-or-buy": dict(color="tab:brown", linewidth=1.8, marker="D", markersize=3),
          "adaptive-lasting": dict(color="tab:green", linewidth=2.0, marker="^", markersize=4),
          "adaptive-gather": dict(color="grey", linestyle="--"),
          "hindsight": dict(color="tab:red", linewidth=2.0, linestyle="--", marker="v", markersize=4),
          "hindsight-targets": dict(color="darkred", linewidth=1.6, linestyle="--", marker="*", markersize=4),
          "online-optimal": dict(color="tab:cyan", linewidth=1.8, linestyle="-.", marker="x", markersize=5)}


def scheme_order(schemes):
    """The fixed frequencies from the rarest points to the most frequent, then the policies and
    references the labels know, in their order, then any other the runs hold, by name."""
    fixed = sorted((s for s in schemes if FIXED.fullmatch(s)), key=fixed_rank)
    known = [s for s in LABELS if s in schemes and s not in fixed]
    return fixed + known + sorted(s for s in schemes if s not in fixed and s not in LABELS)


def label(scheme):
    return LABELS.get(scheme) or (f"every {scheme[len('every-'):]}" if scheme.startswith("every-") else scheme)


def panel(ax, data, ring, drawn):
    means = data["time"]
    for s in scheme_order({k[2] for k in means if k[0] == ring and (drawn is None or k[2] in drawn)}):
        ratios = sorted(k[1] for k in means if k[0] == ring and k[2] == s)
        style = dict(marker="o", markersize=3, linewidth=1.2)
        style.update(STYLES.get(s, {}))
        ax.plot(ratios, [mean(means[(ring, q, s)]) for q in ratios], label=label(s), **style)
    ratios = sorted(k[1] for k in means if k[0] == ring and k[2] == "none")
    if ratios:
        ax.plot(ratios, [mean(data["ideal"][(ring, q, "none")]) for q in ratios], color="tab:red",
                linestyle=":", linewidth=1.2, label="ideal bound (balanced, free moves)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.grid(True, which="both", alpha=0.3)


def left_out_title(data, ring):
    """What a panel's reference curves leave out, when they leave out any: the title says it, since
    a curve drawn over fewer runs than the others is not their mean over the same seeds."""
    parts = []
    for reference in REFERENCES:
        run = sum(c for (q, _, s), c in data["references_run"].items() if q == ring and s == reference)
        left = sum(1 for k in data["left_out"] if k[0] == ring and k[4] == reference)
        if left:
            parts.append(f"{reference}: {left} of {run} runs left out")
    return f"\n({'; '.join(parts)})" if parts else ""  # a line of its own: beside the name it runs into the next title


def figure(families_means, rings, out_png, drawn=None):
    """A panel per family (rows) and ring size (columns), a line per scheme (those of `drawn`, or
    all); a family without runs on a ring size leaves its cell empty rather than drawing a panel of
    nothing."""
    plt = plotlib.pyplot()
    fig, axes = plt.subplots(len(families_means), len(rings), figsize=(6 * len(rings), 3.6 * len(families_means)),
                             squeeze=False, sharex=True)
    for row, (name, data) in enumerate(families_means):
        for col, ring in enumerate(rings):
            ax = axes[row][col]
            if not any(k[0] == ring for k in data["time"]):
                ax.set_visible(False)
                continue
            panel(ax, data, ring, drawn)
            ax.set_title(f"{name}, ring of {ring}" + left_out_title(data, ring), fontsize=10)
            if col == 0:
                ax.set_ylabel("normalized time")
            if row == len(families_means) - 1:
                ax.set_xlabel("computation-to-communication ratio")
    shown = [ax for line in axes for ax in line if ax.get_visible()]
    plotlib.legend_of_all(shown, shown[0], fontsize=7, title="redistribute", title_fontsize=7)
    fig.tight_layout()
    plotlib.save_figure(fig, out_png, 110)


def family(argument):
    name, sep, paths = argument.partition("=")
    if not sep or not name or not paths or "" in paths.split("+"):
        fail(f"'{argument}' is not NAME=RUNS.csv[+RUNS.csv...] (usage: plot_when.py FIGURE.png TABLE.md "
             f"NAME=RUNS.csv[+RUNS.csv...] [NAME=RUNS.csv ...])")
    return name, paths


def main():
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figure", help="the picture: .png, .pdf or .svg")
    ap.add_argument("table", help="the goal table (Markdown)")
    ap.add_argument("families", nargs="+", metavar="NAME=RUNS.csv[+RUNS.csv...]")
    ap.add_argument("--ring-sizes", help="draw and tabulate only these ring sizes (comma-separated)")
    ap.add_argument("--schemes", help="draw only these schemes (comma-separated; the table is unchanged)")
    plotlib.add_describe_option(ap)
    a = ap.parse_intermixed_args()
    if os.path.splitext(a.figure)[1].lower() not in (".png", ".pdf", ".svg"):
        fail(f"'{a.figure}': the figure's extension must be .png, .pdf or .svg")
    families = [family(f) for f in a.families]
    names = [n for n, _ in families]
    for n in names:
        if names.count(n) > 1:
            fail(f"family {n} is given twice: join its runs.csv files with '+' instead")
    families_means = [(name, read_means(name, paths)) for name, paths in families]
    requested = a.ring_sizes and plotlib.parse_list(a.ring_sizes, "--ring-sizes", int)
    rings = select_rings(families_means, requested or None)
    drawn = None
    if a.schemes:
        present = {k[2] for _, m in families_means for k in m["time"]}
        drawn = set(plotlib.choose(plotlib.parse_list(a.schemes, "--schemes", str), present, "--schemes",
                                   "scheme(s)", "the runs given"))
    text = markdown([(name, table_rows(name, m), m) for name, m in families_means])
    figure(families_means, rings, a.figure, drawn)
    plotlib.write_atomically(a.table, text)
    plotlib.write_description(a.describe)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
