# The interface of mjfast._core (src/_core.pyx) for the other compiled
# modules: the analysis kernels as C functions, cimported (Cython hands them
# over at import through the module's C API table, so no link-time
# dependency).  mjfast._engine checks a Hu with win_check; mjfast._game's
# baseline policy uses shanten.  Each is a thin wrapper over the inline
# kernel of the same job (src/handkernel/), which reads the lookup tables as
# bound in _core: call need_tables first.  A module whose loop wants them
# inline cimports src/handkernel/ instead, and binds the tables itself.
from libc.stdint cimport uint8_t, uint64_t

# build the lookup tables if not yet built (thread-safe) and bind them for
# the functions below
cdef int need_tables() except -1

# the regular / special-form win check of 14-3k concealed counts, and
# shanten (form -1: the best of every form)
cdef bint win_check(const uint8_t* c) noexcept nogil
cdef int shanten_of(const uint8_t* c, int melds, int form) noexcept nogil

# the waits of 13-3k concealed counts (a 34-bit tile mask): the regular form
# only, and every form beside `melds` melds; the seven-pairs distance
cdef uint64_t regular_waits(const uint8_t* c) noexcept nogil
cdef uint64_t waits_of(const uint8_t* c, int melds) noexcept nogil
cdef int seven_pairs_dist(const uint8_t* c) noexcept nogil
