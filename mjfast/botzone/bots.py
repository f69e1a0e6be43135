"""The sample bot and the baseline bot.

Both keep a :class:`BotState` from the request strings and answer only with
one of ``state.legal_actions()``, so they can never break the rules; both
declare Hu whenever it is legal.

* :class:`BaselineBot` (``mjfast:baseline``) plays as a riichi-minded bot
  would: it discards by plain shanten and then the most useful tiles left,
  claims a chow / pung whenever that lowers its shanten, and never declares a
  kong.  It ignores the 8-point minimum until a winning tile shows up.
* :class:`SampleBot` (``mjfast:sample``) knows the minimum: a ready hand
  counts only the waits that score 8 or more (on a discard or self-drawn), a
  one-away hand is judged by how many draws lead to such a ready hand, and a
  hand farther away by its fan-aware distance (:func:`mjfast.fan_shanten`:
  the nearest pattern worth 8 points - a fan of 8 or more, the 8-point
  forms, a pair of fans that come together) beside its plain shanten.  It
  claims a chow / pung into a hand then ready with an 8-point wait, or one
  whose nearest 8-point target comes nearer; it declares a kong when that
  keeps its shanten.
"""
from __future__ import annotations

from functools import lru_cache

from .. import _core
from ..analysis.discards import winning_tiles
from ..errors import InvalidArgument, InvalidHand
from ..analysis.targets import fan_shanten
from ..game.state import CODES, N_KINDS, GameMeld
from ..tiles import counts_str as _counts_str
from .state import BotState

__all__ = ["Bot", "BaselineBot", "SampleBot", "make_bot", "BOTS"]

_INDEX = {c: i for i, c in enumerate(CODES)}


class Bot:
    """A bot answering request strings (``respond(request)``, also callable).

    Subclasses implement :meth:`decide` (the state -> one of its legal actions).
    A bot is for one game; :meth:`reset` starts another."""

    name = "bot"

    def __init__(self):
        self.state = BotState()
        self.last_error = None

    def reset(self):
        self.state = BotState()

    def respond(self, request: str) -> str:
        st = self.state.update(request)
        legal = st.legal_actions()
        if len(legal) <= 1:
            r = legal[0] if legal else "PASS"
        elif "HU" in legal:
            r = "HU"
        else:
            # a bug in a policy must not cost the game: fall back to a legal answer
            # (the error is kept in last_error for the bot's debug output)
            try:
                r = self.decide(st, legal)
            except Exception as exc:  # noqa: BLE001
                self.last_error = f"{type(exc).__name__}: {exc}"
                r = None
            if r not in legal:
                r = "PASS" if "PASS" in legal else legal[0]
        st.note_response(r)
        return r  # type: ignore[return-value]  # one of legal (str) by now; mypy cannot follow "in"

    __call__ = respond

    def decide(self, st: BotState, legal: list) -> str:
        raise NotImplementedError


# ---------------------------------------------------------------------- hand arithmetic


def _shanten(c, melds):
    return _core.shanten_one(bytes(c), melds, -1)


def _useful(c, melds):
    return _core.useful_one(bytes(c), melds, -1)


def _after(st: BotState, action: str):
    """(concealed counts, number of melds) after a response that ends in a
    discard, or None for the other responses."""
    p = action.split()
    h = list(st.hand)
    n = len(st.melds[st.seat])
    op = p[0]
    if op == "PLAY":
        h[_INDEX[p[1]]] -= 1
    elif op == "PENG":
        h[st.last_tile] -= 2
        h[_INDEX[p[1]]] -= 1
        n += 1
    elif op == "CHI":
        m = _INDEX[p[1]]
        h[st.last_tile] += 1
        for u in (m - 1, m, m + 1):
            h[u] -= 1
        h[_INDEX[p[2]]] -= 1
        n += 1
    else:
        return None
    return h, n


class BaselineBot(Bot):
    """Plain shanten, then useful tiles still unseen; greedy claims; no kongs."""

    name = "baseline"

    def decide(self, st, legal):
        unseen = st.unseen()
        if st.phase == "turn":
            cur = None
        else:
            cur = _shanten(st.hand, len(st.melds[st.seat]))
        best, best_key = "PASS" if "PASS" in legal else None, None
        for a in legal:
            r = _after(st, a)
            if r is None:
                continue
            h, n = r
            s = _shanten(h, n)
            if cur is not None and s >= cur:
                continue            # a claim must lower the shanten
            left = sum(unseen[u] for u in _useful(h, n))
            key = (s, -left, a)
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best


# ---------------------------------------------------------------------- the sample bot


@lru_cache(maxsize=1 << 16)
def _waits8(meld_text: str, counts: bytes, seat: int, quan: int):
    """Winning tiles of a ready hand (melds in notation + concealed counts)
    with an 8-point win: ((tile, on a discard, self-drawn), ...) as booleans."""
    try:
        ws = winning_tiles(meld_text + _counts_str(counts), seat_wind=seat, round_wind=quan)
    except (InvalidHand, InvalidArgument):
        return ()
    return tuple((w.tile, w.discard_legal, w.self_drawn_legal) for w in ws
                 if w.discard_legal or w.self_drawn_legal)


@lru_cache(maxsize=1 << 16)
def _fan_shanten(counts: bytes, melds: tuple) -> int:
    """fan_shanten of concealed counts beside exposed melds ((kind, tile), ...);
    9 when the melds rule out every target worth 8."""
    try:
        fs = fan_shanten(list(counts), melds=list(melds))
    except (InvalidHand, InvalidArgument):
        return 9
    return 9 if fs is None else fs


class SampleBot(Bot):
    """The 8-point-aware sample bot (see the module docstring)."""

    name = "sample"

    #: weight of a wait won only self-drawn, against one won on any discard
    SELF_DRAWN_ONLY = 0.3
    #: a hand whose nearest 8-point target is farther than its shanten counts
    #: as at most this much farther (it may still reach 8 by smaller fans)
    FAN_SLACK = 2
    #: claim a chow / pung that brings an 8-point target nearer (not only
    #: claims that make the hand ready with an 8-point wait)
    CLAIM_ROUTE = True

    def _melds_notation(self, st):
        return "".join(m.to_meld(st.seat).notation() for m in st.melds[st.seat])

    @staticmethod
    def _meld_keys(st):
        return tuple(("chow" if m.kind == "chow" else "pung", m.tile) for m in st.melds[st.seat])

    def _ready_value(self, st, h, n, unseen, meld_text):
        """Unseen copies of the 8-point waits of a ready 13-3n hand (weighted)."""
        v = 0.0
        for t, on_discard, self_drawn in _waits8(meld_text, bytes(h), st.seat, st.quan):
            k = unseen[t]
            v += k if on_discard else k * self.SELF_DRAWN_ONLY
        return v

    def _value(self, st, h, n, unseen, meld_text, mkeys):
        """Sort key of a 13-3n hand (lower is better): (effective distance,
        shanten, -value)."""
        s = _shanten(h, n)
        if s == 0:
            v = self._ready_value(st, h, n, unseen, meld_text)
            if v > 0:
                return (0, 0, -v * 10)
            s = 1                   # ready, but no wait scores 8: as good as one away
        left = sum(unseen[u] for u in _useful(h, n))
        if s == 1:
            # one away: how many draws reach a ready hand with an 8-point wait
            v = 0.0
            for u in _useful(h, n):
                if unseen[u] == 0:
                    continue
                h[u] += 1
                good = 0.0
                for d in range(N_KINDS):
                    if h[d] and d != u:
                        h[d] -= 1
                        if _shanten(h, n) == 0:
                            good = max(good, self._ready_value(st, h, n, unseen, meld_text))
                        h[d] += 1
                h[u] -= 1
                if good > 0:
                    v += unseen[u] * (1 + min(good, 8) / 8)
            if v > 0:
                return (1, 1, -v * 10 - left * 0.1)
            s = 2                   # no draw gives an 8-point wait: as good as two away
        # farther: the fan-aware distance (fan_shanten, the nearest target
        # worth 8 points) beside the plain one
        fs = _fan_shanten(bytes(h), mkeys)
        return (max(s, min(fs, s + self.FAN_SLACK)), s, -left)

    def decide(self, st, legal):
        unseen = st.unseen()
        meld_text = self._melds_notation(st)
        n0 = len(st.melds[st.seat])
        mkeys = self._meld_keys(st)
        if st.phase == "turn":
            return self._turn(st, legal, unseen, meld_text, n0, mkeys)
        return self._claim(st, legal, unseen, meld_text, n0, mkeys)

    def _turn(self, st, legal, unseen, meld_text, n0, mkeys):
        best, best_key = None, None
        for a in legal:
            if not a.startswith("PLAY"):
                continue
            h, n = _after(st, a)
            key = self._value(st, h, n, unseen, meld_text, mkeys)
            if best_key is None or key < best_key:
                best, best_key = a, key
        # a kong that keeps the shanten of the best discard: take it (points, and a replacement draw)
        plain = _shanten(_after(st, best)[0], n0)
        for a in legal:
            if a.startswith(("GANG", "BUGANG")):
                t = _INDEX[a.split()[1]]
                h = list(st.hand)
                concealed = a.startswith("GANG")
                h[t] -= 4 if concealed else 1
                if _shanten(h, n0 + concealed) <= plain:
                    return a
        return best

    def _claim(self, st, legal, unseen, meld_text, n0, mkeys):
        # claim into a ready hand with an 8-point wait, or (CLAIM_ROUTE) into
        # a hand whose 8-point target is nearer; either way better than passing
        cur = list(st.hand)
        base = self._value(st, cur, n0, unseen, meld_text, mkeys)
        best, best_key = "PASS", base
        for a in legal:
            r = _after(st, a)
            if r is None:
                continue
            h, n = r
            s = _shanten(h, n)
            if s != 0 and not (self.CLAIM_ROUTE and s < _shanten(cur, n0)):
                continue
            mt = meld_text + self._claim_meld(st, a)
            p = a.split()
            mk = mkeys + ((("pung", st.last_tile),) if p[0] == "PENG" else (("chow", _INDEX[p[1]] - 1),))
            key = self._value(st, h, n, unseen, mt, mk)
            if key[0] == 0 or (self.CLAIM_ROUTE and key[0] < base[0]):
                if key < best_key:
                    best, best_key = a, key
        return best

    def _claim_meld(self, st, action):
        """The notation of the meld a PENG / CHI would add."""
        p = action.split()
        d = st.current
        if p[0] == "PENG":
            m = GameMeld("pung", st.last_tile, d, st.last_tile)
        else:
            mid = _INDEX[p[1]]
            m = GameMeld("chow", mid - 1, d, st.last_tile)
        return m.to_meld(st.seat).notation()


#: the in-process bots by name (``mjfast:<name>``)
BOTS = {"baseline": BaselineBot, "sample": SampleBot}


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown built-in bot {name!r}: expected one of {', '.join(sorted(BOTS))}") from None
