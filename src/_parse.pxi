# The compiled notation parser (included into _core.pyx after _fan_entry.pxi):
# compact notation strings into PHand fields, and the entry points that use it
# (score_str, parse_rows_fast, parse_counts_fast).

# ---------------------------------------------------------------------------
# fast path for one notation string (valid input only; anything unusual
# returns PARSE_FALLBACK and the Python parser produces the error message)
# ---------------------------------------------------------------------------

DEF PARSE_OK = 0
DEF PARSE_FALLBACK = 1

from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_1BYTE_KIND

cdef extern from *:
    """
    /* tile index of a compact-notation letter: suits give their base (m 0,
       p 9, s 18) in bits 0-5 with bit 6 set, honours their index; 0 = not a
       notation letter */
    static const unsigned char MJ_LETTER[128] = {
        ['m'] = 64 | 0, ['p'] = 64 | 9, ['s'] = 64 | 18,
        ['E'] = 27, ['S'] = 28, ['W'] = 29, ['N'] = 30, ['C'] = 31, ['F'] = 32, ['P'] = 33,
    };
    """
    const unsigned char MJ_LETTER[128]


cdef inline int _suit_base(unsigned char ch) noexcept nogil:
    if ch < 128 and MJ_LETTER[ch] & 64:
        return MJ_LETTER[ch] & 63
    return -1


cdef inline int _honor_index(unsigned char ch) noexcept nogil:
    if ch < 128 and MJ_LETTER[ch] and not (MJ_LETTER[ch] & 64):
        return MJ_LETTER[ch]
    return -1


cdef int _parse_fast(str s, PHand* h) except -1:
    """Compact notation with bracket melds into h (counts, melds, win tile).
    Returns PARSE_OK or PARSE_FALLBACK (malformed, unusual or not 14 tiles)."""
    cdef uint8_t allc[34]
    if _parse_fast_any(s, h, allc) != PARSE_OK:
        return PARSE_FALLBACK
    return _check_win_size(h)


cdef inline int _check_win_size(const PHand* h) noexcept nogil:
    cdef int k, nt = 0
    for k in range(34):
        nt += h.counts[k]
    if nt + 3 * h.n_melds != 14:
        return PARSE_FALLBACK
    return PARSE_OK


cdef int _parse_fast_any(str s, PHand* h, uint8_t* allc) except -1:
    """_parse_buf on a str: a string with a character past Latin-1 holds no
    notation letter, so only one-byte strings are read (the others fall back)."""
    if PyUnicode_KIND(s) != PyUnicode_1BYTE_KIND:
        return PARSE_FALLBACK
    return _parse_buf(<const unsigned char*>PyUnicode_DATA(s), len(s), h, allc)


cdef int _parse_buf(const unsigned char* s, Py_ssize_t n, PHand* h, uint8_t* allc) noexcept nogil:
    """The compiled notation parser: melds and concealed tiles of a compact
    string (bytes, one per character) of any size up to 14 (a kong counting
    3); allc gets every tile.  PARSE_FALLBACK for anything malformed or
    unusual (the Python parser then reads it or names the problem)."""
    cdef Py_ssize_t i = 0
    cdef unsigned char ch
    cdef int digits[16]
    cdef int nd = 0, base, t, k, last = -1, ntiles = 0, mt[4], nm, dig
    memset(h.counts, 0, 34)
    memset(allc, 0, 34)
    h.n_melds = 0
    # melds first
    while i < n:
        ch = s[i]
        if ch == c' ':
            i += 1
            continue
        if ch != c'[':
            break
        if h.n_melds == 4:
            return PARSE_FALLBACK
        i += 1
        nm = 0
        nd = 0
        dig = 0
        while i < n and s[i] != c']':
            ch = s[i]
            if 49 <= ch <= 57:
                nd += 1
                if nd > 4:
                    return PARSE_FALLBACK
                digits[nd - 1] = ch - 48
            else:
                base = _suit_base(ch)
                if base >= 0:
                    if nd == 0 or nm > 0 or nd > 4:
                        return PARSE_FALLBACK
                    for k in range(nd):
                        mt[nm] = base + digits[k] - 1
                        nm += 1
                    nd = 0
                else:
                    t = _honor_index(ch)
                    if t < 0 or nd or nm == 4:
                        return PARSE_FALLBACK
                    mt[nm] = t
                    nm += 1
            i += 1
        if i >= n:
            return PARSE_FALLBACK
        i += 1                               # past ']'
        if nd > 1:
            return PARSE_FALLBACK
        dig = digits[0] if nd == 1 else 0
        k = h.n_melds
        if nm == 3 and mt[0] == mt[1] and mt[1] == mt[2]:
            if dig > 3:
                return PARSE_FALLBACK
            h.meld_kind[k] = 1
            h.meld_tile[k] = mt[0]
            h.meld_open[k] = 1
            allc[mt[0]] += 3
        elif nm == 3 and mt[0] < 27 and mt[1] == mt[0] + 1 and mt[2] == mt[0] + 2 and mt[0] % 9 <= 6:
            if dig > 3:
                return PARSE_FALLBACK
            h.meld_kind[k] = 0
            h.meld_tile[k] = mt[0]
            h.meld_open[k] = 1
            allc[mt[0]] += 1; allc[mt[0] + 1] += 1; allc[mt[0] + 2] += 1
        elif nm == 4 and mt[0] == mt[1] and mt[1] == mt[2] and mt[2] == mt[3]:
            if dig == 4 or dig > 7:
                return PARSE_FALLBACK
            h.meld_kind[k] = 2
            h.meld_tile[k] = mt[0]
            h.meld_open[k] = 1 if dig else 0
            allc[mt[0]] += 4
        else:
            return PARSE_FALLBACK
        h.n_melds += 1
    # concealed tiles
    nd = 0
    while i < n:
        ch = s[i]
        i += 1
        if ch == c' ':
            if nd:
                return PARSE_FALLBACK
            continue
        if 49 <= ch <= 57:
            if nd == 16:
                return PARSE_FALLBACK
            digits[nd] = ch - 48
            nd += 1
            continue
        base = _suit_base(ch)
        if base >= 0:
            if nd == 0:
                return PARSE_FALLBACK
            for k in range(nd):
                t = base + digits[k] - 1
                # a run longer than 14 tiles would pass the count below
                # before it is checked: stop at the first fifth copy
                if allc[t] == 4:
                    return PARSE_FALLBACK
                h.counts[t] += 1
                allc[t] += 1
                last = t
                ntiles += 1
            nd = 0
            continue
        t = _honor_index(ch)
        if t < 0 or nd:
            return PARSE_FALLBACK
        if allc[t] == 4:
            return PARSE_FALLBACK
        h.counts[t] += 1
        allc[t] += 1
        last = t
        ntiles += 1
    if nd or last < 0 or ntiles + 3 * h.n_melds > 14:
        return PARSE_FALLBACK
    for k in range(34):
        if allc[k] > 4:
            return PARSE_FALLBACK
    h.win_tile = last
    return PARSE_OK


def score_str(str s, int flags, int seat, int rnd, int flowers, cnp.int16_t[::1] out, int variant=0):
    """Fast single-hand scoring of a notation string.  out: int16[100]:
    out[0:84] fan counts by id, out[84] form, out[85:100] the reading's packs
    (type, our tile index of the lowest tile, melded) x 5.  Returns the total,
    -1 if not a win, -2 if the string needs the full (Python) parser."""
    cdef PHand h
    cdef Division d
    cdef int form = 0, total, i, t
    _need_tables()
    if out.shape[0] < 100:
        raise ValueError(f"out must have 100 entries, got {out.shape[0]}")
    _check_context(0, 0, flags, seat, rnd, flowers)
    if _parse_fast(s, &h) != PARSE_OK:
        return -2
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    _check_variant(variant)
    h.variant = variant
    memset(&d, 0, sizeof(Division))
    total = _score_hand(&h, &out[0], &d, &form)
    out[84] = form
    for i in range(5):
        out[85 + 3 * i] = d.packs[i].type
        if d.packs[i].type:
            out[86 + 3 * i] = d.packs[i].tile        # a chow's lowest tile
            out[87 + 3 * i] = d.packs[i].melded
    return total


def parse_rows_fast(list hands, uint8_t[:, ::1] counts, uint8_t[:, :, ::1] melds, uint8_t[::1] n_melds,
                    uint8_t[::1] win, uint8_t[::1] ok_out):
    """Parse notation strings into batch columns with the compiled parser;
    ok_out[i] = 0 where a row needs the Python parser (non-string, Botzone
    codes, malformed -- it then gives the error message)."""
    cdef Py_ssize_t i, n = len(hands)
    cdef PHand h
    cdef int j
    _check_len(_check_rows(counts, "counts"), n, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win")
    _check_len(ok_out.shape[0], n, "ok_out")
    for i in range(n):
        s = hands[i]
        if type(s) is not str or _parse_fast(<str>s, &h) != PARSE_OK:
            ok_out[i] = 0
            continue
        ok_out[i] = 1
        for j in range(34):
            counts[i, j] = h.counts[j]
        n_melds[i] = h.n_melds
        for j in range(h.n_melds):
            melds[i, j, 0] = h.meld_kind[j]
            melds[i, j, 1] = h.meld_tile[j]
            melds[i, j, 2] = h.meld_open[j]
        win[i] = h.win_tile


def parse_counts_fast(str s, uint8_t[::1] counts_out, uint8_t[::1] all_out):
    """Concealed counts of a compact notation string (melds in brackets
    allowed, any size up to 14) into counts_out, and every tile (melds
    included) into all_out.  Returns the number of melds, or -1 when the
    string needs the Python parser (which then names the problem)."""
    cdef PHand h
    cdef int j
    _check_len(counts_out.shape[0], 34, "counts_out")
    _check_len(all_out.shape[0], 34, "all_out")
    if _parse_fast_any(s, &h, &all_out[0]) != PARSE_OK:
        return -1
    for j in range(34):
        counts_out[j] = h.counts[j]
    return h.n_melds
