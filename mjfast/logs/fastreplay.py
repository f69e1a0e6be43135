"""The compiled replay path: a match replayed on the game engine's compiled
state machine (:class:`mjfast.game.fast.FastGame`, the same rules as
:class:`mjfast.game.GameState`, stepped side by side with it in the game
engine's tests), with tiles and actions as integers.

It only answers "this match is legal, and here is how it ended".  Whenever the
compiled engine refuses something, or the match needs what it does not do
(error endings, flowers), :func:`replay_fast` returns None and
:func:`mjfast.logs.replay` replays the match on the Python engine, which
names the problem.  So a report never depends on which path ran.

The text archive does not record the walls; they are rebuilt from the log:
each seat's 13 dealt tiles, then the tiles it drew in order, then the tiles
nobody drew (in tile order; never reached).  A fifth copy or a 22nd draw
makes that impossible: the Python path reports it.
"""
from __future__ import annotations

import numpy as np

from .model import TILE_CODES

try:  # the compiled engine ships with mjfast.game; without it, the Python path runs alone
    from ..game.fast import new_fast_game, parse_action
    from ..game.state import GameMeld, score_win
    AVAILABLE = True
except ImportError:  # pragma: no cover
    AVAILABLE = False

try:  # the same replay driven from compiled code (src/_logread.pxi)
    from .._game import replay_match as _replay_match
except ImportError:  # pragma: no cover
    _replay_match = None  # type: ignore[assignment]  # no compiled replay: the Python one (checked before use)

__all__ = ["AVAILABLE", "replay_fast", "replay_compiled"]

_IDX = {c: i for i, c in enumerate(TILE_CODES)}
_PASS4 = ((0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0))
_OP = {"PLAY": 1, "ANGANG": 2, "BUGANG": 3}
_CLAIM_OP = {"HU": 4, "PENG": 5, "GANG": 2, "CHI": 6}
_KIND = ("chow", "pung", "kong")
# phases of the compiled engine
_DRAW, _TURN, _CLAIM, _ROB, _OVER = range(5)

_game = None


def _engine():
    global _game
    if _game is None:
        _game = new_fast_game()
    return _game


def _walls(m, walls_known):
    """4 x 34 wall array, or None if the log cannot come from any walls."""
    if walls_known is not None:
        # the compiled engine takes only the 136 tiles, each 4 times (GameState
        # refuses anything else, and names the problem)
        try:
            walls = np.array([[_IDX[t] for t in w] for w in walls_known], dtype=np.int64)
        except (KeyError, TypeError, ValueError):
            return None
        if walls.shape != (4, 34) or walls.max() > 33 or (np.bincount(walls.ravel(), minlength=34) != 4).any():
            return None
        return walls.astype(np.uint8)
    idx = _IDX
    walls = [[idx[t] for t in d] for d in m.deals]
    for ev in m.events:
        if ev[2] == "DRAW":
            walls[ev[1]].append(idx[ev[3]])
    if len(walls[0]) > 34 or len(walls[1]) > 34 or len(walls[2]) > 34 or len(walls[3]) > 34:
        return None
    cnt = np.bincount(np.fromiter((t for w in walls for t in w), np.int64), minlength=34)
    if cnt.max() > 4:
        return None
    rest = np.repeat(np.arange(34), 4 - cnt).tolist()
    k = 0
    for w in walls:
        need = 34 - len(w)
        w.extend(rest[k:k + need])
        k += need
    return np.array(walls, dtype=np.uint8)


def _loser(g, c, live):
    """The compiled answer of a losing claim (see replay._fill_claim)."""
    if c.response is not None:
        try:
            a = parse_action(c.response)
        except (ValueError, TypeError):
            return None
        # flowers (34-41) are not tiles of the compiled engine: let the Python engine say why
        return a if -1 <= a[1] < 34 and 0 <= a[2] < 34 else None
    op = _CLAIM_OP[c.kind]
    if op == 4:
        return (4, 0, 0)
    if c.tile is not None and op != 6 and _IDX[c.tile] != live:
        return None
    if op == 2:
        return (2, -1, 0)
    mid = _IDX[c.tile] if (op == 6 and c.tile is not None) else None
    for a in g.legal(c.seat):
        if a[0] == op and (mid is None or a[1] == mid):
            return a
    return None


def replay_fast(m, walls_known=None):
    """(outcome, win data) of a legal match ending in Hu or Huang, else None.
    Win data: (winner, from_seat, tile, hand, melds, self_drawn, fourth, last, kong)."""
    if m.problem is not None or m.quan is None or m.end not in ("hu", "huang") or any(m.flowers) \
            or any(d is None for d in m.deals):
        return None
    walls = _walls(m, walls_known)
    if walls is None:
        return None
    g = _engine()
    g.reset(walls, m.quan)
    idx = _IDX
    live = -1
    last_draw = -1
    for ev in m.events:
        pos, seat, k, tile, disc, _dp, ignored = ev
        if k == "DRAW":
            ph = g.phase
            if ph == _CLAIM or ph == _ROB:
                if g.claim(_PASS4) != -1:
                    return None
            if g.phase != _DRAW or g.current != seat:
                return None
            t = g.draw()
            if t != idx[tile]:
                return None
            last_draw = t
        elif k == "PLAY" or k == "ANGANG" or k == "BUGANG":
            if g.phase != _TURN or g.current != seat:
                return None
            t = idx[tile]
            if g.turn(_OP[k], t) != 0:
                return None
            if k != "ANGANG":
                live = t
        elif k == "HU" and g.phase == _TURN:
            if g.current != seat or (tile is not None and idx[tile] != last_draw):
                return None
            if g.turn(4, 0) != 0:
                return None
        elif k == "BUHUA":
            return None
        else:
            ph = g.phase
            if ph != _CLAIM and ph != _ROB:
                return None
            if k != "HU" and ph == _ROB:
                return None
            if k == "CHI":
                ans = (6, idx[tile], idx[disc])
            elif k == "PENG":
                if tile is not None and idx[tile] != live:
                    return None
                ans = (5, idx[disc], 0)
            elif k == "GANG":
                if tile is not None and idx[tile] != live:
                    return None
                ans = (2, -1, 0)
            else:
                if tile is not None and idx[tile] != live:
                    return None
                ans = (4, 0, 0)
            answers = list(_PASS4)
            answers[seat] = ans
            for c in ignored:
                if c.seat == seat or c.seat == g.current or answers[c.seat] != (0, 0, 0):
                    return None
                a = _loser(g, c, live)
                if a is None:
                    return None
                answers[c.seat] = a
            if g.claim(answers) != seat:
                return None
            if k == "CHI" or k == "PENG":
                live = idx[disc]
    if m.end == "huang":
        if g.phase == _CLAIM or g.phase == _ROB:
            if g.claim(_PASS4) != -1:
                return None
        if g.phase == _DRAW and g.draw() == -1 and g.huang:
            return ("huang", None)
        return None
    if g.phase != _OVER or g.winner < 0:
        return None
    s = g.winner
    melds = [GameMeld(_KIND[kd], t, None if f < 0 else f, None if f < 0 else c, bool(ad))
             for kd, t, f, c, ad in g.melds_of(s)]
    tile = g.last_tile
    counts = g.hand_of(s)
    if not g.w_self:
        counts[tile] -= 1          # the claimed tile is not in the concealed tiles yet
    ctx = {"tile": tile, "self_drawn": bool(g.w_self), "fourth_tile": bool(g.w_fourth),
           "last_tile": bool(g.w_last), "kong": bool(g.w_kong)}
    hand, _sc = score_win(s, counts, melds, ctx, m.quan)
    return ("hu", (s, None if g.w_self else g.from_seat, tile, hand,
                   tuple(x.to_meld(s).notation() for x in melds), ctx["self_drawn"], ctx["fourth_tile"],
                   ctx["last_tile"], ctx["kong"]))


def replay_compiled(m, walls_known=None):
    """:func:`replay_fast` with its loop in compiled code (``mjfast._game.replay_match``);
    the same answer (tests/test_logs_fast.py compares the two), ~10x faster.
    Also refuses known walls that do not hold each tile 4 times (GameState
    does)."""
    if _replay_match is None:  # pragma: no cover
        return replay_fast(m, walls_known)
    if m.problem is not None or m.quan is None or m.end not in ("hu", "huang") or any(m.flowers) \
            or any(d is None for d in m.deals):
        return None
    r = _replay_match(m, walls_known, _IDX, parse_action)
    if r is None or r[0] == "huang":
        return r and ("huang", None)
    return ("hu", r[1:])
