# The shanten of a hand with wildcards, inline over the wild tables
# (wildkernel/tables.pxd).
#
# Default rule: _wstep[key*10 + 2m + p] holds, in bit j - 1, whether the
# part's distance with j wildcards spent is one less than with j - 1 (a
# wildcard lowers a distance by at most one), for j = 1..8.  The distance
# with j wildcards spent is the smallest distance of the part plus any j
# tiles that keep every count <= 4; the hand's distance is the min-plus
# combination of the four parts over (melds, pair, wildcards).  With
# `fifth` a wildcard always lowers the distance by one: distance - k.  A
# kind with copies in melds (caps below 4) has its part's vector walked
# over the additions instead (_capped_walk).  The special forms have closed
# forms in k (in _wshanten).
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset, memcpy
from wildkernel.tables cimport (_dist, _hdist, _wstep, _hwstep, P5, KNIT_TILES, KNIT_SUIT, ORPHAN_MASK, BIG,
                                KROOM)
from wildkernel.win cimport _key9, _key7, _present, _ntiles, _knit_got


cdef inline void _part_vec(int* out, const uint8_t* d, const uint8_t* st, int k, bint fifth) noexcept nogil:
    """out[j*10 + x] = distance x of the part with j <= k wildcards spent."""
    cdef int j, x, v
    if fifth:
        for j in range(k + 1):
            for x in range(10):
                v = d[x] - j
                out[j * 10 + x] = v if v > 0 else 0
        return
    for x in range(10):
        out[x] = d[x]
    for j in range(1, k + 1):
        # the j-th wildcard lowers entry x by one when its step bit is set
        for x in range(10):
            out[j * 10 + x] = out[(j - 1) * 10 + x] - ((st[x] >> (j - 1)) & 1)


cdef inline void _capped_walk(int* out, const uint8_t* table, const uint8_t* c, const uint8_t* room, int n,
                              int i, int key, int j, int k) noexcept nogil:
    """Every way of adding j..k tiles to the part from kind i on (at most
    room[t] of kind t): out[j*10 + x] = the least distance x after exactly j."""
    cdef int x, a
    cdef const uint8_t* d
    if i == n:
        d = table + key * 10
        for x in range(10):
            if d[x] < out[j * 10 + x]:
                out[j * 10 + x] = d[x]
        return
    a = 0
    while True:
        _capped_walk(out, table, c, room, n, i + 1, key, j, k)
        if a >= room[i] or j >= k:
            break
        a += 1
        j += 1
        key += P5[i]


cdef inline void _part_vec_at(int* out, const uint8_t* c, int n, const uint8_t* cp, int k, bint fifth) noexcept nogil:
    """The part vector (as _part_vec) of the n counts c.  cp: the most copies of
    each kind (NULL: 4); below 4 (copies in melds), the part's vector comes
    from a walk over the additions instead of the step table."""
    cdef int key = _key7(c) if n == 7 else _key9(c)
    cdef const uint8_t* table = _hdist if n == 7 else _dist
    cdef const uint8_t* st = _hwstep if n == 7 else _wstep
    cdef uint8_t room[9]
    cdef int i, capped = 0
    if cp != NULL and not fifth:
        for i in range(n):
            room[i] = cp[i] - c[i] if cp[i] > c[i] else 0
            capped |= cp[i] < 4
    if not capped:
        _part_vec(out, table + key * 10, NULL if fifth else st + key * 10, k, fifth)
        return
    for i in range((k + 1) * 10):
        out[i] = BIG
    _capped_walk(out, table, c, room, n, 0, key, 0, k)


cdef inline void _combine(int* z, const int* a, const int* b, int k, int M) noexcept nogil:
    """z[j*10 + 2m + p] = min over splits of j wildcards and (m, p) of a + b."""
    cdef int j, ja, m, ma, t, ia, ib
    for j in range(k + 1):
        for m in range(M + 1):
            z[j * 10 + 2 * m] = BIG
            z[j * 10 + 2 * m + 1] = BIG
    for ja in range(k + 1):
        for j in range(ja, k + 1):
            for ma in range(M + 1):
                ia = ja * 10 + 2 * ma
                for m in range(ma, M + 1):
                    ib = (j - ja) * 10 + 2 * (m - ma)
                    t = a[ia] + b[ib]
                    if t < z[j * 10 + 2 * m]:
                        z[j * 10 + 2 * m] = t
                    t = a[ia] + b[ib + 1]
                    if a[ia + 1] + b[ib] < t:
                        t = a[ia + 1] + b[ib]
                    if t < z[j * 10 + 2 * m + 1]:
                        z[j * 10 + 2 * m + 1] = t


cdef inline void _wreg_vecs(const int* v0, const int* v1, const int* v2, const int* v3, int M, int k, int* res) noexcept nogil:
    """res[j] (j <= k) = fewest tiles to add for M melds + a pair with j
    wildcards spent, from the four parts' vectors."""
    cdef int ab[KROOM * 10]
    cdef int ch[KROOM * 10]
    cdef int j, ja, m, t, best
    _combine(ab, v0, v1, k, M)
    _combine(ch, v2, v3, k, M)
    for j in range(k + 1):
        best = BIG
        for ja in range(j + 1):
            for m in range(M + 1):
                t = ab[ja * 10 + 2 * m] + ch[(j - ja) * 10 + 2 * (M - m) + 1]
                if t < best:
                    best = t
                t = ab[ja * 10 + 2 * m + 1] + ch[(j - ja) * 10 + 2 * (M - m)]
                if t < best:
                    best = t
        res[j] = best


cdef inline void _wreg_dist(const uint8_t* c, int M, int k, bint fifth, const uint8_t* cp, int* res) noexcept nogil:
    """res[j] (j <= k) = fewest tiles to add for M melds + a pair with j
    wildcards spent in the regular form (cp: as _part_vec_at)."""
    cdef int v0[KROOM * 10]
    cdef int v1[KROOM * 10]
    cdef int v2[KROOM * 10]
    cdef int v3[KROOM * 10]
    _part_vec_at(v0, c, 9, cp, k, fifth)
    _part_vec_at(v1, c + 9, 9, cp + 9 if cp != NULL else NULL, k, fifth)
    _part_vec_at(v2, c + 18, 9, cp + 18 if cp != NULL else NULL, k, fifth)
    _part_vec_at(v3, c + 27, 7, cp + 27 if cp != NULL else NULL, k, fifth)
    _wreg_vecs(v0, v1, v2, v3, M, k, res)


cdef inline void _mp(int* o, const uint8_t* a, const uint8_t* b, int M) noexcept nogil:
    """o[2m + p] (m <= M) = min-plus product of two distance vectors."""
    cdef int m, i, v0, v1, t
    for m in range(M + 1):
        v0 = BIG
        v1 = BIG
        for i in range(m + 1):
            t = a[2 * i] + b[2 * (m - i)]
            v0 = t if t < v0 else v0
            t = a[2 * i] + b[2 * (m - i) + 1]
            v1 = t if t < v1 else v1
            t = a[2 * i + 1] + b[2 * (m - i)]
            v1 = t if t < v1 else v1
        o[2 * m] = v0
        o[2 * m + 1] = v1


cdef inline int _plain_reg(const uint8_t* c, int M) noexcept nogil:
    """The regular distance without wildcards: a wildcard lowers a distance by
    at most one, so this less k bounds the distance with k from below."""
    cdef int ab[10]
    cdef int ch[10]
    cdef int m, t, best = BIG
    _mp(ab, _dist + _key9(c) * 10, _dist + _key9(c + 9) * 10, M)
    _mp(ch, _dist + _key9(c + 18) * 10, _hdist + _key7(c + 27) * 10, M)
    for m in range(M + 1):
        t = ab[2 * m] + ch[2 * (M - m) + 1]
        best = t if t < best else best
        t = ab[2 * m + 1] + ch[2 * (M - m)]
        best = t if t < best else best
    return best


cdef inline int _rest_key(const uint8_t* c, int s, int q) noexcept nogil:
    """Key of suit s less one copy of each held tile of its triple q."""
    cdef int key = _key9(c + 9 * s), r
    for r in range(q, 9, 3):
        if c[9 * s + r]:
            key -= P5[r]
    return key


cdef inline int _wshanten(const uint8_t* c, int melds, int form, int k, bint fifth, const uint8_t* cp) noexcept nogil:
    """Shanten of c + k wildcards: the least shanten over the substitutions
    (no fifth copy unless `fifth`), in one form or all (form < 0).  cp: the
    most copies of each kind a substitution may reach (4 less the copies in
    melds), or NULL for 4.

    No hand needs fewer than `floor` tiles (14 less its size), so the closed
    forms come first and the search stops once a form reaches it; the
    regular form and each knitted arrangement are skipped when their
    distance without wildcards, less k, cannot beat the best so far."""
    cdef int best = BIG, v, a, j, t, i, pairs, odd, kinds, pair, hon, use, fill, miss, floor
    cdef int res[KROOM]
    cdef int got[6]
    cdef int rh[10]
    cdef int vh[KROOM * 10]
    cdef int vk[9][KROOM * 10]
    cdef int done[9]
    cdef int ab[10]
    cdef int cd[10]
    cdef uint64_t p
    cdef uint8_t rest[34]
    cdef uint8_t rcap[34]
    cdef int s, r0, r1, r2, q
    floor = 14 - (_ntiles(c, 34) + k + 3 * melds)
    if floor < 0:
        floor = 0
    p = _present(c)
    if melds == 0:
        if form < 0 or form == 1:
            # seven pairs (as the shape count: four of a kind are two pairs):
            # a wildcard on an odd count makes a pair, two make a new one
            pairs = 0
            odd = 0
            for t in range(34):
                pairs += c[t] >> 1
                odd += c[t] & 1
            use = k if k < odd else odd
            v = 7 - pairs - use - (k - use) // 2
            if v < best:
                best = v
        if form < 0 or form == 2:
            # thirteen orphans: each wildcard adds a missing orphan or the pair
            kinds = 0
            pair = 0
            for i in range(34):
                if (ORPHAN_MASK >> i) & 1 and c[i]:
                    kinds += 1
                    if c[i] >= 2:
                        pair = 1
            v = 14 - kinds - pair
            use = 13 - kinds + 1 - pair
            v -= k if k < use else use
            if v < best:
                best = v
    if (melds == 0 and (form < 0 or form == 3)) or (melds <= 1 and (form < 0 or form == 4)):
        _knit_got(p, got)
    if melds == 0 and (form < 0 or form == 3):
        # honors and knitted: each wildcard adds one of the missing 16 - held
        hon = 0
        for t in range(27, 34):
            hon += c[t] != 0
        for a in range(6):
            v = 14 - hon - got[a]
            use = 16 - hon - got[a]
            v -= k if k < use else use
            if v < best:
                best = v
    if best <= floor:
        return best - 1
    if form < 0 or form == 0:
        if _plain_reg(c, 4 - melds) - k < best:
            _wreg_dist(c, 4 - melds, k, fifth, cp, res)
            if res[k] < best:
                best = res[k]
            if best <= floor:
                return best - 1
    if melds > 1 or not (form < 0 or form == 4):
        return best - 1
    # knitted straight: j wildcards go to the rest, the others to the missing
    # arrangement tiles.  The rest of suit s under triple q (ranks q, q+3,
    # q+6, one copy of each held one set aside) serves two arrangements: its
    # vector is made once, when first needed.
    for i in range(10):
        rh[i] = _hdist[_key7(c + 27) * 10 + i]
    for i in range(9):
        done[i] = 0
    memcpy(rest, c, 34)
    if cp != NULL:
        memcpy(rcap, cp, 34)
    else:
        memset(rcap, 4, 34)
    _part_vec_at(vh, c + 27, 7, cp + 27 if cp != NULL else NULL, k, fifth)
    for a in range(6):
        miss = 9 - got[a]
        if miss - k >= best:
            continue
        # the bound without wildcards: the rest's plain distance from the
        # three suits' rest keys (no table walk)
        s = KNIT_SUIT[a][0]
        r0 = _rest_key(c, s, 0)
        s = KNIT_SUIT[a][1]
        r1 = _rest_key(c, s, 1)
        s = KNIT_SUIT[a][2]
        r2 = _rest_key(c, s, 2)
        _mp(ab, _dist + r0 * 10, _dist + r1 * 10, 1 - melds)
        _mp(cd, _dist + r2 * 10, _hdist + _key7(c + 27) * 10, 1 - melds)
        v = BIG
        for q in range(2 - melds):
            t = ab[2 * q] + cd[2 * (1 - melds - q) + 1]
            v = t if t < v else v
            t = ab[2 * q + 1] + cd[2 * (1 - melds - q)]
            v = t if t < v else v
        if miss + v - k >= best:
            continue
        # missing tiles a wildcard may stand for (a kind whose copies are all
        # in melds may not); the rest may take one copy less of each
        # arrangement tile than the hand (the arrangement holds one)
        fill = 0
        for j in range(9):
            t = KNIT_TILES[a][j]
            if c[t] == 0 and (cp == NULL or cp[t] > 0):
                fill += 1
        for j in range(3):
            s = KNIT_SUIT[a][j]
            q = s * 3 + j
            if not done[q]:
                for i in range(9):
                    rest[s * 9 + i] = c[s * 9 + i]
                    rcap[s * 9 + i] = cp[s * 9 + i] if cp != NULL else 4
                for i in range(j, 9, 3):
                    if rest[s * 9 + i]:
                        rest[s * 9 + i] -= 1
                    if rcap[s * 9 + i] > 0:
                        rcap[s * 9 + i] -= 1
                # with no melded copy the table's four-copy rule stands (a
                # rest never uses a fourth copy of an arrangement tile: one
                # meld and a pair hold at most three of a kind)
                _part_vec_at(vk[q], rest + s * 9, 9, rcap + s * 9 if cp != NULL else NULL, k, fifth)
                done[q] = 1
        _wreg_vecs(vk[KNIT_SUIT[a][0] * 3], vk[KNIT_SUIT[a][1] * 3 + 1], vk[KNIT_SUIT[a][2] * 3 + 2], vh,
                   1 - melds, k, res)
        for j in range(k + 1):
            use = k - j
            if use > fill:
                use = fill
            v = miss - (use if use < miss else miss) + res[j]
            if v < best:
                best = v
        if best <= floor:
            return best - 1
    return best - 1
