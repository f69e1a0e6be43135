# cython: language_level=3, auto_pickle=False
"""One seat's view of a game: the game engine (mjfast._engine.Engine) as a
bot on the platform sees it, fed that seat's requests.

The walls are unknown (the engine's MODE_DEALS: the seat's own draws name
their tile) and the other seats' hands are hidden (``viewer``: their
concealed tiles are only counted, their draws carry no tile, a concealed
kong of theirs shows none).  Each request is a fact: it is applied through
the engine's own transitions (_take, _play, _passed, _meld, _angang,
_bugang, _draw_given), checked only against what the seat knows: whose
turn or draw it is, a live discard to claim, a chow's shape, the hands it
knows, the walls' counts, the flowers shown and, after each fact, that no
fifth copy of a tile is in sight.  A refused fact leaves the view as it was
and says why (refusal(): the R_* codes of src/mjfast/_machine.pxd, worded by
mjfast/game/state.py).  Legal actions, the kong and claim limits at the end
of the walls, the context of a Hu and its value are the engine's.

mjfast.botzone.BotState reads the requests' text and wraps this class.
"""
from libc.string cimport memcpy
from mjfast._machine cimport (GMeld, MODE_DEALS, PH_TURN, PH_CLAIM, PH_ROB, OP_PENG, OP_CHI, OP_GANG,
                              R_SEAT_DRAW, R_WALL_EMPTY, R_SEAT_FIFTH, R_NO_TURN, R_NO_DISCARD, R_CHI_MIDDLE,
                              R_FLOWER_SHOWN)
from mjfast._engine cimport Engine

from mjfast._args import int_arg, seat_arg

# the facts a request states (the request kinds of the Botzone protocol)
cdef enum:
    F_DRAW = 0      # a: the tile (the own seat's draw), -1 another seat's
    F_PLAY = 1      # a: the discard
    F_PENG = 2      # a: the discard after the pung
    F_CHI = 3       # a: the chow's middle, b: the discard after it
    F_GANG = 4      # a concealed kong (a: its tile, -1 hidden) after an own draw, else a melded kong
    F_BUGANG = 5    # a: the tile added
    F_BUHUA = 6     # a: the flower (34-41) set aside

FACTS = {"DRAW": F_DRAW, "PLAY": F_PLAY, "PENG": F_PENG, "CHI": F_CHI, "GANG": F_GANG, "BUGANG": F_BUGANG,
         "BUHUA": F_BUHUA}


cdef void _copy(Engine a, Engine b) noexcept:
    # a := b, for what a fact may change (the refusal itself is kept)
    memcpy(a.hands, b.hands, sizeof(a.hands))
    memcpy(a.pos, b.pos, sizeof(a.pos))
    memcpy(a.melds, b.melds, sizeof(a.melds))
    memcpy(a.nm, b.nm, sizeof(a.nm))
    memcpy(a.shown, b.shown, sizeof(a.shown))
    memcpy(a.river, b.river, sizeof(a.river))
    memcpy(a.nriver, b.nriver, sizeof(a.nriver))
    memcpy(a.disc, b.disc, sizeof(a.disc))
    memcpy(a.ndisc, b.ndisc, sizeof(a.ndisc))
    memcpy(a.flw, b.flw, sizeof(a.flw))
    memcpy(a.nfl, b.nfl, sizeof(a.nfl))
    memcpy(a.seen, b.seen, sizeof(a.seen))
    memcpy(a.nconc, b.nconc, sizeof(a.nconc))
    a.phase, a.current, a.last_tile, a.after_kong, a.repl, a.nev = \
        b.phase, b.current, b.last_tile, b.after_kong, b.repl, b.nev


cdef class SeatView(Engine):
    """One seat's view (see the module docstring).  Before start() it is an
    empty table seen by nobody."""
    cdef Engine _saved

    def __init__(self):
        super().__init__()
        self._saved = Engine.__new__(Engine)
        self._begin(0, MODE_DEALS)

    def start(self, seat, quan):
        """The seat request: an empty table seen by ``seat``, prevalent wind ``quan``."""
        cdef int s = seat_arg(seat, "start: seat"), q = int_arg(quan, "start: quan", 0, 3)
        self._begin(q, MODE_DEALS)
        self.viewer = s

    def deal(self, tiles, flowers):
        """The deal: the seat's 13 tiles (indices 0-33, at most 4 of a kind)
        and each seat's flowers (4 lists of 34-41)."""
        cdef int i, s, t, me = self.viewer
        if me < 0:
            raise ValueError("deal: no seat yet (start(seat, quan) first)")
        if len(tiles) != 13 or len(flowers) != 4 or sum(len(f) for f in flowers) > 8:
            raise ValueError("deal: 13 tiles and 4 lists of flowers (8 at most)")
        for i in range(13):
            t = int_arg(tiles[i], "deal: tile", 0, 33)
            if self.hands[me][t] >= 4:
                raise ValueError(f"deal: a fifth copy of tile {t}")
            self.hands[me][t] += 1
            self.dealt[me][i] = t
        shown = [self.flw[s][i] for s in range(4) for i in range(self.nfl[s])]
        for s in range(4):
            for f in flowers[s]:
                t = int_arg(f, "deal: flower", 34, 41)
                if t in shown:              # (each flower once: at most 8 in all, the arrays' room)
                    raise ValueError(f"deal: flower {t} twice")
                shown.append(t)
                self.flw[s][self.nfl[s]] = t
                self.nfl[s] += 1

    def fact(self, kind, seat, a=-1, b=-1):
        """Apply one fact (F_* of FACTS) of ``seat``: 0 if accepted, else the
        refusal reason (refusal() has its details; the view is unchanged)."""
        cdef int k = int_arg(kind, "fact: kind", F_DRAW, F_BUHUA), p = seat_arg(seat, "fact: seat")
        cdef int x = int_arg(a, "fact: a", -1, 41 if k == F_BUHUA else 33), y = int_arg(b, "fact: b", -1, 33)
        if self.viewer < 0:
            raise ValueError("fact: no seat yet (start(seat, quan) first)")
        if (x < 0 and not (k == F_GANG or (k == F_DRAW and p != self.viewer))) or (k == F_CHI and y < 0) \
                or (k == F_BUHUA and x < 34):
            raise ValueError(f"fact {k}: tiles {x}, {y} missing or out of range")
        _copy(self._saved, self)
        r = self._fact(k, p, x, y)
        if not r:
            r = self._sight()
        if r:
            _copy(self, self._saved)
            return self.err_reason
        return 0

    cdef int _fact(self, int k, int p, int a, int b) except -1:
        cdef int s, t, i
        cdef bint own_turn
        if k == F_DRAW:
            if self.phase == PH_TURN:
                return self._refuse(p, 1, R_SEAT_DRAW, self.current, 1, 0)
            if self.phase == PH_CLAIM or self.phase == PH_ROB:
                self._passed()
            if self.current != p:
                return self._refuse(p, 1, R_SEAT_DRAW, self.current, 0, 0)
            if self._left(p) == 0:
                return self._refuse(p, 1, R_WALL_EMPTY, 0, 0, 0)
            if p == self.viewer and self.hands[p][a] >= 4:
                return self._refuse(p, 1, R_SEAT_FIFTH, a, 0, 0)
            return self._draw_given(a) == -3
        if k == F_BUHUA:
            for s in range(4):
                for i in range(self.nfl[s]):
                    if self.flw[s][i] == a:
                        return self._refuse(p, 1, R_FLOWER_SHOWN, a, 0, 0)
            if self._left(p) == 0:
                return self._refuse(p, 1, R_WALL_EMPTY, 0, 0, 0)
            self.flw[p][self.nfl[p]] = a        # (8 flowers, each once: room for all)
            self.nfl[p] += 1
            self.pos[p] += 1
            return 0
        own_turn = self.phase == PH_TURN and self.current == p
        if k == F_PLAY or k == F_BUGANG:
            if not own_turn:
                return self._refuse(p, 1, R_NO_TURN, k == F_BUGANG, 0, 0)
            if k == F_BUGANG:
                return self._bugang(p, a)
            if self._take(p, a, 1):
                return 1
            self._play(p, a)
            return 0
        if k == F_GANG and own_turn:
            if p == self.viewer and a < 0:
                raise ValueError("fact: the seat's own concealed kong names its tile")
            return self._angang(p, a if p == self.viewer else -1)
        # a claim of the live discard
        if self.phase != PH_CLAIM or self.current == p:
            return self._refuse(p, 1, R_NO_DISCARD, 0, 0, 0)
        t = self.last_tile
        if k == F_CHI and (a >= 27 or not 1 <= a % 9 <= 7 or abs(a - t) > 1):
            return self._refuse(p, 1, R_CHI_MIDDLE, a, t, 0)
        if self._meld(p, OP_GANG if k == F_GANG else OP_PENG if k == F_PENG else OP_CHI, a):
            return 1
        if k == F_GANG:
            return 0
        if k == F_CHI:
            a = b
        if self._take(p, a, 1):
            return 1
        self._play(p, a)
        return 0

    cdef int _unseen(self, int* c) noexcept:
        # per tile, the copies the viewer has not seen: not in its hand, a meld shown or a river
        cdef int s, i, t, u, n
        cdef GMeld* g
        for t in range(34):
            c[t] = 4 - self.hands[self.viewer][t]
        for s in range(4):
            for i in range(self.nm[s]):
                g = &self.melds[s][i]
                if g.tile < 0:
                    continue
                if g.kind == 0:
                    for u in range(g.tile, g.tile + 3):
                        c[u] -= 1
                else:
                    c[g.tile] -= 3 if g.kind == 1 else 4
            for i in range(self.nriver[s]):
                c[self.river[s][i]] -= 1
        return 0

    cdef int _sight(self) noexcept:
        # refuse a fact after which the viewer sees a fifth copy of a tile
        cdef int c[34]
        cdef int t
        self._unseen(c)
        for t in range(34):
            if c[t] < 0:
                return self._refuse(self.viewer, 1, R_SEAT_FIFTH, t, 1, 0)
        return 0

    def unseen(self):
        """Per tile kind, the copies the seat has not seen (in the other hands or the walls)."""
        cdef int c[34]
        cdef int t
        if self.viewer < 0:
            raise ValueError("unseen: no seat yet")
        self._unseen(c)
        return [c[t] for t in range(34)]

    def walls(self):
        """Tiles left in each seat's wall."""
        return [self._left(0), self._left(1), self._left(2), self._left(3)]

    def set_left(self, seat, n):
        """Set the tiles left in seat's wall to n, at most the tiles left now
        (a view built by hand; a wall never grows, which bounds the rivers)."""
        cdef int s = seat_arg(seat, "set_left: seat")
        self.pos[s] = 34 - int_arg(n, "set_left: n", 0, self._left(s))
