# The interface of mjfast._engine (src/_engine.pyx): Engine, the game
# engine's Python face over the state machine mjfast._machine.Machine (whose
# .pxd declares the state, the transitions and the codes).  mjfast._game
# (FastGame) and mjfast._seat (SeatView) subclass it, mjfast._replay steps
# one; their def methods check that the game may be used with _usable.
from mjfast._machine cimport Machine


cdef class Engine(Machine):
    # ValueError unless a game is dealt and not inside its own hu_fn
    cdef int _usable(self, str what) except -1
