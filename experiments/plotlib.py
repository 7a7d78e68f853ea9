"""What the studies' scripts share: the repository's folders, refusal (one line on stderr, exit 2),
matplotlib without a display, CSV reading, means, NAME=FILE arguments and atomic writes of tables
and figures.

A script in experiments/<study>/ imports it after putting this folder on its path, so that it runs
as `python3 experiments/<study>/script.py ...` from anywhere:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import plotlib
"""
import csv
import os
import sys
import tempfile

EXPERIMENTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(EXPERIMENTS)
FIGURES = os.path.join(ROOT, "docs", "figures")
MATPLOTLIB_HINT = "run it with /usr/bin/python3 (Debian: apt-get install python3-matplotlib)"


def prog():
    """The running script's name, as its messages start."""
    return os.path.basename(sys.argv[0])


def fail(message):
    """Bad input: one line naming the script, exit 2."""
    sys.stderr.write(f"{prog()}: {message}\n")
    sys.exit(2)


def pyplot():
    """matplotlib.pyplot drawing into files (no display), or a refusal saying what to install."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(f"matplotlib is missing; {MATPLOTLIB_HINT}")
    return plt


def read_rows(path):
    """Every row of a CSV file with a header, as dicts."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


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


def _replace_atomically(path, write, mode):
    """Writes through a temporary file beside `path`, then renames it: a reader never sees half a
    file, and a failed write leaves none."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
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


def save_figure(fig, path, dpi, **options):
    """The figure in the format its extension names (png, pdf, svg), written atomically."""
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    _replace_atomically(path, lambda f: fig.savefig(f, format=ext, dpi=dpi, **options), "wb")
