"""The one progress display of the command line: a tqdm bar on stderr.

Every long command (``score --jsonl``, ``logs score``, ``stats simulate``,
``stats enumerate``, ...) draws its progress through :func:`progress`, so that
they all look and behave alike:

* a bar only when stderr is a terminal: output redirected to a file or a pipe
  gets no bar and no control characters (a log stays readable and a run's
  stderr stays the same from run to run);
* a total, and so an ETA, whenever the command knows it (bytes of the input,
  lines of a file, games, hands);
* tqdm is optional (``pip install '.[cli]'``): without it a terminal gets
  one line saying how to have a bar, once per process, and the command runs
  the same.

When there is no bar, :func:`progress` returns a :class:`NoBar`: the same
methods (``update``, ``close``, ``set_postfix_str``, ``set_description``, a
context manager, iteration over the wrapped iterable) doing nothing, so that
callers never test which one they hold.
"""
from __future__ import annotations

import sys

__all__ = ["progress", "set_total", "NoBar", "HINT"]

#: printed once to a terminal's stderr when a bar would be drawn but tqdm does not import
HINT = "(no progress bar: tqdm is not installed; mjfast's extra 'cli' has it: pip install '.[cli]' in mjfast's source directory)"

_hinted = False


class NoBar:
    """What :func:`progress` returns when it draws nothing: counts like a bar
    (``n``), writes nothing."""

    def __init__(self, iterable=None, total=None):
        self.iterable = iterable
        self.total = total
        self.n = 0

    def __iter__(self):
        if self.iterable is None:
            raise TypeError("this progress bar wraps no iterable")
        for x in self.iterable:
            self.n += 1
            yield x

    def update(self, n=1):
        self.n += n

    def set_postfix_str(self, s="", refresh=True):
        pass

    def set_description(self, desc=None, refresh=True):
        pass

    def refresh(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"NoBar(n={self.n}, total={self.total})"


def _stderr_is_terminal() -> bool:
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):      # no stderr, or a closed one
        return False


def _scaled(unit, total) -> bool:
    # k/M/G for bytes and big counts; a few thousand lines or games read better exact
    return unit == "B" or total is None or total >= 100_000


def set_total(bar, total) -> None:
    """Give ``bar`` (of :func:`progress`) its total once it is known; the
    numbers are then shown as :func:`progress` would have shown them."""
    bar.total = total
    if not isinstance(bar, NoBar):
        bar.unit_scale = _scaled(getattr(bar, "unit", None), total)
        bar.refresh()


def progress(iterable=None, *, total=None, desc=None, unit=None, enabled=None):
    """A progress bar on stderr: a ``tqdm`` bar when stderr is a terminal and
    tqdm is installed, else a :class:`NoBar` (same methods, writes nothing).

    ``iterable``: wrapped as tqdm wraps it (its ``len`` is the total unless
    ``total`` is given).  ``total``: the count at the end (None: unknown, the
    bar then shows a count and a rate, no ETA).  ``desc``: the label.
    ``unit``: what is counted ("B" counts bytes, shown in KiB/MiB/GiB).
    ``enabled``: None (the default) draws on a terminal only; False never
    draws (``--no-progress``); True draws wherever stderr goes (for tests).
    """
    global _hinted
    if enabled is False or (enabled is None and not _stderr_is_terminal()):
        return NoBar(iterable, total)
    try:
        from tqdm import tqdm
    except ImportError:
        if not _hinted:
            _hinted = True
            try:
                print(HINT, file=sys.stderr, flush=True)
            except (AttributeError, ValueError, OSError):
                pass
        return NoBar(iterable, total)
    if total is None and iterable is not None and hasattr(iterable, "__len__"):
        total = len(iterable)
    kw = {"unit_scale": _scaled(unit, total)}
    if unit == "B":
        kw["unit_divisor"] = 1024
    if unit is not None:
        kw["unit"] = unit if unit == "B" else f" {unit}"
    # leave=False: the bar is erased at the end, the command's own report stays
    return tqdm(iterable, total=total, desc=desc, file=sys.stderr, dynamic_ncols=True, leave=False, **kw)
