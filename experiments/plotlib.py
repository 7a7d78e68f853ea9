"""What the studies' scripts share: the repository's folders, refusal (one line on stderr, exit 2),
matplotlib without a display, CSV reading that refuses what it cannot use, runs.csv rows joined
without mixing sweeps, NAME=FILE arguments, atomic writes of tables and figures, and `--describe`:
a JSON account of every figure drawn (its panels, their titles and the lines in each).

A script in experiments/<study>/ imports it after putting this folder on its path, so that it runs
as `python3 experiments/<study>/script.py ...` from anywhere:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import plotlib
"""
import argparse
import csv
import json
import math
import os
import sys
import tempfile

EXPERIMENTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(EXPERIMENTS)
MATPLOTLIB_HINT = "run it with /usr/bin/python3 (Debian: apt-get install python3-matplotlib)"


def prog():
    """The running script's name, as its messages start."""
    return os.path.basename(sys.argv[0])


def fail(message):
    """Bad input: one line naming the script, exit 2."""
    sys.stderr.write(f"{prog()}: {' '.join(str(message).split())}\n")
    sys.exit(2)


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose refusals follow the scripts' contract: one line on stderr, exit 2 (argparse
    itself prints the usage first, on several lines)."""

    def error(self, message):
        fail(f"{message} (--help for the usage)")


def add_describe_option(parser):
    parser.add_argument("--describe", metavar="FILE",
                        help="also write FILE: JSON naming every figure drawn, its panels (title, axis "
                             "labels) and each panel's labelled lines and points (x, y)")


def pyplot():
    """matplotlib.pyplot drawing into files (no display), or a refusal saying what to install."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(f"matplotlib is missing; {MATPLOTLIB_HINT}")
    return plt


# ---------------------------------------------------------------------------------------------
# Reading: every problem is one line naming the file (and the line), never a traceback

def read_text(path, what):
    try:
        with open(path, newline="") as f:
            text = f.read()
    except FileNotFoundError:
        fail(f"{what} '{path}' does not exist")
    except IsADirectoryError:
        fail(f"{what} '{path}' is a directory, not a file")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {what} '{path}': {getattr(e, 'strerror', None) or e}")
    if not text.strip():
        fail(f"{what} '{path}' is empty")
    return text


def read_table(path, what, required):
    """The rows of a CSV file with a header, as dicts (each with its line number as '_line'),
    refused when the file is missing or empty, lacks a required column, has a row of another width
    or has no row at all."""
    reader = csv.DictReader(read_text(path, what).splitlines())
    header = [h.strip() for h in (reader.fieldnames or [])]
    missing = [c for c in required if c not in header]
    if missing:
        fail(f"{what} '{path}' lacks column(s) {', '.join(missing)} "
             f"(header: {','.join(header)}; expected {','.join(required)})")
    reader.fieldnames = header
    rows = []
    for line_no, row in enumerate(reader, start=2):
        if None in row or any(row.get(c) is None for c in header):
            fail(f"{what} '{path}':{line_no}: expected {len(header)} fields")
        row["_line"] = line_no
        rows.append(row)
    if not rows:
        fail(f"{what} '{path}' has a header but no rows")
    return rows


def read_rows(path):
    """Every row of a CSV file with a header, as dicts (no checks: for the scripts that do their own)."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(row, key, path, what, integer=False):
    """A finite number from a row's column, or a refusal naming the file, the line and the column."""
    text = row[key].strip()
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        fail(f"{what} '{path}':{row['_line']}: column {key}: '{text}' is not {'an integer' if integer else 'a number'}")
    if not integer and not math.isfinite(value):
        fail(f"{what} '{path}':{row['_line']}: column {key}: '{text}' is not finite")
    return value


def same_everywhere(rows, column, path, what, consequence):
    """The one value a column holds in every row; several values are refused: `consequence` says
    what mixing them would do (e.g. average two network models into one line)."""
    values = sorted({show(r[column]).strip() for r in rows})
    if len(values) > 1:
        fail(f"{what} '{path}' mixes {column} {words(values)}: {consequence}")
    return values[0]


def no_duplicates(rows, key, path, what, name):
    """Refuses two rows with the same coordinates (`key(row)`): they would be drawn as one point."""
    seen = {}
    for r in rows:
        k = key(r)
        if k in seen:
            fail(f"{what} '{path}':{r['_line']}: {name(k)} again (first at line {seen[k]}): "
                 f"rows of two runs mixed?")
        seen[k] = r["_line"]


# ---------------------------------------------------------------------------------------------
# runs.csv (`ringsim run`): one row per run

RUN_KEY = ("ring_size", "ratio", "scheme", "algorithm", "seed", "repetition")


def read_runs(path, required=()):
    """A sweep's runs.csv: rows with ring_size, ratio, seed and repetition parsed, refused when a
    needed column is missing, a value is not a number, a run appears twice or the runs of several
    network models would be averaged together."""
    what = "runs CSV"
    rows = read_table(path, what, list(RUN_KEY) + ["normalized_time"] + [c for c in required if c not in RUN_KEY])
    for r in rows:
        r["ring_size"] = number(r, "ring_size", path, what, integer=True)
        r["ratio"] = number(r, "ratio", path, what)
        r["seed"] = number(r, "seed", path, what, integer=True)
        r["repetition"] = number(r, "repetition", path, what, integer=True)
        r["scheme"], r["algorithm"] = r["scheme"].strip(), r["algorithm"].strip()
        r["_file"] = path
    if "network_model" in rows[0]:
        same_everywhere(rows, "network_model", path, what, "their runs would be averaged together; "
                        "plot each model's runs.csv on its own")
    return rows


def run_key(row):
    return tuple(row[c] for c in RUN_KEY)


def run_name(row):
    return (f"ring {row['ring_size']}, ratio {row['ratio']:g}, scheme {row['scheme']}, algorithm "
            f"{row['algorithm']}, seed {row['seed']}, repetition {row['repetition']}")


def join_runs(paths, required=()):
    """The runs of several runs.csv files as one sweep. A run found in two files with the same
    values is the same run (a policy swept on its own brings the `none` runs again) and counts
    once; found with other values, it comes from another sweep, and the join is refused."""
    kept = {}
    for path in paths:
        for r in read_runs(path, required):
            k = run_key(r)
            if k not in kept:
                kept[k] = r
                continue
            first = kept[k]
            same = all(first.get(c) == r.get(c) for c in set(first) | set(r) if not c.startswith("_"))
            if not same or first["_file"] == path:
                fail(f"runs CSV '{path}':{r['_line']}: the run {run_name(r)} is already at "
                     f"'{first['_file']}':{first['_line']}" + ("" if same else " with other results") +
                     ": runs of two sweeps would be averaged together")
    rows = list(kept.values())
    models = sorted({r.get("network_model", "").strip() for r in rows} - {""})
    if len(models) > 1:
        fail(f"runs CSV files {' + '.join(paths)} mix network models {words(models)}: their runs would be "
             f"averaged together")
    return rows


# ---------------------------------------------------------------------------------------------
# What the user asks for, against what the data holds

def parse_list(text, option, parse):
    """A comma-separated option value, each item parsed, or a refusal naming the option."""
    items = [t.strip() for t in text.split(",")]
    try:
        values = [parse(t) for t in items if t]
    except ValueError:
        fail(f"{option} '{text}': expected comma-separated {'integers' if parse is int else 'values'}")
    if not values:
        fail(f"{option} is empty")
    return values


def choose(requested, present, option, noun, source):
    """The values to draw: those requested (each must be in the data) or, by default, all present."""
    if requested is None:
        return sorted(present, key=sort_key)
    absent = [v for v in requested if v not in present]
    if absent:
        fail(f"{option}: {noun} {words([show(v) for v in absent])} not in {source} "
             f"(it holds {words([show(v) for v in sorted(present, key=sort_key)])})")
    return list(dict.fromkeys(requested))


def sort_key(v):
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


def show(v):
    return f"{v:g}" if isinstance(v, float) else str(v)


def words(items):
    """'6', '6 and 16', '4, 8 and 16': a list as a title says it."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def mean(values):
    return sum(values) / len(values)


def name_value_pairs(args, usage):
    """NAME=VALUE arguments in order; anything else is refused with the usage line."""
    out = []
    for a in args:
        name, sep, value = a.partition("=")
        if not sep or not name or not value:
            fail(usage(a) if callable(usage) else usage)
        out.append((name, value))
    return out


def read_json_if_present(path):
    """A results folder's summary.json (the sweep's parameters), or None when there is none."""
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            value = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"summary '{path}' is not readable JSON ({e})")
    if not isinstance(value, dict):
        fail(f"summary '{path}' is not a JSON object")
    return value


# ---------------------------------------------------------------------------------------------
# Panels

def panel_grid(plt, count, width, height, columns=3, **options):
    """A figure with `count` panels, at most `columns` a row; the unused cells are hidden."""
    cols = min(count, columns)
    rows = (count + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False, **options)
    cells = [ax for row in axes for ax in row]
    for ax in cells[count:]:
        ax.set_visible(False)
    return fig, cells[:count]


def legend_of_all(axes, target, **options):
    """One legend on `target` naming the lines of every panel: a line may be in some panels only."""
    handles = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    target.legend(list(handles.values()), list(handles), **options)


def output_folder(path, option="--out"):
    """The folder figures go to, made if missing (a refusal if it cannot be)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        fail(f"{option} '{path}': cannot make the folder ({e.strerror or e})")
    return path


# ---------------------------------------------------------------------------------------------
# Writing

def _replace_atomically(path, write, mode):
    """Writes through a temporary file beside `path`, then renames it: a reader never sees half a
    file, and a failed write leaves none."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    except OSError as e:
        fail(f"cannot write {path}: {e.strerror or e}")
    try:
        with os.fdopen(fd, mode) as f:
            write(f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            fail(f"cannot write {path}: {e.strerror or e}")
        raise


def write_atomically(path, text):
    _replace_atomically(path, lambda f: f.write(text), "w")


_drawn = []  # what save_figure wrote in this process, for --describe


def save_figure(fig, path, dpi, **options):
    """The figure in the format its extension names (png, pdf, svg), written atomically."""
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    _replace_atomically(path, lambda f: fig.savefig(f, format=ext, dpi=dpi, **options), "wb")
    _drawn.append(describe_figure(fig, path))


def write_description(path):
    """--describe FILE: the figures this process saved, read back from matplotlib's own objects so
    that it says what was drawn, not what the script meant to draw."""
    if path:
        write_atomically(path, json.dumps({"figures": _drawn}, indent=1) + "\n")


def describe_figure(fig, path):
    suptitle = getattr(fig, "_suptitle", None)
    return {"file": path, "title": suptitle.get_text() if suptitle is not None else "",
            "panels": [describe_panel(ax) for ax in fig.axes if ax.get_visible()]}


def describe_panel(ax):
    title = ax.get_title("center") or ax.get_title("left") or ax.get_title("right")
    series = []
    for line in ax.get_lines():
        if not line.get_label().startswith("_"):  # unlabelled: reference lines, repeated styles
            series.append(_series(line.get_label(), "line", line.get_xdata(), line.get_ydata()))
    for coll in ax.collections:
        if not coll.get_label().startswith("_") and len(coll.get_offsets()):
            offsets = coll.get_offsets()
            series.append(_series(coll.get_label(), "points", offsets[:, 0], offsets[:, 1]))
    return {"title": title, "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(), "series": series}


def _series(label, kind, xs, ys):
    def plain(v):
        v = float(v)
        return v if math.isfinite(v) else None
    return {"label": label, "kind": kind, "x": [plain(v) for v in xs], "y": [plain(v) for v in ys]}
