# cython: language_level=3, auto_pickle=False
"""The game's state machine: one MCR game under the Botzone judge's rules, on C arrays.

Every rule of a game is here, once: the walls (the duplicate format's four
walls of 34, known or given draw by draw, and table play's one shared wall
with flowers), the draws, what a seat may answer (one enumeration, _legal),
the claims and their priority, the kong limits, the end-of-wall rules, the
shown tiles and the context of a Hu, the settlement and the error rule.  An
answer is accepted only if _legal lists it; a refused one leaves the state
unchanged and records why (err_seat, err_code, err_reason and its tiles:
the R_* codes of src/mjfast/_machine.pxd, worded by mjfast/game/state.py).
A Hu is scored by the fan kernel of mjfast._fans (cimported: score_counts);
a Python callback (hu_fn) can be given instead.

Machine holds only the state and its cdef transitions; its Python face is
mjfast._engine's Engine (argument checks, lists and tuples out), which
mjfast._game (FastGame: the self-play policies, batch play) and mjfast._seat
(SeatView) subclass and mjfast._replay steps; mjfast.game.GameState wraps
it for Python.  SeatView, under mjfast.botzone.BotState, is one seat's view:
the walls unknown, the other seats' hands hidden (``viewer``), each request
a fact applied through the same transitions (_take, _play, _meld, ...).
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, int8_t, int16_t, int64_t
from fankernel.flag_bits cimport W_SELF_DRAWN, W_FOURTH_TILE, W_KONG, W_LAST_TILE
from fankernel.mcr_settle cimport mcr_settle_seats, MCR_MIN_POINTS
from mjfast._fans cimport score_counts, need_scoring
from mjfast._core cimport need_tables, win_check

import numpy as np

_MAX_TOTAL = 1 << 20      # above any Hu's total: bounds a hu_fn's answer


cdef int _bind_kernel() except -1:
    """The lookup tables bound for the win check (mjfast._core) and the
    scorer (mjfast._fans), built first if needed (once; _fans loads its fan
    tables itself when it starts)."""
    need_tables()
    return need_scoring()


cdef class Machine:
    """One game's state (see the module docstring).  A Hu is scored by the
    compiled fan kernel; with ``hu_fn(seat, counts, melds, tile, self_drawn,
    fourth_tile, last_tile, kong, quan)`` (the total of a Hu or -3) by that
    callback instead."""

    def __init__(self, hu_fn=None):
        if hu_fn is not None and not callable(hu_fn):
            raise TypeError(f"hu_fn: None or a callable, got {type(hu_fn).__name__}")
        self.hu_fn = hu_fn
        if hu_fn is None:
            _bind_kernel()

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
        self._begin(quan, MODE_WALLS)
        for s in range(4):
            for i in range(34):
                self.walls[s][i] = walls[s, i]
            for i in range(13):
                self.hands[s][walls[s, i]] += 1
                self.dealt[s][i] = walls[s, i]
            self.pos[s] = 13
        return 0

    cdef int _begin(self, int quan, int mode) noexcept:
        """An empty table, before the deal."""
        cdef int s
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.shown, 0, sizeof(self.shown))
        memset(self.nm, 0, sizeof(self.nm))
        memset(self.nriver, 0, sizeof(self.nriver))
        memset(self.ndisc, 0, sizeof(self.ndisc))
        memset(self.nfl, 0, sizeof(self.nfl))
        memset(self.seen, 0, sizeof(self.seen))
        self.mode = mode
        self.viewer = -1
        self.repl = 0
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
        self.err_seat = -1
        self.err_code = self.err_reason = self.err_a = self.err_b = self.err_c = 0
        for s in range(4):
            self.sc[s] = 0
            self.pos[s] = 13
            self.nconc[s] = 13
        self._ready = True
        return 0

    cdef int _reset_deals(self, const uint8_t[:, ::1] d, int quan) except -1:
        """Deal a game whose walls are unknown (see Engine.reset_deals): the
        deals' shape and tiles checked, at most 4 copies of a tile."""
        cdef int s, i, t
        if d.shape[0] != 4 or d.shape[1] != 13:
            raise ValueError(f"deals: a (4, 13) uint8 array, got shape ({d.shape[0]}, {d.shape[1]})")
        for s in range(4):
            for i in range(13):
                if d[s, i] > 33:
                    raise ValueError(f"deals: tile index {d[s, i]} at [{s}, {i}] (0-33)")
        self._ready = False
        self._begin(quan, MODE_DEALS)
        for s in range(4):
            for i in range(13):
                t = d[s, i]
                if self.seen[t] >= 4:
                    self._ready = False
                    raise ValueError(f"deals: fifth copy of tile {t}")
                self.seen[t] += 1
                self.hands[s][t] += 1
                self.dealt[s][i] = t
        return 0

    cdef int _reset_table(self, const uint8_t[::1] w, int quan) except -1:
        """Deal a game of table play (see Engine.reset_table): the wall's
        length and tiles checked, 13 dealt to each seat from its front."""
        cdef int cnt[42]
        cdef int s, i, n, t
        n = w.shape[0]
        memset(cnt, 0, sizeof(cnt))
        if n > WALL_CAP:
            raise ValueError(f"wall: {n} tiles, at most {WALL_CAP}")
        for i in range(n):
            if w[i] > 41:
                raise ValueError(f"wall: tile index {w[i]} at [{i}] (0-41)")
            cnt[w[i]] += 1
        for i in range(42):
            if (i < 34 and cnt[i] != 4) or (i >= 34 and cnt[i] > 1):
                raise ValueError(f"wall: {cnt[i]} copies of tile {i}")
        self._begin(quan, MODE_TABLE)
        for i in range(n):
            self.wall[i] = w[i]
        self.nwall = self.back = n
        self.front = 0
        for s in range(4):
            i = 0
            while i < 13:
                t = self.wall[self.front]
                self.front += 1
                if t >= 34:
                    self.flw[s][self.nfl[s]] = t
                    self.nfl[s] += 1
                else:
                    self.hands[s][t] += 1
                    self.dealt[s][i] = t
                    i += 1
        return 0

    # ------------------------------------------------------------------ small helpers

    # _left, _kong_ok, _claims_ok, _discarded, _event: inline, in the .pxd
    # (called on every step, from this module and the modules that step it)

    # The transitions of an accepted answer, shared by the table (the answer checked by _legal first) and a
    # seat's view (mjfast._seat: each request a fact, checked only against what the view knows; a nonzero
    # return refuses it, the state partly changed: the view restores it).

    cdef int _take(self, int s, int t, int n) noexcept:
        """n copies of t leave s's concealed tiles; refused (R_HAND_NEED) if
        it holds fewer.  Of a hidden seat only the count is kept and checked
        (which bounds its melds to the 4 the arrays hold)."""
        if self.viewer >= 0 and s != self.viewer:
            if self.nconc[s] < n:
                return self._refuse(s, 1, R_HAND_NEED, -1, self.nconc[s], n)
            self.nconc[s] -= n
        elif self.hands[s][t] < n:
            return self._refuse(s, 1, R_HAND_NEED, t, self.hands[s][t], n)
        else:
            self.hands[s][t] -= n
        return 0

    cdef void _play(self, int s, int t) noexcept:
        # s discards t (taken from its hand already): into its river, open to claims
        self.river[s][self.nriver[s]] = t
        self.nriver[s] += 1
        self._discarded(s, t)
        self.last_tile = t
        self.current = s
        self.phase = PH_CLAIM
        self.after_kong = 0
        self._event(EV_PLAY, s, t, 0)

    cdef void _passed(self) noexcept:
        # nobody claimed: a discard stays in the river (now shown) and the next seat draws; an added kong
        # stands and its owner draws the replacement
        if self.phase == PH_ROB:
            self.after_kong = self.repl = 1
        else:
            self.shown[self.last_tile] += 1
            self.current = (self.current + 1) % 4
        self.phase = PH_DRAW

    cdef int _meld(self, int s, int op, int m) noexcept:
        """s claims current's live discard (last_tile): a pung (OP_PENG), a
        chow around the middle m (OP_CHI) or a kong (OP_GANG: s then draws
        the replacement); the discard leaves the river."""
        cdef int d = self.current, t = self.last_tile, i, n = self.nm[s]
        self.nriver[d] -= 1
        self.disc[d][self.ndisc[d] - 1][1] = s
        if op == OP_CHI:
            if self.viewer >= 0 and s != self.viewer:
                self.nconc[s] += 1
            else:
                self.hands[s][t] += 1
            for i in range(m - 1, m + 2):
                if self._take(s, i, 1):
                    return 1
                self.shown[i] += 1
            self.melds[s][n] = GMeld(0, m - 1, d, t, 0)
            self._event(EV_CHI, s, m, 0)
        elif op == OP_PENG:
            if self._take(s, t, 2):
                return 1
            self.shown[t] += 3
            self.melds[s][n] = GMeld(1, t, d, t, 0)
            self._event(EV_PENG, s, t, 0)
        else:
            if self._take(s, t, 3):
                return 1
            self.shown[t] = 4
            self.melds[s][n] = GMeld(2, t, d, t, 0)
            self.current = s
            self.phase = PH_DRAW
            self.after_kong = self.repl = 1
            self._event(EV_GANG, s, t, 0)
        self.nm[s] = n + 1
        return 0

    cdef int _angang(self, int s, int t) noexcept:
        # s kongs four t of its own (t -1: a hidden seat's, not shown); it draws the replacement
        if self._take(s, t, 4):
            return 1
        self.melds[s][self.nm[s]] = GMeld(2, t, -1, -1, 0)
        self.nm[s] += 1
        self.phase = PH_DRAW
        self.after_kong = self.repl = 1
        self._event(EV_ANGANG, s, t, 0)
        return 0

    cdef int _bugang(self, int s, int t) noexcept:
        # s adds the fourth t to its melded pung: the others may rob it
        cdef int i, k = -1
        for i in range(self.nm[s]):
            if self.melds[s][i].kind == 1 and self.melds[s][i].tile == t:
                k = i
        if k < 0:
            return self._refuse(s, 1, R_NO_PUNG, t, 0, 0)
        if self._take(s, t, 1):
            return 1
        self.melds[s][k].kind = 2
        self.melds[s][k].added = 1
        self.shown[t] = 4
        self.last_tile = t
        self.phase = PH_ROB
        self.after_kong = 0
        self._event(EV_BUGANG, s, t, 0)
        return 0

    cdef int _refuse(self, int seat, int code, int reason, int a, int b, int c) noexcept:
        """Record why seat's answer is refused (code 1 WA, 2 WH); returns reason."""
        self.err_seat = seat
        self.err_code = code
        self.err_reason = reason
        self.err_a = a
        self.err_b = b
        self.err_c = c
        return reason

    # _hu_total (what a Hu by seat would score now) is inline, in the .pxd:
    # _legal asks it for every seat at every discard.

    cdef int _callback_total(self, int seat, int t, int sd, int fourth, int last, int kong) except -10:
        """_hu_total through the Python hu_fn (see the class docstring)."""
        cdef int i
        melds = [(self.melds[seat][i].kind, self.melds[seat][i].tile, self.melds[seat][i].frm,
                  self.melds[seat][i].claimed, self.melds[seat][i].added) for i in range(self.nm[seat])]
        self._busy = True
        try:
            r = self.hu_fn(seat, bytes(<uint8_t[:34]>self.hands[seat]), melds, t, sd, fourth == 1, last == 1, kong,
                           self.quan)
        finally:
            self._busy = False
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not -3 <= r <= _MAX_TOTAL:
            raise ValueError(f"hu_fn: returned {r!r}, expected the int total of a Hu (0-{_MAX_TOTAL}) or -3")
        return r

    cdef int _kernel_total(self, int seat, int t, int sd, int fourth, int last, int kong) noexcept:
        """The kernel's total of seat's hand with t (already in the hand if
        self-drawn); -3 if it is not a win.  Fan counts go to hu_ft (left
        as they were for a hand that does not win).  The win check (table
        lookups) runs first: most hands asked about (every seat, every
        discard, in _legal) do not win, and the kernel's readings cost far
        more; the kernel finds no win in a hand it rejects (it reads the same
        forms), so the answer is the kernel's."""
        cdef uint8_t c[34]
        cdef uint8_t mk[4]
        cdef uint8_t mt[4]
        cdef uint8_t mo[4]
        cdef int i, r, n = self.nm[seat]
        memcpy(c, self.hands[seat], 34)
        if not sd:
            c[t] += 1
        if not win_check(c):
            return -3
        for i in range(n):
            mk[i] = self.melds[seat][i].kind
            mt[i] = self.melds[seat][i].tile
            mo[i] = self.melds[seat][i].frm >= 0
        r = score_counts(c, n, mk, mt, mo, t, sd * W_SELF_DRAWN | fourth * W_FOURTH_TILE | kong * W_KONG | last * W_LAST_TILE, seat, self.quan,
                    self.nfl[seat], self.hu_ft)
        return r if r >= 0 else -3

    # ------------------------------------------------------------------ legal actions

    cdef int _legal(self, int seat, bint check_hu) except -1:
        """Fill legal_buf with every legal (op, a, b) of seat now; returns the count.
        PASS is listed where it is legal.  Without check_hu, HU is listed
        wherever seat may declare one, unscored (for a caller that wants the
        other answers only).
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
            if not check_hu or self._hu_total(seat) - self.nfl[seat] >= MCR_MIN_POINTS:
                self.legal_buf[n][0] = OP_HU; self.legal_buf[n][1] = 0; self.legal_buf[n][2] = 0; n += 1
            return n
        self.legal_buf[0][0] = OP_PASS; self.legal_buf[0][1] = 0; self.legal_buf[0][2] = 0
        n = 1
        if ph == PH_TURN or ph == PH_DRAW or seat == self.current:
            return n
        if not check_hu or self._hu_total(seat) - self.nfl[seat] >= MCR_MIN_POINTS:
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

    # Why an answer _legal does not list is refused, checked in the order the
    # judge's messages have always named the first fault; called only on a
    # refusal (_turn, _claim), so the legal path pays nothing for it.

    cdef int _why_turn(self, int op, int a) except -1:
        cdef int s = self.current, kind = op & 15, i, v
        cdef uint8_t* h = self.hands[s]
        if op == OP_BAD:
            return self._refuse(s, 1, R_PARSE, 0, 0, 0)
        if op & OP_SHAPE or not (kind == OP_PLAY or kind == OP_HU or kind == OP_GANG or kind == OP_BUGANG) \
                or (kind != OP_HU and not 0 <= a < 34):
            return self._refuse(s, 1, R_TURN_INVALID, 0, 0, 0)
        if kind == OP_PLAY:
            if h[a] == 0:
                return self._refuse(s, 1, R_PLAY_NOT_HELD, a, 0, 0)
        elif kind == OP_HU:
            v = self._hu_total(s)
            if v < 0:
                return self._refuse(s, 2, R_HU_NOT_WIN, self.last_tile, 0, 0)
            if v - self.nfl[s] < 8:
                return self._refuse(s, 2, R_HU_UNDER8, self.last_tile, v - self.nfl[s], 0)
        elif kind == OP_GANG:
            if h[a] != 4:
                return self._refuse(s, 1, R_ANGANG_COUNT, a, h[a], 0)
            if not self._kong_ok(s):
                return self._refuse(s, 1, R_KONG_WALL, 0, 0, 0)
        else:
            v = 0
            for i in range(self.nm[s]):
                if self.melds[s][i].kind == 1 and self.melds[s][i].tile == a:
                    v = 1
            if not v:
                return self._refuse(s, 1, R_BUGANG_NO_PUNG, a, 0, 0)
            if h[a] == 0:
                return self._refuse(s, 1, R_BUGANG_NOT_HELD, a, 0, 0)
            if not self._kong_ok(s):
                return self._refuse(s, 1, R_KONG_WALL, 0, 0, 0)
        return self._refuse(s, 1, R_TURN_INVALID, 0, 0, 0)      # not reached: _legal lists the rest

    cdef int _why_claim(self, int s, int op, int a, int b) except -1:
        cdef int d = self.current, t = self.last_tile, kind = op & 15, v, m, x, n0, n1
        cdef bint shaped = not (op & OP_SHAPE), rob = self.phase == PH_ROB
        cdef uint8_t* h = self.hands[s]
        if op == OP_BAD:
            return self._refuse(s, 1, R_PARSE, 0, 0, 0)
        if s == d:
            return self._refuse(s, 1, R_OWN, rob, 0, 0)
        if kind == OP_HU and shaped:
            v = self._hu_total(s)
            if v < 0:
                return self._refuse(s, 2, R_HU_NOT_WIN, t, 0, 0)
            if v - self.nfl[s] < 8:
                return self._refuse(s, 2, R_HU_UNDER8, t, v - self.nfl[s], 0)
        if rob:
            return self._refuse(s, 1, R_ROB_ONLY, 0, 0, 0)
        if not (kind == OP_PENG or kind == OP_CHI or kind == OP_GANG):
            return self._refuse(s, 1, R_CLAIM_INVALID, 0, 0, 0)
        if not self._claims_ok(d):
            return self._refuse(s, 1, R_CLAIM_WALL, kind, (d + 1) % 4, 0)
        if kind == OP_GANG and shaped:
            if h[t] != 3:
                return self._refuse(s, 1, R_MKONG_COUNT, t, h[t], 0)
            if self._left(s) == 0:
                return self._refuse(s, 1, R_MKONG_WALL, 0, 0, 0)
        elif kind == OP_PENG and shaped and 0 <= a < 34:
            if h[t] < 2:
                return self._refuse(s, 1, R_PENG_COUNT, t, h[t], 0)
            if h[a] - (2 if a == t else 0) <= 0:
                return self._refuse(s, 1, R_PENG_DISCARD, a, 0, 0)
        elif kind == OP_CHI and shaped and 0 <= a < 34 and 0 <= b < 34:
            m = a
            x = b
            if s != (d + 1) % 4:
                return self._refuse(s, 1, R_CHI_SEAT, d, 0, 0)
            if m >= 27 or t >= 27 or m // 9 != t // 9 or not 1 <= m % 9 <= 7 or abs(m - t) > 1:
                return self._refuse(s, 1, R_CHI_MIDDLE, m, t, 0)
            n0 = m - 1 if t != m - 1 else m
            n1 = m + 1 if t != m + 1 else m
            if not (h[n0] and h[n1]):
                return self._refuse(s, 1, R_CHI_NEED, m, n0, n1)
            if h[x] - (x == n0) - (x == n1) <= 0:
                return self._refuse(s, 1, R_CHI_DISCARD, x, 0, 0)
        return self._refuse(s, 1, R_CLAIM_INVALID, 0, 0, 0)

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

    cdef int _draw_given(self, int tile) except -4:
        """current draws; ``tile`` (-1: not given) is the tile drawn, required
        when the walls are unknown, else checked against the wall.  Returns
        the tile, a flower (34-41, set aside: current draws again), -1 when
        the wall is empty (Huang), or -3 if refused (the state unchanged,
        the reason recorded).  _draw (the .pxd) is this without a tile."""
        cdef int s = self.current, t
        if self.phase != PH_DRAW:
            self._refuse(s, 1, R_DRAW_PHASE, self.phase, 0, 0)
            return -3
        if self._left(s) == 0:
            self.phase = PH_OVER
            self.huang = 1
            self._event(EV_HUANG, s, 0, 0)
            return -1
        if self.viewer >= 0 and s != self.viewer:
            # a seat's view: another seat's draw carries no tile, only its count
            self.pos[s] += 1
            self.nconc[s] += 1
            self.last_tile = -1
            self.phase = PH_TURN
            self._event(EV_DRAW, s, -1, 0)
            return -2
        if self.mode == MODE_WALLS:
            t = self.walls[s][self.pos[s]]
        elif self.mode == MODE_TABLE:
            # a kong's or a flower's replacement comes from the back of the wall
            t = self.wall[self.back - 1] if self.repl else self.wall[self.front]
        else:
            if tile < 0:
                self._refuse(s, 1, R_DRAW_NEED_TILE, 0, 0, 0)
                return -3
            if tile >= 34:
                self._refuse(s, 1, R_DRAW_FLOWER, tile, 0, 0)
                return -3
            if self.viewer < 0 and self.seen[tile] >= 4:      # (a seat's view checks its sight: _seat)
                self._refuse(s, 1, R_DRAW_FIFTH, tile, 0, 0)
                return -3
            self.seen[tile] += 1
            t = tile
        if tile >= 0 and tile != t:
            self._refuse(s, 1, R_DRAW_MISMATCH, tile, t, 0)
            return -3
        if self.mode == MODE_TABLE:
            if self.repl:
                self.back -= 1
            else:
                self.front += 1
        else:
            self.pos[s] += 1
        if t >= 34:                       # table play: a flower, set aside and replaced
            if self.nfl[s] < 8:           # always (8 flowers)
                self.flw[s][self.nfl[s]] = t
                self.nfl[s] += 1
            self.repl = 1
            self._event(EV_BUHUA, s, t, 0)
            return t
        self.repl = 0
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
        """The drawer's answer; -1 if it is not legal (why: err_*)."""
        cdef int s = self.current, i, total
        cdef uint8_t* h = self.hands[s]
        if self.phase != PH_TURN:
            self._refuse(s, 1, R_TURN_PHASE, self.phase, 0, 0)
            return -1
        if op == OP_PLAY:                 # the common case, without enumerating everything
            if not (0 <= a < 34 and h[a]):
                self._why_turn(op, a)
                return -1
        elif not self._is_legal(s, op, a, 0):
            self._why_turn(op, a)
            return -1
        if op == OP_PLAY:
            h[a] -= 1                     # (held: checked above; _take is for a seat's view)
            self._play(s, a)
        elif op == OP_HU:
            total = self._hu_total(s)
            self._set_context(s, 1, self.after_kong, s)
            self._event(EV_HU, s, self.last_tile, 0)
            self._settle(s, -1, total, 1)
        elif op == OP_GANG:
            self._angang(s, a)
        else:  # BUGANG
            self._bugang(s, a)
        return 0

    cdef int _claim(self, int* ops, int* aa, int* bb) except -3:
        """The answers to a discard / an added kong.  Returns the seat whose
        claim won, -1 if all passed, -2 if an answer is not legal (the first
        in seat order 0-3 is refused: err_*)."""
        cdef int d = self.current, t = self.last_tile, s, k, best = -1, rank, brank = 0, i, m, x, total
        cdef int ranks[4]
        cdef bint rob = self.phase == PH_ROB
        if self.phase != PH_CLAIM and self.phase != PH_ROB:
            self._refuse(d, 1, R_CLAIM_PHASE, self.phase, 0, 0)
            return -2
        for s in range(4):
            ranks[s] = 0
            if ops[s] == OP_PASS:
                continue
            if not self._is_legal(s, ops[s], aa[s], bb[s]):
                self._why_claim(s, ops[s], aa[s], bb[s])
                return -2
            ranks[s] = 3 if ops[s] == OP_HU else (1 if ops[s] == OP_CHI else 2)
        # priority: rank, then the first seat after the discarder
        for k in range(1, 4):
            s = (d + k) % 4
            if ranks[s] > brank:
                brank = ranks[s]
                best = s
        if best < 0:
            self._passed()
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
        self._meld(s, ops[s], aa[s])
        self._ignores(ranks, best, d, ops, aa, t)
        if ops[s] != OP_GANG:             # a chow or pung discards at once
            x = aa[s] if ops[s] == OP_PENG else bb[s]
            self.hands[s][x] -= 1         # (held: _legal listed the claim with this discard)
            self._play(s, x)
        return s

    cdef void _ignores(self, int* ranks, int best, int d, int* ops, int* aa, int t) noexcept:
        # the claims that lost, in the order they lost: rank, then seat order after the discarder
        cdef int r, k, s
        for r in range(3, 0, -1):
            for k in range(1, 4):
                s = (d + k) % 4
                if s != best and ranks[s] == r:
                    self._event(EV_IGNORE, s, ops[s], aa[s] if ops[s] == OP_CHI else t)

    cdef void _fail(self, int s) noexcept:
        # the error rule: s loses 30, each other seat gains 10; the game is over
        cdef int k
        for k in range(4):
            self.sc[k] = -30 if k == s else 10
        self.phase = PH_OVER
        self._event(EV_ERROR, s, 0, 0)
