# The interface of mjfast._tables (src/_tables.pyx): the lookup tables, built
# (or loaded from the disk cache) once per process, under a lock, and handed
# out as read-only sections.  A module's inline kernels bind them through
# src/handkernel/tables.pxd; the functions here are for that binding and for
# the modules that build tables of their own from these.
from libc.stdint cimport uint8_t, uint16_t
from mjfast._tablecache cimport TableSet

# which ranks and shapes a restricted distance table allows (the exact
# tables allow every one; the fan targets restrict them)
cdef struct Spec:
    int n               # key positions (allowed ranks), <= 9
    int rank[9]         # rank of key position j
    int pos[9]          # key position of rank r, -1 when not allowed
    uint16_t chow       # bit r: the chow starting at rank r is allowed
    uint16_t pung       # bit r: the pung of rank r
    uint16_t pair       # bit r: the pair of rank r

# build the lookup tables if not yet built (thread-safe); the exact ones too
cdef int need_tables() except -1
cdef int need_exact() except -1

# the published sections of the "tables" kind (dist, hdist, hflag, hwmask,
# flag2, wf, srec, hrec, part_slot, part_list, lo_rank, hi_off, two_packs,
# honor_packs) and of "exact" (xdist, xhdist, xsrec, xhrec), building first
cdef int tables_published(TableSet* t) except -1
cdef int exact_published(TableSet* t) except -1

# the suit and honor distance tables, building first (read only)
cdef int dist_tables(const uint8_t** dist, const uint8_t** hdist) except -1

# a restricted distance table: the spec, then its table (10 entries per key
# over its allowed ranks; NULL when out of memory; the caller frees it)
cdef void spec_init(Spec* S, int nrank, uint16_t allowed, uint16_t chow, uint16_t pung, uint16_t pair) noexcept nogil
cdef uint8_t* build_exact(const Spec* S) noexcept nogil
