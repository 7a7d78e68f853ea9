#!/usr/bin/env bash
# Hostile and extreme inputs: each is refused with exit 2 and one line naming the problem, never a
# run that reports success (a SimGrid deadlock, a wrapped integer, a silent duplicate), never an
# abort or an "internal error". Each case runs in well under a second.
set -u
RINGSIM=${1:?usage: run_hostile_inputs_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"
# Memory bound for the cases whose reader must stop early: ASan reserves terabytes of shadow
# address space, which ulimit -v forbids, so under ASan the bound is timeout's alone. An ASan build
# names the runtime's entry point, whether it links the runtime dynamically (GCC) or statically (Clang).
if grep -qa __asan_init "$RINGSIM"; then export VLIMIT=:; else export VLIMIT="ulimit -v"; fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLATFORM="$ROOT/platforms/tiers37.xml"

# config FILE [EXTRA]: a three-member run of three iterations on tiers37, EXTRA (", key: value...")
# appended to its top-level object.
config() {
  printf '{"platform": "%s", "ring": {"size": 3}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "scheme": "none", "baseline": false}\n' \
    "$PLATFORM" >"$1"
  [ -n "${2:-}" ] && with_keys "$1" "$2"
}
# with_keys FILE EXTRA: FILE's object with the keys of "{EXTRA without its leading comma}" set
# (numbers kept digit for digit: Python's integers are unbounded).
with_keys() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
path, extra = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
doc.update(json.loads("{" + extra.lstrip(" ,") + "}"))
json.dump(doc, open(path, "w"))
PY
}
# experiment FILE [EXTRA]: a one-run sweep of that config, EXTRA appended.
experiment() {
  printf '{"name": "hostile", "base": {"platform": "%s", "rows": 10, "columns": 12, "iterations": 2, "baseline": false}, "ring_sizes": [3], "ratios": [1], "schemes": ["none"], "seeds": [1]}\n' \
    "$PLATFORM" >"$1"
  [ -n "${2:-}" ] && with_keys "$1" "$2"
}
refused_config() {  # NAME FRAGMENT EXTRA
  config "$tmp/c.json" "$3"
  expect_refused "$1" "$2" "$RINGSIM" simulate "$tmp/c.json"
}

# --- 1. Speeds, bandwidths and ratios SimGrid cannot resolve: refused before the run, naming the key.
refused_config "on-off load_factor 1e-300" "'load_factor' must be in" \
  ', "traces": {"source": "on-off", "seed": 1, "load_factor": 1e-300, "placement": "nominal-time"}'
refused_config "factor 1e-300" "'factor' low must be in" ', "traces": {"source": "factor", "seed": 1, "factor": [1e-300, 1e-300]}'
refused_config "ratio 1e308" "'ratio' must be in" ', "ratio": 1e308'
refused_config "ratio 1e-300" "'ratio' must be in" ', "ratio": 1e-300'
# A link of 0 B/s on the ring's routes (SimGrid would stop with a deadlock, reported as a success).
cat >"$tmp/zero.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
    <link id="ab" bandwidth="0Bps" latency="1ms"/><link id="bc" bandwidth="1MBps" latency="1ms"/>
    <link id="ca" bandwidth="1MBps" latency="1ms"/>
    <route src="a" dst="b"><link_ctn id="ab"/></route>
    <route src="b" dst="c"><link_ctn id="bc"/></route>
    <route src="c" dst="a"><link_ctn id="ca"/></route>
  </zone>
</platform>
XML
printf '{"platform": "%s", "ring": {"hosts": ["a", "b", "c"]}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "baseline": false}\n' \
  "$tmp/zero.xml" >"$tmp/zero.json"
expect_refused "link of 0 B/s" "bandwidth of at least 1 B/s" "$RINGSIM" simulate "$tmp/zero.json"
# In a sweep, that run fails (its input refused) and leaves no row: no normalized_time of nan.
printf '{"name": "zero", "base": {"platform": "%s", "ring": {"hosts": ["a", "b", "c"]}, "rows": 10, "columns": 12, "iterations": 2, "baseline": false}, "ring_sizes": [3], "ratios": [1], "schemes": ["none", "every-1"], "seeds": [1]}\n' \
  "$tmp/zero.xml" >"$tmp/zero-exp.json"
"$RINGSIM" run "$tmp/zero-exp.json" --out "$tmp/zero-sweep" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || { echo "FAIL sweep over a 0 B/s link: exit $rc"; cat "$tmp/err"; fail=1; }
if [ -f "$tmp/zero-sweep/runs.csv" ] && [ "$(wc -l <"$tmp/zero-sweep/runs.csv")" -ne 1 ]; then
  echo "FAIL sweep over a 0 B/s link counted a run:"; cat "$tmp/zero-sweep/runs.csv"; fail=1
fi

# --- 2. Every error is one line with its exit status.
refused_config "random-walk high 1e308" "'high' must be in" \
  ', "traces": {"source": "random-walk", "seed": 1, "low": 1, "high": 1e308, "step": 1e300}'
experiment "$tmp/e.json" ', "description": 5'
expect_refused "experiment description a number" "'description' must be a string" "$RINGSIM" run "$tmp/e.json" --out "$tmp/e1"
sed 's/"name": "hostile"/"name": 7/' "$tmp/e.json" >"$tmp/e2.json"
expect_refused "experiment name a number" "'name' must be a string" "$RINGSIM" run "$tmp/e2.json" --out "$tmp/e2"
experiment "$tmp/e.json" ', "repetitions": "2"'
expect_refused "experiment repetitions a string" "'repetitions' must be an integer" "$RINGSIM" run "$tmp/e.json" --out "$tmp/e3"
experiment "$tmp/e.json" ', "quick": {"base": 4}'
expect_refused "experiment quick base a number" "'quick': 'base' must be an object" "$RINGSIM" run "$tmp/e.json" --quick --out "$tmp/e3"
printf '{"base": 3, "ring_sizes": [3], "ratios": [1], "schemes": ["none"], "seeds": [1], "quick": {"base": {"iterations": 1}}}\n' >"$tmp/e7.json"
expect_refused "experiment base a number, quick base merged" "e7.json': 'base' must be an object" "$RINGSIM" run "$tmp/e7.json" --quick --out "$tmp/e7"
experiment "$tmp/e.json"
: >"$tmp/a-file"
expect_refused "--out an existing file" "$tmp/a-file" "$RINGSIM" run "$tmp/e.json" --out "$tmp/a-file"
expect_refused "--out /dev/null" "/dev/null" "$RINGSIM" run "$tmp/e.json" --out /dev/null
expect_refused "--out under /proc" "/proc/no-such" "$RINGSIM" run "$tmp/e.json" --out /proc/no-such/sweep
ln -s "$tmp/loop2" "$tmp/loop1"; ln -s "$tmp/loop1" "$tmp/loop2"
refused_config "platform a symlink loop" "$tmp/loop1" ', "platform": "'"$tmp/loop1"'"'
sed "s|\"platform\": \"$PLATFORM\"|\"platform\": \"$tmp/loop1\"|" "$tmp/e.json" >"$tmp/eloop.json"
expect_refused "experiment platform a symlink loop" "$tmp/loop1" "$RINGSIM" run "$tmp/eloop.json" --out "$tmp/eloop"
expect_refused "config a directory" "not a regular file" "$RINGSIM" simulate "$tmp"
# (bounded here: a reader that took /dev/zero would grow until stopped)
expect_refused "config a device" "not a regular file" \
  bash -c '$VLIMIT 4000000; exec timeout 10 "$0" simulate /dev/zero' "$RINGSIM"
mkfifo "$tmp/fifo"
expect_refused "config a FIFO" "not a regular file" timeout 10 "$RINGSIM" simulate "$tmp/fifo"
expect_refused "redistribute from a FIFO" "not a regular file" timeout 10 "$RINGSIM" redistribute "$tmp/fifo"
refused_config "trace file a directory" "not a regular file" ', "traces": {"source": "files", "csv": "'"$tmp"'"}'

# --- 3. Numbers checked in full: no wraparound, nothing infinite.
refused_config "columns 2^32 + 1000" "'columns' must be at most" ', "columns": 4294968296'
refused_config "iterations 2^32 + 1" "'iterations' must be at most" ', "iterations": 4294967297'
refused_config "iterations 2^64 - 1" "'iterations' must be" ', "iterations": 18446744073709551615'
refused_config "columns 1e11" "'columns' must be at most" ', "columns": 100000000000'
refused_config "columns 2^31" "'columns' must be at most" ', "columns": 2147483648'
config "$tmp/c.json"
sed 's/"ring": {"size": 3}/"ring": {"size": 4294967300}/' "$tmp/c.json" >"$tmp/c2.json"
expect_refused "ring size 2^32 + 4" "'size' must be at most" "$RINGSIM" simulate "$tmp/c2.json"
sed 's/"ring": {"size": 3}/"ring": {"size": 3, "seed": 9007199254740993}/' "$tmp/c.json" >"$tmp/c3.json"
"$RINGSIM" simulate "$tmp/c3.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL a seed beyond 2^53 refused"; cat "$tmp/err"; fail=1; }
refused_config "rebuild after 2^32 + 10" "'after' must be at most" ', "rebuild": [{"after": 4294967306}]'
refused_config "daily phase 1e308" "'phase' must be" ', "traces": {"source": "daily", "seed": 1, "phase": 1e308}'
refused_config "daily period 1e308" "'period' must be at most" ', "traces": {"source": "daily", "seed": 1, "period": 1e308}'
refused_config "hyperexponential cv 1e160" "'cv' must be at most" \
  ', "traces": {"source": "on-off", "seed": 1, "durations": "hyperexponential", "cv": 1e160}'
refused_config "report_bytes 1.9e19" "'report_bytes' must be at most" ', "report_bytes": 1.9e19'
refused_config "decision_flops 1e300" "'decision_flops' must be at most" ', "decision_flops": 1e300'
refused_config "staging nodes 2^32 + 2" "('staging' 'nodes' 4294967298: 590 EB), more than the 4 GB allowed; --max-memory GB raises the limit" ', "staging": {"nodes": 4294967298}'
refused_config "windows beyond 2^31" "must be at most" ', "traces": {"source": "factor", "seed": 1, "windows": [[1, 2147483648]]}'
experiment "$tmp/e.json"
sed 's/"ring_sizes": \[3\]/"ring_sizes": [4294967299]/' "$tmp/e.json" >"$tmp/e4.json"
expect_refused "experiment ring size 2^32 + 3" "out of range" "$RINGSIM" run "$tmp/e4.json" --out "$tmp/e4"
sed 's/"seeds": \[1\]/"seeds": [-1]/' "$tmp/e.json" >"$tmp/e5.json"
expect_refused "experiment seed -1" "out of range" "$RINGSIM" run "$tmp/e5.json" --out "$tmp/e5"
experiment "$tmp/e.json" ', "repetitions": 4294967297'
expect_refused "experiment repetitions 2^32 + 1" "'repetitions' must be" "$RINGSIM" run "$tmp/e.json" --out "$tmp/e6"

# --- 4. Duplicates refused.
config "$tmp/c.json"
sed 's/"ratio": 1,/"ratio": 0.1, "ratio": 10,/' "$tmp/c.json" >"$tmp/dup.json"; mv "$tmp/dup.json" "$tmp/c.json"
expect_refused "duplicate key ratio" "duplicate key 'ratio'" "$RINGSIM" simulate "$tmp/c.json"
config "$tmp/c.json"
sed 's/"ring": {"size": 3}/"ring": {"size": 3, "seed": 1, "seed": 2}/' "$tmp/c.json" >"$tmp/dup.json"; mv "$tmp/dup.json" "$tmp/c.json"
expect_refused "duplicate nested key" "duplicate key 'seed'" "$RINGSIM" simulate "$tmp/c.json"
experiment "$tmp/e.json"
sed 's/"seeds": \[1\]/"seeds": [1, 2, 1]/' "$tmp/e.json" >"$tmp/e7.json"
expect_refused "duplicate seeds" "'seeds' lists 1 twice" "$RINGSIM" run "$tmp/e7.json" --out "$tmp/e7"
sed 's/"ratios": \[1\]/"ratios": [1, 1.0]/' "$tmp/e.json" >"$tmp/e8.json"
expect_refused "duplicate ratios" "'ratios' lists" "$RINGSIM" run "$tmp/e8.json" --out "$tmp/e8"
sed 's/"ring_sizes": \[3\]/"ring_sizes": [3, 3]/' "$tmp/e.json" >"$tmp/e9.json"
expect_refused "duplicate ring sizes" "'ring_sizes' lists 3 twice" "$RINGSIM" run "$tmp/e9.json" --out "$tmp/e9"
sed 's/"ratios": \[1\]/"ratios": [1], "ratios": [2]/' "$tmp/e.json" >"$tmp/e10.json"
expect_refused "experiment duplicate key" "duplicate key 'ratios'" "$RINGSIM" run "$tmp/e10.json" --out "$tmp/e10"
printf '1\t0\tn1\t0\tx\t0\t0x10\t20\n2\t0\tn2\t0\tx\t0\t10\t20\n3\t0\tn3\t0\tx\t0\t10\t20\n' >"$tmp/hex.fta"
refused_config "FTA time in hexadecimal" "must be a number, got '0x10'" ', "traces": {"source": "fta", "file": "'"$tmp/hex.fta"'"}'
printf '1\t0\tn1\t0\tx\t0\t10\t20\n2\t0\tn2\t0\tx\t0\t10\t20\n3\t0\tn3\t0\tx\t0\t10\t20\n' >"$tmp/ok.fta"
printf '{"platform": "%s", "ring": {"hosts": ["h126", "h128", "h64"]}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "baseline": false, "traces": {"source": "fta", "file": "%s", "nodes": {"h126": "n1", "h128": "n2", "h64": "n3", "h1": "n1"}}}\n' \
  "$PLATFORM" "$tmp/ok.fta" >"$tmp/fta.json"
expect_refused "FTA nodes naming a host outside the ring" "host 'h1', which is not in the ring" "$RINGSIM" simulate "$tmp/fta.json"
sed 's/"h1": "n1"/"h1": "n1"/; s/"h64": "n3", "h1": "n1"/"h64": "n9"/' "$tmp/fta.json" >"$tmp/fta2.json"
expect_refused "FTA nodes naming a node not in the file" "no node 'n9'" "$RINGSIM" simulate "$tmp/fta2.json"

# --- 5. Sizes told before they cost: a sweep states its run count and refuses more than --max-runs.
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["seeds"] = list(range(1, 200002)); json.dump(d, open(sys.argv[2], "w"))' \
  "$tmp/e.json" "$tmp/big.json"
expect_refused "200001 seeds" "more than --max-runs 100000" "$RINGSIM" run "$tmp/big.json" --out "$tmp/big"
[ -e "$tmp/big" ] && { echo "FAIL a refused sweep created its folder"; fail=1; }
sed 's/"seeds": \[1\]/"seeds": [1, 2]/' "$tmp/e.json" >"$tmp/two.json"
expect_refused "--max-runs 1" "the sweep has 2 runs, more than --max-runs 1" "$RINGSIM" run "$tmp/two.json" --out "$tmp/two" --max-runs 1
"$RINGSIM" run "$tmp/two.json" --out "$tmp/two" --max-runs 2 >"$tmp/out" 2>"$tmp/err" \
  && grep -q "sweep of 2 runs" "$tmp/err" || { echo "FAIL a sweep does not state its run count:"; cat "$tmp/err"; fail=1; }
"$RINGSIM" run --help | grep -q -- "--max-runs" || { echo "FAIL run --help does not document --max-runs"; fail=1; }

# --- 6. Profiles of the platform file that SimGrid applies itself (and the end-of-run check).
# three_hosts FILE HOST_B_ATTRS LINK_AB_ATTRS: the 0-B/s platform above with attributes added,
# and a link 'spare' that no route uses.
three_hosts() {
  sed -e "s|<host id=\"b\" speed=\"1Gf\"/>|<host id=\"b\" speed=\"1Gf\" $2/>|" \
      -e "s|<link id=\"ab\" bandwidth=\"0Bps\" latency=\"1ms\"/>|<link id=\"ab\" bandwidth=\"1MBps\" latency=\"1ms\" $3/><link id=\"spare\" bandwidth=\"1MBps\" latency=\"1ms\" $4/>|" \
      "$tmp/zero.xml" >"$1"
}
printf '0 1\n0.05 0\n' >"$tmp/off.profile"
printf '0 0.001\n0.05 inf\n' >"$tmp/inf.profile"
printf '{"platform": "%s", "ring": {"hosts": ["a", "b", "c"]}, "iterations": 50, "rows": 10, "columns": 12, "ratio": 1, "baseline": false}\n' \
  "$tmp/prof.xml" >"$tmp/prof.json"
# A member turned off by its state_file (SimGrid would kill its actors: a deadlock), a route's link
# turned off (a backtrace and exit 1) or at 0 B/s (SimGrid aborts): refused before the run,
# naming the host or link and the file.
three_hosts "$tmp/prof.xml" 'state_file="off.profile"' '' ''
expect_refused "member turned off by its state_file" "ring host 'b' is turned off at t = 0.05 s by its state profile '$tmp/off.profile'" \
  "$RINGSIM" simulate "$tmp/prof.json"
three_hosts "$tmp/prof.xml" '' 'bandwidth_file="off.profile"' ''
expect_refused "route link bandwidth_file reaching 0" "ring route link 'ab' has its bandwidth at 0 at t = 0.05 s by its bandwidth profile '$tmp/off.profile'" \
  "$RINGSIM" simulate "$tmp/prof.json"
three_hosts "$tmp/prof.xml" '' 'state_file="off.profile"' ''
expect_refused "route link turned off by its state_file" "ring route link 'ab' is turned off at t = 0.05 s" "$RINGSIM" simulate "$tmp/prof.json"
# The same on a link no route uses: the run is simulated.
three_hosts "$tmp/prof.xml" '' '' 'bandwidth_file="off.profile"'
"$RINGSIM" simulate "$tmp/prof.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL a profile on an unused link refused:"; cat "$tmp/err"; fail=1; }
# A route's latency made infinite mid-run: SimGrid stops with a deadlock; the end-of-run check says
# where the run stopped and names the profile, never a partial makespan.
three_hosts "$tmp/prof.xml" '' 'latency_file="inf.profile"' ''
expect_refused "route latency_file reaching inf" "the simulation stopped at iteration 10 of 50" "$RINGSIM" simulate "$tmp/prof.json"
grep -qF "link 'ab' has its latency at inf at t = 0.05 s by its latency profile '$tmp/inf.profile'" "$tmp/err" \
  || { echo "FAIL the end-of-run check does not name the link's profile:"; cat "$tmp/err"; fail=1; }
# In a sweep, those runs failed (exit 2) and left no row.
printf '{"name": "prof", "base": {"platform": "%s", "ring": {"hosts": ["a", "b", "c"]}, "rows": 10, "columns": 12, "iterations": 50, "baseline": false}, "ring_sizes": [3], "ratios": [1], "schemes": ["none", "every-10"], "seeds": [1]}\n' \
  "$tmp/prof.xml" >"$tmp/prof-exp.json"
"$RINGSIM" run "$tmp/prof-exp.json" --out "$tmp/prof-sweep" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || { echo "FAIL sweep stopped by a latency profile: exit $rc"; cat "$tmp/err"; fail=1; }
grep -q "2 failed" "$tmp/err" || { echo "FAIL sweep stopped by a latency profile did not count 2 failed runs:"; cat "$tmp/err"; fail=1; }
if [ -f "$tmp/prof-sweep/runs.csv" ] && [ "$(wc -l <"$tmp/prof-sweep/runs.csv")" -ne 1 ]; then
  echo "FAIL sweep stopped by a latency profile wrote a row:"; cat "$tmp/prof-sweep/runs.csv"; fail=1
fi

# --- 7. Command-line integers: decimal digits only, 64 bits, then the option's own type and range;
# refused naming the option, or taken exactly (no wraparound, no octal or hexadecimal).
experiment "$tmp/e.json"
for v in 2147483648 4294967296 4294967300 18446744073709551616 -1 1e3 0x10; do
  expect_refused "run --jobs $v" "--jobs" "$RINGSIM" run "$tmp/e.json" --out "$tmp/jobs" --jobs "$v"
done
for v in 18446744073709551616 -1 1e3 0x10 0x0; do
  expect_refused "run --max-runs $v" "--max-runs" "$RINGSIM" run "$tmp/e.json" --out "$tmp/maxruns" --max-runs "$v"
done
[ -e "$tmp/jobs" ] || [ -e "$tmp/maxruns" ] && { echo "FAIL a refused command line created its sweep folder"; fail=1; }
TIERS_ARGS="1 5 5 10 10 5 2 1 1 2 1"
for v in 18446744073709551616 -1 1e3 0x10 0b1 " 1"; do
  expect_refused "platform tiers --seed $v" "--seed" "$RINGSIM" platform tiers $TIERS_ARGS --seed "$v" -o "$tmp/t.xml"
done
# given=taken: 010 is ten (CLI11 alone reads it as octal eight)
for vv in 4294967296=4294967296 4294967300=4294967300 18446744073709551615=18446744073709551615 010=10; do
  v=${vv%=*}
  "$RINGSIM" platform tiers $TIERS_ARGS --seed "$v" -o "$tmp/t.xml" >"$tmp/out" 2>"$tmp/err" \
    && grep -q "\"seed\":${vv#*=}[,}]" "$tmp/out" \
    || { echo "FAIL platform tiers --seed $v not taken as ${vv#*=}:"; cat "$tmp/out" "$tmp/err"; fail=1; }
done
for v in 18446744073709551616 -1 1e3 0x10; do
  expect_refused "platform tiers --hosts $v" "--hosts" "$RINGSIM" platform tiers $TIERS_ARGS --hosts "$v" -o "$tmp/t.xml"
  expect_refused "platform describe --pairs $v" "--pairs" "$RINGSIM" platform describe "$PLATFORM" --pairs "$v"
  expect_refused "ring --candidates $v" "--candidates" "$RINGSIM" ring "$PLATFORM" --work 1e9 --comm 1e6 --candidates "$v"
  expect_refused "bench kpbs --seed $v" "--seed" "$RINGSIM" bench kpbs --sizes 4 --seed "$v"
done
printf '{"bidirectional": false, "loads": [5, 3], "targets": [4, 4], "cost_next": [1, 1]}\n' >"$tmp/r.json"
for v in 9223372036854775808 18446744073709551616 1e3 0x10 1.5; do
  expect_refused "redistribute --max-blocks $v" "--max-blocks" "$RINGSIM" redistribute "$tmp/r.json" --max-blocks "$v"
done
"$RINGSIM" redistribute "$tmp/r.json" --max-blocks 4294967296 >"$tmp/out" 2>"$tmp/err" \
  || { echo "FAIL redistribute --max-blocks 2^32 refused:"; cat "$tmp/err"; fail=1; }

# --- 8. The redistribute and kpbs readers: counts at full width, sums that cannot wrap, no
# repeated key, sizes bounded before they are held.
red() { printf '%s\n' "$1" >"$tmp/r.json"; }
red '{"bidirectional": false, "loads": [1, 1], "loads": [5, 3], "targets": [4, 4], "cost_next": [1, 1]}'
expect_refused "redistribute duplicate key" "duplicate key 'loads'" "$RINGSIM" redistribute "$tmp/r.json"
red '{"bidirectional": false, "loads": [9223372036854775808, 1], "targets": [4, 4], "cost_next": [1, 1]}'
expect_refused "redistribute load 2^63" "loads[0] is out of range" "$RINGSIM" redistribute "$tmp/r.json"
red '{"bidirectional": false, "loads": [4611686018427387904, 4611686018427387904, 1], "targets": [4611686018427387904, 4611686018427387904, 1], "cost_next": [1, 1, 1]}'
expect_refused "redistribute loads summing past 2^63" "loads sum to more than 4611686018427387904" "$RINGSIM" redistribute "$tmp/r.json"
red '{"bidirectional": false, "loads": [9223372036854775807, 9223372036854775807, 2], "targets": [9223372036854775807, 9223372036854775807, 2], "cost_next": [1, 1, 1]}'
expect_refused "redistribute loads wrapping to a balanced sum" "(2^62)" "$RINGSIM" redistribute "$tmp/r.json" --summary
red '{"bidirectional": false, "loads": [5, 3], "targets": [4, 4], "cost_next": [1e400, 1]}'
expect_refused "redistribute cost 1e400" "number '1e400'" "$RINGSIM" redistribute "$tmp/r.json"
/usr/bin/python3 -c 'import json; print(json.dumps({"k": 1, "beta": 1, "matrix": [[1]] * 5001}))' >"$tmp/k.json"
expect_refused "kpbs 5001 senders" "'matrix' has more than 5000 rows" "$RINGSIM" kpbs "$tmp/k.json"
/usr/bin/python3 -c 'import json; print(json.dumps({"k": 1, "beta": 1, "matrix": [[1] * 5001]}))' >"$tmp/k.json"
expect_refused "kpbs 5001 receivers" "'matrix'[0] has more than 5000 entries" "$RINGSIM" kpbs "$tmp/k.json"
expect_refused "kpbs 5001 receivers from stdin" "'matrix'[0] has more than 5000 entries" "$RINGSIM" kpbs - <"$tmp/k.json"
printf '{"k": 18446744073709551616, "beta": 1, "matrix": [[1]]}\n' >"$tmp/k.json"
expect_refused "kpbs k 2^64" "'k' must be an integer" "$RINGSIM" kpbs "$tmp/k.json"
printf '{"k": 1, "beta": 1, "matrix": [[1e400]]}\n' >"$tmp/k.json"
expect_refused "kpbs entry 1e400" "number overflow parsing '1e400'" "$RINGSIM" kpbs "$tmp/k.json"

# --- 9. FTA 'nodes' naming a host the platform does not have, the ring drawn at random.
/usr/bin/python3 - "$PLATFORM" "$tmp/ok.fta" "$tmp/fta3.json" <<'PY'
import json, re, sys
hosts = re.findall(r'<host id="([^"]+)"', open(sys.argv[1]).read())
nodes = {h: "n1" for h in hosts}
nodes["h_nowhere"] = "n2"
json.dump({"platform": sys.argv[1], "ring": {"size": 3, "seed": 1}, "iterations": 3, "rows": 10, "columns": 12,
           "ratio": 1, "baseline": False, "traces": {"source": "fta", "file": sys.argv[2], "nodes": nodes}},
          open(sys.argv[3], "w"))
PY
expect_refused "FTA nodes naming a host not on the platform" "host 'h_nowhere', which is not on the platform '$PLATFORM'" \
  "$RINGSIM" simulate "$tmp/fta3.json"
grep -qF "$tmp/ok.fta" "$tmp/err" || { echo "FAIL the FTA refusal does not name the FTA file"; fail=1; }

# --- 10. Memory-heavy sizes: the limit named, and what to do; a sweep refused before its folder.
config "$tmp/c.json" ', "ring": {"size": 38}, "columns": 100'
expect_refused "ring of 38 on 37 hosts" "ring 'size' must be at most 37" "$RINGSIM" simulate "$tmp/c.json"
# The run's memory, estimated from its sizes, against --max-memory (default 4 GB): refused with
# the size that costs most and the option; allowed by the option (--list builds, runs nothing).
refused_config "columns beyond the budget" "the run would hold about 5 GB ('columns' 500000000: 5 GB), more than the 4 GB allowed; --max-memory GB raises the limit" ', "columns": 500000000'
refused_config "iterations beyond the budget" "('iterations' 2000000000: 272 GB)" ', "iterations": 2000000000'
refused_config "staging nodes beyond the budget" "('staging' 'nodes' 12000: 4.61 GB)" ', "staging": {"nodes": 12000}'
config "$tmp/c.json" ''
# (12 columns and 3 iterations of 3 members: 120 + 408 bytes)
expect_refused "a budget below a small run" "about 528 bytes ('iterations' 3: 408 bytes), more than the 500 bytes allowed" \
  "$RINGSIM" simulate "$tmp/c.json" --max-memory 5e-7
expect_refused "traces: the same budget" "more than the 500 bytes allowed" "$RINGSIM" traces "$tmp/c.json" --max-memory 5e-7 -o "$tmp/tr"
[ -e "$tmp/tr" ] && { echo "FAIL traces refused by the budget wrote its folder"; fail=1; }
for bad in nan inf -1 0 4x; do
  expect_refused "--max-memory $bad" "--max-memory" "$RINGSIM" simulate "$tmp/c.json" --max-memory "$bad"
done
experiment "$tmp/e.json" ', "ring_sizes": [38], "base": {"platform": "'"$PLATFORM"'", "rows": 10, "columns": 100, "iterations": 2, "baseline": false}'
expect_refused "sweep ring size 38 on 37 hosts" "list ring_sizes of at most 37" "$RINGSIM" run "$tmp/e.json" --out "$tmp/big38"
[ -e "$tmp/big38" ] && { echo "FAIL a sweep of a ring too large created its folder"; fail=1; }
experiment "$tmp/e.json" ', "base": {"platform": "'"$PLATFORM"'", "rows": 10, "columns": 500000000, "iterations": 2, "baseline": false}'
expect_refused "sweep columns beyond the budget" "('columns' 500000000: 5 GB), more than the 4 GB allowed; --max-memory GB raises the limit" \
  "$RINGSIM" run "$tmp/e.json" --out "$tmp/bigcols"
[ -e "$tmp/bigcols" ] && { echo "FAIL a sweep of too many columns created its folder"; fail=1; }
if "$RINGSIM" run "$tmp/e.json" --out "$tmp/bigcols" --list --max-memory 6 >"$tmp/list" 2>"$tmp/err"; then
  grep -q -- "--max-memory 6$" "$tmp/list" || { echo "FAIL run --list does not pass --max-memory to its runs"; head -2 "$tmp/list"; fail=1; }
else
  echo "FAIL --max-memory 6 does not allow 5 GB of columns: $(cat "$tmp/err")"; fail=1
fi
"$RINGSIM" simulate --help | grep -q "<= --max-memory GB" || { echo "FAIL simulate --help does not state the limits"; fail=1; }

# --- 11. Standard input beyond the limit: one line, read no further (RINGSIM_MAX_INPUT_BYTES lowers
# the 512 MiB limit, so the test streams a few kilobytes, then 64 MiB that must stop at 1 MiB).
expect_refused "redistribute - beyond the input limit" "standard input is larger than 1000 bytes" \
  bash -c 'head -c 2000 /dev/zero | RINGSIM_MAX_INPUT_BYTES=1000 "$0" redistribute -' "$RINGSIM"
expect_refused "kpbs - beyond the input limit" "standard input is larger than 1048576 bytes" \
  bash -c '$VLIMIT 2000000; head -c 64M /dev/zero | RINGSIM_MAX_INPUT_BYTES=1048576 timeout 20 "$0" kpbs -' "$RINGSIM"
expect_refused "RINGSIM_MAX_INPUT_BYTES not a number" "RINGSIM_MAX_INPUT_BYTES must be" \
  bash -c 'echo {} | RINGSIM_MAX_INPUT_BYTES=1k "$0" redistribute -' "$RINGSIM"

[ $fail -eq 0 ] && echo "all hostile input tests passed"
exit $fail
