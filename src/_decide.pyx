# cython: language_level=3, cdivision=True
"""mjfast._decide: the decisions a bot asks for, one hand at a time.

Shanten and useful tiles of one hand, the ranking of its discards
(best_discards; discards_batch for many), from the lookup tables of
mjfast._tables and the useful-tile tables built here (kind "dec" of the disk
cache).  Its C interface for the self-play policies of mjfast._game:
src/mjfast/_decide.pxd (need_decisions, rank_discards, Choice).
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
cimport cython
from cython.parallel cimport prange
import threading

import numpy as np
cimport numpy as cnp

cnp.import_array()

from fankernel.tiles cimport *
from fankernel.forms cimport *
from mjfast._tablecache cimport TableSet, NSECT, cache_read, cache_store, set_source
from handkernel.tables cimport _need_tables, _need_exact, _dist, _hdist, P5, NKEY, NHKEY, BIG
from handkernel.win cimport *
from handkernel.shanten cimport *
from handkernel.guards cimport *
from argcheck cimport _check_len, _check_rows

_init_tile_order()
_init_forms()

_dec_lock = threading.Lock()
_OWNER = __file__       # the "dec" cache file is keyed by this module's file


# ---------------------------------------------------------------------------
# Per-call decisions for bots.
#
# A bot asks about one hand at a time, so the cost of a call is the cost of
# reading the caller's array plus the kernel.  Three things keep it small:
#
# * one typed conversion pass (_conv34) for every input kind: a list or tuple
#   of 34 Python ints, a 1-D numpy array of any integer dtype and any stride;
#   anything else (strings, Hand objects, bad values) goes to the Python
#   front end in mjfast/core.py, which parses it or names what is wrong;
# * useful tiles from the per-suit tables: the min-plus combination of the
#   four parts also says which (melds, pair) entry of each part is tight, and
#   a tile is useful exactly when it lowers a tight entry of its part (one
#   table load per tile instead of one shanten per tile);
# * best_discards as one compiled call: the four parts of the 14-3k hand are
#   loaded once with their neighbours, and each discard reloads only the part
#   it comes from.

from cpython.object cimport PyObject


cdef extern from "seq34.h":
    int mjfast_seq34(PyObject* h, uint8_t* out)
    int mjfast_ints_init() except -1
cdef extern from "bits.h":
    void _prefetch "mjfast_prefetch"(const void* p) nogil
cdef extern from "discard.h":
    object mjfast_discard_type_get()
    object mjfast_discard_new(int t, int sh, int kinds, int left)


cdef uint64_t ALL34 = 0x3FFFFFFFF
cdef uint64_t HONOR_BITS = 0x3F8000000    # tiles 27-33

cdef uint64_t ORPHAN_BITS = 0
for _t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
    ORPHAN_BITS |= (<uint64_t>1) << _t

Discard = mjfast_discard_type_get()
mjfast_ints_init()


# ---------------------------------------------------------------------------
# input: one typed pass
# ---------------------------------------------------------------------------

cdef int _conv34(object h, uint8_t* out) except -1:
    """1 when ``h`` holds 34 counts 0..4 (now in ``out``), else 0."""
    cdef cnp.ndarray a
    cdef Py_ssize_t st, i
    cdef const char* p
    cdef int tn
    cdef int64_t v
    if mjfast_seq34(<PyObject*>h, out):
        return 1
    if not cnp.PyArray_CheckExact(h):
        return 0
    a = <cnp.ndarray>h
    if cnp.PyArray_NDIM(a) != 1 or cnp.PyArray_DIMS(a)[0] != 34 or not cnp.PyArray_ISNOTSWAPPED(a):
        return 0
    if not cnp.PyArray_ISINTEGER(a) or cnp.PyArray_TYPE(a) == cnp.NPY_BOOL:
        return 0
    # the width and signedness of the dtype pick the read
    tn = cnp.PyArray_ITEMSIZE(a) * (1 if cnp.PyArray_ISUNSIGNED(a) else -1)
    st = cnp.PyArray_STRIDES(a)[0]
    p = <const char*>cnp.PyArray_BYTES(a)
    for i in range(34):
        if tn == 1:
            v = (<const uint8_t*>(p + i * st))[0]
        elif tn == -1:
            v = (<const int8_t*>(p + i * st))[0]
        elif tn == -8:
            v = (<const int64_t*>(p + i * st))[0]
        elif tn == -4:
            v = (<const int32_t*>(p + i * st))[0]
        elif tn == 8:
            # above 2**63 reads negative: refused below like any bad count
            v = <int64_t>(<const uint64_t*>(p + i * st))[0]
        elif tn == 4:
            v = (<const uint32_t*>(p + i * st))[0]
        elif tn == -2:
            v = (<const int16_t*>(p + i * st))[0]
        elif tn == 2:
            v = (<const uint16_t*>(p + i * st))[0]
        else:
            return 0
        if v < 0 or v > 4:
            return 0
        out[i] = <uint8_t>v
    return 1


cdef inline int _melds_of(object melds, int n, int sizes) noexcept:
    """The melds of a fast call (given: an exact int 0..4; or implied by the
    n concealed tiles), or -1 when the Python front end must look at it.
    sizes: 0 = complete (14-3k), 1 = ready (13-3k), 2 = either."""
    cdef long m
    cdef int total
    if melds is None:
        if n % 3 == 2:
            m = (14 - n) // 3
        elif n % 3 == 1:
            m = (13 - n) // 3
        else:
            return -1
        if m < 0:
            return -1
    elif type(melds) is int:
        m = melds
        if m < 0 or m > 4:
            return -1
    else:
        return -1
    total = n + 3 * m
    if (sizes == 0 and total != 14) or (sizes == 1 and total != 13) or (sizes == 2 and total != 13 and total != 14):
        return -1
    return m


cdef inline int _form_of(object form) noexcept:
    """Form code of a fast call, -1 = every form, -2 = let Python check it."""
    if form is None:
        return -1
    if type(form) is not str:
        return -2
    if form == "regular":
        return 0
    if form == "seven_pairs":
        return 1
    if form == "thirteen_orphans":
        return 2
    if form == "honors_knitted":
        return 3
    if form == "knitted_straight":
        return 4
    return -2


cdef inline list _mask_list(uint64_t m):
    cdef list out = []
    while m:
        out.append(<long>_ctz64(m))
        m &= m - 1
    return out


cdef extern from "bits.h":
    int _ctz64 "mjfast_ctz64"(uint64_t x) nogil


cdef extern from "bigalloc.h":
    void* _big_alloc "mjfast_big_alloc"(size_t n) nogil


# ---------------------------------------------------------------------------
# shanten with its useful tiles, from the per-suit tables
# ---------------------------------------------------------------------------

# Which tiles lower each entry of a part's distance vector: for every key
# of at most 13 tiles, entry e = m * 2 + p gets a 9-bit mask (bit i: adding
# tile i lowers it), entries 0-6 packed in the first 64-bit word and 7-9 in
# bits 0-26 of the second.  One load per part then answers "which tiles are
# useful" where 9 neighbour loads would each miss the cache.
#
# Bits 27-47 of the second word serve the knitted straight: for each knitted
# triple j of a suit (ranks j, j+3, j+6), the distances of the suit's rest
# once one copy of each held tile of the triple is set aside, for a pair
# (2 bits), one meld (2 bits) and one meld + a pair (3 bits).  A knitted
# straight's distance is then read from the records best_discards has
# already loaded, instead of three more random loads per suit.
#
# 16 bytes a key (a record never straddles a cache line).  Built on the
# first useful-tile query (31 MB), not at import, or read from
# the disk cache (mjfast._tablecache, kind "dec") when an earlier process
# saved them.
cdef uint8_t* _dec = NULL
cdef uint8_t* _hdec = NULL
DEF DEC = 16        # bytes per record
DEF KNIT_SHIFT = 27


cdef void _build_dec(uint8_t* dec, const uint8_t* dist, int n, int nkey) noexcept nogil:
    cdef int c[9]
    cdef int key, i, s, e, j, r, kk
    cdef uint64_t lo, hi
    cdef const uint8_t* v
    cdef const uint8_t* nb
    memset(c, 0, sizeof(c))
    s = 0
    for key in range(nkey):
        if key > 0:                         # odometer increment of the counts
            i = 0
            while c[i] == 4:
                c[i] = 0
                s -= 4
                i += 1
            c[i] += 1
            s += 1
        lo = 0
        hi = 0
        if s <= 13:
            v = dist + key * 10
            for i in range(n):
                if c[i] == 4:
                    continue
                nb = dist + (key + P5[i]) * 10
                for e in range(7):
                    if nb[e] < v[e]:
                        lo |= (<uint64_t>1) << (9 * e + i)
                for e in range(7, 10):
                    if nb[e] < v[e]:
                        hi |= (<uint64_t>1) << (9 * (e - 7) + i)
            if n == 9:
                for j in range(3):
                    kk = key
                    for r in range(j, 9, 3):
                        if c[r]:
                            kk -= P5[r]
                    nb = dist + kk * 10
                    # entries m * 2 + p: 1 = a pair, 2 = a meld, 3 = both
                    hi |= ((<uint64_t>nb[1]) | (<uint64_t>nb[2] << 2) | (<uint64_t>nb[3] << 4)) << (KNIT_SHIFT + 7 * j)
        memcpy(dec + key * DEC, &lo, 8)
        memcpy(dec + key * DEC + 8, &hi, 8)


cdef void _dec_sections(TableSet* t) noexcept nogil:
    """The useful-tile tables as sections of the disk cache (mjfast._tablecache)."""
    cdef int i
    for i in range(NSECT):
        t.p[i] = NULL
        t.n[i] = 0
        t.big[i] = False
    t.count = 2
    t.n[0] = NKEY * DEC
    t.big[0] = True
    t.n[1] = NHKEY * DEC


cdef int _need_dec() except -1:
    global _dec, _hdec
    cdef uint8_t* dec
    cdef uint8_t* hdec
    cdef TableSet t
    if _dec != NULL:
        return 0
    _need_tables()
    with _dec_lock:
        if _dec != NULL:
            return 0
        _dec_sections(&t)
        if cache_read("dec", &t, _OWNER):
            _hdec = <uint8_t*>t.p[1]
            _dec = <uint8_t*>t.p[0]
            set_source("dec", "cache")
            return 0
        dec = <uint8_t*>_big_alloc(NKEY * DEC)
        hdec = <uint8_t*>malloc(NHKEY * DEC)
        if dec == NULL or hdec == NULL:
            free(dec); free(hdec)
            raise MemoryError("mjfast: cannot allocate the useful-tile tables")
        with nogil:
            _build_dec(dec, _dist, 9, NKEY)
            _build_dec(hdec, _hdist, 7, NHKEY)
        _hdec = hdec
        _dec = dec          # published last: its test is the "built" flag
        set_source("dec", "built")
        t.p[0] = dec
        t.p[1] = hdec
        cache_store("dec", &t, _OWNER)
    return 0


cdef inline uint32_t _dec_mask(const uint8_t* rec, int e) noexcept nogil:
    cdef uint64_t w
    if e < 7:
        memcpy(&w, rec, 8)
        return <uint32_t>((w >> (9 * e)) & 0x1FF)
    memcpy(&w, rec + 8, 8)
    return <uint32_t>((w >> (9 * (e - 7))) & 0x1FF)


cdef inline void _knit_rest_vec(int* V, const uint8_t* rec, int j) noexcept nogil:
    """The distance vector (m <= 1, [p * 5 + m] layout) of a suit's rest
    after its knitted triple j, from the suit's record."""
    cdef uint64_t w
    memcpy(&w, rec + 8, 8)
    w >>= KNIT_SHIFT + 7 * j
    V[0] = 0
    V[1] = <int>((w >> 2) & 3)
    V[5] = <int>(w & 3)
    V[6] = <int>((w >> 4) & 7)


cdef struct Part:
    int key
    int n                   # 9 tiles (a suit) or 7 (honors)
    const uint8_t* v        # the part's distance vector (10 entries, [m * 2 + p])
    const uint8_t* dec      # its record in _dec / _hdec


cdef inline void _part_at(Part* P, int key, int n) noexcept nogil:
    P.key = key
    P.n = n
    if n == 9:
        P.v = _dist + key * 10
        P.dec = _dec + key * DEC
    else:
        P.v = _hdist + key * 10
        P.dec = _hdec + key * DEC
    _prefetch(P.v)
    _prefetch(P.dec)


cdef inline void _part_load(Part* P, const uint8_t* c, int n) noexcept nogil:
    cdef int i, key = 0
    for i in range(n - 1, -1, -1):
        key = key * 5 + c[i]
    _part_at(P, key, n)


cdef extern from "minplus.h":
    # Min-plus product of two vectors in [p * 5 + m] layout, up to M melds
    # (entries start at BIG = 60).
    void _mp2 "mjfast_mp2"(int* o, const int* a, const int* b, int M) nogil


cdef int _regular_parts(Part** P, int M, uint64_t* mask) noexcept nogil:
    """Distance (tiles to add) of M melds + a pair over four parts, and the
    tiles that lower it: those lowering a tight entry of their part."""
    cdef int V[4][10]
    cdef int AB[10]
    cdef int CD[10]
    cdef int O[4][10]
    cdef int j, m, e, base = BIG, v, off
    cdef uint64_t out = 0
    for j in range(4):
        for m in range(M + 1):
            V[j][m] = P[j].v[m * 2]
            V[j][5 + m] = P[j].v[m * 2 + 1]
    _mp2(AB, V[0], V[1], M)
    _mp2(CD, V[2], V[3], M)
    _mp2(O[0], V[1], CD, M)
    _mp2(O[1], V[0], CD, M)
    _mp2(O[2], AB, V[3], M)
    _mp2(O[3], AB, V[2], M)
    for m in range(M + 1):
        v = AB[m] + CD[5 + M - m]
        base = v if v < base else base
        v = AB[5 + m] + CD[M - m]
        base = v if v < base else base
    off = 0
    for j in range(4):
        e = 0
        for m in range(M + 1):
            if V[j][m] + O[j][5 + M - m] == base:
                e |= <int>_dec_mask(P[j].dec, m * 2)
            if V[j][5 + m] + O[j][M - m] == base:
                e |= <int>_dec_mask(P[j].dec, m * 2 + 1)
        out |= (<uint64_t>e) << off
        off += 9
    mask[0] = out
    return base


# ---------------------------------------------------------------------------
# the other forms, from bit planes
# ---------------------------------------------------------------------------

# The special forms depend on which tiles are held once, twice, ... and not
# on the suits' keys, so they read four 34-bit planes (eq[v]: tiles held
# exactly v times).  A discard moves one bit from eq[v] to eq[v - 1]: every
# special form of every discard is then a handful of popcounts, where a
# pass over the 34 counts per form per discard cost more than the regular
# form itself.

cdef inline void _planes_of(const uint8_t* c, uint64_t* eq) noexcept nogil:
    eq[0] = 0
    eq[1] = _eq34(c, 1)
    eq[2] = _eq34(c, 2)
    eq[3] = _eq34(c, 3)
    eq[4] = _eq34(c, 4)


cdef inline void _knit_load(Part* K, const Part* S, uint64_t pres9) noexcept nogil:
    """K[j] = suit part S less one copy of each held tile (pres9: the suit's
    held tiles as 9 bits) of its knitted triple j (ranks j, j+3, j+6): the
    suit's share of a knitted straight's rest.  Three keys per suit serve
    all six arrangements.  K[j].key = -1 marks an empty slot."""
    cdef int j, r, key
    for j in range(3):
        key = S.key
        for r in range(j, 9, 3):
            if (pres9 >> r) & 1:
                key -= P5[r]
        # best_discards keeps K between discards: a suit the discard did
        # not touch keeps its three rests
        if K[j].key != key or K[j].n != 9:
            _part_at(&K[j], key, 9)


cdef int _special_useful(const uint64_t* eq, int melds, int form, int dreg, uint64_t mreg,
                         Part** P, Part* K, uint64_t* mask) noexcept nogil:
    """Add the other forms to the regular answer (dreg, mreg): returns the
    distance over the forms asked for and leaves in ``mask`` the tiles that
    lower it (the union over the forms that reach it).  eq: the hand's bit
    planes; P: its four parts; K: room for the knitted rests of its three
    suits (K[s * 3 + j]), loaded only when a knitted straight reaches the
    distance (for its useful tiles)."""
    cdef int d7 = BIG, d13 = BIG, dhk = BIG, a, j, q, mk, v, rd, hon = 0, best = dreg
    cdef int KV[4][10]
    cdef int KA[10]
    cdef int KB[10]
    cdef int dks[6]
    cdef int got[6]
    cdef uint64_t pres, ge2, out, m
    cdef Part* R[4]
    cdef bint loaded
    cdef bint seven = melds == 0 and (form < 0 or form == 1)
    cdef bint orph = melds == 0 and (form < 0 or form == 2)
    cdef bint hk = melds == 0 and (form < 0 or form == 3)
    cdef bint ks = melds <= 1 and (form < 0 or form == 4)
    ge2 = eq[2] | eq[3] | eq[4]
    pres = eq[1] | ge2
    if seven:
        # four of a kind counts as two pairs, as in the reference
        d7 = 7 - _popcount64(ge2) - _popcount64(eq[4])
        best = d7 if d7 < best else best
    if orph:
        d13 = 14 - _popcount64(pres & ORPHAN_BITS) - (1 if ge2 & ORPHAN_BITS else 0)
        best = d13 if d13 < best else best
    if hk or ks:
        for a in range(6):
            got[a] = _popcount64(pres & KNIT_MASK[a])
    if hk:
        hon = _popcount64(pres & HONOR_BITS)
        for a in range(6):
            if 14 - hon - got[a] < dhk:
                dhk = 14 - hon - got[a]
        best = dhk if dhk < best else best
    for a in range(6):
        dks[a] = BIG
    if ks:
        R[3] = P[3]
        loaded = False
        mk = 1 - melds
        for q in range(mk + 1):
            KV[3][q] = P[3].v[q * 2]
            KV[3][5 + q] = P[3].v[q * 2 + 1]
        for a in range(6):
            # 9 - got is a lower bound: most arrangements stop here
            if 9 - got[a] > best:
                continue
            # the rest's distance from the suits' own records (no new load)
            for j in range(3):
                _knit_rest_vec(KV[KNIT_SUIT[a][j]], P[KNIT_SUIT[a][j]].dec, j)
            _mp2(KA, KV[0], KV[1], mk)
            _mp2(KB, KV[2], KV[3], mk)
            rd = BIG
            for q in range(mk + 1):
                v = KA[q] + KB[5 + mk - q]
                rd = v if v < rd else rd
                v = KA[5 + q] + KB[mk - q]
                rd = v if v < rd else rd
            dks[a] = (9 - got[a]) + rd
            best = dks[a] if dks[a] < best else best
    out = mreg if dreg == best else 0
    if seven and d7 == best:
        out |= eq[1] | eq[3]
    if orph and d13 == best:
        m = ORPHAN_BITS & ~pres
        if not (ge2 & ORPHAN_BITS):
            m |= ORPHAN_BITS & eq[1]
        out |= m
    if hk and dhk == best:
        for a in range(6):
            if 14 - hon - got[a] == best:
                out |= (HONOR_BITS | KNIT_MASK[a]) & ~pres
    if ks:
        for a in range(6):
            if dks[a] == best:
                # a missing knitted tile extends the run; any other tile
                # (a held knitted tile included) goes to the rest, whose
                # useful tiles need the rests' own records
                if not loaded:
                    for j in range(3):
                        _knit_load(K + 3 * j, P[j], (pres >> (9 * j)) & 0x1FF)
                    loaded = True
                for j in range(3):
                    R[KNIT_SUIT[a][j]] = &K[KNIT_SUIT[a][j] * 3 + j]
                _regular_parts(R, 1 - melds, &m)
                out |= (KNIT_MASK[a] & ~pres) | m
    mask[0] = out
    return best


cdef int _shanten_useful(const uint8_t* c, int melds, int form, uint64_t* mask) noexcept nogil:
    """Shanten in every form (form < 0) or one, and the tiles (held fewer
    than four times) whose draw lowers it."""
    cdef Part Q[4]
    cdef Part K[9]
    cdef Part* P[4]
    cdef uint64_t eq[5]
    cdef int dreg = BIG, best
    cdef uint64_t mreg = 0
    for dreg in range(9):
        K[dreg].key = -1
    dreg = BIG
    _part_load(&Q[0], c, 9)
    _part_load(&Q[1], c + 9, 9)
    _part_load(&Q[2], c + 18, 9)
    _part_load(&Q[3], c + 27, 7)
    P[0] = &Q[0]; P[1] = &Q[1]; P[2] = &Q[2]; P[3] = &Q[3]
    _planes_of(c, eq)
    if form < 0 or form == 0:
        dreg = _regular_parts(P, 4 - melds, &mreg)
    if form == 0 or melds > 1:
        best = dreg
        mask[0] = mreg
    else:
        best = _special_useful(eq, melds, form, dreg, mreg, P, K, mask)
    mask[0] &= ~eq[4] & ALL34
    return best - 1


# best_discards and the Python entry points of the per-call decisions (on
# the kernels and useful-tile records above): for bots and the self-play
# baseline policy (rank_discards).  One compiled call ranks every
# discard of a hand; the parts a discard does not touch are combined once per
# hand (see _discards), so a discard costs a few small products, not a
# shanten of its own.

# ---------------------------------------------------------------------------
# best_discards: one compiled call per hand
# ---------------------------------------------------------------------------


# For parts j != k of the four, the pair of parts left (as an index into the
# six pair products: 01 02 03 12 13 23).
cdef int OTHER2[4][4]
_pair_ids = {(0, 1): 0, (0, 2): 1, (0, 3): 2, (1, 2): 3, (1, 3): 4, (2, 3): 5}
for _j in range(4):
    for _k in range(4):
        _rest = tuple(x for x in range(4) if x != _j and x != _k)
        OTHER2[_j][_k] = _pair_ids[_rest] if len(_rest) == 2 else -1


cdef inline void _vec_of(int* V, const Part* P, int M) noexcept nogil:
    """A part's distance vector in the [p * 5 + m] layout of _mp2."""
    cdef int m
    for m in range(M + 1):
        V[m] = P.v[m * 2]
        V[5 + m] = P.v[m * 2 + 1]


cdef int _discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                   Choice* out) noexcept nogil:
    """Every distinct discard of a 14-3k hand with the shanten left, the kinds
    of useful tile (lowering it, not held four times after the discard) and
    their unseen copies (4 - seen).  Unsorted; returns how many.

    A discard changes one part: the min-plus products of the other parts
    (the six pairs and, for each part, the three others) are made once per
    hand, so a discard costs one product with its new part for each part
    whose useful tiles are asked (three) instead of six.  The new parts'
    table records are all requested before the first is read."""
    cdef Part Q[4]
    cdef Part S[14]
    cdef Part K[9]
    cdef Part* P[4]
    cdef int dj[14]
    cdef int dt[14]
    cdef int V[4][10]
    cdef int PP[6][10]
    cdef int T[4][10]
    cdef int QD[4][10]          # the hand's parts: useful-tile mask of each entry, [p * 5 + m]
    cdef int SV[10]
    cdef int X[10]
    cdef uint64_t eq[5]
    cdef uint64_t sp[5]
    cdef uint64_t eqd[5]
    cdef int j, k, i, t, m, n = 0, nd, base, best, e, v, M = 4 - melds
    cdef uint64_t mreg, mask, four, bit
    cdef int off[4]
    off[0] = 0; off[1] = 9; off[2] = 18; off[3] = 27
    for j in range(9):
        K[j].key = -1
    _part_load(&Q[0], c, 9)
    _part_load(&Q[1], c + 9, 9)
    _part_load(&Q[2], c + 18, 9)
    _part_load(&Q[3], c + 27, 7)
    # request every discard's new part now: the loads overlap
    nd = 0
    for j in range(4):
        for i in range(Q[j].n):
            t = off[j] + i
            if c[t] and nd < 14:
                _part_at(&S[nd], Q[j].key - P5[i], Q[j].n)
                dj[nd] = j
                dt[nd] = t
                nd += 1
    for j in range(4):
        _vec_of(V[j], &Q[j], M)
        for m in range(M + 1):
            QD[j][m] = <int>_dec_mask(Q[j].dec, m * 2)
            QD[j][5 + m] = <int>_dec_mask(Q[j].dec, m * 2 + 1)
    _mp2(PP[0], V[0], V[1], M)
    _mp2(PP[1], V[0], V[2], M)
    _mp2(PP[2], V[0], V[3], M)
    _mp2(PP[3], V[1], V[2], M)
    _mp2(PP[4], V[1], V[3], M)
    _mp2(PP[5], V[2], V[3], M)
    _mp2(T[0], V[1], PP[5], M)
    _mp2(T[1], V[0], PP[5], M)
    _mp2(T[2], V[3], PP[0], M)
    _mp2(T[3], V[2], PP[0], M)
    _planes_of(c, eq)
    _planes_of(seen, sp)
    four = _eq34(held, 4)
    for n in range(nd):
        j = dj[n]
        t = dt[n]
        bit = (<uint64_t>1) << t
        _vec_of(SV, &S[n], M)
        base = BIG
        for m in range(M + 1):
            v = SV[m] + T[j][5 + M - m]
            base = v if v < base else base
            v = SV[5 + m] + T[j][M - m]
            base = v if v < base else base
        # useful tiles of the regular form: those lowering a tight entry
        e = 0
        for m in range(M + 1):
            if SV[m] + T[j][5 + M - m] == base:
                e |= <int>_dec_mask(S[n].dec, m * 2)
            if SV[5 + m] + T[j][M - m] == base:
                e |= <int>_dec_mask(S[n].dec, m * 2 + 1)
        mreg = (<uint64_t>e) << off[j]
        for k in range(4):
            if k == j:
                continue
            _mp2(X, SV, PP[OTHER2[j][k]], M)
            e = 0
            for m in range(M + 1):
                if V[k][m] + X[5 + M - m] == base:
                    e |= QD[k][m]
                if V[k][5 + m] + X[M - m] == base:
                    e |= QD[k][5 + m]
            mreg |= (<uint64_t>e) << off[k]
        if melds > 1:
            best = base
            mask = mreg
        else:
            v = c[t]
            eqd[0] = 0; eqd[1] = eq[1]; eqd[2] = eq[2]; eqd[3] = eq[3]; eqd[4] = eq[4]
            eqd[v] &= ~bit
            eqd[v - 1] |= bit
            eqd[0] = 0
            P[0] = &Q[0]; P[1] = &Q[1]; P[2] = &Q[2]; P[3] = &Q[3]
            P[j] = &S[n]
            best = _special_useful(eqd, melds, -1, base, mreg, P, K, &mask)
        # useful: lowers the shanten, and not held four times after the discard
        mask &= ~((four | eq[4]) & ~bit) & ALL34
        out[n].tile = t
        out[n].shanten = best - 1
        out[n].kinds = _popcount64(mask)
        # unseen copies: 4 - seen of each (seen <= 4, checked by the callers)
        out[n].left = 4 * out[n].kinds - (_popcount64(mask & sp[1]) + 2 * _popcount64(mask & sp[2])
                                          + 3 * _popcount64(mask & sp[3]) + 4 * _popcount64(mask & sp[4]))
    return nd


cdef inline bint _choice_before(const Choice* a, const Choice* b) noexcept nogil:
    # lowest shanten, then most unseen useful copies, most kinds, lowest tile
    if a.shanten != b.shanten:
        return a.shanten < b.shanten
    if a.left != b.left:
        return a.left > b.left
    if a.kinds != b.kinds:
        return a.kinds > b.kinds
    return a.tile < b.tile


cdef inline void _sort_choices(Choice* ch, int n) noexcept nogil:
    cdef int i, k
    cdef Choice x
    for i in range(1, n):
        x = ch[i]
        k = i - 1
        while k >= 0 and _choice_before(&x, &ch[k]):
            ch[k + 1] = ch[k]
            k -= 1
        ch[k + 1] = x


cdef list _choices_list(Choice* ch, int n):
    cdef list out = []
    cdef int i
    for i in range(n):
        out.append(mjfast_discard_new(ch[i].tile, ch[i].shanten, ch[i].kinds, ch[i].left))
    return out


# ---------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------

# The Python front ends (mjfast/core.py, mjfast/bots.py) for every input the
# fast path does not take: they parse, validate and name what is wrong.
_slow = {}


def _set_slow(name, fn):
    """Register the Python front end of shanten / useful_tiles / best_discards."""
    if name not in ("shanten", "useful_tiles", "best_discards", "shanten_wild", "useful_tiles_wild"):
        raise ValueError(f"no compiled front named {name!r}")
    if not callable(fn):
        raise TypeError("the front end must be callable")
    _slow[name] = fn


def shanten(hand, *, melds=None, form=None, exact=False, rules=None, wildcards=None, wildcard_tiles=None,
            wild_fifth=False):
    """Tiles away from ready: -1 = complete, 0 = ready (tenpai), 1, 2, ...

    ``hand``: a notation string, a :class:`~mjfast.Hand`, or the 34 counts of
    the concealed tiles (list, tuple or numpy array of any integer dtype) with
    ``melds=k`` (implied by the tile count when omitted).  Minimum over every
    MCR form, or one ``form`` of :data:`mjfast.FORMS`; a form that cannot
    apply (seven pairs with a meld, say) raises ``ValueError``.  Like the
    reference calculator, shanten counts shapes only: ``1111m`` is ready.

    ``exact=True``: the exact number of exchanges still needed, minus one
    (xiangting's replacement number - 1): no tile is counted on past its
    four copies, so ``1111m`` beside three melds is 1, not 0 (docs/bots.md).
    It differs from the shape count only on hands holding four of a kind
    (about 1 in 6,000 one-suit hands; none of 200,000 uniform random ones).

    ``rules=``: a rule-set name or :class:`~mjfast.rules.RuleSet`: the
    minimum over the forms it allows (its tiles only; another tile raises).

    Wildcards (as :func:`is_win`; docs/wildcards.md): the least shanten over
    every tile the wildcards may stand for (``exact=True`` not supported).
    """
    cdef uint8_t c[34]
    cdef int m, f
    if wildcards is not None or wildcard_tiles is not None or wild_fifth is not False:
        return _slow["shanten_wild"](hand, melds, form, exact, rules, wildcards, wildcard_tiles, wild_fifth)
    if rules is None and (exact is False or exact is True) and _conv34(hand, c):
        f = _form_of(form)
        m = _melds_of(melds, _sum34(c), 2)
        if m >= 0 and f >= -1 and (f <= 0 or (f == 4 and m <= 1) or m == 0):
            if exact is True:
                _need_exact()
                return _shanten_exact(c, m, f)
            _need_tables()
            return _shanten(c, m, f)
    if rules is not None:
        return _slow["shanten"](hand, melds, form, exact, rules)
    return _slow["shanten"](hand, melds, form, exact)


def useful_tiles(hand, *, melds=None, form=None, rules=None, wildcards=None, wildcard_tiles=None,
                 wild_fifth=False):
    """Tiles whose draw lowers the shanten of a 13-3k tile hand, ascending.

    A tile is useful when drawing it lowers the shanten and the player does
    not already hold all four copies (concealed or in melds; for an array,
    the concealed counts).  :func:`mjfast.best_discards` counts the same way.

    ``rules=``: a rule-set name or :class:`~mjfast.rules.RuleSet`: the tiles
    of the rule set whose draw lowers its shanten (the minimum over the forms
    it allows); a hand holding a tile it does not play raises.

    With wildcards (as :func:`is_win`) the list ends with
    :data:`mjfast.wild.WILDCARD` (34) when a drawn wildcard lowers the
    shanten (with ``wildcard_tiles`` the wild kind is listed instead).
    """
    cdef uint8_t c[34]
    cdef int m, f
    cdef uint64_t mask
    if wildcards is not None or wildcard_tiles is not None or wild_fifth is not False:
        return _slow["useful_tiles_wild"](hand, melds, form, rules, wildcards, wildcard_tiles, wild_fifth)
    if rules is not None:
        return _slow["useful_tiles"](hand, melds, form, rules)
    if _conv34(hand, c):
        f = _form_of(form)
        m = _melds_of(melds, _sum34(c), 1)
        if m >= 0 and f >= -1 and (f <= 0 or (f == 4 and m <= 1) or m == 0):
            _need_dec()
            _shanten_useful(c, m, f, &mask)
            return _mask_list(mask)
    return _slow["useful_tiles"](hand, melds, form)


def useful_mask(const uint8_t[::1] c, int melds, int form, const uint8_t[::1] held):
    """(shanten, useful tiles as a 34-bit int) of 13-3k counts; a tile whose
    four copies are ``held`` is not useful."""
    cdef uint8_t h[34]
    cdef uint8_t hd[34]
    cdef uint64_t mask
    _need_dec()
    _check_form(form)
    _take_hand(c, h, melds, 1)
    _take34(held, hd, "held")
    if (form in (1, 2, 3) and melds > 0) or (form == 4 and melds > 1):
        raise ValueError(f"form {form} does not apply beside {melds} melds")
    cdef int sh = _shanten_useful(h, melds, form, &mask)
    return sh, mask & ~_eq34(hd, 4)


def best_discards(hand, *, melds=None, visible=None, **options):
    """For a 14-3k tile hand, every distinct discard with the shanten left and
    the useful tiles it keeps, best first (lowest shanten, then most useful
    copies left, most useful kinds, lowest tile).

    Each answer is a :class:`Discard` ``(tile, shanten, useful_kinds,
    useful_left)``.  ``visible``: optional 34 counts of tiles seen elsewhere
    (discards, other players' melds) that can no longer be drawn.  Useful
    tiles are counted as :func:`mjfast.useful_tiles` does; their copies left
    are 4 minus those held (the discarded tile included: it is on the table)
    minus those visible.

    Options (handled in Python): ``check_points=True`` sets ``below_8`` on
    each discard that leaves a ready hand, ``rank="fan"`` orders by
    fan-aware distance first (see :func:`mjfast.bots.best_discards`).
    """
    cdef uint8_t c[34]
    cdef uint8_t vis[34]
    cdef uint8_t seen[34]
    cdef Choice ch[34]
    cdef int m, n, t
    if not options and _conv34(hand, c):
        m = _melds_of(melds, _sum34(c), 0)
        if m >= 0:
            if visible is None:
                memcpy(seen, c, 34)
            elif _conv34(visible, vis):
                for t in range(34):
                    seen[t] = c[t] + vis[t]
                if _over4(seen):
                    m = -1
            else:
                m = -1
        if m >= 0:
            _need_dec()
            n = _discards(c, m, c, seen, ch)
            _sort_choices(ch, n)
            return _choices_list(ch, n)
    return _slow["best_discards"](hand, melds, visible, **options)


def discards_core(const uint8_t[::1] c, int melds, const uint8_t[::1] held, const uint8_t[::1] seen):
    """best_discards on 14-3k concealed counts ``c``, every tile the player
    holds ``held`` and ``seen`` = held + visible (all counts <= 4)."""
    cdef Choice ch[34]
    cdef uint8_t h[34]
    cdef uint8_t hd[34]
    cdef uint8_t sn[34]
    _need_dec()
    _take_hand(c, h, melds, 0)
    _take34(held, hd, "held")
    _take34(seen, sn, "seen")
    cdef int n = _discards(h, melds, hd, sn, ch)
    _sort_choices(ch, n)
    return _choices_list(ch, n)


def discards_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] melds, uint8_t[::1] err, const uint8_t[:, ::1] seen,
                   cnp.int8_t[:, ::1] sh_out, uint8_t[:, ::1] kinds_out, uint8_t[:, ::1] left_out, int nthreads):
    """best_discards for N rows: per row and tile, the shanten after
    discarding it (127 where the tile is not held), the useful kinds and
    their unseen copies.  Rows with err[i] != 0 are skipped; a row failing
    the re-check (it changed since it was validated) is flagged as in
    shanten_batch.  Returns the number of rows the re-check flagged."""
    _need_dec()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t r, n = _check_rows(hands, "hands")
    _check_len(melds.shape[0], n, "melds")
    _check_len(err.shape[0], n, "err")
    _check_rows(seen, "seen")
    _check_len(seen.shape[0], n, "seen")
    for name, a in (("sh_out", sh_out), ("kinds_out", kinds_out), ("left_out", left_out)):
        if a.shape[0] != n or a.shape[1] != 34:
            raise ValueError(f"{name} must be ({n}, 34), got ({a.shape[0]}, {a.shape[1]})")
    cdef int e
    if nthreads <= 1:
        with nogil:
            for r in range(n):
                e = err[r] or _discards_row(&hands[r, 0], melds[r], &seen[r, 0], &sh_out[r, 0],
                                            &kinds_out[r, 0], &left_out[r, 0])
                if e and not err[r]:
                    err[r] = 0x80 | e
    else:
        for r in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=256):
            e = err[r] or _discards_row(&hands[r, 0], melds[r], &seen[r, 0], &sh_out[r, 0],
                                        &kinds_out[r, 0], &left_out[r, 0])
            if e and not err[r]:
                err[r] = 0x80 | e
    return _flagged(err)


cdef inline int _discards_row(const uint8_t* src, int melds, const uint8_t* seen_src, cnp.int8_t* sh,
                              uint8_t* kinds, uint8_t* left) noexcept nogil:
    """One row of discards_batch: copied and re-checked (14-3k tiles, seen
    within four copies), then answered.  Returns the error code."""
    cdef Choice ch[34]
    cdef uint8_t c[34]
    cdef uint8_t sn[34]
    cdef int i, k, e
    _copy_row(c, src)
    memcpy(sn, seen_src, 34)
    for i in range(34):
        sh[i] = -128
        kinds[i] = 0
        left[i] = 0
    e = _recheck(c, melds, 0)
    if e:
        return e
    if _over4(sn):
        return 1
    k = _discards(c, melds, c, sn, ch)
    for i in range(34):
        sh[i] = 127
    for i in range(k):
        sh[ch[i].tile] = ch[i].shanten
        kinds[ch[i].tile] = ch[i].kinds
        left[ch[i].tile] = ch[i].left
    return 0


def _table_sections(kind="dec"):
    """The useful-tile tables, section by section, as bytes copies (tests: a
    cache-loaded set equals a built one byte for byte)."""
    cdef TableSet t
    if kind != "dec":
        raise ValueError(f"unknown table kind {kind!r}")
    _need_dec()
    _dec_sections(&t)
    t.p[0] = _dec
    t.p[1] = _hdec
    return [(str(i), (<char*>t.p[i])[:t.n[i]]) for i in range(t.count)]


# ---------------------------------------------------------------------------
# the C interface of this module (src/mjfast/_decide.pxd), for mjfast._game
# ---------------------------------------------------------------------------

cdef int need_decisions() except -1:
    return _need_dec()          # the discard ranking's tables (and the lookup tables)


cdef int rank_discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                       Choice* out) noexcept nogil:
    return _discards(c, melds, held, seen, out)
