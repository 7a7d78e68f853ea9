#!/usr/bin/env bash
# Staging and rebuilds: the matrix staged from a storage cluster through a backbone,
# and columns handed from an old ring to a rebuilt one, both with KPBS schedules.
set -u
RINGSIM=${1:?usage: run_staging_tests.sh path/to/ringsim}
DATA=$(cd "$(dirname "$0")/../data" && pwd)
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cp "$DATA/ring6-homogeneous.xml" "$tmp/"

# A zero-latency platform under the linear model: with k derived from the routes, every step of
# every KPBS schedule takes exactly beta + its longest communication in SimGrid, so the simulated
# staging and rebuild times equal the planned ones (and every column arrives once: the simulator
# aborts otherwise).
config() {  # algorithm, overlap, extra staging keys
  cat <<JSON
{"platform": "ring6-homogeneous.xml",
 "ring": {"selection": "hosts", "hosts": ["h0", "h1", "h2", "h3"]},
 "rows": 1000, "columns": 600, "iterations": 20, "ratio": 2.0, "scheme": "every-5",
 "traces": {"seed": 3, "windows": [[4, 8], [14, 18]]},
 "staging": {"nodes": 3, "node_bandwidth": 4e6, "backbone_bandwidth": 9e6, "gateway": "r0",
             "algorithm": "$1", "beta": 0.05, "overlap": $2 $3},
 "rebuild": [{"after": 8, "hosts": ["h5", "h2", "h4", "h0", "h1"], "algorithm": "$1", "beta": 0.01, "overlap": $2},
             {"after": 14, "size": 3, "seed": 9, "algorithm": "$1"}]}
JSON
}
for alg in ggp oggp greedy; do
  config $alg false "" >"$tmp/c.json"
  "$RINGSIM" simulate "$tmp/c.json" --iterations-csv "$tmp/it.csv" >"$tmp/o.json" 2>"$tmp/err" \
    || { echo "FAIL staging run ($alg)"; cat "$tmp/err"; fail=1; continue; }
  $PY - "$tmp/o.json" "$tmp/it.csv" "$alg" <<'PY' || fail=1
import csv, json, sys
r = json.load(open(sys.argv[1])); alg = sys.argv[3]
moves = [r["staging"]] + r["rebuilds"]
assert len(r["rebuilds"]) == 2, r["rebuilds"]
for m in moves:
    assert m["algorithm"] == alg and m["kpbs_feasible"], m
    assert m["columns_over_network"] + m["columns_local"] == 600, m
    assert abs(m["simulated"] - m["planned"]) <= 1e-9 * m["planned"], (m["planned"], m["simulated"])
    assert len(m["planned_steps"]) == len(m["simulated_steps"])
    for p, s in zip(m["planned_steps"], m["simulated_steps"]):
        assert abs(p - s) <= 1e-9 * p, (p, s)
    assert m["planned"] >= m["lower_bound"] * (1 - 1e-12), m
st = r["staging"]
assert st["k"] == 2, st["k"]          # the gateway's two router links (10 MB/s) carry at most 2 transfers of 4 MB/s
assert st["senders"] == ["storage-0", "storage-1", "storage-2"] and st["receivers"] == ["h0", "h1", "h2", "h3"]
assert r["rebuilds"][0]["columns_local"] > 0  # h0, h1, h2 stay: the new intervals keep what they can
its = list(csv.DictReader(open(sys.argv[2])))
# Members start after the whole move (overlap false): iteration 1 starts when the staging ends,
# iteration 9 after the first rebuild, and the rings have 4, 5, 3 members.
assert abs(float(its[0]["start"]) - st["end"]) < 1e-9, (its[0]["start"], st["end"])
assert float(its[8]["start"]) >= r["rebuilds"][0]["end"] - 1e-9
assert [len(its[k]["loads"].split(";")) for k in (0, 8, 14)] == [4, 5, 3]
assert all(sum(map(int, it["loads"].split(";"))) == 600 for it in its)
print(f"{alg}: staging planned {st['planned']:.6f} s == simulated; rebuilds {[round(m['planned'], 6) for m in r['rebuilds']]} == simulated")
PY
done

# k above the interference-free value overloads the gateway's links: the schedule is still valid
# KPBS-wise but SimGrid's sharing makes it slower than planned.
config ggp false ', "k": 3' >"$tmp/c.json"
"$RINGSIM" simulate "$tmp/c.json" --no-baseline >"$tmp/o.json" 2>"$tmp/err" || { echo "FAIL k=3 run"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/o.json" <<'PY' || fail=1
import json, sys
st = json.load(open(sys.argv[1]))["staging"]
assert st["k"] == 3 and st["simulated"] > st["planned"] * 1.01, (st["k"], st["planned"], st["simulated"])
print(f"k=3 (above the derived 2): planned {st['planned']:.4f} s, simulated {st['simulated']:.4f} s")
PY

# Overlap: members start once they hold their own columns (some start before the move ends), and
# the everything-at-once baseline is played too (planned = its fluid estimate, not a KPBS schedule).
config all-at-once true "" >"$tmp/c.json"
"$RINGSIM" simulate "$tmp/c.json" --no-baseline --iterations-csv "$tmp/it.csv" >"$tmp/o.json" 2>"$tmp/err" \
  || { echo "FAIL overlap run"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/o.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
assert not r["staging"]["kpbs_feasible"] and len(r["staging"]["planned_steps"]) == 1
print(f"all-at-once staging: fluid estimate {r['staging']['planned']:.4f} s, simulated {r['staging']['simulated']:.4f} s")
PY

# The paper's platform (Full routing, WAN latencies), a planner-chosen ring on tiers37 (its zone gets
# the gateway's routes), and byte-identical reruns.
cat >"$tmp/p.json" <<'JSON'
{"ratio": 1.0, "ring": {"size": 8, "seed": 3}, "scheme": "every-20", "iterations": 60,
 "staging": {"nodes": 4}, "rebuild": [{"after": 30, "size": 12}]}
JSON
"$RINGSIM" simulate "$tmp/p.json" >"$tmp/p1.json" 2>"$tmp/err" || { echo "FAIL paper platform staging"; cat "$tmp/err"; fail=1; }
"$RINGSIM" simulate "$tmp/p.json" >"$tmp/p2.json" 2>"$tmp/err" || { echo "FAIL paper platform staging (rerun)"; fail=1; }
cmp -s "$tmp/p1.json" "$tmp/p2.json" || { echo "FAIL staging reruns differ"; fail=1; }
$PY - "$tmp/p1.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
st, rb = r["staging"], r["rebuilds"][0]
assert st["simulated"] >= st["planned"] and rb["simulated"] >= rb["planned"]  # latencies add up
assert r["normalized_time"] > 0 and len(rb["receivers"]) == 12
print(f"paper platform: staging planned {st['planned']:.3f} s simulated {st['simulated']:.3f} s; "
      f"rebuild 8->12 planned {rb['planned']:.3f} s simulated {rb['simulated']:.3f} s")
PY
cat >"$tmp/q.json" <<JSON
{"platform": "platforms/tiers37.xml", "ratio": 1.0, "iterations": 10,
 "ring": {"selection": "planner", "method": "greedy"}, "staging": {"nodes": 2, "gateway": "h50"}}
JSON
"$RINGSIM" simulate "$tmp/q.json" >"$tmp/q.out" 2>"$tmp/err" || { echo "FAIL planner ring staging"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/q.out" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1])); st = r["staging"]
assert st["receivers"] == r["ring"] and st["columns_over_network"] + st["columns_local"] == 1000, st
print(f"planner ring on tiers37 ({len(r['ring'])} members): staging planned {st['planned']:.3f} s simulated {st['simulated']:.3f} s")
PY

# The gap on tiers37 is latency alone (multi-hop WAN routes, up to 0.7 s): without latencies the
# planner's ring and gateway routes keep every transfer at its planned rate.
"$RINGSIM" simulate "$tmp/q.json" --no-baseline --cfg=network/latency-factor:0 >"$tmp/q0.out" 2>"$tmp/err" \
  || { echo "FAIL planner ring staging without latency"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/q0.out" <<'PY' || fail=1
import json, sys
st = json.load(open(sys.argv[1]))["staging"]
assert abs(st["simulated"] - st["planned"]) <= 1e-9 * st["planned"], (st["planned"], st["simulated"])
print(f"tiers37 without latency: staging planned == simulated == {st['planned']:.4f} s")
PY

# A sweep whose base config stages and rebuilds: runs.csv carries the staging and rebuild times.
cat >"$tmp/sweep.json" <<'JSON'
{"name": "staging-sweep",
 "base": {"platform": "ring6-homogeneous.xml", "rows": 200, "columns": 120, "iterations": 12,
          "traces": {"windows": [[2, 4], [6, 8]]}, "staging": {"nodes": 2, "gateway": "r0"},
          "rebuild": [{"after": 5, "size": 3}]},
 "ring_sizes": [4], "ratios": [1], "schemes": ["none", "every-3"], "algorithms": ["auto"], "seeds": [1, 2]}
JSON
"$RINGSIM" run "$tmp/sweep.json" --jobs 2 --out "$tmp/sweep" >/dev/null 2>"$tmp/err" || { echo "FAIL staging sweep"; cat "$tmp/err"; fail=1; }
$PY - "$tmp/sweep/runs.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4, len(rows)
for r in rows:
    assert float(r["staging_time"]) >= float(r["planned_staging_time"]) > 0, r
    assert r["rebuilds"] == "1" and float(r["rebuild_time"]) > 0, r
print(f"staging sweep: {len(rows)} runs with staging_time and rebuild_time in runs.csv")
PY

# Bad staging and rebuild configs: exit 2 and one line naming the problem.
bad() {  # description, JSON
  printf '%s' "$2" >"$tmp/bad.json"
  "$RINGSIM" simulate "$tmp/bad.json" >"$tmp/bad.out" 2>"$tmp/bad.err"
  local rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/bad.err")" -ne 1 ] || [ -s "$tmp/bad.out" ]; then
    echo "FAIL bad config ($1): rc=$rc"; cat "$tmp/bad.err"; fail=1
  fi
}
base='"ratio": 1, "iterations": 20'
bad "unknown staging key" "{$base, \"staging\": {\"nodez\": 2}}"
bad "staging not an object" "{$base, \"staging\": 3}"
bad "zero nodes" "{$base, \"staging\": {\"nodes\": 0}}"
bad "negative bandwidth" "{$base, \"staging\": {\"node_bandwidth\": -1}}"
bad "negative latency" "{$base, \"staging\": {\"backbone_latency\": -1}}"
bad "negative k" "{$base, \"staging\": {\"k\": -1}}"
bad "negative beta" "{$base, \"staging\": {\"beta\": -0.5}}"
bad "unknown KPBS algorithm" "{$base, \"staging\": {\"algorithm\": \"fastest\"}}"
bad "overlap not a boolean" "{$base, \"staging\": {\"overlap\": 1}}"
bad "unknown gateway" "{$base, \"staging\": {\"gateway\": \"nowhere\"}}"
bad "rebuild not a list" "{$base, \"rebuild\": {\"after\": 3}}"
bad "rebuild without after" "{$base, \"rebuild\": [{\"size\": 3}]}"
bad "rebuild after the last iteration" "{$base, \"rebuild\": [{\"after\": 20}]}"
bad "rebuilds out of order" "{$base, \"rebuild\": [{\"after\": 9}, {\"after\": 5}]}"
bad "rebuild unknown host" "{$base, \"rebuild\": [{\"after\": 5, \"hosts\": [\"nowhere\"]}]}"
bad "rebuild hosts and size" "{$base, \"rebuild\": [{\"after\": 5, \"hosts\": [\"TeX\"], \"size\": 2}]}"
bad "rebuild too large" "{$base, \"rebuild\": [{\"after\": 5, \"size\": 500}]}"
bad "rebuild with a planner ring" "{$base, \"ring\": {\"selection\": \"planner\"}, \"rebuild\": [{\"after\": 5}]}"

[ $fail -eq 0 ] && echo "staging tests passed"
exit $fail
