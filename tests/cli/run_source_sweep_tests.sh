#!/usr/bin/env bash
# Trace sources that say what they do, user trace files in sweeps, sweeps checked before they run:
# files with "default": "constant"; speeds above the peak kept and reported; no source -> measured
# only on the paper's platform; source "platform" (the platform's own speed profiles); file and
# platform sources swept over seeds; sweeps refusing bad hosts, sizes and files before any run;
# iterations.csv's slowest member; `platform describe` and simulate's refusal on profiled hosts.
set -u
RINGSIM=${1:?usage: run_source_sweep_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
cp -r "$ROOT/tests/platforms/speed_profiles.xml" "$ROOT/tests/platforms/profiles" .
# The same platform without its profiles (every host keeps its peak speed).
sed -e 's/ speed_file="[^"]*"//' -e '/trace_connect/d' speed_profiles.xml >plain.xml
field() { $PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
SMALL='"iterations": 6, "rows": 100, "columns": 100, "ratio": 1'

# 1. files with "default": "constant": members without a trace keep their peak speed.
printf 'host,time,speed\nsteady-1,0,1e9\nsteady-1,0.01,5e8\n' >part.csv
echo "{\"platform\": \"plain.xml\", \"ring\": {\"hosts\": [\"steady-1\", \"steady-2\", \"varying\"]}, $SMALL, \"scheme\": \"none\",
  \"traces\": {\"source\": \"files\", \"csv\": \"part.csv\", \"default\": \"constant\"}}" >const.json
if "$RINGSIM" simulate const.json --no-baseline --traces-dir tr_const >const.out 2>err; then
  $PY - tr_const/traces.csv <<'PY' || { echo "FAIL default constant: traces.csv"; fail=1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows: by.setdefault(r["host"], []).append(float(r["multiplier"]))
assert by["steady-2"] == [1.0] and by["varying"] == [1.0], by
assert 0.5 in by["steady-1"], by
PY
else echo "FAIL default constant: simulate"; cat err; fail=1; fi
sed 's/"default": "constant"/"default": "refuse"/' const.json >refuse.json
"$RINGSIM" simulate refuse.json --no-baseline >out 2>err; rc=$?
refused_line default_refuse $rc - err "no speed trace for host 'steady-2' in 'part.csv'"
sed 's/"default": "constant"/"default": "maybe"/' const.json >maybe.json
"$RINGSIM" simulate maybe.json --no-baseline >out 2>err; rc=$?
refused_line default_unknown $rc - err "traces 'default' must be \"refuse\""

# 2. A speed above the peak: kept, one warning line naming file:line, host, speed and peak.
printf 'host,time,speed\nsteady-1,0,1e9\nsteady-2,0,3e9\nvarying,0,1e9\n' >above.csv
sed 's/part.csv/above.csv/' const.json >above.json
if "$RINGSIM" simulate above.json --no-baseline >above.out 2>err; then
  [ "$(wc -l <err)" -eq 1 ] && grep -qF "ringsim: warning: 1 trace speed(s) above their host's peak, kept" err \
    && grep -qF "'above.csv':3: host 'steady-2' at 3000000000 flop/s, peak 1000000000" err \
    || { echo "FAIL above peak: warning"; cat err; fail=1; }
  [ "$(field above.out "d['speeds_above_peak'][0]['host'], len(d['speeds_above_peak'])")" = "('steady-2', 1)" ] \
    || { echo "FAIL above peak: speeds_above_peak"; fail=1; }
else echo "FAIL above peak: simulate"; cat err; fail=1; fi
printf '0 1.0\n1 1.5\n' >above.profile
echo "{\"platform\": \"plain.xml\", \"ring\": {\"hosts\": [\"steady-1\", \"steady-2\"]}, $SMALL, \"scheme\": \"none\",
  \"traces\": {\"source\": \"files\", \"profiles\": {\"steady-1\": \"above.profile\"}, \"default\": \"constant\"}}" >abovep.json
"$RINGSIM" simulate abovep.json --no-baseline >abovep.out 2>err \
  && grep -qF "'above.profile':2: host 'steady-1' at 1500000000 flop/s, peak 1000000000" err \
  || { echo "FAIL above peak (profile)"; cat err; fail=1; }

# 3. No traces source: the 2004 machine list on the paper's platform only, factor elsewhere; stated.
cp "$ROOT/platforms/tiers37.xml" other.xml
cp "$ROOT/platforms/paper2004_tiers90.xml" paper.xml
for p in other paper; do
  echo "{\"platform\": \"$p.xml\", \"ring\": {\"size\": 4, \"seed\": 3}, \"iterations\": 100, \"rows\": 100, \"columns\": 100,
    \"ratio\": 1, \"scheme\": \"none\", \"traces\": {\"seed\": 5}}" >nosrc_$p.json
  "$RINGSIM" simulate nosrc_$p.json --no-baseline --traces-dir tr_$p >nosrc_$p.out 2>err || { echo "FAIL no source on $p"; cat err; fail=1; }
done
[ "$(field nosrc_other.out "d['trace_source'], d['speeds_from_2004_machine_list']")" = "('factor', False)" ] \
  || { echo "FAIL no source on another platform: not factor"; fail=1; }
[ "$(field nosrc_paper.out "d['trace_source'], d['speeds_from_2004_machine_list']")" = "('measured', True)" ] \
  || { echo "FAIL no source on the paper's platform: not measured"; fail=1; }
$PY - tr_other/traces.csv <<'PY' || { echo "FAIL no source on another platform: multipliers outside the factor range"; fail=1; }
import csv, sys
m = [float(r["multiplier"]) for r in csv.DictReader(open(sys.argv[1]))]
assert min(m) >= 0.5 ** 2 and max(m) <= 1.5 ** 2, (min(m), max(m))
PY
# measured elsewhere only when asked for, and then said
sed 's/"seed": 5}/"seed": 5, "source": "measured"}/' nosrc_other.json >asked.json
"$RINGSIM" simulate asked.json --no-baseline >asked.out 2>/dev/null
[ "$(field asked.out "d['speeds_from_2004_machine_list']")" = "True" ] || { echo "FAIL measured asked for"; fail=1; }
# The 2005 XML of the paper's platform is the paper's platform too.
cp "$ROOT/platforms/reference/paper2004_tiers90_platform_2005dtd.xml" ref2005.xml
sed 's/paper.xml/ref2005.xml/' nosrc_paper.json >nosrc_2005.json
"$RINGSIM" simulate nosrc_2005.json --no-baseline >nosrc_2005.out 2>err || { echo "FAIL no source on the 2005 XML"; cat err; fail=1; }
[ "$(field nosrc_2005.out "d['trace_source']")" = "measured" ] || { echo "FAIL 2005 XML not recognized as the paper's"; fail=1; }

# 4. Source "platform": the platform's own profiles are the traces (not a second profile).
for src in platform files; do
  plat=speed_profiles.xml; traces='{"source": "platform"}'
  [ $src = files ] && { plat=plain.xml; printf '0 1.0\n0.5 0.5\n' >inline.profile
    traces='{"source": "files", "profiles": {"varying": "profiles/varying_speed.txt", "inline": "inline.profile"}, "default": "constant"}'; }
  echo "{\"platform\": \"$plat\", \"ring\": {\"size\": 4, \"seed\": 1}, \"iterations\": 12, \"rows\": 200, \"columns\": 400,
    \"ratio\": 1, \"scheme\": \"every-3\", \"targets\": \"oracle\", \"traces\": $traces}" >src_$src.json
  "$RINGSIM" simulate src_$src.json --traces-dir tr_$src --iterations-csv it_$src.csv >src_$src.out 2>err \
    || { echo "FAIL source $src: simulate"; cat err; fail=1; }
done
for f in makespan ideal_time ring normalized_time; do
  [ "$(field src_platform.out "d['$f']")" = "$(field src_files.out "d['$f']")" ] \
    || { echo "FAIL source platform: $f differs from the same profiles given as files"; fail=1; }
done
cmp -s it_platform.csv it_files.csv || { echo "FAIL source platform: iterations differ from the files source"; fail=1; }
grep -q '^varying,.*,0.20*1*,200000000$' tr_platform/traces.csv && grep -q '^inline,.*,0.5,500000000$' tr_platform/traces.csv \
  || { echo "FAIL source platform: traces.csv lacks the platform's profiles"; cat tr_platform/traces.csv; fail=1; }
[ "$(field src_platform.out "d['trace_source']")" = "platform" ] || { echo "FAIL source platform: trace_source"; fail=1; }
echo "{\"platform\": \"speed_profiles.xml\", \"ring\": {\"size\": 2}, $SMALL, \"traces\": {\"source\": \"platform\"},
  \"staging\": {\"nodes\": 2}}" >staged.json
"$RINGSIM" simulate staged.json >out 2>err; rc=$?
refused_line platform_with_staging $rc - err "traces source 'platform' cannot be combined with 'staging'"

# 8. Profiled hosts: describe says which and why; a ring that needs them says why and what to use.
"$RINGSIM" platform describe speed_profiles.xml >d.json 2>err || { echo "FAIL describe"; cat err; fail=1; }
[ "$(field d.json "d['speed_profile_hosts'], d['ineligible_hosts']")" = "(['varying', 'inline'], 2)" ] \
  || { echo "FAIL describe: profiled hosts"; field d.json "d.get('speed_profile_hosts'), d.get('ineligible')"; fail=1; }
field d.json "d['ineligible'][0]['reason']" | grep -q 'speed profile.*traces source "platform"' \
  || { echo "FAIL describe: reason"; fail=1; }
echo "{\"platform\": \"speed_profiles.xml\", \"ring\": {\"size\": 3}, $SMALL}" >three.json
"$RINGSIM" simulate three.json >out 2>err; rc=$?
refused_line profiled_refusal $rc - err "2 of its 4 hosts have a speed profile of the platform's"
grep -qF 'traces source "platform"' err || { echo "FAIL profiled refusal: no pointer to the platform source"; fail=1; }

# 7. slowest names the member whose own computation is longest (here: 10 times slower, every iteration).
printf 'host,time,speed\nsteady-1,0,1e9\nsteady-2,0,1e8\nvarying,0,1e9\ninline,0,1e9\n' >slow.csv
echo "{\"platform\": \"plain.xml\", \"ring\": {\"hosts\": [\"steady-1\", \"steady-2\", \"varying\", \"inline\"]}, $SMALL,
  \"scheme\": \"none\", \"traces\": {\"source\": \"files\", \"csv\": \"slow.csv\"}}" >slow.json
"$RINGSIM" simulate slow.json --no-baseline --iterations-csv slow_it.csv >/dev/null 2>err || { echo "FAIL slow ring"; cat err; fail=1; }
[ "$(tail -n +2 slow_it.csv | cut -d, -f5 | sort -u)" = "steady-2" ] \
  || { echo "FAIL slowest is not the slow member every iteration:"; cut -d, -f1,5 slow_it.csv | tr '\n' ' '; echo; fail=1; }

# 5. Sweeps over seeds with trace files (beside the experiment, run from elsewhere) and the platform's profiles.
mkdir -p exp elsewhere
cp plain.xml speed_profiles.xml exp/ && cp -r profiles exp/
printf 'host,time,speed\nsteady-1,0,1e9\nsteady-1,0.01,4e8\nvarying,0,1e9\nvarying,0.02,6e8\n' >exp/speeds.csv
printf '0 1.0\n0.01 0.3\n' >exp/steady.profile
sweep() {  # name platform traces-json
  echo "{\"name\": \"$1\", \"base\": {\"platform\": \"$2\", \"iterations\": 6, \"rows\": 100, \"columns\": 100, \"traces\": $3},
    \"ring_sizes\": [3], \"ratios\": [1], \"schemes\": [\"every-2\"], \"seeds\": [1, 2, 3, 4]}" >"exp/$1.json"
  (cd elsewhere && "$RINGSIM" run "../exp/$1.json" --out "../out_$1" 2>"../err_$1") \
    || { echo "FAIL sweep $1"; cat "err_$1"; fail=1; return; }
  $PY - "out_$1" <<'PY' || { echo "FAIL sweep $1: rings or traces"; fail=1; }
import csv, glob, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
assert len(rows) == 8, len(rows)
rings = {r["seed"]: r["ring"] for r in rows}
assert len(set(rings.values())) > 1, rings           # the seeds draw the rings
traces = {json.dumps(json.load(open(c))["traces"], sort_keys=True) for c in glob.glob(out + "/runs/*/config.json")}
assert len(traces) == 1 and "seed" not in next(iter(traces)), traces   # the trace is the file's, in every run
PY
}
printf 'host,time,speed\nsteady-1,0,1e9\nsteady-2,0.01,5e8\nvarying,0,1e9\ninline,0.02,7e8\n' >exp/all.csv
sweep csvall plain.xml '{"source": "files", "csv": "all.csv"}'
sweep csv plain.xml '{"source": "files", "csv": "speeds.csv", "default": "constant"}'
sweep profiles plain.xml '{"source": "files", "profiles": {"steady-1": "steady.profile"}, "default": "constant"}'
sweep platform speed_profiles.xml '{"source": "platform"}'
$PY -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["trace_sources"] == ["files"] and not s["speeds_from_2004_machine_list"], s' \
  out_csv/summary.json || { echo "FAIL sweep summary provenance"; fail=1; }

# 6. Sweeps check every run before the first starts: one line, exit 2, nothing written.
bad_sweep() {  # name base-extra sizes expected
  echo "{\"name\": \"b\", \"base\": {\"platform\": \"plain.xml\", \"iterations\": 6, \"rows\": 100, \"columns\": 100 $2},
    \"ring_sizes\": $3, \"ratios\": [1, 2], \"schemes\": [\"every-2\"], \"seeds\": [1, 2]}" >"exp/bad_$1.json"
  "$RINGSIM" run "exp/bad_$1.json" --out "bad_$1" >/dev/null 2>err; rc=$?
  refused_line "sweep_$1" $rc - err "$4"
  [ -e "bad_$1" ] && { echo "FAIL sweep_$1: output directory written"; fail=1; }
}
bad_sweep unknown_host ', "ring": {"hosts": ["steady-1", "nobody", "varying"]}' '[3]' "ring host 'nobody' is not in platform"
bad_sweep size_mismatch ', "ring": {"hosts": ["steady-1", "steady-2", "varying"]}' '[2]' "ring size 2 is not the size of the given ring 'hosts' (3 hosts)"
bad_sweep missing_csv ', "traces": {"source": "files", "csv": "missing.csv"}' '[3]' "cannot read"
bad_sweep rebuild_host ', "rebuild": [{"after": 3, "hosts": ["steady-1", "ghost"]}]' '[3]' "rebuild after iteration 3: ring host 'ghost' is not in platform"
bad_sweep gateway ', "staging": {"nodes": 2, "gateway": "ghost"}' '[3]' "staging gateway 'ghost' is not in platform"
bad_sweep no_trace ', "ring": {"hosts": ["steady-1", "steady-2", "varying"]}, "traces": {"source": "files", "csv": "speeds.csv"}' '[3]' "no speed trace for ring host 'steady-2'"

[ $fail -eq 0 ] && echo "source and sweep tests passed"
exit $fail
