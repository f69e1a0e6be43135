"""argparse value types shared by the command-line modules (mjfast/cli.py
and the subcommands' own cli modules), so each message is written once."""
from __future__ import annotations

import argparse


def _int_at_least(lo: int, what: str):
    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {value!r}") from None
        if n < lo:
            raise argparse.ArgumentTypeError(f"expected {what}, got {n}")
        return n
    return parse


#: an int >= 1 (counts of games, chunk sizes)
positive_int = _int_at_least(1, "a positive integer")
#: an int >= 0 (seeds)
nonnegative_int = _int_at_least(0, "an integer >= 0")
