#!/usr/bin/python3
"""A picture of one `ringsim simulate` run: what the redistribution policy saw and what it chose.

  ringsim simulate CONFIG.json --out R/result.json --iterations-csv R/iterations.csv --traces-dir R/traces
  plot_run.py --result R/result.json --iterations R/iterations.csv --traces R/traces/traces.csv --output run.png
  plot_run.py --dir R [--output run.png]        (R/result.json, R/iterations.csv, R/traces/traces.csv)

Four panels on one time axis (simulated seconds):
  1. each ring member's speed (traces.csv; a step per change);
  2. each member's column count (iterations.csv loads; they change at redistribution points);
  3. each iteration's duration (a bar from its start to its end, coloured by its slowest member:
     the one whose own computation took longest),
     with the iteration time predicted at the start and at each redistribution point (dashed);
  4. the redistribution points: decision (reports gathered, plan computed) and column transfers as
     shaded spans, points that decided not to move in grey (hatched), staging and rebuilds if any.
The points are also drawn as vertical lines on panels 1-3 (solid: columns moved; dotted: none;
dash-dot: a rebuild).
Output: PNG, PDF or SVG (by --output's extension), written atomically; --describe FILE adds what
was drawn as JSON (the panels' titles, the members' speed lines). Bad input is exit 2 and one line
on stderr. Needs matplotlib (Debian: python3-matplotlib, importable by /usr/bin/python3).
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

fail = plotlib.fail
plt = plotlib.pyplot()
from matplotlib.patches import Patch  # noqa: E402

FORMATS = ("png", "pdf", "svg")
# Not the members' colours (tab10/tab20), which panels 1-3 use.
DECISION_COLOR = "#f5b700"
TRANSFER_COLOR = "#303030"
IDLE_COLOR = "0.6"           # points that decided not to move
STAGING_COLOR = "#2e8b57"
REBUILD_COLOR = "#8e44ad"


# ---------------------------------------------------------------------------------------------
# Reading (every problem is one line and exit 2)

read_text = plotlib.read_text
read_csv = plotlib.read_table
number = plotlib.number


def read_result(path):
    text = read_text(path, "result")
    try:
        r = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"result '{path}' is not JSON ({e.msg}, line {e.lineno})")
    if not isinstance(r, dict):
        fail(f"result '{path}' is not a JSON object (a `ringsim simulate --out` summary)")
    for key in ("makespan", "ring", "points", "scheme"):
        if key not in r:
            fail(f"result '{path}' lacks '{key}' (not a `ringsim simulate --out` summary?)")
    if not isinstance(r["points"], list) or not isinstance(r["ring"], list) or not r["ring"]:
        fail(f"result '{path}': 'points' and 'ring' must be lists (a `ringsim simulate --out` summary)")
    def numeric(obj, keys, where):
        for key in keys:
            v = obj.get(key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                fail(f"result '{path}': {where}'{key}' is not a number ({json.dumps(v)})")

    numeric(r, ("makespan", "ratio", "normalized_time", "initial_iteration_time", "redistributions"), "")
    if r["makespan"] is None:
        fail(f"result '{path}': 'makespan' is not a number (null)")
    for i, p in enumerate(r["points"]):
        if not isinstance(p, dict) or "after_iteration" not in p or "performed" not in p:
            fail(f"result '{path}': point {i + 1} lacks 'after_iteration' or 'performed'")
        numeric(p, ("after_iteration", "decision_time", "simulated", "tstep_after", "decision_start",
                    "transfers_start", "end"), f"point {i + 1}: ")
    moves = ([("staging", r["staging"])] if r.get("staging") else []) + \
        [(f"rebuild {i + 1}", t) for i, t in enumerate(r.get("rebuilds") or [])]
    for name, t in moves:
        if not isinstance(t, dict) or any(k not in t for k in ("after_iteration", "start", "end")):
            fail(f"result '{path}': {name} lacks 'after_iteration', 'start' or 'end'")
        numeric(t, ("after_iteration", "start", "end", "decision_time"), f"{name}: ")
        if name != "staging" and not isinstance(t.get("receivers"), list):
            fail(f"result '{path}': {name} lacks its 'receivers' (the new ring)")
    return r


def read_iterations(path):
    what = "iterations CSV"
    rows = read_csv(path, what, ["iteration", "start", "end", "loads"])
    if "run_id" in rows[0] and len({r["run_id"] for r in rows}) > 1:
        fail(f"{what} '{path}' holds several runs (run_id column); pass one run's iterations.csv")
    its = []
    for row in rows:
        loads_text = row["loads"].strip()
        try:
            loads = [int(x) for x in loads_text.split(";")]
        except ValueError:
            fail(f"{what} '{path}':{row['_line']}: column loads: '{loads_text}' is not ';'-separated integers")
        it = {"iteration": number(row, "iteration", path, what, integer=True),
              "start": number(row, "start", path, what), "end": number(row, "end", path, what),
              "slowest": (row.get("slowest") or "").strip(), "loads": loads, "_line": row["_line"]}
        if it["end"] < it["start"]:
            fail(f"{what} '{path}':{row['_line']}: end {it['end']} before start {it['start']}")
        its.append(it)
    its.sort(key=lambda it: it["iteration"])
    return its


def read_traces(path):
    what = "traces CSV"
    rows = read_csv(path, what, ["host", "time", "speed_flops"])
    steps = {}
    for row in rows:
        host = row["host"].strip()
        if not host:
            fail(f"{what} '{path}':{row['_line']}: empty host")
        steps.setdefault(host, []).append((number(row, "time", path, what), number(row, "speed_flops", path, what)))
    for pts in steps.values():
        pts.sort(key=lambda p: p[0])  # stable: of two changes at one time, the later line wins
    return steps


# ---------------------------------------------------------------------------------------------
# What happened when

def events(result, its, result_path, it_path):
    """Redistribution points, staging and rebuilds with their times; who is a member when."""
    by_it = {it["iteration"]: k for k, it in enumerate(its)}
    points = []
    for p in result["points"]:
        a = p["after_iteration"]
        if "decision_start" in p and "transfers_start" in p and "end" in p:
            d0, t0, t1 = float(p["decision_start"]), float(p["transfers_start"]), float(p["end"])
        else:  # the summary gives durations: the point runs from iteration a's end to iteration a+1's start
            if a not in by_it:
                fail(f"result '{result_path}' has a point after iteration {a} that iterations CSV '{it_path}' "
                     f"lacks (files of different runs?)")
            d0 = its[by_it[a]]["end"]
            t0 = d0 + float(p.get("decision_time", 0.0))
            t1 = t0 + float(p.get("simulated", 0.0))
        points.append(dict(p, decision_start=d0, transfers_start=t0, end=t1))
    staging = result.get("staging")
    rebuilds = sorted(result.get("rebuilds") or [], key=lambda t: t["after_iteration"])
    # Ring in force for each iteration: the initial ring, replaced after each rebuild's iteration.
    rings = [(0, list(result["ring"]), None, None)]  # (first iteration, hosts, member from, member until)
    for t in rebuilds:
        rings.append((t["after_iteration"] + 1, list(t["receivers"]), float(t["start"]), None))
    for k in range(len(rings) - 1):
        first, hosts, since, _ = rings[k]
        rings[k] = (first, hosts, since, float(rebuilds[k]["end"]))
    return points, staging, rebuilds, rings


def ring_at(rings, iteration):
    current = rings[0]
    for r in rings:
        if iteration >= r[0]:
            current = r
    return current[1]


# ---------------------------------------------------------------------------------------------
# Drawing

def host_colors(hosts):
    if len(hosts) <= 10:
        cmap, n = plt.get_cmap("tab10"), 10
    elif len(hosts) <= 20:  # the ten dark shades first, then the light ones
        cmap = plt.get_cmap("tab20")
        return {h: cmap(2 * k if k < 10 else 2 * (k - 10) + 1) for k, h in enumerate(hosts)}
    else:
        cmap, n = plt.get_cmap("turbo"), len(hosts)
    return {h: cmap(k / max(n - 1, 1) if n > 20 else k) for k, h in enumerate(hosts)}


def speed_unit(max_speed):
    for scale, unit in ((1e9, "Gflop/s"), (1e6, "Mflop/s"), (1e3, "kflop/s")):
        if max_speed >= scale:
            return scale, unit
    return 1.0, "flop/s"


def draw(result, its, traces, out_path, title, paths):
    points, staging, rebuilds, rings = events(result, its, paths[0], paths[1])
    t_end = max(float(result["makespan"]), its[-1]["end"])
    members = []
    for _, hosts, _, _ in rings:
        members += [h for h in hosts if h not in members]
    colors = host_colors(members)
    for it in its:
        ring = ring_at(rings, it["iteration"])
        if len(it["loads"]) != len(ring):
            fail(f"iterations CSV '{paths[1]}':{it['_line']}: {len(it['loads'])} loads but the ring of result "
                 f"'{paths[0]}' has {len(ring)} members then (files of different runs?)")
    for h in members:
        if h not in traces:
            fail(f"traces CSV '{paths[2]}' has no speed for ring member '{h}' (files of different runs?)")

    fig, axes = plt.subplots(4, 1, sharex=True, figsize=(12, 10.5),
                             gridspec_kw={"height_ratios": [3, 3, 2.4, 1.3]})
    ax_speed, ax_load, ax_iter, ax_red = axes

    # 1. speeds, each over the time its host is a ring member
    max_speed = max(s for h in members for _, s in traces[h])
    scale, unit = speed_unit(max_speed)
    labelled = set()
    for first, hosts, since, until in rings:
        lo, hi = (since if since is not None else 0.0), (until if until is not None else t_end)
        for h in hosts:
            pts = traces[h]
            xs, ys = [lo], [pts[0][1]]
            for t, s in pts:
                if t <= lo:
                    ys[0] = s
                elif t < hi:
                    xs.append(t)
                    ys.append(s)
            xs.append(hi)
            ys.append(ys[-1])
            ax_speed.step(xs, [y / scale for y in ys], where="post", color=colors[h], lw=1.6,
                          label=None if h in labelled else h)
            labelled.add(h)
    ax_speed.set_ylabel(f"speed ({unit})")
    ax_speed.set_ylim(bottom=0)
    ax_speed.set_title("member speeds (speed traces)", fontsize=9, loc="left")

    # 2. column counts per member, from one iteration's start to the next's
    for first, hosts, _, _ in rings:
        for m, h in enumerate(hosts):
            seg = [it for it in its if ring_at(rings, it["iteration"]) is hosts]
            if not seg:
                continue
            xs = [it["start"] for it in seg] + [seg[-1]["end"]]
            ys = [it["loads"][m] for it in seg] + [seg[-1]["loads"][m]]
            ax_load.step(xs, ys, where="post", color=colors[h], lw=1.6)
    ax_load.set_ylabel("columns held")
    ax_load.set_ylim(bottom=0)
    ax_load.set_title("columns per member (they change at redistribution points)", fontsize=9, loc="left")

    # 3. iteration durations: one bar per iteration, from its start to its end, coloured by its slowest member
    ax_iter.bar([it["start"] for it in its], [it["end"] - it["start"] for it in its],
                width=[it["end"] - it["start"] for it in its], align="edge",
                color=[colors.get(it["slowest"], "0.5") for it in its], edgecolor="white", linewidth=0.3, alpha=0.85)
    # predicted iteration time: from the start, then as predicted at each point that decided
    preds = []
    if result.get("initial_iteration_time"):
        preds.append((its[0]["start"], float(result["initial_iteration_time"])))
    for p in points:
        if p.get("tstep_after"):
            preds.append((p["end"], float(p["tstep_after"])))
    stops = [p["decision_start"] for p in points] + [t["start"] - float(t.get("decision_time", 0.0)) for t in rebuilds]
    for k, (t, v) in enumerate(preds):
        nxt = min([s for s in stops if s > t + 1e-9] + [t_end])
        ax_iter.plot([t, nxt], [v, v], color="black", ls="--", lw=1.1,
                     label="predicted iteration time" if k == 0 else None)
    ax_iter.set_ylabel("iteration time (s)")
    ax_iter.set_ylim(bottom=0)
    ax_iter.set_title("iteration durations (bar colour: the member whose computation took longest)", fontsize=9, loc="left")
    if preds:
        ax_iter.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=8, frameon=False)

    # 4. redistribution points (and staging, rebuilds)
    ann = len(points) + len(rebuilds) <= 12
    width = t_end - min(0.0, its[0]["start"])

    top = 1 / 1.6 if ann else 1.0  # the spans fill data y 0..1, the labels go above

    def label(ax, x, text):  # above the marker, kept inside the axes at both ends
        ha = "left" if x < 0.03 * width else "right" if x > 0.97 * width else "center"
        ax.annotate(text, (x, 1.0), xytext=(0, 3), textcoords="offset points", ha=ha, va="bottom", fontsize=7)
    for p in points:
        d0, t0, t1 = p["decision_start"], p["transfers_start"], p["end"]
        if p["performed"]:
            ax_red.axvspan(d0, t0, color=DECISION_COLOR, alpha=0.85, lw=0, ymax=top)
            ax_red.axvspan(t0, t1, color=TRANSFER_COLOR, alpha=0.85, lw=0, ymax=top)
            ax_red.plot([(d0 + t1) / 2], [0.5], marker="v", ms=7, color="white", mec="black", mew=0.8, zorder=3)
            if ann:
                label(ax_red, (d0 + t1) / 2, f"{p.get('items_moved', '?')} col.\n{t1 - t0:.3g} s")
        else:
            ax_red.axvspan(d0, t1, facecolor="0.85", edgecolor=IDLE_COLOR, hatch="///", lw=0, ymax=top)
            ax_red.plot([(d0 + t1) / 2], [0.5], marker="x", ms=7, color="0.35", mew=1.5, zorder=3)
        for ax in (ax_speed, ax_load, ax_iter):
            if p["performed"]:
                ax.axvline(d0, color="black", lw=0.9, alpha=0.5)
            else:
                ax.axvline(d0, color=IDLE_COLOR, lw=0.9, ls=":", alpha=0.9)
    if staging:
        s0, s1 = float(staging["start"]), float(staging["end"])
        ax_red.axvspan(s0, s1, color=STAGING_COLOR, alpha=0.85, lw=0, ymax=top)
        if ann:
            label(ax_red, (s0 + s1) / 2, "staging")
    for t in rebuilds:
        t0, t1 = float(t["start"]), float(t["end"])
        d0 = t0 - float(t.get("decision_time", 0.0))
        ax_red.axvspan(d0, t0, color=DECISION_COLOR, alpha=0.85, lw=0, ymax=top)
        ax_red.axvspan(t0, t1, color=REBUILD_COLOR, alpha=0.85, lw=0, ymax=top)
        ax_red.plot([(d0 + t1) / 2], [0.5], marker="D", ms=6, color=REBUILD_COLOR, mec="black", mew=0.8, zorder=3)
        if ann:
            label(ax_red, (d0 + t1) / 2,
                  f"rebuild {len(t.get('senders', []))}->{len(t.get('receivers', []))}\n{t1 - t0:.3g} s")
        for ax in (ax_speed, ax_load, ax_iter):
            ax.axvline(d0, color="black", lw=1.2, ls="-.", alpha=0.7)
    ax_red.set_ylim(0, 1.6 if ann else 1)
    ax_red.set_yticks([])
    ax_red.set_title("redistribution points (spans to scale, markers at their middles; "
                     "vertical lines above: solid columns moved, dotted none, dash-dot rebuild)", fontsize=9, loc="left")
    handles = []
    if any(p["performed"] for p in points) or rebuilds:
        handles.append(Patch(color=DECISION_COLOR, label="decision (reports, plan)"))
    if any(p["performed"] for p in points):
        handles.append(Patch(color=TRANSFER_COLOR, label="column transfers"))
    if any(not p["performed"] for p in points):
        handles.append(Patch(facecolor="0.85", edgecolor=IDLE_COLOR, hatch="///", label="decided not to move"))
    if staging:
        handles.append(Patch(color=STAGING_COLOR, label="staging"))
    if rebuilds:
        handles.append(Patch(color=REBUILD_COLOR, label="rebuild (columns handed over)"))
    if handles:
        ax_red.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=8, frameon=False)

    if len(members) <= 12:
        ax_speed.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=8, frameon=False, title="member",
                        title_fontsize=8)
    for ax in axes:
        ax.grid(True, alpha=0.3)
    ax_red.grid(False)
    ax_red.set_xlim(min(0.0, its[0]["start"]), t_end + 0.005 * width)
    ax_red.set_xlabel("simulated time (s)")

    performed = result.get("redistributions", sum(1 for p in points if p["performed"]))
    ring_text = f"ring of {result.get('ring_size', len(result['ring']))}"
    if rebuilds:
        ring_text += " (rebuilt: " + ", ".join(str(len(t.get("receivers", []))) for t in rebuilds) + ")"
    summary = (f"scheme {result['scheme']}, {ring_text}, "
               f"ratio {float(result.get('ratio', float('nan'))):g}: makespan {float(result['makespan']):.6g} s, "
               f"{performed} of {len(points)} redistribution points moved columns")
    if result.get("normalized_time"):
        summary += f", normalized time {float(result['normalized_time']):.3f}"
    fig.suptitle(f"{title}\n{summary}" if title else summary, fontsize=10)
    fig.tight_layout()
    save_atomically(fig, out_path)
    plt.close(fig)


def save_atomically(fig, out_path):
    plotlib.save_figure(fig, out_path, 110, bbox_inches="tight")


def main():
    ap = plotlib.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--result", help="the run's JSON summary (ringsim simulate --out)")
    ap.add_argument("--iterations", help="the run's iterations CSV (ringsim simulate --iterations-csv)")
    ap.add_argument("--traces", help="the run's traces.csv (ringsim simulate --traces-dir DIR: DIR/traces.csv)")
    ap.add_argument("--dir", help="D: D/result.json, D/iterations.csv, D/traces/traces.csv (the options above override)")
    ap.add_argument("--output", help="the picture: .png, .pdf or .svg (default with --dir: D/run.png)")
    ap.add_argument("--title", help="a heading above the run's summary line")
    plotlib.add_describe_option(ap)
    a = ap.parse_args()
    if a.dir:
        a.result = a.result or os.path.join(a.dir, "result.json")
        a.iterations = a.iterations or os.path.join(a.dir, "iterations.csv")
        a.traces = a.traces or os.path.join(a.dir, "traces", "traces.csv")
        a.output = a.output or os.path.join(a.dir, "run.png")
    for opt in ("result", "iterations", "traces", "output"):
        if not getattr(a, opt):
            fail(f"--{opt} is required (or --dir D)")
    ext = os.path.splitext(a.output)[1].lower().lstrip(".")
    if ext not in FORMATS:
        fail(f"--output '{a.output}': the extension must be one of {', '.join('.' + f for f in FORMATS)}")
    folder = os.path.dirname(os.path.abspath(a.output))
    if not os.path.isdir(folder):
        fail(f"--output '{a.output}': folder '{folder}' does not exist")
    result = read_result(a.result)
    its = read_iterations(a.iterations)
    traces = read_traces(a.traces)
    draw(result, its, traces, a.output, a.title, (a.result, a.iterations, a.traces))
    plotlib.write_description(a.describe)
    print("wrote " + a.output)


if __name__ == "__main__":
    main()
