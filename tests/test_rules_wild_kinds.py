"""rules= with a rule set whose options name wildcard kinds (Zhuji's 财神):
the single-hand shape functions answer under those kinds, exactly as
wildcard_tiles= of the same kinds does (before, they read the 财神 as plain
tiles without a word)."""
import random

import pytest

import mjfast
from mjfast import rules as R

ZHUJI_5P = R.get("zhuji").with_options(wildcards="5p")


def test_worked_example_win():
    # 123m 456s 789s EE 8p9p + a 5p: the 5p as 7p makes 789p
    hand = "123m456s789sEE8p9p5p"
    assert not mjfast.is_win(hand)
    assert not mjfast.is_win(hand, rules="zhuji")          # no 财神 set: plain tiles
    assert mjfast.is_win(hand, rules=ZHUJI_5P)
    assert mjfast.shanten(hand, rules=ZHUJI_5P) == -1
    assert mjfast.shanten(hand) == 0
    subs = {d[2] for d in mjfast.decompose(hand, rules=ZHUJI_5P)}
    assert (15,) in subs                                   # 7p (index 15) among the substitutions


def test_worked_example_ready():
    # 123m 456s 789s 99p E 5p: two single tiles, not ready; with 5p wild it
    # waits on 9p (99p9p pung, E + 财神 the pair) and E (EE + 财神, 99p the pair)
    hand = "123m456s789s99pE5p"
    assert mjfast.waits(hand) == []
    w = mjfast.waits(hand, rules=ZHUJI_5P)
    assert {17, 27} <= set(w)
    assert w == mjfast.waits(hand, rules="zhuji", wildcard_tiles="5p")


def _random_hand(rng, n):
    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    return sorted(wall[:n])


@pytest.mark.parametrize("seed", range(3))
def test_same_as_wildcard_tiles(seed):
    from mjfast.tiles import tile_name
    rng = random.Random(seed)
    differ = 0
    for _ in range(60):
        tiles = _random_hand(rng, 13)
        tiles = tiles[:-2] + [13, 13]                     # two 5p at least (a fifth copy is refused below)
        if tiles.count(13) > 4:
            continue
        h = "".join(tile_name(t) for t in tiles)
        assert mjfast.shanten(h, rules=ZHUJI_5P) == mjfast.shanten(h, wildcard_tiles=["5p"], rules="zhuji")
        assert mjfast.useful_tiles(h, rules=ZHUJI_5P) == mjfast.useful_tiles(h, wildcard_tiles=["5p"], rules="zhuji")
        assert mjfast.waits(h, rules=ZHUJI_5P) == mjfast.waits(h, wildcard_tiles=["5p"], rules="zhuji")
        differ += mjfast.shanten(h, rules=ZHUJI_5P) != mjfast.shanten(h, rules="zhuji")
    assert differ > 0                                     # the 财神 do change answers


def test_conflicting_wildcards_refused():
    with pytest.raises(ValueError, match="makes 5p wild"):
        mjfast.shanten("123m456s789sE5p", rules=ZHUJI_5P, wildcards=1)
    with pytest.raises(ValueError, match="names other kinds"):
        mjfast.is_win("123m456s789sEE8p9p5p", rules=ZHUJI_5P, wildcard_tiles=["6p"])
    assert mjfast.is_win("123m456s789sEE8p9p5p", rules=ZHUJI_5P, wildcard_tiles=["5p"])


def test_best_discards_refuses_wild_kinds():
    with pytest.raises(ValueError, match="wildcards"):
        mjfast.best_discards("123m456s789sEE8p9p5p", rules=ZHUJI_5P)
