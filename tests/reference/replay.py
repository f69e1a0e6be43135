"""The replay of a read match as mjfast.logs did it before the compiled driver
(src/_replay.pyx): every recorded action through :class:`mjfast.game.GameState`
from Python, each problem named as a :class:`mjfast.logs.MatchError`.  Kept
as the oracle of tests/test_logs_replay_diff.py: the compiled driver must give
the same Replayed, and the same MatchError (match, pos, reason, where), for
every match."""
from mjfast.game import GameState, IllegalAction, code_of
from mjfast.logs.model import Match
from mjfast.logs.replay import MatchError, Replayed, Win

def _engine():
    return GameState, IllegalAction


def _word(kind):
    return {"CHI": "Chi", "PENG": "Peng", "GANG": "Gang", "HU": "Hu", "ANGANG": "AnGang",
            "BUGANG": "BuGang", "DRAW": "Draw", "PLAY": "Play", "BUHUA": "BuHua"}[kind]


_ALL_PASS = ("PASS", "PASS", "PASS", "PASS")
_TURN_WORD = {"PLAY": "PLAY ", "ANGANG": "GANG ", "BUGANG": "BUGANG "}


def _walls_for(m: Match):
    """The walls of a match JSON if they agree with the recorded deal, else None
    (the draws are then taken from the log and only counted)."""
    if m.walls is None:
        return None
    for order in (lambda w: w, lambda w: w[::-1]):
        walls = [order(w) for w in m.walls]
        if all(sorted(walls[s][:13]) == sorted(m.deals[s]) for s in range(4)):
            return walls
    return None


def _fill_claim(st, c, live_tile):
    """A response string for a losing text ``Ignore`` claim (the log gives its
    kind and tile but not the tile its claimer would have discarded): the first
    legal response of that kind; None if there is none."""
    if c.kind in ("HU", "GANG"):
        if c.kind == "GANG" and c.tile is not None and c.tile != live_tile:
            return None
        return c.kind
    if c.kind == "PENG" and c.tile is not None and c.tile != live_tile:
        return None
    prefix = c.kind + " " + (c.tile + " " if c.kind == "CHI" and c.tile else "")
    for r in st.legal_actions(c.seat):
        if r.startswith(prefix):
            return r
    return None


def replay(m: Match) -> Replayed:
    """Replay one match; raises :class:`MatchError` if it is malformed or illegal."""
    mid, path = m.id, m.path
    where = "log" if m.fmt == "json" else "line"

    def fail(pos, reason):
        raise MatchError(mid, pos, reason, path, where)

    if m.problem is not None:
        fail(*m.problem)
    if m.quan is None:
        fail(m.pos, "no prevalent wind (Wind line / quan)")
    for s in range(4):
        if m.deals[s] is None:
            fail(m.pos, f"player {s} is never dealt")
    if any(m.flowers):
        fail(m.pos, "flowers are dealt: table play with flowers is not replayed (the platform's format has none)")
    GameState, IllegalAction = _engine()
    walls = _walls_for(m)
    try:
        st = GameState(quan=m.quan, walls=walls, deals=None if walls is not None else m.deals)
    except IllegalAction as exc:
        fail(m.pos, f"impossible deal: {exc.reason}")
    except ValueError as exc:
        fail(m.pos, f"impossible deal: {exc}")

    live = None          # the tile that can be claimed now (discard or added kong)
    last_draw = None
    ev = None
    try:
        draw, turn, claim = st.draw, st.turn, st.claim
        for ev in m.events:
            pos, seat, k, tile, _d, _dp, _ig = ev
            if k == "DRAW":
                if st.phase != "draw":
                    if st.phase == "claim" or st.phase == "rob":
                        claim(_ALL_PASS)
                    if st.phase != "draw":
                        fail(pos, f"player {seat} draws, but no one is to draw now ({st.phase})")
                if st.current != seat:
                    fail(pos, f"player {seat} draws, but it is player {st.current}'s turn")
                if draw(tile) is None:
                    fail(pos, f"player {seat} draws from an empty wall")
                last_draw = tile
                continue
            if k == "PLAY" or k == "ANGANG" or k == "BUGANG":
                if st.phase != "turn" or st.current != seat:
                    fail(pos, f"player {seat} {_word(k)}s out of turn"
                              + (f" (player {st.current} holds 14 tiles)" if st.phase == "turn" else f" ({st.phase})"))
                turn(_TURN_WORD[k] + tile)
                if k != "ANGANG":
                    live = tile
                continue
            if k == "HU" and st.phase == "turn":
                if st.current != seat:
                    fail(ev.pos, f"player {seat} declares Hu on player {st.current}'s turn")
                if ev.tile is not None and ev.tile != last_draw:
                    fail(ev.pos, f"self-drawn Hu on {ev.tile}, but the tile drawn was {last_draw}")
                st.turn("HU")
                continue
            if k in ("CHI", "PENG", "GANG", "HU"):
                if st.phase not in ("claim", "rob"):
                    fail(ev.pos, f"player {seat} claims ({_word(k)}) but there is nothing to claim ({st.phase})")
                if k != "HU" and st.phase == "rob":
                    fail(ev.pos, f"player {seat} claims an added kong with {_word(k)} (only Hu may rob a kong)")
                if k == "CHI":
                    resp = f"CHI {ev.tile} {ev.discard}"
                elif k == "PENG":
                    if ev.tile is not None and ev.tile != live:
                        fail(ev.pos, f"Peng {ev.tile}, but the tile on offer is {live}")
                    resp = f"PENG {ev.discard}"
                elif k == "GANG":
                    if ev.tile is not None and ev.tile != live:
                        fail(ev.pos, f"Gang {ev.tile}, but the tile on offer is {live}")
                    resp = "GANG"
                else:
                    if ev.tile is not None and ev.tile != live:
                        fail(ev.pos, f"Hu on {ev.tile}, but the tile on offer is {live}")
                    resp = "HU"
                responses = {seat: resp}
                for c in ev.ignored:
                    if c.seat in responses or c.seat == st.current:
                        fail(ev.pos, f"Ignore clause for player {c.seat}, who cannot claim here")
                    r = c.response if c.response is not None else _fill_claim(st, c, live)
                    if r is None:
                        fail(ev.pos, f"the losing claim of player {c.seat} ({_word(c.kind)}"
                                     f"{' ' + c.tile if c.tile else ''}) is not legal")
                    responses[c.seat] = r
                got = st.claim(responses)
                if got is None or got[0] != seat:
                    who = "nobody" if got is None else f"player {got[0]} ({got[1]})"
                    fail(ev.pos, f"the log gives the claim to player {seat}, the rules to {who}")
                if k in ("CHI", "PENG"):
                    live = ev.discard
                continue
            if k == "BUHUA":
                fail(ev.pos, "BuHua: flowers are not part of the platform's format")
            fail(ev.pos, f"unknown event {k}")  # pragma: no cover
    except IllegalAction as exc:
        what = f"{_word(ev.kind)}{' ' + ev.tile if ev.tile else ''}"
        if ev.kind in ("CHI", "PENG") and ev.discard:
            what += f" then Play {ev.discard}"
        pos = ev.pos
        if ev is m.events[-1] and (
                (m.end == "error" and getattr(exc, "seat", ev.seat) == m.error_seat)
                or (m.recorded_scores is not None and m.recorded_scores == _error_scores(ev.seat))):
            # the judge ended the game on this very action (a false Hu, an illegal
            # response): that is the error rule, and the log says so
            seat = m.error_seat if m.end == "error" else ev.seat
            return _settled(m, Replayed(m, "error", [], _error_scores(seat), seat))
        culprit = getattr(exc, "seat", ev.seat)
        if culprit != ev.seat and ev.kind in ("CHI", "PENG", "GANG", "HU"):
            fail(pos, f"the losing claim of player {culprit} against {what} by player {ev.seat} "
                      f"is not legal: {exc.reason}")
        fail(pos, f"illegal {what} by player {ev.seat}: {exc.reason}")

    last_pos = m.events[-1].pos if m.events else m.pos
    if m.end == "hu":
        if st.phase != "over" or st.win is None:
            fail(m.end_pos, "the Hu did not end the game")  # pragma: no cover - engine guarantees it
        w = st.win
        return Replayed(m, "hu", [_win(m, st, w)], None, None)
    if m.end == "huang":
        if st.phase in ("claim", "rob"):
            st.claim({})
        if st.phase == "draw":
            left = st.wall_left(st.current)
            if left > 0:
                fail(m.end_pos, f"Huang, but player {st.current} still has {left} tile(s) to draw")
            try:
                st.draw()
            except IllegalAction as exc:
                fail(m.end_pos, f"Huang refused by the engine: {exc.reason}")
        if st.phase != "over":
            fail(m.end_pos, f"Huang while the game goes on ({st.phase}, player {st.current})")
        return _settled(m, Replayed(m, "huang", [], [0, 0, 0, 0], None))
    if m.end == "error":
        seat = m.error_seat
        r = m.error_response
        if r and m.error_code in ("WA", "WH"):
            # the judge refused this response: the engine must refuse it too
            accepted = False
            try:
                if st.phase == "turn" and st.current == seat:
                    st.turn(r)
                    accepted = True
                elif st.phase in ("claim", "rob") and seat != st.current:
                    st.claim({seat: r})
                    accepted = True
            except IllegalAction:
                accepted = False
            if accepted:
                fail(m.end_pos, f"the judge ended the game by the error rule on player {seat}'s "
                                f"{r!r}, which the engine accepts")
        return _settled(m, Replayed(m, "error", [], _error_scores(seat), seat))
    fail(last_pos, "the match ends without Hu, Huang or an error ending (truncated)")


def _settled(m, r):
    """A Huang or error ending has no row to carry a disagreeing Score: a recorded
    Score that is not its settlement makes the match inconsistent (reported)."""
    if m.recorded_scores is not None and list(m.recorded_scores) != r.scores:
        what = "a Huang" if r.outcome == "huang" else f"an error-rule ending on player {r.error_seat}"
        raise MatchError(m.id, m.end_pos, f"the recorded Score {' '.join(map(str, m.recorded_scores))} is not "
                                          f"the settlement of {what} ({' '.join(map(str, r.scores))})",
                         m.path, "log" if m.fmt == "json" else "line")
    return r


def _error_scores(seat):
    return [-30 if s == seat else 10 for s in range(4)]


def _win(m, st, w):
    melds = tuple(g.to_meld(w.winner).notation() for g in st.melds[w.winner])
    return Win(m.id, m.path, m.end_pos, w.winner, w.from_seat, code_of(w.tile), w.hand, melds,
               bool(w.self_drawn), bool(w.fourth_tile), bool(w.last_tile), bool(w.kong),
               w.seat_wind, w.round_wind, m.recorded_total, m.recorded_fans, m.recorded_scores)


def outcomes(matches):
    """Per match, in order: ``(MatchError, None, None)`` for one that cannot be
    replayed, else ``(outcome, wins, None)`` (the shape of the readers' outcomes)."""
    for m in matches:
        try:
            r = replay(m)
        except MatchError as exc:
            yield exc, None, None
            continue
        except Exception as exc:  # noqa: BLE001 - one match's surprise must not end a bulk run
            yield MatchError(m.id, m.pos, f"internal error (please report it): {type(exc).__name__}: {exc}",
                             m.path, "log" if m.fmt == "json" else "line"), None, None
            continue
        yield r.outcome, r.wins, None
