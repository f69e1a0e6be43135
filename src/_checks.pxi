# Guards of the compiled entry points (the first of _core.pyx's includes, so
# that every later one can call them); also the batch calls' narrowing of
# wide integer input and HandBatch's row checks.
#
# mjfast's Python layer validates every argument and words the errors users
# see.  These checks are the second line: constant-time (shapes, ranges of
# scalars) or one pass over the 34 counts of a hand, so that a direct call of
# a private function with a wrong-length array, a negative meld count or a
# tile of 250 raises ValueError instead of writing past an array.  A hand is
# always copied first and the copy is checked and read: the caller's array
# may be changed by another thread (numpy releases the GIL) at any time.
# The array shape checks (_check_len, _check_rows) are src/argcheck.pxd's,
# shared with the io modules.


cdef inline const int64_t* _given_rows(const int64_t[::1] mg, Py_ssize_t n) except? NULL:
    """The batch kernels' optional melds column: row i's given melds at [i],
    or NULL when none are given.  The caller takes the column as a typed
    argument, which holds its buffer until the call returns."""
    if mg is None:
        return NULL
    _check_len(mg.shape[0], n, "melds_given")
    return &mg[0] if n else NULL


cdef inline int _check_form(int form) except -1:
    if not -1 <= form <= 4:
        raise ValueError(f"form must be -1 (every form) or 0..4, got {form}")
    return 0


cdef inline object _error(str family, int code, str detail=""):
    """The ValueError of a compiled guard: the code's one message
    (mjfast/spec/errors.py, generated into _ERROR_TEXT) and what was found."""
    return ValueError(_ERROR_TEXT[family][code] + detail)


cdef inline int _recheck(const uint8_t* c, int m, int mode) noexcept nogil:
    """Error code of a hand (a private copy; the core family of
    mjfast/spec/errors.py): a count above 4, melds outside 0..4, a size that
    does not fit mode (0: 14 tiles counting 3 per meld, 1: 13, 2: either)."""
    cdef int total
    if _over4(c):
        return ERR_TOO_MANY_COPIES
    if m < 0 or m > 4:
        return ERR_BAD_MELDS
    total = _sum34(c) + 3 * m
    if (mode == 0 and total != 14) or (mode == 1 and total != 13) or (mode == 2 and total != 13 and total != 14):
        return ERR_BAD_SIZE
    return ERR_OK


cdef int _take_hand(const uint8_t[::1] src, uint8_t* h, int melds, int mode) except -1:
    """Copy 34 counts into h and check the copy: counts 0..4, melds 0..4 and
    the size `mode` asks for (see _recheck); mode -1: melds implied by the
    size, at most 14 tiles."""
    cdef int e
    _check_len(src.shape[0], 34, "counts")
    memcpy(h, &src[0], 34)
    if mode < 0:
        if _over4(h):
            raise _error("core", ERR_TOO_MANY_COPIES)
        if _sum34(h) > 14:
            raise _error("core", ERR_BAD_SIZE, f": at most 14 tiles, got {_sum34(h)}")
        return 0
    e = _recheck(h, melds, mode)
    if e == ERR_BAD_MELDS:
        raise _error("core", e, f", got {melds}")
    if e == ERR_BAD_SIZE:
        raise _error("core", e, f": {_sum34(h)} tiles beside {melds} melds, expected "
                     + ("14" if mode == 0 else "13" if mode == 1 else "13 or 14") + " counting 3 per meld")
    if e:
        raise _error("core", e)
    return 0


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
