#!/usr/bin/env bash
# experiments/when/plot_run.py: the picture of one `ringsim simulate` run (speeds, columns, iteration
# times, redistribution points); bad inputs are exit 2, one stderr line and no output file.
set -euo pipefail
RINGSIM=${1:?usage: run_plot_run_tests.sh path/to/ringsim}
HERE=$(cd "$(dirname "$0")" && pwd)
PLATFORM=$HERE/../../platforms/paper2004_tiers90.xml
PLOT=$HERE/../../experiments/when/plot_run.py
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cd "$tmp"
cp "$PLATFORM" platform.xml

# One small run: ring of 8, 20 iterations, every-5, speeds changing in iterations [3,8] and [11,15].
cat >run.json <<'EOF'
{"platform": "platform.xml", "ring": {"size": 8, "seed": 1}, "ratio": 1, "iterations": 20,
 "rows": 200, "columns": 200, "scheme": "every-5", "targets": "oracle", "network_model": "linear",
 "traces": {"seed": 1, "source": "factor", "windows": [[3, 8], [11, 15]]}}
EOF
mkdir -p run
"$RINGSIM" simulate run.json --out run/result.json --iterations-csv run/iterations.csv --traces-dir run/traces \
  >/dev/null 2>err || { echo "FAIL simulate"; cat err; exit 1; }

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# 1. Explicit files -> PNG (exit 0, a non-empty valid PNG, nothing on stderr, no temporary left).
mkdir out
rc=0
"$PY" "$PLOT" --result run/result.json --iterations run/iterations.csv --traces run/traces/traces.csv \
  --output out/run.png --title "plot_run test" >stdout 2>err || rc=$?
if [ $rc -ne 0 ]; then echo "FAIL plot: exit $rc"; cat err; fail=1; fi
is_png out/run.png || { echo "FAIL out/run.png is not a non-empty PNG"; fail=1; }
[ -s err ] && { echo "FAIL plot wrote to stderr"; cat err; fail=1; }
[ "$(ls -A out)" = run.png ] || { echo "FAIL out/ holds more than run.png: $(ls -A out)"; fail=1; }
echo "plot: $(wc -c <out/run.png) bytes, $("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["redistributions"], "of", r["redistribution_points"], "points moved columns")' run/result.json)"

# 2. --dir D (D/result.json, D/iterations.csv, D/traces/traces.csv; default output D/run.png), and a PDF.
rc=0
"$PY" "$PLOT" --dir run >/dev/null 2>err || rc=$?
[ $rc -eq 0 ] && is_png run/run.png || { echo "FAIL --dir: exit $rc"; cat err; fail=1; }
rc=0
"$PY" "$PLOT" --dir run --output out/run.pdf >/dev/null 2>err || rc=$?
[ $rc -eq 0 ] && [ "$(head -c 4 out/run.pdf)" = "%PDF" ] || { echo "FAIL --dir PDF: exit $rc"; cat err; fail=1; }
rm -f out/run.pdf

# 3. Bad inputs: exit 2, exactly one stderr line naming the problem, no output file (nor temporary) left.
head -1 run/iterations.csv | cut -c1-20 >truncated.csv   # "iteration,start,end," : no loads column
head -1 run/iterations.csv >header_only.csv
: >empty.csv
bad() {  # name expected-substring plot_run.py-arguments...
  local name=$1 want=$2 rc=0
  shift 2
  mkdir "bad_$name"
  "$PY" "$PLOT" "$@" --output "bad_$name/run.png" >out.txt 2>err || rc=$?
  [ $rc -eq 2 ] || { echo "FAIL $name: exit $rc"; cat err; fail=1; }
  [ "$(wc -l <err)" -eq 1 ] || { echo "FAIL $name: stderr not one line"; cat err; fail=1; }
  grep -qF -- "$want" err || { echo "FAIL $name: expected '$want' on stderr"; cat err; fail=1; }
  grep -q Traceback err && { echo "FAIL $name: a traceback"; fail=1; }
  [ -z "$(ls -A "bad_$name")" ] || { echo "FAIL $name: left $(ls -A "bad_$name")"; fail=1; }
  return 0
}
bad missing_result "result 'nothere.json' does not exist" \
  --result nothere.json --iterations run/iterations.csv --traces run/traces/traces.csv
bad missing_traces "traces CSV 'run/traces/none.csv' does not exist" \
  --result run/result.json --iterations run/iterations.csv --traces run/traces/none.csv
bad truncated_header "iterations CSV 'truncated.csv' lacks column(s) loads" \
  --result run/result.json --iterations truncated.csv --traces run/traces/traces.csv
bad header_only "iterations CSV 'header_only.csv' has a header but no rows" \
  --result run/result.json --iterations header_only.csv --traces run/traces/traces.csv
bad empty "iterations CSV 'empty.csv' is empty" \
  --result run/result.json --iterations empty.csv --traces run/traces/traces.csv
bad swapped "traces CSV 'run/iterations.csv' lacks column(s) host, time, speed_flops" \
  --result run/result.json --iterations run/iterations.csv --traces run/iterations.csv
bad not_json "result 'run/iterations.csv' is not JSON" \
  --result run/iterations.csv --iterations run/iterations.csv --traces run/traces/traces.csv
bad no_dir "result 'nodir/result.json' does not exist" --dir nodir

[ $fail -eq 0 ] && echo "all plot_run tests passed"
exit $fail
