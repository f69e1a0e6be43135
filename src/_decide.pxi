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


cdef extern from *:
    """
    /* the Python ints of a 34-item list or tuple, each 0..4, into out;
       0 when it is anything else (the Python front end then reads it) */
    static int mjfast_seq34(PyObject* h, uint8_t* out) {
        PyObject** items;
        int i, ovf;
        long v;
        if (PyList_CheckExact(h)) {
            if (PyList_GET_SIZE(h) != 34) return 0;
            items = ((PyListObject*)h)->ob_item;
        } else if (PyTuple_CheckExact(h)) {
            if (PyTuple_GET_SIZE(h) != 34) return 0;
            items = ((PyTupleObject*)h)->ob_item;
        } else {
            return 0;
        }
        for (i = 0; i < 34; ++i) {
            if (!PyLong_CheckExact(items[i])) return 0;
            v = PyLong_AsLongAndOverflow(items[i], &ovf);
            if (ovf || v < 0 || v > 4) return 0;
            out[i] = (uint8_t)v;
        }
        return 1;
    }
    #if defined(__GNUC__)
    #define mjfast_prefetch(p) __builtin_prefetch(p)
    #define mjfast_popcount64(x) __builtin_popcountll(x)
    #else
    #define mjfast_prefetch(p) ((void)0)
    static int mjfast_popcount64(uint64_t x) { int n = 0; while (x) { x &= x - 1; ++n; } return n; }
    #endif

    /* Discard: a tuple (tile, shanten, useful_kinds, useful_left) with two
       more fields by name only; built from C so a 14-discard answer costs
       no Python-level constructor calls. */
    static PyStructSequence_Field mjfast_discard_fields[] = {
        {"tile", "the tile to discard (index 0-33)"},
        {"shanten", "shanten of the tiles left"},
        {"useful_kinds", "kinds of tile whose draw would lower it"},
        {"useful_left", "copies of those still unseen (4 - held - visible)"},
        {"below_8", "True when the discard leaves a ready hand whose every wait scores under 8 points "
                    "(None unless asked for with check_points=True)"},
        {"fan_shanten", "fan_shanten of the tiles left (None unless asked for with rank='fan')"},
        {NULL, NULL}};
    static PyStructSequence_Desc mjfast_discard_desc = {
        "mjfast.bots.Discard",
        "One discard of best_discards: (tile, shanten, useful_kinds, useful_left), "
        "plus below_8 and fan_shanten by name.",
        mjfast_discard_fields, 4};
    static PyTypeObject* mjfast_discard_type = NULL;
    static PyObject* mjfast_discard_type_get(void) {
        if (mjfast_discard_type == NULL)
            mjfast_discard_type = (PyTypeObject*)PyStructSequence_NewType(&mjfast_discard_desc);
        Py_XINCREF(mjfast_discard_type);
        return (PyObject*)mjfast_discard_type;
    }
    static PyObject* mjfast_discard_new(int t, int sh, int kinds, int left) {
        PyObject* o;
        if (mjfast_discard_type == NULL) {
            PyObject* tp = mjfast_discard_type_get();
            if (tp == NULL) return NULL;
            Py_DECREF(tp);
        }
        o = PyStructSequence_New(mjfast_discard_type);
        if (o == NULL) return NULL;
        PyStructSequence_SET_ITEM(o, 0, PyLong_FromLong(t));
        PyStructSequence_SET_ITEM(o, 1, PyLong_FromLong(sh));
        PyStructSequence_SET_ITEM(o, 2, PyLong_FromLong(kinds));
        PyStructSequence_SET_ITEM(o, 3, PyLong_FromLong(left));
        Py_INCREF(Py_None); PyStructSequence_SET_ITEM(o, 4, Py_None);
        Py_INCREF(Py_None); PyStructSequence_SET_ITEM(o, 5, Py_None);
        return o;
    }
    """
    int mjfast_seq34(PyObject* h, uint8_t* out)
    void _prefetch "mjfast_prefetch"(const void* p) nogil
    int _popcount64 "mjfast_popcount64"(uint64_t x) nogil
    object mjfast_discard_type_get()
    object mjfast_discard_new(int t, int sh, int kinds, int left)


cdef uint64_t ALL34 = 0x3FFFFFFFF
cdef uint64_t HONOR_BITS = 0x3F8000000    # tiles 27-33

cdef uint64_t ORPHAN_BITS = 0
for _t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
    ORPHAN_BITS |= (<uint64_t>1) << _t

Discard = mjfast_discard_type_get()


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


cdef extern from *:
    """
    #if defined(__GNUC__)
    #define mjfast_ctz64(x) __builtin_ctzll(x)
    #else
    static int mjfast_ctz64(uint64_t x) { int n = 0; while (!(x & 1)) { x >>= 1; ++n; } return n; }
    #endif
    """
    int _ctz64 "mjfast_ctz64"(uint64_t x) nogil


cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* malloc for the big lookup tables, asking Linux for 2 MB pages: a
       per-call query touches a few dozen scattered entries of a 20 MB
       table, and with 4 KB pages nearly every one is also a TLB miss. */
    static void* mjfast_big_alloc(size_t n) {
        void* p = malloc(n);
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (p != NULL && n >= (4u << 20)) {
            uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
            uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)4095;
            if (e > a) madvise((void*)a, e - a, MADV_HUGEPAGE);
        }
    #endif
        return p;
    }
    """
    void* _big_alloc "mjfast_big_alloc"(size_t n) nogil


# ---------------------------------------------------------------------------
# shanten with its useful tiles, from the per-suit tables
# ---------------------------------------------------------------------------

# Which tiles lower each entry of a part's distance vector: for every key
# of at most 13 tiles, entry e = m * 2 + p gets a 9-bit mask (bit i: adding
# tile i lowers it), entries 0-6 packed in a 64-bit word and 7-9 in a 32-bit
# one (12 bytes a key).  One load per part then answers "which tiles are
# useful" where 9 neighbour loads would each miss the cache.  Built on the
# first useful-tile query (about 0.2 s, 23 MB), not at import.
cdef uint8_t* _dec = NULL
cdef uint8_t* _hdec = NULL


cdef void _build_dec(uint8_t* dec, const uint8_t* dist, int n, int nkey) noexcept nogil:
    cdef int c[9]
    cdef int key, i, s, e
    cdef uint64_t lo
    cdef uint32_t hi
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
                        hi |= (<uint32_t>1) << (9 * (e - 7) + i)
        memcpy(dec + key * 12, &lo, 8)
        memcpy(dec + key * 12 + 8, &hi, 4)


cdef int _need_dec() except -1:
    global _dec, _hdec
    cdef uint8_t* dec
    cdef uint8_t* hdec
    if _dec != NULL:
        return 0
    _need_tables()
    with _tables_lock:
        if _dec != NULL:
            return 0
        dec = <uint8_t*>_big_alloc(NKEY * 12)
        hdec = <uint8_t*>malloc(NHKEY * 12)
        if dec == NULL or hdec == NULL:
            free(dec); free(hdec)
            raise MemoryError("mjfast: cannot allocate the useful-tile tables")
        with nogil:
            _build_dec(dec, _dist, 9, NKEY)
            _build_dec(hdec, _hdist, 7, NHKEY)
        _hdec = hdec
        _dec = dec          # published last: its test is the "built" flag
    return 0


cdef inline uint32_t _dec_mask(const uint8_t* rec, int e) noexcept nogil:
    cdef uint64_t lo
    cdef uint32_t hi
    if e < 7:
        memcpy(&lo, rec, 8)
        return <uint32_t>((lo >> (9 * e)) & 0x1FF)
    memcpy(&hi, rec + 8, 4)
    return (hi >> (9 * (e - 7))) & 0x1FF


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
        P.dec = _dec + key * 12
    else:
        P.v = _hdist + key * 10
        P.dec = _hdec + key * 12
    _prefetch(P.v)
    _prefetch(P.dec)


cdef inline void _part_load(Part* P, const uint8_t* c, int n) noexcept nogil:
    cdef int i, key = 0
    for i in range(n - 1, -1, -1):
        key = key * 5 + c[i]
    _part_at(P, key, n)


cdef inline void _mp2(int* o, const int* a, const int* b, int M) noexcept nogil:
    """Min-plus product of two vectors in [p * 5 + m] layout, up to M melds."""
    cdef int k, i, v0, v1, t
    for k in range(M + 1):
        v0 = BIG
        v1 = BIG
        for i in range(k + 1):
            t = a[i] + b[k - i]
            v0 = t if t < v0 else v0
            t = a[i] + b[5 + k - i]
            v1 = t if t < v1 else v1
            t = a[5 + i] + b[k - i]
            v1 = t if t < v1 else v1
        o[k] = v0
        o[5 + k] = v1


cdef int _parts_dist(Part** P, int M) noexcept nogil:
    """The distance of _regular_parts alone (no useful tiles)."""
    cdef int V[4][10]
    cdef int AB[10]
    cdef int CD[10]
    cdef int j, m, v, base = BIG
    for j in range(4):
        for m in range(M + 1):
            V[j][m] = P[j].v[m * 2]
            V[j][5 + m] = P[j].v[m * 2 + 1]
    _mp2(AB, V[0], V[1], M)
    _mp2(CD, V[2], V[3], M)
    for m in range(M + 1):
        v = AB[m] + CD[5 + M - m]
        base = v if v < base else base
        v = AB[5 + m] + CD[M - m]
        base = v if v < base else base
    return base


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


cdef inline void _knit_load(Part* K, const Part* S, const uint8_t* c) noexcept nogil:
    """K[j] = suit part S (counts c) less one copy of each held tile of its
    knitted triple j (ranks j, j+3, j+6): the suit's share of a knitted
    straight's rest.  Three keys per suit serve all six arrangements."""
    cdef int j, r, key
    for j in range(3):
        key = S.key
        for r in range(j, 9, 3):
            if c[r]:
                key -= P5[r]
        _part_at(&K[j], key, 9)


cdef int _special_useful(const uint8_t* c, int melds, int form, int dreg, uint64_t mreg,
                         Part** P, Part* K, uint64_t* mask) noexcept nogil:
    """Add the other forms to the regular answer (dreg, mreg): returns the
    distance over the forms asked for and leaves in ``mask`` the tiles that
    lower it (the union over the forms that reach it).  P: the four parts of
    c; K: room for the knitted rests of its three suits (K[s * 3 + j]),
    loaded only when a knitted straight could reach the distance."""
    cdef int d7 = BIG, d13 = BIG, dhk = BIG, a, j, hon = 0, pair, best = dreg
    cdef int dks[6]
    cdef int got[6]
    cdef uint64_t pres, out, m
    cdef Part* R[4]
    cdef bint loaded
    cdef bint seven = melds == 0 and (form < 0 or form == 1)
    cdef bint orph = melds == 0 and (form < 0 or form == 2)
    cdef bint hk = melds == 0 and (form < 0 or form == 3)
    cdef bint ks = melds <= 1 and (form < 0 or form == 4)
    pres = _present34(c)
    if seven:
        d7 = _seven_pairs_dist(c)
        best = d7 if d7 < best else best
    if orph:
        d13 = _orphans_dist(c)
        best = d13 if d13 < best else best
    if hk or ks:
        _knitted_got(c, got)
    if hk:
        hon = _popcount9(<int>((pres >> 27) & 0x7F))
        for a in range(6):
            if 14 - hon - got[a] < dhk:
                dhk = 14 - hon - got[a]
        best = dhk if dhk < best else best
    for a in range(6):
        dks[a] = BIG
    if ks:
        R[3] = P[3]
        loaded = False
        for a in range(6):
            # 9 - got is a lower bound: most arrangements stop here
            if 9 - got[a] > best:
                continue
            if not loaded:
                for j in range(3):
                    _knit_load(K + 3 * j, P[j], c + 9 * j)
                loaded = True
            for j in range(3):
                R[KNIT_SUIT[a][j]] = &K[KNIT_SUIT[a][j] * 3 + j]
            dks[a] = (9 - got[a]) + _parts_dist(R, 1 - melds)
            best = dks[a] if dks[a] < best else best
    out = mreg if dreg == best else 0
    if seven and d7 == best:
        out |= _eq34(c, 1) | _eq34(c, 3)
    if orph and d13 == best:
        m = ORPHAN_BITS & ~pres
        pair = 0
        for j in range(13):
            if c[ORPHANS[j]] >= 2:
                pair = 1
        if not pair:
            m |= ORPHAN_BITS & _eq34(c, 1)
        out |= m
    if hk and dhk == best:
        for a in range(6):
            if 14 - hon - got[a] == best:
                out |= (HONOR_BITS | KNIT_MASK[a]) & ~pres
    if ks:
        for a in range(6):
            if dks[a] == best:
                # a missing knitted tile extends the run; any other tile
                # (a held knitted tile included) goes to the rest
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
    cdef int dreg = BIG, best
    cdef uint64_t mreg = 0
    _part_load(&Q[0], c, 9)
    _part_load(&Q[1], c + 9, 9)
    _part_load(&Q[2], c + 18, 9)
    _part_load(&Q[3], c + 27, 7)
    P[0] = &Q[0]; P[1] = &Q[1]; P[2] = &Q[2]; P[3] = &Q[3]
    if form < 0 or form == 0:
        dreg = _regular_parts(P, 4 - melds, &mreg)
    if form == 0 or melds > 1:
        best = dreg
        mask[0] = mreg
    else:
        best = _special_useful(c, melds, form, dreg, mreg, P, K, mask)
    mask[0] &= ~_eq34(c, 4) & ALL34
    return best - 1


# ---------------------------------------------------------------------------
# best_discards: one compiled call per hand
# ---------------------------------------------------------------------------

cdef struct Choice:
    int tile
    int shanten
    int kinds
    int left


cdef int _discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                   Choice* out) noexcept nogil:
    """Every distinct discard of a 14-3k hand with the shanten left, the kinds
    of useful tile (lowering it, not held four times after the discard) and
    their unseen copies (4 - seen).  Unsorted; returns how many."""
    cdef Part Q[4]
    cdef Part K[9]
    cdef Part S
    cdef Part* P[4]
    cdef uint8_t tmp[34]
    cdef int j, i, t, n = 0, dreg, best, u
    cdef uint64_t mreg, mask, four, mm
    cdef int base_off[4]
    base_off[0] = 0; base_off[1] = 9; base_off[2] = 18; base_off[3] = 27
    _part_load(&Q[0], c, 9)
    _part_load(&Q[1], c + 9, 9)
    _part_load(&Q[2], c + 18, 9)
    _part_load(&Q[3], c + 27, 7)
    four = _eq34(held, 4)
    memcpy(tmp, c, 34)
    for j in range(4):
        for i in range(Q[j].n):
            t = base_off[j] + i
            if c[t] == 0:
                continue
            # only the part the tile leaves is reloaded
            _part_at(&S, Q[j].key - P5[i], Q[j].n)
            P[0] = &Q[0]; P[1] = &Q[1]; P[2] = &Q[2]; P[3] = &Q[3]
            P[j] = &S
            tmp[t] -= 1
            dreg = _regular_parts(P, 4 - melds, &mreg)
            if melds > 1:
                best = dreg
                mask = mreg
            else:
                best = _special_useful(tmp, melds, -1, dreg, mreg, P, K, &mask)
            # useful: lowers the shanten, and not held four times after the discard
            mask &= ~_eq34(tmp, 4) & ~(four & ~((<uint64_t>1) << t)) & ALL34
            tmp[t] += 1
            out[n].tile = t
            out[n].shanten = best - 1
            out[n].kinds = _popcount64(mask)
            u = 0
            mm = mask
            while mm:
                u += 4 - seen[_ctz64(mm)] if seen[_ctz64(mm)] < 4 else 0
                mm &= mm - 1
            out[n].left = u
            n += 1
    return n


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
    if name not in ("shanten", "useful_tiles", "best_discards"):
        raise ValueError(f"no compiled front named {name!r}")
    if not callable(fn):
        raise TypeError("the front end must be callable")
    _slow[name] = fn


def shanten(hand, *, melds=None, form=None, exact=False):
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
    """
    cdef uint8_t c[34]
    cdef int m, f
    if (exact is False or exact is True) and _conv34(hand, c):
        f = _form_of(form)
        m = _melds_of(melds, _sum34(c), 2)
        if m >= 0 and f >= -1 and (f <= 0 or (f == 4 and m <= 1) or m == 0):
            if exact is True:
                _need_exact()
                return _shanten_exact(c, m, f)
            _need_tables()
            return _shanten(c, m, f)
    return _slow["shanten"](hand, melds, form, exact)


def useful_tiles(hand, *, melds=None, form=None):
    """Tiles whose draw lowers the shanten of a 13-3k tile hand, ascending.

    A tile is useful when drawing it lowers the shanten and the player does
    not already hold all four copies (concealed or in melds; for an array,
    the concealed counts).  :func:`mjfast.best_discards` counts the same way.
    """
    cdef uint8_t c[34]
    cdef int m, f
    cdef uint64_t mask
    if _conv34(hand, c):
        f = _form_of(form)
        m = _melds_of(melds, _sum34(c), 1)
        if m >= 0 and f >= -1 and (f <= 0 or (f == 4 and m <= 1) or m == 0):
            _need_dec()
            _shanten_useful(c, m, f, &mask)
            return _mask_list(mask)
    return _slow["useful_tiles"](hand, melds, form)


cdef int _take34(const uint8_t[::1] src, uint8_t* h, str name) except -1:
    """Copy 34 counts 0..4 (tiles held or seen) and check the copy."""
    _check_len(src.shape[0], 34, name)
    memcpy(h, &src[0], 34)
    if _over4(h):
        raise ValueError(f"{name}: a tile count above 4")
    return 0


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
    memcpy(c, src, 34)
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
