#!/usr/bin/env bash
# ringsim's main job, end to end: builds if needed, then reproduces the HiPC 2004 experiment
# (Figures 2, 3 and 4) with the quick sweeps (a few minutes on 2 cores), plans the
# redistribution examples of the paper's four cases, stages and rebuilds with KPBS, sweeps "when to
# redistribute" on synthetic load and on real PlanetLab days (when ../shared/reference/planetlab is
# beside the repository) and pictures one adaptive run. Outputs in out/.
#   tools/run-example.sh          quick sweeps (default)
#   tools/run-example.sh --full   the full sweeps behind the studies' figures and results (the
#                                 real-load study alone takes about 20 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh >/dev/null
R=build/ringsim
JOBS=$(nproc)
QUICK=--quick; SUFFIX=-quick
[ "${1:-}" = "--full" ] && { QUICK=; SUFFIX=; }
mkdir -p out/examples out/figures

echo "== The four redistribution cases (experiments/redistribution/): plan, bound, optimality"
for f in experiments/redistribution/*.json; do
  name=$(basename "$f" .json)
  $R redistribute "$f" >"out/examples/$name.plan.json"
  /usr/bin/python3 - "$f" "out/examples/$name.plan.json" <<'PY'
import json, sys
inst, plan = (json.load(open(p)) for p in sys.argv[1:3])
kind = "bidirectional" if inst.get("bidirectional") else "unidirectional"
print(f"  {sys.argv[1].split('/')[-1]:24s} {kind:14s} n={len(inst['loads']):<3d} {plan['algorithm']:18s} "
      f"time={plan['time']:<6g} lower_bound={plan['lower_bound']:<6g} optimal={str(plan['optimal']).lower()}")
PY
done

echo "== Figure 2: speed traces (traces/fig2/, SimGrid profiles)"
$R traces experiments/hipc2004/fig2-traces.json -o traces/fig2
/usr/bin/python3 experiments/hipc2004/plot_paper_figures.py traces traces/fig2/traces.csv out/figures/fig2-speed-traces.png

for fig in fig3-ring8 fig4-ring32; do
  echo "== ${fig}: sweep (${JOBS} jobs) ${QUICK}"
  $R run "experiments/hipc2004/$fig.json" $QUICK --jobs "$JOBS" --out "out/$fig$SUFFIX"
  /usr/bin/python3 experiments/hipc2004/plot_paper_figures.py "${fig%%-*}" "out/$fig$SUFFIX/runs.csv" "out/figures/$fig$SUFFIX.png"
  /usr/bin/python3 - "out/$fig$SUFFIX/runs.csv" <<'PY'
import csv, sys
from collections import defaultdict
t = defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    if r["normalized_time"]:
        t[(r["scheme"], float(r["ratio"]))].append(float(r["normalized_time"]))
schemes = ["none", "once", "every-20", "every-10", "every-5"]
ratios = sorted({k[1] for k in t})
print("  mean normalized time   " + "".join(f"{s:>10s}" for s in schemes))
for q in ratios:
    print(f"  ratio {q:<16g}" + "".join(f"{sum(t[(s, q)]) / len(t[(s, q)]):10.3f}" if t[(s, q)] else f"{'-':>10s}" for s in schemes))
PY
done
SEEDS=2; [ -z "$QUICK" ] && SEEDS=5
echo "== Staging the matrix from a storage cluster and rebuilding the ring (KPBS schedules), $SEEDS seeds"
/usr/bin/python3 experiments/staging/run_staging_experiment.py --ringsim "$R" --seeds "$SEEDS" --jobs "$JOBS" --out out/staging
/usr/bin/python3 experiments/staging/plot_staging.py --results out/staging --out out/figures
/usr/bin/python3 - out/staging/staging.csv <<'PY'
import csv, statistics, sys
from collections import defaultdict
t = defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    t[(int(r["ring_size"]), r["algorithm"])].append(r)
print("  ring  algorithm      k    eta (s)  planned (s)  simulated (s)   (means over b1 and seeds)")
for (q, a), rows in sorted(t.items()):
    m = lambda key: statistics.mean(float(r[key]) for r in rows)
    print(f"  {q:<5d} {a:13s} {m('k'):4.1f} {m('eta'):9.2f} {m('planned'):12.2f} {m('simulated'):14.2f}")
PY
echo "== When to redistribute: fixed schemes, the policies and hindsight on three trace families ${QUICK}"
when_args=()
for family in paper-traces random-walk on-off; do
  $R run "experiments/when/$family.json" $QUICK --jobs "$JOBS" --out "out/when-$family$SUFFIX" >/dev/null
  when_args+=("$family=out/when-$family$SUFFIX/runs.csv")
done
/usr/bin/python3 experiments/when/plot_when.py "out/figures/when-to-redistribute$SUFFIX.png" "out/when-table$SUFFIX.md" \
  "${when_args[@]}" | grep -E "^(###|adaptive within|rent-or-buy within|adaptive-lasting within)"
PLANETLAB=../shared/reference/planetlab
if [ -d "$PLANETLAB" ]; then
  echo "== When to redistribute under real load: PlanetLab days, the recommended policy (experiments/real-load/) ${QUICK}"
  real_out=out/real-load$SUFFIX
  [ -f "$real_out/BUILD" ] && [ "$(cat "$real_out/BUILD")" != "$($R --version)" ] && mv "$real_out" "$real_out.$(date +%s)"
  experiments/real-load/run.sh $QUICK --jobs "$JOBS" --ringsim "$R" --out "$real_out" |
    awk 'NR >= 3 && /^Host load:/ { stop = 1 } NR >= 3 && NF && !stop'
  awk '/^Host load:/ { stop = 1 } !stop && /^\| (scheme|`markov-rule`|`best-period`|`hindsight`) /' "$real_out/policies.md"
else
  echo "== When to redistribute under real load: skipped ($PLANETLAB, the PlanetLab days, is not beside the repository)"
fi
echo "== One run of the adaptive policy, pictured (ring of 8, ratio 1, the paper's traces)"
mkdir -p out/one-run
printf '%s' '{"platform": "../../platforms/paper2004_tiers90.xml", "ring": {"size": 8, "seed": 3}, "ratio": 1,
 "scheme": "adaptive", "targets": "measured"}' >out/one-run/config.json
$R simulate out/one-run/config.json --out out/one-run/result.json --iterations-csv out/one-run/iterations.csv \
  --traces-dir out/one-run/traces
/usr/bin/python3 experiments/when/plot_run.py --dir out/one-run --output out/figures/one-run-adaptive.png
echo "figures in out/figures/, sweep results in out/*/runs.csv"
