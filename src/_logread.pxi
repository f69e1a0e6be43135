# The compiled reader of the text match archive (included into _game.pyx, so
# that it steps FastGame's C methods directly).
#
# replay_text(data, first_line, keys) reads a chunk of the archive (bytes that
# begin at a line start) and replays every match on FastGame with the checks
# of mjfast/logs/fastreplay.py, itself the compiled twin of the Python replay
# (mjfast/logs/replay.py).  It takes a match only when it is sure the Python
# reader (mjfast/logs/text.py) would read it the same way and find nothing
# wrong; anything else -- a malformed line, a byte outside printable ASCII, an
# error ending, flowers, a move the engine refuses -- comes back as a
# "fallback" segment (its bytes and first line number), which the caller reads
# and replays with the Python path, so that every problem is named by the one
# reference implementation.  Segments are cut at the lines whose first word
# is "Match", as the Python reader cuts matches.

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.string cimport memchr

cdef enum:
    LR_MAXTOK = 40          # words of a line (a Deal line has 16; more: fallback)
    LR_MAXEV = 512          # events of a match (a legal game has fewer than 350)
    LK_DRAW = 1
    LK_PLAY = 2
    LK_ANGANG = 3
    LK_BUGANG = 4
    LK_CHI = 5
    LK_PENG = 6
    LK_GANG = 7
    LK_HU = 8

cdef struct LEv:
    int pos                 # line number
    int8_t seat
    int8_t kind
    int8_t tile             # -1: not written (a Hu)
    int8_t disc             # Chi / Peng: the claimer's discard
    int8_t nign             # losing claims (Ignore clauses)
    int8_t ig_seat[3]
    int8_t ig_kind[3]       # 0: the answer is given (a match JSON's response) in ig_op/a/b
    int8_t ig_tile[3]
    int8_t ig_op[3]
    int8_t ig_a[3]
    int8_t ig_b[3]

cdef struct LMatch:
    Py_ssize_t b0           # byte offset of the Match line
    int line                # its line number
    Py_ssize_t id0, id1     # the id's bytes
    int quan
    uint8_t deals[4][13]
    int dealt[4]
    int nev
    int pending             # ev[nev] is a Chi / Peng waiting for its Play line
    int end                 # 0 still going, 1 Hu, 2 Huang
    int end_pos
    Py_ssize_t fan0, fan1   # the Fan line (-1: none)
    int fan_line
    int has_score
    int score[4]
    int bad                 # anything unusual: the Python path reads this match
    LEv ev[LR_MAXEV]


cdef const char* _LR_SUITS = b"mps"
cdef const char* _LR_HONORS = b"ESWNCFP"


# byte classes: 0 a word's byte, 1 whitespace (the ASCII characters str.split()
# splits on; \n never occurs inside a line), 2 a word's byte the fast path leaves
# to Python (control characters, DEL, anything not ASCII: str.split() may see
# whitespace in it)
cdef uint8_t _LR_CLS[256]
for _c in range(256):
    _LR_CLS[_c] = 1 if (_c == 32 or 9 <= _c <= 13 or 28 <= _c <= 31) else (2 if (_c < 32 or _c >= 127) else 0)


cdef inline bint _lr_is(const uint8_t* p, Py_ssize_t n, const char* word) noexcept nogil:
    cdef Py_ssize_t i = 0
    while i < n:
        if word[i] == 0 or <uint8_t>word[i] != p[i]:
            return False
        i += 1
    return word[n] == 0


cdef inline int _lr_tile(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """A Botzone tile code -> 0..33; a flower H1-H8 -> -2; else -1."""
    if n != 2:
        return -1
    cdef int r = p[1] - 48
    cdef uint8_t s = p[0]
    if s == 87 and 1 <= r <= 9:           # W
        return r - 1
    if s == 66 and 1 <= r <= 9:           # B
        return 8 + r
    if s == 84 and 1 <= r <= 9:           # T
        return 17 + r
    if s == 70 and 1 <= r <= 4:           # F
        return 26 + r
    if s == 74 and 1 <= r <= 3:           # J
        return 30 + r
    if s == 72 and 1 <= r <= 8:           # H
        return -2
    return -1


cdef inline int _lr_seat(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    if n == 1 and 48 <= p[0] <= 51:
        return p[0] - 48
    return -1


cdef inline int _lr_claim_kind(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """The kind of an Ignore clause: chi / peng / gang / hu in any case (the Python reader lowers it)."""
    cdef uint8_t b[4]
    cdef Py_ssize_t i
    if n < 2 or n > 4:
        return 0
    for i in range(n):
        b[i] = p[i] + 32 if 65 <= p[i] <= 90 else p[i]
    if _lr_is(b, n, b"chi"):
        return LK_CHI
    if _lr_is(b, n, b"peng"):
        return LK_PENG
    if _lr_is(b, n, b"gang"):
        return LK_GANG
    if _lr_is(b, n, b"hu"):
        return LK_HU
    return 0


cdef inline bint _lr_int(const uint8_t* p, Py_ssize_t n, int* out) noexcept nogil:
    """An int written plainly (-?digits, at most 9 digits); anything else is left to Python's int()."""
    cdef Py_ssize_t i = 0
    cdef int v = 0, neg = 0
    if n > 0 and p[0] == 45:
        neg = 1
        i = 1
    if n - i < 1 or n - i > 9:
        return False
    while i < n:
        if not 48 <= p[i] <= 57:
            return False
        v = v * 10 + (p[i] - 48)
        i += 1
    out[0] = -v if neg else v
    return True


cdef void _lr_line(LMatch* m, const uint8_t* d, Py_ssize_t* ts, Py_ssize_t* te, int nt, bint weird,
                   Py_ssize_t ls, Py_ssize_t le, int lineno) noexcept nogil:
    """One line of the current match (nt >= 1 words; not a Match line)."""
    cdef const uint8_t* w0 = d + ts[0]
    cdef Py_ssize_t n0 = te[0] - ts[0]
    cdef int seat, k, t, i, j, c
    cdef LEv* e
    if _lr_is(w0, n0, b"Fan"):
        # the names are Chinese: the Python reader parses this line's text later
        if m.end != 1 or m.fan0 >= 0 or m.pending:
            m.bad = 1
            return
        m.fan0 = ls
        m.fan1 = le
        m.fan_line = lineno
        return
    if weird or nt > LR_MAXTOK:
        m.bad = 1
        return
    if m.end:
        if _lr_is(w0, n0, b"Score") and not m.has_score and nt == 5:
            for i in range(4):
                if not _lr_int(d + ts[i + 1], te[i + 1] - ts[i + 1], &m.score[i]):
                    m.bad = 1
                    return
            m.has_score = 1
            return
        m.bad = 1                # a second Score / Huang, any other line after the end
        return
    if not _lr_is(w0, n0, b"Player"):
        if m.pending:
            m.bad = 1
        elif _lr_is(w0, n0, b"Wind") and nt == 2 and m.quan < 0 and not (m.dealt[0] or m.dealt[1] or m.dealt[2]
                                                                          or m.dealt[3]):
            seat = _lr_seat(d + ts[1], te[1] - ts[1])
            if seat < 0:
                m.bad = 1
            m.quan = seat
        elif _lr_is(w0, n0, b"Huang") and nt == 1:
            m.end = 2
            m.end_pos = lineno
        else:
            m.bad = 1            # Score before the end (an error ending), unknown lines
        return
    if nt < 3:
        m.bad = 1
        return
    seat = _lr_seat(d + ts[1], te[1] - ts[1])
    if seat < 0:
        m.bad = 1
        return
    cdef const uint8_t* w2 = d + ts[2]
    cdef Py_ssize_t n2 = te[2] - ts[2]
    if m.pending:
        e = &m.ev[m.nev]
        if not _lr_is(w2, n2, b"Play") or seat != e.seat or nt != 4:
            m.bad = 1
            return
        t = _lr_tile(d + ts[3], te[3] - ts[3])
        if t < 0:
            m.bad = 1
            return
        e.disc = t
        m.pending = 0
        m.nev += 1
        return
    k = 0
    if _lr_is(w2, n2, b"Draw"):
        k = LK_DRAW
    elif _lr_is(w2, n2, b"Play"):
        k = LK_PLAY
    elif _lr_is(w2, n2, b"AnGang"):
        k = LK_ANGANG
    elif _lr_is(w2, n2, b"BuGang"):
        k = LK_BUGANG
    if k:
        if nt != 4 or not m.dealt[seat] or m.nev >= LR_MAXEV:
            m.bad = 1
            return
        t = _lr_tile(d + ts[3], te[3] - ts[3])
        if t < 0:
            m.bad = 1
            return
        e = &m.ev[m.nev]
        e.pos = lineno; e.seat = seat; e.kind = k; e.tile = t; e.disc = -1; e.nign = 0
        m.nev += 1
        return
    if _lr_is(w2, n2, b"Chi"):
        k = LK_CHI
    elif _lr_is(w2, n2, b"Peng"):
        k = LK_PENG
    elif _lr_is(w2, n2, b"Gang"):
        k = LK_GANG
    elif _lr_is(w2, n2, b"Hu"):
        k = LK_HU
    if k:
        if not m.dealt[seat] or m.nev >= LR_MAXEV:
            m.bad = 1
            return
        e = &m.ev[m.nev]
        e.pos = lineno; e.seat = seat; e.kind = k; e.tile = -1; e.disc = -1; e.nign = 0
        i = 3
        if nt > 3 and not _lr_is(d + ts[3], te[3] - ts[3], b"Ignore"):
            t = _lr_tile(d + ts[3], te[3] - ts[3])
            if t < 0:
                m.bad = 1
                return
            e.tile = t
            i = 4
        elif k != LK_HU:
            m.bad = 1
            return
        while i < nt:
            # Ignore Player <n> <Chi|Peng|Gang|Hu> [<tile>]
            if e.nign >= 3 or i + 3 >= nt or not _lr_is(d + ts[i], te[i] - ts[i], b"Ignore") \
                    or not _lr_is(d + ts[i + 1], te[i + 1] - ts[i + 1], b"Player"):
                m.bad = 1
                return
            j = _lr_seat(d + ts[i + 2], te[i + 2] - ts[i + 2])
            c = _lr_claim_kind(d + ts[i + 3], te[i + 3] - ts[i + 3])
            if j < 0 or c == 0:
                m.bad = 1
                return
            e.ig_seat[e.nign] = j
            e.ig_kind[e.nign] = c
            e.ig_tile[e.nign] = -1
            i += 4
            if i < nt and not _lr_is(d + ts[i], te[i] - ts[i], b"Ignore"):
                t = _lr_tile(d + ts[i], te[i] - ts[i])
                if t < 0:
                    m.bad = 1
                    return
                e.ig_tile[e.nign] = t
                i += 1
            e.nign += 1
        if k == LK_CHI or k == LK_PENG:
            m.pending = 1
        else:
            m.nev += 1
            if k == LK_HU:
                m.end = 1
                m.end_pos = lineno
        return
    if _lr_is(w2, n2, b"Deal"):
        if m.dealt[seat] or m.nev or nt != 16:
            m.bad = 1            # dealt twice, after play began, flowers, not 13 tiles
            return
        for i in range(13):
            t = _lr_tile(d + ts[3 + i], te[3 + i] - ts[3 + i])
            if t < 0:
                m.bad = 1
                return
            m.deals[seat][i] = t
        m.dealt[seat] = 1
        return
    m.bad = 1


cdef int _lr_loser(FastGame g, int seat, int kind, int tile, int live, int* op, int* a, int* b) except -1:
    """The answer of a losing claim (mjfast/logs/fastreplay.py _loser); 0 if there is none."""
    cdef int n, i, o
    if kind == LK_HU:
        op[0] = OP_HU; a[0] = 0; b[0] = 0
        return 1
    if tile >= 0 and kind != LK_CHI and tile != live:
        return 0
    if kind == LK_GANG:
        op[0] = OP_GANG; a[0] = -1; b[0] = 0
        return 1
    o = OP_CHI if kind == LK_CHI else OP_PENG
    n = g._legal(seat, True)
    for i in range(n):
        if g.legal_buf[i][0] == o and (kind != LK_CHI or tile < 0 or g.legal_buf[i][1] == tile):
            op[0] = o; a[0] = g.legal_buf[i][1]; b[0] = g.legal_buf[i][2]
            return 1
    return 0


cdef int _lr_replay(FastGame g, LMatch* m, uint8_t[:, ::1] wv, bint known=False) except -1:
    """Replay a well-formed match: 1 Huang, 2 Hu, 0 refused (the Python path decides).
    ``known``: wv already holds the walls (a match JSON's), else they are rebuilt."""
    cdef int s, i, t, k, seat, ph, live = -1, last_draw = -1, r
    cdef int ln[4]
    cdef int cnt[34]
    cdef int ops[4]
    cdef int aa[4]
    cdef int bb[4]
    cdef LEv* e
    if m.quan < 0 or not (m.dealt[0] and m.dealt[1] and m.dealt[2] and m.dealt[3]) or m.end == 0:
        return 0
    memset(cnt, 0, sizeof(cnt))
    if known:
        # given walls: the 136 tiles, each 4 times (GameState refuses anything else)
        for s in range(4):
            for i in range(34):
                if wv[s, i] > 33:
                    return 0
                cnt[wv[s, i]] += 1
        for t in range(34):
            if cnt[t] != 4:
                return 0
    else:
        # the walls: each seat's deal, its draws in order, then the tiles nobody drew
        for s in range(4):
            for i in range(13):
                wv[s, i] = m.deals[s][i]
                cnt[m.deals[s][i]] += 1
            ln[s] = 13
        for i in range(m.nev):
            e = &m.ev[i]
            if e.kind == LK_DRAW:
                if ln[e.seat] >= 34 or e.tile < 0:
                    return 0
                wv[e.seat, ln[e.seat]] = e.tile
                ln[e.seat] += 1
                cnt[e.tile] += 1
        for t in range(34):
            if cnt[t] > 4:
                return 0
        s = 0
        for t in range(34):
            for k in range(4 - cnt[t]):
                while ln[s] >= 34:
                    s += 1
                wv[s, ln[s]] = t
                ln[s] += 1
    g._reset(wv, m.quan)
    for i in range(m.nev):
        e = &m.ev[i]
        seat = e.seat
        k = e.kind
        if k == LK_DRAW:
            ph = g.phase
            if ph == PH_CLAIM or ph == PH_ROB:
                for s in range(4):
                    ops[s] = OP_PASS; aa[s] = 0; bb[s] = 0
                if g._claim(ops, aa, bb) != -1:
                    return 0
            if g.phase != PH_DRAW or g.current != seat:
                return 0
            t = g._draw()
            if t != e.tile:
                return 0
            last_draw = t
        elif k == LK_PLAY or k == LK_ANGANG or k == LK_BUGANG:
            if g.phase != PH_TURN or g.current != seat:
                return 0
            if g._turn(OP_PLAY if k == LK_PLAY else (OP_GANG if k == LK_ANGANG else OP_BUGANG), e.tile) != 0:
                return 0
            if k != LK_ANGANG:
                live = e.tile
        elif k == LK_HU and g.phase == PH_TURN:
            if g.current != seat or (e.tile >= 0 and e.tile != last_draw):
                return 0
            if g._turn(OP_HU, 0) != 0:
                return 0
        else:
            ph = g.phase
            if ph != PH_CLAIM and ph != PH_ROB:
                return 0
            if k != LK_HU and ph == PH_ROB:
                return 0
            for s in range(4):
                ops[s] = OP_PASS; aa[s] = 0; bb[s] = 0
            if k == LK_CHI:
                ops[seat] = OP_CHI; aa[seat] = e.tile; bb[seat] = e.disc
            else:
                if e.tile >= 0 and e.tile != live:
                    return 0
                if k == LK_PENG:
                    ops[seat] = OP_PENG; aa[seat] = e.disc
                elif k == LK_GANG:
                    ops[seat] = OP_GANG; aa[seat] = -1
                else:
                    ops[seat] = OP_HU
            for r in range(e.nign):
                s = e.ig_seat[r]
                if s == seat or s == g.current or ops[s] != OP_PASS:
                    return 0
                if e.ig_kind[r] == 0:
                    ops[s] = e.ig_op[r]; aa[s] = e.ig_a[r]; bb[s] = e.ig_b[r]
                    if ops[s] == OP_PASS:
                        return 0
                elif not _lr_loser(g, s, e.ig_kind[r], e.ig_tile[r], live, &ops[s], &aa[s], &bb[s]):
                    return 0
            if g._claim(ops, aa, bb) != seat:
                return 0
            if k == LK_CHI or k == LK_PENG:
                live = e.disc
    if m.end == 2:
        if g.phase == PH_CLAIM or g.phase == PH_ROB:
            for s in range(4):
                ops[s] = OP_PASS; aa[s] = 0; bb[s] = 0
            if g._claim(ops, aa, bb) != -1:
                return 0
        if g.phase == PH_DRAW and g._draw() == -1 and g.huang:
            return 1
        return 0
    if g.phase != PH_OVER or g.winner < 0:
        return 0
    return 2


cdef str _lr_hand(FastGame g, list melds_out):
    """The winner's hand in our notation, as mjfast.game.state.score_win writes
    it (melds in the order made, the concealed tiles, the winning tile last);
    the melds' notations are appended to melds_out."""
    cdef char buf[96]
    cdef int n = 0, s = g.winner, i, k, t, r, c, mstart, reps, f
    cdef int cnt[34]
    cdef GMeld* gm
    for i in range(34):
        cnt[i] = g.hands[s][i]
    cnt[g.last_tile] -= 1
    for i in range(g.nm[s]):
        gm = &g.melds[s][i]
        mstart = n
        buf[n] = 91; n += 1                                 # [
        t = gm.tile
        if gm.kind == 0:
            for k in range(3):
                buf[n] = 49 + t % 9 + k; n += 1
            buf[n] = _LR_SUITS[t // 9]; n += 1
            f = gm.claimed - t + 1
        else:
            reps = 3 if gm.kind == 1 else 4
            for k in range(reps):
                buf[n] = (49 + t % 9) if t < 27 else _LR_HONORS[t - 27]; n += 1
            if t < 27:
                buf[n] = _LR_SUITS[t // 9]; n += 1
            f = 0 if gm.frm < 0 else (s - gm.frm + 4) % 4
            if f and gm.added:
                f += 4
        if f:
            buf[n] = 48 + f; n += 1
        buf[n] = 93; n += 1                                 # ]
        melds_out.append(buf[mstart:n].decode("ascii"))
    for c in range(3):
        r = n
        for k in range(9):
            for i in range(cnt[c * 9 + k]):
                buf[n] = 49 + k; n += 1
        if n > r:
            buf[n] = _LR_SUITS[c]; n += 1
    for k in range(7):
        for i in range(cnt[27 + k]):
            buf[n] = _LR_HONORS[k]; n += 1
    t = g.last_tile
    if t < 27:
        buf[n] = 49 + t % 9; n += 1
        buf[n] = _LR_SUITS[t // 9]; n += 1
    else:
        buf[n] = _LR_HONORS[t - 27]; n += 1
    return buf[:n].decode("ascii")


cdef object _lr_result(FastGame g, LMatch* m, int status, bytes data, Py_ssize_t b1, tuple keys):
    cdef int i, s
    mid = data[m.id0:m.id1].decode("ascii")
    fan = None if m.fan0 < 0 else data[m.fan0:m.fan1]
    scores = [m.score[0], m.score[1], m.score[2], m.score[3]] if m.has_score else None
    if status == 1:
        return (1, m.b0, b1, m.line, mid, m.end_pos, fan, m.fan_line, scores)
    s = g.winner
    melds = []
    hand = _lr_hand(g, melds)
    fans = {}
    for i in range(82):
        if g.hu_ft[i + 1]:
            fans[keys[i]] = g.hu_ft[i + 1]
    return (2, m.b0, b1, m.line, mid, m.end_pos, fan, m.fan_line, scores,
            s, None if g.w_self else g.from_seat, g.last_tile, hand, tuple(melds),
            bool(g.w_self), bool(g.w_fourth), bool(g.w_last), bool(g.w_kong), m.quan, g.total, fans)


def replay_text(bytes data not None, first_line_, tuple keys not None, Py_ssize_t max_line=65536):
    """Read and replay the matches of ``data`` (a chunk of a text archive that
    begins at a line start; ``first_line`` its first line's number).  A match
    with a line of more than ``max_line`` bytes is left to the Python path
    (which bounds lines in characters).  Returns one tuple per segment, in
    order:

    * ``(0, start, stop, line)``: read bytes start:stop (first line ``line``)
      with the Python path;
    * ``(1, start, stop, line, id, end_line, fan_bytes, fan_line, scores)``: a Huang;
    * ``(2, ...same..., winner, discarder, tile, hand, melds, self_drawn,
      fourth_tile, last_tile, kong, quan, total, fans)``: a Hu, scored by the
      fan kernel (``fans``: {keys[j]: count} by fan id j + 1).
    """
    if len(keys) < 82:
        raise ValueError("keys: the 82 fan keys in fan id order")
    cdef int first_line = int_arg(first_line_, "first_line", -(_C_INT // 2), _C_INT // 2)
    cdef const uint8_t* d = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data), pos = 0, le, q, pre_end = -1
    cdef Py_ssize_t ts[LR_MAXTOK + 1]
    cdef Py_ssize_t te[LR_MAXTOK + 1]
    cdef int nt, lineno = first_line - 1, active = 0, status
    cdef bint weird, pre_text = False
    cdef uint8_t c, cls
    cdef const uint8_t* nl
    cdef LMatch* m = <LMatch*>malloc(sizeof(LMatch))
    if m == NULL:
        raise MemoryError()
    cdef FastGame g = FastGame()
    wbuf = np.empty((4, 34), dtype=np.uint8)
    cdef uint8_t[:, ::1] wv = wbuf
    out = []
    try:
        while pos <= n:
            nl = <const uint8_t*>memchr(d + pos, 10, n - pos) if pos < n else NULL
            le = n if nl == NULL else nl - d
            lineno += 1
            # the words of the line, as str.split() would find them in pure ASCII
            nt = 0
            cls = 0
            q = pos
            while q < le:
                if _LR_CLS[d[q]] == 1:
                    q += 1
                    continue
                if nt <= LR_MAXTOK:
                    ts[nt] = q
                while q < le:
                    c = _LR_CLS[d[q]]
                    if c == 1:
                        break
                    cls |= c
                    q += 1
                if nt <= LR_MAXTOK:
                    te[nt] = q
                nt += 1
            weird = cls != 0
            if nt and te[0] - ts[0] == 5 and _lr_is(d + ts[0], 5, b"Match"):
                if active:
                    status = 0 if m.bad or m.pending else _lr_replay(g, m, wv)
                    out.append((0, m.b0, pos, m.line) if status == 0 else _lr_result(g, m, status, data, pos, keys))
                elif pre_text:
                    out.append((0, 0, pos, first_line))
                active = 1
                memset(m, 0, sizeof(LMatch) - sizeof(m.ev))
                m.b0 = pos
                m.line = lineno
                m.quan = -1
                m.fan0 = -1
                if nt != 2 or weird or le - pos > max_line:
                    m.bad = 1
                else:
                    m.id0 = ts[1]
                    m.id1 = te[1]
            elif le - pos > max_line:
                # even a blank one: the Python reader refuses it
                if not active:
                    pre_text = True
                else:
                    m.bad = 1
            elif nt:
                if not active:
                    pre_text = True
                elif not m.bad:
                    _lr_line(m, d, ts, te, nt, weird, pos, le, lineno)
            if le >= n:
                break
            pos = le + 1
        if active:
            status = 0 if m.bad or m.pending else _lr_replay(g, m, wv)
            out.append((0, m.b0, n, m.line) if status == 0 else _lr_result(g, m, status, data, n, keys))
        elif pre_text:
            out.append((0, 0, n, first_line))
    finally:
        free(m)
    return out


_LR_KIND = {"DRAW": LK_DRAW, "PLAY": LK_PLAY, "ANGANG": LK_ANGANG, "BUGANG": LK_BUGANG, "CHI": LK_CHI,
            "PENG": LK_PENG, "GANG": LK_GANG, "HU": LK_HU}


cdef FastGame _replay_g = None
cdef uint8_t[:, ::1] _replay_walls = np.empty((4, 34), dtype=np.uint8)


cdef FastGame _replay_game():
    global _replay_g
    if _replay_g is None:
        _replay_g = FastGame()
    return _replay_g


def _lr_in(x, lo, hi):
    return not isinstance(x, bool) and isinstance(x, (int, np.integer)) and lo <= x <= hi


cdef int _lr_code(dict tile_index, code) except -2:
    """A tile code's index 0-33, or -1 (unknown code, a flower, anything else)."""
    t = tile_index.get(code) if isinstance(code, str) else None
    return t if _lr_in(t, 0, 33) else -1


def replay_match(m, walls, dict tile_index, parse_action):
    """Replay a read :class:`mjfast.logs.model.Match` (no problem, Hu or Huang,
    no flowers) with the checks of mjfast/logs/fastreplay.py, from compiled
    code.  ``walls``: its known walls (4 lists of codes) or None (rebuilt from
    the log); ``parse_action``: response string -> (op, a, b) for a match
    JSON's losing claims.  None if refused (the Python engine then decides),
    ("huang",) or ("hu", winner, from_seat, tile, hand, melds, self_drawn,
    fourth_tile, last_tile, kong)."""
    cdef LMatch* lm
    cdef LEv* e
    cdef int s, i, k, j, t, status
    cdef FastGame g
    cdef uint8_t[:, ::1] wv
    # the values below go into C arrays of the replay: anything out of range
    # is refused (None: the Python path reads the match and names the problem)
    if not _lr_in(m.quan, 0, 3):
        return None
    if m.end == "hu":
        k = 1
    elif m.end == "huang":
        k = 2
    else:
        return None
    lm = <LMatch*>malloc(sizeof(LMatch))
    if lm == NULL:
        raise MemoryError()
    try:
        memset(lm, 0, sizeof(LMatch) - sizeof(lm.ev))
        lm.end = k
        lm.quan = m.quan
        for s in range(4):
            d = m.deals[s]
            if len(d) != 13:
                return None
            for i in range(13):
                t = _lr_code(tile_index, d[i])
                if t < 0:
                    return None
                lm.deals[s][i] = t
            lm.dealt[s] = 1
        events = m.events
        if len(events) > LR_MAXEV:
            return None
        for i, ev in enumerate(events):
            e = &lm.ev[i]
            k = _LR_KIND.get(ev[2], 0)
            if k == 0:
                return None                       # BUHUA
            if not (_lr_in(ev[0], -_C_INT, _C_INT) and _lr_in(ev[1], 0, 3)):
                return None
            e.pos = ev[0]
            e.seat = ev[1]
            e.kind = k
            e.tile = -1 if ev[3] is None else _lr_code(tile_index, ev[3])
            e.disc = -1 if ev[4] is None else _lr_code(tile_index, ev[4])
            if (ev[3] is not None and e.tile < 0) or (ev[4] is not None and e.disc < 0) \
                    or (k == LK_DRAW and e.tile < 0):
                return None
            ign = ev[6]
            if len(ign) > 3:
                return None
            e.nign = len(ign)
            for j, c in enumerate(ign):
                if len(c) < 4 or not _lr_in(c[0], 0, 3):
                    return None
                e.ig_seat[j] = c[0]
                e.ig_tile[j] = -1 if c[2] is None else _lr_code(tile_index, c[2])
                if c[2] is not None and e.ig_tile[j] < 0:
                    return None
                if c[3] is not None:
                    try:
                        a = parse_action(c[3])
                    except (ValueError, TypeError, KeyError):
                        return None
                    # flowers (34-41) are not tiles of the compiled engine
                    if not (len(a) == 3 and _lr_in(a[0], 0, 6) and _lr_in(a[1], -1, 33) and _lr_in(a[2], 0, 33)):
                        return None
                    e.ig_kind[j] = 0
                    e.ig_op[j] = a[0]; e.ig_a[j] = a[1]; e.ig_b[j] = a[2]
                else:
                    e.ig_kind[j] = _LR_KIND.get(c[1], 0)
                    if e.ig_kind[j] == 0:
                        return None
        lm.nev = len(events)
        g = _replay_game()
        wv = _replay_walls
        if walls is not None:
            if len(walls) != 4:
                return None
            for s in range(4):
                w = walls[s]
                if len(w) != 34:
                    return None
                for i in range(34):
                    t = _lr_code(tile_index, w[i])
                    if t < 0:
                        return None
                    wv[s, i] = t
        status = _lr_replay(g, lm, wv, walls is not None)
        if status == 0:
            return None
        if status == 1:
            return ("huang",)
        melds = []
        hand = _lr_hand(g, melds)
        return ("hu", g.winner, None if g.w_self else g.from_seat, g.last_tile, hand, tuple(melds),
                bool(g.w_self), bool(g.w_fourth), bool(g.w_last), bool(g.w_kong))
    finally:
        free(lm)
