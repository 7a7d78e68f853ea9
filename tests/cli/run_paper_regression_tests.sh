#!/usr/bin/env bash
# The paper reproduction does not move unnoticed: the Figure 3 and 4 quick sweeps (fixed schemes,
# oracle targets) give byte for byte
# - with traces.placement nominal-time (speed changes at iteration * the first iteration's predicted
#   time), the reference runs.csv of the paper's fixed schemes kept in tests/data/paper-quick/, but
#   for ideal_time and time_over_ideal, which are those of the ideal that integrates the speeds
#   inside each iteration (these profiles change inside iterations);
# - with the default placement (a change at iteration k slows iteration k), the reference runs.csv
#   kept in tests/data/paper-quick/iteration/.
# Both end with the realized_ratio column that every run reports, and hold as predicted_transfer_time
# the moves as played on the platform's shared links (docs/schemes.md, "What a move is weighed
# with"), where the planners' own times are lower: every other column is the reference's.
set -u
RINGSIM=${1:?usage: run_paper_regression_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (RINGSIM_TEST_SIZES=sanitizer, tools/sanitize.sh) the sweeps run one seed
# of the three, and their rows are compared with that seed's rows of the kept files: the same code
# on a third of the runs (each run's row depends on its own seed only).
SUBSET_SEED=
sanitizer_sizes && SUBSET_SEED=2
# experiment FIG PLACEMENT SEED: the figure's experiment copied beside a link to the platforms
# (paths stay relative), with that placement of the speed changes, and one seed when SEED is set.
mkdir -p "$tmp/experiments/hipc2004" && ln -s "$ROOT/platforms" "$tmp/platforms"
experiment() {
  $PY - "$ROOT/experiments/hipc2004/$1.json" "$tmp/experiments/hipc2004/$1-$2.json" "$2" "$3" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
if sys.argv[3] == "nominal-time":
    e["base"]["traces"]["placement"] = "nominal-time"
if sys.argv[4]:
    e["quick"]["seeds"] = [int(sys.argv[4])]
json.dump(e, open(sys.argv[2], "w"), indent=1)
PY
}
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
check() {  # FIG PLACEMENT SEED output-dir expected-runs.csv: the quick sweep against the kept rows
  local fig=$1 placement=$2 seed=$3 out=$4 expected=$5
  experiment "$fig" "$placement" "$seed"
  "$RINGSIM" run "$tmp/experiments/hipc2004/$fig-$placement.json" --quick --jobs 2 --out "$out" >/dev/null 2>"$tmp/err" \
    || { echo "FAIL $fig-$placement sweep"; cat "$tmp/err"; fail=1; return; }
  rows_of_seed "$expected" "$seed" >"$tmp/expected.csv"
  if cmp -s "$tmp/expected.csv" "$out/runs.csv"; then
    echo "$(basename "$out"): runs.csv byte-identical to ${expected#"$ROOT"/}${seed:+ (seed $seed)} ($(($(wc -l <"$out/runs.csv") - 1)) runs)"
  else
    echo "FAIL $(basename "$out"): runs.csv differs from ${expected#"$ROOT"/}${seed:+ (seed $seed)}"
    diff "$tmp/expected.csv" "$out/runs.csv" | head -5
    fail=1
  fi
}
for fig in fig3-ring8 fig4-ring32; do
  seed=$SUBSET_SEED
  check "$fig" nominal-time "$seed" "$tmp/$fig-nominal-time" "$ROOT/tests/data/paper-quick/$fig-runs.csv"
  check "$fig" iteration "$seed" "$tmp/$fig" "$ROOT/tests/data/paper-quick/iteration/$fig-runs.csv"
done
[ $fail -eq 0 ] && echo "paper reproduction unchanged"
exit $fail
