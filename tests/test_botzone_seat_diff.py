"""BotState (the engine's seat view, mjfast._seat) against the Python seat
view it replaced (tests/reference/bot_state.py), request by request.

Seeded games of the compiled engine (GameState) -- the duplicate format with
known walls, with unknown walls (each draw given) and table play with
flowers -- are played by seeded random players that claim and kong often;
each seat's requests are fed to both views.  After every request both must
show the same state (seat, phase, current seat, last tile, hand, melds,
rivers, flowers, walls, shown tiles, unseen tiles, repr), the same legal
actions, Hu total and win context.  Corrupted requests (words replaced,
requests repeated, made-up events) must be refused by both with the same
ProtocolError message, or accepted by both; the views are compared after
them too.

Table play is fed for its flowers: neither view models the shared wall
(a seat's view counts 21 draws per seat), so a long table game is refused
alike by both ("wall is already empty") and its stream ends there.  The
one refusal only the engine makes is a hidden seat's claim or kong beyond
its concealed tiles (a fifth meld: the old view took it); it is asked
directly below and ends a corrupted stream where it occurs.
"""
import random

import pytest

from mjfast.botzone import BotState, ProtocolError
from mjfast.game import GameState, drive, random_table_wall, random_walls
from mjfast.game.players import RandomPlayer
from mjfast.game.state import CODES
from reference.bot_state import BotState as RefBotState

_OPS = ["DRAW", "PLAY", "PENG", "CHI", "GANG", "BUGANG", "BUHUA", "HU", "FOO"]
_WORDS = list(CODES) + ["X9", "0", "1", "2", "3", "5", "PLAY", "GANG", "CHI", "DRAW", "BUHUA", "-1"]

#: the seat view's refusals (message fragments) the corrupted runs must meet
KINDS = ["not seat", "wall is already empty", "a fifth", "all four are already in sight", "the hand holds",
         "has no turn to discard", "has no turn to add a kong", "no discard of another seat to claim",
         "is not the middle of a chow", "has no melded pung", "is already shown", "which concealed kong",
         "unknown or malformed request", "unknown tile code", "a flower is not", "before the deal"]


class _Deals(GameState):
    """A game with unknown walls (``deals=``): each draw names its tile, the next of the seat's hidden wall."""

    def __init__(self, quan, walls):
        super().__init__(quan, deals=[w[:13] for w in walls])
        self._rest = [w[13:] for w in walls]

    def draw(self, tile=None):
        left = self.wall_left(self.current)
        return super().draw(self._rest[self.current][21 - left] if left else None)    # (an empty wall: Huang)


def _request(st, kind, seat):
    if kind == "INIT":
        return st.init_request(seat)
    if kind == "DEAL":
        return st.deal_request(seat)
    return st.request(seat)


def game_streams(seed, mode):
    """One seeded game of the engine; per seat its (requests, responses)."""
    quan = seed % 4
    if mode == "walls":
        st = GameState(quan, walls=random_walls(seed))
    elif mode == "deals":
        st = _Deals(quan, random_walls(seed))
    else:
        st = GameState(quan, wall=random_table_wall(seed, flowers=True))
    players = [RandomPlayer(seed * 4 + s, p_claim=0.6, p_kong=0.8) for s in range(4)]
    streams = [([], []) for _ in range(4)]

    def ask(st, kind):
        out = []
        for s in range(4):
            streams[s][0].append(_request(st, kind, s))
            legal = st.legal_actions(s)
            a = players[s].act(st, s) if len(legal) > 1 else (legal[0] if legal else "PASS")
            if a not in legal:
                a = "PASS" if "PASS" in legal else legal[0]
            streams[s][1].append(a)
            out.append(a)
        return out

    drive(st, ask)
    return st, streams


def view(st):
    """Everything a BotState shows, for comparison."""
    hand = st.hand
    return (st.seat, st.quan, st.phase, st.current, st.last_tile, st.after_kong, st.turn, st.request,
            st.responses, st.table, None if hand is None else list(hand), st.hands,
            [[(m.kind, m.tile, m.from_seat, m.claimed, m.added) for m in ms] for ms in st.melds],
            [list(d) for d in st.discards], [list(f) for f in st.flowers], list(st.walls),
            [st.wall_left(s) for s in range(4)], list(st.shown), repr(st),
            None if hand is None else (st.unseen(), st.hand_notation()),
            st.legal_actions(), st.hu_total(), st.win_context())


def outcome(st, req, resp):
    try:
        st.update(req, resp)
    except ProtocolError as exc:
        return ("refused", str(exc))
    return ("ok",)


def corrupt(rng, reqs, i, seat):
    """A request that may contradict the view: a word replaced, one added or
    dropped, an earlier request repeated, or a made-up event."""
    k = rng.randrange(7)
    r = reqs[i].split()
    if k == 0 and r:
        r[rng.randrange(len(r))] = rng.choice(_WORDS)
    elif k == 1:
        r.insert(rng.randrange(len(r) + 1), rng.choice(_WORDS))
    elif k == 2 and r:
        del r[rng.randrange(len(r))]
    elif k == 3:
        return reqs[rng.randrange(i + 1)]
    elif k == 4:
        return f"2 {rng.choice(CODES[:34])}"
    else:
        p = rng.randrange(4) if rng.random() < 0.7 else seat
        op = rng.choice(_OPS)
        n = {"DRAW": 0, "GANG": 0, "CHI": 2, "HU": 0}.get(op, 1)
        pool = CODES[34:] if op == "BUHUA" else CODES[:34]
        return " ".join(["3", str(p), op] + [rng.choice(pool) for _ in range(n)])
    return " ".join(r)


def _fifth_meld(a, b):
    # a hidden seat's claim or kong beyond its concealed tiles (after made-up claims of it were taken): only the
    # engine refuses it (see the module docstring); the stream ends there
    # (or refuses it first for another fault the old view found)
    return a != b and a[0] == "refused" and "concealed tiles" in a[1]


def feed(reqs, resps, rng, p_corrupt=0.0, met=None):
    """Feed one seat's stream to both views, comparing after every request.
    Returns how many requests were compared."""
    new, ref = BotState(), RefBotState()
    n = 0
    for i, (req, resp) in enumerate(zip(reqs, resps)):
        if p_corrupt and rng.random() < p_corrupt:
            bad = corrupt(rng, reqs, i, int(reqs[0].split()[1]))
            a, b = outcome(new, bad, None), outcome(ref, bad, None)
            if _fifth_meld(a, b):
                return n
            assert a == b, (bad, a, b, reqs[:i])
            if met is not None and a[0] == "refused":
                met.update(k for k in KINDS if k in a[1])
            assert view(new) == view(ref), (bad, reqs[:i])
            n += 1
        # the answer given with the request, or noted after it (as a bot does)
        given = rng.random() < 0.5
        a, b = outcome(new, req, resp if given else None), outcome(ref, req, resp if given else None)
        if _fifth_meld(a, b):
            return n
        assert a == b, (req, a, b, reqs[:i])
        if a[0] == "refused":
            if met is not None:
                met.update(k for k in KINDS if k in a[1])
            if not p_corrupt:
                return n            # (a long table game: neither view counts a shared wall)
        elif not given:
            new.note_response(resp)
            ref.note_response(resp)
        assert view(new) == view(ref), (req, reqs[:i + 1])
        n += 1
    return n


def run(seeds, modes=("walls", "deals", "table"), p_corrupt=0.0, met=None):
    total = 0
    for seed in seeds:
        for mode in modes:
            _, streams = game_streams(seed, mode)
            rng = random.Random(seed * 7 + len(mode))
            for reqs, resps in streams:
                total += feed(reqs, resps, rng, p_corrupt, met)
    return total


def test_views_agree_on_games():
    # every seat of 60 games in each mode
    assert run(range(60)) > 30_000


def test_views_agree_on_corrupted_requests():
    met = set()
    assert run(range(200, 260), p_corrupt=0.05, met=met) > 30_000
    assert met == set(KINDS), set(KINDS) - met


@pytest.mark.slow
def test_views_agree_on_thousands_of_games():
    met = set()
    run(range(1000, 3000))
    run(range(3000, 4000), p_corrupt=0.05, met=met)
    assert met == set(KINDS), set(KINDS) - met


def test_a_hidden_seats_fifth_meld_is_refused():
    # seat 1 (hidden from seat 0) konges four times after its own draws: 13 + 4 draws - 16 leaves one tile,
    # and a draw; a fifth kong would need four (the old view took it: five melds)
    reqs = ["0 0 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4", "2 T5", "3 0 PLAY T5"]
    for _ in range(4):
        reqs += ["3 1 DRAW", "3 1 GANG"]
    st = BotState.from_requests(reqs + ["3 1 DRAW"])
    assert [m.kind for m in st.melds[1]] == ["kong"] * 4 and all(m.tile is None for m in st.melds[1])
    assert st.walls == [20, 16, 21, 21] and st.phase == "turn" and st.last_tile is None
    before = view(st)
    with pytest.raises(ProtocolError, match="'3 1 GANG': seat 1 holds 2 concealed tiles, needs 4"):
        st.update("3 1 GANG")
    assert view(st) == before
    st.update("3 1 PLAY B1")        # its discard is a fact: seat 0 may pung nothing, chow nothing
    assert st.discards[1] == [9] and st.legal_actions() == ["PASS"]


def test_lists_held_across_updates_follow_the_state():
    # as the old view's lists did: a caller holding st.hand or st.melds[s] keeps seeing the state
    _, streams = game_streams(5, "walls")
    reqs, resps = streams[0]
    st = BotState()
    st.update(reqs[0])
    held = st.hand, st.melds, st.discards, st.walls, st.shown, st.flowers
    for q in reqs[1:]:
        st.update(q)
        assert held == (st.hand, st.melds, st.discards, st.walls, st.shown, st.flowers)
        assert held[0] is st.hand and held[1] is st.melds
    assert sum(map(len, st.discards)) > 10 and st.walls != [21] * 4


def test_seat_view_arguments_are_checked():
    from mjfast import _seat
    v = _seat.SeatView()
    F = _seat.FACTS
    with pytest.raises(ValueError, match="no seat yet"):
        v.fact(F["DRAW"], 0, 3)
    v.start(1, 0)
    deal = [0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 21]
    v.deal(deal, [[34], [], [], []])
    for bad in [(9, 0, 0), (F["PLAY"], 4, 0), (F["PLAY"], 0, 34), (F["PLAY"], 0, -1), (F["CHI"], 0, 1, -1),
                (F["BUHUA"], 0, 3), (F["DRAW"], 1, -1), (F["DRAW"], 1, 99)]:
        with pytest.raises((TypeError, ValueError)):
            v.fact(*bad)
    with pytest.raises(ValueError, match="twice"):
        v.deal(deal[:4] * 3 + [9], [[], [34], [], []])       # a flower shown already
    with pytest.raises(ValueError, match="fifth"):
        v.deal(deal, [[], [], [], []])                    # a second deal: fifth copies
    # a hidden seat's turn: nothing known to play or score; the viewer may only pass
    assert v.fact(F["DRAW"], 0) == 0 and v.hu_value(0) == -3 and v.legal(0) == []
    assert v.legal(1) == [(_seat_op("PASS"), 0, 0)]
    with pytest.raises(ValueError):
        v.set_left(0, 21)                                 # a wall never grows
    st = BotState.from_requests(["0 1 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4", "3 0 DRAW"])
    for bad in (22, -1, True, "3"):
        with pytest.raises(ValueError):
            st.walls[1] = bad
    assert st.walls == [20, 21, 21, 21]
    st.walls[1] = 0
    assert st.walls == [20, 0, 21, 21] and st.wall_left(1) == 0


def _seat_op(name):
    from mjfast import _engine
    return _engine.OPS[name]
