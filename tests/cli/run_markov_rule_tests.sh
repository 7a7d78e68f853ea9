#!/usr/bin/env bash
# Scheme markov-rule in the simulation. On geometric on/off load (two levels, a Markov chain) it
# plays the late rule once the snapshots show two levels: its looks are all-gathers, every point it
# carries out balances for speeds of its own (a joint state's, or the loads it took over with), and
# the run completes with every member agreeing (the simulation checks). On a ring of 9, where the
# recursion is not run, and on a load that is not two-level from its first snapshot on, it is
# forecast-lasting: the same run, point for point. Each point's decided_by names the rule.
set -u
RINGSIM=${1:?usage: run_markov_rule_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# config NAME SCHEME RING ITERATIONS RATIO SEED TRACES_JSON
config() {
  $PY - "$@" "$PLATFORM" <<'PYEOF'
import json, sys
name, scheme, ring, n, ratio, seed, traces, platform = sys.argv[1:9]
cfg = {"platform": platform, "ring": {"size": int(ring), "seed": int(seed)}, "rows": 1000, "columns": 40 * int(ring),
       "iterations": int(n), "ratio": float(ratio), "scheme": scheme, "targets": "measured", "network_model": "linear",
       "decision_flops": 1e6, "report_bytes": 16, "baseline": False, "traces": json.loads(traces)}
json.dump(cfg, open(name + ".json", "w"))
PYEOF
}

simulate() {
  "$RINGSIM" simulate "$1.json" --out "$1.result.json" 2>"$1.log" || { echo "FAIL $1: exit $?"; tail -3 "$1.log"; fail=1; return 1; }
}

# On/off: the rule's own points and looks.
onoff='{"source": "on-off", "available": 10, "loaded": 6, "load_factor": 0.25, "seed": 4}'
for c in "4 40 1 2" "6 30 10 3"; do
  set -- $c
  name=onoff$1
  config "$name" markov-rule "$1" "$2" "$3" "$4" "$onoff"
  simulate "$name" || continue
  $PY - "$name" <<'PYEOF' || fail=1
import json, sys
name = sys.argv[1]
r = json.load(open(name + ".result.json"))
points = r["points"]
done = [p for p in points if p["performed"]]
gathered = [p for p in points if p["reports"] == "gathered"]
# Before the snapshots show two levels forecast-lasting answers; from the rule's first move on,
# every move balances for the rule's own speeds.
kinds = [p["balanced_for"] for p in done]
first = kinds.index("policy") if "policy" in kinds else len(kinds)
# Each point says which rule decided it: forecast-lasting's until the rule's first move, the
# late rule's for every move balanced for the rule's own speeds.
rules = [p["decided_by"] for p in done]
ok = len(done) == r["redistributions"] and first < len(kinds) and len(gathered) >= 1 \
     and all(k == "policy" for k in kinds[first:]) and all(d == "late rule" for d in rules[first:]) \
     and all(d.startswith("forecast-lasting: ") for d in rules[:first])
print(f"{'ok' if ok else 'FAIL'} {name}: {len(done)} moves, from move {first + 1} on balanced for the rule's own speeds; "
      f"{len(gathered)} looks; makespan {r['makespan']:.6g} s")
sys.exit(0 if ok else 1)
PYEOF
done

# Where the rule does not apply: the same run as forecast-lasting.
same_as_forecast_lasting() {
  local name=$1 ring=$2 iters=$3 ratio=$4 seed=$5 traces=$6
  config "$name-markov" markov-rule "$ring" "$iters" "$ratio" "$seed" "$traces"
  config "$name-forecast" forecast-lasting "$ring" "$iters" "$ratio" "$seed" "$traces"
  simulate "$name-markov" && simulate "$name-forecast" || return
  $PY - "$name" <<'PYEOF' || fail=1
import json, sys
name = sys.argv[1]
a, b = (json.load(open(f"{name}-{s}.result.json")) for s in ("markov", "forecast"))
moves = lambda r: [(p["after_iteration"], p["performed"], p["reports"]) for p in r["points"]]
# Every point says forecast-lasting decided it, by the rule forecast-lasting itself names.
said = [p["decided_by"] for p in a["points"]] == ["forecast-lasting: " + p["decided_by"] for p in b["points"]]
ok = a["makespan"] == b["makespan"] and moves(a) == moves(b) and len(moves(a)) >= 1 and said
print(f"{'ok' if ok else 'FAIL'} {name}: markov-rule {a['makespan']:.6g} s, forecast-lasting {b['makespan']:.6g} s, "
      f"{len(moves(a))} decisions alike: {moves(a) == moves(b)}")
sys.exit(0 if ok else 1)
PYEOF
}
same_as_forecast_lasting ring9 9 30 10 1 "$onoff"
same_as_forecast_lasting walk4 4 30 10 2 '{"source": "random-walk", "seed": 5}'
exit $fail
