#!/usr/bin/env bash
# Measured CPU load as traces: sources planetlab (the repository's PlanetLab day) and
# utilization-csv. Runs simulate; one seed repeats byte for byte, two seeds draw different traces;
# every bad input is exit 2 and one line naming the file (and the line).
set -u
RINGSIM=${1:?usage: run_real_traces_tests.sh path/to/ringsim}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
cp "$REPO/docs/examples/my-platform.xml" platform.xml
DAY="$REPO/traces/planetlab/20110303"
BASE='"platform": "platform.xml", "ring": {"hosts": ["a0", "a1", "b0", "b1"]}, "ratio": 1, "iterations": 12, "rows": 100, "columns": 100, "scheme": "every-4"'
config() { echo "{$BASE, \"traces\": $2}" >"$1"; }
planetlab() { echo "{\"seed\": $1, \"source\": \"planetlab\", \"set\": \"$DAY\", \"conversion\": \"dedicated\", \"time_scale\": 3000$2}"; }

# 1. The day simulates, by time and over the iterations; its summary names the source.
config pl1.json "$(planetlab 1 '')"
config span.json "$(planetlab 1 ', "time_scale": "span", "offset": "random"')"
sed -i 's/"time_scale": 3000, "time_scale"/"time_scale"/' span.json
for c in pl1 span; do
  "$RINGSIM" simulate $c.json >$c.out 2>err || { echo "FAIL simulate $c"; cat err; fail=1; continue; }
  [ -s err ] && { echo "FAIL simulate $c wrote to stderr"; cat err; fail=1; }
  $PY -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["makespan"] > 0 and r["trace_source"] == "planetlab", r' $c.out \
    || { echo "FAIL $c summary"; fail=1; }
done

# 2. One seed repeats byte for byte; another seed draws other traces (each member its own file).
"$RINGSIM" simulate pl1.json >again.out 2>/dev/null && cmp -s pl1.out again.out || { echo "FAIL one seed, two results"; fail=1; }
"$RINGSIM" traces pl1.json -o s1 >/dev/null 2>&1 && "$RINGSIM" traces pl1.json -o s1b >/dev/null 2>&1 && diff -r s1 s1b >/dev/null \
  || { echo "FAIL one seed, two trace sets"; fail=1; }
config pl2.json "$(planetlab 2 '')"
"$RINGSIM" traces pl2.json -o s2 >/dev/null 2>&1 || { echo "FAIL traces seed 2"; fail=1; }
diff -r s1 s2 >/dev/null && { echo "FAIL seeds 1 and 2 drew the same traces"; fail=1; }
"$RINGSIM" simulate pl2.json >pl2.out 2>/dev/null
$PY - s1 s2 <<'PY' || { echo "FAIL the draws"; fail=1; }
import sys
# Each member's profile is a rotation-free day: 288 samples of 300 s at time_scale 3000 repeat every 28.8 s.
for d in sys.argv[1:]:
    profiles = [open(f"{d}/{h}.profile").read() for h in ("a0", "a1", "b0", "b1")]
    assert len(set(profiles)) == 4, f"{d}: two members drew the same file"
    for p in profiles:
        lines = p.split("\n")
        assert lines[-1].startswith("LOOPAFTER") or lines[-2].startswith("LOOPAFTER"), p[-80:]
        values = [float(l.split()[1]) for l in lines if l and not l.startswith("LOOPAFTER")]
        assert min(values) >= 0.05 and max(values) <= 1.0, (min(values), max(values))
PY
cmp -s pl1.out pl2.out && { echo "FAIL seeds 1 and 2 gave one result"; fail=1; }

# 3. A sweep over seeds samples the set: each seed's traces are those `simulate` draws with it.
cat >sweep.json <<JSON
{"name": "plsweep", "base": {"platform": "platform.xml", "ring": {"hosts": ["a0", "a1", "b0", "b1"]}, "iterations": 12, "rows": 100,
  "columns": 100, "traces": $(planetlab 1 '')}, "ring_sizes": [4], "ratios": [1], "schemes": ["every-4"], "seeds": [1, 2]}
JSON
"$RINGSIM" run sweep.json --out sw >/dev/null 2>err || { echo "FAIL sweep"; cat err; fail=1; }
$PY - sw pl1.out pl2.out <<'PY' || { echo "FAIL sweep seeds"; fail=1; }
import glob, json, sys
runs = {}
for f in glob.glob(sys.argv[1] + "/runs/*/result.json"):
    r = json.load(open(f))
    if r["config"]["scheme"] == "every-4":
        runs[r["config"]["traces"]["seed"]] = r["makespan"]
one, two = (json.load(open(f))["makespan"] for f in sys.argv[2:4])
assert len(runs) == 2 and runs[1] == one and runs[2] == two, (runs, one, two)
PY

# 4. A CSV by time: load averages of machines drawn by seed.
printf 'ts,host,load1\n0,m1,0.5\n0,m2,3\n0,m3,1\n0,m4,0\n60,m1,1\n60,m2,0.2\n60,m3,1\n60,m4,2\n' >load.csv
csv() { echo "{\"seed\": 1, \"source\": \"utilization-csv\", \"file\": \"$1\", \"time_column\": \"ts\", \"machine_column\": \"host\", \"value_column\": \"load1\", \"conversion\": \"load\", \"time_scale\": 60$2}"; }
config csv.json "$(csv load.csv '')"
"$RINGSIM" simulate csv.json >csv.out 2>err || { echo "FAIL simulate csv"; cat err; fail=1; }
"$RINGSIM" traces csv.json -o c1 >/dev/null 2>&1
$PY - c1 <<'PY' || { echo "FAIL csv shares"; fail=1; }
import sys
firsts = sorted(float(open(f"{sys.argv[1]}/{h}.profile").read().split("\n")[0].split()[1]) for h in ("a0", "a1", "b0", "b1"))
assert firsts == sorted([1 / 1.5, 1 / 4, 1 / 2, 1.0]), firsts
PY

# 5. Bad input: exit 2, one line, naming the file and the line.
mkdir bad empty
printf '10\n20\n' >"bad/short vm"
printf '10\n120\n30\n' >"bad/vm 2"
printf '10\nten\n30\n' >bad/vm3
one_file() { echo "{\"seed\": 1, \"source\": \"planetlab\", \"set\": [\"$1\", \"$1\", \"$1\", \"$1\"], \"samples\": 3, \"conversion\": \"dedicated\", \"time_scale\": 1}"; }
check() { config "$1.json" "$2"; expect_refused "$1" "$3" "$RINGSIM" simulate "$1.json"; }
check short "$(one_file 'bad/short vm')" "'bad/short vm': 2 samples, fewer than the 3 stated (traces 'samples')"
check outside "$(one_file 'bad/vm 2')" "'bad/vm 2':2: utilization 120 is not in [0, 100]"
check word "$(one_file bad/vm3)" "'bad/vm3':2: a CPU utilization (percent) must be a number, got 'ten'"
check empty "{\"source\": \"planetlab\", \"set\": \"empty\", \"conversion\": \"dedicated\", \"time_scale\": 1}" "holds no file (an empty set)"
check small "{\"source\": \"planetlab\", \"set\": [\"$DAY/plink_cs_uwaterloo_ca_root\"], \"conversion\": \"dedicated\", \"time_scale\": 1}" \
  "holds 1 series, the run 4 member(s)"
check period "$(planetlab 1 ', "period": "5min"')" "'period' must be a number"
check noconv "{\"source\": \"planetlab\", \"set\": \"$DAY\", \"time_scale\": 1}" "needs a 'conversion'"
printf 'ts,host,load1\n0,m1,0.5\n0,m2,-3\n' >negative.csv
check negative "$(csv negative.csv '')" "'negative.csv':3: load1 -3 is negative"
printf 'ts,machine,load1\n0,m1,0.5\n' >nocolumn.csv
check column "$(csv nocolumn.csv '')" "'nocolumn.csv':1: no column 'host' (traces 'machine_column') in the header"
printf 'ts,host,load1\n0,m1,0.5\n60,m1,1\n0,m2,1\n' >rows.csv
check rows "$(csv rows.csv ', "samples": 3')" "'rows.csv':2: machine 'm1' has 2 row(s), fewer than the 3 stated"
printf 'ts,host,load1\n' >header.csv
check nocsvrows "$(csv header.csv '')" "'header.csv': no rows under the header (an empty set)"
# A sweep refuses a bad file of the set before its first run, whichever file its seeds would draw.
mkdir mixed && cp "$DAY"/planetlab2_inf_ethz_ch_root "$DAY"/plink_cs_uwaterloo_ca_root "$DAY"/roam2_cs_ou_edu_uw_oneswarm \
  "$DAY"/planet1_cs_rit_edu_root mixed/ && head -100 "$DAY"/pl1_grid_kiae_ru_tsinghua_xyz >mixed/truncated
sed "s|\"set\": \"$DAY\"|\"set\": \"mixed\"|" sweep.json >badsweep.json
expect_refused sweep_bad_file "truncated': 100 samples, fewer than the 288 stated" "$RINGSIM" run badsweep.json --out bsw
[ -e bsw/runs ] && { echo "FAIL the refused sweep started runs"; fail=1; }

exit $fail
