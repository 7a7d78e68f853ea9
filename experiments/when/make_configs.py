#!/usr/bin/python3
"""The when study's sweeps, written as `ringsim run` configs into OUTDIR (run.sh runs them):

  criteria/FAMILY.json            each family of this folder (rings of 8 and 32, nine ratios), seeds
                                  1-8, with every fixed scheme, criterion and policy of the comparison
                                  (when_criteria.py COMPARISON), hindsight and hindsight-targets
  criteria/on-off-online-optimal.json
                                  online-optimal under on/off load, rings of 8, seeds 1-8
  criteria/seeds-9-16/*.json      the same on seeds 9-16, for the families the policies were not
                                  held out of (HELD_OUT are measured on seeds 1-8 only)
  information.json                on-off-information.json (seeds 17-56) with the policies the late
                                  rule is compared with (LATE_RULE_POLICIES)

Each keeps a `quick` section (a ring of 4, whose on/off recursions over 2^4 joint states take
milliseconds; one ratio, one seed) for `run.sh --quick`. The platform's
path is made absolute, so that the configs run from OUTDIR.
  usage: make_configs.py OUTDIR"""
import copy
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import when_criteria  # noqa: E402  (experiments/when/when_criteria.py)

HELD_OUT = ["weibull-on-off", "hyperexponential-on-off"]
LATE_RULE_POLICIES = ["adaptive-lasting", "forecast-lasting", "markov-rule"]


def load(name):
    with open(os.path.join(HERE, name + ".json")) as f:
        exp = json.load(f)
    exp["base"]["platform"] = os.path.normpath(os.path.join(HERE, exp["base"]["platform"]))
    return exp


def write(outdir, relative, exp, seeds, quick_ratio):
    exp = copy.deepcopy(exp)
    exp["seeds"] = seeds
    exp["quick"] = {"ring_sizes": [4], "ratios": [quick_ratio], "seeds": seeds[:1]}
    path = os.path.join(outdir, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(json.dumps(exp, indent=1) + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    families = []
    for path in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        exp = load(os.path.basename(path)[:-len(".json")])
        if exp.get("ring_sizes") == [8, 32] and len(exp.get("ratios", [])) == 9:
            exp["schemes"] = when_criteria.COMPARISON + ["hindsight-targets"]
            families.append((os.path.basename(path)[:-len(".json")], exp))
    for seeds, folder in ((list(range(1, 9)), "criteria"), (list(range(9, 17)), "criteria/seeds-9-16")):
        for name, exp in families:
            if folder == "criteria" or name not in HELD_OUT:
                write(out, f"{folder}/{name}.json", exp, seeds, 1)
        write(out, f"{folder}/on-off-online-optimal.json", load("on-off-online-optimal"), seeds, 1)
    information = load("on-off-information")
    information["schemes"] += [p for p in LATE_RULE_POLICIES if p not in information["schemes"]]
    write(out, "information.json", information, information["seeds"], 0.3)


if __name__ == "__main__":
    main()
