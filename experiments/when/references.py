"""Which runs of a reference (`hindsight`, `hindsight-targets`) a table may divide by.

A reference is the best possible only where its plan is the exact optimum of the simulation's
model (runs.csv `reference_optimal_under_model`, docs/outputs.md) and the simulation agrees with
the model: a reference run that is not exactly optimal, or that ended above `none` or a fixed
scheme of the same run (same ring size, ratio, seed and repetition) by more than TOLERANCE, is
left out of every ratio to it, and the tables say how many were. So is a run whose points lost, in
the simulation, to a fixed scheme it was checked against (`reference_points_kept` false): the run
then reports that scheme, which bounds the best possible from above only. runs.csv files written
before these columns existed say nothing of them: only the comparison with the fixed schemes applies.
"""
import re

TOLERANCE = 0.005
# What leaves a reference run out, as the tables say it.
CRITERIA = (f"not exactly optimal under the model, beaten by a checked fixed scheme in the simulation, or above "
            f"a fixed scheme of the same run by more than {TOLERANCE:.1%}")
FIXED = re.compile(r"^(none|once|every-[1-9][0-9]*|after:[0-9,]+)$")


def run_key(row):
    return (int(row["ring_size"]), float(row["ratio"]), int(row["seed"]), int(row.get("repetition") or 0))


def untrusted_runs(rows, reference):
    """{run key: reason} for the `reference` runs among `rows` (runs.csv dictionaries) that a table
    must not divide by."""
    fastest_fixed = {}
    for row in rows:
        if FIXED.match(row["scheme"]) and row.get("makespan"):
            key = run_key(row)
            fastest_fixed[key] = min(fastest_fixed.get(key, float("inf")), float(row["makespan"]))
    reasons = {}
    for row in rows:
        if row["scheme"] != reference or not row.get("makespan"):
            continue
        key = run_key(row)
        if row.get("reference_optimal_under_model") == "false":
            reasons[key] = "not exactly optimal under the model"
        elif row.get("reference_points_kept") == "false":
            reasons[key] = "its points lost to a checked fixed scheme in the simulation"
        elif key in fastest_fixed and float(row["makespan"]) > fastest_fixed[key] * (1 + TOLERANCE):
            reasons[key] = f"above a fixed scheme by {float(row['makespan']) / fastest_fixed[key] - 1:.1%}"
    return reasons
