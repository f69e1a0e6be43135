# The entry points of the compiled notation parser (_notation.pxi) that fill
# the kernel's PHand (io into the scoring step): score_str, parse_rows_fast,
# parse_counts_fast (and the record readers of _records.pxi).  A string these do
# not take is one that does not parse (or is not a 14-tile hand, or carries
# flowers): the caller's Python path then parses it again, with the same
# parser, for the message.

DEF PARSE_OK = 0
DEF PARSE_FALLBACK = 1


cdef inline int _parse_fast(str s, PHand* h) noexcept:
    """A winning hand (14 tiles counting 3 per meld, no flower codes) into h:
    PARSE_OK, else PARSE_FALLBACK."""
    cdef PNote o
    if _note_str(s, NM_HAND, &o, NULL, 0) != NE_OK or _note_phand(&o, NULL, h) != 0:
        return PARSE_FALLBACK
    return PARSE_OK


cdef inline int _parse_fast_bytes(const unsigned char* s, Py_ssize_t n, PHand* h) noexcept nogil:
    """_parse_fast on ASCII bytes (a JSON line's hand string)."""
    cdef PNote o
    if _note_parse(<const uint8_t*>s, n, NM_HAND, &o, NULL, 0) != NE_OK or _note_phand(&o, NULL, h) != 0:
        return PARSE_FALLBACK
    return PARSE_OK


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
    if _parse_fast(s, &h) != PARSE_OK:
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


def parse_rows_fast(list hands, uint8_t[:, ::1] counts, uint8_t[:, :, ::1] melds, uint8_t[::1] n_melds,
                    uint8_t[::1] win, uint8_t[::1] ok_out):
    """Parse notation strings into batch columns with the compiled parser;
    ok_out[i] = 0 where a row is not taken (not a str, does not parse, not
    14 tiles counting 3 per meld, flower codes): the Python caller reads it
    through hand_args, which words the problem."""
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
    """Concealed counts of a notation string (melds in brackets allowed, any
    size up to 14) into counts_out, and every tile (melds included) into
    all_out.  Returns the number of melds, or -1 when the string does not
    parse (the Python caller then parses it again for the message)."""
    cdef PNote o
    cdef int j, t
    _check_len(counts_out.shape[0], 34, "counts_out")
    _check_len(all_out.shape[0], 34, "all_out")
    if _note_str(s, NM_HAND, &o, NULL, 0) != NE_OK:
        return -1
    for j in range(34):
        counts_out[j] = <uint8_t>o.counts[j]
        all_out[j] = <uint8_t>o.counts[j]
    for j in range(o.n_melds):
        t = o.mtile[j]
        if o.mkind[j] == 0:
            all_out[t] += 1
            all_out[t + 1] += 1
            all_out[t + 2] += 1
        else:
            all_out[t] += 3 if o.mkind[j] == 1 else 4
    return o.n_melds
