# Hand records read in compiled code (included into _core.pyx after
# _parse.pxi): the common, valid record becomes batch columns here; anything
# else is marked for mjfast.batch, whose Python validator then reads the row
# or names what is wrong (so the messages stay where they are written).

from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from cpython.long cimport PyLong_AsLongAndOverflow

DEF REC_OK = 0
DEF REC_SLOW = 1          # the Python validator reads the row (or rejects it)

# the record's keys (docs/notation.md, "Hand records"); interned by Cython
cdef tuple _FLAG_KEYS = ("self_drawn", "fourth_tile", "kong", "last_tile")
# two-player flags, bits of mjfast.batch.RULE_FLAG_BITS
cdef tuple _RULE_FLAG_KEYS = ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start")


cdef inline int _bool_bit(PyObject* v) noexcept:
    """0 / 1 for absent, null, false / true; -1 for anything else."""
    if v == NULL:
        return 0
    cdef object o = <object>v
    if o is None or o is False:
        return 0
    if o is True:
        return 1
    return -1


cdef inline int _small_int(PyObject* v, int top) noexcept:
    """An exact int 0..top (absent or null: 0); -1 for anything else (a
    subclass such as bool, a numpy integer, out of range: the Python
    validator decides)."""
    cdef int overflow = 0
    cdef long x
    if v == NULL or <object>v is None:
        return 0
    if type(<object>v) is not int:
        return -1
    x = PyLong_AsLongAndOverflow(<object>v, &overflow)
    if overflow or x < 0 or x > top:
        return -1
    return <int>x


cdef inline int _wind_code(PyObject* v) noexcept:
    """A wind 0-3 from "E" "S" "W" "N" (any case) or an int 0-3; absent or
    null: East; -1 for anything else."""
    cdef Py_UCS4 ch
    if v == NULL or <object>v is None:
        return 0
    if type(<object>v) is str:
        if len(<str>v) != 1:
            return -1
        ch = (<str>v)[0]
        if ch == u'E' or ch == u'e':
            return 0
        if ch == u'S' or ch == u's':
            return 1
        if ch == u'W' or ch == u'w':
            return 2
        if ch == u'N' or ch == u'n':
            return 3
        return -1
    return _small_int(v, 3)


def read_records(list records, uint8_t[:, ::1] counts, uint8_t[:, :, ::1] melds, uint8_t[::1] n_melds,
                 uint8_t[::1] win, uint8_t[::1] flags, uint8_t[::1] seat, uint8_t[::1] rnd,
                 uint8_t[::1] flowers, uint8_t[::1] rule_flags, uint8_t[::1] status, list ids):
    """Hand-record dicts into batch columns.  status[i] = 0 where the row was
    read (a dict, a compact winning hand string, bool flags, winds and
    flowers in range), 1 where the Python validator must take it (it then
    reads the row or names the problem).  ids[i] = the record's "id" (None
    when absent or not a dict).  Returns the number of records carrying a
    "rules" value (the caller then groups by rule set)."""
    cdef Py_ssize_t i, n = len(records)
    cdef PHand h
    cdef int j, b, f, s, r, fl, rf, n_rules = 0
    cdef PyObject* v
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
        v = PyDict_GetItem(rec, "id")
        ids[i] = None if v == NULL else <object>v
        v = PyDict_GetItem(rec, "rules")
        if v != NULL and <object>v is not None:
            n_rules += 1
        f = 0
        for j in range(4):
            b = _bool_bit(PyDict_GetItem(rec, _FLAG_KEYS[j]))
            if b < 0:
                f = -1
                break
            f |= b << j
        if f < 0:
            continue
        rf = 0
        for j in range(4):
            b = _bool_bit(PyDict_GetItem(rec, _RULE_FLAG_KEYS[j]))
            if b < 0:
                rf = -1
                break
            rf |= b << j
        if rf < 0:
            continue
        s = _wind_code(PyDict_GetItem(rec, "seat_wind"))
        r = _wind_code(PyDict_GetItem(rec, "round_wind"))
        fl = _small_int(PyDict_GetItem(rec, "flowers"), 8)
        if s < 0 or r < 0 or fl < 0:
            continue
        v = PyDict_GetItem(rec, "hand")
        if v == NULL or type(<object>v) is not str or _parse_fast(<str>v, &h) != PARSE_OK:
            continue
        for j in range(34):
            counts[i, j] = h.counts[j]
        n_melds[i] = h.n_melds
        for j in range(h.n_melds):
            melds[i, j, 0] = h.meld_kind[j]
            melds[i, j, 1] = h.meld_tile[j]
            melds[i, j, 2] = h.meld_open[j]
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
