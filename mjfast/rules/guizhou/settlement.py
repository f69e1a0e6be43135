"""Guizhou catch-chicken (捉鸡麻将): the settlement of a finished game.

:func:`settle` takes a :class:`GuizhouGame` (or a dict of its fields) and
returns a :class:`Settlement`: every payment between the players
(:class:`Payment`: payer, payee, amount, reason) and each player's total,
which sum to zero.  docs/rules.md ("guizhou") works an example through.

The record holds the four final hands, with their melds in our notation (a
kong's claim digit says who fed it: 1 = left, 上家, the seat before; 2 =
opposite; 3 = right), so the kongs (豆) by kind, the chicken tiles held and
who is ready are read from the hands, not told twice.  The rest is what the
hands cannot show: who won and on whose discard, each player's discards left
on the table, the first discarded 幺鸡 and who claimed it, the flipped tile,
the late kongs (憨包豆) and the special circumstances of the win.

Payment reasons (:attr:`Payment.reason`):

============================  =================================================
``pattern``                   the winner's pattern (牌型), bonuses included
``kong``                      a 豆: 闷豆 / 爬坡豆 from each other player, 接豆 from its feeder
``chicken``                   the chicken tiles (鸡) a player holds or discarded
``responsibility_chicken``    责任鸡: the first 幺鸡's discarder pays its claimer 1 more
``chicken_liability``         包鸡 (or 鸡全包)
``kong_liability``            豆全包
``hot_discard_kong``          热炮赔分: the 热炮 discarder pays the kong's value
``drawn_game``                黄庄: a player who is not ready pays each ready one
============================  =================================================
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Mapping, Optional

import numpy as np

from ...errors import InvalidHand
from ...hand import Hand, parse_hand
from ...tiles import TILE_NAMES
from ..base import cannot_hold, get
from .hand import check_hand, ready_value, score_guizhou, context_items, pattern_points

__all__ = ["GuizhouGame", "Payment", "Settlement", "KongRecord", "settle", "chicken_tiles", "REASONS"]

PLAYERS = 4
YAOJI = 18            # 1s, the 幺鸡
REASONS = ("pattern", "kong", "chicken", "responsibility_chicken", "chicken_liability", "kong_liability",
           "hot_discard_kong", "drawn_game")
KONG_KINDS = {"concealed": "闷豆", "added": "爬坡豆", "melded": "接豆", "late": "憨包豆"}


@dataclass(frozen=True)
class GuizhouGame:
    """A finished game of Guizhou catch-chicken (four players, seats 0-3 in
    turn order: seat s + 1 plays after seat s).

    ``hands``: the four final hands (notation string or :class:`~mjfast.Hand`):
    a winner's with 14 tiles, the winning tile last; the others with 13
    (each kong counting 3).  Melded pungs and kongs carry their claim digit
    (1 = left = seat - 1, 2 = opposite, 3 = right); an added kong's digit
    says who fed its pung.

    ``winners``: the seats that won (empty: a drawn game, 黄庄).
    ``discarder``: the seat whose discard they won on (or whose added kong
    they robbed); None for a self-drawn win (one winner).
    ``dealer``: the dealer's seat.
    ``discards``: each player's discards still on the table (claimed
    discards are in the claimer's hand instead); tiles as indices or names.
    ``first_chicken``: the seat that discarded the first 幺鸡 (1s) of the
    game, the 冲锋鸡; None if no 1s was discarded.
    ``first_chicken_claimed_by``: the seat that claimed that 1s: by a pung
    or kong (it becomes a 责任鸡) or by winning on it; None if it stayed on
    the table.
    ``flipped``: the flipped tile (翻鸡); None when none was flipped (a
    drawn game, or the wall was empty).
    ``late_kongs``: {seat: [tile, ...]}: the kongs that were made late
    (憨包豆); each must be a concealed or added kong of that seat.
    ``robbed``: the winners robbed the discarder's added kong (抢杠); the
    discarder's hand keeps its pung.
    ``hot_kong``: 热炮: the tile of the kong the discarder made just before
    the winning discard.
    ``replacement``: 杠开: the self-drawn win was on a kong's replacement tile.
    ``heavenly``: 天胡 (the dealer's self-drawn win on the dealt tiles).
    ``earthly``: the seats that won 地胡 (non-dealers, first go-around).
    ``declared_ready``: the seats that declared 天听.
    ``ready``: optional, the seats that did not win but are ready (叫牌): read
    from the hands anyway, and checked against them when given.
    """
    hands: tuple
    winners: tuple = ()
    discarder: Optional[int] = None
    dealer: int = 0
    discards: tuple = ((), (), (), ())
    first_chicken: Optional[int] = None
    first_chicken_claimed_by: Optional[int] = None
    flipped: object = None
    late_kongs: Mapping = field(default_factory=dict)
    robbed: bool = False
    hot_kong: object = None
    replacement: bool = False
    heavenly: bool = False
    earthly: tuple = ()
    declared_ready: tuple = ()
    ready: Optional[tuple] = None


@dataclass(frozen=True)
class Payment:
    """One payment: ``payer`` pays ``payee`` ``amount`` (> 0) for ``reason``
    (one of :data:`REASONS`); ``detail`` says what, in words."""
    payer: int
    payee: int
    amount: int
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class KongRecord:
    """A kong (豆): its tile, kind ('concealed' 闷豆, 'added' 爬坡豆,
    'melded' 接豆, 'late' 憨包豆) and, for a melded kong, who fed it (点豆)."""
    tile: int
    kind: str
    fed_by: Optional[int] = None

    @property
    def zh(self) -> str:
        return KONG_KINDS[self.kind]


@dataclass(frozen=True)
class Settlement:
    """The result of :func:`settle`: ``payments`` (every :class:`Payment`),
    ``totals`` (each seat's net, summing to 0), ``scores`` ({winner:
    :class:`~mjfast.rules.guizhou.hand.GuizhouScore`}), ``ready`` (per seat:
    won or ready at the end), ``ready_values`` ({seat: value of the best
    (or worst) wait} for the ready non-winners), ``kongs`` (per seat, a
    tuple of :class:`KongRecord`), ``chickens`` (the chicken tiles),
    ``golden`` / ``silver`` (金鸡 / 银鸡), ``next_dealer``."""
    payments: tuple
    totals: tuple
    scores: Mapping
    ready: tuple
    ready_values: Mapping
    kongs: tuple
    chickens: tuple
    golden: bool
    silver: bool
    next_dealer: int

    def by_reason(self) -> dict:
        """{reason: net per seat} for the reasons that occur."""
        out: dict = {}
        for p in self.payments:
            row = out.setdefault(p.reason, [0] * PLAYERS)
            row[p.payer] -= p.amount
            row[p.payee] += p.amount
        return {k: tuple(v) for k, v in out.items()}

    def as_dict(self) -> dict:
        return {"totals": list(self.totals),
                "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason,
                              "detail": p.detail} for p in self.payments],
                "winners": {w: s.as_dict() for w, s in self.scores.items()},
                "ready": list(self.ready), "chickens": [TILE_NAMES[t] for t in self.chickens],
                "golden": self.golden, "silver": self.silver, "next_dealer": self.next_dealer,
                "kongs": [[{"tile": TILE_NAMES[k.tile], "kind": k.kind, "fed_by": k.fed_by} for k in ks]
                          for ks in self.kongs]}


# -- validation helpers ---------------------------------------------------------

def _seat(v, name, allow_none=False):
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name} must be a seat 0-3{' or None' if allow_none else ''}, got {v!r}")
    if not 0 <= int(v) < PLAYERS:
        raise ValueError(f"{name} must be a seat 0-3, got {v!r}")
    return int(v)


def _seats(v, name):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError(f"{name} must be a list of seats 0-3, got {v!r}")
    out = tuple(_seat(x, f"{name}[{i}]") for i, x in enumerate(v))
    if len(set(out)) != len(out):
        raise ValueError(f"{name} lists a seat twice: {list(out)}")
    return out


def _tile(v, name, allow_none=False):
    if v is None and allow_none:
        return None
    if isinstance(v, str):
        if v in TILE_NAMES[:27]:
            return TILE_NAMES.index(v)
        raise ValueError(f"{name} must be a suit tile (1m-9m, 1p-9p, 1s-9s), got {v!r}")
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name} must be a tile (index 0-26 or a name such as '1s'), got {v!r}")
    if not 0 <= int(v) < 27:
        raise ValueError(f"{name} must be a suit tile index 0-26, got {v!r}")
    return int(v)


def _bool(v, name):
    if v is True or v is False or isinstance(v, np.bool_):
        return bool(v)
    raise TypeError(f"{name} must be true or false, got {v!r}")


def _game(game) -> GuizhouGame:
    if isinstance(game, GuizhouGame):
        return game
    if isinstance(game, Mapping):
        known = {f.name for f in fields(GuizhouGame)}
        extra = sorted(set(game) - known)
        if extra:
            raise TypeError(f"unknown game field(s) {', '.join(map(repr, extra))} (fields: {', '.join(sorted(known))})")
        if "hands" not in game:
            raise TypeError("the game record needs 'hands' (the four final hands)")
        return GuizhouGame(**game)
    raise TypeError(f"settle() takes a GuizhouGame or a dict of its fields, got {type(game).__name__}")


def _hand(v, i, opts, size):
    name = f"hands[{i}]"
    try:
        h = v if isinstance(v, Hand) else parse_hand(v) if isinstance(v, str) else None
    except InvalidHand as e:
        raise InvalidHand(f"{name}: {e}") from None
    if h is None:
        raise TypeError(f"{name} must be a hand (notation string or mjfast.Hand), got {type(v).__name__}")
    if h.n_tiles != size:
        what = "a winner's hand has 14 tiles" if size == 14 else "a hand that did not win has 13 tiles"
        raise InvalidHand(f"{name}: {what} counting 3 per meld, got {h.n_tiles}")
    check_hand(h, opts, name)
    return h


def _kongs(h, seat, late):
    """The seat's kongs (KongRecord), checking the late ones and claim digits."""
    out = []
    late = list(late)
    for m in h.melds:
        if m.kind != "kong":
            continue
        if m.tile in late and (m.concealed or m.added):
            late.remove(m.tile)
            out.append(KongRecord(m.tile, "late"))
        elif m.concealed:
            out.append(KongRecord(m.tile, "concealed"))
        elif m.added:
            out.append(KongRecord(m.tile, "added"))
        else:
            if not m.claimed:
                raise ValueError(f"hands[{seat}]: the melded kong of {TILE_NAMES[m.tile]} needs its claim digit "
                                 f"1-3 (who fed it, 点豆), e.g. [{TILE_NAMES[m.tile][0] * 4}{TILE_NAMES[m.tile][1]}1]")
            out.append(KongRecord(m.tile, "melded", (seat - m.claimed) % PLAYERS))
    if late:
        raise ValueError(f"late_kongs[{seat}]: {TILE_NAMES[late[0]]} is not a concealed or added kong of seat {seat}")
    return tuple(out)


def chicken_tiles(flipped, opts) -> tuple:
    """(chicken tiles, 金鸡, 银鸡) for a flipped tile (None: only the 幺鸡)."""
    ch = {YAOJI}
    golden = silver = False
    if flipped is not None:
        suit, rank = divmod(flipped, 9)
        ch.add(suit * 9 + (rank + 1) % 9)
        if opts["up_down_chicken"] and (rank > 0 or opts["up_down_wraps"]):
            ch.add(suit * 9 + (rank - 1) % 9)
        golden = flipped == 26 and opts["golden_chicken"]
        silver = flipped in (8, 17) and opts["silver_chicken"]
    return tuple(sorted(ch)), golden, silver


# -- settle -------------------------------------------------------------------------

def settle(game, rules=None, **options) -> Settlement:
    """Every payment of a finished game of Guizhou catch-chicken.

    ``game``: a :class:`GuizhouGame` or a dict of its fields.  ``rules``: the
    rule set (default ``"guizhou"``) or None; ``options`` change its options
    (``settle(game, up_down_chicken=True)``).  Raises ValueError (or
    :class:`~mjfast.InvalidHand`, a ValueError) naming the field for a record
    that cannot be, TypeError for a wrong type.  The payments sum to zero
    (checked).
    """
    rs = get("guizhou" if rules is None else rules, **options)
    if rs.engine != "guizhou":
        raise ValueError(f"settle() settles rule set 'guizhou', got {rs.name!r}")
    opts = rs.options
    g = _game(game)
    ctx = _Context(g, rs)
    pays: list = []
    ctx.pattern_payments(pays)
    if ctx.winners:
        ctx.kong_payments(pays)
        ctx.chicken_payments(pays)
        ctx.liabilities(pays)
    elif opts["drawn_game_payment"]:
        ctx.drawn_game_payments(pays)
    totals = [0] * PLAYERS
    for p in pays:
        totals[p.payer] -= p.amount
        totals[p.payee] += p.amount
    if sum(totals) != 0:     # pragma: no cover - every payment moves points from one seat to another
        raise AssertionError(f"guizhou settlement does not sum to zero: {totals}")
    dealer = ctx.dealer
    if opts["dealer_repeat"] and (dealer in ctx.winners or not ctx.winners):
        nxt = dealer
    else:
        nxt = (dealer + 1) % PLAYERS
    return Settlement(tuple(pays), tuple(totals), dict(ctx.scores), tuple(ctx.ready), dict(ctx.ready_values),
                      tuple(ctx.kongs), ctx.chickens, ctx.golden, ctx.silver, nxt)


class _Context:
    """The validated record and what is derived from it."""

    def __init__(self, g: GuizhouGame, rs):
        opts = self.opts = rs.options
        self.rs = rs
        # -- who won, on what ------------------------------------------------------
        self.winners = _seats(g.winners, "winners")
        self.discarder = _seat(g.discarder, "discarder", allow_none=True)
        self.dealer = _seat(g.dealer, "dealer")
        self.robbed = _bool(g.robbed, "robbed")
        self.replacement = _bool(g.replacement, "replacement")
        self.heavenly = _bool(g.heavenly, "heavenly")
        self.earthly = _seats(g.earthly, "earthly")
        self.declared = _seats(g.declared_ready, "declared_ready")
        self.hot_kong = _tile(g.hot_kong, "hot_kong", allow_none=True)
        self.flipped = _tile(g.flipped, "flipped", allow_none=True)
        w, d = self.winners, self.discarder
        if not w:
            for name, bad in (("discarder", d is not None), ("robbed", self.robbed),
                              ("hot_kong", self.hot_kong is not None), ("replacement", self.replacement),
                              ("heavenly", self.heavenly), ("earthly", bool(self.earthly)),
                              ("flipped", self.flipped is not None)):
                if bad:
                    raise ValueError(f"{name}: a drawn game (no winners) has none"
                                     + (" (no tile is flipped in a drawn game)" if name == "flipped" else ""))
        if d is None and len(w) > 1:
            raise ValueError(f"winners: several winners ({list(w)}) need a discarder (一炮多响)")
        if len(w) > 1 and not opts["multiple_winners"]:
            raise ValueError("winners: several winners on one discard, but the 一炮多响 rule is off "
                             "(option multiple_winners=False)")
        if d is not None and d in w:
            raise ValueError(f"discarder: seat {d} cannot win on their own discard")
        if self.robbed and d is None:
            raise ValueError("robbed: robbing a kong (抢杠) needs the konger as the discarder")
        if self.robbed and not opts["rob_kong"]:
            raise ValueError("robbed: the 抢杠 rule is off (option rob_kong=False)")
        if self.hot_kong is not None:
            if d is None or self.robbed:
                raise ValueError("hot_kong: 热炮 is a win on an ordinary discard (needs a discarder, not robbed)")
            if not opts["hot_discard"]:
                raise ValueError("hot_kong: the 热炮 rule is off (option hot_discard=False)")
        if self.replacement:
            if d is not None:
                raise ValueError("replacement: 杠开 is a self-drawn win")
            if not opts["out_on_kong"]:
                raise ValueError("replacement: the 杠开 rule is off (option out_on_kong=False)")
        if self.heavenly:
            if d is not None or w != (self.dealer,):
                raise ValueError("heavenly: 天胡 is the dealer's self-drawn win")
            if not opts["heavenly_hand"]:
                raise ValueError("heavenly: the 天胡 rule is off (option heavenly_hand=False)")
        for s in self.earthly:
            if s not in w or s == self.dealer:
                raise ValueError(f"earthly: seat {s} is not a winner other than the dealer (地胡)")
        if self.earthly and not opts["earthly_hand"]:
            raise ValueError("earthly: the 地胡 rule is off (option earthly_hand=False)")
        if self.declared and not opts["ready_at_start"]:
            raise ValueError("declared_ready: the 天听 rule is off (option ready_at_start=False)")
        # -- the hands --------------------------------------------------------------
        hands = g.hands
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != PLAYERS:
            raise TypeError(f"hands must be a list of the {PLAYERS} final hands, got {hands!r}"[:200])
        self.hands = [_hand(v, i, opts, 14 if i in w else 13) for i, v in enumerate(hands)]
        late = g.late_kongs
        if not isinstance(late, Mapping):
            raise TypeError(f"late_kongs must be a dict {{seat: [tile, ...]}}, got {late!r}")
        late_by: list = [[] for _ in range(PLAYERS)]
        for s, ts in late.items():
            s = _seat(s, "late_kongs (a key)")
            if isinstance(ts, (str, bytes)) or not hasattr(ts, "__iter__"):
                raise TypeError(f"late_kongs[{s}] must be a list of tiles, got {ts!r}")
            late_by[s] = [_tile(t, f"late_kongs[{s}][{j}]") for j, t in enumerate(ts)]
        self.kongs = [_kongs(h, s, late_by[s]) for s, h in enumerate(self.hands)]
        disc = g.discards
        if isinstance(disc, (str, bytes)) or not hasattr(disc, "__len__") or len(disc) != PLAYERS:
            raise TypeError(f"discards must be a list of {PLAYERS} lists of tiles, got {disc!r}"[:200])
        self.discards = []
        for s, ts in enumerate(disc):
            if isinstance(ts, (str, bytes)) or not hasattr(ts, "__iter__"):
                raise TypeError(f"discards[{s}] must be a list of tiles, got {ts!r}")
            self.discards.append([_tile(t, f"discards[{s}][{j}]") for j, t in enumerate(ts)])
        # -- the winning tile, the robbed kong, the hot kong --------------------------
        self.win_tile = None
        if w and d is not None:
            tiles = {int(self.hands[s].win_tile) for s in w}
            if len(tiles) > 1:
                raise ValueError(f"hands: the winners on one discard end on different tiles "
                                 f"({', '.join(TILE_NAMES[t] for t in sorted(tiles))})")
            self.win_tile = tiles.pop()
            if self.robbed and not any(m.kind == "pung" and m.tile == self.win_tile and not m.concealed
                                       for m in self.hands[d].melds):
                raise ValueError(f"robbed: the discarder (seat {d}) has no melded pung of "
                                 f"{TILE_NAMES[self.win_tile]} to add the robbed tile to")
        if self.hot_kong is not None and not any(k.tile == self.hot_kong for k in self.kongs[d]):
            raise ValueError(f"hot_kong: the discarder (seat {d}) has no kong of {TILE_NAMES[self.hot_kong]}")
        # -- chickens ----------------------------------------------------------------
        self.first = _seat(g.first_chicken, "first_chicken", allow_none=True)
        self.claimer = _seat(g.first_chicken_claimed_by, "first_chicken_claimed_by", allow_none=True)
        self.responsibility = False
        if self.first is None:
            if self.claimer is not None:
                raise ValueError("first_chicken_claimed_by: no first_chicken (冲锋鸡) is given")
            for s in range(PLAYERS):
                if YAOJI in self.discards[s]:
                    raise ValueError(f"first_chicken: discards[{s}] holds a 1s, so a first 幺鸡 (冲锋鸡) was "
                                     f"discarded: give its seat")
        elif self.claimer is None:
            if YAOJI not in self.discards[self.first]:
                raise ValueError(f"first_chicken: the 冲锋鸡 stayed on the table, so discards[{self.first}] "
                                 f"must hold a 1s")
        else:
            c, f = self.claimer, self.first
            if c == f:
                raise ValueError("first_chicken_claimed_by: a player cannot claim their own discard")
            won_on_it = c in w and d == f and self.win_tile == YAOJI and not self.robbed
            claimed = [m for m in self.hands[c].melds
                       if m.tile == YAOJI and m.kind in ("pung", "kong") and not m.concealed
                       and (c - m.claimed) % PLAYERS == f and m.claimed]
            if not won_on_it and not claimed:
                raise ValueError(f"first_chicken_claimed_by: seat {c} has no pung or kong of 1s claimed from "
                                 f"seat {f} (claim digit {(c - f) % PLAYERS}) and did not win on its discard")
            if not won_on_it:
                is_kong_claim = all(m.kind == "kong" and not m.added for m in claimed)
                self.responsibility = not is_kong_claim or opts["kong_claim_is_responsibility"]
        self.chickens, self.golden, self.silver = chicken_tiles(self.flipped, opts)
        self._count_tiles()
        # -- scores of the winners, readiness of the others ---------------------------
        self.scores = {}
        for s in w:
            flags = {"self_drawn": d is None, "kong": self.replacement or self.robbed,
                     "discard_after_kong": self.hot_kong is not None,
                     "heavenly_hand": self.heavenly and s == self.dealer,
                     "earthly_hand": s in self.earthly, "ready_at_start": s in self.declared}
            sc = score_guizhou(self.hands[s], rs, flags)
            if sc.ignored_flags:
                raise ValueError(f"hands[{s}]: " + cannot_hold(sc.ignored_flags))
            if not sc.legal:
                raise ValueError(f"hands[{s}]: {sc.pass_note}, so seat {s} could not win")
            self.scores[s] = sc
        self.ready = [s in w for s in range(PLAYERS)]
        self.ready_values = {}
        for s in range(PLAYERS):
            if s in w:
                continue
            special = "ready_at_start" if s in self.declared else None
            waits, best = ready_value(self.hands[s], opts, special)
            if special and not waits:
                raise ValueError(f"declared_ready: seat {s} declared 天听 but hands[{s}] is not ready")
            if waits:
                self.ready[s] = True
                if opts["drawn_game_value"] == "worst_wait":
                    best = min(_wait_values(self.hands[s], opts, special, waits))
                self.ready_values[s] = best
        if g.ready is not None:
            told = set(_seats(g.ready, "ready"))
            found = {s for s in range(PLAYERS) if self.ready[s] and s not in w}
            if told != found:
                raise ValueError(f"ready: the record says seats {sorted(told)} are ready, the hands say "
                                 f"{sorted(found)} (a winner is not listed; a hand whose only wins are a 平胡 "
                                 f"without a pass is not ready under ready_needs_pass)")

    def _count_tiles(self):
        """No kind more than 4 times among the hands, the discards and the flipped tile."""
        c = np.zeros(34, np.int64)
        for h in self.hands:
            c += h.all_counts
        if self.win_tile is not None:
            c[self.win_tile] -= len(self.winners) - 1     # one discarded tile, in every winner's hand
        for ts in self.discards:
            for t in ts:
                c[t] += 1
        if self.flipped is not None:
            c[self.flipped] += 1
        over = [TILE_NAMES[t] for t in range(34) if c[t] > 4]
        if over:
            raise ValueError(f"hands, discards and flipped hold more than 4 copies of {', '.join(over)}")

    # -- the parts of the settlement -------------------------------------------------
    def others(self, s):
        return [o for o in range(PLAYERS) if o != s]

    def pattern_payments(self, pays):
        d = self.discarder
        for s, sc in self.scores.items():
            v = sc.total
            detail = f"{sc.pattern} " + " + ".join(f"{i.zh} {i.total}" for i in sc.fans)
            if d is None:
                for o in self.others(s):
                    pays.append(Payment(o, s, v, "pattern", detail + " (self-drawn: each pays)"))
            elif self.robbed:
                n = PLAYERS - 1 if self.opts["rob_kong_payment"] == "all" else 1
                pays.append(Payment(d, s, v * n, "pattern",
                                    detail + (f" (抢杠: the konger pays for {n})" if n > 1 else " (抢杠)")))
            elif self.opts["discard_win_payer"] == "everyone":
                for o in self.others(s):
                    pays.append(Payment(o, s, v, "pattern", detail))
            else:
                pays.append(Payment(d, s, v, "pattern", detail + " (the discarder pays)"))
            if self.hot_kong is not None and self.opts["hot_discard_pays_kong"]:
                k = next(k for k in self.kongs[d] if k.tile == self.hot_kong)
                amount = {"melded": 3, "concealed": 9, "added": 9, "late": 0}[k.kind]
                if amount:
                    pays.append(Payment(d, s, amount, "hot_discard_kong",
                                        f"热炮赔分: {k.zh} {TILE_NAMES[k.tile]}"))

    def collects(self, s, what) -> bool:
        """Whether seat s collects its 豆 (what='kong') or 鸡 (what='chicken') income."""
        if s == self.discarder and self.hot_kong is not None:
            return False                       # 热炮: the discarder's 豆 and 鸡 score nothing
        if s == self.discarder and self.robbed:
            if what == "kong" and self.opts["rob_burns_kongs"]:
                return False
            if what == "chicken" and self.opts["rob_burns_chickens"]:
                return False
        if not self.opts["collect_when_not_ready"] and not self.ready[s]:
            return False
        return True

    def kong_payments(self, pays):
        for s in range(PLAYERS):
            if not self.collects(s, "kong"):
                continue
            for k in self.kongs[s]:
                name = f"{k.zh} {TILE_NAMES[k.tile]}"
                if k.kind in ("concealed", "added"):
                    for o in self.others(s):
                        pays.append(Payment(o, s, 3, "kong", name))
                elif k.kind == "melded":
                    pays.append(Payment(k.fed_by, s, 3, "kong", f"{name} (点豆 by seat {k.fed_by})"))

    def mult(self, t) -> int:
        if t == YAOJI and self.golden:
            return 2
        if self.silver and t == (self.flipped + 1) - 9:     # 9m -> 1m, 9p -> 1p
            return 2
        return 1

    def chicken_value(self, s) -> tuple:
        """(value, words) of seat s's chickens: held ones, then discarded ones."""
        opts = self.opts
        h = self.hands[s]
        all_c = h.all_counts
        value = 0
        words = []
        for c in self.chickens:
            n = int(all_c[c])
            if not n:
                continue
            m = self.mult(c)
            if _concealed_kong(h, c):
                v = opts["concealed_chicken_kong"] * m + (0 if opts["chicken_kong_replaces"] else 4 * m)
                words.append(f"闷豆 of {TILE_NAMES[c]} {v}")
            else:
                v = n * m
                words.append(f"{n}x{TILE_NAMES[c]} held {v}")
            value += v
        disc = [t for t in self.discards[s] if t == YAOJI or (opts["full_house_chicken"] and t in self.chickens)]
        if disc:
            v = sum(self.mult(t) for t in disc)
            words.append(f"{len(disc)} discarded {v}")
            value += v
        if s == self.first and self.claimer is None:
            v = self.mult(YAOJI)               # the 冲锋鸡 is worth 2 (4 with 金鸡): 1 more than a discarded 1s
            words.append(f"冲锋鸡 +{v}")
            value += v
        return value, ", ".join(words)

    def chicken_payments(self, pays):
        for s in range(PLAYERS):
            if not self.collects(s, "chicken"):
                continue
            v, words = self.chicken_value(s)
            if v:
                for o in self.others(s):
                    pays.append(Payment(o, s, v, "chicken", words))
        if self.responsibility and self.collects(self.claimer, "chicken"):
            pays.append(Payment(self.first, self.claimer, self.mult(YAOJI), "responsibility_chicken",
                                "责任鸡: the first 幺鸡's discarder pays 1 more"))

    def liabilities(self, pays):
        opts = self.opts
        good = [s for s in range(PLAYERS) if self.ready[s]]
        m = self.mult(YAOJI)
        if opts["all_chickens_liable"]:
            to_all = opts["all_chickens_liable_to"] == "everyone"
            for s in range(PLAYERS):
                if self.ready[s]:
                    continue
                owed, words = self._exposed_chickens(s)
                if owed:
                    for o in (self.others(s) if to_all else good):
                        pays.append(Payment(s, o, owed * m, "chicken_liability", "鸡全包: " + words))
        elif self.first is not None:
            liable = self.claimer if self.responsibility else self.first
            if not self.ready[liable]:
                what = "责任鸡" if self.responsibility else "冲锋鸡"
                for o in good:
                    pays.append(Payment(liable, o, m, "chicken_liability", f"包鸡 ({what})"))
        if opts["all_kongs_liable"]:
            for s in range(PLAYERS):
                if self.ready[s] or not self.collects(s, "kong"):
                    continue
                for k in self.kongs[s]:
                    name = f"豆全包: {k.zh} {TILE_NAMES[k.tile]}"
                    if k.kind == "melded":
                        if self.ready[k.fed_by]:
                            pays.append(Payment(s, k.fed_by, 3, "kong_liability", name))
                    elif k.kind in ("concealed", "added"):
                        for o in good:
                            pays.append(Payment(s, o, 3, "kong_liability", name))

    def _exposed_chickens(self, s) -> tuple:
        """(units, words) a not-ready seat owes under 鸡全包: the 冲锋鸡 and the
        责任鸡 2, any other exposed 幺鸡 1 (discarded, or in a melded pung/kong)."""
        units = 0
        words = []
        discarded = self.discards[s].count(YAOJI)
        melded = sum(3 if m.kind == "pung" else 4 for m in self.hands[s].melds
                     if m.tile == YAOJI and m.kind in ("pung", "kong") and not m.concealed)
        if s == self.first and not self.responsibility:
            units += 2
            words.append("冲锋鸡 2")
            if self.claimer is None:
                discarded -= 1                  # the 冲锋鸡 itself lies among the discards
        if self.responsibility and s == self.claimer:
            units += 2
            words.append("责任鸡 2")
            melded -= 1
        if discarded + melded:
            units += discarded + melded
            words.append(f"{discarded + melded} other exposed 幺鸡")
        return units, ", ".join(words)

    def drawn_game_payments(self, pays):
        for s in range(PLAYERS):
            if self.ready[s]:
                continue
            for o, v in self.ready_values.items():
                if v:
                    pays.append(Payment(s, o, v, "drawn_game", "黄庄: not ready, pays the ready hand's pattern"))


def _concealed_kong(h, tile) -> bool:
    return any(m.kind == "kong" and m.concealed and m.tile == tile for m in h.melds)


def _wait_values(h13, opts, special, waits):
    out = []
    for t in waits:
        pats = pattern_points(Hand(h13.melds, tuple(h13.tiles) + (t,), 0), opts)
        out.append(sum(i.total for i in context_items(pats, {"special": special}, opts)))
    return out
