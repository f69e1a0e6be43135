"""Wildcards: is_win / shanten / waits / useful_tiles / decompose and the
batch forms against searches over substitutions (tests/wild_oracle.py).

CI runs a few hundred to a few thousand hands per function; the slow tests
(``pytest -m slow tests/test_wild.py``) run 200,000 hands for each (20,000
for decompose).  MJFAST_WILD_SLOW_N changes the 200,000.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import mjfast
from mjfast import _wild
from mjfast.wild import WILDCARD, waits_any

import wild_oracle as O
from handgen import random_hands, random_winning_records

N_CI = 1500
N_SLOW = int(os.environ.get("MJFAST_WILD_SLOW_N", "200000"))


def wild_cases(n, seed, ready, fixed_k=None):
    """n cases (real counts uint8[34], wildcards 0..8, melds): a third random
    tiles from the wall, a third winning hands with tiles turned into
    wildcards (some then changed: near misses), a third from hands biased to
    pairs and one suit (many four-of-a-kinds, where the four-copy rule bites).
    ``ready``: 13 tiles counting 3 per meld (else 14)."""
    rng = np.random.default_rng(seed)
    recs = random_winning_records(n // 3 + 1, seed=seed)
    pairs = random_hands(n // 6 + 1, 14, seed=seed + 1, bias="pairs")
    suit = random_hands(n // 6 + 1, 14, seed=seed + 2, bias="one_suit")
    out = []
    for i in range(n):
        kind = i % 3
        k = int(rng.integers(0, 9)) if fixed_k is None else fixed_k
        if kind == 0:
            size = (13 if ready else 14) - k
            c = random_hands(1, size, seed=seed * 1000003 + i)[0]
            out.append((c, k, 0))
            continue
        if kind == 1:
            h = mjfast.parse_hand(recs[i // 3]["hand"])
            c = np.array(h.counts, dtype=np.uint8)
            melds = len(h.melds)
        else:
            c = (pairs if (i // 3) % 2 else suit)[(i // 6) % len(pairs)].copy()
            melds = 0
        tiles = [t for t in range(34) for _ in range(int(c[t]))]
        k = min(k, len(tiles) - (1 if ready else 0))
        drop = rng.choice(len(tiles), size=k + (1 if ready else 0), replace=False)
        for j in drop:
            c[tiles[j]] -= 1
        if rng.random() < 0.3 and c.sum():
            # a near miss: one real tile changed
            t = int(rng.choice(np.flatnonzero(c)))
            c[t] -= 1
            u = int(rng.integers(0, 34))
            while c[u] >= 4:
                u = int(rng.integers(0, 34))
            c[u] += 1
        out.append((c, k, melds))
    return out


def _fifth(i):
    return i % 4 == 3


# ---------------------------------------------------------------------------
# hand-worked examples
# ---------------------------------------------------------------------------

def test_examples():
    assert mjfast.is_win("123m456p789sEE3m", wildcards=2)          # 3m + two wildcards: a set
    assert not mjfast.is_win("123m456p789sESW", wildcards=2)       # three lone honors, two wildcards
    assert mjfast.is_win("123m456pESW", wildcards=5)               # EEE SSS WW
    # a lone wildcard beside four sets waits for any tile (and for a wildcard)
    w = mjfast.waits("123m456p789s123p", wildcards=1)
    assert w == list(range(35)) and waits_any(w)
    # four East held: a wildcard may not be a fifth East ...
    assert mjfast.waits("123m456p789sEEEE", wildcards=0, wild_fifth=False) == []
    assert not mjfast.is_win("123m456p789sEEEE", wildcards=1)
    # ... unless the option allows it (EEE + E and the wildcard as East)
    assert mjfast.waits("123m456p789sEEEE", wildcards=0, wild_fifth=True) == [WILDCARD]
    assert mjfast.is_win("123m456p789sEEEE", wildcards=1, wild_fifth=True)
    # seven pairs: the wildcards pair the lone East and red dragon
    assert mjfast.is_win("1133m5577p99sEC", wildcards=2)
    assert mjfast.shanten("1133m5577p99sEC", wildcards=1) == 0
    # wildcard_tiles: the red dragons are wild (two here: the pair)
    assert mjfast.is_win("123m456p789sEEECC", wildcard_tiles=["C"])
    assert mjfast.is_win("123m456p789sEEECC", wildcard_tiles=[31])
    assert mjfast.shanten("123m456p789sEEECC", wildcard_tiles=["C"]) == -1
    d = mjfast.decompose("123m456p789sEECCC", wildcard_tiles=["C"])
    subs = {s for _, _, s in d}
    assert all(len(s) == 3 for s in subs)
    assert (27, 27, 27) not in subs                 # a fifth East
    assert (0, 1, 2) in subs                        # EE the pair, the wildcards 123m
    assert (27, 31, 31) in subs                     # EEE and a pair of red dragons
    assert [s for _, _, s in d] == sorted(s for _, _, s in d)


def test_zero_wildcards_match_plain():
    for c in random_hands(3000, 14, seed=11):
        assert mjfast.is_win(c, wildcards=0) == mjfast.is_win(c)
    recs = random_winning_records(500, seed=12)
    for r in recs:
        h = mjfast.parse_hand(r["hand"])
        assert mjfast.is_win(h, wildcards=0)
        assert mjfast.is_win(h, wildcards=0, wild_fifth=True)
    for c in random_hands(2000, 13, seed=13):
        assert mjfast.shanten(c, wildcards=0) == mjfast.shanten(c)
        assert [t for t in mjfast.waits(c, wildcards=0) if t != WILDCARD] == mjfast.waits(c)
        assert [t for t in mjfast.useful_tiles(c, wildcards=0) if t != WILDCARD] == mjfast.useful_tiles(c)


# ---------------------------------------------------------------------------
# literally every substitution (small k), through the plain batch kernels
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k", [1, 2, 3])
def test_every_substitution_small_k(k):
    n = 0
    for c, kk, melds in wild_cases(300, seed=20 + k, ready=False, fixed_k=k):
        subs = O.all_subs(kk, c)
        full = c[None, :] + subs
        truth = bool(mjfast.is_win_batch(full, melds=melds).any())
        assert mjfast.is_win(c, melds=melds, wildcards=kk) == truth, (c.tolist(), kk, melds)
        n += 1
    assert n == 300
    for c, kk, melds in wild_cases(300, seed=30 + k, ready=True, fixed_k=k):
        subs = O.all_subs(kk, c)
        full = c[None, :] + subs
        truth = int(mjfast.shanten_batch(full, melds=np.full(len(full), melds)).min())
        assert mjfast.shanten(c, melds=melds, wildcards=kk) == truth, (c.tolist(), kk, melds)


# ---------------------------------------------------------------------------
# the searches
# ---------------------------------------------------------------------------

def check_is_win(n, seed):
    bad = []
    for i, (c, k, melds) in enumerate(wild_cases(n, seed, ready=False)):
        fifth = _fifth(i)
        claim = mjfast.is_win(c, melds=melds, wildcards=k, wild_fifth=fifth)
        if O.wins(c, k, melds, fifth, claim) != claim:
            bad.append((c.tolist(), k, melds, fifth, claim))
    return bad


def check_shanten(n, seed):
    bad = []
    for i, (c, k, melds) in enumerate(wild_cases(n, seed, ready=i_ready(seed))):
        fifth = _fifth(i)
        claim = mjfast.shanten(c, melds=melds, wildcards=k, wild_fifth=fifth)
        if O.shanten(c, k, melds, fifth, claim) != claim:
            bad.append((c.tolist(), k, melds, fifth, claim))
    return bad


def i_ready(seed):
    return seed % 2 == 0


def check_waits(n, seed):
    """Each tile of the waits (and each tile not in them) by the win search;
    the wildcard entry as "some tile wins" (four-copy rule) or a win with one
    wildcard more (wild_fifth)."""
    bad = []
    for i, (c, k, melds) in enumerate(wild_cases(n, seed, ready=True)):
        fifth = _fifth(i)
        got = set(mjfast.waits(c, melds=melds, wildcards=k, wild_fifth=fifth))
        any_real = False
        for t in range(34):
            if c[t] >= 4:
                if t in got:
                    bad.append((c.tolist(), k, melds, fifth, t))
                continue
            x = c.copy()
            x[t] += 1
            truth = O.wins(x, k, melds, fifth, t in got)
            any_real |= truth
            if truth != (t in got):
                bad.append((c.tolist(), k, melds, fifth, t))
        wild = O.wins(c, k + 1, melds, True, WILDCARD in got) if fifth else any_real
        if wild != (WILDCARD in got):
            bad.append((c.tolist(), k, melds, fifth, WILDCARD))
    return bad


def check_useful(n, seed):
    bad = []
    for i, (c, k, melds) in enumerate(wild_cases(n, seed, ready=True)):
        fifth = _fifth(i)
        base = mjfast.shanten(c, melds=melds, wildcards=k, wild_fifth=fifth)
        if O.shanten(c, k, melds, fifth, base) != base:
            bad.append((c.tolist(), k, melds, fifth, "base"))
            continue
        got = set(mjfast.useful_tiles(c, melds=melds, wildcards=k, wild_fifth=fifth))
        for t in range(34):
            if c[t] >= 4:
                continue
            x = c.copy()
            x[t] += 1
            sh = mjfast.shanten(x, melds=melds, wildcards=k, wild_fifth=fifth)
            if (sh < base) != (t in got) or O.shanten(x, k, melds, fifth, sh) != sh:
                bad.append((c.tolist(), k, melds, fifth, t))
    return bad


DECOMPOSE_STATS = {}


def check_decompose(n, seed, budget=3000):
    """The substitutions decompose lists are exactly the winning ones: each
    checked by the plain functions (its readings are those of the plain
    decompose of the substituted hand); none missing: for k <= 3 by every
    substitution through the plain batch kernel, above by the search (when
    it ends within ``budget`` nodes; the hands where it does not are counted
    in DECOMPOSE_STATS["unchecked"])."""
    bad = []
    unchecked = 0
    for i, (c, k, melds) in enumerate(wild_cases(n, seed, ready=False)):
        got = mjfast.decompose(c, melds=melds, wildcards=k)
        subs = {}
        for form, items, tiles in got:
            subs.setdefault(tiles, []).append((form, items))
        for tiles, readings in subs.items():
            x = c.copy()
            for t in tiles:
                x[t] += 1
            if readings != mjfast.decompose(x, melds=melds) or len(tiles) != k:
                bad.append((c.tolist(), k, melds, tiles))
        if k <= 3:
            rows = c[None, :] + O.all_subs(k, c)
            win = mjfast.is_win_batch(rows, melds=melds)
            want = {tuple(t for t in range(34) for _ in range(int(r[t] - c[t]))) for r in rows[win]}
            if want != set(subs):
                bad.append((c.tolist(), k, melds, "set"))
            continue
        found = []

        def leaf(x, found=found):
            if O.leaf_win(x, melds):
                found.append(tuple(x))
            return False
        try:
            O._search([int(v) for v in c], 0, k, melds, False, lambda d, r: d <= 0, leaf, budget=[budget])
        except O.BudgetExceeded:
            unchecked += 1
            continue
        if len(found) != len(subs):
            bad.append((c.tolist(), k, melds, "count", len(found), len(subs)))
    DECOMPOSE_STATS["hands"] = DECOMPOSE_STATS.get("hands", 0) + n
    DECOMPOSE_STATS["unchecked"] = DECOMPOSE_STATS.get("unchecked", 0) + unchecked
    return bad


def test_is_win_search():
    assert check_is_win(N_CI, seed=101) == []


def test_shanten_search():
    assert check_shanten(N_CI, seed=102) == []
    assert check_shanten(N_CI // 3, seed=103) == []


def test_waits_search():
    assert check_waits(N_CI // 5, seed=104) == []


def test_useful_search():
    assert check_useful(N_CI // 10, seed=106) == []


def test_decompose_search():
    assert check_decompose(N_CI // 15, seed=105) == []


@pytest.mark.slow
@pytest.mark.parametrize("fn", [check_is_win, check_shanten, check_waits, check_useful, check_decompose])
def test_search_slow(fn):
    """200,000 hands each (one core: is_win ~2 min, shanten ~1.5, waits ~8,
    useful ~21); decompose 20,000 (~18 min: its completeness search is the
    slowest; hands with 4+ wildcards whose search passes its node budget are
    checked for soundness only, see DECOMPOSE_STATS)."""
    n = N_SLOW // 10 if fn is check_decompose else N_SLOW
    bad = fn(n, seed=1000 + [check_is_win, check_shanten, check_waits, check_useful,
                             check_decompose].index(fn))
    assert bad == [], bad[:5]


# ---------------------------------------------------------------------------
# batch forms, wildcard_tiles, errors
# ---------------------------------------------------------------------------

def test_batch_matches_single():
    cases = wild_cases(900, seed=40, ready=False)
    cases = [(c, k, m) for c, k, m in cases if m == 0]
    H = np.array([c for c, _, _ in cases])
    K = np.array([k for _, k, _ in cases])
    for fifth in (False, True):
        got = mjfast.is_win_batch(H, wildcards=K, wild_fifth=fifth)
        want = [mjfast.is_win(c, wildcards=k, wild_fifth=fifth) for c, k, _ in cases]
        assert got.tolist() == want
        assert (mjfast.is_win_batch(H, wildcards=K, wild_fifth=fifth, workers=2) == got).all()
        sh = mjfast.shanten_batch(H, wildcards=K, wild_fifth=fifth)
        assert sh.tolist() == [mjfast.shanten(c, wildcards=k, wild_fifth=fifth) for c, k, _ in cases]
    ready = [(c, k, m) for c, k, m in wild_cases(600, seed=41, ready=True) if m == 0]
    H = np.array([c for c, _, _ in ready])
    K = np.array([k for _, k, _ in ready])
    W = mjfast.waits_batch(H, wildcards=K)
    assert W.shape == (len(ready), 35)
    for row, (c, k, _) in zip(W, ready):
        assert np.flatnonzero(row).tolist() == mjfast.waits(c, wildcards=k)
    sh = mjfast.shanten_batch(H, wildcards=K, form="seven_pairs")
    assert sh.tolist() == [mjfast.shanten(c, wildcards=k, form="seven_pairs") for c, k, _ in ready]


def test_wildcard_tiles_is_wildcards_of_their_count():
    rng = np.random.default_rng(5)
    for c in random_hands(1500, 14, seed=50):
        kinds = sorted({int(x) for x in rng.choice(34, size=int(rng.integers(1, 3)))})
        if c[kinds].sum() > 8:
            continue
        real = c.copy()
        real[kinds] = 0
        k = int(c[kinds].sum())
        assert mjfast.is_win(c, wildcard_tiles=kinds) == mjfast.is_win(real, wildcards=k)
        h13 = c.copy()
        t = int(np.flatnonzero(h13)[0])
        h13[t] -= 1
        real13 = h13.copy()
        real13[kinds] = 0
        k13 = int(h13[kinds].sum())
        assert mjfast.shanten(h13, wildcard_tiles=kinds) == mjfast.shanten(real13, wildcards=k13)
        w = mjfast.waits(h13, wildcard_tiles=kinds)
        w2 = mjfast.waits(real13, wildcards=k13)
        for u in kinds:
            assert (u in w) == (WILDCARD in w2 and h13[u] < 4)
        assert [u for u in w if u not in kinds] == [u for u in w2 if u != WILDCARD and u not in kinds]
    H = random_hands(500, 14, seed=51)
    got = mjfast.is_win_batch(H, wildcard_tiles=["C", "F"], errors="mask")
    for row, ok, e in zip(H, *got):
        if e == 0:
            assert ok == mjfast.is_win(row, wildcard_tiles=["C", "F"])


def test_bad_arguments_named():
    with pytest.raises(TypeError, match="wildcards"):
        mjfast.is_win("123m456p789sEE3m", wildcards=1.5)
    with pytest.raises(TypeError, match="wildcards"):
        mjfast.is_win("123m456p789sEE3m", wildcards=True)
    with pytest.raises(ValueError, match="wildcards"):
        mjfast.is_win("123m456p789sEE3m", wildcards=9)
    with pytest.raises(ValueError, match="not both"):
        mjfast.is_win("123m456p789sEE3m", wildcards=1, wildcard_tiles=["C"])
    with pytest.raises(TypeError, match="wild_fifth"):
        mjfast.is_win("123m456p789sEE3m", wildcards=2, wild_fifth=1)
    with pytest.raises(ValueError, match="wildcard_tiles"):
        mjfast.is_win("123m456p789sEE3m", wildcard_tiles=[40])
    with pytest.raises(ValueError, match="unknown tile"):
        mjfast.is_win("123m456p789sEE3m", wildcard_tiles=["Q"])
    with pytest.raises(ValueError, match="14 tiles"):
        mjfast.is_win("123m456p789sEE3m", wildcards=1)
    with pytest.raises(ValueError, match="exact"):
        mjfast.shanten("123m456p789sE", wildcards=1, exact=True)
    with pytest.raises(ValueError, match="wild_fifth"):
        mjfast.decompose("123m456p789sEE3m", wildcards=2, wild_fifth=True)
    H = np.array([mjfast.to_counts("123m456p789sEE3m")] * 3)
    with pytest.raises(ValueError, match="row 2"):
        mjfast.is_win_batch(H, wildcards=[2, 2, 9])
    res, err = mjfast.is_win_batch(H, wildcards=[2, 1, 9], errors="mask")
    assert res.tolist() == [True, False, False] and err.tolist() == [0, 2, 5]
    with pytest.raises(TypeError, match="wildcards"):
        mjfast.is_win_batch(H, wildcards=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="one per row"):
        mjfast.is_win_batch(H, wildcards=[1, 2])


# ---------------------------------------------------------------------------
# the compiled entry points with hostile arguments (in a child: a crash fails)
# ---------------------------------------------------------------------------

WILD_CALLABLES = {"build_win_tables", "build_shanten_tables", "is_win_one", "shanten_one", "waits_one",
                  "useful_one", "win_substitutions", "is_win_batch", "shanten_batch", "waits_batch",
                  "__pyx_unpickle_Enum"}    # Cython's, for the enums: not ours


def test_wild_walk_covers_every_callable():
    found = {n for n in dir(_wild) if callable(getattr(_wild, n)) and not isinstance(getattr(_wild, n), type)
             and not (n.startswith("__") and n.endswith("__"))}
    assert found == WILD_CALLABLES


def test_wild_entry_points_survive_hostile_arguments():
    from test_hardening import run_child
    out = run_child(r"""
        import random
        import numpy as np
        import mjfast
        from mjfast import _wild
        c14 = mjfast.to_counts("123m456p789sEE3m").astype(np.uint8)
        c13 = mjfast.to_counts("123m456p789sEE").astype(np.uint8)
        N = 4
        H14, H13 = np.tile(c14, (N, 1)), np.tile(c13, (N, 1))
        u = lambda *s: np.zeros(s, np.uint8)
        G = np.zeros(N, np.int64)

        def valid():
            return {
                "build_win_tables": (), "build_shanten_tables": (),
                "is_win_one": (c14.copy(), 2, 0, False), "shanten_one": (c13.copy(), 2, 0, -1, False, c13.copy()),
                "waits_one": (c13.copy(), 2, 0, False), "useful_one": (c13.copy(), 2, 0, -1, False, c13.copy()),
                "win_substitutions": (c14.copy(), 2, 0, 5),
                "is_win_batch": (H14.copy(), np.full(N, 2, np.uint8), G.copy(), False, False, u(N), u(N), 1),
                "shanten_batch": (H13.copy(), np.full(N, 2, np.uint8), G.copy(), True, -1, False,
                                  np.zeros(N, np.int8), u(N), 2),
                "waits_batch": (H13.copy(), np.full(N, 2, np.uint8), G.copy(), False, True, u(N, 35), u(N), 1),
            }

        INTS = [-2**63, -2**31, -1, 0, 1, 2, 4, 5, 8, 9, 14, 34, 255, 256, 2**31, 2**63, True, 1.5, None, "1"]

        def variants(x):
            if isinstance(x, np.ndarray):
                v = [None, 5, x.tolist(), np.zeros(0, x.dtype), x[:1], x[:-1], x.astype(np.int64),
                     np.full_like(x, -1 if x.dtype.kind == "i" else 255), np.full_like(x, 5), np.full_like(x, 4),
                     x[..., None]]
                ro = x.copy(); ro.setflags(write=False); v.append(ro)
                if x.ndim == 2:
                    v += [x[:, :-1].copy(), np.concatenate([x, x[:, :1]], axis=1)]
                return v
            return INTS

        calls = 0
        for name, args in valid().items():
            getattr(_wild, name)(*args)
            for k in range(len(args)):
                for bad in variants(args[k]):
                    a = list(valid()[name]); a[k] = bad
                    try:
                        getattr(_wild, name)(*a)
                    except Exception:
                        pass
                    calls += 1
        rnd = random.Random(7)
        for _ in range(2000):
            name = rnd.choice(sorted(valid()))
            a = list(valid()[name])
            if len(a) < 2:
                continue
            for k in rnd.sample(range(len(a)), 2):
                a[k] = rnd.choice(variants(a[k]))
            try:
                getattr(_wild, name)(*a)
            except Exception:
                pass
            calls += 1
        print("calls", calls)
    """)
    assert int(out.split()[-1]) > 2000


def test_rules_beside_wildcards():
    assert mjfast.is_win("123m456p789sEE3m", wildcards=2, rules="mcr")
    assert mjfast.shanten("123m456p789sEE", wildcards=2, rules="mcr") == mjfast.shanten("123m456p789sEE", wildcards=2)
    assert mjfast.waits("123m456p789s123p", wildcards=1, rules="mcr")[-1] == WILDCARD
    # a rule set that does not play every tile is refused with wildcards (a
    # wildcard could stand for a tile it does not play); one that narrows the
    # winning forms answers for its forms only (tests/test_rules_zhuji.py)
    with pytest.raises(ValueError, match="does not play every tile"):
        mjfast.is_win("123456789mEE3m", wildcards=2, rules="two_player")
    assert not mjfast.is_win("1133557799mSSW", wildcards=1, rules="zhuji")


# ---------------------------------------------------------------------------
# score with wildcards: the best total over every substitution
# ---------------------------------------------------------------------------

def _plain_best(h, real, k, win_options, ctx):
    """The best plain score over every substitution of k wildcards (and every
    tile the winning tile may stand for), by brute force; no kind past four
    copies counting the melds."""
    best = None
    held = np.array(h.all_counts, dtype=np.uint8) - np.array(h.counts, dtype=np.uint8) + real
    for s in O.all_subs(k, held):
        x = real + s
        for wt in win_options(s):
            if x[wt] == 0:
                continue
            if not mjfast.is_win(x, melds=len(h.melds)):
                break
            c = x.copy()
            c[wt] -= 1
            tiles = [t for t in range(34) for _ in range(int(c[t]))] + [wt]
            sc = mjfast.score(mjfast.Hand(melds=h.melds, tiles=tiles, flowers=h.flowers), **ctx)
            best = sc.total if best is None else max(best, sc.total)
    return best


@pytest.mark.parametrize("k", [1, 2])
def test_score_best_substitution(k):
    rng = np.random.default_rng(60 + k)
    n = 0
    for rec in random_winning_records(60, seed=60 + k):
        h = mjfast.parse_hand(rec["hand"])
        ctx = dict(self_drawn=rec["self_drawn"], seat_wind=rec["seat_wind"], round_wind=rec["round_wind"])
        tiles = list(h.tiles[:-1])
        if len(tiles) < k:
            continue
        drop = rng.choice(len(tiles), size=k, replace=False)
        kept = [t for i, t in enumerate(tiles) if i not in set(drop.tolist())] + [h.tiles[-1]]
        hk = mjfast.Hand(melds=h.melds, tiles=kept, flowers=h.flowers)
        real = np.array(hk.counts, dtype=np.uint8)
        want = _plain_best(hk, real, k, lambda s: [hk.win_tile], ctx)
        got = mjfast.score(hk, wildcards=k, **ctx)
        assert got.total == want, (rec["hand"], kept)
        assert len(got.substitutions) == k
        # the reported substitution scores what is reported
        x = real.copy()
        for t in got.substitutions:
            x[t] += 1
        x[hk.win_tile] -= 1
        again = mjfast.score(mjfast.Hand(melds=h.melds, tiles=[t for t in range(34) for _ in range(int(x[t]))]
                                         + [hk.win_tile], flowers=h.flowers), **ctx)
        assert again.total == got.total
        n += 1
    assert n > 40


def test_score_winning_tile_wild():
    # the red dragon is wild and is the winning tile: it may stand for any tile
    got = mjfast.score("123m456p789sEE33mC", wildcard_tiles=["C"], self_drawn=True)
    real = mjfast.to_counts("123m456p789sEE33m").astype(np.uint8)
    h = mjfast.parse_hand("123m456p789sEE33mC")
    want = _plain_best(h, real, 1, lambda s: [int(np.flatnonzero(s)[0])], dict(self_drawn=True))
    assert got.total == want
    assert got.substitutions[0] in (2, 27)      # the wildcard is a third 3m or a third East
    with pytest.raises(mjfast.NotWinning):
        mjfast.score("123m456p789sESW3m", wildcards=1)
    with pytest.raises(ValueError, match="wild_fifth"):
        mjfast.score("123m456p789sEE3m", wildcards=2, wild_fifth=True)
    assert mjfast.score("123m456p789sEE33mE").substitutions is None


def test_copies_in_melds_count_towards_four():
    # East pung melded, a lone East and a wildcard: only a fifth East pairs it
    assert not mjfast.is_win("[EEE1]123m456p789sE", wildcards=1)
    assert mjfast.decompose("[EEE1]123m456p789sE", wildcards=1) == []
    assert mjfast.is_win("[EEE1]123m456p789sE", wildcards=1, wild_fifth=True)
    # a count array carries no meld tiles: only the concealed copies count
    c = mjfast.to_counts("123m456p789sE")
    assert mjfast.is_win(c, melds=1, wildcards=1)
    # a wait that needs the fifth copy is dropped, the others kept
    w = mjfast.waits("[EEE1]123m456p789s", wildcards=1)
    assert 27 not in w and 0 in w and w[-1] == WILDCARD


def _meld_hands(n, seed, ready):
    """(notation, concealed counts, melds, caps, k): 1-4 random melds (pungs,
    kongs, chows; a third of the hands have a pung or kong of a tile also
    held concealed), 1-3 wildcards, the rest of the tiles from the wall."""
    rng = np.random.default_rng(seed)
    honors = "ESWNCFP"
    out = []
    while len(out) < n:
        melds = int(rng.integers(1, 5))
        k = int(rng.integers(1, 4))
        size = (13 if ready else int(rng.choice((13, 14)))) - 3 * melds - k
        if size < 0:
            continue
        used = np.zeros(34, np.int64)
        parts = []
        for _ in range(melds):
            kind = rng.random()
            if kind < 0.4:
                s, r = int(rng.integers(3)), int(rng.integers(7))
                tiles = [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
                parts.append("[" + "".join(str(r + 1 + i) for i in range(3)) + "mps"[s] + "]")
            else:
                t = int(rng.integers(34))
                n4 = 4 if kind > 0.85 else 3
                tiles = [t] * n4
                face = honors[t - 27] if t >= 27 else str(t % 9 + 1)
                parts.append("[" + face * n4 + ("" if t >= 27 else "mps"[t // 9]) + "1]")
            for t in tiles:
                used[t] += 1
        if (used > 4).any():
            continue
        wall = np.repeat(np.arange(34), 4 - used)
        pick = rng.choice(wall, size, replace=False)
        if rng.random() < 0.6:
            # a concealed copy of a melded pung's kind, when one is left
            left = [t for t in range(34) if used[t] == 3 and t not in pick]
            if left and size:
                pick[0] = left[0]
        c = np.bincount(pick, minlength=34).astype(np.uint8)
        if (c + used > 4).any():
            continue
        caps = np.clip(4 - used, 0, 4).astype(np.uint8)
        hand = "".join(parts) + (mjfast.counts_to_str(c) if size else "")
        out.append((hand, c, melds, caps, k))
    return out


def _capped_shanten(c, melds, caps, k):
    """The least plain shanten over every substitution that keeps each kind
    within its cap (brute force)."""
    rows = O.all_subs(k, c)
    rows = rows[((c[None, :].astype(np.int16) + rows) <= caps).all(axis=1)]
    return int(mjfast.shanten_batch(c[None, :] + rows, melds=melds).min())


def test_copies_in_melds_count_for_shanten_and_useful_tiles():
    # the gap of the first wildcard version: shanten and useful_tiles counted
    # the concealed tiles only.  Beside a melded East pung a lone East and a
    # wildcard never pair: not complete (is_win agrees), and a drawn East is
    # not useful (its four copies are held)
    h = "[EEE1]123m456p789sE"
    assert not mjfast.is_win(h, wildcards=1)
    assert mjfast.shanten(h, wildcards=1) == 0
    assert mjfast.shanten(h, wildcards=1, wild_fifth=True) == -1
    assert mjfast.shanten(mjfast.to_counts("123m456p789sE"), melds=1, wildcards=1) == -1   # no meld tiles known
    assert mjfast.useful_tiles("[EEE1]123m456p78sE", wildcards=1) == []
    assert mjfast.waits("[EEE1]123m456p78sE", wildcards=1) == []
    # brute force over every substitution within the caps (1-3 wildcards)
    bad = []
    for hand, c, melds, caps, k in _meld_hands(600, seed=21, ready=False):
        got = mjfast.shanten(hand, wildcards=k)
        want = _capped_shanten(c, melds, caps, k)
        if got != want:
            bad.append((hand, k, got, want))
    for hand, c, melds, caps, k in _meld_hands(40, seed=22, ready=True):
        base = _capped_shanten(c, melds, caps, k)
        want = []
        for t in range(34):
            if c[t] < caps[t]:
                x = c.copy()
                x[t] += 1
                if _capped_shanten(x, melds, caps, k) < base:
                    want.append(t)
        if want:
            want.append(WILDCARD)       # a drawn wildcard stands for any of them
        got = mjfast.useful_tiles(hand, wildcards=k)
        if got != want:
            bad.append((hand, k, got, want))
    assert bad == [], bad[:5]


def test_useful_with_eight_wildcards_and_fifth_copies():
    # wild_fifth asks whether one wildcard *more* lowers the shanten: nine
    # wildcards, one past the most a hand holds (the kernel's arrays had no
    # room for it and the answer was garbage)
    c = mjfast.to_counts("12m")
    assert mjfast.shanten(c, melds=1, wildcards=8, wild_fifth=True) == 0
    got = mjfast.useful_tiles(c, melds=1, wildcards=8, wild_fifth=True)
    assert got == list(range(34)) + [WILDCARD]
    for t in (0, 5, 33):
        x = c.copy()
        x[t] += 1
        assert mjfast.shanten(x, melds=1, wildcards=8, wild_fifth=True) == -1
