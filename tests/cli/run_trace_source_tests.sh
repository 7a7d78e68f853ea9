#!/usr/bin/env bash
# Trace sources: random-walk, on-off, daily and files (SimGrid profiles or a CSV of
# speeds) on a small ring of the 2004 platform; bad trace files; `simulate --traces-dir` -> files round trip.
set -u
RINGSIM=${1:?usage: run_trace_source_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
cp "$PLATFORM" platform.xml
BASE='"platform": "platform.xml", "ring": {"size": 6, "seed": 2}, "ratio": 1, "iterations": 10, "rows": 100, "columns": 100, "scheme": "every-3"'
config() { echo "{$BASE, \"traces\": $2}" >"$1"; }
makespan() { $PY -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan"]))' "$1"; }

# 1. Each new source simulates (exit 0, a positive makespan).
config rw.json '{"seed": 3, "source": "random-walk", "step": 0.2, "low": 0.3, "high": 1.2, "every": 2}'
config oo.json '{"seed": 3, "source": "on-off", "available": 3, "loaded": 2, "load_factor": 0.25}'
config fa.json '{"seed": 3, "source": "factor", "windows": [[2, 4], [6, 8]]}'
config hp.json '{"seed": 3, "source": "on-off", "available": 3, "loaded": 2, "load_factor": 0.25, "durations": "pareto", "shape": 1.5}'
config dy.json '{"seed": 3, "source": "daily", "period": 4, "low": 0.3, "high": 1.0, "noise": 0.05, "phase": "random", "every": 1}'
for c in rw oo fa hp dy; do
  "$RINGSIM" simulate $c.json >$c.out 2>err || { echo "FAIL simulate $c"; cat err; fail=1; continue; }
  $PY -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["makespan"] > 0 and r["redistribution_points"] == 3, r' $c.out \
    || { echo "FAIL $c summary"; fail=1; }
done
# Deterministic per seed; another seed, other traces.
"$RINGSIM" traces rw.json -o rw1 2>/dev/null && "$RINGSIM" traces rw.json -o rw2 2>/dev/null && diff -r rw1 rw2 >/dev/null \
  || { echo "FAIL random-walk traces differ between two runs"; fail=1; }
sed 's/"seed": 3, "source"/"seed": 4, "source"/' rw.json >rw4.json
"$RINGSIM" traces rw4.json -o rw4 2>/dev/null; diff -r rw1 rw4 >/dev/null && { echo "FAIL random-walk seed ignored"; fail=1; }
"$RINGSIM" traces dy.json -o dy1 2>/dev/null && "$RINGSIM" traces dy.json -o dy2 2>/dev/null && diff -r dy1 dy2 >/dev/null \
  || { echo "FAIL daily traces differ between two runs"; fail=1; }
sed 's/"seed": 3, "source"/"seed": 4, "source"/' dy.json >dy4.json
"$RINGSIM" traces dy4.json -o dy4 2>/dev/null; diff -r dy1 dy4 >/dev/null && { echo "FAIL daily seed ignored"; fail=1; }
# the daily traces stay within [low, high] and change at (nearly) every iteration
$PY - dy1/traces.csv <<'PY' || { echo "FAIL daily traces.csv"; fail=1; }
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["iteration"] != "0"]
m = [float(r["multiplier"]) for r in rows]
assert rows and min(m) >= 0.3 and max(m) <= 1.0, (min(m), max(m))
assert len(rows) >= 6 * 9, len(rows)
PY

# 2. Round trip: `simulate --traces-dir` (when each change took effect in the run) -> source files
#    (profiles, time CSV, iteration CSV) -> the same run.
for src in fa rw oo hp dy; do
  "$RINGSIM" simulate $src.json --no-baseline --traces-dir "tr_$src" >/dev/null 2>err || { echo "FAIL traces $src"; cat err; fail=1; continue; }
  profiles=$(cd "tr_$src" && for f in *.profile; do printf '"%s": "tr_%s/%s",' "${f%.profile}" "$src" "$f"; done)
  config "files_$src.json" "{\"source\": \"files\", \"profiles\": {${profiles%,}}}"
  $PY - "tr_$src/traces.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open("speeds_time.csv", "w") as f:
    f.write("host,time,speed\n")
    for r in rows: f.write(f"{r['host']},{r['time']},{r['speed_flops']}\n")
with open("speeds_iteration.csv", "w") as f:
    f.write("host,iteration,speed\n")
    for r in rows: f.write(f"{r['host']},{r['iteration']},{r['speed_flops']}\n")
PY
  config "csv_$src.json" '{"source": "files", "csv": "speeds_time.csv"}'
  config "csvit_$src.json" '{"source": "files", "csv": "speeds_iteration.csv"}'
  want=$(makespan $src.out)
  for c in files csv csvit; do
    "$RINGSIM" simulate "${c}_$src.json" >"${c}_$src.out" 2>err || { echo "FAIL simulate ${c}_$src"; cat err; fail=1; continue; }
    got=$(makespan "${c}_$src.out")
    # equal to rounding: the iteration CSV goes through speed / peak * peak, the others give the
    # host's speed where the run divided the member's work by the multiplier
    $PY -c 'import sys; a,b=map(float,sys.argv[1:]); assert abs(a-b) <= 1e-9*a, (a,b)' "$want" "$got" \
      || { echo "FAIL round trip $c $src: $got != $want"; fail=1; }
  done
  # the files source writes the same profiles back (equal steps; two lines at time 0 may become one)
  "$RINGSIM" traces "files_$src.json" -o "back_$src" 2>/dev/null
  for f in "tr_$src"/*.profile; do
    $PY - "$f" "back_$src/$(basename "$f")" <<'PY' || { echo "FAIL profile $f not reproduced"; fail=1; }
import sys
def steps(path):
    d = {}
    for line in open(path):
        t, v = line.split()
        d[float(t)] = float(v)
    return d
assert steps(sys.argv[1]) == steps(sys.argv[2])
PY
  done
done
echo "round trips: $(makespan fa.out) $(makespan rw.out) $(makespan oo.out)"

# 3. Bad trace files: exit 2, exactly one stderr line naming the problem.
bad() {  # name traces-json expected-substring
  config "bad_$1.json" "$2"
  expect_refused "$1" "$3" "$RINGSIM" simulate "bad_$1.json"
}
ring_profiles() {  # every member's profile from tr_fa, SunOS's replaced by $1 (empty: SunOS left out)
  local p
  p=$(cd tr_fa && for f in *.profile; do h=${f%.profile}; [ "$h" = SunOS ] && continue; printf '"%s": "tr_fa/%s",' "$h" "$f"; done)
  [ -n "$1" ] && p="$p\"SunOS\": \"$1\","
  echo "{\"source\": \"files\", \"profiles\": {${p%,}}}"
}
printf '0 1.0\n5 0.5\n3 0.7\n' >unsorted.profile
printf '0 1.0\n5 0\n' >zero.profile
printf '0 1.0\n5 half\n' >garbled.profile
bad unsorted "$(ring_profiles unsorted.profile)" "'unsorted.profile':3: times must be sorted"
bad zero "$(ring_profiles zero.profile)" "'zero.profile':2: speed multiplier must be > 0"
bad garbled "$(ring_profiles garbled.profile)" "'garbled.profile':2: expected 'time value'"
bad unreadable "$(ring_profiles missing.profile)" "cannot read 'missing.profile'"
bad no_member "$(ring_profiles '')" "no speed trace for host 'SunOS'"
grep -v '^SunOS,' speeds_time.csv >nosunos.csv
bad csv_member '{"source": "files", "csv": "nosunos.csv"}' "no speed trace for host 'SunOS' in 'nosunos.csv'"
printf 'host,time,speed\nSunOS,2,1e7\nSunOS,1,1e7\n' >unsorted.csv
bad csv_unsorted '{"source": "files", "csv": "unsorted.csv"}' "'unsorted.csv':3: times of host 'SunOS' must be sorted"
printf 'host,time,speed\nSunOS,2,-1e7\n' >negative.csv
bad csv_speed '{"source": "files", "csv": "negative.csv"}' "'negative.csv':2: speed must be > 0"
printf 'host;time;speed\n' >header.csv
bad csv_header '{"source": "files", "csv": "header.csv"}' "'header.csv':1: expected the header"
bad csv_missing '{"source": "files", "csv": "nothere.csv"}' "cannot read 'nothere.csv'"
bad rw_bounds '{"source": "random-walk", "low": 2, "high": 1}' "0 < low <= high"
bad onoff_mean '{"source": "on-off", "available": 0.5}' "'available' and 'loaded' must be >= 1"
bad daily_period '{"source": "daily", "period": 1}' "daily 'period' must be >= 2"
bad daily_bounds '{"source": "daily", "low": 1.5, "high": 1}' "daily bounds must satisfy 0 < low <= high"
bad daily_noise '{"source": "daily", "noise": -0.1}' "daily 'noise' must be >= 0"
bad daily_phase '{"source": "daily", "phase": "utc"}' "daily 'phase' must be \"random\" or a number"
bad daily_key '{"source": "daily", "step": 0.1}' "'step'"

# 4. Every line of a trace file is used or refused: a host the platform lacks is exit 2 naming the
#    file, the line and the host (a host of the platform outside the ring is fine, unused); a
#    change past the last iteration or a speed below 1e-3 of the host's peak is one warning line
#    each (the first such line), and an error with --strict; a sweep refuses before it runs.
cp "$(dirname "$PLATFORM")/../docs/examples/my-platform.xml" small.xml
SMALL='"platform": "small.xml", "ring": {"hosts": ["a0", "a1", "b0"]}, "ratio": 1, "iterations": 10, "rows": 50, "columns": 60, "scheme": "every-5"'
small() { echo "{$SMALL, \"traces\": $2}" >"$1"; }
printf 'host,iteration,speed\na0,0,1e9\nzz,3,1e9\na1,0,2e9\nb0,0,1e9\n' >unknown-it.csv
printf 'host,time,speed\na0,0,1e9\na1,0,2e9\nb0,0,1e9\nb0,0.5,5e8\nzz,1,1e9\n' >unknown-time.csv
printf '0 1.0\n0.5 0.5\n' >p.profile
small unknown_it.json '{"source": "files", "csv": "unknown-it.csv"}'
small unknown_time.json '{"source": "files", "csv": "unknown-time.csv"}'
small unknown_prof.json '{"source": "files", "profiles": {"a0": "p.profile", "a1": "p.profile", "b0": "p.profile", "zz": "p.profile"}}'
expect_refused csv_unknown_host_it "'unknown-it.csv':3: host 'zz' is not in platform 'small.xml'" "$RINGSIM" simulate unknown_it.json
expect_refused csv_unknown_host_time "'unknown-time.csv':6: host 'zz' is not in platform" "$RINGSIM" simulate unknown_time.json
expect_refused profile_unknown_host "traces 'profiles' (file 'p.profile'): host 'zz' is not in platform" "$RINGSIM" simulate unknown_prof.json
expect_refused traces_unknown_host "'unknown-it.csv':3: host 'zz'" "$RINGSIM" traces unknown_it.json -o unk
# hosts of the platform outside the ring (a2, b3): accepted, silent
printf 'host,iteration,speed\na0,0,1e9\na2,3,1e8\na1,0,2e9\nb0,0,1e9\nb3,2,1e9\n' >outside-it.csv
printf 'host,time,speed\na0,0,1e9\na2,0.1,1e8\na1,0,2e9\nb0,0,1e9\n' >outside-time.csv
small outside_it.json '{"source": "files", "csv": "outside-it.csv"}'
small outside_time.json '{"source": "files", "csv": "outside-time.csv"}'
small outside_prof.json '{"source": "files", "profiles": {"a0": "p.profile", "a1": "p.profile", "b0": "p.profile", "a2": "p.profile"}}'
for c in outside_it outside_time outside_prof; do
  "$RINGSIM" simulate $c.json >$c.out 2>err || { echo "FAIL $c: exit $?"; cat err; fail=1; }
  [ -s err ] && { echo "FAIL $c: said something:"; cat err; fail=1; }
done
# warnings: printed once each (the baseline run says nothing), the run goes on; --strict refuses.
# (Below 1e-6 of the peak, a member's speed is refused anyway: SimGrid cannot resolve it.)
warned() {  # name config fragment...: exit 0, one stderr line per fragment, each fragment once
  local name=$1 cfg=$2 f
  shift 2
  "$RINGSIM" simulate "$cfg" >"$name.out" 2>"$name.err" || { echo "FAIL $name: exit $?"; cat "$name.err"; fail=1; }
  [ "$(wc -l <"$name.err")" -eq $# ] || { echo "FAIL $name: expected $# warning line(s):"; cat "$name.err"; fail=1; }
  for f in "$@"; do
    [ "$(grep -cF -- "$f" "$name.err")" -eq 1 ] || { echo "FAIL $name: no single line with '$f':"; cat "$name.err"; fail=1; }
  done
  grep -v '^ringsim: warning: ' "$name.err" && { echo "FAIL $name: not a warning line"; fail=1; }
}
printf 'host,iteration,speed\na0,0,1e9\na0,12,5e8\na0,15,5e8\na1,0,2e9\na1,4,1e5\nb0,0,1e9\nb0,5,5e5\n' >warn-it.csv
printf 'host,time,speed\na0,0,1e9\na1,0,2e9\nb0,0,1e9\nb0,0.5,5e4\n' >warn-time.csv
printf '0 1.0\n0.5 0.0002\n0.8 1.0\n' >low.profile
small warn_it.json '{"source": "files", "csv": "warn-it.csv"}'
small warn_time.json '{"source": "files", "csv": "warn-time.csv"}'
small warn_prof.json '{"source": "files", "profiles": {"a0": "p.profile", "a1": "low.profile", "b0": "p.profile"}}'
warned warn_it warn_it.json "'warn-it.csv':3: host 'a0' at iteration 12" "'warn-it.csv':6: host 'a1' at 100000 flop/s"
warned warn_time warn_time.json "'warn-time.csv':5: host 'b0' at 50000 flop/s" \
  "'warn-time.csv': the traces' last change is at 0.5 s (host 'b0')"
warned warn_prof warn_prof.json "'low.profile':2: host 'a1' at multiplier 0.0002"
grep -qF "2 trace line(s) past the run's last iteration (10)" warn_it.err || { echo "FAIL warn_it: count"; cat warn_it.err; fail=1; }
grep -qF "2 trace speed(s) below 0.001 of their host's peak" warn_it.err || { echo "FAIL warn_it: low count"; cat warn_it.err; fail=1; }
cmp -s warn_it.out outside_it.out && { echo "FAIL warn_it: the warned lines changed nothing"; fail=1; }
expect_refused strict_it "'warn-it.csv':3: host 'a0' at iteration 12" "$RINGSIM" simulate warn_it.json --strict
expect_refused strict_time "'warn-time.csv':5: host 'b0' at 50000 flop/s" "$RINGSIM" simulate warn_time.json --strict
expect_refused strict_prof "'low.profile':2: host 'a1'" "$RINGSIM" simulate warn_prof.json --strict
expect_refused strict_traces "'warn-time.csv':5: host 'b0'" "$RINGSIM" traces warn_time.json -o strict-out --strict
"$RINGSIM" simulate outside_it.json --strict >strict_ok.out 2>err || { echo "FAIL --strict refused clean traces"; cat err; fail=1; }
cmp -s strict_ok.out outside_it.out || { echo "FAIL --strict changed a clean run's answer"; fail=1; }
# sweeps: refused before the sweep's folder exists; warned once; --strict refuses
sweep() {  # file traces-json
  echo "{\"base\": {$SMALL, \"traces\": $2}, \"ring_sizes\": [3], \"ratios\": [1], \"schemes\": [\"every-5\"], \"seeds\": [1]}" >"$1"
}
sweep sw_unknown_it.json '{"source": "files", "csv": "unknown-it.csv"}'
sweep sw_unknown_time.json '{"source": "files", "csv": "unknown-time.csv"}'
sweep sw_unknown_prof.json '{"source": "files", "profiles": {"a0": "p.profile", "a1": "p.profile", "b0": "p.profile", "zz": "p.profile"}}'
sweep sw_warn.json '{"source": "files", "csv": "warn-it.csv"}'
sweep sw_outside.json '{"source": "files", "csv": "outside-it.csv"}'
for s in "sw_unknown_it:/unknown-it.csv':3: host 'zz' is not in platform" \
         "sw_unknown_time:/unknown-time.csv':6: host 'zz' is not in platform" \
         "sw_unknown_prof:(file '$tmp/p.profile'): host 'zz' is not in platform"; do
  expect_refused "${s%%:*}" "${s#*:}" "$RINGSIM" run "${s%%:*}.json" --out "${s%%:*}.d"
  [ -e "${s%%:*}.d" ] && { echo "FAIL ${s%%:*}: the sweep created its folder"; fail=1; }
done
expect_refused sw_strict "/warn-it.csv':3: host 'a0' at iteration 12" "$RINGSIM" run sw_warn.json --out sw_strict.d --strict
[ -e sw_strict.d ] && { echo "FAIL sw_strict: the sweep created its folder"; fail=1; }
"$RINGSIM" run sw_warn.json --out sw_warn.d >/dev/null 2>sw_warn.err || { echo "FAIL sw_warn: exit $?"; cat sw_warn.err; fail=1; }
[ "$(grep -c "^ringsim: warning: .*past the run's last iteration" sw_warn.err)" -eq 1 ] \
  || { echo "FAIL sw_warn: not one warning line"; cat sw_warn.err; fail=1; }
"$RINGSIM" run sw_outside.json --out sw_outside.d --strict >/dev/null 2>err || { echo "FAIL sw_outside: exit $?"; cat err; fail=1; }
"$RINGSIM" run sw_warn.json --out sw_list.d --strict --list >/dev/null 2>&1 && { echo "FAIL sw_list: --strict --list ran"; fail=1; }

[ $fail -eq 0 ] && echo "all trace source tests passed"
exit $fail
