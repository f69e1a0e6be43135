# cython: language_level=3, auto_pickle=False
"""Compiled self-play for the duplicate format (mjfast.game.fast).

The same rules as mjfast/game/state.py, on C arrays, for games between
built-in policies (discard-the-drawn-tile and a seeded random legal player):
the walls, the draws, the claims and their priority, the kong limits, the
shown tiles and the context of a Hu, the settlement.  What is legal is one
enumeration (_legal); an action is accepted only if it is in it.  A Hu is
scored by the fan kernel of mjfast._core, called directly through a C
pointer (no Python call per Hu check; the same kernel score_win reaches
through the notation); a Python callback can still be given instead.
tests/test_game_fast.py steps this engine and GameState side by side on
thousands of games and requires the same legal actions, states and results.
The built-in policies choose among _legal's answers.  For learning, a seat's
legal answers are also given as a mask over the fixed action space of
mjfast/game/actions.py (legal_mask, legal_masks) and what it may see as a
fixed-layout vector (observe, observe_many); the constants below mirror
that module.
"""
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint8_t, int8_t, int16_t, int64_t, uint64_t
from cpython.pycapsule cimport PyCapsule_GetPointer
from fankernel.flag_bits cimport W_SELF_DRAWN, W_FOURTH_TILE, W_KONG, W_LAST_TILE
from fankernel.mcr_settle cimport mcr_settle_seats, MCR_MIN_POINTS

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef enum:
    OP_PASS = 0
    OP_PLAY = 1
    OP_GANG = 2
    OP_BUGANG = 3
    OP_HU = 4
    OP_PENG = 5
    OP_CHI = 6

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

cdef enum:
    MAX_EV = 1024
    MAX_ROUNDS = 512
    MAX_LEGAL = 256
    RIVER_LEN = 40      # a seat draws at most 21 tiles and claims at most 4 times: at most 25 discards

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

POLICY_TSUMOGIRI = 0
POLICY_RANDOM = 1
POLICY_BASELINE = 2

DEF NFAN = 84           # fan counts by fan id, as the kernel writes them

ctypedef int (*score_counts_t)(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                               const uint8_t* open_, int win, int flags, int seat, int rnd, int flowers,
                               int16_t* ft) noexcept nogil

cdef score_counts_t _kernel = NULL


cdef int _bind_kernel() except -1:
    """Fetch the fan kernel from mjfast._core (once)."""
    global _kernel
    if _kernel != NULL:
        return 0
    import mjfast.score        # loads the fan table into the kernel
    from mjfast import _core
    _kernel = <score_counts_t>PyCapsule_GetPointer(_core.score_capsule(), b"mjfast._core.score_counts")
    return 0


cdef struct GMeld:
    int8_t kind        # 0 chow, 1 pung, 2 kong
    int8_t tile        # lowest tile of a chow
    int8_t frm         # discarder, -1 for a concealed kong
    int8_t claimed     # the claimed tile
    int8_t added


cdef inline uint64_t _rng_next(uint64_t* s) noexcept nogil:
    # xorshift64*: small, fast, and the same on every platform
    s[0] ^= s[0] >> 12
    s[0] ^= s[0] << 25
    s[0] ^= s[0] >> 27
    return s[0] * <uint64_t>2685821657736338717ULL


cdef inline double _rng_unif(uint64_t* s) noexcept nogil:
    return <double>(_rng_next(s) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int _rng_below(uint64_t* s, int n) noexcept nogil:
    return <int>((_rng_next(s) >> 33) % <uint64_t>n)


# The win check, shanten and discard ranking of mjfast._core, as C function
# pointers (see src/_kernels.pxi; the layout below mirrors it), for the
# baseline policy.  Read on first use.
cdef struct KChoice:
    int tile
    int shanten
    int kinds
    int left

ctypedef bint (*_win_fn)(const uint8_t*) noexcept nogil
ctypedef int (*_shanten_fn)(const uint8_t*, int, int) noexcept nogil
ctypedef int (*_discards_fn)(const uint8_t*, int, const uint8_t*, const uint8_t*, KChoice*) noexcept nogil

cdef struct GameKernels:
    int version
    _win_fn is_win
    _shanten_fn shanten
    _discards_fn discards

cdef GameKernels* _K = NULL


cdef int _need_kernels() except -1:
    global _K
    if _K == NULL:
        from mjfast import _core
        _K = <GameKernels*>PyCapsule_GetPointer(_core.game_kernels(), b"mjfast._core.GameKernels")
        if _K.version != 1:                                    # pragma: no cover
            _K = NULL
            raise RuntimeError("mjfast._core and mjfast._game were built from different sources: rebuild")
    return 0


cdef inline void _best_choice(KChoice* ch, int n, int* shanten, int* left, int* tile) noexcept:
    # the baseline's order: lowest shanten, then most unseen useful copies, then lowest tile
    cdef int i
    shanten[0] = 99; left[0] = -1; tile[0] = -1
    for i in range(n):
        if ch[i].shanten < shanten[0] or (ch[i].shanten == shanten[0] and
                                          (ch[i].left > left[0] or (ch[i].left == left[0] and ch[i].tile < tile[0]))):
            shanten[0] = ch[i].shanten; left[0] = ch[i].left; tile[0] = ch[i].tile


cdef class FastGame:
    """One game's state.  A Hu is scored by the compiled fan kernel; with
    ``hu_fn(seat, counts, melds, tile, self_drawn, fourth_tile, last_tile,
    kong, quan)`` (the total of a Hu or -3) by that callback instead."""

    cdef uint8_t hands[4][34]
    cdef uint8_t walls[4][34]
    cdef int pos[4]
    cdef GMeld melds[4][4]
    cdef int nm[4]
    cdef uint8_t shown[34]
    cdef uint8_t river[4][40]
    cdef int nriver[4]
    # every discard in order, claimed or not: (tile, the seat that claimed it or -1)
    cdef int8_t disc[4][RIVER_LEN][2]
    cdef int ndisc[4]
    # read-only from Python: the C code indexes its arrays with them
    cdef readonly int phase, current, last_tile, quan
    cdef int after_kong
    cdef readonly int winner, from_seat, total, huang
    cdef readonly int w_self, w_fourth, w_last, w_kong
    cdef int sc[4]
    cdef int16_t ev[MAX_EV][4]
    cdef int nev
    cdef int8_t rounds[MAX_ROUNDS][4][3]
    cdef int nrounds
    cdef int legal_buf[MAX_LEGAL][3]
    cdef object hu_fn
    cdef int16_t hu_ft[NFAN]         # the fan counts of the last Hu scored by the kernel
    cdef bint _ready                 # reset() has dealt a game
    cdef bint _busy                  # inside hu_fn: the game must not change under _legal

    def __init__(self, hu_fn=None):
        if hu_fn is not None and not callable(hu_fn):
            raise TypeError(f"hu_fn: None or a callable, got {type(hu_fn).__name__}")
        self.hu_fn = hu_fn
        if hu_fn is None:
            _bind_kernel()

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
        q = _int_arg(quan, "quan", 0, 3)
        if walls is None:       # a typed memoryview would take None
            raise TypeError("walls: a (4, 34) uint8 array, got None")
        try:
            w = walls
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"walls: a C-contiguous (4, 34) uint8 array ({exc})") from None
        self._reset(w, q)

    cdef int _reset(self, const uint8_t[:, ::1] walls, int quan) except -1:
        cdef int s, i
        cdef int cnt[34]
        # the tiles index C arrays below, and the engine's arrays (a hand of at
        # most 4 per kind, 4 melds, 40 discards) hold only for the 136 tiles:
        # anything else is refused, not read
        if walls.shape[0] != 4 or walls.shape[1] != 34:
            raise ValueError(f"walls: a (4, 34) uint8 array, got shape ({walls.shape[0]}, {walls.shape[1]})")
        memset(cnt, 0, sizeof(cnt))
        for s in range(4):
            for i in range(34):
                if walls[s, i] > 33:
                    raise ValueError(f"walls: tile index {walls[s, i]} at [{s}, {i}] (0-33)")
                cnt[walls[s, i]] += 1
        for i in range(34):
            if cnt[i] != 4:
                raise ValueError(f"walls: {cnt[i]} copies of tile {i}, the 136 tiles hold each exactly 4 times")
        if not 0 <= quan <= 3:
            raise ValueError(f"quan: 0-3, got {quan}")
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.shown, 0, sizeof(self.shown))
        memset(self.nm, 0, sizeof(self.nm))
        memset(self.nriver, 0, sizeof(self.nriver))
        memset(self.ndisc, 0, sizeof(self.ndisc))
        for s in range(4):
            for i in range(34):
                self.walls[s][i] = walls[s, i]
            for i in range(13):
                self.hands[s][walls[s, i]] += 1
            self.pos[s] = 13
        self.quan = quan
        self.phase = PH_DRAW
        self.current = 0
        self.last_tile = -1
        self.after_kong = 0
        self.winner = -1
        self.from_seat = -1
        self.total = 0
        self.huang = 0
        self.nev = 0
        self.nrounds = 0
        for s in range(4):
            self.sc[s] = 0
        self._ready = True
        return 0

    # ------------------------------------------------------------------ small helpers

    cdef inline int _left(self, int s) noexcept nogil:
        return 34 - self.pos[s]

    cdef inline bint _kong_ok(self, int s) noexcept:
        # a concealed or added kong, after s's own draw (SeatRules.kong_allowed)
        return self._left(s) > 0 and self._left((s + 1) % 4) > 0

    cdef inline bint _claims_ok(self, int d) noexcept:
        # d's discard may be chowed, punged or konged: only the wall after d counts
        # (SeatRules.claims_allowed); a melded kong also needs the claimer's own wall
        return self._left((d + 1) % 4) > 0

    cdef inline void _discarded(self, int s, int t) noexcept:
        if self.ndisc[s] < RIVER_LEN:       # always (see RIVER_LEN)
            self.disc[s][self.ndisc[s]][0] = t
            self.disc[s][self.ndisc[s]][1] = -1
            self.ndisc[s] += 1

    cdef inline void _event(self, int kind, int seat, int tile, int extra) noexcept:
        if self.nev < MAX_EV:
            self.ev[self.nev][0] = kind
            self.ev[self.nev][1] = seat
            self.ev[self.nev][2] = tile
            self.ev[self.nev][3] = extra
            self.nev += 1

    cdef inline void _round(self, int[4] ops, int[4] a, int[4] b) noexcept:
        cdef int s
        if self.nrounds < MAX_ROUNDS:
            for s in range(4):
                self.rounds[self.nrounds][s][0] = ops[s]
                self.rounds[self.nrounds][s][1] = a[s]
                self.rounds[self.nrounds][s][2] = b[s]
            self.nrounds += 1

    cdef int _hu_total(self, int seat) except -10:
        """What a Hu by seat would score now: total, -3 not a win, -4 cannot declare."""
        cdef int sd, kong, actor, t = self.last_tile, i
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
        if self.hu_fn is None:
            return self._kernel_total(seat, t, sd, self.shown[t] == 3, self._left((actor + 1) % 4) == 0, kong)
        melds = [(self.melds[seat][i].kind, self.melds[seat][i].tile, self.melds[seat][i].frm,
                  self.melds[seat][i].claimed, self.melds[seat][i].added) for i in range(self.nm[seat])]
        self._busy = True
        try:
            r = self.hu_fn(seat, bytes(<uint8_t[:34]>self.hands[seat]), melds, t, sd,
                           self.shown[t] == 3, self._left((actor + 1) % 4) == 0, kong, self.quan)
        finally:
            self._busy = False
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not -3 <= r <= _MAX_TOTAL:
            raise ValueError(f"hu_fn: returned {r!r}, expected the int total of a Hu (0-{_MAX_TOTAL}) or -3")
        return r

    cdef int _kernel_total(self, int seat, int t, int sd, int fourth, int last, int kong) noexcept:
        """The kernel's total of seat's hand with t (already in the hand if
        self-drawn); -3 if it is not a win.  Fan counts go to hu_ft."""
        cdef uint8_t c[34]
        cdef uint8_t mk[4]
        cdef uint8_t mt[4]
        cdef uint8_t mo[4]
        cdef int i, r, n = self.nm[seat]
        memcpy(c, self.hands[seat], 34)
        if not sd:
            c[t] += 1
        for i in range(n):
            mk[i] = self.melds[seat][i].kind
            mt[i] = self.melds[seat][i].tile
            mo[i] = self.melds[seat][i].frm >= 0
        r = _kernel(c, n, mk, mt, mo, t, sd * W_SELF_DRAWN | fourth * W_FOURTH_TILE | kong * W_KONG | last * W_LAST_TILE, seat, self.quan, 0,
                    self.hu_ft)
        return r if r >= 0 else -3

    # ------------------------------------------------------------------ legal actions

    cdef int _legal(self, int seat, bint check_hu) except -1:
        """Fill legal_buf with every legal (op, a, b) of seat now; returns the count.
        PASS is listed where it is legal.  Without check_hu, HU is listed
        wherever seat may declare one, unscored: the caller decides its value
        (the baseline policy, through the cheaper _can_hu).
        The order is fixed: the drawer's PLAYs, concealed kongs, added kongs,
        HU; the others' PASS, HU, PENGs, melded kong, CHIs (middles ascending)."""
        cdef int n = 0, t, x, m, u, i, d
        cdef uint8_t* h = self.hands[seat]
        cdef int ph = self.phase
        cdef bint four = False
        if ph == PH_OVER:
            return 0
        if ph == PH_TURN and seat == self.current:
            for t in range(34):
                # branch-free (which tiles are held does not predict): every
                # tile is written, only a held one is kept (legal_buf has room)
                self.legal_buf[n][0] = OP_PLAY; self.legal_buf[n][1] = t; self.legal_buf[n][2] = 0
                n += h[t] != 0
                four |= h[t] == 4
            if self._kong_ok(seat):
                for t in range(34 if four else 0):      # (the common hand holds no four)
                    if h[t] == 4:
                        self.legal_buf[n][0] = OP_GANG; self.legal_buf[n][1] = t; self.legal_buf[n][2] = 0; n += 1
                for i in range(self.nm[seat]):
                    t = self.melds[seat][i].tile
                    if self.melds[seat][i].kind == 1 and h[t]:
                        self.legal_buf[n][0] = OP_BUGANG; self.legal_buf[n][1] = t; self.legal_buf[n][2] = 0
                        n += 1
            if not check_hu or self._hu_total(seat) >= MCR_MIN_POINTS:
                self.legal_buf[n][0] = OP_HU; self.legal_buf[n][1] = 0; self.legal_buf[n][2] = 0; n += 1
            return n
        self.legal_buf[0][0] = OP_PASS; self.legal_buf[0][1] = 0; self.legal_buf[0][2] = 0
        n = 1
        if ph == PH_TURN or ph == PH_DRAW or seat == self.current:
            return n
        if not check_hu or self._hu_total(seat) >= MCR_MIN_POINTS:
            self.legal_buf[n][0] = OP_HU; self.legal_buf[n][1] = 0; self.legal_buf[n][2] = 0; n += 1
        d = self.current
        if ph == PH_ROB or not self._claims_ok(d):
            return n
        t = self.last_tile
        if h[t] >= 2:
            h[t] -= 2
            for x in range(34):
                if h[x]:
                    self.legal_buf[n][0] = OP_PENG; self.legal_buf[n][1] = x; self.legal_buf[n][2] = 0; n += 1
            h[t] += 2
        if h[t] == 3 and self._left(seat) > 0:    # a melded kong names no tile: a = -1
            self.legal_buf[n][0] = OP_GANG; self.legal_buf[n][1] = -1; self.legal_buf[n][2] = 0; n += 1
        if seat == (d + 1) % 4 and t < 27:
            h[t] += 1
            for m in range(t - 1, t + 2):
                if m >= 0 and m // 9 == t // 9 and 1 <= m % 9 <= 7 and h[m - 1] and h[m] and h[m + 1]:
                    for u in range(m - 1, m + 2):
                        h[u] -= 1
                    for x in range(34):
                        if h[x]:
                            self.legal_buf[n][0] = OP_CHI; self.legal_buf[n][1] = m; self.legal_buf[n][2] = x
                            n += 1
                    for u in range(m - 1, m + 2):
                        h[u] += 1
            h[t] -= 1
        return n

    cdef bint _is_legal(self, int seat, int op, int a, int b) except -1:
        cdef int n = self._legal(seat, True), i
        for i in range(n):
            if self.legal_buf[i][0] == op and self.legal_buf[i][1] == a and self.legal_buf[i][2] == b:
                return True
        return False

    cdef int _mask(self, int seat, uint8_t* out) except -1:
        """out[0:N_ACTIONS] = 1 for each action of the fixed space that seat
        may take now (mjfast/game/actions.py), else 0: the engine's answers
        (_legal) encoded, a chow or pung whatever discard follows it."""
        cdef int n = self._legal(seat, True), i, op, x, t = self.last_tile, k
        memset(out, 0, N_ACTIONS)
        for i in range(n):
            op = self.legal_buf[i][0]
            x = self.legal_buf[i][1]
            if op == OP_PASS:
                k = A_PASS
            elif op == OP_HU:
                k = A_HU
            elif op == OP_PLAY:
                k = A_PLAY + x
            elif op == OP_GANG:
                k = A_GANG + t if x < 0 else A_ANGANG + x
            elif op == OP_BUGANG:
                k = A_BUGANG + x
            elif op == OP_PENG:
                k = A_PENG + t
            else:     # CHI around the middle x: 7 middles per suit, the claimed tile's position in the chow
                k = A_CHI + 3 * ((x // 9) * 7 + x % 9 - 1) + (t - x + 1)
            out[k] = 1
        return 0

    cdef void _observe(self, int seat, int8_t* out) noexcept nogil:
        """seat's observation vector (OBS_SIZE int8, laid out as OBS_FIELDS of
        mjfast/game/actions.py): only what seat may see."""
        cdef int s, i, k, ph = self.phase
        cdef GMeld* g
        cdef int8_t* o
        memset(out, -1, OBS_SIZE)
        for i in range(34):
            out[O_HAND + i] = self.hands[seat][i]
            out[O_SHOWN + i] = self.shown[i]
        for s in range(4):
            for i in range(self.nm[s]):
                g = &self.melds[s][i]
                o = out + O_MELDS + 16 * s + 4 * i
                if g.frm < 0:
                    o[0] = 4
                    if s == seat:        # only its owner knows a concealed kong's tile
                        o[1] = g.tile
                else:
                    o[0] = 3 if g.added else g.kind
                    o[1] = g.tile
                    o[2] = g.frm
                    o[3] = g.claimed
            for i in range(self.ndisc[s]):
                out[O_RIVER + 2 * RIVER_LEN * s + 2 * i] = self.disc[s][i][0]
                out[O_RIVER + 2 * RIVER_LEN * s + 2 * i + 1] = self.disc[s][i][1]
            out[O_RIVER_LEN + s] = self.ndisc[s]
            out[O_WALLS + s] = self._left(s)
        o = out + O_STATE
        o[0] = seat
        o[1] = self.quan
        o[2] = ph
        o[3] = -1 if ph == PH_OVER else self.current
        # the last tile as the seat saw it: a discard or added kong, or its own draw
        # (a draw or a concealed kong's tile is hidden from the others)
        if ph == PH_CLAIM or ph == PH_ROB or (ph == PH_TURN and seat == self.current):
            o[4] = self.last_tile
        o[5] = self.after_kong if (ph == PH_DRAW or ph == PH_TURN) else 0

    # ------------------------------------------------------------------ the game

    cdef int _draw(self) except -2:
        cdef int s = self.current, t
        if self._left(s) == 0:
            self.phase = PH_OVER
            self.huang = 1
            self._event(EV_HUANG, s, 0, 0)
            return -1
        t = self.walls[s][self.pos[s]]
        self.pos[s] += 1
        self.hands[s][t] += 1
        self.last_tile = t
        self.phase = PH_TURN
        self._event(EV_DRAW, s, t, 0)
        return t

    cdef void _settle(self, int seat, int frm, int total, int sd) noexcept:
        cdef int s
        cdef int64_t sc[4]
        self.winner = seat
        self.from_seat = frm
        self.total = total
        mcr_settle_seats(total, sd, seat, frm, sc)
        for s in range(4):
            self.sc[s] = <int>sc[s]
        self.phase = PH_OVER

    cdef void _set_context(self, int seat, int sd, int kong, int actor) noexcept:
        self.w_self = sd
        self.w_kong = kong
        self.w_fourth = self.shown[self.last_tile] == 3
        self.w_last = self._left((actor + 1) % 4) == 0

    cdef int _turn(self, int op, int a) except -2:
        """The drawer's answer; -1 if it is not legal."""
        cdef int s = self.current, i, total
        cdef uint8_t* h = self.hands[s]
        if self.phase != PH_TURN:
            return -1
        if op == OP_PLAY:                 # the common case, without enumerating everything
            if not (0 <= a < 34 and h[a]):
                return -1
        elif not self._is_legal(s, op, a, 0):
            return -1
        if op == OP_PLAY:
            h[a] -= 1
            self.river[s][self.nriver[s]] = a
            self.nriver[s] += 1
            self._discarded(s, a)
            self.last_tile = a
            self.phase = PH_CLAIM
            self.after_kong = 0
            self._event(EV_PLAY, s, a, 0)
        elif op == OP_HU:
            total = self._hu_total(s)
            self._set_context(s, 1, self.after_kong, s)
            self._event(EV_HU, s, self.last_tile, 0)
            self._settle(s, -1, total, 1)
        elif op == OP_GANG:
            h[a] = 0
            self.melds[s][self.nm[s]] = GMeld(2, a, -1, -1, 0)
            self.nm[s] += 1
            self.phase = PH_DRAW
            self.after_kong = 1
            self.last_tile = a
            self._event(EV_ANGANG, s, a, 0)
        else:  # BUGANG
            h[a] -= 1
            for i in range(self.nm[s]):
                if self.melds[s][i].kind == 1 and self.melds[s][i].tile == a:
                    self.melds[s][i].kind = 2
                    self.melds[s][i].added = 1
            self.shown[a] = 4
            self.last_tile = a
            self.phase = PH_ROB
            self.after_kong = 0
            self._event(EV_BUGANG, s, a, 0)
        return 0

    cdef int _claim(self, int* ops, int* aa, int* bb) except -3:
        """The answers to a discard / an added kong.  Returns the seat whose
        claim won, -1 if all passed, -2 if an answer is not legal."""
        cdef int d = self.current, t = self.last_tile, s, k, best = -1, rank, brank = 0, i, m, x, total
        cdef int ranks[4]
        cdef bint rob = self.phase == PH_ROB
        if self.phase != PH_CLAIM and self.phase != PH_ROB:
            return -2
        for s in range(4):
            ranks[s] = 0
            if ops[s] == OP_PASS:
                continue
            if not self._is_legal(s, ops[s], aa[s], bb[s]):
                return -2
            ranks[s] = 3 if ops[s] == OP_HU else (1 if ops[s] == OP_CHI else 2)
        # priority: rank, then the first seat after the discarder
        for k in range(1, 4):
            s = (d + k) % 4
            if ranks[s] > brank:
                brank = ranks[s]
                best = s
        if best < 0:
            if rob:
                self.after_kong = 1
            else:
                self.shown[t] += 1
                self.current = (d + 1) % 4
            self.phase = PH_DRAW
            return -1
        s = best
        cdef uint8_t* h = self.hands[s]
        if ops[s] == OP_HU:
            total = self._hu_total(s)
            self._set_context(s, 0, rob, d)
            self._event(EV_HU, s, t, 0)
            self._ignores(ranks, best, d, ops, aa, t)
            if rob:
                for i in range(self.nm[d]):
                    if self.melds[d][i].added and self.melds[d][i].tile == t:
                        self.melds[d][i].kind = 1
                        self.melds[d][i].added = 0
            else:
                self.nriver[d] -= 1
                self.disc[d][self.ndisc[d] - 1][1] = s
            h[t] += 1
            self._settle(s, d, total, 0)
            return s
        self.nriver[d] -= 1
        self.disc[d][self.ndisc[d] - 1][1] = s
        if ops[s] == OP_GANG:
            h[t] -= 3
            self.melds[s][self.nm[s]] = GMeld(2, t, d, t, 0)
            self.nm[s] += 1
            self.shown[t] = 4
            self.current = s
            self.phase = PH_DRAW
            self.after_kong = 1
            self._event(EV_GANG, s, t, 0)
            self._ignores(ranks, best, d, ops, aa, t)
            return s
        if ops[s] == OP_PENG:
            x = aa[s]
            h[t] -= 2
            self.melds[s][self.nm[s]] = GMeld(1, t, d, t, 0)
            self.shown[t] += 3
            self._event(EV_PENG, s, t, 0)
        else:
            m = aa[s]
            x = bb[s]
            h[t] += 1
            for i in range(m - 1, m + 2):
                h[i] -= 1
                self.shown[i] += 1
            self.melds[s][self.nm[s]] = GMeld(0, m - 1, d, t, 0)
            self._event(EV_CHI, s, m, 0)
        self.nm[s] += 1
        self._ignores(ranks, best, d, ops, aa, t)
        h[x] -= 1
        self.river[s][self.nriver[s]] = x
        self.nriver[s] += 1
        self._discarded(s, x)
        self._event(EV_PLAY, s, x, 0)
        self.last_tile = x
        self.current = s
        self.phase = PH_CLAIM
        self.after_kong = 0
        return s

    cdef void _ignores(self, int* ranks, int best, int d, int* ops, int* aa, int t) noexcept:
        # the claims that lost, in the order they lost: rank, then seat order after the discarder
        cdef int r, k, s
        for r in range(3, 0, -1):
            for k in range(1, 4):
                s = (d + k) % 4
                if s != best and ranks[s] == r:
                    self._event(EV_IGNORE, s, ops[s], aa[s] if ops[s] == OP_CHI else t)

    # ------------------------------------------------------------------ policies

    cdef void _decide(self, int seat, int policy, uint64_t* rng, double p_claim, double p_kong,
                      int* op, int* a, int* b) except *:
        cdef int n, i, k, nk = 0, nc = 0, np_ = 0
        cdef int kongs[64]
        cdef int claims[MAX_LEGAL]
        cdef int plays[34]
        op[0] = OP_PASS; a[0] = 0; b[0] = 0
        if policy == 0:
            if self.phase == PH_TURN and seat == self.current:
                op[0] = OP_PLAY; a[0] = self.last_tile
            return
        if policy == 2:
            self._baseline(seat, op, a, b)
            return
        n = self._legal(seat, True)
        for i in range(n):
            k = self.legal_buf[i][0]
            if k == OP_HU:
                op[0] = OP_HU; a[0] = 0; b[0] = 0
                return
            if k == OP_GANG or k == OP_BUGANG:
                if nk < 64:
                    kongs[nk] = i; nk += 1
            elif k == OP_PENG or k == OP_CHI:
                claims[nc] = i; nc += 1
            elif k == OP_PLAY:
                plays[np_] = i; np_ += 1
        if nk and _rng_unif(rng) < p_kong:
            i = kongs[_rng_below(rng, nk)]
        elif nc and _rng_unif(rng) < p_claim:
            i = claims[_rng_below(rng, nc)]
        elif np_:
            i = plays[_rng_below(rng, np_)]
        else:
            return
        op[0] = self.legal_buf[i][0]; a[0] = self.legal_buf[i][1]; b[0] = self.legal_buf[i][2]

    cdef bint _can_hu(self, int seat) except -1:
        """A Hu by seat is legal now (MCR's minimum; no flowers in this engine).
        The compiled win check runs first: the scorer (hu_fn) is called only
        for winning hands."""
        cdef uint8_t tmp[34]
        memcpy(tmp, self.hands[seat], 34)
        if not (self.phase == PH_TURN and seat == self.current):
            tmp[self.last_tile] += 1
        if not _K.is_win(tmp):
            return False
        return self._hu_total(seat) >= MCR_MIN_POINTS

    cdef void _best_after(self, uint8_t* h, int melds, uint8_t* seen, int* shanten, int* left,
                          int* tile) noexcept:
        cdef KChoice ch[34]
        cdef int n = _K.discards(h, melds, h, seen, ch)
        _best_choice(ch, n, shanten, left, tile)

    cdef void _baseline(self, int seat, int* op, int* a, int* b) except *:
        """The baseline bot (mjfast:baseline's rules, compiled): Hu whenever
        legal; discard by plain shanten, then the unseen copies of the useful
        tiles; chow / pung only when that lowers the shanten; never a kong.
        It chooses among the engine's answers (_legal): no rule of its own."""
        cdef uint8_t seen[34]
        cdef uint8_t tmp[34]
        cdef uint8_t* h = self.hands[seat]
        cdef int t, v, m, u, cur, s, left, x, bs = 99, bl = -1, i, k, n, last_m = -1
        cdef bint turn = False, hu = False, peng = False, chow
        cdef int nm = self.nm[seat]
        if _K == NULL:
            _need_kernels()
        # HU unscored: whether it wins is asked below only if it may be declared.
        # Read by _legal's order: the drawer's list opens with its PLAYs and
        # ends with HU; the others' is PASS, HU, then the PENGs first.
        n = self._legal(seat, False)
        if n == 0:
            return
        if self.legal_buf[0][0] == OP_PLAY:
            turn = True
            hu = self.legal_buf[n - 1][0] == OP_HU
        else:
            i = 1
            if i < n and self.legal_buf[i][0] == OP_HU:
                hu = True
                i += 1
            peng = i < n and self.legal_buf[i][0] == OP_PENG
        chow = self.legal_buf[n - 1][0] == OP_CHI
        if hu and self._can_hu(seat):
            op[0] = OP_HU
            return
        if not (turn or peng or chow):          # PASS is all that is left (the common answer to a discard)
            return
        for t in range(34):
            v = h[t] + self.shown[t]
            seen[t] = 4 if v > 4 else v
        if turn:
            # the best discard is a tile of the hand: one of the PLAY answers
            self._best_after(h, nm, seen, &s, &left, &x)
            op[0] = OP_PLAY; a[0] = x
            return
        t = self.last_tile
        cur = -2                              # the shanten now, found only if a claim is possible
        for i in range(n):
            # the legal chows, each middle once (listed with every discard after it, middles ascending)
            if self.legal_buf[i][0] != OP_CHI or self.legal_buf[i][1] == last_m:
                continue
            m = last_m = self.legal_buf[i][1]
            memcpy(tmp, h, 34)
            tmp[t] += 1
            for u in range(m - 1, m + 2):
                tmp[u] -= 1
            if cur == -2:
                cur = _K.shanten(h, nm, -1)
            self._best_after(tmp, nm + 1, seen, &s, &left, &x)
            if s < cur and (s < bs or (s == bs and left > bl)):
                bs = s; bl = left
                op[0] = OP_CHI; a[0] = m; b[0] = x
        if peng:
            memcpy(tmp, h, 34)
            tmp[t] -= 2
            if cur == -2:
                cur = _K.shanten(h, nm, -1)
            self._best_after(tmp, nm + 1, seen, &s, &left, &x)
            if s < cur and (s < bs or (s == bs and left > bl)):
                op[0] = OP_PENG; a[0] = x; b[0] = 0

    cdef int _policy_refused(self, str what) except -1:
        """A policy's answer was refused by the engine's own legality check.
        The policies choose among _legal's answers, so with the compiled
        scorer this cannot happen; with a hu_fn it happens when the hu_fn
        answers differently for the same Hu within one step (the policy asked
        it once, the check asks again): that is the caller's hu_fn at fault,
        a ValueError, not an internal error."""
        if self.hu_fn is not None:
            raise ValueError(f"run: hu_fn gave different totals for the same Hu within one {what} "
                             "(its answer must depend only on the hand and its context)")
        raise RuntimeError(f"compiled policy chose an illegal {what}")   # pragma: no cover

    cdef int _run(self, int* policy, uint64_t* rng, double p_claim, double p_kong) except -1:
        cdef int ops[4]
        cdef int aa[4]
        cdef int bb[4]
        cdef int s, cur, r, k
        for s in range(4):
            ops[s] = 0; aa[s] = 0; bb[s] = 0
        self._round(ops, aa, bb)           # INIT
        self._round(ops, aa, bb)           # DEAL
        while True:
            if self.phase == PH_DRAW:
                if self._draw() < 0:
                    return 0
                cur = self.current
                for s in range(4):
                    ops[s] = 0; aa[s] = 0; bb[s] = 0
                self._decide(cur, policy[cur], rng, p_claim, p_kong, &ops[cur], &aa[cur], &bb[cur])
                self._round(ops, aa, bb)
                if self._turn(ops[cur], aa[cur]) < 0:
                    self._policy_refused("turn")
                if self.phase == PH_OVER:
                    return 0
                if self.phase == PH_DRAW:       # concealed kong: announced, all pass
                    ops[cur] = 0; aa[cur] = 0
                    self._round(ops, aa, bb)
            else:
                cur = self.current
                for s in range(4):
                    ops[s] = 0; aa[s] = 0; bb[s] = 0
                    if s != cur:
                        self._decide(s, policy[s], rng, p_claim, p_kong, &ops[s], &aa[s], &bb[s])
                self._round(ops, aa, bb)
                r = self._claim(ops, aa, bb)
                if r == -2:
                    self._policy_refused("claim")
                if self.phase == PH_OVER:
                    return 0
                if r >= 0 and ops[r] == OP_GANG:   # melded kong: announced, all pass
                    for s in range(4):
                        ops[s] = 0; aa[s] = 0; bb[s] = 0
                    self._round(ops, aa, bb)

    # ------------------------------------------------------------------ Python API (tests, records)

    # Every entry checks its arguments before they reach the C arrays: a seat
    # 0-3, policies 0-2, answers of 3 ints, a game dealt by reset().

    def run(self, policies, seed, p_claim=0.5, p_kong=0.7):
        """Play the game just dealt by reset() to its end: ``policies`` 4
        policy numbers (POLICY_*), ``seed`` the random policy's seed (0 to
        2**64 - 1), ``p_claim`` / ``p_kong`` its probabilities (0-1)."""
        cdef int pol[4]
        cdef uint64_t rng = _u64_arg(seed, "seed")
        cdef double pc = _prob_arg(p_claim, "p_claim"), pk = _prob_arg(p_kong, "p_kong")
        _policies(policies, pol)
        self._usable("run")
        if self.nev or self.nrounds:
            raise ValueError("run: plays a game from its deal (call reset() first)")
        rng = rng * <uint64_t>0x9E3779B97F4A7C15ULL + 1
        self._run(pol, &rng, pc, pk)

    def decide(self, seat, policy, seed=1, p_claim=0.5, p_kong=0.7):
        """The answer (op, a, b) a compiled policy gives for seat now (tests)."""
        cdef int op = 0, a = 0, b = 0
        cdef int s = _seat_arg(seat, "decide: seat")
        cdef int p = _int_arg(policy, "decide: policy (0 tsumogiri, 1 random, 2 baseline)", 0, 2)
        cdef uint64_t rng = _u64_arg(seed, "seed")
        cdef double pc = _prob_arg(p_claim, "p_claim"), pk = _prob_arg(p_kong, "p_kong")
        self._usable("decide")
        rng = rng * <uint64_t>0x9E3779B97F4A7C15ULL + 1
        self._decide(s, p, &rng, pc, pk, &op, &a, &b)
        return op, a, b

    def draw(self):
        self._usable("draw")
        if self.phase != PH_DRAW:
            raise ValueError("not the draw phase")
        return self._draw()

    def turn(self, op, a):
        """The drawer's answer (op, a); 0, or -1 if it is not legal now."""
        cdef int o = _int_arg(op, "turn: op", -_C_INT, _C_INT)
        cdef int t = _int_arg(a, "turn: tile", -_C_INT, _C_INT)
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
            ops[s] = _int_arg(x[0], f"claim: answer {s} op", -_C_INT, _C_INT)
            aa[s] = _int_arg(x[1], f"claim: answer {s} a", -_C_INT, _C_INT)
            bb[s] = _int_arg(x[2], f"claim: answer {s} b", -_C_INT, _C_INT)
        self._usable("claim")
        return self._claim(ops, aa, bb)

    def legal(self, seat):
        cdef int s = _seat_arg(seat, "legal: seat"), i
        self._usable("legal")
        n = self._legal(s, True)
        return [(self.legal_buf[i][0], self.legal_buf[i][1], self.legal_buf[i][2]) for i in range(n)]

    def legal_mask(self, seat, out=None):
        """The legal actions of seat now as a (N_ACTIONS,) uint8 0/1 mask over
        the fixed action space of mjfast.game.actions (all 0 once the game
        is over); written into ``out`` (a writable (235,) uint8 array) if
        given, else into a new array.  Returns the array."""
        cdef int s = _seat_arg(seat, "legal_mask: seat")
        res = _flat_out(out, (N_ACTIONS,), np.uint8, "legal_mask: out")
        cdef uint8_t[::1] o = res
        self._usable("legal_mask")
        self._mask(s, &o[0])
        return res if out is None else out

    def observe(self, seat, out=None):
        """What seat may see now as an (OBS_SIZE,) int8 vector (the fields of
        mjfast.game.actions.OBS_FIELDS; obs_fields() names them); written
        into ``out`` (a writable (466,) int8 array) if given."""
        cdef int s = _seat_arg(seat, "observe: seat")
        res = _flat_out(out, (OBS_SIZE,), np.int8, "observe: out")
        cdef int8_t[::1] o = res
        self._usable("observe")
        self._observe(s, &o[0])
        return res if out is None else out

    def hu_value(self, seat):
        cdef int s = _seat_arg(seat, "hu_value: seat")
        self._usable("hu_value")
        return self._hu_total(s)

    def snapshot(self):
        """(hands, melds, shown, rivers, walls left, phase, current, last tile), for comparisons."""
        hands = [list(<uint8_t[:34]>self.hands[s]) for s in range(4)]
        melds = [[(self.melds[s][i].kind, self.melds[s][i].tile, self.melds[s][i].frm, self.melds[s][i].claimed,
                   self.melds[s][i].added) for i in range(self.nm[s])] for s in range(4)]
        rivers = [[self.river[s][i] for i in range(self.nriver[s])] for s in range(4)]
        return (hands, melds, list(<uint8_t[:34]>self.shown), rivers, [self._left(s) for s in range(4)],
                self.phase, self.current, self.last_tile)

    def scores(self):
        return [self.sc[0], self.sc[1], self.sc[2], self.sc[3]]

    def events(self):
        return [(self.ev[i][0], self.ev[i][1], self.ev[i][2], self.ev[i][3]) for i in range(self.nev)]

    def rounds_array(self):
        out = np.empty((self.nrounds, 4, 3), dtype=np.int8)
        if self.nrounds:
            memcpy(cnp.PyArray_DATA(out), self.rounds, self.nrounds * 12)
        return out

    def melds_of(self, seat):
        cdef int s = _seat_arg(seat, "melds_of: seat"), i
        return [(self.melds[s][i].kind, self.melds[s][i].tile, self.melds[s][i].frm,
                 self.melds[s][i].claimed, self.melds[s][i].added) for i in range(self.nm[s])]

    def hand_of(self, seat):
        cdef int s = _seat_arg(seat, "hand_of: seat")
        return list(<uint8_t[:34]>self.hands[s])


_MAX_TOTAL = 1 << 20      # above any Hu's total: bounds a hu_fn's answer
_C_INT = (1 << 31) - 1


def _int_arg(x, what, lo, hi):
    """x as an int in [lo, hi]: TypeError if it is not an integer, ValueError if out of range."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what}: an int, got {type(x).__name__}")
    v = int(x)
    if not lo <= v <= hi:
        raise ValueError(f"{what}: {lo}-{hi}, got {v}")
    return v


def _seat_arg(x, what):
    return _int_arg(x, what, 0, 3)


def _u64_arg(x, what):
    return _int_arg(x, what, 0, 0xFFFFFFFFFFFFFFFF)


def _prob_arg(x, what):
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what}: a probability (float 0-1), got {type(x).__name__}")
    v = float(x)
    if not 0.0 <= v <= 1.0:          # NaN too
        raise ValueError(f"{what}: a probability 0-1, got {v!r}")
    return v


def _flat_out(out, tuple shape, dtype, str what):
    """out (a new array if None) as a flat view: it must be a writable,
    C-contiguous numpy array of that shape and dtype (the C code writes it
    unchecked)."""
    if out is None:
        return np.zeros(shape, dtype=dtype).reshape(-1)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what}: a numpy array, got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{what}: dtype {np.dtype(dtype).name}, got {out.dtype}")
    if out.shape != shape or not out.flags.c_contiguous:
        raise ValueError(f"{what}: a C-contiguous array of shape {shape}, got shape {out.shape}"
                         f"{'' if out.flags.c_contiguous else ' (not C-contiguous)'}")
    if not out.flags.writeable:
        raise TypeError(f"{what}: a writable array (this one is read-only)")
    return out.reshape(-1)


cdef list _games_arg(games, str what):
    """games as a list of dealt FastGame objects."""
    try:
        gs = list(games)
    except TypeError:
        raise TypeError(f"{what}: a sequence of FastGame, got {type(games).__name__}") from None
    for i, g in enumerate(gs):
        if not isinstance(g, FastGame):
            raise TypeError(f"{what}: games[{i}] is {type(g).__name__}, not a FastGame")
        (<FastGame>g)._usable(f"{what}: games[{i}]")
    return gs


def legal_masks(games, out=None):
    """The legal masks of every seat of each game: (n, 4, N_ACTIONS) uint8,
    row [i, s] = games[i].legal_mask(s); into ``out`` (writable, C-contiguous,
    that shape) if given.  The GIL is held: a game's Hu check may call its
    Python hu_fn."""
    gs = _games_arg(games, "legal_masks")
    cdef Py_ssize_t n = len(gs), i
    cdef int s
    cdef FastGame g
    res = _flat_out(out, (n, 4, N_ACTIONS), np.uint8, "legal_masks: out")
    cdef uint8_t[::1] o = res
    for i in range(n):
        g = gs[i]
        for s in range(4):
            g._mask(s, &o[0] + (4 * i + s) * N_ACTIONS)
    return res.reshape(n, 4, N_ACTIONS) if out is None else out


def observe_many(games, out=None):
    """The observations of every seat of each game: (n, 4, OBS_SIZE) int8,
    row [i, s] = games[i].observe(s); into ``out`` if given.  Filled with
    the GIL released."""
    gs = _games_arg(games, "observe_many")
    cdef Py_ssize_t n = len(gs), i
    cdef int s
    res = _flat_out(out, (n, 4, OBS_SIZE), np.int8, "observe_many: out")
    cdef int8_t[::1] o = res
    # the games' C state, pointers taken with the GIL held (gs keeps them alive)
    cdef void** ptrs = <void**>malloc((n if n else 1) * sizeof(void*))
    if ptrs == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            ptrs[i] = <void*>gs[i]
        with nogil:
            for i in range(n):
                for s in range(4):
                    (<FastGame>ptrs[i])._observe(s, &o[0] + (4 * i + s) * OBS_SIZE)
    finally:
        free(ptrs)
    return res.reshape(n, 4, OBS_SIZE) if out is None else out


def action_layout():
    """The compiled engine's copy of the action space and observation layout
    (checked against mjfast.game.actions by the tests)."""
    return {"ops": {"PASS": OP_PASS, "PLAY": OP_PLAY, "GANG": OP_GANG, "BUGANG": OP_BUGANG, "HU": OP_HU,
                    "PENG": OP_PENG, "CHI": OP_CHI},
            "actions": {"PASS": A_PASS, "HU": A_HU, "PLAY": A_PLAY, "CHI": A_CHI, "PENG": A_PENG,
                        "GANG": A_GANG, "ANGANG": A_ANGANG, "BUGANG": A_BUGANG, "N_ACTIONS": N_ACTIONS},
            "obs": {"hand": O_HAND, "melds": O_MELDS, "river": O_RIVER, "river_len": O_RIVER_LEN,
                    "walls": O_WALLS, "shown": O_SHOWN, "state": O_STATE, "OBS_SIZE": OBS_SIZE,
                    "RIVER_LEN": RIVER_LEN}}


cdef class _WinRows:
    """The optional per-game win outputs of play_many / play_seeded: the
    winner's tiles in HandBatch's layout (rows of games without a win stay
    zero)."""
    cdef uint8_t[:, ::1] counts
    cdef uint8_t[:, :, ::1] melds
    cdef uint8_t[::1] n_melds
    cdef uint8_t[::1] win_tile

    def __init__(self, Py_ssize_t n, counts, melds, n_melds, win_tile):
        if counts is None or melds is None or n_melds is None or win_tile is None:
            raise TypeError("hands_out: four uint8 arrays, not None")
        try:
            self.counts = counts
            self.melds = melds
            self.n_melds = n_melds
            self.win_tile = win_tile
        except BufferError as exc:          # a read-only buffer (a numpy scalar, ...)
            raise TypeError(f"hands_out: writable uint8 arrays ({exc})") from None
        # the writes below are unchecked: the shapes are checked here, once
        if (self.counts.shape[0] < n or self.counts.shape[1] != 34 or self.melds.shape[0] < n
                or self.melds.shape[1] != 4 or self.melds.shape[2] != 3 or self.n_melds.shape[0] < n
                or self.win_tile.shape[0] < n):
            raise ValueError(f"hands_out: uint8 arrays (n, 34), (n, 4, 3), (n,), (n,) for n = {n} games")


def _out_view(x):
    """x as a writable (n, 8) int32 memoryview (TypeError / ValueError otherwise)."""
    cdef int[:, ::1] v
    try:
        v = x
    except BufferError as exc:              # a read-only buffer (a numpy scalar, ...)
        raise TypeError(f"int32_out: a writable (n, 8) int32 array ({exc})") from None
    return v


cdef int _check_out(int[:, ::1] out, Py_ssize_t n) except -1:
    if out is None:
        raise TypeError("int32_out: an (n, 8) int32 array, got None")
    if out.shape[0] < n or out.shape[1] != 8:
        raise ValueError(f"int32_out: an (n, 8) int32 array for n = {n} games")
    return 0


cdef int _policies(policies, int* pol) except -1:
    cdef int s
    try:
        n = len(policies)
    except TypeError:
        raise TypeError(f"policies: 4 policy numbers, got {type(policies).__name__}") from None
    if n != 4:
        raise ValueError(f"policies: 4 policy numbers, one per seat; got {n}")
    for s in range(4):
        pol[s] = _int_arg(policies[s], f"policies[{s}] (0 tsumogiri, 1 random, 2 baseline)", 0, 2)
    return 0


cdef void _record(FastGame g, Py_ssize_t i, int[:, ::1] out, _WinRows rows) noexcept:
    cdef int s, k, w = g.winner
    for s in range(4):
        out[i, s] = g.sc[s]
    out[i, 4] = w
    out[i, 5] = g.from_seat
    out[i, 6] = g.total
    out[i, 7] = (g.w_self | (g.w_fourth << 1) | (g.w_kong << 2) | (g.w_last << 3)) if w >= 0 \
        else (16 if g.huang else 0)
    if rows is None or w < 0:
        return
    # the winner's concealed tiles (the winning tile included: _claim added a
    # claimed one) and melds (kind, tile - a chow's lowest -, open)
    for k in range(34):
        rows.counts[i, k] = g.hands[w][k]
    for k in range(g.nm[w]):
        rows.melds[i, k, 0] = g.melds[w][k].kind
        rows.melds[i, k, 1] = g.melds[w][k].tile
        rows.melds[i, k, 2] = g.melds[w][k].frm >= 0
    rows.n_melds[i] = g.nm[w]
    rows.win_tile[i] = g.last_tile


def play_many(const uint8_t[:, :, ::1] walls, const int8_t[::1] quans, policies, seed_, p_claim_, p_kong_,
              hu_fn, int32_out, hands_out=None):
    """Play walls.shape[0] games; fills int32_out (n, 8): scores x4, winner,
    from seat (-1), total, flags (1 self-drawn, 2 fourth tile, 4 kong, 8 last tile, 16 Huang).
    hands_out: None, or (counts (n, 34), melds (n, 4, 3), n_melds (n,),
    win_tile (n,)) uint8 arrays filled with each winner's hand.
    ``hu_fn``: None (the compiled kernel scores each Hu) or a callback (see FastGame)."""
    cdef uint64_t seed = _u64_arg(seed_, "seed")
    cdef double p_claim = _prob_arg(p_claim_, "p_claim"), p_kong = _prob_arg(p_kong_, "p_kong")
    if walls is None or quans is None:
        raise TypeError("play_many: walls (n, 4, 34) uint8 and quans (n,) int8 arrays, not None")
    cdef int[:, ::1] out = _out_view(int32_out)
    cdef FastGame g = FastGame(hu_fn)
    cdef Py_ssize_t i, n = walls.shape[0]
    cdef _WinRows rows = None if hands_out is None else _WinRows(n, *hands_out)
    cdef int pol[4]
    cdef uint64_t rng
    cdef int s
    _check_out(out, n)
    if quans.shape[0] < n:
        raise ValueError("quans: one prevalent wind per game")
    _policies(policies, pol)
    for i in range(n):
        try:
            g._reset(walls[i], quans[i])
        except ValueError as exc:
            raise ValueError(f"game {i}: {exc}") from None
        rng = (seed + <uint64_t>i) * <uint64_t>0x9E3779B97F4A7C15ULL + 1
        g._run(pol, &rng, p_claim, p_kong)
        _record(g, i, out, rows)


cdef inline uint64_t _splitmix(uint64_t z) noexcept nogil:
    z = z + <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


def play_seeded(seed_, first_, n_, quan_, policies, p_claim_, p_kong_, hu_fn, int32_out, hands_out=None):
    """Play games first .. first + n - 1 of the series ``seed``: game g's
    walls are shuffled_walls(splitmix(seed) + g) and its policy RNG is seeded
    from (seed, g) alone, so a game does not depend on how the series is
    split into calls (or processes).  quan 0-3, or -1 for g % 4.  Outputs as
    play_many (row i = game first + i)."""
    cdef uint64_t seed = _u64_arg(seed_, "seed"), first = _u64_arg(first_, "first")
    cdef Py_ssize_t n = _int_arg(n_, "n", 0, 1 << 62)
    cdef int quan = _int_arg(quan_, "quan (-1 cycle, 0-3)", -1, 3)
    cdef double p_claim = _prob_arg(p_claim_, "p_claim"), p_kong = _prob_arg(p_kong_, "p_kong")
    cdef int[:, ::1] out = _out_view(int32_out)
    cdef FastGame g = FastGame(hu_fn)
    cdef _WinRows rows = None if hands_out is None else _WinRows(n, *hands_out)
    cdef uint8_t[:, ::1] w
    cdef int pol[4]
    cdef Py_ssize_t i
    cdef uint64_t rng, game, base = _splitmix(seed)
    cdef int s
    _check_out(out, n)
    if n < 0 or not -1 <= quan <= 3:
        raise ValueError("play_seeded: n >= 0 and quan -1 (cycle) or 0-3")
    _policies(policies, pol)
    for i in range(n):
        game = first + <uint64_t>i
        w = shuffled_walls(base + game)
        g._reset(w, <int>(game % 4) if quan < 0 else quan)
        rng = _splitmix(base ^ (game * <uint64_t>0xD1B54A32D192ED03ULL)) | 1
        g._run(pol, &rng, p_claim, p_kong)
        _record(g, i, out, rows)


def shuffled_walls(seed_):
    """Four 34-tile walls from a Fisher-Yates shuffle of the 136 tiles driven
    by xorshift64* (splitmix64-seeded): the same walls for the same seed (0 to
    2**64 - 1) on every platform.  (4, 34) uint8."""
    cdef uint64_t seed = _u64_arg(seed_, "seed")
    out = np.empty((4, 34), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    cdef uint8_t tiles[136]
    cdef int i, j
    cdef uint8_t tmp
    cdef uint64_t z = seed + <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    z = z ^ (z >> 31)
    if z == 0:
        z = 1
    for i in range(136):
        tiles[i] = i // 4
    for i in range(135, 0, -1):
        j = <int>((_rng_next(&z) >> 33) % <uint64_t>(i + 1))
        tmp = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = tmp
    for i in range(136):
        o[i // 34, i % 34] = tiles[i]
    return out


include "_logread.pxi"
