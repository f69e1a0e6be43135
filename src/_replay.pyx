# cython: language_level=3, auto_pickle=False
"""The replay driver: one match, given as events, stepped on the game engine
(mjfast._engine.Engine), the one place where a recorded match meets the rules.

Every way into a replay ends here: the text archive's compiled reader
(replay_text: the pull reader of mjfast._textlog fills the events straight
from the bytes, one match at a time, and each is replayed before the next is
read), and any read :class:`mjfast.logs.model.Match` -- the JSON reader's, the
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

The match record (LMatch, its events LEv, the event kinds LK_* and endings
END_*) is mjfast._textlog's (src/mjfast/_textlog.pxd): the reader fills it
from the text, replay_match from a read Match; the driver writes its answer
(fail ..., out_seat, ans) into it.  The rest here is the engine's side: the
refusal codes, the filled-in answers of losing claims, the winner's hand in
our notation.
"""
from libc.string cimport memset
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint8_t
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from mjfast._machine cimport *
from mjfast._engine cimport Engine
from mjfast._textlog cimport *
from mjfast._args import int_arg

import numpy as np
cimport numpy as cnp

cnp.import_array()

_C_INT = (1 << 31) - 1

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

cdef const char* _LR_SUITS = b"mps"
cdef const char* _LR_HONORS = b"ESWNCFP"


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
    cdef LReader r
    cdef Py_ssize_t stop
    cdef int found
    cdef Engine g = _game()
    cdef LMatch* m = <LMatch*>malloc(sizeof(LMatch))
    if m == NULL:
        raise MemoryError()
    m.ev = <LEv*>malloc(LR_MAXEV * sizeof(LEv))
    if m.ev == NULL:
        free(m)
        raise MemoryError()
    m.cap = LR_MAXEV
    lr_open(&r, <const uint8_t*>PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), first_line, max_line)
    out = []
    try:
        while True:
            found = lr_next(&r, m, &stop)
            if found == LR_MATCH:
                out.append(_text_match(g, m, data, stop, keys))
            elif found == LR_TEXT:
                out.append((0, 0, stop, first_line))
            else:
                break
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
        new_match(lm)
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
