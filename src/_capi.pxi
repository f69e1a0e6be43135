# The fan kernel as a C function for the other compiled modules (included
# into _core.pyx, last): the scoring step as the game engine reaches it.
# mjfast._game scores a Hu through it instead of a Python callback: the
# pointer travels in a PyCapsule (score_capsule), so the game module needs no
# link-time dependency on this one.

from cpython.pycapsule cimport PyCapsule_New

ctypedef int (*score_counts_t)(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                               const uint8_t* open_, int win, int flags, int seat, int rnd, int flowers,
                               int16_t* ft) noexcept nogil


cdef int _score_counts(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* tile,
                       const uint8_t* open_, int win, int flags, int seat, int rnd, int flowers,
                       int16_t* ft) noexcept nogil:
    """The total of one hand (flowers included) as score_one computes it: -1
    not a win, -3 a field out of range.  ``counts``: concealed tiles with the
    winning tile; melds as kind (0 chow / 1 pung / 2 kong), lowest tile, open.
    ``ft`` (NFAN int16, or NULL) receives the fan counts by fan id."""
    cdef PHand h
    cdef int16_t tmp[NFAN]
    cdef int form = 0, i
    if n_melds < 0 or n_melds > 4 or win < 0 or win > 33 or flags < 0 or seat < 0 or rnd < 0 or flowers < 0:
        return -3
    memcpy(h.counts, counts, 34)
    h.n_melds = n_melds
    for i in range(n_melds):
        h.meld_kind[i] = kind[i]
        h.meld_tile[i] = tile[i]
        h.meld_open[i] = open_[i]
    h.win_tile = win
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    h.variant = 0                   # the game engine plays MCR
    if not _phand_sane(&h):
        return -3
    return _score_hand(&h, ft if ft != NULL else tmp, NULL, &form)   # the reading is not wanted


def score_capsule():
    """A PyCapsule ("mjfast._core.score_counts") holding _score_counts; the
    tables are built (the fan table is loaded when _core is initialised)."""
    _need_tables()
    if not _fan_table_loaded:  # pragma: no cover - loaded at initialisation
        raise RuntimeError("mjfast: the fan table is not loaded")
    return PyCapsule_New(<void*>_score_counts, b"mjfast._core.score_counts", NULL)
