#!/usr/bin/python3
"""Runs every example of the user manual and checks its output (ctest docs_examples).

  run_doc_examples.py RINGSIM REPO [PAGE.md ...]     (default: README.md and docs/*.md)

Each page runs in a fresh copy of docs/examples/ with RINGSIM's folder first on PATH, so its
examples read as a user types them there; the studies' scripts are copied beside it as in the
repository (../../experiments/<study>/<script>.py, without their committed results), and the traces
kept in the repository likewise (../../traces/planetlab/...). What a page
may hold, by fenced block:

```console        commands and their expected output. A line "$ CMD" is run with bash (a line
                  ending in "\\" continues on the next "> " line); the lines up to the next "$ " are
                  its expected output (stdout and stderr together). Matching: a line "..." stands
                  for any number of lines, "..." inside a line for any text; a last line "[exit N]"
                  expects exit status N (otherwise 0). Files a command writes stay for the next ones.
```json TAG       TAG says what it is, and the block is checked as that:
                  run-config [FILE]   validated by docs/schema/run-config.schema.json (check_schema.py)
                                      and run: `ringsim simulate FILE --no-baseline`; written as FILE
                                      (default: a name of its own) for the page's later commands;
                                      a FILE of docs/examples/ must hold the same JSON
                  experiment [FILE]   the same with experiment.schema.json and `ringsim run FILE --list`
                  redistribute / kpbs / kpbs-simulate [FILE]   input of those commands, run
                  output              an answer shown: must parse as JSON, not run
                  A ```json block without a TAG fails.
```sh, ```bash   must not run ringsim (make it a console block); they hold what is not ringsim
                  (tools/test.sh, apt-get), and are not run.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ringsim, repo = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
pages = [pathlib.Path(p).resolve() for p in sys.argv[3:]] or [repo / "README.md"] + sorted(
    (repo / "docs").glob("*.md"))
env = dict(os.environ, PATH=f"{ringsim.parent}:/usr/bin:/bin", LC_ALL="C.UTF-8")
env.pop("PYTHONPATH", None)
failures = 0
checked = 0
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
RINGSIM_COMMAND = re.compile(r"(^|[|;&(]\s*|\$\(\s*)(\S*/)?ringsim(\s|$)", re.M)


def fail(where, message):
    global failures
    failures += 1
    print(f"FAIL {where}: {message}")


def line_matches(expected, actual):
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def lines_match(expected, actual):
    """Expected lines against actual ones; a line '...' matches any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(lines_match(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and lines_match(expected[1:], actual[1:])


def run(command, cwd, timeout=300):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, (p.stdout + p.stderr).rstrip("\n").split("\n") if (p.stdout + p.stderr).strip() else []


def console(block, where, cwd):
    global checked
    commands = []  # (command, expected lines)
    lines = block.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            fail(where, f"output before any command: {lines[i]!r}")
            return
        cmd = lines[i][2:]
        while cmd.endswith("\\") and i + 1 < len(lines) and lines[i + 1].startswith("> "):
            i += 1
            cmd = cmd[:-1] + " " + lines[i][2:]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        commands.append((cmd, expected))
    for cmd, expected in commands:
        status = 0
        if expected and re.fullmatch(r"\[exit \d+\]", expected[-1]):
            status = int(expected[-1][6:-1])
            expected = expected[:-1]
        checked += 1
        try:
            rc, actual = run(cmd, cwd)
        except subprocess.TimeoutExpired:
            fail(where, f"$ {cmd}: timed out")
            continue
        if rc != status or not lines_match(expected, actual):
            fail(where, f"$ {cmd}\n  exit {rc} (expected {status}); output:\n    " + "\n    ".join(actual[:40]) +
                 "\n  expected:\n    " + "\n    ".join(expected))


def json_block(tag_words, block, where, cwd, counter):
    global checked
    tag = tag_words[0] if tag_words else ""
    try:
        json.loads(block)
    except ValueError as e:
        fail(where, f"not JSON: {e}")
        return
    if tag == "output":
        checked += 1
        return
    commands = {"run-config": "ringsim simulate {} --no-baseline >/dev/null",
                "experiment": "ringsim run {} --list --out list-check >/dev/null",
                "redistribute": "ringsim redistribute {} >/dev/null",
                "kpbs": "ringsim kpbs {} >/dev/null",
                "kpbs-simulate": "ringsim kpbs-simulate {} --no-all-at-once >/dev/null"}
    if tag not in commands:
        fail(where, f"```json block tagged {tag!r}: tag it run-config, experiment, redistribute, kpbs, kpbs-simulate or output")
        return
    name = tag_words[1] if len(tag_words) > 1 else f"example-{counter}.json"
    shipped = repo / "docs" / "examples" / name
    if shipped.exists() and json.loads(shipped.read_text()) != json.loads(block):
        fail(where, f"differs from docs/examples/{name}: the page shows that file, keep them the same")
    (cwd / name).write_text(block)
    checked += 1
    rc, out = run(commands[tag].format(name), cwd)
    if rc != 0:
        fail(where, f"ringsim refuses this {tag} (exit {rc}): " + " / ".join(out[:5]))


for page in pages:
    text = page.read_text()
    rel = page.relative_to(repo)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = pathlib.Path(tmp) / "docs" / "examples"
        shutil.copytree(repo / "docs" / "examples", cwd)
        shutil.copytree(repo / "experiments", pathlib.Path(tmp) / "experiments",
                        ignore=shutil.ignore_patterns("results", "__pycache__"))
        shutil.copytree(repo / "traces", pathlib.Path(tmp) / "traces")
        for n, m in enumerate(FENCE.finditer(text)):
            info, block = m.group(1).split(), m.group(2)
            where = f"{rel}:{text[:m.start()].count(chr(10)) + 1}"
            lang = info[0] if info else ""
            if lang == "console":
                console(block, where, cwd)
            elif lang == "json":
                json_block(info[1:], block, where, cwd, n)
            elif lang in ("sh", "bash", "shell") and RINGSIM_COMMAND.search(block):
                fail(where, f"a ```{lang} block runs ringsim: make it a ```console block with its output")
print(f"{checked} examples checked in {len(pages)} pages; {failures} failed")
sys.exit(1 if failures else 0)
