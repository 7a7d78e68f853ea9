#!/usr/bin/python3
"""Reproduce the SharedRing report's figures (Section 5) and the slides' H1 vs H2 comparison.

For every experiments/sharedring/*.json config: runs `ringsim ring-sweep` (CSV into RESULTS,
default experiments/sharedring/results/), then draws into OUT (default the same folder), one panel
per platform whose CSV is there:
  sharedring_ring_size.png       ring size chosen vs H/W, a line per method in the sweep (report Figures 5-6)
  sharedring_tstep_vs_size.png   T_step/W vs ring size, a line per H/W in the by-size CSV (report Figures 7-12)
  sharedring_refinements.png     gain of each greedy-* method in the sweep over the plain greedy (Section 5.2)
  sharedring_h1_vs_h2.png        ignoring sharing (slides' H1) vs the greedy methods in the sweep (H2)
and writes RESULTS/methods_table.md (T_step per method on each platform).

Usage: /usr/bin/python3 experiments/sharedring/plot_sharedring.py [--ringsim PATH] [--skip-run] [--only NAME]
           [--quick] [--results DIR] [--out DIR] [--describe FILE]
--quick runs each config's `quick` section (its keys over the config's: fewer ratios and methods, for
the test suite). --only NAME runs only that config (the figures still draw every platform's CSV). A figure whose
comparison no CSV holds (no greedy, or no greedy-* method, or no ignore-sharing) is not drawn, and
the script says so. Input it cannot draw faithfully (no CSV at all, a missing column, two
platforms or a (method, ratio) twice in one CSV) is refused: exit 2 and one line on stderr.
--describe FILE also writes what was drawn as JSON. Needs Debian's python3-matplotlib (Agg).
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

fail = plotlib.fail
ROOT = plotlib.ROOT
CONFIG_DIR = os.path.dirname(os.path.abspath(__file__))
WHAT = "ring-sweep CSV"
# The CSVs of one config, with the columns each figure reads and what makes a row one point.
KINDS = {"sweep": (["method", "ratio", "q", "tstep", "tstep_per_work"], ("method", "ratio")),
         "by_size": (["method", "ratio", "q", "tstep_per_work"], ("method", "ratio", "q")),
         "table": (["method", "ratio", "q", "tstep", "tstep_per_work"], ("method", "ratio"))}
H2_LABELS = {"greedy": ("H2: greedy", "o-"), "greedy-global": ("H2 + global fractions", "x--")}
REFINEMENT_STYLES = {"greedy-maxmin": "s-", "greedy-global": "o-"}


# ---------------------------------------------------------------------------------------------
# Running ringsim ring-sweep

def find_ringsim(given):
    if given:
        return given
    for cand in ("build/ringsim", "build-e/ringsim"):
        path = os.path.join(ROOT, cand)
        if os.access(path, os.X_OK):
            return path
    fail("no ringsim found; build it or pass --ringsim PATH")


def run_csv(ringsim, args, out_path):
    cmd = [ringsim, "ring-sweep"] + args
    print("+", " ".join(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a for a in cmd), flush=True)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        fail(f"cannot run {ringsim}: {e.strerror or e}")
    if p.returncode != 0:
        fail(f"ringsim ring-sweep failed (exit {p.returncode}): {(p.stderr.strip().splitlines() or [''])[-1]}")
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    plotlib.write_atomically(out_path, p.stdout)


def fmt(x):
    return repr(float(x))


def run_config(ringsim, cfg_path, cfg, results):
    name = cfg["name"]
    platform = os.path.normpath(os.path.join(os.path.dirname(cfg_path), cfg["platform"]))
    common = [platform, "--work", fmt(cfg.get("work", 1e9))]
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
        run_csv(ringsim, common + args, os.path.join(results, out))


# ---------------------------------------------------------------------------------------------
# Reading: every CSV checked before anything is drawn

def read_kind(results, cfg, kind):
    """A config's CSV of one kind, checked (None when it has not been run): numbers parsed, one
    platform (two would be drawn as one), each point once."""
    path = os.path.join(results, f"{cfg['name']}_{kind}.csv")
    if not os.path.exists(path):
        return None
    required, key = KINDS[kind]
    rows = plotlib.read_table(path, WHAT, ["platform"] + required)
    for r in rows:
        r["method"], r["_file"] = r["method"].strip(), path
        for c in required:
            if c != "method":
                r[c] = plotlib.number(r, c, path, WHAT)
    plotlib.same_everywhere(rows, "platform", path, WHAT, "their rings would be drawn as one platform's")
    plotlib.no_duplicates(rows, lambda r: tuple(r[c] for c in key), path, WHAT,
                          lambda k: ", ".join(f"{c} {plotlib.show(v)}" for c, v in zip(key, k)))
    return rows


def read_all(results, configs):
    data = {kind: [(cfg, rows) for cfg in configs for rows in [read_kind(results, cfg, kind)] if rows]
            for kind in KINDS}
    if not any(data.values()):
        names = ", ".join(c["name"] for c in configs)
        fail(f"no ring-sweep results in '{results}' (NAME_sweep.csv, NAME_by_size.csv or NAME_table.csv for "
             f"{names}); run without --skip-run")
    return data


def methods_in(rows):
    return list(dict.fromkeys(r["method"] for r in rows))


def series(rows, method, key):
    pts = sorted((r["ratio"], r[key]) for r in rows if r["method"] == method)
    return [p[0] for p in pts], [p[1] for p in pts]


def gains(rows, base, variant):
    b = dict(zip(*series(rows, base, "tstep")))
    v = dict(zip(*series(rows, variant, "tstep")))
    xs = sorted(set(b) & set(v))
    return xs, [100.0 * (b[x] - v[x]) / b[x] for x in xs]


# ---------------------------------------------------------------------------------------------
# Figures: a panel per platform

def save(plt, fig, out, name):
    fig.tight_layout()
    plotlib.save_figure(fig, os.path.join(out, name), 120)
    plt.close(fig)


def label_panel(ax, xlabel, ylabel, title, **title_options):
    """Axis labels (no x label: None), title, grid and legend, alike on every panel."""
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, **title_options)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def skipped(name, why):
    print(f"{name}: not drawn ({why})")


def plot_ring_size(plt, sweeps, out):
    if not sweeps:
        return skipped("sharedring_ring_size.png", "no NAME_sweep.csv")
    fig, axes = plotlib.panel_grid(plt, len(sweeps), 6, 4.2)
    for ax, (cfg, rows) in zip(axes, sweeps):
        for method in methods_in(rows):
            x, y = series(rows, method, "q")
            ax.plot(x, y, "o-" if method == "greedy" else "x--", alpha=1 if method == "greedy" else 0.75, label=method)
        ax.set_xscale("log")
        label_panel(ax, "H/W (bytes communicated per flop computed)", "processors in the ring",
                    f"{cfg['label']}: ring size chosen vs H/W")
    save(plt, fig, out, "sharedring_ring_size.png")


def plot_tstep_vs_size(plt, by_sizes, out):
    if not by_sizes:
        return skipped("sharedring_tstep_vs_size.png", "no NAME_by_size.csv")
    fig, axes = plotlib.panel_grid(plt, len(by_sizes), 6, 4.2)
    for ax, (cfg, rows) in zip(axes, by_sizes):
        methods = methods_in(rows)
        for method in methods:
            for ratio in sorted({r["ratio"] for r in rows if r["method"] == method}):
                pts = sorted((r["q"], r["tstep_per_work"]) for r in rows if r["method"] == method and r["ratio"] == ratio)
                qs, ts = [p[0] for p in pts], [p[1] for p in pts]
                label = f"H/W = {ratio:g}" if len(methods) == 1 else f"{method}, H/W = {ratio:g}"
                line, = ax.plot(qs, ts, "-", label=label)
                best = min(range(len(ts)), key=lambda k: ts[k])
                ax.plot([qs[best]], [ts[best]], "o", color=line.get_color())
        ax.set_yscale("log")
        label_panel(ax, f"ring size q ({plotlib.words(methods)}, in insertion order)", "T_step / W (s per flop)",
                    f"{cfg['label']}: T_step vs ring size (dot: best size)")
    save(plt, fig, out, "sharedring_tstep_vs_size.png")


def refinements(rows):
    """The greedy's refinements the sweep holds (greedy-maxmin, greedy-global, ...)."""
    return [m for m in methods_in(rows) if m.startswith("greedy-")] if "greedy" in methods_in(rows) else []


def plot_refinements(plt, sweeps, out):
    used = [(cfg, rows) for cfg, rows in sweeps if refinements(rows)]
    if not used:
        return skipped("sharedring_refinements.png", "no NAME_sweep.csv holds greedy and a greedy-* refinement")
    fig, axes = plotlib.panel_grid(plt, len(used), 6, 4.2)
    for ax, (cfg, rows) in zip(axes, used):
        for variant in refinements(rows):
            x, y = gains(rows, "greedy", variant)
            ax.plot(x, y, REFINEMENT_STYLES.get(variant, "d-"), label=f"{variant} vs greedy")
        ax.axhline(3.0, color="grey", ls=":", label="report: best gain 3%")
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_xscale("log")
        label_panel(ax, "H/W (bytes per flop)", "T_step gain over the plain greedy (%)",
                    f"{cfg['label']}: refinements (Section 4.3)")
    save(plt, fig, out, "sharedring_refinements.png")


def h2_methods(rows):
    """The greedy methods (H2) drawn against ignore-sharing (H1): greedy and greedy-global, as the
    slides compare them, when the sweep holds them."""
    return [m for m in ("greedy", "greedy-global") if m in methods_in(rows)]


def plot_h1_h2(plt, sweeps, out):
    used = [(cfg, rows) for cfg, rows in sweeps if "ignore-sharing" in methods_in(rows) and h2_methods(rows)]
    if not used:
        return skipped("sharedring_h1_vs_h2.png", "no NAME_sweep.csv holds ignore-sharing and greedy or greedy-global")
    fig, axes = plt.subplots(2, len(used), figsize=(6 * len(used), 7), squeeze=False)
    for col, (cfg, rows) in enumerate(used):
        ax = axes[0][col]
        x, y = series(rows, "ignore-sharing", "tstep_per_work")
        ax.plot(x, y, "s-", label="H1: ignore sharing")
        for method in h2_methods(rows):
            x, y = series(rows, method, "tstep_per_work")
            ax.plot(x, y, H2_LABELS[method][1], label=H2_LABELS[method][0])
        ax.set_xscale("log")
        ax.set_yscale("log")
        label_panel(ax, None, "T_step / W (s per flop)", f"{cfg['label']}: H1 vs H2 (slides)")
        ax = axes[1][col]
        for method in h2_methods(rows):
            x, y = gains(rows, "ignore-sharing", method)
            ax.plot(x, y, H2_LABELS[method][1], label=f"{method} vs ignore-sharing")
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_xscale("log")
        label_panel(ax, "H/W (bytes per flop)", "gain over H1 (%)", f"{cfg['label']}: gain over H1", fontsize=9)
    save(plt, fig, out, "sharedring_h1_vs_h2.png")


def optional_number(row, key):
    """A column the table shows when the CSV has it (--timing: seconds; complete-graph methods: objective)."""
    return plotlib.number(row, key, row["_file"], WHAT) if (row.get(key) or "").strip() else None


def methods_table(tables, results):
    if not tables:
        return skipped("methods_table.md", "no NAME_table.csv")
    lines = ["| platform | H/W | " + " | ".join(["method", "q", "T_step (s)", "T_step/W", "time (s)", "note"]) + " |",
             "|---|---|---|---|---|---|---|---|"]
    for cfg, rows in tables:
        for r in rows:
            note = ""
            if r["method"] == "tsp-ilp":
                note = "optimal tour" if r.get("optimal") == "true" else "time limit (best tour found)"
            if optional_number(r, "objective") is not None:
                note = (note + "; " if note else "") + f"no-sharing objective {optional_number(r, 'objective'):.4g}"
            seconds = optional_number(r, "seconds")
            lines.append(f"| {cfg['name']} | {r['ratio']:g} | {r['method']} | {r['q']:g} | "
                         f"{r['tstep']:.5g} | {r['tstep_per_work']:.4g} | "
                         f"{math.nan if seconds is None else seconds:.3g} | {note} |")
    plotlib.write_atomically(os.path.join(results, "methods_table.md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


def read_configs():
    configs = []
    for path in sorted(glob.glob(os.path.join(CONFIG_DIR, "*.json"))):
        try:
            with open(path) as f:
                cfg = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"config '{path}' is not readable JSON ({e})")
        if not isinstance(cfg, dict) or not all(k in cfg for k in ("name", "label", "platform")):
            fail(f"config '{path}' lacks name, label or platform")
        configs.append((path, cfg))
    return configs


def main():
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ringsim", help="path to the ringsim executable (default: build/ringsim)")
    ap.add_argument("--skip-run", action="store_true", help="reuse existing CSV files in the results folder")
    ap.add_argument("--only", help="run only the config with this name")
    ap.add_argument("--quick", action="store_true", help="run each config's quick section (its keys over the config's)")
    ap.add_argument("--results", default=os.path.join(CONFIG_DIR, "results"),
                    help="the CSVs' folder (default experiments/sharedring/results)")
    ap.add_argument("--out", default=os.path.join(CONFIG_DIR, "results"),
                    help="the figures' folder (default experiments/sharedring/results)")
    plotlib.add_describe_option(ap)
    args = ap.parse_args()
    configs = read_configs()
    names = [c["name"] for _, c in configs]
    if args.only and args.only not in names:
        fail(f"--only {args.only}: no config of that name (configs: {', '.join(names)})")
    if not args.skip_run:
        ringsim = find_ringsim(args.ringsim)
        for path, cfg in configs:
            if not args.only or cfg["name"] == args.only:
                run_config(ringsim, path, {**cfg, **cfg.get("quick", {})} if args.quick else cfg, args.results)
    cfgs = [c for _, c in configs]
    data = read_all(args.results, cfgs)
    plotlib.output_folder(args.out)
    plt = plotlib.pyplot()
    plot_ring_size(plt, data["sweep"], args.out)
    plot_tstep_vs_size(plt, data["by_size"], args.out)
    plot_refinements(plt, data["sweep"], args.out)
    plot_h1_h2(plt, data["sweep"], args.out)
    methods_table(data["table"], args.results)
    plotlib.write_description(args.describe)


if __name__ == "__main__":
    main()
