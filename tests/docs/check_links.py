#!/usr/bin/python3
"""Relative links of the manual and the studies' notes resolve, and so do the paths and sections
that comments, scripts and pages cite (ctest docs_links).

  check_links.py REPO

Pages: README.md, docs/*.md, experiments/README.md, experiments/*/NOTES.md, bench/NOTES.md. Every
Markdown link or image `[text](target)` outside fenced code blocks whose target is not a URL must
name a file or folder of the repository (relative to the page), inside the repository; a
`page.md#anchor` (or `#anchor` alone) must be a heading of that page, slugged as GitHub does.
A moved or renamed file fails here, and so does one cited by a comment of the code, the tests,
the tools, the benchmarks or the build, or by a page's text (below); tests/docs/test_check_links.py
shows each kind of broken citation failing on the fixture tests/docs/broken_links/.
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
# Comments, scripts and the pages' prose cite the repository's files and the manual's sections too:
# in the comments of the code, tests, tools and benchmarks (C++ `//`, shell, Python, CMake and
# Makefile `#`) and in the text of the pages above, a path whose folder is the repository's
# (src/sim/x.cpp, docs/traces.md) must exist, and a section cited as `page.md, "Heading"` (or
# `page.md, section "Heading"`, or `page.md#anchor`) must be a heading of that page. Passed over:
# paths of other projects (SimGrid's src/xbt/...), which name folders ringsim does not have; URLs
# and absolute paths (/tmp/src/x), whose repository folder is not the first part; placeholders
# (src/policy/NAME.cpp, src/policy/my_policy.cpp) and patterns (tests/cli/run_*_tests.sh).
CODE = ["src/**/*.cpp", "src/**/*.hpp", "src/**/*.def", "tests/**/*.cpp", "tests/**/*.hpp", "tests/**/*.sh",
        "tests/**/*.py", "tools/*.sh", "tools/*.py", "bench/*.sh", "bench/*.py", "bench/*.cpp", "bench/*.hpp",
        "CMakeLists.txt", "cmake/*.cmake", "experiments/**/*.sh", "experiments/**/*.py", "experiments/**/Makefile"]
# The broken citations tests/docs/test_check_links.py expects this check to find.
FIXTURE = repo / "tests" / "docs" / "broken_links"
PATH = re.compile(r"(?<![\w./$-])((?:docs|bench|src|tests|tools|experiments|platforms|traces|cmake)/[\w.+/-]*\w)")
PATTERN_TAIL = re.compile(r"[\w.-]*[*<{$%]")
SECTION = re.compile(r"([\w./-]+\.md),? (?:section )?\"([^\"]+)\"")
ANCHOR = re.compile(r"(?<![\w./-])([\w./-]+\.md)#([\w-]+)")
cited = 0


def comment_of(line, suffix):
    marker = "//" if suffix in (".cpp", ".hpp", ".def") else "#"
    at = line.find(marker)
    return line[at:] if at >= 0 else ""


def heading_texts(page):
    """A page's headings, and the bold titles that open its paragraphs (**A title.** text)."""
    text = FENCE.sub("", page.read_text())
    return ([h.strip("` ") for h in re.findall(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", text, re.M)] +
            re.findall(r"^\*\*([^*]+?)\.?\*\*", text, re.M))


def placeholder(target):
    return any(part.stem.isupper() or part.name.startswith(("my_", "my-"))
               for part in map(pathlib.PurePath, pathlib.PurePath(target).parts))


def check_citations(text, where, bases):
    """The paths and sections cited in `text` (a comment, or a line of a page), found from `bases`."""
    global cited
    for m in PATH.finditer(text):
        target = m.group(1)
        if placeholder(target) or PATTERN_TAIL.match(text, m.end()):
            continue
        if not (repo / target).parent.is_dir():
            continue
        cited += 1
        if not any((base / target).exists() for base in bases):
            failures.append(f"{where}: cites {target}: no such file")
    for m in SECTION.finditer(text):
        page = next((base / m.group(1) for base in bases if (base / m.group(1)).is_file()), None)
        if page is None:
            continue  # the path check above names it
        cited += 1
        if not any(m.group(2) in h for h in heading_texts(page)):
            failures.append(f"{where}: cites {m.group(1)}, \"{m.group(2)}\": no such heading")
    for m in ANCHOR.finditer(text):
        page = next((base / m.group(1) for base in bases if (base / m.group(1)).is_file()), None)
        if page is None:
            continue
        cited += 1
        if m.group(2) not in anchors(page):
            failures.append(f"{where}: cites {m.group(1)}#{m.group(2)}: no such heading")


for pattern in CODE:
    for source in sorted(repo.glob(pattern)):
        if source == pathlib.Path(__file__).resolve() or FIXTURE in source.parents:
            continue  # its own comments hold examples; the fixture's citations are broken on purpose
        for number, line in enumerate(source.read_text(errors="replace").split("\n"), 1):
            check_citations(comment_of(line, source.suffix), f"{source.relative_to(repo)}:{number}", [repo])
for page in pages:
    if page.exists():
        for number, line in enumerate(page.read_text().split("\n"), 1):
            # A Markdown link's target is checked above, relative to the page: blanked here.
            line = LINK.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + " " * len(m.group(1)) +
                            m.group(0)[m.end(1) - m.start():], line)
            check_citations(line, f"{page.relative_to(repo)}:{number}", [repo, page.parent])
for f in failures:
    print("FAIL " + f)
print(f"{checked} relative links checked in {len(pages)} pages, {cited} citations in comments and pages; "
      f"{len(failures)} broken")
sys.exit(1 if failures else 0)
