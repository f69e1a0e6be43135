"""Self-play: four players, one :class:`GameState`, the platform's request
sequence (:mod:`.protocol`); a :class:`GameRecord` out."""
from __future__ import annotations

import random
import traceback

from .._game import shuffled_walls
from .fast import play_compiled
from .protocol import drive
from .record import GameRecord
from .state import N_KINDS, GameState

__all__ = ["play", "random_walls", "random_table_wall"]


def _seed64(seed):
    if seed is None:
        return random.getrandbits(64)
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed & 0xFFFFFFFFFFFFFFFF
    return random.Random(seed).getrandbits(64)     # any other hashable seed, as random.Random takes


def random_walls(seed=None):
    """Four 34-tile walls (lists of tile indices) from a shuffle of the 136
    tiles; the same for the same ``seed`` (an int, or anything random.Random
    accepts), on every platform."""
    return shuffled_walls(_seed64(seed)).tolist()


def random_table_wall(seed=None, flowers=False):
    """One shuffled shared wall for table play (136 tiles, 144 with flowers)."""
    rng = random.Random(seed)
    tiles = [t for t in range(N_KINDS) for _ in range(4)] + (list(range(34, 42)) if flowers else [])
    rng.shuffle(tiles)
    return tiles


def _request(st, kind, seat):
    if kind == "INIT":
        return st.init_request(seat)
    if kind == "DEAL":
        return st.deal_request(seat)
    return st.request(seat)


class _PlayerError(Exception):
    def __init__(self, seat, detail):
        self.seat = seat
        self.detail = detail


def play(players, walls=None, quan=0, seed=None, *, match_id=None, wall=None, fast=True) -> GameRecord:
    """Play one game; returns its :class:`GameRecord`.

    ``players``: 4 players; each is a callable ``request -> response`` or an
    object with a ``respond(request)`` method (it may also have
    ``bind(state, seat)``, called once before the game).  A player with an
    ``act(state, seat)`` method is asked that way instead when ``fast`` is true:
    no request strings are built for it, and it is only asked when it has a
    choice (its own draw, another seat's discard or added kong); every other
    request is answered PASS for it.

    When all four players are compiled built-ins (``tsumogiri``) and ``fast``
    is true, the game runs in the compiled engine (same rules, same record).

    ``walls``: 4 walls of 34 tiles (indices or Botzone codes); None = shuffled
    from ``seed`` (deterministic per seed).  ``quan``: prevalent wind 0-3.
    ``wall``: one shared wall (136 tiles, 144 with flowers H1-H8) for table
    play instead of the duplicate format.

    A response the rules do not allow, or a player that raises, ends the game
    by the error rule (that seat -30, the others +10); the record keeps the
    reason (``record.error``).
    """
    if len(players) != 4:
        raise ValueError(f"play() needs 4 players, got {len(players)}")
    compiled = fast and wall is None and all(getattr(p, "compiled_policy", None) is not None for p in players)
    if wall is None and walls is None:
        walls = shuffled_walls(_seed64(seed))       # (4, 34) uint8, valid by construction
        if not compiled:
            walls = walls.tolist()
    if compiled:
        # every player is a compiled built-in: the whole game runs in compiled code
        return play_compiled(walls, quan, [p.compiled_policy for p in players], seed=seed, match_id=match_id)
    st = GameState(quan, walls=walls if wall is None else None, wall=wall)
    acts = [None] * 4
    calls = [None] * 4
    for s, p in enumerate(players):
        if hasattr(p, "bind"):
            p.bind(st, s)
        if fast and hasattr(p, "act"):
            acts[s] = p.act
        elif hasattr(p, "respond"):
            calls[s] = p.respond
        elif callable(p):
            calls[s] = p
        else:
            raise TypeError(f"player {s} is neither callable nor has respond()/act(): {p!r}")
    rounds = []

    def ask(st, kind):
        out = ["PASS"] * 4
        phase = st.phase
        cur = st.current
        for s in range(4):
            try:
                a = acts[s]
                if a is not None:
                    if (phase == "turn" and s == cur) or ((phase == "claim" or phase == "rob") and s != cur):
                        out[s] = a(st, s)
                else:
                    out[s] = calls[s](_request(st, kind, s))
            except Exception as exc:  # noqa: BLE001 - a crashing bot loses by the error rule, as on the platform
                raise _PlayerError(s, "".join(traceback.format_exception_only(type(exc), exc)).strip()) from exc
        rounds.append(out)
        return out

    error_detail = None
    try:
        drive(st, ask)
    except _PlayerError as e:
        st.fail(e.seat, "RE", f"the player raised: {e.detail}")
        error_detail = e.detail
    return GameRecord.from_state(st, rounds, seed=seed, match_id=match_id, error_detail=error_detail)
