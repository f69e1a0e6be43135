"""The compiled self-play path (the duplicate format, built-in policies).

:func:`selfplay` plays many games between compiled policies and returns
numpy arrays; :func:`play` uses :func:`play_compiled` when all four players
are compiled-capable (``tsumogiri``).  Both run :class:`mjfast._game.FastGame`,
which follows the same rules as :class:`~mjfast.game.state.GameState`
(tests/test_game_fast.py steps the two side by side).  Hu are scored inside
the compiled engine by the fan kernel (the one :func:`~mjfast.game.state.score_win`
reaches through the notation); :func:`_hu_fn` is the same answer as a Python
callback, kept for the tests that compare the two.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Optional

import numpy as np

from .. import _core
from .._game import FastGame, legal_masks, observe_many, play_many, play_seeded
from ..errors import InvalidArgument, NotWinning
from ..scoring.records import check_flag
from .record import (OP_BUGANG, OP_CHI, OP_GANG, OP_HU, OP_PASS, OP_PENG, OP_PLAY, GameRecord,  # noqa: F401
                     action_string)
from .state import GameMeld, Win, score_win, tile_of
from ..scoring.batch import HandBatch

__all__ = ["selfplay", "selfplay_series", "SelfPlayResult", "POLICIES", "FastGame", "new_fast_game",
           "action_string", "legal_masks", "observe_many"]

#: Compiled policies: discard the drawn tile; a seeded random legal player
#: (wins whenever it legally can, kongs with p_kong, chows/pungs with p_claim,
#: discards a random tile); the baseline bot's rules (``mjfast:baseline``,
#: compiled: Hu whenever legal, discard by plain shanten then the unseen copies
#: of the useful tiles, chow / pung only when that lowers the shanten, no kong).
POLICIES = {"tsumogiri": 0, "random": 1, "baseline": 2}

_KIND = ("chow", "pung", "kong")


def _game_melds(melds):
    return [GameMeld(_KIND[k], t, None if f < 0 else f, None if f < 0 else c, bool(ad)) for k, t, f, c, ad in melds]


def _score(seat, counts, melds, tile, self_drawn, fourth, last, kong, quan):
    c = bytearray(counts)
    if not self_drawn:
        c[tile] += 1
    if not _core.is_win_one(c):            # most hands do not win: no scoring
        return None
    ctx = {"tile": tile, "self_drawn": bool(self_drawn), "fourth_tile": bool(fourth), "last_tile": bool(last),
           "kong": bool(kong)}
    try:
        return score_win(seat, counts, _game_melds(melds), ctx, quan)
    except NotWinning:
        return None


def _hu_fn(seat, counts, melds, tile, self_drawn, fourth, last, kong, quan):
    """A Hu's total through score_win (the callback form of FastGame; tests only)."""
    r = _score(seat, counts, melds, tile, self_drawn, fourth, last, kong, quan)
    return -3 if r is None else r[1].total


def new_fast_game() -> FastGame:
    return FastGame()


def parse_action(response: str):
    """A response string as a compiled action (op, a, b); ValueError if malformed."""
    parts = response.split()
    op = parts[0] if parts else ""
    t = [tile_of(x) for x in parts[1:]]
    if op == "PASS" and not t:
        return OP_PASS, 0, 0
    if op == "HU" and not t:
        return OP_HU, 0, 0
    if op == "GANG" and len(t) <= 1:
        return OP_GANG, (t[0] if t else -1), 0
    if op in ("PLAY", "BUGANG", "PENG") and len(t) == 1:
        return {"PLAY": OP_PLAY, "BUGANG": OP_BUGANG, "PENG": OP_PENG}[op], t[0], 0
    if op == "CHI" and len(t) == 2:
        return OP_CHI, t[0], t[1]
    raise ValueError(f"not a response: {response!r}")


def walls_array(walls) -> np.ndarray:
    """Walls as a validated (4, 34) uint8 array (a uint8 array of that shape
    is taken as produced by shuffled_walls, valid by construction)."""
    if isinstance(walls, np.ndarray) and walls.dtype == np.uint8 and walls.shape == (4, 34) \
            and walls.flags.c_contiguous:
        return walls
    if len(walls) == 4 and any(isinstance(x, str) for w in walls for x in (w.split() if isinstance(w, str) else w)):
        walls = [[tile_of(x) for x in (w.split() if isinstance(w, str) else w)] for w in walls]
    a = np.asarray(walls, dtype=np.int64)
    if a.shape != (4, 34) or a.min() < 0 or a.max() > 33:
        raise ValueError("walls: 4 walls of 34 tile indices 0-33")
    if (np.bincount(a.ravel(), minlength=34) != 4).any():
        raise ValueError("walls: the 136 tiles must hold each tile exactly 4 times")
    return np.ascontiguousarray(a, dtype=np.uint8)


def record_from(g: FastGame, walls, quan, seed=None, match_id=None):
    """A GameRecord of a finished FastGame (the log and the responses built on first use)."""
    win = None
    if g.winner >= 0:
        s = g.winner
        hand = g.hand_of(s)
        melds = g.melds_of(s)
        ev = [e for e in g.events() if e[0] == 8][0]
        tile = ev[2]
        counts = bytearray(hand)
        if g.from_seat >= 0:
            counts[tile] -= 1            # _score adds the claimed tile back
        hand_str, sc = _score(s, counts, melds, tile, g.w_self, g.w_fourth, g.w_last, g.w_kong, quan)
        win = Win(s, None if g.w_self else g.from_seat, tile, hand_str, bool(g.w_self), bool(g.w_fourth),
                  bool(g.w_last), bool(g.w_kong), bool(g.w_kong and not g.w_self), s, quan, 0, sc.total, sc.fans)
    rec = GameRecord(quan, [list(w) for w in walls], None, None, None, g.scores(), win, None, bool(g.huang),
                     seed, match_id)
    rec._lazy = (g.events(), g.rounds_array())
    return rec


def play_compiled(walls, quan, policies, seed=None, match_id=None, rng_seed=0, p_claim=0.5, p_kong=0.7):
    g = new_fast_game()
    w = walls_array(walls)
    g.reset(w, quan)
    g.run(policies, rng_seed, p_claim, p_kong)
    return record_from(g, w.tolist(), quan, seed, match_id)



@dataclass
class SelfPlayResult:
    """Per game: ``scores`` (n, 4); ``winner`` / ``from_seat`` (-1 none / self-drawn);
    ``total`` points of the win; flag arrays; ``huang``; ``walls`` (None for
    :func:`selfplay_series`, whose walls follow from the seed); ``quan``.

    With ``hands=True``, ``win_counts`` (n, 34), ``win_melds`` (n, 4, 3),
    ``win_n_melds`` and ``win_tile`` (n,) hold each winner's hand (zero rows
    where nobody won); :meth:`win_batch` turns the won games into a
    :class:`~mjfast.HandBatch` for :func:`~mjfast.score_batch`."""
    scores: np.ndarray
    winner: np.ndarray
    from_seat: np.ndarray
    total: np.ndarray
    self_drawn: np.ndarray
    fourth_tile: np.ndarray
    kong: np.ndarray
    last_tile: np.ndarray
    huang: np.ndarray
    walls: Optional[np.ndarray]
    quan: np.ndarray
    flags: Optional[np.ndarray] = None
    win_counts: Optional[np.ndarray] = None
    win_melds: Optional[np.ndarray] = None
    win_n_melds: Optional[np.ndarray] = None
    win_tile: Optional[np.ndarray] = None

    def __len__(self):
        return len(self.winner)

    def win_batch(self):
        """The won games' hands as a :class:`~mjfast.HandBatch` (one row per
        won game, in game order; ``ids`` = the game's index in this result):
        concealed tiles with the winning tile, melds, winning tile, context
        flags, seat wind = the winner's seat, prevalent wind = the game's."""
        if self.win_counts is None:
            raise ValueError("no hands recorded: play with hands=True")
        won = np.flatnonzero(self.winner >= 0)
        return HandBatch(self.win_counts[won], self.win_melds[won], self.win_n_melds[won], self.win_tile[won],
                         (self.flags[won] & 15).astype(np.uint8), self.winner[won].astype(np.uint8),
                         self.quan[won].astype(np.uint8), np.zeros(len(won), np.uint8), ids=won.tolist())


def _policies(policy):
    if isinstance(policy, str):
        policy = [policy] * 4
    try:
        pol = [POLICIES[p] for p in policy]
    except (KeyError, TypeError):
        raise ValueError(f"unknown policy {policy!r}: one of {sorted(POLICIES)}, or 4 of them") from None
    if len(pol) != 4:
        raise ValueError("policy: one name, or 4 (one per seat)")
    return pol


def _check_n(n_games):
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 0:
        raise InvalidArgument(f"n_games must be an int >= 0, got {n_games!r}")


def check_probability(value, name: str) -> float:
    """``value`` as a float if it is a real number in [0, 1] (not a bool, not
    NaN); else :class:`~mjfast.errors.InvalidArgument` naming ``name``.  The
    engine compares a uniform draw with it, so NaN, 5 or -inf would not fail
    there: they would silently mean never or always."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise InvalidArgument(f"{name} must be a probability (a number 0..1), got {value!r}")
    v = float(value)
    if not (math.isfinite(v) and 0.0 <= v <= 1.0):
        raise InvalidArgument(f"{name} must be a probability in [0, 1], got {value!r}")
    return v


def _check_seed(seed, low=0):
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or \
            (low is not None and seed < low):
        what = "an int" if low is None else f"an int >= {low}"
        raise InvalidArgument(f"seed must be {what}, got {seed!r}")
    return int(seed)


def _check_quan(quan, word):
    # a bool or 1.0 compares equal to a wind number: refused, as everywhere else
    if isinstance(quan, str):
        if quan == word:
            return quan
    elif not isinstance(quan, (bool, np.bool_)) and isinstance(quan, (int, np.integer)) and 0 <= quan <= 3:
        return int(quan)
    raise InvalidArgument(f"quan must be 0-3 or {word!r}, got {quan!r}")


def _hand_buffers(n):
    return (np.zeros((n, 34), np.uint8), np.zeros((n, 4, 3), np.uint8), np.zeros(n, np.uint8),
            np.zeros(n, np.uint8))


def _result(out, walls, quans, bufs):
    f = out[:, 7]
    won = out[:, 4] >= 0
    r = SelfPlayResult(out[:, :4], out[:, 4], out[:, 5], out[:, 6], won & (f & 1 > 0), won & (f & 2 > 0),
                       won & (f & 4 > 0), won & (f & 8 > 0), (f & 16) > 0, walls, quans, f)
    if bufs is not None:
        r.win_counts, r.win_melds, r.win_n_melds, r.win_tile = bufs
    return r


def selfplay(n_games: int, policy="tsumogiri", seed: int = 0, quan=0, p_claim: float = 0.5,
             p_kong: float = 0.7, hands: bool = False) -> SelfPlayResult:
    """Play ``n_games`` games between compiled policies (a name of
    :data:`POLICIES`, or 4 names, one per seat) on seeded random walls;
    ``quan`` an int or "random".  Deterministic per seed.  ``hands``: also
    record each winner's hand (see :meth:`SelfPlayResult.win_batch`).
    ``seed``: an int >= 0; ``p_claim`` (take an offered chow or pung) and
    ``p_kong`` (declare a kong), for the ``random`` policy: probabilities in
    [0, 1]; anything else raises :class:`~mjfast.errors.InvalidArgument`."""
    pol = _policies(policy)
    _check_n(n_games)
    seed = _check_seed(seed)
    quan = _check_quan(quan, "random")
    p_claim = check_probability(p_claim, "p_claim")
    p_kong = check_probability(p_kong, "p_kong")
    hands = check_flag(hands, "hands")
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(34, dtype=np.uint8), 4)
    walls = rng.permuted(np.broadcast_to(base, (n_games, 136)), axis=1).reshape(n_games, 4, 34)
    walls = np.ascontiguousarray(walls, dtype=np.uint8)
    if quan == "random":
        quans = rng.integers(0, 4, n_games).astype(np.int8)
    else:
        quans = np.full(n_games, quan, dtype=np.int8)
    out = np.zeros((n_games, 8), dtype=np.int32)
    bufs = _hand_buffers(n_games) if hands else None
    play_many(walls, quans, pol, seed & 0xFFFFFFFFFFFFFFFF, p_claim, p_kong, None, out, bufs)
    return _result(out, walls, quans, bufs)


def selfplay_series(n_games: int, policy="baseline", seed: int = 0, first: int = 0, quan="cycle",
                    p_claim: float = 0.5, p_kong: float = 0.7, hands: bool = True) -> SelfPlayResult:
    """Games ``first`` .. ``first + n_games - 1`` of the self-play series
    ``seed``.  Each game's walls and policy RNG follow from (seed, game index)
    alone, so splitting a series into calls, chunks or processes never changes
    a game: ``selfplay_series(10, first=5)`` is rows 5-14 of
    ``selfplay_series(20)``.  ``quan`` 0-3, or "cycle" (game index % 4: each
    prevalent wind a quarter of the games).  ``walls`` is None in the result
    (``mjfast._game.shuffled_walls`` rebuilds a game's).  ``seed`` an int
    (its low 64 bits count); ``p_claim`` / ``p_kong`` as in :func:`selfplay`."""
    pol = _policies(policy)
    _check_n(n_games)
    if isinstance(first, bool) or not isinstance(first, (int, np.integer)) or first < 0:
        raise InvalidArgument(f"first must be an int >= 0, got {first!r}")
    seed = _check_seed(seed, low=None)
    quan = _check_quan(quan, "cycle")
    p_claim = check_probability(p_claim, "p_claim")
    p_kong = check_probability(p_kong, "p_kong")
    hands = check_flag(hands, "hands")
    if quan == "cycle":
        q = -1
        quans = ((np.arange(n_games, dtype=np.int64) + first) % 4).astype(np.int8)
    else:
        q = quan
        quans = np.full(n_games, quan, dtype=np.int8)
    out = np.zeros((n_games, 8), dtype=np.int32)
    bufs = _hand_buffers(n_games) if hands else None
    play_seeded(seed & 0xFFFFFFFFFFFFFFFF, int(first), n_games, q, pol, p_claim, p_kong, None, out, bufs)
    return _result(out, None, quans, bufs)
