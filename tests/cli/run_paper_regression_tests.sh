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
# The experiments with the former placement, beside a link to the platforms (paths stay relative).
mkdir -p "$tmp/experiments/hipc2004" && ln -s "$ROOT/platforms" "$tmp/platforms"
for fig in fig3-ring8 fig4-ring32; do
  $PY - "$ROOT/experiments/hipc2004/$fig.json" "$tmp/experiments/hipc2004/$fig.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["base"]["traces"]["placement"] = "nominal-time"
json.dump(e, open(sys.argv[2], "w"), indent=1)
PY
done
check() {  # experiment-file output-dir expected-runs.csv
  "$RINGSIM" run "$1" --quick --jobs 2 --out "$2" >/dev/null 2>"$tmp/err" \
    || { echo "FAIL $1 sweep"; cat "$tmp/err"; fail=1; return; }
  if cmp -s "$3" "$2/runs.csv"; then
    echo "$(basename "$2"): runs.csv byte-identical to ${3#"$ROOT"/} ($(($(wc -l <"$2/runs.csv") - 1)) runs)"
  else
    echo "FAIL $(basename "$2"): runs.csv differs from ${3#"$ROOT"/}"
    diff "$3" "$2/runs.csv" | head -5
    fail=1
  fi
}
for fig in fig3-ring8 fig4-ring32; do
  check "$tmp/experiments/hipc2004/$fig.json" "$tmp/$fig-nominal-time" "$ROOT/tests/data/paper-quick/$fig-runs.csv"
  check "$ROOT/experiments/hipc2004/$fig.json" "$tmp/$fig" "$ROOT/tests/data/paper-quick/iteration/$fig-runs.csv"
done
[ $fail -eq 0 ] && echo "paper reproduction unchanged"
exit $fail
