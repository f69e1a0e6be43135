# cython: language_level=3, cdivision=True
"""mjfast compiled wildcard analysis (``mjfast._wild``): the wildcard tables
and the entry points of the win check, shanten, waits and useful tiles.

A wildcard hand is the 34 counts ``c`` of its real tiles plus ``k`` wildcards
(0..8), each of which may stand for any tile.  By default a wildcard may not
make a fifth copy (``c + s <= 4`` for the substitution ``s``); ``fifth``
lifts that.  The answers are table lookups plus a small combination step: no
kernel tries substitutions one by one.

This module builds the tables; the per-hand kernels that read them are
inline .pxd files under src/wildkernel/ (win.pxd: the win check;
shanten.pxd; waits.pxd: the waits and useful tiles), compiled in here so
that the batch loops below inline them, and the tables' addresses are
statics of src/include/wildkernel/tables.h (tables.pxd: their binding).

* Win masks (_emask): per suit key, the (melds, pairs) the part completes
  into exactly with added tiles, no count past 4: the completion flags of
  every key above it (every count >= its own, at most 4), ORed in one
  descending pass over mjfast._tables' distance table.
* Shanten steps (_wstep): per suit key and (melds, pair), which of the
  wildcards 1..8 lowers the part's distance (one step each at most: a build
  that finds a larger step refuses, a table bug).

Each kind is built on first use, under a lock: the shanten steps cost far
more to build than the win masks, so a process that only checks wins never
builds them (figures: benchmarks/README.md, "Wildcards").  The distance
tables come from mjfast._tables (dist_tables, cimported in
wildkernel/tables.pxd).  Every entry point takes already-validated data
(mjfast/analysis/wild.py) and re-checks it cheaply (_row_err, _take) before a kernel
reads it.
"""
from libc.stdint cimport uint8_t, uint16_t, int8_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from cython.parallel cimport prange
import threading

import numpy as np
cimport numpy as cnp

cnp.import_array()

from wildkernel.tables cimport (_dist, _hdist, _bind_dist, _set_win_tables, _set_step_tables, _init_knit, P5,
                                NKEY, NHKEY, KMAX)
from wildkernel.win cimport _wis_win, _ntiles
from wildkernel.shanten cimport _wshanten
from wildkernel.waits cimport _wwaits, _wuseful

cdef extern from "openmp.h":
    int mjfast_num_procs() nogil

#: the most wildcards a hand may hold
MAX_WILDCARDS = KMAX

_init_knit()

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


def build_win_tables():
    """Build the win masks (idempotent, thread-safe)."""
    global _built_win
    cdef uint16_t* em
    cdef uint16_t* hem
    with _lock:
        if _built_win:
            return
        _bind_dist()
        em = <uint16_t*>malloc(NKEY * sizeof(uint16_t))
        hem = <uint16_t*>malloc(NHKEY * sizeof(uint16_t))
        if em == NULL or hem == NULL:
            free(em); free(hem)
            raise MemoryError("mjfast: cannot allocate the wildcard tables")
        with nogil:
            _build_emask(_dist, em, 9, NKEY)
            _build_emask(_hdist, hem, 7, NHKEY)
        _set_win_tables(em, hem)
        _built_win = True


def build_shanten_tables():
    """Build the shanten steps (idempotent, thread-safe)."""
    global _built_steps
    cdef uint8_t* st
    cdef uint8_t* hst
    cdef int r1, r2
    with _lock:
        if _built_steps:
            return
        _bind_dist()
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
        _set_step_tables(st, hst)
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
