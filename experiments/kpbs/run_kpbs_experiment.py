#!/usr/bin/python3
"""KPBS experiment: schedule quality (time / eta) of ggp, oggp, greedy and all-at-once on seeded
random matrices, against beta and against k, and planned vs simulated times (ringsim kpbs-simulate,
SimGrid) for the schedules and for the unscheduled all-at-once transfer.

Usage: experiments/kpbs/run_kpbs_experiment.py [--ringsim PATH] [--out DIR] [--seeds N] [--jobs J]
Writes DIR/ratio_vs_beta.csv, DIR/ratio_vs_k.csv, DIR/planned_vs_simulated.csv (one row per run)
and DIR/summary.json (parameters, versions). Default DIR: experiments/kpbs/results.
Same arguments, same CSV bytes (seeded; rows written in a fixed order).
"""
import argparse
import csv
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ALGOS = ["ggp", "oggp", "greedy", "all-at-once"]
N1, N2 = 10, 10          # senders, receivers
DENSITY = 0.6            # probability that a pair has data
MAX_TIME = 10.0          # entries uniform in [0.1, MAX_TIME] time units (rounded to 1e-3)
BETAS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10]
K_FOR_BETA = 5
KS = [1, 2, 3, 4, 5, 6, 8, 10]
BETA_FOR_K = 1.0
UNIT = 1.25e7            # min(b1, b2) in bytes/s for the simulations (100 Mb/s links)


def matrix(seed):
    rng = random.Random(seed)
    m = [[round(rng.uniform(0.1, MAX_TIME), 3) if rng.random() < DENSITY else 0.0 for _ in range(N2)] for _ in range(N1)]
    if not any(any(r) for r in m):
        m[0][0] = 1.0
    return m


def run(cmd, payload):
    p = subprocess.run(cmd, input=json.dumps(payload), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def plan(ringsim, seed, k, beta, algo):
    d = run([ringsim, "kpbs", "-", "--algorithm", algo], {"k": k, "beta": beta, "matrix": matrix(seed)})
    return {"time": d["time"], "eta": d["lower_bound"], "steps": len(d["steps"])}


def simulate(ringsim, seed, k, beta, algo, model):
    cl = {"b1": UNIT, "b2": UNIT, "bb": k * UNIT}
    d = run([ringsim, "kpbs-simulate", "-", "--algorithm", algo, "--network-model", model],
            {"beta": beta, "matrix": matrix(seed), "clusters": cl})
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ringsim", default=os.path.join(ROOT, "build", "ringsim"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    seeds = list(range(1, a.seeds + 1))
    t0 = time.time()
    pool = ThreadPoolExecutor(a.jobs)

    def sweep(name, points):  # points: (param value, k, beta)
        jobs = [(v, k, beta, s, algo) for v, k, beta in points for s in seeds for algo in ALGOS]
        res = list(pool.map(lambda j: plan(a.ringsim, j[3], j[1], j[2], j[4]), jobs))
        with open(os.path.join(a.out, name), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["k", "beta", "seed", "algorithm", "time", "eta", "ratio", "steps"])
            for (v, k, beta, s, algo), r in zip(jobs, res):
                w.writerow([k, beta, s, algo, repr(r["time"]), repr(r["eta"]), repr(r["time"] / r["eta"]), r["steps"]])

    sweep("ratio_vs_beta.csv", [(b, K_FOR_BETA, b) for b in BETAS])
    sweep("ratio_vs_k.csv", [(k, k, BETA_FOR_K) for k in KS])

    # Planned vs simulated: schedules (ggp, oggp, greedy) and the all-at-once transfer, under the
    # KPBS paper's linear model and SimGrid's TCP-like LV08 model. Backbone latency: the default 1e-4 s.
    sim_jobs = [(model, k, s, algo) for model in ["linear", "lv08"] for k in [2, 5] for s in seeds
                for algo in ["ggp", "oggp", "greedy"]]
    sims = list(pool.map(lambda j: simulate(a.ringsim, j[2], j[1], BETA_FOR_K, j[3], j[0]), sim_jobs))
    with open(os.path.join(a.out, "planned_vs_simulated.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["network_model", "k", "beta", "seed", "algorithm", "eta", "planned", "simulated",
                    "aao_planned", "aao_simulated", "max_step_error"])
        for (model, k, s, algo), d in zip(sim_jobs, sims):
            err = max(abs(st["simulated"] - st["planned"]) for st in d["steps"])
            w.writerow([model, k, BETA_FOR_K, s, algo, repr(d["lower_bound"]), repr(d["planned_time"]),
                        repr(d["simulated_time"]), repr(d["all_at_once"]["planned_time"]),
                        repr(d["all_at_once"]["simulated_time"]), repr(err)])
    ver = subprocess.run([a.ringsim, "--version"], capture_output=True, text=True).stdout.strip()
    summary = {"ringsim_version": ver, "senders": N1, "receivers": N2, "density": DENSITY, "max_time": MAX_TIME,
               "betas": BETAS, "k_for_beta": K_FOR_BETA, "ks": KS, "beta_for_k": BETA_FOR_K, "seeds": seeds,
               "unit_bandwidth": UNIT, "backbone_latency": 1e-4}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(f"kpbs experiment: {len(sim_jobs)} simulations, wall {time.time() - t0:.1f} s, CSV in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
