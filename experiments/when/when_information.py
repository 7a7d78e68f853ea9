#!/usr/bin/python3
"""What knowing the future is worth: from the runs.csv of
experiments/when/on-off-information.json, per ring and ratio, the mean normalized time of
hindsight (knows each run's traces), online-optimal (knows every member's state after each
iteration and the load's law, not the future), adaptive-lasting (knows what its reports say) and
never redistributing, and the ratios between them: the ratio of the means (as the goal tables
count) and the mean of the per-seed ratios with its standard error.

  when_information.py bounds OUTDIR BOUNDS.csv   (once, from the sweep's folder)
  when_information.py RUNS.csv BOUNDS.csv TABLE.md
  when_information.py late OUTDIR TABLE.md [RUNS.csv ...]   (the late rule, from online-optimal's results;
                                                  the policies of RUNS.csv against online-optimal)

`late` tabulates, per ring and ratio, the expectations of the online-optimal recursion that every
online-optimal result.json holds: never redistributing, online-optimal, the bound over any target,
and the late rule (planners/points/on_off_recursion.hpp, expected_late: the best rule that knows the
load's law and sees what a policy sees, the states floor(n/2) - 1 iterations late for free and
the present for the price of an all-gather), as ratios: what a rule with a policy's information
could reach, in expectation, against online-optimal. A second table follows each run's traces:
the late rule told the law (late_along) and the same rule learning the law from what it sees
(learning_late_along), each over online-optimal's points on the same traces, with the points,
looks and solves they took.

`bounds` keeps, per hindsight and online-optimal run, the recursions' own figures from its
result.json: hindsight's predicted makespan with its points and without any, online-optimal's
predicted makespan with its points, its expectations over the load's law (with its points, without
any point, and the bound over moves to any target), and that bound's rule along the run's traces
(predicted makespan with its points and without any), and hindsight over the same targets (the
points and targets that minimize the makespan knowing the traces). The table then adds, per ring
and ratio, the same comparison in the recursions' model (normalized by the model's makespan
without points): hindsight, online-optimal, the any-target rule, which bounds, in expectation,
every policy on this load whatever targets its points take (each point balances for some members'
states), and hindsight over those targets.

If online-optimal / hindsight exceeds 1.10, no online policy (which knows at most what
online-optimal knows) can be expected within 1.10 of hindsight there; the any-target columns say
whether that holds also for policies whose points balance for older reports: against hindsight,
which balances for the present, and against hindsight allowed the same targets.

Both tables divide by hindsight only where it is an optimum: a seed whose hindsight run is not
exactly optimal under the model or ended above a fixed scheme of the same run (here `none`;
references.py) is left out of every column of both, and the text says how many were, which and
why.
Bad input: exit 2 and one line.
"""
import csv
import glob
import json
import math
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotlib  # noqa: E402  (experiments/plotlib.py)
import references  # noqa: E402  (experiments/when/references.py)

SCHEMES = ["none", "hindsight", "online-optimal", "adaptive-lasting"]
PAIRS = [("online-optimal", "hindsight"), ("adaptive-lasting", "online-optimal"), ("adaptive-lasting", "hindsight")]


fail = plotlib.fail


def read(path):
    """(ring, ratio) -> {(scheme, seed): normalized time}, and (ring, ratio, seed) -> why for the
    seeds whose hindsight run no ratio may divide by (references.py); the makespans tell."""
    runs = defaultdict(dict)
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = {"ring_size", "ratio", "scheme", "seed", "normalized_time", "makespan"} - \
                set(reader.fieldnames or [])
            if missing:
                fail(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
            rows = list(reader)
        for row in rows:
            if row["normalized_time"] == "":
                continue
            runs[(int(row["ring_size"]), float(row["ratio"]))][(row["scheme"], int(row["seed"]))] = \
                float(row["normalized_time"])
        left_out = {key[:3]: f"hindsight {why}" for key, why in references.untrusted_runs(rows, "hindsight").items()}
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        fail(f"{path}: a value is not a number ({e})")
    if not runs:
        fail(f"{path} holds no normalized run")
    return runs, left_out


BOUND_FIELDS = ["run_id", "ring_size", "ratio", "seed", "scheme", "predicted_makespan", "predicted_none",
                "expected_makespan", "expected_none", "expected_any_target", "any_target_makespan", "any_target_none",
                "hindsight_any_target_makespan"]


write_atomically = plotlib.write_atomically


def bounds(outdir, path):
    rows = []
    for result in sorted(glob.glob(os.path.join(outdir, "runs", "*", "result.json"))):
        try:
            r = json.load(open(result))
        except (OSError, ValueError) as e:
            fail(f"cannot read {result}: {e}")
        run_id = os.path.basename(os.path.dirname(result))
        seed = re.search(r"_s(\d+)_k\d+$", run_id)  # the sweep's seed (the config holds the one derived from it)
        if seed is None:
            fail(f"{result}: run id '{run_id}' names no seed")
        row = {"run_id": run_id, "ring_size": r.get("ring_size"), "ratio": r.get("ratio"), "seed": int(seed.group(1)),
               "scheme": r.get("scheme")}
        if "hindsight" in r:
            h = r["hindsight"]
            row.update(predicted_makespan=h["predicted_makespan"], predicted_none=h["predicted_makespan_without_points"])
        elif "online_optimal" in r:
            o = r["online_optimal"]
            a = o.get("any_target")
            if a is None or "hindsight" not in a:
                fail(f"{result}: online_optimal has no any_target.hindsight (a ringsim older than the bound)")
            row.update(predicted_makespan=o["predicted_makespan"], predicted_none=a["predicted_makespan_without_points"],
                       expected_makespan=o["expected_makespan"], expected_none=o["expected_makespan_without_points"],
                       expected_any_target=a["expected_makespan"], any_target_makespan=a["predicted_makespan"],
                       any_target_none=a["predicted_makespan_without_points"],
                       hindsight_any_target_makespan=a["hindsight"]["predicted_makespan"])
        else:
            continue
        rows.append(row)
    if not rows:
        fail(f"{outdir}/runs holds no hindsight or online-optimal result")
    lines = [",".join(BOUND_FIELDS)]
    for row in rows:
        lines.append(",".join("" if row.get(k) is None else (repr(row[k]) if isinstance(row[k], float) else str(row[k]))
                              for k in BOUND_FIELDS))
    write_atomically(path, "\n".join(lines) + "\n")


def read_bounds(path):
    model = defaultdict(dict)  # (ring, ratio) -> {(name, seed): value}
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if set(BOUND_FIELDS) - set(reader.fieldnames or []):
                fail(f"{path} lacks the column(s) {', '.join(sorted(set(BOUND_FIELDS) - set(reader.fieldnames or [])))}")
            for row in reader:
                key, seed = (int(row["ring_size"]), float(row["ratio"])), int(row["seed"])
                if row["scheme"] == "hindsight":
                    model[key][("hindsight", seed)] = float(row["predicted_makespan"]) / float(row["predicted_none"])
                elif row["scheme"] == "online-optimal":
                    model[key][("online-optimal", seed)] = float(row["predicted_makespan"]) / float(row["predicted_none"])
                    model[key][("any-target", seed)] = float(row["any_target_makespan"]) / float(row["any_target_none"])
                    model[key][("hindsight any-target", seed)] = \
                        float(row["hindsight_any_target_makespan"]) / float(row["any_target_none"])
                    model[key][("expected any / online", seed)] = \
                        float(row["expected_any_target"]) / float(row["expected_makespan"])
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (ValueError, ZeroDivisionError) as e:
        fail(f"{path}: a value is not a number ({e})")
    return model


def mean_and_error(values):
    m = sum(values) / len(values)
    se = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values)) if len(values) > 1 else 0.0
    return m, se


def model_table(model, left_out):
    out = ["| ring | ratio | seeds | hindsight (model) | online-optimal (model) | any-target rule (model) "
           "| online-optimal / hindsight | any-target rule / hindsight | expected: any target / online-optimal, mean (min) "
           "| hindsight over any target (model) | any-target rule / it (of means; per seed, mean +- s.e.) |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(model):
        m = model[key]
        names = ("hindsight", "online-optimal", "any-target", "hindsight any-target")
        seeds = sorted({s for (name, s) in m if all((x, s) in m for x in names)})
        if not seeds:
            fail(f"ring {key[0]} ratio {key[1]:g}: no seed has both hindsight and online-optimal bounds")
        seeds = [s for s in seeds if key + (s,) not in left_out]
        if not seeds:
            continue
        mean = {x: sum(m[(x, s)] for s in seeds) / len(seeds)
                for x in names + ("expected any / online",)}
        least = min(m[("expected any / online", s)] for s in seeds)
        per, se = mean_and_error([m[("any-target", s)] / m[("hindsight any-target", s)] for s in seeds])
        out.append(f"| {key[0]} | {key[1]:g} | {len(seeds)} | {mean['hindsight']:.3f} | {mean['online-optimal']:.3f} | "
                   f"{mean['any-target']:.3f} | {mean['online-optimal'] / mean['hindsight']:.3f} | "
                   f"{mean['any-target'] / mean['hindsight']:.3f} | {mean['expected any / online']:.3f} ({least:.3f}) | "
                   f"{mean['hindsight any-target']:.3f} | {mean['any-target'] / mean['hindsight any-target']:.3f}; "
                   f"{per:.3f} +- {se:.3f} |")
    return "\n".join(out) + "\n"


def table(runs, left_out):
    out = ["| ring | ratio | seeds | never | hindsight | online-optimal | adaptive-lasting | "
           + " | ".join(f"{a} / {b} (of means; per seed, mean +- s.e.)" for a, b in PAIRS) + " |",
           "|---|---|---|---|---|---|---|" + "---|" * len(PAIRS)]
    for key in sorted(runs):
        r = runs[key]
        seeds = sorted({s for (_, s) in r if all((x, s) in r for x in SCHEMES)})
        if not seeds:
            fail(f"ring {key[0]} ratio {key[1]:g}: no seed has every scheme ({', '.join(SCHEMES)})")
        seeds = [s for s in seeds if key + (s,) not in left_out]
        if not seeds:
            continue
        means = {x: sum(r[(x, s)] for s in seeds) / len(seeds) for x in SCHEMES}
        cells = []
        for a, b in PAIRS:
            m, se = mean_and_error([r[(a, s)] / r[(b, s)] for s in seeds])
            cells.append(f"{means[a] / means[b]:.3f}; {m:.3f} +- {se:.3f}")
        out.append(f"| {key[0]} | {key[1]:g} | {len(seeds)} | " + " | ".join(f"{means[x]:.3f}" for x in SCHEMES)
                   + " | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def along(results):
    """The late rule along each run's traces, told the law and learning it, against online-optimal's
    points on the same traces, all in the recursion's model (online-optimal's predicted makespan,
    which its simulation matches: simulated_over_predicted)."""
    by = defaultdict(list)
    for result, r, o in results:
        try:
            told, learning = o["late"], o["late"]["learning"]
            by[(int(r["ring_size"]), float(r["ratio"]))].append(
                (float(o["predicted_makespan"]), float(told["predicted_makespan"]), float(learning["predicted_makespan"]),
                 len(o["points"]), len(told["points"]), len(learning["points"]), len(told["looks"]),
                 len(learning["looks"]), int(learning["solves"])))
        except (KeyError, TypeError, ValueError) as e:
            fail(f"{result}: online_optimal lacks the late rule along its traces or a value is not a number ({e})")
    out = ["| ring | ratio | seeds | late rule / online-optimal, mean (min, max) "
           "| learning / online-optimal, mean (min, max) | learning / late rule | points: online-optimal, late, learning "
           "| looks: late, learning | solves |",
           "|---|---|---|---|---|---|---|---|---|"]
    mean = lambda xs: sum(xs) / len(xs)
    spread = lambda xs: f"{mean(xs):.3f} ({min(xs):.3f}, {max(xs):.3f})"
    for key in sorted(by):
        rows = by[key]
        out.append(f"| {key[0]} | {key[1]:g} | {len(rows)} | {spread([x[1] / x[0] for x in rows])} | "
                   f"{spread([x[2] / x[0] for x in rows])} | {mean([x[2] / x[1] for x in rows]):.3f} | "
                   f"{mean([x[3] for x in rows]):.1f}, {mean([x[4] for x in rows]):.1f}, {mean([x[5] for x in rows]):.1f} | "
                   f"{mean([x[6] for x in rows]):.1f}, {mean([x[7] for x in rows]):.1f} | {mean([x[8] for x in rows]):.1f} |")
    return "\n".join(out) + "\n"


def policies_against(outdir, runs_paths):
    """Each policy's simulated makespan over online-optimal's on the same ring, ratio and seed
    (online-optimal's from OUTDIR/runs.csv, the policies' from the given runs.csv files)."""
    def rows_of(path):
        try:
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            fail(f"cannot read {path}: {e}")
        for r in rows:
            try:
                yield r["scheme"], (int(r["ring_size"]), float(r["ratio"]), int(r["seed"])), float(r["makespan"])
            except (KeyError, TypeError, ValueError) as e:
                fail(f"{path}: a row lacks ring_size, ratio, seed, scheme or makespan, or one is not a number ({e})")
    online = {key: m for scheme, key, m in rows_of(os.path.join(outdir, "runs.csv")) if scheme == "online-optimal"}
    by = defaultdict(list)  # (scheme, ring, ratio) -> ratios
    for path in runs_paths:
        for scheme, key, m in rows_of(path):
            if scheme not in ("none", "online-optimal") and key in online:
                by[(scheme,) + key[:2]].append(m / online[key])
    if not by:
        fail("no policy run shares a ring, ratio and seed with online-optimal's runs")
    out = ["| scheme | ring | ratio | seeds | simulated / online-optimal, mean (min, max) |", "|---|---|---|---|---|"]
    for key in sorted(by):
        xs = by[key]
        out.append(f"| {key[0]} | {key[1]} | {key[2]:g} | {len(xs)} | {sum(xs) / len(xs):.3f} ({min(xs):.3f}, {max(xs):.3f}) |")
    return "\n".join(out) + "\n"


def late(outdir, path, runs_paths=()):
    by = defaultdict(list)  # (ring, ratio) -> [(never, online, any, late, delay, look)]
    results = []
    for result in sorted(glob.glob(os.path.join(outdir, "runs", "*", "result.json"))):
        try:
            r = json.load(open(result))
        except (OSError, ValueError) as e:
            fail(f"cannot read {result}: {e}")
        o = r.get("online_optimal")
        if o is None:
            continue
        results.append((result, r, o))
        try:
            by[(int(r["ring_size"]), float(r["ratio"]))].append(
                (float(o["expected_makespan_without_points"]), float(o["expected_makespan"]),
                 float(o["any_target"]["expected_makespan"]), float(o["late"]["expected_makespan"]),
                 int(o["late"]["delay"]), float(o["late"]["look"])))
        except (KeyError, TypeError, ValueError) as e:
            fail(f"{result}: online_optimal lacks the late rule or a value is not a number ({e})")
    if not by:
        fail(f"{outdir}/runs holds no online-optimal result")
    out = ["| ring | ratio | seeds | delay | look (s, mean) | online-optimal / never | any target / online-optimal "
           "| late rule / online-optimal, mean (min, max) | late rule / any target |",
           "|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(by):
        rows = by[key]
        mean = lambda xs: sum(xs) / len(xs)
        late_online = [x[3] / x[1] for x in rows]
        delays = sorted({x[4] for x in rows})
        out.append(f"| {key[0]} | {key[1]:g} | {len(rows)} | {','.join(map(str, delays))} | {mean([x[5] for x in rows]):.3f} | "
                   f"{mean([x[1] / x[0] for x in rows]):.3f} | {mean([x[2] / x[1] for x in rows]):.3f} | "
                   f"{mean(late_online):.3f} ({min(late_online):.3f}, {max(late_online):.3f}) | "
                   f"{mean([x[3] / x[2] for x in rows]):.3f} |")
    text = ("Expectations over the load's law:\n\n" + "\n".join(out) + "\n\nAlong each run's traces (the recursion's "
            "model; the learning rule is not told the law):\n\n" + along(results))
    if runs_paths:
        text += "\nThe policies, simulated on the same traces:\n\n" + policies_against(outdir, runs_paths)
    write_atomically(path, text)
    sys.stdout.write(text)


def left_out_text(left_out):
    return (f"Seeds left out of both tables (hindsight {references.CRITERIA}): {len(left_out)}"
            + ("" if not left_out else " (" + "; ".join(f"ring {k[0]} ratio {k[1]:g} seed {k[2]}: {why}"
                                                        for k, why in sorted(left_out.items())) + ")") + ".\n")


def main(argv):
    if len(argv) == 4 and argv[1] == "bounds":
        bounds(argv[2], argv[3])
        return
    if len(argv) >= 4 and argv[1] == "late":
        late(argv[2], argv[3], argv[4:])
        return
    if len(argv) != 4:
        fail("usage: when_information.py RUNS.csv BOUNDS.csv TABLE.md, or when_information.py bounds OUTDIR BOUNDS.csv, "
             "or when_information.py late OUTDIR TABLE.md [RUNS.csv ...]")
    runs, left_out = read(argv[1])
    text = ("Simulated (normalized by the run without redistribution):\n\n" + table(runs, left_out) +
            "\nIn the recursions' model (normalized by the model's makespan without points; the any-target rule "
            "cannot be simulated: its points may balance for other states than the present's):\n\n" +
            model_table(read_bounds(argv[2]), left_out) + "\n" + left_out_text(left_out))
    write_atomically(argv[3], text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
