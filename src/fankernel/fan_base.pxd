# What every rule set's fan engine shares: the packed hand (PHand), the sets
# of a reading (Pack), the per-hand context, fan-count vectors and the
# exclusion pass over a table of masks.  Scoring step of the data flow: the
# engines of mcr_score.pxd / tp_fans.pxd build on it; it relies on tiles.pxd
# only.  Compiled into mjfast._fans by cimport.
#
# A hand has about one reading, so the exclusion pass runs about once a hand;
# it has one data-dependent branch per excluder present and no more, because
# removing branches that depend on the hand is what sped the kernel up; the
# kernel runs at a high IPC, so instructions cut count too (the presence scan
# _present84 packs sixteen counts per compare).  Figures: benchmarks/README.md,
# "The fan kernel: readings".

from libc.stdint cimport uint8_t, int16_t, uint64_t
from libc.string cimport memcpy
from fankernel.tiles cimport _ctz64, _present84
# the win flags (W_* bits of the packed hand's `flags` byte): generated from mjfast/spec/flags.py
from fankernel.flag_bits cimport *

cdef enum:
    NFAN = 84            # fan ids 1..82 (81 fans + Concealed Kong and Melded Kong); 0 and 83
                         # unused: 84 int16 counts = 21 words / 10.5 SSE vectors
    MAXDIV = 64          # readings kept per hand (a 14-tile hand has at most a few dozen)

    # pack types
    P_CHOW = 1
    P_PUNG = 2
    P_KONG = 3
    P_PAIR = 5

    # rule-set variants of the MCR engine (PHand.variant); 0 is MCR as the
    # reference calculator scores it, and every test of that path runs with 0
    V_KNIT_NO_WAIT = 1   # knitted straight: no wait fan when the winning tile is a knitted one
    V_DAZHONG = 2        # the fuller 不计 lists of the 大众 rule page (dazhong)
    V_PAGE_CHOWS = 4     # the chow left beside a 3-chow fan scores every chow-pair fan it makes (dazhong)

    # result codes
    R_OK = 0
    R_NOT_WIN = 1


ctypedef struct PHand:
    uint8_t counts[34]      # concealed tiles, winning tile included
    uint8_t n_melds         # 0..4
    uint8_t meld_kind[4]    # 0 chow, 1 pung, 2 kong
    uint8_t meld_tile[4]    # chow: its lowest tile; pung/kong: the tile (our 0..33 index)
    uint8_t meld_open[4]    # 1 = melded (claimed); 0 = concealed kong
    uint8_t win_tile        # 0..33
    uint8_t flags           # W_* bits (fankernel/flag_bits.pxd)
    uint8_t seat            # 0..3 = E S W N
    uint8_t round           # 0..3
    uint8_t flowers         # 0..8
    uint8_t variant         # V_* bits: rulings of a rule set other than plain MCR (0 = MCR)


ctypedef struct Pack:
    uint8_t type            # P_CHOW / P_PUNG / P_KONG / P_PAIR
    uint8_t tile            # our tile index; a chow's lowest tile
    uint8_t melded          # 1 = claimed from another player


ctypedef struct Ctx:
    # everything about the hand that does not depend on the reading
    int16_t hand_fans[NFAN]  # fans of the whole tile set (suits, tile traits, flags, hog)
    uint8_t flags            # normalised win flags
    uint8_t win              # winning tile
    uint8_t seat, round
    int n_fixed              # melds
    Pack fixed[4]
    int n_melded_fixed       # melds claimed from others (concealed kongs excluded)
    uint8_t standing[34]     # concealed tiles before the win (our index)
    int n_standing
    int unique_wait          # exactly one tile completed the hand (regular + seven pairs
                             # waits): 1 / 0, or -1 = not worked out yet (it is needed only
                             # when the winning tile sits in a concealed chow or the pair)
    bint nine_gates
    uint8_t variant          # V_* bits, from the hand


# a fan table's exclusions, as the kernel reads them (a rule set loads its
# own from its table in mjfast/rules/ when it is imported)
# -- the context flags that cannot hold for a hand (docs/rulings.md, 4) -------
# The rule is stated once, here; every engine and entry point reaches it.
# _score_hand (mcr_score.pxd) and the two-player batch row (src/_fans.pyx)
# apply _flags_that_hold to what their meld loops gather anyway (no second
# pass over the melds in a hot loop); _impossible_flags gathers the same for
# everyone else: the dropped flags the batch and string paths report, and the
# Python rule sets (mjfast._fans.impossible_flags, worded by
# mjfast.rules.base.dropped_reasons).

cdef inline int _flags_that_hold(int flags, int held, int win_in_melds, int n_kongs) noexcept nogil:
    """The W_* flags as the reference normalises them, as masks: no Last Tile
    (fourth_tile) when another copy of the winning tile is held (``held``:
    0/1), Last Tile when the melds hold the other three; no kong win
    self-drawn without a kong, nor a robbed kong of a tile that a meld or the
    hand holds.  ``win_in_melds``: the winning tile's copies in the melds (a
    chow through it counts 1, a pung 3, a kong 4)."""
    cdef int sd = flags & W_SELF_DRAWN
    flags = (flags & ~(W_FOURTH_TILE * held)) | (W_FOURTH_TILE * (win_in_melds == 3))
    return flags & ~(W_KONG * ((sd & (n_kongs == 0)) | ((sd ^ 1) & ((win_in_melds > 0) | held))))


cdef inline int _impossible_flags(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                                  int win, int flags) noexcept nogil:
    """The bits of ``flags`` (W_FOURTH_TILE, W_KONG) that cannot hold for a
    hand: counts (34) its concealed tiles, the winning tile included; melds
    (kind 0 chow / 1 pung / 2 kong, tile: a chow's lowest); win -1 when the
    winning tile is not known (a wildcard: no copy of it is held)."""
    cdef int j, t, k, win_in_melds = 0, n_kongs = 0
    if not (flags & (W_FOURTH_TILE | W_KONG)):
        return 0
    for j in range(n_melds):
        t = tile[j]
        k = kind[j]
        if k == 0:
            win_in_melds += t <= win <= t + 2
        else:
            win_in_melds += (3 if k == 1 else 4) * (t == win)
            n_kongs += k >= 2
    return flags & ~_flags_that_hold(flags, win >= 0 and counts[win] >= 2, win_in_melds, n_kongs) \
        & (W_FOURTH_TILE | W_KONG)


cdef extern from "fankernel/fan_base.h":
    ctypedef struct ExclTable "mjfast_excl_table":
        uint64_t excl[NFAN][2]
        uint64_t excluder_bits[2]


cdef extern from "fankernel/fan_base.h":
    # NFAN (84) counts: the two helpers are written for that size (fan_base's NFAN)
    void _fans_zero "mjfast_fans_zero"(int16_t* ft) nogil
    void _fans_copy "mjfast_fans_copy"(int16_t* dst, const int16_t* src) nogil


cdef inline void _exclusion_pass(const ExclTable* t, int16_t* ft) noexcept nogil:
    """Non-repeat (不重复): drop every fan that a scored fan excludes, by the
    table's masks.  Fans are taken by id (the tables list them highest first)
    and a fan already dropped excludes nothing.

    Written with one branch per excluder (the loop's): the fans still to be
    taken are the excluders present with a higher id, so a fan dropped by an
    earlier one simply leaves that set (pend &= p), and the counts of the
    dropped fans are cleared at the end, from the bits that went."""
    cdef int i
    cdef uint64_t present[2]
    cdef uint64_t p0, p1, pend, gone
    _present84(ft, present)
    p0 = present[0]
    p1 = present[1]
    pend = p0 & t.excluder_bits[0]
    while pend:
        i = _ctz64(pend)
        p0 &= ~t.excl[i][0]
        p1 &= ~t.excl[i][1]
        pend &= (pend - 1) & p0
    pend = p1 & t.excluder_bits[1]
    while pend:
        i = 64 + _ctz64(pend)
        p0 &= ~t.excl[i][0]
        p1 &= ~t.excl[i][1]
        pend &= (pend - 1) & p1
    gone = present[0] & ~p0
    while gone:
        ft[_ctz64(gone)] = 0
        gone &= gone - 1
    gone = present[1] & ~p1
    while gone:
        ft[64 + _ctz64(gone)] = 0
        gone &= gone - 1
