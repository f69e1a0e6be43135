"""The test oracle of the seat view: mjfast.botzone.BotState as it was in
Python, with event transitions of its own over reference/seat_rules.py,
before it became a wrapper of the compiled engine's seat view
(src/_seat.pyx).  tests/test_botzone_seat_diff.py feeds both the requests
of seeded games and requires the same view, legal actions, Hu value, win
context and refusals (ProtocolError messages) after every request.

The original account of it follows.

BotState: one seat's view of a Botzone MCR game, built from its requests.

A bot on the platform sees only its requests (``0 seat quan``, the deal, its
draws, what the other seats did) and its own responses.  :class:`BotState`
turns them into the seat's partial-information state: its concealed tiles,
every seat's melds and river, each wall's count, the shown-tile counts of
the fourth-tile rule, and the phase of the game.

The rules themselves are not re-derived here.  The seat view keeps the
public attributes of :class:`reference.seat_rules.SeatRules` (``phase``,
``current``, ``last_tile``, ``after_kong``, ``hands[seat]``, ``melds``,
``shown``, ``flowers``, ``wall_left``) and inherits its methods, as the game
engine does: legal-action generation, the kong and claim restrictions, the
context of a win (self-drawn, fourth tile, last tile, kong and robbing) and
its scoring are one implementation for both.  The differential
test (tests/test_botzone_state.py) holds the two together at every step of
seeded games.

Only the duplicate format (each seat its own 34-tile wall) is tracked; a
``BUHUA`` request is recorded (the flower counts) but table play's shared
wall is not modelled.
"""
from __future__ import annotations

from typing import Optional

from mjfast.botzone import ProtocolError
from mjfast.game.state import CODES, N_KINDS, GameMeld
from mjfast.tiles import counts_str as _counts_str

from .seat_rules import SeatRules

__all__ = ["BotState"]

_INDEX = {c: i for i, c in enumerate(CODES)}
#: draws per seat in the duplicate format: 34-tile walls, 13 dealt
WALL_DRAWS = 21
_SEATS = ("0", "1", "2", "3")


def _tile(code, request):
    t = _INDEX.get(code)
    if t is None:
        raise ProtocolError(f"unknown tile code {code!r} in request {request!r}")
    return t


class BotState(SeatRules):
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
    * ``phase``: ``"draw"`` (only PASS now), ``"turn"`` (``current`` holds 14
      tiles), ``"claim"`` (``current`` discarded ``last_tile``), ``"rob"``
      (``current`` added a kong of ``last_tile``);
    * ``request``: the last request applied; ``turn``: how many.

    :meth:`legal_actions` and :meth:`hu_total` answer for the current request.
    """

    def __init__(self):
        self.seat = None
        self.quan = 0
        self.hands = [None] * 4
        self.melds = [[] for _ in range(4)]
        self.discards = [[] for _ in range(4)]
        self.flowers = [[] for _ in range(4)]
        self.walls = [WALL_DRAWS] * 4
        self.shown = [0] * N_KINDS
        self.phase = "draw"
        self.current = 0
        self.last_tile = None
        self.request = None
        self.turn = 0
        self.responses = []
        self.table = False                 # the engine's flag: duplicate format
        self.after_kong = False            # the current draw replaces a kong
        self._kong_pending = False         # current's next draw replaces a kong
        self._pending = None               # (discarder, tile) of a live discard
        self._last_response = None         # own answer to the last request, if known
        self._dealt = False                # the deal request has come

    _STATE = ("seat", "quan", "phase", "current", "last_tile", "after_kong", "_kong_pending", "_pending",
              "_dealt")

    def _save(self):
        """What a request may change (for _restore when it is refused)."""
        return ([getattr(self, a) for a in self._STATE], [None if h is None else list(h) for h in self.hands],
                [[(m, m.kind, m.added) for m in ms] for ms in self.melds], [list(d) for d in self.discards],
                [list(f) for f in self.flowers], list(self.walls), list(self.shown))

    def _restore(self, saved):
        # in place: a caller holding st.hand or st.melds[s] keeps seeing the state
        attrs, hands, melds, discards, flowers, walls, shown = saved
        for a, v in zip(self._STATE, attrs):
            setattr(self, a, v)
        for s in range(4):
            if hands[s] is None or self.hands[s] is None:
                self.hands[s] = hands[s]
            else:
                self.hands[s][:] = hands[s]
            self.melds[s][:] = [m for m, _k, _a in melds[s]]
            for m, k, ad in melds[s]:
                m.kind, m.added = k, ad
            self.discards[s][:] = discards[s]
            self.flowers[s][:] = flowers[s]
        self.walls[:] = walls
        self.shown[:] = shown

    def _check_sight(self, request):
        """Refuse a request after which this seat sees a fifth copy of a tile.

        Checked once, on the state the request left, rather than on each
        path's own list of newly shown tiles: such a list has to get every
        move right (a chow once left its claimed tile out while it was
        between the river and the meld, and let a fifth copy in)."""
        if self.hand is None:
            return
        for t, c in enumerate(self.unseen()):
            if c < 0:
                raise ProtocolError(f"{request!r}: a fifth {CODES[t]} (all four are already in sight)")

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

    @property
    def hand(self):
        return self.hands[self.seat] if self.seat is not None else None

    def wall_left(self, seat: int) -> int:
        """Tiles left in ``seat``'s wall."""
        return self.walls[seat]

    def note_response(self, response: str) -> None:
        """Record this seat's answer to the current request (a bot calls it
        after answering, when it did not pass the answer to :meth:`update`)."""
        self._last_response = response
        if self.responses:
            self.responses[-1] = response

    # ------------------------------------------------------------------ the requests

    def update(self, request: str, my_response: Optional[str] = None) -> "BotState":
        """Apply one request; ``my_response``: this seat's answer to it, if
        known already (when replaying history).  Returns self."""
        if not isinstance(request, str):
            raise TypeError(f"a request is a string, got {type(request).__name__}")
        if my_response is not None and not isinstance(my_response, str):
            raise TypeError(f"a response is a string or None, got {type(my_response).__name__}")
        parts = request.split()
        if not parts:
            raise ProtocolError("empty request")
        kind = parts[0]
        # a request that is refused leaves the state as it was
        saved = self._save()
        try:
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
            self._check_sight(request)
        except ProtocolError:
            self._restore(saved)
            raise
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
        self.hands[self.seat] = [0] * N_KINDS

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
        h = self.hands[self.seat]
        if self._dealt:
            raise ProtocolError(f"second deal {request!r}")
        self._dealt = True
        for t in tiles:
            h[t] += 1
            if h[t] > 4:
                raise ProtocolError(f"deal {request!r} holds a fifth {CODES[t]}")
        i = 0
        for s in range(4):
            self.flowers[s] = fl[i:i + nf[s]]
            i += nf[s]

    def _settle_pending(self):
        """A live discard that nobody claimed stays in the river: now shown."""
        if self._pending is not None:
            self.shown[self._pending[1]] += 1
            self._pending = None

    def _drawer(self):
        """The seat whose draw comes next, or None (the seat holding the turn
        must act first)."""
        if self.phase == "draw" or self.phase == "rob":     # the first draw, a kong's replacement
            return self.current
        if self.phase == "claim":                           # nobody claimed: the next seat
            return (self.current + 1) % 4
        return None

    def _draw(self, p, t, request):
        d = self._drawer()
        if d != p:
            raise ProtocolError(f"{request!r}: not seat {p}'s draw now "
                                + (f"(seat {self.current} holds its turn)" if d is None else f"(seat {d}'s)"))
        self._settle_pending()
        if self.walls[p] <= 0:
            raise ProtocolError(f"{request!r}: seat {p}'s wall is already empty")
        self.walls[p] -= 1
        if p == self.seat:
            h = self.hands[p]
            if h[t] >= 4:
                raise ProtocolError(f"{request!r}: a fifth {CODES[t]}")
            h[t] += 1
        self.phase = "turn"
        self.current = p
        self.last_tile = t
        self.after_kong = self._kong_pending
        self._kong_pending = False

    def _take(self, p, t, n, request):
        """Remove n copies of t from p's hand (own seat only; others are unknown)."""
        if p != self.seat:
            return
        h = self.hands[p]
        if h[t] < n:
            raise ProtocolError(f"{request!r}: the hand holds {h[t]} {CODES[t]}, needs {n}")
        h[t] -= n

    def _discard(self, p, t, request):
        self._take(p, t, 1, request)
        self.discards[p].append(t)
        self.phase = "claim"
        self.current = p
        self.last_tile = t
        self.after_kong = False
        self._pending = (p, t)

    def _claimed(self, p, request):
        """The live discard p claims: (discarder, tile); it leaves the river."""
        if self._pending is None or self._pending[0] == p:
            raise ProtocolError(f"{request!r}: no discard of another seat to claim")
        d, t = self._pending
        self._pending = None
        self.discards[d].pop()
        return d, t

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
        other = p != self.seat
        if op == "DRAW" and not args:
            if not other:
                raise ProtocolError(f"{request!r}: this seat's draws come as '2 tile'")
            self._draw(p, None, request)
        elif op == "PLAY" and len(args) == 1:
            if self.phase != "turn" or self.current != p:
                raise ProtocolError(f"{request!r}: seat {p} has no turn to discard")
            self._discard(p, args[0], request)
        elif op == "PENG" and len(args) == 1:
            d, t = self._claimed(p, request)
            self._take(p, t, 2, request)
            self.melds[p].append(GameMeld("pung", t, d, t))
            self.shown[t] += 3
            self._discard(p, args[0], request)
        elif op == "CHI" and len(args) == 2:
            m, x = args
            d, t = self._claimed(p, request)
            if m >= 27 or not 1 <= m % 9 <= 7 or abs(m - t) > 1:
                raise ProtocolError(f"{request!r}: {CODES[m]} is not the middle of a chow with {CODES[t]}")
            if p == self.seat:
                self.hands[p][t] += 1
                for u in (m - 1, m, m + 1):
                    self._take(p, u, 1, request)
            for u in (m - 1, m, m + 1):
                self.shown[u] += 1
            self.melds[p].append(GameMeld("chow", m - 1, d, t))
            self._discard(p, x, request)
        elif op == "GANG" and not args:
            self._gang(p, request)
        elif op == "BUGANG" and len(args) == 1:
            t = args[0]
            if self.phase != "turn" or self.current != p:
                raise ProtocolError(f"{request!r}: seat {p} has no turn to add a kong")
            m = next((m for m in self.melds[p] if m.kind == "pung" and m.tile == t), None)
            if m is None:
                raise ProtocolError(f"{request!r}: seat {p} has no melded pung of {CODES[t]}")
            self._take(p, t, 1, request)
            m.kind = "kong"
            m.added = True
            self.shown[t] = 4
            self.phase = "rob"
            self.current = p
            self.last_tile = t
            self.after_kong = False
            self._kong_pending = True          # if nobody robs it, p draws a replacement
        elif op == "BUHUA" and len(args) == 1:
            if any(args[0] in f for f in self.flowers):
                raise ProtocolError(f"{request!r}: {CODES[args[0]]} is already shown (one copy of each flower)")
            if self.walls[p] <= 0:
                raise ProtocolError(f"{request!r}: seat {p}'s wall is already empty")
            self.flowers[p].append(args[0])
            self.walls[p] -= 1
        else:
            raise ProtocolError(f"unknown or malformed request {request!r}")

    def _gang(self, p, request):
        if self.phase == "turn" and self.current == p:
            # a concealed kong: the tile is shown to nobody
            t = None
            if p == self.seat:
                t = self._concealed_kong_tile(request)
                self._take(p, t, 4, request)
            self.melds[p].append(GameMeld("kong", t, None, None))
        else:
            d, t = self._claimed(p, request)
            self._take(p, t, 3, request)
            self.melds[p].append(GameMeld("kong", t, d, t))
            self.shown[t] = 4
        self.phase = "draw"
        self.current = p
        self.last_tile = None
        self.after_kong = False
        self._kong_pending = True

    def _concealed_kong_tile(self, request):
        r = self._last_response
        if r:
            rp = r.split()
            if len(rp) == 2 and rp[0] == "GANG" and rp[1] in _INDEX:
                return _INDEX[rp[1]]
        quads = [t for t in range(N_KINDS) if self.hands[self.seat][t] == 4]
        if len(quads) != 1:
            raise ProtocolError(f"{request!r}: which concealed kong? the answer 'GANG t' is needed "
                                f"(the hand holds four of {len(quads)} kinds)")
        return quads[0]

    # ------------------------------------------------------------------ the rules (SeatRules, shared with the engine)

    def legal_actions(self, seat: Optional[int] = None) -> list:
        """Every legal response to the current request (Botzone strings), for
        this seat (``seat`` may only name it: the others' hands are unknown)."""
        if self.seat is None or self.request is None:
            return []
        if seat is not None and seat != self.seat:
            raise ValueError(f"BotState of seat {self.seat} cannot answer for seat {seat}")
        return SeatRules.legal_actions(self, self.seat)

    def hu_total(self) -> Optional[int]:
        """The total that declaring Hu now would score (flowers included, even
        under 8), with the judge's context; None if the hand does not win now."""
        if self.seat is None:
            return None
        v = self.hu_value(self.seat)
        return v if v > 0 else None

    def win_context(self) -> Optional[dict]:
        """The judge's context of a Hu now (tile, self_drawn, fourth_tile,
        last_tile, kong), or None if the seat cannot declare Hu now."""
        return None if self.seat is None else self.hu_context(self.seat)

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
        c = [4] * N_KINDS
        h = self.hand
        for t in range(N_KINDS):
            c[t] -= h[t]
        for s in range(4):
            for m in self.melds[s]:
                if m.tile is not None:
                    for u in m.tiles():
                        c[u] -= 1
            for u in self.discards[s]:
                c[u] -= 1
        return c

    def __repr__(self):
        h = _counts_str(self.hand) if self.hand is not None else "?"
        return (f"BotState(seat={self.seat}, quan={self.quan}, turn={self.turn}, phase={self.phase!r}, "
                f"current={self.current}, hand={h!r}, walls={self.walls})")
