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

Games are played over shuffled walls from ``--seed``; the bots rotate over
the seats on the same walls (the duplicate scheme): game g uses wall set
g // 4 with the bot list rotated by g % 4, so with a multiple of 4 games each
bot sits in each seat once per wall set.
"""
from __future__ import annotations

import json
import math
import os
import random
import selectors
import shlex
import subprocess
import time
from dataclasses import dataclass, field

from ..game import GameRecord, GameState, IllegalAction, drive, random_walls
from .__main__ import KEEP_RUNNING
from .bots import BOTS, make_bot

__all__ = ["run_match", "MatchResult", "BotStats", "SubprocessBot", "InProcessBot", "make_player", "main"]


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
        self.name = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("empty bot command")
        self.mode = mode
        self.time_limit = float(time_limit)
        self.cwd = cwd
        self.proc = None
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
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=self.cwd)
        self._buf = b""

    def close(self):
        p = self.proc
        self.proc = None
        if p is not None:
            try:
                p.stdin.close()
            except OSError:
                pass
            try:
                p.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def _readline(self, deadline):
        """One output line (without the newline), or None at EOF; raises on timeout."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise _BotFailure("TLE", f"no answer within the time limit ({self.time_limit:g} s)")
            sel = selectors.DefaultSelector()
            sel.register(fd, selectors.EVENT_READ)
            ready = sel.select(left)
            sel.close()
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                if self._buf:
                    line, self._buf = self._buf, b""
                    return line.decode("utf-8", "replace").rstrip("\r")
                return None
            self._buf += chunk
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
        except OSError as exc:
            self.close()
            raise _BotFailure("RE", f"could not talk to the bot: {exc}") from None
        deadline = t0 + limit
        try:
            line = self._readline(deadline)
            while line is not None and not line.strip():
                line = self._readline(deadline)
        except _BotFailure:
            self.close()
            raise
        if line is None:
            self.close()
            raise _BotFailure("RE", "the bot printed no answer")
        elapsed = time.perf_counter() - t0
        (self.first_times if first else self.times).append(elapsed)
        if self.mode == "json":
            try:
                resp = json.loads(line)["response"]
            except (ValueError, KeyError, TypeError):
                self.close()
                raise _BotFailure("RE", f"not a JSON answer with a 'response': {line[:80]!r}") from None
        else:
            resp = line
        resp = str(resp).strip()
        # the rest of this turn's output: debug / data lines, then either the
        # keep-running line or the end of the process
        try:
            while True:
                extra = self._readline(deadline + 1.0)
                if extra is None:
                    self.close()
                    break
                if extra.strip() == KEEP_RUNNING:
                    break
        except _BotFailure:
            self.close()
        self.responses.append(resp)
        return resp


def make_player(spec, mode="json", time_limit=6.0):
    """``mjfast:<name>`` -> a built-in bot; anything else is a command line."""
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


@dataclass
class MatchResult:
    stats: list                 # BotStats per bot (in the order given)
    records: list               # GameRecord per game
    seats: list                 # per game: the bot index in each seat
    huang: int = 0

    def table(self) -> str:
        head = f"{'bot':<32} {'games':>6} {'wins':>5} {'win%':>6} {'self':>5} {'dealin':>6} " \
               f"{'errors':>7} {'mean score':>11} {'95% interval':>18} {'win total':>9}"
        lines = [head, "-" * len(head)]
        for b in self.stats:
            lo, hi = b.interval()
            wt = sum(b.win_totals) / len(b.win_totals) if b.win_totals else float("nan")
            err = sum(b.errors.values())
            lines.append(f"{b.name[:32]:<32} {b.games:>6} {b.wins:>5} {100 * b.wins / max(b.games, 1):>5.1f}% "
                         f"{b.self_drawn:>5} {b.dealt_in:>6} {err:>7} {b.mean:>11.2f} "
                         f"{f'[{lo:.2f}, {hi:.2f}]':>18} {wt:>9.1f}")
        lines.append(f"games: {len(self.records)}, no winner: {self.huang}")
        return "\n".join(lines)


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
        for p in players:
            p.close()
    rec = GameRecord.from_state(st, rounds, match_id=match_id)
    rec.players = [p.name for p in players]
    return rec


def run_match(specs, games=4, seed=0, mode="json", time_limit=6.0, progress=None, first_game=0) -> MatchResult:
    """Play ``games`` games of the four bots ``specs`` (see the module docstring).
    ``first_game``: number of the first game (its walls and seat rotation), to
    split one match over several processes."""
    if len(specs) != 4:
        raise ValueError(f"a match needs 4 bots, got {len(specs)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    modes = mode if isinstance(mode, (list, tuple)) else [mode] * 4
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
            if progress:
                progress(g + 1 - first_game)
    finally:
        for p in players:
            p.close()
    return MatchResult(stats, records, seats, huang)


def main(args) -> int:
    import sys
    try:
        res = run_match(args.bots, games=args.games, seed=args.seed, mode=args.mode, time_limit=args.time_limit)
    except ValueError as e:
        print(f"mjfast match: {e}", file=sys.stderr)
        return 2
    print(res.table())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for rec in res.records:
                f.write(rec.to_botzone_text())
    return 0
