"""The compiled baseline policy and the win hands self-play records.

1. At every decision of baseline self-play the compiled policy answers what a
   plain Python reading of the baseline rules answers (shanten and useful
   tiles from mjfast._core's one-hand functions, Hu from the scorer).
2. Its games replay through the Python engine to the same log and result.
3. The winners' hands selfplay(hands=True) records, scored in bulk by
   score_batch, give the totals the engine's own scorer gave, game by game.
4. selfplay_series: a game depends on (seed, index) only, so any split of a
   series into calls gives the same games.
"""
import numpy as np
import pytest

from mjfast import _core, score_batch
from mjfast.game import random_walls
from mjfast.game.fast import (POLICIES, new_fast_game, play_compiled, selfplay, selfplay_series, walls_array)
from tests.test_game_fast import replay_agrees

OP_PASS, OP_PLAY, OP_HU, OP_PENG, OP_CHI = 0, 1, 4, 5, 6
BASE = POLICIES["baseline"]


def _best(h, n, seen):
    """(shanten, -unseen useful copies, tile) of the best discard of h."""
    best = None
    for t in range(34):
        if not h[t]:
            continue
        h[t] -= 1
        b = bytes(h)
        s = _core.shanten_one(b, n, -1)
        left = sum(4 - seen[u] for u in _core.useful_one(b, n, -1))
        h[t] += 1
        key = (s, -left, t)
        if best is None or key < best:
            best = key
    return best


def reference(g, seat):
    """The baseline rules, read plainly from the game's snapshot."""
    hands, melds, shown, _, left, phase, cur, last = g.snapshot()
    h = list(hands[seat])
    n = len(melds[seat])
    seen = [min(4, h[t] + shown[t]) for t in range(34)]
    if phase == 1:
        if seat != cur:
            return (OP_PASS, 0, 0)
        if g.hu_value(seat) >= 8:
            return (OP_HU, 0, 0)
        return (OP_PLAY, _best(h, n, seen)[2], 0)
    if seat == cur:
        return (OP_PASS, 0, 0)
    if g.hu_value(seat) >= 8:
        return (OP_HU, 0, 0)
    if phase == 3 or not left[(cur + 1) % 4] > 0:
        return (OP_PASS, 0, 0)
    base = _core.shanten_one(bytes(h), n, -1)
    options = []
    if seat == (cur + 1) % 4 and last < 27:
        for m in range(last - 1, last + 2):
            if m < 0 or m // 9 != last // 9 or not 1 <= m % 9 <= 7:
                continue
            x = list(h)
            x[last] += 1
            if not (x[m - 1] and x[m] and x[m + 1]):
                continue
            for u in (m - 1, m, m + 1):
                x[u] -= 1
            s, nl, d = _best(x, n + 1, seen)
            options.append(((s, nl), (OP_CHI, m, d)))
    if h[last] >= 2:
        x = list(h)
        x[last] -= 2
        s, nl, d = _best(x, n + 1, seen)
        options.append(((s, nl), (OP_PENG, d, 0)))
    # the first option with the best (shanten, -left), and only if it lowers the shanten
    good = [o for o in options if o[0][0] < base]
    if not good:
        return (OP_PASS, 0, 0)
    top = min(k for k, _ in good)
    return next(a for k, a in good if k == top)


def step_baseline(seed):
    g = new_fast_game()
    g.reset(walls_array(random_walls(seed)), seed % 4)
    decisions = 0
    while g.phase != 4:
        if g.phase == 0:
            if g.draw() < 0:
                break
            cur = g.current
            a = g.decide(cur, BASE)
            assert a == reference(g, cur), (seed, decisions)
            assert g.turn(a[0], a[1]) == 0
        else:
            answers = []
            for s in range(4):
                a = g.decide(s, BASE) if s != g.current else (OP_PASS, 0, 0)
                assert a == reference(g, s), (seed, decisions, s)
                answers.append(a)
            assert g.claim(answers) >= -1
        decisions += 1
    return g


def test_compiled_baseline_decides_as_the_plain_rules():
    wins = claims = 0
    for seed in range(40):
        g = step_baseline(seed)
        wins += g.winner >= 0
        claims += sum(len(m) for m in g.snapshot()[1])
    assert wins > 20 and claims > 40


def test_baseline_games_replay_through_the_python_engine():
    kinds = set()
    for seed in range(60):
        rec = replay_agrees(seed, policies=(BASE,) * 4)
        kinds.update(ev[0] for ev in rec.log)
    assert {"Chi", "Peng", "Hu"} <= kinds and "Gang" not in kinds


@pytest.mark.parametrize("policy", ["baseline", "random", ["baseline", "random", "baseline", "random"]])
def test_recorded_win_hands_score_to_the_engine_totals(policy):
    r = selfplay(150, policy, seed=4, quan="random", hands=True)
    won = r.winner >= 0
    assert won.sum() > 3
    batch = r.win_batch()
    assert batch.ids == np.flatnonzero(won).tolist()
    res = score_batch(batch)
    assert (res.errors == 0).all()
    assert np.array_equal(res.totals, r.total[won])
    assert np.array_equal(batch.seat, r.winner[won]) and np.array_equal(batch.round, r.quan[won])
    # the self-drawn flag as the engine saw it
    assert np.array_equal(batch.flags & 1, r.self_drawn[won].astype(np.uint8))
    # rows of games without a win stay empty
    assert r.win_counts[~won].sum() == 0


def test_win_hands_give_the_fans_of_the_game_records():
    r = selfplay(40, "baseline", seed=9, hands=True)
    batch = r.win_batch()
    res = score_batch(batch)
    checked = 0
    for j, i in enumerate(batch.ids[:12]):
        rec = play_compiled(r.walls[i].tolist(), 0, [BASE] * 4, rng_seed=9 + i)
        assert (rec.win.winner, rec.win.tile) == (r.winner[i], r.win_tile[i])
        assert [(f.name, f.count) for f in rec.win.fans] == [(f[0], f[3]) for f in res.fans(j)]
        checked += 1
    assert checked >= 10


def test_selfplay_series_is_split_invariant():
    whole = selfplay_series(120, "baseline", seed=21)
    parts = [selfplay_series(k, "baseline", seed=21, first=f) for f, k in ((0, 50), (50, 1), (51, 69))]
    for name in ("scores", "winner", "total", "flags", "quan", "win_counts", "win_melds", "win_tile"):
        a = getattr(whole, name)
        b = np.concatenate([getattr(p, name) for p in parts])
        assert np.array_equal(a, b), name
    assert np.array_equal(whole.quan, np.arange(120) % 4)
    other = selfplay_series(120, "baseline", seed=22)
    assert not np.array_equal(other.scores, whole.scores)
    assert whole.walls is None and (whole.winner >= 0).mean() > 0.5


def test_selfplay_series_checks_arguments():
    with pytest.raises(ValueError, match="policy"):
        selfplay_series(2, "greedy")
    with pytest.raises(ValueError, match="first"):
        selfplay_series(2, first=-1)
    with pytest.raises(ValueError, match="quan"):
        selfplay_series(2, quan="random")
    with pytest.raises(ValueError, match="no hands"):
        selfplay(2, "baseline").win_batch()


def test_play_functions_refuse_short_outputs():
    from mjfast._game import play_many, play_seeded
    from mjfast.game.fast import _hu_fn
    walls = np.stack([walls_array(random_walls(s)) for s in range(3)])
    quans = np.zeros(3, np.int8)
    out = np.zeros((3, 8), np.int32)
    short = (np.zeros((2, 34), np.uint8), np.zeros((3, 4, 3), np.uint8), np.zeros(3, np.uint8), np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match="hands_out"):
        play_many(walls, quans, [2] * 4, 0, 0.5, 0.7, _hu_fn, out, short)
    with pytest.raises(ValueError, match="hands_out"):
        play_seeded(0, 0, 3, -1, [2] * 4, 0.5, 0.7, _hu_fn, out, short)
    with pytest.raises(ValueError, match="int32_out"):
        play_seeded(0, 0, 3, -1, [2] * 4, 0.5, 0.7, _hu_fn, np.zeros((2, 8), np.int32))
    with pytest.raises(ValueError, match="int32_out"):
        play_many(walls, quans, [2] * 4, 0, 0.5, 0.7, _hu_fn, np.zeros((3, 7), np.int32))
    with pytest.raises(ValueError, match="policies"):
        play_many(walls, quans, [2, 2, 2, 9], 0, 0.5, 0.7, _hu_fn, out)
    with pytest.raises(ValueError, match="quan"):
        play_seeded(0, 0, 3, 4, [2] * 4, 0.5, 0.7, _hu_fn, out)


def test_play_functions_refuse_walls_they_cannot_hold():
    from mjfast._game import play_many
    g = new_fast_game()
    bad = walls_array(random_walls(1)).copy()
    bad[2, 5] = 34
    with pytest.raises(ValueError, match="tile index 34"):
        g.reset(bad, 0)
    with pytest.raises(ValueError, match=r"\(4, 34\)"):
        g.reset(np.zeros((2, 34), np.uint8), 0)
    with pytest.raises(ValueError, match="quan"):
        g.reset(walls_array(random_walls(1)), 4)
    with pytest.raises(ValueError, match="tile index"):
        play_many(np.full((1, 4, 34), 200, np.uint8), np.zeros(1, np.int8), [2] * 4, 0, 0.5, 0.7, None,
                  np.zeros((1, 8), np.int32))
