"""The one progress display (mjfast/_progress.py) and the commands that use it.

A bar is drawn on stderr only when stderr is a terminal (a fake one in
process, a real pseudo-terminal for the commands), has the total the command
knows, and nothing at all is written when stderr is a file or a pipe.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from mjfast import _progress
from mjfast._progress import HINT, NoBar, progress
from mjfast.logs.scoring import process, set_bytes_total, split_tasks, task_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = os.path.join(ROOT, "tests", "data", "logs", "archive.txt")
GAMES = os.path.join(ROOT, "docs", "examples", "games.txt")
HANDS = os.path.join(ROOT, "docs", "examples", "hands.jsonl")

tqdm = pytest.importorskip("tqdm")


class _Terminal(io.StringIO):
    def isatty(self):
        super().isatty()           # ValueError once closed, as a real terminal's
        return True


class _File(io.StringIO):
    def isatty(self):
        return False


def test_a_bar_is_drawn_on_a_terminal_with_its_total(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with progress(total=250, desc="scoring", unit="line") as bar:
        assert not isinstance(bar, NoBar)
        bar.update(100)
        bar.refresh()
        drawn = err.getvalue()
    assert "scoring" in drawn and "/250" in drawn and "100" in drawn and "%" in drawn


def test_bytes_are_shown_in_binary_units(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with progress(total=3 << 20, desc="replaying", unit="B") as bar:
        bar.update(1 << 20)
        bar.refresh()
    assert "MB" in err.getvalue() or "M" in err.getvalue()
    assert "3.00M" in err.getvalue()          # the total, divided by 1024 twice


def test_nothing_is_written_when_stderr_is_not_a_terminal(monkeypatch):
    err = _File()
    monkeypatch.setattr(sys, "stderr", err)
    with progress(total=10, desc="scoring") as bar:
        assert isinstance(bar, NoBar)
        for _ in range(10):
            bar.update()
        bar.set_postfix_str("x")
        assert bar.n == 10
    assert err.getvalue() == ""


def test_enabled_false_draws_nothing_even_on_a_terminal(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert isinstance(progress(total=3, enabled=False), NoBar)
    assert err.getvalue() == ""


def test_a_closed_or_missing_stderr_means_no_bar(monkeypatch):
    monkeypatch.setattr(sys, "stderr", None)
    assert isinstance(progress(total=3), NoBar)
    closed = _Terminal()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    assert isinstance(progress(total=3), NoBar)


def test_without_tqdm_a_terminal_gets_one_hint(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setitem(sys.modules, "tqdm", None)      # import tqdm raises ImportError
    monkeypatch.setattr(_progress, "_hinted", False)
    a = progress(total=3)
    b = progress(total=3)
    assert isinstance(a, NoBar) and isinstance(b, NoBar)
    assert err.getvalue() == HINT + "\n"                 # once per process
    assert "'.[cli]'" in HINT


def test_without_tqdm_nothing_is_written_off_a_terminal(monkeypatch):
    err = _File()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(_progress, "_hinted", False)
    assert isinstance(progress(total=3), NoBar)
    assert err.getvalue() == ""


@pytest.mark.parametrize("terminal", [True, False])
def test_an_iterable_is_wrapped_either_way(monkeypatch, terminal):
    err = _Terminal() if terminal else _File()
    monkeypatch.setattr(sys, "stderr", err)
    bar = progress(iter(range(7)), total=7, desc="items")
    assert list(bar) == list(range(7))
    bar.close()
    assert bar.n == 7
    assert ("items" in err.getvalue()) == terminal


def test_a_no_bar_without_an_iterable_refuses_iteration():
    with pytest.raises(TypeError, match="wraps no iterable"):
        list(NoBar())


def test_the_bytes_bar_of_logs_reaches_its_total_over_units():
    # the archive cut into many units: each unit's bytes, summed, are the file
    tasks = split_tasks([ARCHIVE, GAMES], chunk_bytes=2048)
    assert sum(1 for t in tasks if t[0] == GAMES) > 3
    bar = NoBar()
    set_bytes_total(bar, tasks)
    assert bar.total == os.path.getsize(ARCHIVE) + os.path.getsize(GAMES)
    for t in tasks:
        bar.update(task_bytes(t))
    assert bar.n == bar.total


@pytest.mark.parametrize("workers", [1, 2])
def test_process_moves_the_bytes_bar_to_its_total(tmp_path, workers):
    d = tmp_path / "d"
    d.mkdir()
    (d / "notes.txt").write_text("not a unit of a directory")
    bar = NoBar()
    units = list(process([GAMES, ARCHIVE, str(d)], workers=workers, bytes_bar=bar))
    assert units and bar.total == os.path.getsize(GAMES) + os.path.getsize(ARCHIVE)
    assert bar.n == bar.total


# -- the commands, with stderr on a pseudo-terminal ------------------------------------------


def _run_on_a_terminal(args, cwd):
    """(exit code, stdout, what the terminal showed) of ``python -m mjfast ARGS``."""
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios
    master, slave = pty.openpty()
    # a terminal 100 columns wide (a new pseudo-terminal has 0, where tqdm draws nothing)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, PYTHONPATH=ROOT, COLUMNS="100")
    try:
        p = subprocess.Popen([sys.executable, "-m", "mjfast", *args], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=slave, cwd=cwd, env=env)
    finally:
        os.close(slave)
    shown = b""
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:          # EIO: the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        out = p.stdout.read()
        p.wait(timeout=300)
        os.close(master)
    return p.returncode, out, shown.decode("utf-8", "replace")


def _run_to_a_pipe(args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True, cwd=cwd, env=env,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr.decode()


def _hands_file(tmp_path, n=3000):
    with open(HANDS, encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines[i % len(lines)] for i in range(n)) + "\n")
    return str(path), n


def test_score_jsonl_draws_a_bar_of_lines_on_a_terminal(tmp_path):
    src, n = _hands_file(tmp_path)
    code, _out, shown = _run_on_a_terminal(["score", "--jsonl", src, str(tmp_path / "r.jsonl")], tmp_path)
    assert code == 1, shown                   # the file has bad records, as docs/examples/hands.jsonl
    assert "scoring" in shown and f"0/{n} [00:00<?" in shown, shown      # a total, and so an ETA
    assert "\rscoring" in shown


def test_score_jsonl_no_progress_and_pipes_draw_nothing(tmp_path):
    src, n = _hands_file(tmp_path)
    code, _out, shown = _run_on_a_terminal(["score", "--jsonl", src, str(tmp_path / "r.jsonl"), "--no-progress"],
                                           tmp_path)
    assert code == 1 and "scoring" not in shown and "\r\n" in shown and "\r" not in shown.replace("\r\n", ""), shown
    code, _out, err = _run_to_a_pipe(["score", "--jsonl", src, str(tmp_path / "r.jsonl")], tmp_path)
    assert code == 1 and "scoring" not in err and "\r" not in err and "\x1b" not in err, err
    assert f"{n:,}" in err or str(n) in err          # the summary is still there


def test_logs_score_draws_a_bar_of_bytes_on_a_terminal(tmp_path):
    code, out, shown = _run_on_a_terminal(["logs", "score", GAMES, "--out", str(tmp_path / "r.jsonl")], tmp_path)
    assert "replaying" in shown, shown
    size = os.path.getsize(GAMES) / 1024
    assert f"/{size:.1f}k" in shown, shown          # the total, in KiB
    code2, _out, err = _run_to_a_pipe(["logs", "score", GAMES, "--out", str(tmp_path / "r2.jsonl")], tmp_path)
    assert code2 == code and "replaying" not in err and "\r" not in err, err
    assert (tmp_path / "r.jsonl").read_bytes() == (tmp_path / "r2.jsonl").read_bytes()


def test_stats_simulate_draws_a_bar_of_games_on_a_terminal(tmp_path):
    code, out, shown = _run_on_a_terminal(["stats", "simulate", "--games", "40", "--chunk-size", "8"], tmp_path)
    assert code == 0, shown
    assert "playing" in shown and "/40 [" in shown, shown
    code2, out2, err = _run_to_a_pipe(["stats", "simulate", "--games", "40", "--chunk-size", "8"], tmp_path)
    assert code2 == 0 and "playing" not in err and "\r" not in err, err
    assert out2 == out                                   # the same table either way


def test_stats_enumerate_draws_a_bar_of_hands_on_a_terminal(tmp_path):
    code, out, shown = _run_on_a_terminal(["stats", "enumerate", "--form", "knitted_straight"], tmp_path)
    assert code == 0, shown
    assert "enumerating" in shown and "/11016 [" in shown, shown
    code2, out2, err = _run_to_a_pipe(["stats", "enumerate", "--form", "knitted_straight"], tmp_path)
    assert code2 == 0 and "enumerating" not in err and "\r" not in err, err
    assert out2 == out


def test_a_total_given_late_is_shown_as_one_given_at_once(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    bar = progress(desc="late", unit="line")
    _progress.set_total(bar, 3000)
    bar.update(1000)
    bar.refresh()
    bar.close()
    assert "1000/3000 [" in err.getvalue()
    big = progress(desc="big", unit="line")
    _progress.set_total(big, 2_000_000)
    big.update(1_000_000)
    big.refresh()
    big.close()
    assert "1.00M/2.00M" in err.getvalue()
    nobar = NoBar()
    _progress.set_total(nobar, 7)
    assert nobar.total == 7
