# Per-call decisions for bots (included into _core.pyx).
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
# first useful-tile query (about 40 ms, 31 MB), not at import, or read from
# the disk cache (src/_tablecache.pxi, kind "dec") when an earlier process
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


cdef void _dec_sections(_TableSet* t) noexcept nogil:
    """The useful-tile tables as sections of the disk cache (src/_tablecache.pxi)."""
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
    cdef _TableSet t
    if _dec != NULL:
        return 0
    _need_tables()
    with _tables_lock:
        if _dec != NULL:
            return 0
        _dec_sections(&t)
        if _cache_read("dec", &t):
            _hdec = <uint8_t*>t.p[1]
            _dec = <uint8_t*>t.p[0]
            _table_sources["dec"] = "cache"
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
        _table_sources["dec"] = "built"
        t.p[0] = dec
        t.p[1] = hdec
        _cache_store("dec", &t)
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
