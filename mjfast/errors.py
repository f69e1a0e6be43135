"""Exceptions raised by mjfast.

Every error about malformed input is an :class:`InvalidHand`, a ``ValueError``
subclass, whose message names what is wrong and where.
"""


class InvalidHand(ValueError):
    """The input is not a valid hand: unknown tile, fifth copy, bad meld, wrong size..."""


class NotWinning(InvalidHand):
    """The hand is well formed but is not a winning hand (score() needs a win)."""
