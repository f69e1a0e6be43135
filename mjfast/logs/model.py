"""What the readers produce: a match as data, before any rule is applied.

A reader only checks that each line / log entry is well formed (known words,
tile codes, seat numbers, counts).  Whether the actions are *legal* is decided
later by the game engine during the replay (:mod:`mjfast.logs.replay`), so the
rules live in one place.

``Event.pos`` is where the event was read: the 1-based line number in a text
archive, the index into ``logs`` in a match JSON.  Every problem is reported
with such a position.
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

from ..rules.mcr import MCR, REFERENCE_ZH

__all__ = ["Event", "Claim", "Match", "TILE_CODES", "FLOWER_CODES", "ACTIONS", "fan_key"]

#: Botzone tile codes of the 34 tiles (index order) and of the 8 flowers.
TILE_CODES = tuple([f"{s}{r}" for s in "WBT" for r in range(1, 10)]
                   + [f"F{r}" for r in range(1, 5)] + [f"J{r}" for r in range(1, 4)])
FLOWER_CODES = tuple(f"H{r}" for r in range(1, 9))
TILE_SET = frozenset(TILE_CODES)
FLOWER_SET = frozenset(FLOWER_CODES)

#: Event kinds (the upper-case words of the platform's display / protocol).
ACTIONS = ("DRAW", "PLAY", "CHI", "PENG", "GANG", "ANGANG", "BUGANG", "BUHUA", "HU")


class Claim(NamedTuple):
    """A claim that lost to the recorded one (a text ``Ignore`` clause, or a
    non-PASS response in a match JSON)."""
    seat: int
    kind: str                 # "CHI" | "PENG" | "GANG" | "HU"
    tile: Optional[str]       # text: the tile written in the clause (CHI: the chow's middle tile)
    response: Optional[str]   # JSON: the full response string; text: None (the discard is not logged)


class Event(NamedTuple):
    pos: int                  # line number (text) / log index (JSON)
    seat: int
    kind: str                 # one of ACTIONS
    tile: Optional[str]       # Botzone code; CHI: the middle tile; HU: the winning tile if written
    discard: Optional[str] = None     # CHI / PENG: the tile discarded right after the claim
    discard_pos: Optional[int] = None  # where that discard was read
    ignored: Tuple[Claim, ...] = ()   # losing claims on the same discard / added kong


class Match:
    """One match as read from a file (no rule checked yet)."""

    __slots__ = ("id", "path", "fmt", "pos", "quan", "deals", "walls", "flowers", "events",
                 "end", "end_pos", "error_seat", "error_code", "error_response",
                 "recorded_total", "recorded_fans", "recorded_scores", "problem")

    def __init__(self, id, path=None, fmt="text", pos=0):
        self.id = id
        self.path = path
        self.fmt = fmt                 # "text" | "json" | "pmn"
        self.pos = pos                 # the Match line / index of the match in its file
        self.quan = None               # prevalent wind 0-3
        self.deals = [None] * 4        # 4 lists of 13 tile codes
        self.walls = None              # 4 lists of 34 tile codes when known (JSON initdata)
        self.flowers = [[], [], [], []]
        self.events: List[Event] = []
        self.end = None                # "hu" | "huang" | "error" | None (not finished: truncated)
        self.end_pos = None
        self.error_seat = None         # error rule: the offending seat, the judge's code
        self.error_code = None         #   (e.g. "WA", "WH", "TLE") and its response if logged
        self.error_response = None
        self.recorded_total = None     # Fan line / display.fanCnt
        self.recorded_fans = None      # [(Chinese name, count)]
        self.recorded_scores = None    # Score line / finish content, 4 ints
        self.problem = None            # (pos, reason) if the match is malformed

    def fail(self, pos, reason):
        """Mark the match malformed (the first problem wins)."""
        if self.problem is None:
            self.problem = (pos, reason)

    def __repr__(self):
        state = f"problem at {self.problem[0]}: {self.problem[1]}" if self.problem else f"end={self.end}"
        return f"<Match {self.id!r} ({self.fmt}) {len(self.events)} events, {state}>"


# -- recorded fan names -------------------------------------------------------------

def _fan_names():
    names = {}
    for f in MCR:
        names[f.zh] = f.key
        names[f.en] = f.key
        names[f.key] = f.key
    for key, zh in REFERENCE_ZH.items():
        names[zh] = key
    # other spellings seen in judges' output and fan tables
    names.update({"嵌张": "closed_wait", "单钓": "single_wait", "单吊将": "single_wait",
                  "单钓将": "single_wait", "独听・单钓将": "single_wait", "花": "flower_tiles",
                  "绝张": "last_tile", "全带五": "all_five", "和绝张": "last_tile"})
    return names


_FAN_KEYS = _fan_names()


def fan_key(name: str) -> Optional[str]:
    """Our fan key for a recorded fan name (Chinese as the judge writes it, or
    English), or None if unknown."""
    return _FAN_KEYS.get(name.strip())
