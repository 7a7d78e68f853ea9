#!/usr/bin/env bash
# A study's one command in its quick form (experiments/<study>/run.sh --quick, experiments/README.md):
# it runs, writes the tables and figures the study commits, BUILD names the build, a second call
# into another build's results or into results no BUILD names is refused, and so is --quick into the
# committed results.
set -u
STUDY=${1:?usage: run_study_tests.sh STUDY path/to/ringsim}
RINGSIM=${2:?usage: run_study_tests.sh STUDY path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
RUN=$ROOT/experiments/$STUDY/run.sh
out=$tmp/quick
# What each study's quick form must write (the same names as its committed results).
case $STUDY in
  hipc2004) files="fig2-speed-traces.png fig3-ring8/runs.csv fig3-ring8.png fig4-ring32/runs.csv fig4-ring32.png
                   normalized-time.md" ;;
  redistribution) files="plans.md bi-general.plan.json bi-homogeneous.plan.json bi-light.plan.json
                         uni-heterogeneous.plan.json uni-homogeneous.plan.json" ;;
  kpbs) files="ratio_vs_beta.csv ratio_vs_k.csv planned_vs_simulated.csv kpbs_ratio_vs_beta.png kpbs_ratio_vs_k.png
               kpbs_planned_vs_simulated.png" ;;
  staging) files="staging.csv rebuild.csv staging.png" ;;
  sharedring) files="methods_table.md tiers37_sweep.csv tiers70_sweep.csv paper90_table.csv sharedring_ring_size.png
                     sharedring_tstep_vs_size.png sharedring_refinements.png sharedring_h1_vs_h2.png" ;;
  real-load) files="answer.md policies.md real-load.png" ;;
  when) files="goal-table.md when-to-redistribute.png chosen-targets-table.md criteria/table.md
               criteria/when-criteria-on-off.png criteria/seeds-9-16/table.md criteria/held-out-goal-table.md
               criteria/goals-markov-rule.md information-table.md information-late-table.md late-rule-seeds-1-8-table.md
               late-rule-seeds-9-16-table.md moves-adaptive-lasting.md one-run-adaptive.png" ;;
  *) echo "FAIL no such study '$STUDY'"; exit 1 ;;
esac
if ! "$RUN" --quick --ringsim "$RINGSIM" --out "$out" >"$tmp/log" 2>&1; then
  echo "FAIL run.sh --quick:"; tail -5 "$tmp/log"; exit 1
fi
tail -1 "$tmp/log"
for f in $files; do
  [ -s "$out/$f" ] || { echo "FAIL $STUDY: run.sh --quick wrote no $f"; fail=1; }
done
case $STUDY in
  real-load)
    sweeps=$(ls "$ROOT"/experiments/real-load/configs/*.json | wc -l)
    done_sweeps=$(ls "$out"/*/runs.csv | wc -l)
    [ "$done_sweeps" -eq "$sweeps" ] || { echo "FAIL: $done_sweeps sweeps of $sweeps"; fail=1; }
    for scale in "a third of an iteration" "one iteration" "three iterations"; do
      grep -q "^| $scale | 1 |" "$out/answer.md" || { echo "FAIL answer.md has no row for '$scale'"; fail=1; }
    done
    for scheme in markov-rule adaptive hindsight; do
      grep -q "^| \`$scheme\` | 18 |" "$out/policies.md" \
        || { echo "FAIL policies.md has no row of 18 points for $scheme"; fail=1; }
    done ;;
  hipc2004)
    for fig in "Figure 3" "Figure 4"; do
      grep -q "^## $fig" "$out/normalized-time.md" || { echo "FAIL normalized-time.md has no table for $fig"; fail=1; }
    done ;;
  redistribution)
    [ "$(grep -c '| true |$' "$out/plans.md")" -eq 5 ] || { echo "FAIL plans.md: not 5 optimal plans"; fail=1; } ;;
esac
[ "$(cat "$out/BUILD" 2>/dev/null)" = "$("$RINGSIM" --version)" ] \
  || { echo "FAIL BUILD does not name the build"; fail=1; }
echo "0.0.0 (commit another)" >"$out/BUILD"
expect_refused "another build's results" "holds results of 0.0.0 (commit another)" \
  "$RUN" --quick --ringsim "$RINGSIM" --out "$out"
rm "$out/BUILD"
expect_refused "results no build names" "holds results that no BUILD names" \
  "$RUN" --quick --ringsim "$RINGSIM" --out "$out"
expect_refused "--quick into the committed results" "--quick needs --out DIR" "$RUN" --quick --ringsim "$RINGSIM"
expect_refused "an unknown option" "unknown option '--fast'" "$RUN" --fast
[ $fail -eq 0 ] && echo "ok $STUDY study, quick form: $(echo $files | wc -w) tables and figures, BUILD"
exit $fail
