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
per family, ring and ratio, the best fixed scheme in hindsight (the lowest mean among none, once,
every-20, every-10, every-5), the policies' means and their ratios to that best, scheme hindsight
(the best points of each run, chosen with the traces known) with its mean number of
redistributions, the policies' ratios to it, the ideal bound, and where it ran, scheme
online-optimal (the best online rule: the present known, not the future) and its ratio to hindsight.
The figure also draws scheme hindsight-targets where its rows are given (points and targets
chosen with the traces known; its table is when_chosen_targets.py's).
Bad input: exit 2 and one line.
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

FIXED = ["none", "once", "every-20", "every-10", "every-5"]
LABELS = {"none": "never", "once": "once (after 50)", "every-20": "every 20", "every-10": "every 10",
          "every-5": "every 5", "adaptive": "adaptive", "rent-or-buy": "rent-or-buy",
          "adaptive-lasting": "adaptive-lasting", "adaptive-gather": "adaptive-gather (former)", "hindsight": "hindsight (best points of each run)",
          "hindsight-targets": "hindsight-targets (best points and targets)",
          "online-optimal": "online-optimal (best rule that knows the present, not the future)"}
POLICIES = ["adaptive", "rent-or-buy", "adaptive-lasting"]
GOAL = 1.05
GOAL_HINDSIGHT = 1.10


fail = plotlib.fail


def read_means(paths):
    """{(ring, ratio, scheme): [normalized times]} of runs.csv files ('+'-joined), and of the same
    keys the redistributions and the ideal bound (ideal_time over the baseline's makespan) of each
    run."""
    means, redistributions, ideal = defaultdict(list), defaultdict(list), defaultdict(list)
    for path in paths.split("+"):
        read_into(path, means, redistributions, ideal)
    if not means:
        fail(f"{paths} holds no normalized run")
    return {"time": means, "redistributions": redistributions, "ideal": ideal}


def read_into(path, means, redistributions, ideal):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = {"ring_size", "ratio", "scheme", "normalized_time", "redistributions", "time_over_ideal"} - \
                set(reader.fieldnames or [])
            if missing:
                fail(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
            for row in reader:
                if row["normalized_time"] == "":
                    continue
                key = (int(row["ring_size"]), float(row["ratio"]), row["scheme"])
                normalized = float(row["normalized_time"])
                means[key].append(normalized)
                redistributions[key].append(int(row["redistributions"]))
                ideal[key].append(normalized / float(row["time_over_ideal"]))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (ValueError, ZeroDivisionError) as e:
        fail(f"{path}: a value is not a number ({e})")


mean = plotlib.mean


def table_rows(data):
    means = data["time"]
    rows = []
    for ring in sorted({k[0] for k in means}):
        for ratio in sorted({k[1] for k in means if k[0] == ring}):
            fixed = {s: mean(means[(ring, ratio, s)]) for s in FIXED if (ring, ratio, s) in means}
            if not fixed or (ring, ratio, "adaptive") not in means:
                fail(f"ring {ring}, ratio {ratio}: the fixed schemes or the adaptive policy are missing")
            best = min(fixed, key=fixed.get)
            row = {"ring": ring, "ratio": ratio, "best": best, "best_mean": fixed[best],
                   "seeds": len(means[(ring, ratio, "adaptive")]),
                   "ideal": mean(data["ideal"][(ring, ratio, "none")]) if (ring, ratio, "none") in means else None}
            for s in POLICIES + ["adaptive-gather", "hindsight", "online-optimal"]:
                row[s] = mean(means[(ring, ratio, s)]) if (ring, ratio, s) in means else None
            h = (ring, ratio, "hindsight")
            row["hindsight_moves"] = mean(data["redistributions"][h]) if h in means else None
            rows.append(row)
    return rows


def number(value, digits):
    return "" if value is None else f"{value:.{digits}f}"


def ratio_text(value, base, goal):
    if value is None or base is None:
        return ""
    rel = value / base
    return f"{rel:.3f}" + ("" if rel <= goal else f" **(over {goal})**")


def markdown(families):
    out = []
    for name, rows in families:
        out.append(f"### {name}\n")
        out.append("| ring | ratio | best fixed (hindsight) | its mean | adaptive | adaptive / best | rent-or-buy / best "
                   "| adaptive-lasting / best | adaptive-gather / best | hindsight | its redistributions "
                   "| adaptive / hindsight | rent-or-buy / hindsight | adaptive-lasting / hindsight | ideal | seeds "
                   "| online-optimal | online-optimal / hindsight |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            h = r["hindsight"]
            former = None if r["adaptive-gather"] is None else r["adaptive-gather"] / r["best_mean"]
            out.append(f"| {r['ring']} | {r['ratio']:g} | {r['best']} | {r['best_mean']:.3f} | {r['adaptive']:.3f} | "
                       f"{ratio_text(r['adaptive'], r['best_mean'], GOAL)} | "
                       f"{ratio_text(r['rent-or-buy'], r['best_mean'], GOAL)} | "
                       f"{ratio_text(r['adaptive-lasting'], r['best_mean'], GOAL)} | {number(former, 3)} | "
                       f"{number(h, 3)} | {number(r['hindsight_moves'], 1)} | "
                       f"{ratio_text(r['adaptive'], h, GOAL_HINDSIGHT)} | {ratio_text(r['rent-or-buy'], h, GOAL_HINDSIGHT)} | "
                       f"{ratio_text(r['adaptive-lasting'], h, GOAL_HINDSIGHT)} | "
                       f"{number(r['ideal'], 3)} | {r['seeds']} | {number(r['online-optimal'], 3)} | "
                       f"{ratio_text(r['online-optimal'], h, GOAL_HINDSIGHT)} |")
        out.append("")
        for p in POLICIES:
            have = [r for r in rows if r[p] is not None]
            if not have:
                continue
            met = sum(1 for r in have if r[p] / r["best_mean"] <= GOAL)
            better = [f"ring {r['ring']} ratio {r['ratio']:g}" for r in have if r[p] / r["best_mean"] < 1.0]
            line = (f"{p} within {GOAL} of the best fixed scheme at {met} of {len(have)} (ring, ratio) points; "
                    f"better than every fixed scheme at {len(better)}" + (f" ({', '.join(better)})" if better else ""))
            hs = [r for r in have if r["hindsight"] is not None]
            if hs:
                line += f"; within {GOAL_HINDSIGHT} of hindsight at {sum(1 for r in hs if r[p] / r['hindsight'] <= GOAL_HINDSIGHT)} of {len(hs)}"
            out.append(line + ".\n")
        online = [r for r in rows if r["online-optimal"] is not None and r["hindsight"] is not None]
        if online:
            over = [f"ring {r['ring']} ratio {r['ratio']:g} ({r['online-optimal'] / r['hindsight']:.3f})" for r in online
                    if r["online-optimal"] / r["hindsight"] > GOAL_HINDSIGHT]
            out.append(f"online-optimal (knows every member's state and the load's law, not the future) within "
                       f"{GOAL_HINDSIGHT} of hindsight at {len(online) - len(over)} of {len(online)} points where it ran"
                       + (f"; over at {', '.join(over)}: there no policy, knowing less, can be expected within "
                          f"{GOAL_HINDSIGHT}" if over else "") + ".\n")
    return "\n".join(out) + "\n"


def figure(families_means, out_png):
    plt = plotlib.pyplot()
    rings = sorted({k[0] for _, d in families_means for k in d["time"]})
    fig, axes = plt.subplots(len(families_means), len(rings), figsize=(6 * len(rings), 3.6 * len(families_means)),
                             squeeze=False, sharex=True)
    for row, (name, data) in enumerate(families_means):
        means = data["time"]
        for col, ring in enumerate(rings):
            ax = axes[row][col]
            schemes = [s for s in LABELS if any(k[0] == ring and k[2] == s for k in means)]
            for s in schemes:
                ratios = sorted(k[1] for k in means if k[0] == ring and k[2] == s)
                ys = [mean(means[(ring, q, s)]) for q in ratios]
                style = dict(marker="o", markersize=3, linewidth=1.2)
                if s == "adaptive":
                    style.update(color="black", linewidth=2.4, marker="s", markersize=4)
                elif s == "rent-or-buy":
                    style.update(color="tab:brown", linewidth=1.8, marker="D", markersize=3)
                elif s == "adaptive-lasting":
                    style.update(color="tab:green", linewidth=2.0, marker="^", markersize=4)
                elif s == "adaptive-gather":
                    style.update(color="grey", linestyle="--")
                elif s == "hindsight":
                    style.update(color="tab:red", linewidth=2.0, linestyle="--", marker="v", markersize=4)
                elif s == "hindsight-targets":
                    style.update(color="darkred", linewidth=1.6, linestyle="--", marker="*", markersize=4)
                elif s == "online-optimal":
                    style.update(color="tab:cyan", linewidth=1.8, linestyle="-.", marker="x", markersize=5)
                ax.plot(ratios, ys, label=LABELS[s], **style)
            ratios = sorted(k[1] for k in means if k[0] == ring and k[2] == "none")
            if ratios:
                ax.plot(ratios, [mean(data["ideal"][(ring, q, "none")]) for q in ratios], color="tab:red",
                        linestyle=":", linewidth=1.2, label="ideal bound (balanced, free moves)")
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
    plotlib.save_figure(fig, out_png, 110)


def main(argv):
    if len(argv) < 4 or any("=" not in a for a in argv[3:]):
        fail("usage: plot_when.py FIGURE.png TABLE.md NAME=RUNS.csv[+RUNS.csv...] [NAME=RUNS.csv ...]")
    out_png, out_md = argv[1], argv[2]
    families_means = [(a.split("=", 1)[0], read_means(a.split("=", 1)[1])) for a in argv[3:]]
    text = markdown([(name, table_rows(m)) for name, m in families_means])
    figure(families_means, out_png)
    plotlib.write_atomically(out_md, text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
