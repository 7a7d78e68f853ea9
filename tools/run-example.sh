#!/usr/bin/env bash
# ringsim's main job, end to end: builds if needed, then runs the default examples.
# For now: the four redistribution cases of the HiPC 2004 paper on the instances in
# experiments/redistribution/, each planned, checked and summarized.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh >/dev/null
out=out/examples
mkdir -p "$out"
for f in experiments/redistribution/*.json; do
  name=$(basename "$f" .json)
  build/ringsim redistribute "$f" >"$out/$name.plan.json"
  /usr/bin/python3 - "$f" "$out/$name.plan.json" <<'PY'
import json, sys
inst, plan = (json.load(open(p)) for p in sys.argv[1:3])
kind = "bidirectional" if inst.get("bidirectional") else "unidirectional"
print(f"{sys.argv[1]:45s} {kind:14s} n={len(inst['loads']):<3d} algorithm={plan['algorithm']:18s} "
      f"time={plan['time']:<7g} lower_bound={plan['lower_bound']:<7g} optimal={str(plan['optimal']).lower():5s} "
      f"blocks={len(plan['transfers'])}")
PY
done
echo "plans written to $out/"
