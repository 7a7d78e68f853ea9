#!/usr/bin/env python3
"""The real-load study's tables and figure from its sweeps (RESULTS/<config>/runs.csv, one per
platform, PlanetLab day and time scale; run.sh runs them).

A point is (platform, day, time scale, ring size, ratio); each scheme's makespan there is its mean
over the seeds. A "day" is a PlanetLab day, or a host-load realization (hostloadR): the two sources
are tabled apart. The best fixed period is the fixed scheme (none, once, every-K) of least mean
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
    """{point: {scheme: mean makespan}}, {(point, seed): {scheme: makespan}} and the configs'
    names, from every RESULTS/*/runs.csv."""
    points = collections.defaultdict(lambda: collections.defaultdict(list))
    runs = collections.defaultdict(dict)
    names = sorted(d for d in os.listdir(results) if os.path.isfile(os.path.join(results, d, "runs.csv")))
    if not names:
        plotlib.fail(f"'{results}' holds no sweep (no */runs.csv): run experiments/real-load/run.sh first")
    for name in names:
        platform, day, scale = name.split("-")
        path = os.path.join(results, name, "runs.csv")
        for r in plotlib.read_runs(path, required=("makespan",)):
            key = (platform, day, scale, r["ring_size"], r["ratio"])
            makespan = plotlib.number(r, "makespan", path, "runs CSV")
            points[key][r["scheme"]].append(makespan)
            runs[(key, r["seed"])][r["scheme"]] = makespan
    means = {k: {s: statistics.mean(v) for s, v in schemes.items()} for k, schemes in points.items()}
    return means, runs, names


def source_of(key):
    return "host load" if key[1].startswith("hostload") else "PlanetLab"


def of_source(points, source):
    return {k: v for k, v in points.items() if source_of(k) == source}


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


def within_by(points, column, label):
    """Per scheme that is not fixed: points within 1.05 of the best fixed period, out of the points,
    for each value of the point's `column` (1: day, 2: time scale)."""
    values = sorted({k[column] for k in points}, key=lambda v: SCALES.index(v) if v in SCALES else v)
    schemes = sorted({s for v in points.values() for s in v if s not in FIXED}, key=lambda s: (s == "hindsight", s))
    rows = ["| scheme | " + " | ".join(f"{label} {v}" for v in values) + " |", "|---" * (len(values) + 1) + "|"]
    for s in schemes:
        cells = []
        for v in values:
            keys = [k for k in points if k[column] == v and s in points[k] and best_fixed(points[k])]
            within = sum(points[k][s] <= 1.05 * points[k][best_fixed(points[k])] for k in keys)
            cells.append(f"{within} of {len(keys)}")
        rows.append(f"| `{s}` | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def hindsight_check(runs):
    """hindsight against the best fixed scheme of the same run (seed): how many runs, how many
    where it is more than 0.5% slower, and its worst ratio."""
    ratios = [r["hindsight"] / r[best_fixed(r)] for r in runs.values() if "hindsight" in r and best_fixed(r)]
    if not ratios:
        return ""
    slower = sum(x > 1.005 for x in ratios)
    return (f"\n`hindsight` against the best fixed scheme of the same run: {len(ratios)} runs, {slower} more than "
            f"0.5% slower, worst {max(ratios):.4f}.\n")


def figure(points, path):
    """Per time scale, makespan over never redistributing against the ratio (means over platforms,
    days and rings): the fixed periods, markov-rule, best-period and hindsight."""
    plt = plotlib.pyplot()
    fig, axes = plt.subplots(1, len(SCALES), figsize=(5 * len(SCALES), 4), sharey=True)
    ratios = sorted({k[4] for k in points})
    for ax, scale in zip(axes, SCALES):
        for s in FIXED[1:] + ["markov-rule", "best-period", "hindsight"]:
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
    points, runs, names = read_points(results)
    planetlab, host_load = of_source(points, "PlanetLab"), of_source(points, "host load")
    answer = "".join(f"{source}:\n\n{answer_table(p)}\n" for source, p in
                     (("PlanetLab", planetlab), ("Host load", host_load)) if p)
    plotlib.write_atomically(os.path.join(results, "answer.md"), answer)
    tables = "".join(f"{source}:\n\n{policy_table(p)}\n" for source, p in
                     (("PlanetLab", planetlab), ("Host load", host_load)) if p)
    plotlib.write_atomically(os.path.join(results, "policies.md"), tables + hindsight_check(runs) +
                             "\nWithin 1.05 of the best fixed period, by day:\n\n" + within_by(points, 1, "day") +
                             "\nBy time scale (a sample lasts a third of, one, three iterations):\n\n" +
                             within_by(points, 2, "scale"))
    figure(planetlab or points, os.path.join(results, "real-load.png"))
    print(f"{len(points)} points from {len(names)} sweeps\n")
    print(answer)


if __name__ == "__main__":
    main()
