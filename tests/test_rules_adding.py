"""Adding a rule set (docs/architecture.md, "Adding a rule set"): a toy rule
set with a three-fan table and its own Python predicates, registered through
the public registry alone, is scored by mjfast.score, mjfast.score_batch /
HandBatch, the JSONL reader and `mjfast score --rules`, with no change to the
package."""
from __future__ import annotations

import json
import re

import pytest

import mjfast
from mjfast import rules as R
from mjfast.cli import main
from mjfast.io import jsonl
from mjfast.rules.base import ignored_flags, strict_message
from mjfast.rules.engine import Engine
from mjfast.rules.mcr import Fan, FanTable
from mjfast.score import RuleScore

# -- the rule set: what a seventh rule set's package would hold -------------------

#: its table (data): three fans
TOY_TABLE = FanTable((
    Fan(1, "win", "Win", "和", 1, (), definition="any winning hand"),
    Fan(2, "self_drawn", "Self-Drawn", "自摸", 2, (), definition="won on a tile drawn oneself"),
    Fan(3, "one_suit", "One Suit", "清一色", 10, ("win",), definition="every tile of one suit (no honors)"),
), name="toy")


def _one_suit(counts) -> bool:
    suits = {t // 9 for t in range(34) if counts[t]}
    return len(suits) == 1 and suits != {3}


class ToyEngine(Engine):
    """Its engine: its own predicates, in Python."""

    def score(self, rs, hand, ctx, flags, strict, wild):
        if wild["wildcards"] or wild["wildcard_tiles"]:
            raise mjfast.InvalidHand(f"rule set {rs.name!r} has no wildcards")
        h = mjfast.parse_hand(hand) if isinstance(hand, str) else hand
        given = {**{k: bool(ctx[k]) for k in ("self_drawn", "fourth_tile", "kong", "last_tile")}, **flags}
        dropped = ignored_flags(rs, given)          # every flag it does not read, worded once
        if dropped and (strict or rs.strict):
            raise mjfast.InvalidHand(strict_message(dropped))
        if h.n_tiles != 14 or not mjfast.is_win(h.counts, melds=len(h.melds)):
            raise mjfast.NotWinning(f"not a winning hand under rule set {rs.name!r}: {hand}")
        fans = {"win": 1, "self_drawn": int(bool(ctx["self_drawn"]))}
        if _one_suit(h.all_counts):
            fans.update(one_suit=1, win=0)          # One Suit excludes Win
        total = sum(TOY_TABLE[k].points * c for k, c in fans.items())
        return RuleScore(rs, total, fans, "regular", (), bool(ctx["self_drawn"]), 0, dropped)


def _settle(rs, total, self_drawn, discarder=None, **_):
    """Its settlement: the discarder pays the total (self-drawn: each of three)."""
    if self_drawn:
        return (3 * total, -total, -total, -total)
    if discarder not in (1, 2, 3):
        raise ValueError("give the discarder: 1, 2 or 3")
    out = [total, 0, 0, 0]
    out[discarder] = -total
    return tuple(out)


def _toy():
    return R.RuleSet(name="toy", title="a toy rule set: three fans", table=TOY_TABLE,
                     forms=("regular",), flags=("self_drawn",),
                     option_specs=(R.Option("min_points", 2, "the minimum to win"),
                                   R.Option("strict", False, "raise for a flag it does not read")),
                     engine="toy", engine_impl=ToyEngine(), settle_fn=_settle)


@pytest.fixture
def toy():
    # registered through the public registry; taken out again after the test
    # (the registry has no public way back: a rule set is registered for good)
    from mjfast.rules import base
    assert "toy" not in R.available()
    yield R.register(_toy())
    del base._REGISTRY["toy"]


PURE = "123m456m789m123m5m5m"        # one suit: 10
MIXED = "123m456m789m123p5p5p"       # win: 1
HANDS = [PURE, MIXED, "123m456m789m123p5p6p", "[EEE1]123m456m789m5m5m"]


# -- what it gets, with no change to mjfast ----------------------------------------------------

def test_registry_knows_it(toy):
    assert "toy" in R.available() and R.get("toy") is toy
    assert R.get("toy", min_points=0).option("min_points") == 0
    with pytest.raises(mjfast.InvalidArgument):
        R.get("toy", no_such=1)


def test_score(toy):
    assert mjfast.score(PURE, rules="toy").total == 10
    s = mjfast.score(MIXED, rules="toy", self_drawn=True)
    assert s.total == 3 and {f.key: f.count for f in s.fans} == {"win": 1, "self_drawn": 1}
    assert s.is_legal_win and not mjfast.score(MIXED, rules="toy").is_legal_win      # minimum 2
    assert s.settlement() == (9, -3, -3, -3)
    with pytest.raises(mjfast.NotWinning):
        mjfast.score("123m456m789m123p5p6p", rules="toy")
    # a flag it does not read: reported, an error under strict
    k = mjfast.score(MIXED, rules="toy", kong=True, heavenly_hand=True)
    assert set(k.ignored_flags) == {"kong", "heavenly_hand"}
    assert "has no fan that uses it" in k.ignored_flags["kong"]
    with pytest.raises(mjfast.InvalidHand, match="strict=True"):
        mjfast.score(MIXED, rules="toy", kong=True, strict=True)


@pytest.mark.parametrize("strict", [False, True])
def test_score_batch_agrees_with_score(toy, strict):
    recs = [{"hand": h, "self_drawn": sd, "kong": kg} for h in HANDS for sd in (False, True) for kg in (False, True)]
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs), rules="toy", strict=strict)
    assert res.fan_counts.shape == (len(recs), 3)
    for i, rec in enumerate(recs):
        kw = {k: v for k, v in rec.items() if k != "hand"}
        try:
            s = mjfast.score(rec["hand"], rules="toy", strict=strict, **kw)
        except mjfast.NotWinning:
            assert res.errors[i] == 2 and res.totals[i] == -1
            continue
        except mjfast.InvalidHand as exc:
            assert res.errors[i] == 1 and res.error_message(i) == str(exc)
            continue
        assert res.errors[i] == 0 and res.totals[i] == s.total and bool(res.legal[i]) == s.is_legal_win
        assert res.ignored_flags(i) == s.ignored_flags
        assert {f.key: int(c) for f, c in zip(TOY_TABLE, res.fan_counts[i]) if c} == \
            {f.key: f.count for f in s.fans}


def test_records_name_it(toy):
    batch = mjfast.HandBatch.from_records([{"hand": PURE, "rules": "toy"}, {"hand": MIXED, "rules": "toy",
                                                                             "self_drawn": True}])
    assert batch.rules is toy
    assert mjfast.score_batch(batch).totals.tolist() == [10, 3]
    out = jsonl.score_records([{"hand": PURE}, {"hand": MIXED, "self_drawn": True}], rules="toy")
    assert [o["total"] for o in out] == [10, 3] and all(o["rules"] == "toy" for o in out)
    assert [f["name"] for f in out[0]["fans"]] == ["One Suit"]


def test_command_line(toy, capsys):
    assert main(["score", MIXED, "--rules", "toy", "--self-drawn"]) == 0
    text = capsys.readouterr().out
    assert "Rules: toy" in text and "Self-Drawn" in text and "Legal win (at least 2" in text
    assert re.search(r"winner \(E\) +\+9\n", text) and re.search(r"1 left 上家 \(N\) +-3\n", text)
    assert main(["score", PURE, "--rules", "toy", "--discarder", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["total"] == 10 and d["rules"] == "toy" and d["settlement"]["seats"] == [10, 0, -10, 0]
    assert main(["score", "123m456m789m123p5p6p", "--rules", "toy"]) == 2
    assert "not a winning hand under rule set 'toy'" in capsys.readouterr().err
    assert main(["score", MIXED, "--rules", "toy", "--rule-option", "min_points=1"]) == 0
    assert "Legal win (at least 1" in capsys.readouterr().out
    # an option only another rule set's engine reads
    assert main(["score", MIXED, "--rules", "toy", "--dealer-repeats", "1"]) == 2
    assert "--dealer-repeats is for --rules zhuji" in capsys.readouterr().err
