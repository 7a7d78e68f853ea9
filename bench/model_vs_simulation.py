#!/usr/bin/python3
"""How far the simulation's model (the planners' costs, each member's computation as it applies its
trace) is from SimGrid, on many platforms and trace sources: for scheme `none` (its simulated
makespan over the makespan `hindsight`'s model predicts without points) and for `hindsight` (its
points' simulated makespan over their own prediction), the median and the worst of simulated /
predicted per platform and source, how many `hindsight` runs ended above `none` by more than 0.5%,
and in how many the check in the simulation replaced the points by a faster fixed scheme.

  bench/model_vs_simulation.py path/to/ringsim [--seeds N] [--ring N] [--platforms a.xml,b.xml] [--keep DIR]
                                [--cfg NAME:VALUE ...]

Platforms (default): the tests' SimGrid feature platforms that simulate, the shipped Tiers and
paper platforms, two sites of 6 hosts each over a 100 MBps / 20 ms WAN with a 4-host zone behind a
10 MBps uplink (tests/platforms/two_sites_uplink.xml), and 12 hosts behind one 10 MBps link (generated). Sources:
a random walk by iteration, on/off load placed at nominal times (time-indexed), and FTA outages
(time-indexed, 5% of the peak). Ratios 0.1, 1 and 10; seeds 1..N (default 3); rings of 6 (4 on smaller platforms).
Prints one CSV row per platform and source, then the medians and worsts over all of them. With
--keep DIR the sweeps stay in DIR (one folder per platform and source), to look into a row; each
--cfg is passed to the sweeps as SimGrid's option (network/optim:Full, for instance).
"""
import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PLATFORMS = ["tests/platforms/two_clusters.xml", "tests/platforms/torus.xml", "tests/platforms/fat_tree.xml",
                     "tests/platforms/dragonfly.xml", "tests/platforms/zones_hierarchy.xml",
                     "tests/platforms/split_duplex.xml", "platforms/tiers37.xml", "platforms/paper2004_tiers90.xml",
                     "docs/examples/my-platform.xml", "tests/platforms/two_sites_uplink.xml"]

ONE_LINK = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-11" speed="1Gf,2Gf" bw="10MBps" lat="1ms" bb_bw="10MBps" bb_lat="1ms"
           sharing_policy="SHARED" bb_sharing_policy="SHARED"/>
</platform>
"""




def fta_file(path, nodes, seed):
    """Outages of every node: available 2-8 trace seconds, then unavailable 1-4, over 400 s."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\t"
                "event_stop_time\n")
        e = 0
        for node in nodes:
            t = 0.0
            up = True
            while t < 400.0:
                d = rng.uniform(2, 8) if up else rng.uniform(1, 4)
                e += 1
                f.write(f"{e}\t1\t{node}\t1\tn{node}\t{1 if up else 0}\t{t:.3f}\t{t + d:.3f}\n")
                t += d
                up = not up


def sources(tmp, ring):
    fta = os.path.join(tmp, "outages.tab")
    fta_file(fta, [100 + i for i in range(ring)], 1)
    return {
        "random-walk by iteration": {"source": "random-walk", "placement": "iteration"},
        "on-off by time": {"source": "on-off", "placement": "nominal-time"},
        "FTA outages by time": {"source": "fta", "file": fta, "unavailable_multiplier": 0.05},
    }


def experiment(platform, traces, ring, seeds):
    return {"name": "model-vs-simulation",
            "base": {"platform": platform, "iterations": 40, "rows": 200, "columns": 240, "traces": traces},
            "ring_sizes": [ring], "ratios": [0.1, 1, 10], "schemes": ["none", "hindsight"],
            "seeds": list(range(1, seeds + 1))}


def measure(ringsim, out, exp, cfg=()):
    path = out + ".json"
    with open(path, "w") as f:
        json.dump(exp, f)
    done = subprocess.run([ringsim, "run", path, "--jobs", "2", "--out", out] + [f"--cfg={c}" for c in cfg],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
    none = {(r["ratio"], r["seed"]): float(r["makespan"]) for r in rows if r["scheme"] == "none"}
    figures = {"none": [], "hindsight": [], "above": 0, "replaced": 0}
    for r in rows:
        if r["scheme"] != "hindsight":
            continue
        h = json.load(open(os.path.join(out, "runs", r["run_id"], "result.json")))["hindsight"]
        figures["hindsight"].append(h["simulated_over_predicted"])
        figures["replaced"] += "check" in h and not h["check"]["points_kept"]
        base = none.get((r["ratio"], r["seed"]))
        if base is not None and h["predicted_makespan_without_points"] > 0:
            figures["none"].append(base / h["predicted_makespan_without_points"])
            figures["above"] += float(r["makespan"]) > base * 1.005
    return figures, ""


def worst(values):
    return max(values, key=lambda x: abs(x - 1.0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ringsim")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--ring", type=int, default=6)
    ap.add_argument("--platforms", default="")
    ap.add_argument("--keep", default="")
    ap.add_argument("--cfg", action="append", default=[])
    a = ap.parse_args()
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        tmp = os.path.abspath(a.keep) if a.keep else scratch
        generated = {"one-link-12.xml": ONE_LINK}
        platforms = [os.path.join(ROOT, p) for p in DEFAULT_PLATFORMS]
        for name, text in generated.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
            platforms.append(os.path.join(tmp, name))
        if a.platforms:
            platforms = [os.path.abspath(p) for p in a.platforms.split(",")]
        print("platform,source,runs,none_median,none_worst,hindsight_median,hindsight_worst,hindsight_above_none,"
              "points_replaced")
        all_none, all_hindsight, above, replaced, runs = [], [], 0, 0, 0
        for platform in platforms:
            for label, traces in sources(tmp, a.ring).items():
                out = os.path.join(tmp, f"{os.path.basename(platform)}-{label.replace(' ', '-')}")
                figures, error = measure(a.ringsim, out, experiment(platform, traces, a.ring, a.seeds), a.cfg)
                if figures is None and "does not fit the platform" in error:  # a small platform: a ring of 4
                    figures, error = measure(a.ringsim, out + "-4", experiment(platform, traces, 4, a.seeds), a.cfg)
                name = os.path.basename(platform)
                if figures is None or not figures["hindsight"]:
                    print(f"{name},{label},0,,,,,,\"{error or 'no hindsight run'}\"")
                    continue
                n, h = figures["none"], figures["hindsight"]
                print(f"{name},{label},{len(h)},{statistics.median(n):.4f},{worst(n):.4f},"
                      f"{statistics.median(h):.4f},{worst(h):.4f},{figures['above']},{figures['replaced']}")
                sys.stdout.flush()
                all_none += n
                all_hindsight += h
                above += figures["above"]
                replaced += figures["replaced"]
                runs += len(h)
        if runs:
            print(f"all,all,{runs},{statistics.median(all_none):.4f},{worst(all_none):.4f},"
                  f"{statistics.median(all_hindsight):.4f},{worst(all_hindsight):.4f},{above},{replaced}")


if __name__ == "__main__":
    main()
