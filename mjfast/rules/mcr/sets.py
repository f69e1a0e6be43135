"""The rule sets scored by the compiled MCR engine: ``mcr`` and ``dazhong``.

Both use the MCR fan table (:data:`mjfast.rules.mcr.MCR`).  What differs is
passed to the engine as variant bits (``V_*`` below, the same numbers as the
``V_*`` constants of src/fankernel/fan_base.pxd): with every option at its default,
``mcr`` passes 0 and the engine is exactly the reference-matching one.
"""
from __future__ import annotations

from dataclasses import replace as _replace

from ... import _fans
from ..base import Option, RuleSet, non_negative, register
from .table import MCR, FanTable

__all__ = ["MCR_RULES", "DAZHONG", "DAZHONG_TABLE", "V_KNIT_NO_WAIT", "V_DAZHONG", "V_PAGE_CHOWS",
           "settle_four_players"]

#: Knitted straight: no Edge/Closed/Single Wait when the winning tile is one
#: of the nine knitted tiles (the option ``knitted_straight_wait="not_scored"``).
V_KNIT_NO_WAIT = 1
#: The fuller 不计 lists of the 大众 rule page (rule set ``dazhong``).
V_DAZHONG = 2
#: The chow left beside a 3-chow fan scores every chow-pair fan it makes
#: with the three (the 大众 page's examples), not one (MCR's account once):
#: dazhong's option ``chow_pair_fans="page"``.
V_PAGE_CHOWS = 4

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
        return (base | (V_KNIT_NO_WAIT if opts["knitted_straight_wait"] == "not_scored" else 0)
                | (V_PAGE_CHOWS if opts.get("chow_pair_fans") == "page" else 0))
    return variant


def _dazhong_table() -> FanTable:
    """The 大众 page's table: the 80 fans and flowers of the 1998 table, each
    with MCR's points, and nothing else (the page has no 明暗杠, which the
    reference added), with the page's whole-fan 不计 entries that the
    reference does not apply (docs/rules.md, dazhong).  The compiled engine
    scores it on MCR's fan ids: these are MCR's records, ids kept."""
    voided = ("little_four_winds", "little_three_dragons", "quadruple_chow", "four_pure_shifted_pungs",
              "four_pure_shifted_chows", "big_three_winds")
    fans = []
    for f in MCR.without("concealed_kong_and_melded_kong"):
        ex, partial = f.excludes, f.partial
        if f.key in voided:
            ex = ex + ("one_voided_suit",)
            partial = partial.replace("; One Voided Suit is still scored", "").replace(
                " and One Voided Suit are", " are").replace("One Voided Suit is still scored", "")
        if f.key == "nine_gates":
            ex = ex + ("pung_of_terminals_or_honors",)
            partial = partial.replace("one Pung of Terminals or Honors (the 111 or 999 of the gates); ", "")
        if f.key == "four_concealed_pungs":
            partial = partial.replace("Single Wait is still scored when the wait was unique",
                                      "Single Wait is scored only on a self-drawn win (放炮和牌不计单钓将)")
        if f.key in ("melded_kong", "concealed_kong"):
            partial = "one melded and one concealed kong score Melded Kong and Concealed Kong (no 明暗杠)"
        if f.key == "mixed_straight":
            partial = ("chow-pair fans among its own three chows; the fourth chow adds every chow-pair "
                       "fan it makes with one of the three, each kind once (option chow_pair_fans)")
        fans.append(_replace(f, excludes=ex, partial=partial.strip()))
    return FanTable(fans, name="dazhong")


#: dazhong's fan table: the page's entries, MCR's ids and points.
DAZHONG_TABLE = _dazhong_table()


def settle_four_players(rs, total, self_drawn, discarder=None, **_):
    """MCR settlement, base 8 and F = total (flowers included): self-drawn, the
    other three pay 8 + F each; on a discard the discarder pays 8 + F and the
    other two 8.  Relative seats: (winner, left, opposite, right), discarder
    1 / 2 / 3 in that numbering.  The arithmetic is compiled
    (src/fankernel/mcr_settle.pxd, which the compiled game engine uses too);
    this words what is wrong with the arguments."""
    if self_drawn:
        if discarder is not None:
            raise ValueError("a self-drawn win has no discarder")
        return _fans.settle_mcr(int(total), True, None)
    if discarder not in (1, 2, 3) or isinstance(discarder, bool):
        raise ValueError("on a discard win give discarder=1 (left, 上家), 2 (opposite, 对家) "
                         f"or 3 (right, 下家), got {discarder!r}")
    return _fans.settle_mcr(int(total), False, int(discarder))


_SETTLE_TEXT = ("base 8, F = the hand's points with flowers; self-drawn: each other player pays 8 + F; "
                "on a discard the discarder pays 8 + F and the other two pay 8 each")

MCR_RULES = register(RuleSet(
    name="mcr",
    title="Chinese Official Mahjong (国标麻将, MCR), as the reference calculator scores it",
    table=MCR,
    flags=_MCR_FLAGS,
    option_specs=_mcr_options(_fans.MCR_MIN_POINTS,
                              "MCR rule book: a hand needs 8 points without flowers (起和)"),
    settlement_text=_SETTLE_TEXT,
    engine="mcr",
    variant_of=_variant(0),
    settle_fn=settle_four_players,
    source="the MCR rule book and its reference calculator",
))

DAZHONG = register(RuleSet(
    name="dazhong",
    title="大众麻将: the 大众 page's 81 fans (MCR's, without 明暗杠), its fuller 不计 lists and no minimum (推倒胡)",
    table=DAZHONG_TABLE,
    flags=_MCR_FLAGS,
    option_specs=_mcr_options(0, "the 大众 page: any 14-tile winning hand wins, no minimum "
                                 "fan count (无最低胡牌番数限制, 推倒胡)") + (
        Option("chow_pair_fans", "page",
               "the fourth chow beside a three-chow fan: 'page' scores every chow-pair fan it makes "
               "with one of the three, each kind once (123m 456p 789s + 456m: Mixed Straight + Mixed "
               "Double Chow + Short Straight); 'count_once' scores one, as MCR does (account once)",
               source="the 大众 page's examples for 花龙 and 连六 score 花龙 with 喜相逢 and 连六 from one "
                      "leftover chow; MCR's fifth counting principle (套算一次) allows one",
               choices=("page", "count_once")),
    ),
    settlement_text=_SETTLE_TEXT + " (the page gives no settlement: MCR's is used; no hand scores 0, "
                                   "since a hand with no fan is Chicken Hand, 8)",
    engine="mcr",
    variant_of=_variant(V_DAZHONG),
    settle_fn=settle_four_players,
    source="the 大众麻将 rule page (an online game's help page)",
))
