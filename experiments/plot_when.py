#!/usr/bin/python3
"""When to redistribute (issue 11): the figure and the goal table from `ringsim run` outputs of
experiments/when/*.json (Debian's python3-matplotlib for the figure).

  plot_when.py FIGURE.png TABLE.md NAME=RUNS.csv [NAME=RUNS.csv ...]

One panel per trace family (rows) and ring size (columns): normalized execution time (makespan /
makespan without redistribution, same platform, ring, traces and ratio), mean over the seeds,
against the computation-to-communication ratio, one line per scheme. TABLE.md gets, per family,
ring and ratio, the best fixed scheme in hindsight (the lowest mean among none, once, every-20,
every-10, every-5), the adaptive policy's mean and its ratio to that best, and the former adaptive's.
Bad input: exit 2 and one line.
"""
import csv
import os
import sys
from collections import defaultdict

FIXED = ["none", "once", "every-20", "every-10", "every-5"]
LABELS = {"none": "never", "once": "once (after 50)", "every-20": "every 20", "every-10": "every 10",
          "every-5": "every 5", "adaptive": "adaptive", "adaptive-gather": "adaptive-gather (former)"}
GOAL = 1.05


def fail(message):
    sys.stderr.write(f"plot_when.py: {message}\n")
    sys.exit(2)


def read_means(path):
    """{(ring, ratio, scheme): [normalized times]} of one runs.csv."""
    means = defaultdict(list)
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = {"ring_size", "ratio", "scheme", "normalized_time"} - set(reader.fieldnames or [])
            if missing:
                fail(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
            for row in reader:
                if row["normalized_time"] == "":
                    continue
                means[(int(row["ring_size"]), float(row["ratio"]), row["scheme"])].append(float(row["normalized_time"]))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        fail(f"{path}: a value is not a number ({e})")
    if not means:
        fail(f"{path} holds no normalized run")
    return means


def mean(values):
    return sum(values) / len(values)


def table_rows(means):
    rows = []
    for ring in sorted({k[0] for k in means}):
        for ratio in sorted({k[1] for k in means if k[0] == ring}):
            fixed = {s: mean(means[(ring, ratio, s)]) for s in FIXED if (ring, ratio, s) in means}
            if not fixed or (ring, ratio, "adaptive") not in means:
                fail(f"ring {ring}, ratio {ratio}: the fixed schemes or the adaptive policy are missing")
            best = min(fixed, key=fixed.get)
            adaptive = mean(means[(ring, ratio, "adaptive")])
            former = means.get((ring, ratio, "adaptive-gather"))
            seeds = len(means[(ring, ratio, "adaptive")])
            rows.append((ring, ratio, best, fixed[best], adaptive, adaptive / fixed[best],
                         mean(former) / fixed[best] if former else None, seeds))
    return rows


def markdown(families):
    out = []
    for name, rows in families:
        out.append(f"### {name}\n")
        out.append("| ring | ratio | best fixed (hindsight) | its mean | adaptive | adaptive / best | adaptive-gather / best | seeds |")
        out.append("|---|---|---|---|---|---|---|---|")
        for ring, ratio, best, value, adaptive, rel, former, seeds in rows:
            mark = "" if rel <= GOAL else " **(over 1.05)**"
            out.append(f"| {ring} | {ratio:g} | {best} | {value:.3f} | {adaptive:.3f} | {rel:.3f}{mark} | "
                       f"{'' if former is None else f'{former:.3f}'} | {seeds} |")
        met = sum(1 for r in rows if r[5] <= GOAL)
        better = [f"ring {r[0]} ratio {r[1]:g}" for r in rows if r[5] < 1.0]
        out.append(f"\nadaptive within {GOAL} of the best fixed scheme at {met} of {len(rows)} (ring, ratio) points; "
                   f"better than every fixed scheme at {len(better)}" + (f" ({', '.join(better)})" if better else "") + ".\n")
    return "\n".join(out) + "\n"


def figure(families_means, out_png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is missing; install it with: apt-get install python3-matplotlib")
    rings = sorted({k[0] for _, m in families_means for k in m})
    fig, axes = plt.subplots(len(families_means), len(rings), figsize=(6 * len(rings), 3.6 * len(families_means)),
                             squeeze=False, sharex=True)
    for row, (name, means) in enumerate(families_means):
        for col, ring in enumerate(rings):
            ax = axes[row][col]
            schemes = [s for s in LABELS if any(k[0] == ring and k[2] == s for k in means)]
            for s in schemes:
                ratios = sorted(k[1] for k in means if k[0] == ring and k[2] == s)
                ys = [mean(means[(ring, q, s)]) for q in ratios]
                style = dict(marker="o", markersize=3, linewidth=1.2)
                if s == "adaptive":
                    style.update(color="black", linewidth=2.4, marker="s", markersize=4)
                elif s == "adaptive-gather":
                    style.update(color="grey", linestyle="--")
                ax.plot(ratios, ys, label=LABELS[s], **style)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.axhline(1.0, color="grey", linewidth=0.8)
            ax.grid(True, which="both", alpha=0.3)
            ax.set_title(f"{name}, ring of {ring}", fontsize=10)
            if col == 0:
                ax.set_ylabel("normalized time")
            if row == len(families_means) - 1:
                ax.set_xlabel("computation-to-communication ratio")
    axes[0][0].legend(fontsize=7, title="redistribute", title_fontsize=7)
    fig.tight_layout()
    tmp = f"{out_png}.tmp{os.getpid()}{os.path.splitext(out_png)[1]}"
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, out_png)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        fail(f"cannot write {out_png}: {e.strerror}")


def main(argv):
    if len(argv) < 4 or any("=" not in a for a in argv[3:]):
        fail("usage: plot_when.py FIGURE.png TABLE.md NAME=RUNS.csv [NAME=RUNS.csv ...]")
    out_png, out_md = argv[1], argv[2]
    families_means = [(a.split("=", 1)[0], read_means(a.split("=", 1)[1])) for a in argv[3:]]
    text = markdown([(name, table_rows(m)) for name, m in families_means])
    figure(families_means, out_png)
    tmp = f"{out_md}.tmp{os.getpid()}"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, out_md)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        fail(f"cannot write {out_md}: {e.strerror}")
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
