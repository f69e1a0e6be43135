"""The test oracle of the game engine: the Python state machine of one MCR
game under the Botzone judge's rules, as mjfast.game.GameState was before
the rules moved into the compiled engine (src/_engine.pyx).  It is not part
of the package: tests/test_game_engine_diff.py steps it and GameState side
by side and requires the same state, legal actions, requests, win context,
refusals and results at every step.

Tiles are indices 0-33 (see :mod:`mjfast.tiles`); responses use Botzone codes
(``"PLAY W1"``).  Flowers (table play only) are 34-41 = ``H1``..``H8``.

The duplicate format (default): each seat has its own wall of 34 tiles, 13
dealt and 21 drawn in order; a kong's replacement is the next tile of the same
wall; seat 0 draws first.  Table play (``wall=``): one shared wall dealt 13 to
each seat in seat order, draws from its front, kong and flower replacements
from its back; flowers are set aside as drawn (``BUHUA``).
"""
from __future__ import annotations

from typing import Optional

from mjfast.errors import NotWinning
from mjfast.game.state import CODES, N_KINDS, score_win
# the game's data types and tile codes are the package's: the oracle is its
# transitions (below), not a second copy of what a meld or a win holds
from mjfast.game.state import ERROR_WA, ERROR_WH, GameMeld, IllegalAction, Win, code_of, tile_of

from .seat_rules import SeatRules

__all__ = ["GameState", "IllegalAction", "GameMeld", "Win", "CODES", "code_of", "tile_of", "score_win"]

_INDEX = {c: i for i, c in enumerate(CODES)}


def _walls_arg(walls):
    if len(walls) != 4:
        raise ValueError(f"walls: expected 4 walls (one per seat), got {len(walls)}")
    out = []
    total = [0] * N_KINDS
    for s, w in enumerate(walls):
        if isinstance(w, str):
            w = w.split()
        w = [tile_of(x) for x in w]
        if len(w) != 34:
            raise ValueError(f"walls: seat {s}'s wall has {len(w)} tiles, expected 34")
        for t in w:
            if t >= N_KINDS:
                raise ValueError(f"walls: flower {CODES[t]} in seat {s}'s wall (the duplicate format has none)")
            total[t] += 1
        out.append(w)
    for t in range(N_KINDS):
        if total[t] != 4:
            raise ValueError(f"walls: {total[t]} copies of {CODES[t]}, the 136 tiles hold exactly 4")
    return out


class GameState(SeatRules):
    """One game.  See the module docstring; the phases:

    * ``"draw"``: ``current`` is to draw (:meth:`draw`).
    * ``"turn"``: ``current`` holds 14 tiles and answers :meth:`turn`.
    * ``"claim"``: ``current`` discarded ``last_tile``; :meth:`claim` takes the others' answers.
    * ``"rob"``: ``current`` added a kong of ``last_tile``; :meth:`claim` takes the others' answers.
    * ``"over"``: ``win`` / ``error`` / Huang; ``scores`` holds the settlement.

    What a seat may answer (``legal_actions``, ``kong_allowed``,
    ``claims_allowed``, ``hu_context``, ``hu_value``, ``hu_ok``) comes from
    :class:`reference.seat_rules.SeatRules`, shared with the bots' view
    of a game; ``after_kong`` says the current draw replaces a kong.
    """

    def __init__(self, quan: int = 0, walls=None, deals=None, *, wall=None):
        if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan <= 3:
            raise ValueError(f"quan (the prevalent wind) must be 0-3, got {quan!r}")
        self.quan = quan
        self.hands = [[0] * N_KINDS for _ in range(4)]
        self.melds = [[] for _ in range(4)]
        self.discards = [[] for _ in range(4)]     # the river: discards nobody claimed
        self.flowers = [[] for _ in range(4)]
        self.shown = [0] * N_KINDS
        self.deals = [[] for _ in range(4)]        # the 13 dealt tiles, in wall order (flowers set aside)
        self.log = []                              # events, for the records (see record.py)
        self.phase = "draw"
        self.current = 0
        self.last_tile = None
        self.win: Optional[Win] = None
        self.error = None                          # (seat, code, reason) after the error rule
        self.scores = None
        self.huang = False
        self.after_kong = False                   # current's next/last draw replaces a kong
        self._event = None                         # the last event: (kind, seat, tile, extra)
        self._replacement = False                  # table play: the next draw comes from the back
        self.table = wall is not None
        given = [x is not None for x in (walls, deals, wall)]
        if sum(given) != 1:
            raise ValueError("give exactly one of walls (duplicate format), deals (walls unknown) or wall (table play)")
        if walls is not None:
            self.walls = _walls_arg(walls)
            self._pos = [13] * 4
            for s in range(4):
                self._deal(s, self.walls[s][:13])
        elif deals is not None:
            self.walls = None
            self._pos = [13] * 4
            if len(deals) != 4:
                raise ValueError(f"deals: expected 4 hands, got {len(deals)}")
            seen = self._seen = [0] * N_KINDS
            for s, d in enumerate(deals):
                d = [tile_of(x) for x in (d.split() if isinstance(d, str) else d)]
                if len(d) != 13 or any(t >= N_KINDS for t in d):
                    raise ValueError(f"deals: seat {s} needs 13 tiles (no flowers), got {len(d)}")
                for t in d:
                    seen[t] += 1
                    if seen[t] > 4:
                        raise ValueError(f"deals: fifth copy of {CODES[t]}")
                self._deal(s, d)
        else:
            self._init_table(wall)

    # ------------------------------------------------------------------ setup

    def _deal(self, s, tiles):
        h = self.hands[s]
        for t in tiles:
            h[t] += 1
        self.deals[s] = list(tiles)
        self.log.append(("Deal", s, list(tiles)))

    def _init_table(self, wall):
        w = [tile_of(x) for x in (wall.split() if isinstance(wall, str) else wall)]
        n_flowers = sum(1 for t in w if t >= N_KINDS)
        if len(w) - n_flowers != 136:
            raise ValueError(f"wall: {len(w) - n_flowers} tiles besides flowers, expected 136")
        cnt = [0] * len(CODES)
        for t in w:
            cnt[t] += 1
        for t in range(len(CODES)):
            if cnt[t] > (1 if t >= N_KINDS else 4) or (t < N_KINDS and cnt[t] != 4):
                raise ValueError(f"wall: {cnt[t]} copies of {CODES[t]}")
        self.walls = None
        self._wall = w
        self._front = 0
        self._back = len(w)
        for s in range(4):
            tiles = []
            while len(tiles) < 13:
                t = w[self._front]
                self._front += 1
                if t >= N_KINDS:
                    self.flowers[s].append(t)
                else:
                    tiles.append(t)
            self._deal(s, tiles)

    # ------------------------------------------------------------------ walls

    def wall_left(self, seat: int) -> int:
        """Tiles left to draw in ``seat``'s wall (table play: in the shared wall)."""
        if self.table:
            return self._back - self._front
        return 34 - self._pos[seat]

    @property
    def tile_counts(self):
        """Tiles left in each seat's wall (the records' ``tileCnt``)."""
        return [self.wall_left(s) for s in range(4)]

    # ------------------------------------------------------------------ requests (the protocol)

    def init_request(self, seat: int) -> str:
        return f"0 {seat} {self.quan}"

    def deal_request(self, seat: int) -> str:
        nf = " ".join(str(len(self.flowers[s])) for s in range(4))
        tiles = " ".join(CODES[t] for t in self.deals[seat])
        fl = "".join(" " + CODES[f] for s in range(4) for f in self.flowers[s])
        return f"1 {nf} {tiles}{fl}"

    def request(self, seat: int) -> Optional[str]:
        """The request ``seat`` receives for the last event (None before the first draw)."""
        ev = self._event
        if ev is None:
            return None
        kind, p, t, extra = ev
        if kind == "DRAW":
            return f"2 {CODES[t]}" if seat == p else f"3 {p} DRAW"
        if kind == "GANG":
            return f"3 {p} GANG"
        if kind == "CHI":
            return f"3 {p} CHI {CODES[extra]} {CODES[t]}"
        return f"3 {p} {kind} {CODES[t]}"     # PLAY, PENG, BUGANG, BUHUA

    @property
    def event(self):
        """The last event: (kind, seat, tile, extra); kind in DRAW PLAY PENG CHI GANG BUGANG BUHUA HU."""
        return self._event

    def acknowledge(self, seat: int, response) -> None:
        """A seat's answer to a request that only allows PASS (the deal, another
        seat's draw, a kong, a flower): anything else breaks the rules."""
        if response != "PASS":
            raise IllegalAction(seat, f"must answer PASS here, answered {response!r}")

    # ------------------------------------------------------------------ draw

    def draw(self, tile=None):
        """Phase "draw": ``current`` draws.  Returns the tile, or None when the
        wall is empty (the game ends, Huang).  In table play a flower is set
        aside and returned (34-41); ``current`` then draws again."""
        if self.phase != "draw":
            raise IllegalAction(self.current, f"cannot draw in phase {self.phase!r}")
        s = self.current
        if self.wall_left(s) == 0:
            self.phase = "over"
            self.huang = True
            self.scores = [0, 0, 0, 0]
            self._event = ("HUANG", s, None, None)
            self.log.append(("Huang",))
            return None
        if tile is not None:
            tile = tile_of(tile)
        if self.table:
            if self._replacement:
                self._back -= 1
                t = self._wall[self._back]
            else:
                t = self._wall[self._front]
                self._front += 1
        elif self.walls is not None:
            t = self.walls[s][self._pos[s]]
            self._pos[s] += 1
        else:
            if tile is None:
                raise IllegalAction(s, "the walls are unknown: draw() needs the tile drawn")
            if tile >= N_KINDS:
                raise IllegalAction(s, f"drew flower {CODES[tile]} in the duplicate format")
            if self._seen[tile] >= 4:
                raise IllegalAction(s, f"drew a fifth copy of {CODES[tile]}")
            self._seen[tile] += 1
            t = tile
            self._pos[s] += 1
        if tile is not None and tile != t:
            raise IllegalAction(s, f"drew {CODES[tile]} but the next tile of the wall is {CODES[t]}")
        if t >= N_KINDS:
            self.flowers[s].append(t)
            self._replacement = True       # table play: the replacement comes from the back
            self._event = ("BUHUA", s, t, None)
            self.log.append(("BuHua", s, t))
            return t
        self._replacement = False
        self.hands[s][t] += 1
        self.last_tile = t
        self.phase = "turn"
        self._event = ("DRAW", s, t, None)
        self.log.append(("Draw", s, t))
        return t

    # ------------------------------------------------------------------ helpers

    def _parse(self, seat, response):
        if not isinstance(response, str):
            raise IllegalAction(seat, f"a response must be a string, got {type(response).__name__}")
        parts = response.split()
        if not parts:
            raise IllegalAction(seat, "empty response")
        tiles = []
        for p in parts[1:]:
            t = _INDEX.get(p)
            if t is None or t >= N_KINDS:
                raise IllegalAction(seat, f"unknown tile {p!r} in response {response!r}")
            tiles.append(t)
        return parts[0], tiles

    def _win_or_raise(self, seat):
        ctx = self.hu_context(seat)
        tile = ctx["tile"]
        try:
            hand, sc = self.score_hand(seat, ctx)
        except NotWinning:
            raise IllegalAction(seat, f"declared Hu on {CODES[tile]} but the hand does not win", ERROR_WH) from None
        nfl = len(self.flowers[seat])
        if sc.total - nfl < 8:
            raise IllegalAction(seat, f"declared Hu on {CODES[tile]} with {sc.total - nfl} points, under the minimum 8",
                                ERROR_WH)
        sd = ctx["self_drawn"]
        return Win(seat, None if sd else self.current, tile, hand, sd, ctx["fourth_tile"], ctx["last_tile"],
                   ctx["kong"], ctx["kong"] and not sd, seat, self.quan, nfl, sc.total, sc.fans)

    def _settle_win(self, w: Win):
        f = w.total
        if w.self_drawn:
            sc = [-(8 + f)] * 4
            sc[w.winner] = 3 * (8 + f)
        else:
            sc = [-8] * 4
            sc[w.winner] = 24 + f
            sc[w.from_seat] = -(8 + f)
        self.win = w
        self.scores = sc
        self.phase = "over"

    def fail(self, seat: int, code: str = ERROR_WA, reason: str = ""):
        """The error rule: ``seat`` loses 30, each other seat gains 10; the game is over."""
        self.phase = "over"
        self.error = (seat, code, reason)
        self.scores = [10] * 4
        self.scores[seat] = -30
        self._event = (code, seat, None, None)
        self.log.append(("Error", seat, code, reason))

    # ------------------------------------------------------------------ the drawer's turn

    def turn(self, response: str):
        """Phase "turn": the drawer's answer ``PLAY t`` | ``GANG t`` | ``BUGANG t`` | ``HU``."""
        s = self.current
        if self.phase != "turn":
            raise IllegalAction(s, f"no turn to play in phase {self.phase!r}")
        op, tiles = self._parse(s, response)
        h = self.hands[s]
        if op == "PLAY" and len(tiles) == 1:
            t = tiles[0]
            if h[t] == 0:
                raise IllegalAction(s, f"discards {CODES[t]}, which is not in the hand")
            h[t] -= 1
            self.discards[s].append(t)
            self.last_tile = t
            self.phase = "claim"
            self.after_kong = False
            self._event = ("PLAY", s, t, None)
            self.log.append(("Play", s, t))
            return
        if op == "HU" and not tiles:
            t = self.last_tile
            w = self._win_or_raise(s)
            self._event = ("HU", s, t, None)
            self.log.append(("Hu", s, t, ()))
            self._settle_win(w)
            return
        if op == "GANG" and len(tiles) == 1:
            t = tiles[0]
            if h[t] != 4:
                raise IllegalAction(s, f"concealed kong of {CODES[t]} needs four in the hand, holds {h[t]}")
            if not self.kong_allowed(s):
                raise IllegalAction(s, "no kong when the own or the next seat's wall is empty")
            h[t] = 0
            self.melds[s].append(GameMeld("kong", t, None, None))
            self.phase = "draw"
            self.after_kong = self._replacement = True
            self._event = ("GANG", s, t, None)
            self.log.append(("AnGang", s, t))
            return
        if op == "BUGANG" and len(tiles) == 1:
            t = tiles[0]
            m = next((m for m in self.melds[s] if m.kind == "pung" and m.tile == t), None)
            if m is None:
                raise IllegalAction(s, f"adds a kong of {CODES[t]} without a melded pung of it")
            if h[t] == 0:
                raise IllegalAction(s, f"adds a kong of {CODES[t]} without holding the fourth tile")
            if not self.kong_allowed(s):
                raise IllegalAction(s, "no kong when the own or the next seat's wall is empty")
            h[t] -= 1
            m.kind = "kong"
            m.added = True
            self.shown[t] = 4
            self.last_tile = t
            self.phase = "rob"
            self.after_kong = False
            self._event = ("BUGANG", s, t, None)
            self.log.append(("BuGang", s, t))
            return
        raise IllegalAction(s, f"invalid answer {response!r} to a draw (PLAY t, GANG t, BUGANG t or HU)")

    # ------------------------------------------------------------------ claims

    def _check_claim(self, s, response, d, t, rob):
        """Validate one answer to a discard / an added kong.  Returns
        (rank, kind, data): rank 0 PASS, 3 HU, 2 PENG/GANG, 1 CHI."""
        if response == "PASS":
            return 0, "PASS", None
        op, tiles = self._parse(s, response)
        if s == d:
            raise IllegalAction(s, f"must answer PASS to its own {'kong' if rob else 'discard'}, answered {response!r}")
        if op == "HU" and not tiles:
            w = self._win_or_raise(s)
            return 3, "HU", w
        if rob:
            raise IllegalAction(s, f"may only answer PASS or HU to an added kong, answered {response!r}")
        if op not in ("PENG", "CHI", "GANG"):
            raise IllegalAction(s, f"invalid answer {response!r} to a discard")
        if not self.claims_allowed(d):
            raise IllegalAction(s, f"{op} on a discard when the wall after the discarder "
                                   f"(seat {(d + 1) % 4}'s) is empty")
        h = self.hands[s]
        if op == "GANG" and not tiles:
            if h[t] != 3:
                raise IllegalAction(s, f"kong of {CODES[t]} needs three in the hand, holds {h[t]}")
            if not self.kong_allowed(s, d):
                raise IllegalAction(s, "no melded kong when the own wall is empty (no replacement tile)")
            return 2, "GANG", None
        if op == "PENG" and len(tiles) == 1:
            if h[t] < 2:
                raise IllegalAction(s, f"pung of {CODES[t]} needs two in the hand, holds {h[t]}")
            x = tiles[0]
            if h[x] - (2 if x == t else 0) <= 0:
                raise IllegalAction(s, f"after the pung, discards {CODES[x]}, which is not in the hand")
            return 2, "PENG", x
        if op == "CHI" and len(tiles) == 2:
            if s != (d + 1) % 4:
                raise IllegalAction(s, f"chow only from the previous seat; {d} is not seat {s}'s previous seat")
            m, x = tiles
            if m >= 27 or t >= 27 or m // 9 != t // 9 or not 1 <= m % 9 <= 7 or abs(m - t) > 1:
                raise IllegalAction(s, f"{CODES[m]} is not the middle of a chow with {CODES[t]}")
            need = [m - 1, m, m + 1]
            need.remove(t)
            if not (h[need[0]] and h[need[1]]):
                raise IllegalAction(s, f"chow {CODES[m - 1]}{CODES[m]}{CODES[m + 1]}: "
                                    f"{' and '.join(CODES[u] for u in need)} not in the hand")
            for u in need:
                h[u] -= 1
            left = h[x]
            for u in need:
                h[u] += 1
            if left <= 0:
                raise IllegalAction(s, f"after the chow, discards {CODES[x]}, which is not in the hand")
            return 1, "CHI", (m, x)
        raise IllegalAction(s, f"invalid answer {response!r} to a discard")

    def claim(self, responses):
        """Phase "claim" / "rob": the seats' answers (a dict seat -> response or a
        list of 4; a missing seat passes).  Every answer is checked (seat order
        0-3; the first illegal one raises).  Hu > Peng/Gang > Chi, ties to the
        first seat after the discarder.  Applies the winning claim and returns
        (seat, response), or None when all pass."""
        if self.phase not in ("claim", "rob"):
            raise IllegalAction(self.current, f"no claim to answer in phase {self.phase!r}")
        rob = self.phase == "rob"
        d = self.current
        t = self.last_tile
        if isinstance(responses, dict):
            get = responses.get
            resp = [get(s, "PASS") for s in range(4)]
        else:
            resp = list(responses)
            if len(resp) != 4:
                raise ValueError(f"claim(): 4 responses (one per seat) or a dict, got {len(resp)}")
        best = None
        checked = []
        for s in range(4):
            r = resp[s]
            if r == "PASS":
                continue
            rank, kind, data = self._check_claim(s, r, d, t, rob)
            if rank:
                checked.append((rank, (s - d) % 4, s, kind, data, r))
        if not checked:
            if rob:
                self.phase = "draw"
                self.after_kong = self._replacement = True     # the kong stands: its owner draws the replacement
            else:
                self.shown[t] += 1
                self.current = (d + 1) % 4
                self.phase = "draw"
            return None
        checked.sort(key=lambda c: (-c[0], c[1]))
        rank, _, s, kind, data, r = checked[0]
        ignored = tuple((c[2], c[3], self._claim_tile(c[3], c[4], t)) for c in checked[1:])
        if kind == "HU":
            # the winning tile moves into the winner's hand: from the river, or
            # from the robbed kong (which is a pung again)
            if rob:
                m = next(m for m in self.melds[d] if m.added and m.tile == t)
                m.kind, m.added = "pung", False
            else:
                self.discards[d].pop()
            self.hands[s][t] += 1
            self._event = ("HU", s, t, None)
            self.log.append(("Hu", s, t, ignored))
            self._settle_win(data)
            return s, r
        # the claimed tile leaves the discarder's river
        self.discards[d].pop()
        h = self.hands[s]
        if kind == "GANG":
            h[t] -= 3
            self.melds[s].append(GameMeld("kong", t, d, t))
            self.shown[t] = 4
            self.current = s
            self.phase = "draw"
            self.after_kong = self._replacement = True
            self._event = ("GANG", s, t, None)
            self.log.append(("Gang", s, t, ignored))
            return s, r
        if kind == "PENG":
            x = data
            h[t] -= 2
            self.melds[s].append(GameMeld("pung", t, d, t))
            self.shown[t] += 3
            self.log.append(("Peng", s, t, ignored))
            ev = ("PENG", s, x, None)
        else:
            m, x = data
            h[t] += 1
            for u in (m - 1, m, m + 1):
                h[u] -= 1
                self.shown[u] += 1
            self.melds[s].append(GameMeld("chow", m - 1, d, t))
            self.log.append(("Chi", s, m, ignored))
            ev = ("CHI", s, x, m)
        h[x] -= 1
        self.discards[s].append(x)
        self.log.append(("Play", s, x))
        self.last_tile = x
        self.current = s
        self.phase = "claim"
        self.after_kong = False
        self._event = ev
        return s, r

    @staticmethod
    def _claim_tile(kind, data, t):
        return data[0] if kind == "CHI" else t

    # ------------------------------------------------------------------ views

    def hand_tiles(self, seat: int) -> list:
        """Concealed tiles of ``seat`` as a sorted list of indices."""
        return [t for t in range(N_KINDS) for _ in range(self.hands[seat][t])]

    def remaining(self) -> list:
        """Per tile kind, copies not yet in any hand, meld or river (the walls' contents)."""
        c = [4] * N_KINDS
        for s in range(4):
            for t in range(N_KINDS):
                c[t] -= self.hands[s][t]
            for m in self.melds[s]:
                for u in m.tiles():
                    c[u] -= 1
            for u in self.discards[s]:
                c[u] -= 1
        return c
