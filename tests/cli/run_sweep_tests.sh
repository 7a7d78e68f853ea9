#!/usr/bin/env bash
# Sweep tests: a sweep interrupted and resumed gives the same runs.csv; --list and --quick.
set -u
RINGSIM=${1:?usage: run_sweep_tests.sh path/to/ringsim}
DATA=$(cd "$(dirname "$0")/../data" && pwd)
. "$(dirname "$0")/lib.sh"

"$RINGSIM" run "$DATA/sweep-small.json" --jobs 2 --out "$tmp/full" 2>"$tmp/err" || { echo "FAIL full sweep"; cat "$tmp/err"; fail=1; }
rows=$(($(wc -l <"$tmp/full/runs.csv") - 1))
[ "$rows" -eq 24 ] || { echo "FAIL runs.csv has $rows rows, expected 24"; fail=1; }
# The commit the binaries were built from: 40 hex digits, "-dirty" when built with uncommitted
# changes, "unknown" outside a checkout.
grep -Eq '"git_sha": "([0-9a-f]{40}(-dirty)?|unknown)"' "$tmp/full/summary.json" \
  || { echo "FAIL summary lacks the build's commit"; fail=1; }

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

# Runs are forked from their platform loaded once: each must equal the same run as its own process
# (`ringsim simulate`), byte for byte, also when it extends the loaded platform (a planner's ring
# with its own paths and a staging cluster; rebuilds onto other hosts).
PLATFORMS=$(cd "$(dirname "$0")/../../platforms" && pwd)
cat >"$tmp/extend.json" <<JSON
{"name": "extend", "description": "runs that add to the loaded platform",
 "base": {"platform": "$PLATFORMS/tiers37.xml", "rows": 200, "columns": 200, "iterations": 12,
          "ring": {"selection": "planner", "method": "greedy", "routing": "free"}, "staging": {"nodes": 2, "gateway": "h50"}},
 "ring_sizes": [4], "ratios": [0.1, 3], "schemes": ["none", "every-3", "adaptive"], "algorithms": ["auto"], "seeds": [1]}
JSON
cat >"$tmp/rebuild.json" <<JSON
{"name": "rebuild", "description": "random rings moved to other hosts",
 "base": {"platform": "$DATA/ring6-homogeneous.xml", "rows": 200, "columns": 120, "iterations": 12,
          "traces": {"windows": [[2, 4], [7, 9]]}, "rebuild": [{"after": 6, "size": 3, "seed": 9}]},
 "ring_sizes": [4], "ratios": [0.5, 5], "schemes": ["none", "every-3"], "algorithms": ["auto"], "seeds": [1, 2]}
JSON
for x in extend rebuild; do
  "$RINGSIM" run "$tmp/$x.json" --jobs 2 --out "$tmp/$x" 2>"$tmp/err" || { echo "FAIL sweep $x"; cat "$tmp/err"; fail=1; continue; }
  n=0
  for d in "$tmp/$x"/runs/*/; do
    "$RINGSIM" simulate "$d/config.json" --no-baseline --out "$tmp/alone.json" --iterations-csv "$tmp/alone.csv" 2>/dev/null \
      || { echo "FAIL simulate $d alone"; fail=1; continue; }
    cmp -s "$d/result.json" "$tmp/alone.json" && cmp -s "$d/iterations.csv" "$tmp/alone.csv" \
      || { echo "FAIL $x run $(basename "$d"): forked from the loaded platform differs from its own process"; fail=1; }
    n=$((n + 1))
  done
  [ $n -ge 6 ] || { echo "FAIL $x: only $n runs compared"; fail=1; }
done

# A rebuild onto a host the platform lacks: refused before any run (one line, nothing written).
cat >"$tmp/nohost.json" <<JSON
{"name": "nohost", "base": {"platform": "$DATA/ring6-homogeneous.xml", "rows": 100, "columns": 60, "iterations": 10,
          "rebuild": [{"after": 5, "hosts": ["h0", "h1", "nohost"]}]},
 "ring_sizes": [4], "ratios": [1], "schemes": ["none", "every-3"], "algorithms": ["auto"], "seeds": [1, 2]}
JSON
"$RINGSIM" run "$tmp/nohost.json" --jobs 2 --out "$tmp/nohost" >/dev/null 2>"$tmp/e5"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e5")" -eq 1 ] && grep -q "rebuild after iteration 5: ring host 'nohost' is not in platform" "$tmp/e5" \
  && [ ! -e "$tmp/nohost" ] || { echo "FAIL unknown rebuild host not refused before the runs: rc=$rc"; cat "$tmp/e5"; fail=1; }

# An unknown algorithm or scheme in the sweep: refused as the experiment is read, before any run.
for what in '"algorithms": ["magic"], "schemes": ["none", "every-3"]' '"algorithms": ["auto"], "schemes": ["none", "sometimes"]'; do
  cat >"$tmp/noalgo.json" <<JSON
{"name": "noalgo", "base": {"platform": "$DATA/ring6-homogeneous.xml", "rows": 100, "columns": 60, "iterations": 10},
 "ring_sizes": [4], "ratios": [1], $what, "seeds": [1]}
JSON
  "$RINGSIM" run "$tmp/noalgo.json" --out "$tmp/noalgo" >/dev/null 2>"$tmp/e6"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e6")" -eq 1 ] && grep -q "noalgo.json' run p4_r1_.*: unknown .* (known: " "$tmp/e6" \
    && [ ! -e "$tmp/noalgo" ] || { echo "FAIL sweep with $what not refused as read: rc=$rc"; cat "$tmp/e6"; fail=1; }
done

# Runs that refuse their input (a rebuild drawn larger than the platform, found when the run draws
# it): each log holds the one line `ringsim simulate` prints, every run is reported, and the sweep
# ends with exit 2.
cat >"$tmp/refused.json" <<JSON
{"name": "refused", "description": "a rebuild draws more hosts than the platform has",
 "base": {"platform": "$DATA/ring6-homogeneous.xml", "rows": 100, "columns": 60, "iterations": 10,
          "rebuild": [{"after": 5, "size": 7}]},
 "ring_sizes": [4], "ratios": [1], "schemes": ["none", "every-3"], "algorithms": ["auto"], "seeds": [1, 2]}
JSON
"$RINGSIM" run "$tmp/refused.json" --jobs 2 --out "$tmp/refused" >/dev/null 2>"$tmp/e6"; rc=$?
[ $rc -eq 2 ] && [ "$(tail -n 1 "$tmp/e6")" = "ringsim: error: 4 run(s) failed (see their log.txt)" ] \
  && [ "$(grep -c "failed, see" "$tmp/e6")" -eq 4 ] || { echo "FAIL refused runs: rc=$rc"; cat "$tmp/e6"; fail=1; }
for d in "$tmp"/refused/runs/*/; do
  "$RINGSIM" simulate "$d/config.json" --no-baseline --out "$tmp/alone.json" 2>"$tmp/alone.err"; rc=$?
  [ $rc -eq 2 ] && [ ! -e "$d/result.json" ] && cmp -s "$d/log.txt" "$tmp/alone.err" && [ "$(wc -l <"$d/log.txt")" -eq 1 ] \
    || { echo "FAIL refused run $(basename "$d"): log differs from simulate's own error (rc=$rc)"; cat "$d/log.txt"; fail=1; }
done

[ $fail -eq 0 ] && echo "all sweep tests passed"
exit $fail
