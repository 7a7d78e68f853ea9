#!/usr/bin/env python3
"""Writes a CSV of host load averages by time (time,machine,load1) of the kind Dinda measured on
Unix hosts (P. A. Dinda, "The Statistical Properties of Host Load", Scientific Programming 7(3-4),
1999): each host has its own mean load, spread over an order of magnitude; its load is epochal
(its mean holds for an epoch, then jumps), epochs last a heavy-tailed time (Pareto), and within an
epoch the load is self-similar (here a sum of first-order autoregressions at time constants
growing by a factor of 4, which spreads its variance over time scales as a Hurst parameter near
0.8 does); the value written is the 1-minute load average, an exponential average of the run
queue. A family of its own: no policy of ringsim was refined on it.
    usage: hostload.py OUT.csv [--seed S] [--machines M] [--hours H] [--period SECONDS]"""
import argparse
import math
import os
import random
import sys
import tempfile


def host_series(rng, samples, period):
    mean_level = min(3.0, max(0.02, rng.lognormvariate(math.log(0.4), 0.8)))
    taus = [1, 4, 16, 64, 256]  # samples
    state = [0.0] * len(taus)
    load_average, out, left, epoch_mean = 0.0, [], 0, mean_level
    smoothing = math.exp(-period / 60.0)  # the 1-minute average's decay per sample
    for _ in range(samples):
        if left <= 0:
            left = int(30 * rng.paretovariate(1.4))  # at least 30 samples
            epoch_mean = mean_level * rng.lognormvariate(0.0, 0.6)
        left -= 1
        noise = 0.0
        for k, tau in enumerate(taus):
            a = math.exp(-1.0 / tau)
            state[k] = a * state[k] + math.sqrt(1 - a * a) * rng.gauss(0.0, 1.0)
            noise += state[k]
        run_queue = max(0.0, epoch_mean * (1.0 + 0.35 * noise / math.sqrt(len(taus))))
        load_average = smoothing * load_average + (1 - smoothing) * run_queue if out else run_queue
        out.append(load_average)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--machines", type=int, default=48)
    p.add_argument("--hours", type=float, default=6.0)
    p.add_argument("--period", type=float, default=10.0)
    a = p.parse_args()
    if a.machines < 1 or a.hours <= 0 or a.period <= 0:
        print("hostload.py: --machines, --hours and --period must be positive", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    samples = int(a.hours * 3600 / a.period)
    rows = ["time,machine,load1"]
    for m in range(a.machines):
        for i, load in enumerate(host_series(rng, samples, a.period)):
            rows.append(f"{i * a.period:g},host{m:03d},{load:.3f}")
    folder = os.path.dirname(os.path.abspath(a.out))
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as f:
        f.write("\n".join(rows) + "\n")
    os.chmod(f.name, 0o644)
    os.replace(f.name, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
