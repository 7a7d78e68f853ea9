#!/usr/bin/env python3
"""The real-load study's tables and figure from its sweeps (RESULTS/<config>/runs.csv, one per
platform, PlanetLab day and time scale; run.sh runs them).

A point is (platform, day, time scale, ring size, ratio); each scheme's makespan there is its mean
over the seeds. The best fixed period is the fixed scheme (none, once, every-K) of least mean
makespan at the point, chosen in hindsight. Writes RESULTS/answer.md (how often, and where
redistributing pays), RESULTS/policies.md (each policy against the best fixed period and against
hindsight) and RESULTS/real-load.png, and prints the answer.
  usage: summarize.py RESULTS"""
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402

FIXED = ["none", "once", "every-20", "every-10", "every-5", "every-2"]
SCALE_WORDS = {"third": "a third of an iteration", "one": "one iteration", "three": "three iterations"}
SCALES = ["third", "one", "three"]


def read_points(results):
    """{point: {scheme: mean makespan}} and the configs' names, from every RESULTS/*/runs.csv."""
    points = collections.defaultdict(lambda: collections.defaultdict(list))
    names = sorted(d for d in os.listdir(results) if os.path.isfile(os.path.join(results, d, "runs.csv")))
    if not names:
        plotlib.fail(f"'{results}' holds no sweep (no */runs.csv): run experiments/real-load/run.sh first")
    for name in names:
        platform, day, scale = name.split("-")
        path = os.path.join(results, name, "runs.csv")
        for r in plotlib.read_runs(path, required=("makespan",)):
            key = (platform, day, scale, r["ring_size"], r["ratio"])
            points[key][r["scheme"]].append(plotlib.number(r, "makespan", path, "runs CSV"))
    return {k: {s: statistics.mean(v) for s, v in schemes.items()} for k, schemes in points.items()}, names


def best_fixed(schemes):
    present = [s for s in FIXED if s in schemes]
    return min(present, key=lambda s: schemes[s]) if present else None


def answer_table(points):
    """Per time scale and ratio: the best fixed period's most frequent choice, and its makespan
    over never redistributing (median, least) over platforms, days and rings."""
    rows = ["| a sample lasts | ratio | points | best fixed period (how many points) | best fixed / none: median, least |",
            "|---|---|---|---|---|"]
    for scale in SCALES:
        for ratio in sorted({k[4] for k in points}):
            keys = [k for k in points if k[2] == scale and k[4] == ratio and "none" in points[k]]
            if not keys:
                continue
            choice = collections.Counter(best_fixed(points[k]) for k in keys)
            gain = [points[k][best_fixed(points[k])] / points[k]["none"] for k in keys]
            chosen = ", ".join(f"{s} ({n})" for s, n in choice.most_common())
            rows.append(f"| {SCALE_WORDS[scale]} | {ratio:g} | {len(keys)} | {chosen} | "
                        f"{statistics.median(gain):.3f}, {min(gain):.3f} |")
    return "\n".join(rows) + "\n"


def policy_table(points):
    """Per scheme that is not fixed: at how many points it is within 1.05 of the best fixed period,
    its worst and median ratio to it, and its median and worst ratio to hindsight."""
    schemes = sorted({s for v in points.values() for s in v if s not in FIXED},
                     key=lambda s: (s == "hindsight", s))
    rows = ["| scheme | points | within 1.05 of the best fixed | / best fixed: median, worst | / hindsight: median, worst |",
            "|---|---|---|---|---|"]
    for s in schemes:
        keys = [k for k in points if s in points[k] and best_fixed(points[k])]
        if not keys:
            continue
        fixed = [points[k][s] / points[k][best_fixed(points[k])] for k in keys]
        hs = [points[k][s] / points[k]["hindsight"] for k in keys if "hindsight" in points[k]]
        within = sum(r <= 1.05 for r in fixed)
        h = f"{statistics.median(hs):.3f}, {max(hs):.3f}" if hs else "-"
        rows.append(f"| `{s}` | {len(keys)} | {within} | {statistics.median(fixed):.3f}, {max(fixed):.3f} | {h} |")
    return "\n".join(rows) + "\n"


def figure(points, path):
    """Per time scale, makespan over never redistributing against the ratio (means over platforms,
    days and rings): the fixed periods, markov-rule and hindsight."""
    plt = plotlib.pyplot()
    fig, axes = plt.subplots(1, len(SCALES), figsize=(5 * len(SCALES), 4), sharey=True)
    ratios = sorted({k[4] for k in points})
    for ax, scale in zip(axes, SCALES):
        for s in FIXED[1:] + ["markov-rule", "hindsight"]:
            ys = []
            for ratio in ratios:
                keys = [k for k in points if k[2] == scale and k[4] == ratio and s in points[k] and "none" in points[k]]
                ys.append(statistics.mean(points[k][s] / points[k]["none"] for k in keys) if keys else float("nan"))
            style = "-o" if s in FIXED else "--s"
            ax.plot(ratios, ys, style, label=s)
        ax.set_xscale("log")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_title(f"a sample lasts {SCALE_WORDS[scale]}")
        ax.set_xlabel("ratio (computation / communication)")
    axes[0].set_ylabel("makespan / never redistributing")
    axes[-1].legend(fontsize=8)
    fig.tight_layout()
    plotlib.save_figure(fig, path, 120)


def main():
    if len(sys.argv) != 2:
        plotlib.fail("usage: summarize.py RESULTS")
    results = sys.argv[1]
    points, names = read_points(results)
    answer = answer_table(points)
    plotlib.write_atomically(os.path.join(results, "answer.md"), answer)
    plotlib.write_atomically(os.path.join(results, "policies.md"), policy_table(points))
    figure(points, os.path.join(results, "real-load.png"))
    print(f"{len(points)} points from {len(names)} sweeps\n")
    print(answer)


if __name__ == "__main__":
    main()
