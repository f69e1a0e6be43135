"""Helpers for the mjfast.logs tests: build match JSON by hand, entry by entry,
in the shape the platform writes (judge entries with ``display``, bot entries
with each seat's ``response``)."""
import json

DEALS = [
    "W1 W2 W3 W4 W5 W6 W7 W8 W9 B2 B3 B4 T5".split(),
    "B1 B1 B5 B6 T1 T2 T3 T7 T8 F1 F2 J1 J2".split(),
    "B7 B8 B9 T4 T4 T6 T6 F3 F3 J3 J3 W1 W9".split(),
    "B5 B5 T1 T9 T9 F2 F4 F4 J1 J2 W2 W8 B6".split(),
]


def judge(display, command="request", content=None):
    return {"output": {"command": command, "content": content or {}, "display": display},
            "time": 3, "verdict": "OK"}


def bots(responses=None):
    responses = responses or {}
    return {str(s): {"response": responses.get(s, "PASS"), "verdict": "OK", "time": 1} for s in range(4)}


def match_json(quan, deals, steps, finish, initdata="string", walltiles=None, match_id=None):
    """steps: [(display, {seat: response})]; finish: the final display (with
    ``score``).  Returns the match object."""
    logs = [judge({"action": "INIT", "quan": quan}), bots(),
            judge({"action": "DEAL", "hand": [list(d) for d in deals]}), bots()]
    for display, resp in steps:
        logs += [judge(display), bots(resp)]
    score = finish.get("score", [0, 0, 0, 0])
    logs.append(judge(finish, "finish", {str(s): score[s] for s in range(4)}))
    init = {"quan": quan, "srand": 1}
    if walltiles is not None:
        init["walltiles"] = walltiles
    obj = {"status": "Finished", "players": [{"bot": "x"}] * 4,
           "initdata": json.dumps(init) if initdata == "string" else init, "logs": logs}
    if match_id is not None:
        obj["_id"] = match_id
    return obj


def selfdrawn_json(**kw):
    """Seat 0 wins on its first draw (text fixture 'selfdrawn-first-draw')."""
    return match_json(0, DEALS, [({"action": "DRAW", "player": 0, "tile": "T5"}, {0: "HU"})],
                      {"action": "HU", "player": 0, "fanCnt": 23, "score": [93, -31, -31, -31],
                       "fan": [{"name": "清龙", "cnt": 1, "value": 16}, {"name": "不求人", "cnt": 1, "value": 4},
                               {"name": "平和", "cnt": 1, "value": 2}, {"name": "单钓将", "cnt": 1, "value": 1}]},
                      **kw)


def claims_json(**kw):
    """Seat 1 wins on seat 2's B3 while seat 0 (PENG) and seat 3 (CHI) lose
    (text fixture 'hu-beats-peng-and-chi')."""
    deals = ["W1 W2 W3 W4 W5 W6 W7 W8 W9 B3 B3 T5 T6".split(),
             "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 F1 F1".split(),
             "B3 J1 J1 J2 J2 J3 J3 F2 F2 F3 F3 F4 W1".split(),
             "B4 B5 B6 B7 B8 B9 T5 T9 W9 W8 F4 F1 J3".split()]
    steps = [({"action": "DRAW", "player": 0, "tile": "F4"}, {0: "PLAY F4"}),
             ({"action": "PLAY", "player": 0, "tile": "F4"}, {}),
             ({"action": "DRAW", "player": 1, "tile": "J1"}, {1: "PLAY J1"}),
             ({"action": "PLAY", "player": 1, "tile": "J1"}, {}),
             ({"action": "DRAW", "player": 2, "tile": "T9"}, {2: "PLAY B3"}),
             ({"action": "PLAY", "player": 2, "tile": "B3"}, {0: "PENG T6", 1: "HU", 3: "CHI B4 T9"})]
    return match_json(2, deals, steps,
                      {"action": "HU", "player": 1, "fanCnt": 21, "score": [-8, 45, -29, -8],
                       "fan": [{"name": n, "cnt": 1, "value": v} for n, v in
                               (("清龙", 16), ("门前清", 2), ("喜相逢", 1), ("缺一门", 1), ("边张", 1))]}, **kw)


def wa_json(**kw):
    """Seat 0 discards a tile it does not hold: the judge's WA, the error rule."""
    return match_json(0, DEALS, [({"action": "DRAW", "player": 0, "tile": "F1"}, {0: "PLAY J3"})],
                      {"action": "WA", "player": 0, "score": [-30, 10, 10, 10]}, **kw)


def huang_json(**kw):
    """A Huang with the walls given: every seat discards what it draws."""
    from mjfast.logs.model import TILE_CODES
    import random
    tiles = [t for t in TILE_CODES for _ in range(4)]
    random.Random(5).shuffle(tiles)
    walls = [tiles[34 * s:34 * s + 34] for s in range(4)]
    steps = []
    for r in range(21):
        for s in range(4):
            t = walls[s][13 + r]
            steps.append(({"action": "DRAW", "player": s, "tile": t}, {s: f"PLAY {t}"}))
            steps.append(({"action": "PLAY", "player": s, "tile": t}, {}))
    return match_json(1, [w[:13] for w in walls], steps, {"action": "HUANG", "score": [0, 0, 0, 0]},
                      walltiles=" ".join(tiles), **kw)
