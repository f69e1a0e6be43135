#!/usr/bin/env python3
"""Fuzz a bot's view of the game and the bot program's input reader:
``mjfast.botzone.BotState.update`` on request sequences (real games' requests
bent by the input, or requests written from its bytes), and
``mjfast.botzone.__main__.run`` on JSON, simple and keep-running input.

    python fuzz/fuzz_botstate.py fuzz/corpus/botstate -max_total_time=3600

Invariants:

* ``update`` raises nothing but ``ProtocolError``, and a refused request
  leaves the state as it was (its legal answers, hand, melds, rivers, walls
  and shown counts unchanged);
* after every accepted request the view is sound: counts 0-4, no tile kind
  seen more than 4 times (``unseen()`` >= 0), walls 0-21, ``legal_actions()``
  a list of answers in the protocol's grammar (PASS first where it is legal),
  ``hu_total()`` None or an int;
* an unbent game's requests are all accepted, and the view equals the one
  ``from_requests`` builds from the same history;
* the bot program never raises and never exits non-zero; each answer is one
  response line in the interaction's form (one JSON object line, or the
  response line and at most one debug line), always a well-formed response;
  for an unbent history it is one of the seat's legal answers.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# the harness helpers, then this checkout's mjfast (ahead of an installed copy)
sys.path[:0] = [_HERE, os.path.dirname(_HERE)]
from _bytes import Bytes, fuzz_main  # noqa: E402


def _load():
    """Import mjfast on the first input: under atheris after fuzz_main has
    started instrumenting imports (a module imported before is not
    instrumented, and libFuzzer would see no coverage)."""
    global BotState, ProtocolError, KEEP_RUNNING, run, GameState, drive, random_walls, RandomPlayer, CODES, _RESPONSE
    from mjfast.botzone import BotState, ProtocolError
    from mjfast.botzone.__main__ import KEEP_RUNNING, run
    from mjfast.game import GameState, drive, random_walls
    from mjfast.game.players import RandomPlayer
    from mjfast.game.state import CODES
    t = "|".join(CODES[:34])
    _RESPONSE = re.compile(rf"(PASS|HU|GANG|(PLAY|GANG|BUGANG|PENG) ({t})|CHI ({t}) ({t}))")


_RESPONSE = None            # the protocol's answers (set by _load)
_WORDS = ("0", "1", "2", "3", "4", "-1", "23", "123", "00", "+1", "DRAW", "PLAY", "PENG", "CHI", "GANG",
          "BUGANG", "BUHUA", "HU", "PASS", "W1", "B5", "T9", "F4", "J3", "H1", "H8", "X9", "", "\u0663")
_GAMES = {}


def _game(seed: int):
    """One seeded game between random players, as each seat's (requests, responses)."""
    if seed in _GAMES:
        return _GAMES[seed]
    rng = random.Random(seed)
    st = GameState(rng.randrange(4), walls=random_walls(seed))
    players = [RandomPlayer(seed * 4 + s, p_claim=0.7, p_kong=0.9) for s in range(4)]
    reqs = [[] for _ in range(4)]
    resps = [[] for _ in range(4)]

    def ask(st, kind):
        out = []
        for s in range(4):
            r = st.init_request(s) if kind == "INIT" else (st.deal_request(s) if kind == "DEAL" else st.request(s))
            legal = st.legal_actions(s)
            a = players[s].act(st, s) if kind not in ("INIT", "DEAL") and len(legal) > 1 else "PASS"
            if a not in legal:
                a = "PASS" if "PASS" in legal else legal[0]
            reqs[s].append(r)
            resps[s].append(a)
            out.append(a)
        return out

    drive(st, ask)
    if len(_GAMES) < 64:
        _GAMES[seed] = (reqs, resps)
    return reqs, resps


def _bend(b: Bytes, reqs: list) -> list:
    """The requests with a few edits: words replaced, requests dropped,
    repeated, swapped, or written from the input's bytes."""
    out = list(reqs)
    for _ in range(b.int(0, 4)):
        if not out:
            break
        i = b.int(0, len(out) - 1)
        k = b.int(0, 6)
        if k == 0:
            del out[i]
        elif k == 1:
            out.insert(i, out[b.int(0, len(out) - 1)])
        elif k == 2:
            j = b.int(0, len(out) - 1)
            out[i], out[j] = out[j], out[i]
        elif k == 3:
            w = out[i].split()
            if w:
                w[b.int(0, len(w) - 1)] = b.pick(_WORDS)
                out[i] = " ".join(w)
        elif k == 4:
            out[i] = out[i] + " " + b.pick(_WORDS)
        elif k == 5:
            out.insert(i, _text_request(b))
        else:
            out[i] = b.take(b.int(0, 30)).decode("utf-8", "replace")
    return out


def _text_request(b: Bytes) -> str:
    return " ".join(b.pick(_WORDS) for _ in range(b.int(0, 6)))


def _view(st: BotState):
    return (st.seat, st.quan, st.phase, st.current, st.last_tile, st.turn, st.request,
            None if st.hand is None else list(st.hand),
            [[(m.kind, m.tile, m.from_seat, m.claimed, m.added) for m in ms] for ms in st.melds],
            [list(d) for d in st.discards], [list(f) for f in st.flowers], list(st.walls), list(st.shown),
            st.legal_actions())


def _sound(st: BotState):
    acts = st.legal_actions()
    assert isinstance(acts, list) and all(isinstance(a, str) and _RESPONSE.fullmatch(a) for a in acts), acts
    assert all(0 <= w <= 21 for w in st.walls), st.walls
    assert all(0 <= c <= 4 for c in st.shown), st.shown
    if st.hand is not None:
        assert all(0 <= c <= 4 for c in st.hand), st.hand
        assert all(c >= 0 for c in st.unseen()), st.unseen()
        v = st.hu_total()
        assert v is None or isinstance(v, int), v
    assert all(0 <= f - 34 < 8 for fs in st.flowers for f in fs), st.flowers


def _feed(reqs, resps=None, must_accept=False):
    st = BotState()
    for i, r in enumerate(reqs):
        before = _view(st)
        try:
            st.update(r, resps[i] if resps is not None and i < len(resps) else None)
        except ProtocolError as exc:
            assert not must_accept, (i, r, exc)
            assert _view(st) == before, ("a refused request changed the state", r)
            continue
        _sound(st)
    return st


def check_updates(b: Bytes) -> None:
    if b.bool():
        reqs, resps = _game(b.int(0, 40))
        seat = b.int(0, 3)
        r, a = reqs[seat], resps[seat]
        if b.int(0, 3) == 0:                     # the real history: accepted whole
            n = b.int(1, len(r))
            st = _feed(r[:n], a[:n], must_accept=True)
            assert _view(st) == _view(BotState.from_requests(r[:n], a[:n]))
            return
        _feed(_bend(b, r[:b.int(1, len(r))]), a if b.bool() else None)
    else:
        _feed([_text_request(b) if b.int(0, 3) else b.take(b.int(0, 20)).decode("utf-8", "replace")
               for _ in range(b.int(1, 30))])


def _answers(mode: str, text: str, keep: bool):
    """The answers in the program's output."""
    if not text:
        return []
    chunks = text.split(KEEP_RUNNING + "\n") if keep else [text]
    if keep:
        assert chunks[-1] == "", "output after the last keep-running line"
        chunks = chunks[:-1]
    out = []
    for c in chunks:
        lines = c.split("\n")
        assert lines[-1] == "", repr(c)
        lines = lines[:-1]
        if mode == "json":
            assert len(lines) == 1, lines
            obj = json.loads(lines[0])
            assert isinstance(obj, dict) and set(obj) <= {"response", "debug"}, obj
            resp = obj["response"]
        else:
            assert 1 <= len(lines) <= 2, lines
            resp = lines[0]
            if len(lines) == 2:
                assert lines[1].startswith("error") and lines[1].isprintable(), lines[1]
        assert _RESPONSE.fullmatch(resp), resp
        out.append(resp)
    return out


def _program_input(b: Bytes):
    """(mode, input text, the seat's history when it is a clean one)."""
    mode = "json" if b.bool() else "simple"
    reqs, resps = _game(b.int(0, 40))
    seat = b.int(0, 3)
    n = b.int(1, len(reqs[seat]))
    r, a = reqs[seat][:n], resps[seat][:n - 1]
    clean = b.int(0, 2) == 0
    if not clean:
        r = _bend(b, r)
    k = b.int(0, 5)
    if mode == "json":
        if k == 0:
            first = b.pick(("{", "{}", '{"requests": []}', '{"requests": 5}', '{"requests": [1]}',
                            '{"requests": ["0 0 0"], "responses": {}}', "[" * 50, '{"requests": "0 0 0"}'))
            clean = False
        elif k == 1:
            first = "{" + b.take(b.int(0, 40)).decode("utf-8", "replace")
            clean = False
        else:
            first = json.dumps({"requests": r, "responses": a})
        more = []
        for _ in range(b.int(0, 4)):
            j = b.int(0, 4)
            if j == 0:
                more.append(json.dumps(_text_request(b)))
            elif j == 1:
                more.append(b.take(b.int(0, 20)).decode("utf-8", "replace"))
            elif j == 2:
                more.append(json.dumps({"requests": [_text_request(b)]}))
            elif j == 3:
                more.append('"' + _text_request(b))
            else:
                more.append(_text_request(b))
        text = "\n".join([first] + more) + "\n"
    else:
        if k == 0:
            head = b.pick(("0", "-1", "abc", "1.5", "100000000", "\u0663", "2001", "+3", str(n + 1)))
            clean = False
        else:
            head = str(n)
        body = []
        for i, q in enumerate(r[:n]):
            body.append(q)
            if i < n - 1:
                body.append(a[i] if i < len(a) else "PASS")
        more = [_text_request(b) for _ in range(b.int(0, 3))]
        text = "\n".join([head] + body + ["", ""] + more) + "\n"
    if not clean:
        r = None
    return mode, text, r, a


def check_program(b: Bytes) -> None:
    mode, text, reqs, resps = _program_input(b)
    keep = b.int(0, 3) != 0
    if b.int(0, 7) == 0:                      # the input cut short anywhere: no longer a whole history
        text = text[:b.int(0, len(text))]
        reqs = None
    # the program reads the interaction from the first line that is not blank
    first = next((x.strip() for x in text.split("\n") if x.strip()), "")
    mode = "json" if first.startswith("{") else "simple"
    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = run(io.StringIO(text), out, bot_name=b.pick(("sample", "baseline")), once=not keep)
    # 1 exactly when some turn was answered for an error (each has its stderr line), or there was no request
    assert rc == (1 if err.getvalue() else 0), (rc, err.getvalue())
    assert all(ln.startswith("python -m mjfast.botzone: error: ") for ln in err.getvalue().splitlines())
    answers = _answers(mode, out.getvalue(), keep)
    if text.strip() and not text.strip().startswith("\ufffd"):
        assert answers, "no answer"
    if reqs is not None and answers:
        legal = BotState.from_requests(reqs, resps).legal_actions()
        assert answers[0] in legal, (answers[0], legal)


def check(data: bytes) -> None:
    _load()
    b = Bytes(data)
    if b.byte() % 3 == 0:
        check_program(b)
    else:
        check_updates(b)


def seeds():
    r = random.Random(13)
    return [bytes(r.randrange(256) for _ in range(r.randrange(4, 200))) for _ in range(80)]


def main():
    fuzz_main(check, "mjfast.botzone", "mjfast.botzone.state", "mjfast.botzone.__main__", "mjfast.botzone.bots",
              "mjfast.game", "mjfast.game.state")


if __name__ == "__main__":
    main()
