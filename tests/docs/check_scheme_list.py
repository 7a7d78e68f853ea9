#!/usr/bin/python3
"""docs/schemes.md's table of schemes against the policy registry (ctest docs_scheme_list).

  check_scheme_list.py RINGSIM REPO

The registry (`ringsim config-keys`, "values"."scheme": every scheme's syntax, in the registry's
order) and the first column of the manual's table (each backticked name of a row, a parenthesis
after it being an example) must list the same schemes in the same order: a scheme added to
schemes.def without its row, a row left for a removed scheme, or rows in another order fail. A
syntax with a parameter list compares up to its colon (`after:a,b,c` in the manual is the
registry's `after:a,b,..`).
"""
import json
import pathlib
import re
import subprocess
import sys


def key(syntax):
    return syntax.split(":", 1)[0] + ":" if ":" in syntax else syntax


def manual_schemes(path):
    rows, in_table = [], False
    for line in path.read_text().splitlines():
        if line.startswith("| scheme |"):
            in_table = True
            continue
        if in_table and line.startswith("|---"):
            continue
        if in_table and not line.startswith("|"):
            break
        if in_table:
            first = line.split("|")[1].split("(")[0]
            rows.extend(re.findall(r"`([^`]+)`", first))
    return rows


def main():
    if len(sys.argv) != 3:
        print("usage: check_scheme_list.py RINGSIM REPO", file=sys.stderr)
        return 2
    ringsim, repo = sys.argv[1], pathlib.Path(sys.argv[2])
    keys = json.loads(subprocess.run([ringsim, "config-keys"], check=True, capture_output=True, text=True).stdout)
    registry = [key(s) for s in keys["values"]["scheme"]]
    manual = [key(s) for s in manual_schemes(repo / "docs" / "schemes.md")]
    if not manual:
        print("FAIL docs/schemes.md: no table of schemes (a header row starting '| scheme |')")
        return 1
    missing = [s for s in registry if s not in manual]
    extra = [s for s in manual if s not in registry]
    for s in missing:
        print(f"FAIL docs/schemes.md: scheme '{s}' of the registry has no row")
    for s in extra:
        print(f"FAIL docs/schemes.md: row '{s}' names no scheme of the registry")
    if not missing and not extra and manual != registry:
        print("FAIL docs/schemes.md: the rows are not in the registry's order:\n  manual:   " + ", ".join(manual) +
              "\n  registry: " + ", ".join(registry))
        return 1
    if missing or extra:
        return 1
    print(f"docs/schemes.md lists the registry's {len(registry)} schemes in its order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
