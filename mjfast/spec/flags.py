"""The context flags of a win, declared once: name, packed byte and bit,
meaning, and the rule sets that read each.

Two packed bytes carry them: ``win`` (the kernel's ``flags`` byte,
``HandBatch.flags``: the four flags of the MCR context) and ``rule``
(``HandBatch.rule_flags``: the flags only other rule sets use).  setup.py
generates ``src/fankernel/flag_bits.pxd`` from this table (``W_<NAME>`` for
the win byte, ``RF_<NAME>`` for the rule byte), so the compiled code and the
Python side cannot disagree on a bit.

``read_by`` lists the rule sets whose ``RuleSet.flags`` hold the flag (a test
checks the two agree); every other rule set reports the flag in
``ignored_flags`` (an error under ``strict``), through
:func:`mjfast.rules.base.ignored_flags`.  Adding a flag is one line here plus
the rule sets that read it; the order of :data:`FLAGS` is the order in which
ignored flags are reported.

Pure data: this module imports nothing of mjfast (setup.py loads it by path).
"""
from typing import NamedTuple, Tuple

__all__ = ["Flag", "FLAGS", "WIN", "RULE", "names", "bits", "c_name"]

WIN = "win"     # the packed win flags (the kernel's flags byte)
RULE = "rule"   # the packed flags of rule sets other than MCR (HandBatch.rule_flags)


class Flag(NamedTuple):
    name: str                  # the keyword of mjfast.score and the record field
    byte: str                  # WIN or RULE
    bit: int                   # its bit in that byte
    meaning: str
    read_by: Tuple[str, ...]   # the rule sets that read it


_MCR = ("mcr", "dazhong")
FLAGS = {f.name: f for f in (
    Flag("self_drawn", WIN, 1, "won on a tile drawn from the wall (自摸)",
         _MCR + ("two_player", "shanghai_old", "zhuji", "guizhou")),
    Flag("fourth_tile", WIN, 2, "the winning tile is the last of its kind (和绝张)", _MCR),
    Flag("kong", WIN, 4, "robbing a kong on a discard win, out on a replacement tile on a self-drawn win",
         _MCR + ("two_player", "shanghai_old", "zhuji", "guizhou")),
    Flag("last_tile", WIN, 8, "the last tile of the wall drawn or claimed (妙手回春 / 海底捞月)",
         _MCR + ("shanghai_old",)),
    Flag("heavenly_hand", RULE, 1, "the dealer wins with the dealt tiles (天和)",
         ("two_player", "shanghai_old", "zhuji", "guizhou")),
    Flag("earthly_hand", RULE, 2, "a non-dealer wins on the first tile (地和)",
         ("two_player", "shanghai_old", "zhuji", "guizhou")),
    Flag("human_hand", RULE, 4, "won on a discard within the first go-round (人和)", ("two_player",)),
    Flag("ready_at_start", RULE, 8, "ready from the deal on (天听)", ("two_player", "guizhou")),
    Flag("wild_win", RULE, 16, "the winning tile was a 百搭 wildcard", ("shanghai_old",)),
    Flag("declared_ready", RULE, 32, "won after declaring ready (扣听)", ("shanghai_old",)),
    Flag("discard_after_kong", RULE, 64, "won on the discard made after a kong (热炮)", ("guizhou",)),
)}


def names(byte=None) -> tuple:
    """The flag names (of one byte, or all), in :data:`FLAGS` order."""
    return tuple(n for n, f in FLAGS.items() if byte is None or f.byte == byte)


def bits(byte) -> dict:
    """{name: bit} of one packed byte."""
    return {n: f.bit for n, f in FLAGS.items() if f.byte == byte}


def c_name(flag: Flag) -> str:
    """The compiled constant of a flag: ``W_SELF_DRAWN``, ``RF_WILD_WIN``."""
    return ("W_" if flag.byte == WIN else "RF_") + flag.name.upper()
