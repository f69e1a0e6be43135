"""play(): the request sequence, the error rule, the records, and seeded random
games checked for invariants and against the reference calculator."""
import json

import pytest

from mjfast.game import CODES, GameState, play, random_walls
from mjfast.game.players import RandomPlayer, Scripted, tsumogiri
from game_fixtures import make_walls

A_1P4P = "123m456m789m23p55p"


def random_game(seed, fast=True, **kw):
    players = [RandomPlayer(seed * 4 + s, **kw) for s in range(4)]
    return play(players, seed=seed, fast=fast)


# ---------------------------------------------------------------------------- the request sequence


def test_tsumogiri_game_is_a_draw_and_takes_the_walls_in_order():
    rec = play([tsumogiri] * 4, seed=3)
    assert rec.huang and rec.win is None and rec.scores == [0, 0, 0, 0]
    draws = [ev for ev in rec.log if ev[0] == "Draw"]
    assert len(draws) == 84
    for s in range(4):
        assert [ev[2] for ev in draws if ev[1] == s] == rec.walls[s][13:]
    assert rec.to_botzone_text().endswith("Huang\nScore 0 0 0 0\n")
    assert len(rec.rounds) == 2 + 2 * 84


def test_requests_are_the_platforms():
    walls = make_walls(["4p", A_1P4P, "4p4pEESSWWNNCCF", None], draws=("1s", "", "", ""))
    ps = [Scripted() for _ in range(4)]
    ps[2].script = [("3 0 PLAY T1", "PENG J2")]
    rec = play(ps, walls=walls, quan=2, fast=False)
    p0, p1 = ps[0].requests, ps[1].requests
    assert p0[0] == "0 0 2" and p1[0] == "0 1 2"
    assert p0[1] == "1 0 0 0 0 " + " ".join(CODES[t] for t in walls[0][:13])
    assert p0[2] == "2 T1" and p1[2] == "3 0 DRAW"
    assert p0[3] == p1[3] == "3 0 PLAY T1"
    # seat 2 could not pung 1s: its answer was illegal
    assert rec.error is not None and rec.error[0] == 2 and rec.scores == [10, 10, -30, 10]


def test_pung_then_discard_request_and_kong_notification():
    walls = make_walls(["E1s2s3s4s6s7s8s9sSSWW", None, "EEE123m456m789p5s", None], draws=("", "", "5s", ""))
    ps = [Scripted() for _ in range(4)]
    first = CODES[walls[0][13]]
    ps[0].script = [("2 " + first, "PLAY F1")]
    ps[2].script = [("3 0 PLAY F1", "GANG"), ("2 T5", "HU")]
    rec = play(ps, walls=walls, fast=False)
    assert ps[1].requests[3:6] == ["3 0 PLAY F1", "3 2 GANG", "3 2 DRAW"]
    assert ps[2].requests[3:6] == ["3 0 PLAY F1", "3 2 GANG", "2 T5"]
    assert rec.win.winner == 2 and rec.win.kong
    text = rec.to_botzone_text().splitlines()
    assert text[-5:-2] == ["Player 2 Gang F1", "Player 2 Draw T5", "Player 2 Hu T5"]
    assert text[-2].startswith("Fan ") and "杠上开花*1" in text[-2]
    assert text[-1] == "Score " + " ".join(map(str, rec.scores))


def test_losing_claims_are_ignore_clauses():
    walls = make_walls(["7p147m258p369sESW", "6p8p123456789sNN", None, "1p7p7pCCCFFFPPPN"], draws=("E", "", "", ""))
    ps = [Scripted() for _ in range(4)]
    ps[0].script = [("2 F1", "PLAY B7")]
    ps[1].script = [("3 0 PLAY B7", "CHI B7 T1")]
    ps[3].script = [("3 0 PLAY B7", "PENG B1")]
    rec = play(ps, walls=walls, fast=False)
    lines = rec.to_botzone_text().splitlines()
    i = lines.index("Player 3 Peng B7 Ignore Player 1 Chi B7")
    assert lines[i + 1] == "Player 3 Play B1" and lines[i + 2].startswith("Player 0 Draw")
    assert ps[1].requests[ps[1].requests.index("3 0 PLAY B7") + 1] == "3 3 PENG B1"


# ---------------------------------------------------------------------------- the error rule


@pytest.mark.parametrize("seat,answer,code", [
    (0, lambda r: "PLAY J9" if r[0] == "2" else "PASS", "WA"),      # not a tile code
    (0, lambda r: "PLAY W1 W2" if r[0] == "2" else "PASS", "WA"),
    (1, lambda r: "HU" if r.startswith("3 0 PLAY") else "PASS", "WH"),   # a Hu that does not win
    (2, lambda r: "PLAY W1" if r == "3 0 DRAW" else tsumogiri(r), "WA"),  # must pass on another's draw
    (3, lambda r: "PASS" if r[0] != "0" else "READY", "WA"),
])
def test_error_rule(seat, answer, code):
    ps = [tsumogiri] * 4
    ps = list(ps)
    ps[seat] = answer
    rec = play(ps, seed=7)
    assert rec.error[:2] == (seat, code)
    assert rec.scores == [(-30 if s == seat else 10) for s in range(4)] and sum(rec.scores) == 0
    j = rec.to_botzone_json()
    fin = j["logs"][-1]["output"]
    assert fin["command"] == "finish" and fin["display"]["action"] == code and fin["display"]["player"] == seat
    assert fin["content"] == {str(s): rec.scores[s] for s in range(4)}
    assert rec.to_botzone_text().endswith("Score " + " ".join(map(str, rec.scores)) + "\n")


def test_hu_under_8_and_a_crashing_player():
    walls = make_walls(["5s", "123m345m456p678s5s", None, None], draws=("5s", "", "", ""))
    ps = [tsumogiri, Scripted([("3 0 PLAY T5", "HU")]), tsumogiri, tsumogiri]
    rec = play(ps, walls=walls)
    assert rec.error[:2] == (1, "WH") and "under the minimum 8" in rec.error[2]

    def boom(req):
        raise RuntimeError("bot bug")
    rec = play([tsumogiri, tsumogiri, boom, tsumogiri], seed=1)
    assert rec.error[:2] == (2, "RE") and "bot bug" in rec.error_detail
    assert rec.scores == [10, 10, -30, 10]


# ---------------------------------------------------------------------------- random games


def check_invariants(rec):
    st = rec.replay()
    assert st.scores == rec.scores and st.log == rec.log
    assert sum(rec.scores) == 0
    # 136 tiles conserved: hands + melds + rivers + what is left in the walls
    counts = [0] * 34
    for s in range(4):
        for t in range(34):
            counts[t] += st.hands[s][t]
        for m in st.melds[s]:
            for t in m.tiles():
                counts[t] += 1
        for t in st.discards[s]:
            counts[t] += 1
        for t in rec.walls[s][34 - st.wall_left(s):]:
            counts[t] += 1
    assert all(c == 4 for c in counts), counts
    # draws in wall order
    for s in range(4):
        drawn = [ev[2] for ev in st.log if ev[0] == "Draw" and ev[1] == s]
        assert drawn == rec.walls[s][13:13 + len(drawn)]
    if rec.win is not None:
        w = rec.win
        assert w.total - w.flowers >= 8
        f = w.total
        if w.self_drawn:
            assert rec.scores[w.winner] == 3 * (8 + f)
        else:
            assert rec.scores[w.winner] == 24 + f and rec.scores[w.from_seat] == -(8 + f)
    elif rec.error is None:
        assert rec.huang and rec.scores == [0, 0, 0, 0]
    return st


def test_random_games_invariants_and_every_action():
    seen = set()
    flags = set()
    for seed in range(300):
        rec = random_game(seed)
        check_invariants(rec)
        seen.update(ev[0] for ev in rec.log)
        if rec.win:
            w = rec.win
            flags.update(k for k in ("self_drawn", "kong", "robbed_kong", "fourth_tile", "last_tile") if getattr(w, k))
    assert {"Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "Huang"} <= seen
    assert {"self_drawn", "kong", "fourth_tile", "last_tile"} <= flags


def test_fast_path_and_request_strings_play_the_same_game():
    for seed in range(40):
        a = random_game(seed, fast=True)
        b = random_game(seed, fast=False)
        assert a.log == b.log and a.scores == b.scores


def test_records_replay_and_json_holds_what_the_players_received():
    for seed in range(30):
        ps = [RandomPlayer(seed * 4 + s) for s in range(4)]
        seen = [[] for _ in range(4)]

        def spy(s, p):
            def respond(req):
                seen[s].append(req)
                return p.respond(req)
            respond.bind = p.bind
            return respond
        rec = play([spy(s, p) for s, p in enumerate(ps)], seed=seed)
        j = json.loads(rec.to_botzone_json(as_string=True))
        judge = [e["output"] for e in j["logs"] if "output" in e]
        assert judge[-1]["command"] == "finish"
        for s in range(4):
            assert [o["content"][str(s)] for o in judge[:-1]] == seen[s]
        bots = [e for e in j["logs"] if "output" not in e]
        assert [[b[str(s)]["response"] for s in range(4)] for b in bots] == rec.rounds
        init = json.loads(j["initdata"])
        walls = init["walltiles"].split()
        assert len(walls) == 136 and [CODES.index(c) for c in walls[:34]] == rec.walls[0]
        for o in judge[:-1]:
            d = o["display"]
            assert len(d["canHu"]) == 4 and len(d["tileCnt"]) == 4
        if rec.win is not None:
            d = judge[-1]["display"]
            assert d["action"] == "HU" and d["fanCnt"] == rec.win.total
            assert sum(f["cnt"] * f["value"] for f in d["fan"]) == rec.win.total
            assert d["score"] == rec.scores
            # the canHu of the request the winner answered shows the same total
            assert judge[-2]["display"]["canHu"][rec.win.winner] == rec.win.total


def test_seeded_walls_are_deterministic():
    assert random_walls(5) == random_walls(5) != random_walls(6)
    assert play([tsumogiri] * 4, seed=9).log == play([tsumogiri] * 4, seed=9).log


@pytest.mark.slow
def test_random_games_invariants_many():
    for seed in range(1000, 4000):
        check_invariants(random_game(seed, p_claim=0.8))


def test_json_record_keeps_the_match_id(tmp_path):
    """The match JSON carries the record's id (as ``_id``, where the platform
    keeps its own), so the text and JSON of one game read back under one id."""
    import mjfast.logs as L
    rec = play([tsumogiri] * 4, seed=3, match_id="game-42")
    assert rec.to_botzone_json()["_id"] == "game-42"
    p = tmp_path / "m.json"
    p.write_text(rec.to_botzone_json(as_string=True), encoding="utf-8")
    t = tmp_path / "m.txt"
    t.write_text(rec.to_botzone_text(), encoding="utf-8")
    assert [m.id for m in L.read(str(p))] == [m.id for m in L.read(str(t))] == ["game-42"]
