# The fan engine's Python entry points (included into _core.pyx): score one
# hand (score_one; score_str from a notation string, parsed by
# mjfast._notation), a batch, the readings.  The
# scoring step's way in: batch columns or one hand's fields, checked again
# here, into the engine in src/fankernel/ (layout: fankernel/mcr_score.pxd).
# score_batch_mcr is mjfast.score_batch's whole MCR pass: besides the scores
# it writes the dropped flags, error codes and legal of every row, so that
# the Python around it does no per-row numpy work (figures:
# benchmarks/README.md, "score_batch's Python around the kernel, fused").


# ---------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------

cdef int _check_context(int n_melds, int win, int flags, int seat, int rnd, int flowers) except -1:
    """The scalar fields of a hand, in the ranges the kernel indexes with
    (worded by the records family of mjfast/spec/errors.py, as HandBatch's
    checks of the same fields)."""
    if not 0 <= n_melds <= 4:
        raise _error("records", ERR_MELDS_OVER_4, f": n_melds {n_melds}")
    if not 0 <= win <= 33:
        raise _error("records", ERR_WIN_TILE_RANGE, f": {win} (a tile index is 0..33)")
    if not 0 <= flags <= 15:
        raise _error("records", ERR_FLAG_BITS, f": {flags} (bits: self-drawn, fourth tile, kong, last tile)")
    if not (0 <= seat <= 3 and 0 <= rnd <= 3):
        raise _error("records", ERR_WINDS, f", got {seat}, {rnd}")
    if not 0 <= flowers <= 8:
        raise _error("records", ERR_FLOWERS, f", got {flowers}")
    return 0


cdef int _check_variant(int variant) except -1:
    if not 0 <= variant <= (V_KNIT_NO_WAIT | V_DAZHONG | V_PAGE_CHOWS):
        raise ValueError(f"variant must be a combination of the V_* bits (0..7), got {variant}")
    return 0


cdef inline void _load_phand(PHand* h, const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds,
                             int win, int flags, int seat, int rnd, int flowers, int variant) noexcept nogil:
    cdef int i
    for i in range(34):
        h.counts[i] = counts[i]
    h.n_melds = n_melds
    for i in range(n_melds):
        h.meld_kind[i] = melds[i, 0]
        h.meld_tile[i] = melds[i, 1]
        h.meld_open[i] = melds[i, 2]
    h.win_tile = win
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    h.variant = variant


def score_one(const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds, int win,
              int flags, int seat, int rnd, int flowers, cnp.int16_t[::1] fans_out, int variant=0):
    """Score one validated hand. melds: (4, 3) uint8 rows (kind 0/1/2, tile,
    open).  Fills fans_out (int16[84], by fan id); returns (total, form, packs) with
    packs = [(type, our tile index of the lowest tile, melded), ...] of the
    reading used, or total -1 when the hand is not a win, -3 when the melds
    add a fifth copy or the size is not 14 counting 3 per meld.  Shapes and
    ranges are checked (ValueError)."""
    _need_tables()
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef PHand h
    cdef Division d
    cdef int form = 0, total, i, t
    _check_len(counts.shape[0], 34, "counts")
    if melds.shape[1] != 3 or melds.shape[0] < n_melds:
        raise ValueError(f"melds must be (4, 3) rows (kind, tile, open); got {melds.shape[0]} x {melds.shape[1]}")
    if fans_out.shape[0] < NFAN:
        raise ValueError(f"fans_out must have {NFAN} entries, got {fans_out.shape[0]}")
    _check_context(n_melds, win, flags, seat, rnd, flowers)
    _check_variant(variant)
    _load_phand(&h, counts, melds, n_melds, win, flags, seat, rnd, flowers, variant)
    if _over4(h.counts):
        raise _error("core", ERR_TOO_MANY_COPIES)
    if not _phand_sane(&h):
        raise ValueError("a meld is not (kind 0 chow / 1 pung / 2 kong, tile 0..33 - a chow's a suited 1-7 -,"
                         " open 0/1 - only a kong concealed -)")
    memset(&d, 0, sizeof(Division))
    with nogil:
        total = _score_hand(&h, &fans_out[0], &d, &form)
    packs = []
    if total >= 0:
        for i in range(5):
            if d.packs[i].type == 0:
                continue
            packs.append((d.packs[i].type, d.packs[i].tile, d.packs[i].melded))
    return total, form, packs


def score_batch_kernel(const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds, const uint8_t[::1] n_melds,
                       const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                       const uint8_t[::1] rnd, const uint8_t[::1] flowers, const uint8_t[::1] skip,
                       int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, int nthreads, int variant=0):
    """Score N validated hands (rows with skip[i] != 0 are left untouched).
    totals_out[i] = total (flowers included) or -1 if not a win;
    fans_out[i, j] = count of fan id j + 1 (the table's order)."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef Py_ssize_t i, n = _check_rows(counts, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win_tile")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(skip.shape[0], n, "skip")
    _check_len(totals_out.shape[0], n, "totals_out")
    _check_variant(variant)
    if fans_out.shape[0] != n or fans_out.shape[1] != NFAN_TABLE - 1:
        raise ValueError(f"fans_out must be ({n}, {NFAN_TABLE - 1}), got ({fans_out.shape[0]}, {fans_out.shape[1]})")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                if not skip[i]:
                    _score_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, totals_out, fans_out, variant)
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=256):
            if not skip[i]:
                _score_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, totals_out, fans_out, variant)


cdef inline bint _phand_sane(const PHand* h) noexcept nogil:
    """Every field within the ranges the kernel indexes with (a cheap re-check
    of what validation established; the tile counts are re-checked in
    _score_hand, where the meld tiles are added anyway)."""
    cdef int j, t
    if h.n_melds > 4 or h.win_tile > 33 or h.seat > 3 or h.round > 3 or h.flowers > 8 or h.flags > 15:
        return False
    for j in range(h.n_melds):
        t = h.meld_tile[j]
        if h.meld_kind[j] > 2 or t > 33 or h.meld_open[j] > 1:
            return False
        if h.meld_kind[j] == 0 and (t >= 27 or t % 9 > 6 or h.meld_open[j] == 0):
            return False
        if h.meld_kind[j] == 1 and h.meld_open[j] == 0:
            return False
    return True


cdef inline bint _read_row(Py_ssize_t i, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                           const uint8_t[::1] n_melds, const uint8_t[::1] win, const uint8_t[::1] flags,
                           const uint8_t[::1] seat, const uint8_t[::1] rnd, const uint8_t[::1] flowers,
                           int variant, PHand* h) noexcept nogil:
    """Row i into h; False when a field is out of the kernel's ranges (the
    row was changed after validation)."""
    cdef int j
    # every field is read once into h, then h is checked: the columns may be
    # changed by another thread meanwhile
    h.n_melds = n_melds[i]
    _barrier()                  # h.n_melds, not the caller's byte, bounds the loop below
    if h.n_melds > 4:
        return False
    memcpy(h.counts, &counts[i, 0], 34)
    for j in range(h.n_melds):
        h.meld_kind[j] = melds[i, j, 0]
        h.meld_tile[j] = melds[i, j, 1]
        h.meld_open[j] = melds[i, j, 2]
    h.win_tile = win[i]
    h.flags = flags[i]
    h.seat = seat[i]
    h.round = rnd[i]
    h.flowers = flowers[i]
    h.variant = variant
    _barrier()                  # what is checked below is what is scored (see mjfast_copy_row)
    # the arrays were validated when the batch was built; a row changed
    # since is refused here rather than read out of bounds
    return _phand_sane(h)


cdef inline void _score_row(Py_ssize_t i, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                            const uint8_t[::1] n_melds, const uint8_t[::1] win, const uint8_t[::1] flags,
                            const uint8_t[::1] seat, const uint8_t[::1] rnd, const uint8_t[::1] flowers,
                            int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, int variant) noexcept nogil:
    cdef PHand h
    cdef int16_t ft[NFAN]
    cdef int form, j, total
    if not _read_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, variant, &h):
        totals_out[i] = -3
        return
    total = _score_hand(&h, ft, NULL, &form)       # the reading is not wanted
    totals_out[i] = total
    cdef uint8_t* o
    if total >= 0:
        o = &fans_out[i, 0]
        for j in range(NFAN_TABLE - 1):          # a plain loop the compiler vectorises
            o[j] = <uint8_t>ft[j + 1]


cdef inline int _dropped_bits(const PHand* h) noexcept nogil:
    """The flag bits (W_FOURTH_TILE, W_KONG) the scorer drops as impossible
    for a sane hand (fankernel/fan_base.pxd, _impossible_flags)."""
    return _impossible_flags(h.counts, h.n_melds, h.meld_kind, h.meld_tile, h.win_tile, h.flags)


def impossible_flags(const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds, int win, int flags):
    """The bits of ``flags`` (W_FOURTH_TILE, W_KONG) that cannot hold for one
    hand (docs/rulings.md, 4): counts (34) its concealed tiles, the winning
    tile included; melds (n, >= 2) rows (kind 0/1/2, tile); win the winning
    tile, -1 when it is not known (a wildcard); flags 0..15."""
    cdef uint8_t kind[4]
    cdef uint8_t tile[4]
    cdef int j
    _check_len(counts.shape[0], 34, "counts")
    if not 0 <= n_melds <= 4 or melds.shape[0] < n_melds or (n_melds and melds.shape[1] < 2):
        raise ValueError(f"melds must be rows (kind, tile, ...) and n_melds 0..4, got {n_melds}")
    if not -1 <= win <= 33:
        raise ValueError(f"win must be a tile index 0..33 or -1, got {win}")
    if not 0 <= flags <= 15:
        raise ValueError(f"flags must be 0..15 (bits: self-drawn, fourth tile, kong, last tile), got {flags}")
    for j in range(n_melds):
        kind[j] = melds[j, 0]
        tile[j] = melds[j, 1]
    return _impossible_flags(&counts[0], n_melds, kind, tile, win, flags)


def impossible_flags_batch(const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds, const uint8_t[::1] n_melds,
                           const uint8_t[::1] win, const uint8_t[::1] flags, uint8_t[::1] out):
    """impossible_flags of every row of batch columns into out (N,); a row
    whose flags ask nothing of the check (no fourth_tile, no kong) is 0
    whatever its other columns hold; another row out of range is a ValueError."""
    cdef Py_ssize_t i, n = _check_rows(counts, "counts")
    cdef Py_ssize_t bad = -1
    cdef uint8_t kind[4]
    cdef uint8_t tile[4]
    cdef int j, nm
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win_tile")
    _check_len(flags.shape[0], n, "flags")
    _check_len(out.shape[0], n, "out")
    with nogil:
        for i in range(n):
            out[i] = 0
            if not (flags[i] & (W_FOURTH_TILE | W_KONG)):
                continue
            nm = n_melds[i]
            if nm > 4 or win[i] > 33 or flags[i] > 15:
                bad = i
                break
            for j in range(nm):
                kind[j] = melds[i, j, 0]
                tile[j] = melds[i, j, 1]
            out[i] = _impossible_flags(&counts[i, 0], nm, kind, tile, win[i], flags[i])
    if bad >= 0:
        raise ValueError(f"row {bad}: n_melds, win_tile or flags out of range")


# score_batch_mcr's row codes: the batch family of mjfast/spec/errors.py;
# ERR_ROW_CHANGED (out of range: changed after the batch was validated) and
# ERR_ROW_STRICT (strict=True and a flag dropped: ignored_out holds the bits)
# are rows whose message Python words (then ERR_INVALID)


cdef inline int _score_row_mcr(Py_ssize_t i, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                               const uint8_t[::1] n_melds, const uint8_t[::1] win, const uint8_t[::1] flags,
                               const uint8_t[::1] seat, const uint8_t[::1] rnd, const uint8_t[::1] flowers,
                               const uint8_t[::1] invalid, int32_t[::1] totals_out, uint8_t[:, ::1] fans_out,
                               uint8_t[::1] errors_out, uint8_t[::1] legal_out, uint8_t[::1] ignored_out,
                               int variant, long long min_points, bint strict) noexcept nogil:
    """Every output of row i (fans_out's row written whole: zeros unless a
    win); returns 1 when the row's code is ERR_ROW_CHANGED / ERR_ROW_STRICT."""
    cdef PHand h
    cdef int16_t ft[NFAN]
    cdef int form, j, total = -1, code = ERR_INVALID, drop = 0
    cdef uint8_t* o = &fans_out[i, 0]
    if not invalid[i]:
        if not _read_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, variant, &h):
            code = ERR_ROW_CHANGED
        else:
            drop = _dropped_bits(&h)
            if strict and drop:
                code = ERR_ROW_STRICT
            else:
                total = _score_hand(&h, ft, NULL, &form)   # the reading is not wanted
                code = ERR_ROW_OK if total >= 0 else (ERR_ROW_CHANGED if total == -3 else ERR_NOT_WINNING)
    if code == ERR_ROW_OK:
        for j in range(NFAN_TABLE - 1):          # a plain loop the compiler vectorises
            o[j] = <uint8_t>ft[j + 1]
        totals_out[i] = total
        legal_out[i] = total - h.flowers >= min_points
        ignored_out[i] = drop
    else:
        memset(o, 0, NFAN_TABLE - 1)
        totals_out[i] = -1
        legal_out[i] = 0
        ignored_out[i] = drop if code == ERR_ROW_STRICT else 0
    errors_out[i] = code
    return code == ERR_ROW_CHANGED or code == ERR_ROW_STRICT


# Rows are scored grouped by the shape of their melds -- how many, and how
# many of them chows: 25 groups, each in row order -- every result written to
# its own row.  The kernel's branches follow the hand's shape (its melds, the
# chows of a reading, the special forms of a concealed hand), so on a batch
# of mixed hands they are mispredicted often; runs of hands of one shape let
# the predictors learn it.  Visited in that order, a row's columns are no
# longer where the hardware prefetcher looks, so each row's lines are
# requested ROW_AHEAD rows before it is scored (its tiles, melds and fan row:
# the one-byte columns share their lines with 63 neighbours).  Figures, and a
# staging copy that cost what it saved: benchmarks/README.md, "Rows grouped
# by the shape of their melds".
DEF GROUP_CHUNK = 32768         # rows grouped at a time: a group's rows stay within 32,768 rows
DEF ROW_AHEAD = 16
DEF N_GROUPS = 26               # 25 shapes + the rows that are not scored

cdef extern from "bits.h":
    void _prefetch "mjfast_prefetch"(const void* p) nogil


cdef inline int _row_group(const uint8_t[::1] n_melds, const uint8_t[:, :, ::1] melds, const uint8_t[::1] invalid,
                           Py_ssize_t i) noexcept nogil:
    """5 * melds + chow melds (0..24); 25 for a row that is not scored
    (invalid, or a meld count out of range: _read_row refuses it).  No branch
    on the number of melds (a loop as long as it mispredicted about once a
    row): the four meld slots are always there to read."""
    cdef int m = n_melds[i]
    cdef const uint8_t* k = &melds[i, 0, 0]
    cdef int c = (((k[0] == 0) & (m > 0)) + ((k[3] == 0) & (m > 1)) + ((k[6] == 0) & (m > 2))
                  + ((k[9] == 0) & (m > 3)))
    return 25 if (invalid[i] != 0) | (m > 4) else 5 * m + c


cdef void _group_rows(const uint8_t[::1] n_melds, const uint8_t[:, :, ::1] melds, const uint8_t[::1] invalid,
                      Py_ssize_t c0, Py_ssize_t c1, Py_ssize_t* order, uint8_t* grp) noexcept nogil:
    """order[c0:c1] = the rows c0..c1-1 grouped (a stable counting sort).
    Each row's group is read from the caller's arrays once, into grp
    (c1 - c0 bytes): another thread may change those arrays while we run,
    and a group read again for the placing pass could differ from the one
    counted, placing a row past its group's range and leaving an order
    slot unwritten (a row index read out of bounds later)."""
    cdef Py_ssize_t start[N_GROUPS + 1]
    cdef Py_ssize_t i
    cdef int g
    for g in range(N_GROUPS + 1):
        start[g] = c0
    for i in range(c0, c1):
        g = _row_group(n_melds, melds, invalid, i)
        grp[i - c0] = <uint8_t>g
        start[g + 1] += 1
    for g in range(1, N_GROUPS + 1):
        start[g] += start[g - 1] - c0
    for i in range(c0, c1):
        g = grp[i - c0]
        order[start[g]] = i
        start[g] += 1


cdef inline void _prefetch_row(Py_ssize_t r, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                               const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                               const uint8_t[::1] rnd, const uint8_t[::1] flowers, int32_t[::1] totals_out,
                               uint8_t[:, ::1] fans_out, uint8_t[::1] errors_out, uint8_t[::1] legal_out,
                               uint8_t[::1] ignored_out) noexcept nogil:
    """Request the cache lines row r's scoring reads and writes."""
    _prefetch(&counts[r, 0])
    _prefetch(&counts[r, 33])
    _prefetch(&melds[r, 0, 0])
    _prefetch(&melds[r, 3, 2])
    _prefetch(&fans_out[r, 0])
    _prefetch(&fans_out[r, NFAN_TABLE - 2])


def score_batch_mcr(const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds, const uint8_t[::1] n_melds,
                    const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                    const uint8_t[::1] rnd, const uint8_t[::1] flowers, const uint8_t[::1] invalid,
                    int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, uint8_t[::1] errors_out,
                    uint8_t[::1] legal_out, uint8_t[::1] ignored_out, int nthreads, int variant=0,
                    long long min_points=8, bint strict=False):
    """mjfast.score_batch under MCR in one pass: every output of every row is
    written (the output arrays may be uninitialised).  Rows with invalid[i]
    != 0 are not read.  Per row: totals_out (flowers included, -1 unless a
    win), fans_out (count of fan id j + 1; zeros unless a win), errors_out
    (the batch family of mjfast/spec/errors.py: ERR_ROW_OK, ERR_INVALID,
    ERR_NOT_WINNING, ERR_ROW_CHANGED - changed after validation -,
    ERR_ROW_STRICT a dropped flag under strict), legal_out (a win with
    total - flowers >= min_points), ignored_out (the dropped flag bits
    W_FOURTH_TILE / W_KONG of a win, or of an ERR_ROW_STRICT row; else 0).
    Returns the number of rows with ERR_ROW_CHANGED or ERR_ROW_STRICT (their
    messages are the caller's)."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef Py_ssize_t i, n = _check_rows(counts, "counts")
    cdef Py_ssize_t nflag = 0
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win_tile")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(invalid.shape[0], n, "invalid")
    _check_len(totals_out.shape[0], n, "totals_out")
    _check_len(errors_out.shape[0], n, "errors_out")
    _check_len(legal_out.shape[0], n, "legal_out")
    _check_len(ignored_out.shape[0], n, "ignored_out")
    _check_variant(variant)
    if fans_out.shape[0] != n or fans_out.shape[1] != NFAN_TABLE - 1:
        raise ValueError(f"fans_out must be ({n}, {NFAN_TABLE - 1}), got ({fans_out.shape[0]}, {fans_out.shape[1]})")
    if n >= 8192:
        _part_prefetch()            # the split table back in cache at once (readings.pxd)
    cdef Py_ssize_t[::1] order = np.empty(n, np.intp)
    cdef uint8_t[::1] grp = np.empty(max(1, min(n, GROUP_CHUNK)), np.uint8)
    cdef Py_ssize_t c0, c1, r
    with nogil:
        c0 = 0
        while c0 < n:
            c1 = min(n, c0 + GROUP_CHUNK)
            _group_rows(n_melds, melds, invalid, c0, c1, &order[0], &grp[0])
            c0 = c1
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                if i + ROW_AHEAD < n:
                    _prefetch_row(order[i + ROW_AHEAD], counts, melds, win, flags, seat, rnd, flowers, totals_out,
                                  fans_out, errors_out, legal_out, ignored_out)
                nflag += _score_row_mcr(order[i], counts, melds, n_melds, win, flags, seat, rnd, flowers, invalid,
                                        totals_out, fans_out, errors_out, legal_out, ignored_out, variant,
                                        min_points, strict)
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=256):
            r = i + ROW_AHEAD
            if r < n:
                _prefetch_row(order[r], counts, melds, win, flags, seat, rnd, flowers, totals_out,
                              fans_out, errors_out, legal_out, ignored_out)
            nflag += _score_row_mcr(order[i], counts, melds, n_melds, win, flags, seat, rnd, flowers, invalid,
                                    totals_out, fans_out, errors_out, legal_out, ignored_out, variant,
                                    min_points, strict)
    return nflag


cdef list _reading_items(const Division* d, int nsets):
    """(kind, our tile index) of a reading's concealed sets and pair; a chow
    is named by its lowest tile."""
    cdef int k, t
    items = []
    for k in list(range(nsets)) + [4]:
        t = d.packs[k].tile
        items.append(({P_CHOW: "chow", P_PUNG: "pung", P_PAIR: "pair"}[d.packs[k].type], t))
    return items


def decompose_one(const uint8_t[::1] counts, int melds):
    """Every reading of 14-3k concealed tiles: a list of (form, items) where
    items are (kind, tile) with kind "chow" (tile = lowest), "pung", "pair",
    "single", or "knitted" (tile = the first tile of the knitted arrangement)."""
    _need_tables()
    cdef uint8_t c[34]
    cdef Division divs[MAXDIV]
    cdef Ctx ctx
    cdef int ndiv = 0, i, k, t, a
    cdef int need = 4 - melds
    _take_hand(counts, c, melds, 0)
    out = []
    ctx.n_fixed = 0
    ndiv = _readings(c, need, &ctx, divs)
    for i in range(ndiv):
        out.append(("regular", tuple(_reading_items(&divs[i], need))))
    if melds == 0 and _seven_pairs_win(c):
        out.append(("seven_pairs", tuple(("pair", t) for t in range(34) for k in range(c[t] // 2))))
    if melds == 0 and _orphans_win(c):
        out.append(("thirteen_orphans", tuple(("pair" if c[t] == 2 else "single", t) for t in range(34) if c[t])))
    if melds == 0 and _honors_knitted_win(c):
        out.append(("honors_knitted", tuple(("single", t) for t in range(34) if c[t])))
    a = _full_knit(c) if melds <= 1 else -1
    if a >= 0:
        for k in range(9):
            c[KNIT_TILES[a][k]] -= 1
        ndiv = _readings(c, 1 - melds, &ctx, divs)
        for i in range(ndiv):
            out.append(("knitted_straight", tuple([("knitted", KNIT_TILES[a][0])] + _reading_items(&divs[i], 1 - melds))))
    return out


def score_str(str s, int flags, int seat, int rnd, int flowers, cnp.int16_t[::1] out, int variant=0,
              cnp.uint8_t[::1] dropped_out=None):
    """Fast single-hand scoring of a notation string.  out: int16[100]:
    out[0:84] fan counts by id, out[84] form, out[85:100] the reading's packs
    (type, our tile index of the lowest tile, melded) x 5.  Returns the total,
    -1 if not a win, -2 if the string is not taken (does not parse, not 14
    tiles, flower codes: mjfast.score reads it through hand_args).
    dropped_out (one byte, optional): the flag bits the rules drop
    (fourth_tile / kong: _impossible_flags) when the string is taken."""
    cdef PHand h
    cdef Division d
    cdef int form = 0, total, i, t
    _need_tables()
    if out.shape[0] < 100:
        raise ValueError(f"out must have 100 entries, got {out.shape[0]}")
    _check_context(0, 0, flags, seat, rnd, flowers)
    if parse_fast(s, &h) != PARSE_OK:
        return -2
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    _check_variant(variant)
    h.variant = variant
    if dropped_out is not None:
        if dropped_out.shape[0] < 1:
            raise ValueError("dropped_out must have one entry")
        dropped_out[0] = _dropped_bits(&h)
    memset(&d, 0, sizeof(Division))
    total = _score_hand(&h, &out[0], &d, &form)
    out[84] = form
    for i in range(5):
        out[85 + 3 * i] = d.packs[i].type
        if d.packs[i].type:
            out[86 + 3 * i] = d.packs[i].tile        # a chow's lowest tile
            out[87 + 3 * i] = d.packs[i].melded
    return total
