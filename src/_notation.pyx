# cython: language_level=3
# (bounds and initialisation checks are set by setup.py: off, or on for MJFAST_DEBUG=1)
"""mjfast's notation parser (mjfast._notation): the io step's way in for
every hand string.

The only parser: it reads every notation mjfast accepts -- compact tiles,
melds in brackets with their digits, Botzone codes with flowers, whitespace
-- from a str of any kind or from bytes, and on bad input stops at the first
problem with an error code and the positions that name it.  The words of the
messages are Python's (mjfast.tiles._notation_error); no message is built
here.  Its C interface (src/mjfast/_notation.pxd): a winning hand into the
kernel's PHand (parse_fast, parse_fast_bytes), for the scorer (mjfast._core)
and the record readers (mjfast._records).  A string those do not take is one
that does not parse (or is not a 14-tile hand, or carries flowers): the
caller's Python path then parses it again, with the same parser, for the
message.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_1BYTE_KIND, PyUnicode_2BYTE_KIND
from fankernel.fan_base cimport PHand
from argcheck cimport _check_len, _check_rows

# The order of the checks is the order users see errors in: melds left to
# right (a meld's brackets, then its tiles, then its kind and digit), the rest
# of the string after the melds, the concealed tiles (compact notation, else
# Botzone codes, else the first character that is wrong), and only then the
# counts (too many tiles, then a fifth copy).


# what is parsed
DEF NM_HAND = 0         # parse_hand: melds, tiles, flowers; at most 14 tiles and 4 copies
DEF NM_TILES = 1        # parse_tiles: tiles only (a bracket is an error), no count checks, no flowers
DEF NM_COUNTS = 2       # to_counts of a string without melds: at most 4 copies, flowers ignored

# error codes (mjfast.tiles._notation_error words them; a, b, c, d below are
# PNote's fields, string indices 0-based)
DEF NE_OK = 0
DEF NE_UNCLOSED = 1       # a: the '['
DEF NE_FIFTH_MELD = 2     # a, b: the fifth meld's '[' and ']'
DEF NE_MELD_AFTER = 3     # a: a '[' after the concealed tiles
DEF NE_UNMATCHED = 4      # a: the ']'
DEF NE_EMPTY_MELD = 5     # a: the '['
DEF NE_MELD_WS = 6        # a, b: the meld's brackets (so for 7-14 too)
DEF NE_MELD_SIZE = 7      # c: its tile count, d: its digit or -1
DEF NE_PUNG_DIGIT = 8     # d: the digit
DEF NE_KONG_DIGIT = 9
DEF NE_NOT_KONG = 10
DEF NE_HONOR_CHOW = 11
DEF NE_CHOW_ORDER = 12
DEF NE_NOT_SET = 13       # c: 1 when the tiles would be a chow wrapping past 9
DEF NE_CHOW_DIGIT = 14
DEF NE_SUIT_FIRST = 20    # a: a suit letter with no digits before it; c (20-25): 1 when a token is a Botzone code
DEF NE_ZERO = 21          # a: the '0'
DEF NE_UNKNOWN = 22       # a: the character
DEF NE_RUN = 23           # a, b: a digit run with no suit letter after it
DEF NE_BRACKET = 24       # a: a bracket among the tiles (parse_tiles)
DEF NE_CANNOT = 25        # a, b: the text (not reached: the scanners agree)
DEF NE_FLOWER_TWICE = 30  # a: the second copy of a flower code
DEF NE_BZ_UNKNOWN = 31    # a: a letter-digit token that is no code (F5, J4, H9)
DEF NE_BZ_NOT = 32        # a, b: a token that is not a Botzone code among them
DEF NE_TOO_MANY = 40      # a: the tiles counting 3 per meld
DEF NE_FIFTH = 41         # a: the tile, b: its copies, melds included
DEF NE_FIFTH_PLAIN = 42   # a: the tile, b: its copies (to_counts)
DEF NE_BRACKETS_IN = 43   # to_counts of a string with brackets outside this path
DEF NE_FLOWER_TILE = 44   # a: the first flower code (parse_tiles)

cdef extern from "notation.h":
    bint mj_space(uint32_t ch) noexcept nogil
    int mj_bz_base(uint32_t ch, int* n) noexcept nogil
    int mj_cls(uint32_t ch) noexcept nogil
    const unsigned char MJ_CLS[128]


# the characters of a str of any kind (1, 2 or 4 bytes each), or of bytes
ctypedef fused nchar_t:
    uint8_t
    uint16_t
    uint32_t


cdef struct PNote:
    int err                     # NE_*
    Py_ssize_t a, b, c, d       # the error's positions and values (see NE_*)
    int n_melds
    uint8_t mkind[4]            # 0 chow, 1 pung, 2 kong
    uint8_t mtile[4]            # a chow's lowest tile, a pung's or kong's tile
    uint8_t mclaim[4]           # the claimed tile of a chow / the discarder, 0-3
    uint8_t mflag[4]            # 1 a concealed kong, 2 a kong added to a pung
    uint8_t counts[34]          # concealed tiles (wrapping past 255: see _exact_copies)
    Py_ssize_t n_tiles          # concealed tiles (the first `cap` in the caller's buffer, in order)
    int last                    # the last concealed tile, -1 when none
    int n_flowers
    Py_ssize_t first_flower     # index of the first flower code
    bint over                   # a concealed count above 4


cdef inline int _suit_of(uint32_t ch) noexcept nogil:
    """The first tile of a suit letter (m 0, p 9, s 18), else -1."""
    if ch == c'm':
        return 0
    if ch == c'p':
        return 9
    if ch == c's':
        return 18
    return -1


cdef inline int _honor_of(uint32_t ch) noexcept nogil:
    """The tile of an honor letter (E S W N C F P: 27-33), else -1."""
    if ch == c'E':
        return 27
    if ch == c'S':
        return 28
    if ch == c'W':
        return 29
    if ch == c'N':
        return 30
    if ch == c'C':
        return 31
    if ch == c'F':
        return 32
    if ch == c'P':
        return 33
    return -1


cdef inline bint _ascii_ws(uint32_t ch) noexcept nogil:
    """The whitespace allowed between melds (ASCII only)."""
    return ch == 32 or 9 <= ch <= 13


cdef inline int _emit(PNote* o, uint8_t* buf, Py_ssize_t cap, int t) noexcept nogil:
    if o.n_tiles < cap:
        buf[o.n_tiles] = <uint8_t>t
    o.n_tiles += 1
    o.counts[t] += 1
    if o.counts[t] > 4:
        o.over = 1
    o.last = t
    return 0


cdef inline Py_ssize_t _compact(const nchar_t* s, Py_ssize_t start, Py_ssize_t end, PNote* o,
                         uint8_t* buf, Py_ssize_t cap) noexcept nogil:
    """Compact notation s[start:end] (digit runs each followed by its suit
    letter, honor letters, whitespace between them) into o (counts) and buf.
    -1 when the text is not compact notation (what was emitted is then
    garbage: the caller starts again)."""
    cdef Py_ssize_t i, run = -1, k
    cdef int v, base
    for i in range(start, end):
        v = mj_cls(s[i])
        if v < 10:
            if v == 0:
                return -1
            if run < 0:
                run = i
            continue
        if v < 40:
            if run < 0:
                return -1
            base = v - 11
            for k in range(run, i):
                _emit(o, buf, cap, base + <int>s[k] - 48)
            run = -1
            continue
        if run >= 0:
            return -1
        if v < 100:
            _emit(o, buf, cap, v - 40)
    if run >= 0:
        return -1
    return 0


cdef inline bint _bz_pattern(const nchar_t* s, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """s[i:j] is a letter of W B T F J H and a digit 1-9."""
    cdef int n
    cdef uint32_t d
    if j - i != 2 or mj_bz_base(s[i], &n) < 0:
        return False
    d = s[i + 1]
    return 49 <= d <= 57


cdef bint _any_bz_token(const nchar_t* s, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """Some whitespace-separated token of s[start:end] is a Botzone pattern."""
    cdef Py_ssize_t i = start, j
    while i < end:
        if mj_space(s[i]):
            i += 1
            continue
        j = i
        while j < end and not mj_space(s[j]):
            j += 1
        if _bz_pattern(s, i, j):
            return True
        i = j
    return False


cdef int _compact_error(const nchar_t* s, Py_ssize_t start, Py_ssize_t end, PNote* o) noexcept nogil:
    """The first error of s[start:end], which is not compact notation: the
    first character that cannot be where it is."""
    cdef Py_ssize_t i, run = -1
    cdef uint32_t ch
    cdef bint honor, space
    o.c = _any_bz_token(s, start, end)
    for i in range(start, end):
        ch = s[i]
        if 49 <= ch <= 57:
            if run < 0:
                run = i
            continue
        if _suit_of(ch) >= 0:
            if run < 0:
                o.err = NE_SUIT_FIRST
                o.a = i
                return o.err
            run = -1
            continue
        if ch == c'0':
            o.err = NE_ZERO
            o.a = i
            return o.err
        honor = _honor_of(ch) >= 0
        space = mj_space(ch)
        if not (honor or space or ch == c'[' or ch == c']'):
            o.err = NE_UNKNOWN
            o.a = i
            return o.err
        if run >= 0:
            o.err = NE_RUN
            o.a = run
            o.b = i
            return o.err
        if not (honor or space):
            o.err = NE_BRACKET
            o.a = i
            return o.err
    if run >= 0:
        o.err = NE_RUN
        o.a = run
        o.b = end
        return o.err
    o.err = NE_CANNOT
    o.a = start
    o.b = end
    return o.err


cdef int _tiles(const nchar_t* s, Py_ssize_t start, Py_ssize_t end, bint after_melds, PNote* o,
                uint8_t* buf, Py_ssize_t cap) noexcept nogil:
    """The concealed tiles s[start:end]: compact notation, else Botzone codes
    separated by whitespace (flowers H1-H8 counted), else the first error.
    after_melds: the text follows parse_hand's melds, so that a bracket in it
    is a misplaced meld (neither notation holds one: only text that is not
    compact notation is searched)."""
    cdef Py_ssize_t i, j
    cdef int base, n, r, t
    cdef unsigned int seen = 0
    cdef bint first = True
    if _compact(s, start, end, o, buf, cap) == 0:
        return NE_OK
    if after_melds:
        j = -1
        for i in range(start, end):
            if s[i] == c'[':
                o.err = NE_MELD_AFTER
                o.a = i
                return o.err
            if s[i] == c']' and j < 0:
                j = i
        if j >= 0:
            o.err = NE_UNMATCHED
            o.a = j
            return o.err
    memset(o.counts, 0, sizeof(o.counts))
    o.n_tiles = 0
    o.last = -1
    o.over = 0
    i = start
    while i < end:
        if mj_space(s[i]):
            i += 1
            continue
        j = i
        while j < end and not mj_space(s[j]):
            j += 1
        if not _bz_pattern(s, i, j):
            if first:
                # not Botzone codes at all: the first character that is wrong
                memset(o.counts, 0, sizeof(o.counts))
                o.n_tiles = 0
                o.last = -1
                return _compact_error(s, start, end, o)
            o.err = NE_BZ_NOT
            o.a = i
            o.b = j
            return o.err
        first = False
        base = mj_bz_base(s[i], &n)
        r = <int>s[i + 1] - 49
        if r >= n:
            o.err = NE_BZ_UNKNOWN
            o.a = i
            return o.err
        if base == 64:
            if seen & (1u << r):
                o.err = NE_FLOWER_TWICE
                o.a = i
                return o.err
            seen |= 1u << r
            if o.n_flowers == 0:
                o.first_flower = i
            o.n_flowers += 1
        else:
            _emit(o, buf, cap, base + r)
        i = j
    return NE_OK


cdef inline Py_ssize_t _meld_tiles(const nchar_t* s, Py_ssize_t start, Py_ssize_t end, uint8_t* mt) noexcept nogil:
    """The tiles of a meld's body s[start:end] (compact notation, no
    whitespace): their number, the first four in mt; -1 when it is not
    compact notation."""
    cdef Py_ssize_t i, k, run = -1, n = 0
    cdef uint32_t ch
    cdef int base, t
    for i in range(start, end):
        ch = s[i]
        if 49 <= ch <= 57:
            if run < 0:
                run = i
            continue
        base = _suit_of(ch)
        if base >= 0:
            if run < 0:
                return -1
            for k in range(run, i):
                if n < 4:
                    mt[n] = <uint8_t>(base + <int>s[k] - 49)
                n += 1
            run = -1
            continue
        t = _honor_of(ch)
        if t < 0 or run >= 0:
            return -1
        if n < 4:
            mt[n] = <uint8_t>t
        n += 1
    return -1 if run >= 0 else n


cdef inline int _meld(const nchar_t* s, Py_ssize_t lb, Py_ssize_t rb, PNote* o) noexcept nogil:
    """The meld between the brackets at lb and rb into o's next meld slot."""
    cdef Py_ssize_t i, pe = rb, a = lb + 1
    cdef uint32_t ch, ch2
    cdef int digit = -1
    cdef Py_ssize_t nt
    cdef uint8_t mt[4]
    o.a = lb
    o.b = rb
    if rb == a:
        o.err = NE_EMPTY_MELD
        return o.err
    if rb - a >= 2:
        ch = s[rb - 1]
        ch2 = s[rb - 2]
        if 48 <= ch <= 57 and (_suit_of(ch2) >= 0 or _honor_of(ch2) >= 0):
            digit = <int>ch - 48
            pe = rb - 1
    nt = _meld_tiles(s, a, pe, mt)
    if nt < 0:
        # (a body with whitespace is not compact notation without it)
        for i in range(a, rb):
            if mj_space(s[i]):
                o.err = NE_MELD_WS
                return o.err
        return _compact_error(s, a, pe, o)
    return _meld_set(mt, nt, digit, o)


cdef inline Py_ssize_t _meld_scan(const nchar_t* s, Py_ssize_t lb, Py_ssize_t n, PNote* o) noexcept nogil:
    """The common meld in one pass: from the '[' at lb, notation letters and
    digits up to the ']' (a final digit after a letter being the meld's
    digit), read into o's next slot by _meld_set.  Returns the index of the
    ']', or -1 for anything else (the caller then reads the meld step by step,
    which names what is wrong; an error of _meld_set is already the one it
    would name)."""
    cdef Py_ssize_t j = lb + 1, run = -1, k, nt = 0
    cdef int v, base, digit = -1
    cdef uint32_t ch
    cdef uint8_t mt[4]
    while j < n:
        ch = s[j]
        if ch >= 128:
            return -1
        v = MJ_CLS[ch]
        if v == 0 or v == 100:
            break
        if v < 10:
            if run < 0:
                run = j
        elif v < 40:
            if run < 0 or nt + (j - run) > 4:
                return -1
            base = v - 11
            for k in range(run, j):
                mt[nt] = <uint8_t>(base + <int>s[k] - 48)
                nt += 1
            run = -1
        else:
            if run >= 0 or nt == 4:
                return -1
            mt[nt] = <uint8_t>(v - 40)
            nt += 1
        j += 1
    if j >= n or s[j] != c']' or nt == 0:
        return -1
    if run >= 0:
        if run != j - 1:
            return -1
        digit = <int>s[run] - 48
    o.a = lb
    o.b = j
    if _meld_set(mt, nt, digit, o) != NE_OK:
        return -2
    return j


cdef inline int _meld_set(const uint8_t* mt, Py_ssize_t nt, int digit, PNote* o) noexcept nogil:
    """A meld's nt tiles (the first four in mt) and digit (-1: none) as o's
    next meld, or the error that names what is wrong with it."""
    cdef int n, t0, t1, t2, x, k = o.n_melds
    n = <int>nt if nt < 100 else 100
    if n != 3 and n != 4:
        o.err = NE_MELD_SIZE
        o.c = nt
        o.d = digit
        return o.err
    t0 = mt[0]
    t1 = mt[1]
    t2 = mt[2]
    o.d = digit
    o.mclaim[k] = 0
    o.mflag[k] = 0
    o.mtile[k] = t0
    if t1 == t0 and t2 == t0 and (n == 3 or mt[3] == t0):
        if n == 3:
            o.mkind[k] = 1
            if digit > 3 or digit == 0:
                o.err = NE_PUNG_DIGIT
                return o.err
            o.mclaim[k] = digit if digit > 0 else 0
        else:
            o.mkind[k] = 2
            if digit < 0:
                o.mflag[k] = 1
            elif 1 <= digit <= 3:
                o.mclaim[k] = digit
            elif 5 <= digit <= 7:
                o.mclaim[k] = digit - 4
                o.mflag[k] = 2
            else:
                o.err = NE_KONG_DIGIT
                return o.err
        o.n_melds += 1
        return NE_OK
    if n == 4:
        o.err = NE_NOT_KONG
        return o.err
    if t0 >= 27 or t1 >= 27 or t2 >= 27:
        o.err = NE_HONOR_CHOW
        return o.err
    # sort the three
    if t0 > t1:
        x = t0; t0 = t1; t1 = x
    if t1 > t2:
        x = t1; t1 = t2; t2 = x
    if t0 > t1:
        x = t0; t0 = t1; t1 = x
    if t1 == t0 + 1 and t2 == t0 + 2 and t0 // 9 == t2 // 9:
        if mt[0] != t0 or mt[1] != t1:
            o.err = NE_CHOW_ORDER
            return o.err
    else:
        o.err = NE_NOT_SET
        o.c = (t1 == t0 + 1 and t2 == t0 + 2) or (
            t0 // 9 == t2 // 9 and t0 % 9 == 0 and t2 % 9 == 8 and (t1 % 9 == 7 or t1 % 9 == 1))
        return o.err
    if digit == 0 or digit > 3:
        o.err = NE_CHOW_DIGIT
        return o.err
    o.mkind[k] = 0
    o.mtile[k] = t0
    o.mclaim[k] = digit if digit > 0 else 0
    o.n_melds += 1
    return NE_OK


cdef inline Py_ssize_t _exact_copies(const PNote* o, const uint8_t* buf, int t) noexcept nogil:
    """The concealed copies of t when a count may have wrapped (a string of
    more than 255 copies): buf holds every tile in the modes that read such
    strings (NM_TILES, NM_COUNTS: its capacity is the string's length)."""
    cdef Py_ssize_t k, n = 0
    for k in range(o.n_tiles):
        n += buf[k] == t
    return n


cdef int _note_parse(const nchar_t* s, Py_ssize_t n, int mode, PNote* o,
                     uint8_t* buf, Py_ssize_t cap) noexcept nogil:
    """Parse s[0:n] (a str's characters, or the bytes of an ASCII string) as
    `mode` says (NM_*) into o, the first `cap` concealed tiles into buf in
    order.  Returns o.err: NE_OK, or the first problem (see NE_*)."""
    cdef Py_ssize_t i = 0, j, total
    cdef uint32_t ch
    cdef int t, k
    cdef uint8_t allc[34]
    o.err = NE_OK
    o.a = o.b = o.c = o.d = 0
    o.n_melds = 0
    memset(o.counts, 0, sizeof(o.counts))
    o.n_tiles = 0
    o.last = -1
    o.n_flowers = 0
    o.first_flower = -1
    o.over = 0
    if mode == NM_COUNTS:
        for i in range(n):
            ch = s[i]
            if ch == c'[' or ch == c']':
                o.err = NE_BRACKETS_IN
                return o.err
        i = 0
    if mode == NM_HAND:
        while True:
            while i < n and _ascii_ws(s[i]):
                i += 1
            if i >= n or s[i] != c'[':
                break
            if o.n_melds < 4:
                j = _meld_scan(s, i, n, o)
                if j >= 0:
                    i = j + 1
                    continue
                if j == -2:
                    return o.err
            j = i + 1
            while j < n:
                ch = s[j]
                if ch == c'[' or ch == c']':
                    break
                j += 1
            if j >= n or ch == c'[':
                o.err = NE_UNCLOSED
                o.a = i
                return o.err
            if o.n_melds == 4:
                o.err = NE_FIFTH_MELD
                o.a = i
                o.b = j
                return o.err
            if _meld(s, i, j, o) != NE_OK:
                return o.err
            i = j + 1
    if _tiles(s, i, n, mode == NM_HAND, o, buf, cap) != NE_OK:
        return o.err
    if mode == NM_TILES:
        if o.n_flowers:
            o.err = NE_FLOWER_TILE
            o.a = o.first_flower
        return o.err
    if mode == NM_COUNTS:
        if o.over:
            for t in range(34):
                j = _exact_copies(o, buf, t)
                if j > 4:
                    o.err = NE_FIFTH_PLAIN
                    o.a = t
                    o.b = j
                    return o.err
        return o.err
    total = o.n_tiles + 3 * o.n_melds
    if total > 14:
        o.err = NE_TOO_MANY
        o.a = total
        return o.err
    if o.n_melds:
        # the melds' tiles with the concealed ones
        memcpy(allc, o.counts, 34)
        for k in range(o.n_melds):
            t = o.mtile[k]
            if o.mkind[k] == 0:
                allc[t] += 1
                allc[t + 1] += 1
                allc[t + 2] += 1
            else:
                allc[t] += 3 if o.mkind[k] == 1 else 4
        for t in range(34):
            if allc[t] > 4:
                o.err = NE_FIFTH
                o.a = t
                o.b = allc[t]
                return o.err
    elif o.over:
        for t in range(34):
            if o.counts[t] > 4:
                o.err = NE_FIFTH
                o.a = t
                o.b = o.counts[t]
                return o.err
    return NE_OK


cdef inline int _note_str(str s, int mode, PNote* o, uint8_t* buf, Py_ssize_t cap) noexcept:
    cdef int kind = PyUnicode_KIND(s)
    cdef void* d = PyUnicode_DATA(s)
    if kind == PyUnicode_1BYTE_KIND:
        return _note_parse(<const uint8_t*>d, len(s), mode, o, buf, cap)
    if kind == PyUnicode_2BYTE_KIND:
        return _note_parse(<const uint16_t*>d, len(s), mode, o, buf, cap)
    return _note_parse(<const uint32_t*>d, len(s), mode, o, buf, cap)


cdef inline int _note_phand(const PNote* o, const uint8_t* buf, PHand* h) noexcept nogil:
    """A parsed hand (NM_HAND, no error) into the kernel's PHand; -1 when it is
    not one the batch columns hold as it is (not 14 tiles counting 3 per meld,
    or flowers among the codes, which add to the flowers argument)."""
    cdef int k
    if o.n_tiles + 3 * o.n_melds != 14 or o.n_flowers:
        return -1
    memcpy(h.counts, o.counts, 34)
    h.n_melds = o.n_melds
    for k in range(o.n_melds):
        h.meld_kind[k] = o.mkind[k]
        h.meld_tile[k] = o.mtile[k]
        h.meld_open[k] = 0 if o.mflag[k] & 1 else 1
    h.win_tile = <uint8_t>o.last
    return 0


def parse_notation(object s, int mode=NM_HAND):
    """Parse a notation string with the compiled parser.

    mode 0 (parse_hand), 1 (parse_tiles), 2 (to_counts of a string without
    melds).  Returns ``(0, melds, tiles, flowers, counts)`` -- melds a tuple of
    codes ``kind | claimed << 2 | flags << 4 | tile << 6`` (kind 0 chow, 1
    pung, 2 kong; flags 1 concealed, 2 added), tiles a tuple in the order
    given, flowers a count, counts a list of the 34 concealed counts -- or
    ``(error, a, b, c, d)``: an error code and its positions
    (mjfast.tiles._notation_error words it)."""
    cdef PNote o
    cdef uint8_t small[64]
    cdef uint8_t* buf = small
    cdef Py_ssize_t cap = 64, n, k
    cdef str t
    if not isinstance(s, str):
        raise TypeError(f"a notation string must be a str, got {type(s).__name__}")
    if mode < 0 or mode > 2:
        raise ValueError(f"mode must be 0, 1 or 2, got {mode}")
    t = <str>s
    n = len(t)
    if n > cap:
        buf = <uint8_t*>malloc(n)
        if buf == NULL:
            raise MemoryError()
        cap = n
    try:
        if _note_str(t, mode, &o, buf, cap) != NE_OK:
            return (o.err, o.a, o.b, o.c, o.d)
        melds = tuple([<int>o.mkind[k] | <int>o.mclaim[k] << 2 | <int>o.mflag[k] << 4 | <int>o.mtile[k] << 6
                       for k in range(o.n_melds)])
        tiles = tuple([buf[k] for k in range(o.n_tiles)])
        # (counts past 4 only on parse_tiles' path, which reads the tiles)
        return (0, melds, tiles, o.n_flowers, [o.counts[k] for k in range(34)])
    finally:
        if buf != small:
            free(buf)


# ---------------------------------------------------------------------------
# a winning hand into the kernel's PHand, and into batch columns
# ---------------------------------------------------------------------------

cdef int parse_fast(str s, PHand* h) noexcept:
    """A winning hand (14 tiles counting 3 per meld, no flower codes) into h:
    PARSE_OK, else PARSE_FALLBACK."""
    cdef PNote o
    if _note_str(s, NM_HAND, &o, NULL, 0) != NE_OK or _note_phand(&o, NULL, h) != 0:
        return PARSE_FALLBACK
    return PARSE_OK


cdef int parse_fast_bytes(const unsigned char* s, Py_ssize_t n, PHand* h) noexcept nogil:
    """parse_fast on ASCII bytes (a JSON line's hand string)."""
    cdef PNote o
    if _note_parse(<const uint8_t*>s, n, NM_HAND, &o, NULL, 0) != NE_OK or _note_phand(&o, NULL, h) != 0:
        return PARSE_FALLBACK
    return PARSE_OK


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
        if type(s) is not str or parse_fast(<str>s, &h) != PARSE_OK:
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
