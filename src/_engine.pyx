# cython: language_level=3, auto_pickle=False
"""The game engine's Python face: Engine, the state machine of
mjfast._machine (Machine: the rules, on C arrays) with the methods and
properties Python calls.  Each one checks its arguments (the checks and
their messages of mjfast._args), that a game is dealt and not inside its own
hu_fn (_usable), makes one call into the machine, and hands back ints,
lists and tuples; the rules themselves are all the machine's.  The engine's
codes have their Python names here (OPS, PHASES, MODES, EVENTS, REASONS).

mjfast._game (FastGame: the self-play policies, batch play) and mjfast._seat
(SeatView, one seat's view) subclass Engine; mjfast._replay steps one;
mjfast.game.GameState wraps it for Python.
"""
from libc.string cimport memset
from libc.stdint cimport uint8_t, int8_t
from cpython.long cimport PyLong_AsLongAndOverflow
from mjfast._machine cimport *
from mjfast._args import int_arg, seat_arg, flat_out

import numpy as np
cimport numpy as cnp

cnp.import_array()

_C_INT = (1 << 31) - 1


cdef inline int _c_int(x, str what, int s) except? -1:
    # a C int argument: a plain int in range takes the fast path, anything
    # else int_arg's checks and messages
    cdef int overflow = 0
    cdef long v
    if type(x) is int:
        v = PyLong_AsLongAndOverflow(x, &overflow)
        if not overflow and -2147483647 <= v <= 2147483647:
            return <int>v
    return int_arg(x, what.format(s), -_C_INT, _C_INT)


cdef inline list _counts(const uint8_t* c):
    # 34 counts as a list (a comprehension over the C array: a memoryview
    # cast of it costs far more per call)
    cdef int i
    return [c[i] for i in range(34)]


cdef class Engine(Machine):
    """One game (see the module docstring and mjfast._machine.Machine):
    ``Engine(hu_fn=None)``, a Hu scored by the compiled fan kernel or by
    ``hu_fn(seat, counts, melds, tile, self_drawn, fourth_tile, last_tile,
    kong, quan)`` (the total of a Hu or -3)."""

    cdef int _usable(self, str what) except -1:
        if self._busy:
            raise ValueError(f"{what}: the game cannot be used from inside its own hu_fn")
        if not self._ready:
            raise ValueError(f"{what}: no game yet (call reset(walls, quan) first)")
        return 0

    def reset(self, walls, quan):
        """Deal a new game: ``walls`` a (4, 34) uint8 array holding each of
        the 34 tiles exactly 4 times (as shuffled_walls gives), ``quan`` 0-3."""
        if self._busy:
            raise ValueError("reset: the game cannot be used from inside its own hu_fn")
        cdef const uint8_t[:, ::1] w
        q = int_arg(quan, "quan", 0, 3)
        if walls is None:       # a typed memoryview would take None
            raise TypeError("walls: a (4, 34) uint8 array, got None")
        try:
            w = walls
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"walls: a C-contiguous (4, 34) uint8 array ({exc})") from None
        self._reset(w, q)

    def reset_deals(self, deals, quan):
        """Deal a game whose walls are unknown (a seat's view, a record
        without its walls): ``deals`` a (4, 13) uint8 array of tile indices
        0-33, at most 4 copies of a tile; every draw then names its tile
        (draw_tile)."""
        cdef const uint8_t[:, ::1] d
        if self._busy:
            raise ValueError("reset_deals: the game cannot be used from inside its own hu_fn")
        q = int_arg(quan, "quan", 0, 3)
        if deals is None:
            raise TypeError("deals: a (4, 13) uint8 array, got None")
        d = deals
        return self._reset_deals(d, q)

    def reset_table(self, wall, quan):
        """Deal a game of table play: ``wall`` a uint8 array of the 136 tiles
        (each of 0-33 four times) and any of the flowers 34-41 (once each), in
        drawing order; dealt 13 to each seat in seat order from its front,
        flowers set aside as dealt."""
        cdef const uint8_t[::1] w
        if self._busy:
            raise ValueError("reset_table: the game cannot be used from inside its own hu_fn")
        q = int_arg(quan, "quan", 0, 3)
        if wall is None:
            raise TypeError("wall: a uint8 array, got None")
        w = wall
        return self._reset_table(w, q)

    def draw(self):
        self._usable("draw")
        if self.phase != PH_DRAW:
            raise ValueError("not the draw phase")
        return self._draw()

    def turn(self, op, a):
        """The drawer's answer (op, a); 0, or -1 if it is not legal now."""
        cdef int o = _c_int(op, "turn: op", 0)
        cdef int t = _c_int(a, "turn: tile", 0)
        self._usable("turn")
        return self._turn(o, t)

    def claim(self, answers):
        """The four seats' answers (op, a, b) to a discard or an added kong:
        the seat whose claim won, -1 if all passed, -2 if one is not legal."""
        cdef int ops[4]
        cdef int aa[4]
        cdef int bb[4]
        cdef int s
        try:
            n = len(answers)
        except TypeError:
            raise TypeError(f"claim: 4 answers (op, a, b), got {type(answers).__name__}") from None
        if n != 4:
            raise ValueError(f"claim: 4 answers (op, a, b), one per seat; got {n}")
        for s in range(4):
            x = answers[s]
            try:
                k = len(x)
            except TypeError:
                raise TypeError(f"claim: answer {s} is {type(x).__name__}, not (op, a, b)") from None
            if k != 3:
                raise ValueError(f"claim: answer {s} has {k} items, not (op, a, b)")
            ops[s] = _c_int(x[0], "claim: answer {} op", s)
            aa[s] = _c_int(x[1], "claim: answer {} a", s)
            bb[s] = _c_int(x[2], "claim: answer {} b", s)
        self._usable("claim")
        return self._claim(ops, aa, bb)

    def legal(self, seat):
        cdef int s = seat_arg(seat, "legal: seat"), i
        self._usable("legal")
        n = self._legal(s, True)
        return [(self.legal_buf[i][0], self.legal_buf[i][1], self.legal_buf[i][2]) for i in range(n)]

    def legal_mask(self, seat, out=None):
        """The legal actions of seat now as a (N_ACTIONS,) uint8 0/1 mask over
        the fixed action space of mjfast.game.actions (all 0 once the game
        is over); written into ``out`` (a writable (235,) uint8 array) if
        given, else into a new array.  Returns the array."""
        cdef int s = seat_arg(seat, "legal_mask: seat")
        res = flat_out(out, (N_ACTIONS,), np.uint8, "legal_mask: out")
        cdef uint8_t[::1] o = res
        self._usable("legal_mask")
        self._mask(s, &o[0])
        return res if out is None else out

    def observe(self, seat, out=None):
        """What seat may see now as an (OBS_SIZE,) int8 vector (the fields of
        mjfast.game.actions.OBS_FIELDS; obs_fields() names them); written
        into ``out`` (a writable (466,) int8 array) if given."""
        cdef int s = seat_arg(seat, "observe: seat")
        res = flat_out(out, (OBS_SIZE,), np.int8, "observe: out")
        cdef int8_t[::1] o = res
        self._usable("observe")
        self._observe(s, &o[0])
        return res if out is None else out

    def hu_value(self, seat):
        cdef int s = seat_arg(seat, "hu_value: seat")
        self._usable("hu_value")
        return self._hu_total(s)

    def snapshot(self):
        """(hands, melds, shown, rivers, walls left, phase, current, last tile), for comparisons."""
        hands = [_counts(self.hands[s]) for s in range(4)]
        melds = [[(self.melds[s][i].kind, self.melds[s][i].tile, self.melds[s][i].frm, self.melds[s][i].claimed,
                   self.melds[s][i].added) for i in range(self.nm[s])] for s in range(4)]
        rivers = [[self.river[s][i] for i in range(self.nriver[s])] for s in range(4)]
        return (hands, melds, _counts(self.shown), rivers, [self._left(s) for s in range(4)],
                self.phase, self.current, self.last_tile)

    def scores(self):
        return [self.sc[0], self.sc[1], self.sc[2], self.sc[3]]

    def events(self):
        return [(self.ev[i][0], self.ev[i][1], self.ev[i][2], self.ev[i][3]) for i in range(self.nev)]

    def melds_of(self, seat):
        cdef int s = seat_arg(seat, "melds_of: seat"), i
        return [(self.melds[s][i].kind, self.melds[s][i].tile, self.melds[s][i].frm,
                 self.melds[s][i].claimed, self.melds[s][i].added) for i in range(self.nm[s])]

    def hand_of(self, seat):
        cdef int s = seat_arg(seat, "hand_of: seat")
        return _counts(self.hands[s])


    # the rest of the Python API: what mjfast.game.GameState reads and asks

    def draw_tile(self, tile=-1):
        """current draws (any mode): ``tile`` the tile drawn (-1: not given;
        required when the walls are unknown).  The tile, a flower (34-41,
        set aside: current draws again), -1 for Huang, -3 if refused
        (refusal() says why; the state is unchanged)."""
        cdef int overflow = 0
        cdef long v = -2
        if type(tile) is int:               # the common case without a Python call
            v = PyLong_AsLongAndOverflow(tile, &overflow)
        if overflow or not -1 <= v <= 41:
            v = int_arg(tile, "draw_tile: tile", -1, 41)
        cdef int t = <int>v
        self._usable("draw_tile")
        return self._draw_given(t)

    def refusal(self):
        """Why the last answer was refused: (seat, code 1 WA / 2 WH, reason
        R_*, a, b, c), the details as src/mjfast/_machine.pxd lists them."""
        return self.err_seat, self.err_code, self.err_reason, self.err_a, self.err_b, self.err_c

    def fail(self, seat):
        """The error rule: seat loses 30, each other seat gains 10; the game is over."""
        cdef int s = seat_arg(seat, "fail: seat")
        self._usable("fail")
        self._fail(s)

    def hu_context(self, seat):
        """If seat may declare Hu now: (tile, self_drawn, fourth_tile,
        last_tile, kong), the context the judge scores it with; else None."""
        cdef int s = seat_arg(seat, "hu_context: seat"), ph = self.phase, sd, kong, actor, t
        self._usable("hu_context")
        if ph == PH_TURN:
            if s != self.current:
                return None
            sd, kong, actor = 1, self.after_kong, s
        elif ph == PH_CLAIM or ph == PH_ROB:
            if s == self.current:
                return None
            sd, kong, actor = 0, ph == PH_ROB, self.current
        else:
            return None
        t = self.last_tile
        return t, bool(sd), self.shown[t] == 3, self._left((actor + 1) % 4) == 0, bool(kong)

    def win_context(self):
        """The context the last Hu was scored with: (self_drawn, fourth_tile, last_tile, kong)."""
        return bool(self.w_self), bool(self.w_fourth), bool(self.w_last), bool(self.w_kong)

    def kong_allowed(self, seat, discarder=-1):
        """A kong by seat is allowed by the walls now: after its own draw
        (discarder -1) a concealed or added one, else a melded kong of
        discarder's discard."""
        cdef int s = seat_arg(seat, "kong_allowed: seat")
        cdef int d = int_arg(discarder, "kong_allowed: discarder", -1, 3)
        self._usable("kong_allowed")
        if d < 0:
            return self._kong_ok(s)
        return self._claims_ok(d) and self._left(s) > 0

    def claims_allowed(self, discarder):
        """discarder's discard may be chowed, punged or konged (the walls)."""
        cdef int d = seat_arg(discarder, "claims_allowed: discarder")
        self._usable("claims_allowed")
        return self._claims_ok(d)

    def left(self, seat):
        """Tiles left to draw in seat's wall (table play: in the shared wall)."""
        cdef int s = seat_arg(seat, "left: seat")
        self._usable("left")
        return self._left(s)

    def river_of(self, seat):
        """seat's river: its discards nobody claimed."""
        cdef int s = seat_arg(seat, "river_of: seat"), i
        return [self.river[s][i] for i in range(self.nriver[s])]

    def flowers_of(self, seat):
        cdef int s = seat_arg(seat, "flowers_of: seat"), i
        return [self.flw[s][i] for i in range(self.nfl[s])]

    def deal_of(self, seat):
        """seat's 13 dealt tiles, in wall order (flowers set aside)."""
        cdef int s = seat_arg(seat, "deal_of: seat"), i
        return [self.dealt[s][i] for i in range(13)]

    def shown_of(self):
        """Per tile, the copies shown (the fourth-tile counting)."""
        return _counts(self.shown)

    def sync_from(self, Py_ssize_t start):
        """(phase, current, last_tile, after_kong, the events from index
        start on) in one call: what mjfast.game.GameState copies after each
        step."""
        cdef Py_ssize_t i
        evs = [(self.ev[i][0], self.ev[i][1], self.ev[i][2], self.ev[i][3])
               for i in range(max(start, 0), self.nev)] if start < self.nev else None
        return self.phase, self.current, self.last_tile, self.after_kong != 0, evs

    def claim_passes(self):
        """claim() with every seat answering PASS (the common round)."""
        cdef int ops[4]
        cdef int aa[4]
        cdef int bb[4]
        memset(ops, 0, sizeof(ops)); memset(aa, 0, sizeof(aa)); memset(bb, 0, sizeof(bb))
        self._usable("claim")
        return self._claim(ops, aa, bb)

    def events_from(self, Py_ssize_t start):
        """The events from index start on: (kind EV_*, seat, tile, extra)."""
        cdef Py_ssize_t i
        return [(self.ev[i][0], self.ev[i][1], self.ev[i][2], self.ev[i][3])
                for i in range(max(start, 0), self.nev)]

    def table_state(self):
        """(front, back) of table play's shared wall."""
        return self.front, self.back


# The engine's codes for Python (the one definition: the enums of
# src/mjfast/_machine.pxd):
# mjfast.game.state words refusals and reads events by these names.
OPS = {"PASS": OP_PASS, "PLAY": OP_PLAY, "GANG": OP_GANG, "BUGANG": OP_BUGANG, "HU": OP_HU, "PENG": OP_PENG,
       "CHI": OP_CHI, "OTHER": OP_OTHER, "BAD": OP_BAD, "SHAPE": OP_SHAPE}
PHASES = ("draw", "turn", "claim", "rob", "over")        # PH_DRAW .. PH_OVER
MODES = {"walls": MODE_WALLS, "deals": MODE_DEALS, "table": MODE_TABLE}
EVENTS = {"DRAW": EV_DRAW, "PLAY": EV_PLAY, "CHI": EV_CHI, "PENG": EV_PENG, "GANG": EV_GANG, "ANGANG": EV_ANGANG, "BUGANG": EV_BUGANG, "HU": EV_HU, "HUANG": EV_HUANG, "IGNORE": EV_IGNORE, "BUHUA": EV_BUHUA, "ERROR": EV_ERROR}
REASONS = {"NONE": R_NONE, "DRAW_PHASE": R_DRAW_PHASE, "DRAW_NEED_TILE": R_DRAW_NEED_TILE,
           "DRAW_FLOWER": R_DRAW_FLOWER, "DRAW_FIFTH": R_DRAW_FIFTH, "DRAW_MISMATCH": R_DRAW_MISMATCH,
           "TURN_PHASE": R_TURN_PHASE, "PLAY_NOT_HELD": R_PLAY_NOT_HELD, "HU_NOT_WIN": R_HU_NOT_WIN,
           "HU_UNDER8": R_HU_UNDER8, "ANGANG_COUNT": R_ANGANG_COUNT, "KONG_WALL": R_KONG_WALL,
           "BUGANG_NO_PUNG": R_BUGANG_NO_PUNG, "BUGANG_NOT_HELD": R_BUGANG_NOT_HELD, "TURN_INVALID": R_TURN_INVALID,
           "CLAIM_PHASE": R_CLAIM_PHASE, "OWN": R_OWN, "ROB_ONLY": R_ROB_ONLY,
           "CLAIM_INVALID": R_CLAIM_INVALID, "CLAIM_WALL": R_CLAIM_WALL, "MKONG_COUNT": R_MKONG_COUNT,
           "MKONG_WALL": R_MKONG_WALL, "PENG_COUNT": R_PENG_COUNT, "PENG_DISCARD": R_PENG_DISCARD,
           "CHI_SEAT": R_CHI_SEAT, "CHI_MIDDLE": R_CHI_MIDDLE, "CHI_NEED": R_CHI_NEED,
           "CHI_DISCARD": R_CHI_DISCARD, "PARSE": R_PARSE, "SEAT_DRAW": R_SEAT_DRAW, "WALL_EMPTY": R_WALL_EMPTY,
           "SEAT_FIFTH": R_SEAT_FIFTH, "HAND_NEED": R_HAND_NEED, "NO_TURN": R_NO_TURN, "NO_DISCARD": R_NO_DISCARD,
           "NO_PUNG": R_NO_PUNG, "FLOWER_SHOWN": R_FLOWER_SHOWN}

