#!/usr/bin/env python3
"""Checks that the sanitizer pass's smaller property cases reach what the Release pass's reach.

A case that draws its random instances through testing::trials (tests/trial_count.hpp) draws a
part of them under the sanitizers. This builds the unit tests with line and branch coverage
(build-coverage/, optimized as the Release build: counters are placed before optimization, so what
they count is the source's) and compares the lines of src/ executed and the branches of src/ taken
at both sizes: for each such case alone (one line each, with what its smaller size misses), then
for the whole unit suite. Exit 1 if the whole suite at the sanitizer sizes misses a line or branch
that it reaches at the Release sizes.

    tools/sanitizer-coverage.py [BUILD_DIR]          (default: build-coverage)
"""
import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build-coverage").resolve()


def cases_drawing_trials():
    """Names of the test cases whose body calls testing::trials."""
    names = []
    for source in sorted((ROOT / "tests").glob("test_*.cpp")):
        text = source.read_text()
        # A name may be written as adjacent string literals.
        starts = [(m.start(), "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
                  for m in re.finditer(r'TEST_CASE\(((?:\s*"(?:[^"\\]|\\.)*")+)', text)]
        for call in re.finditer(r"testing::trials\(", text):
            before = [name for start, name in starts if start < call.start()]
            if before and before[-1] not in names:
                names.append(before[-1])
    return names


def build():
    subprocess.run(["cmake", "-S", ROOT, "-B", BUILD, "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_FLAGS=--coverage",
                    "-DCMAKE_EXE_LINKER_FLAGS=--coverage"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", BUILD, "-j", str(os.cpu_count() or 2), "--target", "unit_tests"],
                   check=True, stdout=subprocess.DEVNULL)


def reset():
    for gcda in BUILD.rglob("*.gcda"):
        gcda.unlink()


def reached():
    """(file, line) executed and (file, line, branch) taken in src/, from the .gcda files."""
    lines, branches = set(), set()
    for gcda in BUILD.rglob("*.gcda"):
        out = subprocess.run(["gcov", "--json-format", "--stdout", "--branch-probabilities", gcda.name],
                             cwd=gcda.parent, capture_output=True, check=True).stdout
        for doc in out.splitlines():
            if not doc.strip():
                continue
            for f in json.loads(doc)["files"]:
                path = pathlib.Path(f["file"])
                if not path.is_absolute():
                    path = (gcda.parent / path).resolve()
                if ROOT / "src" not in path.parents:
                    continue
                rel = str(path.relative_to(ROOT))
                for line in f["lines"]:
                    if line["count"] > 0:
                        lines.add((rel, line["line_number"]))
                    for k, b in enumerate(line.get("branches", [])):
                        if b["count"] > 0:
                            branches.add((rel, line["line_number"], k))
    return lines, branches


def run(case, sizes):
    """What the case (every case if None) reaches at these sizes."""
    reset()
    env = dict(os.environ, RINGSIM_TEST_SIZES=sizes)
    # doctest splits a filter at commas: '?' (any one character) stands for each.
    selection = [] if case is None else ["--test-case=" + case.replace(",", "?")]
    subprocess.run([BUILD / "unit_tests", *selection], env=env, check=True, stdout=subprocess.DEVNULL)
    return reached()


def main():
    cases = cases_drawing_trials()
    if not cases:
        print("sanitizer-coverage: no test case draws through testing::trials", file=sys.stderr)
        return 2
    build()
    for case in cases:
        compare(case[:90], run(case, "release"), run(case, "sanitizer"))
    lost = compare("the whole unit suite", run(None, "release"), run(None, "sanitizer"))
    reset()
    return 1 if lost else 0


def compare(what, full, small):
    """Prints what `small` misses of `full`; returns how many lines and branches."""
    lost = [sorted(full[k] - small[k]) for k in (0, 1)]
    print(f"{'same' if not lost[0] and not lost[1] else 'fewer'}: {what}: {len(small[0])} of {len(full[0])} "
          f"lines, {len(small[1])} of {len(full[1])} branches of src/", flush=True)
    for file, line in lost[0]:
        print(f"    line {file}:{line}")
    for file, line, k in lost[1]:
        print(f"    branch {k} of {file}:{line}")
    return len(lost[0]) + len(lost[1])

if __name__ == "__main__":
    sys.exit(main())
