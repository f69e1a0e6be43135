"""Rule sets.

A rule set (:class:`RuleSet`) is a value the user chooses: its tiles, hand
size, winning forms, fan table, minimum to win, the context flags it
understands, its named options and its settlement.  Every scoring function
takes ``rules=`` (a name or a :class:`RuleSet`)::

    >>> import mjfast
    >>> mjfast.rules.available()
    ('mcr', 'dazhong', 'guizhou', 'shanghai_old', 'two_player', 'zhuji')
    >>> rs = mjfast.rules.get("mcr").with_options(knitted_straight_wait="not_scored")

``mjfast.rules.mcr`` holds the MCR fan table (:data:`MCR`), used by ``mcr``
and ``dazhong``; ``mjfast.rules.two_player`` the two-player table and
predicates; ``mjfast.rules.guizhou`` the Guizhou catch-chicken patterns and
:func:`mjfast.rules.guizhou.settle` for a finished game; ``mjfast.rules.zhuji``
Zhuji mahjong's 台 items (with 财神 wildcards) and its payouts;
``mjfast.rules.shanghai`` the old Shanghai 番/和 scoring.  docs/rules.md
describes each rule set and its options.

Each rule set is a package (``mjfast/rules/<module>/``: its table, engine,
settlement and printing) and is scored, batched, settled and printed through
its engine (:mod:`mjfast.rules.engine`, ``RuleSet.impl``);
docs/architecture.md, "Adding a rule set", says what a new one touches.
"""

import importlib
from .mcr import (
    DEMOTES_FULLY_CONCEALED_HAND,
    FORMS,
    MCR,
    REFERENCE_ZH,
    Fan,
    FanTable,
    describe,
)
from .base import Option, RuleSet, available, get, register
from .mcr.sets import DAZHONG, MCR_RULES

#: names of the rule sets other than MCR's, from their modules, imported on
#: first use (mjfast.rules.get(name) imports them too)
_LAZY_NAMES = {"TWO_PLAYER": "two_player", "TWO_PLAYER_TABLE": "two_player", "guizhou": "guizhou",
               "GUIZHOU": "guizhou", "GUIZHOU_TABLE": "guizhou", "ZHUJI": "zhuji", "ZHUJI_TABLE": "zhuji",
               "SHANGHAI_OLD": "shanghai", "SHANGHAI_OLD_TABLE": "shanghai"}


def __getattr__(name):
    mod = _LAZY_NAMES.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    m = importlib.import_module(f"{__name__}.{mod}")
    value = m if name == mod else getattr(m, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY_NAMES))

__all__ = [
    "Fan",
    "FanTable",
    "MCR",
    "DEMOTES_FULLY_CONCEALED_HAND",
    "REFERENCE_ZH",
    "FORMS",
    "describe",
    "Option",
    "RuleSet",
    "available",
    "get",
    "register",
    "MCR_RULES",
    "DAZHONG",
    "TWO_PLAYER",
    "TWO_PLAYER_TABLE",
    "guizhou",
    "GUIZHOU",
    "GUIZHOU_TABLE",
    "ZHUJI",
    "ZHUJI_TABLE",
    "SHANGHAI_OLD",
    "SHANGHAI_OLD_TABLE",
]
