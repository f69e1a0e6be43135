# cython: language_level=3, auto_pickle=False
"""The text archive's tokenizer and pull reader (mjfast._textlog): the
platform's text log, read from its bytes into the match record the replay
driver steps (LMatch and its events LEv, src/mjfast/_textlog.pxd).  It knows
nothing of the engine or of the rules: what it cannot be sure to read as the
Python reader (mjfast/logs/text.py) does marks the match bad, and that
reader reads it.

* The words of a line are found as str.split() finds them in pure ASCII; a
  line with any other byte that could be whitespace to Python (a control
  character, DEL, anything not ASCII) marks its match bad.
* One line at a time into the current match (_lr_line): the deals, the
  events with their Ignore clauses (a Chi / Peng waits for its Play line,
  whose tile is the claimer's discard), the end (Hu, Huang, an error-rule
  Score), the Fan line's bytes (its names are Chinese: the Python side
  parses them) and the Score.
* A pull reader (lr_next): each call reads up to the end of the next match
  and returns it, so the driver replays a match before the next is read and
  one LMatch (its events allocated once) serves the whole chunk.  A match
  ends where the next Match line begins; the reader keeps that line's start
  (next_b0 ...) and begins its match on the following call.

A leaf of the compiled modules: it cimports none; mjfast._replay cimports it.
"""
from libc.string cimport memset, memchr
from libc.stdint cimport uint8_t, int8_t


# byte classes: 0 a word's byte, 1 whitespace (the ASCII characters str.split()
# splits on; \n never occurs inside a line), 2 a word's byte the fast path leaves
# to Python (control characters, DEL, anything not ASCII: str.split() may see
# whitespace in it)
cdef uint8_t _LR_CLS[256]
cdef int _c
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
        if m.end != END_HU or m.fan0 >= 0 or m.pending:
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
            m.end = END_HUANG
            m.end_pos = lineno
        elif _lr_is(w0, n0, b"Score") and nt == 5:
            # no Hu / Huang line: the error rule ended the game if the Score
            # says so (the offender -30, the others +10), as the Python reader reads it
            seat = -1
            for i in range(4):
                if not _lr_int(d + ts[i + 1], te[i + 1] - ts[i + 1], &m.score[i]) \
                        or (m.score[i] != 10 and (m.score[i] != -30 or seat >= 0)):
                    m.bad = 1
                    return
                if m.score[i] == -30:
                    seat = i
            if seat < 0:
                m.bad = 1
                return
            m.has_score = 1
            m.end = END_ERROR
            m.end_pos = lineno
            m.error_seat = seat
        else:
            m.bad = 1            # unknown lines
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
        if nt != 4 or not m.dealt[seat] or m.nev >= m.cap:
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
        if not m.dealt[seat] or m.nev >= m.cap:
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
                m.end = END_HU
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


cdef void new_match(LMatch* m) noexcept nogil:
    cdef LEv* ev = m.ev
    cdef int cap = m.cap
    memset(m, 0, sizeof(LMatch))
    m.ev = ev
    m.cap = cap
    m.quan = -1
    m.fan0 = -1


cdef void lr_open(LReader* r, const uint8_t* d, Py_ssize_t n, int first_line, Py_ssize_t max_line) noexcept nogil:
    memset(r, 0, sizeof(LReader))
    r.d = d
    r.n = n
    r.max_line = max_line
    r.lineno = first_line - 1
    r.next_b0 = -1


cdef inline void _lr_begin(LReader* r, LMatch* m) noexcept nogil:
    """The match of the Match line r holds begins in m."""
    r.active = 1
    new_match(m)
    m.b0 = r.next_b0
    m.line = r.next_line
    if r.next_bad:
        m.bad = 1
    else:
        m.id0 = r.next_id0
        m.id1 = r.next_id1
    r.next_b0 = -1


cdef int lr_next(LReader* r, LMatch* m, Py_ssize_t* stop) noexcept nogil:
    # the hot state in locals (stored back on return), as in one loop over the chunk
    cdef const uint8_t* d = r.d
    cdef Py_ssize_t n = r.n, max_line = r.max_line, pos = r.pos, le, q
    cdef Py_ssize_t ts[LR_MAXTOK + 1]
    cdef Py_ssize_t te[LR_MAXTOK + 1]
    cdef int nt, lineno = r.lineno, found
    cdef bint weird
    cdef uint8_t c, cls
    cdef const uint8_t* nl
    if r.next_b0 >= 0:
        _lr_begin(r, m)
    while not r.eof:
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
        found = LR_END
        if nt and te[0] - ts[0] == 5 and _lr_is(d + ts[0], 5, b"Match"):
            # the match before it (or the text before the first) is complete
            if r.active:
                found = LR_MATCH
            elif r.pre_text:
                found = LR_TEXT
            stop[0] = pos
            r.active = 0
            r.pre_text = 0
            r.next_b0 = pos
            r.next_line = lineno
            r.next_bad = nt != 2 or weird or le - pos > max_line
            if not r.next_bad:
                r.next_id0 = ts[1]
                r.next_id1 = te[1]
        elif le - pos > max_line:
            # even a blank one: the Python reader refuses it
            if not r.active:
                r.pre_text = True
            else:
                m.bad = 1
        elif nt:
            if not r.active:
                r.pre_text = True
            elif not m.bad:
                _lr_line(m, d, ts, te, nt, weird, pos, le, lineno)
        if le >= n:
            r.eof = True
        else:
            pos = le + 1
        if found != LR_END:
            r.pos = pos
            r.lineno = lineno
            return found
        if r.next_b0 >= 0:
            _lr_begin(r, m)
    r.pos = pos
    r.lineno = lineno
    if r.active:
        r.active = 0
        stop[0] = n
        return LR_MATCH
    if r.pre_text:
        r.pre_text = 0
        stop[0] = n
        return LR_TEXT
    return LR_END
