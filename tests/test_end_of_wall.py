"""Claims and kongs at the end of the walls, as the platform's judge decides.

* After its own draw a seat may declare a concealed kong or add to a pung
  only while its own wall and the next seat's wall each hold a tile.
* A discard may be chowed, punged or melded-konged only while the wall of
  the seat after the discarder holds a tile; a melded kong needs, besides, a
  tile in the claimer's own wall (its replacement).  The discarder's own wall
  and the wall of the seat after the claimer do not matter.

Each fixture below is one game (everyone discards what it draws and passes,
but for one claim on the last discard of a seat's wall), and must get the
same verdict from the Python engine (GameState), the compiled engine
(FastGame, stepped with it), every seat's view (BotState fed its requests),
and the replay of the game's text archive and match JSON (compiled and
Python paths).  Then seeded games whose players claim whenever they may are
played on both engines, written, read back and replayed whole.
"""
import json
import random

import pytest

import mjfast.logs as L
from mjfast.botzone import BotState
from mjfast.game import CODES, GameRecord, GameState, IllegalAction, drive, random_walls
from mjfast.game.fast import (OP_CHI, OP_GANG, OP_HU, OP_PASS, OP_PENG, POLICIES, action_string, new_fast_game,
                              parse_action, play_compiled, walls_array)
from reference import replay as ref_replay

from game_fixtures import make_walls, put_last, tiles

PHASE = {"draw": 0, "turn": 1, "claim": 2, "rob": 3, "over": 4}
CLAIM_WORD = {"CHI": "Chi", "PENG": "Peng", "GANG": "Gang"}


# ---------------------------------------------------------------------------- one game, every view


def _request(st, kind, seat):
    if kind == "INIT":
        return st.init_request(seat)
    if kind == "DEAL":
        return st.deal_request(seat)
    return st.request(seat)


def _claim_answer(st, seat, op, middle=None):
    """The answer string of a claim of st's live discard by seat, whether the
    rules allow it or not: the discard after a chow / pung is the highest tile
    left in the hand."""
    t = st.last_tile
    if op == "GANG":
        return "GANG"
    h = list(st.hands[seat])
    if op == "PENG":
        h[t] -= 2
        return f"PENG {CODES[max(x for x in range(34) if h[x] > 0)]}"
    m = tiles(middle)[0]
    h[t] += 1
    for u in (m - 1, m, m + 1):
        h[u] -= 1
    return f"CHI {CODES[m]} {CODES[max(x for x in range(34) if h[x] > 0)]}"


class Script:
    """Discard the drawn tile, pass on everything, except one claim of the
    discard that follows the last draw of ``discarder``'s wall."""

    def __init__(self, discarder, claimer, op, middle=None):
        self.discarder, self.claimer, self.op, self.middle = discarder, claimer, op, middle
        self.fired = False
        self.answer = None

    def moment(self, st):
        return (not self.fired and st.phase == "claim" and st.current == self.discarder
                and st.wall_left(self.discarder) == 0)

    def responses(self, st):
        out = ["PASS"] * 4
        if st.phase == "turn":
            out[st.current] = "PLAY " + CODES[st.last_tile]
        elif self.moment(st):
            self.fired = True
            self.answer = _claim_answer(st, self.claimer, self.op, self.middle)
            out[self.claimer] = self.answer
        return out


def legal_strings(fg, seat):
    return sorted(action_string(*a) for a in fg.legal(seat))


def run_all_views(walls, choose, quan=0, match_id="fixture"):
    """Play one game through the protocol (GameState driven as the judge does),
    with the compiled engine stepped alongside and each seat's BotState fed its
    requests.  At every request the legal answers of every seat must be the
    same in the three.  ``choose(st)`` gives the 4 answers.  Returns (record,
    state, compiled game, views, notes); ``notes`` lists, per claim answered,
    (seat, answer, legal in GameState, in FastGame, in the seat's view, what
    FastGame.claim returned)."""
    st = GameState(quan, walls=walls)
    fg = new_fast_game()
    fg.reset(walls_array(walls), quan)
    views = [BotState() for _ in range(4)]
    rounds, notes = [], []

    def ask(st, kind):
        if kind == "DRAW":
            assert fg.draw() == st.last_tile
        for s in range(4):
            views[s].update(_request(st, kind, s))
        if kind not in ("INIT", "DEAL"):
            assert fg.phase == PHASE[st.phase] and fg.current == st.current
            for s in range(4):
                py = sorted(st.legal_actions(s))
                assert legal_strings(fg, s) == py, (kind, s)
                assert sorted(views[s].legal_actions()) == py, (kind, s)
        out = choose(st)
        for s in range(4):
            views[s].note_response(out[s])
        rounds.append(out)
        if st.phase == "turn":
            r = out[st.current]
            assert fg.turn(*parse_action(r)[:2]) == (0 if r in st.legal_actions(st.current) else -1)
        elif st.phase in ("claim", "rob"):
            seen = [(s, out[s], out[s] in st.legal_actions(s), out[s] in legal_strings(fg, s),
                     out[s] in views[s].legal_actions()) for s in range(4) if out[s] != "PASS"]
            got = fg.claim([parse_action(a) for a in out])
            notes.extend(x + (got,) for x in seen)
        return out

    drive(st, ask)
    if st.huang:
        assert fg.draw() == -1 and fg.huang
    if st.error is None:
        assert fg.phase == PHASE["over"] and fg.scores() == st.scores
    rec = GameRecord.from_state(st, rounds, match_id=match_id)
    return rec, st, fg, views, notes


def replays(rec, tmp_path):
    """The record written as a text archive and as match JSON, read back and
    replayed: {(format, path): Replayed or MatchError}.  Paths: "auto" (the
    public replay), "python" (its fast=False, the same driver), "reference"
    (the Python replay it replaced, tests/reference/replay.py)."""
    text = tmp_path / f"{rec.match_id}.txt"
    text.write_text(rec.to_botzone_text(), encoding="utf-8")
    js = tmp_path / f"{rec.match_id}.json"
    js.write_text(json.dumps(rec.to_botzone_json(), ensure_ascii=False), encoding="utf-8")
    out = {}
    for fmt, p in (("text", text), ("json", js)):
        (m,) = list(L.read(str(p)))
        assert m.id == rec.match_id
        for path, fast in (("auto", True), ("python", False)):
            try:
                out[fmt, path] = L.replay(m, fast=fast)
            except L.MatchError as exc:
                out[fmt, path] = exc
        try:
            out[fmt, "reference"] = ref_replay.replay(m)
        except L.MatchError as exc:
            out[fmt, "reference"] = exc
    return out


# ---------------------------------------------------------------------------- the fixtures

# (discarder, claimer, op, chow middle, deals, the discarder's last tile, legal?, reason of the refusal)
FIXTURES = {
    # seat 0 draws the last tile of its wall and discards 5p; seat 1's wall
    # (the wall after the discarder) still holds a tile: any seat may claim.
    "seat-1-chows-seat-0s-last-discard": (0, 1, "CHI", "5p", [None, "46p", None, None], "5p", True, None),
    "seat-1-pungs-seat-0s-last-discard": (0, 1, "PENG", None, [None, "55p", None, None], "5p", True, None),
    "seat-2-pungs-seat-0s-last-discard": (0, 2, "PENG", None, [None, None, "55p", None], "5p", True, None),
    "seat-3-pungs-seat-0s-last-discard": (0, 3, "PENG", None, [None, None, None, "55p"], "5p", True, None),
    "seat-1-kongs-seat-0s-last-discard": (0, 1, "GANG", None, [None, "555p", None, None], "5p", True, None),
    "seat-2-kongs-seat-0s-last-discard": (0, 2, "GANG", None, [None, None, "555p", None], "5p", True, None),
    # a melded kong by seat 3, whose next seat (seat 0) has an empty wall: its
    # own wall holds its replacement, and that is all a melded kong needs
    "seat-3-kongs-seat-0s-last-discard": (0, 3, "GANG", None, [None, None, None, "555p"], "5p", True, None),
    # seat 1's last discard, seat 0's wall already empty: seat 0 may pung it
    # (the claimer's own wall does not matter for a pung) ...
    "seat-0-pungs-seat-1s-last-discard": (1, 0, "PENG", None, ["55p", None, None, None],
                                          "5p", True, None),
    # ... but not kong it: no replacement tile in its own wall
    "seat-0-kongs-seat-1s-last-discard": (1, 0, "GANG", None, ["555p", None, None, None], "5p", False,
                                          "no melded kong when the own wall is empty"),
    # seat 3's melded kong of seat 1's last discard: seat 2's wall holds a
    # tile, so does seat 3's; seat 0's (after the claimer) is empty
    "seat-3-kongs-seat-1s-last-discard": (1, 3, "GANG", None, [None, None, None, "555p"], "5p", True, None),
    # seat 3's last discard: the wall after it, seat 0's, is empty; nobody
    # may claim it, whatever the claimer's own wall holds (only Hu is left)
    "seat-1-pungs-seat-3s-last-discard": (3, 1, "PENG", None, [None, "55p", None, None], "5p", False,
                                          "wall after the discarder (seat 0's) is empty"),
    "seat-0-chows-seat-3s-last-discard": (3, 0, "CHI", "5p", ["46p", None, None, None], "5p", False,
                                          "wall after the discarder (seat 0's) is empty"),
    "seat-2-kongs-seat-3s-last-discard": (3, 2, "GANG", None, [None, None, "555p", None], "5p", False,
                                          "wall after the discarder (seat 0's) is empty"),
}


def fixture_walls(deals, discarder, last):
    walls = make_walls(deals)
    put_last(walls, discarder, last)
    return walls


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_end_of_wall_fixture_same_verdict_everywhere(name, tmp_path):
    d, c, op, middle, deals, last, legal, reason = FIXTURES[name]
    walls = fixture_walls(deals, d, last)
    script = Script(d, c, op, middle)
    rec, st, fg, views, notes = run_all_views(walls, script.responses, match_id=name)
    assert script.fired, "the game never reached the claim"
    answer = script.answer
    # the claim: (seat, answer, GameState, FastGame, seat view, FastGame.claim's result)
    assert notes[-1][:2] == (c, answer) and len(notes) == 1
    assert notes[0][2:5] == (legal, legal, legal), notes
    assert notes[0][5] == (c if legal else -2)
    # the record: a claim made is in the archive, and the game goes on to a
    # Huang; a refused one ends the game by the error rule (WA, -30 / +10)
    text = rec.to_botzone_text()
    claim_line = f"Player {c} {CLAIM_WORD[op]} {CODES[tiles(middle or last)[0]]}"
    if legal:
        assert st.error is None and claim_line in text.splitlines()
        assert st.huang and st.scores == [0, 0, 0, 0]
    else:
        assert st.error is not None and st.error[:2] == (c, "WA") and reason in st.error[2]
        assert st.scores == [-30 if s == c else 10 for s in range(4)]
        assert claim_line not in text
    # every replay of the written game reaches the same end
    got = replays(rec, tmp_path)
    for key, r in got.items():
        assert not isinstance(r, L.MatchError), (key, r)
        if legal:
            assert (r.outcome, r.scores) == ("huang", [0, 0, 0, 0]), key
        else:
            # the JSON keeps the refused answer: the engine is fed it and must refuse it too
            assert (r.outcome, r.error_seat, r.scores) == ("error", c, st.scores), key


@pytest.mark.parametrize("name", sorted(n for n, f in FIXTURES.items() if not f[6]))
def test_a_refused_claim_written_into_the_archive_is_reported(name, tmp_path):
    # the same game, but the archive shows the refused claim as made (and no
    # error Score): the replay names the rule it breaks, at that line
    d, c, op, middle, deals, last, legal, reason = FIXTURES[name]
    walls = fixture_walls(deals, d, last)
    script = Script(d, c, op, middle)
    rec, st, _fg, _v, _n = run_all_views(walls, script.responses, match_id=name)
    lines = rec.to_botzone_text().splitlines()[:-1]          # no Score line
    words = script.answer.split()
    lines.append(f"Player {c} {CLAIM_WORD[op]} {CODES[tiles(middle or last)[0]]}")
    if op != "GANG":
        lines.append(f"Player {c} Play {words[-1]}")
    p = tmp_path / "bad.txt"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (m,) = list(L.read(str(p)))
    for fast in (True, False):
        with pytest.raises(L.MatchError) as e:
            L.replay(m, fast=fast)
        assert e.value.pos == len(lines) - (0 if op == "GANG" else 1)
        assert reason in e.value.reason and f"by player {c}" in e.value.reason


def test_the_claim_moment_walls():
    # what each fixture's claim sees: the discarder's wall is empty, and the
    # wall counts decide as the rule says
    for name, (d, c, op, middle, deals, last, legal, _r) in FIXTURES.items():
        st = GameState(0, walls=fixture_walls(deals, d, last))
        script = Script(d, c, op, middle)
        seen = []

        def choose(st):
            if script.moment(st):
                seen.append(list(st.tile_counts))
            return script.responses(st)

        drive(st, lambda st, kind: choose(st))
        (counts,) = seen
        assert counts[d] == 0
        rule = counts[(d + 1) % 4] > 0 and (op != "GANG" or counts[c] > 0)
        assert rule == legal, name


def test_compiled_policies_claim_the_last_discard_only_when_allowed():
    # the compiled random policy with p_claim = p_kong = 1 claims whenever it
    # may; the baseline policy claims only what lowers its shanten, never kongs:
    # neither answers a claim the rules refuse
    for name, (d, c, op, middle, deals, last, legal, _r) in FIXTURES.items():
        walls = fixture_walls(deals, d, last)
        st = GameState(0, walls=walls)
        fg = new_fast_game()
        fg.reset(walls_array(walls), 0)
        script = Script(d, c, op, middle)
        while not script.moment(st):
            out = script.responses(st)
            if st.phase == "draw":
                st.draw()
                fg.draw()
            elif st.phase == "turn":
                st.turn(out[st.current])
                fg.turn(*parse_action(out[st.current])[:2])
            else:
                st.claim(out)
                fg.claim([parse_action(a) for a in out])
        want = {"CHI": OP_CHI, "PENG": OP_PENG, "GANG": OP_GANG}[op]
        for seed in range(5):
            got = fg.decide(c, POLICIES["random"], seed, 1.0, 1.0)
            assert action_string(*got) in st.legal_actions(c), name
            if "HU" in st.legal_actions(c):        # a win comes first
                assert got[0] == OP_HU, (name, got)
            elif legal:
                assert got[0] in (OP_CHI, OP_PENG, OP_GANG), (name, got)
            else:
                assert got[0] == OP_PASS, (name, got)
        got = fg.decide(c, POLICIES["baseline"])
        assert action_string(*got) in st.legal_actions(c), name
        if not legal:
            assert got[0] != want


# ---------------------------------------------------------------------------- seeded games, claim-greedy


class ClaimGreedy:
    """Wins whenever it may; otherwise declares every kong and every chow or
    pung it may (a seeded choice among them), and discards a random tile.
    ``early``: before the last rounds (while every wall holds more than
    ``late`` tiles) it claims with that probability only, so that hands are
    not all melded away before the walls run out."""

    def __init__(self, seed, early=1.0, late=21):
        self.rng = random.Random(seed)
        self.early, self.late = early, late

    def act(self, st, seat):
        legal = st.legal_actions(seat)
        if "HU" in legal:
            return "HU"
        rng = self.rng
        if min(st.tile_counts) <= self.late or rng.random() < self.early:
            for kinds in (("GANG", "BUGANG"), ("PENG", "CHI")):
                opts = [a for a in legal if a.startswith(kinds)]
                if opts:
                    return rng.choice(opts)
        plays = [a for a in legal if a.startswith("PLAY")]
        return rng.choice(plays) if plays else "PASS"


def end_of_wall_claims(log):
    """Claims made after the discarder drew the last tile of its wall, and
    melded kongs by a seat whose next seat's wall is empty: the claims the
    rule allows there (both were refused before)."""
    drawn = [0] * 4
    n, discarder = 0, None
    for ev in log:
        k = ev[0]
        if k == "Draw":
            drawn[ev[1]] += 1
        elif k == "Play":
            discarder = ev[1]
        elif k in ("Chi", "Peng", "Gang"):
            s = ev[1]
            if drawn[discarder] == 21 or (k == "Gang" and drawn[(s + 1) % 4] == 21):
                n += 1
    return n


def python_game(seed):
    """A seeded game of four players on the Python engine that claim whenever
    they may in the last three rounds (and now and then before), with the
    compiled engine and the seat views stepped alongside (their legal answers
    compared at every request)."""
    rng = random.Random(seed)
    players = [ClaimGreedy(seed * 4 + s, early=0.1, late=3) for s in range(4)]

    def choose(st):
        out = []
        for s in range(4):
            legal = st.legal_actions(s)
            out.append(players[s].act(st, s) if len(legal) > 1 else legal[0] if legal else "PASS")
        return out

    rec, st, _fg, _v, _n = run_all_views(random_walls(seed), choose, quan=rng.randrange(4),
                                         match_id=f"greedy-{seed}")
    assert st.error is None, st.error
    return rec


def compiled_game(seed):
    """A seeded game of the compiled random policy claiming and konging
    whenever it may, replayed through the Python engine."""
    rec = play_compiled(random_walls(seed), seed % 4, [POLICIES["random"]] * 4, seed=seed,
                        match_id=f"compiled-{seed}", rng_seed=seed, p_claim=1.0, p_kong=1.0)
    st = rec.replay()
    assert st.error is None and st.log == rec.log and st.scores == rec.scores, seed
    return rec


def _outcome(r):
    if r.outcome == "hu":
        (w,) = r.wins
        return ("hu", w.winner, w.discarder, w.tile, w.hand, w.self_drawn, w.fourth_tile, w.last_tile, w.kong)
    return (r.outcome, r.error_seat, tuple(r.scores))


def _rec_outcome(rec):
    if rec.win is not None:
        w = rec.win
        return ("hu", w.winner, w.from_seat, CODES[w.tile], w.hand, w.self_drawn, w.fourth_tile, w.last_tile,
                w.kong)
    return ("huang", None, (0, 0, 0, 0))


def round_trip(recs, tmp_path, json_every=1):
    """Write the games as one text archive and as match JSON, read them back,
    replay every one (compiled and Python paths) and score the archive: every
    match replayed, each to the recorded end."""
    text = tmp_path / "games.txt"
    text.write_text("".join(r.to_botzone_text() for r in recs), encoding="utf-8")
    jdir = tmp_path / "json"
    jdir.mkdir()
    for i, r in enumerate(recs[::json_every]):
        (jdir / f"{i:04d}.json").write_text(json.dumps(r.to_botzone_json(), ensure_ascii=False),
                                            encoding="utf-8")
    by_id = {r.match_id: r for r in recs}
    n_json = 0
    for path in (text, jdir):
        for m in L.read(str(path)):
            want = _rec_outcome(by_id[m.id])
            assert _outcome(L.replay(m)) == want, m.id
            assert _outcome(L.replay(m, fast=False)) == want, m.id
            assert _outcome(ref_replay.replay(m)) == want, m.id
            n_json += path is jdir
    assert n_json == len(recs[::json_every])
    df = L.score([str(text)])
    s = df.attrs["summary"]
    assert (s.matches, s.replayed, s.skipped, s.problems) == (len(recs), len(recs), 0, [])
    assert s.wins == sum(r.win is not None for r in recs) == len(df)


def test_round_trip_of_claim_greedy_games_python_engine(tmp_path):
    recs = [python_game(seed) for seed in range(40)]
    assert sum(end_of_wall_claims(r.log) for r in recs) > 0
    round_trip(recs, tmp_path, json_every=2)


def test_round_trip_of_claim_greedy_games_compiled_engine(tmp_path):
    recs = [compiled_game(seed) for seed in range(400)]
    n = sum(end_of_wall_claims(r.log) for r in recs)
    assert n > 5
    round_trip(recs, tmp_path, json_every=10)


@pytest.mark.slow
def test_round_trip_many(tmp_path):
    recs = [compiled_game(seed) for seed in range(1000, 5000)]
    recs += [python_game(seed) for seed in range(1000, 1300)]
    assert sum(end_of_wall_claims(r.log) for r in recs) > 50
    round_trip(recs, tmp_path, json_every=20)


# ---------------------------------------------------------------------------- differential: legal actions


def side_by_side_last_rounds(seed):
    """GameState and FastGame stepped together under claim-greedy players;
    every seat's legal actions are compared at every step.  Returns the number
    of steps compared with a wall empty and a claim among the legal answers."""
    walls = random_walls(seed)
    quan = seed % 4
    py = GameState(quan, walls=walls)
    fg = new_fast_game()
    fg.reset(walls_array(walls), quan)
    players = [ClaimGreedy(seed * 7 + s, early=0.1 if seed % 2 else 1.0, late=3) for s in range(4)]
    late = 0
    while py.phase != "over":
        for s in range(4):
            legal = sorted(py.legal_actions(s))
            assert legal_strings(fg, s) == legal, (seed, s)
            if 0 in py.tile_counts and any(a.split()[0] in ("CHI", "PENG", "GANG") for a in legal) \
                    and py.phase == "claim":
                late += 1
        if py.phase == "draw":
            t = py.draw()
            assert fg.draw() == (-1 if t is None else t)
        elif py.phase == "turn":
            r = players[py.current].act(py, py.current)
            py.turn(r)
            assert fg.turn(*parse_action(r)[:2]) == 0
        else:
            answers = [players[s].act(py, s) if s != py.current else "PASS" for s in range(4)]
            got = py.claim(answers)
            assert fg.claim([parse_action(a) for a in answers]) == (-1 if got is None else got[0])
    assert fg.scores() == py.scores
    return late


def test_compiled_legal_actions_equal_the_python_engine_in_the_last_rounds():
    late = sum(side_by_side_last_rounds(seed) for seed in range(150))
    assert late > 10
