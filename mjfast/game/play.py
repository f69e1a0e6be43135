"""Self-play: four players, one :class:`GameState`, the platform's request sequence.

The order of requests is the judge's (see docs/game.md):

1. ``0 seat quan`` to every seat, all answer PASS; 2. the deal, all PASS;
3. a draw: the drawer gets ``2 t`` and answers PLAY/GANG/BUGANG/HU, the others
   get ``3 p DRAW`` and answer PASS;
4. a discard (also the discard after a chow or pung): every seat gets
   ``3 p PLAY t`` (``3 p PENG t`` / ``3 p CHI m t``); the discarder answers
   PASS, the others PASS or a claim;
5. a kong (concealed, or melded from a discard): every seat gets ``3 p GANG``
   and answers PASS, then p draws its replacement;
6. an added kong: every seat gets ``3 p BUGANG t``; the others may answer HU.

Any answer the rules do not allow ends the game by the error rule.
"""
from __future__ import annotations

import random
import traceback

from .record import GameRecord
from .state import N_KINDS, GameState, IllegalAction

__all__ = ["play", "random_walls", "drive"]


def random_walls(seed=None):
    """Four 34-tile walls (tile indices) from a shuffle of the 136 tiles;
    deterministic for a given ``seed``."""
    rng = random.Random(seed)
    tiles = [t for t in range(N_KINDS) for _ in range(4)]
    rng.shuffle(tiles)
    return [tiles[34 * s:34 * s + 34] for s in range(4)]


def random_table_wall(seed=None, flowers=False):
    """One shuffled shared wall for table play (136 tiles, 144 with flowers)."""
    rng = random.Random(seed)
    tiles = [t for t in range(N_KINDS) for _ in range(4)] + (list(range(34, 42)) if flowers else [])
    rng.shuffle(tiles)
    return tiles


def drive(st: GameState, ask, notify=None):
    """Run ``st`` to the end.  ``ask(st, kind)`` returns the 4 responses to the
    current request; ``kind`` is "INIT", "DEAL" or the last event's kind.  An
    illegal response ends the game by the error rule (``st.fail``)."""
    try:
        for kind in ("INIT", "DEAL"):
            resp = ask(st, kind)
            for s in range(4):
                st.acknowledge(s, resp[s])
        while True:
            ph = st.phase
            if ph == "draw":
                t = st.draw()
                if t is None:
                    return
                if t >= N_KINDS:                   # a flower, set aside: everyone acknowledges
                    resp = ask(st, "BUHUA")
                    for s in range(4):
                        st.acknowledge(s, resp[s])
                    continue
                resp = ask(st, "DRAW")
                cur = st.current
                for s in range(4):                 # the judge reads the answers in seat order
                    if s == cur:
                        st.turn(resp[s])
                        if st.phase == "over":
                            return
                    else:
                        st.acknowledge(s, resp[s])
            elif ph == "claim" or ph == "rob":
                resp = ask(st, st.event[0])
                st.claim(resp)
            else:
                return
            if st.phase == "over":
                return
            if st.event[0] == "GANG":               # a kong is announced; all must pass
                resp = ask(st, "GANG")
                for s in range(4):
                    st.acknowledge(s, resp[s])
    except IllegalAction as e:
        st.fail(e.seat, e.code, e.reason)


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
    if wall is None and walls is None:
        walls = random_walls(seed)
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
