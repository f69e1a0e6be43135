"""Engine games written in both platform formats, read back, replayed, scored.

Round trip: games played by the engine (the Python state machine with seeded
``RandomPlayer``s, and the compiled engine with its random and baseline
policies) are written with ``to_botzone_text()`` and ``to_botzone_json()``,
read back by ``mjfast.logs`` and scored: every game replays, every recorded
fan list, total and settlement is reproduced, and the summary balances.

Independent check of the context flags: the same text archives are followed
by tests/logs_judge.py -- a replayer written from formats.md that shares no
code with mjfast.game or mjfast.logs -- which computes the judge's context
for each win (self-drawn, fourth tile, last tile, kong) and scores it with
PyMahjongGB; mjfast.logs must find the same winner, discarder, flags, fans
and total.  (tests/test_game_oracle.py checks the engine's scores against
PyMahjongGB *given the engine's own context*; here the context itself is
recomputed independently, from the log alone.)

A few hundred games of each kind in the default run; thousands under
``pytest -m slow``.
"""
import json
import os
import tempfile

import pytest

import mjfast
import mjfast.logs as L
from mjfast.game import CODES, play, random_walls
from mjfast.game.fast import play_compiled
from mjfast.game.players import RandomPlayer

import logs_judge as J

KINDS = ("python-random", "compiled-baseline", "compiled-mixed")


def game(kind, seed):
    quan = seed % 4
    mid = f"{kind}-{seed}"
    if kind == "python-random":
        return play([RandomPlayer(seed * 4 + s, p_greedy=0.9) for s in range(4)], seed=seed, quan=quan,
                    match_id=mid)
    # the compiled self-play engine; policies 1 random, 2 baseline (mjfast.game.fast.POLICIES)
    pol = [2, 2, 2, 2] if kind == "compiled-baseline" else [1, 2, 1, 2]
    return play_compiled(random_walls(seed), quan, pol, seed=seed, match_id=mid, rng_seed=seed,
                         p_claim=0.7, p_kong=0.9)


def games(kind, seeds):
    return [game(kind, s) for s in seeds]


def fan_counts(win):
    out = {}
    for f in win.fans:
        out[f.key] = out.get(f.key, 0) + f.count
    return out


def write(tmp_path, recs):
    text = tmp_path / "games.txt"
    text.write_text("".join(r.to_botzone_text() for r in recs), encoding="utf-8")
    js = tmp_path / "games.json"
    with open(js, "w", encoding="utf-8") as f:
        json.dump([r.to_botzone_json() for r in recs], f, ensure_ascii=False)
    return text, js


def check_roundtrip(recs, path):
    df = L.score(str(path))
    s = df.attrs["summary"]
    n_win = sum(r.win is not None for r in recs)
    # nothing dropped, nothing skipped: matches read = replayed + skipped, wins found = wins scored
    assert (s.matches, s.replayed, s.skipped) == (len(recs), len(recs), 0), s.text()
    assert s.huang == sum(r.huang for r in recs)
    assert s.error_endings == sum(r.error is not None for r in recs)
    assert s.wins == s.scored == len(df) == n_win
    assert s.agree == s.with_record == n_win, s.text()
    rows = {r["match"]: r for r in df.to_dict("records")}
    for rec in recs:
        w = rec.win
        if w is None:
            assert rec.match_id not in rows
            continue
        row = rows[rec.match_id]
        assert (row["winner"], row["discarder"], row["tile"], row["hand"]) == \
            (w.winner, w.from_seat, CODES[w.tile], w.hand), rec.match_id
        assert (row["self_drawn"], row["fourth_tile"], row["last_tile"], row["kong"]) == \
            (w.self_drawn, w.fourth_tile, w.last_tile, w.kong), rec.match_id
        assert (row["seat_wind"], row["round_wind"]) == ("ESWN"[w.winner], "ESWN"[rec.quan])
        # every recorded fan list reproduced: ours, the record's and the engine's
        assert row["total"] == row["recorded_total"] == w.total
        assert row["fans"] == row["recorded_fans"] == fan_counts(w), rec.match_id
        assert row["settlement"] == row["recorded_score"] == list(rec.scores)
        assert row["agrees"] is True
    return df


def check_independent(recs):
    """The independent judge follows each text log; its context and PyMahjongGB's
    score of every win equal what mjfast.logs finds.  Returns the flags seen."""
    text = "".join(r.to_botzone_text() for r in recs)
    ours = {}
    for m in _read(text):
        ours[m.id] = r = L.replay(m)
        # the compiled replay and the Python engine's replay give the same result
        slow = L.replay(m, fast=False)
        assert (slow.outcome, slow.wins, slow.scores) == (r.outcome, r.wins, r.scores), m.id
    seen = set()
    wins = 0
    for mid, _first, lines in J.split_matches(text):
        j = J.replay_text(lines)
        r = ours[mid]
        if j.win is None:
            assert r.outcome in ("huang", "error") and not r.wins, mid
            assert j.huang == (r.outcome == "huang"), mid
            continue
        wins += 1
        (w,) = r.wins
        ref = j.win
        assert (w.winner, w.discarder, w.tile) == (ref["winner"], ref["discarder"], ref["tile"]), mid
        flags = (w.self_drawn, w.fourth_tile, w.last_tile, w.kong)
        assert flags == (ref["self_drawn"], ref["fourth_tile"], ref["last_tile"], ref["kong"]), (mid, flags, ref)
        seen.update(k for k, v in zip(("self_drawn", "fourth_tile", "last_tile", "kong"), flags) if v)
        if ref["kong"] and not ref["self_drawn"]:
            seen.add("robbing")
        # our score of the win equals PyMahjongGB's with the independent context
        ours_total, ours_fans = _score_win(w)
        ref_fans = {}
        for _p, cnt, _zh, en in ref["fans"]:
            key = L.fan_key(en)
            assert key is not None, en
            ref_fans[key] = ref_fans.get(key, 0) + cnt
        assert (ours_total, ours_fans) == (ref["total"], ref_fans), mid
    return seen, wins


def _read(text):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "a.txt")
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        yield from L.read(p)


def _score_win(w):
    """Our score of a win, from the hand and context mjfast.logs found."""
    sc = mjfast.score(w.hand, self_drawn=w.self_drawn, fourth_tile=w.fourth_tile, kong=w.kong,
                      last_tile=w.last_tile, seat_wind=w.seat_wind, round_wind=w.round_wind, flowers=0)
    fans = {}
    for f in sc.fans:
        fans[f.key] = fans.get(f.key, 0) + f.count
    return sc.total, fans


# ------------------------------------------------------------------------------ round trip

@pytest.mark.parametrize("kind", KINDS)
def test_roundtrip_text_and_json(tmp_path, kind):
    recs = games(kind, range(150))
    assert sum(r.win is not None for r in recs) > 40
    text, js = write(tmp_path, recs)
    a = check_roundtrip(recs, text)
    b = check_roundtrip(recs, js)
    cols = [c for c in L.COLUMNS if c not in ("file", "pos")]
    assert a[cols].to_dict("records") == b[cols].to_dict("records")


def test_roundtrip_export_and_workers(tmp_path):
    recs = games("python-random", range(150, 250)) + games("compiled-baseline", range(150, 250))
    text, js = write(tmp_path, recs)
    exported = list(L.export([str(text), str(js)]))
    wins = [r for r in recs if r.win is not None]
    assert len(exported) == 2 * len(wins)
    for rec, e in zip(wins + wins, exported):
        assert e["id"].startswith(rec.match_id + ":")
        assert e == {**rec.win.as_record(), "id": e["id"]}
    one = L.score([str(text), str(js)])
    two = L.score([str(text), str(js)], workers=2)
    assert one.to_dict("records") == two.to_dict("records")


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_roundtrip_many_games(tmp_path, kind):
    for block in range(4):
        recs = games(kind, range(1000 + 1000 * block, 2000 + 1000 * block))
        text, js = write(tmp_path, recs)
        check_roundtrip(recs, text)
        check_roundtrip(recs, js)


# ------------------------------------------------------------------------------ independent context

@pytest.mark.oracle
def test_context_flags_agree_with_an_independent_judge():
    seen = set()
    wins = 0
    for kind in KINDS:
        s, w = check_independent(games(kind, range(300, 600)))
        seen |= s
        wins += w
    assert wins > 400
    # every flag was exercised, a robbed kong included
    assert seen == {"self_drawn", "fourth_tile", "last_tile", "kong", "robbing"}


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.parametrize("kind", KINDS)
def test_context_flags_agree_with_an_independent_judge_many_games(kind):
    seen = set()
    wins = 0
    for block in range(5):
        s, w = check_independent(games(kind, range(10000 + 1000 * block, 11000 + 1000 * block)))
        seen |= s
        wins += w
    assert wins > 2000
    assert seen >= {"self_drawn", "fourth_tile", "last_tile"}


def check_can_hu(recs):
    """The ``canHu`` the engine writes in each judge entry of a record's JSON (its
    context flags and our scorer, at every moment a seat could declare Hu) equals
    the independent judge's (its own context, PyMahjongGB)."""
    checked = 0
    for rec in recs:
        (mid, _first, lines), = J.split_matches(rec.to_botzone_text())
        theirs, _where = J.to_json(mid, lines)
        a = [e["output"]["display"] for e in rec.to_botzone_json()["logs"] if "output" in e]
        b = [e["output"]["display"] for e in theirs["logs"] if "output" in e]
        assert [x["action"] for x in a] == [y["action"] for y in b], mid
        for x, y in zip(a, b):
            if x["action"] in ("DRAW", "PLAY", "CHI", "PENG", "BUGANG", "GANG"):
                assert (x["canHu"], x["tileCnt"]) == (y["canHu"], y["tileCnt"]), (mid, x, y)
                checked += sum(v != -4 for v in x["canHu"])
    return checked


@pytest.mark.oracle
def test_can_hu_agrees_with_an_independent_judge():
    assert check_can_hu(games("python-random", range(40)) + games("compiled-mixed", range(40))) > 15000


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.parametrize("kind", KINDS)
def test_can_hu_agrees_with_an_independent_judge_many_games(kind):
    assert check_can_hu(games(kind, range(20000, 21000))) > 200000


# ------------------------------------------------------------------------------ the CLI on engine games

def _cli(*args, cwd=None):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "mjfast", "logs", *args], capture_output=True, text=True,
                          cwd=cwd or os.path.dirname(os.path.dirname(__file__)))


def test_cli_on_clean_archives(tmp_path):
    """Every match replays: exit 0; CSV and Parquet hold one row per win with the
    columns of COLUMNS; --workers 2 writes byte-identical output and report."""
    recs = games("python-random", range(600, 700)) + games("compiled-mixed", range(600, 700))
    text, js = write(tmp_path, recs)
    n_win = sum(r.win is not None for r in recs)
    one = _cli("score", str(text), str(js), "--out", str(tmp_path / "a.jsonl"), "--no-progress")
    two = _cli("score", str(text), str(js), "--out", str(tmp_path / "b.jsonl"), "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert one.stderr == two.stderr
    assert f"matches read {2 * len(recs)} = replayed {2 * len(recs)} + skipped 0" in one.stderr
    assert f"wins found {2 * n_win} = wins scored {2 * n_win}" in one.stderr
    assert f"agreement with the recorded fans: {2 * n_win}/{2 * n_win} (100.00 %)" in one.stderr
    import csv
    r = _cli("score", str(text), "--out", str(tmp_path / "a.csv"))
    assert r.returncode == 0
    with open(tmp_path / "a.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == list(L.COLUMNS) and len(rows) == 1 + n_win
    pq = pytest.importorskip("pyarrow.parquet")
    r = _cli("score", str(js), "--out", str(tmp_path / "a.parquet"))
    assert r.returncode == 0
    t = pq.read_table(str(tmp_path / "a.parquet"))
    assert t.num_rows == n_win and t.column_names == list(L.COLUMNS)
    assert sorted(t.column("total").to_pylist()) == sorted(x.win.total for x in recs if x.win is not None)


def test_cli_usage_errors(tmp_path):
    recs = games("compiled-mixed", range(5))
    text, _js = write(tmp_path, recs)
    r = _cli("score", str(text), "--out", str(tmp_path / "a.txt"))
    assert r.returncode == 2 and "--out must end in .jsonl, .csv or .parquet" in r.stderr
    r = _cli("score", str(tmp_path / "missing.txt"))
    assert r.returncode == 2 and "no such file or directory" in r.stderr
    r = _cli("score", str(text), "--workers", "0")
    assert r.returncode == 2 and "--workers must be >= 1" in r.stderr
    r = _cli("export", str(text), "--out", "-")
    assert r.returncode == 0
    assert len(r.stdout.splitlines()) == sum(x.win is not None for x in recs)
    assert "wins exported" in r.stderr


# ------------------------------------------------------------------------------ the compiled self-play statistics

@pytest.mark.oracle
def test_selfplay_games_read_back_to_their_statistics(tmp_path):
    """mjfast.game.fast.selfplay (the arrays self-play statistics are made of)
    plays game i on ``walls[i]`` with the policy RNG seeded ``seed + i``; the
    same game played by play_compiled gives a record whose text and JSON read
    back, through mjfast.logs, to exactly the winner, payer, total, flags and
    scores the arrays hold, and the independent judge agrees with the flags."""
    from mjfast.game.fast import selfplay
    pol = ["random", "baseline", "random", "baseline"]
    res = selfplay(200, pol, seed=11, quan="random", p_claim=0.6, p_kong=0.8)
    recs = [play_compiled(res.walls[i], int(res.quan[i]), [1, 2, 1, 2], match_id=f"sp-{i}", rng_seed=11 + i,
                          p_claim=0.6, p_kong=0.8) for i in range(len(res))]
    text, js = write(tmp_path, recs)
    rows = {r["match"]: r for r in check_roundtrip(recs, text).to_dict("records")}
    check_roundtrip(recs, js)
    won = 0
    for i, rec in enumerate(recs):
        assert list(res.scores[i]) == list(rec.scores)
        row = rows.get(f"sp-{i}")
        if res.winner[i] < 0:
            assert row is None
            assert bool(res.huang[i]) == rec.huang
            continue
        won += 1
        payer = None if res.from_seat[i] < 0 else int(res.from_seat[i])
        assert (row["winner"], row["discarder"], row["total"]) == (res.winner[i], payer, res.total[i])
        assert (row["self_drawn"], row["fourth_tile"], row["kong"], row["last_tile"]) == \
            (res.self_drawn[i], res.fourth_tile[i], res.kong[i], res.last_tile[i])
    assert won > 60
    _seen, wins = check_independent(recs)
    assert wins == won


class Erring:
    """A RandomPlayer that, at its k-th choice, answers something the rules do not
    allow (a false Hu, a discard it does not hold, a pung without a pair, ...)."""

    BAD = ("HU", "PLAY {absent}", "PENG {held}", "GANG", "CHI {absent} {held}", "BUGANG {held}")

    def __init__(self, seed, k, kind):
        self.inner = RandomPlayer(seed, p_greedy=0.9)
        self.k = k
        self.kind = kind

    def bind(self, st, seat):
        self.inner.bind(st, seat)

    def act(self, st, seat):
        self.k -= 1
        if self.k:
            return self.inner.act(st, seat)
        h = st.hands[seat]
        held = next(CODES[t] for t in range(34) if h[t])
        absent = next(CODES[t] for t in range(34) if not h[t])
        r = self.BAD[self.kind].format(held=held, absent=absent)
        # an answer that happens to be legal here would not end the game: use a false Hu then
        return r if r not in st.legal_actions(seat) else "PLAY " + absent


def test_roundtrip_error_rule_games(tmp_path):
    """Games ended by the error rule (every kind of refused answer, on a draw or
    on another seat's discard) read back as error endings of the right seat, in
    the text (no line for the refused answer, the Score says who) and in the JSON
    (the refused answer is fed to the engine, which must refuse it too)."""
    recs = []
    for seed in range(120):
        seat = seed % 4
        players = [RandomPlayer(seed * 4 + s, p_greedy=0.9) for s in range(4)]
        players[seat] = Erring(seed, 1 + seed % 7, seed % len(Erring.BAD))
        recs.append(play(players, seed=seed, quan=seed % 4, match_id=f"err-{seed}"))
    errors = [r for r in recs if r.error is not None]
    assert len(errors) > 80
    assert {r.error[1] for r in errors} == {"WA", "WH"}
    text, js = write(tmp_path, recs)
    for path in (text, js):
        check_roundtrip(recs, path)
        got = {m.id: L.replay(m) for m in L.read(str(path))}
        for r in errors:
            g = got[r.match_id]
            assert (g.outcome, g.error_seat, g.scores) == ("error", r.error[0], list(r.scores)), r.match_id
