"""The peer of ``mjfast.logs`` in benchmarks/bench_logs.py: a straightforward
Python replay of the text archive that calls the reference calculator
PyMahjongGB (``MahjongGB``) at each win.

It is what a researcher would write in an afternoon: per match, hands as
counters, melds as the reference's pack tuples, the shown tiles and the walls
counted for the fourth-tile / last-tile flags, and no legality checks at all.
Benchmark-only code: the package never imports it.
"""
from __future__ import annotations

from collections import Counter

import MahjongGB


def _flush(mid, quan, lines, out):
    hands = [Counter() for _ in range(4)]
    packs = [[] for _ in range(4)]
    shown = Counter()
    drawn = [0, 0, 0, 0]
    live = None           # (discarder, tile) of the discard on offer
    prev = None           # (kind, seat, tile) of the previous action
    kong_draw = [False] * 4
    for parts in lines:
        p = int(parts[1])
        kind = parts[2]
        if kind == "Deal":
            hands[p].update(parts[3:])
            continue
        t = parts[3] if len(parts) > 3 else None
        if kind == "Draw":
            if live is not None and prev[0] in ("Play",):
                shown[live[1]] += 1          # the discard passed unclaimed
            live = None
            hands[p][t] += 1
            drawn[p] += 1
            kong_draw[p] = prev is not None and prev[0] in ("Gang", "AnGang", "BuGang") and prev[1] == p
        elif kind == "Play":
            hands[p][t] -= 1
            live = (p, t)
        elif kind == "Chi":
            d, c = live
            mid_rank = int(t[1])
            for r in (mid_rank - 1, mid_rank, mid_rank + 1):
                u = t[0] + str(r)
                shown[u] += 1
                if u != c:
                    hands[p][u] -= 1
            packs[p].append(("CHI", t, int(c[1]) - mid_rank + 2))
        elif kind == "Peng":
            hands[p][t] -= 2
            shown[t] += 3
            packs[p].append(("PENG", t, (live[0] - p) % 4))
        elif kind == "Gang":
            hands[p][t] -= 3
            shown[t] = 4
            packs[p].append(("GANG", t, (live[0] - p) % 4))
            live = None
        elif kind == "AnGang":
            hands[p][t] -= 4
            packs[p].append(("GANG", t, 0))
        elif kind == "BuGang":
            hands[p][t] -= 1
            shown[t] = 4
            for i, pk in enumerate(packs[p]):
                if pk[0] == "PENG" and pk[1] == t:
                    packs[p][i] = ("GANG", t, pk[2])
            live = (p, t)
        elif kind == "Hu":
            self_drawn = prev[0] == "Draw" and prev[1] == p
            if self_drawn:
                win = prev[2]
                hands[p][win] -= 1
                actor = p
                about_kong = kong_draw[p]
            else:
                win = live[1]
                actor = live[0]
                about_kong = prev[0] == "BuGang"
            hand = tuple(x for x, n in hands[p].items() for _ in range(n))
            last = drawn[(actor + 1) % 4] == 21
            try:
                res = MahjongGB.MahjongFanCalculator(tuple(packs[p]), hand, win, 0, self_drawn,
                                                     shown[win] == 3, about_kong, last, p, quan, True)
                total = sum(f[0] * f[1] for f in res)
            except TypeError:
                total = None
            out.append((mid, p, total))
            return
        prev = (kind, p, t)


def naive_scores(path):
    """[(match id, winner, total)] of every win in a text archive."""
    out = []
    mid = None
    quan = 0
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            head = parts[0]
            if head == "Match":
                if mid is not None:
                    _flush(mid, quan, lines, out)
                mid, lines = parts[1], []
            elif head == "Wind":
                quan = int(parts[1])
            elif head == "Player":
                lines.append(parts)
    if mid is not None:
        _flush(mid, quan, lines, out)
    return out
