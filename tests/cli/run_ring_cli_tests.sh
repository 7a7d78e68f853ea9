#!/usr/bin/env bash
# `ringsim ring` / `ringsim ring-sweep` contract tests: JSON keys on success; exit status 2, one line on
# stderr and nothing on stdout for bad input.
set -u
RINGSIM=${1:?usage: run_ring_cli_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"

# Two LANs joined by one shared WAN link; an 11-host star; two hosts without a link; a broken file.
cat >"$tmp/lans.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Dijkstra">
    <host id="a1" speed="100Mf"/><host id="a2" speed="80Mf"/><host id="a3" speed="120Mf"/>
    <host id="b1" speed="100Mf"/><host id="b2" speed="60Mf"/>
    <router id="ra"/><router id="rb"/>
    <link id="la1" bandwidth="10MBps" latency="100us"/><link id="la2" bandwidth="10MBps" latency="100us"/>
    <link id="la3" bandwidth="10MBps" latency="100us"/><link id="lb1" bandwidth="10MBps" latency="100us"/>
    <link id="lb2" bandwidth="10MBps" latency="100us"/><link id="wan" bandwidth="2MBps" latency="10ms"/>
    <route src="a1" dst="ra"><link_ctn id="la1"/></route><route src="a2" dst="ra"><link_ctn id="la2"/></route>
    <route src="a3" dst="ra"><link_ctn id="la3"/></route><route src="b1" dst="rb"><link_ctn id="lb1"/></route>
    <route src="b2" dst="rb"><link_ctn id="lb2"/></route><route src="ra" dst="rb"><link_ctn id="wan"/></route>
  </zone>
</platform>
XML
{
  echo "<?xml version='1.0'?>"
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1"><zone id="AS0" routing="Dijkstra"><router id="sw"/>'
  for i in $(seq 1 11); do echo "<host id=\"h$i\" speed=\"${i}0Mf\"/>"; done
  for i in $(seq 1 11); do echo "<link id=\"l$i\" bandwidth=\"10MBps\" latency=\"1us\"/>"; done
  for i in $(seq 1 11); do echo "<route src=\"h$i\" dst=\"sw\"><link_ctn id=\"l$i\"/></route>"; done
  echo '</zone></platform>'
} >"$tmp/star11.xml"
cat >"$tmp/apart.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="AS0" routing="Dijkstra">
  <host id="x" speed="1Gf"/><host id="y" speed="1Gf"/>
</zone></platform>
XML
printf '<platform version="4.1"><zone id="AS0" routing="Dijkstra"><host id="x" speed="1Gf"/>' >"$tmp/broken.xml"

expect_bad() {  # name, expected fragment, arguments...
  local name=$1 fragment=$2
  shift 2
  expect_refused "$name" "$fragment" "$RINGSIM" "$@"
}

P="$tmp/lans.xml"
expect_bad unknown_method "unknown ring method 'magic'" ring "$P" --work 1e9 --comm 1e6 --method magic
expect_bad work_zero "--work" ring "$P" --work 0 --comm 1e6
expect_bad work_negative "work" ring "$P" --work=-5 --comm 1e6
expect_bad work_nan "--work" ring "$P" --work nan --comm 1e6
expect_bad comm_inf "--comm" ring "$P" --work 1e9 --comm inf
expect_bad comm_zero "--comm" ring "$P" --work 1e9 --comm 0
expect_bad work_text "work" ring "$P" --work lots --comm 1e6
expect_bad missing_comm "comm" ring "$P" --work 1e9
expect_bad missing_file "cannot read" ring /nonexistent/platform.xml --work 1e9 --comm 1e6
expect_bad malformed_xml "XML" ring "$tmp/broken.xml" --work 1e9 --comm 1e6
expect_bad bad_routing "--routing must be free, platform or auto" ring "$P" --work 1e9 --comm 1e6 --routing shortest
cat >"$tmp/full.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="AS0" routing="Full">
  <host id="x" speed="1Gf"/><host id="y" speed="1Gf"/><link id="l" bandwidth="1MBps" latency="1ms"/>
  <route src="x" dst="y"><link_ctn id="l"/></route>
</zone></platform>
XML
expect_bad free_on_full "routing 'free' needs a platform of one Floyd or Dijkstra zone" ring "$tmp/full.xml" --work 1e9 --comm 1e6 --routing free
expect_bad exhaustive_too_big "limited to 10 hosts" ring "$tmp/star11.xml" --work 1e9 --comm 1e6 --method exhaustive
expect_bad bad_criterion "criterion" ring "$P" --work 1e9 --comm 1e6 --criterion best
expect_bad bad_gap "gap" ring "$P" --work 1e9 --comm 1e6 --gap 0
expect_bad sweep_bad_ratio "ratios" ring-sweep "$P" --work 1e9 --ratios 1e-3,zero
expect_bad sweep_negative_ratio "ratios" ring-sweep "$P" --work 1e9 --ratios=-1e-3
expect_bad sweep_unknown_method "unknown ring method" ring-sweep "$P" --work 1e9 --ratios 1e-3 --methods greedy,magic

# Good runs: every method answers with the contract's keys, on stdout, exit 0.
for m in greedy greedy-maxmin greedy-global exhaustive tsp-ilp tsp-local ignore-sharing; do
  if ! "$RINGSIM" ring "$P" --work 1e9 --comm 1e5 --method "$m" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL good run $m:"; cat "$tmp/err"; fail=1; continue
  fi
  for key in '"method":"'"$m"'"' '"tstep":' '"ring":\[' '"alpha":\[' '"paths":\[' '"from":' '"to":' '"links":\[' '"bandwidth":' '"q":' '"wcumul":' '"members":\['; do
    grep -q "$key" "$tmp/out" || { echo "FAIL $m output lacks $key"; fail=1; }
  done
done
# Hosts that cannot reach the others are left out and said so (two hosts without a link: one is left).
for routing in free; do
  if "$RINGSIM" ring "$tmp/apart.xml" --work 1e9 --comm 1e6 --routing $routing >"$tmp/out" 2>"$tmp/err"; then
    grep -q '"q":1' "$tmp/out" && grep -q '"left_out":\["1 hosts' "$tmp/out" && grep -q "\"routing\":\"$routing\"" "$tmp/out" \
      || { echo "FAIL apart ($routing): expected a ring of 1 and the other host left out:"; cat "$tmp/out"; fail=1; }
  else
    echo "FAIL apart ($routing):"; cat "$tmp/err"; fail=1
  fi
done
# SimGrid itself cannot route a Dijkstra zone without edges (it crashes): refused with its reason.
expect_bad apart_platform "can be routed by SimGrid: SimGrid aborts when routing from 'x' to 'x'" \
  ring "$tmp/apart.xml" --work 1e9 --comm 1e6 --routing platform
# Both routing modes on the same graph platform; --candidates keeps the fastest.
"$RINGSIM" ring "$P" --work 1e9 --comm 1e5 >"$tmp/auto" && grep -q '"routing":"free"' "$tmp/auto" \
  || { echo "FAIL auto routing on a Dijkstra zone is not free"; fail=1; }
"$RINGSIM" ring "$P" --work 1e9 --comm 1e5 --routing platform --candidates 3 >"$tmp/out" 2>"$tmp/err" \
  && grep -q '"routing":"platform"' "$tmp/out" && grep -q '"candidate_hosts":3' "$tmp/out" \
  || { echo "FAIL --routing platform --candidates 3:"; cat "$tmp/out" "$tmp/err"; fail=1; }
# Same inputs, same bytes.
"$RINGSIM" ring "$P" --work 1e9 --comm 1e5 >"$tmp/a" && "$RINGSIM" ring "$P" --work 1e9 --comm 1e5 >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL ring output is not deterministic"; fail=1; }
# The sweep's CSV: a header and one row per (method, ratio).
if "$RINGSIM" ring-sweep "$P" --work 1e9 --ratios 1e-5,1e-3,1 --methods greedy,ignore-sharing >"$tmp/out" 2>"$tmp/err"; then
  [ "$(wc -l <"$tmp/out")" -eq 7 ] || { echo "FAIL ring-sweep rows:"; cat "$tmp/out"; fail=1; }
  head -1 "$tmp/out" | grep -q '^platform,method,ratio,work,comm,q,tstep,' || { echo "FAIL ring-sweep header"; fail=1; }
else
  echo "FAIL ring-sweep:"; cat "$tmp/err"; fail=1
fi
"$RINGSIM" ring-sweep "$P" --work 1e9 --ratios 1e-4 --by-size >"$tmp/out" 2>"$tmp/err" && [ "$(wc -l <"$tmp/out")" -eq 6 ] \
  || { echo "FAIL ring-sweep --by-size:"; cat "$tmp/out" "$tmp/err"; fail=1; }

# --progress: a line on stderr per insertion with 0 (the ring grows one host a line, the hosts
# considered only grow), none on a quick run by default, the same JSON either way; bad values exit 2.
PP=$(cd "$(dirname "$0")/../platforms" && pwd)/two_clusters.xml
"$RINGSIM" ring "$PP" --work 1e10 --comm 8e4 >"$tmp/quiet.json" 2>"$tmp/quiet.err" \
  && "$RINGSIM" ring "$PP" --work 1e10 --comm 8e4 --progress 0 >"$tmp/loud.json" 2>"$tmp/loud.err" \
  || { echo "FAIL ring --progress 0"; cat "$tmp/loud.err"; fail=1; }
[ -s "$tmp/quiet.err" ] && { echo "FAIL ring printed progress on a quick run:"; cat "$tmp/quiet.err"; fail=1; }
cmp -s "$tmp/quiet.json" "$tmp/loud.json" || { echo "FAIL ring --progress changed the answer"; fail=1; }
/usr/bin/python3 - "$tmp/loud.err" <<'PY' || fail=1
import re, sys
lines = open(sys.argv[1]).read().splitlines()
pat = re.compile(r"^greedy: ring of (\d+) of (\d+) hosts after [0-9.]+ s, (\d+) insertions considered, (\d+) evaluated exactly, at most \S+ left to consider$")
got = [pat.match(l) for l in lines]
assert lines and all(got), lines[:3]
sizes = [int(m.group(1)) for m in got]
p = int(got[0].group(2))
assert sizes == list(range(3, p + 1)), sizes
considered = [int(m.group(3)) for m in got]
assert considered == sorted(considered) and all(int(m.group(4)) <= int(m.group(3)) for m in got)
print(f"progress: {len(lines)} lines, ring of 3 to {p}")
PY
for bad in -1 nan abc; do
  "$RINGSIM" ring "$PP" --work 1e10 --comm 8e4 --progress "$bad" >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
    || { echo "FAIL ring --progress $bad: rc=$rc"; cat "$tmp/err"; fail=1; }
done

# --size N: the best ring of exactly N hosts the greedy grows; --max-size N: of at most N. Sizes
# that cannot be honoured (lans.xml has 5 hosts) exit 2 with one line.
expect_bad size_zero "--size must be an integer >= 1" ring "$P" --work 1e9 --comm 1e5 --size 0
expect_bad size_negative "--size must be an integer >= 1" ring "$P" --work 1e9 --comm 1e5 --size=-2
expect_bad max_size_zero "--max-size must be an integer >= 1" ring "$P" --work 1e9 --comm 1e5 --max-size 0
expect_bad size_too_big "--size 6: the platform has only 5 candidate hosts" ring "$P" --work 1e9 --comm 1e5 --size 6
expect_bad max_size_too_big "--max-size 9: the platform has only 5" ring "$P" --work 1e9 --comm 1e5 --max-size 9
expect_bad size_exhaustive "--size applies to the methods that grow a ring" \
  ring "$P" --work 1e9 --comm 1e5 --size 3 --method exhaustive
expect_bad max_size_tsp "--max-size applies to the methods that grow a ring" \
  ring "$P" --work 1e9 --comm 1e5 --max-size 3 --method tsp-local
expect_bad size_and_max_size "exclude each other" ring "$P" --work 1e9 --comm 1e5 --size 3 --max-size 4
expect_bad size_text "size" ring "$P" --work 1e9 --comm 1e5 --size three
for m in greedy greedy-maxmin greedy-global; do
  for n in 1 2 3 5; do
    "$RINGSIM" ring "$P" --work 1e9 --comm 1e5 --method $m --size $n >"$tmp/out" 2>"$tmp/err" \
      && grep -q "\"q\":$n," "$tmp/out" \
      || { echo "FAIL ring --method $m --size $n: expected q = $n:"; cat "$tmp/out" "$tmp/err"; fail=1; }
  done
done
# --max-size: a ring of at most N hosts, whose T_step is the best the growth recorded at sizes <= N.
/usr/bin/python3 - "$RINGSIM" "$P" <<'PY' || fail=1
import json, subprocess, sys
ringsim, plat = sys.argv[1:3]
def ring(*extra):
    out = subprocess.run([ringsim, "ring", plat, "--work", "1e9", "--comm", "1e4", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)
full = ring()
by_size = full["tstep_by_size"]
for n in range(1, len(by_size) + 1):
    got = ring("--max-size", str(n))
    best = min(t for t in by_size[:n] if t is not None)
    assert got["q"] <= n and abs(got["tstep"] - best) <= 1e-12 * best, (n, got["q"], got["tstep"], best)
    assert got["tstep_by_size"] == by_size[:n], (n, got["tstep_by_size"], by_size)
    exact = ring("--size", str(n))
    assert exact["q"] == n and abs(exact["tstep"] - by_size[n - 1]) <= 1e-12 * by_size[n - 1], (n, exact["tstep"])
assert ring("--max-size", str(len(by_size))) == full
print(f"--size / --max-size: sizes 1..{len(by_size)} agree with tstep_by_size")
PY

[ $fail -eq 0 ] && echo "all ring CLI contract tests passed"
exit $fail
