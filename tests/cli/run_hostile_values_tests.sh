#!/usr/bin/env bash
# Hostile values (issue 65, second round): numbers read in full from every file, SimGrid options
# and platform settings SimGrid cannot run with, and a user's likely mistakes. Each is refused
# with exit 2 and one line naming the problem and its file, or warned about in one line; never a
# signal, a hang, an "internal error" or a wrong value taken silently.
set -u
RINGSIM=${1:?usage: run_hostile_values_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLATFORM="$ROOT/platforms/tiers37.xml"

# config FILE [EXTRA]: a three-member run of three iterations on tiers37, EXTRA (", key: value...")
# appended to its top-level object.
config() {
  printf '{"platform": "%s", "ring": {"size": 3}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "scheme": "none", "baseline": false%s}\n' \
    "$PLATFORM" "${2:-}" >"$1"
}
# three_hosts FILE [CONFIG_PROPS] [LINK_AB_ATTRS]: a Full zone of hosts a, b, c on a ring of links,
# with <config> props (XML) and attributes for link ab.
three_hosts() {
  cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  ${2:+<config>$2</config>}
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
    <link id="ab" bandwidth="1MBps" latency="1ms" ${3:-}/><link id="bc" bandwidth="1MBps" latency="1ms"/>
    <link id="ca" bandwidth="1MBps" latency="1ms"/>
    <route src="a" dst="b"><link_ctn id="ab"/></route>
    <route src="b" dst="c"><link_ctn id="bc"/></route>
    <route src="c" dst="a"><link_ctn id="ca"/></route>
  </zone>
</platform>
XML
}
# abc_config FILE PLATFORM [EXTRA]: a run of the ring a, b, c on PLATFORM.
abc_config() {
  printf '{"platform": "%s", "ring": {"hosts": ["a", "b", "c"]}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "baseline": false%s}\n' \
    "$2" "${3:-}" >"$1"
}

# --- 1. SimGrid options SimGrid cannot run with (an abort, a crash, SIGTRAP or a hang today):
# refused before the run, on the command line, in a config's "simgrid" and in a platform's
# <config>, by every command that takes them. Bounded by timeout: a hang fails the case.
config "$tmp/c.json"
BAD_OPTIONS="network/bandwidth-factor:0 network/bandwidth-factor:-1 maxmin/precision:1 maxmin/precision:1e-20
  contexts/factory:nonexist contexts/stack-size:1 debug/breakpoint:0.001 surf/precision:0 surf/precision:-1
  contexts/guard-size:-1 network/latency-factor:-1"
for o in $BAD_OPTIONS; do
  expect_refused "simulate --cfg=$o" "SimGrid option $o (--cfg)" timeout 20 "$RINGSIM" simulate "$tmp/c.json" "--cfg=$o"
  config "$tmp/s.json" ", \"simgrid\": {\"${o%%:*}\": \"${o#*:}\"}"
  expect_refused "simulate 'simgrid' $o" "SimGrid option $o in 'simgrid' of '$tmp/s.json'" timeout 20 "$RINGSIM" simulate "$tmp/s.json"
  three_hosts "$tmp/p.xml" "<prop id=\"${o%%:*}\" value=\"${o#*:}\"/>"
  abc_config "$tmp/p.json" "$tmp/p.xml"
  expect_refused "platform <config> $o" "SimGrid option $o in <config> of platform '$tmp/p.xml'" timeout 20 "$RINGSIM" simulate "$tmp/p.json"
  expect_refused "platform describe, <config> $o" "in <config> of platform '$tmp/p.xml'" timeout 20 "$RINGSIM" platform describe "$tmp/p.xml"
  expect_refused "ring, <config> $o" "in <config> of platform '$tmp/p.xml'" timeout 20 "$RINGSIM" ring "$tmp/p.xml" --work 1e9 --comm 1e6
done
printf '{"name": "opts", "base": {"platform": "%s", "rows": 10, "columns": 12, "iterations": 2, "baseline": false}, "ring_sizes": [3], "ratios": [1], "schemes": ["none"], "seeds": [1]}\n' \
  "$PLATFORM" >"$tmp/e.json"
expect_refused "run --cfg=surf/precision:0" "surf/precision:0 (--cfg)" timeout 20 "$RINGSIM" run "$tmp/e.json" --out "$tmp/sweep-opt" --cfg=surf/precision:0
[ -e "$tmp/sweep-opt" ] && { echo "FAIL a sweep refused for its options created its folder"; fail=1; }
printf '{"beta": 1, "bytes": [[1e7]], "clusters": {"b1": 1e7, "b2": 1e7, "bb": 2e7}}\n' >"$tmp/k.json"
for o in surf/precision:0 network/bandwidth-factor:0 contexts/stack-size:1; do
  expect_refused "kpbs-simulate --cfg=$o" "$o (--cfg)" timeout 20 "$RINGSIM" kpbs-simulate "$tmp/k.json" --cfg=$o
done
# Values SimGrid runs with still run.
for o in maxmin/precision:1e-3 surf/precision:1e-10 contexts/stack-size:256 contexts/factory:thread debug/breakpoint:-1; do
  timeout 20 "$RINGSIM" simulate "$tmp/c.json" "--cfg=$o" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL --cfg=$o refused:"; cat "$tmp/err"; fail=1; }
done
# A platform's own <config> choice of network/model replaced by the run's preset: said in one line
# that names the file, the setting and how to keep it.
three_hosts "$tmp/p.xml" '<prop id="network/model" value="LV08"/>'
abc_config "$tmp/p.json" "$tmp/p.xml"
"$RINGSIM" simulate "$tmp/p.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL platform network/model LV08:"; cat "$tmp/err"; fail=1; }
grep -qF "ringsim: warning: platform '$tmp/p.xml' sets network/model:LV08 in its <config>; the run's network_model preset 'linear' replaces it (--cfg=network/model:LV08" "$tmp/err" \
  && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL the preset replaced the platform's network/model without one line saying so:"; cat "$tmp/err"; fail=1; }
"$RINGSIM" simulate "$tmp/p.json" --cfg=network/model:LV08 >"$tmp/out" 2>"$tmp/err" && ! grep -q "ringsim: warning" "$tmp/err" \
  || { echo "FAIL --cfg=network/model:LV08 on a platform that sets it:"; cat "$tmp/err"; fail=1; }

[ $fail -eq 0 ] && echo "all hostile value tests passed"
exit $fail
