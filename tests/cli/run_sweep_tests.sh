#!/usr/bin/env bash
# Sweep tests: a sweep interrupted and resumed gives the same runs.csv; --list and --quick.
set -u
RINGSIM=${1:?usage: run_sweep_tests.sh path/to/ringsim}
DATA=$(cd "$(dirname "$0")/../data" && pwd)
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$RINGSIM" run "$DATA/sweep-small.json" --jobs 2 --out "$tmp/full" 2>"$tmp/err" || { echo "FAIL full sweep"; cat "$tmp/err"; fail=1; }
rows=$(($(wc -l <"$tmp/full/runs.csv") - 1))
[ "$rows" -eq 24 ] || { echo "FAIL runs.csv has $rows rows, expected 24"; fail=1; }
grep -q '"git_sha"' "$tmp/full/summary.json" || { echo "FAIL summary lacks provenance"; fail=1; }

# Interrupt a second sweep: kill it after a few runs, then resume.
"$RINGSIM" run "$DATA/sweep-small.json" --jobs 2 --out "$tmp/resumed" 2>/dev/null &
pid=$!
for _ in $(seq 1 200); do
  n=$(ls "$tmp"/resumed/runs/*/result.json 2>/dev/null | wc -l)
  [ "$n" -ge 5 ] && break
  sleep 0.05
done
kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null
partial=$(ls "$tmp"/resumed/runs/*/result.json 2>/dev/null | wc -l)
ls "$tmp"/resumed/runs/*/*.tmp.* >/dev/null 2>&1 && { echo "FAIL half-written files left behind"; fail=1; }
"$RINGSIM" run "$DATA/sweep-small.json" --jobs 2 --out "$tmp/resumed" 2>"$tmp/err2" || { echo "FAIL resume"; cat "$tmp/err2"; fail=1; }
grep -q "kept" "$tmp/err2" || { echo "FAIL resume did not report kept runs"; fail=1; }
cmp -s "$tmp/full/runs.csv" "$tmp/resumed/runs.csv" || { echo "FAIL resumed runs.csv differs (resumed after $partial runs)"; diff "$tmp/full/runs.csv" "$tmp/resumed/runs.csv" | head; fail=1; }
cmp -s "$tmp/full/iterations.csv" "$tmp/resumed/iterations.csv" || { echo "FAIL resumed iterations.csv differs"; fail=1; }

# --list: one command per run plus the merge hint; --quick shrinks the sweep.
lines=$("$RINGSIM" run "$DATA/sweep-small.json" --list --out "$tmp/list" | grep -c ' simulate ')
[ "$lines" -eq 24 ] || { echo "FAIL --list printed $lines commands"; fail=1; }
qlines=$("$RINGSIM" run "$DATA/sweep-small.json" --quick --list --out "$tmp/q" | grep -c ' simulate ')
[ "$qlines" -eq 6 ] || { echo "FAIL --quick --list printed $qlines commands"; fail=1; }

# Bad experiment configs: exit 2, one line, before any run.
printf '%s' '{"base": {"platform": "ring6-homogeneous.xml"}, "ring_sizes": [7], "ratios": [1], "schemes": ["none"], "seeds": [1]}' >"$tmp/bad1.json"
cp "$DATA/ring6-homogeneous.xml" "$tmp/"
"$RINGSIM" run "$tmp/bad1.json" --out "$tmp/bad" >/dev/null 2>"$tmp/e1"; rc=$?
[ $rc -eq 2 ] && grep -q "does not fit" "$tmp/e1" && [ "$(wc -l <"$tmp/e1")" -eq 1 ] || { echo "FAIL ring larger than platform: rc=$rc"; cat "$tmp/e1"; fail=1; }
printf '%s' '{"base": {"platform": "ring6-homogeneous.xml", "ratio": 1}, "ring_sizes": [2], "ratios": [0], "schemes": ["none"], "seeds": [1]}' >"$tmp/bad2.json"
"$RINGSIM" run "$tmp/bad2.json" --out "$tmp/bad" >/dev/null 2>"$tmp/e2"; rc=$?
[ $rc -eq 2 ] && grep -q "'ratio' must be > 0" "$tmp/e2" || { echo "FAIL ratio 0: rc=$rc"; cat "$tmp/e2"; fail=1; }
printf '%s' '{"base": {"platform": "ring6-homogeneous.xml"}, "ring_sizes": [2], "ratios": [1], "schemes": ["none"], "seeds": [1], "typo": 1}' >"$tmp/bad3.json"
"$RINGSIM" run "$tmp/bad3.json" --out "$tmp/bad" >/dev/null 2>"$tmp/e3"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown key 'typo'" "$tmp/e3" || { echo "FAIL unknown key: rc=$rc"; cat "$tmp/e3"; fail=1; }
printf '%s' '{"base": {"platform": "missing.xml"}, "ring_sizes": [2], "ratios": [1], "schemes": ["none"], "seeds": [1]}' >"$tmp/bad4.json"
"$RINGSIM" run "$tmp/bad4.json" --out "$tmp/bad" >/dev/null 2>"$tmp/e4"; rc=$?
[ $rc -eq 2 ] && grep -q "does not exist" "$tmp/e4" || { echo "FAIL missing platform: rc=$rc"; cat "$tmp/e4"; fail=1; }
printf '%s' '{"base": {"platform": "ring6-homogeneous.xml"}, "ring_sizes": [2], "ratios": ["x"], "schemes": ["none"], "seeds": [1]}' >"$tmp/bad5.json"
"$RINGSIM" run "$tmp/bad5.json" --out "$tmp/bad" >/dev/null 2>"$tmp/e5"; rc=$?
[ $rc -eq 2 ] && grep -q "wrong type" "$tmp/e5" || { echo "FAIL wrong type: rc=$rc"; cat "$tmp/e5"; fail=1; }

[ $fail -eq 0 ] && echo "all sweep tests passed"
exit $fail
