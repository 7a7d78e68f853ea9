#!/usr/bin/python3
"""The link check fails on each kind of broken citation, and only on those (ctest docs_links_fixture).

  test_check_links.py REPO

Runs tests/docs/check_links.py on the fixture tests/docs/broken_links/, a small repository whose
pages, comments and scripts cite missing files, headings and anchors on purpose beside citations
that resolve and text the check must pass over (URLs, /tmp paths, other projects' folders,
placeholders, patterns, string literals): the check must exit 1 and print exactly the FAIL lines of
tests/docs/broken_links/expected.txt.
"""
import pathlib
import subprocess
import sys

repo = pathlib.Path(sys.argv[1]).resolve()
fixture = repo / "tests" / "docs" / "broken_links"
run = subprocess.run([sys.executable, str(repo / "tests" / "docs" / "check_links.py"), str(fixture)],
                     capture_output=True, text=True)
found = [line for line in run.stdout.splitlines() if line.startswith("FAIL ")]
expected = (fixture / "expected.txt").read_text().splitlines()
failures = [f"missed: {line}" for line in expected if line not in found]
failures += [f"unexpected: {line}" for line in found if line not in expected]
if run.returncode != 1:
    failures.append(f"exit status {run.returncode}, not 1:\n{run.stderr}")
for f in failures:
    print("FAIL " + f)
print(f"{len(expected)} broken citations expected in the fixture, {len(found)} found; {len(failures)} differences")
sys.exit(1 if failures else 0)
