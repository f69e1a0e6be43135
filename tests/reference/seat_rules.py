"""The test oracle's rules for one seat, by the Botzone judge: what a seat
may answer, the kong and claim limits, the context of a win and its value,
over the host's public attributes.  The package's rules are the compiled
engine's (src/_engine.pyx); this mixin is what the Python engine
(reference/game_state.py) and the Python seat view (reference/bot_state.py)
were built on, kept only as their oracle.

:class:`SeatRules` is a mixin.  Its host keeps these public attributes:

* ``quan`` (prevalent wind 0-3), ``hands[seat]`` (34 counts), ``melds[seat]``
  (:class:`~mjfast.game.GameMeld` lists), ``flowers[seat]``, ``shown`` (the
  fourth-tile counting);
* ``phase`` (``"draw"``, ``"turn"``, ``"claim"``, ``"rob"``, ``"over"``),
  ``current`` (the seat whose draw / discard / added kong it is),
  ``last_tile`` and ``after_kong`` (the current draw replaces a kong);
* ``wall_left(seat)``: tiles left in that seat's wall.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from mjfast import _core
from mjfast.errors import NotWinning
from mjfast.game.state import CODES, N_KINDS, score_win
from mjfast.rules.mcr.sets import MCR_RULES

__all__ = ["SeatRules", "score_win", "CODES", "N_KINDS"]


class SeatRules:
    """The judge's rules for one seat, over the host's public attributes
    (see the module docstring)."""

    # the host's attributes (the module docstring), declared for type checkers
    quan: int
    hands: list
    melds: list
    flowers: list
    shown: list
    phase: str
    current: int
    last_tile: Any
    after_kong: bool
    wall_left: Callable[[int], int]

    def kong_allowed(self, seat: int, discarder: Optional[int] = None) -> bool:
        """After its own draw (``discarder`` None), a concealed or added kong
        needs a tile left in the seat's own wall and in the next seat's.  A
        melded kong of ``discarder``'s discard needs the discard to be
        claimable (:meth:`claims_allowed`) and a tile in the claimer's own
        wall, its replacement; the wall after the claimer does not matter."""
        if discarder is None:
            return self.wall_left(seat) > 0 and self.wall_left((seat + 1) % 4) > 0
        return self.claims_allowed(discarder) and self.wall_left(seat) > 0

    def claims_allowed(self, discarder: int) -> bool:
        """A discard can be chowed, punged or konged only while the wall of
        the seat after the discarder still holds a tile.  The discarder's own
        wall does not matter: seat 0's last discard may be claimed by seats
        1-3 while seat 1's wall holds a tile, as the platform's judge does."""
        return self.wall_left((discarder + 1) % 4) > 0

    def score_hand(self, seat: int, ctx: dict):
        """Score seat's hand for a Hu in context ``ctx`` (from :meth:`hu_context`).
        Returns (hand in our notation, Score); raises NotWinning."""
        return score_win(seat, self.hands[seat], self.melds[seat], ctx, self.quan, len(self.flowers[seat]))

    def hu_context(self, seat: int) -> Optional[dict]:
        """If ``seat`` may declare Hu now: the context the judge would score it
        with, a dict (tile, self_drawn, fourth_tile, last_tile, kong); else None."""
        ph = self.phase
        if ph == "turn":
            if seat != self.current:
                return None
            self_drawn, kong, actor = True, self.after_kong, seat
        elif ph == "claim" or ph == "rob":
            if seat == self.current:
                return None
            self_drawn, kong, actor = False, ph == "rob", self.current
        else:
            return None
        t = self.last_tile
        return {"tile": t, "self_drawn": self_drawn, "fourth_tile": self.shown[t] == 3,
                "last_tile": self.wall_left((actor + 1) % 4) == 0, "kong": kong}

    def hu_value(self, seat: int) -> int:
        """What ``seat`` would score by declaring Hu now (the records' ``canHu``):
        the total (even under 8), -3 if it may declare but does not win, -4 if
        it cannot declare now."""
        ctx = self.hu_context(seat)
        if ctx is None:
            return -4
        t = ctx["tile"]
        c = bytearray(self.hands[seat])
        if not ctx["self_drawn"]:
            c[t] += 1
        if not _core.is_win_one(c):     # cheap check first: most hands do not win
            return -3
        try:
            return self.score_hand(seat, ctx)[1].total
        except NotWinning:
            return -3

    def hu_ok(self, seat: int) -> bool:
        """Declaring Hu now is legal: the hand wins with the MCR minimum (8
        points) or more besides flowers."""
        v = self.hu_value(seat)
        return MCR_RULES.legal(v, len(self.flowers[seat])) if v > 0 else False

    def legal_actions(self, seat: int) -> list:
        """Every legal response of ``seat`` to the current request."""
        ph = self.phase
        if ph == "over":
            return []
        h = self.hands[seat]
        if ph == "turn":
            if seat != self.current:
                return ["PASS"]
            out = [f"PLAY {CODES[t]}" for t in range(N_KINDS) if h[t]]
            if self.kong_allowed(seat):
                out += [f"GANG {CODES[t]}" for t in range(N_KINDS) if h[t] == 4]
                out += [f"BUGANG {CODES[m.tile]}" for m in self.melds[seat] if m.kind == "pung" and h[m.tile]]
            if self.hu_ok(seat):
                out.append("HU")
            return out
        if ph == "draw" or seat == self.current:
            return ["PASS"]
        out = ["PASS"]
        if self.hu_ok(seat):
            out.append("HU")
        if ph == "rob" or not self.claims_allowed(self.current):
            return out
        t = self.last_tile
        d = self.current
        if h[t] >= 2:
            h[t] -= 2
            out += [f"PENG {CODES[x]}" for x in range(N_KINDS) if h[x]]
            h[t] += 2
        if h[t] == 3 and self.kong_allowed(seat, d):
            out.append("GANG")
        if seat == (d + 1) % 4 and t < 27:
            h[t] += 1
            for m in (t - 1, t, t + 1):
                if m // 9 == t // 9 and 1 <= m % 9 <= 7 and h[m - 1] and h[m] and h[m + 1]:
                    for u in (m - 1, m, m + 1):
                        h[u] -= 1
                    out += [f"CHI {CODES[m]} {CODES[x]}" for x in range(N_KINDS) if h[x]]
                    for u in (m - 1, m, m + 1):
                        h[u] += 1
            h[t] -= 1
        return out
