#!/usr/bin/python3
"""How much lower the best possible schedule lies when redistribution points choose their targets
too: per family, ring and ratio, the mean normalized time of `hindsight` (each point
balances for the present), `hindsight-targets` (a point may balance for any iteration's speeds or
return to the initial loads; planners/points/chosen_targets_plan.hpp), both simulated, their
redistributions, and `adaptive-lasting` against each.

  when_chosen_targets.py TABLE.md FAMILY=RUNS.csv[+RUNS.csv ...] [FAMILY=... ...]

Each family's rows joined with `+` (its committed runs.csv and the hindsight-targets and
adaptive-lasting sweeps'). A seed whose hindsight or hindsight-targets run is not one a table may
divide by (references.py: not exactly optimal, beaten by a checked fixed scheme, or above a fixed
scheme of the same run) is left
out, and each family's table says how many were. Bad input: exit 2 and one line.
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotlib  # noqa: E402  (experiments/plotlib.py)
import references  # noqa: E402  (experiments/when/references.py)

from plotlib import fail, write_atomically  # noqa: E402

SCHEMES = ["hindsight", "hindsight-targets", "adaptive-lasting"]
GOAL = 1.10


def pairs(args):
    return plotlib.name_value_pairs(args, lambda a: f"expected FAMILY=RUNS.csv[+RUNS.csv], got '{a}'")


def read_runs(paths):
    """(ring, ratio) -> {(scheme, seed): (normalized time, redistributions)} for SCHEMES, and the
    (ring, ratio, seed) runs left out, with why."""
    runs = defaultdict(dict)
    rows = []
    for path in paths.split("+"):
        try:
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    rows.append(row)
                    if row.get("scheme") in SCHEMES and row.get("normalized_time"):
                        runs[(int(row["ring_size"]), float(row["ratio"]))][(row["scheme"], int(row["seed"]))] = \
                            (float(row["normalized_time"]), int(row["redistributions"]))
        except OSError as e:
            fail(f"cannot read {path}: {e.strerror}")
        except (KeyError, ValueError) as e:
            fail(f"{path}: not a runs.csv ({e})")
    if not runs:
        fail(f"{paths} holds no {', '.join(SCHEMES)} row")
    try:
        left_out = {}
        for reference in ("hindsight", "hindsight-targets"):
            for key, why in references.untrusted_runs(rows, reference).items():
                left_out.setdefault(key[:3], f"{reference} {why}")
    except (KeyError, ValueError) as e:
        fail(f"{paths}: not a runs.csv ({e})")
    return runs, left_out


mean = plotlib.mean


def family_table(family, runs, left_out):
    out = [f"### {family}", "",
           "| ring | ratio | seeds | hindsight | its redistributions | hindsight-targets | its redistributions | "
           "hindsight-targets / hindsight | adaptive-lasting | adaptive-lasting / hindsight | "
           "adaptive-lasting / hindsight-targets |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    within = {"hindsight": 0, "hindsight-targets": 0}
    for key in sorted(runs):
        r = runs[key]
        complete = sorted({s for (_, s) in r if all((x, s) in r for x in SCHEMES)})
        if not complete:
            fail(f"{family} ring {key[0]} ratio {key[1]:g}: no seed has every scheme ({', '.join(SCHEMES)})")
        seeds = [s for s in complete if (key[0], key[1], s) not in left_out]
        if not seeds:
            continue
        t = {x: mean([r[(x, s)][0] for s in seeds]) for x in SCHEMES}
        moves = {x: mean([r[(x, s)][1] for s in seeds]) for x in SCHEMES}
        for x in within:
            within[x] += t["adaptive-lasting"] <= GOAL * t[x]
        out.append(f"| {key[0]} | {key[1]:g} | {len(seeds)} | {t['hindsight']:.3f} | {moves['hindsight']:.1f} | "
                   f"{t['hindsight-targets']:.3f} | {moves['hindsight-targets']:.1f} | "
                   f"{t['hindsight-targets'] / t['hindsight']:.3f} | {t['adaptive-lasting']:.3f} | "
                   f"{t['adaptive-lasting'] / t['hindsight']:.3f} | {t['adaptive-lasting'] / t['hindsight-targets']:.3f} |")
    out += ["", f"adaptive-lasting within {GOAL:g} of hindsight at {within['hindsight']} of {len(runs)} (ring, ratio) "
            f"points, of hindsight-targets at {within['hindsight-targets']}.",
            f"Runs left out (a reference {references.CRITERIA}): {len(left_out)}"
            + ("" if not left_out else " (" + "; ".join(f"ring {k[0]} ratio {k[1]:g} seed {k[2]}: {why}"
                                                        for k, why in sorted(left_out.items())) + ")") + ".", ""]
    return out


def main(argv):
    if len(argv) < 3:
        fail("usage: when_chosen_targets.py TABLE.md FAMILY=RUNS.csv[+RUNS.csv] ...")
    lines = []
    for family, paths in pairs(argv[2:]):
        runs, left_out = read_runs(paths)
        lines += family_table(family, runs, left_out)
    text = "\n".join(lines)
    write_atomically(argv[1], text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
