"""The compiled engine (src/_game.pyx) against the Python engine (GameState).

1. Side by side: both engines take the same actions (a Python RandomPlayer's
   choices on the Python state) and must hold the same state at every step:
   hands, melds, shown tiles, rivers, walls, phase, every seat's legal actions
   and Hu value, and the same result.
2. The compiled random policy's games replay through the Python engine
   without an illegal action and with the same log and result; selfplay()'s
   per-game results are those games.
3. play() with tsumogiri players runs compiled and writes the same records
   as the Python path.
"""
import numpy as np
import pytest

from mjfast.game import GameState, play, random_walls
from mjfast.game.fast import (POLICIES, action_string, new_fast_game, parse_action, play_compiled, selfplay,
                              walls_array)
from mjfast.game.players import RandomPlayer, tsumogiri

PHASE = {"draw": 0, "turn": 1, "claim": 2, "rob": 3, "over": 4}


def same_state(py, fg, where):
    hands, melds, shown, rivers, left, phase, current, last = fg.snapshot()
    assert hands == py.hands, where
    pym = [[(("chow", "pung", "kong").index(m.kind), m.tile, -1 if m.from_seat is None else m.from_seat,
             -1 if m.claimed is None else m.claimed, int(m.added)) for m in ms] for ms in py.melds]
    assert melds == pym, where
    assert shown == py.shown and rivers == py.discards, where
    assert left == py.tile_counts and phase == PHASE[py.phase], where
    if py.phase != "over":
        assert current == py.current, where
    for s in range(4):
        assert sorted(action_string(*a) for a in fg.legal(s)) == sorted(py.legal_actions(s)), (where, s)
        assert fg.hu_value(s) == py.hu_value(s), (where, s)


def side_by_side(seed, quan=0, **kw):
    walls = random_walls(seed)
    py = GameState(quan, walls=walls)
    fg = new_fast_game()
    fg.reset(walls_array(walls), quan)
    players = [RandomPlayer(seed * 4 + s, **kw) for s in range(4)]
    step = 0
    while py.phase != "over":
        step += 1
        if py.phase == "draw":
            t = py.draw()
            assert fg.draw() == (-1 if t is None else t)
        elif py.phase == "turn":
            r = players[py.current].act(py, py.current)
            py.turn(r)
            assert fg.turn(*parse_action(r)[:2]) == 0, (seed, step, r)
        else:
            answers = [players[s].act(py, s) if s != py.current else "PASS" for s in range(4)]
            got = py.claim(answers)
            assert fg.claim([parse_action(a) for a in answers]) == (-1 if got is None else got[0])
        same_state(py, fg, (seed, step))
    assert fg.scores() == py.scores
    if py.win is not None:
        w = py.win
        assert (fg.winner, fg.total, fg.w_self, fg.w_fourth, fg.w_last, fg.w_kong) == \
            (w.winner, w.total, w.self_drawn, w.fourth_tile, w.last_tile, w.kong)
    return py


def test_side_by_side_on_random_games():
    wins = 0
    for seed in range(80):
        wins += side_by_side(seed, quan=seed % 4).win is not None
    assert wins > 12


@pytest.mark.slow
def test_side_by_side_on_many_random_games():
    for seed in range(1000, 4000):
        side_by_side(seed, quan=seed % 4, p_claim=0.8)


def replay_agrees(seed, policies=(1, 1, 1, 1)):
    walls = random_walls(seed)
    rec = play_compiled(walls, seed % 4, list(policies), seed=seed, rng_seed=seed)
    st = rec.replay()
    assert st.error is None, (seed, st.error)
    assert st.log == rec.log and st.scores == rec.scores and st.huang == rec.huang
    if rec.win is not None:
        w, v = rec.win, st.win
        assert (w.winner, w.from_seat, w.tile, w.hand, w.self_drawn, w.fourth_tile, w.last_tile, w.kong,
                w.robbed_kong, w.total) == (v.winner, v.from_seat, v.tile, v.hand, v.self_drawn, v.fourth_tile,
                                            v.last_tile, v.kong, v.robbed_kong, v.total)
    return rec


def test_compiled_random_games_replay_through_the_python_engine():
    seen = set()
    for seed in range(300):
        rec = replay_agrees(seed)
        seen.update(ev[0] for ev in rec.log)
    assert {"Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "Huang"} <= seen


@pytest.mark.slow
def test_compiled_random_games_replay_many():
    for seed in range(1000, 6000):
        replay_agrees(seed)


def test_selfplay_results_are_those_games():
    res = selfplay(60, "random", seed=11, quan="random")
    assert len(res) == 60 and (res.scores.sum(axis=1) == 0).all()
    for i in range(60):
        rec = play_compiled(res.walls[i].tolist(), int(res.quan[i]), [1] * 4, rng_seed=11 + i)
        assert rec.scores == res.scores[i].tolist()
        st = rec.replay()
        assert st.scores == rec.scores
        if rec.win is not None:
            assert res.winner[i] == rec.win.winner and res.total[i] == rec.win.total
            assert res.self_drawn[i] == rec.win.self_drawn and res.kong[i] == rec.win.kong
        else:
            assert res.winner[i] == -1 and res.huang[i]


def test_selfplay_is_deterministic_and_checks_arguments():
    a = selfplay(50, "random", seed=3)
    b = selfplay(50, "random", seed=3)
    assert (a.scores == b.scores).all() and (a.walls == b.walls).all()
    t = selfplay(20)
    assert t.huang.all() and (t.scores == 0).all()
    with pytest.raises(ValueError, match="policy"):
        selfplay(2, "greedy")
    with pytest.raises(ValueError):
        selfplay(-1)
    with pytest.raises(ValueError, match="quan"):
        selfplay(2, quan=5)
    assert set(POLICIES) == {"tsumogiri", "random", "baseline"}


def test_play_with_tsumogiri_runs_compiled_and_writes_the_same_records():
    for seed in range(10):
        a = play([tsumogiri] * 4, seed=seed)
        b = play([tsumogiri] * 4, seed=seed, fast=False)
        assert a.log == b.log and a.rounds == b.rounds and a.scores == b.scores
        assert a.to_botzone_text() == b.to_botzone_text()
        assert a.to_botzone_json() == b.to_botzone_json()
    with pytest.raises(ValueError):
        walls_array([[0] * 34] * 4)


def test_parse_action_round_trips():
    for s in ["PASS", "HU", "PLAY W1", "GANG F2", "GANG", "BUGANG J3", "PENG T9", "CHI B2 W7"]:
        assert action_string(*parse_action(s)) == s
    with pytest.raises(ValueError):
        parse_action("CHI B2")
    assert np.int8(-1) == -1


def test_kernel_scoring_equals_the_score_win_callback():
    # the compiled engine scores a Hu with the fan kernel directly; the Python
    # callback (score_win through the notation) must give the same games
    from mjfast._game import play_many
    from mjfast.game.fast import _hu_fn
    n = 600
    rng = np.random.default_rng(5)
    base = np.repeat(np.arange(34, dtype=np.uint8), 4)
    walls = np.ascontiguousarray(rng.permuted(np.broadcast_to(base, (n, 136)), axis=1).reshape(n, 4, 34))
    quans = rng.integers(0, 4, n).astype(np.int8)
    outs = []
    for fn in (_hu_fn, None):
        out = np.zeros((n, 8), np.int32)
        play_many(walls, quans, [1, 1, 1, 1], 9, 0.9, 0.9, fn, out)
        outs.append(out)
    assert (outs[0] == outs[1]).all()
    assert (outs[1][:, 4] >= 0).sum() >= 10          # some games are won (and scored)
