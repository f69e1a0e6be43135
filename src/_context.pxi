# The win context read in one place (included into _core.pyx before
# _records.pxi; the io step, records in): a wind from "E" "S" "W" "N" (any
# case) or 0-3, a flag from true / false, flowers 0-8, and the four flags
# packed into the W_* bits of the kernel (self_drawn 1, fourth_tile 2, kong 4,
# last_tile 8).  The record readers (dicts and JSON lines),
# mjfast.records.check_context / check_wind (which word the errors) and
# mjfast.score's fast path all read them here.

from cpython.long cimport PyLong_AsLongAndOverflow


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
