"""Every MCR settlement path against one hand-worked table.

The settlement (base 8, F = the hand's points with flowers: self-drawn, each
other player pays 8 + F; on a discard the discarder pays 8 + F and the other
two 8) is written once, in the mcr rule set (compiled:
src/fankernel/mcr_settle.pxd).  Score.settlement, RuleSet.settle /
settle_seats, the compiled game engine, the Python game engine, the log
scorer and the command line all reach it; each is held here to the same
worked numbers, so that a copy that drifted would fail.  The minimum to win
is checked the same way: one value, read by the engines' win checks.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import mjfast
from mjfast import _core, _fans
from mjfast.cli import main
from mjfast.game import GameState, IllegalAction
from mjfast.game.fast import selfplay
from mjfast.logs.scoring import settlement as log_settlement
from mjfast.rules import DAZHONG, MCR_RULES

# (hand, flowers) -> F, worked by hand from the fan table:
#   123m456m789m123p5p5p: Pure Straight 16, Mixed Double Chow 1, Concealed
#   Hand 2, Single Wait 1, All Chows 2, No Honors 1 = 23 (24 self-drawn:
#   Fully Concealed Hand 4 replaces Concealed Hand 2, and the 5p is a single
#   wait either way)
HAND = "123m456m789m123p5p5p"
F_DISCARD = {0: 23, 3: 26}
F_SELF = {0: 25, 3: 28}

# relative seats (winner, left 上家, opposite 对家, right 下家), worked by hand
RELATIVE = {
    # (F, self_drawn, discarder): changes
    (8, True, None): (48, -16, -16, -16),
    (23, True, None): (93, -31, -31, -31),
    (25, True, None): (99, -33, -33, -33),
    (28, True, None): (108, -36, -36, -36),
    (0, True, None): (24, -8, -8, -8),
    (8, False, 1): (32, -16, -8, -8),
    (8, False, 2): (32, -8, -16, -8),
    (8, False, 3): (32, -8, -8, -16),
    (23, False, 1): (47, -31, -8, -8),
    (23, False, 2): (47, -8, -31, -8),
    (23, False, 3): (47, -8, -8, -31),
    (26, False, 1): (50, -34, -8, -8),
    (26, False, 2): (50, -8, -34, -8),
    (26, False, 3): (50, -8, -8, -34),
    (0, False, 2): (24, -8, -8, -8),
}

# absolute seats (E S W N in play order), F = 26 (the hand with 3 flowers on a
# discard) and F = 28 (self-drawn with 3 flowers): every winner, every discarder
ABSOLUTE = {
    # (winner, discarder or None): changes by seat
    (0, None): (108, -36, -36, -36),
    (1, None): (-36, 108, -36, -36),
    (2, None): (-36, -36, 108, -36),
    (3, None): (-36, -36, -36, 108),
    (0, 1): (50, -34, -8, -8),
    (0, 2): (50, -8, -34, -8),
    (0, 3): (50, -8, -8, -34),
    (1, 0): (-34, 50, -8, -8),
    (1, 2): (-8, 50, -34, -8),
    (1, 3): (-8, 50, -8, -34),
    (2, 0): (-34, -8, 50, -8),
    (2, 1): (-8, -34, 50, -8),
    (2, 3): (-8, -8, 50, -34),
    (3, 0): (-34, -8, -8, 50),
    (3, 1): (-8, -34, -8, 50),
    (3, 2): (-8, -8, -34, 50),
}


def test_the_worked_hands_are_worth_what_the_table_says():
    for fl, f in F_DISCARD.items():
        assert mjfast.score(HAND, flowers=fl).total == f
    for fl, f in F_SELF.items():
        assert mjfast.score(HAND, self_drawn=True, flowers=fl).total == f


@pytest.mark.parametrize("rs", [MCR_RULES, DAZHONG], ids=lambda r: r.name)
def test_rule_set_settle(rs):
    for (f, sd, d), want in RELATIVE.items():
        assert rs.settle(f, sd, d) == want
        assert sum(want) == 0


def test_compiled_settlement():
    for (f, sd, d), want in RELATIVE.items():
        assert _fans.settle_mcr(f, sd, d) == want


def test_rule_set_settle_seats():
    for (w, d), want in ABSOLUTE.items():
        f = 28 if d is None else 26
        assert MCR_RULES.settle_seats(f, d is None, w, d) == want
        assert MCR_RULES.settle_seats(f, d is None, "ESWN"[w], None if d is None else "ESWN"[d]) == want


def test_score_settlement_relative_and_absolute():
    for fl in (0, 3):
        s = mjfast.score(HAND, flowers=fl)
        for d in (1, 2, 3):
            assert s.settlement(d) == RELATIVE[(s.total, False, d)]
        t = mjfast.score(HAND, self_drawn=True, flowers=fl)
        assert t.settlement() == RELATIVE[(t.total, True, None)]
    s = mjfast.score(HAND, flowers=3)
    t = mjfast.score(HAND, self_drawn=True, flowers=3)
    for (w, d), want in ABSOLUTE.items():
        if d is None:
            assert t.settlement(winner_seat=w) == want
        else:
            assert s.settlement(winner_seat=w, discarder_seat=d) == want
            assert s.settlement(winner_seat="ESWN"[w], discarder_seat="ESWN"[d]) == want


def test_score_settlement_uses_its_rule_set():
    # a rule set of the MCR engine with another settlement: Score.settlement
    # asks the rule set, it has no arithmetic of its own
    from dataclasses import replace
    double = replace(MCR_RULES, name="mcr_double",
                     settle_fn=lambda rs, total, sd, d, **_: tuple(2 * x for x in MCR_RULES.settle(total, sd, d)))
    s = mjfast.score(HAND, rules=double)
    assert s.settlement(1) == (94, -62, -16, -16)
    assert s.settlement(winner_seat=1, discarder_seat=0) == (-62, 94, -16, -16)


def test_score_settlement_errors_unchanged():
    s = mjfast.score(HAND)
    t = mjfast.score(HAND, self_drawn=True)
    with pytest.raises(ValueError, match="give discarder=1"):
        s.settlement()
    with pytest.raises(TypeError, match="must be an int"):
        s.settlement(True)
    with pytest.raises(ValueError, match="must be 1"):
        s.settlement(4)
    with pytest.raises(ValueError, match="no discarder"):
        t.settlement(1)
    with pytest.raises(ValueError, match="same seat"):
        s.settlement(winner_seat="S", discarder_seat=1)
    with pytest.raises(ValueError, match="drop discarder_seat"):
        t.settlement(winner_seat=0, discarder_seat=1)
    with pytest.raises(TypeError, match="not both"):
        s.settlement(1, winner_seat=0)


def test_log_scorer_settlement():
    for (w, d), want in ABSOLUTE.items():
        assert log_settlement(28 if d is None else 26, w, d) == list(want)


def _cli_json(capsys, *args):
    assert main(["score", HAND, "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)["settlement"]


def test_cli_settlement(capsys):
    st = _cli_json(capsys, "--flowers", "3", "--discarder", "2", "--seat", "S")
    assert st["seats"] == list(RELATIVE[(26, False, 2)])
    assert (st["winner"], st["discarder_pays"], st["others_pay"]) == (50, 34, 8)
    # the winner sits S (1); relative 2 (opposite) is N (3)
    assert [st["by_wind"][w] for w in "ESWN"] == list(ABSOLUTE[(1, 3)])
    st = _cli_json(capsys, "--flowers", "3", "--self-drawn", "--seat", "W")
    assert st["seats"] == list(RELATIVE[(28, True, None)])
    assert (st["winner"], st["others_pay"]) == (108, 36)
    assert [st["by_wind"][w] for w in "ESWN"] == list(ABSOLUTE[(2, None)])
    # a discard win without its discarder: what each pays, in words
    assert main(["score", HAND]) == 0
    out = capsys.readouterr().out
    assert "base 8, F = 23" in out
    assert "the discarder pays 31, each of the other two pays 8, the winner gains 47" in out


# -- the game engines -------------------------------------------------------------

def _worked(total, winner, discarder):
    """The table's rule in words, per seat: the oracle of the games below."""
    pays = {s: (8 + total if discarder is None or s == discarder else 8) for s in range(4) if s != winner}
    return [sum(pays.values()) if s == winner else -pays[s] for s in range(4)]


def test_compiled_engine_settles_every_seat():
    r = selfplay(600, policy="baseline", seed=11, quan="random")
    seen = set()
    for i in range(len(r)):
        w = int(r.winner[i])
        if w < 0:
            assert r.scores[i].tolist() in ([0, 0, 0, 0], [10, 10, 10, -30], [10, 10, -30, 10],
                                            [10, -30, 10, 10], [-30, 10, 10, 10])
            continue
        d = None if r.from_seat[i] < 0 else int(r.from_seat[i])
        assert r.scores[i].tolist() == _worked(int(r.total[i]), w, d)
        assert r.scores[i].tolist() == list(MCR_RULES.settle_seats(int(r.total[i]), d is None, w, d))
        seen.add((w, d))
    # every winner self-drawn and on each other seat's discard
    assert seen == set(ABSOLUTE)


def test_python_engine_settles_as_the_table():
    # GameState's settlement of replayed compiled games: the same scores
    from mjfast.game import play
    from mjfast.game.players import RandomPlayer
    seen = set()
    for seed in range(120):
        rec = play([RandomPlayer(seed * 4 + k) for k in range(4)], seed=seed, fast=False)
        if rec.win is None:
            continue
        w, d = rec.win.winner, rec.win.from_seat
        assert list(rec.scores) == _worked(rec.win.total, w, d)
        seen.add((w, d is None))
    assert len(seen) >= 4


def test_table_play_with_flowers_settles_with_f_including_flowers():
    # table play: flowers count in F (the settlement) but not in the minimum
    from mjfast.game import play
    from mjfast.game.players import RandomPlayer
    found = 0
    for seed in range(400):
        rng = np.random.default_rng(seed)
        wall = rng.permutation(np.repeat(np.arange(34), 4).tolist() + list(range(34, 42))).tolist()
        rec = play([RandomPlayer(seed * 4 + k) for k in range(4)], wall=wall, fast=False)
        if rec.win is None or not rec.win.flowers:
            continue
        found += 1
        assert list(rec.scores) == _worked(rec.win.total, rec.win.winner, rec.win.from_seat)
        assert rec.win.total - rec.win.flowers >= MCR_RULES.min_points
        if found == 5:
            break
    assert found == 5


# -- the minimum ----------------------------------------------------------------

def test_one_minimum():
    from mjfast.score import MIN_POINTS
    assert MCR_RULES.min_points == _fans.MCR_MIN_POINTS == MIN_POINTS == 8
    assert DAZHONG.min_points == 0
    s = mjfast.score("[123m1][345p1][678s1]22pEEE")     # seat and prevalent wind: 4
    assert s.total < 8 and not s.is_legal_win


def _hu_worth(value):
    """A hu_fn for the compiled engine: every winning hand is worth ``value``."""
    def hu_fn(seat, counts, melds, tile, self_drawn, *_):
        c = bytearray(counts)
        if not self_drawn:
            c[tile] += 1
        return value if _core.is_win_one(c) else -3
    return hu_fn


@pytest.mark.parametrize("value", [MCR_RULES.min_points - 1, MCR_RULES.min_points])
def test_compiled_engine_offers_hu_from_the_minimum(value):
    from mjfast._game import POLICY_RANDOM, FastGame, shuffled_walls
    g = FastGame(_hu_worth(value))
    wins = 0
    for seed in range(150):
        g.reset(shuffled_walls(seed), 0)
        g.run([POLICY_RANDOM] * 4, seed, 1.0, 1.0)
        wins += max(g.scores()) > 10          # a win: the winner gains at least 3 x 8
    # under the minimum no Hu is ever legal; at the minimum the random players find some
    assert (wins > 0) == (value >= MCR_RULES.min_points)


def test_settle_takes_numpy_ints_and_refuses_bad_arguments():
    assert MCR_RULES.settle(np.int64(23), np.bool_(False), np.int32(2)) == RELATIVE[(23, False, 2)]
    assert MCR_RULES.settle_seats(np.int16(26), False, np.int8(1), np.int64(3)) == ABSOLUTE[(1, 3)]
    for bad in (2.0, "2", True):
        with pytest.raises((TypeError, ValueError)):
            MCR_RULES.settle(23, False, bad)
    with pytest.raises(mjfast.InvalidArgument):
        MCR_RULES.settle(23.0, False, 1)
    with pytest.raises(mjfast.InvalidHand):
        MCR_RULES.settle(-1, False, 1)
    with pytest.raises(ValueError, match="no discarder"):
        MCR_RULES.settle(23, True, 1)
    with pytest.raises(ValueError, match="give discarder_seat"):
        MCR_RULES.settle_seats(23, False, 0)
    with pytest.raises(ValueError, match="same seat"):
        MCR_RULES.settle_seats(23, False, 2, "W")
    with pytest.raises(mjfast.InvalidArgument, match="winner_seat"):
        MCR_RULES.settle_seats(23, True, 4)
    with pytest.raises(mjfast.InvalidArgument, match="not 4"):
        mjfast.rules.get("two_player").settle_seats(23, True, 0)
    with pytest.raises(ValueError):
        _fans.settle_mcr(23, False, 0)
    with pytest.raises(ValueError):
        _fans.settle_mcr(1 << 49, True, None)
