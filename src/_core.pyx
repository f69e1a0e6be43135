# cython: language_level=3, cdivision=True
# (bounds and initialisation checks are set by setup.py: off, or on for MJFAST_DEBUG=1)
"""mjfast._core: the analysis step's entry points -- win check, waits, shanten.

One hand (is_win_one, shanten_one, waits_one, useful_one) or a batch
(shanten_batch, waits_batch, and the *_checked calls that validate and
compute in one pass), the validating pass itself (validate_batch) and the
narrowing of wide integer columns.  The kernels are inline .pxd files
(src/handkernel/: win.pxd, shanten.pxd) over the lookup tables of
mjfast._tables, which this module binds on first use; the per-form
definitions the differential tests compare them with (_shanten_plain,
_shanten_exact_plain) stay here, beside their batch call.  Its C interface
for the other compiled modules: src/mjfast/_core.pxd.

Every entry point takes already-validated data (see mjfast/analysis/):
concealed counts as uint8[34] with every count <= 4 and a size of 14-3k or
13-3k tiles; each guards again (src/handkernel/guards.pxd).  The other
steps are modules of their own: the tables (mjfast._tables, with the disk
cache, mjfast._tablecache), scoring (mjfast._fans), decisions
(mjfast._decide), fan targets (mjfast._targets), notation and records
(mjfast._notation, mjfast._records, whose Python names this module keeps).
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
cimport cython
from cython.parallel cimport prange

import numpy as np
cimport numpy as cnp

cnp.import_array()

from fankernel.tiles cimport *
from fankernel.forms cimport *
from handkernel.tables cimport _need_tables, _need_exact, _srec, _hrec, _xsrec, _xhrec, _xdist, _xhdist, BIG
from handkernel.win cimport *
from handkernel.shanten cimport *
from handkernel.guards cimport *
from argcheck cimport _check_len, _check_rows

# the io step's compiled modules, whose Python entry points keep their old
# names here (mjfast.tiles, mjfast.core, mjfast.batch, mjfast.records,
# mjfast.score and mjfast.io.jsonl call them as _core.<name>)
from mjfast._notation import parse_notation, parse_rows_fast, parse_counts_fast
from mjfast._records import wind_code, flowers_code, context_code, read_records, write_results, scan_lines


_init_tile_order()
_init_forms()

cdef extern from "openmp.h":
    int MJFAST_DEBUG_BUILD
    int mjfast_openmp() nogil


# ---------------------------------------------------------------------------
# Python-facing entry points.  mjfast.analysis validates and gives the error
# messages; these guard again (constant-time shape checks, and each hand
# copied before it is checked and read, so an array changed by another thread
# meanwhile is refused rather than read out of bounds): no argument reaches
# the kernels unchecked.
# ---------------------------------------------------------------------------

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



def _openmp_flag():
    return bool(mjfast_openmp())


#: True for a debug build (MJFAST_DEBUG=1: Cython's bounds checks on, -O0 -g)
DEBUG_BUILD = bool(MJFAST_DEBUG_BUILD)


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
# wide integer columns narrowed, HandBatch's row checks
# ---------------------------------------------------------------------------

# Integer columns given in a wider type (tile counts of the batch calls,
# HandBatch's columns), narrowed to uint8 in one compiled pass (numpy took
# two or three: an OR or a min and a max to find a value outside 0..255,
# then astype).
ctypedef fused _wide_count:
    int8_t
    int16_t
    int32_t
    int64_t
    uint16_t
    uint32_t
    uint64_t


cdef inline int _narrow_row(const _wide_count* s, uint8_t* d, Py_ssize_t k) noexcept nogil:
    """k values into d, clamped to 0..255; bit 0 set when one is negative,
    bit 1 when one is above 255."""
    cdef Py_ssize_t j
    cdef int f = 0
    for j in range(k):
        if _wide_count is int8_t or _wide_count is int16_t or _wide_count is int32_t or _wide_count is int64_t:
            if s[j] < 0:
                f |= 1
                d[j] = 0
                continue
        if s[j] > 255:
            f |= 2
            d[j] = 255
        else:
            d[j] = <uint8_t>s[j]
    return f


DEF NARROW_BLOCK = 16       # rows narrowed between two range tests


def narrow_rows(const _wide_count[:, ::1] src, uint8_t[:, ::1] dst, uint8_t[::1] flags):
    """dst = src (N, k) as uint8, each value clamped to 0..255; flags[i] bit 0
    = row i held a negative value, bit 1 = a value above 255.  Returns the
    number of rows flagged."""
    cdef Py_ssize_t i, j, r, e, n = src.shape[0], k = src.shape[1], nbad = 0
    cdef int f
    cdef _wide_count acc
    cdef const _wide_count* s
    cdef uint8_t* d
    if dst.shape[1] != k:
        raise ValueError(f"dst must have {k} columns like src, got {dst.shape[1]}")
    _check_len(dst.shape[0], n, "dst")
    _check_len(flags.shape[0], n, "flags")
    if n == 0 or k == 0:
        flags[:] = 0
        return 0
    with nogil:
        # blocks of rows as one flat run: a plain truncating copy and an OR of
        # the values (both vectorise), the rows redone one by one only when the
        # OR shows a value outside 0..255 (a negative one in two's complement)
        for r in range(0, n, NARROW_BLOCK):
            e = min(r + NARROW_BLOCK, n)
            s = &src[r, 0]
            d = &dst[r, 0]
            acc = 0
            for j in range(k * (e - r)):
                acc |= s[j]
                d[j] = <uint8_t>s[j]
            memset(&flags[r], 0, e - r)
            if acc & ~0xFF:       # (as C ints: sign-extended for a negative value)
                for i in range(r, e):
                    f = _narrow_row(&src[i, 0], &dst[i, 0], k)
                    flags[i] = f
                    nbad += f != 0
    return nbad


# HandBatch's checks of array input, one pass over the rows instead of a
# dozen numpy passes and an np.add.at per meld slot, which cost more than
# scoring the rows (figures: benchmarks/README.md, "HandBatch's checks of
# array input, compiled").  Codes: the records family of mjfast/spec/errors.py
# (worded by mjfast.batch._ROW_MESSAGES); the first failing check of a row
# names it, in the order of that table.
cdef inline int _batch_row_code(const uint8_t* c, const uint8_t* melds, int k, int win, int flags, int seat,
                                int rnd, int flowers, const uint8_t* added) noexcept nogil:
    cdef int j, t, kind, kk = k if k < 4 else 4, s = 0, code = 0
    cdef int full[34]
    if k > 4:
        return ERR_MELDS_OVER_4
    for j in range(kk):
        if melds[3 * j] > 2:
            return ERR_MELD_KIND
    for j in range(kk):
        if melds[3 * j + 1] > 33:
            return ERR_MELD_TILE
    for j in range(kk):
        t = melds[3 * j + 1]
        if melds[3 * j] == 0 and (t >= 27 or t % 9 > 6):
            return ERR_CHOW_START
    for j in range(kk):
        if melds[3 * j] != 2 and melds[3 * j + 2] == 0:
            return ERR_CONCEALED_NOT_KONG
    for t in range(34):
        full[t] = c[t]
        s += c[t]
    for j in range(kk):
        kind = melds[3 * j]
        t = melds[3 * j + 1]
        if kind == 0:
            full[t] += 1; full[t + 1] += 1; full[t + 2] += 1
        else:
            full[t] += 4 if kind == 2 else 3
    for t in range(34):
        if full[t] > 4:
            return ERR_FIFTH_COPY
    if s + 3 * kk != 14:
        return ERR_ROW_SIZE
    if win > 33:
        return ERR_WIN_TILE_RANGE
    if c[win] == 0:
        return ERR_WIN_TILE_NOT_HELD
    if flags > 15:
        return ERR_FLAG_BITS
    if seat > 3 or rnd > 3:
        return ERR_WINDS
    if flowers > 8:
        return ERR_FLOWERS
    for j in range(4):
        if added[j] > 3 or (added[j] > 0 and not (j < kk and melds[3 * j] == 2 and melds[3 * j + 2] == 1)):
            return ERR_ADDED
    return 0


def batch_row_codes(const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds, const uint8_t[::1] n_melds,
                    const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                    const uint8_t[::1] rnd, const uint8_t[::1] flowers, const uint8_t[:, ::1] added,
                    const uint8_t[::1] skip, uint8_t[::1] code_out):
    """code_out[i] = the first check row i fails (mjfast.batch._ROW_MESSAGES,
    0 = none); rows with skip[i] != 0 get 0.  Returns the number of rows
    with a code."""
    cdef Py_ssize_t i, n = _check_rows(counts, "counts"), bad = 0
    cdef uint8_t c[34]
    cdef uint8_t m[12]
    cdef uint8_t a[4]
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    if added.shape[0] != n or added.shape[1] != 4:
        raise ValueError(f"added must be ({n}, 4), got ({added.shape[0]}, {added.shape[1]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win_tile")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(skip.shape[0], n, "skip")
    _check_len(code_out.shape[0], n, "code_out")
    with nogil:
        for i in range(n):
            if skip[i]:
                code_out[i] = 0
                continue
            # private copies: what is checked is what was read
            memcpy(c, &counts[i, 0], 34)
            memcpy(m, &melds[i, 0, 0], 12)
            memcpy(a, &added[i, 0], 4)
            code_out[i] = _batch_row_code(c, m, n_melds[i], win[i], flags[i], seat[i], rnd[i], flowers[i], a)
            bad += code_out[i] != 0
    return bad

# ---------------------------------------------------------------------------
# shanten: the per-form definitions (the differential tests' references) and
# the validating batch
# ---------------------------------------------------------------------------

cdef int _shanten_plain(const uint8_t* c, int melds, int form) noexcept nogil:
    """The definition _shanten computes, form by form on the 34 counts: the
    regular form over the four parts' vectors, and a knitted straight's rest
    as a hand of its own.  Kept as the reference of the differential tests
    (shanten_plain_batch); nothing else calls it."""
    cdef int best = BIG, v, a, j, hon, t
    cdef int got[6]
    cdef uint8_t rest[34]
    if form < 0 or form == 0:
        v = _regular_dist(c, 4 - melds)
        if v < best:
            best = v
    if melds == 0:
        if form < 0 or form == 1:
            v = _seven_pairs_dist(c)
            if v < best:
                best = v
        if form < 0 or form == 2:
            v = _orphans_dist(c)
            if v < best:
                best = v
    if melds > 1 or not (form < 0 or form == 3 or form == 4):
        return best - 1
    _knitted_got(c, got)
    if melds == 0 and (form < 0 or form == 3):
        v = _honors_knitted_dist(c, got)
        if v < best:
            best = v
    if form < 0 or form == 4:
        # knitted straight: 9 - held is a lower bound, so most arrangements
        # are skipped before their rest is looked up
        for a in range(6):
            if 9 - got[a] >= best:
                continue
            memcpy(rest, c, 34)
            for j in range(9):
                t = KNIT_TILES[a][j]
                if rest[t]:
                    rest[t] -= 1
            v = (9 - got[a]) + _regular_dist(rest, 1 - melds)
            if v < best:
                best = v
    return best - 1



def shanten_plain_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] melds, int form, cnp.int8_t[::1] out,
                        bint exact=False):
    """out[i] = _shanten_plain of row i beside melds[i] melds, or with exact
    _shanten_exact_plain (the references of the differential tests; one
    thread).  Every row is copied and checked first: a bad row raises
    ValueError naming it."""
    _need_tables()
    if exact:
        _need_exact()
    _check_form(form)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    _check_len(melds.shape[0], n, "melds")
    _check_len(out.shape[0], n, "out")
    cdef uint8_t c[34]
    cdef int e
    for i in range(n):
        _copy_row(c, &hands[i, 0])
        e = _recheck(c, melds[i], 2)
        if e == 0 and ((form in (1, 2, 3) and melds[i] > 0) or (form == 4 and melds[i] > 1)):
            e = 4
        if e:
            raise ValueError(f"row {i}: not a hand of 13 or 14 tiles counting 3 per meld "
                             f"with every count <= 4 in a form its melds allow (code {e})")
        out[i] = _shanten_exact_plain(c, melds[i], form) if exact else _shanten_plain(c, melds[i], form)


cdef inline int _shanten_checked_row(const uint8_t* src, const int64_t* given, int form, cnp.int8_t* out,
                                     uint8_t* melds, const uint8_t* srec, const uint8_t* hrec,
                                     int mask) noexcept nogil:
    """One row of shanten_checked: copied, checked (the validating pass of
    validate_batch, mode 2), then computed from the same copy over the
    records srec / hrec (plain or exact)."""
    cdef uint8_t c[34]
    cdef int e, m
    _copy_row(c, src)
    e = _row_check(c, given, 2, &m)
    melds[0] = m
    if e:
        out[0] = -128
    elif 1 <= form <= 3:
        out[0] = _shanten_special(c, m, form)
    elif mask != 0x1F:
        out[0] = _shanten_mask(c, m, mask, srec, hrec)
    else:
        out[0] = _shanten_rec(c, m, form, srec, hrec)
    return e


def shanten_checked(const uint8_t[:, ::1] hands, const int64_t[::1] melds_given, int form, cnp.int8_t[::1] out, uint8_t[::1] err,
                    uint8_t[::1] melds_out, int nthreads, bint exact=False, int forms=0x1F):
    """Validation and shanten in one pass over the rows (as is_win_checked):
    err[i] as validate_batch (a bad row gets out -128), melds_out[i] its melds
    (given, or implied by the size), out[i] its shanten in `form` (-1: every
    form of the bit set `forms`, bit f = form code f; a row none of them
    applies to gets BIG - 1), with `exact` the exact shanten
    (_shanten_exact).  Returns the number of bad rows."""
    if not 0 < forms <= 0x1F:
        raise ValueError(f"forms must be a non-empty bit set of the 5 form codes (1..31), got {forms}")
    if form != -1:
        forms = 0x1F
    _need_tables()
    if exact:
        _need_exact()
    cdef const uint8_t* srec = _xsrec if exact else _srec
    cdef const uint8_t* hrec = _xhrec if exact else _hrec
    nthreads = _nthreads(nthreads)
    _check_form(form)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    cdef const int64_t* gp = _given_rows(melds_given, n)
    cdef int bad = 0
    _check_len(out.shape[0], n, "out")
    _check_len(err.shape[0], n, "err")
    _check_len(melds_out.shape[0], n, "melds_out")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _shanten_checked_row(&hands[i, 0], gp + i if gp != NULL else NULL, form, &out[i],
                                              &melds_out[i], srec, hrec, forms)
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=4096):
            err[i] = _shanten_checked_row(&hands[i, 0], gp + i if gp != NULL else NULL, form, &out[i],
                                          &melds_out[i], srec, hrec, forms)
    for i in range(n):
        bad += err[i] != 0
    return bad


cdef inline int _regular_dist_x(const uint8_t* c, int m) noexcept nogil:
    """_regular_dist over the exact tables."""
    cdef int ab0[5]
    cdef int ab1[5]
    cdef int sh0[5]
    cdef int sh1[5]
    cdef int k, v, best = BIG
    _half(ab0, ab1, _xdist + _key_of(c, 9) * 10, _xdist + _key_of(c + 9, 9) * 10, m)
    _half(sh0, sh1, _xdist + _key_of(c + 18, 9) * 10, _xhdist + _key_of(c + 27, 7) * 10, m)
    for k in range(m + 1):
        v = ab0[k] + sh1[m - k]
        best = v if v < best else best
        v = ab1[k] + sh0[m - k]
        best = v if v < best else best
    return best


cdef int _shanten_exact_plain(const uint8_t* c, int melds, int form) noexcept nogil:
    """The exact replacement number - 1: as _shanten, but the regular form
    and a knitted straight's rest never count on a fifth copy.  Seven pairs
    (four of a kind = two pairs), thirteen orphans and honors-and-knitted
    need only tiles the hand lacks, so their counts are exact already.  The
    definition _shanten_exact computes from its records, kept as the
    reference of the differential tests (shanten_plain_batch(exact=True))."""
    cdef int best = BIG, v, a, j, t
    cdef int got[6]
    cdef uint8_t rest[34]
    if form < 0 or form == 0:
        best = _regular_dist_x(c, 4 - melds)
    if melds == 0:
        if form < 0 or form == 1:
            v = _seven_pairs_dist(c)
            best = v if v < best else best
        if form < 0 or form == 2:
            v = _orphans_dist(c)
            best = v if v < best else best
    if melds > 1 or not (form < 0 or form == 3 or form == 4):
        return best - 1
    _knitted_got(c, got)
    if melds == 0 and (form < 0 or form == 3):
        v = _honors_knitted_dist(c, got)
        best = v if v < best else best
    if form < 0 or form == 4:
        for a in range(6):
            if 9 - got[a] >= best:
                continue
            memcpy(rest, c, 34)
            for j in range(9):
                t = KNIT_TILES[a][j]
                if rest[t]:
                    rest[t] -= 1
            v = (9 - got[a]) + _regular_dist_x(rest, 1 - melds)
            best = v if v < best else best
    return best - 1


def shanten_exact_one(const uint8_t[::1] c, int melds, int form):
    """shanten_one with exact=True (see _shanten_exact)."""
    cdef uint8_t h[34]
    _need_exact()
    _check_form(form)
    _take_hand(c, h, melds, 2)
    return _shanten_exact(h, melds, form)

# ---------------------------------------------------------------------------
# the C interface of this module (src/mjfast/_core.pxd), for mjfast._engine,
# mjfast._game and the other compiled modules: thin wrappers of the inline
# kernels (a module that wants them inline cimports src/handkernel/)
# ---------------------------------------------------------------------------

cdef int need_tables() except -1:
    return _need_tables()


cdef uint64_t regular_waits(const uint8_t* c) noexcept nogil:
    return _regular_waits(c)


cdef uint64_t waits_of(const uint8_t* c, int melds) noexcept nogil:
    return _waits(c, melds)


cdef int seven_pairs_dist(const uint8_t* c) noexcept nogil:
    return _seven_pairs_dist(c)


cdef bint win_check(const uint8_t* c) noexcept nogil:
    return _is_win(c)


cdef int shanten_of(const uint8_t* c, int melds, int form) noexcept nogil:
    return _shanten(c, melds, form)
