"""Bots on the Botzone platform (Chinese Standard Mahjong, the duplicate format).

* :class:`BotState`: one seat's view of a game, from its requests and responses
  (``from_requests`` / ``update``), with ``legal_actions()`` and ``hu_total()``
  computed by the rules the game engine uses (:mod:`mjfast.game.seat_rules`).
* :mod:`mjfast.botzone.bots`: the sample bot and the baseline bot.
* ``python -m mjfast.botzone``: the sample bot as a Botzone program (JSON or
  simple interaction, keep-running).
* :mod:`mjfast.botzone.match`: ``mjfast match``, four bots through the engine.

See docs/botzone.md.
"""
from .state import BotState, ProtocolError

__all__ = ["BotState", "ProtocolError"]
