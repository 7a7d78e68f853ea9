#!/usr/bin/env python3
"""Move times as planned, predicted and simulated on a multi-site platform whose ring edges share
WAN uplinks (platforms/three_sites.xml). For each ring size, `ringsim simulate` runs every-5 on random
rings (one per seed) under random-walk speeds, and every performed point's `planned` (the
planner's own one-port model: what policies weighed a move with before moves were predicted on
shared links), `predicted` (the plan as the executor plays it on the shared links: what they weigh
it with now) and `simulated` are read from the result. Prints, per ring size, the medians and
worst ratios of simulated over planned and over predicted.
  usage: bench/move_costs.py --ringsim path/to/ringsim [--small] [--seeds N]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(ringsim, folder, ring, seed, ratio, iterations):
    config = {"platform": os.path.join(HERE, "..", "platforms", "three_sites.xml"), "ring": {"size": ring, "seed": seed},
              "ratio": ratio, "rows": 1000, "columns": 1000, "iterations": iterations, "scheme": "every-5",
              "baseline": False,
              "traces": {"seed": seed, "source": "random-walk", "step": 0.2, "low": 0.3, "high": 1.5, "every": 1}}
    path = os.path.join(folder, f"c{ring}_{seed}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    out = subprocess.run([ringsim, "simulate", path], check=True, capture_output=True, text=True).stdout
    return [p for p in json.loads(out)["points"] if p["performed"]], json.loads(out)["move_model"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ringsim", required=True)
    ap.add_argument("--small", action="store_true", help="rings of 8 only, 2 seeds, 20 iterations")
    ap.add_argument("--seeds", type=int, default=6)
    args = ap.parse_args()
    rings, seeds, iterations = ([8], 2, 20) if args.small else ([8, 24], args.seeds, 40)
    print("ring,ratio,points,move_model,planned_median_s,predicted_median_s,simulated_median_s,"
          "simulated_over_planned_median,simulated_over_planned_worst,"
          "simulated_over_predicted_median,simulated_over_predicted_worst")
    with tempfile.TemporaryDirectory() as folder:
        for ring in rings:
            for ratio in (1.0,):
                points, models = [], set()
                for seed in range(1, seeds + 1):
                    p, model = run(args.ringsim, folder, ring, seed, ratio, iterations)
                    points += p
                    models.add(model)
                if not points:
                    print(f"{ring},{ratio},0,,,,,,,,")
                    continue
                over_planned = [p["simulated"] / p["planned"] for p in points]
                over_predicted = [p["simulated"] / p["predicted"] for p in points]
                worst = lambda r: max(r, key=lambda x: abs(x - 1.0))
                med = statistics.median
                print(f"{ring},{ratio},{len(points)},{'/'.join(sorted(models))},"
                      f"{med(p['planned'] for p in points):.4g},{med(p['predicted'] for p in points):.4g},"
                      f"{med(p['simulated'] for p in points):.4g},"
                      f"{med(over_planned):.4f},{worst(over_planned):.4f},"
                      f"{med(over_predicted):.4f},{worst(over_predicted):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
