# The interface of mjfast._fans (src/_fans.pyx) for the other compiled
# modules: the game engine (mjfast._engine) scores a Hu with score_counts.
from libc.stdint cimport uint8_t, int16_t

# bind the lookup tables and the readings' split table for score_counts
# (thread-safe; builds them first if needed)
cdef int need_scoring() except -1

# the MCR total of one hand, flowers included: -1 not a win, -3 a field out
# of range (counts: concealed tiles with the winning tile; melds as kind
# 0 chow / 1 pung / 2 kong, lowest tile, open); ft (NFAN int16, or NULL)
# receives the fan counts by fan id
cdef int score_counts(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                      const uint8_t* open_, int win, int flags, int seat, int rnd, int flowers,
                      int16_t* ft) noexcept nogil
