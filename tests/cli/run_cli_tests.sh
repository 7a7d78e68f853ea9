#!/usr/bin/env bash
# Command-line contract tests: exit status 2, one line on stderr, nothing on stdout for bad input.
set -u
RINGSIM=${1:?usage: run_cli_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"

expect_bad() {  # name, stdin text, expected fragment of the message
  printf '%s' "$2" >"$tmp/in"
  expect_refused "$1" "$3" "$RINGSIM" redistribute - <"$tmp/in"
}

expect_bad malformed '{"loads": [1,2' 'malformed JSON'
expect_bad not_object '[1,2]' 'JSON object'
expect_bad sums '{"loads":[1,2],"targets":[2,2],"cost_next":[1,1]}' 'sum'
expect_bad load_zero '{"loads":[0,3],"targets":[2,1],"cost_next":[1,1]}' 'loads[0]'
expect_bad target_zero '{"loads":[1,3],"targets":[4,0],"cost_next":[1,1]}' 'targets[1]'
expect_bad cost_negative '{"loads":[1,3],"targets":[2,2],"cost_next":[1,-1]}' 'cost_next[1]'
expect_bad cost_zero '{"loads":[1,3],"targets":[2,2],"cost_next":[0,1]}' 'cost_next[0]'
expect_bad cost_huge '{"loads":[1,3],"targets":[2,2],"cost_next":[1e999,1]}' "number '1e999' in standard input at byte 49 is beyond a double's range"
expect_bad missing_targets '{"loads":[1,3],"cost_next":[1,1]}' "missing field 'targets'"
expect_bad missing_costs '{"loads":[1,3],"targets":[2,2]}' "missing field 'cost_next'"
expect_bad one_proc '{"loads":[3],"targets":[3],"cost_next":[1]}' 'at least 2'
expect_bad no_prev '{"bidirectional":true,"loads":[1,3],"targets":[2,2],"cost_next":[1,1]}' 'cost_prev'
expect_bad float_load '{"loads":[1.5,3],"targets":[2,2],"cost_next":[1,1]}' 'integer'
expect_bad wrong_type '{"loads":"1,3","targets":[2,2],"cost_next":[1,1]}' 'array'
expect_bad unknown_key '{"loads":[1,3],"targets":[2,2],"cost_next":[1,1],"colour":1}' "unknown key 'colour'"
expect_bad unknown_algo '{"loads":[1,3],"targets":[2,2],"cost_next":[1,1],"algorithm":"magic"}' "unknown algorithm"
expect_bad short_costs '{"loads":[1,3,2],"targets":[2,2,2],"cost_next":[1,1]}' 'cost_next has 2'

"$RINGSIM" redistribute /nonexistent/file.json >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "cannot read" "$tmp/err" || { echo "FAIL missing file"; fail=1; }

# A good instance: the design card's example, answered on stdout with exit 0.
printf '%s' '{"bidirectional": true, "loads": [5,3,8,2], "targets": [4,4,5,5], "cost_next": [1,1,2,1], "cost_prev": [1,1.5,1,1], "algorithm": "auto"}' \
  | "$RINGSIM" redistribute - >"$tmp/out" 2>"$tmp/err" || { echo "FAIL good instance"; cat "$tmp/err"; fail=1; }
for key in algorithm time lower_bound optimal send_next send_prev transfers; do
  grep -q "\"$key\"" "$tmp/out" || { echo "FAIL good instance lacks $key"; fail=1; }
done
"$RINGSIM" balance --speeds 1,2,3 --total 0 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] || { echo "FAIL balance with 0 columns"; fail=1; }

# An answer that cannot be written (a full disk) is an error, never a silent exit 0.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
printf '%s' '{"bidirectional": false, "loads": [5,3], "targets": [4,4], "cost_next": [1,1]}' >"$tmp/small.json"
printf '%s' '{"k": 2, "beta": 1, "matrix": [[1, 2], [3, 0]]}' >"$tmp/kpbs.json"
printf '{"platform": "%s", "ring": {"size": 2}, "iterations": 3, "rows": 10, "columns": 10, "ratio": 1, "scheme": "none", "baseline": false}\n' \
  "$ROOT/platforms/tiers37.xml" >"$tmp/sim.json"
if [ -w /dev/full ]; then
  for cmd in "redistribute $tmp/small.json" "kpbs $tmp/kpbs.json" "ring $ROOT/platforms/tiers37.xml --work 1e9 --comm 1e6" \
             "platform describe $ROOT/platforms/tiers37.xml" "simulate $tmp/sim.json"; do
    # shellcheck disable=SC2086
    "$RINGSIM" $cmd >/dev/full 2>"$tmp/err"
    rc=$?
    { [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot write the answer to standard output" "$tmp/err"; } \
      || { echo "FAIL '$cmd' > /dev/full: exit $rc"; cat "$tmp/err"; fail=1; }
  done
fi

# --summary: the full plan's answer without the transfers (Lemma 2 in closed form on a
# heterogeneous unidirectional ring); --max-blocks: a larger schedule is refused with exit 2.
UNI='{"bidirectional": false, "loads": [9, 1, 1, 9, 1, 1], "targets": [2, 4, 4, 2, 4, 6], "cost_next": [1.5, 0.5, 2, 1, 3, 0.25]}'
printf '%s' "$UNI" | "$RINGSIM" redistribute - >"$tmp/full.json" 2>"$tmp/err" || { echo "FAIL full plan"; cat "$tmp/err"; fail=1; }
printf '%s' "$UNI" | "$RINGSIM" redistribute - --summary >"$tmp/sum.json" 2>"$tmp/err" || { echo "FAIL summary"; cat "$tmp/err"; fail=1; }
/usr/bin/python3 - "$tmp/full.json" "$tmp/sum.json" <<'PY' || fail=1
import json, sys
full, s = (json.load(open(f)) for f in sys.argv[1:3])
ok = "transfers" not in s and "Lemma 2" in s["summary"] and len(full["transfers"]) > 1
for k in ("algorithm", "send_next", "send_prev", "lower_bound", "optimal"):
    ok = ok and s[k] == full[k]
ok = ok and abs(s["time"] - full["time"]) <= 1e-12 * max(1.0, full["time"])
if not ok:
    print("FAIL summary differs from the full plan:", s, full)
    sys.exit(1)
PY
blocks=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["transfers"]))' "$tmp/full.json")
printf '%s' "$UNI" | "$RINGSIM" redistribute - --max-blocks $((blocks - 1)) >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "--max-blocks" "$tmp/err" \
  || { echo "FAIL --max-blocks below the schedule's $blocks blocks: rc=$rc"; cat "$tmp/err"; fail=1; }
printf '%s' "$UNI" | "$RINGSIM" redistribute - --max-blocks "$blocks" | cmp -s - "$tmp/full.json" \
  || { echo "FAIL --max-blocks at the schedule's size changed the answer"; fail=1; }
printf '%s' "$UNI" | "$RINGSIM" redistribute - --max-blocks -1 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL --max-blocks -1: rc=$rc"; cat "$tmp/err"; fail=1; }

# --summary on bidirectional rings of 3000 processors (loads shuffled): bi-light off light instances
# and bi-heuristic are timed by runs of items, auto on a homogeneous ring takes
# bi-homogeneous-early-late (Lemma 3); each equals the full plan.
for shape in het:bi-light het:bi-heuristic hom:auto; do
  /usr/bin/python3 - "${shape%%:*}" "${shape#*:}" >"$tmp/big.json" <<'PY'
import json, random, sys
random.seed(12)
n = 3000
loads = [random.randint(50, 150) for _ in range(n)]
targets = loads[:]
random.shuffle(targets)
cost = (lambda: random.uniform(0.5, 4.0)) if sys.argv[1] == "het" else (lambda: 1.0)
print(json.dumps({"bidirectional": True, "loads": loads, "targets": targets, "algorithm": sys.argv[2],
                  "cost_next": [cost() for _ in range(n)], "cost_prev": [cost() for _ in range(n)]}))
PY
  "$RINGSIM" redistribute "$tmp/big.json" >"$tmp/full.json" 2>"$tmp/err" || { echo "FAIL $shape full plan"; cat "$tmp/err"; fail=1; }
  "$RINGSIM" redistribute "$tmp/big.json" --summary >"$tmp/sum.json" 2>"$tmp/err" || { echo "FAIL $shape summary"; cat "$tmp/err"; fail=1; }
  /usr/bin/python3 - "$tmp/full.json" "$tmp/sum.json" "$shape" <<'PY' || fail=1
import json, sys
full, s = (json.load(open(f)) for f in sys.argv[1:3])
want = "Lemma 3" if sys.argv[3].startswith("hom") else "by runs"
ok = "transfers" not in s and want in s["summary"] and len(full["transfers"]) > 1000
for k in ("algorithm", "send_next", "send_prev", "lower_bound", "optimal"):
    ok = ok and s[k] == full[k]
ok = ok and abs(s["time"] - full["time"]) <= 1e-9 * max(1.0, full["time"])
if not ok:
    print("FAIL", sys.argv[3], "summary differs from the full plan:", s["algorithm"], s["time"], s["summary"],
          full["algorithm"], full["time"])
    sys.exit(1)
PY
done

"$RINGSIM" bench redistribute --algorithms bi-light,no-such --max-log2 4 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "no-such" "$tmp/err" \
  || { echo "FAIL bench redistribute --algorithms with an unknown name: rc=$rc"; cat "$tmp/err"; fail=1; }

"$RINGSIM" bench redistribute --family drift --algorithms bi-light --max-log2 11 --census --integer-costs >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^bi-light,' "$tmp/out")" -eq 4 ] \
  && [ "$(awk -F, '/^bi-light,/ && NF == 10 && $3 > 0 && $10 == 0' "$tmp/out" | wc -l)" -eq 4 ] \
  && grep -q "^algorithm,n,blocks,blocks_per_processor,.*,could_merge$" "$tmp/out" \
  || { echo "FAIL bench redistribute --census: rc=$rc"; cat "$tmp/out" "$tmp/err"; fail=1; }

[ $fail -eq 0 ] && echo "all CLI contract tests passed"
exit $fail
