"""BotState: one seat's view of a Botzone MCR game, built from its requests.

A bot on the platform sees only its requests (``0 seat quan``, the deal, its
draws, what the other seats did) and its own responses.  :class:`BotState`
turns them into the seat's partial-information state: its concealed tiles,
every seat's melds and river, each wall's count, the shown-tile counts of
the fourth-tile rule, and the phase of the game.

The state is the game engine's: :class:`mjfast._seat.SeatView` is the
compiled engine with the walls unknown and the other seats' hands hidden,
and each request is applied to it as a fact.  This module only reads the
requests' text (and the seat's own answer, for the tile of its concealed
kong), words the engine's refusals as :class:`ProtocolError` and shows the
engine's state under the attributes below.  Legal actions, the kong and
claim limits, the context of a win and its value are the engine's, as for
:class:`mjfast.game.GameState`.

Only the duplicate format (each seat its own 34-tile wall) is tracked; a
``BUHUA`` request is recorded (the flower, and one tile fewer in that seat's
wall) but table play's shared wall is not modelled.
"""
from __future__ import annotations

from typing import Optional

from .. import _engine, _seat
from ..game.state import CODES, N_KINDS, GameMeld, refusal_text
from ..tiles import counts_str as _counts_str

__all__ = ["BotState", "ProtocolError"]

_INDEX = {c: i for i, c in enumerate(CODES)}
#: draws per seat in the duplicate format: 34-tile walls, 13 dealt
WALL_DRAWS = 21
_SEATS = ("0", "1", "2", "3")
_PHASES = _engine.PHASES
_DRAW, _TURN = _PHASES.index("draw"), _PHASES.index("turn")
_KINDS = ("chow", "pung", "kong")
_F = _seat.FACTS
_OP = _engine.OPS
# the engine's legal answers (op, a, b) as response strings
_WORDS = {_OP["PLAY"]: ["PLAY " + c for c in CODES[:N_KINDS]], _OP["GANG"]: ["GANG " + c for c in CODES[:N_KINDS]],
          _OP["BUGANG"]: ["BUGANG " + c for c in CODES[:N_KINDS]], _OP["PENG"]: ["PENG " + c for c in CODES[:N_KINDS]]}
_PASS, _HU, _CHI, _GANG = _OP["PASS"], _OP["HU"], _OP["CHI"], _OP["GANG"]


class ProtocolError(ValueError):
    """A request that is malformed or contradicts what the seat already knows."""


def _tile(code, request):
    t = _INDEX.get(code)
    if t is None:
        raise ProtocolError(f"unknown tile code {code!r} in request {request!r}")
    return t


def _meld(m):
    kind, tile, frm, claimed, added = m
    return GameMeld(_KINDS[kind], None if tile < 0 else tile, None if frm < 0 else frm,
                    None if claimed < 0 else claimed, bool(added))


class _Walls(list):
    """Each wall's count, as a list; setting an item sets that wall's count
    in the view (a state built by hand: a count may only go down)."""
    __slots__ = ("_view",)

    def __setitem__(self, i, n):
        new = list(self)
        new[i] = n
        if len(new) != 4:
            raise ValueError("walls: 4 counts, one per seat")
        for s in range(4):
            if new[s] != self[s]:
                w = new[s]
                if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w <= self[s]:
                    raise ValueError(f"walls[{s}]: an int from 0 to the {self[s]} tiles left, got {w!r}")
        for s in range(4):
            self._view.set_left(s, new[s])
        list.__setitem__(self, slice(None), new)


class BotState:
    """The state of one seat after a sequence of requests.

    Public attributes:

    * ``seat``, ``quan`` (prevalent wind 0-3);
    * ``hand``: 34 counts of the seat's concealed tiles (``hands[seat]``;
      the other seats' entries of ``hands`` are None: unknown);
    * ``melds[s]``: each seat's :class:`~mjfast.game.GameMeld` list (a
      concealed kong of another seat has ``tile`` None: it is not shown);
    * ``discards[s]``: each seat's river (discards nobody claimed);
    * ``walls``: tiles left in each seat's wall (``wall_left(s)``);
    * ``shown``: 34 counts, the judge's fourth-tile counting;
    * ``flowers[s]``: each seat's flowers (34-41);
    * ``phase``: ``"draw"`` (only PASS now), ``"turn"`` (``current`` holds 14
      tiles), ``"claim"`` (``current`` discarded ``last_tile``), ``"rob"``
      (``current`` added a kong of ``last_tile``); ``after_kong``: the
      current draw replaces a kong;
    * ``request``: the last request applied; ``turn``: how many;
      ``responses``: the seat's answers to them, where known.

    They are the engine's state, as lists that follow it from request to
    request.  :meth:`legal_actions` and :meth:`hu_total` answer for the
    current request.
    """

    table = False                      # the duplicate format

    def __init__(self):
        self._v = _seat.SeatView()
        self.seat = None
        self.quan = 0
        self.request = None
        self.turn = 0
        self.responses = []
        self._last_response = None     # own answer to the last request, if known
        self._dealt = False            # the deal request has come
        self._hand = self._melds = self._discards = self._flowers = self._walls = self._shown = None

    def _fresh(self):
        # the engine's state as lists, read on first use; once read, refreshed in place after each request
        # (a caller holding st.hand or st.melds[s] keeps seeing the state)
        v = self._v
        if self._hand is not None:
            self._hand[:] = v.hand_of(self.seat)
        if self._melds is not None:
            for s in range(4):
                self._melds[s][:] = [_meld(m) for m in v.melds_of(s)]
        if self._discards is not None:
            for s in range(4):
                self._discards[s][:] = v.river_of(s)
        if self._flowers is not None:
            for s in range(4):
                self._flowers[s][:] = v.flowers_of(s)
        if self._walls is not None:
            list.__setitem__(self._walls, slice(None), v.walls())
        if self._shown is not None:
            self._shown[:] = v.shown_of()

    # ------------------------------------------------------------------ building

    @classmethod
    def from_requests(cls, requests, responses=None) -> "BotState":
        """The state after ``requests`` (strings, oldest first).  ``responses``:
        this seat's answers to them (``responses[i]`` answers ``requests[i]``;
        the JSON interaction gives one fewer than requests).  Only a concealed
        kong needs them (its tile is in the answer, not in the next request);
        without them the kong's tile is read from the hand when unambiguous."""
        st = cls()
        responses = list(responses or ())
        for i, r in enumerate(requests):
            st.update(r, responses[i] if i < len(responses) else None)
        return st

    # ------------------------------------------------------------------ the engine's state

    @property
    def hand(self):
        if self.seat is None:
            return None
        if self._hand is None:
            self._hand = self._v.hand_of(self.seat)
        return self._hand

    @property
    def hands(self):
        h = [None] * 4
        if self.seat is not None:
            h[self.seat] = self.hand
        return h

    @property
    def melds(self):
        if self._melds is None:
            v = self._v
            self._melds = [[_meld(m) for m in v.melds_of(s)] for s in range(4)]
        return self._melds

    @property
    def discards(self):
        if self._discards is None:
            self._discards = [self._v.river_of(s) for s in range(4)]
        return self._discards

    @property
    def flowers(self):
        if self._flowers is None:
            self._flowers = [self._v.flowers_of(s) for s in range(4)]
        return self._flowers

    @property
    def walls(self):
        if self._walls is None:
            w = self._walls = _Walls(self._v.walls())
            w._view = self._v
        return self._walls

    @property
    def shown(self):
        if self._shown is None:
            self._shown = self._v.shown_of()
        return self._shown

    @property
    def phase(self) -> str:
        return _PHASES[self._v.phase]

    @property
    def current(self) -> int:
        return self._v.current

    @property
    def last_tile(self):
        """The tile drawn (own draws only), discarded or added to a kong; None in the draw phase."""
        v = self._v
        t = v.last_tile
        return None if t < 0 or v.phase == _DRAW else t

    @property
    def after_kong(self) -> bool:
        v = self._v
        return bool(v.after_kong) and v.phase == _TURN

    def wall_left(self, seat: int) -> int:
        """Tiles left in ``seat``'s wall."""
        return self._v.left(seat)

    def note_response(self, response: str) -> None:
        """Record this seat's answer to the current request (a bot calls it
        after answering, when it did not pass the answer to :meth:`update`)."""
        self._last_response = response
        if self.responses:
            self.responses[-1] = response

    # ------------------------------------------------------------------ the requests

    def update(self, request: str, my_response: Optional[str] = None) -> "BotState":
        """Apply one request; ``my_response``: this seat's answer to it, if
        known already (when replaying history).  Returns self.  A request
        that is malformed or contradicts the view raises ProtocolError and
        leaves the state as it was."""
        if not isinstance(request, str):
            raise TypeError(f"a request is a string, got {type(request).__name__}")
        if my_response is not None and not isinstance(my_response, str):
            raise TypeError(f"a response is a string or None, got {type(my_response).__name__}")
        parts = request.split()
        if not parts:
            raise ProtocolError("empty request")
        kind = parts[0]
        if kind == "0":
            self._init(parts, request)
        elif self.seat is None:
            raise ProtocolError(f"request {request!r} before the seat request '0 seat quan'")
        elif kind == "1":
            self._deal(parts, request)
        elif not self._dealt:
            raise ProtocolError(f"request {request!r} before the deal ('1 ...')")
        elif kind == "2":
            if len(parts) != 2:
                raise ProtocolError(f"malformed draw request {request!r}")
            t = _tile(parts[1], request)
            if t >= N_KINDS:
                raise ProtocolError(f"draw request {request!r}: a flower is not drawn, it is replaced (BUHUA)")
            self._draw(self.seat, t, request)
        elif kind == "3":
            self._event(parts, request)
        else:
            raise ProtocolError(f"unknown request type {kind!r} in {request!r}")
        self._fresh()
        self.request = request
        self.turn += 1
        self.responses.append(my_response)
        self._last_response = my_response
        return self

    def _init(self, parts, request):
        if self.seat is not None:
            raise ProtocolError(f"second seat request {request!r}")
        if len(parts) != 3 or parts[1] not in _SEATS or parts[2] not in _SEATS:
            raise ProtocolError(f"malformed seat request {request!r} (expected '0 seat quan')")
        self.seat = int(parts[1])
        self.quan = int(parts[2])
        self._v.start(self.seat, self.quan)

    def _deal(self, parts, request):
        if len(parts) < 18:
            raise ProtocolError(f"malformed deal {request!r} (expected '1 f0 f1 f2 f3' and 13 tiles)")
        # plain ASCII digits: int() would also take "+1", "1_0" or other scripts' digits
        if not all(x.isascii() and x.isdigit() and len(x) <= 1 for x in parts[1:5]):
            raise ProtocolError(f"malformed flower counts in deal {request!r} (4 counts 0-8)")
        nf = [int(x) for x in parts[1:5]]
        tiles = [_tile(c, request) for c in parts[5:18]]
        fl = [_tile(c, request) for c in parts[18:]]
        if any(t >= N_KINDS for t in tiles) or len(fl) != sum(nf) or any(f < N_KINDS for f in fl):
            raise ProtocolError(f"malformed deal {request!r}")
        if len(set(fl)) != len(fl):
            raise ProtocolError(f"deal {request!r} shows a flower twice (one copy of each)")
        if self._dealt:
            raise ProtocolError(f"second deal {request!r}")
        n = [0] * N_KINDS
        for t in tiles:
            n[t] += 1
            if n[t] > 4:
                raise ProtocolError(f"deal {request!r} holds a fifth {CODES[t]}")
        i = 0
        by_seat = []
        for s in range(4):
            by_seat.append(fl[i:i + nf[s]])
            i += nf[s]
        self._v.deal(tiles, by_seat)
        self._dealt = True

    def _fact(self, kind, p, a, b, request):
        """Apply one fact to the view; a refusal is a ProtocolError naming the request."""
        v = self._v
        if v.fact(kind, p, a, b):
            seat, _code, reason, ra, rb, rc = v.refusal()
            raise ProtocolError(f"{request!r}: {refusal_text(reason, ra, rb, rc, seat)}")

    def _draw(self, p, t, request):
        # p draws t (None: another seat's draw, the tile unseen)
        self._fact(_F["DRAW"], p, -1 if t is None else t, -1, request)

    def _event(self, parts, request):
        if len(parts) < 3 or parts[1] not in _SEATS:
            raise ProtocolError(f"malformed request {request!r}")
        p = int(parts[1])
        op = parts[2]
        args = [_tile(c, request) for c in parts[3:]]
        if op == "BUHUA":
            if len(args) != 1 or args[0] < N_KINDS:
                raise ProtocolError(f"{request!r}: BUHUA names one flower (H1-H8)")
        elif any(t >= N_KINDS for t in args):
            raise ProtocolError(f"{request!r}: a flower is not a tile to play or meld")
        n = len(args)
        if op == "DRAW" and not n:
            if p == self.seat:
                raise ProtocolError(f"{request!r}: this seat's draws come as '2 tile'")
            self._draw(p, None, request)
        elif n == 1 and op in ("PLAY", "PENG", "BUGANG", "BUHUA"):
            self._fact(_F[op], p, args[0], -1, request)
        elif op == "CHI" and n == 2:
            self._fact(_F["CHI"], p, args[0], args[1], request)
        elif op == "GANG" and not n:
            v = self._v
            # the seat's own concealed kong: its tile is in the answer, not in the request
            own = p == self.seat and v.phase == _TURN and v.current == p
            self._fact(_F["GANG"], p, self._concealed_kong_tile(request) if own else -1, -1, request)
        else:
            raise ProtocolError(f"unknown or malformed request {request!r}")

    def _concealed_kong_tile(self, request):
        r = self._last_response
        if r:
            rp = r.split()
            if len(rp) == 2 and rp[0] == "GANG" and rp[1] in _INDEX:
                return _INDEX[rp[1]]
        h = self.hand
        quads = [t for t in range(N_KINDS) if h[t] == 4]
        if len(quads) != 1:
            raise ProtocolError(f"{request!r}: which concealed kong? the answer 'GANG t' is needed "
                                f"(the hand holds four of {len(quads)} kinds)")
        return quads[0]

    # ------------------------------------------------------------------ the engine's answers

    def legal_actions(self, seat: Optional[int] = None) -> list:
        """Every legal response to the current request (Botzone strings), for
        this seat (``seat`` may only name it: the others' hands are unknown)."""
        if self.seat is None or self.request is None:
            return []
        if seat is not None and seat != self.seat:
            raise ValueError(f"BotState of seat {self.seat} cannot answer for seat {seat}")
        out = []
        for op, a, b in self._v.legal(self.seat):
            if op == _PASS:
                out.append("PASS")
            elif op == _HU:
                out.append("HU")
            elif op == _CHI:
                out.append(f"CHI {CODES[a]} {CODES[b]}")
            elif op == _GANG and a < 0:          # a melded kong names no tile
                out.append("GANG")
            else:
                out.append(_WORDS[op][a])
        return out

    def hu_total(self) -> Optional[int]:
        """The total that declaring Hu now would score (flowers included, even
        under 8), with the judge's context; None if the hand does not win now."""
        if self.seat is None:
            return None
        v = self._v.hu_value(self.seat)
        return v if v > 0 else None

    def win_context(self) -> Optional[dict]:
        """The judge's context of a Hu now (tile, self_drawn, fourth_tile,
        last_tile, kong), or None if the seat cannot declare Hu now."""
        if self.seat is None:
            return None
        c = self._v.hu_context(self.seat)
        if c is None:
            return None
        return {"tile": c[0], "self_drawn": c[1], "fourth_tile": c[2], "last_tile": c[3], "kong": c[4]}

    # ------------------------------------------------------------------ views

    def hand_notation(self, extra=None) -> str:
        """The seat's melds and concealed tiles in our notation (``extra``:
        a tile index added to the concealed part, e.g. a discard to claim)."""
        h = list(self.hand)
        if extra is not None:
            h[extra] += 1
        return "".join(m.to_meld(self.seat).notation() for m in self.melds[self.seat]) + _counts_str(h)

    def unseen(self) -> list:
        """Per tile kind, copies this seat has not seen (in other hands or the walls)."""
        return self._v.unseen()

    def __repr__(self):
        h = _counts_str(self.hand) if self.hand is not None else "?"
        return (f"BotState(seat={self.seat}, quan={self.quan}, turn={self.turn}, phase={self.phase!r}, "
                f"current={self.current}, hand={h!r}, walls={self.walls})")
