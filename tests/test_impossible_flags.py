"""The flags that cannot hold for a hand (docs/rulings.md, 4) are found in
one place, the kernel (mjfast._core.impossible_flags / impossible_flags_batch,
src/fankernel/fan_base.pxd), and every path reports what it finds: checked
here against the rulings written plainly (tests/flags_reference.py), one hand
and batches, and through every rule set's score()."""
import itertools
import random

import numpy as np
import pytest

import mjfast
from mjfast import _fans
from mjfast.hand import parse_hand
from mjfast.rules.base import DROP_REASONS, dropped_reasons, impossible_flags
from mjfast.score import dropped_flags

import flags_reference as ref
import handgen

_KIND = {"chow": 0, "pung": 1, "kong": 2}


def _hands(n, seed):
    return [parse_hand(r["hand"]) for r in handgen.random_winning_records(n, seed=seed)]


def _melds(h):
    return [(_KIND[m.kind], m.tile) for m in h.melds]


def test_one_hand_matches_the_rulings_for_every_flag_combination():
    seen = set()
    for h in _hands(600, seed=3):
        m = np.array(_melds(h), np.uint8).reshape(-1, 2)
        for flags in range(16):
            want = ref.dropped_row(list(h.counts), _melds(h), h.win_tile, flags)
            assert _fans.impossible_flags(h.counts, m, len(h.melds), h.win_tile, flags) == want
            seen.add(want)
            # a wildcard winning tile: no copy in hand contradicts it
            assert _fans.impossible_flags(h.counts, m, len(h.melds), -1, flags) == \
                ref.dropped_row(list(h.counts), _melds(h), -1, flags)
    assert seen == {0, ref.FOURTH, ref.KONG, ref.FOURTH | ref.KONG}


@pytest.mark.parametrize("seed", [1, 2])
def test_batch_matches_the_rulings(seed):
    recs = handgen.random_winning_records(3000, seed=seed)
    rng = random.Random(seed)
    for r in recs:
        r.update(self_drawn=rng.random() < 0.5, fourth_tile=rng.random() < 0.5, kong=rng.random() < 0.5)
    b = mjfast.HandBatch.from_records(recs)
    assert not b.invalid.any()
    want = ref.dropped_batch(b.counts, b.melds, b.n_melds, b.win_tile, b.flags)
    out = np.full(len(b), 99, np.uint8)
    _fans.impossible_flags_batch(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, out)
    assert out.tolist() == want
    assert dropped_flags(b.counts, b.melds, b.n_melds, b.win_tile, b.flags).tolist() == want
    # score_batch reports the same bits, and the same reasons as score()
    res = mjfast.score_batch(b)
    ok = res.errors == 0
    assert res.ignored[ok].tolist() == np.array(want)[ok].tolist()
    for i in np.flatnonzero(ok)[:300]:
        kw = {k: v for k, v in recs[i].items() if k not in ("hand", "id")}
        assert res.ignored_flags(int(i)) == mjfast.score(recs[i]["hand"], **kw).ignored_flags


def test_wording_is_one_function():
    assert dropped_reasons(ref.FOURTH | ref.KONG, True) == {"fourth_tile": DROP_REASONS["fourth_tile"],
                                                           "kong": DROP_REASONS["kong_self_drawn"]}
    assert dropped_reasons(ref.KONG, False) == {"kong": DROP_REASONS["kong_discard"]}
    assert dropped_reasons(0, False) == {}
    # the worked example of docs/rulings.md, 4
    s = mjfast.score("[123m]456m789s11p23p4p", self_drawn=True, kong=True)
    assert s.total == 4 and s.ignored_flags == {"kong": DROP_REASONS["kong_self_drawn"]}


def test_bad_arguments_are_value_errors():
    c = parse_hand("123m456m789p55mEE5m").counts
    m = np.zeros((0, 2), np.uint8)
    for args in ((c, m, 0, 34, 2), (c, m, 0, -2, 2), (c, m, 0, 0, 16), (c, m, 5, 0, 2), (c, m, 1, 0, 2),
                 (c[:33], m, 0, 0, 2)):
        with pytest.raises(ValueError):
            _fans.impossible_flags(*args)
    n = 3
    cols = (np.zeros((n, 34), np.uint8), np.zeros((n, 4, 3), np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint8))
    flags = np.array([0, 4, 0], np.uint8)
    cols[2][1] = 5                                   # a meld count out of range on a row that asks the check
    with pytest.raises(ValueError, match="row 1"):
        _fans.impossible_flags_batch(*cols, flags, np.zeros(n, np.uint8))
    with pytest.raises(ValueError):
        _fans.impossible_flags_batch(*cols, flags, np.zeros(n - 1, np.uint8))
    cols[2][1] = 0
    cols[2][0] = 9                                   # ignored: the row's flags ask nothing
    cols[0][1, 0] = 2                                # row 1: robbing a kong of 1m, another 1m held
    out = np.full(n, 7, np.uint8)
    _fans.impossible_flags_batch(*cols, flags, out)
    assert out.tolist() == [0, ref.KONG, 0]


_RULE_SETS = [n for n in mjfast.rules.available()]


@pytest.mark.parametrize("name", _RULE_SETS)
def test_every_rule_set_drops_the_kong_flag_the_kernel_finds_impossible(name):
    # through each rule set's own score(): the kong flag is reported dropped
    # exactly when the rulings say it cannot hold (whatever the rule set's words)
    n_checked = n_dropped = 0
    for h, (sd, ) in itertools.product(_hands(400, seed=9), [(False,), (True,)]):
        want = ref.dropped_row(list(h.counts), _melds(h), h.win_tile, ref.KONG | (ref.SELF_DRAWN if sd else 0))
        assert impossible_flags(h, self_drawn=sd, kong=True) == want
        try:
            s = mjfast.score(h, rules=name, self_drawn=sd, kong=True)
        except (mjfast.InvalidHand, mjfast.NotWinning):
            continue
        n_checked += 1
        reason = s.ignored_flags.get("kong", "")
        assert reason.startswith("dropped:") == bool(want), (str(h), sd, reason)
        n_dropped += bool(want)
    assert n_checked > 20 and n_dropped > 5
