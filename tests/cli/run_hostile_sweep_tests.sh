#!/usr/bin/env bash
# Hostile sweeps: the commands of --list and the scripts of --slurm run only
# ringsim whatever the names and paths hold; an experiment name is a name, never a path; no option
# of `run` loses a finished result and no resume keeps a stale or unreadable one; run ids are exact.
# The generated scripts are run (a stub sbatch records what submit.sh asks), and the file system
# tree around each run is listed before and after.
set -u
RINGSIM=${1:?usage: run_hostile_sweep_tests.sh path/to/ringsim}
RINGSIM=$(cd "$(dirname "$RINGSIM")" && pwd)/$(basename "$RINGSIM")  # the checks run in other folders
DATA=$(cd "$(dirname "$0")/../data" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

cp "$DATA/ring6-homogeneous.xml" "$tmp/platform.xml"
# speeds CSV SPEED: every host of the platform at SPEED from iteration 2.
speeds() { printf 'host,iteration,speed\n' >"$1"; for h in 0 1 2 3 4 5; do printf 'h%s,2,%s\n' $h "$2" >>"$1"; done; }
speeds "$tmp/speeds.csv" 5e7

# experiment FILE NAME [RATIOS]: a sweep of 2 runs per ratio on the files above (JSON-escaped name).
experiment() {
  local file=$1 name=$2 ratios=${3:-1}
  /usr/bin/python3 - "$file" "$name" "$ratios" "$tmp" <<'PY'
import json, sys
file, name, ratios, tmp = sys.argv[1:]
doc = {"name": name, "base": {"platform": tmp + "/platform.xml", "rows": 60, "columns": 60, "iterations": 6,
       "traces": {"source": "files", "csv": tmp + "/speeds.csv", "default": "constant"}},
       "ring_sizes": [3], "ratios": json.loads("[" + ratios + "]"), "schemes": ["every-2"], "seeds": [1]}
open(file, "w").write(json.dumps(doc))
PY
}

# tree DIR: every path under DIR with its type and size (what a refused run may not change), but
# the scratch files of the checks themselves.
tree() {
  find "$1" \( -path "$tmp/out" -o -path "$tmp/err" -o -path "$tmp/tree-before" -o -path "$tmp/tree-after" \) -prune \
    -o -printf '%y %s %p\n' | sort
}

# rows CSV: the data rows of a runs.csv, parsed with Python's csv; checks each row has the
# header's fields and that run ids are unique, and prints the count (or FAIL ...).
rows() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    table = list(csv.reader(f))
head, body = table[0], table[1:]
bad = [r for r in body if len(r) != len(head)]
ids = [r[0] for r in body]
if bad or len(set(ids)) != len(ids):
    print("FAIL", len(bad), "malformed rows,", len(ids) - len(set(ids)), "repeated ids")
else:
    print(len(body))
PY
}

# run_generated: what a refused command generated anyway is run as a user would run it (--list's
# lines one by one, as GNU parallel reads them; the SLURM array's tasks), so that a command hidden
# in a name shows as the canary it creates.
run_generated() {
  while IFS= read -r line; do bash -c "$line" >/dev/null 2>&1; done <"$tmp/out"
  if [ -f "$tmp/w/job/array.sbatch" ]; then
    for t in 1 2; do SLURM_ARRAY_TASK_ID=$t bash "$tmp/w/job/array.sbatch" >/dev/null 2>&1; done
    rm -rf "$tmp/w/job"
  fi
}

# --- 1. Control characters: refused (exit 2, one line) wherever a name or a path would be written
# into a command line, before anything is created.
mkdir -p "$tmp/w" && cd "$tmp/w" || exit 1
nl=$'\n'
controls=("a${nl}touch canary #" $'a\rb' $'a\tb' $'a\x01b' $'a\x7fb')
sanitizer_sizes && controls=("${controls[@]:0:2}")
for bad in "${controls[@]}"; do
  tag=$(printf '%q' "$bad")
  experiment "$tmp/ok.json" ok
  experiment "$tmp/named.json" "$bad"
  mkdir -p "$tmp/d$bad" && experiment "$tmp/d$bad/e.json" ok
  tree "$tmp" >"$tmp/tree-before"
  expect_refused "name $tag" "control character" "$RINGSIM" run "$tmp/named.json" --slurm "$tmp/w/job"
  run_generated
  expect_refused "--out $tag" "control character" "$RINGSIM" run "$tmp/ok.json" --list --out "$tmp/w/o$bad"
  run_generated
  expect_refused "--slurm $tag" "control character" "$RINGSIM" run "$tmp/ok.json" --out "$tmp/w/o" --slurm "$tmp/w/s$bad"
  expect_refused "--cfg $tag" "control character" "$RINGSIM" run "$tmp/ok.json" --list --out "$tmp/w/o" "--cfg=tracing/filename:x$bad"
  expect_refused "experiment file $tag" "control character" "$RINGSIM" run "$tmp/d$bad/e.json" --list --out "$tmp/w/o"
  run_generated
  tree "$tmp" >"$tmp/tree-after"
  cmp -s "$tmp/tree-before" "$tmp/tree-after" || { echo "FAIL $tag: files written:"; diff "$tmp/tree-before" "$tmp/tree-after" | head -5; fail=1; }
  rm -rf "$tmp/d$bad" "$tmp/ok.json" "$tmp/named.json"
  [ ! -e "$tmp/w/canary" ] || { echo "FAIL $tag: a command the user did not write ran"; fail=1; }
done

# --- 2. Every other character: the scripts of --slurm and the commands of --list, run, do the
# sweep and nothing else. The hostile string is in the experiment's name, its folder, --out and
# --slurm; the canary is what $( ), backquotes or ; & | would create.
stub=$tmp/stub && mkdir -p "$stub"
cat >"$stub/sbatch" <<'SH'
#!/bin/bash
# What submit.sh asks SLURM: each argument on its own line; the job files must exist.
for a in "$@"; do printf '%s\n' "$a" >>"$SBATCH_LOG"; done
for a in "$@"; do case $a in -*) ;; *) [ -f "$a" ] || echo "MISSING $a" >>"$SBATCH_LOG" ;; esac; done
echo 4242
SH
chmod +x "$stub/sbatch"
hostile="-n a b'c\"d\$(touch canary)e\`touch canary\`f;touch canary&g|touch canary*h#i\\j%ak<l>m!n{o}p~q"
words=("$hostile" "-x" "#c" "%j%%a" " lead" "* ?")
sanitizer_sizes && words=("${words[@]:0:2}")
for word in "${words[@]}"; do
  tag=$(printf '%q' "$word")
  rm -rf "$tmp/w" && mkdir -p "$tmp/w" && cd "$tmp/w" || exit 1
  mkdir -p "$tmp/w/e $word" && experiment "$tmp/w/e $word/$word.json" "$word"
  out="$tmp/w/o $word" sdir="$tmp/w/s $word"
  # --list, one command a line as GNU parallel reads them, then the merge line it ends with.
  "$RINGSIM" run "$tmp/w/e $word/$word.json" --list --out "$out" >"$tmp/cmds" 2>"$tmp/err" || { echo "FAIL --list $tag"; cat "$tmp/err"; fail=1; }
  while IFS= read -r line; do
    case $line in "# when all are done: "*) bash -c "${line#\# when all are done: }" 2>/dev/null ;; \#*) ;; *) bash -c "$line" 2>/dev/null ;; esac
  done <"$tmp/cmds"
  [ "$(rows "$out/runs.csv" 2>&1)" = 2 ] || { echo "FAIL --list $tag: runs.csv $(rows "$out/runs.csv" 2>&1)"; fail=1; }
  # --slurm: the array's tasks as SLURM runs them, the merge, and submit.sh with a stub sbatch.
  "$RINGSIM" run "$tmp/w/e $word/$word.json" --out "$out-slurm" --slurm "$sdir" 2>"$tmp/err" || { echo "FAIL --slurm $tag"; cat "$tmp/err"; fail=1; }
  for t in 1 2; do SLURM_ARRAY_TASK_ID=$t bash "$sdir/array.sbatch" >/dev/null 2>&1 || { echo "FAIL array task $t $tag"; fail=1; }; done
  bash "$sdir/merge.sbatch" >/dev/null 2>&1 || { echo "FAIL merge.sbatch $tag"; fail=1; }
  [ "$(rows "$out-slurm/runs.csv" 2>&1)" = 2 ] || { echo "FAIL --slurm $tag: runs.csv $(rows "$out-slurm/runs.csv" 2>&1)"; fail=1; }
  SBATCH_LOG=$tmp/sbatch.log PATH="$stub:$PATH" bash "$sdir/submit.sh" >/dev/null 2>&1 || { echo "FAIL submit.sh $tag"; fail=1; }
  grep -qxF -- "$sdir/array.sbatch" "$tmp/sbatch.log" && grep -qxF -- "$sdir/merge.sbatch" "$tmp/sbatch.log" \
    && ! grep -q MISSING "$tmp/sbatch.log" || { echo "FAIL submit.sh $tag: sbatch got"; cat "$tmp/sbatch.log"; fail=1; }
  rm -f "$tmp/sbatch.log"
  # #SBATCH lines as SLURM reads them: one word after the option (quotes as a shell's), the log
  # path's % doubled (SLURM's file name patterns).
  out_line=$(sed -n 's/^#SBATCH --output=//p' "$sdir/array.sbatch")
  /usr/bin/python3 -c 'import shlex, sys; sys.exit(shlex.split(sys.argv[1], comments=True) != [sys.argv[2]])' \
    "$out_line" "${sdir//%/%%}/logs/task-%a.out" || { echo "FAIL #SBATCH --output $tag: $out_line"; fail=1; }
  if grep -hv '^#SBATCH' "$sdir"/*.sbatch "$sdir/submit.sh" | grep '^#' | grep -qF -- "$word"; then
    echo "FAIL $tag written into a comment"; fail=1
  fi
  # Without --out the folder is out/<name>, exactly.
  "$RINGSIM" run "$tmp/w/e $word/$word.json" --list >/dev/null 2>&1
  [ -d "$tmp/w/out/$word" ] && [ "$(ls "$tmp/w/out" | wc -l)" -eq 1 ] || { echo "FAIL default folder of $tag:"; ls "$tmp/w/out"; fail=1; }
  [ ! -e "$tmp/w/canary" ] && [ ! -e "$tmp/canary" ] || { echo "FAIL $tag: a command the user did not write ran"; fail=1; }
done
cd "$tmp" || exit 1

# --- 3. An experiment name is a name: never a path, whatever the working directory.
mkdir -p "$tmp/tree/a/b" && cd "$tmp/tree/a/b" || exit 1
for name in "../../x" "/" "$tmp/tree/abs" "a/b" "." ".." "" "x/" "/etc"; do
  experiment "$tmp/tree/exp.json" "$name"
  before=$(tree "$tmp/tree")
  for mode in "" --list "--slurm=$tmp/tree/a/b/job" --merge; do
    expect_refused "name '$name' $mode" "is not a name" "$RINGSIM" run "$tmp/tree/exp.json" $mode
  done
  [ "$before" = "$(tree "$tmp/tree")" ] || { echo "FAIL name '$name': files written:"; diff <(echo "$before") <(tree "$tmp/tree") | head -5; fail=1; }
done
cd "$tmp" || exit 1
rm -rf "$tmp/tree"

# --- 4. Run ids are exact: distinct ratios, distinct runs; one double, one id.
experiment "$tmp/r.json" ratios "1, 1.000001, 0.1, 0.1000000000000001"
"$RINGSIM" run "$tmp/r.json" --out "$tmp/r" 2>"$tmp/err" || { echo "FAIL ratio sweep"; cat "$tmp/err"; fail=1; }
[ "$(rows "$tmp/r/runs.csv")" = 8 ] || { echo "FAIL close ratios: runs.csv $(rows "$tmp/r/runs.csv")"; fail=1; }
/usr/bin/python3 - "$tmp/r/runs.csv" <<'PY' || fail=1
import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")):
    in_id = float(row["run_id"].split("_")[1][1:])
    if in_id != float(row["ratio"]):
        sys.exit(f"FAIL run {row['run_id']} holds ratio {row['ratio']}")
PY
grep -q '^p3_r1_none_s1_k0,' "$tmp/r/runs.csv" || { echo "FAIL ratio 1's id is no longer p3_r1_..."; fail=1; }
experiment "$tmp/same.json" same "0.1, 0.10000000000000001"
expect_refused "one double twice" "twice" "$RINGSIM" run "$tmp/same.json" --list --out "$tmp/same"

# --- 5. Finished results are never lost, stale ones never kept.
experiment "$tmp/f.json" f
"$RINGSIM" run "$tmp/f.json" --out "$tmp/f" 2>/dev/null || { echo "FAIL finished sweep"; fail=1; }
results() { for r in "$tmp"/f/runs/*/result.json; do md5sum "$r"; done; }
kept=$(results)
csv=$(cat "$tmp/f/runs.csv")
# Options and edits that would change the runs: refused in one line, or given new runs; never a
# finished result deleted or runs.csv emptied.
cp "$tmp/f.json" "$tmp/f.json.orig"
sed -i 's/"rows": 60/"rows": 66/' "$tmp/f.json"
for args in "--merge --cfg=network/model:CM02" "--list --cfg=network/model:CM02" "--merge" "--slurm=$tmp/fjob"; do
  file="$tmp/f.json"
  case $args in *cfg*) file="$tmp/f.json.orig" ;; esac
  "$RINGSIM" run "$file" --out "$tmp/f" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq 0 ] || refused_line "run $args" $rc "$tmp/out" "$tmp/err" "finished run"
  [ "$kept" = "$(results)" ] || { echo "FAIL run $args: finished results lost"; fail=1; }
  [ "$csv" = "$(cat "$tmp/f/runs.csv")" ] || { echo "FAIL run $args: runs.csv changed"; fail=1; }
done
mv "$tmp/f.json.orig" "$tmp/f.json"
# An input file's content changed: the resume refuses, or reruns into a fresh sweep's runs.csv.
# changed_input WHAT EXPERIMENT COMMAND...: a finished sweep, COMMAND changes an input, then the resume.
changed_input() {
  local what=$1 exp=$2 done="$tmp/done-$1"
  shift 2
  "$RINGSIM" run "$exp" --out "$done" 2>/dev/null || { echo "FAIL sweep before $what changed"; fail=1; }
  local before
  before=$(md5sum "$done"/runs/*/result.json)
  "$@"
  "$RINGSIM" run "$exp" --out "$tmp/fresh-$what" 2>/dev/null
  "$RINGSIM" run "$exp" --out "$done" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 0 ]; then
    cmp -s "$done/runs.csv" "$tmp/fresh-$what/runs.csv" || { echo "FAIL $what changed: the resume kept stale results"; fail=1; }
  else
    refused_line "$what changed" $rc - "$tmp/err" "changed"
    [ "$before" = "$(md5sum "$done"/runs/*/result.json)" ] || { echo "FAIL $what changed: finished results lost"; fail=1; }
  fi
}
cp "$tmp/platform.xml" "$tmp/platform.orig"
changed_input "trace CSV" "$tmp/f.json" speeds "$tmp/speeds.csv" 2e7
speeds "$tmp/speeds.csv" 5e7
changed_input "platform" "$tmp/f.json" sed -i 's/speed="[^"]*"/speed="3e7f"/g' "$tmp/platform.xml"
cmp -s "$tmp/platform.xml" "$tmp/platform.orig" && { echo "FAIL test setup: platform unchanged"; fail=1; }
cp "$tmp/platform.orig" "$tmp/platform.xml"
# A profile file the platform names (speed_file) is one of the files the runs read.
mkdir -p "$tmp/prof" && cp -r "$ROOT/tests/platforms/speed_profiles.xml" "$ROOT/tests/platforms/profiles" "$tmp/prof/"
cat >"$tmp/prof/p.json" <<'JSON'
{"name": "p", "base": {"platform": "speed_profiles.xml", "rows": 60, "columns": 60, "iterations": 6,
 "ring": {"hosts": ["steady-1", "varying", "inline"]}, "traces": {"source": "platform"}},
 "ring_sizes": [3], "ratios": [1], "schemes": ["every-2"], "seeds": [1]}
JSON
changed_input "platform profile" "$tmp/prof/p.json" sed -i 's/^0 1.0$/0 0.5/' "$tmp/prof/profiles/varying_speed.txt"
# A trace set's folder: its files are read by the runs (a file's content, or the set's membership).
mkdir -p "$tmp/pl/set" && cp "$ROOT/docs/examples/my-platform.xml" "$tmp/pl/"
for f in $(ls "$ROOT/traces/planetlab/20110303" | grep -v ' ' | head -6); do cp "$ROOT/traces/planetlab/20110303/$f" "$tmp/pl/set/"; done
cat >"$tmp/pl/p.json" <<'JSON'
{"name": "pl", "base": {"platform": "my-platform.xml", "rows": 60, "columns": 60, "iterations": 6,
 "traces": {"source": "planetlab", "set": "set", "conversion": "dedicated", "time_scale": 20000}},
 "ring_sizes": [3], "ratios": [1], "schemes": ["every-2"], "seeds": [1, 2]}
JSON
"$RINGSIM" run "$tmp/pl/p.json" --out "$tmp/pl-before" 2>/dev/null || { echo "FAIL trace set sweep"; fail=1; }
changed_input "trace set file" "$tmp/pl/p.json" sed -i '1,100s/^.*$/90/' "$tmp/pl/set/"*
changed_input "trace set members" "$tmp/pl/p.json" cp "$ROOT/traces/planetlab/20110303/$(ls "$ROOT/traces/planetlab/20110303" | grep -v ' ' | tail -1)" "$tmp/pl/set/z-extra"
# Each change changed the runs (else the cases above prove nothing).
! cmp -s "$tmp/pl-before/runs.csv" "$tmp/fresh-trace set file/runs.csv" &&
  ! cmp -s "$tmp/fresh-trace set file/runs.csv" "$tmp/fresh-trace set members/runs.csv" ||
  { echo "FAIL test setup: a trace set change left the runs as they were"; fail=1; }
# Unreadable results: run again (or named in one line), never kept, never an internal error.
for junk in "" "{" "{}" "[]" '{"makespan": "x"}' $'\x01\xff' '{"makespan": 1}'; do
  tag=$(printf '%q' "$junk")
  rm -rf "$tmp/g" && cp -r "$tmp/f" "$tmp/g"
  victim=$(ls -d "$tmp"/g/runs/*/ | head -1)result.json
  printf '%s' "$junk" >"$victim"
  "$RINGSIM" run "$tmp/f.json" --out "$tmp/g" --merge >/dev/null 2>"$tmp/err"; rc=$?
  { [ $rc -eq 0 ] || [ $rc -eq 2 ]; } && [ "$(wc -l <"$tmp/err")" -le 2 ] && grep -qF "$victim" "$tmp/err" && ! grep -q "internal error" "$tmp/err" \
    || { echo "FAIL --merge with result.json $tag: exit $rc"; cat "$tmp/err"; fail=1; }
  "$RINGSIM" run "$tmp/f.json" --out "$tmp/g" >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc -eq 0 ] && cmp -s "$tmp/f/runs.csv" "$tmp/g/runs.csv" || { echo "FAIL resume with result.json $tag: exit $rc"; cat "$tmp/err"; fail=1; }
done

exit $fail
