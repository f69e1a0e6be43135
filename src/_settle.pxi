# The MCR settlement and minimum for Python (included into _core.pyx): the
# rule is src/fankernel/mcr_settle.pxd, which the compiled game engine
# cimports too; mjfast/rules/mcr/sets.py calls settle_mcr and reads
# MCR_MIN_POINTS, and every other settlement asks that rule set.
from fankernel.mcr_settle cimport mcr_settle, MCR_MIN_POINTS as _MCR_MIN_POINTS

#: the MCR minimum to declare a win (points, flowers not counted)
MCR_MIN_POINTS = _MCR_MIN_POINTS

# far above any hand's total, far below where 3 * (8 + total) leaves int64
_SETTLE_MAX_TOTAL = 1 << 48


def settle_mcr(total, self_drawn, discarder):
    """The MCR point changes (winner, left, opposite, right) of a win worth
    ``total`` (an int 0..2**48); ``discarder`` 1-3 on a discard win (read
    only then).  The arguments are checked and worded by the rule set
    (mjfast.rules.mcr.sets); here only a ValueError / TypeError."""
    cdef int64_t out[4]
    if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= _SETTLE_MAX_TOTAL:
        raise ValueError(f"settle_mcr: total must be an int 0..2**48, got {total!r}")
    if not isinstance(self_drawn, bool):
        raise TypeError(f"settle_mcr: self_drawn must be a bool, got {self_drawn!r}")
    if self_drawn:
        discarder = 0
    elif isinstance(discarder, bool) or not isinstance(discarder, int) or not 1 <= discarder <= 3:
        raise ValueError(f"settle_mcr: discarder must be 1, 2 or 3 on a discard win, got {discarder!r}")
    mcr_settle(<int64_t>total, self_drawn, <int>discarder, out)
    return (out[0], out[1], out[2], out[3])
