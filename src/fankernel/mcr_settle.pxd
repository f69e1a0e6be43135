# The MCR rule set's money rules, written once: the minimum to declare a win
# and the settlement of a won hand.  Inline, so that the compiled game engine
# (src/_engine.pyx, which cimports this file) settles a game without a call;
# mjfast._fans wraps it for Python (settle_mcr), and the mcr rule set's
# settle (mjfast/rules/mcr/sets.py) and the default of its min_points
# option read it there.  Everything else (Score.settlement, the Python game engine,
# the log scorer, the command line) asks the rule set.
from libc.stdint cimport int64_t

cdef enum:
    # 起和: a hand needs this many points, flowers not counted, to be declared
    # a win (a Hu under it is the judge's WH error)
    MCR_MIN_POINTS = 8
    # 底分: what every loser pays whatever the hand; the discarder of a
    # discard win, and every loser of a self-drawn one, pay the hand's points
    # (flowers included) besides
    MCR_BASE = 8


cdef inline void mcr_settle(int64_t total, bint self_drawn, int discarder, int64_t* out) noexcept nogil:
    """The point changes of a win worth ``total`` in relative seats: out[0]
    the winner, out[1] the player on the winner's left (上家, who plays just
    before), out[2] opposite (对家), out[3] right (下家).  ``discarder`` 1-3
    in that numbering on a discard win (read only then).  The winner gains
    what the three pay."""
    cdef int k
    for k in range(1, 4):
        out[k] = -(MCR_BASE + total) if self_drawn or k == discarder else -MCR_BASE
    out[0] = -(out[1] + out[2] + out[3])


cdef inline void mcr_settle_seats(int64_t total, bint self_drawn, int winner, int discarder,
                                  int64_t* out) noexcept nogil:
    """:func:`mcr_settle` by absolute seats 0-3 (in play order: the seat
    before the winner is its left): ``out`` indexed by seat, ``discarder``
    the discarding seat (read only on a discard win)."""
    cdef int64_t rel[4]
    cdef int k
    mcr_settle(total, self_drawn, (winner - discarder) & 3, rel)
    for k in range(4):
        out[(winner - k) & 3] = rel[k]
