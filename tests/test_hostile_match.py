"""Hostile inputs to ``mjfast match`` and to a few silent arguments.

Local matches: a bot behind a wrapper script that sleeps past the limit, a
bot that forks, a bot whose child holds its output open, a match stopped by
an exception, Ctrl-C or SIGTERM: afterwards no process of theirs is left (each
test's processes carry a marker of its own in their command line).  A bad
``--time-limit`` or an ``--out`` that cannot be written is an error before any
bot starts (each bot script first leaves a file saying it started).

Every match runs in a child process with a timeout, so a regression shows as
a failure rather than a hung suite; the per-turn limits are small or the bots
answer at once, so each test takes a few seconds.

Then the arguments that were accepted silently: ``fan_shanten`` /
``fan_targets`` ``min_points``, ``selfplay`` / ``selfplay_series`` /
``simulate`` / ``RandomPlayer`` probabilities, seeds and winds.
"""
import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import numpy as np
import pytest

import mjfast
from mjfast.botzone.match import SubprocessBot, check_time_limit, run_match
from mjfast.cli import main as cli_main
from mjfast.game.fast import selfplay, selfplay_series
from mjfast.game.players import RandomPlayer
from mjfast.stats.simulate import simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and FIFOs are POSIX")


# ---------------------------------------------------------------------------
# helpers


def _env():
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _cmdlines():
    """{pid: command line} of every live process (zombies have none)."""
    out = {}
    if os.path.isdir("/proc"):
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
                except OSError:
                    continue
                if cmd:
                    out[int(pid)] = cmd
        return out
    ps = subprocess.run(["ps", "-Ao", "pid=,stat=,args="], capture_output=True, text=True, check=True)
    for line in ps.stdout.splitlines():
        pid, st, cmd = (line.split(None, 2) + ["", ""])[:3]
        if not st.startswith("Z"):
            out[int(pid)] = cmd
    return out


def _marked(mark):
    return [pid for pid, cmd in _cmdlines().items() if mark in cmd]


def _survivors(mark, wait=5.0):
    """The marked processes still alive after up to ``wait`` s (SIGKILL is
    delivered at once, but the death itself is not synchronous)."""
    end = time.monotonic() + wait
    while True:
        left = _marked(mark)
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.05)


@pytest.fixture
def mark():
    """A marker for this test's processes; whatever still carries it at the
    end is killed (by pid: only processes this test started carry it)."""
    m = "mjfast-hostile-" + uuid.uuid4().hex
    yield m
    for pid in _marked(m):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _sleeper(mark):
    """argv (as Python source) of a process that sleeps for a minute, marked."""
    return f"[{PY!r}, '-c', 'import time; time.sleep(60)', {mark!r}]"


def _script(path, code, started=None):
    """A bot script; ``started``: a file it creates first thing."""
    head = f"open({str(started)!r}, 'a').close()\n" if started else ""
    path.write_text(head + textwrap.dedent(code))
    return f"{PY} {path}"


# a bot that discards the tile it drew and passes on everything else,
# one process per turn, with no import of mjfast (so a turn costs a
# Python start-up, a few tens of ms)
_TSUMOGIRI = """
    import json, sys
    req = json.loads(sys.stdin.readline())["requests"][-1]
    print(json.dumps({"response": "PLAY " + req[2:] if req.startswith("2 ") else "PASS"}), flush=True)
"""

# run_match in a child: its records' errors and scores as JSON
_RUN = r"""
import json, sys
from mjfast.botzone.match import run_match
a = json.loads(sys.argv[1])
res = run_match(a["specs"], games=a["games"], seed=a.get("seed", 0), time_limit=a["limit"])
print(json.dumps({"errors": [r.error for r in res.records], "scores": [r.scores for r in res.records],
                  "turns": [len(r.rounds) for r in res.records]}))
"""


def _run_match(specs, games, limit, timeout=120):
    p = subprocess.run([PY, "-c", _RUN, json.dumps({"specs": specs, "games": games, "limit": limit})],
                       cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


BASE = ["mjfast:baseline"] * 3


# ---------------------------------------------------------------------------
# the whole process group goes


def test_a_wrapper_scripts_bot_is_killed_with_it_at_a_timeout(tmp_path, mark):
    # the shell waits for the real bot, which sleeps past the limit: a time-out
    # used to kill the shell only and leave the bot running for a minute
    wrap = tmp_path / "bot.sh"
    wrap.write_text(f"#!/bin/sh\nexec 2>/dev/null\n{PY} -c 'import time; time.sleep(60)' {mark}\n")
    wrap.chmod(0o755)
    got = _run_match([str(wrap)] + BASE, games=2, limit=0.3)
    # the bot's seat: 0 in game 0, 3 in game 1 (the bots rotate)
    assert [e[:2] for e in got["errors"]] == [[0, "TLE"], [3, "TLE"]]
    assert _survivors(mark) == []


def test_a_bot_that_forks_leaves_no_children(tmp_path, mark):
    # a keep-running bot (python -m mjfast.botzone) started by a script that
    # first forks a marked child; the child used to outlive every game
    code = f"""
        import os, sys
        if os.fork() == 0:
            os.execv({PY!r}, {_sleeper(mark)})
        os.execv({PY!r}, [{PY!r}, "-m", "mjfast.botzone"])
    """
    bot = _script(tmp_path / "forking.py", code)
    got = _run_match([bot] + BASE, games=2, limit=10)
    assert got["errors"] == [None, None]            # it played both games through
    assert all(t > 20 for t in got["turns"])
    assert _survivors(mark) == []


def test_a_child_holding_the_bots_output_neither_stalls_nor_survives(tmp_path, mark):
    # one process per turn; each turn leaves a child holding stdout open, so
    # the pipe never reaches EOF: each turn used to wait for the whole limit
    # (+1 s) before the next, here 20 s a turn, over a hundred turns.  The
    # turn ends when the bot's own process has exited.
    code = textwrap.dedent(f"""
        import subprocess
        subprocess.Popen({_sleeper(mark)}, stdin=subprocess.DEVNULL)     # inherits stdout
    """) + textwrap.dedent(_TSUMOGIRI)
    bot = _script(tmp_path / "holder.py", code)
    got = _run_match([bot] + BASE, games=1, limit=20, timeout=100)
    assert got["errors"] == [None] and got["turns"][0] > 20
    assert _survivors(mark) == []


def test_a_bot_that_exits_without_answering_while_its_child_holds_stdout_is_re(tmp_path, mark):
    code = f"""
        import subprocess, sys
        sys.stdin.readline()
        subprocess.Popen({_sleeper(mark)}, stdin=subprocess.DEVNULL)
    """
    bot = _script(tmp_path / "mute.py", code)
    got = _run_match([bot] + BASE, games=1, limit=20, timeout=60)
    assert got["errors"][0][:2] == [0, "RE"]        # not a TLE after 40 s
    assert _survivors(mark) == []


def _forking_keep_running_bot(tmp_path, mark, started):
    code = f"""
        import os, subprocess, sys
        subprocess.Popen({_sleeper(mark)}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        os.execv({PY!r}, [{PY!r}, "-m", "mjfast.botzone"])
    """
    return _script(tmp_path / "bot.py", code, started=started)


def test_an_exception_in_the_match_kills_the_bots(tmp_path, mark):
    bot = _forking_keep_running_bot(tmp_path, mark, None)
    code = r"""
import json, sys
from mjfast.botzone.match import run_match
def stop(done):
    raise RuntimeError("stopped by the caller")
try:
    run_match([sys.argv[1]] + ["mjfast:baseline"] * 3, games=3, time_limit=10, progress=stop)
except RuntimeError as exc:
    print(json.dumps(str(exc)))
"""
    p = subprocess.run([PY, "-c", code, bot], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and json.loads(p.stdout) == "stopped by the caller", p.stderr[-2000:]
    assert _survivors(mark) == []


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM)])
def test_a_match_stopped_by_a_signal_kills_the_bots(tmp_path, mark, sig, code):
    # a bot that never answers (limit 60 s): the match is waiting for it when
    # the signal comes; the bots are in sessions of their own, so only the
    # match can kill them
    started = tmp_path / "started"
    bot = _script(tmp_path / "slow.py", f"""
        import subprocess, time
        subprocess.Popen({_sleeper(mark)}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        time.sleep(60)
    """, started=started)
    # SIGINT at its default in the match, as in a terminal: a job started in
    # the background by a non-interactive shell (`cmd &`) inherits SIGINT
    # ignored, and Python then installs no KeyboardInterrupt handler, so the
    # signal would do nothing (rightly: an ignored SIGINT stays ignored)
    p = subprocess.Popen([PY, "-m", "mjfast", "match", bot] + BASE + ["--time-limit", "60"], cwd=ROOT,
                         env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        end = time.monotonic() + 60
        while not _marked(mark) and time.monotonic() < end:
            time.sleep(0.05)
        assert _marked(mark), "the bot did not start"
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == code, err
    assert _survivors(mark) == []


def test_dropped_bots_are_killed_at_interpreter_exit(tmp_path, mark):
    # a program that starts a bot turn and exits without closing it
    bot = _forking_keep_running_bot(tmp_path, mark, None)
    code = r"""
import sys
from mjfast.botzone.match import SubprocessBot
from mjfast.game import GameState, random_walls
b = SubprocessBot(sys.argv[1], time_limit=10)
st = GameState(0, walls=random_walls(1))
print(b.respond(st.init_request(0)))
"""
    p = subprocess.run([PY, "-c", code, bot], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "PASS", p.stderr[-2000:]
    assert _survivors(mark) == []


# ---------------------------------------------------------------------------
# --time-limit and --out: errors before anything runs


BAD_LIMITS = ["nan", "NaN", "inf", "-inf", "Infinity", "0", "0.0", "-1", "-0.5", "1e400", "", "abc", "6s"]


@pytest.mark.parametrize("value", BAD_LIMITS)
def test_a_bad_time_limit_is_an_argument_error(tmp_path, capsys, value):
    started = tmp_path / "started"
    bot = _script(tmp_path / "bot.py", _TSUMOGIRI, started=started)
    with pytest.raises(SystemExit) as exc:
        cli_main(["match", bot] + BASE + [f"--time-limit={value}", "--games", "1"])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1 and "--time-limit" in errors[0], err
    assert "Traceback" not in err and out == ""
    assert not started.exists()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 0, 0.0, -1, True, np.True_, "6", None, [6]])
def test_a_bad_time_limit_is_refused_by_the_library(value):
    with pytest.raises(mjfast.InvalidArgument, match="time_limit"):
        run_match(["mjfast:sample"] * 4, games=1, time_limit=value)
    with pytest.raises(mjfast.InvalidArgument, match="time_limit"):
        SubprocessBot("true", time_limit=value)
    with pytest.raises(ValueError):         # InvalidArgument is a ValueError
        check_time_limit(value)


def test_good_time_limits_pass():
    assert check_time_limit(6) == 6.0 and check_time_limit(0.3) == 0.3
    assert check_time_limit(1e-3) == 1e-3 and check_time_limit(np.float32(2.5)) == 2.5


def _unwritable(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    return {"missing directory": tmp_path / "no-such-dir" / "logs.txt",
            "a directory": tmp_path,
            "under a file": a_file / "logs.txt"}


@pytest.mark.parametrize("case", ["missing directory", "a directory", "under a file"])
def test_an_unwritable_out_is_refused_before_any_game(tmp_path, capsys, case):
    target = _unwritable(tmp_path)[case]
    started = tmp_path / "started"
    bot = _script(tmp_path / "bot.py", _TSUMOGIRI, started=started)
    rc = cli_main(["match", bot] + BASE + ["--games", "1", "--out", str(target)])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mjfast: error: --out ") and str(target) in err, err
    assert not started.exists()                 # no bot was started, no game played
    assert (tmp_path / "a-file").read_text() == "x"


def test_a_fifo_nobody_reads_as_out_is_an_error_not_a_hang(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    p = subprocess.run([PY, "-m", "mjfast", "match"] + ["mjfast:sample"] * 4 + ["--games", "1", "--out", str(fifo)],
                       cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("mjfast: error: --out ") and p.stderr.count("\n") == 1


def test_a_failed_match_leaves_no_out_file_and_an_old_one_untouched(tmp_path, capsys):
    new = tmp_path / "new.txt"
    old = tmp_path / "old.txt"
    old.write_text("earlier games\n")
    for target in (new, old):
        rc = cli_main(["match", "mjfast:nobody"] + BASE + ["--games", "1", "--out", str(target)])
        out, err = capsys.readouterr()
        assert rc == 2 and "unknown built-in bot" in err and err.count("\n") == 1
    assert not new.exists()
    assert old.read_text() == "earlier games\n"


def test_out_is_written_after_the_games(tmp_path, capsys):
    old = tmp_path / "old.txt"
    old.write_text("x" * 100000)                 # longer than the games: truncated first
    rc = cli_main(["match"] + ["mjfast:sample"] * 4 + ["--games", "2", "--out", str(old)])
    assert rc == 0
    text = old.read_text()
    assert text.count("Match ") == 2 and "xxxxxxxx" not in text


def test_games_must_be_positive_on_the_command_line(capsys):
    for value in ("0", "-3", "1.5"):
        with pytest.raises(SystemExit) as exc:
            cli_main(["match"] + ["mjfast:sample"] * 4 + ["--games", value])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert len([line for line in err.splitlines() if "error" in line]) == 1 and "--games" in err


# ---------------------------------------------------------------------------
# min_points of the fan targets


HAND = "123m456p789s11pEEN"


@pytest.mark.parametrize("value", [8.5, 8.0, math.nan, math.inf, -math.inf, True, False, np.True_, -1, 89,
                                   10 ** 30, "8", [8]])
def test_min_points_must_be_an_int_in_range(value):
    for f in (mjfast.fan_shanten, mjfast.fan_targets):
        with pytest.raises(mjfast.InvalidArgument, match="min_points"):
            f(HAND, min_points=value)


def test_min_points_in_range_works_as_before():
    every = mjfast.fan_targets(HAND, min_points=0)
    assert mjfast.fan_targets(HAND) == mjfast.fan_targets(HAND, min_points=8)
    for m in (0, 8, np.int64(16), 24, 88):
        got = mjfast.fan_targets(HAND, min_points=m)
        assert got == [t for t in every if t.points >= m]
        best = min((t.shanten for t in got if t.shanten is not None), default=None)
        assert mjfast.fan_shanten(HAND, min_points=m) == best
    assert mjfast.fan_shanten(HAND, min_points=88) is not None      # 88-point targets exist


def test_useful_must_be_a_bool():
    with pytest.raises(mjfast.InvalidArgument, match="useful"):
        mjfast.fan_targets(HAND, useful=1)
    assert all(t.useful == [] for t in mjfast.fan_targets(HAND, useful=False))


# ---------------------------------------------------------------------------
# self-play arguments


BAD_PROBABILITIES = [math.nan, math.inf, -math.inf, 5, -0.1, 1.0000001, True, "0.5", None]


@pytest.mark.parametrize("value", BAD_PROBABILITIES)
@pytest.mark.parametrize("name", ["p_claim", "p_kong"])
def test_probabilities_must_be_in_0_1(name, value):
    with pytest.raises(mjfast.InvalidArgument, match=name):
        selfplay(2, "random", **{name: value})
    with pytest.raises(mjfast.InvalidArgument, match=name):
        selfplay_series(2, "random", **{name: value})
    with pytest.raises(mjfast.InvalidArgument, match=name):
        simulate(4, bots="random", **{name: value})
    with pytest.raises(mjfast.InvalidArgument, match=name):
        RandomPlayer(**{name: value})


@pytest.mark.parametrize("name", ["p_hu", "p_greedy"])
def test_random_players_other_probabilities(name):
    with pytest.raises(mjfast.InvalidArgument, match=name):
        RandomPlayer(**{name: math.nan})


def test_probability_edges_are_honoured():
    # p_claim = 0: the random policy never chows or pungs, so nobody shows a
    # meld other than a kong; p_claim = 1 with p_kong = 0: claims happen
    never = selfplay(300, "random", seed=2, p_claim=0, p_kong=0, hands=True).win_batch()
    assert len(never.n_melds) > 0 and never.n_melds.sum() == 0
    always = selfplay(300, "random", seed=2, p_claim=1, p_kong=0, hands=True).win_batch()
    assert always.n_melds.sum() > 0
    # a numpy float is a number
    a = selfplay(5, "random", seed=3, p_claim=np.float32(0.25))
    b = selfplay(5, "random", seed=3, p_claim=0.25)
    assert (a.scores == b.scores).all()


@pytest.mark.parametrize("kw", [dict(seed=1.5), dict(seed="3"), dict(seed=-1), dict(seed=True),
                                dict(quan=True), dict(quan=1.0), dict(quan=4), dict(quan="cycle"),
                                dict(hands=1), dict(n_games=2.0), dict(n_games=-1)])
def test_selfplay_other_arguments(kw):
    a = dict(n_games=2, policy="random")
    a.update(kw)
    with pytest.raises(mjfast.InvalidArgument):
        selfplay(**a)


@pytest.mark.parametrize("kw", [dict(seed=1.5), dict(seed="3"), dict(seed=True), dict(quan=True),
                                dict(quan=2.0), dict(quan="random"), dict(hands=0), dict(first=1.0)])
def test_selfplay_series_other_arguments(kw):
    a = dict(n_games=2, policy="random")
    a.update(kw)
    with pytest.raises(mjfast.InvalidArgument):
        selfplay_series(**a)


def test_selfplay_series_keeps_negative_and_numpy_seeds():
    # the series takes the seed's low 64 bits, as before
    a = selfplay_series(3, "random", seed=-1)
    b = selfplay_series(3, "random", seed=np.uint64(2 ** 64 - 1))
    assert (a.scores == b.scores).all()
    c = selfplay_series(3, "random", seed=np.int64(7), quan=np.int8(2))
    d = selfplay_series(3, "random", seed=7, quan=2)
    assert (c.scores == d.scores).all()


# ---------------------------------------------------------------------------
# more hostile bots and specs


def test_a_bot_printing_without_end_is_re_not_out_of_memory(tmp_path, mark):
    # a line that never ends would grow the reader's buffer for the whole limit
    bot = _script(tmp_path / "spew.py", f"""
        import os, sys
        sys.argv.append({mark!r})
        chunk = b"x" * 65536
        while True:
            os.write(1, chunk)
    """)
    got = _run_match([bot] + BASE, games=1, limit=30, timeout=100)
    assert got["errors"][0][:2] == [0, "RE"] and "longer than" in got["errors"][0][2]
    assert _survivors(mark) == []


@pytest.mark.parametrize("spec,what", [("", "empty bot command"), ("   ", "empty bot command"),
                                       ("'unclosed", "No closing quotation"), (None, "a bot is"),
                                       (7, "a bot is")])
def test_bad_bot_specs_are_argument_errors(spec, what):
    with pytest.raises(ValueError, match=what):
        run_match([spec] + BASE, games=1)


def test_a_missing_program_loses_by_the_error_rule():
    res = run_match(["/no/such/program --flag"] + BASE, games=1, time_limit=5)
    assert res.records[0].error[:2] == (0, "RE")


@pytest.mark.parametrize("kw", [dict(mode=["json"] * 3), dict(mode="xml"), dict(first_game=-1),
                                dict(first_game=1.0), dict(games=True), dict(games=0)])
def test_bad_match_arguments(kw):
    with pytest.raises(ValueError):
        run_match(["mjfast:sample"] + BASE, **kw)


# ---------------------------------------------------------------------------
# a bot that fails is reported with its reason, per game and in the summary;
# `mjfast match` exits 1 when a bot failed to run (an illegal answer is a
# result of the game: exit 0, but reported with the answer)


def _cli_match(bot, games=2, limit=5, extra=(), timeout=120):
    p = subprocess.run([PY, "-m", "mjfast", "match", "mjfast:sample", "mjfast:baseline", "mjfast:baseline", bot,
                        "--games", str(games), "--time-limit", str(limit), *extra],
                       cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in p.stderr, p.stderr
    assert "nan" not in p.stdout, p.stdout
    return p


def _game_lines(p):
    return [ln for ln in p.stderr.splitlines() if ln.startswith("mjfast: game ")]


def _check_reported(p, bot, code, reason, games=2):
    """Each game's line on stderr, the summary on stdout, one reason throughout."""
    lines = _game_lines(p)
    # the bot is the 4th: seat 3 in game 1, then 2, 1, 0 (the bots rotate)
    assert [ln.split(": ", 3)[1:3] for ln in lines] == \
        [[f"game {g + 1}", f"bot 4 ({bot}) in seat {3 - g % 4}"] for g in range(games)], p.stderr
    for ln in lines:
        assert ln.split(": ", 4)[3] == code and reason in ln, ln
    out = p.stdout.splitlines()
    assert f"  bot 4 ({bot}): {games} of {games} games ({code} {games})" in out, p.stdout
    assert any(ln.startswith(f"    {code} x") and reason in ln for ln in out), p.stdout


def test_a_bot_that_is_not_found_is_reported_and_the_match_exits_1():
    p = _cli_match("nosuchbot-mjfast --x", games=4)
    _check_reported(p, "nosuchbot-mjfast --x", "RE", "cannot start: command 'nosuchbot-mjfast' not found", games=4)
    assert p.returncode == 1
    assert p.stderr.splitlines()[-1].startswith("mjfast: error: bot 4 (nosuchbot-mjfast --x) failed to run in 4 of 4")
    # the table: no nan where there is no interval or no win, a dash
    row = [ln for ln in p.stdout.splitlines() if ln.startswith("nosuchbot-mjfast")][0]
    assert row.split()[-1] == "-" and row.split()[-4] == "-30.00"


def test_a_bot_that_is_not_executable_is_reported(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("print('never')\n")
    bot.chmod(0o644)
    p = _cli_match(str(bot), games=1)
    _check_reported(p, str(bot), "RE", "is not executable (permission denied)", games=1)
    assert p.returncode == 1


def test_a_crash_is_reported_with_its_exit_status_and_the_end_of_its_stderr(tmp_path):
    bot = _script(tmp_path / "crash.py", """
        import sys
        sys.stdin.readline()
        print("loading the model", file=sys.stderr)
        raise RuntimeError("the model file is missing")
    """)
    p = _cli_match(bot)
    _check_reported(p, bot, "RE", "the bot printed no answer; exit status 1; stderr: ")
    assert "RuntimeError: the model file is missing" in _game_lines(p)[0]
    assert p.returncode == 1


def test_an_exit_status_and_a_signal_are_reported(tmp_path):
    bot = _script(tmp_path / "exit7.py", """
        import sys
        sys.stdin.readline()
        sys.exit(7)
    """)
    p = _cli_match(bot, games=1)
    _check_reported(p, bot, "RE", "the bot printed no answer; exit status 7", games=1)
    assert "stderr:" not in _game_lines(p)[0]           # it wrote nothing there
    bot = _script(tmp_path / "segv.py", """
        import os, signal, sys
        sys.stdin.readline()
        os.kill(os.getpid(), signal.SIGSEGV)
    """)
    p = _cli_match(bot, games=1)
    _check_reported(p, bot, "RE", "killed by signal 11 (SIGSEGV)", games=1)
    assert p.returncode == 1


def test_a_long_stderr_is_quoted_by_its_last_lines_on_one_line(tmp_path):
    bot = _script(tmp_path / "chatty.py", """
        import sys
        sys.stdin.readline()
        for i in range(100000):
            print(f"debug line {i}", file=sys.stderr)
        sys.exit(2)
    """)
    p = _cli_match(bot, games=1)
    line = _game_lines(p)[0]
    assert line.endswith("exit status 2; stderr: ...debug line 99997 | debug line 99998 | debug line 99999"), line
    assert p.returncode == 1


def test_a_time_out_is_reported_with_the_limit(tmp_path, mark):
    bot = _script(tmp_path / "slow.py", f"""
        import sys, time
        sys.argv.append({mark!r})
        sys.stdin.readline()
        print("thinking", file=sys.stderr, flush=True)
        time.sleep(60)
    """)
    p = _cli_match(bot, limit=0.3)
    _check_reported(p, bot, "TLE", "no answer within the time limit (0.3 s); stderr: thinking")
    assert p.returncode == 1
    assert _survivors(mark) == []


def test_an_answer_that_is_not_the_protocol_is_reported(tmp_path):
    bot = _script(tmp_path / "chat.py", """
        import sys
        sys.stdin.readline()
        print("hello, judge")
    """)
    p = _cli_match(bot, games=1)
    _check_reported(p, bot, "RE", "not a JSON answer with a 'response': 'hello, judge'", games=1)
    assert p.returncode == 1


def test_an_illegal_answer_is_a_game_result_reported_with_the_answer(tmp_path):
    # discards a tile it does not hold (W9 is not dealt to seat 3 nor 2 on these walls; checked below)
    bot = _script(tmp_path / "wa.py", """
        import json, sys
        req = json.loads(sys.stdin.readline())["requests"][-1]
        print(json.dumps({"response": "PLAY W9" if req.startswith("2 ") else "PASS"}), flush=True)
    """)
    p = _cli_match(bot)
    _check_reported(p, bot, "WA", "answered 'PLAY W9': discards W9, which is not in the hand")
    assert p.returncode == 0
    assert "mjfast: error" not in p.stderr


def test_a_false_hu_is_reported_with_the_answer(tmp_path):
    bot = _script(tmp_path / "wh.py", """
        import json, sys
        req = json.loads(sys.stdin.readline())["requests"][-1]
        print(json.dumps({"response": "HU" if req.startswith("2 ") else "PASS"}), flush=True)
    """)
    p = _cli_match(bot, games=1)
    _check_reported(p, bot, "WH", "answered 'HU': declared Hu on ", games=1)
    assert p.returncode == 0


def test_match_errors_in_the_library():
    res = run_match(["mjfast:sample", "/no/such/program"] + BASE[:2], games=3, first_game=2, time_limit=5)
    errs = res.errors()
    # games 3, 4, 5 of the match (numbers 2, 3, 4): rotations 2, 3, 0 put bot 1 in seats 3, 2, 1
    assert [(e.game, e.bot, e.seat, e.code, e.failed_to_run) for e in errs] == \
        [(3, 1, 3, "RE", True), (4, 1, 2, "RE", True), (5, 1, 1, "RE", True)]
    assert all(e.reason == "cannot start: command '/no/such/program' not found" for e in errs)
    assert res.failed
    assert "nan" not in res.table()
    ok = run_match(["mjfast:sample"] + BASE, games=1)
    assert ok.errors() == [] and not ok.failed
    seen = []
    run_match(["mjfast:sample", "/no/such/program"] + BASE[:2], games=2, time_limit=5, on_game=seen.append)
    assert [e.game for e in seen] == [1, 2]


def test_the_tournament_reports_a_failing_bot_and_exits_1():
    p = subprocess.run([PY, "-m", "mjfast.botzone.tournament", "--games", "4", "--opponent", "/no/such/program"],
                       cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "nan" not in p.stdout
    assert "    /no/such/program: RE x4: cannot start: command '/no/such/program' not found" in p.stdout.splitlines()
    assert "95 % interval -" in p.stdout                # one wall set: no interval


# ---------------------------------------------------------------------------
# the progress bar: by games, on a terminal only


def test_match_shows_a_bar_by_games_on_a_terminal_only():
    import fcntl
    import pty
    import select
    import struct
    import termios
    master, slave = pty.openpty()
    # a terminal 100 columns wide (a new pty has 0: tqdm would draw nothing)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    err = b""
    try:
        p = subprocess.Popen([PY, "-m", "mjfast", "match", "mjfast:sample"] + BASE + ["--games", "4"],
                             cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        slave = None
        # read while it runs: once the last writer of a pty is gone, Linux may drop what is unread
        while select.select([master], [], [], 60)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:         # EIO: the child is gone
                break
            if not chunk:
                break
            err += chunk
        out = p.stdout.read().decode()
        assert p.wait(timeout=60) == 0
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    err = err.decode("utf-8", "replace")
    # a bar by games with its total (tqdm may clear it before drawing 4/4)
    assert "match" in err and "/4 [" in err and "games" in err, err
    assert "/4 [" not in out and "mjfast:sample" in out
    quiet = subprocess.run([PY, "-m", "mjfast", "match", "mjfast:sample"] + BASE + ["--games", "4"],
                           cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == ""

