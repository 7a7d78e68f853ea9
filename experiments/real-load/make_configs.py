#!/usr/bin/env python3
"""Writes the study's experiment configs (configs/*.json): one sweep per platform, PlanetLab day and
time scale, each over rings 8, 16 and 32, ratios 0.1, 1 and 10, seeds 1 and 2, the paper's fixed
periods, every policy and hindsight; and one per host-load realization and time scale on three
sites (rings 8 and 24). Run once; the configs are committed and `run.sh` reads them."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORMS = {  # name: (file, what it is)
    "paper": ("../../../platforms/paper2004_tiers90.xml", "the 2004 paper's 90-host platform"),
    "clusters": ("../../../tests/platforms/cluster_1000.xml",
                 "four clusters of 250 hosts of different speeds, each behind its backbone, joined by zone routes"),
}
DAYS = ["20110303", "20110306", "20110309"]
# Seconds of a 300 s-sample day each iteration covers: a sample lasts a third of, one and three iterations.
SCALES = {"third": 900, "one": 300, "three": 100}
FIXED = ["none", "once", "every-20", "every-10", "every-5", "every-2"]
POLICIES = ["markov-rule", "best-period", "adaptive-lasting", "forecast-lasting", "adaptive", "rent-or-buy", "adaptive-gather",
            "forecast", "stop-at-rise", "meta-balancer", "boulmier"]


def experiment(platform, day, scale):
    path, what = PLATFORMS[platform]
    per_iteration = SCALES[scale]
    return {
        "name": f"real-load-{platform}-{day}-{scale}",
        "description": f"When to redistribute on real CPU load: PlanetLab day {day} (CoMon utilization, 300 s "
                       f"samples, each member its own VM's series from a random time of the day, available "
                       f"share max(0.05, 1 - u)), {per_iteration} s of it per iteration (a sample lasts "
                       f"{ {'third': 'a third of an', 'one': 'one', 'three': 'three'}[scale] } iteration"
                       f"{'s' if scale == 'three' else ''}); {what}; 100 iterations, 1000x1000 matrix, measured targets",
        "base": {
            "platform": path, "rows": 1000, "columns": 1000, "iterations": 100, "targets": "measured",
            "network_model": "linear", "decision_flops": 1e6, "report_bytes": 16,
            "traces": {"source": "planetlab", "set": f"../../../../shared/reference/planetlab/{day}",
                       "conversion": "dedicated", "per_iteration": per_iteration, "offset": "random"},
        },
        "ring_sizes": [8, 16, 32],
        "ratios": [0.1, 1, 10],
        "schemes": FIXED + POLICIES + ["hindsight"],
        "algorithms": ["auto"],
        "seeds": [1, 2],
        "repetitions": 1,
        "quick": {"ring_sizes": [8], "ratios": [1], "seeds": [1],
                  "schemes": ["none", "every-10", "every-2", "markov-rule", "best-period", "adaptive", "hindsight"]},
    }


# Host load of the kind Dinda measured (hostload.py: 24 hosts, 2 hours of 10 s samples, realization R
# written to load/hostload-R.csv with seed R), on three sites behind shared uplinks: a family no
# policy was refined on.
HOST_LOAD_PLATFORM = ("../../../platforms/three_sites.xml",
                      "three sites of 12 hosts (1, 2 and 0.7 Gflop/s), each behind its own shared 100 Mbit/s uplink")
REALIZATIONS = [1, 2]
HOST_LOAD_SCALES = {"third": 30, "one": 10, "three": 10 / 3}


def host_load_experiment(realization, scale):
    e = experiment("paper", DAYS[0], scale)
    path, what = HOST_LOAD_PLATFORM
    per_iteration = HOST_LOAD_SCALES[scale]
    e["name"] = f"real-load-sites-hostload{realization}-{scale}"
    e["description"] = (f"When to redistribute on host load: realization {realization} of hostload.py (1-minute load "
                        f"averages of 24 hosts, 10 s samples, epochal and self-similar as Dinda measured; each member "
                        f"its own host's series from a random time, available share max(0.05, 1 / (1 + load))), "
                        f"{per_iteration:.3g} s of it per iteration; {what}; 100 iterations, 1000x1000 matrix, "
                        f"measured targets")
    e["base"]["platform"] = path
    e["base"]["traces"] = {"source": "utilization-csv", "file": f"../load/hostload-{realization}.csv",
                           "value_column": "load1", "conversion": "load", "per_iteration": per_iteration,
                           "offset": "random"}
    e["ring_sizes"] = [8, 24]
    e["quick"] = {"ring_sizes": [8], "ratios": [1], "seeds": [1], "schemes": ["none", "every-10", "best-period"]}
    return e


def write(name, e):
    with open(os.path.join(HERE, "configs", f"{name}.json"), "w") as f:
        json.dump(e, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(os.path.join(HERE, "configs"), exist_ok=True)
    for platform in PLATFORMS:
        for day in DAYS:
            for scale in SCALES:
                write(f"{platform}-{day}-{scale}", experiment(platform, day, scale))
    os.makedirs(os.path.join(HERE, "load"), exist_ok=True)
    for realization in REALIZATIONS:
        subprocess.run([sys.executable, os.path.join(HERE, "hostload.py"), os.path.join(HERE, "load", f"hostload-{realization}.csv"),
                        "--seed", str(realization), "--machines", "24", "--hours", "2"], check=True)
        for scale in SCALES:
            write(f"sites-hostload{realization}-{scale}", host_load_experiment(realization, scale))


if __name__ == "__main__":
    main()
