"""What every command of the command line shares: the user error and its
one-line report, output, display widths, and the --rules / --lang options."""
from __future__ import annotations

import argparse
import os
import sys
import unicodedata

from .args import RulesArgError, add_rules as _add_rules_option, rules_from_args

PROG = "mjfast"


class CliError(Exception):
    """A user error: reported as ``mjfast: error: <message>``, exit code 2."""


def width(text: str) -> int:
    """Display width (CJK characters take two columns)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def ljust(text: str, w: int) -> str:
    return text + " " * max(0, w - width(text))


def one_line(exc: BaseException) -> str:
    return " ".join((str(exc) or type(exc).__name__).split())


def echo(text: str = "", file=None) -> None:
    print(text, file=sys.stdout if file is None else file)


class LangAction(argparse.Action):
    """--lang that also records that it was given (for --jsonl's checks)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.lang_given = values


def add_rules(p) -> None:
    _add_rules_option(p)


def rules_arg(args, command=None, **limits):
    """The RuleSet of --rules / --rule-option, or None for plain MCR."""
    try:
        return rules_from_args(args, command or f"mjfast {args.command}", **limits)
    except RulesArgError as exc:
        raise CliError(str(exc)) from None


def add_lang(p) -> None:
    p.add_argument("--lang", choices=("en", "zh"), default="en", action=LangAction,
                   help="language of the first name column (default en)")
    p.set_defaults(lang_given=None)


def silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass
