"""The fan kernel on our own tile index (src/fankernel/): hands at the suit
boundaries, against the reference calculator.

In our index 9m (8) and 1p (9) are consecutive numbers, and the kernel's sets
are named by our index (a chow by its lowest tile), so every "consecutive
tiles" test has to check the suit too.  Each hand below holds sets that sit
next to each other across a boundary (m/p, p/s, and s before p in the
reference's reading order) and would score a fan they do not make if a test
forgot the suit; the reference (PyMahjongGB, test-only) scores them without.
"""
import os
import sys

import pytest

import mjfast

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import oracle_score  # noqa: E402

HANDS = [
    # pungs 9m 1p 2p (8, 9, 10): not Pure Shifted Pungs
    "999m111222p345s77s",
    # pungs 9m 1p 2p 3p: not Four Pure Shifted Pungs
    "999m111222333p55s",
    # pungs 9p 1s 2s (17, 18, 19)
    "999p111222s345m77m",
    # chows 789m 123p 456p (lowest tiles 6, 9, 12): not a Pure Straight
    "789m123456p111s99s",
    # chows 789p 123s 456s
    "789p123456s111m99m",
    # 789m + 123p: not a Short Straight; 789m + 789p Mixed Double Chow stays
    "789m123789p555s99s",
    # winning on 9m as the pair beside a 123p chow: the single wait is not
    # shared with the chow (only a chow of the same suit would share it)
    "123p456p789s111s9m9m",
    # the same beside a 1p pung
    "111p456p789s123s9m9m",
    # winning on 1p as the pair beside 789m / a 9m pung
    "789m456s789s123s1p1p",
    "999m456s789s123s1p1p",
    # terminal chows in dots and bamboo (suits 1 and 2 here, 3 and 2 in the
    # reference's order), and in one suit
    "123789p123789s55m",
    "11223355778899m",
    # chows in m, s and p, read in the reference's order (m, s, p)
    "234m345s456p567pEE",
    "345m234s456p678s99m",
    "123m123s123p123s99p",
    # pungs in m, s and p
    "222m333s444p555pEE",
    "444m222s333p567m88p",
    # the same boundaries in melds (a claimed chow named by its lowest tile)
    "[999m1][111p1]222p345s77s",
    "[789m1][123p2]456p111s99s",
    "[123p1]456p789s111s9m9m",
    "[789p3][123s1][789s2]123p55m",
]


def _records():
    for hand in HANDS:
        for self_drawn in (False, True):
            yield {"hand": hand, "self_drawn": self_drawn}


@pytest.mark.oracle
@pytest.mark.parametrize("rec", list(_records()), ids=lambda r: f"{r['hand']}-{'sd' if r['self_drawn'] else 'd'}")
def test_suit_boundaries_score_as_the_reference(rec):
    ref_total, ref_fans = oracle_score(rec)
    s = mjfast.score(rec["hand"], self_drawn=rec["self_drawn"])
    assert s.total == ref_total
    assert {f.name: (f.points, f.count) for f in s.fans} == ref_fans


def test_reading_names_chows_by_their_lowest_tile():
    # the kernel's sets come back in our index, a chow by its lowest tile
    r = mjfast.decompose("789m123456p111s99s")
    assert r[0][0] == "regular"
    assert ("chow", 6) in r[0][1] and ("chow", 9) in r[0][1] and ("chow", 12) in r[0][1]
