"""Fan statistics from self-play (`mjfast stats simulate`) and from match
archives in one command (`mjfast stats logs`)."""
import json
import os

import numpy as np
import pandas as pd
import pytest

import mjfast
from mjfast.cli import main
from mjfast.game.fast import play_compiled, selfplay, selfplay_series
from mjfast.stats import FanStats
from mjfast.stats.logs import rows_arrays, stats_of_logs
from mjfast.stats.simulate import simulate, simulate_chunk

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "logs")
ARCHIVE = os.path.join(DATA, "archive.txt")


def test_simulate_is_the_same_for_any_chunking_and_worker_count():
    a = simulate(900, seed=7, chunk_size=900)
    b = simulate(900, seed=7, chunk_size=250)
    c = simulate(900, seed=7, chunk_size=200, workers=2)
    for x in (b, c):
        assert x.stats == a.stats
        assert (x.games, x.wins, x.self_drawn, x.no_winner) == (a.games, a.wins, a.self_drawn, a.no_winner)
    assert a.mismatches == 0 and a.games == 900 and a.wins + a.no_winner == 900
    assert c.workers == 2 and a.games_per_second > 0
    d = simulate(900, seed=8, chunk_size=900)
    assert d.stats != a.stats


def test_simulate_counts_what_the_games_hold():
    r = selfplay_series(600, "baseline", seed=3)
    won = r.winner >= 0
    sim = simulate(600, seed=3, chunk_size=170)
    assert sim.wins == won.sum() == sim.stats.wins
    assert sim.self_drawn == r.self_drawn.sum() == sim.stats.self_drawn
    assert sim.no_winner == r.huang.sum()
    hist = np.bincount(r.total[won], minlength=sim.stats.hist.size)
    assert np.array_equal(sim.stats.hist, hist[:sim.stats.hist.size]) and hist[sim.stats.hist.size:].sum() == 0
    # every win of the baseline bot is legal: Hu is declared only with 8 points
    assert sim.stats.legal == sim.wins


def test_simulate_mixed_bots_and_arguments():
    sim = simulate(200, seed=1, bots=["baseline", "random", "baseline", "random"])
    assert sim.policies == ("baseline", "random", "baseline", "random") and sim.mismatches == 0
    assert simulate(50, bots="tsumogiri").wins == 0
    with pytest.raises(ValueError, match="bots"):
        simulate(10, bots=["baseline", "random"])
    with pytest.raises(ValueError, match="bots"):
        simulate(10, bots="greedy")
    with pytest.raises(ValueError, match="games"):
        simulate(-1)
    with pytest.raises(ValueError, match="chunk_size"):
        simulate(10, chunk_size=0)


def test_simulate_chunk_scores_agree_with_the_engine():
    part = simulate_chunk(11, 40, 300)
    whole = simulate_chunk(11, 0, 340)
    head = simulate_chunk(11, 0, 40)
    assert head.merge(part).stats == whole.stats and part.mismatches == 0


def test_cli_simulate(tmp_path, capsys):
    out = tmp_path / "fans.json"
    assert main(["stats", "simulate", "--games", "400", "--seed", "2", "--top", "3", "--out", str(out)]) == 0
    cap = capsys.readouterr()
    first = cap.out.splitlines()[0]
    assert first.startswith("games 400   wins ") and "bots baseline baseline baseline baseline   seed 2" in first
    assert "games/s" in cap.err and "games/s" not in cap.out
    table = json.loads(out.read_text())
    sim = simulate(400, seed=2)
    want = sim.stats.table(sort="share")
    assert [r["wins"] for r in table] == want["wins"].tolist()
    assert main(["stats", "simulate", "--games", "400", "--seed", "2", "--json", "--workers", "2",
                 "--chunk-size", "150"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["games"]["games"] == 400 and payload["games"]["workers"] == 2
    assert payload["summary"]["wins"] == sim.wins
    assert [f["wins"] for f in payload["fans"]] == want[want["wins"] > 0]["wins"].tolist()
    assert main(["stats", "simulate", "--games", "10", "--bots", "baseline", "random"]) == 2
    assert "--bots" in capsys.readouterr().err


def _archive(path, n, seed):
    """Text archive of n compiled baseline games (as selfplay(n, seed) plays
    them) and that selfplay result."""
    r = selfplay(n, "baseline", seed=seed, quan="random", hands=True)
    with open(path, "w") as f:
        for i in range(n):
            rec = play_compiled(r.walls[i].tolist(), int(r.quan[i]), [2] * 4, rng_seed=seed + i,
                                match_id=f"g{i}")
            f.write(rec.to_botzone_text())
    return r


def test_logs_statistics_are_those_of_the_games(tmp_path):
    path = tmp_path / "games.txt"
    r = _archive(path, 60, 5)
    acc, summary = stats_of_logs([path])
    assert summary.matches == 60 and summary.skipped == 0 and summary.agree == summary.wins
    want = FanStats().update(mjfast.score_batch(r.win_batch()))
    assert acc == want and acc.wins == (r.winner >= 0).sum()
    # the same rows as mjfast.logs.score, read back as a table
    df = mjfast.logs.score([path])
    assert FanStats().update(df) == want
    acc2, _ = stats_of_logs([path], workers=2)
    assert acc2 == want


def test_rows_arrays_marks_unscored_rows():
    rows = [{"total": 9, "fans": {"all_chows": 1, "seat_wind": 1}, "error": None},
            {"total": None, "fans": None, "error": "bad hand"},
            {"total": 8, "fans": {"no_such_fan": 1}, "error": None}]
    fc, tot, legal, err = rows_arrays(rows)
    assert err.tolist() == [0, 1, 1] and tot.tolist() == [9, -1, -1] and legal.tolist() == [True, False, False]
    assert fc[0].sum() == 2 and fc[1:].sum() == 0


def test_cli_stats_logs(tmp_path, capsys):
    path = tmp_path / "games.txt"
    r = _archive(path, 40, 9)
    out = tmp_path / "fans.csv"
    assert main(["stats", "logs", str(path), "--out", str(out), "--top", "2"]) == 0
    cap = capsys.readouterr()
    assert "matches read 40 = replayed 40 + skipped 0" in cap.err
    wins = int((r.winner >= 0).sum())
    assert cap.out.startswith(f"rows {wins:,}   wins {wins:,}   invalid 0")
    want = FanStats().update(mjfast.score_batch(r.win_batch())).table(sort="share")
    assert pd.read_csv(out)["wins"].tolist() == want["wins"].tolist()


def test_cli_stats_logs_reports_skipped_matches(capsys):
    assert main(["stats", "logs", ARCHIVE, "--top", "1"]) == 1
    cap = capsys.readouterr()
    assert "skipped matches:" in cap.err and "bad-false-hu" in cap.err
    assert main(["stats", "logs", "no/such/file.txt"]) == 2
    assert "no such file" in capsys.readouterr().err
