#!/usr/bin/env bash
# Lists the functions of src/ longer than 100 lines (ctest code_function_length): a function that
# long holds several concerns, each of which deserves a name. universal-ctags finds each function
# definition and its last line; a function's length is end - line + 1.
#   tools/check-function-length.sh [REPO]      (default: the repository holding this script)
# Prints `FILE:LINE: FUNCTION is N lines (at most 100)` for each, and exits 1 if there is any;
# exits 77 (ctest's skip) when ctags is not installed (Debian package universal-ctags).
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
LIMIT=100
if ! command -v ctags >/dev/null; then
  echo "check-function-length: skipped: ctags is not installed (Debian package universal-ctags)" >&2
  exit 77
fi
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "check-function-length: $(command -v ctags) is not universal-ctags, which this check needs" \
       "(Debian package universal-ctags)" >&2
  exit 2
fi
tags=$(ctags -R --sort=no --fields=+ne --kinds-c++=f -o - src)
# One line per function: its file, first line, name and length (an entry without an end is skipped).
too_long=$(awk -F'\t' -v limit="$LIMIT" '
  {
    line = ""; end = ""
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^line:/) line = substr($i, 6)
      else if ($i ~ /^end:/) end = substr($i, 5)
    }
    if (line != "" && end != "" && end - line + 1 > limit)
      printf "%s:%d: %s is %d lines (at most %d)\n", $2, line, $1, end - line + 1, limit
  }' <<<"$tags" | sort -t: -k1,1 -k2,2n)
[ -z "$too_long" ] && exit 0
echo "$too_long"
echo "check-function-length: $(wc -l <<<"$too_long") function(s) of src/ over $LIMIT lines: split each into" \
     "functions whose names say what they compute" >&2
exit 1
