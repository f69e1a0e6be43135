"""The MCR kernel's flag normalisation, win-flag and concealment fans, wind
pungs and rule 8.4, through ``score_batch``, against PyMahjongGB on every
combination of the four win flags and of the seat and round winds.

Those parts of ``_score_hand`` / ``_score_division`` are written without
branches (masks and 0/1 conditions; src/fankernel/mcr_score.pxd), so a slip
in one of them shows on some combination only.  The hands are the
generator's, picked where the combination matters: melds (Last Tile forced
by three copies in melds, kong flags dropped without a kong or with the tile
held), wind pungs (seat and prevalent wind, the same wind or two), and a
concealed pung of the winning tile (8.4: melded on a discard unless a
concealed chow can hold the tile).
"""
from __future__ import annotations

import itertools
import os
import sys

import numpy as np
import pytest

import mjfast

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import handgen  # noqa: E402
from oracle import oracle_score, parse_hand  # noqa: E402

_WINDS = "ESWN"


def _picked(n_each: int = 40) -> list:
    """n_each generator hands of each kind: with melds; with a wind pung
    (melded or concealed); with a concealed pung of the winning tile"""
    melds, winds, pung_of_win = [], [], []
    for rec in handgen.iter_winning_records(60_000, seed=4321):
        sets, tiles = parse_hand(rec["hand"])
        win = tiles[-1]
        if sets and len(melds) < n_each:
            melds.append(rec)
        elif (any(k != "chow" and 27 <= t <= 30 for k, t, _ in sets)
              or any(tiles.count(t) >= 3 for t in range(27, 31))) and len(winds) < n_each:
            winds.append(rec)
        elif tiles.count(win) >= 3 and len(pung_of_win) < n_each:
            pung_of_win.append(rec)
        if len(melds) == len(winds) == len(pung_of_win) == n_each:
            break
    return melds + winds + pung_of_win


@pytest.mark.oracle
def test_every_flag_and_wind_combination_matches_reference():
    base = _picked()
    assert len(base) == 120, len(base)
    recs = []
    for rec in base:
        for sd, fourth, kong, last in itertools.product((False, True), repeat=4):
            for seat, rnd in itertools.product(_WINDS, repeat=2):
                recs.append(dict(rec, self_drawn=sd, fourth_tile=fourth, kong=kong, last_tile=last,
                                 seat_wind=seat, round_wind=rnd))
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs), workers=1)
    assert not np.any(res.errors), res.error_message(int(np.flatnonzero(res.errors)[0]))
    bad = []
    for i, rec in enumerate(recs):
        total, fans = oracle_score(rec)
        ours = {name: (pts, cnt) for name, _zh, pts, cnt in res.fans(i)}
        if int(res.totals[i]) != total or ours != fans:
            bad.append((rec, int(res.totals[i]), total, ours, fans))
            if len(bad) >= 5:
                break
    assert not bad, "\n".join(f"{r}: mjfast {t} {o} / reference {rt} {f}" for r, t, rt, o, f in bad)
