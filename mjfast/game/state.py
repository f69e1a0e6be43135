"""The game state machine for Python: one MCR game under the Botzone judge's rules.

Every rule lives in the compiled engine (``mjfast._engine.Engine``, see
src/_engine.pyx): the walls and the draws, what a seat may answer, the claim
priority, the kong limits, the end-of-wall rules, the shown tiles, the
context of a win, the settlement and the error rule.  :class:`GameState` is
its Python face: each call reads the answer (a Botzone response string) into
the engine's codes, makes one call into the engine, and words what comes
back -- a refusal's reason code through one table (``_REASONS``), the
engine's events as the records' log and the protocol's requests, a win as a
:class:`Win` with its fans.

Tiles are indices 0-33 (see :mod:`mjfast.tiles`); responses use Botzone codes
(``"PLAY W1"``).  Flowers (table play only) are 34-41 = ``H1``..``H8``.

The duplicate format (default): each seat has its own wall of 34 tiles, 13
dealt and 21 drawn in order; a kong's replacement is the next tile of the same
wall; seat 0 draws first.  Table play (``wall=``): one shared wall dealt 13 to
each seat in seat order, draws from its front, kong and flower replacements
from its back; flowers are set aside as drawn (``BUHUA``).  Walls unknown
(``deals=``): each draw names its tile.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .. import _engine
from ..hand import Meld
from ..rules.mcr.sets import MCR_RULES
from ..scoring.score import score as _score
from ..tiles import BOTZONE_CODES, TILE_NAMES, counts_str as _counts_str

__all__ = ["GameState", "IllegalAction", "GameMeld", "Win", "CODES", "code_of", "tile_of", "score_win"]

#: Botzone codes by tile index, flowers H1-H8 as 34-41.
CODES = tuple(BOTZONE_CODES) + tuple(f"H{i}" for i in range(1, 9))
N_KINDS = 34
_INDEX = {c: i for i, c in enumerate(CODES)}

#: What the judge writes when a seat breaks the rules: WA = wrong action,
#: WH = a Hu that is not a win of 8 points or more.
ERROR_WA = "WA"
ERROR_WH = "WH"

_OP = _engine.OPS
_EV = _engine.EVENTS
_PHASES = _engine.PHASES
_KINDS = ("chow", "pung", "kong")
_OP_NAME = {v: k for k, v in _OP.items()}
# the answers to a draw and to a discard / an added kong, by name: (op, tiles named)
_TURN_OPS = {"PLAY": (_OP["PLAY"], 1), "GANG": (_OP["GANG"], 1), "BUGANG": (_OP["BUGANG"], 1), "HU": (_OP["HU"], 0)}
_CLAIM_OPS = {"HU": (_OP["HU"], 0), "GANG": (_OP["GANG"], 0), "PENG": (_OP["PENG"], 1), "CHI": (_OP["CHI"], 2)}
_PASS3 = (_OP["PASS"], 0, 0)
_ALL_PASS = ["PASS"] * 4
_OP_PLAY = _OP["PLAY"]
# the event kinds, as plain names (_sync reads one or two events a step)
(_EV_DRAW, _EV_PLAY, _EV_PENG, _EV_CHI, _EV_GANG, _EV_ANGANG, _EV_BUGANG, _EV_BUHUA, _EV_HU, _EV_ERROR, _EV_HUANG,
 _EV_IGNORE) = (_EV[k] for k in ("DRAW", "PLAY", "PENG", "CHI", "GANG", "ANGANG", "BUGANG", "BUHUA", "HU", "ERROR",
                                 "HUANG", "IGNORE"))


def score_win(seat, counts, melds, ctx, quan, flowers=0):
    """Score a Hu: ``counts`` = seat's concealed tiles (34 counts; they include
    the winning tile if self-drawn), ``melds`` its GameMelds, ``ctx`` the
    context (tile, self_drawn, fourth_tile, last_tile, kong).  Returns (hand
    in our notation, Score); raises NotWinning.  The one place a hand of a
    game is written and scored in Python (the engine scores with the fan
    kernel; tests/test_game_fast.py holds the two together)."""
    tile = ctx["tile"]
    h = list(counts)
    if ctx["self_drawn"]:          # the winning tile is in the hand: print it last
        h[tile] -= 1
    conc = _counts_str(h)
    hand = "".join(m.to_meld(seat).notation() for m in melds) + conc + TILE_NAMES[tile]
    sc = _score(hand, self_drawn=ctx["self_drawn"], fourth_tile=ctx["fourth_tile"], kong=ctx["kong"],
                last_tile=ctx["last_tile"], seat_wind=seat, round_wind=quan, flowers=flowers)
    return hand, sc


def code_of(tile: int) -> str:
    """Botzone code of a tile index (0-41)."""
    return CODES[tile]


def tile_of(code) -> int:
    """Tile index of a Botzone code (``"W1"`` -> 0); an int 0-41 passes through
    (a numpy integer too: a wall of ``mjfast._game.shuffled_walls`` is one)."""
    if type(code) is int:                  # the common case, first (walls of plain ints)
        if 0 <= code < len(CODES):
            return code
        raise ValueError(f"tile index {code} out of range 0-41")
    if isinstance(code, (int, np.integer)) and not isinstance(code, (bool, np.bool_)):
        code = int(code)
        if 0 <= code < len(CODES):
            return code
        raise ValueError(f"tile index {code} out of range 0-41")
    i = _INDEX.get(code)
    if i is None:
        raise ValueError(f"unknown tile code {code!r}")
    return i


class IllegalAction(ValueError):
    """An action the rules do not allow: ``seat`` broke them, ``reason`` says how.

    ``code`` is what the platform's judge displays for it (``"WA"`` wrong
    action, ``"WH"`` a Hu that does not win or scores under 8)."""

    def __init__(self, seat: int, reason: str, code: str = ERROR_WA):
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason
        self.code = code


def _c(t):
    return CODES[t]


# The engine's refusal reasons (R_* of src/mjfast/_machine.pxd), worded:
# reason name -> (a, b, c, seat, the answer, the parse message) -> text.
_WORDING = {
    "DRAW_PHASE": lambda a, b, c, s, r, p: f"cannot draw in phase {_PHASES[a]!r}",
    "DRAW_NEED_TILE": lambda a, b, c, s, r, p: "the walls are unknown: draw() needs the tile drawn",
    "DRAW_FLOWER": lambda a, b, c, s, r, p: f"drew flower {_c(a)} in the duplicate format",
    "DRAW_FIFTH": lambda a, b, c, s, r, p: f"drew a fifth copy of {_c(a)}",
    "DRAW_MISMATCH": lambda a, b, c, s, r, p: f"drew {_c(a)} but the next tile of the wall is {_c(b)}",
    "TURN_PHASE": lambda a, b, c, s, r, p: f"no turn to play in phase {_PHASES[a]!r}",
    "PLAY_NOT_HELD": lambda a, b, c, s, r, p: f"discards {_c(a)}, which is not in the hand",
    "HU_NOT_WIN": lambda a, b, c, s, r, p: f"declared Hu on {_c(a)} but the hand does not win",
    "HU_UNDER8": lambda a, b, c, s, r, p: f"declared Hu on {_c(a)} with {b} points, under the minimum {MCR_RULES.min_points}",
    "ANGANG_COUNT": lambda a, b, c, s, r, p: f"concealed kong of {_c(a)} needs four in the hand, holds {b}",
    "KONG_WALL": lambda a, b, c, s, r, p: "no kong when the own or the next seat's wall is empty",
    "BUGANG_NO_PUNG": lambda a, b, c, s, r, p: f"adds a kong of {_c(a)} without a melded pung of it",
    "BUGANG_NOT_HELD": lambda a, b, c, s, r, p: f"adds a kong of {_c(a)} without holding the fourth tile",
    "TURN_INVALID": lambda a, b, c, s, r, p: f"invalid answer {r!r} to a draw (PLAY t, GANG t, BUGANG t or HU)",
    "CLAIM_PHASE": lambda a, b, c, s, r, p: f"no claim to answer in phase {_PHASES[a]!r}",
    "OWN": lambda a, b, c, s, r, p: f"must answer PASS to its own {'kong' if a else 'discard'}, answered {r!r}",
    "ROB_ONLY": lambda a, b, c, s, r, p: f"may only answer PASS or HU to an added kong, answered {r!r}",
    "CLAIM_INVALID": lambda a, b, c, s, r, p: f"invalid answer {r!r} to a discard",
    "CLAIM_WALL": lambda a, b, c, s, r, p: (f"{_OP_NAME[a]} on a discard when the wall after the discarder "
                                            f"(seat {b}'s) is empty"),
    "MKONG_COUNT": lambda a, b, c, s, r, p: f"kong of {_c(a)} needs three in the hand, holds {b}",
    "MKONG_WALL": lambda a, b, c, s, r, p: "no melded kong when the own wall is empty (no replacement tile)",
    "PENG_COUNT": lambda a, b, c, s, r, p: f"pung of {_c(a)} needs two in the hand, holds {b}",
    "PENG_DISCARD": lambda a, b, c, s, r, p: f"after the pung, discards {_c(a)}, which is not in the hand",
    "CHI_SEAT": lambda a, b, c, s, r, p: f"chow only from the previous seat; {a} is not seat {s}'s previous seat",
    "CHI_MIDDLE": lambda a, b, c, s, r, p: f"{_c(a)} is not the middle of a chow with {_c(b)}",
    "CHI_NEED": lambda a, b, c, s, r, p: (f"chow {_c(a - 1)}{_c(a)}{_c(a + 1)}: {_c(b)} and {_c(c)} "
                                          "not in the hand"),
    "CHI_DISCARD": lambda a, b, c, s, r, p: f"after the chow, discards {_c(a)}, which is not in the hand",
    "PARSE": lambda a, b, c, s, r, p: p,
    # a seat's view (mjfast.botzone.BotState): a request that contradicts what the seat knows
    "SEAT_DRAW": lambda a, b, c, s, r, p: f"not seat {s}'s draw now " + (f"(seat {a} holds its turn)" if b
                                                                          else f"(seat {a}'s)"),
    "WALL_EMPTY": lambda a, b, c, s, r, p: f"seat {s}'s wall is already empty",
    "SEAT_FIFTH": lambda a, b, c, s, r, p: f"a fifth {_c(a)}" + (" (all four are already in sight)" if b else ""),
    "HAND_NEED": lambda a, b, c, s, r, p: (f"the hand holds {b} {_c(a)}, needs {c}" if a >= 0
                                           else f"seat {s} holds {b} concealed tiles, needs {c}"),
    "NO_TURN": lambda a, b, c, s, r, p: f"seat {s} has no turn to {'add a kong' if a else 'discard'}",
    "NO_DISCARD": lambda a, b, c, s, r, p: "no discard of another seat to claim",
    "NO_PUNG": lambda a, b, c, s, r, p: f"seat {s} has no melded pung of {_c(a)}",
    "FLOWER_SHOWN": lambda a, b, c, s, r, p: f"{_c(a)} is already shown (one copy of each flower)",
}
_REASONS = {code: _WORDING[name] for name, code in _engine.REASONS.items() if name != "NONE"}


def refusal_text(reason: int, a: int, b: int, c: int, seat: int, answer: str = "", parse: str = "") -> str:
    """The words of an engine refusal: ``reason`` an R_* code (``mjfast._engine.REASONS``)
    with its details (``Engine.refusal()``); ``answer`` the answer refused,
    ``parse`` why it could not be read.  GameState's IllegalAction reasons
    and BotState's ProtocolErrors are worded here."""
    return _REASONS[reason](a, b, c, seat, answer, parse)
_ERROR_CODES = {1: ERROR_WA, 2: ERROR_WH}


@dataclass
class GameMeld:
    """A meld on the table.  ``tile``: lowest tile of a chow, else the meld's
    tile; ``from_seat``: the discarder (None for a concealed kong);
    ``claimed``: the claimed tile; ``added``: a kong added to an own pung."""
    kind: str
    tile: int
    from_seat: Optional[int]
    claimed: Optional[int]
    added: bool = False

    def tiles(self):
        t = self.tile
        if self.kind == "chow":
            return (t, t + 1, t + 2)
        return (t,) * (3 if self.kind == "pung" else 4)

    def to_meld(self, owner: int) -> Meld:
        """The meld in our notation: claim digit 1 = previous seat (上家), 2 =
        opposite, 3 = next seat; for a chow the position of the claimed tile."""
        if self.kind == "chow":
            # (a chow always has its claimed tile)
            return Meld("chow", self.tile, claimed=self.claimed - self.tile + 1)  # type: ignore[operator]
        if self.from_seat is None:
            return Meld("kong", self.tile, concealed=True)
        digit = (owner - self.from_seat) % 4
        return Meld(self.kind, self.tile, claimed=digit, added=self.added)


@dataclass
class Win:
    """A win and the context the judge scores it with."""
    winner: int
    from_seat: Optional[int]          # the discarder / the robbed seat; None if self-drawn
    tile: int
    hand: str                         # our notation, melds with claim digits, winning tile last
    self_drawn: bool
    fourth_tile: bool
    last_tile: bool
    kong: bool
    robbed_kong: bool
    seat_wind: int
    round_wind: int
    flowers: int
    total: int
    fans: list = field(default_factory=list)   # FanResult, highest first

    def as_record(self) -> dict:
        """The win as a hand record of our JSONL format."""
        winds = "ESWN"
        return {"hand": self.hand, "self_drawn": self.self_drawn, "fourth_tile": self.fourth_tile,
                "kong": self.kong, "last_tile": self.last_tile, "seat_wind": winds[self.seat_wind],
                "round_wind": winds[self.round_wind], "flowers": self.flowers}


_INT_TYPE = frozenset([int])
_KIND_INDICES = frozenset(range(N_KINDS))


def _walls_arg(walls):
    if len(walls) != 4:
        raise ValueError(f"walls: expected 4 walls (one per seat), got {len(walls)}")
    out = []
    total = [0] * N_KINDS
    for s, w in enumerate(walls):
        if isinstance(w, str):
            w = w.split()
        if type(w) is list and _INT_TYPE.issuperset(map(type, w)) and _KIND_INDICES.issuperset(w):
            w = list(w)            # plain tile indices 0-33 (random_walls): nothing to convert, tested in C
        else:
            w = [tile_of(x) for x in w]
        if len(w) != 34:
            raise ValueError(f"walls: seat {s}'s wall has {len(w)} tiles, expected 34")
        for t in w:
            if t >= N_KINDS:
                raise ValueError(f"walls: flower {CODES[t]} in seat {s}'s wall (the duplicate format has none)")
            total[t] += 1
        out.append(w)
    for t in range(N_KINDS):
        if total[t] != 4:
            raise ValueError(f"walls: {total[t]} copies of {CODES[t]}, the 136 tiles hold exactly 4")
    return out


def _deals_arg(deals):
    if len(deals) != 4:
        raise ValueError(f"deals: expected 4 hands, got {len(deals)}")
    seen = [0] * N_KINDS
    out = []
    for s, d in enumerate(deals):
        d = [tile_of(x) for x in (d.split() if isinstance(d, str) else d)]
        if len(d) != 13 or any(t >= N_KINDS for t in d):
            raise ValueError(f"deals: seat {s} needs 13 tiles (no flowers), got {len(d)}")
        for t in d:
            seen[t] += 1
            if seen[t] > 4:
                raise ValueError(f"deals: fifth copy of {CODES[t]}")
        out.append(d)
    return out


def _wall_arg(wall):
    w = [tile_of(x) for x in (wall.split() if isinstance(wall, str) else wall)]
    n_flowers = sum(1 for t in w if t >= N_KINDS)
    if len(w) - n_flowers != 136:
        raise ValueError(f"wall: {len(w) - n_flowers} tiles besides flowers, expected 136")
    cnt = [0] * len(CODES)
    for t in w:
        cnt[t] += 1
    for t in range(len(CODES)):
        if cnt[t] > (1 if t >= N_KINDS else 4) or (t < N_KINDS and cnt[t] != 4):
            raise ValueError(f"wall: {cnt[t]} copies of {CODES[t]}")
    return w


def _read(response):
    """A response string as (name, tiles, None), or (None, None, why it cannot be read)."""
    if not isinstance(response, str):
        return None, None, f"a response must be a string, got {type(response).__name__}"
    parts = response.split()
    if not parts:
        return None, None, "empty response"
    tiles = []
    for p in parts[1:]:
        t = _INDEX.get(p)
        if t is None or t >= N_KINDS:
            return None, None, f"unknown tile {p!r} in response {response!r}"
        tiles.append(t)
    return parts[0], tiles, None


def _answer(response, ops):
    """A response as the engine's (op, a, b) and, if it cannot be read, why."""
    name, tiles, why = _read(response)
    if why is not None:
        return (_OP["BAD"], 0, 0), why
    op, n = ops.get(name, (_OP["OTHER"], len(tiles)))
    if len(tiles) != n:
        return (op | _OP["SHAPE"], 0, 0), None
    if op == _OP["GANG"] and n == 0:
        return (op, -1, 0), None          # a melded kong names no tile
    return (op, tiles[0] if n > 0 else 0, tiles[1] if n > 1 else 0), None


def read_answer(response, to_draw: bool = False):
    """A response string as the engine's answer ``(op, a, b)`` to a draw
    (``to_draw``) or to a discard / an added kong, read as :meth:`GameState.turn`
    and :meth:`GameState.claim` read it, and why it cannot be read (None if
    it can).  For the replay driver (mjfast.logs.replay)."""
    return _answer(response, _TURN_OPS if to_draw else _CLAIM_OPS)


def refusal_reason(seat, reason, a, b, c, response=None, why=None) -> str:
    """The words of an engine refusal (``Engine.refusal()``: the R_* reason
    and its details) of ``seat``'s ``response`` (``why``: why it could not
    be read): the reason of the :class:`IllegalAction` GameState raises."""
    return _REASONS[reason](a, b, c, seat, response, why)


def _action_string(op, a, b):
    name = _OP_NAME[op]
    if op == _OP["CHI"]:
        return f"CHI {CODES[a]} {CODES[b]}"
    if op in (_OP["PASS"], _OP["HU"]) or (op == _OP["GANG"] and a < 0):
        return name
    return f"{name} {CODES[a]}"


class _ActionStrings(dict):
    """(op, a, b) -> its response string, each built once (legal_actions
    lists up to ~30 a call; a dict hit costs less than formatting one)."""

    def __missing__(self, key):
        v = self[key] = _action_string(*key)
        return v


_ACTION_STRINGS = _ActionStrings()


class GameState:
    """One game.  See the module docstring; the phases:

    * ``"draw"``: ``current`` is to draw (:meth:`draw`).
    * ``"turn"``: ``current`` holds 14 tiles and answers :meth:`turn`.
    * ``"claim"``: ``current`` discarded ``last_tile``; :meth:`claim` takes the others' answers.
    * ``"rob"``: ``current`` added a kong of ``last_tile``; :meth:`claim` takes the others' answers.
    * ``"over"``: ``win`` / ``error`` / Huang; ``scores`` holds the settlement.

    What a seat may answer (``legal_actions``, ``kong_allowed``,
    ``claims_allowed``, ``hu_context``, ``hu_value``, ``hu_ok``) is the
    engine's answer; ``after_kong`` says the current draw replaces a kong.
    """

    def __init__(self, quan: int = 0, walls=None, deals=None, *, wall=None):
        if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan <= 3:
            raise ValueError(f"quan (the prevalent wind) must be 0-3, got {quan!r}")
        given = [x is not None for x in (walls, deals, wall)]
        if sum(given) != 1:
            raise ValueError("give exactly one of walls (duplicate format), deals (walls unknown) or wall (table play)")
        self.quan = quan
        self.table = wall is not None
        self.walls = None
        self._e = e = _engine.Engine()
        if walls is not None:
            self.walls = _walls_arg(walls)
            e.reset(np.array(self.walls, dtype=np.uint8), quan)
        elif deals is not None:
            e.reset_deals(np.array(_deals_arg(deals), dtype=np.uint8), quan)
        else:
            self._wall = _wall_arg(wall)
            e.reset_table(np.array(self._wall, dtype=np.uint8), quan)
        self.deals = [e.deal_of(s) for s in range(4)]   # the 13 dealt tiles, in wall order (flowers set aside)
        self.log: list = [("Deal", s, list(self.deals[s])) for s in range(4)]   # events, for the records (record.py)
        self.win: Optional[Win] = None
        self.error: Optional[tuple] = None         # (seat, code, reason) after the error rule
        self.scores: Optional[list] = None
        self.huang = False
        self._event: Optional[tuple] = None        # the last event: (kind, seat, tile, extra)
        # request()'s wording of the last event: the event it words, its seat, that seat's request and the others'
        self._req_event: Optional[tuple] = None
        self._req_seat = -1
        self._req_own: Optional[str] = None
        self._req_other: Optional[str] = None
        self._nev = 0                              # engine events read into the log
        self._views = None                         # [hands, melds, discards, flowers, shown], each built on use
        # the engine's phase, current seat, last tile and after_kong, copied after
        # each call that changes them (read on every step: plain attributes)
        self.phase = "draw"
        self.current = 0
        self.last_tile: Optional[int] = None
        self.after_kong = False                    # current's next/last draw replaces a kong

    # ------------------------------------------------------------------ the engine's state

    def _view(self, i):
        """View i of the engine's state (see _VIEWS), built on first use
        after a change: a player reading its hand does not pay for the
        rivers, the melds or the others' hands."""
        v = self._views
        if v is None:
            v = self._views = [None] * 5
        x = v[i]
        if x is None:
            x = v[i] = _VIEWS[i](self._e)
        return x

    @property
    def hands(self):
        """Per seat, the concealed tiles as 34 counts."""
        return self._view(0)

    @property
    def melds(self):
        """Per seat, its :class:`GameMeld` list."""
        return self._view(1)

    @property
    def discards(self):
        """Per seat, the river: discards nobody claimed."""
        return self._view(2)

    @property
    def flowers(self):
        """Per seat, the flowers set aside (table play)."""
        return self._view(3)

    @property
    def shown(self):
        """Per tile, the copies shown (the fourth-tile counting)."""
        return self._view(4)

    def _sync(self):
        """Copy the engine's phase and seats; read its new events into the log
        and the last event."""
        self._views = None
        ph, self.current, t, self.after_kong, evs = self._e.sync_from(self._nev)
        self.phase = _PHASES[ph]
        self.last_tile = None if t < 0 else t
        if evs is None:
            return
        self._nev += len(evs)
        log = self.log
        open_ = None               # a claim's log entry, waiting for the claims it beat
        claim_kind = None
        for kind, s, t, x in evs:
            if kind == _EV_IGNORE:
                open_[3].append((s, _OP_NAME[t], x))
                continue
            if open_ is not None:
                log.append((open_[0], open_[1], open_[2], tuple(open_[3])))
                open_ = None
            if kind == _EV_DRAW:
                log.append(("Draw", s, t))
                self._event = ("DRAW", s, t, None)
            elif kind == _EV_PLAY:
                log.append(("Play", s, t))
                if claim_kind is not None:        # the discard that follows a chow / pung
                    self._event = (claim_kind[0], s, t, claim_kind[1])
                    claim_kind = None
                else:
                    self._event = ("PLAY", s, t, None)
            elif kind == _EV_PENG:
                open_ = ["Peng", s, t, []]
                claim_kind = ("PENG", None)
            elif kind == _EV_CHI:
                open_ = ["Chi", s, t, []]
                claim_kind = ("CHI", t)
            elif kind == _EV_GANG:
                open_ = ["Gang", s, t, []]
                self._event = ("GANG", s, t, None)
            elif kind == _EV_ANGANG:
                log.append(("AnGang", s, t))
                self._event = ("GANG", s, t, None)
            elif kind == _EV_BUGANG:
                log.append(("BuGang", s, t))
                self._event = ("BUGANG", s, t, None)
            elif kind == _EV_BUHUA:
                log.append(("BuHua", s, t))
                self._event = ("BUHUA", s, t, None)
            elif kind == _EV_HU:
                open_ = ["Hu", s, t, []]
                self._event = ("HU", s, t, None)
                self._won(s, t)
            elif kind == _EV_ERROR:
                pass
            elif kind == _EV_HUANG:
                log.append(("Huang",))
                self._event = ("HUANG", s, None, None)
                self.huang = True
                self.scores = [0, 0, 0, 0]
        if open_ is not None:
            log.append((open_[0], open_[1], open_[2], tuple(open_[3])))

    def _won(self, s, t):
        """The win the engine settled: its context, hand and fans, and the scores."""
        e = self._e
        self._views = None
        sd, fourth, last, kong = e.win_context()
        counts = e.hand_of(s)
        if not sd:                 # the claimed tile is in the hand now; score_win adds it
            counts[t] -= 1
        ctx = {"tile": t, "self_drawn": sd, "fourth_tile": fourth, "last_tile": last, "kong": kong}
        nfl = len(e.flowers_of(s))
        hand, sc = score_win(s, counts, self.melds[s], ctx, self.quan, nfl)
        self.win = Win(s, None if sd else e.from_seat, t, hand, sd, fourth, last, kong, kong and not sd,
                       s, self.quan, nfl, e.total, sc.fans)
        self.scores = e.scores()

    def _refused(self, responses=None, why=None):
        """The engine's last refusal as an IllegalAction, worded."""
        seat, code, reason, a, b, c = self._e.refusal()
        r = None if responses is None else responses[seat]
        p = None if why is None else why[seat]
        return IllegalAction(seat, _REASONS[reason](a, b, c, seat, r, p), _ERROR_CODES[code])

    # ------------------------------------------------------------------ walls

    def wall_left(self, seat: int) -> int:
        """Tiles left to draw in ``seat``'s wall (table play: in the shared wall)."""
        return self._e.left(seat)

    @property
    def tile_counts(self):
        """Tiles left in each seat's wall (the records' ``tileCnt``)."""
        e = self._e
        return [e.left(0), e.left(1), e.left(2), e.left(3)]

    # ------------------------------------------------------------------ requests (the protocol)

    def init_request(self, seat: int) -> str:
        return f"0 {seat} {self.quan}"

    def deal_request(self, seat: int) -> str:
        fl = self.flowers
        nf = " ".join(str(len(fl[s])) for s in range(4))
        tiles = " ".join(CODES[t] for t in self.deals[seat])
        fls = "".join(" " + CODES[f] for s in range(4) for f in fl[s])
        return f"1 {nf} {tiles}{fls}"

    def request(self, seat: int) -> Optional[str]:
        """The request ``seat`` receives for the last event: None before the
        first draw, and once the game is over (the judge sends nothing after
        a Hu, a Huang or an error ending)."""
        ev = self._event
        if ev is None or self.phase == "over":
            return None
        if ev is not self._req_event:         # worded once per event, not once per seat
            kind, p, t, extra = ev
            if kind == "DRAW":
                own, other = f"2 {CODES[t]}", f"3 {p} DRAW"
            elif kind == "GANG":
                own = other = f"3 {p} GANG"
            elif kind == "CHI":
                own = other = f"3 {p} CHI {CODES[extra]} {CODES[t]}"
            else:                             # PLAY, PENG, BUGANG, BUHUA
                own = other = f"3 {p} {kind} {CODES[t]}"
            self._req_event, self._req_seat, self._req_own, self._req_other = ev, p, own, other
        return self._req_own if seat == self._req_seat else self._req_other

    @property
    def event(self):
        """The last event: (kind, seat, tile, extra); kind in DRAW PLAY PENG CHI GANG BUGANG BUHUA HU."""
        return self._event

    def acknowledge(self, seat: int, response) -> None:
        """A seat's answer to a request that only allows PASS (the deal, another
        seat's draw, a kong, a flower): anything else breaks the rules."""
        if response != "PASS":
            raise IllegalAction(seat, f"must answer PASS here, answered {response!r}")

    # ------------------------------------------------------------------ the steps

    def draw(self, tile=None):
        """Phase "draw": ``current`` draws.  Returns the tile, or None when the
        wall is empty (the game ends, Huang).  In table play a flower is set
        aside and returned (34-41); ``current`` then draws again.  With
        ``deals=`` (walls unknown) ``tile`` is the tile drawn; else, if
        given, it must be the wall's next tile."""
        t = self._e.draw_tile(-1 if tile is None else tile_of(tile))
        if t == -3:
            raise self._refused()
        self._sync()
        return None if t < 0 else t

    def turn(self, response: str):
        """Phase "turn": the drawer's answer ``PLAY t`` | ``GANG t`` | ``BUGANG t`` | ``HU``."""
        # "PLAY t", the common answer, read without the general reader (same result)
        t = _INDEX.get(response[5:]) if type(response) is str and response[:5] == "PLAY " else None
        if t is not None and t < N_KINDS:
            op, a, why = _OP_PLAY, t, None
        else:
            (op, a, _), why = _answer(response, _TURN_OPS)
        if self._e.turn(op, a) < 0:
            s = self._e.err_seat
            raise self._refused({s: response}, {s: why})
        self._sync()

    def claim(self, responses):
        """Phase "claim" / "rob": the seats' answers (a dict seat -> response or a
        list of 4; a missing seat passes).  Every answer is checked (seat order
        0-3; the first illegal one raises).  Hu > Peng/Gang > Chi, ties to the
        first seat after the discarder.  Applies the winning claim and returns
        (seat, response), or None when all pass."""
        e = self._e
        if e.phase != 2 and e.phase != 3:             # not PH_CLAIM / PH_ROB: the engine words it
            e.claim([_PASS3] * 4)
            raise self._refused()
        if isinstance(responses, dict):
            get = responses.get
            resp = [get(s, "PASS") for s in range(4)]
        else:
            resp = list(responses)
            if len(resp) != 4:
                raise ValueError(f"claim(): 4 responses (one per seat) or a dict, got {len(resp)}")
        if resp == _ALL_PASS:              # the common round: nothing to read
            why = None
            s = e.claim_passes()
        else:
            answers = []
            why = []
            for r in resp:
                if r == "PASS":
                    answers.append(_PASS3)
                    why.append(None)
                else:
                    ans, w = _answer(r, _CLAIM_OPS)
                    answers.append(ans)
                    why.append(w)
            s = e.claim(answers)
        if s == -2:
            raise self._refused(resp, why)
        self._sync()
        return None if s < 0 else (s, resp[s])

    def fail(self, seat: int, code: str = ERROR_WA, reason: str = ""):
        """The error rule: ``seat`` loses 30, each other seat gains 10; the game is over."""
        self._e.fail(seat)
        self._sync()                               # (the engine's error event is not logged: below, with its reason)
        self.error = (seat, code, reason)
        self.scores = self._e.scores()
        self._event = (code, seat, None, None)
        self.log.append(("Error", seat, code, reason))

    # ------------------------------------------------------------------ what a seat may answer

    def legal_actions(self, seat: int) -> list:
        """Every legal response of ``seat`` to the current request."""
        strings = _ACTION_STRINGS
        return [strings[a] for a in self._e.legal(seat)]

    def kong_allowed(self, seat: int, discarder: Optional[int] = None) -> bool:
        """After its own draw (``discarder`` None), a concealed or added kong
        needs a tile left in the seat's own wall and in the next seat's.  A
        melded kong of ``discarder``'s discard needs the discard to be
        claimable (:meth:`claims_allowed`) and a tile in the claimer's own
        wall, its replacement; the wall after the claimer does not matter."""
        return self._e.kong_allowed(seat, -1 if discarder is None else discarder)

    def claims_allowed(self, discarder: int) -> bool:
        """A discard can be chowed, punged or konged only while the wall of
        the seat after the discarder still holds a tile.  The discarder's own
        wall does not matter: seat 0's last discard may be claimed by seats
        1-3 while seat 1's wall holds a tile, as the platform's judge does."""
        return self._e.claims_allowed(discarder)

    def hu_context(self, seat: int) -> Optional[dict]:
        """If ``seat`` may declare Hu now: the context the judge would score it
        with, a dict (tile, self_drawn, fourth_tile, last_tile, kong); else None."""
        c = self._e.hu_context(seat)
        if c is None:
            return None
        return {"tile": c[0], "self_drawn": c[1], "fourth_tile": c[2], "last_tile": c[3], "kong": c[4]}

    def hu_value(self, seat: int) -> int:
        """What ``seat`` would score by declaring Hu now (the records' ``canHu``):
        the total (even under 8), -3 if it may declare but does not win, -4 if
        it cannot declare now."""
        return self._e.hu_value(seat)

    def hu_ok(self, seat: int) -> bool:
        """Declaring Hu now is legal: the hand wins with the mcr rule set's
        minimum (8 points) or more besides flowers."""
        v = self._e.hu_value(seat)
        return MCR_RULES.legal(v, len(self.flowers[seat])) if v > 0 else False

    def score_hand(self, seat: int, ctx: dict):
        """Score seat's hand for a Hu in context ``ctx`` (from :meth:`hu_context`).
        Returns (hand in our notation, Score); raises NotWinning."""
        return score_win(seat, self.hands[seat], self.melds[seat], ctx, self.quan, len(self.flowers[seat]))

    # ------------------------------------------------------------------ views

    def hand_tiles(self, seat: int) -> list:
        """Concealed tiles of ``seat`` as a sorted list of indices."""
        h = self.hands[seat]
        return [t for t in range(N_KINDS) for _ in range(h[t])]

    def remaining(self) -> list:
        """Per tile kind, copies not yet in any hand, meld or river (the walls' contents)."""
        c = [4] * N_KINDS
        for s in range(4):
            h = self.hands[s]
            for t in range(N_KINDS):
                c[t] -= h[t]
            for m in self.melds[s]:
                for u in m.tiles():
                    c[u] -= 1
            for u in self.discards[s]:
                c[u] -= 1
        return c


def _melds_view(e):
    return [[GameMeld(_KINDS[k], t, None if f < 0 else f, None if c < 0 else c, bool(a))
             for k, t, f, c, a in e.melds_of(s)] for s in range(4)]


# GameState's views of the engine (GameState._view): hands, melds, discards, flowers, shown
_VIEWS = (lambda e: [e.hand_of(0), e.hand_of(1), e.hand_of(2), e.hand_of(3)], _melds_view,
          lambda e: [e.river_of(0), e.river_of(1), e.river_of(2), e.river_of(3)],
          lambda e: [e.flowers_of(0), e.flowers_of(1), e.flowers_of(2), e.flowers_of(3)],
          lambda e: e.shown_of())
