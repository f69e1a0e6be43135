# The readings of a hand, shared by every rule set: every split of the
# concealed tiles into sets and a pair (from per-suit split tables), in the
# order the reference tries them, and where the winning tile sits in a reading
# (the waits; whether the hand waited on one tile is read off the winning
# hand's own split -- see _unique_wait).  Scoring step of the data flow:
# every rule set's scorer (mcr_score.pxd, tp_fans.pxd) and decompose() read
# their readings here.  The split table is built by mjfast._tables with the
# other lookup tables (_build_partitions); the rare wait look-ups are the
# analysis kernels' (src/handkernel/win.pxd, inline).  Compiled into
# mjfast._fans (and mjfast._tables, for the build) by cimport.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from fankernel.tiles cimport _popcount64, _ctz64, _eq34, _suit, _rank, _numbered, READING_ORDER, IN_READING_ORDER
from fankernel.fan_base cimport *

# The wait kernels of the analysis step; only the rarer wait look-ups use
# them (the module that scores binds the tables they read first).
from handkernel.win cimport _regular_waits, _waits, _seven_pairs_dist


# ---------------------------------------------------------------------------
# waits (for Edge / Closed / Single Wait)
# ---------------------------------------------------------------------------

cdef inline bint _complete_dfs(int* c, int need_sets, bint need_pair) noexcept nogil:
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



cdef inline uint64_t _shape_waits(const uint8_t* st) noexcept nogil:
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



# The unique-wait test, from the winning hand's own split.  The hand is
# complete, so every part (a suit, or the honors) splits into sets, and
# exactly one part -- the one holding the pair -- into sets and the pair.
# Take the winning tile w out of its part S: a part's count fixes what it can
# split into (0 mod 3: sets only; 2 mod 3: sets and a pair), so a tile x
# completes the standing tiles only
#   - in S, when S held the pair: S - w + x must split into sets and a pair;
#   - in S, when another part Q held it: S - w + x must split into sets only;
#   - in Q, when S - w itself splits into sets and a pair (shanpon-like, the
#     pair moving to S): Q + x must split into sets only -- and Q's own pair
#     tile always does (the pair becomes a pung), so the hand had two waits;
# and nowhere else (one more tile in a part of sets only leaves 1 mod 3).  So
# whether the regular form waited on w alone is a property of S and w's rank
# only: the split table keeps it for every pattern, one bit per rank (fifth
# copies included, as the reference counts them: see _unique_bits), in the
# pattern's slot.  The honors are simpler: only their pair's tile can have
# been a single wait (a pung's tile leaves two pairs: a shanpon).  Seven
# pairs (no melds) can add one wait: the single beside six pairs.
#
# This replaced the regular-form waits of all 13 standing tiles (a function
# pointer into the analysis module's waits, plus a search for fifth copies), kept
# as _unique_wait_full for the tests: tests/test_unique_wait.py compares the
# two on every winning hand of the generator's mix, every one-suit winning
# hand and hands crowded with fours.


cdef extern from "fankernel/readings.h":
    const uint32_t POW5 "mjfast_pow5"[9]


cdef inline uint32_t _unique_bits(const uint8_t* flag, uint32_t key, const int* c, int n) noexcept nogil:
    """For a suit pattern that splits (key, counts c, n tiles; flag: the build's
    byte flags per key, bit 0 sets only, bit 1 sets and a pair): bit r set
    when the pattern less a tile of rank r completed on that tile alone --
    within the suit, and with no second wait in the pair's part (see above).
    A tile the rest holds four of counts too (five copies: a pung and two
    more in chows or the pair, or -- with a pair -- the pair and three chows)."""
    cdef bint pair = n % 3 == 2
    cdef uint32_t bits = 0, waits, k1, f2
    cdef int r, x, cx, need = 2 if pair else 1
    for r in range(9):
        if c[r] == 0:
            continue
        k1 = key - POW5[r]
        if not pair and (flag[k1] & 2):
            continue                # S - w is sets and a pair: the pair's part waits too
        waits = 0
        for x in range(9):
            cx = c[x] - (x == r)
            if cx < 4:
                if flag[k1 + POW5[x]] & need:
                    waits |= 1u << x
            else:
                f2 = flag[k1 - 2 * POW5[x]]
                if (f2 & need) or (pair and (flag[k1 - POW5[x]] & 1)):
                    waits |= 1u << x
        if waits == (1u << r):
            bits |= 1u << r
    return bits


cdef inline uint64_t _part_entry(uint32_t key) noexcept nogil:
    """The split table's slot entry of a suit pattern that splits (0 if it
    does not)."""
    cdef uint32_t h = _part_hash(key)
    cdef uint64_t e = _part_slot[h]
    while (<uint32_t>e & 0x1FFFFF) != key:
        if (<uint32_t>e & 0x1FFFFF) == PART_NONE:
            return 0
        h = (h + 1) & (PART_SLOTS - 1)
        e = _part_slot[h]
    return e


cdef inline int _unique_wait(const uint8_t* standing, int n_fixed, int win) noexcept nogil:
    """1 if the tiles before the win waited on exactly one tile: regular shape
    (fifth copies included, as the reference), plus seven pairs without melds.
    standing + win must split into sets and a pair (a regular reading)."""
    cdef int s = win // 9, r
    cdef uint64_t odd
    if s < 3:
        r = win - 9 * s
        if not ((_part_entry(_suit_key(standing + 9 * s) + POW5[r]) >> (PART_UNIQUE + r)) & 1):
            return 0
    elif standing[win] != 1:
        return 0                    # an honor pung's tile: the hand held two pairs
    if n_fixed == 0:
        # six pairs and a single (13 tiles: exactly one odd count; a four is
        # two pairs, as the reference): the single was a wait too
        odd = _eq34(standing, 1) | _eq34(standing, 3)
        if not (odd & (odd - 1)) and odd != ((<uint64_t>1) << win):
            return 0
    return 1


cdef inline int _unique_wait_full(const uint8_t* standing, int n_fixed) noexcept nogil:
    """_unique_wait by the full computation (the regular-form waits of the
    standing tiles, fifth copies by search, seven pairs): what it replaced,
    kept as the tests' reference (_fans.unique_wait_check)."""
    cdef uint64_t w = _shape_waits(standing)
    cdef int i
    if not w:
        return 0
    if n_fixed == 0 and _seven_pairs_dist(standing) == 1:
        for i in range(34):
            if standing[i] & 1:
                w |= (<uint64_t>1) << i
    return _popcount64(w) == 1


# The knitted straight's wait.  Like the reference, the wait of a knitted
# straight (no melds) is judged on the five tiles beside the straight -- its
# set and pair -- less the winning tile, or, when the winning tile was one of
# the straight's, on the first four of the five in the reference's order: four
# tiles either way.  Their waits are not looked up in the 7.8 MB wait
# table (_shape_waits: a random word, mostly a cache miss) but worked out
# here.  Four tiles t wait on x when t + x is one set and a pair:
# either x pairs a tile s of t whose other three are a set, or t holds a pair
# and x completes the other two into a set.  That is seven small tests on
# the four tiles, sorted (_four_tile_waits).  The old computation is kept as
# _knit_wait_full for the tests: tests/test_knit_wait.py compares the two on
# every set, pair and winning tile, and the four-tile waits with _shape_waits
# on every multiset of four tiles (figures: benchmarks/README.md, "The
# knitted straight's wait from its four tiles").

cdef inline bint _is_set3(int x, int y, int z) noexcept nogil:
    """Three tiles x <= y <= z: a pung or a chow."""
    return (x == z) | ((y == x + 1) & (z == x + 2) & (x < 27) & (x % 9 <= 6))


cdef inline uint64_t _partial_waits(int u, int v) noexcept nogil:
    """Two tiles u <= v: the tiles that make a set of them."""
    cdef uint64_t one = 1, m = 0
    cdef int r = u % 9
    if u == v:
        return one << u
    if u >= 27:
        return 0
    if v == u + 1 and r <= 7:
        if r >= 1:
            m |= one << (u - 1)
        if r <= 6:
            m |= one << (v + 1)
    elif v == u + 2 and r <= 6:
        m |= one << (u + 1)
    return m


cdef inline uint64_t _four_tile_waits(int* t) noexcept nogil:
    """The shape waits of four tiles t (sorted in place): every x for which
    t + x is one set and a pair, fifth copies included (as _shape_waits)."""
    cdef int a, b, c, d, x
    cdef uint64_t one = 1, m = 0
    if t[0] > t[1]:
        x = t[0]; t[0] = t[1]; t[1] = x
    if t[2] > t[3]:
        x = t[2]; t[2] = t[3]; t[3] = x
    if t[0] > t[2]:
        x = t[0]; t[0] = t[2]; t[2] = x
    if t[1] > t[3]:
        x = t[1]; t[1] = t[3]; t[3] = x
    if t[1] > t[2]:
        x = t[1]; t[1] = t[2]; t[2] = x
    a = t[0]; b = t[1]; c = t[2]; d = t[3]
    # x pairs one tile, the other three are a set
    if _is_set3(b, c, d):
        m |= one << a
    if _is_set3(a, c, d):
        m |= one << b
    if _is_set3(a, b, d):
        m |= one << c
    if _is_set3(a, b, c):
        m |= one << d
    # a pair, and x makes a set of the other two (equal tiles sit side by side)
    if a == b:
        m |= _partial_waits(c, d)
    if b == c:
        m |= _partial_waits(a, d)
    if c == d:
        m |= _partial_waits(a, b)
    return m


cdef inline uint64_t _knit_wait(const Pack* st, int pair, int win) noexcept nogil:
    """The waits the reference judges a knitted straight's wait on (no melds):
    set st (a chow or a pung) and the pair beside the straight, less the
    winning tile -- or, when the winning tile was the straight's, less the
    last of the five in the reference's order."""
    cdef int t[5]
    cdef int i, k = -1, chow = st.type == P_CHOW
    t[0] = st.tile
    t[1] = st.tile + chow
    t[2] = st.tile + 2 * chow
    t[3] = pair
    t[4] = pair
    for i in range(5):
        if t[i] == win:
            k = i
    if k < 0:
        k = 0
        for i in range(1, 5):
            if READING_ORDER[t[i]] > READING_ORDER[t[k]]:
                k = i
    t[k] = t[4]
    return _four_tile_waits(t)


cdef inline uint64_t _knit_wait_full(const uint8_t* rest, int win) noexcept nogil:
    """_knit_wait by the old computation, on the counts rest of the five
    tiles beside the straight: the tests' reference (_fans.knit_wait_check)."""
    cdef int tmp_rest[34]
    cdef uint8_t temp[34]
    cdef int j, k, t, n = 0
    for j in range(34):
        tmp_rest[j] = rest[j]
    tmp_rest[win] -= 1
    memset(temp, 0, 34)
    for k in range(34):
        t = IN_READING_ORDER[k]             # "first": in the reference's order
        j = tmp_rest[t]
        while j > 0 and n < 4:
            temp[t] += 1
            n += 1
            j -= 1
    return _shape_waits(temp)


cdef inline int _wait_position(const Pack* packs, int first, int win) noexcept nogil:
    """Where the winning tile sits among the concealed sets packs[first:4]
    and the pair packs[4]: bit 1 at the end of a chow, 2 in a chow's middle,
    4 in the pair; bit 8 when it ends a chow whose other end is open (45 + 3
    or 6: the same reading then also completes on the far tile, so the hand
    had two waits at least).  The chows' lowest tiles go into a mask; the
    answer is read off it with no branch on the sets (a branch per set here
    was mispredicted about once a reading).  (A second shortcut, the pair's
    wait shared with a chow or pung beside it, went once _unique_wait was a
    table bit: asking the table was cheaper than the test.)"""
    cdef uint64_t lows = 0, lo, mid, hi
    cdef int i, r = win % 9
    for i in range(first, 4):
        lows |= (<uint64_t>(packs[i].type == P_CHOW)) << packs[i].tile
    lo = (lows >> win) & 1                  # a chow win, win+1, win+2
    mid = ((lows << 1) >> win) & 1          # a chow win-1, win, win+1
    hi = ((lows << 2) >> win) & 1           # a chow win-2, win-1, win
    return <int>(lo | hi | (mid << 1) | (<uint64_t>(packs[4].tile == win) << 2)
                 | (((lo & (r <= 5)) | (hi & (r >= 3))) << 3))


# ---------------------------------------------------------------------------
# readings (divisions) of the regular form
# ---------------------------------------------------------------------------

ctypedef struct Division:
    Pack packs[10]       # the 4 sets (melds first) and the pair at [4]; [5:10] is
                         # _readings' scratch (its wide stores: see _part_emit)


# ---------------------------------------------------------------------------
# the readings, from per-suit split tables
# ---------------------------------------------------------------------------
#
# A suit's tiles split into sets and a pair independently of the other suits,
# so the readings of a hand are the product of its suits' own splits and the
# honors' (which have at most one: a 3 is a pung, a 2 the pair, anything else
# no reading).  Every suit pattern (base-5 key over its 9 counts) that splits
# at all -- 21,743 of them, 14 tiles at most -- has its distinct splits worked
# out once, when mjfast._tables builds its tables (_build_partitions): 20,175 patterns
# have exactly one, none has more than four.
#
# A split is one 32-bit word: bits 0-2 its number of sets, 3-6 the pair's
# rank + 1 (0: no pair), then from bit 7 one 5-bit field per set, rank * 2 +
# (1 for a chow, whose rank is that of its lowest tile; ranks 0-8), the sets
# in ascending order.  The patterns sit in an open-addressed hash (32,768
# slots of 8 bytes: 256 KB): key in bits 0-20, number of splits less one in
# bits 21-22, the unique-wait bits (one per rank: see _unique_wait) in bits
# 23-31, and in bits 32-63 the split itself when it is the only one, else
# where its splits start in the list (sorted: see _part_rank).
#
# Tables, not a depth-first split of the 14 tiles: measured side by side,
# the tables won on every kind of hand (figures: benchmarks/README.md,
# "Readings from per-suit tables" and the paragraphs after it).  Nothing
# data-dependent is branched on while a reading is written: the empty suit
# is in the table (key 0: one split, nothing in it) instead of a test before
# each probe; which suit holds the pair is a select; the honors' pungs and
# pair come from three word-wide compares and their packs from one 16-byte
# copy out of HONOR_PACKS (by their pung mask); a suit's four slots are
# written whatever its number of sets (Division has scratch room past the
# pair) as two 8-byte stores from TWO_PACKS (two set fields -> two packs,
# the suit's base added to both tiles at once).  _score_division reads the
# packs byte by byte out of those stores: loads inside one store forward,
# where a wide load over narrow stores would stall (why a reading is not
# built in a local buffer and copied out).  The patterns go into the hash
# fewest tiles first, so that the common small ones hold their home slots.
#
# Most hands find all three suit patterns in their home slots with one split
# each: one test on the three slots then writes that one reading straight
# (the pair's tile a sum of masked terms), without the per-suit lists,
# counts and product loops.

cdef enum:
    PART_BITS = 15
    PART_SLOTS = 32768
    PART_LIST_MAX = 8192        # the patterns with several splits hold 3,358 in all
    PART_NONE = 0x1FFFFF        # an empty slot's key field (no key is that large)
    PART_NKEY = 1953125         # 5 ** 9
    PART_UNIQUE = 23            # a slot's unique-wait bits start here

cdef extern from "fankernel/readings.h":
    uint64_t* _part_slot "mjfast_part_slot"
    uint32_t* _part_list "mjfast_part_list"
    uint64_t TWO_PACKS "mjfast_two_packs"[1024]
    uint8_t HONOR_PACKS "mjfast_honor_packs"[128][16]
    void _store8 "mjfast_store8"(void* p, uint64_t v) nogil
    void _store16 "mjfast_store16"(void* p, const void* src) nogil


cdef inline Py_ssize_t _part_nbytes() noexcept nogil:
    return PART_SLOTS * sizeof(uint64_t) + PART_LIST_MAX * sizeof(uint32_t)


# A batch call touches the split table first, a line at a time (a stream the
# hardware prefetcher follows).  Read the way the kernel reads it -- one
# random slot a suit -- a table that another library's work has pushed out of
# the core's cache comes back one miss at a time (figures:
# benchmarks/README.md, "Cold starts: the split table streamed in first").
cdef extern from "fankernel/readings.h":
    void _prefetch_lines "mjfast_prefetch_lines"(const void* start, size_t nbytes) nogil


cdef inline void _part_prefetch() noexcept nogil:
    """Both parts of the split table, a line at a time (sizes from the table's own constants)."""
    _prefetch_lines(_part_slot, PART_SLOTS * sizeof(uint64_t))
    _prefetch_lines(_part_list, PART_LIST_MAX * sizeof(uint32_t))


cdef inline uint32_t _part_hash(uint32_t key) noexcept nogil:
    return (key * <uint32_t>2654435761u) >> (32 - PART_BITS)


cdef inline uint32_t _suit_key(const uint8_t* c) noexcept nogil:
    """A suit's base-5 key (as handkernel/win.pxd's _key9), as three independent sums."""
    return (<uint32_t>(c[0] + 5 * c[1] + 25 * c[2]) + 125 * <uint32_t>(c[3] + 5 * c[4] + 25 * c[5])
            + 15625 * <uint32_t>(c[6] + 5 * c[7] + 25 * c[8]))


cdef inline void _part_collect(int* c, int i, int min_kind, uint32_t* sets, int nsets, int pair,
                               uint32_t* out, int* nout) noexcept nogil:
    """Every split of one suit's counts c into sets and at most one pair, as
    words.  The lowest tile left is used at once; blocks starting on the same
    tile are taken in the order pair, pung, chow, so each split is met once and
    its sets come in ascending order."""
    cdef uint32_t w
    cdef int k
    while i < 9 and c[i] == 0:
        i += 1
        min_kind = 0
    if i == 9:
        if nout[0] < 8:
            w = <uint32_t>nsets | (<uint32_t>(pair + 1) << 3)
            for k in range(nsets):
                w |= sets[k] << (7 + 5 * k)
            out[nout[0]] = w
            nout[0] += 1
        return
    if min_kind <= 0 and pair < 0 and c[i] >= 2:
        c[i] -= 2
        _part_collect(c, i, 1, sets, nsets, i, out, nout)
        c[i] += 2
    if nsets == 4:
        return
    if min_kind <= 1 and c[i] >= 3:
        c[i] -= 3
        sets[nsets] = i * 2
        _part_collect(c, i, 2, sets, nsets + 1, pair, out, nout)
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        sets[nsets] = i * 2 + 1
        _part_collect(c, i, 2, sets, nsets + 1, pair, out, nout)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1


cdef inline uint32_t _part_rank(uint32_t w) noexcept nogil:
    """A split's sets as one number whose order is the order of their
    sequences (first set most significant): the order the reference meets
    readings in, within one suit (all splits of a pattern have as many sets)."""
    cdef uint32_t r = 0
    cdef int k
    for k in range(w & 7):
        r = (r << 5) | ((w >> (7 + 5 * k)) & 31)
    return r


cdef inline int _build_partitions(const uint8_t* flag) noexcept nogil:
    """Fill the split table for every suit key whose flag (mjfast._tables'
    build: bit 0 melds only, bit 1 melds and a pair) says it splits, and the
    empty suit (key 0: one split, nothing in it).  The patterns go in by
    their number of tiles, fewest first, so that the commoner small ones sit
    in their home slots.  Returns -1 when out of memory or past the table's
    sizes (nothing is published)."""
    global _part_slot, _part_list
    cdef uint64_t* slot = <uint64_t*>malloc(PART_SLOTS * sizeof(uint64_t))
    cdef uint32_t* lst = <uint32_t*>malloc(PART_LIST_MAX * sizeof(uint32_t))
    cdef uint32_t* keys = <uint32_t*>malloc(PART_SLOTS * sizeof(uint32_t))
    cdef int c[9]
    cdef uint32_t sets[4]
    cdef uint32_t ws[8]
    cdef uint32_t t, h, v
    cdef int key, k, r, n, nl = 0, nkeys = 0, i, j, tiles, want
    cdef uint64_t ub, e
    if slot == NULL or lst == NULL or keys == NULL:
        free(slot); free(lst); free(keys)
        return -1
    # the list's unused tail too: the tables are saved to and compared with a
    # disk cache byte for byte (mjfast._tablecache)
    memset(lst, 0, PART_LIST_MAX * sizeof(uint32_t))
    for k in range(PART_SLOTS):
        slot[k] = PART_NONE
    keys[0] = 0
    nkeys = 1
    for key in range(1, PART_NKEY):
        if flag[key]:
            if nkeys == PART_SLOTS * 3 // 4:
                free(slot); free(lst); free(keys)
                return -1
            keys[nkeys] = key
            nkeys += 1
    for want in range(15):
        for i in range(nkeys):
            key = keys[i]
            r = key
            tiles = 0
            for k in range(9):
                c[k] = r % 5
                tiles += c[k]
                r //= 5
            if tiles != want:
                continue
            n = 0
            _part_collect(c, 0, 0, sets, 0, -1, ws, &n)
            if n == 0:
                continue
            # ascending by the sets' sequence (insertion sort; four at most)
            for k in range(1, n):
                t = ws[k]
                j = k - 1
                while j >= 0 and _part_rank(ws[j]) > _part_rank(t):
                    ws[j + 1] = ws[j]
                    j -= 1
                ws[j + 1] = t
            if nl + n > PART_LIST_MAX or n > 4:
                free(slot); free(lst); free(keys)
                return -1
            h = _part_hash(key)
            while (<uint32_t>slot[h] & 0x1FFFFF) != PART_NONE:
                h = (h + 1) & (PART_SLOTS - 1)
            ub = <uint64_t>_unique_bits(flag, key, c, tiles) << PART_UNIQUE if key else 0
            if n == 1:
                slot[h] = <uint64_t>key | ub | (<uint64_t>ws[0] << 32)
            else:
                slot[h] = <uint64_t>key | (<uint64_t>(n - 1) << 21) | ub | (<uint64_t>nl << 32)
                for k in range(n):
                    lst[nl] = ws[k]
                    nl += 1
    free(keys)
    # the wide stores' tables (_part_emit, _readings)
    for k in range(1024):
        e = 0
        for j in range(2):
            v = (k >> (5 * j)) & 31
            e |= (<uint64_t>(P_PUNG - (v & 1)) | (<uint64_t>(v >> 1) << 8)) << (24 * j)
        TWO_PACKS[k] = e
    for k in range(128):
        j = 0
        for i in range(7):
            if (k >> i) & 1 and j < 5:
                HONOR_PACKS[k][3 * j] = P_PUNG
                HONOR_PACKS[k][3 * j + 1] = 27 + i
                HONOR_PACKS[k][3 * j + 2] = 0
                j += 1
        for i in range(3 * j, 16):
            HONOR_PACKS[k][i] = 0 if i % 3 == 2 else (P_PUNG if i % 3 == 0 else 27)
    _part_slot = slot
    _part_list = lst
    return 0


cdef inline void _part_install(uint64_t* slot, uint32_t* lst, const uint64_t* two_packs,
                               const uint8_t* honor_packs) noexcept nogil:
    """Publish a split table read back from the disk cache (the same
    bytes _build_partitions fills), with its two wide stores' tables."""
    global _part_slot, _part_list
    memcpy(TWO_PACKS, two_packs, sizeof(TWO_PACKS))
    memcpy(HONOR_PACKS, honor_packs, sizeof(HONOR_PACKS))
    _part_slot = slot
    _part_list = lst


cdef inline int _part_find(uint32_t key, uint32_t h, uint64_t e, uint32_t* one, const uint32_t** lst) noexcept nogil:
    """The splits of a suit pattern: their number (0: it does not split), the
    list in *lst (one word, stored in *one, when there is a single split).
    h is the key's slot and e that slot's entry, loaded by the caller (the
    three suits' loads then overlap).  The empty suit is in the table."""
    while (<uint32_t>e & 0x1FFFFF) != key:
        if (<uint32_t>e & 0x1FFFFF) == PART_NONE:
            return 0
        h = (h + 1) & (PART_SLOTS - 1)
        e = _part_slot[h]
    if not (e & (3 << 21)):
        one[0] = <uint32_t>(e >> 32)
        lst[0] = one
        return 1
    lst[0] = _part_list + (e >> 32)
    return <int>((e >> 21) & 3) + 1


cdef inline int _part_emit(uint32_t w, int base, Pack* packs, int j) noexcept nogil:
    """Write the sets of split w of the suit starting at tile `base` to
    packs[j..]; returns j + their number.  Two 8-byte stores of two packs
    each from TWO_PACKS (the tiles moved by base in both at once), whatever
    the split's number of sets: the bytes past its sets are scratch that
    whatever comes next overwrites (packs has room to [j + 4] and 2 bytes)."""
    cdef uint64_t b = <uint64_t>base * ((<uint64_t>1 << 8) | (<uint64_t>1 << 32))
    _store8(<uint8_t*>(packs + j), TWO_PACKS[(w >> 7) & 1023] + b)
    _store8(<uint8_t*>(packs + j + 2), TWO_PACKS[(w >> 17) & 1023] + b)
    return j + <int>(w & 7)


cdef inline void _emit_reading(Pack* tmp, const Ctx* ctx, const uint32_t* ws, const uint8_t* hon,
                               int pair_tile) noexcept nogil:
    """Write one reading: the melds of ctx first (all four slots copied: the
    ones past n_fixed are overwritten), the sets of the three suits' splits
    ws in our tile order (m, p, s), the honors' pungs (hon: HONOR_PACKS), the
    pair at [4]; scratch past [4]."""
    cdef int j
    memcpy(tmp, ctx.fixed, 4 * sizeof(Pack))
    j = _part_emit(ws[0], 0, tmp, ctx.n_fixed)
    j = _part_emit(ws[1], 9, tmp, j)
    j = _part_emit(ws[2], 18, tmp, j)
    _store16(<uint8_t*>(tmp + j), hon)
    tmp[4].type = P_PAIR
    tmp[4].tile = pair_tile
    tmp[4].melded = 0


cdef inline int _readings(const uint8_t* c, int need, const Ctx* ctx, Division* out) noexcept nogil:
    """Every distinct split of the concealed tiles c (3 * need + 2 of them,
    each count 0..4) into `need` sets and a pair, as Divisions (the melds of
    ctx first, the sets in our tile order, the pair at [4]), in the order the
    reference meets them -- the product of the suits' lists, characters
    outermost, then bamboo, then dots, is already in that order.  Returns how
    many (at most MAXDIV)."""
    cdef uint32_t one[3]
    cdef const uint32_t* lst[3]
    cdef int cnt[3]
    cdef int nh, npair, s, a, b, p, nout = 0, ps = 3, has
    cdef uint32_t key[3]
    cdef uint32_t h[3]
    cdef uint32_t ws[3]
    cdef uint64_t e[3]
    cdef uint64_t hz, h2, h3
    cdef uint8_t hpt = 0
    cdef uint32_t pr0, pr1, pr2
    cdef const uint8_t* hon
    # the three suits' table entries first: independent loads, in flight together
    for s in range(3):
        key[s] = _suit_key(c + 9 * s)
        h[s] = _part_hash(key[s])
        e[s] = _part_slot[h[s]]
    # the honors: pungs and at most one pair, nothing else (word-wide tests)
    hz = _eq34(c, 0) >> 27
    h2 = _eq34(c, 2) >> 27
    h3 = _eq34(c, 3) >> 27
    if (hz | h2 | h3) != 0x7F or (h2 & (h2 - 1)):
        return 0
    npair = h2 != 0
    if npair:
        hpt = 27 + _ctz64(h2)
    nh = _popcount64(h3)
    hon = HONOR_PACKS[h3]
    # the common case: every suit's pattern in its home slot, with one split
    # (one reading): written straight from the three slots
    if not (((e[0] ^ key[0]) | (e[1] ^ key[1]) | (e[2] ^ key[2])) & (0x1FFFFF | (3 << 21))):
        ws[0] = <uint32_t>(e[0] >> 32)
        ws[1] = <uint32_t>(e[1] >> 32)
        ws[2] = <uint32_t>(e[2] >> 32)
        pr0 = (ws[0] >> 3) & 15
        pr1 = (ws[1] >> 3) & 15
        pr2 = (ws[2] >> 3) & 15
        npair += (pr0 != 0) + (pr1 != 0) + (pr2 != 0)
        if npair != 1 or <int>((ws[0] & 7) + (ws[1] & 7) + (ws[2] & 7)) + nh != need \
                or ctx.n_fixed + need > 4:
            return 0
        # the one pair's tile: the honors' or a suit's (no branch on which)
        _emit_reading(out[0].packs, ctx, ws, hon,
                      hpt + ((pr0 - 1) & -(pr0 != 0)) + ((pr1 + 8) & -(pr1 != 0)) + ((pr2 + 17) & -(pr2 != 0)))
        return 1
    for s in range(3):
        cnt[s] = _part_find(key[s], h[s], e[s], &one[s], &lst[s])
        if cnt[s] == 0:
            return 0
        has = ((lst[s][0] >> 3) & 15) != 0
        npair += has
        ps = s if has else ps
    # one pair, and as many sets as asked (true of 3 * need + 2 tiles, each
    # count 0..4: the callers check; refused here too, so a reading cannot overflow)
    if npair != 1 or <int>((lst[0][0] & 7) + (lst[1][0] & 7) + (lst[2][0] & 7)) + nh != need \
            or ctx.n_fixed + need > 4:
        return 0
    # characters (suit 0) outermost, then bamboo (2), then dots (1): the
    # reference's suit order, so the readings come out sorted
    for a in range(cnt[0]):
        ws[0] = lst[0][a]
        for b in range(cnt[2]):
            ws[2] = lst[2][b]
            for p in range(cnt[1]):
                if nout == MAXDIV:
                    return nout
                ws[1] = lst[1][p]
                _emit_reading(out[nout].packs, ctx, ws, hon,
                              hpt if ps == 3 else 9 * ps + ((ws[ps] >> 3) & 15) - 1)
                nout += 1
    return nout
