"""The fixed action space, the legal masks and the observations of FastGame.

1. The action table (mjfast.game.actions): every one of the 235 indices
   round-trips through the engine's (op, a, b) and the Botzone response
   string; the compiled engine's constants are the table's.
2. At every step of seeded games (random and claim-happy players, so the end
   of the walls and its claim limits are reached), every seat's legal_mask()
   is the Python engine's GameState.legal_actions() encoded through the
   table, and observe() is what GameState's public attributes give that seat.
3. observe() hides what the seat may not see: other seats' concealed tiles
   and walls, a concealed kong's tile, another seat's drawn tile.
4. The batch forms equal the single forms; the compiled policies choose
   among the engine's legal answers; hostile arguments raise, never crash.
"""
import random

import numpy as np
import pytest

from mjfast import _game
from mjfast.game import GameState, random_walls
from mjfast.game import actions as A
from mjfast.game.fast import FastGame, action_string, new_fast_game, parse_action, walls_array
from mjfast.game.players import RandomPlayer
from mjfast.tiles import BOTZONE_CODES

from test_hostile_engine import check, BAD_SEAT, GOOD_SEAT, NOT_INT

PHASE = {"draw": 0, "turn": 1, "claim": 2, "rob": 3, "over": 4}
KIND = {"chow": 0, "pung": 1, "kong": 2}


# --------------------------------------------------------------------------- 1. the table

def test_the_table_has_235_actions_in_its_blocks():
    assert A.N_ACTIONS == 235
    sizes = [("PASS", 1), ("HU", 1), ("PLAY", 34), ("CHI", 63), ("PENG", 34), ("GANG", 34), ("ANGANG", 34),
             ("BUGANG", 34)]
    off = 0
    for name, size in sizes:
        assert A.OFFSETS[name] == off, name
        off += size
    assert off == 235
    names = [A.action_name(i) for i in range(235)]
    assert len(set(names)) == 235
    # hand-worked entries: the first chow is W1W2W3 taking W1, the last is T7T8T9 taking T9
    assert names[:3] == ["PASS", "HU", "PLAY W1"]
    assert names[36] == "CHI W2 (W1)" and names[37] == "CHI W2 (W2)" and names[38] == "CHI W2 (W3)"
    assert names[98] == "CHI T8 (T9)" and names[99] == "PENG W1" and names[234] == "BUGANG J3"


def test_every_index_round_trips_through_the_engine_answer_and_the_response_string():
    rng = random.Random(5)
    answers = set()
    for i in range(A.N_ACTIONS):
        d = rng.randrange(34)
        claimed = A.claimed_tile(i)
        op, a, b = A.decode(i, discard=d)
        answers.add((op, a if op != A.OP_PENG else None, b if op != A.OP_CHI else None, claimed))
        assert A.encode(op, a, b, claimed=claimed) == i
        s = A.to_botzone(i, discard=d)
        assert A.from_botzone(s, claimed=claimed) == i, s
        assert parse_action(s) == (op, a, b), s          # the engine's own reading of the string
        assert s.split()[0] in ("PASS", "HU", "PLAY", "CHI", "PENG", "GANG", "BUGANG")
        if op == A.OP_CHI:
            m = a
            assert m - 1 <= claimed <= m + 1 and m // 9 == claimed // 9 < 3
        assert action_string(op, a, b) == s
    assert len(answers) == 235        # no two indices are the same action (with its claimed tile, not its discard)


def test_the_table_refuses_what_is_not_an_action():
    for bad in (lambda: A.decode(235), lambda: A.decode(-1), lambda: A.decode(A.CHI),
                lambda: A.decode(A.PENG + 3), lambda: A.encode(A.OP_CHI, 0, 5, claimed=0),
                lambda: A.encode(A.OP_CHI, 10, 5, claimed=12), lambda: A.encode(A.OP_CHI, 28, 5, claimed=28),
                lambda: A.encode(A.OP_PENG, 3), lambda: A.encode(A.OP_GANG, -1), lambda: A.encode(9),
                lambda: A.encode(A.OP_PLAY, 34), lambda: A.from_botzone("CHI W2"),
                lambda: A.from_botzone("PLAY Q1"), lambda: A.from_botzone("PENG W1"),
                lambda: A.from_botzone(""), lambda: A.obs_fields(np.zeros(5, np.int8))):
        with pytest.raises(ValueError):
            bad()
    for bad in (lambda: A.decode(1.0), lambda: A.decode(True), lambda: A.from_botzone(None)):
        with pytest.raises(TypeError):
            bad()


def test_the_compiled_engine_mirrors_the_table():
    lay = _game.action_layout()
    assert lay["ops"] == {name: A.OP_NAMES.index(name) for name in A.OP_NAMES}
    assert (A.OP_PASS, A.OP_PLAY, A.OP_GANG, A.OP_BUGANG, A.OP_HU, A.OP_PENG, A.OP_CHI) == tuple(range(7))
    assert lay["actions"] == {**{k: A.OFFSETS[k] for k in A.OFFSETS}, "N_ACTIONS": A.N_ACTIONS}
    assert lay["obs"] == {**{k: off for k, (off, _) in A.OBS_LAYOUT.items()}, "OBS_SIZE": A.OBS_SIZE,
                          "RIVER_LEN": A.RIVER_LEN}
    g = new_fast_game()
    g.reset(_game.shuffled_walls(1), 0)
    assert g.legal_mask(0).shape == (A.N_ACTIONS,) and g.observe(0).shape == (A.OBS_SIZE,)


# --------------------------------------------------------------------------- 2. against the Python engine

def expected_observation(py, river, me):
    """seat me's observation, from GameState's public attributes and the discards seen so far."""
    o = {k: np.full(shape, -1, np.int64) for k, (_, shape) in A.OBS_LAYOUT.items()}
    o["hand"][:] = py.hands[me]
    for s in range(4):
        for i, m in enumerate(py.melds[s]):
            if m.from_seat is None:
                o["melds"][s, i] = (4, m.tile if s == me else -1, -1, -1)
            else:
                o["melds"][s, i] = (3 if m.added else KIND[m.kind], m.tile, m.from_seat, m.claimed)
        for i, (t, by) in enumerate(river[s]):
            o["river"][s, i] = (t, by)
    o["river_len"][:] = [len(r) for r in river]
    o["walls"][:] = py.tile_counts
    o["shown"][:] = py.shown
    ph = py.phase
    seen = ph in ("claim", "rob") or (ph == "turn" and me == py.current)
    o["state"][:] = (me, py.quan, PHASE[ph], -1 if ph == "over" else py.current,
                     py.last_tile if seen else -1, int(py.after_kong) if ph in ("draw", "turn") else 0)
    return o


def check_step(py, fg, river, where, stats):
    for s in range(4):
        want = {A.from_botzone(a, claimed=py.last_tile) for a in py.legal_actions(s)}
        mask = fg.legal_mask(s)
        assert mask.dtype == np.uint8 and set(mask.tolist()) <= {0, 1}
        assert set(np.flatnonzero(mask).tolist()) == want, (where, s, sorted(py.legal_actions(s)))
        got = A.obs_fields(fg.observe(s))
        exp = expected_observation(py, river, s)
        for k in exp:
            assert (got[k] == exp[k]).all(), (where, s, k, got[k], exp[k])
        stats["masks"] += 1
        stats["claims"] += bool(mask[A.CHI:A.BUGANG].any() and py.phase == "claim")
    if py.phase == "claim" and py.wall_left((py.current + 1) % 4) == 0:
        stats["end_of_wall_discards"] += 1
    stats["hidden_kongs"] += sum(m.from_seat is None for ms in py.melds for m in ms)


def drive(seed, stats, **kw):
    """Both engines through one game on the same walls, a RandomPlayer's choices on the Python state."""
    walls = random_walls(seed)
    quan = seed % 4
    py = GameState(quan, walls=walls)
    fg = new_fast_game()
    fg.reset(walls_array(walls), quan)
    players = [RandomPlayer(seed * 4 + s, **kw) for s in range(4)]
    river = [[] for _ in range(4)]
    step = 0
    check_step(py, fg, river, (seed, step), stats)
    while py.phase != "over":
        step += 1
        if py.phase == "draw":
            t = py.draw()
            assert fg.draw() == (-1 if t is None else t)
        elif py.phase == "turn":
            s = py.current
            r = players[s].act(py, s)
            py.turn(r)
            assert fg.turn(*parse_action(r)[:2]) == 0
            if r.startswith("PLAY"):
                river[s].append([py.last_tile, -1])
        else:
            d, rob = py.current, py.phase == "rob"
            answers = [players[s].act(py, s) if s != d else "PASS" for s in range(4)]
            got = py.claim(answers)
            assert fg.claim([parse_action(a) for a in answers]) == (-1 if got is None else got[0])
            if got is not None and not rob:
                river[d][-1][1] = got[0]
                if got[1].startswith(("CHI", "PENG")):
                    river[got[0]].append([py.last_tile, -1])
        check_step(py, fg, river, (seed, step), stats)
    assert not fg.legal_mask(0).any()
    return py


def test_masks_and_observations_equal_the_python_engine_at_every_step():
    stats = dict(masks=0, claims=0, end_of_wall_discards=0, hidden_kongs=0)
    wins = 0
    for seed in range(120):
        wins += drive(seed, stats).win is not None
    for seed in range(500, 620):              # claim-happy: melds pile up and games reach the end of the walls
        wins += drive(seed, stats, p_claim=1.0, p_kong=1.0, p_greedy=0.3).win is not None
    assert wins > 20 and stats["masks"] > 50_000
    assert stats["claims"] > 500 and stats["end_of_wall_discards"] > 50 and stats["hidden_kongs"] > 10, stats


@pytest.mark.slow
def test_masks_and_observations_on_many_games():
    stats = dict(masks=0, claims=0, end_of_wall_discards=0, hidden_kongs=0)
    for seed in range(2000, 3500):
        drive(seed, stats, p_claim=0.9, p_kong=0.9)


# --------------------------------------------------------------------------- 3. nothing hidden

def test_observe_does_not_depend_on_what_the_seat_cannot_see():
    rng = random.Random(7)
    differed = 0
    for seed in range(40):
        w = _game.shuffled_walls(seed)
        other = w.copy()
        # shuffle every tile seat 0 cannot know: seats 1-3's hands and all walls after seat 0's first draw
        hidden = [(s, i) for s in range(1, 4) for i in range(34)] + [(0, i) for i in range(14, 34)]
        vals = [other[p] for p in hidden]
        rng.shuffle(vals)
        for p, v in zip(hidden, vals):
            other[p] = v
        g1, g2 = FastGame(), FastGame()
        g1.reset(w, seed % 4)
        g2.reset(other, seed % 4)

        def same(where):
            assert (g1.observe(0) == g2.observe(0)).all(), (seed, where)

        same("deal")
        differed += not (g1.observe(1) == g2.observe(1)).all()
        g1.draw(), g2.draw()
        same("draw")
        t = int(g1.last_tile)
        assert g1.turn(1, t) == 0 and g2.turn(1, t) == 0
        same("discard")
        assert (g1.legal_mask(0) == g2.legal_mask(0)).all()
    assert differed > 30          # the other seats' observations do see their own hands


def test_another_seats_draw_and_concealed_kong_are_hidden():
    # seat 0 is dealt four W1 and draws T9; it kongs, draws the replacement
    from game_fixtures import make_walls
    walls = make_walls(["111123456789m1s", "123456789p2345s", None, None],
                       ["9s", "", "", ""])
    g = new_fast_game()
    g.reset(walls_array(walls), 0)
    g.draw()
    me, other = A.obs_fields(g.observe(0)), A.obs_fields(g.observe(1))
    assert me["state"][4] == BOTZONE_CODES.index("T9") and other["state"][4] == -1
    assert g.legal_mask(0)[A.ANGANG + 0] == 1
    assert g.turn(2, 0) == 0                  # GANG W1
    me, other = A.obs_fields(g.observe(0)), A.obs_fields(g.observe(1))
    assert me["melds"][0, 0].tolist() == [4, 0, -1, -1]
    assert other["melds"][0, 0].tolist() == [4, -1, -1, -1]
    assert me["state"][4] == -1 and me["state"][5] == 1 and other["state"][5] == 1
    assert me["hand"][0] == 0 and other["hand"][0] == 0      # seat 1 holds no W1


# --------------------------------------------------------------------------- 4. batch forms, policies

def games_in_progress(n, seed):
    """n games stepped by the compiled random policy to various points (some over)."""
    rng = random.Random(seed)
    games = []
    for i in range(n):
        g = FastGame()
        g.reset(_game.shuffled_walls(seed + i), i % 4)
        for step in range(rng.randrange(0, 450)):
            if g.phase == 4:
                break
            if g.phase == 0:
                g.draw()
            elif g.phase == 1:
                op, a, _ = g.decide(g.current, 1, seed=step, p_claim=1.0, p_kong=1.0)
                assert g.turn(op, a) == 0
            else:
                ans = [g.decide(s, 1, seed=step * 4 + s, p_claim=1.0) for s in range(4)]
                assert g.claim(ans) >= -1
        games.append(g)
    return games


def test_batch_forms_equal_the_single_forms():
    games = games_in_progress(60, 3)
    assert {g.phase for g in games} >= {0, 1, 2, 4}
    masks = _game.legal_masks(games)
    obs = _game.observe_many(games)
    assert masks.shape == (60, 4, 235) and masks.dtype == np.uint8
    assert obs.shape == (60, 4, A.OBS_SIZE) and obs.dtype == np.int8
    for i, g in enumerate(games):
        for s in range(4):
            assert (masks[i, s] == g.legal_mask(s)).all() and (obs[i, s] == g.observe(s)).all(), (i, s)
    out_m = np.full((60, 4, 235), 7, np.uint8)
    out_o = np.full((60, 4, A.OBS_SIZE), 7, np.int8)
    assert _game.legal_masks(games, out_m) is out_m and _game.observe_many(tuple(games), out_o) is out_o
    assert (out_m == masks).all() and (out_o == obs).all()
    one = np.full(235, 9, np.uint8)
    assert games[0].legal_mask(1, one) is one and (one == masks[0, 1]).all()
    assert _game.legal_masks([]).shape == (0, 4, 235) and _game.observe_many([]).shape == (0, 4, A.OBS_SIZE)


def test_compiled_policies_answer_among_the_legal_actions():
    seen = set()
    for g in games_in_progress(80, 11):
        if g.phase == 4:
            continue
        for s in range(4):
            legal = g.legal(s)
            for p in (0, 1, 2):
                d = g.decide(s, p, seed=s, p_claim=1.0, p_kong=1.0)
                assert d in legal, (p, s, d, legal)
                assert g.legal_mask(s)[A.encode(*d, claimed=g.last_tile)] == 1
                seen.add((p, d[0]))
    assert {(2, A.OP_PLAY), (2, A.OP_PASS), (1, A.OP_PLAY)} <= seen


def test_baseline_self_play_results_are_those_of_its_own_claim_tests():
    # play_seeded's baseline results from before the baseline chose among _legal's answers
    # (main's build, the same 600 games): any change of decision shows in these sums
    out = np.zeros((600, 8), np.int32)
    _game.play_seeded(12345, 0, 600, -1, [2, 2, 2, 2], 0.5, 0.7, None, out)
    assert (int((out[:, 4] >= 0).sum()), int(out[:, 6].sum()), int((out[:, :4] * [1, 2, 3, 4]).sum()),
            int(out[:, 7].sum())) == BASELINE_600


#: (wins, sum of totals, seat-weighted sum of scores, sum of flags), printed by main's build before the change
BASELINE_600 = (505, 6815, -1200, 2072)


# --------------------------------------------------------------------------- hostile arguments

HOSTILE = []
for _m in ("legal_mask", "observe"):
    HOSTILE += [(f"fresh().{_m}({v})", "TypeError") for v in NOT_INT]
    HOSTILE += [(f"fresh().{_m}({v})", "ValueError") for v in BAD_SEAT]
    HOSTILE += [(f"fresh().{_m}({v})", "ok") for v in GOOD_SEAT]
    HOSTILE += [(f"FastGame().{_m}(0)", "ValueError"), (f"claiming().{_m}(2)", "ok"),
                (f"(lambda g: (g.run([1] * 4, 1), g.{_m}(0)))(fresh())", "ok")]
_GOOD = {"legal_mask": "np.uint8", "observe": "np.int8"}
_SIZE = {"legal_mask": 235, "observe": 466}
for _m, _dt in _GOOD.items():
    n = _SIZE[_m]
    HOSTILE += [(f"fresh().{_m}(0, np.zeros({n}, {_dt}))", "ok"), (f"fresh().{_m}(0, None)", "ok")]
    HOSTILE += [(f"fresh().{_m}(0, {v})", "TypeError") for v in (
        f"np.zeros({n}, np.int32)", f"np.zeros({n}, np.float64)", f"[0] * {n}", f"bytearray({n})", "5",
        f"np.zeros({n}, bool)", f"(lambda a: (a.setflags(write=False), a)[1])(np.zeros({n}, {_dt}))")]
    HOSTILE += [(f"fresh().{_m}(0, {v})", "ValueError") for v in (
        f"np.zeros({n - 1}, {_dt})", f"np.zeros({n + 1}, {_dt})", f"np.zeros((1, {n}), {_dt})",
        f"np.zeros({2 * n}, {_dt})[::2]", f"np.zeros(0, {_dt})", f"np.zeros(({n}, 2), {_dt})[:, 0]")]
for _f, _dt, _n in (("legal_masks", "np.uint8", 235), ("observe_many", "np.int8", 466)):
    HOSTILE += [(f"_game.{_f}([fresh(), claiming()])", "ok"), (f"_game.{_f}(())", "ok"),
                (f"_game.{_f}((fresh() for _ in range(3)))", "ok"),
                (f"_game.{_f}([fresh()], np.zeros((1, 4, {_n}), {_dt}))", "ok")]
    HOSTILE += [(f"_game.{_f}({v})", "TypeError") for v in (
        "None", "5", "[fresh(), 5]", "[None]", "['g']", "fresh()")]
    HOSTILE += [(f"_game.{_f}([FastGame()])", "ValueError"), (f"_game.{_f}([fresh(), FastGame()])", "ValueError")]
    HOSTILE += [(f"_game.{_f}([fresh()], {v})", "ValueError") for v in (
        f"np.zeros((2, 4, {_n}), {_dt})", f"np.zeros((1, 4, {_n - 1}), {_dt})", f"np.zeros((4, {_n}), {_dt})",
        f"np.zeros((1, 4, 2 * {_n}), {_dt})[:, :, ::2]", f"np.zeros((0, 4, {_n}), {_dt})")]
    HOSTILE += [(f"_game.{_f}([fresh()], {v})", "TypeError") for v in (
        f"np.zeros((1, 4, {_n}), np.int64)", "[[0] * 4]", "7",
        f"(lambda a: (a.setflags(write=False), a)[1])(np.zeros((1, 4, {_n}), {_dt}))")]


def test_hostile_arguments_raise_and_never_crash():
    check(HOSTILE)


def test_masks_and_observations_from_inside_hu_fn_are_refused():
    from mjfast.game.fast import _hu_fn
    calls = []

    def hu(*args):
        for call in (lambda: g.legal_mask(0), lambda: g.observe(1), lambda: _game.legal_masks([g]),
                     lambda: _game.observe_many([g])):
            with pytest.raises(ValueError, match="inside its own hu_fn"):
                call()
        calls.append(args[0])
        return _hu_fn(*args)

    g = FastGame(hu)
    g.reset(_game.shuffled_walls(4), 0)
    g.draw()
    before = g.snapshot()
    g.legal_mask(0)
    assert calls == [0] and g.snapshot() == before


def test_the_docs_example_runs_and_prints_what_it_says():
    import contextlib
    import io
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "game.md"), encoding="utf-8") as f:
        text = f.read()
    part = text.split("## Legal masks and observations", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", part, re.S).group(1)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "docs/game.md", "exec"), {})
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("['PLAY ")
    assert lines[1].startswith("13 [1, 0, 1, 0, -1, 0]")
    assert lines[2:] == ["CHI W5 J3", "(2, 4, 235) (2, 4, 466)"]
