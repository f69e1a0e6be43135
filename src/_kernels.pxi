# C entry points for the compiled self-play engine (src/_game.pyx; included
# near the end of _core.pyx, after the kernels it hands over).
#
# _game is its own extension module; its baseline policy needs the win
# check, shanten and the discard ranking at C speed, without a Python call per
# decision.  They are handed over once as function pointers in a capsule
# (mjfast._game reads it on first use); the layout is mirrored in _game.pyx.

from cpython.pycapsule cimport PyCapsule_New

ctypedef bint (*_win_fn)(const uint8_t*) noexcept nogil
ctypedef int (*_shanten_fn)(const uint8_t*, int, int) noexcept nogil
ctypedef int (*_discards_fn)(const uint8_t*, int, const uint8_t*, const uint8_t*, Choice*) noexcept nogil

cdef struct GameKernels:
    int version
    _win_fn is_win
    _shanten_fn shanten
    _discards_fn discards

cdef GameKernels _game_kernels


cdef bint _k_is_win(const uint8_t* c) noexcept nogil:
    return _is_win(c)


cdef int _k_shanten(const uint8_t* c, int melds, int form) noexcept nogil:
    return _shanten(c, melds, form)


def game_kernels():
    """A capsule ("mjfast._core.GameKernels") of C function pointers: the win
    check, shanten and the discard ranking (for mjfast._game)."""
    _need_dec()             # the discard ranking's tables (and the lookup tables)
    _game_kernels.version = 1
    _game_kernels.is_win = _k_is_win
    _game_kernels.shanten = _k_shanten
    _game_kernels.discards = _discards
    return PyCapsule_New(<void*>&_game_kernels, b"mjfast._core.GameKernels", NULL)


def win_capsule():
    """A capsule ("mjfast._core.is_win") of the win check alone: the game
    engine (mjfast._engine) asks it before scoring a Hu, as most hands asked
    do not win.  Needs only the lookup tables (not the discard ranking's)."""
    _need_tables()
    return PyCapsule_New(<void*>_k_is_win, b"mjfast._core.is_win", NULL)
