#!/usr/bin/env bash
# A sweep run by a cluster tool gives the same CSVs as `ringsim run --jobs 2`: the --list
# commands through GNU parallel (locally, and through its --sshlogin machinery with ':' for this
# machine), and the --slurm array job, its tasks run as SLURM would run them (SLURM_ARRAY_TASK_ID
# set; a real single-node SLURM: tools/slurm-single-node.sh), resumed after half of them, then its
# merge step.
set -u
RINGSIM=${1:?usage: run_cluster_tests.sh path/to/ringsim}
DATA=$(cd "$(dirname "$0")/../data" && pwd)
. "$(dirname "$0")/lib.sh"
# A folder name with a space: the commands are shell words.
mkdir -p "$tmp/with space"
cp "$DATA/sweep-small.json" "$DATA/ring6-homogeneous.xml" "$tmp/with space/"
EXP="$tmp/with space/sweep-small.json"

"$RINGSIM" run "$EXP" --jobs 2 --out "$tmp/ref" 2>/dev/null || { echo "FAIL reference sweep"; fail=1; }

same() {  # name, dir
  for f in runs.csv iterations.csv; do
    cmp -s "$tmp/ref/$f" "$2/$f" || { echo "FAIL $1: $f differs from ringsim run --jobs 2"; fail=1; return; }
  done
  echo "$1: runs.csv and iterations.csv identical to ringsim run --jobs 2"
}

if ! command -v parallel >/dev/null; then
  echo "FAIL GNU parallel is not installed (tools/install-deps.sh installs it)"; fail=1
else
  for mode in local sshlogin; do
    out="$tmp/par-$mode"
    "$RINGSIM" run "$EXP" --list --out "$out" >"$tmp/cmds" || { echo "FAIL --list"; fail=1; }
    [ "$(grep -c ' simulate ' "$tmp/cmds")" -eq 24 ] || { echo "FAIL --list printed $(grep -c ' simulate ' "$tmp/cmds") commands"; fail=1; }
    extra=(); [ $mode = sshlogin ] && extra=(--sshlogin :)
    grep -v '^#' "$tmp/cmds" | parallel --will-cite -j2 "${extra[@]}" >/dev/null 2>&1 || { echo "FAIL parallel ($mode)"; fail=1; }
    # Everything done: --list has nothing left to run.
    [ "$("$RINGSIM" run "$EXP" --list --out "$out" | grep -c ' simulate ')" -eq 0 ] || { echo "FAIL --list lists finished runs"; fail=1; }
    merge=$(grep '^# when all are done: ' "$tmp/cmds" | sed 's/^# when all are done: //')
    eval "$merge" 2>/dev/null || { echo "FAIL merge after parallel ($mode)"; fail=1; }
    same "GNU parallel ($mode)" "$out"
  done
fi

# SLURM array job: resumable, tasks skip finished runs, merge builds the CSVs.
"$RINGSIM" run "$EXP" --out "$tmp/slurm-out" --slurm "$tmp/slurm job" 2>"$tmp/err" || { echo "FAIL --slurm"; cat "$tmp/err"; fail=1; }
for f in array.sbatch merge.sbatch submit.sh commands.txt results.txt; do
  [ -s "$tmp/slurm job/$f" ] || { echo "FAIL --slurm wrote no $f"; fail=1; }
done
grep -q '^#SBATCH --array=1-24$' "$tmp/slurm job/array.sbatch" || { echo "FAIL array size"; fail=1; }
bash -n "$tmp/slurm job/array.sbatch" && bash -n "$tmp/slurm job/merge.sbatch" && bash -n "$tmp/slurm job/submit.sh" \
  || { echo "FAIL a SLURM script is not valid bash"; fail=1; }
for task in $(seq 1 12); do SLURM_ARRAY_TASK_ID=$task bash "$tmp/slurm job/array.sbatch" >/dev/null 2>&1; done
[ "$(ls "$tmp"/slurm-out/runs/*/result.json | wc -l)" -eq 12 ] || { echo "FAIL half the tasks did not leave 12 results"; fail=1; }
for task in $(seq 1 24); do SLURM_ARRAY_TASK_ID=$task bash "$tmp/slurm job/array.sbatch" >>"$tmp/slurm.log" 2>&1; done
[ "$(grep -c 'done already' "$tmp/slurm.log")" -eq 12 ] || { echo "FAIL resubmitted tasks did not skip the 12 finished runs"; fail=1; }
bash "$tmp/slurm job/merge.sbatch" >/dev/null 2>&1 || { echo "FAIL SLURM merge step"; fail=1; }
same "SLURM array (tasks run as SLURM runs them)" "$tmp/slurm-out"
# A smaller sweep, a smaller array.
"$RINGSIM" run "$EXP" --quick --out "$tmp/q-out" --slurm "$tmp/q-job" 2>/dev/null
grep -q '^#SBATCH --array=1-6$' "$tmp/q-job/array.sbatch" || { echo "FAIL quick array size"; fail=1; }

# What cannot be written is exit 2 and one line: a SLURM folder that cannot be created, a command
# list to a full disk.
"$RINGSIM" run "$EXP" --out "$tmp/q-out" --slurm /proc/no-such-folder >/dev/null 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot create the SLURM job folder" "$tmp/err"; } \
  || { echo "FAIL --slurm into an impossible folder: exit $rc"; cat "$tmp/err"; fail=1; }
if [ -w /dev/full ]; then
  "$RINGSIM" run "$EXP" --out "$tmp/q-out" --list >/dev/full 2>"$tmp/err"; rc=$?
  { [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot write the answer to standard output" "$tmp/err"; } \
    || { echo "FAIL --list > /dev/full: exit $rc"; cat "$tmp/err"; fail=1; }
fi

[ $fail -eq 0 ] && echo "all cluster tests passed"
exit $fail
