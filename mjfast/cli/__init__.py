"""The ``mjfast`` command line: ``main`` and its parser; one module per
command group (``score``, ``rules``: fans and rules, ``analysis``: shanten
and waits, ``stats``, ``logs``, ``match``), ``common`` and ``args`` for what
they share.

    mjfast score "[567m2][EEE1]45m678pFF6m" --self-drawn --seat S
    mjfast score --jsonl hands.jsonl results.jsonl
    mjfast fans [KEY]
    mjfast shanten "123m456p789sEE12s"
    mjfast waits "123m456p789sEE12s"

Exit codes: 0 success (also when the reader of the output goes away, as
with ``| head``: the output stops quietly, without a traceback); 1 some
records of a ``--jsonl`` run could not be scored (each has an error line in
the output); 2 bad input or usage (a one-line ``mjfast: error: ...`` on
stderr); 130 interrupted.
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from .._version import __version__
# one module per command group, each registering its commands' parsers; the
# commands import what they run when they run (stats, logs, match), so that
# the parser loads only what scoring loads (tests/test_imports.py)
from . import analysis, logs, match, rules, score, stats
from .common import PROG, CliError, echo, silence_stdout

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Fast Chinese Official Mahjong (MCR, 国标麻将) scoring.",
        epilog="Hands: melds first in brackets, the last tile is the winning tile, "
               "e.g. \"[567m2][EEE1]45m678pFF6m\". Seats relative to the player are numbered "
               "like the meld digits: 1 = left (上家, plays just before), 2 = opposite (对家), "
               "3 = right (下家). Exit codes: 0 ok (also when the reader of the output goes away, "
               "e.g. `| head`: the output stops quietly), 1 some --jsonl records failed, "
               "2 bad input, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # (in the order of `mjfast --help`)
    score.register(sub)          # mjfast score
    rules.register_fans(sub)     # mjfast fans
    analysis.register(sub)       # mjfast shanten, mjfast waits
    rules.register_rules(sub)    # mjfast rules
    stats.register(sub)          # mjfast stats ...
    logs.add_parser(sub)         # mjfast logs score|export
    match.register(sub)          # mjfast match
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code (``mjfast`` exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except CliError as exc:
        echo(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        echo(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): not a failure, stop quietly
        # (exit 0, as documented in --help).  stdout is pointed at /dev/null so
        # that the interpreter's final flush does not report the closed pipe.
        silence_stdout()
        return 0
