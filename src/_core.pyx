# cython: language_level=3, cdivision=True
# (bounds and initialisation checks are set by setup.py: off, or on for MJFAST_DEBUG=1)
"""mjfast compiled core: lookup tables, win check, waits, shanten, decompositions.

The analysis step of the data flow (is_win / waits / shanten / readings);
the scoring and decision code is compiled into the same module, by textual
include (the .pxi files below: their order matters, a cdef function must
come before the file that calls it) and by cimport (the fan kernel,
src/fankernel/), so every kernel call inlines.  The notation parser and the
record readers are modules of their own (mjfast._notation, mjfast._records,
cimported); this module keeps their Python names.  Its C interface for the
other compiled modules: src/mjfast/_core.pxd.
Every entry point takes already-validated data (see mjfast/core.py): concealed
counts as uint8[34] with every count <= 4 and a size of 14-3k or 13-3k tiles.

Tables (built once per process, in C, on first use, under a lock, or read
from the disk cache of _tablecache.pxi):

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
  loads (see _shanten.pxi).
* Readings (decompositions) are tabled too (fankernel/readings.pxd): every
  suit pattern that splits into sets and at most one pair has its distinct
  splits (21,743 patterns, 23,533 splits, four at most) in a 256 KB hash by
  key, built here with the other tables; a hand's readings are the product of
  its suits' lists and the honors', already in the reference's order
  (tables rather than a depth-first split: measured, benchmarks/README.md,
  "Readings from per-suit tables").
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
cimport cython
from cython.parallel cimport prange
import threading
import time

import numpy as np
cimport numpy as cnp

cnp.import_array()

# The fan kernel and the primitives it shares with this file: .pxd modules of
# inline functions and C tables, compiled into this module (see the layout
# note at the top of src/fankernel/mcr_score.pxd).
from fankernel.tiles cimport *
from fankernel.forms cimport *
from fankernel.fan_base cimport *
from fankernel.fan_ids cimport *
from fankernel.readings cimport *
from fankernel.mcr_fans cimport *
from fankernel.mcr_score cimport *
from fankernel.tp_fans cimport *
from fankernel.registry cimport *
from mjfast._notation cimport parse_fast, PARSE_OK
from argcheck cimport _check_len, _check_rows

# the io step's compiled modules, whose Python entry points keep their old
# names here (mjfast.tiles, mjfast.core, mjfast.batch, mjfast.records,
# mjfast.score and mjfast.io.jsonl call them as _core.<name>)
from mjfast._notation import parse_notation, parse_rows_fast, parse_counts_fast
from mjfast._records import wind_code, flowers_code, context_code, read_records, write_results, scan_lines

_init_tile_order()
_init_forms()
_init_mcr_tables()

DEF NKEY = 1953125      # 5**9
DEF NHKEY = 78125       # 5**7
DEF BIG = 60

cdef int P5[10]
P5[0] = 1
for _i in range(1, 10):
    P5[_i] = P5[_i - 1] * 5

cdef uint8_t* _dist = NULL
cdef uint8_t* _hdist = NULL
cdef uint8_t* _flag2 = NULL     # per suit key, its win flags, 2 bits per key (488 KB: stays in L2)
cdef uint8_t* _hflag = NULL
cdef uint32_t* _wf = NULL       # per suit key: bits 0-8 melds-only wait mask, 9-17 with-pair
                                # wait mask, 18-19 the flag: one load instead of two
cdef uint8_t* _hwmask = NULL
# shanten records of the suit patterns (see _shanten.pxi)
DEF SREC = 16           # bytes per record: [m] m melds, [8 + m] and the pair, [5:8] knitted rests, [13] knitted counts
DEF NSREC = 405350      # suit patterns (9 counts 0-4) of at most 14 tiles
DEF SREC_PAD = 3125     # a pattern of more (never from a valid hand) still ranks inside the table
# rank of a pattern = _hi_off[key of counts 5-8] + _lo_rank[key of counts 0-4]:
# the low keys ordered by their tile count, so that for each high key the
# patterns of at most 14 tiles are the first ones
cdef int32_t _lo_rank[3125]
cdef int32_t _hi_off[625]
cdef uint8_t* _srec = NULL
cdef uint8_t* _hrec = NULL      # the honors' vectors in the same layout (1.25 MB)
cdef bint _built = False
_tables_lock = threading.Lock()

# ---------------------------------------------------------------------------
# table construction
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
    previous process of this build saved them (src/_tablecache.pxi); after a
    build, save them there.  Idempotent, thread-safe.  Returns the seconds
    spent (0.0 when they were already there)."""
    with _tables_lock:
        # under the lock: the build runs without the GIL, so a second thread
        # making its first call meanwhile must wait here, not build again
        if _built:
            return 0.0
        t0 = time.perf_counter()
        if _cache_load_locked():
            return time.perf_counter() - t0
        _build_tables_locked()
        _table_sources["tables"] = "built"
        _cache_store_tables()
        return time.perf_counter() - t0


cdef object _build_tables_locked():
    global _dist, _hdist, _flag2, _hflag, _hwmask, _wf, _srec, _hrec, _built
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
    _built = True
    return time.perf_counter() - t0


def table_nbytes():
    """Bytes held by the tables after the build: distances and wait words per
    suit key, the 2-bit flags, the honors' distances, flags and masks, and the
    shanten records of the suit patterns, and the suit patterns' splits into
    sets and a pair (fankernel/readings.pxd)."""
    return NKEY * (10 + 4) + NKEY // 4 + 1 + NHKEY * (10 + 1 + 2) + (NSREC + SREC_PAD + NHKEY) * SREC + _part_nbytes()


# ---------------------------------------------------------------------------
# per-hand kernels (nogil, trusting their input)
# ---------------------------------------------------------------------------

cdef inline int _key9(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))))))))


cdef inline int _key7(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * c[6]))))))



cdef inline bint _regular_win(const uint8_t* c) noexcept nogil:
    """Concealed tiles split into melds + exactly one pair."""
    cdef int k0 = _key9(c), k1 = _key9(c + 9), k2 = _key9(c + 18)
    cdef int f0 = (_flag2[k0 >> 2] >> ((k0 & 3) * 2)) & 3
    cdef int f1 = (_flag2[k1 >> 2] >> ((k1 & 3) * 2)) & 3
    cdef int f2 = (_flag2[k2 >> 2] >> ((k2 & 3) * 2)) & 3
    cdef int fh = _hflag[_key7(c + 27)]
    if not (f0 and f1 and f2 and fh):
        return False
    # exactly one part holds the pair: count parts that can only be "with pair"
    cdef int npair = (f0 == 2) + (f1 == 2) + (f2 == 2) + (fh == 2)
    return npair == 1


cdef inline bint _knitted_straight_win(const uint8_t* c) noexcept nogil:
    """A full knitted arrangement, and the rest splits into sets and a pair."""
    cdef uint8_t rest[34]
    cdef int j, a = _full_knit(c)
    if a < 0:
        return False
    memcpy(rest, c, 34)
    for j in range(9):
        rest[KNIT_TILES[a][j]] -= 1
    return _regular_win(rest)



cdef inline bint _is_win_m(const uint8_t* c, int melds) noexcept nogil:
    """14-3k concealed tiles (melds = k) complete a hand in any form."""
    cdef bint odd, many
    if _regular_win(c):
        return True
    if melds == 0:
        _count_shape(c, &odd, &many)
        if not odd and _seven_pairs_win(c):
            return True
        if _orphans_win(c):
            return True
        if not many and _honors_knitted_win(c):
            return True
    if melds <= 1:
        return _knitted_straight_win(c)
    return False


cdef inline bint _is_win(const uint8_t* c) noexcept nogil:
    cdef int n = _ntiles(c)
    return _is_win_m(c, (14 - n) // 3) if n % 3 == 2 else False


cdef inline uint64_t _regular_waits(const uint8_t* c) noexcept nogil:
    """Tiles completing the regular form, as a 34-bit mask (13-3k tiles).

    A tile added to part j completes the hand when the other three parts are
    all melds-only (part j then takes the pair) or all melds-only but one
    with the pair (part j then takes melds).  The flags come from the small
    2-bit table; only the parts that qualify load their wait masks."""
    cdef int f[4]
    cdef int k[4]
    cdef int j, nM, nP, allM, oneP
    cdef uint64_t out = 0
    cdef uint32_t e
    k[0] = _key9(c); k[1] = _key9(c + 9); k[2] = _key9(c + 18); k[3] = _key7(c + 27)
    for j in range(3):
        f[j] = (_flag2[k[j] >> 2] >> ((k[j] & 3) * 2)) & 3
    f[3] = _hflag[k[3]]
    allM = (f[0] & 1) + (f[1] & 1) + (f[2] & 1) + (f[3] & 1)
    oneP = ((f[0] >> 1) & 1) + ((f[1] >> 1) & 1) + ((f[2] >> 1) & 1) + ((f[3] >> 1) & 1)
    for j in range(4):
        nM = allM - (f[j] & 1)
        nP = oneP - ((f[j] >> 1) & 1)
        if nM == 3 or (nM == 2 and nP == 1):
            if j < 3:
                e = _wf[k[j]]
                out |= (<uint64_t>((e >> 9) & 0x1FF) if nM == 3 else <uint64_t>(e & 0x1FF)) << (9 * j)
            else:
                out |= (<uint64_t>_hwmask[k[3] * 2 + (1 if nM == 3 else 0)]) << 27
    return out


cdef inline uint64_t _waits(const uint8_t* c, int melds) noexcept nogil:
    cdef uint64_t out = _regular_waits(c)
    cdef uint8_t tmp[34]
    cdef int t, a, j, single, n
    cdef int got[6]
    _knitted_got(c, got)
    if melds == 0:
        # seven pairs: six pairs and one odd tile (four of a kind = two pairs)
        single = -1
        n = 0
        for t in range(34):
            if c[t] & 1:
                n += 1
                single = t
        if n == 1 and c[single] < 4:
            out |= (<uint64_t>1) << single
        # thirteen orphans
        if _orphans_dist(c) == 1:
            for j in range(13):
                t = ORPHANS[j]
                if c[t] < 2:
                    memcpy(tmp, c, 34)
                    tmp[t] += 1
                    if _orphans_win(tmp):
                        out |= (<uint64_t>1) << t
        # honors and knitted
        if _honors_knitted_dist(c, got) == 1:
            for t in range(34):
                if c[t] == 0:
                    memcpy(tmp, c, 34)
                    tmp[t] = 1
                    if _honors_knitted_win(tmp):
                        out |= (<uint64_t>1) << t
    if melds <= 1:
        for a in range(6):
            if got[a] >= 8:
                for t in range(34):
                    if c[t] < 4 and not ((out >> t) & 1):
                        memcpy(tmp, c, 34)
                        tmp[t] += 1
                        if _knitted_straight_win(tmp):
                            out |= (<uint64_t>1) << t
    return out


cdef extern from "openmp.h":
    int MJFAST_DEBUG_BUILD
    int mjfast_openmp() nogil
    int mjfast_num_procs() nogil


cdef int _nthreads(int n) except -1:
    """The thread count a kernel runs with: at least 1 (0 or less is refused), at
    most the processors OpenMP sees (mjfast.core.resolve_workers clamps
    already; this keeps a direct call from asking libgomp for 10**6 threads)."""
    cdef int cap
    if n < 1:
        raise ValueError(f"nthreads must be >= 1, got {n}")
    cap = mjfast_num_procs()
    return n if n <= cap else (cap if cap >= 1 else 1)


# ---------------------------------------------------------------------------
# Python-facing entry points.  mjfast/core.py validates and gives the error
# messages; these guard again (constant-time shape checks, and each hand
# copied before it is checked and read, so an array changed by another thread
# meanwhile is refused rather than read out of bounds): no argument reaches
# the kernels unchecked.
# ---------------------------------------------------------------------------

# the error codes ERR_<NAME>: generated by setup.py from mjfast/spec/errors.py,
# whose messages the guards raise with ({family: {code: message}})
from error_codes cimport *
from mjfast.spec import errors as _errors
_ERROR_TEXT = {_fam: _errors.messages(_fam) for _fam in dict.fromkeys(_c.family for _c in _errors.CODES)}
include "_checks.pxi"
include "_shanten.pxi"
include "_tablecache.pxi"


cdef inline int _need_tables() except -1:
    # one flag test per call once built; the first call builds under the lock
    if not _built:
        build_tables()
    return 0


def is_win_one(const uint8_t[::1] c):
    """True when the 34 counts (14-3k tiles, melds implied) complete a hand."""
    cdef uint8_t h[34]
    _need_tables()
    _take_hand(c, h, 0, -1)
    return bool(_is_win(h))


def shanten_one(const uint8_t[::1] c, int melds, int form):
    """Shanten of 34 counts beside `melds` melds, in one form (0-4) or all (-1)."""
    cdef uint8_t h[34]
    _need_tables()
    _check_form(form)
    _take_hand(c, h, melds, 2)
    return _shanten(h, melds, form)


def waits_one(const uint8_t[::1] c, int melds):
    """Tiles completing 34 counts of 13-3k tiles beside `melds` melds."""
    cdef uint8_t h[34]
    _need_tables()
    _take_hand(c, h, melds, 1)
    cdef uint64_t m = _waits(h, melds)
    return [t for t in range(34) if (m >> t) & 1]


def useful_one(const uint8_t[::1] c, int melds, int form):
    """Tiles (count < 4) whose draw lowers the distance of the hand (13-3k tiles)."""
    cdef uint8_t h[34]
    _need_tables()
    cdef uint8_t tmp[34]
    cdef int t, base
    _check_form(form)
    _take_hand(c, h, melds, 1)
    out = []
    base = _shanten(h, melds, form)
    for t in range(34):
        if h[t] < 4:
            memcpy(tmp, h, 34)
            tmp[t] += 1
            if _shanten(tmp, melds, form) < base:
                out.append(t)
    return out


cdef inline int _shanten_row(const uint8_t* src, int m, int form, cnp.int8_t* out) noexcept nogil:
    """One row of shanten_batch: copied, re-checked (13 or 14 tiles counting 3
    per meld), then computed.  Returns the error code (0 = out set)."""
    cdef uint8_t c[34]
    cdef int e
    _copy_row(c, src)
    e = _recheck(c, m, 2)
    if e:
        return e
    out[0] = _shanten(c, m, form)
    return 0


cdef inline int _waits_row(const uint8_t* src, int m, uint8_t* out) noexcept nogil:
    """One row of waits_batch (13-3k tiles), as _shanten_row."""
    cdef uint8_t c[34]
    cdef int e, t
    cdef uint64_t w
    _copy_row(c, src)
    e = _recheck(c, m, 1)
    if e:
        return e
    w = _waits(c, m)
    for t in range(34):
        out[t] = (w >> t) & 1
    return 0


def shanten_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] melds, uint8_t[::1] err, cnp.int8_t[::1] out,
                  int form, int nthreads):
    """out[i] = shanten of row i beside melds[i] melds.  Rows with err[i] != 0
    are skipped; a row that fails the re-check gets its error code in err[i]
    (the array changed since it was validated).  Either way out[i] = -128.
    Returns the number of rows the re-check flagged."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    _check_form(form)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    _check_len(melds.shape[0], n, "melds")
    _check_len(err.shape[0], n, "err")
    _check_len(out.shape[0], n, "out")
    cdef int e
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                e = err[i] or _shanten_row(&hands[i, 0], melds[i], form, &out[i])
                if e:
                    out[i] = -128
                    if not err[i]:
                        err[i] = 0x80 | e    # marked as new; see _flagged
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=4096):
            e = err[i] or _shanten_row(&hands[i, 0], melds[i], form, &out[i])
            if e:
                out[i] = -128
                if not err[i]:
                    err[i] = 0x80 | e
    return _flagged(err)


def waits_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] melds, uint8_t[::1] err, uint8_t[:, ::1] out,
                int nthreads):
    """out[i] = the waits of row i as 34 0/1 bytes; err as in shanten_batch
    (bad rows get all zeros)."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    _check_len(melds.shape[0], n, "melds")
    _check_len(err.shape[0], n, "err")
    _check_rows(out, "out")
    _check_len(out.shape[0], n, "out")
    cdef int e
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                e = err[i] or _waits_row(&hands[i, 0], melds[i], &out[i, 0])
                if e:
                    memset(&out[i, 0], 0, 34)
                    if not err[i]:
                        err[i] = 0x80 | e
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=4096):
            e = err[i] or _waits_row(&hands[i, 0], melds[i], &out[i, 0])
            if e:
                memset(&out[i, 0], 0, 34)
                if not err[i]:
                    err[i] = 0x80 | e
    return _flagged(err)


cdef Py_ssize_t _flagged(uint8_t[::1] err):
    """Clear the 'new' mark (0x80) the kernels put on rows their re-check
    refused, and count those rows."""
    cdef Py_ssize_t i, k = 0
    for i in range(err.shape[0]):
        if err[i] & 0x80:
            err[i] &= 0x7F
            k += 1
    return k


def _openmp_flag():
    return bool(mjfast_openmp())


#: True for a debug build (MJFAST_DEBUG=1: Cython's bounds checks on, -O0 -g)
DEBUG_BUILD = bool(MJFAST_DEBUG_BUILD)



def unique_wait_check(const uint8_t[:, ::1] counts, const uint8_t[::1] n_melds, const uint8_t[::1] win,
                      int8_t[:, ::1] out):
    """For the tests: out[i] = (the fan kernel's unique-wait answer, the full
    computation's) for the winning concealed counts of row i (14-3k tiles
    beside n_melds[i] melds, winning tile win[i]); (-1, -1) when the row is
    not a regular-form win.  Rows are checked, never trusted."""
    cdef Py_ssize_t i, n = counts.shape[0]
    cdef uint8_t c[34]
    cdef int m, w
    if counts.shape[1] != 34:
        raise ValueError("unique_wait_check: counts must have 34 columns")
    if n_melds.shape[0] != n or win.shape[0] != n or out.shape[0] != n or out.shape[1] != 2:
        raise ValueError("unique_wait_check: n_melds, win and out (n x 2) must have one row per hand")
    _need_tables()
    for i in range(n):
        out[i, 0] = -1
        out[i, 1] = -1
        memcpy(c, &counts[i, 0], 34)
        m = n_melds[i]
        w = win[i]
        if m > 4 or w >= 34 or _over4(c) or _sum34(c) != 14 - 3 * m or c[w] == 0 or not _regular_win(c):
            continue
        c[w] -= 1
        out[i, 0] = _unique_wait(c, m, w)
        out[i, 1] = _unique_wait_full(c, m)


def knit_wait_check(int kind, int set_tile, int pair, int win):
    """For the tests: the knitted straight's waits (a tile mask) for the set
    (kind 0 chow, 1 pung, of set_tile: a chow's lowest) and pair beside the
    straight and the winning tile, as (the kernel's, the old computation's)."""
    cdef uint8_t rest[34]
    cdef Pack st
    if not (0 <= kind <= 1 and 0 <= set_tile <= 33 and 0 <= pair <= 33 and 0 <= win <= 33):
        raise ValueError("knit_wait_check: kind 0/1, tiles 0..33")
    if kind == 0 and (set_tile >= 27 or set_tile % 9 > 6):
        raise ValueError("knit_wait_check: a chow's lowest tile is a suited 1..7")
    _need_tables()
    memset(rest, 0, 34)
    st.type = P_CHOW if kind == 0 else P_PUNG
    st.tile = set_tile
    st.melded = 0
    rest[set_tile] += 3 - 2 * (kind == 0)
    if kind == 0:
        rest[set_tile + 1] += 1
        rest[set_tile + 2] += 1
    rest[pair] += 2
    return _knit_wait(&st, pair, win), _knit_wait_full(rest, win)


def four_tile_waits_check(int a, int b, int c, int d):
    """For the tests: the shape waits (a tile mask) of four tiles, as (the
    kernel's _four_tile_waits, _shape_waits of their counts)."""
    cdef int t[4]
    cdef int i
    cdef uint8_t cnt[34]
    if not (0 <= a <= 33 and 0 <= b <= 33 and 0 <= c <= 33 and 0 <= d <= 33):
        raise ValueError("four_tile_waits_check: tiles 0..33")
    _need_tables()
    t[0] = a; t[1] = b; t[2] = c; t[3] = d
    memset(cnt, 0, 34)
    for i in range(4):
        cnt[t[i]] += 1
    return _four_tile_waits(t), _shape_waits(cnt)


if NFAN != 84:
    # fankernel/fan_base.pxd's _fans_zero / _fans_copy move exactly 84 counts
    raise ImportError(f"mjfast: the fan vector helpers are written for 84 counts, NFAN is {NFAN}")

include "_rulesets.pxi"
include "_settle.pxi"
include "_fan_entry.pxi"
include "_decide.pxi"
include "_discards.pxi"
include "_exact.pxi"
include "_targets.pxi"


def validate_batch(const uint8_t[:, ::1] hands, const int64_t[::1] melds_given, int mode, uint8_t[::1] melds_out, uint8_t[::1] err_out):
    """The validating pass of the batch functions (see _row_check): error
    codes as mjfast.core.ERROR_MESSAGES and the melds of each row.  mode: 0 =
    complete (14-3k), 1 = ready (13-3k), 2 = either.  Returns the number of
    bad rows."""
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    cdef int bad = 0, m
    cdef const int64_t* gp = _given_rows(melds_given, n)
    if not 0 <= mode <= 2:
        raise ValueError(f"mode must be 0, 1 or 2, got {mode}")
    _check_len(melds_out.shape[0], n, "melds_out")
    _check_len(err_out.shape[0], n, "err_out")
    with nogil:
        for i in range(n):
            err_out[i] = _row_check(&hands[i, 0], gp + i if gp != NULL else NULL, mode, &m)
            melds_out[i] = m
            bad += err_out[i] != 0
    return bad


cdef inline int _row_check(const uint8_t* c, const int64_t* given, int mode, int* melds) noexcept nogil:
    """The validating pass for one row (see validate_batch); returns the error
    code.  The kernels pass a private copy of the row; the given melds (the
    caller's array) are read once."""
    cdef int s = _sum34(c), m, total
    cdef bint over = _over4(c)
    cdef int64_t g
    if given != NULL:
        g = given[0]
        m = <int>g if -1 <= g <= 5 else 5
    elif s % 3 == 2:
        m = (14 - s) // 3
    else:
        m = (13 - s) // 3
    melds[0] = m if 0 <= m <= 4 else 0
    total = s + 3 * m
    if over:
        return ERR_TOO_MANY_COPIES
    if m < 0 or m > 4:
        return ERR_BAD_MELDS
    if (mode == 0 and total != 14) or (mode == 1 and total != 13) or (mode == 2 and total != 13 and total != 14):
        return ERR_BAD_SIZE
    return ERR_OK


cdef inline int _win_row(const uint8_t* src, const int64_t* given, uint8_t* out) noexcept nogil:
    """One row of is_win_checked: copied, checked, then tested, so the tiles
    tested are the tiles checked."""
    cdef uint8_t c[34]
    cdef int e, m
    _copy_row(c, src)
    e = _row_check(c, given, 0, &m)
    out[0] = 0 if e else _is_win_m(c, m)
    return e


def is_win_checked(const uint8_t[:, ::1] hands, const int64_t[::1] melds_given, uint8_t[::1] out, uint8_t[::1] err, int nthreads):
    """Validation and win check in one pass (a bad row gets err != 0, out 0).
    Returns the number of bad rows."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    cdef const int64_t* gp = _given_rows(melds_given, n)
    cdef int bad = 0
    _check_len(out.shape[0], n, "out")
    _check_len(err.shape[0], n, "err")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _win_row(&hands[i, 0], gp + i if gp != NULL else NULL, &out[i])
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=4096):
            err[i] = _win_row(&hands[i, 0], gp + i if gp != NULL else NULL, &out[i])
    for i in range(n):
        bad += err[i] != 0
    return bad


cdef inline int _waits_checked_row(const uint8_t* src, const int64_t* given, uint8_t* out) noexcept nogil:
    """One row of waits_checked: copied, checked (mode 1: 13-3k tiles), then
    its waits from the same copy; a bad row gets all zeros."""
    cdef uint8_t c[34]
    cdef int e, m, t
    cdef uint64_t w = 0
    _copy_row(c, src)
    e = _row_check(c, given, 1, &m)
    if not e:
        w = _waits(c, m)
    for t in range(34):
        out[t] = (w >> t) & 1
    return e


def waits_checked(const uint8_t[:, ::1] hands, const int64_t[::1] melds_given, uint8_t[:, ::1] out, uint8_t[::1] err, int nthreads):
    """Validation and waits in one pass (as is_win_checked): err[i] as
    validate_batch in mode 1, out[i] the waits of row i as 34 0/1 bytes (all
    zeros for a bad row).  Returns the number of bad rows."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    cdef const int64_t* gp = _given_rows(melds_given, n)
    cdef int bad = 0
    _check_rows(out, "out")
    _check_len(out.shape[0], n, "out")
    _check_len(err.shape[0], n, "err")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _waits_checked_row(&hands[i, 0], gp + i if gp != NULL else NULL, &out[i, 0])
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=4096):
            err[i] = _waits_checked_row(&hands[i, 0], gp + i if gp != NULL else NULL, &out[i, 0])
    for i in range(n):
        bad += err[i] != 0
    return bad


def counts_info(const uint8_t[::1] c):
    """(number of tiles, largest count) of a 34-count row, for fast validation."""
    cdef int j, s = 0, mx = 0, v
    _check_len(c.shape[0], 34, "counts")
    for j in range(34):
        v = c[j]
        s += v
        mx = v if v > mx else mx
    return s, mx


# ---------------------------------------------------------------------------
# the C interface of this module (src/mjfast/_core.pxd), for mjfast._engine,
# mjfast._game and mjfast._wild, and for the fan kernel's readings
# ---------------------------------------------------------------------------

cdef int need_tables() except -1:
    return _need_tables()


cdef int need_decisions() except -1:
    return _need_dec()          # the discard ranking's tables (and the lookup tables)


cdef uint64_t regular_waits(const uint8_t* c) noexcept nogil:
    return _regular_waits(c)


cdef uint64_t waits_of(const uint8_t* c, int melds) noexcept nogil:
    return _waits(c, melds)


cdef int seven_pairs_dist(const uint8_t* c) noexcept nogil:
    return _seven_pairs_dist(c)


cdef int dist_tables(const uint8_t** dist, const uint8_t** hdist) except -1:
    _need_tables()
    dist[0] = _dist
    hdist[0] = _hdist
    return 0


cdef bint win_check(const uint8_t* c) noexcept nogil:
    return _is_win(c)


cdef int shanten_of(const uint8_t* c, int melds, int form) noexcept nogil:
    return _shanten(c, melds, form)


cdef int rank_discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                       Choice* out) noexcept nogil:
    return _discards(c, melds, held, seen, out)


cdef int score_counts(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                      const uint8_t* open_, int win, int flags, int seat, int rnd, int flowers,
                      int16_t* ft) noexcept nogil:
    """The total of one hand (flowers included) as score_one computes it (see
    the .pxd); the game engine plays MCR."""
    cdef PHand h
    cdef int16_t tmp[NFAN]
    cdef int form = 0, i
    if n_melds < 0 or n_melds > 4 or win < 0 or win > 33 or flags < 0 or seat < 0 or rnd < 0 or flowers < 0:
        return -3
    memcpy(h.counts, counts, 34)
    h.n_melds = n_melds
    for i in range(n_melds):
        h.meld_kind[i] = kind[i]
        h.meld_tile[i] = tile[i]
        h.meld_open[i] = open_[i]
    h.win_tile = win
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    h.variant = 0
    if not _phand_sane(&h):
        return -3
    return _score_hand(&h, ft if ft != NULL else tmp, NULL, &form)   # the reading is not wanted
