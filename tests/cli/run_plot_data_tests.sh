#!/usr/bin/env bash
# The studies' plotting scripts (experiments/*/plot_*.py) draw what their CSVs hold: a panel (or a
# line) per ring size with titles naming the sizes, every scheme and algorithm of the data, titles
# from the data; and they refuse what they cannot draw faithfully with exit 2, one stderr line and
# no output left. What was drawn is read from each script's --describe JSON.
set -euo pipefail
RINGSIM=${1:?usage: run_plot_data_tests.sh path/to/ringsim}
HERE=$(cd "$(dirname "$0")" && pwd)
EXP=$HERE/../../experiments
PY=/usr/bin/python3
. "$HERE/lib.sh"
cd "$tmp"
cp "$HERE/../../platforms/paper2004_tiers90.xml" platform.xml

# A sweep with rings of 6 and 16 (none of the paper's 8 and 32), a fixed frequency no script names
# (every-3) and a policy, two ratios, two seeds: 32 short runs.
cat >sweep.json <<'EOF'
{"name": "two-sizes", "description": "rings of 6 and 16",
 "base": {"platform": "platform.xml", "rows": 200, "columns": 200, "iterations": 20,
          "network_model": "linear", "traces": {"source": "factor", "windows": [[3, 8], [11, 15]]}},
 "ring_sizes": [6, 16], "ratios": [0.1, 10], "schemes": ["every-5", "every-3", "adaptive"],
 "algorithms": ["auto"], "seeds": [1, 2], "repetitions": 1}
EOF
"$RINGSIM" run sweep.json --jobs 2 --out sweep >/dev/null 2>err || { echo "FAIL ringsim run"; cat err; exit 1; }
RUNS=sweep/runs.csv
# One run of a ring of 6, for plot_run.py and the traces figure.
cat >run.json <<'EOF'
{"platform": "platform.xml", "ring": {"size": 6, "seed": 1}, "ratio": 1, "iterations": 20,
 "rows": 200, "columns": 200, "scheme": "every-5", "network_model": "linear",
 "traces": {"seed": 1, "source": "factor", "windows": [[3, 8], [11, 15]]}}
EOF
mkdir run
"$RINGSIM" simulate run.json --out run/result.json --iterations-csv run/iterations.csv --traces-dir run/traces \
  >/dev/null 2>err || { echo "FAIL ringsim simulate"; cat err; exit 1; }

# drawn NAME DESCRIBE CONDITION: the --describe JSON satisfies CONDITION, a Python expression over
# d (the JSON), figures, panels (every panel of every figure), titles (the panels'), labels(panel)
# and series(panel, label).
drawn() {
  local name=$1 file=$2 cond=$3
  if [ ! -s "$file" ]; then echo "FAIL $name: no --describe output $file"; fail=1; return 0; fi
  if ! "$PY" - "$file" "$cond" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
figures = d["figures"]
panels = [p for f in figures for p in f["panels"]]
titles = [p["title"] for p in panels]
def labels(panel):
    return [s["label"] for s in panel["series"]]
def series(panel, label):
    return next(s for s in panel["series"] if s["label"] == label)
ok = eval("(" + sys.argv[2] + ")")
if not ok:
    print("  drawn: " + json.dumps([{"file": f["file"], "title": f["title"],
                                     "panels": [[p["title"], labels(p)] for p in f["panels"]]} for f in figures]))
sys.exit(0 if ok else 1)
PY
  then echo "FAIL $name: the figures drawn do not satisfy: $cond"; fail=1
  else echo "ok $name"
  fi
}

# plotted NAME COMMAND...: the script exits 0 and writes nothing on stderr (the checks of what it
# drew follow, and fail on their own when it did not draw).
plotted() {
  local name=$1 rc=0
  shift
  "$@" >out.txt 2>err.txt || rc=$?
  if [ $rc -ne 0 ] || [ -s err.txt ]; then echo "FAIL $name: exit $rc"; head -3 err.txt; fail=1; fi
  return 0
}

# only_files NAME DIR FILE...: DIR holds exactly these files (no temporary left behind).
only_files() {
  local name=$1 dir=$2
  shift 2
  local want have
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  have=$(ls -A "$dir" | sort | tr '\n' ' ')
  [ "$want" = "$have" ] || { echo "FAIL $name: $dir holds '$have', expected '$want'"; fail=1; }
}

# refused NAME FRAGMENT DIR COMMAND...: with DIR a fresh empty folder (made here), the command is
# refused (exit 2, one stderr line containing FRAGMENT, nothing on stdout) and DIR stays empty.
refused() {
  local name=$1 fragment=$2 dir=$3 before=$fail
  shift 3
  rm -rf "$dir"
  mkdir -p "$dir"
  fail=0
  expect_refused "$name" "$fragment" "$@" || true  # its command fails: not this script's end (set -e)
  [ -z "$(ls -A "$dir")" ] || { echo "FAIL $name: left $(ls -A "$dir") in $dir"; fail=1; }
  [ $fail -eq 0 ] && echo "ok $name"
  fail=$((before | fail))
  return 0
}

PAPER=$EXP/hipc2004/plot_paper_figures.py
WHEN=$EXP/when/plot_when.py
STAGING=$EXP/staging/plot_staging.py
KPBS=$EXP/kpbs/plot_kpbs.py
SHARED=$EXP/sharedring/plot_sharedring.py
PLOTRUN=$EXP/when/plot_run.py

# Variants of the sweep's runs.csv, each with one thing a plot cannot draw faithfully.
col() { head -1 "$RUNS" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
cut -d, -f"$(col normalized_time)" --complement "$RUNS" >no_normalized_column.csv
cut -d, -f"$(col algorithm)" --complement "$RUNS" >no_algorithm_column.csv
: >empty.csv
head -1 "$RUNS" >header_only.csv
awk -F, -v OFS=, -v c="$(col network_model)" 'NR > 1 && NR % 2 == 0 { $c = "lv08" } 1' "$RUNS" >two_models.csv
awk -F, -v OFS=, -v c="$(col normalized_time)" 'NR > 1 { $c = "" } 1' "$RUNS" >not_normalized.csv
# A second sweep's run at the same coordinates: the row again with another makespan.
awk -F, -v OFS=, -v c="$(col makespan)" 'NR == 3 { print; $c = $c * 2 } 1' "$RUNS" >run_twice.csv
awk -F, -v OFS=, -v c="$(col makespan)" 'NR == 1 || NR == 3 { if (NR == 3) $c = $c * 2; print }' "$RUNS" \
  >other_sweep.csv
# every-5 also planned by another algorithm: plot_when.py keys its lines by scheme alone.
awk -F, -v OFS=, -v a="$(col algorithm)" -v s="$(col scheme)" \
  '{ print } NR > 1 && $s == "every-5" { $1 = $1 "-h"; $a = "bi-heuristic"; print }' "$RUNS" >two_algorithms.csv
# The same runs as two files: a policy swept on its own brings the none runs again.
awk -F, -v s="$(col scheme)" 'NR == 1 || $s != "adaptive"' "$RUNS" >without_adaptive.csv
awk -F, -v s="$(col scheme)" 'NR == 1 || $s == "adaptive" || $s == "none"' "$RUNS" >adaptive_alone.csv
awk -F, -v r="$(col ring_size)" 'NR == 1 || $r == 6' "$RUNS" >ring6.csv
awk -F, -v s="$(col scheme)" 'NR == 1 || $s == "adaptive"' "$RUNS" >adaptive_only.csv

# ---------------------------------------------------------------------------------------------
# experiments/hipc2004/plot_paper_figures.py

mkdir paper
plotted "paper fig3 two ring sizes" "$PY" "$PAPER" fig3 "$RUNS" paper/fig3.png --describe paper/fig3.json
drawn "paper fig3 two ring sizes" paper/fig3.json \
    "len(figures) == 1 and figures[0]['title'] == 'Figure 3: rings of 6 and 16 processors'
     and titles == ['ring of 6 processors', 'ring of 16 processors']
     and not any(' 8 ' in t or ' 32 ' in t for t in titles + [figures[0]['title']])
     and all([l.split(':')[0] for l in labels(p)] == ['none', 'every-5', 'every-3', 'adaptive'] for p in panels)
     and all(s['x'] == [0.1, 10.0] for p in panels for s in p['series'])"
# Each panel's means are those of its own ring size's runs, never both sizes averaged.
drawn "paper fig3 panels keep ring sizes apart" paper/fig3.json "$(cat <<EOF
all(abs(y - m) < 1e-9 for p, size in zip(panels, (6, 16)) for scheme in ('every-5', 'every-3', 'adaptive')
  for y, m in zip(next(s for s in p['series'] if s['label'].startswith(scheme + ':'))['y'],
                  [sum(v) / len(v) for v in [[float(r['normalized_time']) for r in __import__('csv').DictReader(open('$RUNS'))
                    if int(r['ring_size']) == size and r['scheme'] == scheme and float(r['ratio']) == q] for q in (0.1, 10)]]))
EOF
)"
plotted "paper fig4 one ring size chosen" "$PY" "$PAPER" fig4 "$RUNS" paper/fig4.png --ring-sizes 16 \
    --schemes none,every-3 --describe paper/fig4.json
drawn "paper fig4 one ring size chosen" paper/fig4.json \
    "titles == ['Figure 4: ring of 16 processors'] and labels(panels[0]) == ['none: 0', 'every-3: 6']"
plotted "paper traces from the data" "$PY" "$PAPER" traces run/traces/traces.csv paper/traces.png --hosts 3 \
    --describe paper/traces.json
hosts=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ring"][:3])' run/result.json)
drawn "paper traces from the data" paper/traces.json \
    "len(panels) == 1 and labels(panels[0]) == $hosts and titles[0].startswith('Speed traces of 3 of the 6 ring members')
     and 'iteration' in titles[0] and '[20,40]' not in titles[0]"
only_files "paper outputs renamed into place" paper fig3.png fig3.json fig4.png fig4.json traces.png traces.json

refused "paper missing column" "runs CSV 'no_normalized_column.csv' lacks column(s) normalized_time" bad \
  "$PY" "$PAPER" fig3 no_normalized_column.csv bad/f.png
refused "paper empty csv" "runs CSV 'empty.csv' is empty" bad "$PY" "$PAPER" fig3 empty.csv bad/f.png
refused "paper header only" "runs CSV 'header_only.csv' has a header but no rows" bad \
  "$PY" "$PAPER" fig3 header_only.csv bad/f.png
refused "paper two network models" "mixes network_model linear and lv08" bad "$PY" "$PAPER" fig3 two_models.csv bad/f.png
refused "paper a run twice" "is already at 'run_twice.csv':3 with other results" bad \
  "$PY" "$PAPER" fig3 run_twice.csv bad/f.png
refused "paper no normalized run" "has no normalized run to draw" bad "$PY" "$PAPER" fig3 not_normalized.csv bad/f.png
refused "paper absent ring size" "--ring-sizes: ring size(s) 8 not in '$RUNS' (it holds 6 and 16)" bad \
  "$PY" "$PAPER" fig3 "$RUNS" bad/f.png --ring-sizes 8
refused "paper absent scheme" "--schemes: scheme(s) every-10 not in" bad \
  "$PY" "$PAPER" fig3 "$RUNS" bad/f.png --schemes none,every-10
refused "paper absent ratio" "--ratios: ratio(s) 1 not in" bad "$PY" "$PAPER" fig3 "$RUNS" bad/f.png --ratios 1
refused "paper traces more hosts than the ring" "--hosts 7: traces CSV 'run/traces/traces.csv' has 6 host(s)" bad \
  "$PY" "$PAPER" traces run/traces/traces.csv bad/f.png --hosts 7
refused "paper runs csv as traces" "traces CSV '$RUNS' lacks column(s) host" bad "$PY" "$PAPER" traces "$RUNS" bad/f.png
refused "paper unknown figure" "invalid choice: 'fig5'" bad "$PY" "$PAPER" fig5 "$RUNS" bad/f.png

# ---------------------------------------------------------------------------------------------
# experiments/when/plot_when.py

mkdir when
plotted "when panels per family and ring size" "$PY" "$WHEN" when/w.png when/t.md all="$RUNS" six=ring6.csv \
    --describe when/w.json
drawn "when panels per family and ring size" when/w.json \
    "titles == ['all, ring of 6', 'all, ring of 16', 'six, ring of 6']
     and all(labels(p)[:4] == ['never', 'every 5', 'every 3', 'adaptive'] for p in panels)"
grep -q '^| 16 | 10 | ' when/t.md && grep -q '^| 6 | 0.1 | ' when/t.md ||
  { echo "FAIL when panels per family and ring size: the table lacks ring 6 or 16"; fail=1; }
mkdir picked
plotted "when draws only the schemes asked" "$PY" "$WHEN" picked/s.png picked/s.md all="$RUNS" --schemes none,adaptive \
    --describe picked/s.json
drawn "when draws only the schemes asked" picked/s.json \
    "all(labels(p)[:2] == ['never', 'adaptive'] and 'every 5' not in labels(p) for p in panels)"
"$PY" "$WHEN" picked/u.png picked/u.md all="$RUNS" >/dev/null
cmp -s picked/s.md picked/u.md || { echo "FAIL when draws only the schemes asked: the table changed"; fail=1; }
refused "when absent scheme" "--schemes: scheme(s) every-10 not in the runs given" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md all="$RUNS" --schemes none,every-10
plotted "when joins a policy swept alone" "$PY" "$WHEN" when/j.png when/j.md \
    all=without_adaptive.csv+adaptive_alone.csv --describe when/j.json
drawn "when joins a policy swept alone" when/j.json \
    "[series(p, 'adaptive')['y'] for p in panels] == [series(p, 'adaptive')['y'] for p in
    json.load(open('when/w.json'))['figures'][0]['panels'][:2]] and len(panels) == 2"

# A reference run that is no optimum (references.py) is left out of hindsight's column, curve and
# every ratio to it, and the table and the panel's title say how many: seed 2's hindsight is not
# exactly optimal (0.4), seed 3's ended 1.4% above every-5 (0.71), seed 3's hindsight-targets is
# not exactly optimal. Kept: hindsight 0.6 (seed 1) and adaptive / hindsight = 0.64 / 0.6 over
# the same seed, where all three runs would give 0.570 and 1.263.
cat >refs.csv <<'CSV'
run_id,ring_size,ratio,scheme,algorithm,seed,repetition,redistributions,makespan,normalized_time,time_over_ideal,network_model,reference_optimal_under_model,reference_simulated_over_predicted,realized_ratio
n1,8,1,none,-,1,0,0,100,1,2,linear,,,1
n2,8,1,none,-,2,0,0,100,1,2,linear,,,1
n3,8,1,none,-,3,0,0,100,1,2,linear,,,1
e1,8,1,every-5,auto,1,0,19,70,0.7,1.4,linear,,,1
e2,8,1,every-5,auto,2,0,19,70,0.7,1.4,linear,,,1
e3,8,1,every-5,auto,3,0,19,70,0.7,1.4,linear,,,1
a1,8,1,adaptive,auto,1,0,3,64,0.64,1.28,linear,,,1
a2,8,1,adaptive,auto,2,0,3,72,0.72,1.44,linear,,,1
a3,8,1,adaptive,auto,3,0,3,80,0.8,1.6,linear,,,1
h1,8,1,hindsight,auto,1,0,2,60,0.6,1.2,linear,true,1.0,1
h2,8,1,hindsight,auto,2,0,4,40,0.4,0.8,linear,false,1.0,1
h3,8,1,hindsight,auto,3,0,6,71,0.71,1.42,linear,true,1.0,1
t1,8,1,hindsight-targets,auto,1,0,3,50,0.5,1.0,linear,true,1.0,1
t2,8,1,hindsight-targets,auto,2,0,3,55,0.55,1.1,linear,true,1.0,1
t3,8,1,hindsight-targets,auto,3,0,3,45,0.45,0.9,linear,false,1.0,1
CSV
plotted "when leaves out reference runs that are no optimum" "$PY" "$WHEN" when/r.png when/r.md f=refs.csv \
    --describe when/r.json
for want in "| 8 | 1 | every-5 | 0.700 | 0.720 | 1.029 |  |  |  | 0.600 | 2.0 | 1.067 |  |  | 0.500 | 3 |  |  |" \
            "Reference runs left out (not exactly optimal under the model, beaten by a checked fixed scheme in the simulation, or above a fixed scheme of the same run by more than 0.5%): hindsight 2 of 3, hindsight-targets 1 of 3 (ring 8 ratio 1 seed 2: hindsight not exactly optimal under the model; ring 8 ratio 1 seed 3: hindsight above a fixed scheme by 1.4%; ring 8 ratio 1 seed 3: hindsight-targets not exactly optimal under the model)."; do
  grep -qxF -- "$want" when/r.md || { echo "FAIL when leaves out reference runs: no line '$want' in the table:"; cat when/r.md; fail=1; }
done
drawn "when leaves out reference runs that are no optimum" when/r.json \
    "titles == ['f, ring of 8\\n(hindsight: 2 of 3 runs left out; hindsight-targets: 1 of 3 runs left out)']
     and series(panels[0], 'hindsight (best points of each run)')['y'] == [0.6]
     and abs(series(panels[0], 'hindsight-targets (best points and targets)')['y'][0] - 0.525) < 1e-9"
only_files "when outputs renamed into place" when w.png t.md w.json j.png j.md j.json r.png r.md r.json
sed '12s/,false,/,maybe,/' refs.csv >refs_unknown_flag.csv
refused "when reference optimality unreadable" "refs_unknown_flag.csv':12: column reference_optimal_under_model: 'maybe'" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f=refs_unknown_flag.csv
cut -d, -f9 --complement refs.csv >refs_no_makespan.csv
refused "when no makespan to compare references with" "lacks column(s) makespan" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f=refs_no_makespan.csv

refused "when missing algorithm column" "runs CSV 'no_algorithm_column.csv' lacks column(s) algorithm" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f=no_algorithm_column.csv
refused "when empty csv" "runs CSV 'empty.csv' is empty" bad "$PY" "$WHEN" bad/w.png bad/t.md f=empty.csv
refused "when two algorithms of one scheme" "scheme every-5 has runs of algorithms auto and bi-heuristic" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f=two_algorithms.csv
refused "when two network models" "mixes network_model linear and lv08" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f=two_models.csv
refused "when joined runs of two sweeps" "is already at '$RUNS':3 with other results" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md "f=$RUNS+other_sweep.csv"
refused "when absent ring size" "--ring-sizes: ring size(s) 8 not in" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f="$RUNS" --ring-sizes 8
refused "when family given twice" "family f is given twice" bad \
  "$PY" "$WHEN" bad/w.png bad/t.md f="$RUNS" f=ring6.csv
refused "when no fixed scheme" "no fixed scheme" bad "$PY" "$WHEN" bad/w.png bad/t.md f=adaptive_only.csv

# ---------------------------------------------------------------------------------------------
# experiments/when/plot_run.py

mkdir plotrun
plotted "run describes its panels" "$PY" "$PLOTRUN" --dir run --output plotrun/run.png --describe plotrun/run.json
ring=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ring"])' run/result.json)
drawn "run describes its panels" plotrun/run.json \
    "len(panels) == 4 and 'ring of 6' in figures[0]['title'] and 'every-5' in figures[0]['title']
     and titles[0].startswith('member speeds') and labels(panels[0]) == $ring"
only_files "run outputs renamed into place" plotrun run.png run.json
refused "run several runs in one iterations csv" "holds several runs" bad \
  "$PY" "$PLOTRUN" --result run/result.json --iterations sweep/iterations.csv --traces run/traces/traces.csv \
  --output bad/run.png

# ---------------------------------------------------------------------------------------------
# experiments/staging/plot_staging.py: results written by hand with run_staging_experiment.py's
# columns, rings of 6 and 16, a rebuild of a ring of 6 and an algorithm the script does not name.

mkdir staging
{
  echo "ring_size,node_bandwidth,seed,algorithm,k,eta,planned,simulated,planned_over_eta,simulated_over_planned,steps,columns_over_network,columns_local"
  for q in 6 16; do for b in 1000000.0 10000000.0; do for s in 1 2; do for a in ggp oggp my-kpbs; do
    echo "$q,$b,$s,$a,1,$((q + s)).5,$((q + s + 1)).5,$((q + s + 3)).25,1.1,1.2,5,200,0"
  done; done; done; done
} >staging/staging.csv
{
  echo "old_size,new_size,seed,algorithm,k,eta,planned,simulated,planned_over_eta,simulated_over_planned,steps,columns_over_network,columns_local"
  for n in 4 12; do for s in 1 2; do for a in ggp my-kpbs; do
    echo "6,$n,$s,$a,1,$((n + s)).5,$((n + s + 1)).5,$((n + s + 2)).5,1.1,1.2,4,150,50"
  done; done; done
} >staging/rebuild.csv
mkdir staging/fig
plotted "staging panels per ring size" "$PY" "$STAGING" --results staging --out staging/fig --describe staging/d.json
drawn "staging panels per ring size" staging/d.json \
    "len(panels) == 3 and titles[0].endswith('onto a ring of 6') and titles[1].endswith('onto a ring of 16')
     and titles[2].startswith('rebuild of a ring of 6')
     and not any('ring of 8' in t or 'ring of 32' in t for t in titles)
     and all('my-kpbs simulated' in labels(p) for p in panels)
     and series(panels[0], 'ggp simulated')['y'] == [10.75, 10.75]"
only_files "staging outputs renamed into place" staging/fig staging.png
refused "staging absent ring size" "--ring-sizes: ring size(s) 32 not in" staging/bad \
  "$PY" "$STAGING" --results staging --out staging/bad --ring-sizes 32
mkdir staging_norebuild
cp staging/staging.csv staging_norebuild/
refused "staging missing rebuild csv" "results CSV 'staging_norebuild/rebuild.csv' does not exist" staging_norebuild/fig \
  "$PY" "$STAGING" --results staging_norebuild --out staging_norebuild/fig
mkdir staging_cols
cut -d, -f8 --complement staging/staging.csv >staging_cols/staging.csv
cp staging/rebuild.csv staging_cols/
refused "staging missing column" "lacks column(s) simulated" staging_cols/fig \
  "$PY" "$STAGING" --results staging_cols --out staging_cols/fig
mkdir staging_twice
{ cat staging/staging.csv; sed -n 2p staging/staging.csv; } >staging_twice/staging.csv
cp staging/rebuild.csv staging_twice/
refused "staging a run twice" "ring_size 6, node_bandwidth 1e+06, seed 1, algorithm ggp again" staging_twice/fig \
  "$PY" "$STAGING" --results staging_twice --out staging_twice/fig
mkdir staging_summary
cp staging/staging.csv staging/rebuild.csv staging_summary/
echo '{"ring_sizes": [8, 32], "rows": 1000, "columns": 1000}' >staging_summary/summary.json
refused "staging summary of another sweep" "results of two sweeps mixed" staging_summary/fig \
  "$PY" "$STAGING" --results staging_summary --out staging_summary/fig

# ---------------------------------------------------------------------------------------------
# experiments/kpbs/plot_kpbs.py: results by hand with run_kpbs_experiment.py's columns, k = 3 and
# beta = 0.5 (not the study's 5 and 1), one network model only.

mkdir kpbs kpbs/fig
{
  echo "k,beta,seed,algorithm,time,eta,ratio,steps"
  for b in 0.1 1.0; do for s in 1 2; do for a in ggp oggp; do echo "3,$b,$s,$a,12.0,10.0,1.2,4"; done; done; done
} >kpbs/ratio_vs_beta.csv
{
  echo "k,beta,seed,algorithm,time,eta,ratio,steps"
  for k in 1 2; do for s in 1 2; do for a in ggp oggp; do echo "$k,0.5,$s,$a,13.0,10.0,1.3,4"; done; done; done
} >kpbs/ratio_vs_k.csv
{
  echo "network_model,k,beta,seed,algorithm,eta,planned,simulated,aao_planned,aao_simulated,max_step_error"
  for s in 1 2; do for a in ggp oggp; do echo "linear,3,0.5,$s,$a,10.0,12.0,12.5,9.0,9.5,0.001"; done; done
} >kpbs/planned_vs_simulated.csv
plotted "kpbs titles from the data" "$PY" "$KPBS" --results kpbs --out kpbs/fig --describe kpbs/d.json
drawn "kpbs titles from the data" kpbs/d.json \
    "titles[0].endswith('k = 3') and titles[1].endswith('beta = 0.5') and len(panels) == 3
     and titles[2].startswith('linear model') and figures[2]['title'].endswith('k = 3, beta = 0.5')
     and labels(panels[0])[:2] == ['ggp', 'oggp'] and 'greedy' not in labels(panels[0])"
only_files "kpbs outputs renamed into place" kpbs/fig kpbs_ratio_vs_beta.png kpbs_ratio_vs_k.png \
  kpbs_planned_vs_simulated.png
mkdir kpbs_two_k
cp kpbs/*.csv kpbs_two_k/
sed -i '2s/^3,/5,/' kpbs_two_k/ratio_vs_beta.csv
refused "kpbs two k averaged together" "mixes k 3 and 5" kpbs_two_k/fig "$PY" "$KPBS" --results kpbs_two_k --out kpbs_two_k/fig
mkdir kpbs_empty
cp kpbs/*.csv kpbs_empty/
: >kpbs_empty/ratio_vs_k.csv
refused "kpbs empty csv" "results CSV 'kpbs_empty/ratio_vs_k.csv' is empty" kpbs_empty/fig \
  "$PY" "$KPBS" --results kpbs_empty --out kpbs_empty/fig
mkdir kpbs_cols
cp kpbs/*.csv kpbs_cols/
cut -d, -f7 --complement kpbs/ratio_vs_beta.csv >kpbs_cols/ratio_vs_beta.csv
refused "kpbs missing column" "lacks column(s) ratio" kpbs_cols/fig "$PY" "$KPBS" --results kpbs_cols --out kpbs_cols/fig

# ---------------------------------------------------------------------------------------------
# experiments/sharedring/plot_sharedring.py --skip-run: ring-sweep CSVs by hand for two of the
# study's configs, with the methods the sweep holds (no greedy-maxmin).

mkdir shared shared/fig
{
  echo "platform,method,ratio,work,comm,q,tstep,tstep_per_work"
  for r in 1e-05 0.001; do
    echo "tiers37.xml,greedy,$r,1000000000,1,20,0.5,5e-10"
    echo "tiers37.xml,greedy-global,$r,1000000000,1,18,0.45,4.5e-10"
    echo "tiers37.xml,ignore-sharing,$r,1000000000,1,30,0.9,9e-10"
  done
} >shared/tiers37_sweep.csv
{
  echo "platform,method,ratio,q,tstep,tstep_per_work,objective,objective_per_work"
  for r in 1e-05 0.001; do for q in 1 2 3; do echo "tiers70.xml,greedy,$r,$q,$q.5,${q}e-10,,"; done; done
} >shared/tiers70_by_size.csv
plotted "sharedring panels per platform from the data" "$PY" "$SHARED" --skip-run --results shared --out shared/fig \
    --describe shared/d.json
drawn "sharedring panels per platform from the data" shared/d.json \
    "[f['file'].split('/')[-1] for f in figures] == ['sharedring_ring_size.png', 'sharedring_tstep_vs_size.png',
    'sharedring_refinements.png', 'sharedring_h1_vs_h2.png']
     and labels(panels[0]) == ['greedy', 'greedy-global', 'ignore-sharing'] and titles[0].startswith('37 machines')
     and titles[1].startswith('70 machines') and labels(panels[1]) == ['H/W = 1e-05', 'H/W = 0.001']
     and labels(panels[2])[:1] == ['greedy-global vs greedy'] and len(panels) == 5"
grep -q "methods_table.md: not drawn" out.txt || { echo "FAIL sharedring: no word of the missing table"; fail=1; }
only_files "sharedring outputs renamed into place" shared/fig sharedring_ring_size.png sharedring_tstep_vs_size.png \
  sharedring_refinements.png sharedring_h1_vs_h2.png
refused "sharedring unknown config" "--only nosuch: no config of that name" shared_bad \
  "$PY" "$SHARED" --skip-run --only nosuch --results shared --out shared_bad
mkdir shared_none
refused "sharedring no results" "no ring-sweep results in 'shared_none'" shared_none/fig \
  "$PY" "$SHARED" --skip-run --results shared_none --out shared_none/fig
mkdir shared_two
sed '3s/^tiers37.xml/tiers70.xml/' shared/tiers37_sweep.csv >shared_two/tiers37_sweep.csv
refused "sharedring two platforms in one csv" "mixes platform tiers37.xml and tiers70.xml" shared_two/fig \
  "$PY" "$SHARED" --skip-run --results shared_two --out shared_two/fig
mkdir shared_cols
cut -d, -f6 --complement shared/tiers37_sweep.csv >shared_cols/tiers37_sweep.csv
refused "sharedring missing column" "lacks column(s) q" shared_cols/fig \
  "$PY" "$SHARED" --skip-run --results shared_cols --out shared_cols/fig

[ $fail -eq 0 ] && echo "all plot data tests passed"
exit $fail
