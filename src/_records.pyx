# cython: language_level=3
# (bounds and initialisation checks are set by setup.py: off, or on for MJFAST_DEBUG=1)
"""Hand records in and scores out, compiled (mjfast._records): the io step
between files and batch columns.

* The win context read in one place: a wind from "E" "S" "W" "N" (any case)
  or 0-3, a flag from true / false, flowers 0-8, and the four flags packed
  into the W_* bits of the kernel (self_drawn 1, fourth_tile 2, kong 4,
  last_tile 8).  The record readers (dicts and JSON lines),
  mjfast.records.check_context / check_wind (which word the errors) and
  mjfast.score's fast path all read them here.
* Records into batch columns (read_records: dicts; scan_lines: JSON lines
  scanned without decoding): the common, valid record becomes batch columns
  here; anything else is marked for mjfast.batch, whose Python validator then
  reads the row or names what is wrong (so the messages stay where they are
  written).  Hands are parsed by mjfast._notation (cimported).
* Scores out: the JSONL result lines of a scored chunk (write_results).

A leaf of the compiled modules: nothing cimports it; mjfast._core re-exports
its functions under their old names.
"""
from libc.stdint cimport uint8_t, int8_t, uint32_t, int32_t, int64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_1BYTE_KIND
from fankernel.fan_base cimport PHand
from fankernel.flag_bits cimport *
from mjfast._notation cimport parse_fast, parse_fast_bytes, PARSE_OK
from argcheck cimport _check_len, _check_rows

import numpy as np


# ---------------------------------------------------------------------------
# the win context
# ---------------------------------------------------------------------------


cdef inline int _wind_char(uint32_t ch) noexcept nogil:
    """A wind letter (any case) as 0-3 (E S W N), else -1."""
    if ch == c'E' or ch == c'e':
        return 0
    if ch == c'S' or ch == c's':
        return 1
    if ch == c'W' or ch == c'w':
        return 2
    if ch == c'N' or ch == c'n':
        return 3
    return -1


cdef int _int_in(object v, int top) except -3:
    """An integer 0..top (an int or a numpy integer, not a bool); -1 for one
    out of range, -2 for anything that is no integer."""
    cdef int overflow = 0
    cdef long x
    if type(v) is int:
        x = PyLong_AsLongAndOverflow(v, &overflow)
        return <int>x if overflow == 0 and 0 <= x <= top else -1
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        return -2
    return int(v) if 0 <= v <= top else -1


cdef int _wind_of(object v) except -3:
    """A wind argument as 0-3: -1 for a string or integer that is no wind,
    -2 for any other type."""
    if type(v) is str:
        return _wind_char((<str>v)[0]) if len(<str>v) == 1 else -1
    return _int_in(v, 3)


cdef inline int _flag_of(object v) except -3:
    """A flag argument as 0 / 1 (a bool or a numpy bool); -2 for anything else."""
    if v is True:
        return 1
    if v is False:
        return 0
    if type(v) is np.bool_:
        return 1 if v else 0
    return -2


cdef inline int _pack_flags(int self_drawn, int fourth_tile, int kong, int last_tile) noexcept nogil:
    """The four flags (0 / 1 each) as the kernel's W_* bits; -1 when one is not
    0 or 1."""
    if not (0 <= self_drawn <= 1 and 0 <= fourth_tile <= 1 and 0 <= kong <= 1 and 0 <= last_tile <= 1):
        return -1
    return self_drawn * W_SELF_DRAWN | fourth_tile * W_FOURTH_TILE | kong * W_KONG | last_tile * W_LAST_TILE


def wind_code(v):
    """A wind argument ("E" "S" "W" "N" in any case, or an integer 0-3) as
    0-3; -1 for a string or integer that is no wind, -2 for another type
    (mjfast.records.check_wind words the error)."""
    return _wind_of(v)


def flowers_code(v):
    """A flowers argument (an integer 0-8) as itself; -1 for an integer out of
    range, -2 for another type (mjfast.records.check_flowers words the error)."""
    return _int_in(v, 8)


def context_code(self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers):
    """The win context packed: ``flags | seat << 4 | round << 6 | flowers << 8``
    (flags the W_* bits), or ``-1 - k`` where argument k (in this order) is
    the first bad one (mjfast.records.check_context words the error)."""
    cdef int f, s, r, fl, b[4], k
    b[0] = _flag_of(self_drawn)
    b[1] = _flag_of(fourth_tile)
    b[2] = _flag_of(kong)
    b[3] = _flag_of(last_tile)
    f = _pack_flags(b[0], b[1], b[2], b[3])
    if f < 0:
        for k in range(4):
            if b[k] < 0:
                return -1 - k
    s = _wind_of(seat_wind)
    if s < 0:
        return -5
    r = _wind_of(round_wind)
    if r < 0:
        return -6
    fl = _int_in(flowers, 8)
    if fl < 0:
        return -7
    return f | s << 4 | r << 6 | fl << 8


# ---------------------------------------------------------------------------
# records in: dicts into batch columns
# ---------------------------------------------------------------------------

from cpython.dict cimport PyDict_GetItem, PyDict_Next
from cpython.object cimport PyObject
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_1BYTE_KIND

DEF REC_OK = 0
DEF REC_SLOW = 1          # the Python validator reads the row (or rejects it)



# the keys a record is read by (docs/notation.md, "Hand records"): their
# indexes and the lookup are generated by setup.py (src/include/record_keys.h),
# the flag keys from mjfast/spec/flags.py -- the win flags from K_FLAG0, the
# two-player flags (bits of mjfast.batch.RULE_FLAG_BITS) from K_RFLAG0, flag j
# of a byte being its bit 1 << j; anything else is skipped (in a JSON line its
# value must be a plain scalar, else the line is left to the JSON decoder)
DEF K_OTHER = -1

cdef extern from "record_keys.h":
    enum:
        K_HAND "MJ_K_HAND"
        K_ID "MJ_K_ID"
        K_RULES "MJ_K_RULES"
        K_SEAT "MJ_K_SEAT_WIND"
        K_ROUND "MJ_K_ROUND_WIND"
        K_FLOWERS "MJ_K_FLOWERS"
        K_FLAG0 "MJ_K_FLAG0"
        N_FLAGS "MJ_N_FLAGS"
        K_RFLAG0 "MJ_K_RFLAG0"
        N_RFLAGS "MJ_N_RFLAGS"
        N_KEYS "MJ_N_KEYS"
        K_UNREAD "MJ_K_UNREAD"      # a context key no batch column holds: the validator reports it
    int mj_record_key(const unsigned char* s, Py_ssize_t m) nogil

DEF V_NULL = 0
DEF V_TRUE = 1
DEF V_FALSE = 2
DEF V_INT = 3
DEF V_STR = 4

cdef inline int _rec_key(const unsigned char* s, Py_ssize_t m) noexcept nogil:
    return mj_record_key(s, m)


cdef inline int _bool_bit(PyObject* v) noexcept:
    """A record's flag: 0 / 1 for absent, null, false / true; -1 for anything
    else, a numpy bool too (the validator reads it: the win flags take one,
    the two-player rule flags do not)."""
    if v == NULL:
        return 0
    cdef object o = <object>v
    if o is None or o is False:
        return 0
    if o is True:
        return 1
    return -1


cdef inline int _dict_flags(PyObject** vals, int k0, int n) noexcept:
    """The n flags of a record at vals[k0:k0 + n] as a packed byte (flag j:
    bit 1 << j, as record_keys.h orders them); -1 when one is not a bool."""
    cdef int j, b, out = 0
    for j in range(n):
        b = _bool_bit(vals[k0 + j])
        if b < 0:
            return -1
        out |= b << j
    return out


cdef inline int _small_int(PyObject* v, int top) except -3:
    """A record's integer 0..top (absent or null: 0); -1 for anything else."""
    cdef int x
    if v == NULL or <object>v is None:
        return 0
    x = _int_in(<object>v, top)
    return x if x >= 0 else -1


cdef inline int _wind_code(PyObject* v) except -3:
    """A record's wind as 0-3 (_wind_of; absent or null: East); -1 for
    anything else."""
    cdef int w
    if v == NULL or <object>v is None:
        return 0
    w = _wind_of(<object>v)
    return w if w >= 0 else -1


def read_records(list records, uint8_t[:, ::1] counts, uint8_t[:, :, ::1] melds, uint8_t[::1] n_melds,
                 uint8_t[::1] win, uint8_t[::1] flags, uint8_t[::1] seat, uint8_t[::1] rnd,
                 uint8_t[::1] flowers, uint8_t[::1] rule_flags, uint8_t[::1] status, list ids,
                 list kongs=None):
    """Hand-record dicts into batch columns.  status[i] = 0 where the row was
    read (a dict, a compact winning hand string, bool flags, winds and
    flowers in range), 1 where the Python validator must take it (it then
    reads the row or names the problem).  ids[i] = the record's "id" (None
    when absent or not a dict).  kongs (optional): i and the hand string are
    appended for every read row holding a melded kong (the rows an added kong
    can be in: the batch keeps their notation, taken here while the record is
    at hand).  Returns the number of records carrying a "rules" value (the
    caller then groups by rule set)."""
    cdef Py_ssize_t i, n = len(records)
    cdef PHand h
    cdef int j, b, f, s, r, fl, rf, n_rules = 0
    cdef PyObject* v
    cdef PyObject* key
    cdef PyObject* vals[N_KEYS]
    cdef Py_ssize_t pos
    cdef bint plain
    cdef object rec
    _check_len(_check_rows(counts, "counts"), n, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(rule_flags.shape[0], n, "rule_flags")
    _check_len(status.shape[0], n, "status")
    _check_len(len(ids), n, "ids")
    for i in range(n):
        rec = records[i]
        status[i] = REC_SLOW
        if type(rec) is not dict:
            continue
        # one pass over the record's items (most records hold fewer keys than
        # the N_KEYS a lookup per key would try)
        for j in range(N_KEYS):
            vals[j] = NULL
        pos = 0
        plain = True
        while PyDict_Next(rec, &pos, &key, &v):
            if type(<object>key) is not str or PyUnicode_KIND(<object>key) != PyUnicode_1BYTE_KIND:
                plain = False      # a key the table cannot hold: the validator reads the record
                break
            j = _rec_key(<const unsigned char*>PyUnicode_DATA(<object>key), len(<str>key))
            if j == K_UNREAD:
                plain = False      # the validator reports the key
                break
            if j >= 0:
                vals[j] = v
        if not plain:
            v = PyDict_GetItem(rec, "id")
            ids[i] = None if v == NULL else <object>v
            continue
        v = vals[K_ID]
        ids[i] = None if v == NULL else <object>v
        v = vals[K_RULES]
        if v != NULL and <object>v is not None:
            n_rules += 1
        f = _dict_flags(vals, K_FLAG0, N_FLAGS)
        rf = _dict_flags(vals, K_RFLAG0, N_RFLAGS)
        if f < 0 or rf < 0:
            continue
        s = _wind_code(vals[K_SEAT])
        r = _wind_code(vals[K_ROUND])
        fl = _small_int(vals[K_FLOWERS], 8)
        if s < 0 or r < 0 or fl < 0:
            continue
        v = vals[K_HAND]
        if v == NULL or type(<object>v) is not str or parse_fast(<str>v, &h) != PARSE_OK:
            continue
        for j in range(34):
            counts[i, j] = h.counts[j]
        n_melds[i] = h.n_melds
        b = 0
        for j in range(h.n_melds):
            melds[i, j, 0] = h.meld_kind[j]
            melds[i, j, 1] = h.meld_tile[j]
            melds[i, j, 2] = h.meld_open[j]
            b |= h.meld_kind[j] == 2 and h.meld_open[j]
        if b and kongs is not None:
            kongs.append(i)
            kongs.append(<object>v)
        win[i] = h.win_tile
        flags[i] = f
        seat[i] = s
        rnd[i] = r
        flowers[i] = fl
        rule_flags[i] = rf
        status[i] = REC_OK
    return n_rules


# ---------------------------------------------------------------------------
# scores out: the JSONL result lines of a scored chunk
# ---------------------------------------------------------------------------

from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdlib cimport realloc


cdef struct _Out:
    char* p
    Py_ssize_t n
    Py_ssize_t cap


cdef int _reserve(_Out* o, Py_ssize_t k) except -1:
    cdef Py_ssize_t cap
    cdef char* p
    if o.n + k <= o.cap:
        return 0
    cap = 2 * o.cap
    if cap < o.n + k + 4096:
        cap = o.n + k + 4096
    p = <char*>realloc(o.p, cap)
    if p == NULL:
        raise MemoryError()
    o.p = p
    o.cap = cap
    return 0


cdef inline void _put(_Out* o, const char* s, Py_ssize_t k) noexcept:
    memcpy(o.p + o.n, s, k)
    o.n += k


cdef inline void _put_int(_Out* o, long long x) noexcept:
    """Decimal x (room for 21 bytes reserved by the caller)."""
    cdef char tmp[24]
    cdef int k = 0
    cdef unsigned long long u
    if x < 0:
        o.p[o.n] = c'-'
        o.n += 1
        u = <unsigned long long>(-(x + 1)) + 1
    else:
        u = <unsigned long long>x
    while True:
        tmp[k] = <char>(48 + u % 10)
        k += 1
        u //= 10
        if u == 0:
            break
    while k:
        k -= 1
        o.p[o.n] = tmp[k]
        o.n += 1


cdef int _put_id(_Out* o, object rid) except -1:
    """The id as the JSON encoders write it: 1 when written, 0 when the
    caller must have Python write the line (a float, a container, a string
    that needs escaping, an int past 64 bits...)."""
    cdef int overflow = 0
    cdef long long x
    cdef Py_ssize_t k, m
    cdef const unsigned char* s
    if rid is None:
        _reserve(o, 4)
        _put(o, b"null", 4)
        return 1
    if rid is True:
        _reserve(o, 4)
        _put(o, b"true", 4)
        return 1
    if rid is False:
        _reserve(o, 5)
        _put(o, b"false", 5)
        return 1
    if type(rid) is int:
        x = PyLong_AsLongLongAndOverflow(rid, &overflow)
        if overflow:
            return 0
        _reserve(o, 24)
        _put_int(o, x)
        return 1
    if type(rid) is str and PyUnicode_KIND(rid) == PyUnicode_1BYTE_KIND:
        m = len(<str>rid)
        s = <const unsigned char*>PyUnicode_DATA(rid)
        for k in range(m):
            # printable ASCII but the two characters JSON escapes
            if s[k] < 32 or s[k] > 126 or s[k] == 34 or s[k] == 92:
                return 0
        _reserve(o, m + 2)
        _put(o, b"\"", 1)
        _put(o, <const char*>s, m)
        _put(o, b"\"", 1)
        return 1
    return 0


def write_results(list ids, const uint8_t[::1] py_rows, const int32_t[::1] totals, const uint8_t[::1] legal,
                  const uint8_t[:, ::1] fans, const int32_t[::1] order, tuple frags, object fmt):
    """The JSONL result lines of N scored rows, as bytes: {"id", "total",
    "fans", "legal"} written here, exactly as the JSON encoder would; rows
    with py_rows[i] != 0 (errors, dropped flags) and rows whose id this
    writer does not write are fmt(i) (bytes, one line).  fans: (N, F) counts
    in table order; order: the F columns in output order; frags[j]: the
    encoded fan entry of column order[j] up to its count ('..."count":')."""
    cdef Py_ssize_t i, n = len(ids), j, nf = order.shape[0], k, start
    cdef _Out o
    cdef bint first
    cdef int c
    cdef bytes line, fr
    _check_len(py_rows.shape[0], n, "py_rows")
    _check_len(totals.shape[0], n, "totals")
    _check_len(legal.shape[0], n, "legal")
    if fans.shape[0] != n:
        raise ValueError(f"fans must have {n} rows, got {fans.shape[0]}")
    _check_len(len(frags), nf, "frags")
    for j in range(nf):
        if order[j] < 0 or order[j] >= fans.shape[1]:
            raise ValueError(f"order[{j}] = {order[j]} is not a column of fans")
        if type(frags[j]) is not bytes:
            raise TypeError("frags must hold bytes")
    o.p = NULL
    o.n = 0
    o.cap = 0
    try:
        _reserve(&o, 64 * n + 4096)
        for i in range(n):
            start = o.n
            if not py_rows[i]:
                _reserve(&o, 8)
                _put(&o, b"{\"id\":", 6)
                if _put_id(&o, ids[i]):
                    _reserve(&o, 48)
                    _put(&o, b",\"total\":", 9)
                    _put_int(&o, totals[i])
                    _put(&o, b",\"fans\":[", 9)
                    first = True
                    for j in range(nf):
                        c = fans[i, order[j]]
                        if c:
                            fr = <bytes>frags[j]
                            k = PyBytes_GET_SIZE(fr)
                            _reserve(&o, k + 8)
                            if not first:
                                _put(&o, b",", 1)
                            first = False
                            _put(&o, PyBytes_AS_STRING(fr), k)
                            _put_int(&o, c)
                            _put(&o, b"}", 1)
                    _reserve(&o, 20)
                    if legal[i]:
                        _put(&o, b"],\"legal\":true}\n", 16)
                    else:
                        _put(&o, b"],\"legal\":false}\n", 17)
                    continue
                o.n = start          # Python writes this line after all
            line = fmt(i)
            k = PyBytes_GET_SIZE(line)
            _reserve(&o, k)
            _put(&o, PyBytes_AS_STRING(line), k)
        return PyBytes_FromStringAndSize(o.p, o.n)
    finally:
        free(o.p)


# ---------------------------------------------------------------------------
# records in from JSON lines: the common flat record scanned without decoding
# ---------------------------------------------------------------------------

from cpython.long cimport PyLong_FromLongLong
from libc.string cimport memcmp
from cpython.unicode cimport PyUnicode_FromStringAndSize

cdef inline Py_ssize_t _ws(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    while i < n and (s[i] == 32 or s[i] == 9 or s[i] == 10 or s[i] == 13):
        i += 1
    return i


cdef inline Py_ssize_t _plain_string(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """s[i] is the opening quote: the index of the closing one, or -1 when the
    string holds an escape, a control character or a byte past ASCII (the
    JSON decoder reads those)."""
    i += 1
    while i < n:
        if s[i] == 34:
            return i
        if s[i] == 92 or s[i] < 32 or s[i] > 127:
            return -1
        i += 1
    return -1


cdef int _scan_line(const unsigned char* s, Py_ssize_t n, Py_ssize_t* vs, Py_ssize_t* ve, int* vt,
                    long long* vi) noexcept nogil:
    """One flat JSON object of plain scalars: per known key its value's type
    (vt, -1 when absent), its string span (vs, ve) or int (vi).  0 when the
    line is such an object, -1 when the JSON decoder must read it (anything
    else: nesting, escapes, non-ASCII, floats, a repeated key, bad JSON)."""
    cdef Py_ssize_t i, ks, ke, e
    cdef int k, t, nd
    cdef long long x
    cdef bint neg
    for k in range(N_KEYS):
        vt[k] = -1
    i = _ws(s, 0, n)
    if i >= n or s[i] != 123:                     # '{'
        return -1
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 125:                     # '}': an empty object
        i += 1
    else:
        while True:
            if i >= n or s[i] != 34:
                return -1
            ke = _plain_string(s, i, n)
            if ke < 0:
                return -1
            ks = i + 1
            k = _rec_key(s + ks, ke - ks)
            if k == K_UNREAD:
                return -1                          # decoded, then reported by the validator
            if k != K_OTHER and vt[k] != -1:
                return -1                          # a repeated key: the decoder keeps the last
            i = _ws(s, ke + 1, n)
            if i >= n or s[i] != 58:               # ':'
                return -1
            i = _ws(s, i + 1, n)
            if i >= n:
                return -1
            if s[i] == 34:
                e = _plain_string(s, i, n)
                if e < 0:
                    return -1
                t = V_STR
                if k != K_OTHER:
                    vs[k] = i + 1
                    ve[k] = e
                i = e + 1
            elif s[i] == 116 and i + 4 <= n and memcmp(s + i, b"true", 4) == 0:
                t = V_TRUE
                i += 4
            elif s[i] == 102 and i + 5 <= n and memcmp(s + i, b"false", 5) == 0:
                t = V_FALSE
                i += 5
            elif s[i] == 110 and i + 4 <= n and memcmp(s + i, b"null", 4) == 0:
                t = V_NULL
                i += 4
            elif s[i] == 45 or 48 <= s[i] <= 57:
                # an integer of at most 18 digits, no leading zero; a fraction
                # or exponent goes to the decoder
                neg = s[i] == 45
                if neg:
                    i += 1
                if i >= n or not (48 <= s[i] <= 57) or (neg and s[i] == 48):
                    return -1
                x = 0
                nd = 0
                if s[i] == 48:
                    i += 1
                    nd = 1
                else:
                    while i < n and 48 <= s[i] <= 57:
                        x = x * 10 + (s[i] - 48)
                        nd += 1
                        i += 1
                        if nd > 18:
                            return -1
                if i < n and (s[i] == 46 or s[i] == 101 or s[i] == 69):
                    return -1
                t = V_INT
                if k != K_OTHER:
                    vi[k] = -x if neg else x
            else:
                return -1                          # an array or object: the decoder reads it
            if k != K_OTHER:
                vt[k] = t
            i = _ws(s, i, n)
            if i < n and s[i] == 44:               # ','
                i = _ws(s, i + 1, n)
                continue
            if i < n and s[i] == 125:
                i += 1
                break
            return -1
    return 0 if _ws(s, i, n) == n else -1


cdef inline int _scalar_bit(int t) noexcept nogil:
    if t == -1 or t == V_NULL or t == V_FALSE:
        return 0
    if t == V_TRUE:
        return 1
    return -1


cdef inline int _line_flags(const int* vt, int k0, int n) noexcept nogil:
    """_dict_flags of a JSON line's scalars (their types vt)."""
    cdef int j, b, out = 0
    for j in range(n):
        b = _scalar_bit(vt[k0 + j])
        if b < 0:
            return -1
        out |= b << j
    return out


cdef inline int _scalar_int(int t, long long x, int top) noexcept nogil:
    if t == -1 or t == V_NULL:
        return 0
    if t == V_INT and 0 <= x <= top:
        return <int>x
    return -1


cdef inline int _scalar_wind(int t, const unsigned char* s, Py_ssize_t a, Py_ssize_t b, long long x) noexcept nogil:
    """A scanned wind value (_wind_char for a one-letter string)."""
    if t == V_STR:
        return _wind_char(s[a]) if b - a == 1 else -1
    return _scalar_int(t, x, 3)


def scan_lines(list lines, uint8_t[:, ::1] counts, uint8_t[:, :, ::1] melds, uint8_t[::1] n_melds,
               uint8_t[::1] win, uint8_t[::1] flags, uint8_t[::1] seat, uint8_t[::1] rnd,
               uint8_t[::1] flowers, uint8_t[::1] rule_flags, uint8_t[::1] status, list ids,
               list kongs=None):
    """JSON lines (bytes) of hand records into batch columns, without decoding
    them: a line that is a flat object of plain scalars (strings without
    escapes, true/false/null, integers) whose record read_records would take
    is read here (status[i] = 0, ids[i] its id); any other line gets
    status[i] = 1 and is left to the JSON decoder and the record reader."""
    cdef Py_ssize_t i, n = len(lines), m
    cdef Py_ssize_t vs[N_KEYS]
    cdef Py_ssize_t ve[N_KEYS]
    cdef int vt[N_KEYS]
    cdef long long vi[N_KEYS]
    cdef const unsigned char* s
    cdef PHand h
    cdef int j, b, f, rf, se, ro, fl, t
    _check_len(_check_rows(counts, "counts"), n, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(rule_flags.shape[0], n, "rule_flags")
    _check_len(status.shape[0], n, "status")
    _check_len(len(ids), n, "ids")
    for i in range(n):
        status[i] = REC_SLOW
        line = lines[i]
        if type(line) is not bytes:
            continue
        s = <const unsigned char*>PyBytes_AS_STRING(line)
        m = PyBytes_GET_SIZE(line)
        if _scan_line(s, m, vs, ve, vt, vi) != 0:
            continue
        t = vt[K_RULES]
        if t != -1 and t != V_NULL:
            continue
        f = _line_flags(vt, K_FLAG0, N_FLAGS)
        rf = _line_flags(vt, K_RFLAG0, N_RFLAGS)
        if f < 0 or rf < 0:
            continue
        se = _scalar_wind(vt[K_SEAT], s, vs[K_SEAT], ve[K_SEAT], vi[K_SEAT])
        ro = _scalar_wind(vt[K_ROUND], s, vs[K_ROUND], ve[K_ROUND], vi[K_ROUND])
        fl = _scalar_int(vt[K_FLOWERS], vi[K_FLOWERS], 8)
        if se < 0 or ro < 0 or fl < 0 or vt[K_HAND] != V_STR:
            continue
        if parse_fast_bytes(s + vs[K_HAND], ve[K_HAND] - vs[K_HAND], &h) != PARSE_OK:
            continue
        t = vt[K_ID]
        if t == V_INT:
            ids[i] = PyLong_FromLongLong(vi[K_ID])
        elif t == V_STR:
            ids[i] = PyUnicode_FromStringAndSize(<const char*>s + vs[K_ID], ve[K_ID] - vs[K_ID])
        elif t == V_TRUE:
            ids[i] = True
        elif t == V_FALSE:
            ids[i] = False
        else:
            ids[i] = None
        for j in range(34):
            counts[i, j] = h.counts[j]
        n_melds[i] = h.n_melds
        b = 0
        for j in range(h.n_melds):
            melds[i, j, 0] = h.meld_kind[j]
            melds[i, j, 1] = h.meld_tile[j]
            melds[i, j, 2] = h.meld_open[j]
            b |= h.meld_kind[j] == 2 and h.meld_open[j]
        if b and kongs is not None:     # (see read_records; the line is bytes)
            kongs.append(i)
            kongs.append(line)
        win[i] = h.win_tile
        flags[i] = f
        seat[i] = se
        rnd[i] = ro
        flowers[i] = fl
        rule_flags[i] = rf
        status[i] = REC_OK
