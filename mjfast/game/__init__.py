"""Whole games of MCR under the Botzone platform's rules.

* :class:`GameState`: the state machine (walls, draws, claims, kongs, the
  context of a win, settlement, error rule), the one place the rules live.
* :func:`play`: four players, one game, a :class:`GameRecord`.
* :class:`GameRecord`: ``to_botzone_text()`` / ``to_botzone_json()``.
* :mod:`mjfast.game.players`: built-in players (``tsumogiri``, ``RandomPlayer``).

See docs/game.md.
"""
from .state import GameState, IllegalAction, GameMeld, Win, CODES, code_of, tile_of
from .record import GameRecord, PLATFORM_ZH, fan_line
from .protocol import drive
from .play import play, random_walls, random_table_wall
from . import players

__all__ = ["GameState", "IllegalAction", "GameMeld", "Win", "CODES", "code_of", "tile_of",
           "GameRecord", "PLATFORM_ZH", "fan_line", "play", "drive", "random_walls", "random_table_wall",
           "players"]
