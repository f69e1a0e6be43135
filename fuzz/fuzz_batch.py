#!/usr/bin/env python3
"""Fuzz the batch functions with arbitrary arrays: ``is_win_batch``,
``shanten_batch``, ``waits_batch`` (bytes reshaped to (N, 34) of various
integer dtypes, ``errors="mask"``) and ``score_batch`` on ``HandBatch``
columns made from bytes.

    python fuzz/fuzz_batch.py fuzz/corpus/batch -max_total_time=3600

Invariants:

* with ``errors="mask"`` an integer array of shape (N, 34) never raises, and
  a row is flagged exactly when it is bad (a count outside 0-4, or a size
  that does not fit the call and its melds);
* a good row's answer equals the single call (``is_win``, ``shanten``,
  ``waits``) on that row; a flagged row gets False / -128 / no waits;
* ``workers=1`` and ``workers=2`` give identical arrays;
* ``score_batch``: a row scored OK has the total and fans of
  ``mjfast.score`` on the same hand, a row "not winning" is one
  ``mjfast.score`` refuses with ``NotWinning``; totals are -1 on error rows.
"""
from __future__ import annotations

import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
# the harness helpers, then this checkout's mjfast (ahead of an installed copy)
sys.path[:0] = [_HERE, os.path.dirname(_HERE)]
from _bytes import Bytes, fuzz_main  # noqa: E402

_DTYPES = (np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)


def _rows(b: Bytes):
    """An (N, 34) array of some integer dtype, and the melds argument."""
    dtype = np.dtype(b.pick(_DTYPES))
    n = b.int(0, 6)
    mode = b.int(0, 3)
    if mode == 0:                      # raw bytes as the dtype's values
        raw = b.take(n * 34 * dtype.itemsize)
        raw = raw + bytes(n * 34 * dtype.itemsize - len(raw))
        arr = np.frombuffer(raw, dtype=dtype).reshape(n, 34).copy()
    else:                              # tiles drawn one by one: mostly plausible rows
        arr = np.zeros((n, 34), dtype=dtype)
        for i in range(n):
            for _ in range(b.int(0, 15)):
                arr[i, b.int(0, 33)] += 1
            if b.int(0, 7) == 0:       # one wild value
                info = np.iinfo(dtype)
                arr[i, b.int(0, 33)] = b.pick((info.min, info.max, 5, -1 if info.min < 0 else 255))
    m = b.int(0, 4)
    if m == 0:
        melds = None
    elif m == 1:
        melds = b.int(-2, 6)
    else:
        melds = np.array([b.int(-1, 5) for _ in range(n)], dtype=np.int64)
    return arr, melds


def _row_ok(row, melds, sizes):
    """The expected validity of one row (independent of the library)."""
    if (row < 0).any() or (row > 4).any():
        return None
    k = int(row.sum())
    if melds is None:
        if k % 3 == 2:
            melds = (14 - k) // 3
        elif k % 3 == 1:
            melds = (13 - k) // 3
        else:
            return None
    if not 0 <= melds <= 4:
        return None
    total = k + 3 * melds
    if total not in sizes:
        return None
    return melds


def check_arrays(b: Bytes) -> None:
    import mjfast

    arr, melds = _rows(b)
    n = arr.shape[0]
    mi = [None if melds is None else int(melds) if np.ndim(melds) == 0 else int(melds[i]) for i in range(n)]
    for fn, single, sizes in ((mjfast.is_win_batch, mjfast.is_win, (14,)),
                              (mjfast.shanten_batch, mjfast.shanten, (13, 14)),
                              (mjfast.waits_batch, mjfast.waits, (13,))):
        out1, err1 = fn(arr, melds=melds, errors="mask", workers=1)
        out2, err2 = fn(arr, melds=melds, errors="mask", workers=2)
        assert np.array_equal(out1, out2) and np.array_equal(err1, err2), fn.__name__
        assert out1.shape[0] == n and err1.shape == (n,)
        for i in range(n):
            m = _row_ok(arr[i].astype(np.int64), mi[i], sizes)
            assert (err1[i] == 0) == (m is not None), (fn.__name__, arr[i].tolist(), mi[i], int(err1[i]))
            if m is None:
                if fn is mjfast.is_win_batch:
                    assert not out1[i]
                elif fn is mjfast.shanten_batch:
                    assert out1[i] == -128
                else:
                    assert not out1[i].any()
                continue
            want = single(arr[i].astype(np.uint8), melds=m)
            if fn is mjfast.waits_batch:
                assert np.flatnonzero(out1[i]).tolist() == want, (arr[i].tolist(), m)
            else:
                assert out1[i] == want, (fn.__name__, arr[i].tolist(), m)
        # errors="raise": raises InvalidHand exactly when a row is flagged
        try:
            fn(arr, melds=melds)
            assert not err1.any()
        except mjfast.InvalidHand:
            assert err1.any()


def _hand_of(counts, melds, n_melds, win):
    """The Hand of a batch row, or None when the row cannot be one."""
    from mjfast import InvalidHand
    from mjfast.hand import Hand, Meld

    if n_melds > 4 or win > 33 or counts[win] == 0:
        return None
    try:
        ms = []
        for j in range(n_melds):
            kind, tile, open_ = (int(x) for x in melds[j])
            if kind > 2 or open_ > 1:
                return None
            ms.append(Meld(("chow", "pung", "kong")[kind], tile, concealed=open_ == 0))
        tiles = [t for t in range(34) for _ in range(int(counts[t]))]
        tiles.remove(win)
        return Hand(tuple(ms), tuple(tiles) + (win,), 0)
    except InvalidHand:
        return None


_POOL = None


def _pool():
    """Columns of 256 generated winning hands: rows to start from."""
    global _POOL
    if _POOL is None:
        from mjfast.batch import HandBatch

        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
        from handgen import random_winning_records

        _POOL = HandBatch.from_records(random_winning_records(256, seed=3))
    return _POOL


def check_scores(b: Bytes) -> None:
    import mjfast
    from mjfast.batch import ERR_INVALID, ERR_NOT_WINNING, ERR_OK, HandBatch, score_batch

    n = b.int(0, 5)
    counts = np.zeros((n, 34), np.uint8)
    melds = np.zeros((n, 4, 3), np.uint8)
    n_melds = np.zeros(n, np.uint8)
    win = np.zeros(n, np.uint8)
    pool = _pool()
    from_pool = [b.int(0, 3) > 0 for _ in range(n)]
    for i in range(n):
        if from_pool[i]:
            p = b.int(0, len(pool) - 1)
            counts[i], melds[i], n_melds[i], win[i] = pool.counts[p], pool.melds[p], pool.n_melds[p], pool.win_tile[p]
            if b.int(0, 3) == 0:       # move one tile
                t = b.int(0, 33)
                if counts[i, t]:
                    counts[i, t] -= 1
                    counts[i, b.int(0, 33)] += 1
            continue
        wild = b.int(0, 9) == 0
        k = b.int(0, 4) if not wild else b.int(0, 255)
        n_melds[i] = k
        for j in range(min(k, 4)):
            kind = b.int(0, 2) if not wild else b.int(0, 255)
            tile = b.int(0, 33) if not wild else b.int(0, 255)
            if kind == 0 and tile < 27:
                tile = tile - tile % 9 + min(tile % 9, 6)
            melds[i, j] = (kind, tile, 1 if kind < 2 or b.bool() else 0)
        for _ in range(max(0, 14 - 3 * min(k, 4)) if not b.int(0, 7) == 0 else b.int(0, 16)):
            counts[i, b.int(0, 33)] += 1
        nz = np.flatnonzero(counts[i])
        win[i] = b.pick(nz.tolist()) if len(nz) and not wild else b.int(0, 255)
    flags = np.array([b.int(0, 15) if b.int(0, 9) else b.int(0, 255) for _ in range(n)], np.uint8)
    seat = np.array([b.int(0, 3) if b.int(0, 9) else b.int(0, 255) for _ in range(n)], np.uint8)
    rnd = np.array([b.int(0, 3) if b.int(0, 9) else b.int(0, 255) for _ in range(n)], np.uint8)
    flowers = np.array([b.int(0, 8) if b.int(0, 9) else b.int(0, 255) for _ in range(n)], np.uint8)

    batch = HandBatch(counts, melds, n_melds, win, flags, seat, rnd, flowers)
    one = score_batch(batch, workers=1)
    two = score_batch(batch, workers=2)
    assert np.array_equal(one.totals, two.totals) and np.array_equal(one.fan_counts, two.fan_counts)
    assert np.array_equal(one.errors, two.errors)
    for i in range(n):
        e = int(one.errors[i])
        assert e in (ERR_OK, ERR_INVALID, ERR_NOT_WINNING)
        if e:
            assert one.totals[i] == -1 and not one.legal[i] and one.error_message(i)
        h = _hand_of(counts[i], melds[i], int(n_melds[i]), int(win[i]))
        fine = flags[i] <= 15 and seat[i] <= 3 and rnd[i] <= 3 and flowers[i] <= 8
        if h is None or not fine or h.n_tiles != 14:
            assert e == ERR_INVALID, (counts[i].tolist(), melds[i].tolist(), int(n_melds[i]), int(win[i]), e)
            continue
        f = int(flags[i])
        try:
            s = mjfast.score(h, self_drawn=bool(f & 1), fourth_tile=bool(f & 2), kong=bool(f & 4),
                             last_tile=bool(f & 8), seat_wind=int(seat[i]), round_wind=int(rnd[i]),
                             flowers=int(flowers[i]))
        except mjfast.NotWinning:
            assert e == ERR_NOT_WINNING, (str(h), e)
            continue
        except mjfast.InvalidHand:
            assert e == ERR_INVALID, (str(h), e)
            continue
        assert e == ERR_OK, (str(h), e, one.error_message(i))
        assert one.totals[i] == s.total, (str(h), int(one.totals[i]), s.total)
        assert (one.fan_counts[i] == s.fan_counts()[1:]).all(), str(h)


def check(data: bytes) -> None:
    b = Bytes(data)
    if b.byte() & 1:
        check_scores(b)
    else:
        check_arrays(b)


def seeds():
    import random

    r = random.Random(5)
    return [bytes(r.randrange(256) for _ in range(r.randrange(10, 400))) for _ in range(100)]


def main():
    fuzz_main(check)


if __name__ == "__main__":
    main()
