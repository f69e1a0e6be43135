# The lookup tables as the inline kernels read them: the addresses of
# src/include/tables.h, one copy per compiled module (why: that header's
# note), bound from mjfast._tables by _need_tables / _need_exact before a
# module's first kernel call.  Every entry point that reaches a kernel calls
# one of them first: one flag test once bound.
from libc.stdint cimport uint8_t, uint32_t, int32_t
from mjfast._tablecache cimport TableSet
from mjfast._tables cimport tables_published, exact_published

cdef extern from "tables.h":
    const uint8_t* _dist "mjfast_dist"
    const uint8_t* _hdist "mjfast_hdist"
    const uint8_t* _flag2 "mjfast_flag2"
    const uint8_t* _hflag "mjfast_hflag"
    const uint32_t* _wf "mjfast_wf"
    const uint8_t* _hwmask "mjfast_hwmask"
    const uint8_t* _srec "mjfast_srec"
    const uint8_t* _hrec "mjfast_hrec"
    const int32_t* _lo_rank "mjfast_lo_rank"
    const int32_t* _hi_off "mjfast_hi_off"
    int _tables_bound "mjfast_tables_bound"
    const uint8_t* _xdist "mjfast_xdist"
    const uint8_t* _xhdist "mjfast_xhdist"
    const uint8_t* _xsrec "mjfast_xsrec"
    const uint8_t* _xhrec "mjfast_xhrec"
    int _exact_bound "mjfast_exact_bound"
    const int P5 "mjfast_p5"[10]

# the sizes of the tables (the layout notes are in src/_tables.pyx)
cdef enum:
    NKEY = 1953125      # 5**9: the suit keys (base 5 over 9 counts)
    NHKEY = 78125       # 5**7: the honor keys
    BIG = 60            # "no such pattern": above any distance
    SREC = 16           # bytes per shanten record
    NSREC = 405350      # suit patterns of at most 14 tiles
    SREC_PAD = 3125     # room for a pattern of more (never from a valid hand)


cdef inline int _bind_tables() except -1:
    """Copy the published addresses of the lookup tables (the sections of
    the "tables" kind, in their cache order) into this module's statics."""
    global _dist, _hdist, _hflag, _hwmask, _flag2, _wf, _srec, _hrec, _lo_rank, _hi_off, _tables_bound
    cdef TableSet t
    tables_published(&t)
    _dist = <const uint8_t*>t.p[0]
    _hdist = <const uint8_t*>t.p[1]
    _hflag = <const uint8_t*>t.p[2]
    _hwmask = <const uint8_t*>t.p[3]
    _flag2 = <const uint8_t*>t.p[4]
    _wf = <const uint32_t*>t.p[5]
    _srec = <const uint8_t*>t.p[6]
    _hrec = <const uint8_t*>t.p[7]
    _lo_rank = <const int32_t*>t.p[10]
    _hi_off = <const int32_t*>t.p[11]
    _tables_bound = 1
    return 0


cdef inline int _need_tables() except -1:
    # one flag test per call once bound; the first call builds (or loads)
    # the tables in mjfast._tables, under its lock, then binds them here
    if not _tables_bound:
        _bind_tables()
    return 0


cdef inline int _need_exact() except -1:
    """The exact tables (src/_tables.pyx, built on first use), bound here."""
    global _xdist, _xhdist, _xsrec, _xhrec, _exact_bound
    cdef TableSet t
    if _exact_bound:
        return 0
    _need_tables()
    exact_published(&t)
    _xdist = <const uint8_t*>t.p[0]
    _xhdist = <const uint8_t*>t.p[1]
    _xsrec = <const uint8_t*>t.p[2]
    _xhrec = <const uint8_t*>t.p[3]
    _exact_bound = 1
    return 0
