#!/usr/bin/env bash
# Planners on hostile values: `redistribute`, `balance` and `kpbs` answer within their format or
# refuse in one line, within seconds whatever the values (loads up to 2^62, costs from 1e-300 to
# 1e308), never with a signal, a hang or an "internal error". Seeded fuzzers parse every answer
# back with Python's json (no inf or NaN) and check it: a time never below its lower bound,
# "optimal" only where the time meets it, blocks within [0, time], balances that sum to the total
# and that no column moved would improve.
set -u
RINGSIM=${1:?usage: run_hostile_planner_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"
if sanitizer_sizes; then CASES=60; else CASES=240; fi
# Each answer or refusal comes within this many seconds (generous: sanitizers slow the planners).
export LIMIT=20

instance() {  # FILE JSON
  printf '%s\n' "$2" >"$1"
}

# --- Loads of 1e12 on four processors, every algorithm, every ring shape.
homogeneous='"cost_next": [1, 1, 1, 1], "cost_prev": [1, 1, 1, 1]'
heterogeneous='"cost_next": [1, 2, 3, 1], "cost_prev": [2, 1, 1, 3]'
loads='"loads": [1000000000000, 1, 1, 1], "targets": [250000000000, 250000000001, 250000000001, 250000000001]'
instance "$tmp/bi-hom.json" "{\"bidirectional\": true, $loads, $homogeneous}"
instance "$tmp/bi-het.json" "{\"bidirectional\": true, $loads, $heterogeneous}"
instance "$tmp/uni-het.json" "{\"bidirectional\": false, $loads, \"cost_next\": [1, 2, 3, 1]}"
instance "$tmp/bi-hom-1e8.json" '{"bidirectional": true, "loads": [100000000, 1, 1, 1], "targets": [25000000, 25000001, 25000001, 25000001], "cost_next": [1, 1, 1, 1], "cost_prev": [1, 1, 1, 1]}'
instance "$tmp/costs-1e308.json" '{"bidirectional": true, "loads": [10, 1, 1, 1], "targets": [1, 4, 4, 4], "cost_next": [1e308, 1e308, 1e308, 1e308], "cost_prev": [1.7e308, 1e308, 1e308, 1e308]}'
instance "$tmp/costs-1e200.json" '{"bidirectional": true, "loads": [10, 1, 1, 1], "targets": [1, 4, 4, 4], "cost_next": [1e200, 3e200, 1e200, 2e200], "cost_prev": [2e200, 1e200, 1e200, 3e200]}'
instance "$tmp/costs-spread.json" '{"bidirectional": true, "loads": [2132242816910183623, 2478898581857060978, 544619660143266], "targets": [145283781195980035, 3936075068437471263, 530327168793936569], "cost_next": [1e150, 6e80, 1.8e123], "cost_prev": [1e-300, 1e200, 1e-300]}'
algorithms="auto uni-homogeneous uni-heterogeneous bi-homogeneous bi-homogeneous-early-late bi-light bi-light-glpk bi-heuristic exact"

# check_plan NAME FILE ARGS...: redistribute answers a plan that checks_plan.py accepts, or refuses
# in one line (exit 2, naming the file), within LIMIT seconds.
check_plan() {
  local name=$1 file=$2
  shift 2
  timeout "$LIMIT" "$RINGSIM" redistribute "$file" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  case $rc in
    0) /usr/bin/python3 "$tmp/check_plan.py" "$tmp/out" || { echo "FAIL $name: $(head -c 300 "$tmp/out")"; fail=1; } ;;
    2) refused_line "$name" 2 "$tmp/out" "$tmp/err" "'$file'" ;;
    124) echo "FAIL $name: no answer within $LIMIT s"; fail=1 ;;
    *) echo "FAIL $name: exit $rc: $(head -c 300 "$tmp/err")"; fail=1 ;;
  esac
}
cat >"$tmp/check_plan.py" <<'PY'
import json, math, sys
def not_json(c): raise ValueError(f"{c} is not JSON")
plan = json.load(open(sys.argv[1]), parse_constant=not_json)
t, lb = plan["time"], plan["lower_bound"]
problems = []
if not (math.isfinite(t) and math.isfinite(lb)): problems.append(f"time {t}, bound {lb}")
elif t < lb: problems.append(f"time {t!r} below its lower bound {lb!r}")
elif plan["optimal"] and t > lb * (1 + 1e-9): problems.append(f"optimal, yet time {t!r} above its bound {lb!r}")
for b in plan.get("transfers", []):
    if not (0 <= b["start"] <= b["end"] <= t and b["items"] >= 1):
        problems.append(f"block {b} outside [0, {t}]"); break
for p in problems: print(p)
sys.exit(1 if problems else 0)
PY

for f in bi-hom bi-het uni-het bi-hom-1e8 costs-1e308 costs-1e200 costs-spread; do
  for a in $algorithms; do
    check_plan "$f $a" "$tmp/$f.json" --algorithm "$a"
  done
  check_plan "$f summary" "$tmp/$f.json" --summary
done
# Refusals, not answers: work that grows with the values, and times beyond a double.
expect_refused "bi-homogeneous at 1e8 items" "bi-homogeneous-early-late" timeout "$LIMIT" "$RINGSIM" redistribute "$tmp/bi-hom-1e8.json" --algorithm bi-homogeneous
expect_refused "bi-heuristic at 1e12 items" "one at a time" timeout "$LIMIT" "$RINGSIM" redistribute "$tmp/bi-het.json" --algorithm bi-heuristic
expect_refused "costs of 1e308" "beyond what a plan's times can hold" timeout "$LIMIT" "$RINGSIM" redistribute "$tmp/costs-1e308.json" --algorithm bi-heuristic
expect_refused "bi-light-glpk beyond GLPK" "bi-light solves System 2 exactly" timeout "$LIMIT" "$RINGSIM" redistribute "$tmp/costs-spread.json" --algorithm bi-light-glpk
# Answers: bi-light at 1e12 items is one block per link; 1e200 costs stay within the doubles.
timeout "$LIMIT" "$RINGSIM" redistribute "$tmp/bi-hom.json" --algorithm bi-light >"$tmp/out" 2>"$tmp/err" ||
  { echo "FAIL bi-light at 1e12 items: $(cat "$tmp/err")"; fail=1; }
# answered(args, what, limit): the command's stdout when it answered (exit 0); None, after printing
# a FAIL line unless it was a one-line refusal (exit 2), otherwise. Shared by the fuzzers below.
cat >"$tmp/answered.py" <<'PY'
import subprocess
def answered(args, what, limit):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        print(f"FAIL {what}: no answer within {limit} s"); return None, 1
    if p.returncode == 2:
        if p.stdout or len(p.stderr.splitlines()) != 1 or not p.stderr.startswith("ringsim: error: "):
            print(f"FAIL {what}: not a one-line refusal: {p.stderr[:300]!r}"); return None, 1
        return None, 0
    if p.returncode != 0:
        print(f"FAIL {what}: exit {p.returncode}: {p.stderr[:300]!r}"); return None, 1
    return p.stdout, 0
PY
timeout "$LIMIT" "$RINGSIM" redistribute "$tmp/costs-1e200.json" --algorithm bi-heuristic >"$tmp/out" 2>"$tmp/err" ||
  { echo "FAIL bi-heuristic at 1e200 costs: $(cat "$tmp/err")"; fail=1; }

# --- Seeded random instances with extreme values, every algorithm.
/usr/bin/python3 - "$RINGSIM" "$CASES" "$tmp" <<'PY' || fail=1
import json, math, os, random, subprocess, sys
ringsim, cases, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
limit = int(os.environ["LIMIT"])
sys.path.insert(0, tmp)
from answered import answered
algorithms = ["auto", "uni-homogeneous", "uni-heterogeneous", "bi-homogeneous", "bi-homogeneous-early-late",
              "bi-light", "bi-light-glpk", "bi-heuristic", "exact"]
rng = random.Random(65)
def cost():
    k = rng.random()
    if k < 0.3: return rng.choice([1e308, 1.7e308, 1e300, 1e200, 1e150, 1e-300, 2.3e-308])
    if k < 0.6: return 10.0 ** rng.uniform(-300, 308)
    return float(rng.randint(1, 5))
def split(n, total):  # n counts >= 1 summing to total
    cuts = sorted(rng.sample(range(1, total), n - 1)) if total > 4 * n else []
    if len(cuts) != n - 1: return [total - n + 1] + [1] * (n - 1)
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]
failures = 0
path = os.path.join(tmp, "fuzz.json")
for case in range(cases):
    n = rng.randint(2, 6)
    total = rng.choice([n, 10 * n, 10**6, 10**9, 10**12, 2**40, 2**62, 2**62 - rng.randint(0, 100), rng.randint(n, 2**62)])
    bi = rng.random() < 0.75
    inst = {"bidirectional": bi, "loads": split(n, total), "targets": split(n, total)}
    if rng.random() < 0.4:
        c = cost(); inst["cost_next"] = [c] * n; prev = [c] * n
    else:
        inst["cost_next"] = [cost() for _ in range(n)]; prev = [cost() for _ in range(n)]
    if bi: inst["cost_prev"] = prev
    json.dump(inst, open(path, "w"))
    args = [ringsim, "redistribute", path, "--algorithm", rng.choice(algorithms)] + (["--summary"] if rng.random() < 0.2 else [])
    what = f"fuzz case {case} ({' '.join(args[3:])}) {json.dumps(inst)}"
    stdout, failed = answered(args, what, limit)
    failures += failed
    if stdout is None: continue
    check = subprocess.run(["/usr/bin/python3", os.path.join(tmp, "check_plan.py"), "/dev/stdin"], input=stdout,
                           capture_output=True, text=True)
    if check.returncode != 0:
        print(f"FAIL {what}: {check.stdout.strip()[:300]}"); failures += 1
sys.exit(1 if failures else 0)
PY

# --- balance: totals up to 2^62 and speeds 1e-300 to 1e308 answer within seconds; beyond, refused.
expect_refused "balance past 2^62" "(2^62)" timeout "$LIMIT" "$RINGSIM" balance --speeds 1,3 --total 9223372036854775807
/usr/bin/python3 - "$RINGSIM" "$CASES" <<'PY' || fail=1
import json, os, random, subprocess, sys
from fractions import Fraction
ringsim, cases = sys.argv[1], int(sys.argv[2])
limit = int(os.environ["LIMIT"])
rng = random.Random(650)
fixed = [([1.0, 3.0], 2**62), ([1e300, 1.0], 10**9), ([1e-300, 1e300, 1.0], 2**62), ([1e308, 1e308], 100)]
failures = 0
for case in range(cases + len(fixed)):
    if case < len(fixed):
        speeds, total = fixed[case]
    else:
        n = rng.randint(2, 7)
        speeds = [rng.choice([10.0 ** rng.uniform(-300, 308), float(rng.randint(1, 9)), 1e308, 1e-300]) for _ in range(n)]
        total = rng.choice([n, 1000, 10**9, 10**15, 2**62, rng.randint(n, 2**62)])
    args = [ringsim, "balance", "--speeds", ",".join(repr(s) for s in speeds), "--total", str(total)]
    what = f"balance case {case}: {' '.join(args[1:])}"
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        print(f"FAIL {what}: no answer within {limit} s"); failures += 1; continue
    if p.returncode != 0:
        print(f"FAIL {what}: exit {p.returncode}: {p.stderr[:200]!r}"); failures += 1; continue
    loads = json.loads(p.stdout)["targets"]
    if len(loads) != len(speeds) or sum(loads) != total or min(loads) < 1:
        print(f"FAIL {what}: targets {loads} do not give each at least one of {total}"); failures += 1; continue
    # A balance: no column moved from one member to another shortens the iteration (exactly, in
    # rationals; within the doubles' rounding of a time).
    s = [Fraction(x) for x in speeds]
    given = max((Fraction(l) / v for l, v in zip(loads, s) if l > 1), default=Fraction(0))
    taken = min(Fraction(l + 1) / v for l, v in zip(loads, s))
    if given > taken * (1 + Fraction(1, 10**12)):
        print(f"FAIL {what}: targets {loads} are not a balance ({float(given)} > {float(taken)})"); failures += 1
sys.exit(1 if failures else 0)
PY

# --- kpbs at extreme amounts and beta: a schedule within its format, or a one-line refusal.
/usr/bin/python3 - "$RINGSIM" "$CASES" "$tmp" <<'PY' || fail=1
import json, math, os, random, subprocess, sys
ringsim, cases, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
limit = int(os.environ["LIMIT"])
sys.path.insert(0, tmp)
from answered import answered
rng = random.Random(6500)
def amount():
    return rng.choice([0.0, 1.0, 1e308, 1.7e308, 1e300, 1e-300, 5e-324, 10.0 ** rng.uniform(-300, 308), float(rng.randint(0, 9))])
def not_json(c): raise ValueError(f"{c} is not JSON")
failures = 0
path = os.path.join(tmp, "kpbs.json")
for case in range(cases):
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    doc = {"k": rng.randint(1, 4), "beta": rng.choice([0.0, 1.0, 1e-300, 1e300, 1e308, 10.0 ** rng.uniform(-300, 308)]),
           "matrix": [[amount() for _ in range(cols)] for _ in range(rows)],
           "algorithm": rng.choice(["ggp", "oggp", "greedy", "all-at-once"])}
    json.dump(doc, open(path, "w"))
    what = f"kpbs case {case} {json.dumps(doc)}"
    stdout, failed = answered([ringsim, "kpbs", path], what, limit)
    failures += failed
    if stdout is None: continue
    try:
        out = json.loads(stdout, parse_constant=not_json)
    except ValueError as e:
        print(f"FAIL {what}: {e}"); failures += 1; continue
    t, lb = out["time"], out["lower_bound"]
    durations = [s["duration"] for s in out["steps"]]
    if not all(math.isfinite(x) and x >= 0 for x in [t, lb] + durations):
        print(f"FAIL {what}: time {t}, bound {lb}, durations {durations}"); failures += 1
    elif out["kpbs_feasible"] and t < lb:  # all-at-once is no KPBS schedule: the bound is not its
        print(f"FAIL {what}: time {t!r} below its lower bound {lb!r}"); failures += 1
sys.exit(1 if failures else 0)
PY

exit $fail
