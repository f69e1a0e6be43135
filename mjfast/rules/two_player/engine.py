"""The two-player rule set's engine: its own predicates
(:func:`mjfast.rules.two_player.score_two_player`, compiled), its compiled
batch pass, and how ``mjfast score`` prints its settlement (winner and
opponent)."""
from __future__ import annotations

import numpy as np

from ... import _fans
from ...scoring.batch_rules import score_rows_own
from ...scoring.batch_result import ERR_INVALID, ERR_NOT_WINNING, RULE_FLAG_BITS
from ...errors import InvalidHand, NotWinning
from ...hand import Hand
from ...scoring.records import check_context
from ...scoring.score import RuleScore, score_wild as _score_wild, winning_hand as _winning_hand, rule_flag_values
from ...spec import flags as _flags
from ..base import ignored_flags, strict_message
from ..engine import Engine
from . import batch_dropped_reasons, option_bits, score_two_player

__all__ = ["TwoPlayerEngine", "TWO_PLAYER_ENGINE"]

_MCR_CONTEXT = _flags.names(_flags.WIN)
#: the rule flags the compiled two-player kernel reads (rows with others go to score())
_TWO_PLAYER_BITS = sum(RULE_FLAG_BITS[k] for k in ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start"))


class TwoPlayerEngine(Engine):
    """Two-player mahjong's engine (docs/rules.md, "two_player")."""

    def score(self, rs, hand, ctx, flags, strict, wild):
        if wild["wildcards"] is not None or wild["wildcard_tiles"] is not None or wild["wild_fifth"] is not False:
            return _score_wild(hand, wild["wildcards"], wild["wildcard_tiles"], wild["wild_fifth"], strict, rs,
                               flags, ctx)
        extra, strict = rule_flag_values(flags, strict, rs)
        return _score_own(hand, rs, extra, strict, ctx)

    def score_batch(self, rs, batch, nthreads, strict, compiled=True):
        return score_rows_own(batch, rs, nthreads, strict, by_score=_by_score,
                              compiled=_score_two_player_compiled if compiled else None, report_winds=True)

    def score_row(self, rs, h, f, given, seat, rnd, k=0, strict=False, kinds=None):
        unused = ignored_flags(rs, given)
        flags = {k2: v for k2, v in given.items() if k2 in rs.flags}
        total, fd, form, items, dropped = score_two_player(h, rs, flags)
        dropped.update(unused)
        return total, fd, dropped, True, None

    def cli_settlement(self, rs, s, discarder, seat):
        win, lose = s.settlement()
        return {"self_drawn": s.self_drawn, "winner": win, "loser_pays": -lose, "seats": [win, lose]}

    def cli_tail(self, rs, s, args, kit):
        L = kit.labels
        out = kit.legal_lines(s)
        st = kit.settlement(s, args.discarder, args.seat)
        out.append(f"{L['settlement']} (rules {rs.name}, F = {s.total}, "
                   f"x{rs.options['fan_value']} base unit):")
        out.append(f"  {L['winner']}  {st['seats'][0]:+d}")
        out.append(f"  opponent  {st['seats'][1]:+d}")
        if not s.is_legal_win:
            out.append(f"  {L['not_legal_note']}")
        return out


def _by_score(batch):
    """Rows mjfast.score scores itself: wildcards, flags the compiled kernel has no use for."""
    return ((batch.wildcards > 0) | (batch.wild_kinds != 0)
            | ((batch.rule_flags & ~np.uint8(_TWO_PLAYER_BITS)) != 0))


def _score_own(hand, rs, extra, strict, ctx):
    """One hand on the two-player predicates (flags checked)."""
    check_context(ctx["self_drawn"], ctx["fourth_tile"], ctx["kong"], ctx["last_tile"],
                  ctx["seat_wind"], ctx["round_wind"], ctx["flowers"])
    h = _winning_hand(hand)
    rs.check_tiles(h.all_counts)
    if h.n_tiles != 14:
        raise InvalidHand(f"a winning hand has 14 tiles counting 3 per meld; got {len(h.tiles)} concealed"
                          f" + {len(h.melds)} melds = {h.n_tiles}")
    flowers = ctx["flowers"] + (h.flowers or 0)
    if flowers > 8:
        raise InvalidHand(f"at most 8 flowers, got {flowers}")
    if flowers != h.flowers:
        h = Hand(h.melds, h.tiles, flowers)
    given = {k: bool(ctx[k]) for k in _MCR_CONTEXT}
    given.update(extra)
    unused = ignored_flags(rs, given)
    if ctx["seat_wind"] not in ("E", 0) or ctx["round_wind"] not in ("E", 0):
        if "seat_wind" not in rs.flags:
            unused["winds"] = f"ignored: rule set {rs.name!r} has no wind fan"
    flags = {k: v for k, v in given.items() if k in rs.flags}
    total, fans, form, items, dropped = score_two_player(h, rs, flags)
    dropped.update(unused)
    if dropped and strict:
        raise InvalidHand(strict_message(dropped))
    if total < 0:
        raise NotWinning(f"not a winning hand under rule set {rs.name!r}: {hand if isinstance(hand, str) else h}")
    return RuleScore(rs, total, fans, form, items, bool(ctx["self_drawn"]), flowers, dropped)



def _score_two_player_compiled(batch, rs, nthreads, strict, invalid, totals, fans, errors, messages, extra):
    """score_batch under two-player rules in one compiled call
    (_fans.two_player_batch_kernel), with the same results, reports and
    messages as the row path (tests/test_rules_two_player.py holds them
    together).  Fills the arrays in place; returns the rows left to the row
    path."""
    n = len(batch)
    dropped = np.zeros(n, np.uint8)
    _fans.two_player_batch_kernel(batch.counts, batch.melds, batch.n_melds, batch.added, batch.win_tile, batch.flags,
                                  batch.rule_flags, invalid.view(np.uint8), option_bits(rs), totals, fans,
                                  dropped, nthreads)
    back = (totals == -3) & ~invalid
    totals[back] = -1
    for i in np.flatnonzero((dropped != 0) & ~invalid & ~back):
        i = int(i)
        d = batch_dropped_reasons(int(dropped[i]), rs.name)
        if strict:
            errors[i] = ERR_INVALID
            messages[i] = strict_message(d)
            totals[i] = -1
            fans[i] = 0
        elif totals[i] >= 0:
            extra[i] = d
    done = ~invalid & ~back & (errors == 0)
    errors[done & (totals < 0)] = ERR_NOT_WINNING
    win = done & (totals >= 0)
    fl = batch.flowers.astype(np.int32)
    totals[win] += fl[win]
    flower_col = [j for j, f in enumerate(rs.table.fans) if f.key == "flower_tiles"]
    if flower_col:
        fans[win, flower_col[0]] = batch.flowers[win]
    return np.flatnonzero(back)


#: the engine of rule set two_player
TWO_PLAYER_ENGINE = TwoPlayerEngine()
