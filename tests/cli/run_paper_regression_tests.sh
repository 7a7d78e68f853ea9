#!/usr/bin/env bash
# The paper reproduction does not move: the Figure 3 and 4 quick sweeps (fixed schemes, oracle
# targets) give byte for byte the runs.csv that ringsim gave before the redistribution policies
# (commit 2616e49), kept in tests/data/paper-quick/.
set -u
RINGSIM=${1:?usage: run_paper_regression_tests.sh path/to/ringsim}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for fig in fig3-ring8 fig4-ring32; do
  "$RINGSIM" run "$ROOT/experiments/$fig.json" --quick --jobs 2 --out "$tmp/$fig" >/dev/null 2>"$tmp/err" \
    || { echo "FAIL $fig sweep"; cat "$tmp/err"; fail=1; continue; }
  if cmp -s "$ROOT/tests/data/paper-quick/$fig-runs.csv" "$tmp/$fig/runs.csv"; then
    echo "$fig: runs.csv byte-identical ($(($(wc -l <"$tmp/$fig/runs.csv") - 1)) runs)"
  else
    echo "FAIL $fig: runs.csv differs from tests/data/paper-quick/$fig-runs.csv"
    diff "$ROOT/tests/data/paper-quick/$fig-runs.csv" "$tmp/$fig/runs.csv" | head -5
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "paper reproduction unchanged"
exit $fail
