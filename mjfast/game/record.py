"""GameRecord: one finished game, and its two platform formats.

A record keeps what is needed to replay the game exactly: the walls, the
prevalent wind and every seat's response to every request.  The text archive
lines come from the state's event log; the match JSON replays the game through
:class:`GameState` to write each request and what the platform displays with
it (``canHu``, ``tileCnt``, the fans of a win).
"""
from __future__ import annotations

import json

from ..rules.mcr import MCR
from .actions import OP_BUGANG, OP_CHI, OP_GANG, OP_HU, OP_PASS, OP_PENG, OP_PLAY  # noqa: F401
from .protocol import drive
from .state import CODES, GameState, Win

__all__ = ["GameRecord", "PLATFORM_ZH", "fan_line", "action_string", "log_from_events", "rounds_from_array"]

#: Fan names as the platform's judge writes them (its calculator's Chinese
#: names), by fan id.  They are our table's Chinese names except Closed Wait.
PLATFORM_ZH = {fan.id: fan.zh for fan in MCR}
PLATFORM_ZH[MCR["closed_wait"].id] = "嵌张"


def fan_line(win: Win) -> str:
    """``Fan <total> <name>*<count>+...`` in the platform's order (fan table order)."""
    fans = sorted(win.fans, key=lambda f: f.id)
    return f"Fan {win.total} " + "+".join(f"{PLATFORM_ZH[f.id]}*{f.count}" for f in fans)


class _Exhausted(Exception):
    pass


class GameRecord:
    """A played game.  ``scores``: the settlement; ``win``: the :class:`Win`
    (None for Huang or an error); ``error``: (seat, code, reason) after the
    error rule; ``rounds``: the 4 responses to each request, in order;
    ``log``: the events (what the text archive writes); ``walls`` (duplicate
    format) or ``wall`` (table play); ``quan``; ``seed``; ``match_id``."""

    def __init__(self, quan, walls, wall, rounds, log, scores, win=None, error=None, huang=False, seed=None,
                 match_id=None, error_detail=None, players=None):
        self.quan = quan
        self.walls = walls
        self.wall = wall
        self._rounds = rounds
        self._log = log
        self.scores = scores
        self.win = win
        self.error = error
        self.huang = huang
        self.seed = seed
        if match_id is None:
            match_id = f"mjfast-{seed}" if seed is not None else "mjfast"
        self.match_id = match_id
        self.error_detail = error_detail
        self.players = list(players) if players is not None else ["", "", "", ""]
        self._lazy = None          # compiled games: (events, rounds array), converted on first use

    @property
    def rounds(self) -> list:
        if self._rounds is None:
            self._rounds = rounds_from_array(self._lazy[1])
        return self._rounds

    @property
    def log(self) -> list:
        if self._log is None:
            self._log = log_from_events(self._lazy[0], self.walls)
        return self._log

    def __repr__(self):
        out = "Huang" if self.huang else (f"error {self.error[:2]}" if self.error else f"win by {self.win.winner}")
        return f"GameRecord({self.match_id!r}, {out}, scores={self.scores})"

    @classmethod
    def from_state(cls, st: GameState, rounds, seed=None, match_id=None, error_detail=None):
        walls = [list(w) for w in st.walls] if st.walls is not None else None
        wall = list(st._wall) if st.table else None
        return cls(st.quan, walls, wall, rounds, st.log, st.scores, st.win, st.error, st.huang,
                   seed, match_id, error_detail)

    # ------------------------------------------------------------------ replay

    def new_state(self) -> GameState:
        if self.wall is not None:
            return GameState(self.quan, wall=self.wall)
        return GameState(self.quan, walls=self.walls)

    def replay(self, on_request=None) -> GameState:
        """Replay the recorded responses through a fresh state; returns it at
        the end.  ``on_request(st, kind, responses)`` is called for every request."""
        st = self.new_state()
        it = iter(self.rounds)

        def ask(st, kind):
            try:
                resp = next(it)
            except StopIteration:
                raise _Exhausted() from None
            if on_request is not None:
                on_request(st, kind, resp)
            return resp

        try:
            drive(st, ask)
        except _Exhausted:
            if self.error is None:
                raise ValueError("the record ends before the game does") from None
            st.fail(*self.error)
        return st

    # ------------------------------------------------------------------ text archive

    def to_botzone_text(self) -> str:
        """The match as lines of the platform's text archive."""
        out = [f"Match {self.match_id}", f"Wind {self.quan}"]
        for ev in self.log:
            k = ev[0]
            if k == "Deal":
                out.append(f"Player {ev[1]} Deal " + " ".join(CODES[t] for t in ev[2]))
            elif k in ("Draw", "Play", "AnGang", "BuGang", "BuHua"):
                out.append(f"Player {ev[1]} {k} {CODES[ev[2]]}")
            elif k in ("Chi", "Peng", "Gang", "Hu"):
                line = f"Player {ev[1]} {k} {CODES[ev[2]]}"
                for s, kind, t in ev[3]:
                    line += f" Ignore Player {s} {kind.capitalize()} {CODES[t]}"
                out.append(line)
            elif k == "Huang":
                out.append("Huang")
        if self.win is not None:
            out.append(fan_line(self.win))
        out.append("Score " + " ".join(str(x) for x in self.scores))
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------------ match JSON

    def to_botzone_json(self, as_string: bool = False):
        """The match as the platform's JSON record (a dict; a string with
        ``as_string=True``): ``initdata`` and the alternating judge / bot entries
        of ``logs``, each judge entry with its ``display``."""
        logs = []

        def on_request(st, kind, resp):
            content = {}
            for s in range(4):
                if kind == "INIT":
                    content[str(s)] = st.init_request(s)
                elif kind == "DEAL":
                    content[str(s)] = st.deal_request(s)
                else:
                    content[str(s)] = st.request(s)
            logs.append({"output": {"command": "request", "content": content, "display": _display(st, kind)},
                         "time": 0, "verdict": "OK"})
            logs.append({str(s): {"response": resp[s], "verdict": "OK", "time": 0} for s in range(4)})

        st = self.replay(on_request)
        assert st.scores is not None        # the game is over
        logs.append({"output": {"command": "finish", "content": {str(s): st.scores[s] for s in range(4)},
                                "display": _finish_display(st)}, "time": 0, "verdict": "OK"})
        if self.wall is not None:
            walltiles = " ".join(CODES[t] for t in self.wall)
        else:
            walltiles = " ".join(CODES[t] for w in self.walls for t in w)
        init = {"quan": self.quan, "srand": self.seed if isinstance(self.seed, int) else 0, "walltiles": walltiles}
        # the match id goes where the platform's records keep theirs (``_id``), so a
        # record read back by mjfast.logs keeps the id its text archive shows
        obj = {"_id": self.match_id, "status": "Finished", "players": [{"name": n} for n in self.players],
               "initdata": json.dumps(init, ensure_ascii=False), "logs": logs}
        if as_string:
            return json.dumps(obj, ensure_ascii=False)
        return obj


def _display(st: GameState, kind: str) -> dict:
    d: dict = {"action": kind}
    if kind == "INIT":
        d["quan"] = st.quan
    elif kind == "DEAL":
        d["hand"] = [[CODES[t] for t in st.deals[s]] for s in range(4)]
    else:
        ev = st.event
        d["player"] = ev[1]
        d["tile"] = CODES[ev[2]]
        if kind == "CHI":
            d["tileCHI"] = CODES[ev[3]]
    d["canHu"] = [st.hu_value(s) for s in range(4)] if kind in ("DRAW", "PLAY", "PENG", "CHI", "BUGANG") \
        else [-4] * 4
    d["tileCnt"] = st.tile_counts
    return d


def _finish_display(st: GameState) -> dict:
    assert st.scores is not None            # the game is over
    if st.win is not None:
        w = st.win
        return {"action": "HU", "player": w.winner, "tile": CODES[w.tile],
                "fan": [{"name": PLATFORM_ZH[f.id], "cnt": f.count, "value": f.points}
                        for f in sorted(w.fans, key=lambda f: f.id)],
                "fanCnt": w.total, "score": list(st.scores), "canHu": [-4] * 4, "tileCnt": st.tile_counts}
    if st.error is not None:
        return {"action": st.error[1], "player": st.error[0], "score": list(st.scores),
                "canHu": [-4] * 4, "tileCnt": st.tile_counts}
    return {"action": "HUANG", "score": [0, 0, 0, 0], "canHu": [-4] * 4, "tileCnt": st.tile_counts}


# ---------------------------------------------------------------------------- compiled games
# The compiled engine (mjfast.game.fast) logs events and responses as small
# ints; these turn them into this module's log and response strings.

_EV = {1: "Draw", 2: "Play", 3: "Chi", 4: "Peng", 5: "Gang", 6: "AnGang", 7: "BuGang", 8: "Hu", 9: "Huang"}
_IGN = {OP_HU: "HU", OP_PENG: "PENG", OP_GANG: "GANG", OP_CHI: "CHI"}


def action_string(op, a, b):
    """A compiled action (op, a, b) as the response string."""
    if op == OP_PASS:
        return "PASS"
    if op == OP_HU:
        return "HU"
    if op == OP_GANG:
        return "GANG" if a < 0 else "GANG " + CODES[a]
    if op == OP_CHI:
        return f"CHI {CODES[a]} {CODES[b]}"
    return ("", "PLAY ", "", "BUGANG ", "", "PENG ")[op] + CODES[a]


def log_from_events(events, walls):
    """The Python engine's event log from the compiled events."""
    log = [("Deal", s, list(walls[s][:13])) for s in range(4)]
    for kind, seat, tile, extra in events:
        if kind == 10:                                   # a claim that lost: attach to the claim
            k, s0, t0, ign = log[-1]
            log[-1] = (k, s0, t0, ign + ((seat, _IGN[tile], extra),))
        elif kind in (3, 4, 5, 8):
            log.append((_EV[kind], seat, tile, ()))
        elif kind == 9:
            log.append(("Huang",))
        else:
            log.append((_EV[kind], seat, tile))
    return log


def rounds_from_array(arr):
    return [[action_string(int(op), int(a), int(b)) for op, a, b in r] for r in arr.tolist()]
