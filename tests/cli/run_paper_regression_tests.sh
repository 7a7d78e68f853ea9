#!/usr/bin/env bash
# The paper reproduction does not move unnoticed: the Figure 3 and 4 quick sweeps (fixed schemes,
# oracle targets) give byte for byte
# - with traces.placement nominal-time (speed changes at iteration * the first iteration's predicted
#   time), the runs.csv that ringsim gave before the redistribution policies (commit 2616e49), kept
#   in tests/data/paper-quick/, but for ideal_time and time_over_ideal, which are those of the ideal
#   that integrates the speeds inside each iteration (these profiles change inside iterations);
# - with the default placement (a change at iteration k slows iteration k), the runs.csv kept in
#   tests/data/paper-quick/iteration/ when that placement was introduced.
# Both end with the realized_ratio column that every run reports.
set -u
RINGSIM=${1:?usage: run_paper_regression_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (RINGSIM_TEST_SIZES=sanitizer, tools/sanitize.sh) the Figure 4 sweeps run
# one seed of the three, and their rows are compared with that seed's rows of the kept files: the
# same code on a third of the runs (each run's row depends on its own seed only).
SUBSET_SEED=
sanitizer_sizes && SUBSET_SEED=2
# Each experiment copied beside a link to the platforms (paths stay relative): with the former
# placement (nominal-time) and with the default one.
mkdir -p "$tmp/experiments/hipc2004" && ln -s "$ROOT/platforms" "$tmp/platforms"
for fig in fig3-ring8 fig4-ring32; do
  for placement in nominal-time iteration; do
    $PY - "$ROOT/experiments/hipc2004/$fig.json" "$tmp/experiments/hipc2004/$fig-$placement.json" "$placement" \
      "$([ "$fig" = fig4-ring32 ] && echo "$SUBSET_SEED")" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
if sys.argv[3] == "nominal-time":
    e["base"]["traces"]["placement"] = "nominal-time"
if sys.argv[4]:
    e["quick"]["seeds"] = [int(sys.argv[4])]
json.dump(e, open(sys.argv[2], "w"), indent=1)
PY
  done
done
# rows_of_seed CSV SEED: the header and the lines of one seed, as they are (all lines when SEED is empty).
rows_of_seed() {
  $PY - "$1" "$2" <<'PY'
import csv, sys
lines = open(sys.argv[1], newline="").read().splitlines(keepends=True)
seed = next(csv.reader(lines[:1])).index("seed")
sys.stdout.write("".join(line for i, line in enumerate(lines)
                         if i == 0 or not sys.argv[2] or next(csv.reader([line]))[seed] == sys.argv[2]))
PY
}
check() {  # experiment-file output-dir expected-runs.csv [seed]
  "$RINGSIM" run "$1" --quick --jobs 2 --out "$2" >/dev/null 2>"$tmp/err" \
    || { echo "FAIL $1 sweep"; cat "$tmp/err"; fail=1; return; }
  rows_of_seed "$3" "${4:-}" >"$tmp/expected.csv"
  if cmp -s "$tmp/expected.csv" "$2/runs.csv"; then
    echo "$(basename "$2"): runs.csv byte-identical to ${3#"$ROOT"/}${4:+ (seed $4)} ($(($(wc -l <"$2/runs.csv") - 1)) runs)"
  else
    echo "FAIL $(basename "$2"): runs.csv differs from ${3#"$ROOT"/}${4:+ (seed $4)}"
    diff "$tmp/expected.csv" "$2/runs.csv" | head -5
    fail=1
  fi
}
for fig in fig3-ring8 fig4-ring32; do
  seed=; [ "$fig" = fig4-ring32 ] && seed=$SUBSET_SEED
  check "$tmp/experiments/hipc2004/$fig-nominal-time.json" "$tmp/$fig-nominal-time" "$ROOT/tests/data/paper-quick/$fig-runs.csv" "$seed"
  check "$tmp/experiments/hipc2004/$fig-iteration.json" "$tmp/$fig" "$ROOT/tests/data/paper-quick/iteration/$fig-runs.csv" "$seed"
done
[ $fail -eq 0 ] && echo "paper reproduction unchanged"
exit $fail
