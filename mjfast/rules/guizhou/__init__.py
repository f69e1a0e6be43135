"""Guizhou catch-chicken mahjong (捉鸡麻将, 黔人捉鸡 / 贵阳麻将): rule set ``guizhou``.

108 suit tiles, no chow claims, patterns (牌型) with only the highest one
counting, kongs (豆) as the pass for a plain win, and chicken tiles (鸡).
The score of one hand is ``mjfast.score(hand, rules="guizhou", ...)``
(:mod:`mjfast.rules.guizhou.hand`); a finished game's payments between the
players are :func:`settle` (:mod:`mjfast.rules.guizhou.settlement`;
:mod:`~mjfast.rules.guizhou.engine` prints a hand for ``mjfast score``).

Every optional rule (相关玩法), special rule (特殊规则) and reading of a
garbled or silent passage is a named option of the rule set with its default;
docs/rules.md ("guizhou") lists them with where each comes from.
"""
from __future__ import annotations

from ..base import Option, RuleSet, non_negative, register, check_engine, check_settle_args
from .engine import GuizhouEngine
from .hand import GUIZHOU_FLAGS, SUIT_TILES, GuizhouScore, score_entry, score_guizhou
from .settlement import GuizhouGame, Payment, Settlement, settle
from .table import GUIZHOU_TABLE

__all__ = ["GUIZHOU", "GUIZHOU_TABLE", "GuizhouGame", "GuizhouScore", "Payment", "Settlement", "settle",
           "score_guizhou", "settle_pattern"]



def _b(name, default, doc, source):
    return Option(name, default, doc, source=source, kind=bool)


_OPTIONS = (
    # -- 3.1 tiles and play --------------------------------------------------
    Option("tiles", "suits_108", "the tile set: 108 suit tiles (1-9 of three suits x4), no honors or flowers",
           source="not stated; every tile the rule text names is a suit tile and no pattern uses honors "
                  "(our reading, regional practice)", choices=("suits_108",)),
    _b("allow_chow", False, "melded chows are allowed (concealed sequences always are)",
       "the rule text names only pung and kong claims (our reading: no chows, regional practice)"),
    # -- 3.2 patterns and their payment --------------------------------------
    Option("single_wait", "four_melds", "单吊: 'four_melds' = four sets melded, won on the pair tile "
           "(金钩钓); 'pair_wait' = won on the pair tile when it was the only winning tile",
           source="单吊 is listed (10) but not defined (our reading: 金钩钓)",
           choices=("four_melds", "pair_wait")),
    Option("single_wait_with_pungs", "highest", "单吊 whose sets are all pungs: 'highest' scores 单吊 alone "
           "(10); 'sum' adds 大对子 (15)",
           source="the rule text is silent; only the highest pattern counts elsewhere",
           choices=("highest", "sum")),
    Option("self_drawn_bonus", 1, "points a self-drawn win adds to the pattern (自摸额外+1分)",
           source="the rule text: a self-drawn win adds 1", kind=int, check=non_negative),
    Option("discard_win_payer", "discarder", "who pays the pattern on a discard win: 'discarder' alone, "
           "or 'everyone' (each other player pays it)",
           source="the rule text does not say who pays the pattern (our reading: the discarder; a "
                  "self-drawn win is paid by each other player)", choices=("discarder", "everyone")),
    # -- 3.3 kongs and the pass ------------------------------------------------
    _b("plain_win_needs_pass", True, "a plain win (平胡) needs a kong (豆) as its pass (通行证), "
       "except on 热炮, 抢杠, 天听, 天胡, 地胡",
       "the rule text: a kong is the pass of a plain win (higher patterns need none: implied)"),
    _b("ready_needs_pass", True, "a hand that could win only a plain win it has no pass for is not "
       "ready (叫牌): it neither collects in a drawn game nor escapes the 包 rules",
       "the rule text is silent (our reading: a hand that cannot win is not ready)"),
    # -- 3.4 chickens ----------------------------------------------------------
    Option("concealed_chicken_kong", 7, "what each other player pays for a concealed kong (闷豆) of a "
           "chicken tile (doubled for a 金鸡 / 银鸡)",
           source="the rule text: a concealed kong of a chicken earns 7 from each other player",
           kind=int, check=non_negative),
    _b("chicken_kong_replaces", True, "the concealed-chicken-kong value replaces the four chickens' own "
       "value (the kong's 3 as a 豆 is paid as well); false: both",
       "the rule text does not say whether the 7 is instead of or besides 4 x 1 (our reading: instead)"),
    _b("golden_chicken", True, "金鸡: the flipped tile is 9s, so the 幺鸡 is the flipped chicken too: "
       "every chicken value of the 幺鸡 is doubled (冲锋鸡 4, 包鸡 2)",
       "the rule text's 金鸡"),
    _b("silver_chicken", True, "银鸡: the flipped tile is 9m or 9p, so 1m or 1p is a chicken worth 2",
       "the rule text's 银鸡 'in the 金鸡 play'"),
    _b("kong_claim_is_responsibility", True, "the first discarded 幺鸡 claimed by a kong (not only by a "
       "pung) becomes a 责任鸡",
       "the rule text says 碰走 (claimed by a pung); our reading includes a kong claim"),
    _b("collect_when_not_ready", True, "a player who neither won nor is ready still collects chicken "
       "and 豆 income (only the 包 rules penalise them); false: such a player collects none",
       "the rule text is silent (our reading: income whether or not ready)"),
    # -- 3.5 optional rules (相关玩法) ----------------------------------------
    _b("dealer_repeat", False, "连庄: the dealer stays dealer after winning (or a drawn game); "
       "otherwise the deal passes on", "optional rule 连庄"),
    _b("up_down_chicken", False, "上下鸡: both the tile one rank above and one rank below the flipped "
       "tile are chickens", "optional rule 上下鸡"),
    _b("up_down_wraps", True, "with 上下鸡, one below a 1 is the 9 of its suit",
       "the rule text is silent (our reading: 1 wraps to 9, as 9 wraps to 1)"),
    _b("full_house_chicken", False, "满堂鸡: every chicken discarded (not only the 幺鸡) counts for its "
       "discarder", "optional rule 满堂鸡"),
    _b("all_chickens_liable", False, "鸡全包: a player who neither won nor is ready pays for every 幺鸡 "
       "they exposed (discarded or melded; concealed kongs excepted): the 冲锋鸡 and 责任鸡 2, any other 1 "
       "(doubled for 金鸡); this replaces 包鸡", "optional rule 鸡全包"),
    Option("all_chickens_liable_to", "ready", "鸡全包 pays 'ready' = each ready or winning player, or "
           "'everyone' = each other player",
           source="the rule text writes 给每人 (to each player) without a condition (our reading: the "
                  "condition of 包鸡)", choices=("ready", "everyone")),
    _b("all_kongs_liable", False, "豆全包: a player with kongs who neither won nor is ready pays their "
       "豆 back (a 接豆: 3 to its feeder; a 闷豆 / 爬坡豆: 3 to each other player), only to ready or "
       "winning players; 憨包豆 excepted", "optional rule 豆全包"),
    _b("rob_burns_chickens", False, "抢杠烧鸡: the robbed player's chickens score nothing",
       "optional rule 抢杠烧鸡"),
    _b("rob_burns_kongs", False, "抢杠烧豆: the robbed player's 豆 score nothing", "optional rule 抢杠烧豆"),
    # -- 3.6 special rules (特殊规则) -----------------------------------------
    _b("out_on_kong", True, "杠开: a self-drawn win on a kong's replacement tile: pattern +1", "special rule 杠开"),
    _b("hot_discard", True, "热炮: the discard right after one's own kong deals in: the discarder's 豆 "
       "and 鸡 score nothing, and the winner needs no pass", "special rule 热炮"),
    _b("hot_discard_pays_kong", False, "热炮赔分: the 热炮 discarder also pays each winner that kong's "
       "value (3 for a 接豆, 9 for a 闷豆 or 爬坡豆)", "special rule 热炮, its 热炮赔分 mode"),
    _b("rob_kong", True, "抢杠: a player waiting on the tile of an added kong (爬坡豆) may win on it "
       "without a pass; the kong scores nothing; the win counts as self-drawn and the konger pays",
       "special rule 抢杠"),
    Option("rob_kong_payment", "all", "who the konger pays for on 抢杠: 'all' = what every other player "
           "would pay on a self-drawn win (3 x (pattern + 1)); 'one' = pattern + 1 once",
           source="the rule text: scored as self-drawn, the konger pays the pattern (our reading: for "
                  "everyone)", choices=("all", "one")),
    _b("ready_at_start", True, "天听: a player ready after their first discard may declare it; a win "
       "then counts 平胡 10, any other pattern +10", "special rule 天听"),
    _b("ready_at_start_without_pass", True, "a player who declared 天听 may win a 平胡 without a 豆",
       "the rule text's 其他玩家可接此玩家的无豆平胡 is unclear (our reading)"),
    _b("heavenly_hand", True, "天胡: the dealer wins with the dealt tiles: scored as 天听", "special rule 天胡"),
    _b("earthly_hand", True, "地胡: a non-dealer wins in the first go-around: scored as 天听, no pass needed",
       "special rule 地胡 (the text's 亲家 is a typo for 闲家)"),
    _b("multiple_winners", True, "一炮多响: several players may win on one discard, each paid by the "
       "discarder", "special rule 一炮多响"),
    _b("drawn_game_payment", True, "黄庄: in a drawn game every player who is not ready pays each ready "
       "player (豆 and 鸡 score nothing)", "special rule 黄庄"),
    Option("drawn_game_value", "best_wait", "what a not-ready player pays a ready one in a drawn game: "
           "the value of the best ('best_wait') or worst ('worst_wait') pattern the ready hand could win",
           source="the rule text: 'by pattern' (our reading: the best pattern among the waits)",
           choices=("best_wait", "worst_wait")),
)


def settle_pattern(rs, total, self_drawn, discarder=None, **_):
    """The pattern payment of one win, four players in relative seats
    (winner, left, opposite, right): self-drawn, each other player pays
    ``total``; on a discard the discarder (1-3) pays it (or every other
    player, option discard_win_payer='everyone')."""
    check_engine(rs, 'guizhou', "settle_pattern")
    t, self_drawn, discarder = check_settle_args(total, self_drawn, discarder)
    if self_drawn:
        if discarder is not None:
            raise ValueError("a self-drawn win has no discarder")
        return (3 * t, -t, -t, -t)
    if discarder not in (1, 2, 3) or isinstance(discarder, bool):
        raise ValueError("on a discard win give discarder=1 (left, 上家), 2 (opposite, 对家) "
                         f"or 3 (right, 下家), got {discarder!r}")
    if rs.options["discard_win_payer"] == "everyone":
        return (3 * t, -t, -t, -t)
    out = [t, 0, 0, 0]
    out[int(discarder)] = -t
    return tuple(out)


GUIZHOU = register(RuleSet(
    name="guizhou",
    title="捉鸡麻将 (Guizhou catch-chicken, 贵阳麻将): patterns, kongs (豆) and chickens (鸡)",
    table=GUIZHOU_TABLE,
    tiles=SUIT_TILES,
    hand_size=13,
    forms=("regular", "seven_pairs"),
    flags=GUIZHOU_FLAGS,
    option_specs=_OPTIONS,
    players=4,
    settlement_text=("one hand: the discarder pays the pattern, or on a self-drawn win each other player "
                     "pays pattern + 1; a whole game (豆, 鸡, 包, 黄庄): mjfast.rules.guizhou.settle(game)"),
    engine="guizhou",
    settle_fn=settle_pattern,
    max_wildcards_of=lambda opts: (0, "its rules have none"),
    score_fn=score_entry,
    engine_impl=GuizhouEngine(),
    ignored_wording="has no use for it",
    source="the 黔人捉鸡麻将 rule page (an online game's help page), Guiyang scoring",
))
