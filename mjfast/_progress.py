"""The commands' progress display: a tqdm bar on stderr when stderr is a
terminal and tqdm is installed, nothing otherwise.

A bar in a file or a pipe would be noise in what a program reads, so a bar
is shown on a terminal only.  On a terminal without tqdm, one line says how
to get one (tqdm is optional: the ``cli`` extra brings it).
"""
from __future__ import annotations

import sys

__all__ = ["progress"]

_HINT = "mjfast: no progress bar: tqdm is not installed (pip install 'mjfast[cli]')"


class _Quiet:
    """What :func:`progress` returns without a bar: the calls a command makes
    on a tqdm bar, doing nothing (``write`` prints the line on stderr)."""

    def __init__(self, iterable=None):
        self.iterable = iterable
        self.n = 0

    def __iter__(self):
        return iter(self.iterable if self.iterable is not None else ())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def update(self, n=1):
        self.n += n

    def set_postfix_str(self, s="", refresh=True):
        pass

    def set_postfix(self, *args, **kwargs):
        pass

    def close(self):
        pass

    @staticmethod
    def write(s, file=None, end="\n"):
        print(s, file=file if file is not None else sys.stderr, end=end, flush=True)


def _isatty(f):
    try:
        return bool(f.isatty())
    except (AttributeError, ValueError):        # no isatty, or a closed stream
        return False


def progress(iterable=None, *, total=None, desc=None, unit=None, enabled=None):
    """A tqdm bar on stderr over ``iterable`` (or updated by hand), with
    ``total`` for its ETA; a do-nothing object with the same calls when
    ``enabled`` is False, when stderr is not a terminal (``enabled=None``
    decides by the terminal alone) or when tqdm is not installed (then one
    hint line on stderr)."""
    if enabled is False or not _isatty(sys.stderr):
        return _Quiet(iterable)
    try:
        from tqdm import tqdm
    except ImportError:
        print(_HINT, file=sys.stderr, flush=True)
        return _Quiet(iterable)
    kw = {"unit": unit} if unit else {}
    return tqdm(iterable, total=total, desc=desc, file=sys.stderr, dynamic_ncols=True, leave=False, **kw)
