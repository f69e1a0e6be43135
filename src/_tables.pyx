# cython: language_level=3, cdivision=True
"""The lookup tables: built once per process, in C, on first use, under a
lock, or read from the disk cache (mjfast._tablecache), then published.

The start of the data flow: every analysis, scoring and decision kernel reads
these tables, through the addresses each module binds from here
(src/handkernel/tables.pxd, src/include/tables.h).  A module of its own so
that the tables are built in one place and every other module reaches them
through one interface (src/mjfast/_tables.pxd).

* ``_dist[key*10 + m*2 + p]``: for a suit pattern (base-5 key over 9 counts),
  the fewest tiles to add to reach m melds + p pairs.  Honors: ``_hdist`` over a
  base-5 key of the 7 honor counts.  A hand's distance is the min-plus
  combination of its three suits and its honors.
* ``_flag2`` (2 bits per key, 0.5 MB, so it stays in L2): bit 0 = the part
  splits into melds only, bit 1 = into melds and exactly one pair.  This is
  the whole regular win check.
* ``_wf[key]``: the tiles (9-bit masks) whose addition makes the part
  complete without / with a pair (never counting a fifth copy), and the flag,
  in one 32-bit word.  Waits then come out of one pass over the four parts
  instead of 34 win checks.
* ``_srec``: for each suit pattern of at most 14 tiles (405,350 of them,
  ranked by two small tables), its distance vector and the rest distances of
  its three knitted triples in 16 bytes (``_hrec``: the honors' vectors in
  the same layout): shanten over every form from the four records a hand
  loads (see src/handkernel/shanten.pxd).
* Readings (decompositions) are tabled too (fankernel/readings.pxd): every
  suit pattern that splits into sets and at most one pair has its distinct
  splits (21,743 patterns, 23,533 splits, four at most) in a 256 KB hash by
  key, built here with the other tables (fankernel/readings.pxd); a hand's readings are the product of
  its suits' lists and the honors', already in the reference's order
  (tables rather than a depth-first split: measured, benchmarks/README.md,
  "Readings from per-suit tables").
* The exact tables (``_xdist``, ``_xhdist`` and their records): distances
  that never count on a fifth copy, for ``exact=True``; built on first use.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, int32_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, calloc, free
import threading
import time

from fankernel.tiles cimport _init_tile_order
from fankernel.forms cimport _init_forms
from fankernel.readings cimport (_build_partitions, _part_install, _part_nbytes, _part_slot, _part_list,
                                 TWO_PACKS, HONOR_PACKS, PART_SLOTS, PART_LIST_MAX)
from handkernel.tables cimport (_dist, _hdist, _flag2, _hflag, _wf, _hwmask, _srec, _hrec, _lo_rank, _hi_off,
                                _tables_bound, _xdist, _xhdist, _xsrec, _xhrec, _exact_bound, P5,
                                NKEY, NHKEY, BIG, SREC, NSREC, SREC_PAD)
from mjfast._tablecache cimport TableSet, NSECT, cache_read, cache_store, set_source

cdef extern from "bigalloc.h":
    void* _big_alloc "mjfast_big_alloc"(size_t n) nogil

_init_tile_order()
_init_forms()

# the ranking of the suit patterns, which this module owns (the kernels read
# it through _lo_rank / _hi_off): rank of a pattern = _rank_hi[key of counts
# 5-8] + _rank_lo[key of counts 0-4], the low keys ordered by their tile
# count, so that for each high key the patterns of at most 14 tiles are the
# first ones
cdef int32_t _rank_lo[3125]
cdef int32_t _rank_hi[625]
_tables_lock = threading.Lock()
_OWNER = __file__       # the cache files of this module's kinds are keyed by this file


# ---------------------------------------------------------------------------
# the distance tables, the win flags and the wait masks
# ---------------------------------------------------------------------------


cdef inline void _slot_meld(uint8_t* out, const uint8_t* rest, int cost) noexcept nogil:
    # use a block as one meld slot, costing `cost` tiles to complete
    cdef int m, p, v
    for m in range(1, 5):
        for p in range(2):
            v = rest[(m - 1) * 2 + p] + cost
            if v < out[m * 2 + p]:
                out[m * 2 + p] = v


cdef inline void _slot_pair(uint8_t* out, const uint8_t* rest, int cost) noexcept nogil:
    cdef int m, v
    for m in range(5):
        v = rest[m * 2] + cost
        if v < out[m * 2 + 1]:
            out[m * 2 + 1] = v


cdef void _part_vector(uint8_t* out, const uint8_t* table, int key, int* c, int n, bint suited) noexcept nogil:
    """Distance vector of a part from the vectors of smaller parts already in `table`.

    The lowest tile i present either goes unused, or is in exactly one block
    whose lowest tile is i: a pung, a chow, a pair, a two-tile partial meld, or a
    lone tile.  Every other tile of the block is higher, so the rest is a smaller
    key and already computed (keys are visited in increasing order)."""
    cdef int i = 0, m, p
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        for m in range(5):
            for p in range(2):
                out[m * 2 + p] = 3 * m + 2 * p
        return
    cdef const uint8_t* r1 = table + (key - P5[i]) * 10
    memcpy(out, r1, 10)                   # tile unused
    _slot_meld(out, r1, 2)                # lone tile as a meld slot
    _slot_pair(out, r1, 1)                # lone tile as the pair slot
    if c[i] >= 2:
        _slot_meld(out, table + (key - 2 * P5[i]) * 10, 1)
        _slot_pair(out, table + (key - 2 * P5[i]) * 10, 0)
    if c[i] >= 3:
        _slot_meld(out, table + (key - 3 * P5[i]) * 10, 0)
    if suited:
        if i + 1 < n and c[i + 1] > 0:
            _slot_meld(out, table + (key - P5[i] - P5[i + 1]) * 10, 1)
            if i + 2 < n and c[i + 2] > 0:
                _slot_meld(out, table + (key - P5[i] - P5[i + 1] - P5[i + 2]) * 10, 0)
        if i + 2 < n and c[i + 2] > 0:
            _slot_meld(out, table + (key - P5[i] - P5[i + 2]) * 10, 1)


cdef void _build_part(uint8_t* dist, uint8_t* flag, uint16_t* wmask8, uint8_t* wmask_h,
                      int n, int nkey, bint suited) noexcept nogil:
    cdef int c[9]
    cdef int key, i, s, w
    cdef uint16_t mm, mp
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
        if s > 14:
            memset(dist + key * 10, BIG, 10)
            flag[key] = 0
            continue
        _part_vector(dist + key * 10, dist, key, c, n, suited)
        w = 0
        if s % 3 == 0 and dist[key * 10 + (s // 3) * 2] == 0:
            w |= 1
        if s % 3 == 2 and dist[key * 10 + ((s - 2) // 3) * 2 + 1] == 0:
            w |= 2
        flag[key] = w
    # wait masks need the flags of the bigger keys: second pass
    memset(c, 0, sizeof(c))
    s = 0
    for key in range(nkey):
        if key > 0:
            i = 0
            while c[i] == 4:
                c[i] = 0
                s -= 4
                i += 1
            c[i] += 1
            s += 1
        mm = 0
        mp = 0
        if s < 14:
            for i in range(n):
                if c[i] < 4:
                    if flag[key + P5[i]] & 1:
                        mm |= (1 << i)
                    if flag[key + P5[i]] & 2:
                        mp |= (1 << i)
        if suited:
            wmask8[key * 2] = mm
            wmask8[key * 2 + 1] = mp
        else:
            wmask_h[key * 2] = <uint8_t>mm
            wmask_h[key * 2 + 1] = <uint8_t>mp


def build_tables():
    """Build the lookup tables, or read them from the disk cache when a
    previous process of this build saved them (mjfast._tablecache); after a
    build, save them there.  Idempotent, thread-safe.  Returns the seconds
    spent (0.0 when they were already there)."""
    with _tables_lock:
        # under the lock: the build runs without the GIL, so a second thread
        # making its first call meanwhile must wait here, not build again
        if _tables_bound:
            return 0.0
        t0 = time.perf_counter()
        if _cache_load_locked():
            return time.perf_counter() - t0
        _build_tables_locked()
        set_source("tables", "built")
        _cache_store_tables()
        return time.perf_counter() - t0


cdef object _build_tables_locked():
    global _dist, _hdist, _flag2, _hflag, _hwmask, _wf, _srec, _hrec, _lo_rank, _hi_off, _tables_bound
    cdef int _k, k_parts = 0
    cdef uint8_t* dist
    cdef uint8_t* flag
    cdef uint16_t* wmask
    cdef uint8_t* hdist
    cdef uint8_t* hflag
    cdef uint8_t* hwmask
    cdef uint8_t* flag2
    cdef uint32_t* wf
    cdef uint8_t* srec = NULL
    cdef uint8_t* hrec = NULL
    t0 = time.perf_counter()
    dist = <uint8_t*>_big_alloc(NKEY * 10)
    flag = <uint8_t*>malloc(NKEY)
    wmask = <uint16_t*>malloc(NKEY * 2 * sizeof(uint16_t))
    hdist = <uint8_t*>malloc(NHKEY * 10)
    hflag = <uint8_t*>malloc(NHKEY)
    hwmask = <uint8_t*>malloc(NHKEY * 2)
    flag2 = <uint8_t*>malloc(NKEY // 4 + 1)
    wf = <uint32_t*>_big_alloc(NKEY * sizeof(uint32_t))
    if not (dist and flag and wmask and hdist and hflag and hwmask and flag2 and wf):
        free(dist); free(flag); free(wmask); free(hdist); free(hflag); free(hwmask); free(flag2); free(wf)
        raise MemoryError("mjfast: cannot allocate the lookup tables")
    with nogil:
        _build_part(dist, flag, wmask, NULL, 9, NKEY, True)
        memset(flag2, 0, NKEY // 4 + 1)
        for _k in range(NKEY):
            flag2[_k >> 2] |= flag[_k] << ((_k & 3) * 2)
            wf[_k] = wmask[_k * 2] | (<uint32_t>wmask[_k * 2 + 1] << 9) | (<uint32_t>flag[_k] << 18)
        _build_part(hdist, hflag, NULL, hwmask, 7, NHKEY, False)
        srec = _build_srec(dist, True)
        hrec = _build_hrec(hdist)
        k_parts = _build_partitions(flag)
    if srec == NULL or hrec == NULL:
        free(srec); free(hrec)
        free(dist); free(flag); free(wmask); free(hdist); free(hflag); free(hwmask); free(flag2); free(wf)
        raise MemoryError("mjfast: cannot allocate the shanten records")
    if k_parts < 0:
        free(dist); free(flag); free(wmask); free(hdist); free(hflag); free(hwmask); free(flag2); free(wf)
        free(srec); free(hrec)
        raise MemoryError("mjfast: cannot allocate the suit split table")
    # the byte flags and the separate wait masks live on in flag2 / wf
    free(wmask)
    free(flag)
    # published only when complete: a kernel never sees a half-built table
    _dist = dist
    _hdist = hdist
    _hflag = hflag
    _hwmask = hwmask
    _srec = srec
    _hrec = hrec
    _flag2 = flag2
    _wf = wf
    _lo_rank = _rank_lo
    _hi_off = _rank_hi
    _tables_bound = 1
    return time.perf_counter() - t0


def table_nbytes():
    """Bytes held by the tables after the build: distances and wait words per
    suit key, the 2-bit flags, the honors' distances, flags and masks, and the
    shanten records of the suit patterns, and the suit patterns' splits into
    sets and a pair (fankernel/readings.pxd)."""
    return NKEY * (10 + 4) + NKEY // 4 + 1 + NHKEY * (10 + 1 + 2) + (NSREC + SREC_PAD + NHKEY) * SREC + _part_nbytes()


# ---------------------------------------------------------------------------
# the shanten records
# ---------------------------------------------------------------------------

cdef uint8_t* _build_srec(const uint8_t* dist, bint ranks) noexcept nogil:
    """The shanten records of a suit distance table (plain or exact; the
    layout: src/handkernel/shanten.pxd),
    and with `ranks` the ranking tables first (NULL when out of memory)."""
    cdef int upto[21]
    cdef int start[21]
    cdef int k, t, s, j, r, off, key, kk, kl, kh, cnt
    cdef int c[9]
    cdef uint8_t* rec
    cdef const uint8_t* nb
    cdef uint8_t* out
    if ranks:
        memset(upto, 0, sizeof(upto))
        for k in range(3125):
            upto[_digit_sum(k, 5)] += 1
        s = 0
        for t in range(21):
            start[t] = s
            s += upto[t]
            upto[t] = s                     # now: low keys of at most t tiles
        for k in range(3125):               # within one tile count, by key
            t = _digit_sum(k, 5)
            _rank_lo[k] = start[t]
            start[t] += 1
        off = 0
        for kh in range(625):
            _rank_hi[kh] = off
            t = _digit_sum(kh, 4)
            if t <= 14:
                off += upto[14 - t]
        if off != NSREC:
            return NULL
    rec = <uint8_t*>malloc((NSREC + SREC_PAD) * SREC)
    if rec == NULL:
        return NULL
    memset(rec, 0, (NSREC + SREC_PAD) * SREC)
    for key in range(NKEY):
        kk = key
        s = 0
        for j in range(9):
            c[j] = kk % 5
            kk = kk // 5
            s += c[j]
        if s > 14:
            continue
        kl = key % 3125
        kh = key // 3125
        out = rec + (<size_t>(_rank_hi[kh] + _rank_lo[kl])) * SREC
        for j in range(5):
            out[j] = dist[key * 10 + 2 * j]
            out[8 + j] = dist[key * 10 + 2 * j + 1]
        cnt = 0
        for j in range(3):
            kk = key
            for r in range(j, 9, 3):
                if c[r]:
                    kk -= P5[r]
                    cnt += 1 << (2 * j)
            nb = dist + kk * 10
            # entries m * 2 + p: 1 = a pair, 2 = a meld, 3 = both (<= 2, 3, 5)
            out[5 + j] = nb[1] | (nb[2] << 2) | (nb[3] << 4)
        out[13] = cnt
    return rec


cdef uint8_t* _build_hrec(const uint8_t* hdist) noexcept nogil:
    """The honors' distance vectors in the records' layout (NULL when out of memory)."""
    cdef uint8_t* rec = <uint8_t*>malloc(NHKEY * SREC)
    cdef int key, m
    if rec == NULL:
        return NULL
    memset(rec, 0, NHKEY * SREC)
    for key in range(NHKEY):
        for m in range(5):
            rec[key * SREC + m] = hdist[key * 10 + 2 * m]
            rec[key * SREC + 8 + m] = hdist[key * 10 + 2 * m + 1]
    return rec


cdef inline int _digit_sum(int k, int n) noexcept nogil:
    cdef int s = 0, i
    for i in range(n):
        s += k % 5
        k = k // 5
    return s



# ---------------------------------------------------------------------------
# publication: the sections of the "tables" kind, the disk cache
# ---------------------------------------------------------------------------

# the sections of "tables", in file order: what the build publishes, plus the
# small static tables it fills (the shanten records' ranking, the readings'
# wide stores): dist, hdist, hflag, hwmask, flag2, wf, srec, hrec, part_slot,
# part_list, lo_rank, hi_off, two_packs, honor_packs


cdef void _section_sizes(TableSet* t) noexcept nogil:
    cdef int i
    t.count = 14
    for i in range(NSECT):
        t.p[i] = NULL
        t.n[i] = 0
        t.big[i] = i == 0 or i == 5
    t.n[0] = NKEY * 10
    t.n[1] = NHKEY * 10
    t.n[2] = NHKEY
    t.n[3] = NHKEY * 2
    t.n[4] = NKEY // 4 + 1
    t.n[5] = NKEY * sizeof(uint32_t)
    t.n[6] = (NSREC + SREC_PAD) * SREC
    t.n[7] = NHKEY * SREC
    t.n[8] = PART_SLOTS * sizeof(uint64_t)
    t.n[9] = PART_LIST_MAX * sizeof(uint32_t)
    t.n[10] = sizeof(_rank_lo)
    t.n[11] = sizeof(_rank_hi)
    t.n[12] = sizeof(TWO_PACKS)
    t.n[13] = sizeof(HONOR_PACKS)


cdef void _published_sections(TableSet* t) noexcept nogil:
    """The sections as published (after a build or a load)."""
    _section_sizes(t)
    t.p[0] = _dist
    t.p[1] = _hdist
    t.p[2] = _hflag
    t.p[3] = _hwmask
    t.p[4] = _flag2
    t.p[5] = _wf
    t.p[6] = _srec
    t.p[7] = _hrec
    t.p[8] = _part_slot
    t.p[9] = _part_list
    t.p[10] = _rank_lo
    t.p[11] = _rank_hi
    t.p[12] = TWO_PACKS
    t.p[13] = HONOR_PACKS




cdef bint _cache_load_locked() except -1:
    """Under _tables_lock, not yet bound: read the tables from the cache file
    and publish them.  True when published; False (nothing published, nothing
    leaked) when there is no usable file."""
    global _dist, _hdist, _flag2, _hflag, _hwmask, _wf, _srec, _hrec, _lo_rank, _hi_off, _tables_bound
    cdef TableSet t
    _section_sizes(&t)
    if not cache_read("tables", &t, _OWNER):
        return False
    # the small static tables first (nothing reads them before _tables_bound)
    memcpy(_rank_lo, t.p[10], t.n[10])
    memcpy(_rank_hi, t.p[11], t.n[11])
    _part_install(<uint64_t*>t.p[8], <uint32_t*>t.p[9], <const uint64_t*>t.p[12], <const uint8_t*>t.p[13])
    free(t.p[10]); free(t.p[11]); free(t.p[12]); free(t.p[13])
    _dist = <uint8_t*>t.p[0]
    _hdist = <uint8_t*>t.p[1]
    _hflag = <uint8_t*>t.p[2]
    _hwmask = <uint8_t*>t.p[3]
    _flag2 = <uint8_t*>t.p[4]
    _wf = <uint32_t*>t.p[5]
    _srec = <uint8_t*>t.p[6]
    _hrec = <uint8_t*>t.p[7]
    _lo_rank = _rank_lo
    _hi_off = _rank_hi
    set_source("tables", "cache")
    _tables_bound = 1
    return True


cdef _cache_store_tables():
    cdef TableSet t
    _published_sections(&t)
    cache_store("tables", &t, _OWNER)



# ---------------------------------------------------------------------------
# the exact tables (never a fifth copy)
# ---------------------------------------------------------------------------

cdef void spec_init(Spec* S, int nrank, uint16_t allowed, uint16_t chow, uint16_t pung, uint16_t pair) noexcept nogil:
    cdef int r
    S.n = 0
    for r in range(9):
        S.pos[r] = -1
    for r in range(nrank):
        if (allowed >> r) & 1:
            S.pos[r] = S.n
            S.rank[S.n] = r
            S.n += 1
    S.chow = chow
    S.pung = pung
    S.pair = pair


cdef inline int _spec_key(const Spec* S, const int* w) noexcept nogil:
    cdef int j, key = 0
    for j in range(S.n - 1, -1, -1):
        key = key * 5 + w[S.rank[j]]
    return key


cdef void _mark_patterns(const Spec* S, uint16_t* C, int* w, int start, int m) noexcept nogil:
    """Mark every valid pattern of m or more melds (shapes from index
    `start` on, pungs 0-8 then chows 9-15) with or without one pair."""
    cdef int r, s
    C[_spec_key(S, w)] |= 1 << (m * 2)
    for r in range(9):
        if (S.pair >> r) & 1 and w[r] + 2 <= 4:
            w[r] += 2
            C[_spec_key(S, w)] |= 1 << (m * 2 + 1)
            w[r] -= 2
    if m == 4:
        return
    for s in range(start, 16):
        if s < 9:
            if (S.pung >> s) & 1 and w[s] + 3 <= 4:
                w[s] += 3
                _mark_patterns(S, C, w, s, m + 1)
                w[s] -= 3
        else:
            r = s - 9
            if (S.chow >> r) & 1 and w[r] < 4 and w[r + 1] < 4 and w[r + 2] < 4:
                w[r] += 1; w[r + 1] += 1; w[r + 2] += 1
                _mark_patterns(S, C, w, s, m + 1)
                w[r] -= 1; w[r + 1] -= 1; w[r + 2] -= 1


cdef uint8_t* build_exact(const Spec* S) noexcept nogil:
    """The distance table of a spec: 10 entries [m * 2 + p] per key over
    its allowed ranks; BIG where no pattern of that size exists.  NULL when
    out of memory."""
    cdef int nkey = P5[S.n], key, j, e, s, d, k
    cdef int w[9]
    cdef int digit[9]
    cdef uint16_t bits
    cdef uint16_t* C = <uint16_t*>calloc(nkey, sizeof(uint16_t))
    cdef uint8_t* out = <uint8_t*>_big_alloc(<size_t>nkey * 10)
    if C == NULL or out == NULL:
        free(C); free(out)
        return NULL
    memset(w, 0, sizeof(w))
    _mark_patterns(S, C, w, 0, 0)
    # every sub-multiset of a valid pattern is completable: walk down
    for key in range(nkey - 1, 0, -1):
        bits = C[key]
        if bits == 0:
            continue
        k = key
        for j in range(S.n):
            if k % 5:
                C[key - P5[j]] |= bits
            k //= 5
    for key in range(nkey):
        k = key
        s = 0
        for j in range(S.n):
            digit[j] = k % 5
            s += digit[j]
            k //= 5
        for e in range(10):
            if (C[key] >> e) & 1:
                d = 3 * (e >> 1) + 2 * (e & 1) - s
                out[key * 10 + e] = d if d > 0 else 0
            elif key == 0:
                out[e] = BIG          # no pattern of this size at all
            else:
                d = BIG
                for j in range(S.n):
                    if digit[j] and out[(key - P5[j]) * 10 + e] < d:
                        d = out[(key - P5[j]) * 10 + e]
                out[key * 10 + e] = d
    free(C)
    return out


# The exact tables: every rank, every shape, at most four copies; and their
# shanten records, built as the plain ones (_build_srec / _build_hrec) so
# that the exact shanten is the plain kernel (_shanten_rec) over other records.


cdef void _exact_sections(TableSet* t) noexcept nogil:
    """The exact tables as sections of the disk cache (mjfast._tablecache)."""
    cdef int i
    for i in range(NSECT):
        t.p[i] = NULL
        t.n[i] = 0
        t.big[i] = False
    t.count = 4
    t.big[0] = True         # both distance tables come from _big_alloc (_build_exact)
    t.big[1] = True
    t.n[0] = NKEY * 10
    t.n[1] = NHKEY * 10
    t.n[2] = (NSREC + SREC_PAD) * SREC
    t.n[3] = NHKEY * SREC


cdef int need_exact() except -1:
    global _xdist, _xhdist, _xsrec, _xhrec, _exact_bound
    cdef Spec S
    cdef uint8_t* a
    cdef uint8_t* b
    cdef uint8_t* ra = NULL
    cdef uint8_t* rb = NULL
    cdef TableSet t
    if _exact_bound:
        return 0
    need_tables()
    with _tables_lock:
        if _exact_bound:
            return 0
        _exact_sections(&t)
        if cache_read("exact", &t, _OWNER):
            _xhdist = <uint8_t*>t.p[1]
            _xsrec = <uint8_t*>t.p[2]
            _xhrec = <uint8_t*>t.p[3]
            _xdist = <uint8_t*>t.p[0]
            set_source("exact", "cache")
            _exact_bound = 1                # published last: the "built" flag
            return 0
        with nogil:
            spec_init(&S, 9, 0x1FF, 0x7F, 0x1FF, 0x1FF)
            a = build_exact(&S)
            spec_init(&S, 7, 0x7F, 0, 0x7F, 0x7F)
            b = build_exact(&S)
            if a != NULL and b != NULL:
                ra = _build_srec(a, False)      # the ranking tables are the plain build's
                rb = _build_hrec(b)
        if a == NULL or b == NULL or ra == NULL or rb == NULL:
            free(a); free(b); free(ra); free(rb)
            raise MemoryError("mjfast: cannot allocate the exact shanten tables")
        _xhdist = b
        _xsrec = ra
        _xhrec = rb
        _xdist = a
        _exact_bound = 1    # published last: the "built" flag
        set_source("exact", "built")
        t.p[0] = a
        t.p[1] = b
        t.p[2] = ra
        t.p[3] = rb
        cache_store("exact", &t, _OWNER)
    return 0



def _table_sections(kind="tables"):
    """One kind of published tables ("tables" or "exact"; "dec":
    mjfast._decide's), section by section, as bytes copies (tests: a
    cache-loaded set equals a built one byte for byte)."""
    cdef TableSet t
    if kind == "tables":
        tables_published(&t)
    elif kind == "exact":
        need_exact()
        _exact_sections(&t)
        t.p[0] = _xdist
        t.p[1] = _xhdist
        t.p[2] = _xsrec
        t.p[3] = _xhrec
    else:
        raise ValueError(f"unknown table kind {kind!r}")
    return [(str(i), (<char*>t.p[i])[:t.n[i]]) for i in range(t.count)]

# ---------------------------------------------------------------------------
# the C interface of this module (src/mjfast/_tables.pxd)
# ---------------------------------------------------------------------------

cdef int need_tables() except -1:
    # one flag test per call once built; the first call builds under the lock
    if not _tables_bound:
        build_tables()
    return 0


cdef int tables_published(TableSet* t) except -1:
    need_tables()
    _published_sections(t)
    return 0


cdef int exact_published(TableSet* t) except -1:
    need_exact()
    _exact_sections(t)
    t.p[0] = <void*>_xdist
    t.p[1] = <void*>_xhdist
    t.p[2] = <void*>_xsrec
    t.p[3] = <void*>_xhrec
    return 0


cdef int dist_tables(const uint8_t** dist, const uint8_t** hdist) except -1:
    need_tables()
    dist[0] = _dist
    hdist[0] = _hdist
    return 0
