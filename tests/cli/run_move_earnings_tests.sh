#!/usr/bin/env bash
# What each move earned, in hindsight (result.json: points[].hindsight_saved and hindsight_net,
# moves_in_hindsight), checked against runs simulated apart: a move after iteration a earns what
# the run with it gains over the run without it, "after:a" against "none"; a second move after b,
# "after:a,b" against "after:a". The model's border exchange is one figure for the ring; the
# simulated one is that of the slowest member's links, which changes with the loads (seed 2: 0.2 s
# an iteration of 16-30 s, 5.2 s over 24 iterations, 1.06% of the run): the two agree within 1.5%
# of the run without the move. Then a run of many moves: the summary adds up its points.
set -u
RINGSIM=${1:?usage: run_move_earnings_tests.sh path/to/ringsim}
PLATFORM=$(cd "$(dirname "$0")/../../platforms" && pwd)/paper2004_tiers90.xml
TABLE=$(cd "$(dirname "$0")/../../experiments/when" && pwd)/when_moves.py
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# run NAME SCHEME SEED RING RATIO: simulate into NAME.json
run() {
  $PY - "$PLATFORM" "$2" "$3" "$4" "$5" >"$1.cfg.json" <<'PYEOF'
import json, sys
platform, scheme, seed, ring, ratio = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
print(json.dumps({"platform": platform, "rows": 1000, "columns": 40 * ring, "iterations": 30, "ratio": ratio,
                  "targets": "measured", "network_model": "linear", "decision_flops": 1e6, "report_bytes": 16,
                  "ring": {"size": ring, "seed": seed, "selection": "random"}, "scheme": scheme, "baseline": False,
                  "traces": {"source": "on-off", "available": 10, "loaded": 8, "load_factor": 0.25, "seed": seed,
                             "placement": "iteration"}}))
PYEOF
  "$RINGSIM" simulate "$1.cfg.json" --out "$1.json" 2>"$1.log" || { echo "FAIL $1: simulate"; tail -3 "$1.log"; fail=1; }
}

# check WITHOUT WITH: the last move of WITH, against the run WITHOUT it
check() {
  $PY - "$1.json" "$2.json" <<'PYEOF' || fail=1
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
moved = [p for p in b["points"] if p["performed"]]
if not moved:
    print(f"ok {sys.argv[2]}: nothing to move"); sys.exit(0)
last = moved[-1]
gained = a["makespan"] - b["makespan"]
net = last["hindsight_net"]
point = last["end"] - last["decision_start"]
ok = abs(gained - net) <= 0.015 * a["makespan"] and abs(last["hindsight_saved"] - point - net) <= 1e-9 * a["makespan"]
print(f"{'ok' if ok else 'FAIL'} {sys.argv[2]}: the move after iteration {last['after_iteration']} earned "
      f"{net:.4g} s net ({last['hindsight_saved']:.4g} s saved), the runs differ by {gained:.4g} s "
      f"(of {a['makespan']:.5g} s)")
sys.exit(0 if ok else 1)
PYEOF
}

for spec in "1 8 1" "2 8 0.3" "3 6 3" "4 8 1" "5 5 10"; do
  set -- $spec
  seed=$1 ring=$2 ratio=$3
  run none-$seed none "$seed" "$ring" "$ratio"
  run a-$seed after:6 "$seed" "$ring" "$ratio"
  run ab-$seed after:6,17 "$seed" "$ring" "$ratio"
  check none-$seed a-$seed
  check a-$seed ab-$seed
done

# Many moves: every performed point has its figures, the summary adds them up; a point that did not
# move has none.
run many every-3 7 8 1
$PY - many.json <<'PYEOF' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
m = r["moves_in_hindsight"]
moved = [p for p in r["points"] if p["performed"]]
still = [p for p in r["points"] if not p["performed"]]
nets = [p["hindsight_net"] for p in moved]
ok = len(moved) == r["redistributions"] >= 3 and m["paid"] + m["lost"] == len(moved) \
     and m["paid"] == sum(x > 0 for x in nets) and abs(m["net"] - sum(nets)) <= 1e-9 * r["makespan"] \
     and abs(m["saved"] - sum(p["hindsight_saved"] for p in moved)) <= 1e-9 * r["makespan"] \
     and all(p["hindsight_saved"] is None and p["hindsight_net"] is None for p in still)
print(f"{'ok' if ok else 'FAIL'} every-3: {m['paid']} moves paid, {m['lost']} lost, net {m['net']:.4g} s")
sys.exit(0 if ok else 1)
PYEOF

# The table of a sweep's folder (experiments/when/when_moves.py): its counts are the runs' own.
$PY - "$PLATFORM" >sweep.json <<'PYEOF'
import json, sys
print(json.dumps({"name": "moves", "base": {"platform": sys.argv[1], "rows": 1000, "columns": 160, "iterations": 20,
                  "targets": "measured", "network_model": "linear", "decision_flops": 1e6, "report_bytes": 16,
                  "traces": {"source": "on-off", "available": 10, "loaded": 8, "load_factor": 0.25}},
                  "ring_sizes": [4], "ratios": [1, 3], "schemes": ["every-5", "adaptive-lasting"],
                  "algorithms": ["auto"], "seeds": [1, 2], "repetitions": 1}))
PYEOF
"$RINGSIM" run sweep.json --jobs 2 --out sweep >sweep.log 2>&1 || { echo "FAIL sweep"; tail -3 sweep.log; fail=1; }
$PY "$TABLE" sweep every-5 >table.md 2>table.err || { echo "FAIL when_moves.py: $(cat table.err)"; fail=1; }
$PY - sweep table.md <<'PYEOF' || fail=1
import csv, glob, json, sys
paid = lost = 0
for f in glob.glob(sys.argv[1] + "/runs/*/result.json"):
    r = json.load(open(f))
    if r["scheme"] == "every-5":
        paid += r["moves_in_hindsight"]["paid"]
        lost += r["moves_in_hindsight"]["lost"]
rows = [l.split("|")[1:-1] for l in open(sys.argv[2]) if l.startswith("| every-5")]
got = (sum(int(r[4]) for r in rows), sum(int(r[5]) for r in rows))
ok = len(rows) == 2 and got == (paid, lost) and paid + lost > 0
print(f"{'ok' if ok else 'FAIL'} when_moves.py: {got[0]} paid, {got[1]} lost in {len(rows)} rows (runs: {paid}, {lost})")
sys.exit(0 if ok else 1)
PYEOF
$PY "$TABLE" . >/dev/null 2>err.txt; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ]; then echo "ok when_moves.py on a folder without runs: exit 2, $(cat err.txt)"
else echo "FAIL when_moves.py on a folder without runs: exit $rc"; cat err.txt; fail=1; fi
exit $fail
