# MCR's fan predicates (the mcr and dazhong rule sets; compiled into mjfast._fans
# by cimport).
#
# The fan table -- names, points and whole-fan exclusions -- is data in
# mjfast/rules/mcr/table.py; set_fan_table() loads its points and exclusion masks
# here.  This file holds what cannot be data: the predicates that find fans in
# the sets of one reading and in the hand's tiles, the counting principles
# that limit chow and pung combinations, and the few partial exclusions that
# remove *some* instances of a fan.  Scoring one reading and the search over
# the readings are in mcr_score.pxd.

from libc.stdint cimport uint8_t, int8_t, int16_t, uint64_t
from fankernel.tiles cimport *
from fankernel.fan_base cimport *
from fankernel.fan_ids cimport *

cdef extern from "fankernel/mcr_fans.h":
    int16_t POINTS "mjfast_mcr_points"[NFAN]
    ExclTable MCR_EXCL "mjfast_mcr_excl"
    int DEMOTERS "mjfast_mcr_demoters"[NFAN]
    int N_DEMOTERS "mjfast_mcr_n_demoters"
    int8_t CHOW_INDEX "mjfast_chow_index"[34]          # a chow's lowest tile -> 0..20 (-1: none)
    uint8_t CHOW2 "mjfast_chow2"[21 * 21]
    uint8_t CHOW3 "mjfast_chow3"[21 * 21 * 21]
    uint8_t SET_TRAITS "mjfast_set_traits"[2][34]     # [is a chow][tile; a chow's lowest] -> ST_* bits
    uint8_t KONG_TABLE "mjfast_kong_table"[5][5][5][2] # [km][kc][cp] -> (kong fan, concealed-pung fan)
    uint8_t PUNG_FAN "mjfast_pung_fan"[34]            # tile -> Dragon Pung / Pung of Terminals or Honors / 0
    uint64_t M_GREEN "mjfast_m_green"
    uint64_t M_REVERSIBLE "mjfast_m_reversible"

# tile sets as 34-bit masks (bit = our tile index)
cdef extern from "fankernel/mcr_fans.h":
    uint64_t M_MAN "MJFAST_M_MAN"
    uint64_t M_PIN "MJFAST_M_PIN"
    uint64_t M_SOU "MJFAST_M_SOU"
    uint64_t M_WIND "MJFAST_M_WIND"
    uint64_t M_DRAGON "MJFAST_M_DRAGON"
    uint64_t M_HONOR "MJFAST_M_HONOR"
    uint64_t M_TERMINAL "MJFAST_M_TERMINAL"
    uint64_t M_SUITED "MJFAST_M_SUITED"

cdef enum:
    # traits of one set, by [is a chow][its tile (a chow's lowest)]
    ST_OUTSIDE = 1     # holds a terminal or an honor (chows 123 / 789)
    ST_FIVE = 2        # holds a 5 (chows 345 456 567)
    ST_EVEN = 4        # a pung / pair of 2, 4, 6 or 8

    # which whole-tile-set fans _tile_set_fans looks for
    TF_SUITS = 1
    TF_TRAITS = 2
    TF_RANKS = 4
    TF_HOG = 8


# ---------------------------------------------------------------------------
# combinations of chows and pungs
# ---------------------------------------------------------------------------

cdef inline bint _shift1(int a, int b, int c) noexcept nogil:
    return a + 1 == b and b + 1 == c

cdef inline bint _shift2(int a, int b, int c) noexcept nogil:
    return a + 2 == b and b + 2 == c

cdef inline bint _shift1_any_order(int a, int b, int c) noexcept nogil:
    return (_shift1(a, b, c) or _shift1(a, c, b) or _shift1(b, a, c)
            or _shift1(b, c, a) or _shift1(c, a, b) or _shift1(c, b, a))

cdef inline bint _three_suits(int a, int b, int c) noexcept nogil:
    return _suit(a) != _suit(b) and _suit(a) != _suit(c) and _suit(b) != _suit(c)

cdef inline bint _one_suit(int a, int b, int c) noexcept nogil:
    return _suit(a) == _suit(b) and _suit(b) == _suit(c)


cdef inline int rule_two_chows(int a, int b) noexcept nogil:
    """Chow-pair fans (chows named by their lowest tiles a, b): Mixed Double
    Chow, Short Straight, Two Terminal Chows, Pure Double Chow."""
    if _suit(a) != _suit(b):
        return MIXED_DOUBLE_CHOW if _rank(a) == _rank(b) else 0
    if a + 3 == b or b + 3 == a:
        return SHORT_STRAIGHT
    if (_rank(a) == 1 and _rank(b) == 7) or (_rank(a) == 7 and _rank(b) == 1):
        return TWO_TERMINAL_CHOWS
    if a == b:
        return PURE_DOUBLE_CHOW
    return 0


cdef inline int rule_three_chows(int a, int b, int c) noexcept nogil:
    """Three-chow fans of chows a, b, c (lowest tiles) in reading order (the
    same suit's in ascending order)."""
    cdef int ra = _rank(a), rb = _rank(b), rc = _rank(c)
    if _three_suits(a, b, c):
        if _shift1_any_order(ra, rb, rc):
            return MIXED_SHIFTED_CHOWS
        if ra == rb and rb == rc:
            return MIXED_TRIPLE_CHOW
        if ra != rb and ra != rc and rb != rc and (ra == 1 or ra == 4 or ra == 7) \
                and (rb == 1 or rb == 4 or rb == 7) and (rc == 1 or rc == 4 or rc == 7):
            return MIXED_STRAIGHT
        return 0
    if not _one_suit(a, b, c):
        return 0
    if a + 3 == b and b + 3 == c:
        return PURE_STRAIGHT
    if _shift2(a, b, c) or _shift1(a, b, c):
        return PURE_SHIFTED_CHOWS
    if a == b and b == c:
        return PURE_TRIPLE_CHOW
    return 0


# The chow rules above, tabulated once over every pair / triple of chows (a
# chow is one of 21: suit x lowest rank 1-7), so the hot path is a lookup, not
# a chain of hard-to-predict branches (CHOW_INDEX, CHOW2, CHOW3: _init_mcr_tables).
cdef inline int fan_of_two_chows(int a, int b) noexcept nogil:
    return CHOW2[CHOW_INDEX[a] * 21 + CHOW_INDEX[b]]


cdef inline int fan_of_three_chows(int a, int b, int c) noexcept nogil:
    """a, b, c in reading order (lowest tiles)"""
    return CHOW3[(CHOW_INDEX[a] * 21 + CHOW_INDEX[b]) * 21 + CHOW_INDEX[c]]


cdef inline int fan_of_four_chows(int a, int b, int c, int d) noexcept nogil:
    """a, b, c, d in reading order (lowest tiles)"""
    if _suit(a) == _suit(d) and ((a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d)):
        return FOUR_PURE_SHIFTED_CHOWS
    if a == b and a == c and a == d:
        return QUADRUPLE_CHOW
    return 0


cdef inline int fan_of_two_pungs(int a, int b) noexcept nogil:
    if _numbered(a) and _numbered(b):
        return DOUBLE_PUNG if _rank(a) == _rank(b) else 0
    if _is_dragon(a) and _is_dragon(b):
        return TWO_DRAGONS_PUNGS
    return 0


cdef inline int fan_of_three_pungs(int a, int b, int c) noexcept nogil:
    """a, b, c in reading order"""
    if _numbered(a) and _numbered(b) and _numbered(c):
        if _three_suits(a, b, c):
            if _shift1_any_order(_rank(a), _rank(b), _rank(c)):
                return MIXED_SHIFTED_PUNGS
            if _rank(a) == _rank(b) and _rank(b) == _rank(c):
                return TRIPLE_PUNG
        elif _next_in_suit(a, b) and _next_in_suit(b, c):
            return PURE_SHIFTED_PUNGS
        return 0
    if _is_wind(a) and _is_wind(b) and _is_wind(c) and a < b and b < c:
        return BIG_THREE_WINDS
    if a == 31 and b == 32 and c == 33:
        return BIG_THREE_DRAGONS
    return 0


cdef inline int fan_of_four_pungs(int a, int b, int c, int d) noexcept nogil:
    if _next_in_suit(a, b) and _next_in_suit(b, c) and _next_in_suit(c, d):
        return FOUR_PURE_SHIFTED_PUNGS
    if a == 27 and b == 28 and c == 29 and d == 30:
        return BIG_FOUR_WINDS
    return 0


cdef inline int _extra_chow_fan(int a, int b, int c, int x) noexcept nogil:
    """Account once: the chow x left over beside a 3-chow fan adds at most one
    chow-pair fan, the first of Pure Double Chow, Mixed Double Chow, Short
    Straight, Two Terminal Chows that it forms with any of a, b, c."""
    cdef int f0 = fan_of_two_chows(a, x), f1 = fan_of_two_chows(b, x), f2 = fan_of_two_chows(c, x)
    if f0 == PURE_DOUBLE_CHOW or f1 == PURE_DOUBLE_CHOW or f2 == PURE_DOUBLE_CHOW:
        return PURE_DOUBLE_CHOW
    if f0 == MIXED_DOUBLE_CHOW or f1 == MIXED_DOUBLE_CHOW or f2 == MIXED_DOUBLE_CHOW:
        return MIXED_DOUBLE_CHOW
    if f0 == SHORT_STRAIGHT or f1 == SHORT_STRAIGHT or f2 == SHORT_STRAIGHT:
        return SHORT_STRAIGHT
    if f0 == TWO_TERMINAL_CHOWS or f1 == TWO_TERMINAL_CHOWS or f2 == TWO_TERMINAL_CHOWS:
        return TWO_TERMINAL_CHOWS
    return 0


cdef inline void _cap_chow_pairs(const int* pair_fans, int n, int cap, int16_t* ft) noexcept nogil:
    """Non-identical + account once for chow pairs without a 3-chow fan: count
    the pair fans, and while above `cap`, first bring repeated fan types down
    to one, then drop types, each pass in the order Two Terminal Chows, Short
    Straight, Mixed Double Chow, Pure Double Chow."""
    cdef int cnt[4]
    cdef int i, total = 0, limit, idx
    cnt[0] = 0; cnt[1] = 0; cnt[2] = 0; cnt[3] = 0
    for i in range(n):
        if pair_fans[i]:
            cnt[pair_fans[i] - PURE_DOUBLE_CHOW] += 1
            total += 1
    limit = 1
    while total > cap and limit >= 0:
        idx = 3
        while total > cap and idx >= 0:
            while cnt[idx] > limit and total > cap:
                cnt[idx] -= 1
                total -= 1
            idx -= 1
        limit -= 1
    ft[PURE_DOUBLE_CHOW] = cnt[0]
    ft[MIXED_DOUBLE_CHOW] = cnt[1]
    ft[SHORT_STRAIGHT] = cnt[2]
    ft[TWO_TERMINAL_CHOWS] = cnt[3]



cdef inline void _page_extra_chow_fans(int f3, int a, int b, int c, int x, int16_t* ft) noexcept nogil:
    """The 大众 page's reading of the chow x left beside the 3-chow fan f3 of
    a, b, c (rule set dazhong): x scores every chow-pair fan it makes with
    one of the three, each kind once (not only the first, as under account
    once), less the kinds f3's own 不计 list names.  The page's examples
    score 123m 456p 789s + 456m as Mixed Straight + Mixed Double Chow (456m
    456p) + Short Straight (123m 456m).  Only the Mixed Straight can make
    two kinds here; the lists matter for Pure Straight (连六、老少副), Pure
    Triple Chow (一般高) and Mixed Triple Chow (喜相逢)."""
    cdef int i, f
    cdef int pf[3]
    pf[0] = fan_of_two_chows(a, x); pf[1] = fan_of_two_chows(b, x); pf[2] = fan_of_two_chows(c, x)
    for i in range(3):
        f = pf[i]
        if f == 0:
            continue
        if f3 == PURE_STRAIGHT and (f == SHORT_STRAIGHT or f == TWO_TERMINAL_CHOWS):
            continue
        if (f3 == PURE_TRIPLE_CHOW and f == PURE_DOUBLE_CHOW) or (f3 == MIXED_TRIPLE_CHOW and f == MIXED_DOUBLE_CHOW):
            continue
        ft[f] = 1


cdef inline void _three_plus_one(int a, int b, int c, int x, int f3, int page, int16_t* ft) noexcept nogil:
    """A 3-chow fan f3 of a, b, c and the leftover chow x."""
    cdef int f
    ft[f3] = 1
    if page:
        _page_extra_chow_fans(f3, a, b, c, x, ft)
    else:
        f = _extra_chow_fan(a, b, c, x)
        if f:
            ft[f] = 1


cdef inline void _four_chows(int* m, int16_t* ft, int page) noexcept nogil:
    """page: the 大众 page's leftover chow (V_PAGE_CHOWS), else account once."""
    cdef int f, i
    cdef int pf[6]
    cdef int cap
    f = fan_of_four_chows(m[0], m[1], m[2], m[3])
    if f:
        ft[f] = 1
        return
    # a 3-chow fan: try the triples (0,1,2) (0,1,3) (0,2,3) (1,2,3)
    f = fan_of_three_chows(m[0], m[1], m[2])
    if f:
        _three_plus_one(m[0], m[1], m[2], m[3], f, page, ft)
        return
    f = fan_of_three_chows(m[0], m[1], m[3])
    if f:
        _three_plus_one(m[0], m[1], m[3], m[2], f, page, ft)
        return
    f = fan_of_three_chows(m[0], m[2], m[3])
    if f:
        _three_plus_one(m[0], m[2], m[3], m[1], f, page, ft)
        return
    f = fan_of_three_chows(m[1], m[2], m[3])
    if f:
        _three_plus_one(m[1], m[2], m[3], m[0], f, page, ft)
        return
    pf[0] = fan_of_two_chows(m[0], m[1]); pf[1] = fan_of_two_chows(m[0], m[2])
    pf[2] = fan_of_two_chows(m[0], m[3]); pf[3] = fan_of_two_chows(m[1], m[2])
    pf[4] = fan_of_two_chows(m[1], m[3]); pf[5] = fan_of_two_chows(m[2], m[3])
    # account once: each chow that pairs with none of the others lowers the cap
    cap = 3
    if not pf[0] and not pf[1] and not pf[2]:
        cap -= 1
    if not pf[0] and not pf[3] and not pf[4]:
        cap -= 1
    if not pf[1] and not pf[3] and not pf[5]:
        cap -= 1
    if not pf[2] and not pf[4] and not pf[5]:
        cap -= 1
    if cap > 0:
        _cap_chow_pairs(pf, 6, cap, ft)


cdef inline void _three_chows(int* m, int16_t* ft) noexcept nogil:
    cdef int f = fan_of_three_chows(m[0], m[1], m[2])
    cdef int pf[3]
    if f:
        ft[f] = 1
        return
    pf[0] = fan_of_two_chows(m[0], m[1]); pf[1] = fan_of_two_chows(m[0], m[2]); pf[2] = fan_of_two_chows(m[1], m[2])
    _cap_chow_pairs(pf, 3, 2, ft)


cdef inline void _four_pungs(int* m, int16_t* ft) noexcept nogil:
    cdef int f, free_idx = -1, i, j
    f = fan_of_four_pungs(m[0], m[1], m[2], m[3])
    if f:
        ft[f] = 1
        return
    f = fan_of_three_pungs(m[0], m[1], m[2])
    if f:
        free_idx = 3
    else:
        f = fan_of_three_pungs(m[0], m[1], m[3])
        if f:
            free_idx = 2
        else:
            f = fan_of_three_pungs(m[0], m[2], m[3])
            if f:
                free_idx = 1
            else:
                f = fan_of_three_pungs(m[1], m[2], m[3])
                if f:
                    free_idx = 0
    if f:
        ft[f] = 1
        # account once: the fourth pung pairs once, with the first it matches
        for i in range(4):
            if i != free_idx:
                j = fan_of_two_pungs(m[i], m[free_idx])
                if j:
                    ft[j] += 1
                    break
        return
    for i in range(4):
        for j in range(i + 1, 4):
            f = fan_of_two_pungs(m[i], m[j])
            if f:
                ft[f] += 1


cdef inline void _three_pungs(int* m, int16_t* ft) noexcept nogil:
    cdef int f = fan_of_three_pungs(m[0], m[1], m[2])
    cdef int i, j
    if f:
        ft[f] = 1
        return
    for i in range(3):
        for j in range(i + 1, 3):
            f = fan_of_two_pungs(m[i], m[j])
            if f:
                ft[f] += 1


cdef inline void _kong_rule(int km, int kc, int cp, int* kong_fan, int* pung_fan) noexcept nogil:
    """The kong rule (docs/rulings.md, 7): the kong fan and the concealed-pung fan for km
    melded kongs, kc concealed kongs and cp concealed pungs (not kongs).
    Concealed kongs count as concealed pungs, except exactly two concealed
    kongs alone.  Tabulated once (KONG_TABLE) for the hot path."""
    cdef int c = 0                          # concealed pungs credited
    kong_fan[0] = 0
    if km + kc == 0:
        c = cp
    elif km + kc == 1:
        if km:
            kong_fan[0] = MELDED_KONG
            c = cp
        else:
            kong_fan[0] = CONCEALED_KONG
            c = cp + 1
    elif km + kc == 2:
        if kc == 0:
            kong_fan[0] = TWO_MELDED_KONGS
            c = 2 if cp == 2 else 0
        elif kc == 1:
            kong_fan[0] = CONCEALED_KONG_AND_MELDED_KONG
            c = cp + 1
        else:
            # the two concealed kongs alone do not make Two Concealed Pungs
            kong_fan[0] = TWO_CONCEALED_KONGS
            c = cp + 2 if cp > 0 else 0
    elif km + kc == 3:
        kong_fan[0] = THREE_KONGS
        c = kc + cp
        if kc == 1 and cp > 0:
            c = 2
        elif kc == 1:
            c = 0
    else:
        kong_fan[0] = FOUR_KONGS
        c = kc
    pung_fan[0] = TWO_CONCEALED_PUNGS if c == 2 else THREE_CONCEALED_PUNGS if c == 3 else \
        FOUR_CONCEALED_PUNGS if c == 4 else 0



cdef inline void _kong_and_concealed_pung_fans(const Pack* pungs, int n, int16_t* ft) noexcept nogil:
    """Kong fans and concealed-pung fans (KONG_TABLE), All Pungs, and one
    Dragon Pung / Pung of Terminals or Honors per pung."""
    cdef int km = 0, kc = 0, cp = 0, i, kong, melded
    for i in range(n):
        kong = pungs[i].type == P_KONG
        melded = pungs[i].melded != 0
        km += kong & melded
        kc += kong & (1 - melded)
        cp += (1 - kong) & (1 - melded)
        ft[PUNG_FAN[pungs[i].tile]] += 1      # index 0 is a scratch slot, never scored
    ft[KONG_TABLE[km][kc][cp][0]] = 1
    ft[KONG_TABLE[km][kc][cp][1]] = 1
    ft[0] = 0
    if n == 4 and not ft[FOUR_KONGS] and not ft[FOUR_CONCEALED_PUNGS]:
        ft[ALL_PUNGS] = 1


# ---------------------------------------------------------------------------
# fans of the whole tile set (do not depend on the reading)


# ---------------------------------------------------------------------------
# the tables, filled once when mjfast._fans loads
# ---------------------------------------------------------------------------

cdef inline void _init_mcr_tables() noexcept nogil:
    global M_GREEN, M_REVERSIBLE
    cdef int a, b, c, r, kf = 0, pf = 0
    cdef int codes[21]
    for a in range(34):
        CHOW_INDEX[a] = -1
    for a in range(21):
        codes[a] = (a // 7) * 9 + a % 7            # the lowest tile of chow a
        CHOW_INDEX[codes[a]] = a
    for a in range(21):
        for b in range(21):
            CHOW2[a * 21 + b] = rule_two_chows(codes[a], codes[b])
            for c in range(21):
                CHOW3[(a * 21 + b) * 21 + c] = rule_three_chows(codes[a], codes[b], codes[c])
    for a in range(34):
        r = _rank(a)
        if not _numbered(a):
            SET_TRAITS[0][a] = ST_OUTSIDE
            SET_TRAITS[1][a] = 0
        else:
            SET_TRAITS[0][a] = (ST_OUTSIDE if r == 1 or r == 9 else 0) | (ST_FIVE if r == 5 else 0) | \
                (ST_EVEN if r == 2 or r == 4 or r == 6 or r == 8 else 0)
            # a chow from its lowest rank r: r..r+2
            SET_TRAITS[1][a] = (ST_OUTSIDE if r == 1 or r == 7 else 0) | (ST_FIVE if 3 <= r <= 5 else 0)
    for a in range(5):
        for b in range(5):
            for c in range(5):
                _kong_rule(a, b, c, &kf, &pf)
                KONG_TABLE[a][b][c][0] = kf
                KONG_TABLE[a][b][c][1] = pf
    for a in range(34):
        PUNG_FAN[a] = (DRAGON_PUNG if _is_dragon(a) else
                       PUNG_OF_TERMINALS_OR_HONORS if (_is_wind(a) or _rank(a) == 1 or _rank(a) == 9) else 0)
    # the tiles of the tile-trait fans, by our index:
    # All Green 2s 3s 4s 6s 8s F; Reversible Tiles 1p 2p 3p 4p 5p 8p 9p, 2s 4s 5s 6s 8s 9s, P
    cdef uint64_t one = 1
    M_GREEN = (one << 19) | (one << 20) | (one << 21) | (one << 23) | (one << 25) | (one << 32)
    M_REVERSIBLE = ((one << 9) | (one << 10) | (one << 11) | (one << 12) | (one << 13) | (one << 16) | (one << 17)
                    | (one << 19) | (one << 21) | (one << 22) | (one << 23) | (one << 25) | (one << 26) | (one << 33))


# ---------------------------------------------------------------------------
# fans of the whole tile set (do not depend on the reading)
# ---------------------------------------------------------------------------

cdef inline void _tile_set_fans(const uint8_t* all_c, int n_kongs, int which, int16_t* ft) noexcept nogil:
    """Suit fans, tile-trait fans, rank-range fans and Tile Hog of the hand's
    tiles (all_c: counts of every tile, a kong counting 4)."""
    _tile_set_fans_of(_present34(all_c), _eq34(all_c, 4), n_kongs, which, ft)


cdef inline void _tile_set_fans_of(uint64_t p, uint64_t fours, int n_kongs, int which, int16_t* ft) noexcept nogil:
    """The same from the 34-bit masks of the tiles present (p) and of the
    tiles held four times (fours).  ft starts at zero for these fans; every
    fan is stored as a 0/1 condition, combined with & and ^ 1 on 0/1 ints:
    Cython compiles `and` / `not` to short-circuit jumps, and these
    conditions change from hand to hand (a jump on them is mispredicted)."""
    cdef int hon = (p & M_HONOR) != 0
    cdef int nohon = hon ^ 1
    cdef int suited = (p & M_SUITED) != 0
    cdef int th = (p & (M_TERMINAL | M_HONOR)) != 0          # any terminal or honor
    cdef int nosimple = (p & M_SUITED & ~M_TERMINAL) == 0     # no suited 2-8
    cdef int missing = ((p & M_MAN) == 0) + ((p & M_PIN) == 0) + ((p & M_SOU) == 0)
    cdef int two = missing == 2
    cdef uint64_t ranks = (p | (p >> 9) | (p >> 18)) & 0x1FF   # bit r-1 = rank r present
    cdef int low = nohon & ((ranks & ~0b000001111) == 0)       # only 1-4
    cdef int high = nohon & ((ranks & ~0b111100000) == 0)      # only 6-9
    cdef int mid = nohon & ((ranks & ~0b000111000) == 0)       # only 4-6
    cdef int four = (ranks >> 3) & 1, six = (ranks >> 5) & 1
    if which & TF_SUITS:
        ft[NO_HONORS] = nohon
        ft[HALF_FLUSH] = two & hon
        ft[FULL_FLUSH] = two & nohon
        # an all-honors hand counts three voided suits here; All Honors
        # removes One Voided Suit as a whole afterwards
        ft[ONE_VOIDED_SUIT] = missing * (two ^ 1)
        ft[ALL_TYPES] = (missing == 0) & ((p & M_WIND) != 0) & ((p & M_DRAGON) != 0)
    if which & TF_TRAITS:
        ft[ALL_SIMPLES] = th ^ 1
        ft[REVERSIBLE_TILES] = (p & ~M_REVERSIBLE) == 0
        ft[ALL_GREEN] = (p & ~M_GREEN) == 0
        ft[ALL_HONORS] = th & (suited ^ 1)
        ft[ALL_TERMINALS] = th & suited & nohon & nosimple
        ft[ALL_TERMINALS_AND_HONORS] = th & suited & hon & nosimple
    if which & TF_RANKS:
        ft[LOWER_FOUR] = low & four
        ft[LOWER_TILES] = low & (four ^ 1)
        ft[UPPER_FOUR] = high & (low ^ 1) & six
        ft[UPPER_TILES] = high & (low ^ 1) & (six ^ 1)
        ft[MIDDLE_TILES] = mid & (low ^ 1) & (high ^ 1)
    if which & TF_HOG:
        ft[TILE_HOG] = _popcount64(fours) - n_kongs


cdef inline void _win_flag_fans(int flags, int16_t* ft) noexcept nogil:
    """The fans of the (normalised) win flags.  ft starts at zero for these
    fans; each is stored as a 0/1 condition (the flags vary from hand to
    hand: branches on them were mispredicted)."""
    cdef int sd = flags & W_SELF_DRAWN
    cdef int last = (flags & W_LAST_TILE) != 0
    cdef int kong = (flags & W_KONG) != 0
    ft[LAST_TILE] = (flags & W_FOURTH_TILE) != 0
    ft[LAST_TILE_DRAW] = last & sd
    ft[LAST_TILE_CLAIM] = last & (sd ^ 1)
    ft[OUT_WITH_REPLACEMENT_TILE] = kong & sd
    ft[ROBBING_THE_KONG] = kong & (sd ^ 1)
    ft[SELF_DRAWN] = sd != 0




# ---------------------------------------------------------------------------
# exclusions and the partial passes
# ---------------------------------------------------------------------------

cdef inline void _apply_exclusions(int16_t* ft) noexcept nogil:
    """The table's exclusions (fan_base._exclusion_pass).  Fully Concealed
    Hand under Nine Gates / Four Concealed Pungs is first demoted to
    Self-Drawn (the rule book's 不求人 there means "no Fully Concealed Hand",
    Self-Drawn still counts)."""
    cdef int k
    if ft[FULLY_CONCEALED_HAND]:
        for k in range(N_DEMOTERS):
            if ft[DEMOTERS[k]]:
                ft[FULLY_CONCEALED_HAND] = 0
                ft[SELF_DRAWN] = 1
                break
    _exclusion_pass(&MCR_EXCL, ft)


cdef inline void _dazhong_exclusions(int flags, int16_t* ft) noexcept nogil:
    """The 大众 page's 不计 entries that the reference does not apply (docs/rules.md,
    dazhong): One Voided Suit under the big one-suit / wind / dragon fans,
    Single Wait under Four Concealed Pungs won on a discard, and every Pung of
    Terminals or Honors (not just one) under Nine Gates; and the page's
    table, which has no 明暗杠."""
    if (ft[LITTLE_FOUR_WINDS] or ft[LITTLE_THREE_DRAGONS] or ft[QUADRUPLE_CHOW] or ft[FOUR_PURE_SHIFTED_PUNGS]
            or ft[FOUR_PURE_SHIFTED_CHOWS] or ft[BIG_THREE_WINDS]):
        ft[ONE_VOIDED_SUIT] = 0
    if ft[FOUR_CONCEALED_PUNGS] and not (flags & W_SELF_DRAWN):
        ft[SINGLE_WAIT] = 0
    if ft[NINE_GATES]:
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 0
    # the page's table has no Concealed Kong and Melded Kong (明暗杠, the
    # reference's addition): one melded and one concealed kong score Melded
    # Kong 1 + Concealed Kong 2, each as its own entry defines it
    if ft[CONCEALED_KONG_AND_MELDED_KONG]:
        ft[CONCEALED_KONG_AND_MELDED_KONG] = 0
        ft[MELDED_KONG] = 1
        ft[CONCEALED_KONG] = 1


cdef inline void _wind_pungs(const Pack* pungs, int n, int seat, int rnd, int16_t* ft) noexcept nogil:
    """Prevalent Wind and Seat Wind, each taking back the Pung of Terminals or
    Honors of its pung (once when the seat and round winds are the same), unless
    a wind or honor fan already removed those."""
    cdef bint deducted = ft[BIG_THREE_WINDS] or ft[ALL_TERMINALS_AND_HONORS] or ft[ALL_HONORS] or ft[LITTLE_FOUR_WINDS]
    cdef int i, w
    for i in range(n):
        if not _is_wind(pungs[i].tile):
            continue
        w = pungs[i].tile - 27
        if w == rnd:
            ft[PREVALENT_WIND] = 1
            if not deducted:
                ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if w == seat:
            ft[SEAT_WIND] = 1
            if seat != rnd and not deducted:
                ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1


cdef inline void _wind_pung_fans(int winds, int seat, int rnd, int16_t* ft) noexcept nogil:
    """_wind_pungs from the winds of the pungs as bits (bit w: a pung of
    wind w; there is at most one pung of a tile)."""
    cdef bint deducted = ft[BIG_THREE_WINDS] or ft[ALL_TERMINALS_AND_HONORS] or ft[ALL_HONORS] or ft[LITTLE_FOUR_WINDS]
    cdef int pw = (winds >> rnd) & 1, sw = (winds >> seat) & 1
    ft[PREVALENT_WIND] = pw
    ft[SEAT_WIND] = sw
    if not deducted:
        ft[PUNG_OF_TERMINALS_OR_HONORS] -= pw + (sw if seat != rnd else 0)


cdef inline int _total(const int16_t* ft) noexcept nogil:
    # flowers are added after the best reading is chosen: ft[FLOWER_TILES] is 0 here
    cdef int i, s = 0
    for i in range(NFAN):
        s += POINTS[i] * ft[i]
    return s


cdef inline void _set_wait_fan(int16_t* ft, int position) noexcept nogil:
    """With a unique wait (position from _wait_position): Edge Wait if the
    winning tile ends a concealed chow, else Closed Wait if it is a chow's
    middle tile, else Single Wait if it completes the pair."""
    if position & 1:
        ft[EDGE_WAIT] = 1
    elif position & 2:
        ft[CLOSED_WAIT] = 1
    elif position & 4:
        ft[SINGLE_WAIT] = 1


