"""Scoring one MCR hand: ``mjfast.score("[567m2][EEE1]45m678pFF6m", self_drawn=True)``.

The fan table (names, points, exclusions) is the data in
:mod:`mjfast.rules.mcr`; it is loaded into the compiled engine once, here.
Everything about the hand is validated in Python before the kernel runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _core
from .errors import InvalidHand, NotWinning
from .hand import Hand, parse_hand
from .rules.mcr import DEMOTES_FULLY_CONCEALED_HAND, MCR
from .tiles import TILE_NAMES

__all__ = ["score", "Score", "FanResult", "hand_args", "WINDS", "MIN_POINTS"]

#: Seat and round winds, by number.
WINDS = ("E", "S", "W", "N")
#: The minimum to declare a win (起和), flowers not counted.
MIN_POINTS = 8

_FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
_KIND = {"chow": 0, "pung": 1, "kong": 2}
_PACK_TYPES = {1: "chow", 2: "pung", 3: "kong", 5: "pair"}
_FLOWER_ID = MCR["flower_tiles"].id


def _load_table(table=MCR):
    n = max(table.ids) + 1
    points = np.zeros(n, dtype=np.int16)
    masks = np.zeros((n, 2), dtype=np.uint64)
    demote = np.zeros(n, dtype=np.uint8)
    for fan in table:
        points[fan.id] = fan.points
        for key in fan.excludes:
            j = table[key].id
            masks[fan.id, j // 64] |= np.uint64(1) << np.uint64(j % 64)
        if fan.key in DEMOTES_FULLY_CONCEALED_HAND:
            demote[fan.id] = 1
    _core.set_fan_table(points.tolist(), masks.tolist(), demote.tolist())


_load_table()

# fan id -> Fan record, for building results
_BY_ID = {fan.id: fan for fan in MCR}


def _wind(value, field: str) -> int:
    if isinstance(value, str) and value.upper() in WINDS:
        return WINDS.index(value.upper())
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value <= 3:
        return int(value)
    raise InvalidHand(f"{field} must be one of E S W N (or 0-3), got {value!r}")


def hand_args(hand, self_drawn=False, fourth_tile=False, kong=False, last_tile=False,
              seat_wind="E", round_wind="E", flowers=0):
    """Validate one hand and its context; returns the packed arguments of the kernel."""
    if isinstance(hand, str):
        h = parse_hand(hand)
    elif isinstance(hand, Hand):
        h = hand
    else:
        raise InvalidHand(f"a hand is a notation string or a Hand, got {type(hand).__name__}")
    if not h.tiles:
        raise InvalidHand("a winning hand needs a winning tile (the last concealed tile)")
    if h.n_tiles != 14:
        raise InvalidHand(
            f"a winning hand has 14 tiles counting 3 per meld; got {len(h.tiles)} concealed"
            f" + {len(h.melds)} melds = {h.n_tiles}"
        )
    if isinstance(flowers, bool) or not isinstance(flowers, (int, np.integer)) or not 0 <= flowers <= 8:
        raise InvalidHand(f"flowers must be an int 0-8, got {flowers!r}")
    flowers = int(flowers) + (h.flowers or 0)
    if flowers > 8:
        raise InvalidHand(f"at most 8 flowers, got {flowers}")
    melds = np.zeros((4, 3), dtype=np.uint8)
    for i, m in enumerate(h.melds):
        melds[i, 0] = _KIND[m.kind]
        melds[i, 1] = m.tile
        melds[i, 2] = 0 if m.concealed else 1
    flags = (1 if self_drawn else 0) | (2 if fourth_tile else 0) | (4 if kong else 0) | (8 if last_tile else 0)
    counts = np.ascontiguousarray(h.counts, dtype=np.uint8)
    return h, counts, melds, len(h.melds), int(h.win_tile), flags, _wind(seat_wind, "seat_wind"), \
        _wind(round_wind, "round_wind"), flowers


@dataclass(frozen=True)
class FanResult:
    """One scored fan: ``points`` is per instance, ``count`` how many times it scored."""
    name: str
    zh: str
    points: int
    count: int
    key: str
    id: int

    @property
    def total(self) -> int:
        return self.points * self.count

    def __str__(self) -> str:
        times = f" x{self.count}" if self.count > 1 else ""
        return f"{self.name} ({self.zh}) {self.points}{times}"


class Score:
    """The result of :func:`score`.

    ``total`` (flowers included), ``fans`` (list of :class:`FanResult`, highest
    first), ``decomposition`` (the sets of the reading used), ``form``,
    ``is_legal_win``; :meth:`settlement` gives the point changes.
    """

    __slots__ = ("total", "self_drawn", "flowers", "_buf", "_fans")

    def __init__(self, total, buf, self_drawn, flowers):
        self.total = total
        self.self_drawn = self_drawn
        self.flowers = flowers
        self._buf = buf          # int16[100]: fan counts by id, form, packs
        self._fans = None

    @property
    def fans(self) -> list:
        if self._fans is None:
            self._fans = _fans_from_counts(self._buf[:84])
        return self._fans

    @property
    def form(self) -> str:
        return _FORMS[int(self._buf[84])]

    @property
    def decomposition(self) -> tuple:
        b = self._buf
        packs = [(int(b[85 + 3 * i]), int(b[86 + 3 * i]), int(b[87 + 3 * i])) for i in range(5) if b[85 + 3 * i]]
        return _decomposition(packs)

    @property
    def points_without_flowers(self) -> int:
        return self.total - self.flowers

    @property
    def is_legal_win(self) -> bool:
        """At least 8 points not counting flowers (the MCR minimum, 起和)."""
        return self.points_without_flowers >= MIN_POINTS

    legal = is_legal_win

    def fan_counts(self) -> np.ndarray:
        """int16 counts indexed by fan id (0 unused, 1-82)."""
        return self._buf[:83].copy()

    def __contains__(self, name) -> bool:
        return any(f.name == name or f.key == name for f in self.fans)

    def settlement(self, discarder: Optional[int] = None) -> tuple:
        """Point changes for (winner, next player, opposite, previous player).

        Self-drawn: each other player pays 8 + F.  On a discard, ``discarder`` is
        1 (next), 2 (opposite) or 3 (previous player, 上家): the discarder pays
        8 + F and the other two pay 8.  F = total points, flowers included.
        """
        f = self.total
        if self.self_drawn:
            if discarder is not None:
                raise ValueError("a self-drawn win has no discarder")
            return (3 * (8 + f), -(8 + f), -(8 + f), -(8 + f))
        if discarder not in (1, 2, 3):
            raise ValueError("on a discard win give discarder=1, 2 or 3 (seats after the winner)")
        out = [24 + f, -8, -8, -8]
        out[discarder] = -(8 + f)
        return tuple(out)

    def as_dict(self) -> dict:
        return {
            "total": self.total,
            "fans": [{"name": f.name, "zh": f.zh, "points": f.points, "count": f.count} for f in self.fans],
            "legal": self.is_legal_win,
        }

    def __repr__(self) -> str:
        fans = ", ".join(str(f) for f in self.fans)
        return f"Score(total={self.total}, legal={self.is_legal_win}, fans=[{fans}])"


def _fans_from_counts(counts) -> list:
    out = []
    for fid in np.flatnonzero(counts):
        c = int(counts[fid])
        if c <= 0:
            continue
        fan = _BY_ID[int(fid)]
        out.append(FanResult(fan.en, fan.zh, fan.points, c, fan.key, fan.id))
    # highest value first, then table order
    out.sort(key=lambda f: (-f.points, f.id))
    return out


def _decomposition(packs):
    out = []
    for typ, tile, melded in packs:
        kind = _PACK_TYPES[typ]
        if kind == "chow":
            tiles = TILE_NAMES[tile][0] + TILE_NAMES[tile + 1][0] + TILE_NAMES[tile + 2]
        elif tile < 27:
            n = {"pung": 3, "kong": 4, "pair": 2}[kind]
            tiles = TILE_NAMES[tile][0] * n + TILE_NAMES[tile][1]
        else:
            tiles = TILE_NAMES[tile] * {"pung": 3, "kong": 4, "pair": 2}[kind]
        out.append((kind, tiles, bool(melded)))
    return tuple(out)


_WIND_CODE = {"E": 0, "S": 1, "W": 2, "N": 3, 0: 0, 1: 1, 2: 2, 3: 3}


def score(hand, *, self_drawn: bool = False, fourth_tile: bool = False, kong: bool = False,
          last_tile: bool = False, seat_wind="E", round_wind="E", flowers: int = 0) -> Score:
    """Score a winning MCR hand.

    ``hand``: notation with melds first and the winning tile last
    (``"[567m2][EEE1]45m678pFF6m"``) or a :class:`~mjfast.Hand`.
    ``kong``: robbing the kong on a discard win, out with a replacement tile on a
    self-drawn win.  ``last_tile``: last tile draw / last tile claim.
    ``fourth_tile``: the winning tile is the last of its kind (和绝张).
    Flags that cannot hold are normalised as the reference does (docs/rulings.md, 4):
    fourth_tile is dropped when you hold another copy of the winning tile and
    set when your melds hold three; kong is dropped for a self-drawn win with
    no kong, or a discard win on a tile you already hold.

    Raises :class:`~mjfast.NotWinning` if the tiles are not a winning hand,
    :class:`~mjfast.InvalidHand` for malformed input.
    """
    buf = np.zeros(100, dtype=np.int16)
    if type(hand) is str:
        # fast path: the compiled parser takes well-formed compact notation;
        # anything else goes through the Python parser for a precise message
        seat = _WIND_CODE.get(seat_wind) if type(seat_wind) in (str, int) else None
        rnd = _WIND_CODE.get(round_wind) if type(round_wind) in (str, int) else None
        if seat is not None and rnd is not None and type(flowers) is int and 0 <= flowers <= 8:
            flags = (1 if self_drawn else 0) | (2 if fourth_tile else 0) | (4 if kong else 0) | (8 if last_tile else 0)
            total = _core.score_str(hand, flags, seat, rnd, flowers, buf)
            if total >= 0:
                return Score(total, buf, bool(self_drawn), flowers)
            if total == -1:
                raise NotWinning(f"not a winning hand: {hand}")
            if total == -3:  # pragma: no cover - the parser validated the hand
                raise InvalidHand(f"invalid hand: {hand}")
    h, counts, melds, n_melds, win, flags, seat, rnd, fl = hand_args(
        hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
    total, form, packs = _core.score_one(counts, melds, n_melds, win, flags, seat, rnd, fl, buf[:84])
    if total == -3:  # pragma: no cover - hand_args validated the hand
        raise InvalidHand(f"invalid hand: {hand}")
    if total < 0:
        raise NotWinning(f"not a winning hand: {hand if isinstance(hand, str) else h}")
    buf[84] = form
    for i, (typ, tile, melded) in enumerate(packs):
        buf[85 + 3 * i:88 + 3 * i] = (typ, tile, melded)
    return Score(total, buf, bool(self_drawn), fl)
