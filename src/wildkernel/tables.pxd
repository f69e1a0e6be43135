# The wildcard kernels' tables as they read them: the addresses of
# src/include/wildkernel/tables.h (one copy per compiled module: why in that
# header's note).  mjfast._wild builds the win masks and the shanten steps
# and stores them here (_set_win_tables, _set_step_tables); the distance
# tables they come from are mjfast._tables' own (_bind_dist).
from libc.stdint cimport uint8_t, uint16_t, uint64_t
from mjfast._tables cimport dist_tables

cdef extern from "wildkernel/tables.h":
    const uint8_t* _dist "mjfast_wk_dist"
    const uint8_t* _hdist "mjfast_wk_hdist"
    const uint16_t* _emask "mjfast_wk_emask"
    const uint16_t* _hemask "mjfast_wk_hemask"
    const uint8_t* _wstep "mjfast_wk_wstep"
    const uint8_t* _hwstep "mjfast_wk_hwstep"
    const int P5 "mjfast_wk_p5"[10]
    int KNIT_TILES "mjfast_wk_knit_tiles"[6][9]
    uint64_t KNIT_MASK "mjfast_wk_knit_mask"[6]
    int KNIT_SUIT "mjfast_wk_knit_suit"[6][3]
    const int ORPHANS "mjfast_wk_orphans"[13]
    const uint64_t ORPHAN_MASK "mjfast_wk_orphan_mask"
    const uint64_t SUITED_MASK "mjfast_wk_suited_mask"

cdef enum:
    NKEY = 1953125      # 5**9: the suit keys
    NHKEY = 78125       # 5**7: the honor keys
    BIG = 60            # "no such pattern": above any distance
    KMAX = 8            # wildcards per hand
    KROOM = KMAX + 2    # room for 0..KMAX + 1 spent: with wild_fifth, "does a drawn wildcard
                        # lower the shanten" is the shanten with one wildcard more
    MPMASK = 0x1F001F   # (m, p) bits of the spread layout: m + 16 p, m <= 4, p <= 1


cdef inline void _init_knit() noexcept nogil:
    """The knitted arrangements: arrangement a puts the 1-4-7 / 2-5-8 / 3-6-9
    triples in the suits of the a-th permutation of (0, 1, 2), in the order
    (0, 1, 2) (0, 2, 1) (1, 0, 2) (1, 2, 0) (2, 0, 1) (2, 1, 0)."""
    cdef int perms[6][3]
    cdef int a, j, r
    perms[0][0] = 0; perms[0][1] = 1; perms[0][2] = 2
    perms[1][0] = 0; perms[1][1] = 2; perms[1][2] = 1
    perms[2][0] = 1; perms[2][1] = 0; perms[2][2] = 2
    perms[3][0] = 1; perms[3][1] = 2; perms[3][2] = 0
    perms[4][0] = 2; perms[4][1] = 0; perms[4][2] = 1
    perms[5][0] = 2; perms[5][1] = 1; perms[5][2] = 0
    for a in range(6):
        KNIT_MASK[a] = 0
        for j in range(3):
            KNIT_SUIT[a][j] = perms[a][j]
            for r in range(3):
                KNIT_TILES[a][j * 3 + r] = perms[a][j] * 9 + j + 3 * r
                KNIT_MASK[a] |= (<uint64_t>1) << KNIT_TILES[a][j * 3 + r]


cdef inline int _bind_dist() except -1:
    """mjfast._tables' suit and honor distance tables (built there first),
    read only, bound here once."""
    global _dist, _hdist
    if _dist == NULL:
        dist_tables(&_dist, &_hdist)
    return 0


cdef inline void _set_win_tables(const uint16_t* em, const uint16_t* hem) noexcept nogil:
    global _emask, _hemask
    _emask = em
    _hemask = hem


cdef inline void _set_step_tables(const uint8_t* st, const uint8_t* hst) noexcept nogil:
    global _wstep, _hwstep
    _wstep = st
    _hwstep = hst
