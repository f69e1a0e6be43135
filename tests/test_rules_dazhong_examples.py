"""dazhong (大众麻将) against its own rule page: every worked example of the
page scores exactly as printed, and the fan table is the page's, entry by
entry.

The examples and the table are transcribed in tests/data (dazhong_examples.txt,
dazhong_table.txt; their headers name the page).  The page's printing errors
are read from docs/rules.md (the dazhong section's table), so the list the
users read is the list the test applies.
"""
import collections
import os
import re

import numpy as np
import pytest

import mjfast
from mjfast import rules as R

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_SUITS = {"万": "m", "饼": "p", "条": "s"}
_HONORS = {"东风": "E", "南风": "S", "西风": "W", "北风": "N", "中": "C", "发": "F", "白": "P"}
_NUMERALS = "一二三四五六七八九"
# names the examples use for fans of the table (docs/rules.md says so)
_OTHER_NAMES = {"断幺九": "断幺", "嵌张": "坎张"}


def _tile(text):
    """The page's name of a tile ("9饼", "七万", "南风", "白") as notation."""
    if text in _HONORS:
        return _HONORS[text]
    rank = text[0]
    if rank in _NUMERALS:
        rank = str(_NUMERALS.index(rank) + 1)
    return rank + _SUITS[text[1:]]


def _examples():
    with open(os.path.join(HERE, "data", "dazhong_examples.txt"), encoding="utf-8") as f:
        text = f.read()
    out = []
    for block in re.split(r"^== ", text, flags=re.M)[1:]:
        lines = [ln.strip() for ln in block.strip().splitlines() if ln.strip()]
        ex = {"name": lines[0], "context": {}, "printed": []}
        for ln in lines[1:]:
            if ln.startswith("hand: "):
                ex["hand"] = ln[6:]
            elif ln.startswith("context: "):
                ex["context"] = dict(kv.split("=") for kv in ln[9:].split())
            elif ln.startswith("和："):
                ex["win"] = ln[2:]
            else:
                assert re.fullmatch(r"\S+：\d+番", ln), (lines[0], ln)
                ex["printed"].append(ln)
        out.append(ex)
    return out


def _printing_errors():
    """{(example, printed line): corrected line or None} from docs/rules.md."""
    with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as f:
        doc = f.read()
    part = doc[doc.index("### The page's worked examples"):]
    part = part[:part.index("\n## ")]
    rows = {}
    for ln in part.splitlines():
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) == 4 and "：" in cells[1]:
            rows[(cells[0], cells[1])] = None if cells[2] == "–" else cells[2]
    return rows


EXAMPLES = _examples()
ERRORS = _printing_errors()
ZH = {f.zh: f for f in R.get("dazhong").table}


def _fans(lines):
    """({fan key: count}, total) of example lines "name：N番"."""
    fans = collections.Counter()
    total = 0
    for ln in lines:
        name, pts = ln.split("：")
        fan = ZH[_OTHER_NAMES.get(name, name)]
        assert int(pts[:-1]) == fan.points, ln      # the printed points are the table's
        fans[fan.key] += 1
        total += fan.points
    return dict(fans), total


def _corrected(ex):
    out = []
    for ln in ex["printed"]:
        key = (ex["name"], ln)
        if key in ERRORS:
            if ERRORS[key] is not None:
                out.append(ERRORS[key])
        else:
            out.append(ln)
    return out


def test_the_transcription_is_whole():
    # the page has 63 examples, one per table row that shows one, each under
    # its own row's fan, and five printing errors in docs/rules.md
    assert len(EXAMPLES) == 63
    names = [e["name"] for e in EXAMPLES]
    assert len(set(names)) == 63 and set(names) <= {_OTHER_NAMES.get(n, n) for n in ZH}
    assert len(ERRORS) == 5
    # each listed error is a line of its example, printed exactly so
    for (name, line) in ERRORS:
        assert line in next(e for e in EXAMPLES if e["name"] == name)["printed"], (name, line)


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e["name"] for e in EXAMPLES])
def test_example_scores_as_printed(ex):
    hand = mjfast.parse_hand(ex["hand"])
    assert hand.tiles[-1] == mjfast.tile_index(_tile(ex["win"]))       # won on the printed tile
    want, total = _fans(_corrected(ex))
    s = mjfast.score(ex["hand"], rules="dazhong", **ex["context"])      # a discard win, as on the page
    assert {f.key: f.count for f in s.fans} == want
    assert s.total == total
    # the batch path scores it alike, in the table's columns
    rec = dict(hand=ex["hand"], **ex["context"])
    res = mjfast.score_batch([rec], rules="dazhong")
    assert res.totals[0] == total
    assert {k: c for k, c in zip(res.fan_keys, res.fan_counts[0].tolist()) if c} == want


def test_printed_errors_do_not_score_as_printed():
    # the corrections are needed: as printed, those examples do not score
    for ex in EXAMPLES:
        if any((ex["name"], ln) in ERRORS for ln in ex["printed"]):
            printed = collections.Counter(ln.split("：")[0] for ln in ex["printed"])
            s = mjfast.score(ex["hand"], rules="dazhong", **ex["context"])
            got = collections.Counter()
            for f in s.fans:
                got[f.zh] += f.count
            fixed = collections.Counter(_OTHER_NAMES.get(n, n) for n in printed.elements())
            wrong_points = sum(int(ln.split("：")[1][:-1]) for ln in ex["printed"]) != s.total
            assert got != fixed or wrong_points, ex["name"]


def test_chow_pair_fans_option():
    # 花龙 / 连六: the page scores the leftover chow's 喜相逢 and 连六 both;
    # count_once (MCR's account once) keeps one, as the reference does
    once = R.get("dazhong", chow_pair_fans="count_once")
    for name in ("花龙", "连六"):
        ex = next(e for e in EXAMPLES if e["name"] == name)
        want, total = _fans(_corrected(ex))
        assert want["mixed_double_chow"] == want["short_straight"] == 1
        s = mjfast.score(ex["hand"], rules=once, **ex["context"])
        got = {f.key: f.count for f in s.fans}
        assert "short_straight" not in got and got["mixed_double_chow"] == 1 and s.total == total - 1
        m = mjfast.score(ex["hand"])
        assert {f.key: f.count for f in m.fans}.get("short_straight") is None
        assert mjfast.score_batch([ex["hand"]], rules=once).totals[0] == total - 1


def _page_table():
    """[(points, name, [the 不计 column's items])] of the page's table."""
    with open(os.path.join(HERE, "data", "dazhong_table.txt"), encoding="utf-8") as f:
        rows = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    out = []
    for ln in rows:
        head, _, excl = ln.partition(" | ")
        pts, name = head.split()
        out.append((int(pts), name, [x for x in re.split(r"[、\s；.]+", excl) if x]))
    return out


def test_the_table_is_the_page():
    # one entry per row of the page's table, with its points, and nothing else
    rows = _page_table()
    page = {name: pts for pts, name, _ in rows}
    assert len(rows) == len(page) == 81
    table = R.get("dazhong").table
    assert {f.zh: f.points for f in table} == page
    assert "concealed_kong_and_melded_kong" not in table and len(table) == 81
    # the same records as MCR's, ids kept (the compiled engine scores on them)
    assert all(R.MCR[f.id].key == f.key and R.MCR[f.id].points == f.points for f in table)


def test_no_result_holds_a_fan_its_page_list_removes():
    # the page's 不计 lists, entry by entry, on generated hands: no dazhong
    # result scores a fan together with one that fan's list names (prose
    # entries, such as 四暗刻's 放炮和牌不计单钓将, are checked beside)
    import handgen
    lists = {}
    for _pts, name, items in _page_table():
        named = [ZH[_OTHER_NAMES.get(x, x)].key for x in items if _OTHER_NAMES.get(x, x) in ZH]
        if named:
            lists[ZH[name].key] = set(named)
    assert len(lists) >= 40 and lists["quadruple_chow"] >= {"one_voided_suit", "pure_triple_chow"}
    recs = list(handgen.iter_winning_records(30000, seed=11))
    res = mjfast.score_batch(recs, rules="dazhong")
    keys = res.fan_keys
    seen = collections.Counter()
    for i in np.flatnonzero(res.errors == 0):
        got = {keys[j] for j in np.flatnonzero(res.fan_counts[i])}
        for k in got & set(lists):
            seen[k] += 1
            assert not got & lists[k], (recs[i], k, got & lists[k])
        if "four_concealed_pungs" in got and not recs[i].get("self_drawn"):
            assert "single_wait" not in got, recs[i]
    assert len(seen) >= 25          # the corpus meets most of the fans with a list


def test_melded_and_concealed_kong():
    # no 明暗杠 on the page: one melded + one concealed kong score 明杠 1 +
    # 暗杠 2; the concealed kong still counts as a concealed pung
    h = "[1111m1][2222p]345s678s9s9s"
    d = {f.key: f.count for f in mjfast.score(h, rules="dazhong").fans}
    assert d == {"melded_kong": 1, "concealed_kong": 1, "short_straight": 1,
                 "pung_of_terminals_or_honors": 1, "no_honors": 1}
    assert mjfast.score(h, rules="dazhong").total == 6
    m = mjfast.score(h)
    assert "concealed_kong_and_melded_kong" in m and m.total == 8
    # with a concealed pung beside them: Two Concealed Pungs (kong + pung)
    h2 = "[1111m1][2222p]345s777s9s9s"
    d2 = {f.key for f in mjfast.score(h2, rules="dazhong").fans}
    assert {"melded_kong", "concealed_kong", "two_concealed_pungs"} <= d2
    res = mjfast.score_batch([h, h2], rules="dazhong")
    assert res.totals[0] == 6 and res.fan_counts.shape[1] == 81
    assert "Concealed Kong and Melded Kong" not in res.fan_names


def test_no_hand_fits_the_upper_tiles_example_as_printed():
    # docs/rules.md lists the 全大 example's 单钓将 as a printing error: every
    # concealed hand of 7-9 tiles (four sets of 789 chows and 777 / 888 / 999
    # pungs) with a 9饼 pair that scores the example's other fans also wins on
    # another tile, so none scores Single Wait
    import itertools
    others = {"upper_tiles": 1, "concealed_hand": 1, "tile_hog": 1, "two_concealed_pungs": 1,
              "mixed_double_chow": 1, "pung_of_terminals_or_honors": 1}
    sets = [f"789{s}" for s in "mps"] + [f"{r}{r}{r}{s}" for s in "mps" for r in (7, 8, 9)]
    fits = []
    for combo in itertools.combinations_with_replacement(sets, 4):
        hand = "".join(combo) + "9p9p"
        try:
            s = mjfast.score(hand, rules="dazhong")
        except mjfast.InvalidHand:
            continue                    # a fifth copy
        got = {f.key: f.count for f in s.fans}
        if {k: v for k, v in got.items() if k != "single_wait"} == others:
            fits.append(hand)
            assert "single_wait" not in got, hand
            assert len(mjfast.waits(hand[:-2])) > 1, hand
    assert len(fits) == 16
