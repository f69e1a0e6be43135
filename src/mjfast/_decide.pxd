# The interface of mjfast._decide (src/_decide.pyx) for the other compiled
# modules: mjfast._game's baseline policy ranks its discards here.
from libc.stdint cimport uint8_t

# one discard of the ranking: the tile, the shanten left, the kinds and the
# unseen copies of the useful tiles
cdef struct Choice:
    int tile
    int shanten
    int kinds
    int left

# the useful-tile tables (and the lookup tables) built if not yet (thread-safe)
cdef int need_decisions() except -1

# every distinct discard of 14-3k concealed counts, best first, into out (at
# most 14); the count.  need_decisions first.
cdef int rank_discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                       Choice* out) noexcept nogil
