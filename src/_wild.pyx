# cython: language_level=3, cdivision=True
"""mjfast compiled wildcard kernels (``mjfast._wild``).

A wildcard hand is the 34 counts ``c`` of its real tiles plus ``k`` wildcards
(0..8), each of which may stand for any tile.  By default a wildcard may not
make a fifth copy (``c + s <= 4`` for the substitution ``s``); ``fifth``
lifts that.  Every entry point takes already-validated data (mjfast/wild.py).

The answers are table lookups plus a small combination step: no kernel tries
substitutions one by one.

* Win check (default rule): per suit key, ``_emask[key]`` is the set of
  (melds m, pairs p) that the part can be made into *exactly* by adding
  wildcards without passing four copies: bit ``m + 5 p``.  It is the OR of the
  completion flags of every key above it (every count >= its own, at most 4),
  built in one descending pass (the flags come from the distance table of
  mjfast._core).  A hand wins in the regular form when one (m, p) per part
  sums to (4 - melds, 1): a sum-set of four small bit masks.  The number of
  wildcards needs no lookup: the size of the hand fixes it.
* With ``fifth`` the same masks come from the distance table directly: a part
  of n tiles is exactly completable into (m, p) when its distance (the fewest
  tiles to add, a fifth copy allowed) is 3m + 2p - n.
* Shanten (default rule): ``_wstep[key*10 + 2m + p]`` holds, in bit j - 1,
  whether the part's distance with j wildcards spent is one less than with
  j - 1 (a wildcard lowers a distance by at most one), for j = 1..8.  The
  distance with j wildcards spent is the smallest distance of the part plus
  any j tiles that keep every count <= 4; the hand's distance is the min-plus
  combination of the four parts over (melds, pair, wildcards).  With
  ``fifth`` a wildcard always lowers the distance by one: distance - k.
* The special forms (seven pairs, thirteen orphans, honors and knitted,
  knitted straight) have closed forms in k (see each function).

The tables are built on first use, under a lock, each kind when first needed:
the shanten steps cost far more to build than the win masks, so a process
that only checks wins never builds them (figures: benchmarks/README.md,
"Wildcards").  This module is the analysis step for wildcard hands; it
reads mjfast._tables' distance tables through pointers taken once (dist_tables,
cimported from mjfast._tables).
"""
from libc.stdint cimport uint8_t, uint16_t, int8_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from cython.parallel cimport prange
import threading

import numpy as np
cimport numpy as cnp

cnp.import_array()

from mjfast._tables cimport dist_tables

cdef extern from "bits.h":
    int _ctz64 "mjfast_ctz64"(uint64_t x) nogil
    int _popc64 "mjfast_popcount64"(uint64_t x) nogil
cdef extern from "wild.h":
    uint64_t _present_c "mjfast_w_present"(const uint8_t* c) nogil
    int _nodd "mjfast_w_odd"(const uint8_t* c) nogil
    int _over "mjfast_w_over"(const uint8_t* c, uint8_t lim) nogil
cdef extern from "openmp.h":
    int mjfast_num_procs() nogil

DEF NKEY = 1953125      # 5**9
DEF NHKEY = 78125       # 5**7
DEF BIG = 60
DEF KMAX = 8            # wildcards per hand
DEF KROOM = KMAX + 2    # room for 0..KMAX + 1 spent: with wild_fifth, "does a drawn wildcard
                        # lower the shanten" is the shanten with one wildcard more
DEF MPMASK = 0x1F001F   # (m, p) bits of the spread layout: m + 16 p, m <= 4, p <= 1

#: the most wildcards a hand may hold
MAX_WILDCARDS = KMAX

cdef int P5[10]
P5[0] = 1
for _i in range(1, 10):
    P5[_i] = P5[_i - 1] * 5

# knitted arrangements: arrangement a puts the 1-4-7 / 2-5-8 / 3-6-9 triples
# in suits _PERMS[a]
cdef int KNIT_TILES[6][9]
cdef uint64_t KNIT_MASK[6]
_perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
for _a in range(6):
    KNIT_MASK[_a] = 0
    for _j in range(3):
        for _r in range(3):
            KNIT_TILES[_a][_j * 3 + _r] = _perms[_a][_j] * 9 + _j + 3 * _r
            KNIT_MASK[_a] |= (<uint64_t>1) << KNIT_TILES[_a][_j * 3 + _r]

# the suit of triple j (ranks j, j+3, j+6) in arrangement a
cdef int KNIT_SUIT[6][3]
for _a in range(6):
    for _j in range(3):
        KNIT_SUIT[_a][_j] = _perms[_a][_j]

cdef uint64_t ORPHAN_MASK = 0
cdef int ORPHANS[13]
for _i, _t in enumerate((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)):
    ORPHAN_MASK |= (<uint64_t>1) << _t
    ORPHANS[_i] = _t
cdef uint64_t SUITED_MASK = ((<uint64_t>1) << 27) - 1

cdef const uint8_t* _dist = NULL       # mjfast._core's distance tables (read only)
cdef const uint8_t* _hdist = NULL
cdef uint16_t* _emask = NULL
cdef uint16_t* _hemask = NULL
cdef uint8_t* _wstep = NULL
cdef uint8_t* _hwstep = NULL
cdef bint _built_win = False
cdef bint _built_steps = False
_lock = threading.Lock()


# ---------------------------------------------------------------------------
# table construction
# ---------------------------------------------------------------------------

cdef inline int _key_sum(int key, int n) noexcept nogil:
    """The number of tiles of a part's key (the sum of its n base-5 digits)."""
    cdef int s = 0, i
    for i in range(n):
        s += key % 5
        key = key // 5
    return s


cdef void _build_emask(const uint8_t* dist, uint16_t* em, int n, int nkey) noexcept nogil:
    """em[key] = the (m, p) (bit m + 5p) that the part can be completed into
    exactly, every count staying <= 4."""
    cdef int key, i, s, d
    for key in range(nkey):
        s = _key_sum(key, n)
        em[key] = 0
        if s <= 14:
            # dist 0 for (m, p) with 3m + 2p = s tiles: the part is exactly m melds + p pairs
            if s % 3 == 0 and dist[key * 10 + (s // 3) * 2] == 0:
                em[key] |= 1 << (s // 3)
            if s % 3 == 2 and dist[key * 10 + ((s - 2) // 3) * 2 + 1] == 0:
                em[key] |= 1 << ((s - 2) // 3 + 5)
    # every key takes the completions of the keys one tile above it; visited
    # from the top, those already hold everything above them
    for key in range(nkey - 1, -1, -1):
        for i in range(n):
            d = (key // P5[i]) % 5
            if d < 4:
                em[key] |= em[key + P5[i]]


cdef int _build_steps(const uint8_t* dist, uint8_t* steps, int n, int nkey) noexcept nogil:
    """steps[key*10 + x] bit j-1: the distance x of the part with j wildcards
    spent (no count past 4) is one less than with j - 1.  Returns -1 when out
    of memory, 1 if a step was ever more than one (never: a check), else 0."""
    cdef uint8_t* cur = <uint8_t*>malloc(nkey * 10)
    cdef uint8_t* nxt = <uint8_t*>malloc(nkey * 10)
    cdef uint8_t* tmp
    cdef uint8_t* sums = <uint8_t*>malloc(nkey)
    cdef int key, i, j, x, bad = 0
    cdef uint8_t v[10]
    cdef const uint8_t* up
    if cur == NULL or nxt == NULL or sums == NULL:
        free(cur); free(nxt); free(sums)
        return -1
    for key in range(nkey):
        sums[key] = _key_sum(key, n)
    memcpy(cur, dist, nkey * 10)
    memset(steps, 0, nkey * 10)
    for j in range(1, KMAX + 1):
        for key in range(nkey):
            memcpy(v, cur + key * 10, 10)
            if sums[key] < 14:
                for i in range(n):
                    if (key // P5[i]) % 5 < 4:
                        up = cur + (key + P5[i]) * 10
                        for x in range(10):
                            if up[x] < v[x]:
                                v[x] = up[x]
            for x in range(10):
                if v[x] < cur[key * 10 + x]:
                    steps[key * 10 + x] |= 1 << (j - 1)
                    if cur[key * 10 + x] - v[x] > 1:
                        bad = 1
            memcpy(nxt + key * 10, v, 10)
        tmp = cur
        cur = nxt
        nxt = tmp
    free(cur); free(nxt); free(sums)
    return bad


cdef int _take_core_tables() except -1:
    global _dist, _hdist
    if _dist == NULL:
        dist_tables(&_dist, &_hdist)
    return 0


def build_win_tables():
    """Build the win masks (idempotent, thread-safe)."""
    global _emask, _hemask, _built_win
    cdef uint16_t* em
    cdef uint16_t* hem
    with _lock:
        if _built_win:
            return
        _take_core_tables()
        em = <uint16_t*>malloc(NKEY * sizeof(uint16_t))
        hem = <uint16_t*>malloc(NHKEY * sizeof(uint16_t))
        if em == NULL or hem == NULL:
            free(em); free(hem)
            raise MemoryError("mjfast: cannot allocate the wildcard tables")
        with nogil:
            _build_emask(_dist, em, 9, NKEY)
            _build_emask(_hdist, hem, 7, NHKEY)
        _emask = em
        _hemask = hem
        _built_win = True


def build_shanten_tables():
    """Build the shanten steps (idempotent, thread-safe)."""
    global _wstep, _hwstep, _built_steps
    cdef uint8_t* st
    cdef uint8_t* hst
    cdef int r1, r2
    with _lock:
        if _built_steps:
            return
        _take_core_tables()
        st = <uint8_t*>malloc(NKEY * 10)
        hst = <uint8_t*>malloc(NHKEY * 10)
        if st == NULL or hst == NULL:
            free(st); free(hst)
            raise MemoryError("mjfast: cannot allocate the wildcard tables")
        with nogil:
            r1 = _build_steps(_dist, st, 9, NKEY)
            r2 = _build_steps(_hdist, hst, 7, NHKEY)
        if r1 < 0 or r2 < 0:
            free(st); free(hst)
            raise MemoryError("mjfast: cannot allocate the wildcard tables")
        if r1 or r2:
            free(st); free(hst)
            raise RuntimeError("mjfast: a wildcard lowered a distance by more than one (table bug)")
        _wstep = st
        _hwstep = hst
        _built_steps = True


cdef inline int _need_win() except -1:
    if not _built_win:
        build_win_tables()
    return 0


cdef inline int _need_steps() except -1:
    _need_win()
    if not _built_steps:
        build_shanten_tables()
    return 0


# ---------------------------------------------------------------------------
# kernels (nogil, trusting their input)
# ---------------------------------------------------------------------------

cdef inline int _key9(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))))))))


cdef inline int _key7(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * c[6]))))))


cdef inline uint64_t _present(const uint8_t* c) noexcept nogil:
    return _present_c(c)


cdef inline int _ntiles(const uint8_t* c, int n) noexcept nogil:
    cdef int i, s = 0
    for i in range(n):
        s += c[i]
    return s


cdef inline uint64_t _spread(uint32_t e) noexcept nogil:
    """bit m + 5p -> bit m + 16p (room for sums: m <= 8, p <= 2)."""
    return (e & 0x1F) | ((<uint64_t>((e >> 5) & 0x1F)) << 16)


cdef inline uint64_t _sumset(uint64_t a, uint64_t b) noexcept nogil:
    """The (m, p) sums of a pair of elements of a and b (m <= 4, p <= 1)."""
    cdef uint64_t r = 0
    while b:
        r |= a << _ctz64(b)
        b &= b - 1
    return r & MPMASK


cdef inline uint64_t _fifth_mask(const uint8_t* d, int n) noexcept nogil:
    """Exact completions of a part of n tiles, fifth copies allowed, from its
    distance vector: (m, p) whose distance is exactly 3m + 2p - n."""
    cdef uint64_t r = 0
    cdef int m, p, t
    for m in range(5):
        for p in range(2):
            t = 3 * m + 2 * p - n
            if t >= 0 and d[2 * m + p] == t:
                r |= (<uint64_t>1) << (m + 16 * p)
    return r


cdef inline bint _wreg_win(const uint8_t* c, int M, bint fifth) noexcept nogil:
    """Concealed counts plus wildcards (the hand's size fixes how many) split
    into M melds + one pair."""
    cdef uint64_t a, b, x, h
    cdef int k0 = _key9(c), k1 = _key9(c + 9), k2 = _key9(c + 18), kh = _key7(c + 27)
    if fifth:
        a = _fifth_mask(_dist + k0 * 10, _ntiles(c, 9))
        b = _fifth_mask(_dist + k1 * 10, _ntiles(c + 9, 9))
        x = _fifth_mask(_dist + k2 * 10, _ntiles(c + 18, 9))
        h = _fifth_mask(_hdist + kh * 10, _ntiles(c + 27, 7))
    else:
        a = _spread(_emask[k0])
        b = _spread(_emask[k1])
        x = _spread(_emask[k2])
        h = _spread(_hemask[kh])
    if not (a and b and x and h):
        return False
    return (_sumset(_sumset(_sumset(a, b), x), h) >> (16 + M)) & 1


cdef inline void _knit_got(uint64_t p, int* got) noexcept nogil:
    cdef int a
    for a in range(6):
        got[a] = _popc64(p & KNIT_MASK[a])


cdef bint _wis_win(const uint8_t* c, int melds, int k, bint fifth) noexcept nogil:
    """c (real tiles) + k wildcards, 14 - 3 melds tiles in all, complete a hand
    in some MCR form."""
    cdef uint64_t p
    cdef int t, a, j, n2
    cdef int got[6]
    cdef uint8_t rest[34]
    if _wreg_win(c, 4 - melds, fifth):
        return True
    p = _present(c)
    if melds == 0:
        # seven pairs: a wildcard evens each odd count (1 -> 2, 3 -> 4); the
        # rest make pairs of their own (the size makes their number even)
        if _nodd(c) <= k:
            return True
        # thirteen orphans: orphans only, at most one pair; the wildcards
        # fill the missing kinds and, without a pair, make it
        if (p & ~ORPHAN_MASK) == 0 and not _over(c, 2):
            n2 = 0
            for t in range(13):
                n2 += c[ORPHANS[t]] == 2
            if n2 <= 1:
                return True
        # honors and knitted: 14 different tiles among the 16 of an
        # arrangement and the honors; wildcards take any missing ones
        if not _over(c, 1):
            for a in range(6):
                if (p & SUITED_MASK & ~KNIT_MASK[a]) == 0:
                    return True
    if melds <= 1:
        # knitted straight: wildcards complete an arrangement, the rest is a
        # (1 - melds) melds + pair hand with the wildcards left
        _knit_got(p, got)
        for a in range(6):
            if 9 - got[a] <= k:
                memcpy(rest, c, 34)
                for j in range(9):
                    if rest[KNIT_TILES[a][j]]:
                        rest[KNIT_TILES[a][j]] -= 1
                if _wreg_win(rest, 1 - melds, fifth):
                    return True
    return False


cdef inline void _part_vec(int* out, const uint8_t* d, const uint8_t* st, int k, bint fifth) noexcept nogil:
    """out[j*10 + x] = distance x of the part with j <= k wildcards spent."""
    cdef int j, x, v
    if fifth:
        for j in range(k + 1):
            for x in range(10):
                v = d[x] - j
                out[j * 10 + x] = v if v > 0 else 0
        return
    for x in range(10):
        out[x] = d[x]
    for j in range(1, k + 1):
        # the j-th wildcard lowers entry x by one when its step bit is set
        for x in range(10):
            out[j * 10 + x] = out[(j - 1) * 10 + x] - ((st[x] >> (j - 1)) & 1)


cdef void _capped_walk(int* out, const uint8_t* table, const uint8_t* c, const uint8_t* room, int n, int i,
                       int key, int j, int k) noexcept nogil:
    """Every way of adding j..k tiles to the part from kind i on (at most
    room[t] of kind t): out[j*10 + x] = the least distance x after exactly j."""
    cdef int x, a
    cdef const uint8_t* d
    if i == n:
        d = table + key * 10
        for x in range(10):
            if d[x] < out[j * 10 + x]:
                out[j * 10 + x] = d[x]
        return
    a = 0
    while True:
        _capped_walk(out, table, c, room, n, i + 1, key, j, k)
        if a >= room[i] or j >= k:
            break
        a += 1
        j += 1
        key += P5[i]


cdef inline void _part_vec_at(int* out, const uint8_t* c, int n, const uint8_t* cp, int k, bint fifth) noexcept nogil:
    """The part vector (as _part_vec) of the n counts c.  cp: the most copies of
    each kind (NULL: 4); below 4 (copies in melds), the part's vector comes
    from a walk over the additions instead of the step table."""
    cdef int key = _key7(c) if n == 7 else _key9(c)
    cdef const uint8_t* table = _hdist if n == 7 else _dist
    cdef const uint8_t* st = _hwstep if n == 7 else _wstep
    cdef uint8_t room[9]
    cdef int i, capped = 0
    if cp != NULL and not fifth:
        for i in range(n):
            room[i] = cp[i] - c[i] if cp[i] > c[i] else 0
            capped |= cp[i] < 4
    if not capped:
        _part_vec(out, table + key * 10, NULL if fifth else st + key * 10, k, fifth)
        return
    for i in range((k + 1) * 10):
        out[i] = BIG
    _capped_walk(out, table, c, room, n, 0, key, 0, k)


cdef inline void _combine(int* z, const int* a, const int* b, int k, int M) noexcept nogil:
    """z[j*10 + 2m + p] = min over splits of j wildcards and (m, p) of a + b."""
    cdef int j, ja, m, ma, t, ia, ib
    for j in range(k + 1):
        for m in range(M + 1):
            z[j * 10 + 2 * m] = BIG
            z[j * 10 + 2 * m + 1] = BIG
    for ja in range(k + 1):
        for j in range(ja, k + 1):
            for ma in range(M + 1):
                ia = ja * 10 + 2 * ma
                for m in range(ma, M + 1):
                    ib = (j - ja) * 10 + 2 * (m - ma)
                    t = a[ia] + b[ib]
                    if t < z[j * 10 + 2 * m]:
                        z[j * 10 + 2 * m] = t
                    t = a[ia] + b[ib + 1]
                    if a[ia + 1] + b[ib] < t:
                        t = a[ia + 1] + b[ib]
                    if t < z[j * 10 + 2 * m + 1]:
                        z[j * 10 + 2 * m + 1] = t


cdef void _wreg_vecs(const int* v0, const int* v1, const int* v2, const int* v3, int M, int k, int* res) noexcept nogil:
    """res[j] (j <= k) = fewest tiles to add for M melds + a pair with j
    wildcards spent, from the four parts' vectors."""
    cdef int ab[KROOM * 10]
    cdef int ch[KROOM * 10]
    cdef int j, ja, m, t, best
    _combine(ab, v0, v1, k, M)
    _combine(ch, v2, v3, k, M)
    for j in range(k + 1):
        best = BIG
        for ja in range(j + 1):
            for m in range(M + 1):
                t = ab[ja * 10 + 2 * m] + ch[(j - ja) * 10 + 2 * (M - m) + 1]
                if t < best:
                    best = t
                t = ab[ja * 10 + 2 * m + 1] + ch[(j - ja) * 10 + 2 * (M - m)]
                if t < best:
                    best = t
        res[j] = best


cdef void _wreg_dist(const uint8_t* c, int M, int k, bint fifth, const uint8_t* cp, int* res) noexcept nogil:
    """res[j] (j <= k) = fewest tiles to add for M melds + a pair with j
    wildcards spent in the regular form (cp: as _part_vec_at)."""
    cdef int v0[KROOM * 10]
    cdef int v1[KROOM * 10]
    cdef int v2[KROOM * 10]
    cdef int v3[KROOM * 10]
    _part_vec_at(v0, c, 9, cp, k, fifth)
    _part_vec_at(v1, c + 9, 9, cp + 9 if cp != NULL else NULL, k, fifth)
    _part_vec_at(v2, c + 18, 9, cp + 18 if cp != NULL else NULL, k, fifth)
    _part_vec_at(v3, c + 27, 7, cp + 27 if cp != NULL else NULL, k, fifth)
    _wreg_vecs(v0, v1, v2, v3, M, k, res)


cdef inline void _mp(int* o, const uint8_t* a, const uint8_t* b, int M) noexcept nogil:
    """o[2m + p] (m <= M) = min-plus product of two distance vectors."""
    cdef int m, i, v0, v1, t
    for m in range(M + 1):
        v0 = BIG
        v1 = BIG
        for i in range(m + 1):
            t = a[2 * i] + b[2 * (m - i)]
            v0 = t if t < v0 else v0
            t = a[2 * i] + b[2 * (m - i) + 1]
            v1 = t if t < v1 else v1
            t = a[2 * i + 1] + b[2 * (m - i)]
            v1 = t if t < v1 else v1
        o[2 * m] = v0
        o[2 * m + 1] = v1


cdef int _plain_reg(const uint8_t* c, int M) noexcept nogil:
    """The regular distance without wildcards: a wildcard lowers a distance by
    at most one, so this less k bounds the distance with k from below."""
    cdef int ab[10]
    cdef int ch[10]
    cdef int m, t, best = BIG
    _mp(ab, _dist + _key9(c) * 10, _dist + _key9(c + 9) * 10, M)
    _mp(ch, _dist + _key9(c + 18) * 10, _hdist + _key7(c + 27) * 10, M)
    for m in range(M + 1):
        t = ab[2 * m] + ch[2 * (M - m) + 1]
        best = t if t < best else best
        t = ab[2 * m + 1] + ch[2 * (M - m)]
        best = t if t < best else best
    return best


cdef int _wshanten(const uint8_t* c, int melds, int form, int k, bint fifth, const uint8_t* cp) noexcept nogil:
    """Shanten of c + k wildcards: the least shanten over the substitutions
    (no fifth copy unless `fifth`), in one form or all (form < 0).  cp: the
    most copies of each kind a substitution may reach (4 less the copies in
    melds), or NULL for 4.

    No hand needs fewer than `floor` tiles (14 less its size), so the closed
    forms come first and the search stops once a form reaches it; the
    regular form and each knitted arrangement are skipped when their
    distance without wildcards, less k, cannot beat the best so far."""
    cdef int best = BIG, v, a, j, t, i, pairs, odd, kinds, pair, hon, use, fill, miss, floor
    cdef int res[KROOM]
    cdef int got[6]
    cdef int rh[10]
    cdef int vh[KROOM * 10]
    cdef int vk[9][KROOM * 10]
    cdef int done[9]
    cdef int ab[10]
    cdef int cd[10]
    cdef uint64_t p
    cdef uint8_t rest[34]
    cdef uint8_t rcap[34]
    cdef int s, r0, r1, r2, q
    floor = 14 - (_ntiles(c, 34) + k + 3 * melds)
    if floor < 0:
        floor = 0
    p = _present(c)
    if melds == 0:
        if form < 0 or form == 1:
            # seven pairs (as the shape count: four of a kind are two pairs):
            # a wildcard on an odd count makes a pair, two make a new one
            pairs = 0
            odd = 0
            for t in range(34):
                pairs += c[t] >> 1
                odd += c[t] & 1
            use = k if k < odd else odd
            v = 7 - pairs - use - (k - use) // 2
            if v < best:
                best = v
        if form < 0 or form == 2:
            # thirteen orphans: each wildcard adds a missing orphan or the pair
            kinds = 0
            pair = 0
            for i in range(34):
                if (ORPHAN_MASK >> i) & 1 and c[i]:
                    kinds += 1
                    if c[i] >= 2:
                        pair = 1
            v = 14 - kinds - pair
            use = 13 - kinds + 1 - pair
            v -= k if k < use else use
            if v < best:
                best = v
    if (melds == 0 and (form < 0 or form == 3)) or (melds <= 1 and (form < 0 or form == 4)):
        _knit_got(p, got)
    if melds == 0 and (form < 0 or form == 3):
        # honors and knitted: each wildcard adds one of the missing 16 - held
        hon = 0
        for t in range(27, 34):
            hon += c[t] != 0
        for a in range(6):
            v = 14 - hon - got[a]
            use = 16 - hon - got[a]
            v -= k if k < use else use
            if v < best:
                best = v
    if best <= floor:
        return best - 1
    if form < 0 or form == 0:
        if _plain_reg(c, 4 - melds) - k < best:
            _wreg_dist(c, 4 - melds, k, fifth, cp, res)
            if res[k] < best:
                best = res[k]
            if best <= floor:
                return best - 1
    if melds > 1 or not (form < 0 or form == 4):
        return best - 1
    # knitted straight: j wildcards go to the rest, the others to the missing
    # arrangement tiles.  The rest of suit s under triple q (ranks q, q+3,
    # q+6, one copy of each held one set aside) serves two arrangements: its
    # vector is made once, when first needed.
    for i in range(10):
        rh[i] = _hdist[_key7(c + 27) * 10 + i]
    for i in range(9):
        done[i] = 0
    memcpy(rest, c, 34)
    if cp != NULL:
        memcpy(rcap, cp, 34)
    else:
        memset(rcap, 4, 34)
    _part_vec_at(vh, c + 27, 7, cp + 27 if cp != NULL else NULL, k, fifth)
    for a in range(6):
        miss = 9 - got[a]
        if miss - k >= best:
            continue
        # the bound without wildcards: the rest's plain distance from the
        # three suits' rest keys (no table walk)
        s = KNIT_SUIT[a][0]
        r0 = _rest_key(c, s, 0)
        s = KNIT_SUIT[a][1]
        r1 = _rest_key(c, s, 1)
        s = KNIT_SUIT[a][2]
        r2 = _rest_key(c, s, 2)
        _mp(ab, _dist + r0 * 10, _dist + r1 * 10, 1 - melds)
        _mp(cd, _dist + r2 * 10, _hdist + _key7(c + 27) * 10, 1 - melds)
        v = BIG
        for q in range(2 - melds):
            t = ab[2 * q] + cd[2 * (1 - melds - q) + 1]
            v = t if t < v else v
            t = ab[2 * q + 1] + cd[2 * (1 - melds - q)]
            v = t if t < v else v
        if miss + v - k >= best:
            continue
        # missing tiles a wildcard may stand for (a kind whose copies are all
        # in melds may not); the rest may take one copy less of each
        # arrangement tile than the hand (the arrangement holds one)
        fill = 0
        for j in range(9):
            t = KNIT_TILES[a][j]
            if c[t] == 0 and (cp == NULL or cp[t] > 0):
                fill += 1
        for j in range(3):
            s = KNIT_SUIT[a][j]
            q = s * 3 + j
            if not done[q]:
                for i in range(9):
                    rest[s * 9 + i] = c[s * 9 + i]
                    rcap[s * 9 + i] = cp[s * 9 + i] if cp != NULL else 4
                for i in range(j, 9, 3):
                    if rest[s * 9 + i]:
                        rest[s * 9 + i] -= 1
                    if rcap[s * 9 + i] > 0:
                        rcap[s * 9 + i] -= 1
                # with no melded copy the table's four-copy rule stands (a
                # rest never uses a fourth copy of an arrangement tile: one
                # meld and a pair hold at most three of a kind)
                _part_vec_at(vk[q], rest + s * 9, 9, rcap + s * 9 if cp != NULL else NULL, k, fifth)
                done[q] = 1
        _wreg_vecs(vk[KNIT_SUIT[a][0] * 3], vk[KNIT_SUIT[a][1] * 3 + 1], vk[KNIT_SUIT[a][2] * 3 + 2], vh,
                   1 - melds, k, res)
        for j in range(k + 1):
            use = k - j
            if use > fill:
                use = fill
            v = miss - (use if use < miss else miss) + res[j]
            if v < best:
                best = v
        if best <= floor:
            return best - 1
    return best - 1


cdef inline int _rest_key(const uint8_t* c, int s, int q) noexcept nogil:
    """Key of suit s less one copy of each held tile of its triple q."""
    cdef int key = _key9(c + 9 * s), r
    for r in range(q, 9, 3):
        if c[9 * s + r]:
            key -= P5[r]
    return key


cdef uint64_t _wwaits(const uint8_t* c, int melds, int k, bint fifth) noexcept nogil:
    """Waits of a 13 - 3 melds tile hand (real + k wildcards): bit t = drawing
    a real t completes it (c[t] < 4), bit 34 = drawing a wildcard does."""
    cdef uint8_t tmp[34]
    cdef uint64_t out = 0
    cdef int t
    memcpy(tmp, c, 34)
    for t in range(34):
        if c[t] < 4:
            tmp[t] += 1
            if _wis_win(tmp, melds, k, fifth):
                out |= (<uint64_t>1) << t
            tmp[t] -= 1
    if fifth:
        if _wis_win(c, melds, k + 1, True):
            out |= (<uint64_t>1) << 34
    elif out:
        # a drawn wildcard stands for some tile with a copy left: it wins
        # exactly when some real tile would
        out |= (<uint64_t>1) << 34
    return out


cdef uint64_t _wuseful(const uint8_t* c, int melds, int form, int k, bint fifth, const uint8_t* cp,
                       int* sh) noexcept nogil:
    """Tiles (bit t, c[t] below 4, or below cp[t]) whose draw lowers the
    shanten; bit 34: a drawn wildcard does.  cp: as _wshanten."""
    cdef uint8_t tmp[34]
    cdef uint64_t out = 0
    cdef int t, base = _wshanten(c, melds, form, k, fifth, cp)
    sh[0] = base
    memcpy(tmp, c, 34)
    for t in range(34):
        if c[t] < (cp[t] if cp != NULL else 4):
            tmp[t] += 1
            if _wshanten(tmp, melds, form, k, fifth, cp) < base:
                out |= (<uint64_t>1) << t
            tmp[t] -= 1
    if fifth:
        if _wshanten(c, melds, form, k + 1, True, NULL) < base:
            out |= (<uint64_t>1) << 34
    elif out:
        out |= (<uint64_t>1) << 34
    return out


# ---------------------------------------------------------------------------
# entry points (mjfast/wild.py validates; these re-check cheaply)
# ---------------------------------------------------------------------------

cdef int _row_err(const uint8_t* c, int k, int melds, int mode) noexcept nogil:
    """Error code (mjfast.core.ERROR_MESSAGES) of real counts c + k
    wildcards beside melds; mode 0: 14 tiles counting 3 per meld, 1: 13,
    2: either."""
    cdef int t, total = k + 3 * melds
    for t in range(34):
        if c[t] > 4:
            return 1
        total += c[t]
    if melds < 0 or melds > 4:
        return 3
    if k < 0 or k > KMAX:
        return 5
    if (mode == 0 and total != 14) or (mode == 1 and total != 13) or (mode == 2 and total != 13 and total != 14):
        return 2
    return 0


cdef int _take(const uint8_t[::1] src, uint8_t* h, int k, int melds, int mode) except -1:
    cdef int e
    if src.shape[0] != 34:
        raise ValueError(f"counts must have 34 entries, got {src.shape[0]}")
    memcpy(h, &src[0], 34)
    e = _row_err(h, k, melds, mode)
    if e:
        raise ValueError(f"bad wildcard hand (error {e}): {_core_msg(e)}")
    return 0


cdef str _core_msg(int e):
    return {1: "a tile count above 4", 2: "wrong number of tiles for the number of melds",
            3: "melds must be 0..4", 5: f"wildcards must be 0..{KMAX}"}.get(e, "bad input")


cdef int _nthreads(int n) except -1:
    cdef int cap = mjfast_num_procs()
    if n < 1:
        raise ValueError(f"nthreads must be >= 1, got {n}")
    return n if n <= cap else (cap if cap >= 1 else 1)


def is_win_one(const uint8_t[::1] c, int k, int melds, bint fifth):
    """c (real counts) + k wildcards (14 - 3 melds tiles) complete a hand."""
    cdef uint8_t h[34]
    _need_win()
    _take(c, h, k, melds, 0)
    return bool(_wis_win(h, melds, k, fifth))


def shanten_one(const uint8_t[::1] c, int k, int melds, int form, bint fifth, caps=None):
    """Shanten of c + k wildcards (13 or 14 - 3 melds tiles).  ``caps``: 34
    counts, the most concealed copies of each kind (4 less the copies in
    melds; None: 4); ignored with ``fifth``."""
    cdef uint8_t h[34]
    cdef uint8_t cp[34]
    if not -1 <= form <= 4:
        raise ValueError(f"form must be -1..4, got {form}")
    _need_steps()
    _take(c, h, k, melds, 2)
    if _take_caps(caps, cp) and not fifth:
        return _wshanten(h, melds, form, k, fifth, cp)
    return _wshanten(h, melds, form, k, fifth, NULL)


cdef bint _take_caps(caps, uint8_t* cp) except -1:
    """Copy caps (34 counts, each clipped to 4) into cp; False for None."""
    cdef const uint8_t[::1] cv
    cdef int t
    if caps is None:
        return False
    cv = caps
    if cv.shape[0] != 34:
        raise ValueError(f"caps must have 34 entries, got {cv.shape[0]}")
    for t in range(34):
        cp[t] = cv[t] if cv[t] < 4 else 4
    return True


def waits_one(const uint8_t[::1] c, int k, int melds, bint fifth):
    """Waits of c + k wildcards (13 - 3 melds tiles) as a 35-bit int (bit 34:
    a wildcard)."""
    cdef uint8_t h[34]
    _need_win()
    _take(c, h, k, melds, 1)
    return _wwaits(h, melds, k, fifth)


def useful_one(const uint8_t[::1] c, int k, int melds, int form, bint fifth, caps=None):
    """(shanten, useful tiles as a 35-bit int; bit 34: a wildcard); ``caps``
    as shanten_one (a kind at its cap is not useful either)."""
    cdef uint8_t h[34]
    cdef uint8_t cp[34]
    cdef int sh
    cdef uint64_t m
    if not -1 <= form <= 4:
        raise ValueError(f"form must be -1..4, got {form}")
    _need_steps()
    _take(c, h, k, melds, 1)
    if _take_caps(caps, cp) and not fifth:
        m = _wuseful(h, melds, form, k, fifth, cp, &sh)
    else:
        m = _wuseful(h, melds, form, k, fifth, NULL, &sh)
    return sh, m


def win_substitutions(const uint8_t[::1] c, int k, int melds, Py_ssize_t limit=-1, caps=None):
    """Every substitution (34 counts: what the wildcards stand for, no count
    past 4) under which c + k wildcards complete a hand, in lexicographic
    order of the substituted tiles.  A depth-first walk over the kinds,
    pruned by the win check (the wildcards still to place may stand for
    anything), so every branch kept leads to at least one answer.  limit >= 0:
    stop after that many.  ``caps``: 34 counts, the most concealed copies of
    each kind (4 less the copies in melds; default 4): with caps below 4 a
    branch may end without an answer, never with a wrong one."""
    cdef uint8_t h[34]
    cdef uint8_t cur[34]
    cdef uint8_t cp[34]
    cdef const uint8_t[::1] cv
    cdef int t
    _need_win()
    _take(c, h, k, melds, 0)
    memset(cp, 4, 34)
    if caps is not None:
        cv = caps
        if cv.shape[0] != 34:
            raise ValueError(f"caps must have 34 entries, got {cv.shape[0]}")
        for t in range(34):
            cp[t] = cv[t] if cv[t] < 4 else 4
    out = []
    if not _wis_win(h, melds, k, False):
        return out
    memcpy(cur, h, 34)
    _subs_walk(h, cur, cp, 0, k, melds, out, limit)
    return out


cdef int _subs_walk(const uint8_t* c, uint8_t* cur, const uint8_t* cp, int t, int left, int melds, list out,
                    Py_ssize_t limit) except -1:
    cdef int x, cap, i
    if limit >= 0 and len(out) >= limit:
        return 0
    if left == 0:
        out.append(bytes([cur[i] - c[i] for i in range(34)]))
        return 0
    if t == 34:
        return 0
    cap = min(left, <int>cp[t] - <int>cur[t])
    if cap < 0:
        cap = 0
    # more copies of t first: the walk's answers then come in lexicographic
    # order of the substituted tiles read as a sorted tuple
    for x in range(cap, -1, -1):
        cur[t] += x
        if _wis_win(cur, melds, left - x, False):
            _subs_walk(c, cur, cp, t + 1, left - x, melds, out, limit)
        cur[t] -= x
    return 0


def is_win_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] ks, const int64_t[::1] melds_given,
                 bint has_given, bint fifth, uint8_t[::1] out, uint8_t[::1] err, int nthreads):
    """out[i] = row i + ks[i] wildcards is complete; err[i] = error code (0 ok).
    Melds: melds_given[i] when has_given, else implied by the size.  Returns
    the number of bad rows."""
    _need_win()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t i, n = hands.shape[0]
    if hands.shape[1] != 34:
        raise ValueError("hands must have 34 columns")
    if ks.shape[0] != n or out.shape[0] != n or err.shape[0] != n or (has_given and melds_given.shape[0] != n):
        raise ValueError("ks, out, err and melds must have one entry per row")
    cdef int bad = 0
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _win_row(&hands[i, 0], ks[i], &melds_given[i] if has_given else NULL, fifth, &out[i])
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='static'):
            err[i] = _win_row(&hands[i, 0], ks[i], &melds_given[i] if has_given else NULL, fifth, &out[i])
    for i in range(n):
        bad += err[i] != 0
    return bad


cdef inline int _melds_of(const uint8_t* c, int k, const int64_t* given) noexcept nogil:
    cdef int64_t g
    cdef int s
    if given != NULL:
        g = given[0]
        return <int>g if -1 <= g <= 5 else 5
    s = _ntiles(c, 34) + k
    return (14 - s) // 3 if s % 3 == 2 else (13 - s) // 3


cdef inline int _win_row(const uint8_t* src, int k, const int64_t* given, bint fifth, uint8_t* out) noexcept nogil:
    cdef uint8_t c[34]
    cdef int e, m
    memcpy(c, src, 34)
    m = _melds_of(c, k, given)
    e = _row_err(c, k, m, 0)
    out[0] = 0 if e else _wis_win(c, m, k, fifth)
    return e


cdef inline int _shanten_row(const uint8_t* src, int k, const int64_t* given, int form, bint fifth,
                             int8_t* out) noexcept nogil:
    cdef uint8_t c[34]
    cdef int e, m
    memcpy(c, src, 34)
    m = _melds_of(c, k, given)
    e = _row_err(c, k, m, 2)
    if not e and ((form in (1, 2, 3) and m > 0) or (form == 4 and m > 1)):
        e = 6
    out[0] = -128 if e else _wshanten(c, m, form, k, fifth, NULL)
    return e


cdef inline int _waits_row(const uint8_t* src, int k, const int64_t* given, bint fifth, uint8_t* out) noexcept nogil:
    cdef uint8_t c[34]
    cdef int e, m, t
    cdef uint64_t w = 0
    memcpy(c, src, 34)
    m = _melds_of(c, k, given)
    e = _row_err(c, k, m, 1)
    if not e:
        w = _wwaits(c, m, k, fifth)
    for t in range(35):
        out[t] = (w >> t) & 1
    return e


def shanten_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] ks, const int64_t[::1] melds_given,
                  bint has_given, int form, bint fifth, int8_t[::1] out, uint8_t[::1] err, int nthreads):
    """out[i] = shanten of row i + ks[i] wildcards (-128 and err[i] != 0 for a
    bad row; 6 = the form does not apply beside its melds)."""
    if not -1 <= form <= 4:
        raise ValueError(f"form must be -1..4, got {form}")
    _need_steps()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t i, n = hands.shape[0]
    if hands.shape[1] != 34:
        raise ValueError("hands must have 34 columns")
    if ks.shape[0] != n or out.shape[0] != n or err.shape[0] != n or (has_given and melds_given.shape[0] != n):
        raise ValueError("ks, out, err and melds must have one entry per row")
    cdef int bad = 0
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _shanten_row(&hands[i, 0], ks[i], &melds_given[i] if has_given else NULL, form, fifth, &out[i])
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=1024):
            err[i] = _shanten_row(&hands[i, 0], ks[i], &melds_given[i] if has_given else NULL, form, fifth, &out[i])
    for i in range(n):
        bad += err[i] != 0
    return bad


def waits_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] ks, const int64_t[::1] melds_given,
                bint has_given, bint fifth, uint8_t[:, ::1] out, uint8_t[::1] err, int nthreads):
    """out[i, t] = drawing t completes row i + ks[i] wildcards; column 34: a
    drawn wildcard does."""
    _need_win()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t i, n = hands.shape[0]
    if hands.shape[1] != 34 or out.shape[1] != 35:
        raise ValueError("hands must have 34 columns and out 35")
    if ks.shape[0] != n or out.shape[0] != n or err.shape[0] != n or (has_given and melds_given.shape[0] != n):
        raise ValueError("ks, out, err and melds must have one entry per row")
    cdef int bad = 0
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _waits_row(&hands[i, 0], ks[i], &melds_given[i] if has_given else NULL, fifth, &out[i, 0])
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=1024):
            err[i] = _waits_row(&hands[i, 0], ks[i], &melds_given[i] if has_given else NULL, fifth, &out[i, 0])
    for i in range(n):
        bad += err[i] != 0
    return bad
