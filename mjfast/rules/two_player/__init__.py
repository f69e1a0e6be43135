"""Two-player mahjong (二人麻将): its fan table and its predicates.

72 tiles: characters 1m-9m, the four winds and three dragons (4 copies each)
and 8 flowers.  The fan table is the two-player page's; every fan it shares
with MCR keeps MCR's definition.  Where the page is garbled, silent or
contradictory the ruling is written next to the fan and, where another reading
is possible, it is a named option (docs/rules.md, "two_player").

How a hand is scored.  The predicates are compiled (src/fankernel/tp_fans.pxd);
the generic parts are the MCR engine's (the division search, the wait
search); the table (table.py) is data: its fan ids, points and
exclusions are generated into the compiled code at build time, which loads
them when it is initialised (no Python module has to).

1. every reading of the concealed tiles (regular divisions, and seven pairs
   without melds) is scored: set fans, tile-set fans, context fans;
2. the exclusions (不计) are applied per reading, highest fan first, a fan
   already dropped excluding nothing -- the same pass as MCR's;
3. the reading with the highest total is kept (ties: the first met);
4. one point per flower is added (花牌).

:func:`score_two_player_py` states the same predicates in plain Python; a
differential test holds the compiled code to it.
"""
from __future__ import annotations

import numpy as np

from ... import _core, _fans
from ...spec import flags as _spec_flags
from ..base import Option, RuleSet, dropped_reasons, impossible_flags, non_negative, positive, register
from .table import TWO_PLAYER_TABLE

_FANS = TWO_PLAYER_TABLE.fans

__all__ = ["TWO_PLAYER", "TWO_PLAYER_TABLE", "TILES", "score_two_player", "kong_payout", "flower_payout",
           "settle_two_players", "TWO_PLAYER_FLAGS"]

#: 1m-9m, E S W N, C F P (tile indices).
TILES = frozenset(list(range(9)) + list(range(27, 34)))


#: The context flags two-player understands (fourth_tile, last_tile and the
#: winds mean nothing here: no fan uses them).
TWO_PLAYER_FLAGS = ("self_drawn", "kong", "flowers", "heavenly_hand", "earthly_hand", "human_hand",
                    "ready_at_start")

_IDX = {f.key: f for f in _FANS}
_ORDER = sorted(_FANS, key=lambda f: (-f.points, f.id))   # exclusion pass order




_OPTIONS = (
    Option("hand_size", 13, "tiles in hand before the winning tile (+1 per kong)",
           source="the page says the standard hand is 16 tiles, but every pattern of its table is four "
                  "sets and a pair or seven pairs, which is a 13-tile hand; 16 is not supported",
           choices=(13,)),
    Option("min_fan", 8, "the minimum to win (起和), flowers not counted; 0 = any winning hand",
           source="the page gives none; the game is derived from MCR, whose minimum is 8",
           kind=int, check=non_negative),
    Option("fan_value", 1, "base units the loser pays per fan of the winning hand",
           source="the page gives no hand settlement; we settle total fan x base unit",
           kind=int, check=positive),
    Option("fangchong", "discard", "放铳: 'discard' = any win on the opponent's discard (robbing a kong "
           "included); 'rob_kong' = only a win robbing a kong",
           source="the page: 抢别人的牌和牌 (win by taking the other player's tile), ambiguous",
           choices=("discard", "rob_kong")),
    Option("unique_wait_only", True, "Edge/Closed/Single Wait only when the hand had one winning tile "
           "(as in MCR); false: whenever the winning tile sits in that place in the reading",
           source="the page defines the three wait fans by shape only", kind=bool),
    Option("added_kong_is_melded_kong", True, "a kong added to one's own melded pung also scores "
           "Melded Kong (a melded kong of the opponent's discard always does)",
           source="the page: 杠别人打出来的牌 (a kong of the other player's discard)", kind=bool),
    Option("highest_heavenly_only", True, "only the highest of Heavenly / Earthly / Human Hand counts",
           source="the page is silent on combining them", kind=bool),
    Option("upper_four_keeps_full_flush", True, "Upper Four (all 6-9m) also scores Full Flush",
           source="the page is silent; MCR does not exclude Full Flush from Upper Four", kind=bool),
    Option("strict", False, "a flag that cannot hold (kong without a kong, robbing a kong of a tile in "
           "hand, heavenly/earthly hand on a discard, a flag this rule set does not use) is an error "
           "instead of being dropped and reported", source="our choice", kind=bool),
)


def kong_payout(kongs: int, fan_value: int = 1) -> int:
    """Base units the opponent pays at once for ``kongs`` declared kongs
    (melded or concealed): 1 each (the page)."""
    if kongs < 0:
        raise ValueError("kongs must be 0 or more")
    return kongs * fan_value


def flower_payout(flowers: int, fan_value: int = 1) -> int:
    """Base units the opponent pays for a player's flowers: nothing below 4,
    then 1 for 4 up to 5 for 8 -- max(0, n - 3) (the page)."""
    if not 0 <= flowers <= 8:
        raise ValueError("flowers must be 0-8")
    return max(0, flowers - 3) * fan_value


def settle_two_players(rs, total, self_drawn, discarder=None, balance=None, **_):
    """(winner, loser) point changes: the loser pays total x fan_value on a
    discard win and on a self-drawn win alike, at most ``balance`` (扣光为止)."""
    if discarder not in (None, 1):
        raise ValueError("two-player: the only possible discarder is the opponent (discarder=1 or None)")
    pay = int(total) * int(rs.options["fan_value"])
    if balance is not None:
        if balance < 0:
            raise ValueError("balance must be 0 or more")
        pay = min(pay, int(balance))
    return (pay, -pay)


# -- predicates ---------------------------------------------------------------

def _chow_pair_fan(a, b):
    """The chow-pair fan of two character chows (lowest tiles a, b)."""
    if a == b:
        return "pure_double_chow"
    if abs(a - b) == 3:
        return "short_straight"
    if {a, b} == {0, 6}:
        return "two_terminal_chows"
    return None


def _three_chow_fan(a, b, c):
    a, b, c = sorted((a, b, c))
    if a == b == c:
        return "pure_triple_chow"
    if (a, b, c) == (0, 3, 6):
        return "pure_straight"
    if b - a == c - b and b - a in (1, 2):
        return "pure_shifted_chows"
    return None


_PAIR_CAP_ORDER = ("two_terminal_chows", "short_straight", "pure_double_chow")


def _chow_fans(chows, pair, fans):
    """Chow fans of a reading, counted as MCR counts them (its principles of
    non-repeat and account once, as the MCR engine implements them)."""
    m = sorted(chows)
    if len(m) == 4:
        a, b, c, d = m
        if a == b == c == d:
            fans["quadruple_chow"] = 1
            return
        if b - a == c - b == d - c and b - a in (1, 2):
            fans["four_pure_shifted_chows"] = 1
            return
        if (a, b, c, d) == (0, 0, 6, 6) and pair == 4:
            fans["pure_terminal_chows"] = 1
            return
        for skip in (3, 2, 1, 0):
            three = [m[i] for i in range(4) if i != skip]
            f = _three_chow_fan(*three)
            if f:
                fans[f] = 1
                extra = [_chow_pair_fan(t, m[skip]) for t in three]
                for k in ("pure_double_chow", "short_straight", "two_terminal_chows"):
                    if k in extra:
                        fans[k] = fans.get(k, 0) + 1
                        break
                return
        pf = [_chow_pair_fan(m[i], m[j]) for i in range(4) for j in range(i + 1, 4)]
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        cap = 3
        for k in range(4):
            if not any(pf[n] for n, (i, j) in enumerate(pairs) if k in (i, j)):
                cap -= 1
        if cap > 0:
            _cap_pairs([f for f in pf if f], cap, fans)
    elif len(m) == 3:
        f = _three_chow_fan(*m)
        if f:
            fans[f] = 1
            return
        _cap_pairs([f for f in (_chow_pair_fan(m[0], m[1]), _chow_pair_fan(m[0], m[2]),
                                _chow_pair_fan(m[1], m[2])) if f], 2, fans)
    elif len(m) == 2:
        f = _chow_pair_fan(m[0], m[1])
        if f:
            fans[f] = 1


def _cap_pairs(found, cap, fans):
    cnt = {k: found.count(k) for k in _PAIR_CAP_ORDER}
    total = sum(cnt.values())
    limit = 1
    while total > cap and limit >= 0:
        for k in _PAIR_CAP_ORDER:
            while cnt[k] > limit and total > cap:
                cnt[k] -= 1
                total -= 1
        limit -= 1
    for k, v in cnt.items():
        if v:
            fans[k] = fans.get(k, 0) + v


def _is_wind(t):
    return 27 <= t <= 30


def _is_dragon(t):
    return 31 <= t <= 33


def _is_terminal_or_honor(t):
    return t in (0, 8) or t >= 27


def _pung_fans(pungs, pair, fans):
    """pungs: [(tile, is_kong, concealed)]."""
    tiles = [p[0] for p in pungs]
    winds = [t for t in tiles if _is_wind(t)]
    dragons = [t for t in tiles if _is_dragon(t)]
    covered = 0                      # terminal/honor pungs a wind or dragon fan already scores
    if len(winds) == 4:
        fans["big_four_winds"] = 1
    elif len(winds) == 3:
        if pair is not None and _is_wind(pair):
            fans["little_four_winds"] = 1
        else:
            fans["big_three_winds"] = 1
        covered += 3
    if len(dragons) == 3:
        fans["big_three_dragons"] = 1
        covered += 3
    elif len(dragons) == 2:
        if pair is not None and _is_dragon(pair):
            fans["little_three_dragons"] = 1
        else:
            fans["two_dragons_pungs"] = 1
        covered += 2
    ranks = sorted(t for t in tiles if t < 9)
    if len(ranks) == 4 and ranks[3] - ranks[0] == 3 and len(set(ranks)) == 4:
        fans["four_pure_shifted_pungs"] = 1
    else:
        for i in range(len(ranks) - 2):
            if ranks[i + 1] == ranks[i] + 1 and ranks[i + 2] == ranks[i] + 2:
                fans["pure_shifted_pungs"] = 1
                break
    if len(pungs) == 4:
        fans["all_pungs"] = 1
    th = sum(1 for t in tiles if _is_terminal_or_honor(t)) - covered
    if th > 0:
        fans["pung_of_terminals_or_honors"] = th


def _kong_fans(melds, opts, fans):
    kongs = [m for m in melds if m.kind == "kong"]
    n = len(kongs)
    if n == 4:
        fans["four_kongs"] = 1
    elif n == 3:
        fans["three_kongs"] = 1
    elif n == 2:
        fans["two_kongs"] = 1
    elif n == 1:
        k = kongs[0]
        if k.concealed:
            fans["concealed_kong"] = 1
        elif not k.added or opts["added_kong_is_melded_kong"]:
            fans["melded_kong"] = 1


def _wait_fan(reading_chows, pair, win):
    """Edge, Closed or Single Wait from the winning tile's place among the
    concealed sets of a reading (first of edge, closed, single)."""
    places = []
    for t in reading_chows:
        if (win == t + 2 and t % 9 == 0) or (win == t and t % 9 == 6):
            places.append("edge_wait")
        elif win == t + 1:
            places.append("closed_wait")
    if pair == win:
        places.append("single_wait")
    for k in ("edge_wait", "closed_wait", "single_wait"):
        if k in places:
            return k
    return None


def _exclude(fans, table_excludes=None):
    """Drop every fan a present fan excludes, highest fan first; a dropped fan
    excludes nothing (the MCR engine's pass)."""
    present = dict(fans)
    for f in _ORDER:
        if f.key in present and present[f.key] > 0:
            for k in f.excludes:
                present.pop(k, None)
    return present


def _total(fans):
    return sum(_IDX[k].points * c for k, c in fans.items() if c > 0)


def _context(h, flags):
    """(self_drawn, kong flag as it holds, dropped {flag: reason}) of a hand's
    context: the kong flag needs a kong on a self-drawn win and a tile held
    nowhere else on a discard win (as MCR); heavenly and earthly hands are
    self-drawn wins by definition."""
    self_drawn = bool(flags.get("self_drawn"))
    kong_flag = bool(flags.get("kong"))
    dropped = dropped_reasons(impossible_flags(h, self_drawn=self_drawn, kong=kong_flag), self_drawn, _DROP_REASONS)
    kong_flag = kong_flag and "kong" not in dropped
    for k in ("heavenly_hand", "earthly_hand"):
        if flags.get(k) and not self_drawn:
            dropped[k] = _DROP_NOT_SELF_DRAWN
    return self_drawn, kong_flag, dropped


_DROP_KONG_NO_KONG = "dropped: out with a replacement tile needs a kong among the melds, and there is none"
_DROP_KONG_HELD = "dropped: robbing a kong needs a winning tile that is not also in the hand or its melds"
_DROP_NOT_SELF_DRAWN = "dropped: it is a self-drawn win by definition"
_DROP_REASONS = {"kong_self_drawn": _DROP_KONG_NO_KONG, "kong_discard": _DROP_KONG_HELD}


def batch_dropped_reasons(bits: int, rules_name: str) -> dict:
    """{flag: reason} of the compiled batch kernel's dropped bits (TPD_* of
    src/_rulesets.pxi), in the order _context and the batch's row path
    report them."""
    unused = f"ignored: rule set {rules_name!r} has no fan that uses it"
    out = {}
    for bit, name, reason in ((1, "kong", _DROP_KONG_NO_KONG), (2, "kong", _DROP_KONG_HELD),
                              (4, "heavenly_hand", _DROP_NOT_SELF_DRAWN), (8, "earthly_hand", _DROP_NOT_SELF_DRAWN),
                              (16, "fourth_tile", unused), (32, "last_tile", unused)):
        if bits & bit:
            out[name] = reason
    return out


_OPT_BITS = (("fangchong", "rob_kong", 1), ("unique_wait_only", True, 2), ("added_kong_is_melded_kong", True, 4),
             ("highest_heavenly_only", True, 8), ("upper_four_keeps_full_flush", True, 16))
# the compiled engine's context byte: self-drawn 1, kong 2, then the rule
# byte's flags two bits up (TPF_* of src/fankernel/tp_fans.pxd)
_FLAG_BITS = tuple((f.name, f.bit << 2) for f in _spec_flags.FLAGS.values()
                   if f.byte == _spec_flags.RULE and "two_player" in f.read_by)
_KIND = {"chow": 0, "pung": 1, "kong": 2}
_KEYS = {f.id: f.key for f in _FANS}


def option_bits(rs) -> int:
    """The rule set's options as the compiled engine's TPO_* bits."""
    opts = rs.options
    return sum(bit for name, value, bit in _OPT_BITS if opts[name] == value)


def score_two_player(h, rs, flags):
    """Score a parsed, 14-tile hand ``h`` under two-player rules ``rs`` with
    the compiled predicates (src/fankernel/tp_fans.pxd).

    ``flags``: dict of the context (self_drawn, kong, heavenly_hand,
    earthly_hand, human_hand, ready_at_start).  Returns ``(total, fans,
    form, reading, dropped)`` with fans ``{key: count}`` (flowers included),
    reading the ``(kind, tile)`` items of the chosen reading's concealed
    sets and pair, and dropped ``{flag: reason}``; ``total`` is -1 when the
    tiles are not a winning hand."""
    self_drawn, kong_flag, dropped = _context(h, flags)
    ob = option_bits(rs)
    fb = (1 if self_drawn else 0) | (2 if kong_flag else 0)
    for name, bit in _FLAG_BITS:
        if flags.get(name) and name not in dropped:
            fb |= bit
    melds = np.zeros((4, 4), np.uint8)
    for i, m in enumerate(h.melds):
        melds[i] = (_KIND[m.kind], m.tile, 0 if m.concealed else 1, 1 if m.added else 0)
    out = np.zeros(len(_FANS) + 1, np.int16)
    total, form, items = _fans.two_player_score_one(np.ascontiguousarray(h.counts, dtype=np.uint8), melds,
                                                     len(h.melds), int(h.win_tile), fb, ob, out)
    if total < 0:
        return -1, {}, None, (), dropped
    fans = {_KEYS[int(i)]: int(out[i]) for i in np.flatnonzero(out > 0)}
    if h.flowers:
        fans["flower_tiles"] = h.flowers
    return total + h.flowers, fans, ("regular", "seven_pairs")[form], tuple(items), dropped


def score_two_player_py(h, rs, flags):
    """The same as :func:`score_two_player` in plain Python: the readable
    statement of the predicates, kept as the compiled code's test oracle."""
    opts = rs.options
    counts = [int(x) for x in h.counts]
    win = int(h.win_tile)
    melds = list(h.melds)
    n_melds = len(melds)
    all_c = [int(x) for x in h.all_counts]
    self_drawn, kong_flag, dropped = _context(h, flags)
    readings = _fans.decompose_one(h.counts, n_melds)
    if not readings:
        return -1, {}, None, (), dropped
    # what every reading shares
    base = {}
    honors = any(all_c[t] for t in range(27, 34))
    suited = any(all_c[t] for t in range(9))
    if suited and not honors:
        base["full_flush"] = 1
        if all(all_c[t] == 0 for t in range(5)):
            base["upper_four"] = 1
    elif honors and not suited:
        base["all_honors"] = 1
    else:
        base["half_flush"] = 1
    if not honors:
        base["no_honors"] = 1
    if all(all_c[t] == 0 for t in range(1, 8)):
        base["all_terminals_and_honors"] = 1
    open_melds = [m for m in melds if not (m.kind == "kong" and m.concealed)]
    concealed = not open_melds
    if concealed:
        base["fully_concealed_hand" if self_drawn else "concealed_hand"] = 1
    if len(open_melds) == 4 and not self_drawn:
        base["melded_hand"] = 1
    if kong_flag and self_drawn:
        base["out_with_replacement_tile"] = 1
    if not self_drawn and (opts["fangchong"] == "discard" or kong_flag):
        base["win_off_a_discard"] = 1
    for k in ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start"):
        if flags.get(k) and k not in dropped:
            base[k] = 1
    if opts["highest_heavenly_only"]:
        for big, small in (("heavenly_hand", "earthly_hand"), ("heavenly_hand", "human_hand"),
                           ("earthly_hand", "human_hand")):
            if base.get(big):
                base.pop(small, None)
    _kong_fans(melds, opts, base)
    standing = list(counts)
    standing[win] -= 1
    if n_melds == 0 and standing[:9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]:
        base["nine_gates"] = 1
    unique = None
    if opts["unique_wait_only"]:
        unique = len(_core.waits_one(np.array(standing, dtype=np.uint8), n_melds)) == 1
    best = None
    for form, items in readings:
        fans = dict(base)
        pair = None
        if form == "seven_pairs":
            pts = sorted(t for kind, t in items)
            fans["seven_pairs"] = 1
            if all(t < 9 for t in pts) and all(pts[i + 1] == pts[i] + 1 for i in range(6)):
                fans["seven_shifted_pairs"] = 1
            chows = []
        elif form == "regular":
            chows = [t for kind, t in items if kind == "chow"] + [m.tile for m in melds if m.kind == "chow"]
            pair = next(t for kind, t in items if kind == "pair")
            pungs = []
            c_chows = [t for kind, t in items if kind == "chow"]
            win_in_chow = any(t <= win <= t + 2 for t in c_chows)
            for kind, t in items:
                if kind == "pung":
                    # a pung completed by the winning discard is melded, unless
                    # the winning tile can be read in a concealed chow (MCR 8.4)
                    conc = self_drawn or t != win or win_in_chow
                    pungs.append((t, False, conc))
            for m in melds:
                if m.kind in ("pung", "kong"):
                    pungs.append((m.tile, m.kind == "kong", m.kind == "kong" and m.concealed))
            _pung_fans(pungs, pair, fans)
            _chow_fans(chows, pair, fans)
            nc = sum(1 for p in pungs if p[2])
            if nc >= 4:
                fans["four_concealed_pungs"] = 1
            elif nc == 3:
                fans["three_concealed_pungs"] = 1
            elif nc == 2:
                fans["two_concealed_pungs"] = 1
            if pair in (1, 4, 7):
                fans["pair_258"] = 1
            elif pair in (0, 8):
                fans["terminal_pair"] = 1
            if not fans.get("melded_hand") and (unique is None or unique):
                w = _wait_fan(c_chows, pair, win)
                if w:
                    fans[w] = 1
        else:                                   # no other form exists with these tiles
            continue
        if fans.get("nine_gates") and fans.get("pung_of_terminals_or_honors"):
            fans["pung_of_terminals_or_honors"] -= 1
        if not opts["upper_four_keeps_full_flush"] and fans.get("upper_four"):
            fans.pop("full_flush", None)
        fans = {k: v for k, v in _exclude(fans).items() if v > 0}
        tot = _total(fans)
        if best is None or tot > best[0]:
            best = (tot, fans, form, items)
    if best is None:
        return -1, {}, None, (), dropped
    tot, fans, form, items = best
    if h.flowers:
        fans["flower_tiles"] = h.flowers
    return tot + h.flowers, fans, form, items, dropped


TWO_PLAYER = register(RuleSet(
    name="two_player",
    title="二人麻将: two-player mahjong with characters, winds, dragons and flowers",
    table=TWO_PLAYER_TABLE,
    tiles=TILES,
    hand_size=13,
    forms=("regular", "seven_pairs"),
    flags=TWO_PLAYER_FLAGS,
    option_specs=_OPTIONS,
    players=2,
    settlement_text=("the loser pays total fan x fan_value base units on any win (at most their balance); "
                     "each kong: the opponent pays 1 base unit at once; flowers: max(0, n - 3) base units"),
    engine="two_player",
    engine_impl="mjfast.rules.two_player.engine:TWO_PLAYER_ENGINE",
    settle_fn=settle_two_players,
    source="the 二人麻将 rule page (an online game's help page)",
))
