"""Exceptions raised by mjfast.

Three kinds of bad input are told apart:

* :class:`InvalidHand` (a ``ValueError``): the hand itself is wrong — an
  unknown tile, a fifth copy, a bad meld, the wrong size; :class:`NotWinning`
  when it is well formed but does not win.
* :class:`InvalidArgument` (both a ``TypeError`` and a ``ValueError``, so
  either ``except`` catches it): an argument is wrong — a flag that is not a
  bool, a float where an int is needed; with two kinds of its own,
  :class:`UnknownRules` (a rule-set name that is not registered) and
  :class:`InvalidOption` (an option a rule set does not have, or a value it
  does not take).

An :class:`InvalidArgument` is not an :class:`InvalidHand`: ``except
InvalidHand`` catches problems with the hand only.  The error codes of the
array results, and their messages, are in mjfast/spec/errors.py.
"""


class InvalidHand(ValueError):
    """The input is not a valid hand: unknown tile, fifth copy, bad meld, wrong size..."""


class NotWinning(InvalidHand):
    """The hand is well formed but is not a winning hand (score() needs a win)."""


class InvalidArgument(TypeError, ValueError):
    """An argument of the wrong type or value (a flag that is not a bool, a
    float where an int is needed...).  Both a ``TypeError`` and a
    ``ValueError``, so either ``except`` catches it; not an
    :class:`InvalidHand`."""


class UnknownRules(InvalidArgument):
    """``rules=`` names no registered rule set (or is neither a name nor a RuleSet)."""


class InvalidOption(InvalidArgument):
    """A rule-set option that the rule set does not have, or a value it does not take."""
