"""The rule sets scored by the compiled MCR engine: ``mcr`` and ``dazhong``.

Both use the MCR fan table (:data:`mjfast.rules.mcr.MCR`).  What differs is
passed to the engine as variant bits (``V_*`` below, the same numbers as the
``V_*`` constants of src/fankernel/fan_base.pxd): with every option at its default,
``mcr`` passes 0 and the engine is exactly the reference-matching one.
"""
from __future__ import annotations

from .base import Option, RuleSet, non_negative, register
from .mcr import MCR

__all__ = ["MCR_RULES", "DAZHONG", "V_KNIT_NO_WAIT", "V_DAZHONG", "settle_four_players"]

#: Knitted straight: no Edge/Closed/Single Wait when the winning tile is one
#: of the nine knitted tiles (the option ``knitted_straight_wait="not_scored"``).
V_KNIT_NO_WAIT = 1
#: The fuller 不计 lists of the 大众 rule page (rule set ``dazhong``).
V_DAZHONG = 2

_MCR_FLAGS = ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers")



def _mcr_options(min_default: int, min_source: str):
    return (
        Option("knitted_straight_wait", "scored",
               "a knitted straight won on one of its own knitted tiles, when that was the only "
               "winning tile: 'scored' gives Edge/Closed/Single Wait as the reference calculator "
               "does; 'not_scored' gives none (the reading of the 2021 network-play "
               "interpretation, followed by GB-Mahjong)",
               source="MCR rule book: a wait fan needs a single winning tile; the interpretations "
                      "disagree whether a tile that also completes the knitted straight is a wait",
               choices=("scored", "not_scored")),
        Option("min_points", min_default,
               "the minimum to declare a win (起和), flowers not counted; 0 = any winning hand",
               source=min_source, kind=int, check=non_negative),
        Option("strict", False,
               "a context flag that cannot hold for the hand (fourth_tile with another copy in "
               "hand, kong without a kong...) is an error instead of being dropped and reported",
               source="our choice: the reference drops such flags silently", kind=bool),
    )


def _variant(base: int):
    def variant(opts) -> int:
        return base | (V_KNIT_NO_WAIT if opts["knitted_straight_wait"] == "not_scored" else 0)
    return variant


def settle_four_players(rs, total, self_drawn, discarder=None, **_):
    """MCR settlement, base 8 and F = total (flowers included): self-drawn, the
    other three pay 8 + F each; on a discard the discarder pays 8 + F and the
    other two 8.  Relative seats: (winner, left, opposite, right), discarder
    1 / 2 / 3 in that numbering."""
    f = int(total)
    if self_drawn:
        if discarder is not None:
            raise ValueError("a self-drawn win has no discarder")
        return (3 * (8 + f), -(8 + f), -(8 + f), -(8 + f))
    if discarder not in (1, 2, 3) or isinstance(discarder, bool):
        raise ValueError("on a discard win give discarder=1 (left, 上家), 2 (opposite, 对家) "
                         f"or 3 (right, 下家), got {discarder!r}")
    out = [24 + f, -8, -8, -8]
    out[int(discarder)] = -(8 + f)
    return tuple(out)


_SETTLE_TEXT = ("base 8, F = the hand's points with flowers; self-drawn: each other player pays 8 + F; "
                "on a discard the discarder pays 8 + F and the other two pay 8 each")

MCR_RULES = register(RuleSet(
    name="mcr",
    title="Chinese Official Mahjong (国标麻将, MCR), as the reference calculator scores it",
    table=MCR,
    flags=_MCR_FLAGS,
    option_specs=_mcr_options(8, "MCR rule book: a hand needs 8 points without flowers (起和)"),
    settlement_text=_SETTLE_TEXT,
    engine="mcr",
    variant_of=_variant(0),
    settle_fn=settle_four_players,
    source="the MCR rule book and its reference calculator",
))

DAZHONG = register(RuleSet(
    name="dazhong",
    title="大众麻将: MCR's 81 fans with the 大众 page's fuller 不计 lists and no minimum (推倒胡)",
    table=MCR,
    flags=_MCR_FLAGS,
    option_specs=_mcr_options(0, "the 大众 page: any 14-tile winning hand wins, no minimum "
                                 "fan count (无最低胡牌番数限制, 推倒胡)"),
    settlement_text=_SETTLE_TEXT + " (the page gives no settlement: MCR's is used; no hand scores 0, "
                                   "since a hand with no fan is Chicken Hand, 8)",
    engine="mcr",
    variant_of=_variant(V_DAZHONG),
    settle_fn=settle_four_players,
    source="the 大众麻将 rule page (an online game's help page)",
))
