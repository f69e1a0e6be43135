# The interface of mjfast._machine (src/_machine.pyx): the game's state
# machine, one game under the Botzone judge's rules: its state, its cdef
# transitions and its codes (ops, phases, events, modes, refusal reasons).
# mjfast._engine's Engine (the Python face) subclasses Machine; mjfast._game
# (self-play, batch play), mjfast._seat (a seat's view) and mjfast._replay
# step it through the cdef methods below.
from libc.stdint cimport uint8_t, int8_t, int16_t

cdef enum:
    OP_PASS = 0
    OP_PLAY = 1
    OP_GANG = 2
    OP_BUGANG = 3
    OP_HU = 4
    OP_PENG = 5
    OP_CHI = 6
    OP_OTHER = 7        # an answer of no known kind (refused; the reason is the answer itself)
    OP_BAD = 8          # an answer that could not be read (refused: the caller words why)
    OP_SHAPE = 16       # or-ed to a kind: the answer names the wrong number of tiles

cdef enum:
    PH_DRAW = 0
    PH_TURN = 1
    PH_CLAIM = 2
    PH_ROB = 3
    PH_OVER = 4

cdef enum:
    EV_DRAW = 1
    EV_PLAY = 2
    EV_CHI = 3
    EV_PENG = 4
    EV_GANG = 5
    EV_ANGANG = 6
    EV_BUGANG = 7
    EV_HU = 8
    EV_HUANG = 9
    EV_IGNORE = 10
    EV_BUHUA = 11
    EV_ERROR = 12

# The fixed action space and the observation vector of mjfast/game/actions.py
# (the one definition; tests/test_game_actions.py asserts these mirror it).
cdef enum:
    A_PASS = 0
    A_HU = 1
    A_PLAY = 2
    A_CHI = 36
    A_PENG = 99
    A_GANG = 133
    A_ANGANG = 167
    A_BUGANG = 201
    N_ACTIONS = 235

cdef enum:
    O_HAND = 0          # (34,)
    O_MELDS = 34        # (4, 4, 4)
    O_RIVER = 98        # (4, RIVER_LEN, 2)
    O_RIVER_LEN = 418   # (4,)
    O_WALLS = 422       # (4,)
    O_SHOWN = 426       # (34,)
    O_STATE = 460       # (6,)
    OBS_SIZE = 466

cdef enum:
    MODE_WALLS = 0      # the duplicate format: four walls of 34, known
    MODE_DEALS = 1      # the duplicate format, walls unknown: each draw is given
    MODE_TABLE = 2      # table play: one shared wall, flowers

cdef enum:
    MAX_EV = 1024
    MAX_ROUNDS = 512
    MAX_LEGAL = 256
    RIVER_LEN = 40      # the observation's river (duplicate: at most 21 draws + 4 claims = 25 discards)
    RIVER_CAP = 112     # a river's room (table play: a seat may draw more often)
    WALL_CAP = 144      # 136 tiles and 8 flowers
    NFAN = 84           # fan counts by fan id, as the kernel writes them

# Why an answer was refused (the engine's error codes): one Python table
# (mjfast/game/state.py, _REASONS) words them.  err_code: 1 WA, 2 WH.
cdef enum:
    R_NONE = 0
    R_DRAW_PHASE = 1        # a: phase
    R_DRAW_NEED_TILE = 2
    R_DRAW_FLOWER = 3       # a: the flower
    R_DRAW_FIFTH = 4        # a: tile
    R_DRAW_MISMATCH = 5     # a: tile given, b: the wall's
    R_TURN_PHASE = 6        # a: phase
    R_PLAY_NOT_HELD = 7     # a: tile
    R_HU_NOT_WIN = 8        # a: tile (WH)
    R_HU_UNDER8 = 9         # a: tile, b: points besides flowers (WH)
    R_ANGANG_COUNT = 10     # a: tile, b: held
    R_KONG_WALL = 11
    R_BUGANG_NO_PUNG = 12   # a: tile
    R_BUGANG_NOT_HELD = 13  # a: tile
    R_TURN_INVALID = 14
    R_CLAIM_PHASE = 15      # a: phase
    R_OWN = 16              # a: 1 an added kong, 0 a discard
    R_ROB_ONLY = 17
    R_CLAIM_INVALID = 18
    R_CLAIM_WALL = 19       # a: op, b: the seat after the discarder
    R_MKONG_COUNT = 20      # a: tile, b: held
    R_MKONG_WALL = 21
    R_PENG_COUNT = 22       # a: tile, b: held
    R_PENG_DISCARD = 23     # a: tile
    R_CHI_SEAT = 24         # a: discarder
    R_CHI_MIDDLE = 25       # a: middle, b: tile
    R_CHI_NEED = 26         # a: middle, b, c: the tiles missing (c -1: one)
    R_CHI_DISCARD = 27      # a: tile
    R_PARSE = 28            # the answer could not be read (OP_BAD)
    # a seat's view (viewer >= 0: the requests are facts; these refuse one that contradicts the view)
    R_SEAT_DRAW = 29        # a: the seat that draws or holds the turn, b: 1 it holds its turn
    R_WALL_EMPTY = 30
    R_SEAT_FIFTH = 31       # a: tile, b: 1 all four already in sight
    R_HAND_NEED = 32        # a: tile (-1: a hidden seat's concealed tiles), b: held, c: needed
    R_NO_TURN = 33          # a: 1 an added kong, 0 a discard
    R_NO_DISCARD = 34
    R_NO_PUNG = 35          # a: tile
    R_FLOWER_SHOWN = 36     # a: the flower

cdef struct GMeld:
    int8_t kind        # 0 chow, 1 pung, 2 kong
    int8_t tile        # lowest tile of a chow
    int8_t frm         # discarder, -1 for a concealed kong
    int8_t claimed     # the claimed tile
    int8_t added


cdef class Machine:
    cdef uint8_t hands[4][34]
    cdef uint8_t walls[4][34]
    cdef int pos[4]
    cdef GMeld melds[4][4]
    cdef int nm[4]
    cdef uint8_t shown[34]
    cdef uint8_t river[4][RIVER_CAP]
    cdef int nriver[4]
    # every discard in order, claimed or not: (tile, the seat that claimed it or -1)
    cdef int8_t disc[4][RIVER_CAP][2]
    cdef int ndisc[4]
    cdef uint8_t dealt[4][13]        # the deals, in wall order (flowers set aside)
    # table play: the shared wall, drawn from the front, replacements from the back
    cdef uint8_t wall[WALL_CAP]
    cdef int nwall, front, back
    cdef bint repl                   # the next draw replaces a kong or a flower
    cdef uint8_t flw[4][8]
    cdef readonly int mode
    cdef int nfl[4]
    cdef uint8_t seen[34]            # walls unknown: copies dealt and drawn
    # a seat's view (mjfast._seat): the one seat whose hand is known, -1 the whole table; the other
    # seats' concealed tiles are only counted (nconc), their draws carry no tile
    cdef readonly int viewer
    cdef int nconc[4]
    # read-only from Python: the C code indexes its arrays with them
    cdef readonly int phase, current, last_tile, quan
    cdef readonly int after_kong
    cdef readonly int winner, from_seat, total, huang
    cdef readonly int w_self, w_fourth, w_last, w_kong
    # the last refusal: seat, code (1 WA, 2 WH), reason (R_*) and its details
    cdef readonly int err_seat, err_code, err_reason, err_a, err_b, err_c
    cdef int sc[4]
    cdef int16_t ev[MAX_EV][4]
    cdef int nev
    cdef int legal_buf[MAX_LEGAL][3]
    cdef object hu_fn
    cdef int16_t hu_ft[NFAN]         # the fan counts of the last Hu scored by the kernel
    cdef bint _ready                 # a game has been dealt
    cdef bint _busy                  # inside hu_fn: the game must not change under _legal

    cdef int _begin(self, int quan, int mode) noexcept
    # the deals: the four walls (4, 34), the deals of unknown walls d (4, 13),
    # table play's wall w (the arrays' contents checked here: ValueError)
    cdef int _reset(self, const uint8_t[:, ::1] walls, int quan) except -1
    cdef int _reset_deals(self, const uint8_t[:, ::1] d, int quan) except -1
    cdef int _reset_table(self, const uint8_t[::1] w, int quan) except -1

    # The small helpers of every step, inline here so that every module that
    # steps the machine (this one, mjfast._game's policies, the seat view,
    # the replay) inlines them: a cdef method declared only here is an
    # indirect call through the type's table on every step.

    cdef inline int _left(self, int s) noexcept nogil:
        if self.mode == MODE_TABLE:       # one shared wall
            return self.back - self.front
        return 34 - self.pos[s]

    cdef inline bint _kong_ok(self, int s) noexcept nogil:
        # a concealed or added kong, after s's own draw
        return self._left(s) > 0 and self._left((s + 1) % 4) > 0

    cdef inline bint _claims_ok(self, int d) noexcept nogil:
        # d's discard may be chowed, punged or konged: only the wall after d counts; a melded kong also needs
        # the claimer's own wall (its replacement)
        return self._left((d + 1) % 4) > 0

    cdef inline void _discarded(self, int s, int t) noexcept nogil:
        if self.ndisc[s] < RIVER_CAP:       # always (see RIVER_CAP)
            self.disc[s][self.ndisc[s]][0] = t
            self.disc[s][self.ndisc[s]][1] = -1
            self.ndisc[s] += 1

    cdef inline void _event(self, int kind, int seat, int tile, int extra) noexcept nogil:
        if self.nev < MAX_EV:
            self.ev[self.nev][0] = kind
            self.ev[self.nev][1] = seat
            self.ev[self.nev][2] = tile
            self.ev[self.nev][3] = extra
            self.nev += 1

    cdef int _take(self, int s, int t, int n) noexcept
    cdef void _play(self, int s, int t) noexcept
    cdef void _passed(self) noexcept
    cdef int _meld(self, int s, int op, int m) noexcept
    cdef int _angang(self, int s, int t) noexcept
    cdef int _bugang(self, int s, int t) noexcept
    cdef int _refuse(self, int seat, int code, int reason, int a, int b, int c) noexcept
    cdef inline int _hu_total(self, int seat) except -10:
        # What a Hu by seat would score now: total, -3 not a win, -4 cannot declare.
        cdef int sd, kong, actor, t = self.last_tile
        if self.phase == PH_TURN:
            if seat != self.current:
                return -4
            sd, kong, actor = 1, self.after_kong, seat
        elif self.phase == PH_CLAIM or self.phase == PH_ROB:
            if seat == self.current:
                return -4
            sd, kong, actor = 0, self.phase == PH_ROB, self.current
        else:
            return -4
        if self.viewer >= 0 and seat != self.viewer:
            return -3                     # a hidden hand (a seat's view): nothing known to score
        if self.hu_fn is None:
            return self._kernel_total(seat, t, sd, self.shown[t] == 3, self._left((actor + 1) % 4) == 0, kong)
        return self._callback_total(seat, t, sd, self.shown[t] == 3, self._left((actor + 1) % 4) == 0, kong)
    cdef int _callback_total(self, int seat, int t, int sd, int fourth, int last, int kong) except -10
    cdef int _kernel_total(self, int seat, int t, int sd, int fourth, int last, int kong) noexcept
    cdef int _legal(self, int seat, bint check_hu) except -1
    cdef bint _is_legal(self, int seat, int op, int a, int b) except -1
    cdef int _why_turn(self, int op, int a) except -1
    cdef int _why_claim(self, int s, int op, int a, int b) except -1
    cdef int _mask(self, int seat, uint8_t* out) except -1
    cdef void _observe(self, int seat, int8_t* out) noexcept nogil
    cdef inline int _draw(self) except -2:
        # current draws from the known walls (see _draw_given)
        return self._draw_given(-1)
    cdef int _draw_given(self, int tile) except -4
    cdef void _settle(self, int seat, int frm, int total, int sd) noexcept
    cdef void _set_context(self, int seat, int sd, int kong, int actor) noexcept
    cdef int _turn(self, int op, int a) except -2
    cdef int _claim(self, int* ops, int* aa, int* bb) except -3
    cdef void _ignores(self, int* ranks, int best, int d, int* ops, int* aa, int t) noexcept
    cdef void _fail(self, int s) noexcept
