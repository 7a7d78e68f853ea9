#!/usr/bin/python3
"""Staging experiment: the matrix staged from a storage cluster onto a ring of the HiPC 2004 paper's
90-host platform through a backbone (`"staging"` in a run config), and the columns handed from a
ring to a rebuilt one (`"rebuild"`), each moved with a KPBS schedule (ggp, oggp, greedy) or all at
once. For each: k derived from the routes (ggp-one-port: k = min(v1, v2), only the one-port rule),
eta, the planned time and the time SimGrid simulates.

Usage: experiments/staging/run_staging_experiment.py [--ringsim PATH] [--out DIR] [--seeds N] [--jobs J]
Writes DIR/staging.csv and DIR/rebuild.csv (one row per run) and DIR/summary.json (parameters,
version). Default DIR: experiments/staging/results. Same arguments, same CSV bytes.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ALGOS = ["ggp", "oggp", "greedy", "all-at-once", "ggp-one-port"]  # the last: ggp with k = min(v1, v2)
RING_SIZES = [8, 32]
STORAGE_NODES = 8
NODE_BANDWIDTHS = [1e6, 2.5e6, 5e6, 1e7, 2.5e7]  # b1, bytes/s; the platform's links: 4.5 to 41 MB/s
BACKBONE = 1e8                                   # bb, bytes/s
BETA = 0.01                                      # setup delay per step, s
REBUILD_SIZES = [4, 8, 16]                       # a ring of 8 rebuilt on this many processors


def simulate(ringsim, config):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(config, f)
    try:
        p = subprocess.run([ringsim, "simulate", f.name, "--no-baseline"], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        sys.exit(f"ringsim simulate failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def base(ring_size, seed):
    return {"ratio": 1.0, "iterations": 2, "ring": {"size": ring_size, "seed": seed},
            "traces": {"seed": seed}}


def kpbs_options(algo):
    if algo == "ggp-one-port":
        return {"beta": BETA, "algorithm": "ggp", "k": 10**6}  # clipped to min(v1, v2) by the planner's eta
    return {"beta": BETA, "algorithm": algo}


def row(m):
    return [m["k"], repr(m["lower_bound"]), repr(m["planned"]), repr(m["simulated"]),
            repr(m["planned"] / m["lower_bound"]), repr(m["simulated"] / m["planned"]), len(m["planned_steps"]),
            m["columns_over_network"], m["columns_local"]]


COLUMNS = ["k", "eta", "planned", "simulated", "planned_over_eta", "simulated_over_planned", "steps",
           "columns_over_network", "columns_local"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ringsim", default=os.path.join(ROOT, "build", "ringsim"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    seeds = list(range(1, a.seeds + 1))
    t0 = time.time()
    pool = ThreadPoolExecutor(a.jobs)

    staging_jobs = [(q, b1, s, algo) for q in RING_SIZES for b1 in NODE_BANDWIDTHS for s in seeds for algo in ALGOS]

    def staging_run(j):
        q, b1, s, algo = j
        cfg = base(q, s)
        cfg["staging"] = {"nodes": STORAGE_NODES, "node_bandwidth": b1, "backbone_bandwidth": BACKBONE,
                          **kpbs_options(algo)}
        return simulate(a.ringsim, cfg)["staging"]

    rebuild_jobs = [(q, s, algo) for q in REBUILD_SIZES for s in seeds for algo in ALGOS]

    def rebuild_run(j):
        q, s, algo = j
        cfg = base(8, s)
        cfg["rebuild"] = [{"after": 1, "size": q, "seed": 100 + s, **kpbs_options(algo)}]
        return simulate(a.ringsim, cfg)["rebuilds"][0]

    staged = list(pool.map(staging_run, staging_jobs))
    rebuilt = list(pool.map(rebuild_run, rebuild_jobs))
    with open(os.path.join(a.out, "staging.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["ring_size", "node_bandwidth", "seed", "algorithm"] + COLUMNS)
        for (q, b1, s, algo), m in zip(staging_jobs, staged):
            w.writerow([q, b1, s, algo] + row(m))
    with open(os.path.join(a.out, "rebuild.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["old_size", "new_size", "seed", "algorithm"] + COLUMNS)
        for (q, s, algo), m in zip(rebuild_jobs, rebuilt):
            w.writerow([8, q, s, algo] + row(m))
    ver = subprocess.run([a.ringsim, "--version"], capture_output=True, text=True).stdout.strip()
    summary = {"ringsim_version": ver, "platform": "platforms/paper2004_tiers90.xml", "ring_sizes": RING_SIZES,
               "storage_nodes": STORAGE_NODES, "node_bandwidths": NODE_BANDWIDTHS, "backbone_bandwidth": BACKBONE,
               "beta": BETA, "rebuild_sizes": REBUILD_SIZES, "seeds": seeds, "rows": 1000, "columns": 1000,
               "network_model": "linear"}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(f"staging experiment: {len(staging_jobs) + len(rebuild_jobs)} simulations, wall {time.time() - t0:.1f} s, "
          f"CSV in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
