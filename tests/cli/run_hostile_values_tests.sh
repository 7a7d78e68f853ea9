#!/usr/bin/env bash
# Hostile values: numbers read in full from every file, SimGrid options
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
# set_keys FILE KEYS: FILE's JSON object with the keys of "{KEYS}" set.
set_keys() {
  /usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.update(json.loads("{" + sys.argv[2] + "}")); json.dump(d, open(sys.argv[1], "w"))' "$1" "$2"
}
# three_hosts FILE [CONFIG_PROPS] [LINK_AB_ATTRS] [A_SPEED] [AB_LATENCY]: a Full zone of hosts a, b,
# c on a ring of links, with <config> props (XML), attributes for link ab, the speed of host a and
# the latency of link ab.
three_hosts() {
  cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  ${2:+<config>$2</config>}
  <zone id="z" routing="Full">
    <host id="a" speed="${4:-1Gf}"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
    <link id="ab" bandwidth="1MBps" latency="${5:-1ms}" ${3:-}/><link id="bc" bandwidth="1MBps" latency="1ms"/>
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
for o in maxmin/precision:1e-3 surf/precision:1e-10 contexts/stack-size:16384 contexts/factory:thread debug/breakpoint:-1; do
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

# --- 2. Platforms and their profiles: numbers in decimal, latencies and bandwidths >= 0, a
# repeating profile's period that SimGrid can step through.
abc_config "$tmp/p.json" "$tmp/p.xml"
three_hosts "$tmp/p.xml" "" "" "" "1e-3s"
"$RINGSIM" simulate "$tmp/p.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL latency 1e-3s refused:"; cat "$tmp/err"; fail=1; }
for lat in -2us -1e-300s -0.5ms; do
  three_hosts "$tmp/p.xml" "" "" "" "$lat"
  expect_refused "link latency $lat" "latency=\"$lat\": a latency or bandwidth must be >= 0" "$RINGSIM" simulate "$tmp/p.json"
  expect_refused "link latency $lat, describe" "a latency or bandwidth must be >= 0" "$RINGSIM" platform describe "$tmp/p.xml"
done
three_hosts "$tmp/p.xml" "" "" "0x10Gf"
expect_refused "host speed 0x10Gf" 'speed="0x10Gf": numbers are decimal' "$RINGSIM" simulate "$tmp/p.json"
expect_refused "host speed 0x10Gf, ring" 'numbers are decimal' "$RINGSIM" ring "$tmp/p.xml" --work 1e9 --comm 1e6
three_hosts "$tmp/p.xml" "" "" "1Gf,0X2Gf"
expect_refused "host pstate 0X2Gf" 'numbers are decimal' "$RINGSIM" platform describe "$tmp/p.xml"
printf '0 0.001\n1 -0.001\n' >"$tmp/neg.profile"
three_hosts "$tmp/p.xml" "" 'latency_file="neg.profile"'
expect_refused "latency profile going negative" "link 'ab' has its latency at -0.001 at t = 1 s by its latency profile '$tmp/neg.profile': a latency must be >= 0" \
  "$RINGSIM" simulate "$tmp/p.json"
three_hosts "$tmp/p.xml" "" 'bandwidth_file="neg.profile"'
expect_refused "bandwidth profile going negative" "a bandwidth must be >= 0" "$RINGSIM" simulate "$tmp/p.json"
printf '0 0.001\n0x1 0.002\n' >"$tmp/hex.profile"
three_hosts "$tmp/p.xml" "" 'latency_file="hex.profile"'
expect_refused "latency profile in hexadecimal" "'$tmp/hex.profile':2: numbers are decimal" "$RINGSIM" simulate "$tmp/p.json"
for period in 1e-12 0 1e-9; do
  printf '0 0.001\nLOOPAFTER %s\n' "$period" >"$tmp/fast.profile"
  three_hosts "$tmp/p.xml" "" 'latency_file="fast.profile"'
  expect_refused "platform profile LOOPAFTER $period" "'$tmp/fast.profile': a period of" timeout 20 "$RINGSIM" simulate "$tmp/p.json"
  printf '0 1\nLOOPAFTER %s\n' "$period" >"$tmp/fast.profile"
  abc_config "$tmp/t.json" "$tmp/p.xml" ', "traces": {"source": "files", "profiles": {"a": "'"$tmp/fast.profile"'"}, "default": "constant"}'
  three_hosts "$tmp/p.xml"
  expect_refused "trace profile LOOPAFTER $period" "LOOPAFTER gives a period of" timeout 20 "$RINGSIM" simulate "$tmp/t.json"
done
printf '0 1\nLOOPAFTER 1e-6\n' >"$tmp/fast.profile"
timeout 20 "$RINGSIM" simulate "$tmp/t.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL LOOPAFTER 1e-6 refused:"; cat "$tmp/err"; fail=1; }

# --- 3. Integers read in full before any narrowing: a CSV change at an iteration no run reaches is
# never applied (and said so), whatever its size; a Tiers bandwidth class beyond an int is refused.
makespan() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["makespan"])' "$1"; }
printf 'host,iteration,speed\n' >"$tmp/none.csv"
printf '{"platform": "%s", "ring": {"hosts": ["h126", "h128", "h64"]}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "baseline": false, "traces": {"source": "files", "csv": "%s", "default": "constant"}}\n' \
  "$PLATFORM" "$tmp/it.csv" >"$tmp/it.json"
printf 'host,iteration,speed\nh126,1,1e5\n' >"$tmp/it.csv"
"$RINGSIM" simulate "$tmp/it.json" >"$tmp/ref.json" 2>"$tmp/err" || { echo "FAIL CSV reference run:"; cat "$tmp/err"; fail=1; }
for it in 2147483648 4294967297 4294967296 9223372036854775808 18446744073709551617 1e30 1e308; do
  printf 'host,iteration,speed\nh126,1,1e5\nh126,%s,1e3\n' "$it" >"$tmp/it.csv"
  if "$RINGSIM" simulate "$tmp/it.json" >"$tmp/out" 2>"$tmp/err"; then
    [ "$(makespan "$tmp/out")" = "$(makespan "$tmp/ref.json")" ] \
      || { echo "FAIL CSV change at iteration $it was applied: makespan $(makespan "$tmp/out"), expected $(makespan "$tmp/ref.json")"; fail=1; }
    grep -qF "past the run's last iteration (3), never used, the first at '$tmp/it.csv':3" "$tmp/err" \
      || { echo "FAIL CSV change at iteration $it: no warning that it is never used:"; cat "$tmp/err"; fail=1; }
  else
    grep -qF "'$tmp/it.csv':3" "$tmp/err" || { echo "FAIL CSV change at iteration $it refused without its line:"; cat "$tmp/err"; fail=1; }
  fi
done
for v in 0x10 1e400 inf nan -0x1 +inf; do
  printf 'host,iteration,speed\nh126,1,%s\n' "$v" >"$tmp/it.csv"
  expect_refused "CSV speed $v" "'$tmp/it.csv':2" "$RINGSIM" simulate "$tmp/it.json"
  printf 'host,iteration,speed\nh126,%s,1e5\n' "$v" >"$tmp/it.csv"
  expect_refused "CSV iteration $v" "'$tmp/it.csv':2" "$RINGSIM" simulate "$tmp/it.json"
done
for cls in 4294967306 4294967396 9223372036854775807 -4294967286; do
  /usr/bin/python3 - "$ROOT/platforms/tiers37.tiers" "$cls" "$tmp/big.tiers" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
edge = next(i for i, l in enumerate(lines) if l.startswith("# EDGES")) + 6
f = lines[edge].split("\t"); f[3] = sys.argv[2]; lines[edge] = "\t".join(f)
open(sys.argv[3], "w").write("\n".join(lines))
PY
  expect_refused "Tiers bandwidth class $cls" "bandwidth class $cls is out of range" "$RINGSIM" platform describe "$tmp/big.tiers"
done

# --- 4. A user's likely mistakes: one line naming the file, the line and the likely unit; every
# error names its file; a sweep refuses up front what its runs would; documented valid inputs run.
# (h126's peak is 34.333 Mflop/s)
for vu in "0.5=written as a multiplier of the peak" "34=written in Mflop/s" "0.03=written in Gflop/s"; do
  printf 'host,iteration,speed\nh126,1,%s\n' "${vu%%=*}" >"$tmp/it.csv"
  expect_refused "CSV speed ${vu%%=*} on a peak of 34.3 Mflop/s" "'$tmp/it.csv':2: host 'h126' at ${vu%%=*} flop/s" "$RINGSIM" simulate "$tmp/it.json"
  grep -qF "(speeds are in flop/s: ${vu#*=}?)" "$tmp/err" || { echo "FAIL CSV speed ${vu%%=*}: no likely unit '${vu#*=}':"; cat "$tmp/err"; fail=1; }
done
printf 'host,iteration,speed\nh126,1,34\n' >"$tmp/mflops.csv"
printf '{"name": "mf", "base": {"platform": "%s", "rows": 10, "columns": 12, "iterations": 3, "baseline": false, "traces": {"source": "files", "csv": "%s", "default": "constant"}}, "ring_sizes": [3], "ratios": [1], "schemes": ["none"], "seeds": [1]}\n' \
  "$PLATFORM" "$tmp/mflops.csv" >"$tmp/mf.json"
expect_refused "sweep of a CSV speed in Mflop/s" "'$tmp/mflops.csv':2: host 'h126' at 34 flop/s" "$RINGSIM" run "$tmp/mf.json" --out "$tmp/mf"
[ -e "$tmp/mf" ] && { echo "FAIL a sweep of a CSV speed in Mflop/s created its folder"; fail=1; }
printf '0 1\n1 3e7\n' >"$tmp/flops.profile"
printf '{"platform": "%s", "ring": {"hosts": ["h126", "h128", "h64"]}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "baseline": false, "traces": {"source": "files", "profiles": {"h126": "%s"}, "default": "constant"}}\n' \
  "$PLATFORM" "$tmp/flops.profile" >"$tmp/fp.json"
expect_refused "profile of speeds in flop/s" "'$tmp/flops.profile':2: speed multiplier 3e7 outside [1e-06, 1e+06] (profiles give multipliers" "$RINGSIM" simulate "$tmp/fp.json"
for kv in '"ratio": "1"' '"iterations": "3"' '"rows": 1.5' '"baseline": 1' '"report_bytes": "1e9"'; do
  config "$tmp/c.json"
  set_keys "$tmp/c.json" "$kv"
  expect_refused "config $kv names its file" "'$tmp/c.json': '${kv%%\"*:*}" "$RINGSIM" simulate "$tmp/c.json"
done
# hindsight-targets with traces by time: refused by the sweep before it creates its folder, as
# online-optimal is.
printf 'host,time,speed\nh126,1,1e6\n' >"$tmp/bytime.csv"
printf '{"name": "ht", "base": {"platform": "%s", "ring": {"hosts": ["h126", "h128", "h64"]}, "rows": 10, "columns": 12, "iterations": 4, "baseline": false, "traces": {"source": "files", "csv": "%s", "default": "constant"}}, "ring_sizes": [3], "ratios": [1], "schemes": ["hindsight-targets"], "seeds": [1]}\n' \
  "$PLATFORM" "$tmp/bytime.csv" >"$tmp/ht.json"
expect_refused "sweep hindsight-targets on traces by time" "scheme 'hindsight-targets' needs speeds that change between iterations only" \
  "$RINGSIM" run "$tmp/ht.json" --out "$tmp/ht"
[ -e "$tmp/ht" ] && { echo "FAIL a sweep of hindsight-targets on traces by time created its folder"; fail=1; }
# Documented valid values (docs/configs.md): measured targets, ratio 1e-12, report_bytes 1e9.
for scheme in adaptive adaptive-lasting rent-or-buy meta-balancer; do
  config "$tmp/m.json"
  set_keys "$tmp/m.json" '"iterations": 10, "ratio": 1e-12, "report_bytes": 1e9, "targets": "measured", "scheme": "'"$scheme"'", "traces": {"source": "random-walk", "seed": 1}'
  "$RINGSIM" simulate "$tmp/m.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL $scheme, measured targets at ratio 1e-12:"; cat "$tmp/err"; fail=1; }
done

# A CSV trace by time that covers part of the run only, or whose times look like milliseconds: the
# run goes on, with one warning line naming the file and both spans.
printf '{"platform": "%s", "ring": {"hosts": ["h126", "h128", "h64"]}, "iterations": 10, "rows": 100, "columns": 120, "ratio": 1, "baseline": false, "traces": {"source": "files", "csv": "%s", "default": "constant"}}\n' \
  "$PLATFORM" "$tmp/tt.csv" >"$tmp/tt.json"
for case in "1,5e6 2,2e7=a trace of part of the run?" "10000,5e6 20000,2e7=times in milliseconds?"; do
  { echo host,time,speed; for row in ${case%%=*}; do echo "h126,$row"; done; } >"$tmp/tt.csv"
  if "$RINGSIM" simulate "$tmp/tt.json" >"$tmp/out" 2>"$tmp/err"; then
    grep -qF "ringsim: warning: '$tmp/tt.csv': the traces' last change is at" "$tmp/err" && grep -qF "${case#*=}" "$tmp/err" \
      && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL CSV by time (${case%%=*}): no one-line warning '${case#*=}':"; cat "$tmp/err"; fail=1; }
  else
    echo "FAIL CSV by time (${case%%=*}) refused:"; cat "$tmp/err"; fail=1
  fi
done
{ echo host,time,speed; echo h126,0,34333000; } >"$tmp/tt.csv"
"$RINGSIM" simulate "$tmp/tt.json" >"$tmp/out" 2>"$tmp/err"
{ echo host,time,speed; echo h126,0,34333000; echo "h126,$(/usr/bin/python3 -c 'import json, sys; print(0.9 * json.load(open(sys.argv[1]))["makespan"])' "$tmp/out"),30000000"; } >"$tmp/tt.csv"
"$RINGSIM" simulate "$tmp/tt.json" >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] \
  || { echo "FAIL a CSV by time covering the run warned:"; cat "$tmp/err"; fail=1; }

# --- Whatever still stops SimGrid inside a run (here ns-3 asked to route a host it cannot reach in
# one hop) ends in ringsim's one error line and exit status 2: no signal, no backtrace.
printf '{"platform": "%s", "ring": {"size": 3}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "scheme": "every-1"}\n' \
  "$ROOT/tests/platforms/ns3_lan.xml" >"$tmp/ns3.json"
for extra in "" --no-baseline; do
  "$RINGSIM" simulate "$tmp/ns3.json" --cfg=network/model:ns-3 $extra >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || grep -q "CRITICAL\|Backtrace" "$tmp/err" \
     || ! tail -1 "$tmp/err" | grep -q "^ringsim: error: SimGrid stopped the run: " \
     || [ "$(grep -c '^ringsim:' "$tmp/err")" -ne 1 ]; then
    echo "FAIL SimGrid stopping a run ($extra): exit $rc"; tail -3 "$tmp/err"; fail=1
  fi
done

[ $fail -eq 0 ] && echo "all hostile value tests passed"
exit $fail
