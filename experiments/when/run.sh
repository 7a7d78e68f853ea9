#!/usr/bin/env bash
# Regenerates the when study (experiments/README.md has the form): the sweeps of make_configs.py
# (`ringsim run`, resumable), then every table and figure NOTES.md quotes, and BUILD, naming the build
# they come from:
#   goal-table.md and the README's figure (docs/figures/when-to-redistribute.png; with --out DIR,
#     DIR/when-to-redistribute.png): plot_when.py on the five families' seeds 1-8;
#   criteria/held-out-goal-table.md: plot_when.py on seeds 9-16 and the held-out families;
#   chosen-targets-table.md, criteria/held-out-chosen-targets-table.md: when_chosen_targets.py;
#   criteria/table.md with criteria/when-criteria-FAMILY.png, criteria/seeds-9-16/table.md and
#     criteria/goals-POLICY.md: when_criteria.py;
#   information-table.md, information-late-table.md, late-rule-seeds-1-8-table.md and
#     late-rule-seeds-9-16-table.md: when_information.py (online-optimal's result.json files are
#     kept for them);
#   moves-adaptive-lasting.md and criteria/seeds-9-16/moves-adaptive-lasting.md: when_moves.py;
#   one-run-adaptive.png: one run of the adaptive policy, plot_run.py.
#   usage: experiments/when/run.sh [--quick] [--jobs N] [--ringsim PATH] [--out DIR]
# --quick runs each sweep's quick section (a ring of 4, one ratio, one seed) into DIR (required then).
. "$(dirname "$0")/../study.sh"
study_begin "$@"
PY=/usr/bin/python3
configs=$(mktemp -d); trap 'rm -rf "$configs"' EXIT
$PY "$HERE/make_configs.py" "$configs"
for config in $(cd "$configs" && find . -name '*.json' | sort); do
  config=${config#./}
  study_sweep "$configs/$config" "${config%.json}"
done
cd "$OUT"
C=criteria S=criteria/seeds-9-16
FAMILIES="paper-traces random-walk on-off pareto-on-off daily"
with_online_optimal() { [ "$2" = on-off ] && echo "+$1/on-off-online-optimal/runs.csv"; true; }
figure=$ROOT/docs/figures/when-to-redistribute.png
[ -n "$QUICK" ] || [ "$OUT" != "$HERE/results" ] && figure=$OUT/when-to-redistribute.png
args=(); for f in $FAMILIES; do args+=("$f=$C/$f/runs.csv$(with_online_optimal $C $f)"); done
schemes=none,once,every-20,every-10,every-5,adaptive,rent-or-buy,adaptive-lasting
$PY "$HERE/plot_when.py" "$figure" goal-table.md "${args[@]}" \
  --schemes $schemes,adaptive-gather,hindsight,hindsight-targets,online-optimal >/dev/null
args=(); for f in $FAMILIES wave; do args+=("$f=$S/$f/runs.csv$(with_online_optimal $S $f)"); done
for f in weibull-on-off hyperexponential-on-off; do args+=("$f=$C/$f/runs.csv"); done
$PY "$HERE/plot_when.py" "$configs/held-out.png" $C/held-out-goal-table.md "${args[@]}" \
  --schemes $schemes,hindsight,online-optimal >/dev/null
args=(); for f in $FAMILIES; do args+=("$f=$C/$f/runs.csv"); done
$PY "$HERE/when_chosen_targets.py" chosen-targets-table.md "${args[@]}" >/dev/null
args=(); for f in paper-traces on-off daily; do args+=("$f=$S/$f/runs.csv"); done
for f in weibull-on-off hyperexponential-on-off; do args+=("$f=$C/$f/runs.csv"); done
$PY "$HERE/when_chosen_targets.py" $C/held-out-chosen-targets-table.md "${args[@]}" >/dev/null
args=(); for f in $FAMILIES wave weibull-on-off hyperexponential-on-off; do
  args+=("$f=$C/$f/runs.csv$(with_online_optimal $C $f)"); done
$PY "$HERE/when_criteria.py" table $C/table.md $C "${args[@]}" >/dev/null
args=(); for f in $FAMILIES wave; do args+=("$f=$S/$f/runs.csv$(with_online_optimal $S $f)"); done
$PY "$HERE/when_criteria.py" table $S/table.md "$configs" "${args[@]}" >/dev/null
args=(); for f in $FAMILIES wave; do
  args+=("1-8/$f=$C/$f/runs.csv$(with_online_optimal $C $f)" "9-16/$f=$S/$f/runs.csv$(with_online_optimal $S $f)"); done
for f in weibull-on-off hyperexponential-on-off; do args+=("held-out-1-8/$f=$C/$f/runs.csv"); done
for policy in markov-rule forecast-lasting; do
  $PY "$HERE/when_criteria.py" goals $C/goals-$policy.md $policy random-walk,daily,wave "${args[@]}" >/dev/null
done
$PY "$HERE/when_information.py" bounds information information/bounds.csv
$PY "$HERE/when_information.py" information/runs.csv information/bounds.csv information-table.md >/dev/null
$PY "$HERE/when_information.py" late information information-late-table.md information/runs.csv >/dev/null
for set in 1-8 9-16; do
  folder=$C; [ $set = 9-16 ] && folder=$S
  $PY "$HERE/when_information.py" late $folder/on-off-online-optimal late-rule-seeds-$set-table.md \
    $folder/on-off/runs.csv >/dev/null
done
# moves_table FOLDER SEEDS TABLE: which of adaptive-lasting's moves paid, family by family.
moves_table() {
  local folder=$1 seeds=$2 table=$3
  {
    echo "# Which of adaptive-lasting's moves paid, in hindsight (seeds $seeds)"
    echo
    echo "Per family: \`experiments/when/when_moves.py $folder/FAMILY adaptive-lasting\` (result.json"
    echo "points[].hindsight_saved of each run). Moves: performed redistributions; paid: saved more, until the next"
    echo "move, than the point cost; moves' nets and run's gain: summed over the runs, over their makespans without"
    echo "redistributions."
    for f in $(cd "$folder" && ls -d */ | tr -d / | grep -v online-optimal | grep -v seeds-9-16); do
      echo; echo "## $f"; echo
      $PY "$HERE/when_moves.py" "$folder/$f" adaptive-lasting
    done
  } >"$table.tmp"
  mv "$table.tmp" "$table"
}
moves_table $C 1-8 moves-adaptive-lasting.md
moves_table $S 9-16 $S/moves-adaptive-lasting.md
# one-run-adaptive.png: one run of the adaptive policy pictured by plot_run.py (ring of 8, ratio 1).
run=$configs/one-run
mkdir -p "$run"
printf '%s' "{\"platform\": \"$ROOT/platforms/paper2004_tiers90.xml\", \"ring\": {\"size\": 8, \"seed\": 3}, \"ratio\": 1,
 \"scheme\": \"adaptive\", \"targets\": \"measured\"}" >"$run/config.json"
"$RINGSIM" simulate "$run/config.json" --out "$run/result.json" --iterations-csv "$run/iterations.csv" \
  --traces-dir "$run/traces" >/dev/null
$PY "$HERE/plot_run.py" --dir "$run" --output one-run-adaptive.png
study_end
