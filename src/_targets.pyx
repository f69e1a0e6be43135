# cython: language_level=3, cdivision=True
"""mjfast._targets: fan-aware distances, for bots -- how far a hand is from
each fan target (the targets themselves are data in
mjfast/analysis/targets.py, see docs/bots.md), from the exact tables of
mjfast._tables and restricted tables built here with its builder.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
import threading

from fankernel.tiles cimport *
from fankernel.forms cimport *
from mjfast._tables cimport Spec, spec_init as _spec_init, build_exact as _build_exact
from handkernel.tables cimport _need_tables, _need_exact, _xdist, _xhdist, P5, BIG
from handkernel.win cimport *
from handkernel.shanten cimport _half, _shanten_exact, _shanten
from handkernel.guards cimport *
from argcheck cimport _check_len, _check_rows

_init_tile_order()
_init_forms()

_targets_lock = threading.Lock()


# A target is a pattern a winning hand must contain.  Three kinds, each
# computed from tables or closed forms, never by trying exchanges:
#
# * fixed tiles + a small remainder: the fixed multiset F (the melds and pair
#   the fan names), then R melds and p pairs of any tiles, no tile past four
#   copies.  Held copies go to F first (a held tile F needs saves one draw
#   there, and at most one in the remainder); the remainder (at most two
#   melds, or one meld and a pair) is the best of its few dozen shapes;
# * a restricted regular hand: melds and a pair built only from some ranks
#   and shapes (Reversible Tiles, Upper Four, All Fives, ...): the builder of
#   mjfast._tables makes a table per restriction over the allowed ranks;
# * pungs only over an allowed set (All Even Pungs, All Terminals, ...): each
#   tile's cost is 3 - held (pung) or 2 - held (pair), so the best choice
#   is the cheapest pair and the cheapest pungs on other tiles.

cdef int MELD_TILES[55][3]      # 34 pungs (t, t, t) then 21 chows
for _t in range(34):
    MELD_TILES[_t][0] = MELD_TILES[_t][1] = MELD_TILES[_t][2] = _t
for _i, (_s, _r) in enumerate([(s, r) for s in range(3) for r in range(7)]):
    MELD_TILES[34 + _i][0] = _s * 9 + _r
    MELD_TILES[34 + _i][1] = _s * 9 + _r + 1
    MELD_TILES[34 + _i][2] = _s * 9 + _r + 2


cdef inline int _deficit_add(int* w, const uint8_t* rest, const int* cap, int t, int k) noexcept nogil:
    """Add k copies of t to the pattern w; the extra draws it costs, or BIG
    when t would pass its cap."""
    cdef int before = w[t] - rest[t]
    w[t] += k
    if w[t] > cap[t]:
        return BIG
    return (w[t] - rest[t] if w[t] > rest[t] else 0) - (before if before > 0 else 0)


cdef int _remainder(const uint8_t* rest, const int* cap, int R, int p) noexcept nogil:
    """Fewest draws for R melds (0-2) and p pairs (0-1) over any tiles, from
    the tiles left after the fixed part, never past cap[t] copies."""
    cdef int w[34]
    cdef int best = BIG, a, b, t, d1, d2, d3, i
    memset(w, 0, sizeof(w))
    if R == 0:
        if p == 0:
            return 0
        for t in range(34):
            d1 = _deficit_add(w, rest, cap, t, 2)
            best = d1 if d1 < best else best
            w[t] -= 2
        return best
    for a in range(55):
        d1 = 0
        for i in range(3):
            d1 += _deficit_add(w, rest, cap, MELD_TILES[a][i], 1)
        if d1 < best:
            if R == 1 and p == 0:
                best = d1
            elif R == 1:
                for t in range(34):
                    d3 = _deficit_add(w, rest, cap, t, 2)
                    if d1 + d3 < best:
                        best = d1 + d3
                    w[t] -= 2
            else:
                for b in range(a, 55):
                    d2 = 0
                    for i in range(3):
                        d2 += _deficit_add(w, rest, cap, MELD_TILES[b][i], 1)
                    if p == 0:
                        if d1 + d2 < best:
                            best = d1 + d2
                    else:
                        for t in range(34):
                            d3 = _deficit_add(w, rest, cap, t, 2)
                            if d1 + d2 + d3 < best:
                                best = d1 + d2 + d3
                            w[t] -= 2
                    for i in range(3):
                        w[MELD_TILES[b][i]] -= 1
        for i in range(3):
            w[MELD_TILES[a][i]] -= 1
    return best


cdef int _fixed_dist(const uint8_t* c, const uint8_t* F, const uint8_t* shown, int R, int p, int bound) noexcept nogil:
    """Draws to a hand holding F plus R melds and p pairs; BIG past `bound`."""
    cdef uint8_t rest[34]
    cdef int cap[34]
    cdef int t, miss = 0, r
    for t in range(34):
        if c[t] >= F[t]:
            rest[t] = c[t] - F[t]
        else:
            rest[t] = 0
            miss += F[t] - c[t]
        cap[t] = 4 - F[t] - shown[t]
        if cap[t] < 0:
            return BIG
    if miss > bound:
        return BIG
    r = _remainder(rest, cap, R, p)
    return miss + r if r < BIG else BIG


cdef int _pungs_dist(const uint8_t* c, const uint8_t* allowed, const uint8_t* shown, int M) noexcept nogil:
    """Draws to M pungs and a pair on distinct allowed tiles, no tile past
    four copies counting the exposed melds' (``shown``): a pung needs a tile
    with at most one copy shown, a pair one with at most two."""
    cdef int n[4]          # pung-able allowed tiles by their pung cost 0-3
    cdef int t, q, k, pc, cost, best = BIG, left, take, h
    n[0] = n[1] = n[2] = n[3] = 0
    for t in range(34):
        if allowed[t] and shown[t] <= 1:
            h = c[t] if c[t] < 3 else 3
            n[3 - h] += 1
    # the pair on tile q (cost 2 - held), then the M cheapest pungs among
    # the other pung-able tiles
    for q in range(34):
        if not allowed[q] or shown[q] > 2:
            continue
        pc = 2 - c[q] if c[q] < 2 else 0
        k = -1
        if shown[q] <= 1:
            k = 3 - (c[q] if c[q] < 3 else 3)
            n[k] -= 1
        cost = pc
        left = M
        for h in range(4):
            take = n[h] if n[h] < left else left
            cost += take * h
            left -= take
        if k >= 0:
            n[k] += 1
        if left == 0 and cost < best:
            best = cost
    return best


# Restricted tables: built once, on the first fan-target query.
cdef uint8_t* _rtab[16]
cdef Spec _rspec[16]
cdef int _nrtab = 0


_built_specs = None


def build_restricted(list specs):
    """Build the restricted tables: specs = [(nrank, allowed, chow, pung, pair), ...]
    bit masks over ranks (rank 1 = bit 0).  Built once; a later call must
    pass the same specs."""
    global _nrtab, _built_specs
    cdef int k
    cdef Spec S
    cdef uint8_t* t
    specs = [tuple(int(x) for x in sp) for sp in specs]
    if not 0 < len(specs) <= 16:
        raise ValueError("1 to 16 restricted tables")
    for nrank, allowed, chow, pung, pair in specs:
        full = (1 << nrank) - 1
        if nrank not in (7, 9) or not 0 <= allowed <= full or (pung | pair) & ~allowed:
            raise ValueError(f"bad restricted spec {(nrank, allowed, chow, pung, pair)}")
        for r in range(9):
            if (chow >> r) & 1 and (nrank != 9 or r > 6 or ((allowed >> r) & 7) != 7):
                raise ValueError(f"bad restricted spec {(nrank, allowed, chow, pung, pair)}: chow at rank {r + 1}")
        if chow >> 7:
            raise ValueError(f"bad restricted spec {(nrank, allowed, chow, pung, pair)}")
    _need_tables()
    with _targets_lock:
        if _nrtab:
            if specs != _built_specs:
                raise ValueError("the restricted tables are built already, with other specs")
            return
        for k, (nrank, allowed, chow, pung, pair) in enumerate(specs):
            _spec_init(&S, nrank, allowed, chow, pung, pair)
            if S.n > 7:
                raise ValueError("a restricted table allows at most 7 ranks (full suits use the exact table)")
            with nogil:
                t = _build_exact(&S)
            if t == NULL:
                raise MemoryError("mjfast: cannot allocate the fan-target tables")
            _rtab[k] = t
            _rspec[k] = S
        _built_specs = specs
        _nrtab = len(specs)


cdef inline bint _any_shown(const uint8_t* shown, int n) noexcept nogil:
    cdef int r
    for r in range(n):
        if shown[r]:
            return True
    return False


cdef void _capped_rec(const int* held, const int* cap, const int* shape_r, const int* shape_chow, int nshape,
                      uint16_t pair, int nrank, int* used, int start, int m, int M, int* best) noexcept nogil:
    cdef int r, d = 0, k, ok
    for r in range(nrank):
        if used[r] > held[r]:
            d += used[r] - held[r]
    if d < best[m * 2]:
        best[m * 2] = d
    for r in range(nrank):
        if (pair >> r) & 1 and used[r] + 2 <= cap[r]:
            k = d + (used[r] + 2 - held[r] if used[r] + 2 > held[r] else 0) - (used[r] - held[r] if used[r] > held[r] else 0)
            if k < best[m * 2 + 1]:
                best[m * 2 + 1] = k
    if m == M:
        return
    for k in range(start, nshape):
        r = shape_r[k]
        if shape_chow[k]:
            ok = used[r] < cap[r] and used[r + 1] < cap[r + 1] and used[r + 2] < cap[r + 2]
            if ok:
                used[r] += 1; used[r + 1] += 1; used[r + 2] += 1
                _capped_rec(held, cap, shape_r, shape_chow, nshape, pair, nrank, used, k, m + 1, M, best)
                used[r] -= 1; used[r + 1] -= 1; used[r + 2] -= 1
        elif used[r] + 3 <= cap[r]:
            used[r] += 3
            _capped_rec(held, cap, shape_r, shape_chow, nshape, pair, nrank, used, k, m + 1, M, best)
            used[r] -= 3


cdef void _part_capped(const uint8_t* c, const uint8_t* shown, int nrank, uint16_t chow, uint16_t pung,
                       uint16_t pair, int M, uint8_t* vec) noexcept nogil:
    """A part's distance vector (entry m * 2 + p: draws to m melds and p
    pairs of the allowed shapes) when some of its tiles are in exposed
    melds: no tile past four copies counting those.  The tables assume every
    copy not held can be drawn, so a part with shown tiles is searched (at
    most 3 melds beside an exposed one, 16 shapes: about a thousand sets)."""
    cdef int held[9]
    cdef int cap[9]
    cdef int used[9]
    cdef int shape_r[16]
    cdef int shape_chow[16]
    cdef int best[10]
    cdef int r, n = 0, e
    for r in range(nrank):
        held[r] = c[r]
        cap[r] = 4 - shown[r]
        used[r] = 0
        if (pung >> r) & 1:
            shape_r[n] = r
            shape_chow[n] = 0
            n += 1
    for r in range(nrank - 2):
        if (chow >> r) & 1:
            shape_r[n] = r
            shape_chow[n] = 1
            n += 1
    for e in range(10):
        best[e] = BIG
    _capped_rec(held, cap, shape_r, shape_chow, n, pair, nrank, used, 0, 0, M, best)
    for e in range(10):
        vec[e] = <uint8_t>(best[e] if best[e] < BIG else BIG)


cdef int _restricted_dist(const uint8_t* c, const uint8_t* shown, const int8_t* spec, int M) noexcept nogil:
    """Draws to M melds + a pair, each part built only as its spec allows:
    spec[j] = restricted table of part j, -1 = no tiles, -2 = the exact
    table (a full suit, or all honors).  A part holding tiles of exposed
    melds (shown) is searched with the four-copy caps instead."""
    cdef int j, r, key, k, v, best = BIG
    cdef uint8_t vec[4][10]
    cdef int ab0[5]
    cdef int ab1[5]
    cdef int sh0[5]
    cdef int sh1[5]
    cdef const Spec* S
    cdef int nr
    cdef uint16_t allowed_mask
    for j in range(4):
        if spec[j] < -2:
            return BIG
        nr = 9 if j < 3 else 7
        if spec[j] != -1 and _any_shown(shown + 9 * j, nr):
            if spec[j] == -2:
                _part_capped(c + 9 * j, shown + 9 * j, nr, 0x7F if j < 3 else 0, 0x1FF if j < 3 else 0x7F,
                             0x1FF if j < 3 else 0x7F, M, vec[j])
            else:
                S = &_rspec[spec[j]]
                _part_capped(c + 9 * j, shown + 9 * j, nr, S.chow, S.pung, S.pair, M, vec[j])
        elif spec[j] == -1:
            memset(vec[j], BIG, 10)
            vec[j][0] = 0
        elif spec[j] == -2:
            if j < 3:
                memcpy(vec[j], _xdist + _key_of(c + 9 * j, 9) * 10, 10)
            else:
                memcpy(vec[j], _xhdist + _key_of(c + 27, 7) * 10, 10)
        else:
            S = &_rspec[spec[j]]
            key = 0
            for k in range(S.n - 1, -1, -1):
                key = key * 5 + c[9 * j + S.rank[k]]
            memcpy(vec[j], _rtab[spec[j]] + key * 10, 10)
    _half(ab0, ab1, vec[0], vec[1], M)
    _half(sh0, sh1, vec[2], vec[3], M)
    for k in range(M + 1):
        v = ab0[k] + sh1[M - k]
        best = v if v < best else best
        v = ab1[k] + sh0[M - k]
        best = v if v < best else best
    return best if best < BIG else BIG


cdef int _knit_meld_dist(const uint8_t* c, const uint8_t* shown) noexcept nogil:
    """Draws to a knitted straight beside one exposed meld: the nine knitted
    tiles and a pair in the concealed hand, no tile past four copies counting
    the meld's (the exact table would count the meld's copies as drawable)."""
    cdef int a, q, t, d, need, best = BIG
    cdef int T[34]
    for a in range(6):
        memset(T, 0, sizeof(T))
        for t in range(9):
            T[KNIT_TILES[a][t]] = 1
        for q in range(34):
            T[q] += 2
            d = 0
            for t in range(34):
                if T[t] + shown[t] > 4:
                    d = BIG
                    break
                need = T[t] - c[t]
                if need > 0:
                    d += need
            T[q] -= 2
            if d < best:
                best = d
    return best


cdef int _greater_hk_dist(const uint8_t* c) noexcept nogil:
    cdef int got[6]
    cdef int a, g, best = BIG
    cdef int hon = _popcount9(<int>((_present34(c) >> 27) & 0x7F))
    _knitted_got(c, got)
    for a in range(6):
        g = got[a] if got[a] < 7 else 7
        if (7 - hon) + (7 - g) < best:
            best = (7 - hon) + (7 - g)
    return best


cdef void _target_dists(const uint8_t* c, int melds, const uint8_t* shown,
                        const uint8_t* F, const int8_t* RP, const int16_t* fan_of, int nfixed,
                        const int8_t* rspec, const int16_t* rfan, int nres,
                        const uint8_t* pallow, const int16_t* pfan, int npung,
                        const int16_t* form_fan, int16_t* out, int nfan) noexcept nogil:
    """out[f] = fewest draws to a winning hand with target fan f (BIG when
    out of reach), over all the fan's variants.  melds / shown: the exposed
    melds were matched to the targets in Python (F, RP already reduced);
    here melds only sets the size."""
    cdef int k, f, d, M = 4 - melds
    for f in range(nfan):
        out[f] = BIG
    for k in range(nfixed):
        f = fan_of[k]
        if RP[2 * k] < 0:
            continue
        d = _fixed_dist(c, F + 34 * k, shown, RP[2 * k], RP[2 * k + 1], out[f] - 1)
        if d < out[f]:
            out[f] = d
    for k in range(nres):
        f = rfan[k]
        if rspec[4 * k] == -3:
            continue
        d = _restricted_dist(c, shown, rspec + 4 * k, M)
        if d < out[f]:
            out[f] = d
    for k in range(npung):
        f = pfan[k]
        if pallow[34 * k] == 255:
            continue
        d = _pungs_dist(c, pallow + 34 * k, shown, M)
        if d < out[f]:
            out[f] = d
    # the special forms: seven pairs, thirteen orphans, the two honors and
    # knitted fans, knitted straight (form_fan[i] = fan index or -1)
    if melds == 0:
        if form_fan[0] >= 0:
            out[form_fan[0]] = _seven_pairs_dist(c)
        if form_fan[1] >= 0:
            out[form_fan[1]] = _orphans_dist(c)
        if form_fan[2] >= 0:
            out[form_fan[2]] = _shanten_exact(c, 0, 3) + 1
        if form_fan[3] >= 0:
            out[form_fan[3]] = _greater_hk_dist(c)
    if melds == 0 and form_fan[4] >= 0:
        out[form_fan[4]] = _shanten_exact(c, 0, 4) + 1
    elif melds == 1 and form_fan[4] >= 0:
        out[form_fan[4]] = _knit_meld_dist(c, shown)


def target_dists(const uint8_t[::1] c, int melds, const uint8_t[::1] shown,
                 const uint8_t[:, ::1] F, const int8_t[:, ::1] RP, const int16_t[::1] fan_of,
                 const int8_t[:, ::1] rspec, const int16_t[::1] rfan,
                 const uint8_t[:, ::1] pallow, const int16_t[::1] pfan,
                 const int16_t[::1] form_fan, int16_t[::1] out, bint useful, int64_t[::1] useful_out):
    """The per-fan distances (tiles to add) of concealed counts c (13-3k or
    14-3k tiles) into out; with ``useful``, useful_out[f] = the tiles (bits)
    whose draw lowers fan f's distance (13-3k hands)."""
    cdef uint8_t h[34]
    cdef uint8_t sh[34]
    cdef int16_t tmp[128]
    cdef int nfan = out.shape[0], t, f
    _need_exact()
    _take_hand(c, h, melds, 2)
    _take34(shown, sh, "shown")
    if nfan > 128 or form_fan.shape[0] != 5 or useful_out.shape[0] != nfan:
        raise ValueError("bad target table")
    _check_len(F.shape[1], 34, "F")
    _check_len(RP.shape[0], F.shape[0], "RP")
    _check_len(RP.shape[1], 2, "RP")
    _check_len(fan_of.shape[0], F.shape[0], "fan_of")
    _check_len(rspec.shape[1], 4, "rspec")
    _check_len(rfan.shape[0], rspec.shape[0], "rfan")
    _check_len(pallow.shape[1], 34, "pallow")
    _check_len(pfan.shape[0], pallow.shape[0], "pfan")
    for f in range(fan_of.shape[0]):
        if not 0 <= fan_of[f] < nfan:
            raise ValueError("bad target table")
    for f in range(rfan.shape[0]):
        if not 0 <= rfan[f] < nfan:
            raise ValueError("bad target table")
        for t in range(4):
            if not -3 <= rspec[f, t] < _nrtab:
                raise ValueError("bad target table")
    for f in range(pfan.shape[0]):
        if not 0 <= pfan[f] < nfan:
            raise ValueError("bad target table")
    for f in range(5):
        if not -1 <= form_fan[f] < nfan:
            raise ValueError("bad target table")
    with nogil:
        _target_dists(h, melds, sh, &F[0, 0] if F.shape[0] else NULL, &RP[0, 0] if RP.shape[0] else NULL,
                      &fan_of[0] if fan_of.shape[0] else NULL, fan_of.shape[0],
                      &rspec[0, 0] if rspec.shape[0] else NULL, &rfan[0] if rfan.shape[0] else NULL, rfan.shape[0],
                      &pallow[0, 0] if pallow.shape[0] else NULL, &pfan[0] if pfan.shape[0] else NULL, pfan.shape[0],
                      &form_fan[0], &out[0], nfan)
        for f in range(nfan):
            useful_out[f] = 0
        if useful and _sum34(h) + 3 * melds == 13:
            for t in range(34):
                if h[t] + sh[t] >= 4:
                    continue
                h[t] += 1
                _target_dists(h, melds, sh, &F[0, 0] if F.shape[0] else NULL, &RP[0, 0] if RP.shape[0] else NULL,
                              &fan_of[0] if fan_of.shape[0] else NULL, fan_of.shape[0],
                              &rspec[0, 0] if rspec.shape[0] else NULL, &rfan[0] if rfan.shape[0] else NULL,
                              rfan.shape[0],
                              &pallow[0, 0] if pallow.shape[0] else NULL, &pfan[0] if pfan.shape[0] else NULL,
                              pfan.shape[0], &form_fan[0], tmp, nfan)
                h[t] -= 1
                for f in range(nfan):
                    if tmp[f] < out[f]:
                        useful_out[f] |= (<int64_t>1) << t
