#!/usr/bin/env bash
# One meaning of `ratio` (docs/configs.md): whichever way the ring is chosen (given, drawn at random,
# or by the planner), the same hosts and ratio give the same work per column, and every result
# reports the ratio realized on its ring, equal to the one asked for.
set -u
RINGSIM=${1:?usage: run_ratio_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"

# simulate NAME RING_JSON RATIO: one short run on tiers37, its result in $tmp/NAME.json
simulate() {
  printf '{"platform": "%s/platforms/tiers37.xml", "ring": %s, "ratio": %s, "scheme": "none", "iterations": 3}' \
    "$ROOT" "$2" "$3" >"$tmp/$1-config.json"
  "$RINGSIM" simulate "$tmp/$1-config.json" --no-baseline >"$tmp/$1.json" 2>"$tmp/$1.err" \
    || { echo "FAIL $1: simulate failed"; cat "$tmp/$1.err"; fail=1; }
}
hosts_of() { $PY -c 'import json,sys; print(json.dumps({"selection": "hosts", "hosts": json.load(open(sys.argv[1]))["ring"]}))' "$1"; }

for ratio in 0.01 1 100; do
  # The platform's routes: the same hosts by hand then run on the same neighbour paths.
  simulate "planner-$ratio" '{"selection": "planner", "method": "greedy", "routing": "platform"}' "$ratio"
  # The free mode imposes the planner's widest paths, which may differ from the platform's routes:
  # the work per column follows those paths, and the ratio realized is still the one asked for.
  simulate "free-$ratio" '{"selection": "planner", "method": "greedy", "routing": "free"}' "$ratio"
  simulate "planner-hosts-$ratio" "$(hosts_of "$tmp/planner-$ratio.json")" "$ratio"
  simulate "random-$ratio" '{"selection": "random", "size": 5, "seed": 3}' "$ratio"
  simulate "random-hosts-$ratio" "$(hosts_of "$tmp/random-$ratio.json")" "$ratio"
  $PY - "$ratio" "$tmp" <<'PY' || fail=1
import json, sys
ratio, tmp = float(sys.argv[1]), sys.argv[2]
r = {k: json.load(open(f"{tmp}/{k}-{sys.argv[1]}.json")) for k in ("planner", "planner-hosts", "free", "random", "random-hosts")}
for chosen, given in (("planner", "planner-hosts"), ("random", "random-hosts")):
    a, b = r[chosen]["flops_per_column"], r[given]["flops_per_column"]
    assert r[chosen]["ring"] == r[given]["ring"]
    assert abs(a - b) <= 1e-12 * b, f"ratio {ratio}: {chosen} ring gets {a} flop per column, the same hosts by hand {b}"
for k, v in r.items():
    assert abs(v["realized_ratio"] - ratio) <= 1e-9 * ratio, f"{k}: realized ratio {v['realized_ratio']} for {ratio}"
for k in ("planner", "free"):
    p = r[k]
    assert 1 <= p["planned_ratio_rounds"] <= 8 and p["planned_ratio_converged"] in (True, False), p["planned_ratio_rounds"]
    assert r["planner"]["ring_routing"] == "platform" and r["free"]["ring_routing"] == "free"
p = r["planner"]
print(f"ratio {ratio}: planner ring of {len(p['ring'])} after {p['planned_ratio_rounds']} plans "
      f"(converged {p['planned_ratio_converged']}), {p['flops_per_column']:.6g} flop per column as by hand")
PY
done
exit $fail
