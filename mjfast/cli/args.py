"""argparse value types shared by the command-line modules (mjfast/cli.py
and the subcommands' own cli modules), so each message is written once."""
from __future__ import annotations

import argparse
import math
from ..rules import available, get
from ..rules.base import DEFAULT


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


def positive_seconds(value: str) -> float:
    """A duration in seconds: a finite number > 0 (``nan``, ``inf``, 0 and
    negative numbers are refused)."""
    try:
        v = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds > 0, got {value!r}")
    return v


# -- --rules NAME / --rule-option KEY=VALUE, on every command ---------------------


class RulesArgError(ValueError):
    """--rules / --rule-option that the command cannot honour (each command's
    own error handling reports it as ``mjfast: error: ...``, exit code 2)."""


def add_rules(p, supported=None, why: str = "") -> None:
    """Add ``--rules NAME`` and ``--rule-option KEY=VALUE`` to parser ``p``.

    ``supported``: the rule sets the command honours (None = every one);
    ``why`` says in a few words why the others are refused (for --help)."""

    names = available()
    if supported is None:
        what = f"rule set: {', '.join(names)} (default mcr; `mjfast rules` describes them)"
    else:
        what = f"rule set (default mcr); this command supports {', '.join(supported)} only"
        if why:
            what += f": {why}"
    p.add_argument("--rules", choices=names, default=None, metavar="NAME", help=what)
    p.add_argument("--rule-option", action="append", default=[], metavar="KEY=VALUE",
                   help="set an option of the rule set (repeatable), e.g. min_points=0"
                        + ("" if supported is None or len(supported) > 1 or supported[0] != DEFAULT
                           else "; only the defaults are supported here"))


def rules_from_args(args, command: str, supported=None, options: bool = True, why: str = ""):
    """The :class:`~mjfast.rules.RuleSet` of ``--rules`` / ``--rule-option``
    (None when neither is given: plain MCR).

    ``supported``: the rule-set names the command honours (None = all);
    ``options=False``: only the rule set's default options.  Anything else
    raises :class:`RulesArgError` naming the command and the rule set, with
    ``why`` as the reason: a command never ignores a rule set silently."""

    name = getattr(args, "rules", None)
    opts = getattr(args, "rule_option", None) or []
    if name is None and not opts:
        return None
    try:
        rs = get(name).with_option_text(opts)
    except ValueError as exc:      # InvalidArgument: unknown option, bad value
        raise RulesArgError(" ".join(str(exc).split())) from None
    reason = f" ({why})" if why else ""
    if supported is not None and rs.name not in supported:
        raise RulesArgError(f"{command} does not support rule set {rs.name!r}{reason}; "
                            f"it supports {', '.join(supported)}")
    if not options and rs.changed_options:
        changed = ", ".join(f"{k}={v}" for k, v in rs.changed_options.items())
        raise RulesArgError(f"{command} supports rule set {rs.name!r} with its default options only"
                            f"{reason}; got {changed}")
    return rs
