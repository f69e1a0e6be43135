"""Fan statistics from self-play: games in the compiled engine, their wins
scored in bulk.

    from mjfast.stats.simulate import simulate
    sim = simulate(100_000, seed=1, workers=2)       # baseline bots in all four seats
    sim.stats.table()                                # the same FanStats as from logs
    sim.games_per_second

Games come from :func:`mjfast.game.fast.selfplay_series`: game ``g`` of the
series ``seed`` depends on (seed, g) only, and the statistics are exact
integer sums, so a run gives the same numbers whatever the chunk size and the
number of worker processes.  Each chunk of games records its winners' hands
(concealed tiles, melds, winning tile, context flags, winds) as arrays, which
go straight into a :class:`~mjfast.HandBatch` and through
:func:`~mjfast.score_batch`; the totals must equal the engine's own (counted
in ``mismatches``, which is 0 unless something is broken).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, Union

import numpy as np

import os
from .accumulate import FanStats
from ..scoring.batch import score_batch

__all__ = ["simulate", "SimulationResult", "simulate_chunk", "DEFAULT_CHUNK"]

#: games per chunk (a chunk's arrays: about 60 bytes a game)
DEFAULT_CHUNK = 20_000


@dataclass
class SimulationResult:
    """What :func:`simulate` played and found.  ``stats`` holds the fan
    statistics of the wins; the counters are per game."""
    games: int = 0
    wins: int = 0
    self_drawn: int = 0          # wins by self-draw (the rest are on a discard or a robbed kong)
    no_winner: int = 0           # games that ended with the wall exhausted
    mismatches: int = 0          # wins whose bulk score differs from the engine's (must be 0)
    stats: FanStats = field(default_factory=FanStats)
    seed: int = 0
    policies: tuple = ("baseline",) * 4
    p_claim: float = 0.5
    p_kong: float = 0.7
    workers: int = 1
    seconds: float = 0.0
    cpu_seconds: float = 0.0     # CPU time of the chunks (summed over the processes)

    def merge(self, other: "SimulationResult") -> "SimulationResult":
        self.games += other.games
        self.wins += other.wins
        self.self_drawn += other.self_drawn
        self.no_winner += other.no_winner
        self.mismatches += other.mismatches
        self.cpu_seconds += other.cpu_seconds
        self.stats.merge(other.stats)
        return self

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.nan

    @property
    def games_per_second_per_worker(self) -> float:
        return self.games_per_second / max(1, self.workers)

    @property
    def games_per_cpu_second(self) -> float:
        """Games per second of CPU time: the speed of one core, whatever
        else the machine is running."""
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else math.nan

    def summary(self) -> dict:
        """The game counters, the setup and the throughput (the fan
        statistics are in ``stats``)."""
        g = self.games
        return {
            "games": g, "wins": self.wins, "win_share": self.wins / g if g else math.nan,
            "self_drawn_wins": self.self_drawn, "no_winner": self.no_winner, "mismatches": self.mismatches,
            "seed": self.seed, "policies": list(self.policies), "p_claim": self.p_claim, "p_kong": self.p_kong,
            "workers": self.workers, "seconds": self.seconds, "games_per_second": self.games_per_second,
            "games_per_second_per_worker": self.games_per_second_per_worker,
            "cpu_seconds": self.cpu_seconds, "games_per_cpu_second": self.games_per_cpu_second,
        }


def simulate_chunk(seed: int, first: int, n: int, policies: Sequence[str] = ("baseline",) * 4,
                   p_claim: float = 0.5, p_kong: float = 0.7) -> SimulationResult:
    """Games ``first`` .. ``first + n - 1`` of the series ``seed``, their wins
    scored by :func:`~mjfast.score_batch` (one worker's task)."""
    from ..game.fast import selfplay_series   # start-up: loaded on first use
    c0 = time.process_time()
    r = selfplay_series(n, list(policies), seed=seed, first=first, p_claim=p_claim, p_kong=p_kong, hands=True)
    won = r.winner >= 0
    res = score_batch(r.win_batch())
    out = SimulationResult(games=n, wins=int(won.sum()), self_drawn=int(r.self_drawn.sum()),
                           no_winner=int(r.huang.sum()), seed=seed, policies=tuple(policies), p_claim=p_claim,
                           p_kong=p_kong)
    out.mismatches = int(np.count_nonzero((res.errors != 0) | (res.totals != r.total[won])))
    out.stats.update(res)
    out.cpu_seconds = time.process_time() - c0
    return out


def _policies(bots) -> tuple:
    from ..game.fast import POLICIES   # start-up: loaded on first use
    if isinstance(bots, str):
        bots = [bots]
    bots = list(bots)
    if len(bots) == 1:
        bots = bots * 4
    if len(bots) != 4 or any(b not in POLICIES for b in bots):
        raise ValueError(f"bots: one policy for all seats or four (one per seat), each one of "
                         f"{', '.join(sorted(POLICIES))}; got {bots}")
    return tuple(bots)


def _int(name, v, low):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
        raise ValueError(f"{name} must be an int >= {low}, got {v!r}")
    return int(v)


def _on_dask(tasks, scheduler: str):
    """The chunks as Dask tasks on ``scheduler``: (results in task order, workers)."""
    from .dask import client_for      # (first: it says what to install when Dask is missing)
    import dask
    with client_for(scheduler) as client:
        parts = dask.compute(*[dask.delayed(simulate_chunk, pure=True)(*t) for t in tasks])
        workers = len(client.scheduler_info().get("workers", {})) or 1
    return list(parts), workers


def simulate(games: int, *, seed: int = 0, bots: Union[str, Sequence[str]] = "baseline", workers: int = 1,
             chunk_size: int = DEFAULT_CHUNK, p_claim: float = 0.5, p_kong: float = 0.7,
             progress: Optional[Callable[[int], None]] = None, scheduler: Optional[str] = None) -> SimulationResult:
    """Play ``games`` games of the self-play series ``seed`` and return the fan
    statistics of their wins (:class:`SimulationResult`).

    ``bots``: a compiled policy for all four seats or four of them
    (``baseline``, ``random``, ``tsumogiri``; see
    :data:`mjfast.game.fast.POLICIES`); ``p_claim`` / ``p_kong`` tune
    ``random``.  ``workers`` processes share the chunks (-1 = one per core);
    ``scheduler`` (an address or "local") runs the chunks on Dask instead.
    The result is the same for any ``workers`` and ``chunk_size``.
    ``progress(games_done)`` is called after each chunk."""
    games = _int("games", games, 0)
    seed = _int("seed", seed, 0)
    chunk_size = _int("chunk_size", chunk_size, 1)
    pols = _policies(bots)
    from ..game.fast import check_probability   # start-up: loaded on first use
    p_claim = check_probability(p_claim, "p_claim")
    p_kong = check_probability(p_kong, "p_kong")
    if workers == -1:
        workers = os.cpu_count() or 1
    workers = _int("workers", workers, 1)
    tasks = [(seed, f, min(chunk_size, games - f), pols, p_claim, p_kong)
             for f in range(0, games, chunk_size)]
    total = SimulationResult(seed=seed, policies=pols, p_claim=p_claim, p_kong=p_kong,
                             workers=workers)
    t0 = time.perf_counter()
    if scheduler:
        parts, total.workers = _on_dask(tasks, scheduler)
        for p in parts:
            total.merge(p)
        if progress:
            progress(total.games)
    elif workers == 1 or len(tasks) <= 1:
        for t in tasks:
            total.merge(simulate_chunk(*t))
            if progress:
                progress(total.games)
    else:
        import multiprocessing as mp   # only with workers > 1 (import cost ~4 ms)
        from concurrent.futures import ProcessPoolExecutor   # only with workers > 1 (import cost ~10 ms)
        # spawn: no fork of a process that may hold OpenMP threads
        with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
            futures = [pool.submit(simulate_chunk, *t) for t in tasks]
            for f in futures:            # in game order; the sums are exact, so order does not matter anyway
                total.merge(f.result())
                if progress:
                    progress(total.games)
    total.seconds = time.perf_counter() - t0
    return total
