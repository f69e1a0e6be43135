"""The replay driver (mjfast._replay, behind mjfast.logs.replay) against the
Python replay it replaced (tests/reference/replay.py, every action through
mjfast.game.GameState): the same Replayed (outcome, wins, scores, error seat)
or the same MatchError (match, position, reason, where), match for match, on
the real archives in tests/data/logs, on the match JSON of the hand-built
helpers, on our own self-play games written out as text and as match JSON,
and on many corrupted copies of them (lines dropped, swapped or changed;
events dropped, swapped or changed; wrong claims, wrong winners, wrong walls,
error endings, flowers)."""
import copy
import json
import os
import random

import pytest

import logs_helpers as H
import mjfast.logs as L
from mjfast.game import play, players
from mjfast.logs.jsonlog import match_from_json
from mjfast.logs.model import Claim, Event, TILE_CODES
from mjfast.logs.text import parse_text_lines
from reference import replay as ref

HERE = os.path.dirname(__file__)
ARCHIVES = [os.path.join(HERE, "data", "logs", f) for f in ("archive.txt", "edge.txt")]


def outcome(fn, m):
    """What a replay gives, as comparable data."""
    try:
        r = fn(m)
    except L.MatchError as exc:
        assert type(exc) is L.MatchError
        return ("error", exc.match, exc.pos, exc.reason, exc.where, exc.path, str(exc))
    except ValueError as exc:
        # a Match built by hand with a Draw of a code that is no tile (GameState.draw's ValueError)
        return ("ValueError", None, None, str(exc))
    assert isinstance(r, L.Replayed) and r.match is m
    assert all(isinstance(w, L.Win) for w in r.wins)
    return ("ok", r.outcome, [tuple(w) for w in r.wins], r.scores, r.error_seat)


def same(m):
    a = outcome(ref.replay, copy.deepcopy(m))
    b = outcome(L.replay, m)
    assert b == a, (m.id, a, b)
    return a


def text_matches(text, path="t.txt"):
    return list(parse_text_lines(text.split("\n"), path))


def _record(i, **kw):
    ps = [players.RandomPlayer(seed=i * 4 + k, **kw) for k in range(4)]
    return play(ps, seed=i, quan=i % 4, match_id=f"g{i}")


@pytest.fixture(scope="module")
def records():
    # claims, kongs and wins on purpose; the walls empty now and then
    return [_record(i, p_claim=0.7, p_kong=0.9) for i in range(60)] + [_record(100 + i) for i in range(20)]


def test_real_archives():
    kinds = set()
    for p in ARCHIVES:
        for m in L.read(p):
            kinds.add(same(m)[:2])
    # the fixtures hold wins, Huangs, error endings and refused matches
    assert {("ok", "hu"), ("ok", "huang"), ("ok", "error")} <= kinds and any(k[0] == "error" for k in kinds)


def test_helper_match_json():
    for make in (H.selfdrawn_json, H.claims_json, H.wa_json, H.huang_json):
        obj = make(match_id="x")
        assert same(match_from_json(obj, "x"))[0] == "ok"


def test_self_play_as_text_and_json(records):
    outcomes = set()
    for rec in records:
        for m in text_matches(rec.to_botzone_text()) + [match_from_json(rec.to_botzone_json(), rec.match_id)]:
            got = same(m)
            assert got[0] == "ok", got
            outcomes.add(got[1])
    assert outcomes == {"hu", "huang"}


# -- corrupted text ---------------------------------------------------------------

TILES = list(TILE_CODES) + ["H1", "X9"]


def _mutate_text(lines, rnd):
    lines = list(lines)
    if len(lines) < 2:
        return lines
    i = rnd.randrange(1, len(lines))
    op = rnd.randrange(10)
    words = lines[i].split(" ")
    if op == 0:
        del lines[i]
    elif op == 1 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif op == 2 and len(words) >= 4:                 # another tile
        words[3] = rnd.choice(TILES)
        lines[i] = " ".join(words)
    elif op == 3 and len(words) >= 2 and words[0] == "Player":   # another seat
        words[1] = str(rnd.randrange(4))
        lines[i] = " ".join(words)
    elif op == 4 and len(words) >= 3 and words[0] == "Player":   # another action
        words[2] = rnd.choice(["Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "BuHua"])
        lines[i] = " ".join(words)
    elif op == 5:                                      # the end replaced
        lines = [x for x in lines if x.split(" ")[0] not in ("Fan", "Score", "Huang")
                 and x.split(" ")[2:3] != ["Hu"]][:rnd.randrange(len(lines))]
        end = rnd.choice(["Huang", f"Score {' '.join(rnd.choice(['-30 10 10 10', '10 -30 10 10', '10 10 10 -30']).split())}",
                          "Player 0 Hu", "Player 1 Hu", "Player 2 Hu", "Player 3 Hu", ""])
        lines.append(end)
    elif op == 6 and words[2:3] in (["Play"], ["Draw"]):   # a claim that did not happen
        s = rnd.randrange(4)
        kind = rnd.choice(["Peng", "Gang", "Hu", "Chi"])
        t = words[3]
        line = f"Player {s} {kind}" + (f" {t}" if kind != "Hu" or rnd.random() < 0.5 else "")
        if kind == "Chi":
            line = f"Player {s} Chi {rnd.choice(TILE_CODES)}"
        lines.insert(i + 1, line)
        if kind in ("Peng", "Chi"):
            lines.insert(i + 2, f"Player {s} Play {rnd.choice(TILE_CODES)}")
    elif op == 7 and words[2:3] in (["Chi"], ["Peng"], ["Gang"], ["Hu"]):   # Ignore clauses
        s = rnd.randrange(4)
        kind = rnd.choice(["Chi", "Peng", "Gang", "Hu"])
        lines[i] += f" Ignore Player {s} {kind}" + (f" {rnd.choice(TILE_CODES)}" if rnd.random() < 0.6 else "")
    elif op == 8:                                      # another winner
        for k, x in enumerate(lines):
            w = x.split(" ")
            if w[2:3] == ["Hu"]:
                w[1] = str((int(w[1]) + rnd.randrange(1, 4)) % 4)
                lines[k] = " ".join(w)
    elif op == 9 and words[0] == "Player" and words[2:3] == ["Deal"]:   # a flower, a fifth copy
        words[3 + rnd.randrange(13)] = rnd.choice(["H2", "W1", "F1", "J3"])
        lines[i] = " ".join(words)
    return lines


def _n(default):
    # MJFAST_SLOW_DIFF=1 in the environment: ten times as many corrupted copies
    return default * 10 if os.environ.get("MJFAST_SLOW_DIFF") else default


def test_corrupted_text(records):
    rnd = random.Random(7)
    texts = [rec.to_botzone_text() for rec in records]
    for p in ARCHIVES:
        with open(p, encoding="utf-8") as f:
            texts.append(f.read())
    seen = set()
    n = 0
    for k in range(_n(1500)):
        lines = rnd.choice(texts).rstrip("\n").split("\n")
        # one match of a multi-match text
        starts = [i for i, x in enumerate(lines) if x.startswith("Match")]
        a = rnd.choice(starts)
        b = min([s for s in starts if s > a] or [len(lines)])
        lines = lines[a:b]
        for _ in range(rnd.randrange(1, 4)):
            lines = _mutate_text(lines, rnd)
        for m in text_matches("\n".join(lines)):
            got = same(m)
            n += 1
            seen.add(got[3].split(":")[0][:40] if got[0] != "ok" else got[1])
    assert n >= 0.99 * _n(1500)        # (a mutation may leave no match line)
    # refusals of many kinds were compared, not only the readers' problems
    assert len(seen) > 25, seen


# -- corrupted match JSON (and Match objects changed after reading) ---------------

def _mutate_match(m, rnd):
    ev = m.events
    op = rnd.randrange(14)
    if not ev:
        return
    i = rnd.randrange(len(ev))
    e = ev[i]
    if op == 0:
        del ev[i]
    elif op == 1 and i + 1 < len(ev):
        ev[i], ev[i + 1] = ev[i + 1], ev[i]
    elif op == 2:
        ev[i] = e._replace(tile=rnd.choice(TILE_CODES))
    elif op == 3:
        ev[i] = e._replace(seat=rnd.randrange(4))
    elif op == 4 and e.kind in ("CHI", "PENG", "GANG", "HU"):     # losing claims, as a match JSON gives them
        s = rnd.randrange(4)
        r = rnd.choice(["HU", "GANG", f"PENG {rnd.choice(TILE_CODES)}", f"CHI {rnd.choice(TILE_CODES)} "
                        f"{rnd.choice(TILE_CODES)}", "PLAY W1", "PASS", "HU W1", "CHI X1 W2", "", "PENG"])
        ev[i] = e._replace(ignored=tuple(e.ignored) + (Claim(s, (r.split() or ["HU"])[0], None, r),))
    elif op == 5 and e.kind in ("CHI", "PENG"):
        ev[i] = e._replace(discard=rnd.choice(TILE_CODES))
    elif op == 6:                                                 # an error ending on the last events
        del ev[rnd.randrange(len(ev)):]
        m.end = "error"
        m.end_pos = (ev[-1].pos + 1) if ev else 5
        m.error_seat = rnd.randrange(4)
        m.error_code = rnd.choice(["WA", "WH", "TLE"])
        m.error_response = rnd.choice(["PLAY W1", "HU", "PASS", "GANG W3", "PENG B2", "CHI T3 W1", "BUGANG F1",
                                       "xyz", None])
        m.recorded_scores = rnd.choice([None, [-30 if s == m.error_seat else 10 for s in range(4)],
                                        [10, 10, 10, -30]])
    elif op == 7:                                                 # a Huang or a Hu where the game went on
        del ev[rnd.randrange(len(ev)):]
        m.end = rnd.choice(["huang", "hu", None])
        m.end_pos = 9999
        m.recorded_scores = rnd.choice([None, [0, 0, 0, 0], [1, 0, 0, -1]])
    elif op == 8:                                                 # a claim inserted
        s = rnd.randrange(4)
        kind = rnd.choice(["CHI", "PENG", "GANG", "HU", "BUHUA"])
        ev.insert(i, Event(e.pos, s, kind, rnd.choice(TILES), rnd.choice(TILE_CODES), e.pos))
    elif op == 9 and m.walls is not None:                         # another wall
        w = [list(x) for x in m.walls]
        s = rnd.randrange(4)
        w[s][rnd.randrange(13, 34)] = rnd.choice(TILE_CODES)
        m.walls = w
    elif op == 11:                                                # a claim on an added kong
        kongs = [k for k, x in enumerate(ev) if x.kind == "BUGANG"]
        if kongs:
            k = rnd.choice(kongs)
            x = ev[k]
            kind = rnd.choice(["PENG", "CHI", "GANG", "HU", "HU"])
            ev.insert(k + 1, Event(x.pos + 1, (x.seat + rnd.randrange(1, 4)) % 4, kind,
                                   rnd.choice([x.tile, None]) if kind != "CHI" else x.tile, x.tile, x.pos + 1))
    elif op == 12:                                                # one draw more at the end
        last = ev[-1]
        ev.append(Event(last.pos + 1, (last.seat + rnd.randrange(2)) % 4, "DRAW", rnd.choice(TILES)))
    elif op == 13:                                                # an event of no known kind
        ev.insert(i, Event(e.pos, e.seat, rnd.choice(["FOO", "DRAW", "PLAY"]), "X9" if rnd.random() < 0.5 else "H2"))
    elif op == 10:
        m.flowers[rnd.randrange(4)] = ["H1"] if rnd.random() < 0.2 else []
        m.deals[rnd.randrange(4)][rnd.randrange(13)] = rnd.choice(TILE_CODES)


def test_corrupted_json(records):
    rnd = random.Random(11)
    objs = [rec.to_botzone_json() for rec in records]
    objs += [make(match_id=f"h{k}") for k, make in enumerate((H.selfdrawn_json, H.claims_json, H.wa_json,
                                                              H.huang_json))]
    seen = set()
    for k in range(_n(2000)):
        obj = rnd.choice(objs)
        if rnd.random() < 0.3:
            # the JSON itself changed: a response, a display's tile or player
            obj = json.loads(json.dumps(obj))
            logs = obj["logs"]
            j = rnd.randrange(len(logs))
            x = logs[j]
            if "output" in x:
                d = x["output"]["display"]
                if "tile" in d:
                    d["tile"] = rnd.choice(TILE_CODES)
                elif "player" in d:
                    d["player"] = rnd.randrange(4)
            else:
                x[str(rnd.randrange(4))]["response"] = rnd.choice(["PASS", "HU", "PENG W1", "GANG", "CHI B2 W3"])
        m = match_from_json(obj, f"j{k}")
        for _ in range(rnd.randrange(1, 3)):
            _mutate_match(m, rnd)
        got = same(m)
        seen.add(got[3].split(":")[0][:40] if got[0] != "ok" else got[1])
    assert len(seen) > 25, seen


def test_old_fastreplay_names_give_the_driver_answer(records):
    from mjfast.logs import fastreplay
    for rec in records[:20]:
        for m in text_matches(rec.to_botzone_text()) + [match_from_json(rec.to_botzone_json(), rec.match_id)]:
            r = L.replay(m)
            got = fastreplay.replay_compiled(m, m.walls and ref._walls_for(m))
            if r.outcome == "huang":
                assert got == ("huang", None)
            else:
                (w,) = r.wins
                assert got == ("hu", (w.winner, w.discarder, TILE_CODES.index(w.tile), w.hand, w.melds,
                                      w.self_drawn, w.fourth_tile, w.last_tile, w.kong))
