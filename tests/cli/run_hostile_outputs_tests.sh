#!/usr/bin/env bash
# Where outputs are written and whether they are valid in their format, on hostile names and
# paths: host names with every special character (CSVs read back with Python's csv module, one
# profile per host inside its folder), outputs that are devices, FIFOs or links, two outputs on one
# path, a Paje trace or a trace set that cannot be written in full, answers to a full device, and a
# listing of the file system around the runs before and after. Each case takes about a second.
set -u
RINGSIM=${1:?usage: run_hostile_outputs_tests.sh path/to/ringsim}
. "$(dirname "$0")/lib.sh"
RINGSIM=$(cd "$(dirname "$RINGSIM")" && pwd)/$(basename "$RINGSIM")  # the cases run in folders of their own
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
J="$ROOT/tests/data/sim-homogeneous.json"

# platform NAMES_JSON XML CONFIG [EXTRA_JSON]: a platform whose hosts have the names of the JSON
# list (one shared link, full routing; names written with XML character references), and a run
# config whose ring is those hosts in that order (EXTRA_JSON's keys set on it).
platform() {
  $PY - "$@" <<'PY'
import itertools, json, sys
from xml.sax.saxutils import quoteattr
names, xml, config = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
extra = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
attr = lambda s: quoteattr(s, {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
lines = ["<?xml version='1.0'?>", '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
         '<platform version="4.1">', '<zone id="z" routing="Full">']
lines += ['<host id=%s speed="%dMf"/>' % (attr(n), 100 + 7 * i) for i, n in enumerate(names)]
lines.append('<link id="l" bandwidth="10MBps" latency="0s"/>')
lines += ['<route src=%s dst=%s><link_ctn id="l"/></route>' % (attr(a), attr(b)) for a, b in itertools.combinations(names, 2)]
open(xml, "w").write("\n".join(lines + ["</zone></platform>"]) + "\n")
cfg = {"platform": xml, "ring": {"selection": "hosts", "hosts": names}, "rows": 100, "columns": 60, "iterations": 6,
       "ratio": 1, "scheme": "every-2", "traces": {"seed": 3, "windows": [[2, 4]]}, "decision_flops": 0, "report_bytes": 16}
cfg.update(extra)
json.dump(cfg, open(config, "w"))
PY
}

# check_csvs NAMES_JSON [traces=DIR] [iterations=FILE] [runs=FILE]: each CSV read back with
# Python's csv module has as many fields in every row as in its header, and the host names it
# holds are names of the list, exactly; DIR holds one profile per host, and nothing else.
check_csvs() {
  $PY - "$@" <<'PY'
import csv, json, os, sys
names = json.loads(sys.argv[1])
problems = []
def rows(path):
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    if any(len(r) != len(table[0]) for r in table):
        problems.append("%s: rows with %s fields, header %d" % (path, sorted({len(r) for r in table}), len(table[0])))
    return table
for arg in sys.argv[2:]:
    kind, path = arg.split("=", 1)
    if kind == "traces":
        hosts = {r[0] for r in rows(os.path.join(path, "traces.csv"))[1:]}
        if hosts != set(names): problems.append("traces.csv hosts %r" % sorted(hosts - set(names)))
        files = sorted(os.listdir(path))
        profiles = [f for f in files if f.endswith(".profile")]
        if len(profiles) != len(names) or len(files) != len(names) + 1:
            problems.append("%s holds %d files for %d hosts: %r" % (path, len(files), len(names), files[:5]))
    elif kind == "iterations":
        t = rows(path)
        slowest = {r[t[0].index("slowest")] for r in t[1:]}
        if not slowest or not slowest <= set(names): problems.append("slowest %r" % sorted(slowest - set(names)))
    elif kind == "runs":
        t = rows(path)
        for r in t[1:]:
            ring = next(csv.reader([r[t[0].index("ring")]], delimiter=";"))
            if sorted(ring) != sorted(names): problems.append("runs.csv ring %r" % ring)
for p in problems: print(p)
sys.exit(1 if problems else 0)
PY
}

hostile='["a,b", "q\"x", "new\nline", "s;t", "../../p", "a", "./a", "%41", "sp ace", "$(x)", "`y`", "it'"'"'s", ".", "..", "tab\tc"]'

# --- CSVs and profile files on host names with separators, quotes, line breaks, path parts -------
mkdir -p "$tmp/csv/cwd" && cd "$tmp/csv/cwd" || exit 1
platform "$hostile" "$tmp/csv/h.xml" "$tmp/csv/h.json"
if "$RINGSIM" traces "$tmp/csv/h.json" -o tr >/dev/null 2>"$tmp/err"; then
  check_csvs "$hostile" traces=tr || { echo "FAIL traces -o on hostile host names"; fail=1; }
  grep -q '^ringsim: note: 14 host name(s) escaped in the profile file names of tr/' "$tmp/err" \
    || { echo "FAIL traces -o does not say which files hold the escaped host names"; cat "$tmp/err"; fail=1; }
else
  echo "FAIL traces -o on hostile host names: exit status"; cat "$tmp/err"; fail=1
fi
[ -e "$tmp/p.profile" ] || [ -e "$tmp/csv/p.profile" ] && { echo "FAIL a host '../../p' wrote outside the traces folder"; fail=1; }
if "$RINGSIM" simulate "$tmp/csv/h.json" --iterations-csv it.csv --traces-dir td --out s.json 2>"$tmp/err"; then
  check_csvs "$hostile" traces=td iterations=it.csv || { echo "FAIL simulate outputs on hostile host names"; fail=1; }
else
  echo "FAIL simulate on hostile host names: exit status"; cat "$tmp/err"; fail=1
fi
$PY - "$tmp/csv/h.json" "$tmp/csv/sweep.json" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
json.dump({"name": "hostile-hosts", "base": base, "ring_sizes": [len(base["ring"]["hosts"])], "ratios": [1],
           "schemes": ["every-2"], "seeds": [1]}, open(sys.argv[2], "w"))
PY
if "$RINGSIM" run "$tmp/csv/sweep.json" --out sweep --jobs 1 >/dev/null 2>"$tmp/err"; then
  check_csvs "$hostile" runs=sweep/runs.csv || { echo "FAIL runs.csv's ring list on hostile host names"; fail=1; }
else
  echo "FAIL run on hostile host names: exit status"; cat "$tmp/err"; fail=1
fi

# Platform file names with a comma and quotes, in the CSVs of ring-sweep and bench ring.
odd="$tmp/csv/a,b \"c\".xml"
cp "$ROOT/tests/data/ring6-homogeneous.xml" "$odd"
"$RINGSIM" ring-sweep "$odd" --work 1e9 --ratios 0.1 >"$tmp/csv/rs.csv" 2>"$tmp/err" || { echo "FAIL ring-sweep"; fail=1; }
"$RINGSIM" bench ring --platform "$odd" --max-hosts 0 >"$tmp/csv/br.csv" 2>"$tmp/err" || { echo "FAIL bench ring"; fail=1; }
$PY - "$tmp/csv/rs.csv" "$tmp/csv/br.csv" "$odd" <<'PY' || { echo "FAIL a platform's file name breaks a CSV"; fail=1; }
import csv, os, sys
for path, name in ((sys.argv[1], os.path.basename(sys.argv[3])), (sys.argv[2], sys.argv[3])):
    rows = list(csv.reader(line for line in open(path, newline="") if not line.startswith("#")))
    assert {len(r) for r in rows} == {len(rows[0])} and rows[1][0] == name, (path, rows[1][:2])
PY

# --- Profile file names: a fuzzer of names (every byte but NUL, long names), one file each ------
fuzz_names=$($PY - <<'PY'
import json, random
rng = random.Random(65)
alphabet = [chr(c) for c in range(1, 128)] + ["é", "☃"]
names = {"a", "./a", "a/", "A", "%61", ".a", "..a", "-", "x" * 300, "x" * 299 + "y", "/" * 90, "%" * 80 + "y"}
while len(names) < 24:
    names.add("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))))
# SimGrid keeps names as given, but XML cannot hold most control characters.
print(json.dumps(sorted(n for n in names if all(c in "\t\n\r" or ord(c) >= 32 for c in n))))
PY
)
mkdir -p "$tmp/fuzz/cwd" && cd "$tmp/fuzz/cwd" || exit 1
platform "$fuzz_names" "$tmp/fuzz/f.xml" "$tmp/fuzz/f.json" '{"iterations": 2, "traces": {"seed": 1, "windows": [[1, 2]]}}'
if "$RINGSIM" traces "$tmp/fuzz/f.json" -o tr >/dev/null 2>"$tmp/err"; then
  check_csvs "$fuzz_names" traces=tr || { echo "FAIL traces -o on fuzzed host names"; fail=1; }
  [ "$(find "$tmp/fuzz" -newer "$tmp/fuzz/f.json" -name '*.profile' -not -path "$tmp/fuzz/cwd/tr/*" | wc -l)" -eq 0 ] \
    || { echo "FAIL a fuzzed host name wrote a profile outside the traces folder"; fail=1; }
else
  echo "FAIL traces -o on fuzzed host names: exit status"; head -3 "$tmp/err"; fail=1
fi

# --- No file outside the named outputs: the tree around the runs, before and after ----------------
# TMPDIR points inside the listed tree, so that a temporary file would show too.
mkdir -p "$tmp/tree/cwd" "$tmp/tree/tmpdir" && cd "$tmp/tree/cwd" || exit 1
platform '["../../p", "./q", "r", "s"]' "$tmp/tree/h.xml" "$tmp/tree/h.json"
$PY - "$tmp/tree/h.json" "$tmp/tree/sweep.json" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
json.dump({"name": "tree", "base": base, "ring_sizes": [4], "ratios": [1], "schemes": ["every-2"], "seeds": [1]},
          open(sys.argv[2], "w"))
PY
listing() { (cd "$tmp/tree" && find . -path ./cwd/tr -prune -o -path ./cwd/sweep -prune -o -printf '%p %y %s %T@\n' | sort); }
listing >"$tmp/before"
TMPDIR="$tmp/tree/tmpdir" "$RINGSIM" simulate "$tmp/tree/h.json" --out s.json --iterations-csv it.csv >/dev/null 2>&1
TMPDIR="$tmp/tree/tmpdir" "$RINGSIM" traces "$tmp/tree/h.json" -o tr >/dev/null 2>&1
TMPDIR="$tmp/tree/tmpdir" "$RINGSIM" simulate "$tmp/tree/h.json" --cfg=tracing:yes --cfg=tracing/filename:t.trace \
  --out s2.json >/dev/null 2>&1
TMPDIR="$tmp/tree/tmpdir" "$RINGSIM" simulate "$tmp/tree/h.json" --cfg=tracing:yes --cfg=tracing/filename:t2.trace \
  --out no/such/s3.json >/dev/null 2>&1  # refused: nothing at all
TMPDIR="$tmp/tree/tmpdir" "$RINGSIM" run "$tmp/tree/sweep.json" --out sweep --jobs 1 >/dev/null 2>&1
listing >"$tmp/after"
# Expected: the files simulate was told to write, the folders tr/ and sweep/ (pruned), and the
# cwd's own time stamp.
unexpected=$(diff "$tmp/before" "$tmp/after" | grep '^>' | grep -v -e '^> ./cwd/s.json ' -e '^> ./cwd/it.csv ' \
  -e '^> ./cwd/s2.json ' -e '^> ./cwd/t.trace ' \
  -e '^> ./cwd/tr ' -e '^> ./cwd/sweep ' -e '^> ./cwd d ')
[ -z "$unexpected" ] || { echo "FAIL files appeared or changed outside the outputs:"; echo "$unexpected" | head -5; fail=1; }
for f in s.json it.csv s2.json t.trace sweep/runs.csv tr/traces.csv; do
  [ -s "$tmp/tree/cwd/$f" ] || { echo "FAIL the tree's runs did not write $f"; fail=1; }
done
ls "$tmp/tree/cwd/tr" | grep -q '^%2E\.%2F\.\.%2Fp\.profile$' || { echo "FAIL host '../../p' has no profile of its own"; fail=1; }

# --- Outputs that are not regular files: written through, never replaced -------------------------
mkdir -p "$tmp/dev" && cd "$tmp/dev" || exit 1
mkfifo fifo
timeout 60 cat fifo >from_fifo &  # a reader that ends even if the writer never comes
reader=$!
"$RINGSIM" simulate "$J" --no-baseline --out fifo >/dev/null 2>"$tmp/err"
rc=$?
wait $reader
{ [ $rc -eq 0 ] && [ -p fifo ] && $PY -c 'import json,sys; json.load(open(sys.argv[1]))' from_fifo; } \
  || { echo "FAIL --out on a FIFO: exit $rc, $(stat -c %F fifo), $(wc -c <from_fifo) bytes read"; fail=1; }
expect_refused "--out on a FIFO nobody reads" "no process reads this FIFO" "$RINGSIM" simulate "$J" --no-baseline --out fifo
[ -p fifo ] || { echo "FAIL the FIFO nobody reads was replaced"; fail=1; }
echo old >target.json
ln -s target.json link.json
{ "$RINGSIM" simulate "$J" --no-baseline --out link.json 2>"$tmp/err" && [ -L link.json ] \
  && $PY -c 'import json,sys; json.load(open(sys.argv[1]))' target.json; } \
  || { echo "FAIL --out on a link: the link replaced or its file not written"; fail=1; }
ln -s missing.json dangling.json
expect_refused "--out on a link to nothing" "symbolic link to a missing file" "$RINGSIM" simulate "$J" --no-baseline --out dangling.json
if [ "$(id -u)" -eq 0 ] && mknod null c 1 3 2>/dev/null; then  # a null device of the test's own
  "$RINGSIM" simulate "$J" --no-baseline --out null --iterations-csv null2 >/dev/null 2>"$tmp/err" || true
  [ -c null ] || { echo "FAIL --out on a character device replaced it"; fail=1; }
  "$RINGSIM" simulate "$J" --no-baseline --cfg=tracing:yes --cfg=tracing/filename:null >/dev/null 2>"$tmp/err" \
    || { echo "FAIL tracing/filename on a character device: exit status"; cat "$tmp/err"; fail=1; }
  [ -c null ] || { echo "FAIL tracing/filename on a character device replaced it"; fail=1; }
  ls | grep -q 'null\.' && { echo "FAIL files beside the device: $(ls | grep 'null\.')"; fail=1; }
fi
# /dev/stdout, as a link of the test's own: written through, not replaced by a renamed temporary.
ln -s /proc/self/fd/1 stdout
out=$("$RINGSIM" simulate "$J" --no-baseline --out stdout 2>"$tmp/err" | cat)
$PY -c 'import json,sys; json.loads(sys.argv[1])' "$out" 2>/dev/null || { echo "FAIL --out /dev/stdout on a pipe"; fail=1; }
[ -L stdout ] || { echo "FAIL --out /dev/stdout replaced the link"; fail=1; }

# --- Two outputs of one command on one path -------------------------------------------------------
mkdir -p "$tmp/two" && cd "$tmp/two" || exit 1
expect_refused "--out and --iterations-csv on one file" "name one path" \
  "$RINGSIM" simulate "$J" --no-baseline --out F --iterations-csv ./F
expect_refused "one file spelt two ways" "name one path" \
  "$RINGSIM" simulate "$J" --no-baseline --out "$tmp/two/G" --iterations-csv ../two/G
expect_refused "--out inside --traces-dir" "is inside --traces-dir" \
  "$RINGSIM" simulate "$J" --no-baseline --out d/traces.csv --traces-dir d
expect_refused "--out in a missing folder, before the run" "No such file or directory" \
  "$RINGSIM" simulate "$J" --traces-dir td --out no/such/x.json
expect_refused "--iterations-csv on a folder" "it is a folder" "$RINGSIM" simulate "$J" --no-baseline --iterations-csv "$tmp"
expect_refused "--iterations-csv on the Paje trace" "name one path" \
  "$RINGSIM" simulate "$J" --no-baseline --iterations-csv t.trace --cfg=tracing:yes --cfg=tracing/filename:./t.trace
expect_refused "--out on SimGrid's default trace file" "name one path" \
  "$RINGSIM" simulate "$J" --no-baseline --out simgrid.trace --cfg=tracing:yes
expect_refused "platform tiers -o and --tiers-file on one file" "name one path" \
  "$RINGSIM" platform tiers 1 5 5 10 10 5 2 1 1 2 1 --seed 1 -o w.xml --tiers-file ./w.xml
[ -z "$(ls)" ] || { echo "FAIL refused outputs left files: $(ls)"; fail=1; }

# --- A Paje trace that cannot be written ----------------------------------------------------------
mkdir -p "$tmp/paje" && cd "$tmp/paje" || exit 1
platform '["h0", "h1", "h2"]' "$tmp/paje/h.xml" "$tmp/paje/h.json"
expect_refused "Paje trace in a missing folder" "No such file or directory" \
  "$RINGSIM" simulate "$tmp/paje/h.json" --cfg=tracing:yes --cfg=tracing/filename:no/such/t.trace
# /dev/full, as a device of the test's own where it can make one: a partial trace is not renamed
# over the device it was given.
full=/dev/full
[ "$(id -u)" -eq 0 ] && mknod "$tmp/paje/full" c 1 7 2>/dev/null && full="$tmp/paje/full"
expect_refused "kpbs-simulate's Paje trace in a missing folder" "No such file or directory" \
  "$RINGSIM" kpbs-simulate "$ROOT/docs/examples/kpbs-clusters.json" --cfg=tracing:yes --cfg=tracing/filename:no/such/t.trace
"$RINGSIM" simulate "$tmp/paje/h.json" --cfg=tracing:yes --cfg=tracing/filename:"$full" >"$tmp/out" 2>"$tmp/err"
refused_line "Paje trace on /dev/full" $? - "$tmp/err" "a write failed"
[ -c "$full" ] || { echo "FAIL the Paje trace replaced $full"; fail=1; }

# --- A trace set that cannot be written in full leaves none of it ---------------------------------
mkdir -p "$tmp/set/tr/h3.profile" && cd "$tmp/set" || exit 1
expect_refused "traces -o with a folder in the way" "not a regular file" "$RINGSIM" traces "$J" -o tr
[ "$(ls -A tr)" = h3.profile ] || { echo "FAIL a trace set that failed left: $(ls -A tr | head -3)"; fail=1; }

# A full file system (a small tmpfs, where the test may mount one): the Paje trace and the trace
# set fail with one line and leave nothing.
mkdir -p "$tmp/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
  trap 'umount "$tmp/full"; rm -rf "$tmp"' EXIT
  cd "$tmp/full" && head -c 61440 /dev/zero >filler 2>/dev/null
  "$RINGSIM" simulate "$tmp/paje/h.json" --cfg=tracing:yes --cfg=tracing/filename:t.trace >"$tmp/out" 2>"$tmp/err"
  refused_line "Paje trace on a full disk" $? "$tmp/out" "$tmp/err" "a write failed"
  head -c 4096 /dev/zero >>filler 2>/dev/null
  expect_refused "traces -o on a full disk" "No space left on device" "$RINGSIM" traces "$J" -o tr/sub
  [ "$(ls -A)" = filler ] || { echo "FAIL a full disk kept: $(ls -A | grep -v filler | head -3)"; fail=1; }
  cd "$tmp"
fi

# --- Answers to a full device: every command, --help and --version included -----------------------
cd "$tmp" || exit 1
for args in "--version" "--help" "simulate --help" "run --help" "traces --help" "bench --help" "redistribute --help" \
  "simulate --help-cfg" "simulate --help-models"; do
  # shellcheck disable=SC2086
  "$RINGSIM" $args >/dev/full 2>"$tmp/err"
  rc=$?
  { [ $rc -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; } || { echo "FAIL '$args' to /dev/full: exit $rc"; fail=1; }
done

# --- bench refuses bad input like the other commands ----------------------------------------------
expect_refused "bench ring --platform missing" "missing.xml" "$RINGSIM" bench ring --platform "$tmp/missing.xml" --max-hosts 0
printf '<platform version="4.1"><zone' >"$tmp/cut.xml"
"$RINGSIM" bench ring --platform "$tmp/cut.xml" --max-hosts 0 >"$tmp/out" 2>"$tmp/err"
refused_line "bench ring --platform cut" $? - "$tmp/err" "cut.xml"
grep -q "failed" "$tmp/out" && { echo "FAIL bench ring glued an error into its CSV"; fail=1; }
expect_refused "bench kpbs --algorithms unknown" "unknown algorithm 'nosuch'" "$RINGSIM" bench kpbs --algorithms ggp,nosuch --sizes 4

exit $fail
