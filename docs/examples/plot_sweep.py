#!/usr/bin/python3
"""Mean normalized time against the ratio, one line per scheme and ring size, from a sweep's
runs.csv:  plot_sweep.py out/my-sweep/runs.csv my-sweep.png  (Debian: python3-matplotlib)."""
import csv
import sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

runs_csv, figure = sys.argv[1], sys.argv[2]
values = defaultdict(list)
for row in csv.DictReader(open(runs_csv)):
    values[(int(row["ring_size"]), row["scheme"], float(row["ratio"]))].append(float(row["normalized_time"]))
fig, ax = plt.subplots(figsize=(6, 4))
for size, scheme in sorted({(k[0], k[1]) for k in values}):
    ratios = sorted(k[2] for k in values if k[:2] == (size, scheme))
    means = [sum(values[(size, scheme, r)]) / len(values[(size, scheme, r)]) for r in ratios]
    ax.plot(ratios, means, marker="o", label=f"{scheme}, ring of {size}")
ax.set_xscale("log")
ax.set_xlabel("ratio (column update time / column transfer time)")
ax.set_ylabel("normalized time (vs never redistributing)")
ax.legend(fontsize="small")
fig.tight_layout()
fig.savefig(figure, dpi=100)
print(f"{figure}: {len(values)} points")
