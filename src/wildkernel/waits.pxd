# The waits and the useful tiles of a hand with wildcards: each kind drawn
# in turn through the win check (wildkernel/win.pxd) or the shanten
# (wildkernel/shanten.pxd), then the drawn wildcard.
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy
from wildkernel.win cimport _wis_win
from wildkernel.shanten cimport _wshanten


cdef inline uint64_t _wwaits(const uint8_t* c, int melds, int k, bint fifth) noexcept nogil:
    """Waits of a 13 - 3 melds tile hand (real + k wildcards): bit t = drawing
    a real t completes it (c[t] < 4), bit 34 = drawing a wildcard does."""
    cdef uint8_t tmp[34]
    cdef uint64_t out = 0
    cdef int t
    memcpy(tmp, c, 34)
    for t in range(34):
        if c[t] < 4:
            tmp[t] += 1
            if _wis_win(tmp, melds, k, fifth):
                out |= (<uint64_t>1) << t
            tmp[t] -= 1
    if fifth:
        if _wis_win(c, melds, k + 1, True):
            out |= (<uint64_t>1) << 34
    elif out:
        # a drawn wildcard stands for some tile with a copy left: it wins
        # exactly when some real tile would
        out |= (<uint64_t>1) << 34
    return out


cdef inline uint64_t _wuseful(const uint8_t* c, int melds, int form, int k, bint fifth, const uint8_t* cp,
                              int* sh) noexcept nogil:
    """Tiles (bit t, c[t] below 4, or below cp[t]) whose draw lowers the
    shanten; bit 34: a drawn wildcard does.  cp: as _wshanten."""
    cdef uint8_t tmp[34]
    cdef uint64_t out = 0
    cdef int t, base = _wshanten(c, melds, form, k, fifth, cp)
    sh[0] = base
    memcpy(tmp, c, 34)
    for t in range(34):
        if c[t] < (cp[t] if cp != NULL else 4):
            tmp[t] += 1
            if _wshanten(tmp, melds, form, k, fifth, cp) < base:
                out |= (<uint64_t>1) << t
            tmp[t] -= 1
    if fifth:
        if _wshanten(c, melds, form, k + 1, True, NULL) < base:
            out |= (<uint64_t>1) << 34
    elif out:
        out |= (<uint64_t>1) << 34
    return out
