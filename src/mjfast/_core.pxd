# The interface of mjfast._core (src/_core.pyx) for the other compiled
# modules: the C functions they call, cimported (Cython hands them over at
# import through the module's C API table, so no link-time dependency).
# mjfast._engine scores a Hu with score_counts; mjfast._game's baseline
# policy uses the win check, shanten and the discard ranking; mjfast._wild
# reads the distance tables; the fan kernel's readings
# (src/fankernel/readings.pxd) take their rarer wait look-ups here.  Every function here is a thin wrapper over the
# kernel of the same job, which stays inline inside _core.
from libc.stdint cimport uint8_t, int16_t, uint64_t

# one discard of the ranking: the tile, the shanten left, the kinds and the
# unseen copies of the useful tiles
cdef struct Choice:
    int tile
    int shanten
    int kinds
    int left

# build the lookup tables if not yet built (thread-safe); the decision
# tables too for need_decisions
cdef int need_tables() except -1
cdef int need_decisions() except -1

# the suit and honor distance tables, built first (read only: the caller
# never writes them)
cdef int dist_tables(const uint8_t** dist, const uint8_t** hdist) except -1

# the regular / special-form win check of 14-3k concealed counts, shanten
# (form -1: the best of every form) and the discard ranking (need_decisions
# first); the tables must be built
cdef bint win_check(const uint8_t* c) noexcept nogil
cdef int shanten_of(const uint8_t* c, int melds, int form) noexcept nogil
cdef int rank_discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                       Choice* out) noexcept nogil

# the MCR total of one hand, flowers included: -1 not a win, -3 a field out
# of range (counts: concealed tiles with the winning tile; melds as kind
# 0 chow / 1 pung / 2 kong, lowest tile, open); ft (NFAN int16, or NULL)
# receives the fan counts by fan id
cdef int score_counts(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                      const uint8_t* open_, int win, int flags, int seat, int rnd, int flowers,
                      int16_t* ft) noexcept nogil

# the waits of 13-3k concealed counts (a 34-bit tile mask): the regular form
# only, and every form beside `melds` melds; the seven-pairs distance.  The
# fan kernel's readings call them; compiled into this module, they are
# direct calls here
cdef uint64_t regular_waits(const uint8_t* c) noexcept nogil
cdef uint64_t waits_of(const uint8_t* c, int melds) noexcept nogil
cdef int seven_pairs_dist(const uint8_t* c) noexcept nogil
