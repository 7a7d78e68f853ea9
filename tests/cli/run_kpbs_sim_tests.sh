#!/usr/bin/env bash
# `ringsim kpbs-simulate` tests: bad input (exit 2, one line on stderr, nothing on stdout), and the
# linear-model identity: with zero latency every simulated step lasts beta + its longest amount
# (the transfers of a step share no node link, and at most k of them share a backbone of
# bandwidth >= k * min(b1, b2)), for every planner, and the all-at-once simulation matches the
# planner's fluid estimate.
set -u
RINGSIM=${1:?usage: run_kpbs_sim_tests.sh path/to/ringsim}
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"

expect_bad() {  # name, stdin text, expected fragment of the message [, extra arguments]
  local name=$1 fragment=$3
  printf '%s' "$2" >"$tmp/in"
  shift 3
  expect_refused "$name" "$fragment" "$RINGSIM" kpbs-simulate - "$@" <"$tmp/in"
}

C='"clusters": {"b1": 1e7, "b2": 1e7, "bb": 2e7}'
expect_bad malformed '{"beta": 1, "bytes": [[1e7]' 'malformed JSON'
expect_bad no_clusters '{"k": 2, "beta": 1, "matrix": [[1]]}' "needs 'clusters'"
expect_bad latency_negative '{"beta": 1, "bytes": [[1e7]], '"$C"', "latency": -1}' "'latency' must be finite and >= 0"
expect_bad latency_string '{"beta": 1, "bytes": [[1e7]], '"$C"', "latency": "1ms"}' "'latency' must be a number"
expect_bad negative_entry '{"beta": 1, "bytes": [[1e7, -1]], '"$C"'}' 'bytes[0][1] is negative'
expect_bad unknown_key '{"beta": 1, "bytes": [[1e7]], '"$C"', "colour": 1}' "unknown key 'colour'"
expect_bad simgrid_key '{"beta": 1, "bytes": [[1e7]], '"$C"'}' "SimGrid refuses --cfg=foo/bar:1" --cfg=foo/bar:1
expect_bad simgrid_model '{"beta": 1, "bytes": [[1e7]], '"$C"'}' "Model 'Nope' is invalid" --cfg=network/model:Nope
expect_bad unknown_algo '{"beta": 1, "bytes": [[1e7]], '"$C"'}' "unknown algorithm 'nope'" --algorithm nope
expect_bad bad_model '{"beta": 1, "bytes": [[1e7]], '"$C"'}' "network-model must be" --network-model tcp
expect_bad stray_arg '{"beta": 1, "bytes": [[1e7]], '"$C"'}' "unexpected argument 'extra'" extra
"$RINGSIM" kpbs-simulate /nonexistent/file.json >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "cannot read" "$tmp/err" || { echo "FAIL missing file"; fail=1; }

# check FILE TOLERANCE_ON_STEPS: every step's simulated duration equals its planned one, and the
# totals and the all-at-once time agree (relative tolerance).
check_identity() {
  "$PY" - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1])); tol = float(sys.argv[2])
bad = []
close = lambda a, b: abs(a - b) <= tol * max(1.0, abs(b))
for s, st in enumerate(d["steps"]):
    if not close(st["simulated"], st["planned"]):
        bad.append(f"step {s}: simulated {st['simulated']!r} planned {st['planned']!r}")
if not close(d["simulated_time"], d["planned_time"]):
    bad.append(f"total: simulated {d['simulated_time']!r} planned {d['planned_time']!r}")
a = d["all_at_once"]
if not close(a["simulated_time"], a["planned_time"]):
    bad.append(f"all-at-once: simulated {a['simulated_time']!r} planned {a['planned_time']!r}")
if d["simulated_time"] + 1e-9 < d["lower_bound"]:
    bad.append("simulated time below eta")
print("; ".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PYEOF
}

# Random instances, several shapes of clusters (k limited by the backbone, by v1, and bb < min(b1, b2)).
"$PY" - "$tmp" <<'PYEOF'
import json, random, sys
rng = random.Random(7)
cases = [
    ("bb_limits_k", {"b1": 1e7, "b2": 2e7, "bb": 3e7}, 5, 4, 0.5),
    ("fast_backbone", {"b1": 2e7, "b2": 1e7, "bb": 1e9}, 4, 6, 0.25),
    ("slow_backbone", {"b1": 1e7, "b2": 1e7, "bb": 5e6}, 3, 3, 1.0),
    ("beta_zero", {"b1": 1e7, "b2": 1e7, "bb": 2.5e7}, 4, 4, 0.0),
]
for name, cl, n1, n2, beta in cases:
    unit = min(cl.values())
    m = [[(rng.randint(1, 9) * 0.5 * unit if rng.random() < 0.7 else 0) for _ in range(n2)] for _ in range(n1)]
    json.dump({"beta": beta, "bytes": m, "clusters": cl, "latency": 0}, open(f"{sys.argv[1]}/{name}.json", "w"))
PYEOF
for name in bb_limits_k fast_backbone slow_backbone beta_zero; do
  for algo in ggp oggp greedy; do
    if ! "$RINGSIM" kpbs-simulate "$tmp/$name.json" --algorithm "$algo" >"$tmp/res.json" 2>"$tmp/err"; then
      echo "FAIL $name/$algo: exit $?"; cat "$tmp/err"; fail=1; continue
    fi
    msg=$(check_identity "$tmp/res.json" 1e-6) || { echo "FAIL $name/$algo: $msg"; fail=1; }
  done
done

# The KPBS paper's Figure 2 matrix (MB) at 10 MB/s, k = 4, beta = 3: the same plan as `ringsim kpbs`, simulated exactly.
fig2_plan='{"beta": 3, "bytes": [[30e6,20e6,0,0],[20e6,0,20e6,0],[0,0,40e6,20e6],[0,15e6,10e6,10e6]],
       "clusters": {"b1": 1e7, "b2": 1e7, "bb": 4e7}'
fig2="$fig2_plan"', "latency": 0}'
printf '%s' "$fig2" | "$RINGSIM" kpbs-simulate - >"$tmp/fig2.json" 2>"$tmp/err" || { echo "FAIL fig2: exit"; cat "$tmp/err"; fail=1; }
printf '%s}' "$fig2_plan" | "$RINGSIM" kpbs - >"$tmp/fig2_plan.json" 2>"$tmp/err" || { echo "FAIL fig2: ringsim kpbs"; cat "$tmp/err"; fail=1; }
"$PY" - "$tmp/fig2.json" "$tmp/fig2_plan.json" <<'PYEOF' || { echo "FAIL fig2: planned time differs from ringsim kpbs"; fail=1; }
import json, sys
s, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(0 if abs(s["planned_time"] - p["time"]) < 1e-9 and s["k"] == 4 and len(s["steps"]) == len(p["steps"]) else 1)
PYEOF
msg=$(check_identity "$tmp/fig2.json" 1e-6) || { echo "FAIL fig2 identity: $msg"; fail=1; }

# With a backbone latency, each step lasts at least its planned duration, and at most latency more.
printf '%s' "${fig2/\"latency\": 0/\"latency\": 0.01}" | "$RINGSIM" kpbs-simulate - >"$tmp/lat.json" 2>"$tmp/err" || { echo "FAIL latency run"; fail=1; }
"$PY" - "$tmp/lat.json" <<'PYEOF' || { echo "FAIL latency: steps not in [planned, planned + latency]"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["latency"] == 0.01 and all(st["planned"] - 1e-9 <= st["simulated"] <= st["planned"] + 0.01 + 1e-6 for st in d["steps"])
sys.exit(0 if ok else 1)
PYEOF

# Same input, byte-identical output.
"$RINGSIM" kpbs-simulate "$tmp/bb_limits_k.json" >"$tmp/r1.json" 2>/dev/null
"$RINGSIM" kpbs-simulate "$tmp/bb_limits_k.json" >"$tmp/r2.json" 2>/dev/null
cmp -s "$tmp/r1.json" "$tmp/r2.json" || { echo "FAIL: two runs differ"; fail=1; }

[ $fail -eq 0 ] && echo "all kpbs-simulate tests passed"
exit $fail
