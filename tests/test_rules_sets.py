"""Rule sets as values: the interface (mjfast.rules), ``rules="mcr"`` being
bit-for-bit today's engine, the MCR options (knitted-straight wait,
min_points, strict), the ``dazhong`` rule set, and ``rules=`` through the
batch, JSONL and command-line paths.  Two-player hands: test_rules_two_player.py.
"""
from __future__ import annotations

import io
import json

import numpy as np
import pytest

import handgen
import mjfast
from mjfast.scoring.batch_result import on_mcr_columns as _on_mcr_columns
from mjfast import rules as R
from mjfast import score, score_batch
from mjfast.io.jsonl import score_records

KNIT = "258m23469p14788s3p"     # knitted straight 147s 258m 369p + 234p + 88s, won on 3p


def fans(s):
    return {f.key: f.count for f in s.fans}


# -- the interface -----------------------------------------------------------

def test_registry():
    # MCR first, then by name; other rule sets register themselves beside these
    names = R.available()
    assert {"mcr", "dazhong", "two_player", "guizhou", "zhuji", "shanghai_old"} <= set(names)
    assert names == ("mcr",) + tuple(sorted(n for n in names if n != "mcr"))
    for name in R.available():
        rs = R.get(name)
        assert rs.name == name and R.get(rs) is rs
        assert rs.options == rs.defaults and not rs.changed_options
        assert rs.describe().startswith(name)
    assert R.get() is R.get("mcr") is R.MCR_RULES
    with pytest.raises(mjfast.UnknownRules, match="unknown rule set 'riichi'"):
        R.get("riichi")
    with pytest.raises(TypeError):
        R.get(3)


def test_with_options_is_a_new_value():
    a = R.get("mcr")
    b = a.with_options(min_points=0)
    assert a.options["min_points"] == 8 and b.options["min_points"] == 0
    assert b != a and b == R.get("mcr", min_points=0) and hash(b) == hash(R.get("mcr", min_points=0))
    assert b.changed_options == {"min_points": 0}
    with pytest.raises(mjfast.InvalidOption, match="min_points"):
        a.with_options(min_points=-1)
    with pytest.raises(TypeError, match="min_points"):
        a.with_options(min_points="8")
    with pytest.raises(mjfast.InvalidOption, match="knitted_straight_wait"):
        a.with_options(knitted_straight_wait="maybe")
    assert a.with_option_text(["min-points=0", "strict=true"]).options["strict"] is True


def test_rule_set_data():
    mcr, tp = R.get("mcr"), R.get("two_player")
    assert len(mcr.tiles) == 34 and mcr.forms == mjfast.FORMS and mcr.table is R.MCR
    assert sorted(tp.tiles) == list(range(9)) + list(range(27, 34))
    assert tp.forms == ("regular", "seven_pairs") and tp.players == 2
    assert {"heavenly_hand", "ready_at_start"} <= set(tp.flags)
    assert "heavenly_hand" not in mcr.flags
    for rs in map(R.get, R.available()):
        for o in rs.option_specs:
            assert o.doc and o.source, (rs.name, o.name)


# -- rules="mcr" is today's engine ----------------------------------------------

def _records(n, seed):
    return list(handgen.iter_winning_records(n, seed=seed))


def _assert_same(recs):
    batch = mjfast.HandBatch.from_records(recs)
    plain = score_batch(batch)
    named = score_batch(batch, rules="mcr")
    obj = score_batch(batch, rules=R.MCR_RULES)
    for r in (named, obj):
        assert np.array_equal(r.totals, plain.totals)
        assert np.array_equal(r.fan_counts, plain.fan_counts)
        assert np.array_equal(r.legal, plain.legal)
        assert np.array_equal(r.errors, plain.errors)
    return plain


def test_mcr_by_name_is_bit_for_bit_the_default_engine():
    recs = _records(20000, seed=77)
    _assert_same(recs)
    for rec in recs[:2000]:
        args = {k: v for k, v in rec.items() if k != "hand"}
        a, b = score(rec["hand"], **args), score(rec["hand"], rules="mcr", **args)
        assert (a.total, fans(a), a.decomposition, a.form) == (b.total, fans(b), b.decomposition, b.form)


@pytest.mark.slow
def test_mcr_by_name_million():
    # the 1M-hand corpus of the differential test (seed 2026), in chunks
    gen = handgen.iter_winning_records(1_000_000, seed=2026)
    done = 0
    while True:
        chunk = [r for _, r in zip(range(100_000), gen)]
        if not chunk:
            break
        _assert_same(chunk)
        done += len(chunk)
    assert done == 1_000_000


# -- MCR options -------------------------------------------------------------------

def test_knitted_straight_wait_option():
    # Before the win: 258m 2469p 14788s waits on 3p only.  The reference
    # scores Closed Wait (3p between 2p and 4p): Knitted Straight 12 +
    # Concealed Hand 2 + All Chows 2 + Closed Wait 1 = 17.  The ruling of the
    # 2021 interpretation (GB-Mahjong): 3p is also one of the knitted tiles,
    # so no wait fan: 16.
    assert score(KNIT).total == 17
    ruled = R.get("mcr", knitted_straight_wait="not_scored")
    s = score(KNIT, rules=ruled)
    assert s.total == 16 and "closed_wait" not in fans(s)
    assert score_batch([KNIT], rules=ruled).totals[0] == 16
    # a wait on a tile that is not a knitted one keeps its fan: 147s 258m
    # 369p 46p 99s + 5p completes 456p (closed) beside the straight: 17 either way
    s2 = score("147s258m369p46p99s5p", rules=ruled)
    assert "closed_wait" in fans(s2) and s2.total == score("147s258m369p46p99s5p").total


def test_min_points_option():
    # melded 123m 456m, 789p 11s 23p + 4p: All Chows 2 + Short Straight
    # (123m 456m) 1 = 3, below 8 (23p waits on 1p and 4p: no wait fan)
    small = "[123m1][456m1]789p11s23p4p"
    s = score(small)
    assert s.total == 3
    assert s.points_without_flowers < 8 and not s.is_legal_win
    assert score(small, rules=R.get("mcr", min_points=0)).is_legal_win
    res = score_batch([small], rules=R.get("mcr", min_points=0))
    assert res.legal[0] and not score_batch([small]).legal[0]
    assert score(small, rules=R.get("mcr", min_points=0)).total == s.total


def test_strict_option():
    # fourth_tile with another copy of the winning tile in hand cannot hold
    hand = "123m456m789m123p5p5p"
    assert "fourth_tile" in score(hand, fourth_tile=True).ignored_flags
    with pytest.raises(mjfast.InvalidHand, match="fourth_tile"):
        score(hand, fourth_tile=True, rules=R.get("mcr", strict=True))
    res = score_batch([{"hand": hand, "fourth_tile": True}], rules=R.get("mcr", strict=True))
    assert res.errors[0] == 1 and "fourth_tile" in res.error_message(0)


def test_flags_mcr_does_not_use():
    s = score("123m456m789m123p5p5p", heavenly_hand=True)
    assert "heavenly_hand" in s.ignored_flags and s.total == score("123m456m789m123p5p5p").total
    with pytest.raises(TypeError):
        score("123m456m789m123p5p5p", heavenly=True)


# -- dazhong -------------------------------------------------------------------------

# (hand, context, fan the 大众 page also removes, the fan that removes it)
DAZHONG = [
    # 123 123 123 123m 5p5p: Quadruple Chow 48 + Concealed Hand 2 + All Chows 2
    # + One Voided Suit 1 + Single Wait 1 = 54 in MCR; the page's 一色四同顺
    # list ends with 缺一门: 53.
    ("123m123m123m123m5p5p", {}, "one_voided_suit", "quadruple_chow", 54),
    # 111 222 333 444m 5p5p: Four Concealed Pungs 64 + Four Pure Shifted Pungs
    # 48 + Pung of T/H 1 + One Voided Suit 1 + No Honors 1 + Single Wait 1 =
    # 116; the page removes 缺一门 (一色四节高) and, on a discard, 单钓将
    # (四暗刻: 放炮和牌不计单钓将): 114.
    ("111m222m333m444m5p5p", {}, ("one_voided_suit", "single_wait"), "four_pure_shifted_pungs", 116),
    ("123m234m345m456m9p9p", {}, "one_voided_suit", "four_pure_shifted_chows", 38),
    ("EEESSSWWW123m4p4p", {}, "one_voided_suit", "big_three_winds", 36),
    ("CCCFFFPP123m78p9p", {}, "one_voided_suit", "little_three_dragons", 73),
    ("111m222p333s444mEE", {}, "single_wait", "four_concealed_pungs", 74),
    # Nine Gates won on 2m: 111 22 345 678 999 -- MCR removes one Pung of
    # Terminals or Honors and keeps the other; the page lists 幺九刻 whole.
    ("1112345678999m2m", {}, "pung_of_terminals_or_honors", "nine_gates", 92),
]


@pytest.mark.parametrize("hand,ctx,gone,by,mcr_total", DAZHONG)
def test_dazhong_fuller_exclusions(hand, ctx, gone, by, mcr_total):
    gone = (gone,) if isinstance(gone, str) else gone
    a = score(hand, **ctx)
    b = score(hand, rules="dazhong", **ctx)
    assert a.total == mcr_total and by in fans(a) and all(g in fans(a) for g in gone)
    assert by in fans(b) and not any(g in fans(b) for g in gone)
    assert b.total == a.total - sum(R.MCR[g].points * fans(a)[g] for g in gone)
    assert {k: v for k, v in fans(a).items() if k not in gone} == fans(b)
    assert score_batch([dict(hand=hand, **ctx)], rules="dazhong").totals[0] == b.total


def test_dazhong_single_wait_kept_when_self_drawn():
    # "放炮和牌不计单钓将": only a discard win loses the Single Wait
    s = score("111m222p333s444mEE", rules="dazhong", self_drawn=True)
    assert "single_wait" in fans(s)


def test_dazhong_no_minimum_and_settlement():
    small = "[123m1][456m1]789p11s23p4p"
    a, b = score(small), score(small, rules="dazhong")
    assert a.total == b.total and not a.is_legal_win and b.is_legal_win
    # settlement as MCR's: discard, discarder 1 pays 8 + F, the other two 8
    f = b.total
    assert b.settlement(1) == (24 + f, -(8 + f), -8, -8)
    # a hand with no fan at all is Chicken Hand (8): no win is ever worth 0
    # (melded 234m 456p 678s, EE + 555m on a discard, seat and round south)
    ch = score("[234m1][456p1][678s1]EE55m5m", rules="dazhong", seat_wind="S", round_wind="S")
    assert fans(ch) == {"chicken_hand": 1} and ch.total == 8


def test_dazhong_differs_only_by_its_page():
    # on the corpus: with MCR's chow limit (chow_pair_fans="count_once") every
    # dazhong result is the MCR result less the fans the page's extra 不计
    # entries remove, only beside the fan that removes them, and with 明暗杠
    # (not in the page's table) scored as 明杠 + 暗杠; the page's own chow
    # reading only adds, and only beside a Mixed Straight (the one 3-chow fan
    # whose leftover chow can make two kinds of chow-pair fan)
    extra = {"one_voided_suit": {"little_four_winds", "little_three_dragons", "quadruple_chow",
                                 "four_pure_shifted_pungs", "four_pure_shifted_chows", "big_three_winds"},
             "single_wait": {"four_concealed_pungs"},
             "pung_of_terminals_or_honors": {"nine_gates"}}
    recs = _records(20000, seed=5)
    batch = mjfast.HandBatch.from_records(recs)
    a = score_batch(batch)
    b = score_batch(batch, rules="dazhong")
    c = score_batch(batch, rules=R.get("dazhong", chow_pair_fans="count_once"))
    assert b.fan_counts.shape[1] == c.fan_counts.shape[1] == 81 == len(R.get("dazhong").table)
    keys = a.fan_keys
    bm, cm = _on_mcr_columns(b), _on_mcr_columns(c)
    kong2 = keys.index("concealed_kong_and_melded_kong")
    assert not bm[:, kong2].any() and not cm[:, kong2].any()
    changed = 0
    for i in np.flatnonzero(a.totals != c.totals):
        changed += 1
        diff = a.fan_counts[i].astype(int) - cm[i].astype(int)
        present = {keys[j] for j in np.flatnonzero(a.fan_counts[i])}
        for j in np.flatnonzero(diff):
            if keys[j] == "concealed_kong_and_melded_kong":
                assert diff[j] == 1 and cm[i, keys.index("melded_kong")] == cm[i, keys.index("concealed_kong")] == 1
            elif keys[j] in ("melded_kong", "concealed_kong"):
                assert diff[j] == -1 and a.fan_counts[i, kong2] == 1
            else:
                assert diff[j] > 0 and keys[j] in extra and present & extra[keys[j]], (recs[i], keys[j])
    assert changed > 0
    assert np.all(c.totals <= a.totals)
    assert c.legal[a.errors == 0].all() and b.legal[a.errors == 0].all()          # no minimum
    more = np.flatnonzero(b.totals != c.totals)
    assert np.all(b.totals >= c.totals) and more.size > 0
    assert bm[more, keys.index("mixed_straight")].all()


# -- rules through records, JSONL and the command line ----------------------------------

def test_records_carry_rules():
    out = score_records([{"hand": "123m456m789mEEE5m5m", "rules": "two_player"},
                         {"hand": KNIT},
                         {"hand": KNIT, "rules": "nope"},
                         {"hand": "123p456m789mEEE5m5m", "rules": "two_player"}])
    assert out[0]["rules"] == "two_player" and out[0]["total"] == 33
    assert out[1]["total"] == 17 and "rules" not in out[1]
    assert "unknown rule set 'nope'" in out[2]["error"]
    assert "two_player" in out[3]["error"]
    # a default for records that do not name one
    out = score_records([{"hand": KNIT}, {"hand": KNIT, "rules": "mcr"}],
                        rules=R.get("dazhong", knitted_straight_wait="not_scored"))
    assert out[0]["total"] == 16 and out[0]["rules"] == "dazhong" and out[1]["total"] == 17


def test_handbatch_rules():
    b = mjfast.HandBatch.from_strings(["123m456m789mEEE5m5m"], rules="two_player")
    assert b.rules is R.get("two_player")
    assert score_batch(b).totals[0] == 33
    b = mjfast.HandBatch.from_records([{"hand": "123m456m789mEEE5m5m", "rules": "two_player",
                                        "self_drawn": True, "heavenly_hand": True}])
    assert b.rules.name == "two_player" and score_batch(b).totals[0] == 119


def _cli(*argv):
    from mjfast.cli import main
    import contextlib
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_cli_rules():
    code, out = _cli("score", KNIT, "--rule-option", "knitted_straight_wait=not_scored", "--json")
    assert code == 0 and json.loads(out)["total"] == 16
    code, out = _cli("score", "123m456m789mEEE5m5m", "--rules", "two_player", "--json")
    d = json.loads(out)
    assert d["total"] == 33 and d["rules"] == "two_player" and d["settlement"]["seats"] == [33, -33]
    code, out = _cli("shanten", "119mESWNCFP1234m", "--rules", "two_player", "--json")
    assert json.loads(out)["shanten"] == 4
    code, out = _cli("rules", "--json")
    assert [r["name"] for r in json.loads(out)] == list(R.available())
    code, out = _cli("fans", "--rules", "two_player", "--json")
    assert len(json.loads(out)) == len(R.get("two_player").table)
    assert _cli("score", KNIT, "--rule-option", "bogus=1")[0] == 2
