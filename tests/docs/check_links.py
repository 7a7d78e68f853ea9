#!/usr/bin/python3
"""Relative links of the manual and the studies' notes resolve (ctest docs_links).

  check_links.py REPO

Pages: README.md, docs/*.md, experiments/README.md, experiments/*/NOTES.md, bench/NOTES.md. Every
Markdown link or image `[text](target)` outside fenced code blocks whose target is not a URL must
name a file or folder of the repository (relative to the page), inside the repository; a
`page.md#anchor` (or `#anchor` alone) must be a heading of that page, slugged as GitHub does.
A moved or renamed file fails here.
"""
import pathlib
import re
import sys

repo = pathlib.Path(sys.argv[1]).resolve()
pages = ([repo / "README.md"] + sorted((repo / "docs").glob("*.md")) + [repo / "experiments" / "README.md"] +
         sorted((repo / "experiments").glob("*/NOTES.md")) + [repo / "bench" / "NOTES.md"])
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
failures, checked = [], 0


def slug(heading):
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page):
    text = FENCE.sub("", page.read_text())
    seen, out = {}, set()
    for h in re.findall(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", text, re.M):
        s = slug(h)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


for page in pages:
    if not page.exists():
        failures.append(f"{page.relative_to(repo)}: the page itself is missing")
        continue
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), page.read_text())
    text = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), text)  # inline code is not a link
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        checked += 1
        where = f"{page.relative_to(repo)}:{text[:m.start()].count(chr(10)) + 1}"
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if repo not in dest.parents and dest != repo:
            failures.append(f"{where}: {target} points outside the repository")
        elif not dest.exists():
            failures.append(f"{where}: {target}: no such file ({dest.relative_to(repo)})")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            failures.append(f"{where}: {target}: no heading '#{anchor}' in {dest.relative_to(repo)}")
for f in failures:
    print("FAIL " + f)
print(f"{checked} relative links checked in {len(pages)} pages; {len(failures)} broken")
sys.exit(1 if failures else 0)
