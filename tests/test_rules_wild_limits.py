"""Each rule set's wildcard limit (docs/wildcards.md): more wildcards than a
rule set has are an InvalidHand naming them, in every function that takes
``wildcards=`` / ``wildcard_tiles=``, a bad record in a batch, and a one-line
error on the command line."""
import contextlib
import io
import json

import pytest

import mjfast
from mjfast import rules as R
from mjfast.batch_score import ERR_INVALID, ERR_OK
from mjfast.cli import main
from mjfast.io.jsonl import score_records


def test_each_rule_set_declares_its_limit():
    # the rule texts: old Shanghai's 百搭 共四张; Zhuji's 财神 one kind (4
    # tiles) or two adjacent kinds (8); Guizhou none; MCR, 大众 and two-player
    # have none in their rules and take the wildcard analysis' jokers (8)
    want = {"mcr": 8, "dazhong": 8, "two_player": 8, "shanghai_old": 4, "zhuji": 8, "guizhou": 0}
    assert {n: R.get(n).max_wildcards for n in R.available()} == want
    assert R.get("zhuji", wildcards=["5p"]).max_wildcards == 4
    assert R.get("zhuji", wildcards=["5p", "6p"]).max_wildcards == 8


def test_the_issue_hand():
    # four 百搭 plus 9 real tiles is no old-Shanghai hand: five were asked for
    with pytest.raises(mjfast.InvalidHand, match=r"wildcards: 5 wildcards.*'shanghai_old'.*at most 4"):
        mjfast.score("123m456p789s", rules="shanghai_old", wildcards=5, self_drawn=True)
    # four are fine: the same 500 the hand scored before, now with a real tile more
    assert mjfast.score("123m456p789s5p", rules="shanghai_old", wildcards=4, self_drawn=True).total == 500


_READY = "123m456p78s"          # 8 tiles: + 5 wildcards = 13, a ready hand
_WIN = "123m456p789s"           # 9 tiles: + 5 = 14


@pytest.mark.parametrize("fn, hand", [("score", _WIN), ("is_win", _WIN), ("decompose", _WIN),
                                      ("waits", _READY), ("shanten", _READY), ("useful_tiles", _READY)])
def test_every_function_refuses_more_than_the_limit(fn, hand):
    f = getattr(mjfast, fn)
    with pytest.raises(mjfast.InvalidHand, match="wildcards: 5 wildcards, but rule set 'shanghai_old'"):
        f(hand, rules="shanghai_old", wildcards=5)
    # under MCR (the analysis, 8) the same call is no error of the limit
    try:
        f(hand, wildcards=5)
    except mjfast.NotWinning:
        pass
    # wildcard_tiles: five tiles of two wild kinds held
    held = hand + "CCCFF"
    with pytest.raises(mjfast.InvalidHand, match="wildcard_tiles: 5 wildcards"):
        f(held, rules="shanghai_old", wildcard_tiles=["C", "F"])


def test_guizhou_takes_none():
    with pytest.raises(mjfast.InvalidHand, match="wildcards: rule set 'guizhou' plays no wildcards"):
        mjfast.score("123m456p789s5s5s", rules="guizhou", wildcards=1)


def test_a_drawn_wildcard_past_the_limit_is_no_wait():
    # four 百搭 held: a fifth cannot be drawn under old Shanghai; the
    # analysis (MCR) has room for it
    assert mjfast.wild.WILDCARD not in mjfast.waits("123m456p789s", rules="shanghai_old", wildcards=4)
    assert mjfast.wild.WILDCARD in mjfast.waits("123m456p789s", wildcards=4)
    assert mjfast.wild.WILDCARD in mjfast.waits("123m456p789sE", rules="shanghai_old", wildcards=3)


def test_batches_flag_the_record_and_go_on():
    recs = [dict(hand="123m456p789s", wildcards=5, self_drawn=True),
            dict(hand="123m456p789s5p", wildcards=4, self_drawn=True),
            dict(hand="123m456p789sCCCFF", wildcard_tiles=["C", "F"], self_drawn=True)]
    res = mjfast.score_batch(recs, rules="shanghai_old")
    assert res.errors.tolist() == [ERR_INVALID, ERR_OK, ERR_INVALID]
    assert "wildcards: 5 wildcards" in res.error_message(0) and "'shanghai_old'" in res.error_message(0)
    assert "wildcard_tiles: 5 wildcards" in res.error_message(2)
    assert res.totals[1] == 500
    # the JSON-lines path: the same record is an error line, the next one scored
    out = score_records([dict(recs[0], id="a"), dict(recs[1], id="b")], rules="shanghai_old")
    assert "wildcards: 5 wildcards" in out[0]["error"] and out[1]["total"] == 500
    # a record naming its rule set
    out = score_records([dict(recs[0], rules="shanghai_old"), dict(recs[0])])
    assert "error" in out[0] and out[1]["total"] > 0       # MCR's analysis takes five


def test_command_line_one_line_error():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", "123m456p789s", "--rules", "shanghai_old", "--wildcards", "5", "--self-drawn"])
    lines = err.getvalue().strip().splitlines()
    assert code != 0 and len(lines) == 1 and lines[0].startswith("mjfast: error: wildcards: 5 wildcards")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", "123m456p789s5p", "--rules", "shanghai_old", "--wildcards", "4", "--self-drawn",
                     "--json"])
    assert code == 0 and json.loads(out.getvalue().strip().splitlines()[-1])["total"] == 500
