"""Sample bot against the baseline, duplicate style (mjfast.botzone.tournament)."""
import pytest

from mjfast.botzone.tournament import duplicate


def test_small_tournament_is_clean():
    r = duplicate(games=20, seed=1)
    assert r.games == 20
    assert r.illegal == 0 and r.false_hu == 0 and r.opp_illegal == 0
    assert 0 <= r.wins + r.opp_wins + r.huang <= 20
    lo, hi = r.interval
    assert lo <= r.mean_score <= hi
    if r.wins:
        assert r.mean_win_total >= 8


def test_workers_do_not_change_the_result():
    a = duplicate(games=8, seed=4)
    b = duplicate(games=8, seed=4, workers=2)
    a.seconds = b.seconds = 0
    assert a == b


def test_games_must_fill_the_seats():
    with pytest.raises(ValueError, match="multiple of 4"):
        duplicate(games=10)


@pytest.mark.slow
def test_sample_beats_baseline():
    # nice -n 10 python -m pytest -m slow tests/test_botzone_tournament.py  (about 10-20 minutes)
    r = duplicate(games=2000, seed=0, workers=2)
    print(r.report())
    assert r.illegal == 0 and r.false_hu == 0 and r.opp_illegal == 0
    assert r.interval[0] > 0                 # the whole 95 % interval above an even game
    assert r.win_rate > 1.2 * r.opp_win_rate
