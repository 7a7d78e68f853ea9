#!/usr/bin/env python3
"""Writes the study's experiment configs (configs/*.json): one sweep per platform, PlanetLab day and
time scale, each over rings 8, 16 and 32, ratios 0.1, 1 and 10, seeds 1 and 2, the paper's fixed
periods, every policy and hindsight. Run once; the configs are committed and `run.sh` reads them."""
import json
import os

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
POLICIES = ["markov-rule", "adaptive-lasting", "forecast-lasting", "adaptive", "rent-or-buy", "adaptive-gather",
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
                  "schemes": ["none", "every-10", "every-2", "markov-rule", "adaptive", "hindsight"]},
    }


def main():
    os.makedirs(os.path.join(HERE, "configs"), exist_ok=True)
    for platform in PLATFORMS:
        for day in DAYS:
            for scale in SCALES:
                e = experiment(platform, day, scale)
                with open(os.path.join(HERE, "configs", f"{platform}-{day}-{scale}.json"), "w") as f:
                    json.dump(e, f, indent=1)
                    f.write("\n")


if __name__ == "__main__":
    main()
