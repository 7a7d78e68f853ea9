#!/usr/bin/python3
"""Which of a scheme's moves paid for themselves, in hindsight: from the result.json of every run of
a sweep's folder (`ringsim run EXPERIMENT.json --out OUTDIR`), per scheme, ring and ratio, how many
performed redistributions saved more than their point cost (paid) or not (lost), and the net time
all of them earned as a share of the runs' makespans without redistributions (`none` in the same
folder, or each run's baseline_makespan), beside what the runs gained over never moving.

The two differ: each move is judged against the loads it replaced, until the next move; a run's
gain judges the whole sequence against the initial balance. A move that leaves loads which age
badly costs the run more than its own net says (the later moves are judged against those loads).

  when_moves.py OUTDIR [SCHEME ...]      (a table on stdout; every scheme when none is named)

A move's saving is measured until the next move (result.json points[].hindsight_saved, computed by
the simulation at the speeds the run applied), its cost is the whole point (decision and transfers).
Bad input: exit 2 and one line.
"""
import collections
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (experiments/plotlib.py)

fail = plotlib.fail


def main(argv):
    if len(argv) < 2:
        fail("usage: when_moves.py OUTDIR [SCHEME ...]")
    outdir, wanted = argv[1], set(argv[2:])
    files = sorted(glob.glob(os.path.join(outdir, "runs", "*", "result.json")))
    if not files:
        fail(f"{outdir}: no runs/*/result.json (a sweep's --out folder?)")
    runs = []
    for f in files:
        try:
            with open(f) as fh:
                r = json.load(fh)
            runs.append((r["scheme"], int(r["ring_size"]), float(r["ratio"]), int(r["config"]["ring"]["seed"]),
                         r.get("moves_in_hindsight"), float(r["makespan"]), r.get("baseline_makespan")))
        except (OSError, ValueError, KeyError, TypeError) as e:
            fail(f"{f}: not a ringsim result ({e})")
    none = {(ring, ratio, seed): makespan for scheme, ring, ratio, seed, _, makespan, _ in runs if scheme == "none"}
    table = collections.defaultdict(lambda: [0, 0, 0.0, 0.0, 0, 0.0])
    for scheme, ring, ratio, seed, moves, makespan, baseline in runs:
        if scheme == "none" or (wanted and scheme not in wanted):
            continue
        base = none.get((ring, ratio, seed), baseline)
        row = table[(scheme, ring, ratio)]
        if moves is None or not base:
            row[4] += 1
            continue
        row[0] += moves["paid"]
        row[1] += moves["lost"]
        row[2] += moves["net"]
        row[3] += base
        row[5] += base - makespan
    if not table:
        fail(f"{outdir}: no run of {', '.join(sorted(wanted)) or 'any scheme but none'}")
    print("| scheme | ring | ratio | moves | paid | lost | moves' nets / none | run's gain / none |")
    print("|---|---|---|---|---|---|---|---|")
    for (scheme, ring, ratio), (paid, lost, net, base, unknown, gain) in sorted(table.items()):
        nets = f"{net / base:+.3f}" if base else "-"
        gained = f"{gain / base:+.3f}" if base else "-"
        note = f" ({unknown} runs without figures)" if unknown else ""
        print(f"| {scheme} | {ring} | {ratio:g} | {paid + lost} | {paid} | {lost} | {nets} | {gained}{note} |")


if __name__ == "__main__":
    main(sys.argv)
