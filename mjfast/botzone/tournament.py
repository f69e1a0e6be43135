"""One bot against three copies of another, duplicate style.

Each wall set is played 4 times, the tested bot in each seat in turn and the
opponent in the other three, so every seat and every wall is shared evenly.
The mean score per game gets a 95 % interval from the per-wall-set means (the
four games of a set share their walls, so they are not independent).

Run it as ``python -m mjfast.botzone.tournament --games 2000`` (nice it: it
takes minutes); tests/test_botzone_tournament.py keeps a small version.
"""
from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

import sys
from .match import run_match

__all__ = ["duplicate", "TournamentResult"]

#: distinct error reasons listed in the report (TournamentResult.errors has them all)
_REASONS_SHOWN = 5


@dataclass
class TournamentResult:
    bot: str
    opponent: str
    games: int
    wins: int                  # games the tested bot won
    opp_wins: int              # games any opponent seat won
    self_drawn: int
    dealt_in: int
    mean_score: float          # tested bot, per game
    interval: tuple            # 95 % interval of mean_score (per wall set)
    mean_win_total: float      # mean fan total of the tested bot's wins
    opp_mean_win_total: float
    illegal: int               # games ended by an error of the tested bot (WA/WH/RE/TLE)
    false_hu: int              # of those, a Hu that did not win with 8 points (WH)
    opp_illegal: int
    huang: int
    seconds: float
    errors: list = field(default_factory=list)     # a GameError per game ended by the error rule

    @property
    def failed(self) -> bool:
        """Some bot failed to run (time-out or crash) in some game."""
        return any(e.failed_to_run for e in self.errors)

    @property
    def win_rate(self):
        return self.wins / self.games

    @property
    def opp_win_rate(self):
        """Wins per opponent seat and game."""
        return self.opp_wins / (3 * self.games)

    def report(self) -> str:
        lo, hi = self.interval
        # one wall set has no interval, no win no mean total: a dash, not nan
        iv = f"[{lo:+.2f}, {hi:+.2f}]" if math.isfinite(lo) else "-"

        def total(x):
            return f"{x:.1f}" if math.isfinite(x) else "-"
        lines = [
            f"{self.bot} (1 seat) vs {self.opponent} (3 seats): {self.games} games "
            f"({self.games // 4} wall sets x 4 seats), {self.seconds:.0f} s",
            f"  win rate        {100 * self.win_rate:.1f} %   (each opponent seat: {100 * self.opp_win_rate:.1f} %)",
            f"  self-drawn wins {self.self_drawn}, dealt in {self.dealt_in}, no winner {self.huang}",
            f"  mean score/game {self.mean_score:+.2f}   95 % interval {iv}",
            f"  mean win total  {total(self.mean_win_total)} points   (opponents: {total(self.opp_mean_win_total)})",
            f"  illegal responses {self.illegal} (false Hu {self.false_hu}); opponents {self.opp_illegal}",
        ]
        reasons: dict = {}
        for e in self.errors:
            who = self.bot if e.bot == 0 else self.opponent
            key = (who, e.code, e.reason)
            reasons[key] = reasons.get(key, 0) + 1
        for (who, code, reason), k in list(reasons.items())[:_REASONS_SHOWN]:
            lines.append(f"    {who}: {code} x{k}: {reason}")
        if len(reasons) > _REASONS_SHOWN:
            lines.append(f"    and {len(reasons) - _REASONS_SHOWN} other reasons "
                         f"(TournamentResult.errors has each game's)")
        return "\n".join(lines)


def _play(args):
    """Games [first, first + n) of a duplicate match -> per-game summaries."""
    bot, opponent, seed, first, n = args
    res = run_match([bot, opponent, opponent, opponent], games=n, seed=seed, first_game=first)
    out = []
    errors = {e.game: e for e in res.errors()}
    for g, (rec, order) in enumerate(zip(res.records, res.seats), first + 1):
        me = order.index(0)
        w = rec.win
        win = None if w is None else (w.winner == me, w.self_drawn, w.total, w.from_seat == me)
        err = None if rec.error is None else (rec.error[0] == me, rec.error[1])
        out.append((rec.scores[me], win, err, rec.huang, errors.get(g)))
    return out


def duplicate(bot="mjfast:sample", opponent="mjfast:baseline", games=2000, seed=0, workers=1,
              progress=None) -> TournamentResult:
    """``bot`` against three ``opponent`` over ``games`` games (a multiple of
    4).  ``workers`` processes share the wall sets; the result does not depend
    on their number (every game's walls and seats come from its number)."""
    if games % 4:
        raise ValueError(f"games must be a multiple of 4 (each wall set once per seat), got {games}")
    t0 = time.perf_counter()
    sets = games // 4
    chunk = max(1, min(25, -(-sets // max(1, workers))))
    jobs = [(bot, opponent, seed, 4 * lo, 4 * min(chunk, sets - lo)) for lo in range(0, sets, chunk)]
    games_out = []
    if workers > 1:
        import multiprocessing as mp   # only with workers > 1 (import cost ~4 ms)
        with mp.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(_play, jobs):
                games_out += part
                if progress:
                    progress(len(games_out))
    else:
        for job in jobs:
            games_out += _play(job)
            if progress:
                progress(len(games_out))
    secs = time.perf_counter() - t0
    scores, wins, opp_wins, sd, di, wt, owt, ill, fh, oill, huang = [], 0, 0, 0, 0, [], [], 0, 0, 0, 0
    errors = []
    for score, win, err, hu, merr in games_out:
        scores.append(score)
        if merr is not None:
            errors.append(merr)
        huang += hu
        if win is not None:
            mine, self_drawn, total, from_me = win
            if mine:
                wins += 1
                sd += self_drawn
                wt.append(total)
            else:
                opp_wins += 1
                owt.append(total)
                di += from_me
        if err is not None:
            if err[0]:
                ill += 1
                fh += err[1] == "WH"
            else:
                oill += 1
    per_set = [sum(scores[i:i + 4]) / 4 for i in range(0, len(scores), 4)]
    m = sum(per_set) / len(per_set)
    if len(per_set) > 1:
        sd_sets = math.sqrt(sum((x - m) ** 2 for x in per_set) / (len(per_set) - 1))
        h = 1.96 * sd_sets / math.sqrt(len(per_set))
    else:
        h = float("nan")
    return TournamentResult(bot, opponent, games, wins, opp_wins, sd, di, m, (m - h, m + h),
                            sum(wt) / len(wt) if wt else float("nan"),
                            sum(owt) / len(owt) if owt else float("nan"),
                            ill, fh, oill, huang, secs, errors)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mjfast.botzone.tournament", description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="mjfast:sample")
    ap.add_argument("--opponent", default="mjfast:baseline")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)

    def progress(g):
        print(f"  {g} games", file=sys.stderr, flush=True)
    res = duplicate(a.bot, a.opponent, a.games, a.seed, workers=a.workers, progress=progress)
    print(res.report())
    if res.failed:
        print("error: a bot failed to run (it could not start, crashed, gave no answer or was late): the reasons are listed above", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
