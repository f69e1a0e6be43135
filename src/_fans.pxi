# MCR fan engine (included into _core.pyx: one compilation unit so it inlines).
#
# The fan table -- names, points and whole-fan exclusions -- is data in
# mjfast/rules/mcr.py; set_fan_table() loads its points and exclusion masks
# here.  This file holds what cannot be data: the predicates that find fans in
# one reading (division) of the hand, the counting principles that limit chow
# and pung combinations, and the few partial exclusions that remove *some*
# instances of a fan.  The readings themselves are in _readings.pxi; the
# search over them for the best total, and the entry points, in _fan_entry.pxi.
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
