#!/usr/bin/python3
"""Each name of src/ means one thing: no two folders of src/ hold a file of the same name
(ctest source_names).

  check_source_names.py REPO

A name is a file's name without its extension, so that a header and its source share one name in
one folder (src/sim/run_state.hpp and .cpp) and no other folder has it: `#include`s, comments that
cite a file by its name alone, and the build's messages then name one file each. A scheme's file
in src/policy/ takes the scheme's name (src/policy/schemes.def), and the planners' files name the
algorithm or planning step they hold.
"""
import collections
import pathlib
import sys

repo = pathlib.Path(sys.argv[1]).resolve()
folders = collections.defaultdict(set)
for source in sorted((repo / "src").rglob("*")):
    if source.is_file():
        folders[source.name.split(".")[0]].add(source.parent.relative_to(repo).as_posix())
shared = {name: sorted(where) for name, where in folders.items() if len(where) > 1}
for name, where in sorted(shared.items()):
    print(f"FAIL '{name}' names files in {len(where)} folders: " + ", ".join(f"{w}/{name}.*" for w in where))
print(f"{len(folders)} names in src/; {len(shared)} shared by two folders or more")
sys.exit(1 if shared else 0)
