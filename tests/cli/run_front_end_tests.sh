#!/usr/bin/env bash
# The `ringsim` front end and its simulation program (src/cli/command_table.hpp): the front end does
# not load SimGrid, runs the planner commands and --help/--version alone, lists every subcommand,
# and hands the others to ringsim-simulation found beside it; without it those fail with one line
# while the planner commands still work.
set -u
RINGSIM=${1:?usage: run_front_end_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIMULATION="$(dirname "$RINGSIM")/ringsim-simulation"

# What the front end links, and what the simulation program does.
ldd "$RINGSIM" >"$tmp/ldd" || { echo "FAIL ldd ringsim"; fail=1; }
grep -q simgrid "$tmp/ldd" && { echo "FAIL the front end links SimGrid:"; grep simgrid "$tmp/ldd"; fail=1; }
[ -x "$SIMULATION" ] || { echo "FAIL no simulation program beside $RINGSIM"; fail=1; }
ldd "$SIMULATION" | grep -q simgrid || { echo "FAIL the simulation program does not link SimGrid"; fail=1; }

# A planner command, --help and --version load no SimGrid library at all.
for cmd in "--version" "--help" "balance --speeds 1,2,3 --total 12"; do
  # shellcheck disable=SC2086
  LD_DEBUG=files "$RINGSIM" $cmd >"$tmp/out" 2>"$tmp/loads" || { echo "FAIL '$cmd' exit status"; fail=1; }
  grep -q "libsimgrid" "$tmp/loads" && { echo "FAIL '$cmd' loaded SimGrid"; fail=1; }
done
# A simulating command does (and its answer is the simulation program's).
LD_DEBUG=files "$RINGSIM" simulate --help >"$tmp/out" 2>"$tmp/loads" || { echo "FAIL simulate --help"; fail=1; }
grep -q "libsimgrid" "$tmp/loads" || { echo "FAIL simulate --help did not load SimGrid"; fail=1; }
grep -q "Config keys" "$tmp/out" || { echo "FAIL simulate --help is not the command's own help"; fail=1; }

# Every subcommand the front end lists answers its own --help, wherever it runs; and the list is the
# simulation program's own (it answers a command line the front end would have kept, too).
"$RINGSIM" --help >"$tmp/help" 2>&1 || { echo "FAIL --help"; fail=1; }
subs=$(awk '/^Subcommands:/ {on=1; next} on && NF {print $1}' "$tmp/help")
[ "$(echo "$subs" | wc -l)" -ge 11 ] || { echo "FAIL --help lists too few subcommands:"; cat "$tmp/help"; fail=1; }
for s in $subs; do
  "$RINGSIM" "$s" --help >"$tmp/out" 2>"$tmp/err"
  { [ $? -eq 0 ] && grep -q "Usage:.* $s" "$tmp/out"; } || { echo "FAIL '$s --help'"; cat "$tmp/out" "$tmp/err"; fail=1; }
done
for b in redistribute kpbs ring simulate; do
  "$RINGSIM" bench "$b" --help >"$tmp/out" 2>&1 && grep -q "Usage:.*bench $b" "$tmp/out" \
    || { echo "FAIL 'bench $b --help'"; cat "$tmp/out"; fail=1; }
done

# Bad command lines are exit 2 and one line on either side.
for cmd in "nosuchcommand" "simulate --nosuchoption x.json" "redistribute --nosuchoption" "bench nosuch"; do
  # shellcheck disable=SC2086
  "$RINGSIM" $cmd >"$tmp/out" 2>"$tmp/err"
  rc=$?
  { [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; } || { echo "FAIL '$cmd': exit $rc"; cat "$tmp/err"; fail=1; }
done

# A simulation runs end to end through the simulation program.
printf '{"platform": "%s", "ring": {"size": 3}, "iterations": 3, "rows": 10, "columns": 12, "ratio": 1, "scheme": "every-1", "baseline": false}\n' \
  "$ROOT/platforms/tiers37.xml" >"$tmp/sim.json"
"$RINGSIM" simulate "$tmp/sim.json" >"$tmp/res.json" 2>"$tmp/err" || { echo "FAIL simulate"; cat "$tmp/err"; fail=1; }
grep -q '"makespan"' "$tmp/res.json" || { echo "FAIL simulate printed no makespan"; fail=1; }
# The command lines a sweep writes for users and cluster jobs name the front end, not the program
# that wrote them.
printf '{"name": "fe", "base": {"platform": "%s", "rows": 10, "columns": 12, "iterations": 2, "baseline": false}, "ring_sizes": [3], "ratios": [1], "schemes": ["none"], "seeds": [1]}\n' \
  "$ROOT/platforms/tiers37.xml" >"$tmp/exp.json"
"$RINGSIM" run "$tmp/exp.json" --out "$tmp/sweep" --list >"$tmp/list" 2>"$tmp/err" || { echo "FAIL run --list"; cat "$tmp/err"; fail=1; }
front=$(cd "$(dirname "$RINGSIM")" && pwd)/ringsim
{ [ "$(grep -c . "$tmp/list")" -eq 2 ] && [ "$(grep -c "^'\?$front'\? simulate " "$tmp/list")" -eq 1 ] \
  && grep -q "^# when all are done: '\?$front'\? run " "$tmp/list"; } || { echo "FAIL run --list names $front:"; cat "$tmp/list"; fail=1; }

# Without the simulation program: the planner commands still run; a simulating one fails with one
# line, exit 1.
mkdir "$tmp/alone" && cp "$RINGSIM" "$tmp/alone/ringsim"
"$tmp/alone/ringsim" balance --speeds 1,3 --total 8 >"$tmp/out" 2>"$tmp/err" && grep -q '"targets":\[2,6\]' "$tmp/out" \
  || { echo "FAIL balance without the simulation program"; cat "$tmp/out" "$tmp/err"; fail=1; }
"$tmp/alone/ringsim" simulate "$tmp/sim.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
{ [ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot run the simulation program" "$tmp/err"; } \
  || { echo "FAIL simulate without the simulation program: exit $rc"; cat "$tmp/err"; fail=1; }

[ $fail -eq 0 ] && echo "front end tests passed"
exit $fail
