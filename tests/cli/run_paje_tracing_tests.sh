#!/usr/bin/env bash
# Paje tracing, each trace read back with Debian's pajeng (pj_dump): the paper's
# platform and the platform kinds the tests use; SimGrid 3.32's limits worked around (Floyd zones'
# topology) or refused with one line (split-duplex <cluster>, Dijkstra zones, actors on profiled
# hosts without tracing/platform), no trace left behind by a refused run; traced sweeps.
set -u
RINGSIM=$(realpath "${1:?usage: run_paje_tracing_tests.sh path/to/ringsim}")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
command -v pj_dump >/dev/null || { echo "FAIL pj_dump not installed (Debian package pajeng; tools/install-deps.sh)"; exit 1; }
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
FACTOR='{"source": "factor", "windows": [[2, 3], [5, 6]]}'
config() {  # config FILE PLATFORM SIZE [TRACES]
  local traces=${4:-$FACTOR}
  echo "{\"platform\": \"$2\", \"ring\": {\"size\": $3, \"seed\": 1}, \"ratio\": 1, \"iterations\": 8, \"rows\": 100,
   \"columns\": 100, \"scheme\": \"every-3\", \"traces\": $traces}" >"$1"
}
# check_trace NAME TRACE RESULT WANT...: pj_dump reads it; it holds each wanted record kind, and the
# application's phases end at the run's makespan (the run's own trace, not its baseline's).
check_trace() {
  local name=$1 trace=$2 result=$3; shift 3
  pj_dump "$trace" >"$name.dump" 2>"$name.pjerr" || { echo "FAIL $name: pj_dump cannot read the trace"; head -3 "$name.pjerr"; fail=1; return; }
  $PY - "$name.dump" "$result" "$name" "$@" <<'PY' || fail=1
import json, sys
dump, result, name, wanted = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rows = [[f.strip() for f in l.split(",")] for l in open(dump) if l.strip()]
kinds = {(r[0], r[2]) for r in rows if len(r) > 2}
for w in wanted:
    kind, typ = w.split(":")
    assert (kind, typ) in kinds, f"{name}: no {kind} of type {typ} in the trace ({sorted(kinds)[:12]})"
phases = [r for r in rows if r[0] == "State" and r[2] == "ringsim_phase"]
r = json.load(open(result))
if phases:
    end = max(float(p[4]) for p in phases)
    assert abs(end - r["makespan"]) <= 1e-5 * max(1.0, r["makespan"]), (name, end, r["makespan"])
    values = {p[7] for p in phases}
    assert {"compute", "border", "wait"} <= values, (name, values)
    if r["redistribution_points"]:
        assert {"reports", "decision"} <= values, (name, values)
    members = {p[1] for p in phases}
    assert members == set(r["ring"]), (name, members, r["ring"])
PY
}

# 1. The paper's platform: tracing alone (ringsim turns tracing/platform on), with actors, with
#    resource usage; the baseline (another simulation) does not overwrite the run's trace.
config paper.json "$ROOT/platforms/paper2004_tiers90.xml" 5
"$RINGSIM" simulate paper.json --cfg=tracing:yes --cfg=tracing/filename:paper.trace >paper.out 2>paper.err \
  || { echo "FAIL paper: tracing:yes"; cat paper.err; fail=1; }
check_trace paper paper.trace paper.out "Container:HOST" "Container:LINK" "State:ringsim_phase" "Variable:speed" "Variable:speed_multiplier"
[ ! -e paper.trace.part ] || { echo "FAIL paper: a partial trace is left"; fail=1; }
$PY -c 'import json,sys; o=json.load(open(sys.argv[1]))["simgrid_options"]; assert o["tracing"]=="1" and o["tracing/platform"]=="1" and o["tracing/filename"]=="paper.trace", o' paper.out \
  || { echo "FAIL paper: the tracing options in force are not reported"; fail=1; }
"$RINGSIM" simulate paper.json --no-baseline --cfg=tracing:yes --cfg=tracing/actor:yes --cfg=tracing/filename:actor.trace >actor.out 2>actor.err \
  || { echo "FAIL paper: tracing/actor"; cat actor.err; fail=1; }
check_trace actor actor.trace actor.out "State:ACTOR_STATE" "Container:ACTOR" "State:ringsim_phase"
"$RINGSIM" simulate paper.json --no-baseline --cfg=tracing:yes --cfg=tracing/uncategorized:yes --cfg=tracing/filename:unc.trace >unc.out 2>unc.err \
  || { echo "FAIL paper: tracing/uncategorized"; cat unc.err; fail=1; }
check_trace unc unc.trace unc.out "Variable:speed_used" "Variable:bandwidth_used"
# The config can ask for it too ("simgrid"), and the trace file is where it says.
echo "{\"platform\": \"$ROOT/platforms/paper2004_tiers90.xml\", \"ring\": {\"size\": 4, \"seed\": 2}, \"ratio\": 1, \"iterations\": 6,
  \"rows\": 100, \"columns\": 100, \"scheme\": \"every-2\", \"simgrid\": {\"tracing\": true, \"tracing/filename\": \"cfg.trace\"}}" >cfgtr.json
"$RINGSIM" simulate cfgtr.json >cfgtr.out 2>cfgtr.err || { echo "FAIL tracing from the config"; cat cfgtr.err; fail=1; }
check_trace cfgtr cfg.trace cfgtr.out "State:ringsim_phase"

# 2. Other platform kinds SimGrid 3.32 can trace.
for p in fat_tree dragonfly torus; do
  config $p.json "$ROOT/tests/platforms/$p.xml" 4
  "$RINGSIM" simulate $p.json --no-baseline --cfg=tracing:yes --cfg=tracing/actor:yes --cfg=tracing/filename:$p.trace >$p.out 2>$p.err \
    || { echo "FAIL $p: traced run"; cat $p.err; fail=1; continue; }
  check_trace $p $p.trace $p.out "Container:HOST" "State:ringsim_phase" "State:ACTOR_STATE"
done
# A Floyd zone: SimGrid 3.32 stops on its topology; ringsim traces it without, and says so once.
config sd.json "$ROOT/tests/platforms/split_duplex.xml" 3
"$RINGSIM" simulate sd.json --no-baseline --cfg=tracing:yes --cfg=tracing/filename:sd.trace >sd.out 2>sd.err \
  || { echo "FAIL split_duplex (Floyd): traced run"; cat sd.err; fail=1; }
[ "$(wc -l <sd.err)" -eq 1 ] && grep -q "tracing/platform/topology:no" sd.err || { echo "FAIL Floyd: no one-line note"; cat sd.err; fail=1; }
check_trace sd sd.trace sd.out "Container:HOST" "State:ringsim_phase"
# The user who insists on the topology gets the limit in one line.
"$RINGSIM" simulate sd.json --no-baseline --cfg=tracing:yes --cfg=tracing/platform/topology:yes >sd2.out 2>sd2.err
rc=$?; [ $rc -eq 2 ] && [ "$(wc -l <sd2.err)" -eq 1 ] && grep -q "cannot trace the topology of this platform" sd2.err \
  || { echo "FAIL Floyd with the topology asked: exit $rc"; cat sd2.err; fail=1; }

# 3. What SimGrid 3.32 cannot trace: exit 2, one line naming the limit, no trace file left.
refused() {  # refused NAME WANT CONFIG ARGS...
  local name=$1 want=$2 cfg=$3; shift 3
  rm -f refused.trace refused.trace.part
  expect_refused "$name" "$want" "$RINGSIM" simulate "$cfg" --no-baseline --cfg=tracing:yes \
    --cfg=tracing/filename:refused.trace "$@"
  if ls refused.trace* >/dev/null 2>&1; then echo "FAIL $name: a trace file is left behind"; fail=1; fi
}
config cl.json "$ROOT/tests/platforms/two_clusters.xml" 3
refused "split-duplex cluster" "SimGrid 3.32 cannot trace this platform" cl.json --cfg=tracing/actor:yes
config zh.json "$ROOT/tests/platforms/zones_hierarchy.xml" 3
refused "Dijkstra zone" "SimGrid 3.32 cannot trace this platform" zh.json
config lb.json "$ROOT/tests/platforms/loopback_bypass.xml" 3
refused "nested zones" "SimGrid 3.32 cannot trace this platform" lb.json
# A Full zone with one-way routes and hosts with pstates, disks and profiles traces.
for p in one_way_routes pstates_disks_profiles; do
  config $p.json "$ROOT/tests/platforms/$p.xml" 3
  "$RINGSIM" simulate $p.json --no-baseline --cfg=tracing:yes --cfg=tracing/filename:$p.trace >$p.out 2>$p.err \
    || { echo "FAIL $p: traced run"; cat $p.err; fail=1; continue; }
  check_trace $p $p.trace $p.out "Container:HOST" "State:ringsim_phase"
done
# Actors on hosts with a speed profile need tracing/platform (time-indexed traces are profiles).
printf '0 1.0\n0.5 0.5\n' >slow.profile
hosts=$("$RINGSIM" simulate paper.json --no-baseline | $PY -c 'import json,sys; print(" ".join(json.load(sys.stdin)["ring"]))')
profiles=$(for h in $hosts; do printf '"%s": "slow.profile",' "$h"; done)
config prof.json "$ROOT/platforms/paper2004_tiers90.xml" 5 "{\"source\": \"files\", \"profiles\": {${profiles%,}}}"
refused "actors on profiled hosts without tracing/platform" "tracing/platform" prof.json --cfg=tracing/actor:yes --cfg=tracing/platform:no
refused "actors on profiled hosts with tracing/disable_power" "tracing/disable_power" prof.json --cfg=tracing/actor:yes --cfg=tracing/disable_power:yes
"$RINGSIM" simulate prof.json --no-baseline --cfg=tracing:yes --cfg=tracing/actor:yes --cfg=tracing/filename:prof.trace >prof.out 2>prof.err \
  || { echo "FAIL actors on profiled hosts with tracing/platform (ringsim's default)"; cat prof.err; fail=1; }
check_trace prof prof.trace prof.out "State:ACTOR_STATE" "Variable:speed"

# 4. A traced sweep: every run writes its own trace in its folder.
cat >exp.json <<EOF
{"name": "traced", "base": {"platform": "$ROOT/platforms/paper2004_tiers90.xml", "iterations": 6, "rows": 100, "columns": 100},
 "ring_sizes": [4], "ratios": [1], "schemes": ["none", "every-2"], "algorithms": ["auto"], "seeds": [1, 2]}
EOF
"$RINGSIM" run exp.json --out sw --jobs 2 --cfg=tracing:yes --cfg=tracing/filename:run.trace >sw.out 2>sw.err \
  || { echo "FAIL traced sweep"; cat sw.err; fail=1; }
n=0
for d in sw/runs/*/; do
  id=$(basename "$d")
  [ -s "$d/run.trace" ] || { echo "FAIL sweep run $id has no trace"; fail=1; continue; }
  check_trace "sw_$id" "$d/run.trace" "$d/result.json" "State:ringsim_phase"
  n=$((n + 1))
done
[ $n -eq 4 ] || { echo "FAIL traced sweep: $n traces for 4 runs"; fail=1; }
exit $fail
