"""Bots on the Botzone platform (Chinese Standard Mahjong, the duplicate format).

* :class:`BotState`: one seat's view of a game, from its requests and responses
  (``from_requests`` / ``update``), with ``legal_actions()`` and ``hu_total()``
  answered by the game engine itself, in a seat's view (:mod:`mjfast._seat`).
* :mod:`mjfast.botzone.bots`: the sample bot and the baseline bot.
* ``python -m mjfast.botzone``: the sample bot as a Botzone program (JSON or
  simple interaction, keep-running).
* :mod:`mjfast.botzone.match`: ``mjfast match``, four bots through the engine.

See docs/botzone.md.
"""
__all__ = ["BotState", "ProtocolError"]


def __getattr__(name):
    # the state (and the game engine under it) loads on first use, so that the
    # command line's `mjfast match` parser does not import it
    if name in __all__:
        from . import state   # start-up: loaded on first use
        value = getattr(state, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
