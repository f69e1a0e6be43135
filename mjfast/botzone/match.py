"""``mjfast match``: four bots through the game engine, as the platform runs them.

A bot is either built in (``mjfast:sample``, ``mjfast:baseline``: answered in
process) or a command line started as a subprocess that speaks the Botzone
protocol (``python -m mjfast.botzone``, any other program).  A subprocess bot
gets the platform's interaction: each turn the whole history as one JSON line
(``--mode json``) or in the simple format (``--mode simple``: the turn number,
then requests and its earlier responses line by line, then the data and
globaldata lines).  A bot that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``
after its answer is kept alive and gets just the next request (JSON: the
request as a JSON string; simple: the request line); otherwise a new process
is started for every turn.

The time limit is per turn (the first turn gets twice as much); a bot that
exceeds it (``TLE``), crashes or prints nothing (``RE``), or answers what the
rules do not allow (``WA``; a false Hu ``WH``) ends the game by the error rule:
that seat -30, the others +10.

A subprocess bot runs in a process group of its own (POSIX: a new session),
and the whole group is killed whenever its process is done with: at the end
of each turn of a bot that does not keep running, at a time-out or crash, at
the end of each game, and when the match stops early (an exception, Ctrl-C,
SIGTERM under ``mjfast match``).  So a bot started by a wrapper script, a bot
that forks, or a child left holding the bot's output leaves nothing behind;
and a turn ends as soon as the bot's own process has exited and its output is
read, even while something it started still holds the pipe open.  (A process
that puts itself into another session, as a daemon does, escapes the group.
On Windows the process tree is ended with ``taskkill /T``.)

Games are played over shuffled walls from ``--seed``; the bots rotate over
the seats on the same walls (the duplicate scheme): game g uses wall set
g // 4 with the bot list rotated by g % 4, so with a multiple of 4 games each
bot sits in each seat once per wall set.
"""
from __future__ import annotations

import atexit
import contextlib
import json
import math
import numbers
import os
import random
import selectors
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from ..errors import InvalidArgument
from .._progress import progress
from ..game import GameRecord, GameState, IllegalAction, drive, random_walls
from .__main__ import KEEP_RUNNING
from .bots import BOTS, make_bot

__all__ = ["run_match", "MatchResult", "GameError", "BotStats", "SubprocessBot", "InProcessBot", "make_player",
           "main"]


_POSIX = os.name == "posix"
#: how often a wait for a bot's output looks whether its process is still
#: there (its output may be held open by something it started)
_POLL = 0.05
#: how long a bot whose turn or game is over may take to exit by itself
_GRACE = 0.5
#: the longest output line read from a bot (an answer is a few dozen bytes)
_MAX_LINE = 1 << 20
#: how much of the end of a failed bot's stderr its failure message quotes
_TAIL_BYTES = 4096
_TAIL_LINES = 3
_TAIL_CHARS = 300
#: the codes of a bot that failed to run (late, crashed, no answer, not the
#: protocol); WA and WH are answers the rules refuse: a result of the game
FAILED_TO_RUN = ("TLE", "RE")


def check_time_limit(value) -> float:
    """The per-turn time limit in seconds: a finite number > 0
    (:class:`~mjfast.errors.InvalidArgument` otherwise: NaN or inf would make
    every subprocess bot lose, 0 or less would allow no turn at all)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgument(f"time_limit must be a number of seconds, got {value!r}")
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise InvalidArgument(f"time_limit must be a finite number of seconds > 0, got {value!r}")
    return v


def _exit_status(rc):
    """How a process ended, from its return code (None: still running)."""
    if rc is None:
        return None
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = None
        return f"killed by signal {-rc}" + (f" ({name})" if name else "")
    return f"exit status {rc}"


def _tail(f):
    """The last few non-empty lines of the bot's stderr file ``f``, as one
    line (' | ' between lines), or ''."""
    if f is None:
        return ""
    try:
        f.flush()
        end = f.seek(0, os.SEEK_END)
        f.seek(max(0, end - _TAIL_BYTES))
        data = f.read()
    except (OSError, ValueError):
        return ""
    # a traceback's ^~~~ marker lines say nothing on one line
    lines = [ln.strip() for ln in data.decode("utf-8", "replace").splitlines() if ln.strip(" \t^~")]
    text = " | ".join(lines[-_TAIL_LINES:])
    if len(lines) > _TAIL_LINES or end > _TAIL_BYTES:       # earlier lines left out
        text = "..." + text
    if len(text) > _TAIL_CHARS:
        text = "..." + text[-_TAIL_CHARS:]
    return text


def _kill_group(p):
    """Kill bot process ``p`` and everything it started (its process group),
    then reap ``p``.  The group is killed even when ``p`` has exited: what it
    forked may still run."""
    try:
        if _POSIX:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass            # nothing left in the group (or nothing of ours)
        elif p.poll() is None:
            # Windows: no process groups to signal; end the tree while its root is there
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(p.pid)], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if p.poll() is None:
            p.kill()
    except OSError:
        pass
    finally:
        _LIVE.discard(p)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (p.stdin, p.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


#: bot processes started and not yet killed (killed at interpreter exit, for
#: a program that drops a SubprocessBot without closing it)
_LIVE: set = set()


@atexit.register
def _kill_leftovers():
    for p in list(_LIVE):
        _kill_group(p)


class _BotFailure(Exception):
    def __init__(self, code, detail):
        super().__init__(detail)
        self.code = code
        self.detail = detail


class InProcessBot:
    """A built-in bot (``mjfast:<name>``), a fresh one for each game."""

    def __init__(self, name):
        self.name = "mjfast:" + name
        self._kind = name
        self.bot = make_bot(name)
        self.times = []

    def new_game(self):
        self.bot = make_bot(self._kind)

    def respond(self, request):
        t0 = time.perf_counter()
        r = self.bot.respond(request)
        self.times.append(time.perf_counter() - t0)
        return r

    def close(self):
        pass


class SubprocessBot:
    """A program speaking the Botzone protocol, run as the platform runs it."""

    def __init__(self, command, mode="json", time_limit=6.0, cwd=None):
        if mode not in ("json", "simple"):
            raise ValueError(f"mode must be 'json' or 'simple', got {mode!r}")
        if not isinstance(command, str):
            raise InvalidArgument(f"a bot command is a string (a command line), got {command!r}")
        self.name = command
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:       # an unclosed quote
            raise InvalidArgument(f"bot command {command!r}: {exc}") from None
        if not self.argv:
            raise ValueError("empty bot command")
        self.mode = mode
        self.time_limit = check_time_limit(time_limit)
        self.cwd = cwd
        self.proc = None
        self._err = None            # the current process's stderr (a temporary file)
        self.times = []
        self.first_times = []
        self.keep_running_turns = 0
        self.new_game()

    def new_game(self):
        self.close()
        self.requests = []
        self.responses = []
        self._buf = b""

    # -- process handling

    def _start(self):
        # a group of its own, so that the bot and whatever it starts can be
        # killed together (see _kill_group)
        kw = {"start_new_session": True} if _POSIX else \
            {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
        # stderr goes to a file, not a pipe: a pipe nobody drains would block
        # a chatty bot; the file's end is quoted when the bot fails
        self._close_err()
        self._err = tempfile.TemporaryFile()
        prog = self.argv[0]
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._err, cwd=self.cwd, **kw)
        except FileNotFoundError:
            where = f" (in {self.cwd})" if self.cwd is not None and not os.path.isdir(self.cwd) else ""
            raise _BotFailure("RE", f"cannot start: command {prog!r} not found{where}") from None
        except PermissionError:
            raise _BotFailure("RE", f"cannot start: {prog!r} is not executable (permission denied)") from None
        except OSError as exc:
            raise _BotFailure("RE", f"cannot start {prog!r}: {exc.strerror or exc}") from None
        _LIVE.add(self.proc)
        self._buf = b""

    def _close_err(self):
        f, self._err = self._err, None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass

    def _failure(self, code, what, wait=0.0):
        """A :class:`_BotFailure` saying ``what`` went wrong, how the bot's
        process ended (waiting up to ``wait`` s for it to exit by itself) and
        the end of its stderr; the process group is killed."""
        p = self.proc
        status = None
        if p is not None:
            if wait > 0 and p.poll() is None:
                try:
                    p.wait(timeout=wait)
                except subprocess.TimeoutExpired:
                    pass
            status = _exit_status(p.poll())
        tail = _tail(self._err)
        self.close(grace=0)
        parts = [what] + ([status] if status else []) + ([f"stderr: {tail}"] if tail else [])
        return _BotFailure(code, "; ".join(parts))

    def close(self, grace=_GRACE):
        """Done with the bot's process: close its input, give it ``grace``
        seconds to exit, then kill its whole group (also on Ctrl-C here)."""
        p = self.proc
        self.proc = None
        if p is None:
            self._close_err()
            return
        try:
            try:
                p.stdin.close()
            except OSError:
                pass
            if grace > 0 and p.poll() is None:
                try:
                    p.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            _kill_group(p)
            self._close_err()

    def _eof(self):
        if self._buf:
            line, self._buf = self._buf, b""
            return line.decode("utf-8", "replace").rstrip("\r")
        return None

    def _readline(self, deadline):
        """One output line (without the newline), or None at the end of the
        bot's output; raises on timeout.  The output ends at EOF, or when the
        bot's process has exited and nothing more is waiting in the pipe (a
        child it started may hold the pipe open for good)."""
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            gone = False        # the process has exited: read what is left, then stop
            while b"\n" not in self._buf:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise _BotFailure("TLE", f"no answer within the time limit ({self.time_limit:g} s)")
                if not sel.select(0 if gone else min(left, _POLL)):
                    if gone:
                        return self._eof()
                    # it may have written just before exiting: one more look first
                    gone = self.proc.poll() is not None
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    return self._eof()
                self._buf += chunk
                if len(self._buf) > _MAX_LINE and b"\n" not in self._buf:
                    # a bot printing without end would fill the memory before its time is up
                    raise _BotFailure("RE", f"an output line longer than {_MAX_LINE // 1024} KiB")
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    def _full_input(self):
        n = len(self.requests)
        if self.mode == "json":
            return json.dumps({"requests": self.requests, "responses": self.responses}) + "\n"
        lines = [str(n)]
        for i, r in enumerate(self.requests):
            lines.append(r)
            if i < len(self.responses):
                lines.append(self.responses[i])
        lines += ["", ""]                       # data, globaldata
        return "\n".join(lines) + "\n"

    def respond(self, request):
        self.requests.append(request)
        first = len(self.requests) == 1
        limit = self.time_limit * (2 if first else 1)
        kept = self.proc is not None and self.proc.poll() is None
        if kept:
            data = (json.dumps(request) if self.mode == "json" else request) + "\n"
            self.keep_running_turns += 1
        else:
            self.close()
            data = self._full_input()
        t0 = time.perf_counter()
        try:
            if not kept:
                self._start()
            self.proc.stdin.write(data.encode())
            self.proc.stdin.flush()
        except _BotFailure:
            self.close(grace=0)
            raise
        except OSError as exc:
            # most often the bot has exited before reading its input
            raise self._failure("RE", f"could not send the request: {exc.strerror or exc}", wait=_GRACE) from None
        deadline = t0 + limit
        try:
            line = self._readline(deadline)
            while line is not None and not line.strip():
                line = self._readline(deadline)
        except _BotFailure as e:
            raise self._failure(e.code, e.detail) from None
        if line is None:
            raise self._failure("RE", "the bot printed no answer", wait=_GRACE)
        elapsed = time.perf_counter() - t0
        (self.first_times if first else self.times).append(elapsed)
        if self.mode == "json":
            try:
                resp = json.loads(line)["response"]
            except (ValueError, KeyError, TypeError):
                raise self._failure("RE", f"not a JSON answer with a 'response': {line[:80]!r}") from None
        else:
            resp = line
        resp = str(resp).strip()
        # the rest of this turn's output: debug / data lines, then either the
        # keep-running line or the end of the process (then its group is
        # killed: a turn leaves nothing running)
        try:
            while True:
                extra = self._readline(deadline + 1.0)
                if extra is None:
                    self.close()
                    break
                if extra.strip() == KEEP_RUNNING:
                    break
        except _BotFailure:
            self.close(grace=0)
        self.responses.append(resp)
        return resp


def make_player(spec, mode="json", time_limit=6.0):
    """``mjfast:<name>`` -> a built-in bot; anything else is a command line."""
    if not isinstance(spec, str):
        raise InvalidArgument(f"a bot is 'mjfast:<name>' or a command line, got {spec!r}")
    if spec.startswith("mjfast:"):
        name = spec.split(":", 1)[1]
        if name not in BOTS:
            raise ValueError(f"unknown built-in bot {spec!r}: expected one of "
                             f"{', '.join('mjfast:' + b for b in sorted(BOTS))}")
        return InProcessBot(name)
    return SubprocessBot(spec, mode=mode, time_limit=time_limit)


@dataclass
class BotStats:
    """What one bot did over a match (all seats it sat in)."""
    name: str
    games: int = 0
    scores: list = field(default_factory=list)
    wins: int = 0
    self_drawn: int = 0
    dealt_in: int = 0
    win_totals: list = field(default_factory=list)
    errors: dict = field(default_factory=dict)        # code -> count

    @property
    def mean(self):
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    def interval(self, z=1.96):
        """95 % interval of the mean score per game (normal approximation)."""
        n = len(self.scores)
        if n < 2:
            return (float("nan"), float("nan"))
        m = self.mean
        var = sum((x - m) ** 2 for x in self.scores) / (n - 1)
        h = z * math.sqrt(var / n)
        return (m - h, m + h)


def _answer(rec, seat):
    """The answer of ``seat`` that the rules refused (WA / WH): its response
    to the last request of the game, or None."""
    if rec.rounds and 0 <= seat < len(rec.rounds[-1]):
        return rec.rounds[-1][seat]
    return None


@dataclass
class GameError:
    """A game ended by the error rule: the ``game``-th game of the match
    (from 1: game number ``game - 1`` of the walls and rotation), ``bot``
    the index of the bot in the list given, ``seat`` its seat in that game,
    ``code`` the judge's code and ``reason`` what went wrong (for WA / WH
    with the answer)."""
    game: int
    bot: int
    name: str
    seat: int
    code: str
    reason: str

    @property
    def failed_to_run(self) -> bool:
        """The bot did not play (could not start, crashed, printed no
        answer or no protocol answer, was late): ``TLE`` / ``RE``."""
        return self.code in FAILED_TO_RUN

    def line(self) -> str:
        return f"game {self.game}: bot {self.bot + 1} ({self.name}) in seat {self.seat}: {self.code}: {self.reason}"


def _match_error(n, rec, order, names):
    """The :class:`GameError` of game ``n`` (from 1), or None."""
    if rec.error is None:
        return None
    seat, code, reason = rec.error[0], rec.error[1], " ".join(str(rec.error[2]).split())
    if code not in FAILED_TO_RUN:
        ans = _answer(rec, seat)
        if ans is not None:
            reason = f"answered {ans!r}: {reason}"
    return GameError(n, order[seat], names[order[seat]], seat, code, reason)


#: distinct reasons listed per bot in the summary (each game has its line too)
_REASONS_SHOWN = 5


@dataclass
class MatchResult:
    stats: list                 # BotStats per bot (in the order given)
    records: list               # GameRecord per game
    seats: list                 # per game: the bot index in each seat
    huang: int = 0
    first_game: int = 0         # the number of the first game (run_match's first_game)

    def errors(self) -> list:
        """A :class:`GameError` per game ended by the error rule, in order."""
        names = [b.name for b in self.stats]
        out = []
        for n, (rec, order) in enumerate(zip(self.records, self.seats), self.first_game + 1):
            e = _match_error(n, rec, order, names)
            if e is not None:
                out.append(e)
        return out

    @property
    def failed(self) -> bool:
        """Some bot failed to run in some game (``TLE`` / ``RE``)."""
        return any(e.failed_to_run for e in self.errors())

    def table(self) -> str:
        head = f"{'bot':<32} {'games':>6} {'wins':>5} {'win%':>6} {'self':>5} {'dealin':>6} " \
               f"{'errors':>7} {'mean score':>11} {'95% interval':>18} {'win total':>9}"
        lines = [head, "-" * len(head)]
        for b in self.stats:
            lo, hi = b.interval()
            # no interval from one game, no mean total without a win: a dash, not nan
            iv = f"[{lo:.2f}, {hi:.2f}]" if math.isfinite(lo) else "-"
            wt = f"{sum(b.win_totals) / len(b.win_totals):.1f}" if b.win_totals else "-"
            err = sum(b.errors.values())
            lines.append(f"{b.name[:32]:<32} {b.games:>6} {b.wins:>5} {100 * b.wins / max(b.games, 1):>5.1f}% "
                         f"{b.self_drawn:>5} {b.dealt_in:>6} {err:>7} {b.mean:>11.2f} "
                         f"{iv:>18} {wt:>9}")
        lines.append(f"games: {len(self.records)}, no winner: {self.huang}")
        lines += self._error_summary()
        return "\n".join(lines)

    def _error_summary(self):
        errs = self.errors()
        if not errs:
            return []
        out = [f"games ended by the error rule: {len(errs)}"]
        for i, b in enumerate(self.stats):
            mine = [e for e in errs if e.bot == i]
            if not mine:
                continue
            codes = {}
            reasons = {}
            for e in mine:
                codes[e.code] = codes.get(e.code, 0) + 1
                reasons[(e.code, e.reason)] = reasons.get((e.code, e.reason), 0) + 1
            out.append(f"  bot {i + 1} ({b.name}): {len(mine)} of {b.games} games ("
                       + ", ".join(f"{c} {k}" for c, k in codes.items()) + ")")
            for (code, reason), k in list(reasons.items())[:_REASONS_SHOWN]:
                out.append(f"    {code} x{k}: {reason}")
            if len(reasons) > _REASONS_SHOWN:
                out.append(f"    and {len(reasons) - _REASONS_SHOWN} other reasons (each game's is on its own line)")
        return out


def _close_all(players):
    """Close every player even when closing one fails (or Ctrl-C comes
    meanwhile); then raise the first failure."""
    first = None
    for p in players:
        try:
            p.close()
        except BaseException as exc:  # noqa: BLE001 - re-raised below, after the others are closed
            first = first or exc
    if first is not None:
        raise first


def play_game(players, walls, quan, match_id=None):
    """One game of 4 players (InProcessBot / SubprocessBot) -> GameRecord."""
    for p in players:
        p.new_game()
    st = GameState(quan, walls=walls)
    rounds = []

    def ask(st, kind):
        out = []
        for s in range(4):
            if kind == "INIT":
                req = st.init_request(s)
            elif kind == "DEAL":
                req = st.deal_request(s)
            else:
                req = st.request(s)
            try:
                out.append(players[s].respond(req))
            except _BotFailure as e:
                raise IllegalAction(s, e.detail, e.code) from None
            except Exception as exc:  # noqa: BLE001 - a crashing in-process bot loses by the error rule
                raise IllegalAction(s, f"the bot raised {type(exc).__name__}: {exc}", "RE") from None
        rounds.append(out)
        return out

    try:
        drive(st, ask)
    finally:
        _close_all(players)
    rec = GameRecord.from_state(st, rounds, match_id=match_id)
    rec.players = [p.name for p in players]
    return rec


def run_match(specs, games=4, seed=0, mode="json", time_limit=6.0, progress=None, first_game=0,
              on_game=None) -> MatchResult:
    """Play ``games`` games of the four bots ``specs`` (see the module docstring).
    ``first_game``: number of the first game (its walls and seat rotation), to
    split one match over several processes.  After each game ``progress(n)``
    gets the number of games played and ``on_game(error)`` the game's
    :class:`GameError` (None when the game did not end by the error rule)."""
    if len(specs) != 4:
        raise ValueError(f"a match needs 4 bots, got {len(specs)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if isinstance(first_game, bool) or not isinstance(first_game, int) or first_game < 0:
        raise InvalidArgument(f"first_game must be an int >= 0, got {first_game!r}")
    time_limit = check_time_limit(time_limit)
    modes = mode if isinstance(mode, (list, tuple)) else [mode] * 4
    if len(modes) != 4 or any(m not in ("json", "simple") for m in modes):
        raise InvalidArgument(f"mode: 'json' or 'simple', one for all bots or 4 (one per bot), got {mode!r}")
    players = [make_player(s, m, time_limit) for s, m in zip(specs, modes)]
    stats = [BotStats(p.name) for p in players]
    records, seats = [], []
    huang = 0
    try:
        for g in range(first_game, first_game + games):
            ws = g // 4
            walls = random_walls(random.Random(f"{seed}:{ws}").getrandbits(64))
            quan = ws % 4
            rot = g % 4
            order = [(s + rot) % 4 for s in range(4)]          # bot index in each seat
            rec = play_game([players[i] for i in order], walls, quan, match_id=f"{seed}-{g}")
            records.append(rec)
            seats.append(order)
            huang += rec.huang
            for s, i in enumerate(order):
                b = stats[i]
                b.games += 1
                b.scores.append(rec.scores[s])
                if rec.win is not None:
                    if rec.win.winner == s:
                        b.wins += 1
                        b.self_drawn += rec.win.self_drawn
                        b.win_totals.append(rec.win.total)
                    elif rec.win.from_seat == s:
                        b.dealt_in += 1
                if rec.error is not None and rec.error[0] == s:
                    b.errors[rec.error[1]] = b.errors.get(rec.error[1], 0) + 1
            if on_game is not None:
                on_game(_match_error(g + 1, rec, order, [p.name for p in players]))
            if progress:
                progress(g + 1 - first_game)
    finally:
        _close_all(players)
    return MatchResult(stats, records, seats, huang, first_game)


class _OutFile:
    """``--out``, opened before the first game, so that a path that cannot be
    written is an error at once rather than after the whole match; written
    after the last game.  A file this run created is removed again when the
    match does not finish; a file that was there is not touched until then."""

    def __init__(self, path):
        # O_NONBLOCK: a FIFO that nobody reads is an error now, not a hang
        flags = os.O_WRONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
        self.path = path
        try:
            self.fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666)
            self.created = True
        except FileExistsError:
            self.fd = os.open(path, flags | os.O_CREAT, 0o666)
            self.created = False
        try:
            os.set_blocking(self.fd, True)
        except OSError:
            pass

    def write(self, text):
        fd, self.fd = self.fd, None
        with open(fd, "w", encoding="utf-8") as f:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                f.truncate(0)
            f.write(text)

    def discard(self):
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)
        if self.created:
            try:
                os.unlink(self.path)
            except OSError:
                pass


@contextlib.contextmanager
def _signals_end_the_match():
    """SIGTERM / SIGHUP raise SystemExit while the match runs, so that the
    bots' groups are killed on the way out (they are in sessions of their
    own: a closed terminal or a kill of this process no longer reaches them).
    A signal that is ignored (``nohup``) or handled by someone else stays so."""
    sigs = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    old = {}

    def stop(signum, frame):
        raise SystemExit(128 + signum)
    try:
        for sig in sigs:
            if signal.getsignal(sig) is signal.SIG_DFL:
                old[sig] = signal.signal(sig, stop)
    except ValueError:          # not the main thread: leave the handlers alone
        pass
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)


def _error(msg):
    print(f"mjfast: error: {msg}", file=sys.stderr)
    return 2


def main(args) -> int:
    out = None
    if args.out:
        try:
            out = _OutFile(args.out)
        except OSError as exc:
            return _error(f"--out {args.out}: cannot write: {exc.strerror or exc}")
    bar = progress(total=args.games, desc="match", unit=" games",
                   enabled=False if getattr(args, "no_progress", False) else None)

    def on_game(err):
        bar.update(1)
        if err is not None:         # each game's error as it happens, the summary after the table
            line = f"mjfast: {err.line()}"
            write = getattr(bar, "write", None)     # a tqdm bar: the line above the bar, not through it
            if write is not None:
                write(line, file=sys.stderr)
            else:
                print(line, file=sys.stderr, flush=True)
    try:
        with _signals_end_the_match():
            res = run_match(args.bots, games=args.games, seed=args.seed, mode=args.mode,
                            time_limit=args.time_limit, on_game=on_game)
    except ValueError as e:
        if out is not None:
            out.discard()
        return _error(" ".join(str(e).split()))
    except BaseException:
        if out is not None:
            out.discard()
        raise
    finally:
        bar.close()
    print(res.table(), flush=True)       # before the error line that follows on stderr
    if out is not None:
        try:
            out.write("".join(rec.to_botzone_text() for rec in res.records))
        except OSError as exc:
            out.discard()
            return _error(f"--out {args.out}: cannot write: {exc.strerror or exc}")
    failed = [e for e in res.errors() if e.failed_to_run]
    if failed:
        bots = sorted({e.bot for e in failed})
        who = ", ".join(f"bot {i + 1} ({res.stats[i].name})" for i in bots)
        print(f"mjfast: error: {who} failed to run in {len({e.game for e in failed})} of "
              f"{len(res.records)} games (it could not start, crashed, gave no answer or was late: the reasons are listed above)", file=sys.stderr)
        return 1
    return 0
