# MCR fan engine (included into _core.pyx: one compilation unit so it inlines).
#
# The fan table -- names, points and whole-fan exclusions -- is data in
# mjfast/rules/mcr.py; set_fan_table() loads its points and exclusion masks
# here.  This file holds what cannot be data: the predicates that find fans in
# one reading (division) of the hand, the counting principles that limit chow
# and pung combinations, and the few partial exclusions that remove *some*
# instances of a fan.  The search over readings keeps the best total.
#
# Inside the kernel tiles use a "reference code": suit * 16 + rank with suits
# ordered m=1, s=2, p=3, honors=4 (E S W N C F P = 0x41..0x47).  The reference
# calculator sorts and breaks ties in that order (characters, bamboo, dots), so
# using its order keeps our tie-breaks identical; it also makes "same suit,
# consecutive ranks" a plain +1 on codes.

DEF NFAN = 84            # fan ids 1..82 (81 fans + Concealed Kong and Melded Kong); 0 and 83
                         # unused: 84 int16 counts = 21 words / 10.5 SSE vectors
DEF MAXDIV = 64

# fan ids (DEF BIG_FOUR_WINDS = 1 ...), NFAN_TABLE and FAN_KEYS_COMPILED:
# generated at build time by setup.py from the table in mjfast/rules/mcr.py
include "_fan_ids.pxi"

# pack types
DEF P_CHOW = 1
DEF P_PUNG = 2
DEF P_KONG = 3
DEF P_PAIR = 5

# win flags (the packed hand's `flags` byte)
DEF W_SELF_DRAWN = 1
DEF W_FOURTH = 2
DEF W_KONG = 4
DEF W_LAST = 8

# result codes
# rule-set variants of the MCR engine (PHand.variant); 0 is MCR as the
# reference calculator scores it, and every test of that path runs with 0
DEF V_KNIT_NO_WAIT = 1   # knitted straight: no wait fan when the winning tile is a knitted one
DEF V_DAZHONG = 2        # the fuller 不计 lists of the 大众 rule page (dazhong)

DEF R_OK = 0
DEF R_NOT_WIN = 1



ctypedef struct PHand:
    uint8_t counts[34]      # concealed tiles, winning tile included
    uint8_t n_melds         # 0..4
    uint8_t meld_kind[4]    # 0 chow, 1 pung, 2 kong
    uint8_t meld_tile[4]    # chow: its lowest tile; pung/kong: the tile (our 0..33 index)
    uint8_t meld_open[4]    # 1 = melded (claimed); 0 = concealed kong
    uint8_t win_tile        # 0..33
    uint8_t flags           # W_* bits
    uint8_t seat            # 0..3 = E S W N
    uint8_t round           # 0..3
    uint8_t flowers         # 0..8
    uint8_t variant         # V_* bits: rulings of a rule set other than plain MCR (0 = MCR)


ctypedef struct Pack:
    uint8_t type            # P_CHOW / P_PUNG / P_KONG / P_PAIR
    uint8_t tile            # reference code; a chow's MIDDLE tile
    uint8_t melded          # 1 = claimed from another player


ctypedef struct Ctx:
    # everything about the hand that does not depend on the reading
    uint8_t ref[34]          # reference code of each tile index
    int16_t hand_fans[NFAN]  # fans of the whole tile set (suits, tile traits, flags, hog)
    uint8_t flags            # normalised win flags
    uint8_t win              # winning tile, reference code
    uint8_t seat, round
    int n_fixed              # melds
    Pack fixed[4]
    int n_melded_fixed       # melds claimed from others (concealed kongs excluded)
    uint8_t standing[34]     # concealed tiles before the win (our index)
    int n_standing
    int unique_wait          # exactly one tile completed the hand (regular + seven pairs
                             # waits): 1 / 0, or -1 = not worked out yet (it is needed only
                             # when the winning tile sits in a concealed chow or the pair)
    bint nine_gates
    uint8_t variant          # V_* bits, from the hand


cdef int16_t POINTS[NFAN]
cdef uint64_t EXCL[NFAN][2]
cdef uint64_t EXCLUDER_BITS[2]    # the fans that exclude others, as a bit set of ids
cdef int DEMOTERS[NFAN]
cdef int N_DEMOTERS = 0
cdef bint _fan_table_loaded = False

cdef uint8_t REFCODE[34]
for _i in range(34):
    if _i < 9:
        REFCODE[_i] = 0x11 + _i
    elif _i < 18:
        REFCODE[_i] = 0x31 + _i - 9       # dots are suit 3 in the reference's order
    elif _i < 27:
        REFCODE[_i] = 0x21 + _i - 18      # bamboo is suit 2
    else:
        REFCODE[_i] = 0x41 + _i - 27

# our tile index of each reference code (0xFF = none)
cdef uint8_t FROMREF[0x48]
for _i in range(0x48):
    FROMREF[_i] = 0xFF
for _i in range(34):
    FROMREF[REFCODE[_i]] = _i

# the tiles of every tile-trait fan, by our index
cdef uint8_t IS_GREEN[34]
cdef uint8_t IS_REVERSIBLE[34]
for _i in range(34):
    IS_GREEN[_i] = 0
    IS_REVERSIBLE[_i] = 0
for _t in (19, 20, 21, 23, 25, 32):                 # 2s 3s 4s 6s 8s F
    IS_GREEN[_t] = 1
for _t in (9, 10, 11, 12, 13, 16, 17,               # 1p 2p 3p 4p 5p 8p 9p
           19, 21, 22, 23, 25, 26,                  # 2s 4s 5s 6s 8s 9s
           33):                                     # P (white dragon)
    IS_REVERSIBLE[_t] = 1


def set_fan_table(points, masks, demote):
    """Load the fan table's points (int16[83], by id), exclusion masks (uint64[83, 2],
    bit j of row i: fan i excludes fan j) and the fans that demote Fully
    Concealed Hand to Self-Drawn (uint8[83])."""
    global _fan_table_loaded, N_DEMOTERS
    cdef int i
    if _fan_table_loaded:
        # the kernels read these globals without a lock while other threads
        # score: the table is loaded once, when mjfast.score is imported
        raise RuntimeError("mjfast: the fan table is already loaded (it is set once, at import)")
    if len(points) != NFAN_TABLE or len(masks) != NFAN_TABLE or len(demote) != NFAN_TABLE:
        raise ValueError(f"fan table arrays must have {NFAN_TABLE} rows (ids 0..82)")
    if len(masks[0]) != 2:
        raise ValueError("fan table masks must be pairs of 64-bit words")
    for i in range(NFAN_TABLE):
        if not -32768 <= points[i] <= 32767:
            raise ValueError(f"fan table points[{i}] out of the int16 range")
    for i in range(NFAN):
        POINTS[i] = points[i] if i < NFAN_TABLE else 0
        EXCL[i][0] = masks[i][0] if i < NFAN_TABLE else 0
        EXCL[i][1] = masks[i][1] if i < NFAN_TABLE else 0
    N_DEMOTERS = 0
    EXCLUDER_BITS[0] = 0
    EXCLUDER_BITS[1] = 0
    for i in range(1, NFAN):
        if EXCL[i][0] or EXCL[i][1]:
            EXCLUDER_BITS[i >> 6] |= (<uint64_t>1) << (i & 63)
        if i < NFAN_TABLE and demote[i]:
            DEMOTERS[N_DEMOTERS] = i
            N_DEMOTERS += 1
    _fan_table_loaded = True


# ---------------------------------------------------------------------------
# tile helpers (reference codes)
# ---------------------------------------------------------------------------

cdef inline int _suit(int c) noexcept nogil:
    return c >> 4

cdef inline int _rank(int c) noexcept nogil:
    return c & 15

cdef inline bint _numbered(int c) noexcept nogil:
    return c < 0x40

cdef inline bint _is_wind(int c) noexcept nogil:
    return 0x41 <= c <= 0x44

cdef inline bint _is_dragon(int c) noexcept nogil:
    return 0x45 <= c <= 0x47

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


cdef int rule_two_chows(int a, int b) noexcept nogil:
    """Chow-pair fans (middle tiles a, b): Mixed Double Chow, Short Straight,
    Two Terminal Chows, Pure Double Chow."""
    if _suit(a) != _suit(b):
        return MIXED_DOUBLE_CHOW if _rank(a) == _rank(b) else 0
    if a + 3 == b or b + 3 == a:
        return SHORT_STRAIGHT
    if (_rank(a) == 2 and _rank(b) == 8) or (_rank(a) == 8 and _rank(b) == 2):
        return TWO_TERMINAL_CHOWS
    if a == b:
        return PURE_DOUBLE_CHOW
    return 0


cdef int rule_three_chows(int a, int b, int c) noexcept nogil:
    """Three-chow fans; a <= b <= c (middle tiles)."""
    cdef int ra = _rank(a), rb = _rank(b), rc = _rank(c)
    if _three_suits(a, b, c):
        if _shift1_any_order(ra, rb, rc):
            return MIXED_SHIFTED_CHOWS
        if ra == rb and rb == rc:
            return MIXED_TRIPLE_CHOW
        if ra != rb and ra != rc and rb != rc and (ra == 2 or ra == 5 or ra == 8) \
                and (rb == 2 or rb == 5 or rb == 8) and (rc == 2 or rc == 5 or rc == 8):
            return MIXED_STRAIGHT
        return 0
    if a + 3 == b and b + 3 == c:
        return PURE_STRAIGHT
    if _shift2(a, b, c) or _shift1(a, b, c):
        return PURE_SHIFTED_CHOWS
    if a == b and b == c:
        return PURE_TRIPLE_CHOW
    return 0


# The chow rules above, tabulated once over every pair / triple of chows (a
# chow is one of 21: suit x middle rank 2-8), so the hot path is a lookup, not
# a chain of hard-to-predict branches.
cdef int8_t CHOW_INDEX[0x48]        # reference code of a chow's middle tile -> 0..20
cdef uint8_t CHOW2[21 * 21]
cdef uint8_t CHOW3[21 * 21 * 21]
cdef int _ca, _cb, _cc
cdef int _chow_codes[21]
for _ca in range(0x48):
    CHOW_INDEX[_ca] = -1
for _ca in range(21):
    _chow_codes[_ca] = ((_ca // 7) + 1) * 16 + (_ca % 7) + 2
    CHOW_INDEX[_chow_codes[_ca]] = _ca
for _ca in range(21):
    for _cb in range(21):
        CHOW2[_ca * 21 + _cb] = rule_two_chows(_chow_codes[_ca], _chow_codes[_cb])
        for _cc in range(21):
            CHOW3[(_ca * 21 + _cb) * 21 + _cc] = rule_three_chows(_chow_codes[_ca], _chow_codes[_cb], _chow_codes[_cc])


cdef inline int fan_of_two_chows(int a, int b) noexcept nogil:
    return CHOW2[CHOW_INDEX[a] * 21 + CHOW_INDEX[b]]


cdef inline int fan_of_three_chows(int a, int b, int c) noexcept nogil:
    """a <= b <= c (middle tiles)"""
    return CHOW3[(CHOW_INDEX[a] * 21 + CHOW_INDEX[b]) * 21 + CHOW_INDEX[c]]


cdef inline int fan_of_four_chows(int a, int b, int c, int d) noexcept nogil:
    """a <= b <= c <= d"""
    if (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d):
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
    """a <= b <= c"""
    if _numbered(a) and _numbered(b) and _numbered(c):
        if _three_suits(a, b, c):
            if _shift1_any_order(_rank(a), _rank(b), _rank(c)):
                return MIXED_SHIFTED_PUNGS
            if _rank(a) == _rank(b) and _rank(b) == _rank(c):
                return TRIPLE_PUNG
        elif a + 1 == b and b + 1 == c:
            return PURE_SHIFTED_PUNGS
        return 0
    if _is_wind(a) and _is_wind(b) and _is_wind(c) and a < b and b < c:
        return BIG_THREE_WINDS
    if a == 0x45 and b == 0x46 and c == 0x47:
        return BIG_THREE_DRAGONS
    return 0


cdef inline int fan_of_four_pungs(int a, int b, int c, int d) noexcept nogil:
    if _numbered(a) and a + 1 == b and b + 1 == c and c + 1 == d:
        return FOUR_PURE_SHIFTED_PUNGS
    if a == 0x41 and b == 0x42 and c == 0x43 and d == 0x44:
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


cdef inline void _sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


cdef void _four_chows(int* m, int16_t* ft) noexcept nogil:
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
        ft[f] = 1
        f = _extra_chow_fan(m[0], m[1], m[2], m[3])
        if f:
            ft[f] = 1
        return
    f = fan_of_three_chows(m[0], m[1], m[3])
    if f:
        ft[f] = 1
        f = _extra_chow_fan(m[0], m[1], m[3], m[2])
        if f:
            ft[f] = 1
        return
    f = fan_of_three_chows(m[0], m[2], m[3])
    if f:
        ft[f] = 1
        f = _extra_chow_fan(m[0], m[2], m[3], m[1])
        if f:
            ft[f] = 1
        return
    f = fan_of_three_chows(m[1], m[2], m[3])
    if f:
        ft[f] = 1
        f = _extra_chow_fan(m[1], m[2], m[3], m[0])
        if f:
            ft[f] = 1
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


cdef void _three_chows(int* m, int16_t* ft) noexcept nogil:
    cdef int f = fan_of_three_chows(m[0], m[1], m[2])
    cdef int pf[3]
    if f:
        ft[f] = 1
        return
    pf[0] = fan_of_two_chows(m[0], m[1]); pf[1] = fan_of_two_chows(m[0], m[2]); pf[2] = fan_of_two_chows(m[1], m[2])
    _cap_chow_pairs(pf, 3, 2, ft)


cdef void _four_pungs(int* m, int16_t* ft) noexcept nogil:
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


cdef void _three_pungs(int* m, int16_t* ft) noexcept nogil:
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


cdef void _kong_rule(int km, int kc, int cp, int* kong_fan, int* pung_fan) noexcept nogil:
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


# traits of one set, by [is a chow][reference code of its tile (a chow's middle)]
DEF ST_OUTSIDE = 1     # holds a terminal or an honor (chows 123 / 789)
DEF ST_FIVE = 2        # holds a 5 (chows 345 456 567)
DEF ST_EVEN = 4        # a pung / pair of 2, 4, 6 or 8
cdef uint8_t SET_TRAITS[2][0x48]
for _a in range(0x48):
    _r = _a & 15
    if _a >= 0x40:
        SET_TRAITS[0][_a] = ST_OUTSIDE
        SET_TRAITS[1][_a] = 0
    else:
        SET_TRAITS[0][_a] = (ST_OUTSIDE if _r in (1, 9) else 0) | (ST_FIVE if _r == 5 else 0) | \
            (ST_EVEN if _r in (2, 4, 6, 8) else 0)
        SET_TRAITS[1][_a] = (ST_OUTSIDE if _r in (2, 8) else 0) | (ST_FIVE if _r in (4, 5, 6) else 0)

cdef uint8_t KONG_TABLE[5][5][5][2]     # [km][kc][cp] -> (kong fan, concealed-pung fan)
cdef uint8_t PUNG_FAN[0x48]             # reference code -> Dragon Pung / Pung of Terminals or Honors / 0
cdef int _kf, _pf
for _a in range(5):
    for _b in range(5):
        for _c in range(5):
            _kong_rule(_a, _b, _c, &_kf, &_pf)
            KONG_TABLE[_a][_b][_c][0] = _kf
            KONG_TABLE[_a][_b][_c][1] = _pf
for _a in range(0x48):
    PUNG_FAN[_a] = (DRAGON_PUNG if 0x45 <= _a <= 0x47 else
                    PUNG_OF_TERMINALS_OR_HONORS if (0x41 <= _a <= 0x44 or (_a < 0x40 and _a & 15 in (1, 9))) else 0)


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

DEF TF_SUITS = 1
DEF TF_TRAITS = 2
DEF TF_RANKS = 4
DEF TF_HOG = 8

# tile sets as 34-bit masks (bit = our tile index)
cdef uint64_t M_MAN = 0x1FF
cdef uint64_t M_PIN = 0x1FF << 9
cdef uint64_t M_SOU = 0x1FF << 18
cdef uint64_t M_WIND = 0xF << 27
cdef uint64_t M_DRAGON = 0x7 << 31
cdef uint64_t M_HONOR = 0x7F << 27
cdef uint64_t M_TERMINAL = (1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26)
cdef uint64_t M_SUITED = 0x7FFFFFF

cdef uint64_t M_GREEN = 0
cdef uint64_t M_REVERSIBLE = 0
for _i in range(34):
    if IS_GREEN[_i]:
        M_GREEN |= (<uint64_t>1) << _i
    if IS_REVERSIBLE[_i]:
        M_REVERSIBLE |= (<uint64_t>1) << _i


cdef void _tile_set_fans(const uint8_t* all_c, int n_kongs, int which, int16_t* ft) noexcept nogil:
    """Suit fans, tile-trait fans, rank-range fans and Tile Hog of the hand's
    tiles (all_c: counts of every tile, a kong counting 4), from the 34-bit
    mask of the tiles present.  ft starts at zero for these fans; every fan is
    stored as a 0/1 condition (no branches: these depend on the hand)."""
    cdef uint64_t p = _present34(all_c)
    cdef int hon = (p & M_HONOR) != 0
    cdef int suited = (p & M_SUITED) != 0
    cdef int th = (p & (M_TERMINAL | M_HONOR)) != 0          # any terminal or honor
    cdef int simple = (p & M_SUITED & ~M_TERMINAL) != 0       # any suited 2-8
    cdef int missing = ((p & M_MAN) == 0) + ((p & M_PIN) == 0) + ((p & M_SOU) == 0)
    cdef uint64_t ranks = (p | (p >> 9) | (p >> 18)) & 0x1FF   # bit r-1 = rank r present
    cdef int low = not hon and not (ranks & ~0b000001111)      # only 1-4
    cdef int high = not hon and not (ranks & ~0b111100000)     # only 6-9
    cdef int mid = not hon and not (ranks & ~0b000111000)      # only 4-6
    if which & TF_SUITS:
        ft[NO_HONORS] = 1 - hon
        ft[HALF_FLUSH] = missing == 2 and hon
        ft[FULL_FLUSH] = missing == 2 and not hon
        # an all-honors hand counts three voided suits here; All Honors
        # removes One Voided Suit as a whole afterwards
        ft[ONE_VOIDED_SUIT] = missing if missing != 2 else 0
        ft[ALL_TYPES] = missing == 0 and (p & M_WIND) != 0 and (p & M_DRAGON) != 0
    if which & TF_TRAITS:
        ft[ALL_SIMPLES] = 1 - th
        ft[REVERSIBLE_TILES] = (p & ~M_REVERSIBLE) == 0
        ft[ALL_GREEN] = (p & ~M_GREEN) == 0
        ft[ALL_HONORS] = th and not suited
        ft[ALL_TERMINALS] = th and suited and not hon and not simple
        ft[ALL_TERMINALS_AND_HONORS] = th and suited and hon and not simple
    if which & TF_RANKS:
        ft[LOWER_FOUR] = low and (ranks & 0b000001000) != 0
        ft[LOWER_TILES] = low and (ranks & 0b000001000) == 0
        ft[UPPER_FOUR] = high and not low and (ranks & 0b000100000) != 0
        ft[UPPER_TILES] = high and not low and (ranks & 0b000100000) == 0
        ft[MIDDLE_TILES] = mid and not low and not high
    if which & TF_HOG:
        ft[TILE_HOG] = _popcount64(_eq34(all_c, 4)) - n_kongs


cdef inline void _fans_zero(int16_t* ft) noexcept nogil:
    # 84 counts = 21 words; plain stores beat a `rep stos` at this size
    cdef int k
    cdef uint64_t z = 0
    for k in range(NFAN // 4):
        memcpy(ft + 4 * k, &z, 8)


cdef inline void _fans_copy(int16_t* dst, const int16_t* src) noexcept nogil:
    cdef int k
    cdef uint64_t w
    for k in range(NFAN // 4):
        memcpy(&w, src + 4 * k, 8)
        memcpy(dst + 4 * k, &w, 8)


cdef inline void _win_flag_fans(int flags, int16_t* ft) noexcept nogil:
    if flags & W_FOURTH:
        ft[LAST_TILE] = 1
    if flags & W_LAST:
        ft[LAST_TILE_DRAW if flags & W_SELF_DRAWN else LAST_TILE_CLAIM] = 1
    if flags & W_KONG:
        ft[OUT_WITH_REPLACEMENT_TILE if flags & W_SELF_DRAWN else ROBBING_THE_KONG] = 1
    if flags & W_SELF_DRAWN:
        ft[SELF_DRAWN] = 1


# ---------------------------------------------------------------------------
# exclusions and the partial passes
# ---------------------------------------------------------------------------

cdef inline void _apply_exclusions(int16_t* ft) noexcept nogil:
    """Non-repeat (不重复): drop every fan that a scored fan excludes, by the
    table's masks.  Fans are taken from the highest row down and a fan already
    dropped excludes nothing.  Fully Concealed Hand under Nine Gates / Four
    Concealed Pungs is first demoted to Self-Drawn (the rule book's 不求人
    there means "no Fully Concealed Hand", Self-Drawn still counts)."""
    cdef int i, k, w
    cdef uint64_t present[2]
    cdef uint64_t pending, drop, d
    if ft[FULLY_CONCEALED_HAND]:
        for k in range(N_DEMOTERS):
            if ft[DEMOTERS[k]]:
                ft[FULLY_CONCEALED_HAND] = 0
                ft[SELF_DRAWN] = 1
                break
    _present84(ft, present)
    for w in range(2):
        pending = present[w] & EXCLUDER_BITS[w]
        while pending:
            i = w * 64 + _ctz64(pending)
            pending &= pending - 1
            if not ((present[w] >> (i & 63)) & 1):
                continue                         # already dropped by a higher fan
            for k in range(2):
                drop = EXCL[i][k] & present[k]
                if not drop:
                    continue
                present[k] &= ~drop
                if k == w:
                    pending &= ~drop
                d = drop
                while d:
                    ft[k * 64 + _ctz64(d)] = 0
                    d &= d - 1


cdef inline void _dazhong_exclusions(int flags, int16_t* ft) noexcept nogil:
    """The 大众 page's 不计 entries that the reference does not apply (docs/rules.md,
    dazhong): One Voided Suit under the big one-suit / wind / dragon fans,
    Single Wait under Four Concealed Pungs won on a discard, and every Pung of
    Terminals or Honors (not just one) under Nine Gates.  Whole-fan drops that
    only happen beside fans of 12 points or more."""
    if (ft[LITTLE_FOUR_WINDS] or ft[LITTLE_THREE_DRAGONS] or ft[QUADRUPLE_CHOW] or ft[FOUR_PURE_SHIFTED_PUNGS]
            or ft[FOUR_PURE_SHIFTED_CHOWS] or ft[BIG_THREE_WINDS]):
        ft[ONE_VOIDED_SUIT] = 0
    if ft[FOUR_CONCEALED_PUNGS] and not (flags & W_SELF_DRAWN):
        ft[SINGLE_WAIT] = 0
    if ft[NINE_GATES]:
        ft[PUNG_OF_TERMINALS_OR_HONORS] = 0


cdef extern from *:
    """
    static inline int _mjfast_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    /* SWAR popcount: without -mpopcnt, __builtin_popcountll is a library call */
    static inline int mjfast_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int _ctz64 "_mjfast_ctz64"(uint64_t x) nogil
    int _popcount64 "mjfast_popcount64"(uint64_t x) nogil


cdef inline void _wind_pungs(const Pack* pungs, int n, int seat, int rnd, int16_t* ft) noexcept nogil:
    """Prevalent Wind and Seat Wind, each taking back the Pung of Terminals or
    Honors of its pung (once when the seat and round winds are the same), unless
    a wind or honor fan already removed those."""
    cdef bint deducted = ft[BIG_THREE_WINDS] or ft[ALL_TERMINALS_AND_HONORS] or ft[ALL_HONORS] or ft[LITTLE_FOUR_WINDS]
    cdef int i, w
    for i in range(n):
        if not _is_wind(pungs[i].tile):
            continue
        w = pungs[i].tile - 0x41
        if w == rnd:
            ft[PREVALENT_WIND] = 1
            if not deducted:
                ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if w == seat:
            ft[SEAT_WIND] = 1
            if seat != rnd and not deducted:
                ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1


cdef inline int _total(const int16_t* ft) noexcept nogil:
    # flowers are added after the best reading is chosen: ft[FLOWER_TILES] is 0 here
    cdef int i, s = 0
    for i in range(NFAN):
        s += POINTS[i] * ft[i]
    return s


# ---------------------------------------------------------------------------
# waits (for Edge / Closed / Single Wait)
# ---------------------------------------------------------------------------

cdef bint _complete_dfs(int* c, int need_sets, bint need_pair) noexcept nogil:
    """Shape-only check that c (any counts, a fifth copy allowed) is
    need_sets sets + (need_pair) a pair.  Used only for the rare wait test on a
    tile the hand already holds four of."""
    cdef int i = 0
    cdef bint ok
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return need_sets == 0 and not need_pair
    if need_pair and c[i] >= 2:
        c[i] -= 2
        ok = _complete_dfs(c, need_sets, False)
        c[i] += 2
        if ok:
            return True
    if need_sets > 0 and c[i] >= 3:
        c[i] -= 3
        ok = _complete_dfs(c, need_sets - 1, need_pair)
        c[i] += 3
        if ok:
            return True
    if need_sets > 0 and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        ok = _complete_dfs(c, need_sets - 1, need_pair)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        if ok:
            return True
    return False


cdef uint64_t _shape_waits(const uint8_t* st) noexcept nogil:
    """Regular-form waits of 13-3k standing tiles, by shape only: like the
    reference, a tile counts even when it would be a fifth copy."""
    cdef uint64_t m = _regular_waits(st)
    cdef uint64_t fours = _eq34(st, 4)
    cdef int c[34]
    cdef int t, n = 0
    if not fours:
        return m
    for t in range(34):
        n += st[t]
    for t in range(34):
        if st[t] == 4:
            for i in range(34):
                c[i] = st[i]
            c[t] += 1
            if _complete_dfs(c, (n + 1) // 3, True):
                m |= (<uint64_t>1) << t
    return m


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


# ---------------------------------------------------------------------------
# readings (divisions) of the regular form
# ---------------------------------------------------------------------------

ctypedef struct Division:
    Pack packs[5]        # the 4 sets (melds first) and the pair at [4]
    uint32_t order       # the order the reference finds it in (ties go to the first)


cdef void _divide(uint8_t* c, int i, int min_kind, Pack* cur, int nused, int need, bint pair_done,
                  Division* out, int* nout, const Ctx* ctx, uint64_t present) noexcept nogil:
    """Every distinct split of the concealed tiles into `need` sets and a pair.
    The lowest remaining tile must be used now; blocks that start on the same
    tile are taken in the order pair, pung, chow so each split appears once.
    `present` has a bit for every tile still held, kept up to date on the way
    down, so the lowest tile is one count-trailing-zeros away."""
    cdef int k, j, t
    cdef int nsets = nused - pair_done
    cdef uint32_t keys[4]
    cdef uint32_t key
    cdef Division* d
    cdef uint64_t rest = present >> i << i              # tiles left from i on
    cdef uint64_t bit
    if rest == 0:
        i = 34
    else:
        t = _ctz64(rest)
        if t != i:
            min_kind = 0
        i = t
    if i == 34:
        if nsets == need and pair_done and nout[0] < MAXDIV:
            d = &out[nout[0]]
            for k in range(ctx.n_fixed):
                d.packs[k] = ctx.fixed[k]
            j = ctx.n_fixed
            for k in range(nused):
                if cur[k].type == P_PAIR:
                    d.packs[4] = cur[k]
                else:
                    d.packs[j] = cur[k]
                    # the reference's depth-first search meets sets by
                    # (tile in m-s-p-honor order, pung before chow)
                    t = cur[k].tile - 1 if cur[k].type == P_CHOW else cur[k].tile
                    keys[j - ctx.n_fixed] = t * 2 + (cur[k].type == P_CHOW)
                    j += 1
            _sort_u32(keys, need)
            key = 0
            for k in range(4):
                key = (key << 8) | (keys[k] if k < need else 0)
            d.order = key
            nout[0] += 1
        return
    bit = (<uint64_t>1) << i
    if min_kind <= 0 and not pair_done and c[i] >= 2:
        c[i] -= 2
        _push(cur, nused, P_PAIR, REFCODE[i])
        _divide(c, i, 1, cur, nused + 1, need, True, out, nout, ctx, present if c[i] else present & ~bit)
        c[i] += 2
    if nsets == need:
        return
    if min_kind <= 1 and c[i] >= 3:
        c[i] -= 3
        _push(cur, nused, P_PUNG, REFCODE[i])
        _divide(c, i, 2, cur, nused + 1, need, pair_done, out, nout, ctx, present if c[i] else present & ~bit)
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        _push(cur, nused, P_CHOW, REFCODE[i + 1])
        _divide(c, i, 2, cur, nused + 1, need, pair_done, out, nout, ctx,
                present & ~((bit if c[i] == 0 else 0) | (bit << 1 if c[i + 1] == 0 else 0)
                            | (bit << 2 if c[i + 2] == 0 else 0)))
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1


cdef inline void _push(Pack* cur, int n, int typ, int tile) noexcept nogil:
    cur[n].type = typ
    cur[n].tile = tile
    cur[n].melded = 0


cdef inline void _sort_u32(uint32_t* a, int n) noexcept nogil:
    cdef int i, j
    cdef uint32_t t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


# ---------------------------------------------------------------------------
# scoring one reading of the regular form
# ---------------------------------------------------------------------------

cdef inline int _wait_position(const Pack* packs, int n, int win) noexcept nogil:
    """Where the winning tile sits among the concealed sets and pair: bit 1 at
    the end of a chow, 2 in a chow's middle, 4 in the pair; bit 8 when it ends
    a chow whose other end is open (45 + 3 or 6: the same reading then also
    completes on the far tile, so the hand had two waits at least)."""
    cdef int i, r, flag = 0
    for i in range(n):
        if packs[i].type == P_CHOW:
            r = _rank(packs[i].tile)
            if packs[i].tile == win:
                flag |= 2
            elif packs[i].tile - 1 == win:
                flag |= 1 | (8 if r + 2 <= 9 else 0)
            elif packs[i].tile + 1 == win:
                flag |= 1 | (8 if r - 2 >= 1 else 0)
        elif packs[i].type == P_PAIR and packs[i].tile == win:
            flag |= 4
    return flag


cdef inline bint _pair_wait_shared(const Pack* sets, int n, int win, int f) noexcept nogil:
    """The winning tile w completes the pair, and a concealed set sits just
    beside it, so the hand had another wait: a chow w+1..w+3 (or w-3..w-1)
    makes w + chow wait on the far tile too."""
    cdef int i
    if not (f & 4) or not _numbered(win):
        return False
    for i in range(n):
        if sets[i].type == P_CHOW and (sets[i].tile == win + 2 or sets[i].tile == win - 2):
            return True
        # a concealed pung next to it: w + (w+1)x3 is also (w, w+1, w+2) or
        # (w-1, w, w+1) beside a (w+1) pair, waiting on w+2 or w-1 too
        if sets[i].type == P_PUNG and (sets[i].tile == win + 1 or sets[i].tile == win - 1):
            return True
    return False


cdef int _unique_wait(const uint8_t* standing, int n_fixed) noexcept nogil:
    """1 if the tiles before the win waited on exactly one tile: regular shape
    (fifth copies included, as the reference), plus seven pairs without melds."""
    cdef uint64_t w = _shape_waits(standing)
    cdef int i
    if not w:
        return 0
    if n_fixed == 0 and _seven_pairs_dist(standing) == 1:
        for i in range(34):
            if standing[i] & 1:
                w |= (<uint64_t>1) << i
    return _popcount64(w) == 1


cdef int _score_division(Ctx* ctx, const Division* d, int16_t* ft) noexcept nogil:
    cdef Pack pungs[4]
    cdef int chows[4]
    cdef int pt[4]
    cdef int nchow = 0, npung = 0, i, f, win = ctx.win
    cdef const Pack* packs = d.packs
    cdef bint fits_chow
    cdef Pack pair = packs[4]
    cdef int r, tot
    _fans_copy(ft, ctx.hand_fans)
    for i in range(4):
        if packs[i].type == P_CHOW:
            chows[nchow] = packs[i].tile
            nchow += 1
        else:
            pungs[npung] = packs[i]
            npung += 1
    # 8.4: on a discard, a concealed pung of the winning tile counts as
    # melded, unless the winning tile can be read inside a concealed chow
    if not (ctx.flags & W_SELF_DRAWN):
        fits_chow = False
        for i in range(4):
            if packs[i].type == P_CHOW and not packs[i].melded and packs[i].tile - 1 <= win <= packs[i].tile + 1:
                fits_chow = True
        if not fits_chow:
            for i in range(npung):
                if pungs[i].tile == win and not pungs[i].melded:
                    pungs[i].melded = 1
    if npung:
        _kong_and_concealed_pung_fans(pungs, npung, ft)
    if nchow == 4:
        if _three_suited_terminal_chows(chows, pair.tile):
            ft[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif _pure_terminal_chows(chows, pair.tile):
            ft[PURE_TERMINAL_CHOWS] = 1
        else:
            _sort_small(chows, 4)
            _four_chows(chows, ft)
    elif nchow == 3:
        _sort_small(chows, 3)
        _three_chows(chows, ft)
    elif nchow == 2:
        f = fan_of_two_chows(chows[0], chows[1])
        if f:
            ft[f] += 1
        f = fan_of_two_pungs(pungs[0].tile, pungs[1].tile)
        if f:
            ft[f] += 1
    elif nchow == 1:
        for i in range(3):
            pt[i] = pungs[i].tile
        _sort_small(pt, 3)
        _three_pungs(pt, ft)
    else:
        for i in range(4):
            pt[i] = pungs[i].tile
        _sort_small(pt, 4)
        _four_pungs(pt, ft)
    # the pair: All Chows; two dragon pungs + dragon pair = Little Three
    # Dragons; three wind pungs + wind pair = Little Four Winds
    if nchow == 4:
        if _numbered(pair.tile):
            ft[ALL_CHOWS] = 1
    elif ft[TWO_DRAGONS_PUNGS]:
        if _is_dragon(pair.tile):
            ft[LITTLE_THREE_DRAGONS] = 1
            ft[TWO_DRAGONS_PUNGS] = 0
    elif ft[BIG_THREE_WINDS]:
        if _is_wind(pair.tile):
            ft[LITTLE_FOUR_WINDS] = 1
            ft[BIG_THREE_WINDS] = 0
    # whole-hand fans of the sets: Outside Hand, All Five, All Even Pungs;
    # a set's traits come from SET_TRAITS and are AND-ed over the five sets
    r = SET_TRAITS[packs[0].type == P_CHOW][packs[0].tile] & SET_TRAITS[packs[1].type == P_CHOW][packs[1].tile] \
        & SET_TRAITS[packs[2].type == P_CHOW][packs[2].tile] & SET_TRAITS[packs[3].type == P_CHOW][packs[3].tile] \
        & SET_TRAITS[0][packs[4].tile]
    if r & ST_OUTSIDE:
        ft[OUTSIDE_HAND] = 1
    elif r & ST_FIVE:
        ft[ALL_FIVE] = 1
    elif r & ST_EVEN:
        ft[ALL_EVEN_PUNGS] = 1
    if not ft[MELDED_HAND] and not ft[FOUR_KONGS]:
        f = _wait_position(packs + ctx.n_fixed, 5 - ctx.n_fixed, win)
        if f & 7:
            if ctx.unique_wait < 0:
                # an open-ended chow end means a second wait: no look-up needed
                ctx.unique_wait = 0 if (f & 8) or _pair_wait_shared(packs + ctx.n_fixed, 4 - ctx.n_fixed, win, f) \
                    else _unique_wait(ctx.standing, ctx.n_fixed)
            if ctx.unique_wait:
                _set_wait_fan(ft, f)
    # partial exclusions: Nine Gates takes back one Pung of Terminals or
    # Honors (its 111 or 999); Big Three Winds the three of its wind pungs
    if ft[NINE_GATES]:
        ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if ft[BIG_THREE_WINDS] and not ft[ALL_HONORS] and not ft[ALL_TERMINALS_AND_HONORS]:
        ft[PUNG_OF_TERMINALS_OR_HONORS] -= 3
    _apply_exclusions(ft)
    if ctx.variant & V_DAZHONG:
        _dazhong_exclusions(ctx.flags, ft)
    if not ft[BIG_FOUR_WINDS]:
        _wind_pungs(pungs, npung, ctx.seat, ctx.round, ft)
    tot = _total(ft)
    if tot == 0:
        # no fan at all (every fan is worth points, so a zero total means none)
        ft[CHICKEN_HAND] = 1
        tot = POINTS[CHICKEN_HAND]
    return tot


cdef bint _pure_terminal_chows(const int* m, int pair) noexcept nogil:
    cdef int i, lo = 0, hi = 0
    if not _numbered(pair) or _rank(pair) != 5:
        return False
    for i in range(4):
        if _suit(m[i]) != _suit(pair):
            return False
        if _rank(m[i]) == 2:
            lo += 1
        elif _rank(m[i]) == 8:
            hi += 1
        else:
            return False
    return lo == 2 and hi == 2


cdef bint _three_suited_terminal_chows(const int* m, int pair) noexcept nogil:
    cdef int i, s
    cdef int lo[4]
    cdef int hi[4]
    if not _numbered(pair) or _rank(pair) != 5:
        return False
    for i in range(4):
        lo[i] = 0
        hi[i] = 0
    for i in range(4):
        s = _suit(m[i])
        if s == _suit(pair):
            return False
        if _rank(m[i]) == 2:
            lo[s] += 1
        elif _rank(m[i]) == 8:
            hi[s] += 1
        else:
            return False
    for s in range(1, 4):
        if s != _suit(pair) and not (lo[s] and hi[s]):
            return False
    return True


# ---------------------------------------------------------------------------
# the special forms
# ---------------------------------------------------------------------------

cdef inline bint _special_possible(const uint8_t* c) noexcept nogil:
    """Cheap gate before the special forms: seven pairs needs no odd count,
    honors-and-knitted no count above one, thirteen orphans both 1m and 9m."""
    cdef bint odd, many
    _count_shape(c, &odd, &many)
    return not odd or not many or (c[0] != 0 and c[8] != 0 and c[27] != 0)


cdef bint _score_special(const Ctx* ctx, const uint8_t* c, const uint8_t* all_c, int16_t* ft) noexcept nogil:
    """Seven pairs (and Seven Shifted Pairs), thirteen orphans, honors and
    knitted tiles: 14 concealed tiles, no melds."""
    cdef int i, j, hon, a
    _fans_zero(ft)
    if _seven_pairs_win(c):
        j = -1
        for i in range(27):
            if c[i]:
                j = i
                break
        a = j >= 0
        if a:
            for i in range(7):
                if j + i >= 27 or (j % 9) + i > 8 or c[j + i] != 2:
                    a = 0
                    break
        if a:
            ft[SEVEN_SHIFTED_PAIRS] = 1
            _tile_set_fans(all_c, 0, TF_TRAITS, ft)
        else:
            ft[SEVEN_PAIRS] = 1
            _tile_set_fans(all_c, 0, TF_SUITS | TF_TRAITS | TF_RANKS | TF_HOG, ft)
    elif _orphans_win(c):
        ft[THIRTEEN_ORPHANS] = 1
    elif _honors_knitted_win(c):
        # 14 single tiles: 5-7 honors, the rest from one knitted arrangement
        hon = _popcount9(<int>((_present34(c) >> 27) & 0x7F))
        if hon == 7:
            ft[GREATER_HONORS_AND_KNITTED_TILES] = 1
        else:
            ft[LESSER_HONORS_AND_KNITTED_TILES] = 1
            if hon == 5:
                ft[KNITTED_STRAIGHT] = 1
    else:
        return False
    _win_flag_fans(ctx.flags, ft)
    _apply_exclusions(ft)
    return True


cdef inline bint _knit_holds(int a, int t) noexcept nogil:
    """Whether tile t is one of the nine tiles of knitted arrangement a."""
    return (KNIT_MASK[a] >> t) & 1


cdef bint _score_knitted_straight(const Ctx* ctx, const uint8_t* c, const uint8_t* all_c, int n_kongs,
                                  int16_t* ft, Division* used) noexcept nogil:
    """Knitted straight + one set + a pair (the set may be the one meld)."""
    cdef uint8_t rest[34]
    cdef Division divs[4]
    cdef Pack cur[5]
    cdef int ndiv = 0, a = -1, j, t, n, k
    cdef uint64_t w
    cdef uint8_t temp[34]
    cdef int tmp_rest[34]
    cdef Pack packs[5]
    cdef Ctx sub
    a = _full_knit(c)
    if a < 0:
        return False
    memcpy(rest, c, 34)
    for j in range(9):
        rest[KNIT_TILES[a][j]] -= 1
    # split the rest into (1 - melds) sets and a pair; exactly one way
    sub.n_fixed = 0
    _divide(rest, 0, 0, cur, 0, 1 - ctx.n_fixed, False, divs, &ndiv, &sub, _present34(rest))
    if ndiv != 1:
        return False
    if ctx.n_fixed == 1:
        packs[3] = ctx.fixed[0]
    else:
        packs[3] = divs[0].packs[0]
    packs[4] = divs[0].packs[4]
    memset(used, 0, sizeof(Division))
    used[0].packs[3] = packs[3]
    used[0].packs[4] = packs[4]
    _fans_zero(ft)
    ft[KNITTED_STRAIGHT] = 1
    if packs[3].type == P_CHOW:
        if _numbered(packs[4].tile):
            ft[ALL_CHOWS] = 1
    else:
        _kong_and_concealed_pung_fans(&packs[3], 1, ft)
    _win_flag_fans(ctx.flags, ft)
    if ctx.n_fixed == 0 or (packs[3].type == P_KONG and not packs[3].melded):
        ft[FULLY_CONCEALED_HAND if ctx.flags & W_SELF_DRAWN else CONCEALED_HAND] = 1
    _tile_set_fans(all_c, n_kongs, TF_SUITS | TF_HOG, ft)
    if (ctx.variant & V_KNIT_NO_WAIT) and _knit_holds(a, FROMREF[ctx.win]):
        pass                    # the option's ruling: a knitted tile is no edge/closed/single wait
    elif ctx.n_fixed == 0:
        # Like the reference: the wait is judged on the tiles left beside the
        # straight, less the winning tile -- and when the winning tile was one
        # of the straight's, on the first four of those five tiles.
        for j in range(34):
            tmp_rest[j] = rest[j]
        tmp_rest[FROMREF[ctx.win]] -= 1
        memset(temp, 0, 34)
        n = 0
        for k in range(0x11, 0x48):
            t = FROMREF[k]
            if t == 0xFF:
                continue
            j = tmp_rest[t]
            while j > 0 and n < 4:
                temp[t] += 1
                n += 1
                j -= 1
        w = _shape_waits(temp)
        if w and _popcount64(w) == 1:
            _set_wait_fan(ft, _wait_position(packs + 3, 2, ctx.win))
    elif c[FROMREF[ctx.win]] > 1:
        ft[SINGLE_WAIT] = 1
    _apply_exclusions(ft)
    if packs[3].type != P_CHOW:
        _wind_pungs(&packs[3], 1, ctx.seat, ctx.round, ft)
    return True


# ---------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------

cdef int _score_hand(const PHand* h, int16_t* out_ft, Division* out_div, int* out_form) noexcept nogil:
    """Score a validated hand. Returns the total (flowers included), -1 if it
    is not a win, -3 if its counts are out of range (re-checked, never trusted).  out_ft receives the fan counts of the best reading."""
    cdef Ctx ctx
    cdef uint8_t all_c[34]
    cdef int i, t, n_kongs = 0, best = -1, tot, win_in_melds = 0
    cdef int16_t ft[NFAN]
    cdef int16_t special[NFAN]
    cdef Division divs[MAXDIV]
    cdef Division sdiv
    cdef Pack cur[5]
    cdef int ndiv = 0, best_i = -1
    cdef bint have_special = False
    cdef uint64_t w
    cdef uint8_t c[34]
    memcpy(c, h.counts, 34)
    memcpy(all_c, h.counts, 34)
    memset(&sdiv, 0, sizeof(Division))
    ctx.n_fixed = h.n_melds
    ctx.n_melded_fixed = 0
    ctx.win = REFCODE[h.win_tile]
    ctx.seat = h.seat
    ctx.round = h.round
    for i in range(h.n_melds):
        t = h.meld_tile[i]
        if h.meld_kind[i] == 0:
            ctx.fixed[i].type = P_CHOW
            ctx.fixed[i].tile = REFCODE[t + 1]
            all_c[t] += 1; all_c[t + 1] += 1; all_c[t + 2] += 1
            if t == h.win_tile or t + 1 == h.win_tile or t + 2 == h.win_tile:
                win_in_melds += 1
        else:
            ctx.fixed[i].type = P_PUNG if h.meld_kind[i] == 1 else P_KONG
            ctx.fixed[i].tile = REFCODE[t]
            all_c[t] += 3 if h.meld_kind[i] == 1 else 4
            if h.meld_kind[i] == 2:
                n_kongs += 1
            if t == h.win_tile:
                win_in_melds += 3 if h.meld_kind[i] == 1 else 4
        ctx.fixed[i].melded = h.meld_open[i]
        if h.meld_open[i]:
            ctx.n_melded_fixed += 1
    # counts, melds included, within four copies and 14 tiles (kongs as 3):
    # validation established it; checked again so that nothing can index out
    # of the tables
    if _over4(h.counts) or _over4(all_c) or _sum34(h.counts) + 3 * h.n_melds != 14 or h.counts[h.win_tile] == 0:
        return -3
    memcpy(ctx.standing, h.counts, 34)
    ctx.standing[h.win_tile] -= 1
    # normalise the flags as the reference does (docs/rulings.md, 4)
    ctx.flags = h.flags
    if ctx.standing[h.win_tile] > 0:
        ctx.flags &= ~W_FOURTH
    if win_in_melds == 3:
        ctx.flags |= W_FOURTH
    if ctx.flags & W_KONG:
        if ctx.flags & W_SELF_DRAWN:
            if n_kongs == 0:
                ctx.flags &= ~W_KONG
        elif win_in_melds > 0 or ctx.standing[h.win_tile] > 0:
            ctx.flags &= ~W_KONG
    ctx.unique_wait = -1
    ctx.variant = h.variant
    # fans of the whole tile set, shared by every reading
    _fans_zero(ctx.hand_fans)
    _win_flag_fans(ctx.flags, ctx.hand_fans)
    _tile_set_fans(all_c, n_kongs, TF_SUITS | TF_TRAITS | TF_RANKS | TF_HOG, ctx.hand_fans)
    if h.n_melds == 0 and _is_nine_gates(ctx.standing):
        ctx.hand_fans[NINE_GATES] = 1
    # concealment (the same for every reading): Fully Concealed Hand /
    # Concealed Hand / Melded Hand / Self-Drawn
    if ctx.n_melded_fixed == 0:
        ctx.hand_fans[FULLY_CONCEALED_HAND if ctx.flags & W_SELF_DRAWN else CONCEALED_HAND] = 1
    elif ctx.n_melded_fixed == 4:
        ctx.hand_fans[SELF_DRAWN if ctx.flags & W_SELF_DRAWN else MELDED_HAND] = 1
    out_form[0] = FORM_REGULAR
    # special forms first; a knitted straight, when it fits, is the only reading
    if h.n_melds <= 1 and _full_knit(c) >= 0 and _score_knitted_straight(&ctx, c, all_c, n_kongs, special, &sdiv):
        have_special = True
        out_form[0] = FORM_KNITTED_STRAIGHT
    elif h.n_melds == 0 and _special_possible(c) and _score_special(&ctx, c, all_c, special):
        have_special = True
        out_form[0] = FORM_SEVEN_PAIRS if special[SEVEN_PAIRS] or special[SEVEN_SHIFTED_PAIRS] else (
            FORM_THIRTEEN_ORPHANS if special[THIRTEEN_ORPHANS] else FORM_HONORS_KNITTED)
    if have_special:
        best = _total(special)
        _fans_copy(out_ft, special)
        out_div[0] = sdiv
    if not have_special or special[SEVEN_PAIRS]:
        # "take the highest" over every reading, in the order the reference
        # meets them (a special form before any division)
        _divide(c, 0, 0, cur, 0, 4 - h.n_melds, False, divs, &ndiv, &ctx, _present34(c))
        _sort_divisions(divs, ndiv)
        for i in range(ndiv):
            tot = _score_division(&ctx, &divs[i], ft)
            # ties: the reference (2022/2023 revisions) moves to a later equal
            # reading when it has Pure Triple Chow or Triple Pung, and always
            # leaves plain Seven Pairs for an equal division
            if tot > best or (tot == best and (ft[PURE_TRIPLE_CHOW] == 1 or ft[TRIPLE_PUNG] > 0
                                                or (have_special and special[SEVEN_PAIRS] == 1))):
                best = tot
                best_i = i
                _fans_copy(out_ft, ft)
        if best_i >= 0:
            out_div[0] = divs[best_i]
            out_form[0] = FORM_REGULAR
    if best < 0:
        return -1
    out_ft[FLOWER_TILES] = h.flowers
    return best + h.flowers


cdef void _sort_divisions(Division* d, int n) noexcept nogil:
    cdef int i, j
    cdef Division t
    for i in range(1, n):
        t = d[i]
        j = i - 1
        while j >= 0 and d[j].order > t.order:
            d[j + 1] = d[j]
            j -= 1
        d[j + 1] = t


cdef bint _is_nine_gates(const uint8_t* st) noexcept nogil:
    """13 tiles before the win: 1112345678999 of one suit."""
    cdef int s, r
    cdef bint ok
    for s in range(3):
        if st[s * 9] == 3 and st[s * 9 + 8] == 3:
            ok = True
            for r in range(1, 8):
                if st[s * 9 + r] != 1:
                    ok = False
                    break
            if ok:
                return True
    return False


# ---------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------

cdef int _check_context(int n_melds, int win, int flags, int seat, int rnd, int flowers) except -1:
    """The scalar fields of a hand, in the ranges the kernel indexes with."""
    if not 0 <= n_melds <= 4:
        raise ValueError(f"n_melds must be 0..4, got {n_melds}")
    if not 0 <= win <= 33:
        raise ValueError(f"win must be a tile index 0..33, got {win}")
    if not 0 <= flags <= 15:
        raise ValueError(f"flags must be 0..15 (bits: self-drawn, fourth tile, kong, last tile), got {flags}")
    if not (0 <= seat <= 3 and 0 <= rnd <= 3):
        raise ValueError(f"seat and round must be 0..3, got {seat}, {rnd}")
    if not 0 <= flowers <= 8:
        raise ValueError(f"flowers must be 0..8, got {flowers}")
    return 0


cdef int _check_variant(int variant) except -1:
    if not 0 <= variant <= (V_KNIT_NO_WAIT | V_DAZHONG):
        raise ValueError(f"variant must be a combination of the V_* bits (0..3), got {variant}")
    return 0


cdef inline void _load_phand(PHand* h, const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds,
                             int win, int flags, int seat, int rnd, int flowers, int variant) noexcept nogil:
    cdef int i
    for i in range(34):
        h.counts[i] = counts[i]
    h.n_melds = n_melds
    for i in range(n_melds):
        h.meld_kind[i] = melds[i, 0]
        h.meld_tile[i] = melds[i, 1]
        h.meld_open[i] = melds[i, 2]
    h.win_tile = win
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    h.variant = variant


def score_one(const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds, int win,
              int flags, int seat, int rnd, int flowers, cnp.int16_t[::1] fans_out, int variant=0):
    """Score one validated hand. melds: (4, 3) uint8 rows (kind 0/1/2, tile,
    open).  Fills fans_out (int16[84], by fan id); returns (total, form, packs) with
    packs = [(type, our tile index of the lowest tile, melded), ...] of the
    reading used, or total -1 when the hand is not a win, -3 when the melds
    add a fifth copy or the size is not 14 counting 3 per meld.  Shapes and
    ranges are checked (ValueError)."""
    _need_tables()
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef PHand h
    cdef Division d
    cdef int form = 0, total, i, t
    _check_len(counts.shape[0], 34, "counts")
    if melds.shape[1] != 3 or melds.shape[0] < n_melds:
        raise ValueError(f"melds must be (4, 3) rows (kind, tile, open); got {melds.shape[0]} x {melds.shape[1]}")
    if fans_out.shape[0] < NFAN:
        raise ValueError(f"fans_out must have {NFAN} entries, got {fans_out.shape[0]}")
    _check_context(n_melds, win, flags, seat, rnd, flowers)
    _check_variant(variant)
    _load_phand(&h, counts, melds, n_melds, win, flags, seat, rnd, flowers, variant)
    if _over4(h.counts):
        raise ValueError("a tile count above 4")
    if not _phand_sane(&h):
        raise ValueError("a meld is not (kind 0 chow / 1 pung / 2 kong, tile 0..33 - a chow's a suited 1-7 -,"
                         " open 0/1 - only a kong concealed -)")
    memset(&d, 0, sizeof(Division))
    with nogil:
        total = _score_hand(&h, &fans_out[0], &d, &form)
    packs = []
    if total >= 0:
        for i in range(5):
            if d.packs[i].type == 0:
                continue
            t = FROMREF[d.packs[i].tile]
            if d.packs[i].type == P_CHOW:
                t -= 1
            packs.append((d.packs[i].type, t, d.packs[i].melded))
    return total, form, packs


def score_batch_kernel(const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds, const uint8_t[::1] n_melds,
                       const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                       const uint8_t[::1] rnd, const uint8_t[::1] flowers, const uint8_t[::1] skip,
                       int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, int nthreads, int variant=0):
    """Score N validated hands (rows with skip[i] != 0 are left untouched).
    totals_out[i] = total (flowers included) or -1 if not a win;
    fans_out[i, j] = count of fan id j + 1 (the table's order)."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef Py_ssize_t i, n = _check_rows(counts, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win_tile")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(skip.shape[0], n, "skip")
    _check_len(totals_out.shape[0], n, "totals_out")
    _check_variant(variant)
    if fans_out.shape[0] != n or fans_out.shape[1] != NFAN_TABLE - 1:
        raise ValueError(f"fans_out must be ({n}, {NFAN_TABLE - 1}), got ({fans_out.shape[0]}, {fans_out.shape[1]})")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                if not skip[i]:
                    _score_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, totals_out, fans_out, variant)
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=256):
            if not skip[i]:
                _score_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, totals_out, fans_out, variant)


cdef inline bint _phand_sane(const PHand* h) noexcept nogil:
    """Every field within the ranges the kernel indexes with (a cheap re-check
    of what validation established; the tile counts are re-checked in
    _score_hand, where the meld tiles are added anyway)."""
    cdef int j, t
    if h.n_melds > 4 or h.win_tile > 33 or h.seat > 3 or h.round > 3 or h.flowers > 8 or h.flags > 15:
        return False
    for j in range(h.n_melds):
        t = h.meld_tile[j]
        if h.meld_kind[j] > 2 or t > 33 or h.meld_open[j] > 1:
            return False
        if h.meld_kind[j] == 0 and (t >= 27 or t % 9 > 6 or h.meld_open[j] == 0):
            return False
        if h.meld_kind[j] == 1 and h.meld_open[j] == 0:
            return False
    return True


cdef inline void _score_row(Py_ssize_t i, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                            const uint8_t[::1] n_melds, const uint8_t[::1] win, const uint8_t[::1] flags,
                            const uint8_t[::1] seat, const uint8_t[::1] rnd, const uint8_t[::1] flowers,
                            int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, int variant) noexcept nogil:
    cdef PHand h
    cdef int16_t ft[NFAN]
    cdef Division d
    cdef int form, j, total
    # every field is read once into h, then h is checked: the columns may be
    # changed by another thread meanwhile
    h.n_melds = n_melds[i]
    _barrier()                  # h.n_melds, not the caller's byte, bounds the loop below
    if h.n_melds > 4:
        totals_out[i] = -3
        return
    memcpy(h.counts, &counts[i, 0], 34)
    for j in range(h.n_melds):
        h.meld_kind[j] = melds[i, j, 0]
        h.meld_tile[j] = melds[i, j, 1]
        h.meld_open[j] = melds[i, j, 2]
    h.win_tile = win[i]
    h.flags = flags[i]
    h.seat = seat[i]
    h.round = rnd[i]
    h.flowers = flowers[i]
    h.variant = variant
    _barrier()                  # what is checked below is what is scored (see mjfast_copy_row)
    if not _phand_sane(&h):
        # the arrays were validated when the batch was built; a row changed
        # since is refused here rather than read out of bounds
        totals_out[i] = -3
        return
    total = _score_hand(&h, ft, &d, &form)
    totals_out[i] = total
    cdef uint8_t* o
    if total >= 0:
        o = &fans_out[i, 0]
        for j in range(NFAN_TABLE - 1):          # a plain loop the compiler vectorises
            o[j] = <uint8_t>ft[j + 1]


# ---------------------------------------------------------------------------
# fast path for one notation string (valid input only; anything unusual
# returns PARSE_FALLBACK and the Python parser produces the error message)
# ---------------------------------------------------------------------------

DEF PARSE_OK = 0
DEF PARSE_FALLBACK = 1

cdef inline int _suit_base(Py_UCS4 ch) noexcept:
    if ch == u'm':
        return 0
    if ch == u'p':
        return 9
    if ch == u's':
        return 18
    return -1


cdef inline int _honor_index(Py_UCS4 ch) noexcept:
    if ch == u'E':
        return 27
    if ch == u'S':
        return 28
    if ch == u'W':
        return 29
    if ch == u'N':
        return 30
    if ch == u'C':
        return 31
    if ch == u'F':
        return 32
    if ch == u'P':
        return 33
    return -1


cdef int _parse_fast(str s, PHand* h) except -1:
    """Compact notation with bracket melds into h (counts, melds, win tile).
    Returns PARSE_OK or PARSE_FALLBACK (malformed, unusual or not 14 tiles)."""
    cdef uint8_t allc[34]
    cdef int k, nt = 0
    if _parse_fast_any(s, h, allc) != PARSE_OK:
        return PARSE_FALLBACK
    for k in range(34):
        nt += h.counts[k]
    if nt + 3 * h.n_melds != 14:
        return PARSE_FALLBACK
    return PARSE_OK


cdef int _parse_fast_any(str s, PHand* h, uint8_t* allc) except -1:
    """The compiled notation parser: melds and concealed tiles of a compact
    string of any size up to 14 (a kong counting 3); allc gets every tile.
    PARSE_FALLBACK for anything malformed or unusual."""
    cdef Py_ssize_t n = len(s), i = 0, j
    cdef Py_UCS4 ch
    cdef int digits[16]
    cdef int nd = 0, base, t, k, last = -1, ntiles = 0, mt[4], nm, dig
    memset(h.counts, 0, 34)
    memset(allc, 0, 34)
    h.n_melds = 0
    # melds first
    while i < n:
        ch = s[i]
        if ch == u' ':
            i += 1
            continue
        if ch != u'[':
            break
        if h.n_melds == 4:
            return PARSE_FALLBACK
        i += 1
        nm = 0
        nd = 0
        dig = 0
        while i < n and s[i] != u']':
            ch = s[i]
            if 49 <= <int>ch <= 57:
                nd += 1
                if nd > 4:
                    return PARSE_FALLBACK
                digits[nd - 1] = <int>ch - 48
            else:
                base = _suit_base(ch)
                if base >= 0:
                    if nd == 0 or nm > 0 or nd > 4:
                        return PARSE_FALLBACK
                    for k in range(nd):
                        mt[nm] = base + digits[k] - 1
                        nm += 1
                    nd = 0
                else:
                    t = _honor_index(ch)
                    if t < 0 or nd or nm == 4:
                        return PARSE_FALLBACK
                    mt[nm] = t
                    nm += 1
            i += 1
        if i >= n:
            return PARSE_FALLBACK
        i += 1                               # past ']'
        if nd > 1:
            return PARSE_FALLBACK
        dig = digits[0] if nd == 1 else 0
        k = h.n_melds
        if nm == 3 and mt[0] == mt[1] and mt[1] == mt[2]:
            if dig > 3:
                return PARSE_FALLBACK
            h.meld_kind[k] = 1
            h.meld_tile[k] = mt[0]
            h.meld_open[k] = 1
            allc[mt[0]] += 3
        elif nm == 3 and mt[0] < 27 and mt[1] == mt[0] + 1 and mt[2] == mt[0] + 2 and mt[0] % 9 <= 6:
            if dig > 3:
                return PARSE_FALLBACK
            h.meld_kind[k] = 0
            h.meld_tile[k] = mt[0]
            h.meld_open[k] = 1
            allc[mt[0]] += 1; allc[mt[0] + 1] += 1; allc[mt[0] + 2] += 1
        elif nm == 4 and mt[0] == mt[1] and mt[1] == mt[2] and mt[2] == mt[3]:
            if dig == 4 or dig > 7:
                return PARSE_FALLBACK
            h.meld_kind[k] = 2
            h.meld_tile[k] = mt[0]
            h.meld_open[k] = 1 if dig else 0
            allc[mt[0]] += 4
        else:
            return PARSE_FALLBACK
        h.n_melds += 1
    # concealed tiles
    nd = 0
    while i < n:
        ch = s[i]
        i += 1
        if ch == u' ':
            if nd:
                return PARSE_FALLBACK
            continue
        if 49 <= <int>ch <= 57:
            if nd == 16:
                return PARSE_FALLBACK
            digits[nd] = <int>ch - 48
            nd += 1
            continue
        base = _suit_base(ch)
        if base >= 0:
            if nd == 0:
                return PARSE_FALLBACK
            for k in range(nd):
                t = base + digits[k] - 1
                h.counts[t] += 1
                allc[t] += 1
                last = t
                ntiles += 1
            nd = 0
            continue
        t = _honor_index(ch)
        if t < 0 or nd:
            return PARSE_FALLBACK
        h.counts[t] += 1
        allc[t] += 1
        last = t
        ntiles += 1
    if nd or last < 0 or ntiles + 3 * h.n_melds > 14:
        return PARSE_FALLBACK
    for k in range(34):
        if allc[k] > 4:
            return PARSE_FALLBACK
    h.win_tile = last
    return PARSE_OK


def score_str(str s, int flags, int seat, int rnd, int flowers, cnp.int16_t[::1] out, int variant=0):
    """Fast single-hand scoring of a notation string.  out: int16[100]:
    out[0:84] fan counts by id, out[84] form, out[85:100] the reading's packs
    (type, our tile index of the lowest tile, melded) x 5.  Returns the total,
    -1 if not a win, -2 if the string needs the full (Python) parser."""
    cdef PHand h
    cdef Division d
    cdef int form = 0, total, i, t
    _need_tables()
    if out.shape[0] < 100:
        raise ValueError(f"out must have 100 entries, got {out.shape[0]}")
    _check_context(0, 0, flags, seat, rnd, flowers)
    if _parse_fast(s, &h) != PARSE_OK:
        return -2
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    _check_variant(variant)
    h.variant = variant
    memset(&d, 0, sizeof(Division))
    total = _score_hand(&h, &out[0], &d, &form)
    out[84] = form
    for i in range(5):
        out[85 + 3 * i] = d.packs[i].type
        if d.packs[i].type:
            t = FROMREF[d.packs[i].tile]
            out[86 + 3 * i] = t - 1 if d.packs[i].type == P_CHOW else t
            out[87 + 3 * i] = d.packs[i].melded
    return total


cdef list _reading_items(const Division* d, int nsets):
    """(kind, our tile index) of a reading's concealed sets and pair; a chow
    is named by its lowest tile."""
    cdef int k, t
    items = []
    for k in list(range(nsets)) + [4]:
        t = FROMREF[d.packs[k].tile]
        if d.packs[k].type == P_CHOW:
            t -= 1
        items.append(({P_CHOW: "chow", P_PUNG: "pung", P_PAIR: "pair"}[d.packs[k].type], t))
    return items


def decompose_one(const uint8_t[::1] counts, int melds):
    """Every reading of 14-3k concealed tiles: a list of (form, items) where
    items are (kind, tile) with kind "chow" (tile = lowest), "pung", "pair",
    "single", or "knitted" (tile = the first tile of the knitted arrangement)."""
    _need_tables()
    cdef uint8_t c[34]
    cdef Division divs[MAXDIV]
    cdef Pack cur[5]
    cdef Ctx ctx
    cdef int ndiv = 0, i, k, t, a
    cdef int need = 4 - melds
    _take_hand(counts, c, melds, 0)
    out = []
    ctx.n_fixed = 0
    _divide(c, 0, 0, cur, 0, need, False, divs, &ndiv, &ctx, _present34(c))
    _sort_divisions(divs, ndiv)
    for i in range(ndiv):
        out.append(("regular", tuple(_reading_items(&divs[i], need))))
    if melds == 0 and _seven_pairs_win(c):
        out.append(("seven_pairs", tuple(("pair", t) for t in range(34) for k in range(c[t] // 2))))
    if melds == 0 and _orphans_win(c):
        out.append(("thirteen_orphans", tuple(("pair" if c[t] == 2 else "single", t) for t in range(34) if c[t])))
    if melds == 0 and _honors_knitted_win(c):
        out.append(("honors_knitted", tuple(("single", t) for t in range(34) if c[t])))
    a = _full_knit(c) if melds <= 1 else -1
    if a >= 0:
        for k in range(9):
            c[KNIT_TILES[a][k]] -= 1
        ndiv = 0
        _divide(c, 0, 0, cur, 0, 1 - melds, False, divs, &ndiv, &ctx, _present34(c))
        for i in range(ndiv):
            out.append(("knitted_straight", tuple([("knitted", KNIT_TILES[a][0])] + _reading_items(&divs[i], 1 - melds))))
    return out


def parse_rows_fast(list hands, uint8_t[:, ::1] counts, uint8_t[:, :, ::1] melds, uint8_t[::1] n_melds,
                    uint8_t[::1] win, uint8_t[::1] ok_out):
    """Parse notation strings into batch columns with the compiled parser;
    ok_out[i] = 0 where a row needs the Python parser (non-string, Botzone
    codes, malformed -- it then gives the error message)."""
    cdef Py_ssize_t i, n = len(hands)
    cdef PHand h
    cdef int j
    _check_len(_check_rows(counts, "counts"), n, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win")
    _check_len(ok_out.shape[0], n, "ok_out")
    for i in range(n):
        s = hands[i]
        if type(s) is not str or _parse_fast(<str>s, &h) != PARSE_OK:
            ok_out[i] = 0
            continue
        ok_out[i] = 1
        for j in range(34):
            counts[i, j] = h.counts[j]
        n_melds[i] = h.n_melds
        for j in range(h.n_melds):
            melds[i, j, 0] = h.meld_kind[j]
            melds[i, j, 1] = h.meld_tile[j]
            melds[i, j, 2] = h.meld_open[j]
        win[i] = h.win_tile


def parse_counts_fast(str s, uint8_t[::1] counts_out, uint8_t[::1] all_out):
    """Concealed counts of a compact notation string (melds in brackets
    allowed, any size up to 14) into counts_out, and every tile (melds
    included) into all_out.  Returns the number of melds, or -1 when the
    string needs the Python parser (which then names the problem)."""
    cdef PHand h
    cdef int j
    _check_len(counts_out.shape[0], 34, "counts_out")
    _check_len(all_out.shape[0], 34, "all_out")
    if _parse_fast_any(s, &h, &all_out[0]) != PARSE_OK:
        return -1
    for j in range(34):
        counts_out[j] = h.counts[j]
    return h.n_melds
