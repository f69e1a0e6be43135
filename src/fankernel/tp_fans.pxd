# Two-player mahjong (rule set two_player): its fan predicates and its scorer
# (compiled into mjfast._fans by cimport; the layout note is in mcr_score.pxd).
#
# Only this rule set's predicates live here; the readings, their order and
# the seven-pairs test are the generic files'.  The fan ids
# TP_* and TP_NFAN are generated at build time from the table in
# mjfast/rules/two_player/table.py (fan_ids.pxd), and the points and exclusion
# masks are generated from that table too (src/include/fan_table.h) and loaded by
# mjfast._fans when it starts, so names, points and whole-fan
# exclusions are data, as for MCR.  mjfast/rules/two_player/__init__.py keeps a plain-Python version of the
# same predicates; a differential test holds the two together.
#
# Tiles here are our own index (0-8 = 1m-9m, 27-33 = E S W N C F P); a chow
# is named by its lowest tile.

from libc.stdint cimport uint8_t, int16_t, uint64_t
from libc.string cimport memset, memcpy
from fankernel.tiles cimport *
from fankernel.forms cimport _seven_pairs_win
from fankernel.fan_base cimport *
from fankernel.fan_ids cimport *
from fankernel.readings cimport *

cdef enum:
    # option bits (RuleSet options, packed by mjfast/rules/two_player/__init__.py)
    TPO_ROB_KONG_ONLY = 1           # fangchong = "rob_kong"
    TPO_UNIQUE_WAIT = 2             # unique_wait_only
    TPO_ADDED_KONG_MELDED = 4       # added_kong_is_melded_kong
    TPO_HIGHEST_HEAVENLY = 8        # highest_heavenly_only
    TPO_UPPER_FOUR_FULL_FLUSH = 16  # upper_four_keeps_full_flush

    # context bits: self-drawn, kong, then the rule byte's flags two bits up
    # (RF_* << 2, as mjfast.rules.two_player packs them)
    TPF_SELF_DRAWN = 1
    TPF_KONG = 2                    # out with a replacement tile / robbing a kong (already checked)
    TPF_HEAVENLY = RF_HEAVENLY_HAND << 2
    TPF_EARTHLY = RF_EARTHLY_HAND << 2
    TPF_HUMAN = RF_HUMAN_HAND << 2
    TPF_READY = RF_READY_AT_START << 2

cdef extern from "fankernel/tp_fans.h":
    int16_t TP_POINTS "mjfast_tp_points"[TP_NFAN]
    uint64_t TP_EXCL "mjfast_tp_excl"[TP_NFAN]      # bit j of row i: fan i removes fan j (ids below 64)
    int TP_ORDER "mjfast_tp_order"[TP_NFAN]         # ids by points (high first), then id: the exclusion pass order
    int TP_N_ORDER "mjfast_tp_n_order"


cdef inline int _tp_pair_fan(int a, int b) noexcept nogil:
    """The chow-pair fan of two character chows (lowest tiles)."""
    if a == b:
        return TP_PURE_DOUBLE_CHOW
    if a - b == 3 or b - a == 3:
        return TP_SHORT_STRAIGHT
    if (a == 0 and b == 6) or (a == 6 and b == 0):
        return TP_TWO_TERMINAL_CHOWS
    return 0


cdef inline int _tp_three_chows(int a, int b, int c) noexcept nogil:
    """Three-chow fan of a <= b <= c."""
    if a == b and b == c:
        return TP_PURE_TRIPLE_CHOW
    if a == 0 and b == 3 and c == 6:
        return TP_PURE_STRAIGHT
    if b - a == c - b and (b - a == 1 or b - a == 2):
        return TP_PURE_SHIFTED_CHOWS
    return 0


cdef inline void _tp_cap_pairs(const int* found, int n, int cap, int16_t* ft) noexcept nogil:
    """Chow-pair fans without a three-chow fan: while above `cap`, first
    bring repeated fans down to one, then drop them, in the order Two
    Terminal Chows, Short Straight, Pure Double Chow (as MCR counts)."""
    cdef int order[3]
    cdef int cnt[3]
    cdef int i, k, total = 0, limit
    order[0] = TP_TWO_TERMINAL_CHOWS; order[1] = TP_SHORT_STRAIGHT; order[2] = TP_PURE_DOUBLE_CHOW
    cnt[0] = 0; cnt[1] = 0; cnt[2] = 0
    for i in range(n):
        for k in range(3):
            if found[i] == order[k]:
                cnt[k] += 1
                total += 1
    limit = 1
    while total > cap and limit >= 0:
        for k in range(3):
            while cnt[k] > limit and total > cap:
                cnt[k] -= 1
                total -= 1
        limit -= 1
    for k in range(3):
        ft[order[k]] += cnt[k]


cdef inline void _tp_chow_fans(int* m, int n, int pair, int16_t* ft) noexcept nogil:
    cdef int i, j, k, skip, f, cap, np_
    cdef int three[3]
    cdef int pf[6]
    cdef int extra[3]
    cdef bint hit
    _sort_small(m, n)
    if n == 4:
        if m[0] == m[3]:
            ft[TP_QUADRUPLE_CHOW] = 1
            return
        if m[1] - m[0] == m[2] - m[1] and m[2] - m[1] == m[3] - m[2] and (m[1] - m[0] == 1 or m[1] - m[0] == 2):
            ft[TP_FOUR_PURE_SHIFTED_CHOWS] = 1
            return
        if m[0] == 0 and m[1] == 0 and m[2] == 6 and m[3] == 6 and pair == 4:
            ft[TP_PURE_TERMINAL_CHOWS] = 1
            return
        for skip in range(3, -1, -1):
            k = 0
            for i in range(4):
                if i != skip:
                    three[k] = m[i]
                    k += 1
            f = _tp_three_chows(three[0], three[1], three[2])
            if f:
                ft[f] = 1
                for i in range(3):
                    extra[i] = _tp_pair_fan(three[i], m[skip])
                # account once: the fourth chow adds at most one chow-pair fan,
                # the first of Pure Double Chow, Short Straight, Two Terminal Chows
                pf[0] = TP_PURE_DOUBLE_CHOW; pf[1] = TP_SHORT_STRAIGHT; pf[2] = TP_TWO_TERMINAL_CHOWS
                for k in range(3):
                    f = pf[k]
                    if extra[0] == f or extra[1] == f or extra[2] == f:
                        ft[f] += 1
                        break
                return
        np_ = 0
        for i in range(4):
            for j in range(i + 1, 4):
                pf[np_] = _tp_pair_fan(m[i], m[j])
                np_ += 1
        cap = 3
        for k in range(4):
            hit = False
            np_ = 0
            for i in range(4):
                for j in range(i + 1, 4):
                    if pf[np_] and (i == k or j == k):
                        hit = True
                    np_ += 1
            if not hit:
                cap -= 1
        if cap > 0:
            _tp_cap_pairs(pf, 6, cap, ft)
    elif n == 3:
        f = _tp_three_chows(m[0], m[1], m[2])
        if f:
            ft[f] = 1
            return
        pf[0] = _tp_pair_fan(m[0], m[1]); pf[1] = _tp_pair_fan(m[0], m[2]); pf[2] = _tp_pair_fan(m[1], m[2])
        _tp_cap_pairs(pf, 3, 2, ft)
    elif n == 2:
        f = _tp_pair_fan(m[0], m[1])
        if f:
            ft[f] = 1


cdef inline bint _tp_th(int t) noexcept nogil:
    return t == 0 or t == 8 or t >= 27


cdef inline void _tp_pung_fans(const int* tiles, int n, int pair, int16_t* ft) noexcept nogil:
    """Pung fans of the pungs and kongs `tiles` (our index) beside `pair`."""
    cdef int winds = 0, dragons = 0, covered = 0, th = 0, i, j, t, nr = 0
    cdef int ranks[4]
    for i in range(n):
        t = tiles[i]
        if 27 <= t <= 30:
            winds += 1
        elif t >= 31:
            dragons += 1
        else:
            ranks[nr] = t
            nr += 1
        if _tp_th(t):
            th += 1
    if winds == 4:
        ft[TP_BIG_FOUR_WINDS] = 1
    elif winds == 3:
        if 27 <= pair <= 30:
            ft[TP_LITTLE_FOUR_WINDS] = 1
        else:
            ft[TP_BIG_THREE_WINDS] = 1
        covered += 3
    if dragons == 3:
        ft[TP_BIG_THREE_DRAGONS] = 1
        covered += 3
    elif dragons == 2:
        if pair >= 31:
            ft[TP_LITTLE_THREE_DRAGONS] = 1
        else:
            ft[TP_TWO_DRAGONS_PUNGS] = 1
        covered += 2
    _sort_small(ranks, nr)
    if nr == 4 and ranks[3] - ranks[0] == 3 and ranks[0] != ranks[1] and ranks[1] != ranks[2] and ranks[2] != ranks[3]:
        ft[TP_FOUR_PURE_SHIFTED_PUNGS] = 1
    else:
        for i in range(nr - 2):
            if ranks[i + 1] == ranks[i] + 1 and ranks[i + 2] == ranks[i] + 2:
                ft[TP_PURE_SHIFTED_PUNGS] = 1
                break
    if n == 4:
        ft[TP_ALL_PUNGS] = 1
    th -= covered
    if th > 0:
        ft[TP_PUNG_OF_TERMINALS_OR_HONORS] = th


cdef inline void _tp_exclude(int16_t* ft) noexcept nogil:
    """Drop every fan a present fan removes, highest fan first; a fan already
    dropped removes nothing (the MCR engine's pass)."""
    cdef int k, i, j
    cdef uint64_t d
    for k in range(TP_N_ORDER):
        i = TP_ORDER[k]
        if ft[i] > 0 and TP_EXCL[i]:
            d = TP_EXCL[i]
            while d:
                j = _ctz64(d)
                ft[j] = 0
                d &= d - 1


cdef inline int _tp_total(const int16_t* ft) noexcept nogil:
    cdef int i, s = 0
    for i in range(TP_NFAN):
        if ft[i] > 0:
            s += TP_POINTS[i] * ft[i]
    return s


cdef inline int _tp_finish(int16_t* ft, int opts) noexcept nogil:
    """The partial exclusions, the option on Upper Four, the exclusion pass,
    and the total of one reading."""
    if ft[TP_NINE_GATES] and ft[TP_PUNG_OF_TERMINALS_OR_HONORS] > 0:
        ft[TP_PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if not (opts & TPO_UPPER_FOUR_FULL_FLUSH) and ft[TP_UPPER_FOUR]:
        ft[TP_FULL_FLUSH] = 0
    _tp_exclude(ft)
    return _tp_total(ft)


cdef inline int _tp_score(const uint8_t* counts, int n_melds, const uint8_t* kind, const uint8_t* mtile,
                          const uint8_t* mopen, const uint8_t* madded, int win, int flags, int opts,
                          int16_t* out_ft, int* out_form, Division* out_div) noexcept nogil:
    """Score one validated two-player hand; returns the best total without
    flowers (-1 not a win).  out_ft: TP_NFAN counts by id; out_div: the best
    reading's concealed sets (packs 0..3) and pair (pack 4)."""
    cdef int16_t base[TP_NFAN]
    cdef int16_t ft[TP_NFAN]
    cdef uint8_t all_c[34]
    cdef uint8_t c[34]
    cdef uint8_t standing[34]
    cdef Division divs[MAXDIV]
    cdef Ctx ctx
    cdef int ndiv = 0, i, j, t, best = -1, tot, need = 4 - n_melds, n_open = 0, n_kongs = 0
    cdef int chows[4]
    cdef int pungs[4]
    cdef int c_chows[4]
    cdef int nch, npg, ncc, nconc, pair, edge, closed
    cdef bint honors = False, suited = False, sd = flags & TPF_SELF_DRAWN, unique = True, win_in_chow
    cdef bint conc_pung[4]
    memcpy(c, counts, 34)
    memcpy(all_c, counts, 34)
    memset(base, 0, sizeof(base))
    for i in range(n_melds):
        t = mtile[i]
        if kind[i] == 0:
            all_c[t] += 1; all_c[t + 1] += 1; all_c[t + 2] += 1
        else:
            all_c[t] += 3 if kind[i] == 1 else 4
        if kind[i] == 2:
            n_kongs += 1
        if not (kind[i] == 2 and not mopen[i]):
            n_open += 1
    for t in range(9):
        suited = suited or all_c[t] > 0
    for t in range(27, 34):
        honors = honors or all_c[t] > 0
    if suited and not honors:
        base[TP_FULL_FLUSH] = 1
        if all_c[0] == 0 and all_c[1] == 0 and all_c[2] == 0 and all_c[3] == 0 and all_c[4] == 0:
            base[TP_UPPER_FOUR] = 1
    elif honors and not suited:
        base[TP_ALL_HONORS] = 1
    else:
        base[TP_HALF_FLUSH] = 1
    if not honors:
        base[TP_NO_HONORS] = 1
    if all_c[1] == 0 and all_c[2] == 0 and all_c[3] == 0 and all_c[4] == 0 and all_c[5] == 0 \
            and all_c[6] == 0 and all_c[7] == 0:
        base[TP_ALL_TERMINALS_AND_HONORS] = 1
    if n_open == 0:
        base[TP_FULLY_CONCEALED_HAND if sd else TP_CONCEALED_HAND] = 1
    if n_open == 4 and not sd:
        base[TP_MELDED_HAND] = 1
    if (flags & TPF_KONG) and sd:
        base[TP_OUT_WITH_REPLACEMENT_TILE] = 1
    if not sd and (not (opts & TPO_ROB_KONG_ONLY) or (flags & TPF_KONG)):
        base[TP_WIN_OFF_A_DISCARD] = 1
    if flags & TPF_HEAVENLY:
        base[TP_HEAVENLY_HAND] = 1
    if flags & TPF_EARTHLY:
        base[TP_EARTHLY_HAND] = 1
    if flags & TPF_HUMAN:
        base[TP_HUMAN_HAND] = 1
    if flags & TPF_READY:
        base[TP_READY_AT_START] = 1
    if opts & TPO_HIGHEST_HEAVENLY:
        if base[TP_HEAVENLY_HAND]:
            base[TP_EARTHLY_HAND] = 0
            base[TP_HUMAN_HAND] = 0
        if base[TP_EARTHLY_HAND]:
            base[TP_HUMAN_HAND] = 0
    if n_kongs == 4:
        base[TP_FOUR_KONGS] = 1
    elif n_kongs == 3:
        base[TP_THREE_KONGS] = 1
    elif n_kongs == 2:
        base[TP_TWO_KONGS] = 1
    elif n_kongs == 1:
        for i in range(n_melds):
            if kind[i] == 2:
                if not mopen[i]:
                    base[TP_CONCEALED_KONG] = 1
                elif not madded[i] or (opts & TPO_ADDED_KONG_MELDED):
                    base[TP_MELDED_KONG] = 1
    memcpy(standing, counts, 34)
    standing[win] -= 1
    if n_melds == 0 and standing[0] == 3 and standing[8] == 3:
        base[TP_NINE_GATES] = 1
        for t in range(1, 8):
            if standing[t] != 1:
                base[TP_NINE_GATES] = 0
    if opts & TPO_UNIQUE_WAIT:
        unique = _popcount64(_waits(standing, n_melds)) == 1
    # every regular reading, in the order the reference meets them
    ctx.n_fixed = 0
    ndiv = _readings(c, need, &ctx, divs)
    out_form[0] = 0
    for j in range(ndiv):
        memcpy(ft, base, sizeof(ft))
        nch = 0; npg = 0; ncc = 0
        pair = divs[j].packs[4].tile
        for i in range(need):
            if divs[j].packs[i].type == P_CHOW:
                c_chows[ncc] = divs[j].packs[i].tile
                chows[nch] = c_chows[ncc]
                ncc += 1
                nch += 1
        win_in_chow = False
        for i in range(ncc):
            if c_chows[i] <= win <= c_chows[i] + 2:
                win_in_chow = True
        for i in range(need):
            if divs[j].packs[i].type == P_PUNG:
                t = divs[j].packs[i].tile
                pungs[npg] = t
                # a pung completed by the winning discard is melded, unless the
                # winning tile can be read in a concealed chow (MCR)
                conc_pung[npg] = sd or t != win or win_in_chow
                npg += 1
        for i in range(n_melds):
            if kind[i] == 0:
                chows[nch] = mtile[i]
                nch += 1
            else:
                pungs[npg] = mtile[i]
                conc_pung[npg] = kind[i] == 2 and not mopen[i]
                npg += 1
        _tp_pung_fans(pungs, npg, pair, ft)
        _tp_chow_fans(chows, nch, pair, ft)
        nconc = 0
        for i in range(npg):
            nconc += conc_pung[i]
        if nconc >= 4:
            ft[TP_FOUR_CONCEALED_PUNGS] = 1
        elif nconc == 3:
            ft[TP_THREE_CONCEALED_PUNGS] = 1
        elif nconc == 2:
            ft[TP_TWO_CONCEALED_PUNGS] = 1
        if pair == 1 or pair == 4 or pair == 7:
            ft[TP_PAIR_258] = 1
        elif pair == 0 or pair == 8:
            ft[TP_TERMINAL_PAIR] = 1
        if not ft[TP_MELDED_HAND] and unique:
            edge = 0; closed = 0
            for i in range(ncc):
                t = c_chows[i]
                if (win == t + 2 and t % 9 == 0) or (win == t and t % 9 == 6):
                    edge = 1
                elif win == t + 1:
                    closed = 1
            if edge:
                ft[TP_EDGE_WAIT] = 1
            elif closed:
                ft[TP_CLOSED_WAIT] = 1
            elif pair == win:
                ft[TP_SINGLE_WAIT] = 1
        tot = _tp_finish(ft, opts)
        if tot > best:
            best = tot
            memcpy(out_ft, ft, sizeof(ft))
            out_div[0] = divs[j]
    if n_melds == 0 and _seven_pairs_win(c):
        memcpy(ft, base, sizeof(ft))
        ft[TP_SEVEN_PAIRS] = 1
        # seven shifted pairs: seven consecutive characters, two of each
        j = -1
        for t in range(9):
            if c[t]:
                j = t
                break
        if j >= 0 and j <= 2:
            ft[TP_SEVEN_SHIFTED_PAIRS] = 1
            for t in range(j, j + 7):
                if c[t] != 2:
                    ft[TP_SEVEN_SHIFTED_PAIRS] = 0
        tot = _tp_finish(ft, opts)
        if tot > best:
            best = tot
            memcpy(out_ft, ft, sizeof(ft))
            memset(out_div, 0, sizeof(Division))
            out_form[0] = 1
    return best
