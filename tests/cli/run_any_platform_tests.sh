#!/usr/bin/env bash
# Every platform SimGrid loads is a ringsim platform: the hand-written platforms of tests/platforms/
# (hierarchical zones, clusters, torus / fat tree / dragonfly, Vivaldi, wifi, loopback and bypass
# routes, pstates / disks / profiles, split-duplex links, one-way routes, routing="None") each load,
# are described, get a ring in both routing modes where they apply, and simulate; each unroutable
# case gets exit 2 and one clear line (never a SimGrid abort); the platform mode agrees with the
# same platform flattened into SimGrid's routes; large platforms load and describe at scale.
set -u
RINGSIM=${1:?usage: run_any_platform_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLAT=$ROOT/tests/platforms
. "$(dirname "$0")/lib.sh"

field() {  # file, python expression on the JSON document d
  /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

expect_bad() {  # name, expected fragment, arguments...
  local name=$1 fragment=$2
  shift 2
  expect_refused "$name" "$fragment" "$RINGSIM" "$@"
}

sim_config() {  # platform, ring JSON, file
  printf '{"platform": "%s", "ring": %s, "iterations": 6, "rows": 100, "columns": 120, "ratio": 1, "scheme": "every-2", "traces": {"windows": [[1, 3], [4, 5]]}}\n' \
    "$1" "$2" >"$3"
}

# name | expected hosts | hosts a ring can use (largest set that reach each other) | graph known
cases="zones_hierarchy 11 11 False
two_clusters 16 16 False
torus 24 24 False
fat_tree 24 24 False
dragonfly 36 36 False
vivaldi 10 10 False
vivaldi_missing_coords 10 9 False
wifi 6 6 False
loopback_bypass 5 5 False
pstates_disks_profiles 5 5 False
one_way_routes 5 3 False
routing_none 6 4 False
split_duplex 5 5 False
ns3_lan 4 4 False
../../platforms/tiers37 37 37 True"

while read -r name hosts usable graph; do
  P=$PLAT/$name.xml
  # Describe: SimGrid's view, reachability, no abort.
  if ! "$RINGSIM" platform describe "$P" >"$tmp/d.json" 2>"$tmp/err"; then
    echo "FAIL $name: describe:"; head -3 "$tmp/err"; fail=1; continue
  fi
  [ "$(field "$tmp/d.json" "d['hosts']")" = "$hosts" ] || { echo "FAIL $name: hosts $(field "$tmp/d.json" "d['hosts']"), expected $hosts"; fail=1; }
  [ "$(field "$tmp/d.json" "d['reachable_sets'][0]")" = "$usable" ] \
    || { echo "FAIL $name: largest reachable set $(field "$tmp/d.json" "d['reachable_sets']"), expected $usable"; fail=1; }
  [ "$(field "$tmp/d.json" "d['graph_known']")" = "$graph" ] || { echo "FAIL $name: graph_known"; fail=1; }
  # Rings in the platform routing mode (every platform) and the free mode (graph platforms).
  modes=platform; [ "$graph" = True ] && modes="platform free"
  for mode in $modes; do
    if ! "$RINGSIM" ring "$P" --work 1e10 --comm 1e6 --routing $mode >"$tmp/r.json" 2>"$tmp/err"; then
      echo "FAIL $name: ring --routing $mode:"; head -3 "$tmp/err"; fail=1; continue
    fi
    [ "$(field "$tmp/r.json" "d['routing']")" = "$mode" ] || { echo "FAIL $name: ring answered another routing"; fail=1; }
    [ "$(field "$tmp/r.json" "d['candidate_hosts']")" = "$usable" ] \
      || { echo "FAIL $name ($mode): $(field "$tmp/r.json" "d['candidate_hosts']") candidates, expected $usable"; fail=1; }
  done
  # The platform mode is SimGrid's routes: the same platform flattened into them (a Full zone of
  # explicit routes, written by `platform import`) gives the same ring and T_step.
  if "$RINGSIM" platform import "$P" -o "$tmp/flat.xml" >/dev/null 2>"$tmp/err"; then
    "$RINGSIM" ring "$P" --work 1e10 --comm 1e6 --routing platform >"$tmp/a.json" 2>/dev/null
    "$RINGSIM" ring "$tmp/flat.xml" --work 1e10 --comm 1e6 --routing platform >"$tmp/b.json" 2>/dev/null
    [ -s "$tmp/a.json" ] && [ "$(field "$tmp/a.json" "d['ring'], d['tstep']")" = "$(field "$tmp/b.json" "d['ring'], d['tstep']")" ] \
      || { echo "FAIL $name: ring on the flattened platform differs"; fail=1; }
  else
    echo "FAIL $name: platform import:"; head -3 "$tmp/err"; fail=1
  fi
  # Simulations: a random ring, and a planner ring, each checked before any simulated second.
  size=3; [ "$usable" -lt 3 ] && size=$usable
  sim_config "$P" "{\"size\": $size, \"seed\": 5}" "$tmp/random.json"
  if "$RINGSIM" simulate "$tmp/random.json" >"$tmp/s.json" 2>"$tmp/err"; then
    [ "$(field "$tmp/s.json" "d['makespan'] > 0 and len(d['ring']) == $size")" = True ] \
      || { echo "FAIL $name: random ring simulation"; fail=1; }
  else
    echo "FAIL $name: simulate random ring:"; head -3 "$tmp/err"; fail=1
  fi
  sim_config "$P" '{"selection": "planner", "method": "greedy"}' "$tmp/planner.json"
  if "$RINGSIM" simulate "$tmp/planner.json" >"$tmp/s.json" 2>"$tmp/err"; then
    [ "$(field "$tmp/s.json" "d['makespan'] > 0 and d['ring_routing'] in ('free', 'platform')")" = True ] \
      || { echo "FAIL $name: planner ring simulation"; fail=1; }
  else
    echo "FAIL $name: simulate planner ring:"; head -3 "$tmp/err"; fail=1
  fi
done <<<"$cases"

# Unroutable rings: exit 2 naming the pair, before any simulated second, never a SimGrid abort.
sim_config "$PLAT/one_way_routes.xml" '{"hosts": ["ant", "cat", "dog"]}' "$tmp/c.json"
expect_bad one_way "ring neighbours 'cat' and 'ant' cannot communicate: SimGrid has no route from 'cat' to 'ant'" simulate "$tmp/c.json"
sim_config "$PLAT/one_way_routes.xml" '{"size": 4, "seed": 1}' "$tmp/c.json"
expect_bad one_way_too_big "only 3 of its 5 hosts reach each other both ways" simulate "$tmp/c.json"
sim_config "$PLAT/routing_none.xml" '{"hosts": ["airgap-1", "ws-1"]}' "$tmp/c.json"
expect_bad routing_none "ring neighbours 'airgap-1' and 'ws-1' cannot communicate: Bad gateways for route" simulate "$tmp/c.json"
sim_config "$PLAT/vivaldi_missing_coords.xml" '{"hosts": ["vol-berlin", "vol-oslo"]}' "$tmp/c.json"
expect_bad vivaldi_no_coords "Please specify the Vivaldi coordinates of Host vol-oslo" simulate "$tmp/c.json"
sim_config "$PLAT/pstates_disks_profiles.xml" '{"hosts": ["flaky", "dvfs-1"]}' "$tmp/c.json"
expect_bad second_speed_profile "ring host 'flaky' already has a speed profile in platform" simulate "$tmp/c.json"
expect_bad free_on_clusters "routing 'free' needs a platform of one Floyd or Dijkstra zone" \
  ring "$PLAT/two_clusters.xml" --work 1e10 --comm 1e6 --routing free
# What SimGrid refuses by aborting (no exception) is still one line and exit 2.
printf '%s\n' "<?xml version='1.0'?>" '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">' \
  '<platform version="4.1"><zone id="s" routing="Star"><host id="a" speed="1Gf"/></zone></platform>' >"$tmp/star.xml"
expect_bad star_zone "ringsim: error: SimGrid cannot load platform '$tmp/star.xml': Not a valid model!" platform describe "$tmp/star.xml"
printf '%s\n' "<?xml version='1.0'?>" '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">' \
  '<platform version="4.1"><zone id="s" routing="Full"><host id="a" speed="1Gf"/><host id="a" speed="1Gf"/></zone></platform>' >"$tmp/dup.xml"
expect_bad duplicate_host "Refusing to create a second host named 'a'" ring "$tmp/dup.xml" --work 1e9 --comm 1e6
# The same messages every time (no addresses from SimGrid's log).
"$RINGSIM" simulate "$tmp/c.json" 2>"$tmp/e1" >/dev/null; "$RINGSIM" simulate "$tmp/c.json" 2>"$tmp/e2" >/dev/null
cmp -s "$tmp/e1" "$tmp/e2" || { echo "FAIL the unroutable message differs between runs"; fail=1; }

# Scale: 65536 hosts (a fat tree cluster) load and are described in seconds (a seeded sample of
# pairs), and a ring is found among the fastest with --candidates. The same tree with 32 leaf
# switches (8192 hosts, still above what the platform routing mode takes whole) shows the refusal
# without --candidates, and replaces the big tree under the sanitizers (RINGSIM_TEST_SIZES=sanitizer,
# tools/sanitize.sh): the same branches.
SMALLER=$tmp/fat_tree_8192.xml
sed -e 's/"2;256,256;/"2;32,256;/' -e 's/radical="0-65535"/radical="0-8191"/' "$PLAT/big_fat_tree.xml" >"$SMALLER"
BIG=$PLAT/big_fat_tree.xml BIG_HOSTS=65536
sanitizer_sizes && BIG=$SMALLER BIG_HOSTS=8192
if "$RINGSIM" platform describe "$BIG" --pairs 20000 >"$tmp/d.json" 2>"$tmp/err"; then
  [ "$(field "$tmp/d.json" "d['hosts'], d['host_pairs'], d['host_pairs_checked'], d['host_pairs_unrouted']")" = "$BIG_HOSTS sample 20000 0" ] \
    || { echo "FAIL big fat tree describe: $(field "$tmp/d.json" "d['hosts'], d['host_pairs'], d['host_pairs_checked']")"; fail=1; }
else
  echo "FAIL big fat tree describe:"; head -3 "$tmp/err"; fail=1
fi
expect_bad big_without_candidates "8192 hosts are more than 4096; restrict the ring to the fastest with --candidates N" \
  ring "$SMALLER" --work 1e10 --comm 1e6
"$RINGSIM" ring "$BIG" --work 1e10 --comm 1e6 --candidates 64 >"$tmp/r.json" 2>"$tmp/err" \
  && [ "$(field "$tmp/r.json" "d['candidate_hosts'], d['platform_hosts'], d['q'] >= 1")" = "64 $BIG_HOSTS True" ] \
  || { echo "FAIL big fat tree ring --candidates 64:"; head -3 "$tmp/err"; fail=1; }

[ $fail -eq 0 ] && echo "all any-platform tests passed"
exit $fail
