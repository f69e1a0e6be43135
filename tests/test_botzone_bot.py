"""The bots and the match runner: ``python -m mjfast.botzone`` driven as a
subprocess through whole games (JSON and simple interaction, keep-running and
one process per turn), the error rule for broken bots, ``mjfast match``, and
a small sample-vs-baseline match without illegal responses or false Hu."""
import io
import json
import sys

import pytest

import mjfast
from mjfast.botzone import BotState
from mjfast.botzone.__main__ import KEEP_RUNNING, run
from mjfast.botzone.bots import BaselineBot, SampleBot
from mjfast.botzone.match import InProcessBot, SubprocessBot, play_game, run_match
from mjfast.cli import main as cli_main
from mjfast.game import GameRecord, random_walls

BOT = f"{sys.executable} -m mjfast.botzone"


def _inprocess_game(walls, quan, kinds):
    return play_game([InProcessBot(k) for k in kinds], walls, quan)


@pytest.mark.parametrize("mode", ["json", "simple"])
def test_keep_running_whole_game(mode):
    walls = random_walls(11)
    sub = SubprocessBot(BOT, mode=mode, time_limit=60)
    rec = play_game([InProcessBot("baseline"), sub, InProcessBot("baseline"), InProcessBot("sample")], walls, 1)
    assert rec.error is None
    n_turns = len(rec.rounds)
    assert n_turns > 20
    # one process for the whole game: every turn after the first was a keep-running turn
    assert sub.keep_running_turns == n_turns - 1
    # the program answers exactly as the in-process sample bot does
    ref = _inprocess_game(walls, 1, ["baseline", "sample", "baseline", "sample"])
    assert [r[1] for r in rec.rounds] == [r[1] for r in ref.rounds]
    assert rec.scores == ref.scores


def _history(seed, seat):
    """A whole in-process game's requests and responses for one seat."""
    walls = random_walls(seed)
    rec = _inprocess_game(walls, 0, ["sample"] * 4)
    reqs = []
    resps = [r[seat] for r in rec.rounds]

    def on_request(st, kind, resp):
        reqs.append(st.init_request(seat) if kind == "INIT" else st.deal_request(seat) if kind == "DEAL"
                    else st.request(seat))
    rec.replay(on_request=on_request)
    return reqs, resps


@pytest.mark.parametrize("mode", ["json", "simple"])
def test_one_process_per_turn(mode):
    # the judge may start the bot anew each turn with the whole history
    reqs, resps = _history(5, 2)
    assert len(reqs) == len(resps) > 20
    for k in (1, 2, len(reqs) // 2, len(reqs) - 1):
        if mode == "json":
            inp = json.dumps({"requests": reqs[:k], "responses": resps[:k - 1]}) + "\n"
        else:
            lines = [str(k)]
            for i in range(k):
                lines.append(reqs[i])
                if i < k - 1:
                    lines.append(resps[i])
            inp = "\n".join(lines + ["", ""]) + "\n"
        out = io.StringIO()
        run(io.StringIO(inp), out, once=True)
        first = out.getvalue().splitlines()[0]
        got = json.loads(first)["response"] if mode == "json" else first
        assert got == resps[k - 1], (k, reqs[k - 1])


def test_keep_running_in_process_reads_requests_only():
    reqs, resps = _history(7, 0)
    # JSON first turn, then bare requests (a JSON string, or a raw line) and the empty data lines
    lines = [json.dumps({"requests": reqs[:1], "responses": []})]
    for i, r in enumerate(reqs[1:]):
        lines.append(json.dumps(r) if i % 2 else r)
        lines.append("")
    out = io.StringIO()
    run(io.StringIO("\n".join(lines) + "\n"), out)
    got = [json.loads(x)["response"] for x in out.getvalue().splitlines() if x != KEEP_RUNNING]
    assert got == resps


def _script(tmp_path, code):
    f = tmp_path / "bot.py"
    f.write_text(code)
    return f"{sys.executable} {f}"


@pytest.mark.parametrize("code,err,limit", [
    ("import sys; sys.stdin.readline(); print('{\"response\": \"PLAY W1\"}')", "WA", 60),  # PASS expected
    ("import sys; sys.stdin.readline(); raise SystemExit(3)", "RE", 60),
    ("import sys, time; sys.stdin.readline(); time.sleep(120)", "TLE", 1.5),   # first turn: 2 x 1.5 s
])
def test_error_rule(tmp_path, code, err, limit):
    res = run_match([_script(tmp_path, code), "mjfast:baseline", "mjfast:baseline", "mjfast:baseline"],
                    games=1, seed=3, time_limit=limit)
    rec = res.records[0]
    assert rec.error[0] == 0 and rec.error[1] == err
    assert rec.scores == [-30, 10, 10, 10]
    assert res.stats[0].errors == {err: 1}


def test_match_cli(tmp_path, capsys):
    out = tmp_path / "logs.txt"
    rc = cli_main(["match", "mjfast:sample", "mjfast:baseline", "mjfast:baseline", BOT,
                   "--games", "4", "--seed", "2", "--out", str(out)])
    assert rc == 0
    table = capsys.readouterr().out
    assert "mjfast:sample" in table and "mean score" in table
    text = out.read_text()
    assert text.count("Match ") == 4 and text.count("Score ") == 4
    # each game's scores sum to zero (settlement) and the first one matches an in-process replay
    for line in text.splitlines():
        if line.startswith("Score "):
            assert sum(int(x) for x in line.split()[1:]) == 0


def test_match_rejects_bad_arguments():
    with pytest.raises(ValueError, match="4 bots"):
        run_match(["mjfast:sample"] * 3)
    with pytest.raises(ValueError, match="unknown built-in bot"):
        run_match(["mjfast:nobody"] + ["mjfast:sample"] * 3)
    with pytest.raises(ValueError, match="games"):
        run_match(["mjfast:sample"] * 4, games=0)


def test_sample_vs_baseline_small_match_is_clean():
    res = run_match(["mjfast:sample", "mjfast:baseline", "mjfast:baseline", "mjfast:baseline"], games=20, seed=9)
    for rec in res.records:
        assert rec.error is None          # no illegal response, no false Hu
        if rec.win is not None:
            assert rec.win.total >= 8
    assert sum(b.games for b in res.stats) == 80


def test_bots_only_answer_legal_actions():
    # at every request of a game the bots' answers are among the state's legal actions
    for cls in (SampleBot, BaselineBot):
        for seed in range(3):
            bots = [cls() for _ in range(4)]
            rec = play_game([_Checked(b) for b in bots], random_walls(seed), 0)
            assert rec.error is None


class _Checked:
    name = "checked"

    def __init__(self, bot):
        self.bot = bot
        self.shadow = BotState()

    def new_game(self):
        pass

    def close(self):
        pass

    def respond(self, request):
        r = self.bot.respond(request)
        self.shadow.update(request, r)
        assert r in self.shadow.legal_actions()
        return r


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["json", "simple"])
def test_one_process_per_turn_whole_game(mode):
    # the judge's mode without keep-running: a fresh process each turn, given the whole history
    walls = random_walls(13)
    sub = SubprocessBot(BOT + " --once", mode=mode, time_limit=60)
    rec = play_game([InProcessBot("baseline"), InProcessBot("sample"), sub, InProcessBot("baseline")], walls, 2)
    assert rec.error is None and sub.keep_running_turns == 0
    ref = _inprocess_game(walls, 2, ["baseline", "sample", "sample", "baseline"])
    assert [r[2] for r in rec.rounds] == [r[2] for r in ref.rounds]


def test_a_failing_policy_still_answers_legally():
    class Broken(SampleBot):
        def decide(self, st, legal):
            raise RuntimeError("boom")
    rec = play_game([_Checked(Broken()), InProcessBot("baseline"), InProcessBot("baseline"),
                     InProcessBot("baseline")], random_walls(4), 0)
    assert rec.error is None


def test_match_logs_read_back_by_the_log_reader(tmp_path):
    # the games mjfast match writes are read and replayed by mjfast.logs to the same outcome
    import mjfast.logs as logs
    res = run_match(["mjfast:sample", "mjfast:baseline", "mjfast:baseline", "mjfast:sample"], games=8, seed=3)
    path = tmp_path / "games.txt"
    path.write_text("".join(r.to_botzone_text() for r in res.records), encoding="utf-8")
    matches = list(logs.read(str(path)))
    assert len(matches) == 8
    for m, rec in zip(matches, res.records):
        r = logs.replay(m)
        if rec.win is not None:
            assert r.outcome == "hu"
            w = r.wins[0]
            assert (w.winner, w.hand, w.self_drawn) == (rec.win.winner, rec.win.hand, rec.win.self_drawn)
        else:
            assert r.outcome == ("huang" if rec.huang else "error")


def test_sample_bot_discards_toward_an_8_point_target():
    # two away either way by plain shanten; the baseline keeps the most useful
    # tiles, the sample bot the discard whose nearest 8-point target is nearest
    from mjfast.game import tile_of
    st = BotState.from_requests(["0 0 0", "1 0 0 0 0 F4 T4 W2 B9 B3 T1 T6 B5 F4 B9 W1 T8 B1", "2 T7"])
    legal = st.legal_actions()

    def after(action):
        h = list(st.hand)
        h[tile_of(action.split()[1])] -= 1
        return h

    a = SampleBot().decide(st, legal)
    b = BaselineBot().decide(st, legal)
    assert mjfast.shanten(after(a)) == mjfast.shanten(after(b)) == 2
    assert mjfast.fan_shanten(after(a)) < mjfast.fan_shanten(after(b))
    plays = [x for x in legal if x.startswith("PLAY") and mjfast.shanten(after(x)) == 2]
    assert mjfast.fan_shanten(after(a)) == min(mjfast.fan_shanten(after(x)) for x in plays)


def test_bot_program_rules(monkeypatch, capsys):
    # --rules on the bot program: MCR with its defaults plays; another rule set
    # or a changed option exits 2 naming it, before reading any request
    from mjfast.botzone.__main__ import main as bot_main
    for argv, want in ((["--rules", "zhuji"], "does not support rule set 'zhuji'"),
                       (["--rules", "two_player", "--bot", "baseline"], "does not support rule set 'two_player'"),
                       (["--rule-option", "min_points=0"], "supports rule set 'mcr' with its default options only"),
                       (["--rule-option", "nope=1"], "has no option 'nope'")):
        monkeypatch.setattr(sys, "stdin", io.StringIO('{"requests": ["0 0 0"], "responses": []}\n'))
        assert bot_main(argv + ["--once"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("python -m mjfast.botzone: error: ") and want in err
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"requests": ["0 0 0"], "responses": []}\n'))
    assert bot_main(["--rules", "mcr", "--once"]) == 0
    assert json.loads(capsys.readouterr().out) == {"response": "PASS"}
