#!/usr/bin/env bash
# SimGrid's options as SimGrid users know them: --cfg on the command line wins
# over the config's "simgrid" options and network_model, the run reports what is in force, `ringsim
# run` passes --cfg/--log to every run, SimGrid's help flags print and exit 0, and a bad option,
# value or log setting is exit 2 with one line naming it.
set -u
RINGSIM=$(realpath "${1:?usage: run_simgrid_options_tests.sh path/to/ringsim}")
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
cp "$PLATFORM" platform.xml
BASE='"platform": "platform.xml", "ring": {"size": 5, "seed": 3}, "ratio": 0.1, "iterations": 12, "rows": 200, "columns": 200, "scheme": "every-4"'
echo "{$BASE}" >linear.json
echo "{$BASE, \"network_model\": \"lv08\"}" >lv08.json
echo "{$BASE, \"simgrid\": {\"network/model\": \"LV08\"}}" >cfg_lv08.json
echo "{$BASE, \"simgrid\": {\"network/model\": \"LV08\", \"network/latency-factor\": 2.5}}" >cfg_lv08_lat.json
field() { $PY -c 'import json,sys; r=json.load(open(sys.argv[1])); v=r
for k in sys.argv[2].split("."): v=v[k] if k in v else None
print(repr(v))' "$1" "$2"; }
run() {  # run NAME ARGS...: simulate, expect exit 0
  local name=$1; shift
  "$RINGSIM" simulate "$@" >"$name.out" 2>"$name.err" || { echo "FAIL $name: exit $?"; cat "$name.err"; fail=1; }
}

# 1. The model given on the command line is the model that runs: the same makespan as the config key's.
run lin linear.json --no-baseline
run lv lv08.json --no-baseline
run cli_lv linear.json --no-baseline --cfg=network/model:LV08
run cfg_lv cfg_lv08.json --no-baseline
[ "$(field cli_lv.out makespan)" = "$(field lv.out makespan)" ] \
  || { echo "FAIL --cfg=network/model:LV08 gives $(field cli_lv.out makespan), network_model lv08 gives $(field lv.out makespan)"; fail=1; }
[ "$(field cfg_lv.out makespan)" = "$(field lv.out makespan)" ] \
  || { echo "FAIL \"simgrid\": {network/model: LV08} gives $(field cfg_lv.out makespan), not $(field lv.out makespan)"; fail=1; }
[ "$(field cli_lv.out makespan)" != "$(field lin.out makespan)" ] || { echo "FAIL LV08 and the linear model give the same makespan"; fail=1; }
for f in lv cli_lv cfg_lv; do
  [ "$(field $f.out network_model)" = "'lv08'" ] || { echo "FAIL $f reports network_model $(field $f.out network_model)"; fail=1; }
  [ "$(field $f.out simgrid_options.network/model)" = "'LV08'" ] || { echo "FAIL $f: network/model in force $(field $f.out simgrid_options.network/model)"; fail=1; }
done
[ "$(field lin.out network_model)" = "'linear'" ] && [ "$(field lin.out simgrid_options.network/TCP-gamma)" = "'0'" ] \
  && [ "$(field lin.out simgrid_options.network/crosstraffic)" = "'0'" ] \
  || { echo "FAIL the linear preset is not reported in force"; cat lin.out | grep -A8 simgrid_options; fail=1; }
# One option of the preset given on the command line wins over the preset, and the run says so.
run ct linear.json --no-baseline --cfg=network/crosstraffic:1
[ "$(field ct.out simgrid_options.network/crosstraffic)" = "'1'" ] && [ "$(field ct.out network_model)" = "'CM02'" ] \
  || { echo "FAIL --cfg=network/crosstraffic:1 is not in force: $(field ct.out simgrid_options)"; fail=1; }
[ "$(field ct.out makespan)" != "$(field lin.out makespan)" ] || { echo "FAIL cross-traffic changes nothing"; fail=1; }
# The command line wins over the config's "simgrid" options; the config's other options stay.
run cfg_cli cfg_lv08_lat.json --no-baseline --cfg=network/model:CM02
[ "$(field cfg_cli.out simgrid_options.network/model)" = "'CM02'" ] \
  && [ "$(field cfg_cli.out simgrid_options.network/latency-factor)" = "'2.5'" ] \
  || { echo "FAIL command line over config: $(field cfg_cli.out simgrid_options)"; fail=1; }
# With the baseline (a forked second simulation), the same options: normalized = makespan / baseline.
run cli_lv_base linear.json --cfg=network/model:LV08
$PY - cli_lv_base.out lv.out <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["makespan"] == b["makespan"], (a["makespan"], b["makespan"])
assert a["baseline_makespan"] > 0 and a["baseline_makespan"] != a["makespan"]
PY
# The options in force are in the canonical config too when the config gives them.
[ "$(field cfg_lv.out config.simgrid.network/model)" = "'LV08'" ] || { echo "FAIL config.simgrid not echoed"; fail=1; }

# 2. SimGrid's help: exit 0, SimGrid's text on standard output, from either program, with or
#    without a subcommand.
help_case() {  # help_case TEXT ARGS...
  local want=$1; shift
  "$RINGSIM" "$@" >h.out 2>h.err; local rc=$?
  [ $rc -eq 0 ] && grep -q "$want" h.out && [ ! -s h.err ] || { echo "FAIL help: ringsim $* (exit $rc)"; head -3 h.out h.err; fail=1; }
}
help_case "Description of the configuration accepted" --help-cfg
help_case "Description of the configuration accepted" simulate --cfg=help
help_case "Description of the configuration accepted" run --help-cfg
help_case "Description of the logging output" --log=help
help_case "ringsim_app_redistribution" simulate --help-log-categories
help_case "Long description of the network models" --cfg=network/model:help
help_case "tracing" --help-tracing
help_case "deprecated option names" --help-aliases

# 3. Bad options: exit 2, one line that names the setting, from simulate (with its baseline) and run.
bad() {  # bad NAME WANT ARGS...
  local name=$1 want=$2; shift 2
  expect_refused "$name" "$want" "$RINGSIM" "$@"
}
bad "unknown key" "foo/bar" simulate linear.json --cfg=foo/bar:1
bad "unknown model" "network/model:Foo" simulate linear.json --cfg=network/model:Foo
bad "bad value" "network/TCP-gamma:abc" simulate linear.json --cfg=network/TCP-gamma:abc
bad "bad log level" "ringsim_app.thres:bogus" simulate linear.json --log=ringsim_app.thres:bogus
bad "bad log setting" "--log=foo" simulate linear.json --log=foo
bad "not name:value" "tracing" simulate linear.json --cfg=tracing
bad "stray argument" "--frobnicate" simulate linear.json --frobnicate
echo "{$BASE, \"simgrid\": {\"foo/bar\": 1}}" >cfg_bad.json
bad "unknown key in config" "foo/bar" simulate cfg_bad.json
echo "{$BASE, \"simgrid\": {\"network/model\": [1]}}" >cfg_bad2.json
bad "config option of a wrong type" "'simgrid' option 'network/model'" simulate cfg_bad2.json
echo "{$BASE, \"simgrid_log\": [\"ringsim_app.thres:nope\"]}" >cfg_bad3.json
bad "config log setting" "ringsim_app.thres:nope" simulate cfg_bad3.json
bad "traces with a bad option" "foo/bar" traces linear.json -o tr --cfg=foo/bar:1

# 4. The application's log: silent by default, decisions at info, iterations at debug.
run quiet linear.json --no-baseline
[ ! -s quiet.err ] || { echo "FAIL a run writes to stderr by default"; head -3 quiet.err; fail=1; }
run info linear.json --no-baseline --log=ringsim_app.thres:info
[ "$(grep -c 'ringsim_app_redistribution/INFO' info.err)" -eq 2 ] \
  || { echo "FAIL --log=ringsim_app.thres:info: $(grep -c ringsim_app_redistribution info.err) decision lines for 2 points"; fail=1; }
run debug linear.json --no-baseline --log=ringsim_app.thres:debug
[ "$(grep -c 'ringsim_app_iteration.*computed' debug.err)" -eq 60 ] \
  || { echo "FAIL --log=ringsim_app.thres:debug: $(grep -c 'ringsim_app_iteration.*computed' debug.err) member-iteration lines, want 60"; fail=1; }
echo "{$BASE, \"simgrid_log\": [\"ringsim_app.thres:info\"]}" >cfg_log.json
run cfg_log cfg_log.json --no-baseline
grep -q 'ringsim_app_redistribution/INFO' cfg_log.err || { echo "FAIL \"simgrid_log\" is not applied"; fail=1; }
run cfg_log_cli cfg_log.json --no-baseline --log=ringsim_app.thres:warning
[ ! -s cfg_log_cli.err ] || { echo "FAIL the command line's --log does not win over \"simgrid_log\""; fail=1; }

# 5. `ringsim run` takes --cfg and --log: into every run, checked before the first run.
cat >exp.json <<EOF
{"name": "opts", "base": {$BASE}, "ring_sizes": [5], "ratios": [0.1, 1], "schemes": ["none", "every-4"],
 "algorithms": ["auto"], "seeds": [1, 2]}
EOF
"$RINGSIM" run exp.json --out sw --cfg=network/model:LV08 --log=ringsim_app.thres:info >run.out 2>run.err \
  || { echo "FAIL run with --cfg/--log"; cat run.err; fail=1; }
$PY - sw <<'PY' || fail=1
import json, os, sys
d = sys.argv[1]
runs = sorted(os.listdir(os.path.join(d, "runs")))
assert len(runs) == 8, runs
for r in runs:
    cfg = json.load(open(os.path.join(d, "runs", r, "config.json")))
    assert cfg["simgrid"]["network/model"] == "LV08", cfg
    res = json.load(open(os.path.join(d, "runs", r, "result.json")))
    assert res["network_model"] == "lv08" and res["simgrid_options"]["network/model"] == "LV08", res["simgrid_options"]
    log = open(os.path.join(d, "runs", r, "log.txt")).read()
    assert ("every-4" not in r) or "ringsim_app_redistribution/INFO" in log, (r, log[:200])
s = json.load(open(os.path.join(d, "summary.json")))
assert s["network_model"] == "lv08" and s["simgrid_options"]["network/model"] == "LV08", s
PY
# The same run simulated alone gives the same makespan as in the sweep.
id=$(ls sw/runs | grep every-4 | head -1)
"$RINGSIM" simulate "sw/runs/$id/config.json" --no-baseline >alone.out 2>/dev/null
[ "$(field alone.out makespan)" = "$(field "sw/runs/$id/result.json" makespan)" ] || { echo "FAIL sweep and simulate differ"; fail=1; }
"$RINGSIM" run exp.json --out sw2 --list --log=ringsim_app.thres:info >list.out 2>/dev/null
[ "$(grep -c -- '--log=ringsim_app.thres:info' list.out)" -eq 8 ] || { echo "FAIL --list lines lack the sweep's --log"; fail=1; }
bad "run: unknown key" "foo/bar" run exp.json --out sw3 --cfg=foo/bar:1
[ ! -d sw3/runs ] || { echo "FAIL a refused sweep wrote runs"; fail=1; }
bad "run: bad log" "ringsim_app.thres:bogus" run exp.json --out sw4 --log=ringsim_app.thres:bogus
bad "run: stray" "--frob" run exp.json --out sw5 --frob

exit $fail
