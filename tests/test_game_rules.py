"""The game engine's rules, one hand-built fixture per rule (fixed walls).

Each test drives a GameState directly (draw / turn / claim), the way a log
reader does; test_game_play.py drives the same rules through play() and the
request strings."""
import pytest

import mjfast
from mjfast.game import CODES, GameState, IllegalAction
from game_fixtures import code, make_walls, state, tiles, tsumo

A_1P4P = "123m456m789m23p55p"    # pure straight, waits 1p / 4p
B_1P4P = "123s456s789s23p77p"    # pure straight, waits 1p / 4p


def idx(s):
    return tiles(s)[0]


def same_hand(a, b):
    return mjfast.parse_hand(a) == mjfast.parse_hand(b)


def fan_names(win):
    return {f.name for f in win.fans}


# ---------------------------------------------------------------------------- chow, pung, priority


def test_chow_from_previous_seat_only():
    st = state(["3m5p7p9pESWNCFP1s9s", "24m678p123sEEE55s", None, None])
    st.draw()
    st.turn("PLAY W3")
    assert "CHI W3 B6" in st.legal_actions(1)
    assert not any(a.startswith("CHI") for a in st.legal_actions(2))
    with pytest.raises(IllegalAction) as e:
        st.claim({2: "CHI W3 B6"})
    assert e.value.seat == 2 and "previous seat" in e.value.reason
    with pytest.raises(IllegalAction) as e:
        st.claim({1: "CHI W3 W9"})           # discarding a tile it does not hold
    assert e.value.seat == 1
    assert st.claim({1: "CHI W3 B6"}) == (1, "CHI W3 B6")
    assert st.melds[1][0].to_meld(1).notation() == "[234m2]"
    assert [st.shown[i] for i in (1, 2, 3)] == [1, 1, 1]
    assert [st.request(s) for s in range(4)] == ["3 1 CHI W3 B6"] * 4
    assert st.discards[0] == [] and st.discards[1] == [idx("6p")]
    assert (st.phase, st.current) == ("claim", 1)
    assert st.claim({}) is None
    assert (st.phase, st.current, st.shown[idx("6p")]) == ("draw", 2, 1)
    assert st.log[-2:] == [("Chi", 1, idx("3m"), ()), ("Play", 1, idx("6p"))]


def test_pung_beats_chow_and_skips_seats():
    st = state(["7p147m258p369sESW", "6p8p123456789sNN", None, "1p7p7pCCCFFFPPPN"])
    st.draw()
    st.turn("PLAY B7")
    assert st.claim({1: "CHI B7 T1", 3: "PENG B1"}) == (3, "PENG B1")
    assert st.log[-2] == ("Peng", 3, idx("7p"), ((1, "CHI", idx("7p")),))
    assert st.melds[3][0].to_meld(3).notation() == "[777p3]"     # seat 0 is seat 3's next seat: 3
    assert st.shown[idx("7p")] == 3
    assert st.hands[1][idx("6p")] == 1 and st.hands[1][idx("8p")] == 1    # the losing chow took nothing
    assert st.claim({}) is None
    assert st.current == 0                   # seats 1 and 2 lost their turns


def _hu_fixture(discarder):
    deals = [None, A_1P4P, None, B_1P4P]
    deals[discarder] = "4pESWNCFP1p9p1s9s5s" if discarder == 0 else "4p4pEESSWWNNCCF"
    if discarder == 0:
        deals[2] = "4p4pEESSWWNNCCF"
    return state(deals)


def test_hu_beats_pung_and_the_first_seat_after_the_discarder_wins():
    st = _hu_fixture(0)
    st.draw()
    st.turn("PLAY B4")
    assert "HU" in st.legal_actions(1) and "HU" in st.legal_actions(3)
    assert any(a.startswith("PENG") for a in st.legal_actions(2))
    assert st.claim({1: "HU", 2: "PENG F1", 3: "HU"}) == (1, "HU")
    w = st.win
    assert (w.winner, w.from_seat, w.self_drawn, w.kong, w.fourth_tile, w.last_tile) == (1, 0, False, False, False, False)
    assert st.log[-1] == ("Hu", 1, idx("4p"), ((3, "HU", idx("4p")), (2, "PENG", idx("4p"))))
    ref = mjfast.score("123m456m789m23p55p4p", seat_wind="S", round_wind="E")
    assert w.total == ref.total and same_hand(w.hand, "123m456m789m23p55p4p")
    f = ref.total
    assert st.scores == [-(8 + f), 24 + f, -8, -8] and sum(st.scores) == 0
    assert st.phase == "over"


def test_tie_goes_to_the_first_seat_counter_clockwise_from_the_discarder():
    st = state([None, A_1P4P, "4p4pEESSWWNNCCF", B_1P4P])
    tsumo(st, 2)
    st.draw()
    st.turn("PLAY B4")
    assert st.claim({1: "HU", 3: "HU"}) == (3, "HU")        # 2 -> 3 -> 0 -> 1
    assert st.win.from_seat == 2


# ---------------------------------------------------------------------------- kongs


def test_melded_kong_then_out_on_the_replacement():
    st = state(["E1s2s3s4s6s7s8s9sSSWW", None, "EEE123m456m789p5s", None], draws=("", "", "5s", ""))
    st.draw()
    st.turn("PLAY F1")
    assert "GANG" in st.legal_actions(2)
    assert st.claim({2: "GANG"}) == (2, "GANG")
    assert [st.request(s) for s in range(4)] == ["3 2 GANG"] * 4
    assert st.legal_actions(0) == ["PASS"] and st.shown[idx("E")] == 4
    assert (st.phase, st.current) == ("draw", 2)
    assert st.draw() == idx("5s")                        # the next tile of seat 2's own wall
    st.turn("HU")
    w = st.win
    assert w.self_drawn and w.kong and not w.robbed_kong
    assert "Out with Replacement Tile" in fan_names(w)
    assert same_hand(w.hand, "[EEEE2]123m456m789p5s5s")      # claimed from the opposite seat
    assert st.scores[2] == 3 * (8 + w.total)


def test_concealed_kong_then_out_on_the_replacement():
    st = state(["EEEE123m456m789p", None, None, None], draws=("5s5s", "", "", ""))
    st.draw()
    assert "GANG F1" in st.legal_actions(0)
    st.turn("GANG F1")
    assert [st.request(s) for s in range(4)] == ["3 0 GANG"] * 4
    assert st.shown[idx("E")] == 0                       # a concealed kong is not shown
    st.draw()
    st.turn("HU")
    w = st.win
    assert w.self_drawn and w.kong and same_hand(w.hand, "[EEEE]123m456m789p5s5s")
    assert {"Out with Replacement Tile", "Concealed Kong"} <= fan_names(w)
    assert ("AnGang", 0, idx("E")) in st.log


def _bugang_fixture(seat0, draws0):
    # seat 0 holds 4p4p and pungs seat 1's 4p, discarding C; it draws the 4th 4p later
    st = state([seat0, "4p1s1s1s2s2s2s3s3s3s9m9m9m", None, B_1P4P], draws=(draws0, "", "", ""))
    st.draw()
    st.turn("PLAY J3")
    assert st.claim({}) is None
    st.draw()
    st.turn("PLAY B4")
    assert st.claim({0: "PENG J1"}) == (0, "PENG J1")
    assert st.claim({}) is None
    tsumo(st, 3)
    assert st.draw() == idx("4p")
    return st


def test_robbing_an_added_kong():
    st = _bugang_fixture("4p4pEESSWWNNCCF", "P4p")
    assert "BUGANG B4" in st.legal_actions(0)
    st.turn("BUGANG B4")
    assert st.phase == "rob" and [st.request(s) for s in range(4)] == ["3 0 BUGANG B4"] * 4
    assert st.legal_actions(3) == ["PASS", "HU"] and st.legal_actions(1) == ["PASS"]
    assert st.shown[idx("4p")] == 4
    with pytest.raises(IllegalAction):
        st.claim({1: "PENG B4"})                      # only Hu may answer an added kong
    assert st.claim({3: "HU"}) == (3, "HU")
    w = st.win
    assert (w.winner, w.from_seat, w.self_drawn, w.kong, w.robbed_kong, w.fourth_tile) == (3, 0, False, True, True, False)
    assert "Robbing The Kong" in fan_names(w)
    f = w.total
    assert st.scores == [-(8 + f), -8, -8, 24 + f]
    assert st.log[-2:] == [("BuGang", 0, idx("4p")), ("Hu", 3, idx("4p"), ())]


def test_added_kong_stands_then_out_on_the_replacement():
    st = _bugang_fixture("4p4p123m456m789m5sC", "P4p5s")
    st.turn("BUGANG B4")
    assert st.claim({}) is None
    assert (st.phase, st.current) == ("draw", 0)
    assert st.draw() == idx("5s")
    st.turn("HU")
    w = st.win
    assert w.self_drawn and w.kong and not w.robbed_kong
    assert same_hand(w.hand, "[4444p7]123m456m789m5s5s")      # added to a pung claimed from the next seat (3 + 4)
    assert "Out with Replacement Tile" in fan_names(w)


def test_no_kong_and_no_claim_when_a_wall_is_empty():
    # seat 2 holds four E; at its last draw its own wall is empty
    st = state([None, None, "EEEE", None])
    tsumo(st, 4 * 20)
    tsumo(st, 2)
    st.draw()
    assert st.current == 2 and st.wall_left(2) == 0
    assert not any(a.startswith("GANG") for a in st.legal_actions(2))
    with pytest.raises(IllegalAction) as e:
        st.turn("GANG F1")
    assert "empty" in e.value.reason and e.value.seat == 2


# ---------------------------------------------------------------------------- context of a win


def test_last_tile_draw():
    st = state([None, None, None, B_1P4P], last=(3, "1p"))
    tsumo(st, 83)
    assert st.draw() == idx("1p") and st.wall_left(0) == 0
    assert "HU" in st.legal_actions(3)
    st.turn("HU")
    w = st.win
    assert w.last_tile and w.self_drawn and "Last Tile Draw" in fan_names(w)


def test_last_tile_claim_and_no_pung_on_the_last_discard():
    st = state([None, B_1P4P, "1p1pEESSWWNNC", None], last=(3, "1p"))
    tsumo(st, 83)
    st.draw()
    st.turn("PLAY B1")
    assert st.wall_left(0) == 0
    assert not any(a.startswith("PENG") for a in st.legal_actions(2))
    with pytest.raises(IllegalAction) as e:
        st.claim({2: "PENG F1"})
    assert e.value.seat == 2 and "empty" in e.value.reason
    assert st.claim({1: "HU"}) == (1, "HU")
    w = st.win
    assert w.last_tile and not w.self_drawn and "Last Tile Claim" in fan_names(w)


def test_huang_when_the_next_wall_is_empty():
    st = state([None] * 4)
    tsumo(st, 84)
    assert st.draw() is None
    assert st.phase == "over" and st.huang and st.scores == [0, 0, 0, 0]
    assert st.log[-1] == ("Huang",)


WAIT_3M = "12m456m789m234p55p"    # pure straight, edge wait on 3m


def test_fourth_tile_from_discards():
    st = state(["3m", WAIT_3M, "3m", "3m"], draws=("E3m", "", "", ""))
    st.draw()
    st.turn("PLAY W3")
    assert st.hu_value(1) > 0
    assert st.claim({}) is None
    tsumo(st)                                        # seat 1
    for _ in range(2):                               # seats 2 and 3 discard their 3m
        st.draw()
        st.turn("PLAY W3")
        assert st.claim({}) is None
    assert st.shown[idx("3m")] == 3
    st.draw()
    st.turn("PLAY W3")
    st.claim({1: "HU"})
    assert st.win.fourth_tile and "Last Tile" in fan_names(st.win)


def test_fourth_tile_from_a_pung():
    st = state(["3m3m", WAIT_3M, "3m3mS", None])
    st.draw()
    st.turn("PLAY W3")
    assert st.claim({2: "PENG F2"}) == (2, "PENG F2")
    assert st.shown[idx("3m")] == 3
    assert st.claim({}) is None
    tsumo(st)                                        # seat 3
    st.draw()
    st.turn("PLAY W3")
    st.claim({1: "HU"})
    assert st.win.fourth_tile


def test_a_false_hu_and_a_hu_under_8_are_illegal():
    st = state(["5s", "123m345m456p678s5s", None, None], draws=("5s", "", "", ""))
    st.draw()
    st.turn("PLAY T5")
    assert st.hu_value(1) == 4 and "HU" not in st.legal_actions(1)
    with pytest.raises(IllegalAction) as e:
        st.claim({1: "HU"})
    assert e.value.code == "WH" and "under the minimum 8" in e.value.reason
    with pytest.raises(IllegalAction) as e:
        st.claim({2: "HU"})
    assert e.value.code == "WH" and "does not win" in e.value.reason and e.value.seat == 2
    assert st.phase == "claim"                       # a refused action changes nothing
    st.fail(2, "WH")
    assert st.scores == [10, 10, -30, 10] and st.phase == "over"


def test_illegal_turns():
    st = state(["1m", None, None, None])
    st.draw()
    for bad, word in [("PLAY W9", "not in the hand"), ("GANG W1", "four"), ("BUGANG W1", "pung"),
                      ("PLAY", "invalid"), ("DISCARD W1", "invalid"), ("PLAY X9", "unknown tile"), (5, "string")]:
        with pytest.raises(IllegalAction) as e:
            st.turn(bad)
        assert word in e.value.reason, (bad, e.value.reason)
        assert e.value.seat == 0 and isinstance(e.value, ValueError)
    with pytest.raises(IllegalAction):
        st.draw()                                    # not the draw phase


def test_walls_are_validated():
    walls = make_walls([None] * 4)
    walls[0][0] = walls[1][0]
    with pytest.raises(ValueError, match="copies"):
        GameState(0, walls=walls)
    with pytest.raises(ValueError, match="34"):
        GameState(0, walls=[w[:33] for w in make_walls([None] * 4)])
    with pytest.raises(ValueError, match="quan"):
        GameState(4, walls=make_walls([None] * 4))


def test_unknown_walls_need_the_drawn_tile():
    walls = make_walls([None] * 4)
    st = GameState(0, deals=[w[:13] for w in walls])
    with pytest.raises(IllegalAction):
        st.draw()
    assert st.draw(walls[0][13]) == walls[0][13]
    assert st.wall_left(0) == 20
    st2 = GameState(0, walls=walls)
    with pytest.raises(IllegalAction, match="next tile of the wall"):
        st2.draw(walls[0][14] if walls[0][14] != walls[0][13] else 33 - walls[0][13])


def test_table_play_with_flowers():
    from mjfast.game import random_table_wall
    from mjfast.game.play import play
    from mjfast.game.players import RandomPlayer
    for seed in range(20):
        wall = random_table_wall(seed, flowers=True)
        rec = play([RandomPlayer(seed * 4 + s) for s in range(4)], wall=wall)
        assert sum(rec.scores) == 0
        st = rec.replay()
        flowers = sum(len(f) for f in st.flowers)
        n_buhua = sum(1 for ev in st.log if ev[0] == "BuHua")
        dealt_flowers = flowers - n_buhua
        assert 0 <= dealt_flowers <= 8
        if rec.win is not None:
            assert rec.win.flowers == len(st.flowers[rec.win.winner])
