"""Old Shanghai 番/和 scoring (rules="shanghai_old"), and the rule-set hook
it uses (RuleSet.score_fn: a rule set that scores hands on its own)."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import rules as R
from mjfast.rules.base import RuleSet
from mjfast.score import FanResult


# -- the hook: RuleSet.score_fn ------------------------------------------------

class _Toy:
    """A result with the reading API the batch path uses."""

    def __init__(self, total, fans, ignored):
        self.total, self.fans, self.ignored_flags = total, fans, ignored


def _toy_score(hand, rs, ctx, flags, strict, wild):
    h = mjfast.parse_hand(hand) if isinstance(hand, str) else hand
    if not mjfast.is_win(h.counts, melds=len(h.melds), wildcards=wild["wildcards"]):
        raise mjfast.NotWinning("toy: not winning")
    # the total says what reached the hook: self-drawn, seat wind, a keyword flag, wildcards
    total = 100 + 10 * ctx["self_drawn"] + int(ctx["seat_wind"] in ("S", 1)) + 1000 * bool(flags.get("heavenly_hand"))
    total += 10000 * (wild["wildcards"] or 0)
    ignored = {"kong": "toy: no kong fan"} if ctx["kong"] else {}
    return _Toy(total, [FanResult("Toy", "玩具", total, 1, "toy", 1)], ignored)


def _toy():
    from mjfast.rules.mcr import FanTable, Fan
    table = FanTable((Fan(1, "toy", "Toy", "玩具", 1, (), definition="toy"),), name="toy")
    return RuleSet(name="toy", title="toy", table=table, engine="toy", score_fn=_toy_score)


def test_score_fn_hook_single_hand():
    toy = _toy()
    assert mjfast.score("123m456m789m123p5p5p", rules=toy).total == 100
    assert mjfast.score("123m456m789m123p5p5p", rules=toy, self_drawn=True, seat_wind="S").total == 111
    assert mjfast.score("123m456m789m123p5p5p", rules=toy, heavenly_hand=True).total == 1100
    assert mjfast.score("123m456m789m123p5p", rules=toy, wildcards=1).total == 10100
    with pytest.raises(mjfast.NotWinning):
        mjfast.score("123m456m789m123p5p6p", rules=toy)


def test_score_fn_hook_batch_row_by_row():
    toy = _toy()
    recs = [{"hand": "123m456m789m123p5p5p"}, {"hand": "123m456m789m123p5p5p", "self_drawn": True},
            {"hand": "123m456m789m123p5p6p"}, {"hand": "123m456m789m123p5p5p", "kong": True}]
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs), rules=toy)
    assert res.totals.tolist()[:2] == [100, 110] and res.errors.tolist()[:3] == [0, 0, 2]
    assert res.ignored_flags(3) == {"kong": "toy: no kong fan"}
    strict = mjfast.score_batch(mjfast.HandBatch.from_records(recs), rules=toy, strict=True)
    assert strict.errors[3] != 0 and "toy: no kong fan" in strict.error_message(3)
