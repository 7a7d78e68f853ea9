# Sourced by each tests/cli/run_*_tests.sh once RINGSIM is set: a scratch folder removed on exit,
# the failure flag the script's exit status reports, and the check every refusal shares.

fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# refused_line NAME RC OUT ERR FRAGMENT: bad input refused as ringsim's command-line contract says
# (docs/design.md): exit status 2, nothing on stdout (the file OUT; - when stdout went elsewhere), one
# line on stderr (the file ERR) that contains FRAGMENT (a fixed string), and no SimGrid abort
# shown to the user.
refused_line() {
  local name=$1 rc=$2 out=$3 err=$4 fragment=$5
  if [ "$rc" -ne 2 ]; then echo "FAIL $name: exit $rc, expected 2"; head -5 "$err"; fail=1; fi
  if [ "$out" != - ] && [ -s "$out" ]; then echo "FAIL $name: wrote to stdout"; fail=1; fi
  if [ "$(wc -l <"$err")" -ne 1 ]; then echo "FAIL $name: stderr is not one line:"; head -5 "$err"; fail=1; fi
  if ! grep -qF -- "$fragment" "$err"; then echo "FAIL $name: message lacks '$fragment':"; head -5 "$err"; fail=1; fi
  if grep -q "CRITICAL\|Backtrace" "$err"; then echo "FAIL $name: a SimGrid abort reached the user"; fail=1; fi
}

# expect_refused NAME FRAGMENT COMMAND...: runs COMMAND (stdin as the caller gives it) and checks
# its refusal as refused_line does.
expect_refused() {
  local name=$1 fragment=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  refused_line "$name" $? "$tmp/out" "$tmp/err" "$fragment"
}

# sanitizer_sizes: true in the sanitizer pass (RINGSIM_TEST_SIZES=sanitizer, set by tools/sanitize.sh),
# where a script may take smaller inputs that reach the same branches.
sanitizer_sizes() { [ "${RINGSIM_TEST_SIZES:-}" = sanitizer ]; }
