#!/usr/bin/python3
"""Reproduce the SharedRing report's figures (Section 5) and the slides' H1 vs H2 comparison.

For every experiments/sharedring/*.json config: runs `ringsim ring-sweep` (CSV into
experiments/sharedring/results/), then draws into docs/figures/:
  sharedring_ring_size.png       ring size chosen by the greedy vs H/W (report Figures 5-6)
  sharedring_tstep_vs_size.png   T_step/W vs ring size for several H/W (report Figures 7-12)
  sharedring_refinements.png     gain of max-min / global fractions over the plain greedy (Section 5.2)
  sharedring_h1_vs_h2.png        ignoring sharing (slides' H1) vs the greedy (H2)
and writes results/methods_table.md (T_step per method on each platform).

Usage: /usr/bin/python3 experiments/sharedring/plot_sharedring.py [--ringsim PATH] [--skip-run] [--only NAME]
Needs Debian's python3-matplotlib (the Agg backend, no display).
"""
import argparse
import csv
import glob
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

plt = plotlib.pyplot()
ROOT = plotlib.ROOT
CONFIG_DIR = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(CONFIG_DIR, "results")
FIGURES = plotlib.FIGURES


def find_ringsim(given):
    if given:
        return given
    for cand in ("build/ringsim", "build-e/ringsim"):
        path = os.path.join(ROOT, cand)
        if os.access(path, os.X_OK):
            return path
    plotlib.fail("no ringsim found; build it or pass --ringsim PATH")


def run_csv(ringsim, args, out_path):
    cmd = [ringsim, "ring-sweep"] + args
    print("+", " ".join(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a for a in cmd), flush=True)
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as f:
        f.write(text)


def fmt(x):
    return repr(float(x))


def run_config(ringsim, cfg_path, cfg, skip_run):
    name = cfg["name"]
    platform = os.path.normpath(os.path.join(os.path.dirname(cfg_path), cfg["platform"]))
    work = fmt(cfg.get("work", 1e9))
    common = [platform, "--work", work]
    jobs = []
    if cfg.get("ratios") and cfg.get("methods"):
        jobs.append((f"{name}_sweep.csv",
                     ["--ratios", ",".join(fmt(r) for r in cfg["ratios"]),
                      "--methods", ",".join(cfg["methods"]), "--timing"]))
    if cfg.get("by_size_ratios"):
        jobs.append((f"{name}_by_size.csv",
                     ["--ratios", ",".join(fmt(r) for r in cfg["by_size_ratios"]),
                      "--methods", "greedy", "--by-size"]))
    if cfg.get("table_ratios") and cfg.get("table_methods"):
        jobs.append((f"{name}_table.csv",
                     ["--ratios", ",".join(fmt(r) for r in cfg["table_ratios"]),
                      "--methods", ",".join(cfg["table_methods"]), "--timing",
                      "--time-limit", fmt(cfg.get("ilp_time_limit", 10))]))
    for out, args in jobs:
        path = os.path.join(RESULTS, out)
        if skip_run and os.path.exists(path):
            continue
        run_csv(ringsim, common + args, path)


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else math.nan


def series(rows, method, key):
    pts = sorted((num(r, "ratio"), num(r, key)) for r in rows if r["method"] == method)
    return [p[0] for p in pts], [p[1] for p in pts]


def plot_ring_size(configs):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for cfg in configs:
        rows = read_csv(os.path.join(RESULTS, f"{cfg['name']}_sweep.csv"))
        if not rows:
            continue
        x, y = series(rows, "greedy", "q")
        ax.plot(x, y, "o-", label=f"{cfg['label']}: greedy")
        x, y = series(rows, "greedy-global", "q")
        if x:
            ax.plot(x, y, "x--", alpha=0.7, label=f"{cfg['label']}: greedy-global")
    ax.set_xscale("log")
    ax.set_xlabel("H/W (bytes communicated per flop computed)")
    ax.set_ylabel("processors in the ring")
    ax.set_title("Ring size chosen vs communication-to-computation ratio")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    plotlib.save_figure(fig, os.path.join(FIGURES, "sharedring_ring_size.png"), 120)
    plt.close(fig)


def plot_tstep_vs_size(configs):
    used = [c for c in configs if read_csv(os.path.join(RESULTS, f"{c['name']}_by_size.csv"))]
    if not used:
        return
    fig, axes = plt.subplots(1, len(used), figsize=(6 * len(used), 4.2), squeeze=False)
    for ax, cfg in zip(axes[0], used):
        rows = read_csv(os.path.join(RESULTS, f"{cfg['name']}_by_size.csv"))
        for ratio in sorted({num(r, "ratio") for r in rows}):
            pts = sorted((num(r, "q"), num(r, "tstep_per_work")) for r in rows if num(r, "ratio") == ratio)
            qs = [p[0] for p in pts]
            ts = [p[1] for p in pts]
            line, = ax.plot(qs, ts, "-", label=f"H/W = {ratio:g}")
            best = min(range(len(ts)), key=lambda k: ts[k])
            ax.plot([qs[best]], [ts[best]], "o", color=line.get_color())
        ax.set_yscale("log")
        ax.set_xlabel("ring size q (greedy, in insertion order)")
        ax.set_ylabel("T_step / W (s per flop)")
        ax.set_title(f"{cfg['label']}: T_step vs ring size (dot: best size)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    plotlib.save_figure(fig, os.path.join(FIGURES, "sharedring_tstep_vs_size.png"), 120)
    plt.close(fig)


def gains(rows, base, variant):
    b = dict(zip(*series(rows, base, "tstep")))
    v = dict(zip(*series(rows, variant, "tstep")))
    xs = sorted(set(b) & set(v))
    return xs, [100.0 * (b[x] - v[x]) / b[x] for x in xs]


def plot_refinements(configs):
    used = [c for c in configs if read_csv(os.path.join(RESULTS, f"{c['name']}_sweep.csv"))]
    if not used:
        return
    fig, axes = plt.subplots(1, len(used), figsize=(6 * len(used), 4.2), squeeze=False)
    for ax, cfg in zip(axes[0], used):
        rows = read_csv(os.path.join(RESULTS, f"{cfg['name']}_sweep.csv"))
        for variant, style in (("greedy-maxmin", "s-"), ("greedy-global", "o-")):
            x, y = gains(rows, "greedy", variant)
            ax.plot(x, y, style, label=f"{variant} vs greedy")
        ax.axhline(3.0, color="grey", ls=":", label="report: best gain 3%")
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("H/W (bytes per flop)")
        ax.set_ylabel("T_step gain over the plain greedy (%)")
        ax.set_title(f"{cfg['label']}: refinements (Section 4.3)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    plotlib.save_figure(fig, os.path.join(FIGURES, "sharedring_refinements.png"), 120)
    plt.close(fig)


def plot_h1_h2(configs):
    used = [c for c in configs if read_csv(os.path.join(RESULTS, f"{c['name']}_sweep.csv"))]
    if not used:
        return
    fig, axes = plt.subplots(2, len(used), figsize=(6 * len(used), 7), squeeze=False)
    for col, cfg in enumerate(used):
        rows = read_csv(os.path.join(RESULTS, f"{cfg['name']}_sweep.csv"))
        ax = axes[0][col]
        for method, label, style in (("ignore-sharing", "H1: ignore sharing", "s-"),
                                     ("greedy", "H2: greedy", "o-"),
                                     ("greedy-global", "H2 + global fractions", "x--")):
            x, y = series(rows, method, "tstep_per_work")
            ax.plot(x, y, style, label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylabel("T_step / W (s per flop)")
        ax.set_title(f"{cfg['label']}: H1 vs H2 (slides)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        ax = axes[1][col]
        for variant, style in (("greedy", "o-"), ("greedy-global", "x--")):
            x, y = gains(rows, "ignore-sharing", variant)
            ax.plot(x, y, style, label=f"{variant} vs ignore-sharing")
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("H/W (bytes per flop)")
        ax.set_ylabel("gain over H1 (%)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    plotlib.save_figure(fig, os.path.join(FIGURES, "sharedring_h1_vs_h2.png"), 120)
    plt.close(fig)


def methods_table(configs):
    lines = ["| platform | H/W | " + " | ".join(["method", "q", "T_step (s)", "T_step/W", "time (s)", "note"]) + " |",
             "|---|---|---|---|---|---|---|---|"]
    for cfg in configs:
        rows = read_csv(os.path.join(RESULTS, f"{cfg['name']}_table.csv"))
        for r in rows:
            note = ""
            if r["method"] == "tsp-ilp":
                note = "optimal tour" if r.get("optimal") == "true" else "time limit (best tour found)"
            if r.get("objective"):
                note = (note + "; " if note else "") + f"no-sharing objective {float(r['objective']):.4g}"
            lines.append(f"| {cfg['name']} | {float(r['ratio']):g} | {r['method']} | {r['q']} | "
                         f"{float(r['tstep']):.5g} | {float(r['tstep_per_work']):.4g} | "
                         f"{float(r.get('seconds') or 'nan'):.3g} | {note} |")
    with open(os.path.join(RESULTS, "methods_table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ringsim", help="path to the ringsim executable (default: build/ringsim)")
    ap.add_argument("--skip-run", action="store_true", help="reuse existing CSV files in results/")
    ap.add_argument("--only", help="run only the config with this name")
    args = ap.parse_args()
    configs = []
    for path in sorted(glob.glob(os.path.join(CONFIG_DIR, "*.json"))):
        with open(path) as f:
            cfg = json.load(f)
        configs.append((path, cfg))
    ringsim = None if args.skip_run else find_ringsim(args.ringsim)
    for path, cfg in configs:
        if args.only and cfg["name"] != args.only:
            continue
        if ringsim:
            run_config(ringsim, path, cfg, False)
    os.makedirs(FIGURES, exist_ok=True)
    cfgs = [c for _, c in configs]
    plot_ring_size(cfgs)
    plot_tstep_vs_size(cfgs)
    plot_refinements(cfgs)
    plot_h1_h2(cfgs)
    methods_table(cfgs)


if __name__ == "__main__":
    main()
