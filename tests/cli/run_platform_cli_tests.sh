#!/usr/bin/env bash
# `ringsim platform ...`: generation (determinism, WAN_3 sizes), imports, SimGrid loading every
# written file (describe: all hosts connected), the committed platforms being up to date, and bad
# files (exit status 2, SimGrid's own message in one line on stderr, nothing on stdout).
set -u
RINGSIM=${1:?usage: run_platform_cli_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REF=$ROOT/platforms/reference
. "$(dirname "$0")/lib.sh"

# json_field FILE KEY: the value of a top-level scalar field of a one-object JSON file.
json_field() { tr -d ' \n' <"$1" | grep -o "\"$2\":[^,}]*" | head -1 | cut -d: -f2 | tr -d '"'; }

expect_field() {  # name, file, key, expected value
  local got; got=$(json_field "$2" "$3")
  [ "$got" = "$4" ] || { echo "FAIL $1: $3 is '$got', expected '$4'"; fail=1; }
}

describe_ok() {  # name, platform file, expected hosts (or -)
  local name=$1 file=$2 hosts=$3
  if ! "$RINGSIM" platform describe "$file" >"$tmp/describe.json" 2>"$tmp/err"; then
    echo "FAIL $name: describe failed:"; cat "$tmp/err"; fail=1; return
  fi
  expect_field "$name" "$tmp/describe.json" all_hosts_connected true
  expect_field "$name" "$tmp/describe.json" host_pairs_unrouted 0
  [ "$hosts" = - ] || expect_field "$name" "$tmp/describe.json" hosts "$hosts"
}


WAN3="1 5 5 10 10 5 2 1 1 2 1"
doctype='<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'

# Generation: same seed, same bytes; another seed, other bytes; WAN_3's size.
"$RINGSIM" platform tiers $WAN3 --seed 3 -o "$tmp/a.xml" --tiers-file "$tmp/a.tiers" >"$tmp/sum.json" || { echo "FAIL tiers"; fail=1; }
"$RINGSIM" platform tiers $WAN3 --seed 3 -o "$tmp/b.xml" >/dev/null || { echo "FAIL tiers again"; fail=1; }
"$RINGSIM" platform tiers $WAN3 --seed 4 -o "$tmp/c.xml" >/dev/null || { echo "FAIL tiers seed 4"; fail=1; }
cmp -s "$tmp/a.xml" "$tmp/b.xml" || { echo "FAIL same seed gave different bytes"; fail=1; }
cmp -s "$tmp/a.xml" "$tmp/c.xml" && { echo "FAIL different seeds gave the same bytes"; fail=1; }
expect_field wan3 "$tmp/sum.json" tiers_nodes 185
links=$(json_field "$tmp/sum.json" links)
[ "${links:-0}" -ge 188 ] && [ "${links:-0}" -le 196 ] || { echo "FAIL wan3: $links links, expected about 192"; fail=1; }
hosts=$(json_field "$tmp/sum.json" hosts)
[ "${hosts:-0}" -ge 70 ] && [ "${hosts:-0}" -le 105 ] || { echo "FAIL wan3: $hosts hosts, expected about 87"; fail=1; }
describe_ok wan3 "$tmp/a.xml" "$hosts"
expect_field wan3 "$tmp/describe.json" graph_known true
expect_field wan3 "$tmp/describe.json" ring_routing_default free
# The written .tiers graph converts to the same platform (only the provenance line differs).
"$RINGSIM" platform import "$tmp/a.tiers" --seed 3 -o "$tmp/a2.xml" >/dev/null || { echo "FAIL import generated tiers"; fail=1; }
diff <(grep -v provenance "$tmp/a.xml") <(grep -v provenance "$tmp/a2.xml") >/dev/null || { echo "FAIL tiers file round trip"; fail=1; }
"$RINGSIM" platform tiers 1 3 3 5 5 4 2 1 1 2 1 --hosts 20 --prune-routers --routing Floyd -o "$tmp/floyd.xml" >/dev/null \
  || { echo "FAIL tiers --routing Floyd"; fail=1; }
grep -q 'routing="Floyd"' "$tmp/floyd.xml" || { echo "FAIL Floyd zone not written"; fail=1; }
describe_ok floyd "$tmp/floyd.xml" 20

# Imports: the reference Tiers files and the 2005 platform, each loaded by SimGrid.
for f in small medium WAN_3; do
  "$RINGSIM" platform import "$REF/$f.tiers" -o "$tmp/$f.xml" >"$tmp/sum.json" || { echo "FAIL import $f.tiers"; fail=1; continue; }
  describe_ok "$f.tiers" "$tmp/$f.xml" -
done
expect_field WAN_3.tiers "$tmp/sum.json" links 192
"$RINGSIM" platform import "$REF/paper2004_tiers90_platform_2005dtd.xml" -o "$tmp/paper.xml" >"$tmp/sum.json" \
  || { echo "FAIL import 2005"; fail=1; }
expect_field paper2004 "$tmp/sum.json" explicit_routes 8010
"$RINGSIM" platform import "$tmp/paper.xml" -o "$tmp/paper2.xml" >/dev/null || { echo "FAIL reimport 4.1"; fail=1; }
cmp -s <(grep -v provenance "$tmp/paper.xml") <(grep -v provenance "$tmp/paper2.xml") || { echo "FAIL 4.1 rewrite changed the platform"; fail=1; }

# A flat cluster: SimGrid's cluster zone, ringsim's explicit routes; both see the same platform.
printf '%s\n' "$doctype" '<platform version="4.1">' \
  '<cluster id="c" prefix="n-" suffix="" radical="0-3" speed="1Gf" bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us" bb_sharing_policy="FATPIPE"/>' \
  '</platform>' >"$tmp/cluster.xml"
describe_ok cluster "$tmp/cluster.xml" 4
expect_field cluster "$tmp/describe.json" links 9
expect_field cluster "$tmp/describe.json" fatpipe_links 1
"$RINGSIM" platform import "$tmp/cluster.xml" -o "$tmp/cluster_routes.xml" >/dev/null || { echo "FAIL import cluster"; fail=1; }
describe_ok cluster_routes "$tmp/cluster_routes.xml" 4

# The committed platforms: loaded by SimGrid, and what platforms/README.md's commands produce.
describe_ok paper2004_tiers90 "$ROOT/platforms/paper2004_tiers90.xml" 90
expect_field paper2004_tiers90 "$tmp/describe.json" links 192
describe_ok tiers37 "$ROOT/platforms/tiers37.xml" 37
expect_field tiers37 "$tmp/describe.json" routers 47
expect_field tiers37 "$tmp/describe.json" links 91
describe_ok tiers70 "$ROOT/platforms/tiers70.xml" 70
expect_field tiers70 "$tmp/describe.json" routers 103
expect_field tiers70 "$tmp/describe.json" links 182
(cd "$ROOT" && "$RINGSIM" platform import platforms/reference/paper2004_tiers90_platform_2005dtd.xml -o "$tmp/p90.xml" >/dev/null \
  && "$RINGSIM" platform tiers 1 5 5 6 8 5 2 1 1 2 1 --seed 92 --hosts 37 --prune-routers -o "$tmp/t37.xml" >/dev/null \
  && "$RINGSIM" platform tiers 1 7 7 13 13 5 2 1 1 2 1 --seed 40 --hosts 70 --prune-routers -o "$tmp/t70.xml" >/dev/null) \
  || { echo "FAIL README commands"; fail=1; }
cmp -s "$tmp/p90.xml" "$ROOT/platforms/paper2004_tiers90.xml" || { echo "FAIL platforms/paper2004_tiers90.xml is stale"; fail=1; }
cmp -s "$tmp/t37.xml" "$ROOT/platforms/tiers37.xml" || { echo "FAIL platforms/tiers37.xml is stale"; fail=1; }
cmp -s "$tmp/t70.xml" "$ROOT/platforms/tiers70.xml" || { echo "FAIL platforms/tiers70.xml is stale"; fail=1; }

# Bad files and arguments.
head="$doctype"'<platform version="4.1"><zone id="z" routing="Full">'
two='<host id="h1" speed="1Gf"/><host id="h2" speed="1Gf"/><link id="l1" bandwidth="1MBps" latency="1ms"/>'
tail='</zone></platform>'
printf '%s' "$head$two" >"$tmp/malformed.xml"
printf '%s\n' "$head" '<host id="h1" speed="1Xf"/>' "$tail" >"$tmp/unit.xml"
printf '%s\n' "$head$two" '<route src="h1" dst="h2"><link_ctn id="l9"/></route>' "$tail" >"$tmp/dangling_link.xml"
printf '%s\n' "$head$two" '<route src="h1" dst="h9"><link_ctn id="l1"/></route>' "$tail" >"$tmp/dangling_host.xml"
printf '%s\n' "$head$two" "$tail" >"$tmp/disconnected.xml"
printf '%s\n' "$head" '<host id="h1" speed="1Gf"/><host id="h2" speed="1Gf"/><link id="l1" bandwidth="0Bps"/>' \
  '<route src="h1" dst="h2"><link_ctn id="l1"/></route>' "$tail" >"$tmp/zero_bw.xml"
printf '%s\n' "$doctype" '<platform version="4.1"><zone id="z" routing="Dijkstra">' "$two" \
  '<router id="r"/><route src="h1" dst="r"><link_ctn id="l1"/></route>' "$tail" >"$tmp/disconnected_graph.xml"
printf '# NODES\n0 0 0 2\n1 5 5 2\n# EDGES\n0 7 100 1000 2 2 1\n' >"$tmp/bad.tiers"
expect_refused malformed "SimGrid cannot load platform '$tmp/malformed.xml': Parse error at $tmp/malformed.xml:2" "$RINGSIM" platform describe "$tmp/malformed.xml"
printf '%s\n' '<platform version="4.1"><zone id="z" routing="Full"><host id="h" speed="1f"/></zone></platform>' >"$tmp/no_doctype.xml"
expect_refused no_doctype "SimGrid cannot load platform" "$RINGSIM" platform describe "$tmp/no_doctype.xml"
expect_refused unknown_unit "unknown unit: Xf" "$RINGSIM" platform describe "$tmp/unit.xml"
expect_refused dangling_link "Link not found: l9" "$RINGSIM" platform describe "$tmp/dangling_link.xml"
expect_refused dangling_host "Route dst='h9' does name a node" "$RINGSIM" platform describe "$tmp/dangling_host.xml"
expect_refused zero_bandwidth "SimGrid cannot load platform" "$RINGSIM" platform describe "$tmp/zero_bw.xml"
expect_refused import_bad_unit "unknown unit: Xf" "$RINGSIM" platform import "$tmp/unit.xml" -o "$tmp/x.xml"
expect_refused bad_tiers "edge 0 - 7 names an unknown node" "$RINGSIM" platform import "$tmp/bad.tiers" -o "$tmp/x.xml"
expect_refused ring_bad_tiers "edge 0 - 7 names an unknown node" "$RINGSIM" ring "$tmp/bad.tiers" --work 1e9 --comm 1e6
# Hosts that cannot reach each other are described, not refused: the answer says so.
for f in disconnected disconnected_graph; do
  "$RINGSIM" platform describe "$tmp/$f.xml" >"$tmp/describe.json" 2>"$tmp/err" || { echo "FAIL describe $f"; cat "$tmp/err"; fail=1; }
  expect_field "$f" "$tmp/describe.json" all_hosts_connected false
done
expect_field disconnected_graph "$tmp/describe.json" host_pairs_unrouted 2
# The formats SimGrid does not read are converted, then loaded by SimGrid like any other.
describe_ok describe_2005 "$REF/paper2004_tiers90_platform_2005dtd.xml" 90
expect_field describe_2005 "$tmp/describe.json" format SimGridXML2005  # json_field drops spaces
describe_ok describe_tiers "$REF/small.tiers" -
expect_field describe_tiers "$tmp/describe.json" format Tiers
expect_refused missing "cannot read" "$RINGSIM" platform describe "$tmp/nonexistent.xml"
expect_refused two_wans "NW must be 1" "$RINGSIM" platform tiers 2 5 5 10 10 5 2 1 1 2 1 -o "$tmp/x.xml"
expect_refused too_many_hosts "cannot choose 500 hosts among 125 LAN nodes" "$RINGSIM" platform tiers $WAN3 --hosts 500 -o "$tmp/x.xml"
expect_refused bad_routing "--routing must be" "$RINGSIM" platform tiers $WAN3 --routing Full -o "$tmp/x.xml"
expect_refused both_host_options "excludes" "$RINGSIM" platform tiers $WAN3 --hosts 5 --host-probability 0.5 -o "$tmp/x.xml"
expect_refused seed_on_xml "apply to Tiers files only" "$RINGSIM" platform import "$tmp/a.xml" --seed 2 -o "$tmp/x.xml"
[ -e "$tmp/x.xml" ] && { echo "FAIL a failed command left an output file"; fail=1; }

[ $fail -eq 0 ] && echo "all platform CLI tests passed"
exit $fail
