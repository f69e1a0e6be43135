"""BotState against the game engine: at every request of seeded games, each
seat's view built from its own requests and responses agrees with the
engine's full state (legal actions, the Hu total, hand, melds, rivers, walls,
shown tiles); replaying from the requests equals advancing one by one."""
import random
import re

import pytest

from mjfast.botzone import BotState, ProtocolError
from mjfast.game import GameState, drive, random_walls
from mjfast.game.players import RandomPlayer


def _request(st, kind, seat):
    if kind == "INIT":
        return st.init_request(seat)
    if kind == "DEAL":
        return st.deal_request(seat)
    return st.request(seat)


def _meld_view(m, owner, viewer):
    # a concealed kong of another seat is not shown: only its kind is known
    if m.from_seat is None and owner != viewer:
        return ("kong", None, None, None, False)
    return (m.kind, m.tile, m.from_seat, m.claimed, m.added)


def compare(bs: BotState, st: GameState, seat: int):
    assert sorted(bs.legal_actions()) == sorted(st.legal_actions(seat)), (bs.request, bs)
    v = st.hu_value(seat)
    assert bs.hu_total() == (v if v > 0 else None)
    if bs.turn >= 2:                    # the engine deals before the seat hears of it
        assert bs.hand == st.hands[seat]
    assert bs.discards == st.discards
    assert bs.walls == [st.wall_left(s) for s in range(4)]
    for s in range(4):
        assert [_meld_view(m, s, seat) for m in bs.melds[s]] == [_meld_view(m, s, seat) for m in st.melds[s]]
    assert bs.shown == st.shown
    if st.phase != "over":
        assert bs.win_context() == st.hu_context(seat)


def run_game(seed, check_replay_every=0, players=None):
    """One seeded game with random legal players; every seat's BotState is
    compared with the engine after each request.  Returns the game state, the
    four views and the number of comparisons."""
    rng = random.Random(seed)
    walls = random_walls(seed)
    st = GameState(rng.randrange(4), walls=walls)
    players = players or [RandomPlayer(seed * 4 + s, p_claim=0.6, p_kong=0.8) for s in range(4)]
    views = [BotState() for _ in range(4)]
    reqs = [[] for _ in range(4)]
    resps = [[] for _ in range(4)]
    n = [0]

    def ask(st, kind):
        out = []
        for s in range(4):
            r = _request(st, kind, s)
            views[s].update(r)
            reqs[s].append(r)
            compare(views[s], st, s)
            n[0] += 1
            legal = st.legal_actions(s)
            a = players[s].act(st, s) if len(legal) > 1 or kind not in ("INIT", "DEAL") else "PASS"
            if a not in legal:
                a = "PASS" if "PASS" in legal else legal[0]
            views[s].note_response(a)
            resps[s].append(a)
            out.append(a)
            if check_replay_every and rng.randrange(check_replay_every) == 0:
                # replay == incremental (responses given as the JSON interaction does)
                re = BotState.from_requests(reqs[s], resps[s][:-1])
                compare(re, st, s)
        return out

    drive(st, ask)
    assert st.error is None, st.error
    # a full replay at the end, with and without own responses
    for s in range(4):
        re = BotState.from_requests(reqs[s], resps[s])
        assert re.hand == views[s].hand and re.shown == views[s].shown and re.walls == views[s].walls
        assert sorted(re.legal_actions()) == sorted(views[s].legal_actions())
    return st, views, n[0]


def test_views_agree_with_engine_many_games():
    wins = kinds = 0
    seen_ops = set()
    for seed in range(80):
        st, views, n = run_game(seed, check_replay_every=25)
        wins += st.win is not None
        for ev in st.log:
            seen_ops.add(ev[0])
        kinds += n
    # the games exercised every kind of event a view must follow
    assert {"Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "Huang"} <= seen_ops, seen_ops
    assert wins > 20


@pytest.mark.slow
def test_views_agree_with_engine_thousands():
    seen = set()
    for seed in range(1000, 4000):
        st, _, _ = run_game(seed, check_replay_every=10)
        seen.update(ev[0] for ev in st.log)
        if st.win is not None:
            seen.add(("win", st.win.self_drawn, st.win.fourth_tile, st.win.last_tile, st.win.kong,
                      st.win.robbed_kong))
    # wins in every kind of context occurred: robbed kongs, out on a replacement, fourth tile, last tile
    assert any(isinstance(x, tuple) and x[5] for x in seen)
    assert any(isinstance(x, tuple) and x[4] and x[1] for x in seen)
    assert any(isinstance(x, tuple) and x[2] for x in seen)
    assert any(isinstance(x, tuple) and x[3] for x in seen)


def test_worked_requests():
    # seat 1, prevalent wind S; a deal, a draw, a discard, another seat's pung
    reqs = ["0 1 1", "1 0 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2",
            "3 0 DRAW", "3 0 PLAY B5", "2 J1", "3 1 PLAY J2", "3 3 PENG W9"]
    st = BotState.from_requests(reqs)
    assert st.seat == 1 and st.quan == 1
    assert st.walls == [20, 20, 21, 21]
    # B5 was discarded by seat 0 and passed: shown once; J2 pung by seat 3: three shown
    assert st.shown[13] == 1 and st.shown[32] == 3
    assert st.discards[1] == [] and st.discards[3] == [8]
    assert st.melds[3][0].kind == "pung" and st.melds[3][0].from_seat == 1
    assert st.phase == "claim" and st.current == 3 and st.last_tile == 8
    # seat 1 may not chow from seat 3 (not its previous seat); W9 pairs nothing
    assert st.legal_actions() == ["PASS"]
    st.update("3 0 DRAW")
    assert st.legal_actions() == ["PASS"] and st.walls[0] == 19
    st.update("3 0 PLAY W3")
    # seat 0 is seat 1's previous seat: it may chow W1 W2 W3 (no: W3 claimed needs W1 W2: held)
    acts = st.legal_actions()
    assert "CHI W2 T9" in acts and "PASS" in acts
    assert not any(a.startswith("PENG") for a in acts)


def test_concealed_kong_needs_the_answer_when_ambiguous():
    reqs = ["0 0 0", "1 0 0 0 0 W1 W1 W1 W1 W2 W2 W2 W2 B1 B2 B3 B4 B5", "2 B9", "3 0 GANG"]
    with pytest.raises(ProtocolError, match="which concealed kong"):
        BotState.from_requests(reqs)
    st = BotState.from_requests(reqs, ["PASS", "PASS", "GANG W2"])
    assert st.hand[1] == 0 and st.hand[0] == 4 and st.melds[0][0].tile == 1
    assert st.phase == "draw" and st.legal_actions() == ["PASS"]
    st.update("2 T5")     # the replacement; the other four of a kind may still be konged
    assert "GANG W1" in st.legal_actions()


@pytest.mark.parametrize("bad", ["", "9 1 2", "3 0 PLAY X9", "2 W1 W2", "3 5 DRAW", "1 0 0 0 0 W1"])
def test_bad_requests_raise(bad):
    st = BotState.from_requests(["0 0 0"])
    with pytest.raises(ProtocolError):
        st.update(bad)


def test_request_before_seat_and_wrong_type():
    with pytest.raises(ProtocolError):
        BotState().update("2 W1")
    with pytest.raises(TypeError):
        BotState().update(3)


def test_robbing_a_kong_worked_example():
    # seat 1 waits on B1/B4 with a pure straight; seat 0 pungs B4 from seat 2, later adds the fourth
    reqs = ["0 1 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B2 B3",
            "3 0 DRAW", "3 0 PLAY T1", "2 F1", "3 1 PLAY F1", "3 2 DRAW", "3 2 PLAY B4",
            "3 0 PENG T9", "2 F2", "3 1 PLAY F2", "3 2 DRAW", "3 2 PLAY F3", "3 3 DRAW", "3 3 PLAY F4",
            "3 0 DRAW", "3 0 BUGANG B4"]
    st = BotState.from_requests(reqs)
    assert st.phase == "rob" and st.current == 0 and st.last_tile == 12
    assert st.melds[0][0].kind == "kong" and st.melds[0][0].added
    assert st.shown[12] == 4
    assert sorted(st.legal_actions()) == ["HU", "PASS"]        # only Hu or pass on an added kong
    ctx = st.win_context()
    assert ctx["kong"] and not ctx["self_drawn"] and ctx["tile"] == 12
    # pure straight 16 + robbing the kong 8 + more: scored like mjfast.score with the same flags
    import mjfast
    expect = mjfast.score("123456789m1123p4p", kong=True, seat_wind="S", round_wind="E").total
    assert st.hu_total() == expect >= 24
    # the walls: seat 0 drew 2, seat 1 drew 2, seat 2 drew 2, seat 3 drew 1
    assert st.walls == [19, 19, 19, 20]
    # had seat 0 discarded B4 instead, the same hand wins on the discard: no kong flag, but the
    # fourth tile (seat 0's pung shows three B4)
    st2 = BotState.from_requests(reqs[:-1] + ["3 0 PLAY B4"])
    assert st2.win_context()["fourth_tile"] and not st2.win_context()["kong"]
    assert st2.hu_total() == mjfast.score("123456789m1123p4p", fourth_tile=True, seat_wind="S", round_wind="E").total


def test_one_set_of_rules_through_public_names():
    """The seat view's rules are the compiled engine's, as GameState's are
    (its seat view mjfast._seat.SeatView is an Engine; the Python seat rules
    are gone from the package); the seat view takes no private method of
    GameState."""
    import importlib.util
    from mjfast import _engine, _seat
    assert issubclass(_seat.SeatView, _engine.Engine) and BotState.__mro__ == (BotState, object)
    assert importlib.util.find_spec("mjfast.game.seat_rules") is None
    private = {id(v) for k, v in vars(GameState).items() if k.startswith("_") and not k.startswith("__")}
    assert not [k for k, v in vars(BotState).items() if id(v) in private]
    # the view answers for its own seat only
    st = BotState.from_requests(["0 1 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4", "3 0 DRAW"])
    assert st.legal_actions() == st.legal_actions(1) == ["PASS"]
    with pytest.raises(ValueError):
        st.legal_actions(2)


DEAL = "1 0 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2"
QUAD = "1 0 0 0 0 W1 W1 W1 W1 B5 B5 B7 T1 T1 T9 F1 F1 J1"
TRIPLE = "1 0 0 0 0 W1 W1 W1 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2"

#: (requests before, the bad request, what the message says): each was accepted, or failed with another
#: exception, before update checked it
HOSTILE = [
    ([], "0 23 0", "malformed seat request"),
    ([], "0 0 123", "malformed seat request"),
    ([], "0 01 0", "malformed seat request"),
    ([], "0 0 -1", "malformed seat request"),
    (["0 3 0", DEAL], "3 23 DRAW", "malformed request"),
    (["0 3 0", DEAL], "3 -1 DRAW", "malformed request"),
    (["0 3 0", DEAL], "3 012 DRAW", "malformed request"),
    (["0 1 0", DEAL], "3 1 DRAW", "this seat's draws come as '2 tile'"),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY B5"], "2 H1", "a flower is not drawn"),
    (["0 0 0", DEAL], "2 H8", "a flower is not drawn"),
    (["0 1 0"], "2 W1", "before the deal"),
    (["0 1 0"], "3 0 DRAW", "before the deal"),
    (["0 1 0"], "3 0 PLAY W1", "before the deal"),
    (["0 1 0", DEAL, "3 0 DRAW"], "2 W1", "seat 0 holds its turn"),
    (["0 1 0", DEAL, "3 0 DRAW"], "3 2 DRAW", "seat 0 holds its turn"),
    (["0 1 0", DEAL], "2 W1", "not seat 1's draw now (seat 0's)"),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W4"], "3 2 DRAW", "not seat 2's draw now (seat 1's)"),
    (["0 1 0", QUAD], "3 0 DRAW", None),                 # (accepted: the next request is the bad one)
    (["0 1 0", QUAD, "3 0 DRAW"], "3 0 PLAY W1", "a fifth W1"),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY B5", "2 B5"], "3 1 PLAY B5", None),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY B5"], "3 2 PENG W9", "a fifth B5"),   # B5 B5 held, one played
    (["0 1 0", QUAD, "3 0 DRAW", "3 0 PLAY W2"], "3 2 PENG W1", "a fifth W1"),
    (["0 2 0", QUAD, "3 0 DRAW", "3 0 PLAY W3"], "3 1 CHI W2 W1", "a fifth W1"),
    (["0 3 0", QUAD, "3 0 DRAW", "3 0 PLAY W3"], "3 1 CHI W2 T5", "a fifth W1"),
    (["0 3 0", QUAD, "3 0 DRAW", "3 0 PLAY W4"], "3 1 CHI W3 W1", "a fifth W1"),
    # the chow claims the fourth W1 in sight and discards a fifth (the claimed tile, between river and meld,
    # was once left out of the count)
    (["0 2 0", TRIPLE, "3 0 DRAW", "3 0 PLAY W1"], "3 1 CHI W2 W1", "a fifth W1"),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY J3"], "3 2 GANG", None),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY B5"], "3 2 GANG", "a fifth B5"),
    (["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY T1"], "3 3 GANG", "a fifth T1"),
    (["0 1 0"], "1 -1 0 0 1 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2 H1", "malformed flower counts"),
    (["0 1 0"], "1 +1 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2 H1", "malformed flower counts"),
    (["0 1 0"], "1 \u0661 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2 H1", "malformed flower counts"),
    (["0 1 0"], "1 9 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2 H1", "malformed deal"),
    (["0 1 0"], "1 2 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2 H1 H1", "a flower twice"),
    (["0 1 0", DEAL], "3 0 BUHUA W1", "BUHUA names one flower"),
    (["0 1 0", DEAL], "3 0 BUHUA", "BUHUA names one flower"),
    (["0 1 0", DEAL, "3 2 BUHUA H3"], "3 0 BUHUA H3", "already shown"),
    (["0 1 0", DEAL], "3 0 PLAY H1", "a flower is not a tile to play or meld"),
    (["0 1 0", DEAL, "3 0 DRAW"], "3 0 BUGANG H2", "a flower is not a tile to play or meld"),
    (["0 1 0", DEAL, "3 0 DRAW"], "3 0 PLAY W1 W2", "unknown or malformed request"),
    (["0 1 0", DEAL, "3 0 DRAW"], "3 0 PLAY XX", "unknown tile code"),
]


@pytest.mark.parametrize("before,bad,reason", HOSTILE)
def test_hostile_requests_are_protocol_errors(before, bad, reason):
    st = BotState.from_requests(before)
    if reason is None:                   # a valid request: the case after it relies on it
        st.update(bad)
        return
    view = repr(st), st.hand and list(st.hand), [list(d) for d in st.discards], list(st.walls), list(st.shown), \
        [[(m.kind, m.tile, m.from_seat) for m in ms] for ms in st.melds], [list(f) for f in st.flowers], \
        st.legal_actions()
    with pytest.raises(ProtocolError, match=re.escape(reason)) as e:
        st.update(bad)
    assert repr(bad) in str(e.value)     # the request is named
    # a refused request leaves the state as it was
    assert view == (repr(st), st.hand and list(st.hand), [list(d) for d in st.discards], list(st.walls),
                    list(st.shown), [[(m.kind, m.tile, m.from_seat) for m in ms] for ms in st.melds],
                    [list(f) for f in st.flowers], st.legal_actions())


#: the requests a fuzzed history had accepted (fuzz/regressions/botstate/fifth-tile-chow-afa73bc3): seat 1
#: melded a pung of T8 (claiming seat 3's), seat 2 discarded the fourth T8
FUZZ_FIFTH_T8 = """0 0 2|1 0 0 0 0 J3 W6 J1 J1 B4 T4 F2 W7 B9 W6 B3 T3 F4|2 T1|3 0 PLAY B4|3 1 DRAW|3 1 PLAY J1|3 2 DRAW
|3 2 PLAY T5|3 3 DRAW|3 3 PLAY W3|2 B2|3 0 PLAY J3|3 1 DRAW|3 1 PLAY T7|3 2 DRAW|3 2 PLAY W5|3 3 DRAW|3 3 PLAY T6
|2 T7|3 0 PLAY T4|3 1 DRAW|3 1 PLAY T4|3 2 DRAW|3 2 PLAY B8|3 3 DRAW|3 3 PLAY W3|2 B6|3 0 PLAY B3|3 1 DRAW
|3 1 PLAY T2|3 2 DRAW|3 2 PLAY J3|3 3 DRAW|3 3 PLAY J2|2 T2|3 0 PLAY B9|3 1 DRAW|3 1 PLAY W7|3 2 DRAW|3 2 PLAY W8
|3 3 DRAW|3 3 PLAY W4|2 W5|3 0 PLAY B6|3 1 DRAW|3 1 PLAY J2|3 2 DRAW|3 2 PLAY W5|3 3 DRAW|3 3 PLAY T3|2 W8
|3 0 PLAY J1|3 1 DRAW|3 1 PLAY F1|3 2 DRAW|3 2 PLAY F1|3 3 DRAW|3 3 PLAY J3|2 F3|3 0 PLAY F2|3 1 DRAW|3 1 PLAY W1
|3 3 PENG F4|2 T4|3 0 PLAY T4|3 1 DRAW|3 1 PLAY B7|3 2 DRAW|3 2 PLAY B2|3 3 DRAW|3 3 PLAY T8|3 1 PENG T5
|3 2 DRAW|3 2 PLAY T8""".replace("\n", "").split("|")


def test_chow_discarding_a_fifth_of_the_claimed_tile_is_refused():
    # seat 3 chows T7 T8 T9 on the fourth T8 in sight and discards another T8: a fifth copy
    st = BotState.from_requests(FUZZ_FIFTH_T8)
    T8 = 25
    assert st.unseen()[T8] == 0 and st.phase == "claim" and st.last_tile == T8
    view = repr(st), list(st.hand), [list(d) for d in st.discards], list(st.shown), list(st.unseen()), \
        [[(m.kind, m.tile, m.from_seat) for m in ms] for ms in st.melds], st.legal_actions()
    with pytest.raises(ProtocolError, match=re.escape("'3 3 CHI T8 T8': a fifth T8")):
        st.update("3 3 CHI T8 T8")
    assert view == (repr(st), list(st.hand), [list(d) for d in st.discards], list(st.shown), list(st.unseen()),
                    [[(m.kind, m.tile, m.from_seat) for m in ms] for ms in st.melds], st.legal_actions())
    st.update("3 3 CHI T8 J1")                # the same chow discarding another tile is accepted
    assert st.unseen()[T8] == 0 and (st.melds[3][-1].kind, st.melds[3][-1].tile) == ("chow", T8 - 1)
    assert T8 not in st.discards[2] and st.discards[3][-1] == 31 and st.phase == "claim"      # J1 = 31


def test_buhua_from_an_empty_wall_is_refused():
    st = BotState.from_requests(["0 1 0", DEAL])
    st.walls[2] = 0
    with pytest.raises(ProtocolError, match="wall is already empty"):
        st.update("3 2 BUHUA H1")
    assert st.walls[2] == 0 and st.flowers[2] == []


def test_chow_refused_midway_is_undone():
    # a chow adds the claimed tile to the hand before taking the three out: a refusal then must undo it
    st = BotState.from_requests(["0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W4"])
    hand = list(st.hand)
    with pytest.raises(ProtocolError, match="the hand holds 0 W5"):
        st.update("3 1 CHI W5 J1")          # W4 W5 W6: neither W5 nor W6 held
    assert st.hand == hand and st.discards[0] == [3] and st.phase == "claim"
    st.update("3 1 CHI W3 J1")              # W2 W3 W4: held
    assert st.hand[1] == 0 and st.hand[2] == 0 and st.melds[1][0].kind == "chow"


def test_response_must_be_a_string():
    with pytest.raises(TypeError):
        BotState().update("0 0 0", 5)
