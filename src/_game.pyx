# cython: language_level=3, auto_pickle=False
"""Compiled self-play (mjfast.game.fast) over the game engine.

FastGame is mjfast._engine's Engine (mjfast._machine: the rules) plus
what self-play needs around it: the built-in policies (discard-the-drawn-
tile, a seeded random legal player, the baseline bot), which choose among
the engine's legal answers (_legal) and have no rule of their own; a game
played to its end (run) with its rounds of answers recorded; batches of
games (play_many, play_seeded); the seeded walls; and, for learning, a
batch's legal masks and observations.  Match archives are replayed on the
same engine by mjfast._replay.
"""
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint8_t, int8_t, int16_t, uint64_t
from mjfast._machine cimport *
from mjfast._engine cimport Engine
from mjfast._decide cimport Choice, need_decisions, rank_discards
from mjfast._core cimport need_tables, shanten_of
from mjfast._args import int_arg, seat_arg, u64_arg, prob_arg, flat_out

import numpy as np
cimport numpy as cnp

cnp.import_array()

_C_INT = (1 << 31) - 1

POLICY_TSUMOGIRI = 0
POLICY_RANDOM = 1
POLICY_BASELINE = 2

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


# The baseline policy's kernels are cimported: shanten from mjfast._core, the
# discard ranking from mjfast._decide; their tables are built on first use.
cdef bint _kernels_ready = False


cdef int _need_kernels() except -1:
    global _kernels_ready
    need_tables()
    need_decisions()
    _kernels_ready = True
    return 0


cdef inline void _best_choice(Choice* ch, int n, int* shanten, int* left, int* tile) noexcept:
    # the baseline's order: lowest shanten, then most unseen useful copies, then lowest tile
    cdef int i
    shanten[0] = 99; left[0] = -1; tile[0] = -1
    for i in range(n):
        if ch[i].shanten < shanten[0] or (ch[i].shanten == shanten[0] and
                                          (ch[i].left > left[0] or (ch[i].left == left[0] and ch[i].tile < tile[0]))):
            shanten[0] = ch[i].shanten; left[0] = ch[i].left; tile[0] = ch[i].tile


cdef class FastGame(Engine):
    """One game's state, with the self-play policies and a whole game's run
    (Engine gives the rules and the stepping API)."""

    cdef int8_t rounds[MAX_ROUNDS][4][3]
    cdef int nrounds

    cdef int _reset(self, const uint8_t[:, ::1] walls, int quan) except -1:
        Engine._reset(self, walls, quan)
        self.nrounds = 0
        return 0

    cdef inline void _round(self, int[4] ops, int[4] a, int[4] b) noexcept:
        cdef int s
        if self.nrounds < MAX_ROUNDS:
            for s in range(4):
                self.rounds[self.nrounds][s][0] = ops[s]
                self.rounds[self.nrounds][s][1] = a[s]
                self.rounds[self.nrounds][s][2] = b[s]
            self.nrounds += 1

    # ------------------------------------------------------------------ policies

    cdef inline int _decide(self, int seat, int policy, uint64_t* rng, double p_claim, double p_kong,
                            int* op, int* a, int* b) except -1:
        # Inline, and the policies apart: tsumogiri's answer costs no call
        # (a call into the large policies' frames would be paid on every
        # answer); an int result, not void ... except *, spares a
        # PyErr_Occurred per answer.
        op[0] = OP_PASS; a[0] = 0; b[0] = 0
        if policy == 0:
            # the drawn tile, in the hand: always one of _legal's PLAYs (and
            # PASS, the answer to anything else, always legal)
            if self.phase == PH_TURN and seat == self.current:
                op[0] = OP_PLAY; a[0] = self.last_tile
            return 0
        if policy == 2:
            return self._baseline(seat, op, a, b)
        return self._random(seat, rng, p_claim, p_kong, op, a, b)

    cdef int _random(self, int seat, uint64_t* rng, double p_claim, double p_kong, int* op, int* a,
                     int* b) except -1:
        """The random policy: Hu whenever legal, else a kong (p_kong), a chow
        or pung (p_claim) or a discard, uniformly among _legal's answers of
        that kind."""
        cdef int n, i, k, nk = 0, nc = 0, np_ = 0
        cdef int kongs[64]
        cdef int claims[MAX_LEGAL]
        cdef int plays[34]
        n = self._legal(seat, True)
        for i in range(n):
            k = self.legal_buf[i][0]
            if k == OP_HU:
                op[0] = OP_HU; a[0] = 0; b[0] = 0
                return 0
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
            return 0
        op[0] = self.legal_buf[i][0]; a[0] = self.legal_buf[i][1]; b[0] = self.legal_buf[i][2]
        return 0

    cdef void _best_after(self, uint8_t* h, int melds, uint8_t* seen, int* shanten, int* left,
                          int* tile) noexcept:
        cdef Choice ch[34]
        cdef int n = rank_discards(h, melds, h, seen, ch)
        _best_choice(ch, n, shanten, left, tile)

    cdef int _baseline(self, int seat, int* op, int* a, int* b) except -1:
        """The baseline bot (mjfast:baseline's rules, compiled): Hu whenever
        legal; discard by plain shanten, then the unseen copies of the useful
        tiles; chow / pung only when that lowers the shanten; never a kong.
        It chooses among the engine's answers (_legal): no rule of its own,
        a Hu included (the engine scores it, its win check first)."""
        cdef uint8_t seen[34]
        cdef uint8_t tmp[34]
        cdef uint8_t* h = self.hands[seat]
        cdef int t, v, m, u, cur, s, left, x, bs = 99, bl = -1, i, k, n, last_m = -1
        cdef bint turn = False, hu = False, peng = False, chow
        cdef int nm = self.nm[seat]
        if not _kernels_ready:
            _need_kernels()
        # Read by _legal's order: the drawer's list opens with its PLAYs and
        # ends with HU; the others' is PASS, HU, then the PENGs first.
        n = self._legal(seat, True)
        if n == 0:
            return 0
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
        if hu:
            op[0] = OP_HU
            return 0
        if not (turn or peng or chow):          # PASS is all that is left (the common answer to a discard)
            return 0
        for t in range(34):
            v = h[t] + self.shown[t]
            seen[t] = 4 if v > 4 else v
        if turn:
            # the best discard is a tile of the hand: one of the PLAY answers
            self._best_after(h, nm, seen, &s, &left, &x)
            op[0] = OP_PLAY; a[0] = x
            return 0
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
                cur = shanten_of(h, nm, -1)
            self._best_after(tmp, nm + 1, seen, &s, &left, &x)
            if s < cur and (s < bs or (s == bs and left > bl)):
                bs = s; bl = left
                op[0] = OP_CHI; a[0] = m; b[0] = x
        if peng:
            memcpy(tmp, h, 34)
            tmp[t] -= 2
            if cur == -2:
                cur = shanten_of(h, nm, -1)
            self._best_after(tmp, nm + 1, seen, &s, &left, &x)
            if s < cur and (s < bs or (s == bs and left > bl)):
                op[0] = OP_PENG; a[0] = x; b[0] = 0
        return 0

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
        cdef uint64_t rng = u64_arg(seed, "seed")
        cdef double pc = prob_arg(p_claim, "p_claim"), pk = prob_arg(p_kong, "p_kong")
        _policies(policies, pol)
        self._usable("run")
        if self.nev or self.nrounds:
            raise ValueError("run: plays a game from its deal (call reset() first)")
        rng = rng * <uint64_t>0x9E3779B97F4A7C15ULL + 1
        self._run(pol, &rng, pc, pk)

    def decide(self, seat, policy, seed=1, p_claim=0.5, p_kong=0.7):
        """The answer (op, a, b) a compiled policy gives for seat now (tests)."""
        cdef int op = 0, a = 0, b = 0
        cdef int s = seat_arg(seat, "decide: seat")
        cdef int p = int_arg(policy, "decide: policy (0 tsumogiri, 1 random, 2 baseline)", 0, 2)
        cdef uint64_t rng = u64_arg(seed, "seed")
        cdef double pc = prob_arg(p_claim, "p_claim"), pk = prob_arg(p_kong, "p_kong")
        self._usable("decide")
        rng = rng * <uint64_t>0x9E3779B97F4A7C15ULL + 1
        self._decide(s, p, &rng, pc, pk, &op, &a, &b)
        return op, a, b

    def rounds_array(self):
        out = np.empty((self.nrounds, 4, 3), dtype=np.int8)
        if self.nrounds:
            memcpy(cnp.PyArray_DATA(out), self.rounds, self.nrounds * 12)
        return out


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
    res = flat_out(out, (n, 4, N_ACTIONS), np.uint8, "legal_masks: out")
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
    res = flat_out(out, (n, 4, OBS_SIZE), np.int8, "observe_many: out")
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
        pol[s] = int_arg(policies[s], f"policies[{s}] (0 tsumogiri, 1 random, 2 baseline)", 0, 2)
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
    cdef uint64_t seed = u64_arg(seed_, "seed")
    cdef double p_claim = prob_arg(p_claim_, "p_claim"), p_kong = prob_arg(p_kong_, "p_kong")
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
    cdef uint64_t seed = u64_arg(seed_, "seed"), first = u64_arg(first_, "first")
    cdef Py_ssize_t n = int_arg(n_, "n", 0, 1 << 62)
    cdef int quan = int_arg(quan_, "quan (-1 cycle, 0-3)", -1, 3)
    cdef double p_claim = prob_arg(p_claim_, "p_claim"), p_kong = prob_arg(p_kong_, "p_kong")
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
    cdef uint64_t seed = u64_arg(seed_, "seed")
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
