# cython: language_level=3, auto_pickle=False
"""The replay driver: one match, given as events, stepped on the game engine
(mjfast._engine.Engine), the one place where a recorded match meets the rules.

Every way into a replay ends here: the text archive's compiled reader
(replay_text: its tokenizer below fills the events straight from the bytes),
and any read :class:`mjfast.logs.model.Match` -- the JSON reader's, the
Python text reader's, a user's -- through replay_match, which
mjfast.logs.replay calls.  The driver only translates the recorded events
into the engine's answers and compares what the engine decides with what the
log says (who won a contested claim, where the game ended); the rules are the
engine's.  A match it refuses comes back as a code (F_* below) with the event
and the details, and the engine's own refusal (err_*) when the engine refused
an answer; one table in mjfast/logs/replay.py words them into the
MatchError reasons.

The walls: a match JSON's when they agree with the deal (each draw is then
checked against them), else unknown (the engine's deals mode: each draw
names its tile), as the platform's text archive never records them.
"""
from libc.string cimport memset, memchr
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint8_t, int8_t
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from mjfast._machine cimport *
from mjfast._engine cimport Engine
from mjfast._args import int_arg

import numpy as np
cimport numpy as cnp

cnp.import_array()

_C_INT = (1 << 31) - 1

cdef enum:
    LR_MAXTOK = 40          # words of a line (a Deal line has 16; more: the Python reader reads the match)
    LR_MAXEV = 512          # events the text reader holds (a legal game has fewer than 350)
    LK_DRAW = 1
    LK_PLAY = 2
    LK_ANGANG = 3
    LK_BUGANG = 4
    LK_CHI = 5
    LK_PENG = 6
    LK_GANG = 7
    LK_HU = 8
    LK_BUHUA = 9
    LK_OTHER = 10           # an event of no known kind (a hand-built Match)
    END_HU = 1
    END_HUANG = 2
    END_ERROR = 3

# Why the driver refused a match (returned with the event's index and a, b):
# mjfast/logs/replay.py (_WORDS) words each.  F_ILLEGAL: the engine refused an
# answer (its err_* say why).
cdef enum:
    F_DEAL_FIFTH = 1        # a: tile (walls unknown: a fifth copy dealt)
    F_WALL_COUNT = 2        # a: tile, b: copies (the known walls)
    F_DRAW_NOW = 3          # a: phase
    F_DRAW_TURN = 4         # a: the current seat
    F_DRAW_EMPTY = 5
    F_OUT_OF_TURN = 6       # a: phase, b: the current seat
    F_HU_TURN = 7           # a: the current seat
    F_HU_TILE = 8           # a: the tile drawn last (-1: none)
    F_NOTHING = 9           # a: phase
    F_ROB = 10
    F_OFFER = 11            # a: the tile on offer (-1: none)
    F_IGNORE_SEAT = 12      # a: the Ignore clause's index
    F_LOSER = 13            # a: the Ignore clause's index
    F_CLAIM_TO = 14         # a: the seat the rules give it to (-1 nobody), b: its answer's Ignore index (-1: the claimer)
    F_ILLEGAL = 15          # the engine's err_*; a: the Ignore index of the refused seat (-1: the actor)
    F_BUHUA = 16
    F_UNKNOWN = 17
    F_HU_NOT_OVER = 18
    F_HUANG_LEFT = 19       # a: the current seat, b: tiles left
    F_HUANG_REFUSED = 20    # the engine's err_*
    F_HUANG_GOES_ON = 21    # a: phase, b: the current seat
    F_ERROR_ACCEPTED = 22   # a: seat
    F_TRUNCATED = 23
    F_DRAW_CODE = 24        # a Draw of a code that is no tile (a hand-built Match): ValueError, as GameState.draw
    NOT_A_TILE = -2         # a tile code that is no tile (a hand-built Match; a flower outside a Draw)

FAILURES = {name: value for name, value in (
    ("DEAL_FIFTH", F_DEAL_FIFTH), ("WALL_COUNT", F_WALL_COUNT), ("DRAW_NOW", F_DRAW_NOW),
    ("DRAW_TURN", F_DRAW_TURN), ("DRAW_EMPTY", F_DRAW_EMPTY), ("OUT_OF_TURN", F_OUT_OF_TURN),
    ("HU_TURN", F_HU_TURN), ("HU_TILE", F_HU_TILE), ("NOTHING", F_NOTHING), ("ROB", F_ROB),
    ("OFFER", F_OFFER), ("IGNORE_SEAT", F_IGNORE_SEAT), ("LOSER", F_LOSER), ("CLAIM_TO", F_CLAIM_TO),
    ("ILLEGAL", F_ILLEGAL), ("BUHUA", F_BUHUA), ("UNKNOWN", F_UNKNOWN), ("HU_NOT_OVER", F_HU_NOT_OVER),
    ("HUANG_LEFT", F_HUANG_LEFT), ("HUANG_REFUSED", F_HUANG_REFUSED), ("HUANG_GOES_ON", F_HUANG_GOES_ON),
    ("ERROR_ACCEPTED", F_ERROR_ACCEPTED), ("TRUNCATED", F_TRUNCATED), ("DRAW_CODE", F_DRAW_CODE))}

cdef struct LEv:
    int pos                 # line number / log index
    int8_t seat
    int8_t kind
    int8_t tile             # -1: not written (a Hu)
    int8_t disc             # Chi / Peng: the claimer's discard
    int8_t nign             # losing claims (Ignore clauses / a match JSON's responses), at most 4 kept
    int8_t ig_seat[4]
    int8_t ig_kind[4]       # 0: the answer is given (a match JSON's response) in ig_op/a/b
    int8_t ig_tile[4]
    int ig_op[4]
    int ig_a[4]
    int ig_b[4]

cdef struct LMatch:
    Py_ssize_t b0           # text: byte offset of the Match line
    int line                # text: its line number
    Py_ssize_t id0, id1     # text: the id's bytes
    int quan
    uint8_t deals[4][13]
    int dealt[4]
    bint known              # walls holds the match's walls
    uint8_t walls[4][34]
    int nev, cap
    int pending             # text: ev[nev] is a Chi / Peng waiting for its Play line
    int end                 # 0 still going, END_*
    int end_pos
    int error_seat          # END_ERROR: the offender
    bint check_error        # END_ERROR: the judge refused this answer (WA / WH), the engine must too
    int err_turn[3]         #   the answer as (op, a, b), read as an answer to a draw
    int err_claim[3]        #   and as an answer to a discard / an added kong
    Py_ssize_t fan0, fan1   # text: the Fan line (-1: none)
    int fan_line
    int has_score
    int score[4]
    int bad                 # text: anything unusual: the Python reader reads this match
    # the driver's answer
    int fail, fail_ev, fail_a, fail_b
    int out_seat            # END_ERROR: the seat the error rule settled
    int ans[3]              # F_CLAIM_TO: the answer the rules gave the claim to
    LEv* ev


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
            m.end = 3
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


cdef inline int _no(LMatch* m, int code, int i, int a, int b) noexcept:
    m.fail = code
    m.fail_ev = i
    m.fail_a = a
    m.fail_b = b
    return -1


cdef int _all_pass(Engine g) except -3:
    cdef int ops[4]
    cdef int aa[4]
    cdef int bb[4]
    memset(ops, 0, sizeof(ops))
    memset(aa, 0, sizeof(aa))
    memset(bb, 0, sizeof(bb))
    return g._claim(ops, aa, bb)


cdef int _filled(Engine g, int seat, int kind, int tile, int live, int* op, int* a, int* b) except -1:
    """The answer of a losing claim the log gives only by kind and tile (a
    text Ignore clause: the claimer's discard is not logged): the first legal
    answer of that kind (a Chi: with that middle tile); 0 if there is none."""
    cdef int n, i, o
    if kind == LK_HU:
        op[0] = OP_HU; a[0] = 0; b[0] = 0
        return 1
    if tile == NOT_A_TILE:
        return 0
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


cdef int _refused(Engine g, LMatch* m, int i, int who) except -2:
    """The engine refused event i's answer (of the actor, who -1, or of Ignore
    clause who).  On the last event that is the error ending the log records
    (the judge ended the game on this very answer: a false Hu, an illegal
    claim) if the log names the refused seat or its Score is that seat's
    error-rule settlement; else the match is refused."""
    cdef int s = m.ev[i].seat, k
    cdef bint same
    m.fail = F_ILLEGAL
    m.fail_ev = i
    m.fail_a = who
    if i != m.nev - 1:
        return -1
    if m.end == END_ERROR and g.err_seat == m.error_seat:
        g.fail(m.error_seat)
        m.out_seat = m.error_seat
        return END_ERROR
    if m.has_score:
        g.fail(s)                 # the engine settles the error rule
        same = True
        for k in range(4):
            same = same and g.sc[k] == m.score[k]
        if same:
            if m.end == END_ERROR:
                g.fail(m.error_seat)
                s = m.error_seat
            m.out_seat = s
            return END_ERROR
    return -1


cdef object _DEALS = np.empty((4, 13), dtype=np.uint8)
cdef uint8_t[:, ::1] _deals_v = _DEALS
cdef uint8_t[:, ::1] _walls_v = np.empty((4, 34), dtype=np.uint8)


cdef int _drive(Engine g, LMatch* m) except -2:
    """Replay m on g: END_HU, END_HUANG, END_ERROR (m.out_seat the offender),
    or -1 refused (m.fail, m.fail_ev, m.fail_a, m.fail_b; F_ILLEGAL: g.err_*).
    m holds a quan 0-3, four deals and tiles 0-33 (the callers check)."""
    cdef int s, i, t, k, seat, ph, r, got, left, live = -1, last_draw = -1
    cdef bint accepted
    cdef int cnt[34]
    cdef int ops[4]
    cdef int aa[4]
    cdef int bb[4]
    cdef int who[4]
    cdef LEv* e
    memset(cnt, 0, sizeof(cnt))
    if m.known:
        for s in range(4):
            for i in range(34):
                cnt[m.walls[s][i]] += 1
                _walls_v[s, i] = m.walls[s][i]
        for t in range(34):
            if cnt[t] != 4:
                return _no(m, F_WALL_COUNT, -1, t, cnt[t])
        g._reset(_walls_v, m.quan)
    else:
        for s in range(4):
            for i in range(13):
                t = m.deals[s][i]
                cnt[t] += 1
                if cnt[t] > 4:
                    return _no(m, F_DEAL_FIFTH, -1, t, 0)
                _deals_v[s, i] = t
        g.reset_deals(_DEALS, m.quan)
    for i in range(m.nev):
        e = &m.ev[i]
        seat = e.seat
        k = e.kind
        if k == LK_DRAW:
            ph = g.phase
            if ph != PH_DRAW:
                if ph == PH_CLAIM or ph == PH_ROB:
                    _all_pass(g)
                if g.phase != PH_DRAW:
                    return _no(m, F_DRAW_NOW, i, g.phase, 0)
            if g.current != seat:
                return _no(m, F_DRAW_TURN, i, g.current, 0)
            if e.tile == NOT_A_TILE:
                return _no(m, F_DRAW_CODE, i, 0, 0)
            t = g._draw_given(e.tile)
            if t == -1:
                return _no(m, F_DRAW_EMPTY, i, 0, 0)
            if t == -3:
                return _refused(g, m, i, -1)
            last_draw = t
        elif k == LK_PLAY or k == LK_ANGANG or k == LK_BUGANG:
            if g.phase != PH_TURN or g.current != seat:
                return _no(m, F_OUT_OF_TURN, i, g.phase, g.current)
            if g._turn(OP_BAD if e.tile == NOT_A_TILE else
                       (OP_PLAY if k == LK_PLAY else (OP_GANG if k == LK_ANGANG else OP_BUGANG)), e.tile) != 0:
                return _refused(g, m, i, -1)
            if k != LK_ANGANG:
                live = e.tile
        elif k == LK_HU and g.phase == PH_TURN:
            if g.current != seat:
                return _no(m, F_HU_TURN, i, g.current, 0)
            if e.tile != -1 and e.tile != last_draw:
                return _no(m, F_HU_TILE, i, last_draw, 0)
            if g._turn(OP_HU, 0) != 0:
                return _refused(g, m, i, -1)
        elif k == LK_CHI or k == LK_PENG or k == LK_GANG or k == LK_HU:
            ph = g.phase
            if ph != PH_CLAIM and ph != PH_ROB:
                return _no(m, F_NOTHING, i, ph, 0)
            if k != LK_HU and ph == PH_ROB:
                return _no(m, F_ROB, i, 0, 0)
            for s in range(4):
                ops[s] = OP_PASS; aa[s] = 0; bb[s] = 0; who[s] = -2
            if k == LK_CHI:
                ops[seat] = OP_CHI; aa[seat] = e.tile; bb[seat] = e.disc
                if e.tile == NOT_A_TILE or e.disc == NOT_A_TILE:
                    ops[seat] = OP_BAD
            else:
                if e.tile != -1 and e.tile != live:
                    return _no(m, F_OFFER, i, live, 0)
                if k == LK_PENG:
                    ops[seat] = OP_BAD if e.disc == NOT_A_TILE else OP_PENG; aa[seat] = e.disc
                elif k == LK_GANG:
                    ops[seat] = OP_GANG; aa[seat] = -1
                else:
                    ops[seat] = OP_HU
            who[seat] = -1
            for r in range(e.nign):
                s = e.ig_seat[r]
                if who[s] != -2 or s == g.current:
                    return _no(m, F_IGNORE_SEAT, i, r, 0)
                if e.ig_kind[r] == 0:
                    ops[s] = e.ig_op[r]; aa[s] = e.ig_a[r]; bb[s] = e.ig_b[r]
                elif not _filled(g, s, e.ig_kind[r], e.ig_tile[r], live, &ops[s], &aa[s], &bb[s]):
                    return _no(m, F_LOSER, i, r, 0)
                who[s] = r
            got = g._claim(ops, aa, bb)
            if got == -2:
                return _refused(g, m, i, who[g.err_seat])
            if got != seat:
                if got >= 0:
                    # the answer the rules chose, for the words (a filled Chi / Peng's tiles)
                    m.ans[0] = ops[got]; m.ans[1] = aa[got]; m.ans[2] = bb[got]
                return _no(m, F_CLAIM_TO, i, got, who[got] if got >= 0 else -2)
            if k == LK_CHI or k == LK_PENG:
                live = e.disc
        elif k == LK_BUHUA:
            return _no(m, F_BUHUA, i, 0, 0)
        else:
            return _no(m, F_UNKNOWN, i, 0, 0)
    if m.end == END_HU:
        if g.phase != PH_OVER or g.winner < 0:
            return _no(m, F_HU_NOT_OVER, -1, 0, 0)
        return END_HU
    if m.end == END_HUANG:
        if g.phase == PH_CLAIM or g.phase == PH_ROB:
            _all_pass(g)
        if g.phase == PH_DRAW:
            left = g._left(g.current)
            if left > 0:
                return _no(m, F_HUANG_LEFT, -1, g.current, left)
            if g._draw_given(-1) == -3:
                return _no(m, F_HUANG_REFUSED, -1, 0, 0)
        if g.phase != PH_OVER:
            return _no(m, F_HUANG_GOES_ON, -1, g.phase, g.current)
        return END_HUANG
    if m.end == END_ERROR:
        s = m.error_seat
        if m.check_error:
            # the judge refused this answer: the engine must refuse it too
            accepted = False
            if g.phase == PH_TURN and g.current == s:
                accepted = g._turn(m.err_turn[0], m.err_turn[1]) == 0
            elif (g.phase == PH_CLAIM or g.phase == PH_ROB) and s != g.current:
                for k in range(4):
                    ops[k] = OP_PASS; aa[k] = 0; bb[k] = 0
                ops[s] = m.err_claim[0]; aa[s] = m.err_claim[1]; bb[s] = m.err_claim[2]
                accepted = g._claim(ops, aa, bb) != -2
            if accepted:
                return _no(m, F_ERROR_ACCEPTED, -1, s, 0)
        g.fail(s)
        m.out_seat = s
        return END_ERROR
    return _no(m, F_TRUNCATED, -1, 0, 0)
cdef str _lr_hand(Engine g, list melds_out):
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




cdef Engine _engine_g = None


cdef Engine _game():
    global _engine_g
    if _engine_g is None:
        _engine_g = Engine()
    return _engine_g


cdef list _scores(Engine g):
    return [g.sc[0], g.sc[1], g.sc[2], g.sc[3]]


cdef object _text_result(Engine g, LMatch* m, int status, bytes data, Py_ssize_t b1, tuple keys):
    """The segment of a match the driver took (see replay_text), or None when
    the Python reader must read it after all (a refusal, to be worded; a
    recorded Score that is not the settlement)."""
    cdef int i, s
    if status < 0:
        return None
    if m.has_score and status != END_HU:
        for i in range(4):
            if m.score[i] != g.sc[i]:
                return None
    mid = data[m.id0:m.id1].decode("ascii")
    fan = None if m.fan0 < 0 else data[m.fan0:m.fan1]
    scores = [m.score[0], m.score[1], m.score[2], m.score[3]] if m.has_score else None
    if status == END_HUANG:
        return (1, m.b0, b1, m.line, mid, m.end_pos, fan, m.fan_line, scores)
    if status == END_ERROR:
        return (3, m.b0, b1, m.line, mid, m.end_pos, fan, m.fan_line, scores, m.out_seat)
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


cdef object _text_match(Engine g, LMatch* m, bytes data, Py_ssize_t b1, tuple keys):
    cdef int status
    if m.bad or m.pending or m.quan < 0 or m.end == 0 \
            or not (m.dealt[0] and m.dealt[1] and m.dealt[2] and m.dealt[3]):
        status = -1
    else:
        status = _drive(g, m)
    r = _text_result(g, m, status, data, b1, keys)
    return (0, m.b0, b1, m.line) if r is None else r


cdef void _new_match(LMatch* m) noexcept:
    cdef LEv* ev = m.ev
    cdef int cap = m.cap
    memset(m, 0, sizeof(LMatch))
    m.ev = ev
    m.cap = cap
    m.quan = -1
    m.fan0 = -1


def replay_text(bytes data not None, first_line_, tuple keys not None, Py_ssize_t max_line=65536):
    """Read and replay the matches of ``data`` (a chunk of a text archive that
    begins at a line start; ``first_line`` its first line's number).  A match
    with a line of more than ``max_line`` bytes is left to the Python reader
    (which bounds lines in characters).  Returns one tuple per segment, in
    order:

    * ``(0, start, stop, line)``: read bytes start:stop (first line ``line``)
      with the Python reader (mjfast.logs.text), whose Match replay_match
      replays: a match this tokenizer cannot be sure to read as that reader
      does (anything unusual), or one the driver refused (the reader's Match
      carries what the refusal's words need);
    * ``(1, start, stop, line, id, end_line, fan_bytes, fan_line, scores)``: a Huang;
    * ``(2, ...same..., winner, discarder, tile, hand, melds, self_drawn,
      fourth_tile, last_tile, kong, quan, total, fans)``: a Hu, scored by the
      fan kernel (``fans``: {keys[j]: count} by fan id j + 1);
    * ``(3, ...same as 1..., seat)``: an error-rule ending on ``seat``.
    """
    if len(keys) < 82:
        raise ValueError("keys: the 82 fan keys in fan id order")
    cdef int first_line = int_arg(first_line_, "first_line", -(_C_INT // 2), _C_INT // 2)
    cdef const uint8_t* d = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data), pos = 0, le, q
    cdef Py_ssize_t ts[LR_MAXTOK + 1]
    cdef Py_ssize_t te[LR_MAXTOK + 1]
    cdef int nt, lineno = first_line - 1, active = 0
    cdef bint weird, pre_text = False
    cdef uint8_t c, cls
    cdef const uint8_t* nl
    cdef Engine g = _game()
    cdef LMatch* m = <LMatch*>malloc(sizeof(LMatch))
    if m == NULL:
        raise MemoryError()
    m.ev = <LEv*>malloc(LR_MAXEV * sizeof(LEv))
    if m.ev == NULL:
        free(m)
        raise MemoryError()
    m.cap = LR_MAXEV
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
                    out.append(_text_match(g, m, data, pos, keys))
                elif pre_text:
                    out.append((0, 0, pos, first_line))
                active = 1
                _new_match(m)
                m.b0 = pos
                m.line = lineno
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
            out.append(_text_match(g, m, data, n, keys))
        elif pre_text:
            out.append((0, 0, n, first_line))
    finally:
        free(m.ev)
        free(m)
    return out


_KIND = {"DRAW": LK_DRAW, "PLAY": LK_PLAY, "ANGANG": LK_ANGANG, "BUGANG": LK_BUGANG, "CHI": LK_CHI,
         "PENG": LK_PENG, "GANG": LK_GANG, "HU": LK_HU, "BUHUA": LK_BUHUA}
_CLAIM_KIND = {"CHI": LK_CHI, "PENG": LK_PENG, "GANG": LK_GANG, "HU": LK_HU}
_END = {"hu": END_HU, "huang": END_HUANG, "error": END_ERROR}


def _in(x, lo, hi):
    return not isinstance(x, bool) and isinstance(x, (int, np.integer)) and lo <= x <= hi


cdef int _code(dict tile_index, code) except -3:
    """A tile code's index 0-33, or -1 (unknown code, a flower, anything else)."""
    t = tile_index.get(code) if isinstance(code, str) else None
    return t if _in(t, 0, 33) else -1


cdef int _ev_tile(dict tile_index, code, bint draw) except -4:
    """An event's tile: its index 0-33; a Draw's flower 34-41 (the engine
    refuses it); NOT_A_TILE for any other string (refused where GameState
    refuses it); -3 for what is no string."""
    if not isinstance(code, str):
        return -3
    t = tile_index.get(code)
    if _in(t, 0, 33):
        return t
    if draw and len(code) == 2 and code[0] == "H" and "1" <= code[1] <= "8":
        return 33 + int(code[1])
    return NOT_A_TILE


cdef int _answer(int* out, read_answer, r, bint to_draw) except -1:
    """A response string as the engine's (op, a, b), read as GameState reads it."""
    if r == "PASS" and not to_draw:
        out[0] = OP_PASS; out[1] = 0; out[2] = 0
        return 0
    a = read_answer(r, to_draw)[0]
    out[0] = a[0]; out[1] = a[1]; out[2] = a[2]
    return 0


def replay_match(m, walls, dict tile_index, read_answer):
    """Replay a read :class:`mjfast.logs.model.Match` (a quan, four deals) on
    the engine.  ``walls``: its walls (4 lists of 34 codes) when known, else
    None; ``read_answer(response, to_draw)``: ((op, a, b), why) as
    mjfast.game.state.read_answer.  Returns

    * ``(1, scores)``: a Huang; ``(3, seat, scores)``: an error-rule ending;
    * ``(2, winner, discarder, tile, hand, melds, self_drawn, fourth_tile,
      last_tile, kong)``: a Hu;
    * ``(-1, code, event, a, b, answer, refusal)``: refused: F_* ``code`` (FAILURES)
      at ``m.events[event]`` (-1: none), its details, the answer the rules
      gave a claim to (F_CLAIM_TO) and the engine's refusal (F_ILLEGAL, F_HUANG_REFUSED);
    * None: the match holds what no reader writes (a tile code that is not a
      tile, a seat outside 0-3, deals not of 13 tiles): the caller says so.
    """
    cdef LMatch* lm
    cdef LEv* e
    cdef int s, i, j, k, t, status, nev
    cdef int ans[3]
    cdef Engine g
    if not _in(m.quan, 0, 3):
        return None
    events = m.events
    nev = len(events)
    lm = <LMatch*>malloc(sizeof(LMatch))
    if lm == NULL:
        raise MemoryError()
    lm.ev = <LEv*>malloc((nev if nev else 1) * sizeof(LEv))
    if lm.ev == NULL:
        free(lm)
        raise MemoryError()
    lm.cap = nev
    try:
        _new_match(lm)
        lm.quan = m.quan
        lm.end = _END.get(m.end, 0)
        for s in range(4):
            dl = m.deals[s]
            if len(dl) != 13:
                return None
            for i in range(13):
                t = _code(tile_index, dl[i])
                if t < 0:
                    return None
                lm.deals[s][i] = t
            lm.dealt[s] = 1
        if walls is not None:
            if len(walls) != 4:
                return None
            for s in range(4):
                w = walls[s]
                if len(w) != 34:
                    return None
                for i in range(34):
                    t = _code(tile_index, w[i])
                    if t < 0:
                        return None
                    lm.walls[s][i] = t
            lm.known = True
        for i in range(nev):
            ev = events[i]
            e = &lm.ev[i]
            k = _KIND.get(ev[2], LK_OTHER)
            if not (_in(ev[0], -_C_INT, _C_INT) and _in(ev[1], 0, 3)):
                return None
            e.pos = ev[0]
            e.seat = ev[1]
            e.kind = k
            e.tile = e.disc = -1
            e.nign = 0
            if k == LK_BUHUA or k == LK_OTHER:
                continue
            if ev[3] is not None:
                e.tile = _ev_tile(tile_index, ev[3], k == LK_DRAW)
                if e.tile == -3:
                    return None
            elif k != LK_HU and k != LK_GANG and k != LK_PENG:
                return None
            if k == LK_CHI or k == LK_PENG:
                e.disc = _ev_tile(tile_index, ev[4], False)
                if e.disc == -3:
                    return None
            ign = ev[6]
            # a fifth clause is never read: the fourth already names a seat that cannot claim
            e.nign = min(len(ign), 4)
            for j in range(e.nign):
                c = ign[j]
                if not _in(c[0], 0, 3):
                    return None
                e.ig_seat[j] = c[0]
                if c[3] is not None:
                    e.ig_kind[j] = 0
                    e.ig_tile[j] = -1
                    _answer(ans, read_answer, c[3], False)
                    e.ig_op[j] = ans[0]; e.ig_a[j] = ans[1]; e.ig_b[j] = ans[2]
                    continue
                e.ig_kind[j] = _CLAIM_KIND.get(c[1], 0)
                if e.ig_kind[j] == 0:
                    return None
                e.ig_tile[j] = -1
                if c[2] is not None:
                    e.ig_tile[j] = _ev_tile(tile_index, c[2], False)
                    if e.ig_tile[j] == -3:
                        return None
        lm.nev = nev
        if lm.end == END_ERROR:
            if not _in(m.error_seat, 0, 3):
                return None
            lm.error_seat = m.error_seat
            r = m.error_response
            if r and m.error_code in ("WA", "WH"):
                lm.check_error = True
                _answer(lm.err_turn, read_answer, r, True)
                _answer(lm.err_claim, read_answer, r, False)
        sc = m.recorded_scores
        if sc is not None and len(sc) == 4 and all(_in(x, -_C_INT, _C_INT) for x in sc):
            lm.has_score = 1
            for s in range(4):
                lm.score[s] = sc[s]
        g = _game()
        status = _drive(g, lm)
        if status == END_HUANG:
            return (1, _scores(g))
        if status == END_ERROR:
            return (3, lm.out_seat, _scores(g))
        if status == END_HU:
            melds = []
            hand = _lr_hand(g, melds)
            return (2, g.winner, None if g.w_self else g.from_seat, g.last_tile, hand, tuple(melds),
                    bool(g.w_self), bool(g.w_fourth), bool(g.w_last), bool(g.w_kong))
        return (-1, lm.fail, lm.fail_ev, lm.fail_a, lm.fail_b, (lm.ans[0], lm.ans[1], lm.ans[2]),
                (g.err_seat, g.err_code, g.err_reason, g.err_a, g.err_b, g.err_c))
    finally:
        free(lm.ev)
        free(lm)
