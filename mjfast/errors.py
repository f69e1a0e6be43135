"""Exceptions raised by mjfast.

Every error about malformed input is an :class:`InvalidHand`, a ``ValueError``
subclass, whose message names what is wrong and where.
"""


class InvalidHand(ValueError):
    """The input is not a valid hand: unknown tile, fifth copy, bad meld, wrong size..."""


class NotWinning(InvalidHand):
    """The hand is well formed but is not a winning hand (score() needs a win)."""


class InvalidArgument(InvalidHand, TypeError):
    """An argument of the wrong type (a flag that is not a bool, a float where
    an int is needed...).  Both an :class:`InvalidHand` and a ``TypeError``,
    so either ``except`` catches it."""
