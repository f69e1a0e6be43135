"""best_discards / best_discards_batch under ``rules=``: shanten over the rule
set's winning forms, useful tiles among its tiles, checked against a brute
force over shanten(rules=) (every discard, every drawn tile) and against the
compiled all-forms kernel where the forms cannot differ."""
import random

import numpy as np
import pytest

import mjfast
from mjfast import rules as R
from mjfast.bots import best_discards, best_discards_batch
from mjfast.core import ERR_RULES


def brute(c, rs, melds=0, visible=None):
    """(shanten, kinds, left) per discard, (34,) each, from shanten(rules=)
    alone: a useful tile is one of the rule set's tiles, not held four times
    after the discard, whose draw lowers the shanten; its copies left are 4
    minus those held (the discard included) and visible."""
    seen = c.astype(np.int64) + (0 if visible is None else visible)
    sh = np.full(34, 127)
    kinds = np.zeros(34, int)
    left = np.zeros(34, int)
    for t in np.flatnonzero(c):
        d = c.copy()
        d[t] -= 1
        s = mjfast.shanten(d, melds=melds, rules=rs)
        sh[t] = s
        for u in sorted(rs.tiles):
            if d[u] >= 4:
                continue
            e = d.copy()
            e[u] += 1
            if mjfast.shanten(e, melds=melds, rules=rs) < s:
                kinds[t] += 1
                left[t] += 4 - seen[u]
    return sh, kinds, left


def random_hands(rs, n, size, seed):
    rng = random.Random(seed)
    tiles = sorted(rs.tiles)
    # half uniform, half from a few kinds (more pairs and runs: nearer to a win)
    out = []
    for i in range(n):
        pool = tiles if i % 2 else rng.sample(tiles, min(len(tiles), 9))
        wall = [t for t in pool for _ in range(4)]
        rng.shuffle(wall)
        c = np.zeros(34, np.uint8)
        for t in wall[:size]:
            c[t] += 1
        out.append(c)
    return np.array(out)


@pytest.mark.parametrize("name", ["two_player", "guizhou", "zhuji", "shanghai_old"])
@pytest.mark.parametrize("size", [14, 11])
def test_batch_and_single_match_brute_force(name, size):
    rs = R.get(name)
    melds = (14 - size) // 3
    hands = random_hands(rs, 40, size, seed=size * 7 + len(name))
    vis = np.zeros((len(hands), 34), np.int64)
    rng = np.random.default_rng(5)
    for i, c in enumerate(hands):          # a few tiles seen elsewhere
        for t in rng.choice(sorted(rs.tiles), 3):
            if c[t] + vis[i, t] < 4:
                vis[i, t] += 1
    sh, kinds, left = best_discards_batch(hands, melds=melds, visible=vis, rules=name)
    for i, c in enumerate(hands):
        want = brute(c, rs, melds, vis[i])
        assert sh[i].tolist() == want[0].tolist(), (name, c.tolist())
        assert kinds[i].tolist() == want[1].tolist(), (name, c.tolist())
        assert left[i].tolist() == want[2].tolist(), (name, c.tolist())
        single = {d.tile: tuple(d)[1:4] for d in best_discards(c, melds=melds, visible=vis[i], rules=name)}
        assert single == {t: (want[0][t], want[1][t], want[2][t]) for t in np.flatnonzero(c)}


def test_single_counted_the_discard_twice_before():
    # discarding 1m (one of two) leaves a hand that 1m itself improves; its
    # copies left are 4 - 2 held (the discarded one is on the table), as the
    # MCR kernel counts them.  best_discards(rules="two_player") used to
    # subtract the discard again: 33 copies instead of 34.
    c = mjfast.to_counts("1m1m2m3m3m4m5m6m7m8m9mCFP")
    for rules in (None, "two_player"):
        d = {x.tile: tuple(x) for x in best_discards(c, rules=rules)}
        assert d[0] == (0, 2, 12, 34)


def test_two_player_tiles_agree_with_the_kernel():
    # hands of characters only: the forms two-player lacks (thirteen orphans,
    # the knitted forms) are far from them, so its answers are MCR's (with
    # honours, MCR's thirteen-orphans shanten can be lower, counting draws of
    # tiles two-player does not play)
    rs = R.get("two_player")
    rng = random.Random(3)
    hands = np.zeros((300, 34), np.uint8)
    for c in hands:
        for t in rng.sample([t for t in range(9) for _ in range(4)], 14):
            c[t] += 1
    a = best_discards_batch(hands, rules=rs)
    b = best_discards_batch(hands)
    for x, y in zip(a, b):
        assert np.array_equal(x, y)


def test_all_form_rule_sets_use_the_kernel():
    hands = random_hands(R.get("mcr"), 200, 14, seed=9)
    plain = best_discards_batch(hands)
    for rules in ("mcr", "dazhong", R.get("mcr", min_points=0)):
        for x, y in zip(best_discards_batch(hands, rules=rules, workers=2), plain):
            assert np.array_equal(x, y)


def test_rows_with_tiles_the_rule_set_does_not_play():
    hands = np.array([mjfast.to_counts("123m456m789mEEE5m5m"), mjfast.to_counts("123p456m789mEEE5m5m")],
                     np.uint8)
    with pytest.raises(mjfast.InvalidHand, match=r"row 1: tile 1p is not played in rule set 'two_player'"):
        best_discards_batch(hands, rules="two_player")
    sh, kinds, left, err = best_discards_batch(hands, rules="two_player", errors="mask")
    assert err.tolist() == [0, ERR_RULES]
    assert (sh[1] == -128).all() and (kinds[1] == 0).all() and sh[0, 0] == 0
    # a malformed row is named before the rule set's check, as in the other batch calls
    bad = hands.copy()
    bad[0, 0] = 5
    with pytest.raises(mjfast.InvalidHand, match="row 0"):
        best_discards_batch(bad, rules="two_player")
    assert best_discards_batch(bad, rules="two_player", errors="mask")[3].tolist()[1] == ERR_RULES


def test_wildcard_rule_set_is_refused():
    zw = R.get("zhuji", wildcards="5p")
    with pytest.raises(ValueError, match="best_discards_batch does not support rule set 'zhuji' with wildcards"):
        best_discards_batch(random_hands(zw, 2, 14, 1), rules=zw)
    with pytest.raises(mjfast.InvalidArgument):
        best_discards_batch(random_hands(zw, 2, 14, 1), rules="nope")
