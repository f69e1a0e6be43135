# The shared C vocabulary of mjfast's compiled core.
# Everything here is nogil and trusts its input: validation happens in Python
# (mjfast/core.py) before a kernel runs.

from libc.stdint cimport uint8_t, uint16_t, int32_t, uint32_t, uint64_t

# Number of suit keys: base-5 number of the nine counts of one suit.
DEF_N_SUIT_KEYS = 1953125

# Distance vector: d[m*2 + p] = the fewest tiles to add so that the tiles of one
# part (a suit, or the honors) hold m melds and p pairs (m = 0..4, p = 0..1).
# Targets are not capped at four copies: the reference calculator's shanten is
# purely structural (1111m is ready, waiting on a "fifth" 1m), and we match it.
ctypedef uint8_t dvec_t[10]

cdef enum:
    FORM_REGULAR = 0
    FORM_SEVEN_PAIRS = 1
    FORM_THIRTEEN_ORPHANS = 2
    FORM_HONORS_KNITTED = 3
    FORM_KNITTED_STRAIGHT = 4
    N_FORMS = 5

# Decomposition item encoding (one byte): kind << 4 | tile-in-part (0..8).
cdef enum:
    ITEM_CHOW = 0     # a chow starting at the tile
    ITEM_PUNG = 1
    ITEM_PAIR = 2
