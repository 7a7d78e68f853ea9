#!/usr/bin/env bash
# The real-load study's one command in its quick form (experiments/real-load/run.sh --quick): every
# config's quick sweep runs, the tables and figure are written with a row per time scale and
# policy, BUILD names the build, and a second call with another build's BUILD is refused.
set -u
RINGSIM=${1:?usage: run_real_load_study_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
out=$tmp/quick
if ! "$ROOT/experiments/real-load/run.sh" --quick --ringsim "$RINGSIM" --out "$out" >"$tmp/log" 2>&1; then
  echo "FAIL run.sh --quick:"; tail -5 "$tmp/log"; exit 1
fi
tail -1 "$tmp/log"
sweeps=$(ls "$ROOT"/experiments/real-load/configs/*.json | wc -l)
done_sweeps=$(ls "$out"/*/runs.csv | wc -l)
[ "$done_sweeps" -eq "$sweeps" ] || { echo "FAIL: $done_sweeps sweeps of $sweeps"; fail=1; }
for scale in "a third of an iteration" "one iteration" "three iterations"; do
  grep -q "^| $scale | 1 |" "$out/answer.md" || { echo "FAIL answer.md has no row for '$scale'"; fail=1; }
done
for scheme in markov-rule adaptive hindsight; do
  grep -q "^| \`$scheme\` | 18 |" "$out/policies.md" || { echo "FAIL policies.md has no row of 18 points for $scheme"; fail=1; }
done
[ -s "$out/real-load.png" ] || { echo "FAIL no figure"; fail=1; }
[ "$(cat "$out/BUILD")" = "$("$RINGSIM" --version)" ] || { echo "FAIL BUILD does not name the build"; fail=1; }
echo "0.0.0 (commit another)" >"$out/BUILD"
expect_refused "another build's results" "holds results of 0.0.0 (commit another)" \
  "$ROOT/experiments/real-load/run.sh" --quick --ringsim "$RINGSIM" --out "$out"
expect_refused "--quick into the committed results" "--quick needs --out DIR" \
  "$ROOT/experiments/real-load/run.sh" --quick --ringsim "$RINGSIM"
[ $fail -eq 0 ] && echo "ok real-load study, quick form: $done_sweeps sweeps, tables, figure, BUILD"
exit $fail
