"""The compiled self-play policies choose among the engine's legal answers.

Every answer a policy gives in a seeded game -- the drawer's and each other
seat's, every round -- is in the engine's legal list (``FastGame.legal``) at
that moment: a whole game of ``run()`` is replayed from its rounds on a second
engine, each answer checked before it is applied, and the replay must end as
the run did (events, scores).  ``decide`` (one answer, asked at any step) is
checked the same way, and with a Python ``hu_fn`` as scorer too.
"""
import numpy as np
import pytest

from mjfast import _engine, _game
from mjfast._game import FastGame, shuffled_walls
from mjfast.game.fast import _hu_fn

OP = _engine.OPS
DRAW, OVER = _engine.PHASES.index("draw"), _engine.PHASES.index("over")
POLICIES = {"tsumogiri": _game.POLICY_TSUMOGIRI, "random": _game.POLICY_RANDOM, "baseline": _game.POLICY_BASELINE}


def _replay_checking(walls, quan, rounds):
    """Replay a run()'s rounds on a fresh engine, asserting each answer is
    legal when given; returns the replayed game and how many answers were
    checked (non-PASS ones counted apart)."""
    g = FastGame()
    g.reset(walls, quan)
    rounds = [[tuple(int(x) for x in ans) for ans in r] for r in rounds]
    i, checked, claims = 2, 0, 0                      # rounds 0, 1: INIT and DEAL, all PASS
    assert rounds[0] == rounds[1] == [(0, 0, 0)] * 4
    while g.phase != OVER:
        cur = g.current
        if g.phase == DRAW:
            if g.draw() < 0:
                break
            ans = rounds[i][cur]
            i += 1
            legal = g.legal(cur)
            assert ans in legal, (i, cur, ans, legal)
            checked += 1
            assert g.turn(*ans[:2]) == 0
            if g.phase == DRAW:                       # a concealed kong: announced, all pass
                assert rounds[i] == [(0, 0, 0)] * 4
                i += 1
        else:
            answers = rounds[i]
            i += 1
            for s in range(4):
                if s == cur:
                    assert answers[s] == (0, 0, 0)
                    continue
                legal = g.legal(s)
                assert answers[s] in legal, (i, s, answers[s], legal)
                checked += 1
                claims += answers[s][0] != OP["PASS"]
            r = g.claim(answers)
            assert r >= -1
            if r >= 0 and answers[r][0] == OP["GANG"]:   # a melded kong: announced, all pass
                assert rounds[i] == [(0, 0, 0)] * 4
                i += 1
    assert i == len(rounds)
    return g, checked, claims


@pytest.mark.parametrize("mix", [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (2, 1, 0, 2), (1, 2, 1, 0)])
def test_every_answer_of_a_run_is_legal_when_given(mix):
    checked = claims = wins = 0
    for seed in range(60):
        walls = shuffled_walls(seed)
        g = FastGame()
        g.reset(walls, seed % 4)
        g.run(list(mix), seed)
        r, n, c = _replay_checking(walls, seed % 4, g.rounds_array())
        assert r.events() == g.events() and r.scores() == g.scores()
        checked += n
        claims += c
        wins += g.winner >= 0
    assert checked > 60 * 40
    if mix != (0, 0, 0, 0):                 # the games do claim and win: the check saw real choices
        assert claims > 0 and wins > 0


def _step(g, answer_of):
    """Play g to its end, each answer from answer_of(seat); returns the answers given."""
    given = []
    while g.phase != OVER:
        if g.phase == DRAW:
            if g.draw() < 0:
                break
            ans = answer_of(g.current)
            given.append((g.legal(g.current), ans))
            assert g.turn(ans[0], ans[1]) == 0
        else:
            answers = [answer_of(s) if s != g.current else (0, 0, 0) for s in range(4)]
            given += [(g.legal(s), answers[s]) for s in range(4) if s != g.current]
            assert g.claim(answers) >= -1
    return given


@pytest.mark.parametrize("name", sorted(POLICIES))
@pytest.mark.parametrize("hu_fn", [None, _hu_fn], ids=["kernel", "hu_fn"])
def test_decide_answers_from_the_legal_list(name, hu_fn):
    pol = POLICIES[name]
    n_hu = 0
    for seed in range(12 if hu_fn is None else 4):
        g = FastGame(hu_fn)
        g.reset(shuffled_walls(1000 + seed), seed % 4)
        step = iter(range(10 ** 6))
        for legal, ans in _step(g, lambda s: g.decide(s, pol, seed=next(step) + 1)):
            assert ans in legal
            # Hu whenever legal: the random and baseline policies never pass one up
            if pol != _game.POLICY_TSUMOGIRI and (OP["HU"], 0, 0) in legal:
                assert ans == (OP["HU"], 0, 0)
                n_hu += 1
    if pol == _game.POLICY_BASELINE:       # (random play seldom gets a hand of 8 points)
        assert n_hu > 0


def test_a_hu_fn_scores_as_the_kernel_in_seeded_tournaments():
    # the engine's win check before the kernel, or the hu_fn (its own win
    # check, then score_win): the same games, answer for answer
    for pol in ([2, 2, 2, 2], [1, 2, 1, 0]):
        a = np.zeros((30, 8), np.int32)
        b = np.zeros((30, 8), np.int32)
        _game.play_seeded(5, 0, 30, -1, pol, 0.5, 0.7, None, a)
        _game.play_seeded(5, 0, 30, -1, pol, 0.5, 0.7, _hu_fn, b)
        assert (a == b).all()
        assert (a[:, 4] >= 0).any()
