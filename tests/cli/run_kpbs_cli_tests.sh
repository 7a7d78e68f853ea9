#!/usr/bin/env bash
# `ringsim kpbs` contract tests: exit status 2, one line on stderr, nothing on stdout for bad
# input; the KPBS paper's examples answered on stdout with exit 0.
set -u
RINGSIM=${1:?usage: run_kpbs_cli_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"

expect_bad() {  # name, stdin text, expected fragment of the message [, extra arguments]
  local name=$1 fragment=$3
  printf '%s' "$2" >"$tmp/in"
  shift 3
  expect_refused "$name" "$fragment" "$RINGSIM" kpbs - "$@" <"$tmp/in"
}

expect_bad malformed '{"k": 3, "beta": 1, "matrix": [[1,2]' 'malformed JSON'
expect_bad not_object '[[1,2]]' 'JSON object'
expect_bad empty_matrix '{"k": 3, "beta": 1, "matrix": []}' "'matrix' is empty"
expect_bad empty_row '{"k": 3, "beta": 1, "matrix": [[]]}' 'matrix[0] is empty'
expect_bad ragged '{"k": 3, "beta": 1, "matrix": [[1,2],[3]]}' 'ragged: row 1 has 1'
expect_bad negative '{"k": 3, "beta": 1, "matrix": [[1,2],[3,-4]]}' 'matrix[1][1] is negative'
expect_bad string_entry '{"k": 3, "beta": 1, "matrix": [[1,"2"]]}' 'matrix[0][1] must be a number'
expect_bad null_entry '{"k": 3, "beta": 1, "matrix": [[1,null]]}' 'matrix[0][1] must be a number'
expect_bad bool_entry '{"k": 3, "beta": 1, "matrix": [[true]]}' 'matrix[0][0] must be a number'
expect_bad row_not_array '{"k": 3, "beta": 1, "matrix": [1,2]}' 'matrix[0] must be an array'
expect_bad huge_entry '{"k": 3, "beta": 1, "matrix": [[1e999]]}' 'malformed JSON'
expect_bad k_zero '{"k": 0, "beta": 1, "matrix": [[1]]}' "'k' must be at least 1"
expect_bad k_negative '{"k": -1, "beta": 1, "matrix": [[1]]}' "'k' must be at least 1"
expect_bad k_fraction '{"k": 1.5, "beta": 1, "matrix": [[1]]}' "'k' must be an integer"
expect_bad k_string '{"k": "3", "beta": 1, "matrix": [[1]]}' "'k' must be an integer"
expect_bad beta_negative '{"k": 1, "beta": -0.5, "matrix": [[1]]}' "'beta' must be >= 0"
expect_bad beta_string '{"k": 1, "beta": "1", "matrix": [[1]]}' "'beta' must be a number"
expect_bad missing_beta '{"k": 1, "matrix": [[1]]}' "missing field 'beta'"
expect_bad missing_k '{"beta": 1, "matrix": [[1]]}' "missing field 'k'"
expect_bad missing_matrix '{"k": 1, "beta": 1}' "missing field 'matrix'"
expect_bad unknown_key '{"k": 1, "beta": 1, "matrix": [[1]], "colour": 1}' "unknown key 'colour'"
expect_bad unknown_algo '{"k": 1, "beta": 1, "matrix": [[1]], "algorithm": "magic"}' "unknown algorithm 'magic'"
expect_bad unknown_algo_flag '{"k": 1, "beta": 1, "matrix": [[1]]}' "unknown algorithm 'nope'" --algorithm nope
expect_bad both_matrices '{"k": 1, "beta": 1, "matrix": [[1]], "bytes": [[1]]}' "either 'matrix'"
expect_bad bytes_no_clusters '{"k": 1, "beta": 1, "bytes": [[1]]}' "'bytes' needs 'clusters'"
expect_bad k_and_clusters '{"k": 1, "beta": 1, "matrix": [[1]], "clusters": {"b1": 1, "b2": 1, "bb": 1}}' "either 'k' or 'clusters'"
expect_bad clusters_missing_bb '{"beta": 1, "bytes": [[1]], "clusters": {"b1": 1, "b2": 1}}' "missing field 'clusters.bb'"
expect_bad clusters_zero_b2 '{"beta": 1, "bytes": [[1]], "clusters": {"b1": 1, "b2": 0, "bb": 1}}' "'clusters.b2' must be positive"
expect_bad clusters_unknown '{"beta": 1, "bytes": [[1]], "clusters": {"b1": 1, "b2": 1, "bb": 1, "b3": 1}}' "unknown key 'b3' in 'clusters'"
expect_bad clusters_small_v2 '{"beta": 1, "bytes": [[1, 2]], "clusters": {"b1": 1, "b2": 1, "bb": 1, "v2": 1}}' "'clusters.v2' is 1"

"$RINGSIM" kpbs /nonexistent/file.json >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "cannot read" "$tmp/err" || { echo "FAIL missing file"; fail=1; }

json_field() {  # file, python expression on d
  /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# Section 2.3 of the KPBS paper: k = 3, beta = 1, cost 4 (= eta).
ex='{"k": 3, "beta": 1, "matrix": [[1,0,0,0,0],[0,1,0,0,0],[0,0,1,0,0],[0,0,0,1,0],[0,0,0,0,2]]}'
for algo in ggp oggp; do
  printf '%s' "$ex" | "$RINGSIM" kpbs - --algorithm $algo >"$tmp/out" 2>"$tmp/err" || { echo "FAIL section 2.3 $algo"; cat "$tmp/err"; fail=1; }
  [ "$(json_field "$tmp/out" "d['time'], d['lower_bound'], len(d['steps'])")" = "4.0 4.0 2" ] \
    || { echo "FAIL section 2.3 $algo: $(cat "$tmp/out")"; fail=1; }
done

# Figures 1-2 of the KPBS paper in bytes: k = 4 and 10 MB/s time units; eta = 16.
fig='{"beta": 3, "bytes": [[30e6,20e6,0,0],[20e6,0,20e6,0],[0,0,40e6,20e6],[0,15e6,10e6,10e6]],
      "clusters": {"b1": 10e6, "b2": 10e6, "bb": 40e6}}'
for algo in ggp oggp greedy all-at-once; do
  printf '%s' "$fig" | "$RINGSIM" kpbs - --algorithm $algo >"$tmp/out" 2>"$tmp/err" || { echo "FAIL figure 2 $algo"; cat "$tmp/err"; fail=1; continue; }
  for key in algorithm time lower_bound steps k beta kpbs_feasible lower_bound_terms unit_bandwidth; do
    grep -q "\"$key\"" "$tmp/out" || { echo "FAIL figure 2 $algo lacks $key"; fail=1; }
  done
  [ "$(json_field "$tmp/out" "d['k'], d['lower_bound'], d['unit_bandwidth']")" = "4 16.0 10000000.0" ] \
    || { echo "FAIL figure 2 $algo: k, eta or unit: $(head -c 300 "$tmp/out")"; fail=1; }
  # Every KPBS step: at most k comms, each node once, duration = beta + longest; time = sum.
  ok=$(/usr/bin/python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
total = sum(s["duration"] for s in d["steps"])
good = abs(total - d["time"]) < 1e-9 * max(1, total)
if d["kpbs_feasible"]:
    for s in d["steps"]:
        c = s["comms"]
        good &= len(c) <= d["k"] and len({x["from"] for x in c}) == len(c) and len({x["to"] for x in c}) == len(c)
        good &= abs(s["duration"] - (d["beta"] + max(x["amount"] for x in c))) < 1e-9
print("ok" if good else "bad")
PY
)
  [ "$ok" = ok ] || { echo "FAIL figure 2 $algo: schedule breaks the contract"; fail=1; }
done

"$RINGSIM" kpbs --help >"$tmp/out" 2>&1
for word in '"bytes"' '"clusters"' b1 bb v1 ggp oggp greedy all-at-once fluid; do
  grep -q -- "$word" "$tmp/out" || { echo "FAIL --help lacks $word"; fail=1; }
done

"$RINGSIM" bench kpbs --sizes 5,10 >"$tmp/out" 2>"$tmp/err" || { echo "FAIL bench kpbs"; cat "$tmp/err"; fail=1; }
[ "$(grep -c ',yes$' "$tmp/out")" -eq 4 ] || { echo "FAIL bench kpbs output:"; cat "$tmp/out"; fail=1; }

[ $fail -eq 0 ] && echo "all kpbs CLI contract tests passed"
exit $fail
