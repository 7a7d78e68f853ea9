#!/usr/bin/env bash
# Regenerates the redistribution study (experiments/README.md has the form): each instance of this
# folder planned by `ringsim redistribute` (OUT/<instance>.plan.json), the table of plans.md (the
# algorithm, time, lower bound and optimality of each), and BUILD, naming the build they come from.
#   usage: experiments/redistribution/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# The instances are small: --quick plans the same ones, into DIR (required then); --jobs is unused.
. "$(dirname "$0")/../study.sh"
study_begin "$@"
table=$OUT/plans.md.tmp
{
  echo "# The paper's four redistribution cases and the general one: plans"
  echo
  echo "| instance | direction | processors | algorithm | time | lower bound | optimal |"
  echo "|---|---|---|---|---|---|---|"
} >"$table"
for instance in "$HERE"/*.json; do
  name=$(basename "$instance" .json)
  "$RINGSIM" redistribute "$instance" >"$OUT/$name.plan.json"
  /usr/bin/python3 - "$instance" "$OUT/$name.plan.json" >>"$table" <<'PY'
import json, os, sys
instance, plan = (json.load(open(p)) for p in sys.argv[1:3])
direction = "bidirectional" if instance.get("bidirectional") else "unidirectional"
print(f"| `{os.path.basename(sys.argv[1])}` | {direction} | {len(instance['loads'])} | `{plan['algorithm']}` | "
      f"{plan['time']:g} | {plan['lower_bound']:g} | {str(plan['optimal']).lower()} |")
PY
done
mv "$table" "$OUT/plans.md"
study_end
