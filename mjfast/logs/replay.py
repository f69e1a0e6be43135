"""Replaying a read match through the game engine.

Every match goes through the one replay driver, ``mjfast._replay`` (compiled,
src/_replay.pyx), which steps the game engine (``mjfast._engine``: the walls,
draws, claims and their priority, kongs, the context of a win, the
settlement, the error rule) through the recorded events and compares what the
engine decides with what the log says (who won a contested claim, where the
game ended, the Huang).  The text archive's compiled reader uses the same
driver (:mod:`mjfast.logs.fasttext`).

A refused match comes back from the driver as a code, the event and its
details; one table here (``_WORDS``) words it into the :class:`MatchError`:
the match id, the position (line number in a text archive, log index in a
match JSON) and the reason.
"""
from __future__ import annotations

from typing import List, NamedTuple, NoReturn, Optional

from .. import _replay
from .model import Match, TILE_CODES

__all__ = ["MatchError", "Win", "Replayed", "replay"]


class MatchError(ValueError):
    """A malformed or illegal match: ``match`` (id), ``path``, ``pos`` (line /
    log index) and ``reason``."""

    def __init__(self, match, pos, reason, path=None, where="line"):
        self.match = match
        self.path = path
        self.pos = pos
        self.reason = reason
        self.where = where          # "line" (text archive) or "log" (index in a match JSON)
        super().__init__(f"match {match}: {where} {pos}: {reason}")


class Win(NamedTuple):
    """One win with the context the judge would have scored it with."""
    match: object             # the match id
    path: object
    pos: int                  # line / log index of the Hu
    winner: int               # seat 0-3 (= seat wind)
    discarder: Optional[int]  # who paid as discarder (the kong's owner when robbing); None if self-drawn
    tile: str                 # the winning tile (Botzone code)
    hand: str                 # our notation (melds in brackets first, winning tile last)
    melds: tuple              # the winner's melds in our notation, in the order they were made
    self_drawn: bool
    fourth_tile: bool
    last_tile: bool
    kong: bool
    seat_wind: int
    round_wind: int
    recorded_total: Optional[int]
    recorded_fans: Optional[list]     # [(name as recorded, count)]
    recorded_scores: Optional[list]


class Replayed(NamedTuple):
    match: Match
    outcome: str                      # "hu" | "huang" | "error"
    wins: List[Win]
    scores: Optional[list]            # the engine's settlement (None for a win: computed from our total)
    error_seat: Optional[int]


_F = _replay.FAILURES
_game = None


def _game_state():
    """mjfast.game.state, imported on the first replay: the game package loads
    on first use, not with mjfast.logs (the command-line parser imports it)."""
    global _game
    if _game is None:
        from ..game import state as _game
    return _game
_IDX = {c: i for i, c in enumerate(TILE_CODES)}
_PHASES = ("draw", "turn", "claim", "rob", "over")
_WORD = {"CHI": "Chi", "PENG": "Peng", "GANG": "Gang", "HU": "Hu", "ANGANG": "AnGang",
         "BUGANG": "BuGang", "DRAW": "Draw", "PLAY": "Play", "BUHUA": "BuHua"}
_TURN_WORD = {"PLAY": "PLAY ", "ANGANG": "GANG ", "BUGANG": "BUGANG "}
_CLAIMS = ("CHI", "PENG", "GANG", "HU")


def _word(kind):
    return _WORD[kind]


def _code(t):
    return "None" if t < 0 else TILE_CODES[t]


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


def _what(ev):
    """An event as the reasons name it: ``Peng W1 then Play B2``."""
    what = f"{_word(ev.kind)}{' ' + ev.tile if ev.tile else ''}"
    if ev.kind in ("CHI", "PENG") and ev.discard:
        what += f" then Play {ev.discard}"
    return what


def _response(ev, who, answer=None):
    """The response string of the actor of ``ev`` (who -1) or of its Ignore
    clause ``who``, as the log gives it (a text Ignore clause names only the
    kind: its answer is the one the driver found, ``answer``)."""
    if who < 0:
        k = ev.kind
        if k in _TURN_WORD:
            return _TURN_WORD[k] + ev.tile
        if k == "CHI":
            return f"CHI {ev.tile} {ev.discard}"
        if k == "PENG":
            return f"PENG {ev.discard}"
        return k if k in ("GANG", "HU") else None
    c = ev.ignored[who]
    if c.response is not None:
        return c.response
    if c.kind in ("HU", "GANG") or answer is None:
        return c.kind
    op, a, b = answer
    return f"CHI {_code(a)} {_code(b)}" if c.kind == "CHI" else f"PENG {_code(a)}"


def _engine_reason(ev, who, refusal):
    seat, _code_, reason, a, b, c = refusal
    r = None if ev is None else _response(ev, who)
    gs = _game_state()
    why = None if r is None else gs.read_answer(r)[1]
    return gs.refusal_reason(seat, reason, a, b, c, r, why)


def _illegal(m, ev, who, refusal):
    what = _what(ev)
    culprit = refusal[0]
    reason = _engine_reason(ev, who, refusal)
    if culprit != ev.seat and ev.kind in _CLAIMS:
        return (f"the losing claim of player {culprit} against {what} by player {ev.seat} "
                f"is not legal: {reason}")
    return f"illegal {what} by player {ev.seat}: {reason}"


def _claim_to(m, ev, got, who, answer):
    if got < 0:
        return f"the log gives the claim to player {ev.seat}, the rules to nobody"
    return (f"the log gives the claim to player {ev.seat}, the rules to player {got} "
            f"({_response(ev, who, answer)})")


def _out_of_turn(ev, phase, cur):
    return (f"player {ev.seat} {_word(ev.kind)}s out of turn"
            + (f" (player {cur} holds 14 tiles)" if phase == 1 else f" ({_PHASES[phase]})"))


def _loser(ev, i):
    c = ev.ignored[i]
    return f"the losing claim of player {c.seat} ({_word(c.kind)}{' ' + c.tile if c.tile else ''}) is not legal"


# The driver's refusals (F_* of src/_replay.pyx), worded: code -> (match, event
# or None, a, b, the answer a claim went to, the engine's refusal) -> reason.
_WORDS = {
    _F["DEAL_FIFTH"]: lambda m, ev, a, b, ans, rf: f"impossible deal: deals: fifth copy of {TILE_CODES[a]}",
    _F["WALL_COUNT"]: lambda m, ev, a, b, ans, rf: (f"impossible deal: walls: {b} copies of {TILE_CODES[a]}, "
                                                    "the 136 tiles hold exactly 4"),
    _F["DRAW_NOW"]: lambda m, ev, a, b, ans, rf: f"player {ev.seat} draws, but no one is to draw now ({_PHASES[a]})",
    _F["DRAW_TURN"]: lambda m, ev, a, b, ans, rf: f"player {ev.seat} draws, but it is player {a}'s turn",
    _F["DRAW_EMPTY"]: lambda m, ev, a, b, ans, rf: f"player {ev.seat} draws from an empty wall",
    _F["OUT_OF_TURN"]: lambda m, ev, a, b, ans, rf: _out_of_turn(ev, a, b),
    _F["HU_TURN"]: lambda m, ev, a, b, ans, rf: f"player {ev.seat} declares Hu on player {a}'s turn",
    _F["HU_TILE"]: lambda m, ev, a, b, ans, rf: f"self-drawn Hu on {ev.tile}, but the tile drawn was {_code(a)}",
    _F["NOTHING"]: lambda m, ev, a, b, ans, rf: (f"player {ev.seat} claims ({_word(ev.kind)}) but there is "
                                                 f"nothing to claim ({_PHASES[a]})"),
    _F["ROB"]: lambda m, ev, a, b, ans, rf: (f"player {ev.seat} claims an added kong with {_word(ev.kind)} "
                                             "(only Hu may rob a kong)"),
    _F["OFFER"]: lambda m, ev, a, b, ans, rf: (f"{_word(ev.kind)}{' on' if ev.kind == 'HU' else ''} {ev.tile}, "
                                               f"but the tile on offer is {_code(a)}"),
    _F["IGNORE_SEAT"]: lambda m, ev, a, b, ans, rf: (f"Ignore clause for player {ev.ignored[a].seat}, "
                                                     "who cannot claim here"),
    _F["LOSER"]: lambda m, ev, a, b, ans, rf: _loser(ev, a),
    _F["CLAIM_TO"]: lambda m, ev, a, b, ans, rf: _claim_to(m, ev, a, b, ans),
    _F["ILLEGAL"]: lambda m, ev, a, b, ans, rf: _illegal(m, ev, a, rf),
    _F["BUHUA"]: lambda m, ev, a, b, ans, rf: "BuHua: flowers are not part of the platform's format",
    _F["UNKNOWN"]: lambda m, ev, a, b, ans, rf: f"unknown event {ev.kind}",
    _F["HU_NOT_OVER"]: lambda m, ev, a, b, ans, rf: "the Hu did not end the game",
    _F["HUANG_LEFT"]: lambda m, ev, a, b, ans, rf: f"Huang, but player {a} still has {b} tile(s) to draw",
    _F["HUANG_REFUSED"]: lambda m, ev, a, b, ans, rf: f"Huang refused by the engine: {_engine_reason(None, -1, rf)}",
    _F["HUANG_GOES_ON"]: lambda m, ev, a, b, ans, rf: f"Huang while the game goes on ({_PHASES[a]}, player {b})",
    _F["ERROR_ACCEPTED"]: lambda m, ev, a, b, ans, rf: (f"the judge ended the game by the error rule on player "
                                                        f"{a}'s {m.error_response!r}, which the engine accepts"),
    _F["TRUNCATED"]: lambda m, ev, a, b, ans, rf: "the match ends without Hu, Huang or an error ending (truncated)",
}
# where a refusal that names no event is reported
_AT_END = {_F["HU_NOT_OVER"], _F["HUANG_LEFT"], _F["HUANG_REFUSED"], _F["HUANG_GOES_ON"], _F["ERROR_ACCEPTED"]}


def _unreadable(m):
    """Why a match the driver cannot take (values no reader writes) is refused:
    the deal as GameState refuses it, else the first event that is not one."""
    gs = _game_state()
    try:
        gs.GameState(quan=m.quan, walls=_walls_for(m), deals=None if _walls_for(m) is not None else m.deals)
    except (gs.IllegalAction, ValueError, TypeError) as exc:
        return m.pos, f"impossible deal: {getattr(exc, 'reason', exc)}"
    for ev in m.events:
        return ev.pos, f"unreadable event {tuple(ev)!r} (a seat 0-3 and tile codes expected)"
    return m.pos, "unreadable match"  # pragma: no cover


def replay(m: Match, fast: bool = True) -> Replayed:
    """Replay one match; raises :class:`MatchError` if it is malformed or illegal.

    ``fast`` is kept for compatibility: there is one replay driver (compiled),
    whatever its value."""
    mid, path = m.id, m.path
    where = "log" if m.fmt == "json" else "line"

    def fail(pos, reason) -> NoReturn:
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
    r = _replay.replay_match(m, _walls_for(m), _IDX, (_game or _game_state()).read_answer)
    if r is None:
        fail(*_unreadable(m))
    status = r[0]
    if status == 2:
        winner, frm, tile, hand, melds, sd, ft, lt, kong = r[1:]
        return Replayed(m, "hu", [Win(mid, path, m.end_pos, winner, frm, TILE_CODES[tile], hand, melds, sd, ft, lt,
                                      kong, winner, m.quan, m.recorded_total, m.recorded_fans,
                                      m.recorded_scores)], None, None)
    if status == 1:
        return _settled(m, Replayed(m, "huang", [], r[1], None))
    if status == 3:
        return _settled(m, Replayed(m, "error", [], r[2], r[1]))
    _s, code, i, a, b, answer, refusal = r
    ev = m.events[i] if i >= 0 else None
    if code == _F["DRAW_CODE"]:
        assert ev is not None           # the driver names the Draw it could not read
        raise ValueError(f"unknown tile code {ev.tile!r}")      # as GameState.draw
    if ev is not None:
        pos = ev.pos
    elif code in _AT_END:
        pos = m.end_pos
    elif code == _F["TRUNCATED"]:
        pos = m.events[-1].pos if m.events else m.pos
    else:
        pos = m.pos
    fail(pos, _WORDS[code](m, ev, a, b, answer, refusal))


def _settled(m, r):
    """A Huang or error ending has no row to carry a disagreeing Score: a recorded
    Score that is not its settlement makes the match inconsistent (reported)."""
    if m.recorded_scores is not None and list(m.recorded_scores) != r.scores:
        what = "a Huang" if r.outcome == "huang" else f"an error-rule ending on player {r.error_seat}"
        raise MatchError(m.id, m.end_pos, f"the recorded Score {' '.join(map(str, m.recorded_scores))} is not "
                                          f"the settlement of {what} ({' '.join(map(str, r.scores))})",
                         m.path, "log" if m.fmt == "json" else "line")
    return r


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
