"""An independent judge for the logs tests: a small replayer of the text
archive written from formats.md alone (it shares no code with mjfast.game or
mjfast.logs), scoring each win with the reference calculator PyMahjongGB the
way the platform's judge calls it.

It checks nothing (the engine does that); it follows the log and computes
what the judge would have used for a win:

* self-drawn: the Hu comes right after the winner's own draw;
* kong: that draw came right after the winner's own kong (AnGang, Gang, or a
  BuGang nobody robbed), or the Hu robs a BuGang;
* last tile: the wall of the seat after the one who acted last (who drew,
  discarded, or added the kong) is empty;
* fourth tile: three copies of the winning tile are shown: a discard counts
  once it passes unclaimed, a chow one per tile, a pung three, a melded or
  added kong sets four; concealed kongs and hands are not shown.

``to_json`` writes a text match as the platform's match JSON (judge entries
with their request strings and ``display``, ``canHu`` and ``tileCnt``
included, and the bot entries with each seat's response), so the hand-written
text fixtures can be read back as JSON too.
"""
import json
from collections import Counter

try:
    import MahjongGB
except ImportError:  # the tests that need it are marked `oracle`
    MahjongGB = None

CODES = [f"{s}{n}" for s in "WBT" for n in range(1, 10)] + [f"F{n}" for n in range(1, 5)] + \
        [f"J{n}" for n in range(1, 4)]
ORDER = {c: i for i, c in enumerate(CODES)}


def split_matches(text):
    """[(match id, first line number, [(line number, words)])] of a text archive."""
    out = []
    for n, raw in enumerate(text.split("\n"), 1):
        w = raw.split()
        if not w:
            continue
        if w[0] == "Match":
            out.append((w[1], n, []))
        out[-1][2].append((n, w))
    return out


class Judge:
    """Follows one text match, line by line (``feed``)."""

    def __init__(self, quan, deals):
        self.quan = quan
        self.hands = [Counter(d) for d in deals]
        self.deals = [list(d) for d in deals]
        self.melds = [[] for _ in range(4)]     # PyMahjongGB packs: [kind, tile, offer]
        self.left = [21] * 4                    # draws left in each seat's own wall
        self.shown = Counter()
        self.drawn = [[] for _ in range(4)]     # each seat's draws in order (to rebuild walls)
        self.prev = None                        # the previous event (kind, seat, tile)
        self.live = None                        # (seat, tile) of a discard or added kong on offer
        self.after_kong = False                 # the drawer's draw replaces its kong
        self.actor = None                       # the seat that acted last (drew, discarded, added a kong)
        self.win = None
        self.huang = False

    # -- following the log
    def _pass_live(self):
        """The discard on offer passed unclaimed: it is shown from now on."""
        if self.live is not None and self.prev[0] == "Play":
            self.shown[self.live[1]] += 1
        self.live = None

    def feed(self, kind, seat, tile, ignored=(), discard=None):
        """One event: kind Draw Play Chi Peng Gang AnGang BuGang Hu Huang;
        for Chi ``tile`` is the middle tile and ``discard`` the tile then played."""
        h = self.hands[seat] if seat is not None else None
        if kind == "Draw":
            self._pass_live()
            self.after_kong = self.prev is not None and self.prev[0] in ("AnGang", "Gang", "BuGang") \
                and self.prev[1] == seat
            h[tile] += 1
            self.left[seat] -= 1
            self.drawn[seat].append(tile)
            self.actor = seat
        elif kind == "Play":
            h[tile] -= 1
            self.live = (seat, tile)
            self.actor = seat
        elif kind == "Chi":
            d, t = self.live
            m = ORDER[tile]
            run = [CODES[m - 1], tile, CODES[m + 1]]
            h[t] += 1
            for u in run:
                h[u] -= 1
                self.shown[u] += 1
            # offer: which tile of the chow was claimed (1 lowest, 2 middle, 3 highest)
            self.melds[seat].append(["CHI", tile, run.index(t) + 1])
            self.live = None
            self.prev = (kind, seat, tile)
            return self.feed("Play", seat, discard)
        elif kind == "Peng":
            d, t = self.live
            h[t] -= 2
            self.shown[t] += 3
            # offer: where the discarder sits (1 previous seat, 2 opposite, 3 next seat)
            self.melds[seat].append(["PENG", t, (seat - d) % 4])
            self.live = None
            self.prev = (kind, seat, tile)
            return self.feed("Play", seat, discard)
        elif kind == "Gang":
            d, t = self.live
            h[t] -= 3
            self.shown[t] = 4
            self.melds[seat].append(["GANG", t, (seat - d) % 4])
            self.live = None
        elif kind == "AnGang":
            h[tile] -= 4
            self.melds[seat].append(["GANG", tile, 0])
        elif kind == "BuGang":
            h[tile] -= 1
            for m in self.melds[seat]:
                if m[0] == "PENG" and m[1] == tile:
                    m[0] = "GANG"
            self.shown[tile] = 4
            self.live = (seat, tile)
            self.actor = seat
        elif kind == "Hu":
            self.win = self._hu(seat)
        elif kind == "Huang":
            self.huang = True
        self.prev = (kind, seat, tile)
        return None

    # -- a win
    def context(self, seat):
        """(tile, discarder or None, self_drawn, fourth, last, kong) if ``seat`` declared Hu now."""
        kind, p, t = self.prev
        if kind == "Draw" and p == seat:
            return t, None, True, self.shown[t] == 3, self.left[(seat + 1) % 4] == 0, self.after_kong
        if self.live is None or self.live[0] == seat:
            return None
        d, t = self.live
        robbing = kind == "BuGang"
        return t, d, False, self.shown[t] == 3, self.left[(self.actor + 1) % 4] == 0, robbing

    def score(self, seat, ctx=None, seat_wind=None, quan=None):
        """(total, [(points, count, zh, en)]) of a Hu by ``seat`` now; None if not a win.
        ``seat_wind`` / ``quan``: other winds to score with (default: seat n = wind n, ``self.quan``)."""
        ctx = ctx or self.context(seat)
        t, d, sd, fourth, last, kong = ctx
        hand = Counter(self.hands[seat])
        if sd:
            hand[t] -= 1
        tiles = tuple(sorted((u for u in hand for _ in range(hand[u])), key=ORDER.get))
        packs = tuple((k, x, o) for k, x, o in self.melds[seat])
        try:
            res = MahjongGB.MahjongFanCalculator(
                packs, tiles, t, 0, sd, fourth, kong, last, seat if seat_wind is None else seat_wind,
                self.quan if quan is None else quan, verbose=True)
        except TypeError as exc:
            if "NOT_WIN" in str(exc):
                return None
            raise
        return sum(p * c for p, c, _zh, _en in res), list(res)

    def can_hu(self, seat):
        """The display's canHu for ``seat``: the total, -3 (declarable, not a win), -4 (cannot declare)."""
        ctx = self.context(seat)
        if ctx is None:
            return -4
        try:
            s = self.score(seat, ctx)
        except TypeError:       # a broken hand (an illegal fixture after its illegal action)
            return -3
        return -3 if s is None else s[0]

    def _hu(self, seat):
        ctx = self.context(seat)
        if ctx is None:         # a Hu with nothing to win on (an illegal fixture)
            return {"winner": seat, "total": None}
        t, d, sd, fourth, last, kong = ctx
        try:
            sc = self.score(seat, ctx)
        except TypeError:       # a broken hand (an illegal fixture)
            sc = None
        total, fans = sc if sc is not None else (None, None)
        return {"winner": seat, "discarder": d, "tile": t, "self_drawn": sd, "fourth_tile": fourth,
                "last_tile": last, "kong": kong, "total": total, "fans": fans,
                "settlement": settlement(total, seat, d) if total is not None else None}

    def walls(self):
        """Each seat's wall as far as the log shows it: the deal, then its draws,
        then the tiles nobody drew (in code order, dealt round-robin)."""
        used = Counter()
        for s in range(4):
            used.update(self.deals[s])
            used.update(self.drawn[s])
        rest = [c for c in CODES for _ in range(4 - used[c])]
        walls = [self.deals[s] + self.drawn[s] for s in range(4)]
        for w in walls:
            while len(w) < 34 and rest:
                w.append(rest.pop(0))
        return walls


def settlement(total, winner, discarder):
    """formats.md: base 8; self-drawn: winner +3(8+F), others -(8+F); on a discard:
    winner 24+F, the discarder -(8+F), the others -8."""
    if discarder is None:
        return [3 * (8 + total) if s == winner else -(8 + total) for s in range(4)]
    return [24 + total if s == winner else (-(8 + total) if s == discarder else -8) for s in range(4)]


def parse(lines):
    """(quan, deals, events, fan line, score line, end) of one match's lines [(n, words)].
    events: (line, kind, seat, tile, ignored [(seat, kind, tile)], discard, discard line)."""
    quan = None
    deals = [None] * 4
    events = []
    fan = score = None
    pending = None
    for n, w in lines:
        if w[0] == "Wind":
            quan = int(w[1])
        elif w[0] == "Fan":
            fan = (int(w[1]), [(x.rpartition("*")[0], int(x.rpartition("*")[2]))
                               for x in "".join(w[2:]).split("+")])
        elif w[0] == "Score":
            score = [int(x) for x in w[1:]]
        elif w[0] == "Huang":
            events.append((n, "Huang", None, None, (), None, None))
        elif w[0] == "Player":
            seat, kind = int(w[1]), w[2]
            if kind == "Deal":
                deals[seat] = w[3:]
                continue
            if pending is not None:
                events.append(pending[:5] + (w[3], n))
                pending = None
                continue
            ign = []
            rest = w[4:]
            while rest:
                ign.append((int(rest[2]), rest[3].capitalize(), rest[4] if len(rest) > 4 else None))
                rest = rest[5:]
            ev = (n, kind, seat, w[3] if len(w) > 3 else None, tuple(ign), None, None)
            if kind in ("Chi", "Peng"):
                pending = ev
            else:
                events.append(ev)
    return quan, deals, events, fan, score


def replay_text(lines):
    """Follow one match; returns the Judge at the end (``.win`` holds the win)."""
    quan, deals, events, _fan, _score = parse(lines)
    j = Judge(quan, deals)
    for n, kind, seat, tile, ign, discard, _dn in events:
        j.feed(kind, seat, tile, ign, discard)
    return j


# -- the platform's match JSON of a text match ------------------------------------------------

def _judge_entry(display, content, command="request"):
    return {"output": {"command": command, "content": content, "display": display}, "time": 0, "verdict": "OK"}


def _bot_entry(resp):
    return {str(s): {"response": resp.get(s, "PASS"), "verdict": "OK", "time": 0} for s in range(4)}


def _filler_discard(hand, avoid=()):
    """A tile a seat could discard after a losing claim (the text does not say which)."""
    for c in CODES:
        if hand[c] > 0 and c not in avoid:
            return c
    return None


def to_json(match_id, lines, walltiles=True):
    """The platform's JSON of one text match, and {text line: log index of the judge
    entry it became} (a Chi/Peng and its Play line become one entry)."""
    quan, deals, events, fan, score = parse(lines)
    j = Judge(quan, deals)
    logs = [_judge_entry({"action": "INIT", "quan": quan}, {str(s): f"0 {s} {quan}" for s in range(4)}), None,
            _judge_entry({"action": "DEAL", "hand": [list(d) for d in deals]},
                         {str(s): "1 0 0 0 0 " + " ".join(deals[s]) for s in range(4)}), None]
    where = {}
    bot = [{}, {}]          # responses for the INIT and DEAL entries: all PASS

    def response_of(ev, hand):
        n, kind, seat, tile, ign, discard, _dn = ev
        return {"Play": f"PLAY {tile}", "AnGang": f"GANG {tile}", "BuGang": f"BUGANG {tile}", "Hu": "HU",
                "Gang": "GANG", "Peng": f"PENG {discard}", "Chi": f"CHI {tile} {discard}"}.get(kind)

    error = None
    if score is not None and sorted(score) == [-30, 10, 10, 10] and not any(e[1] in ("Hu", "Huang") for e in events):
        error = score.index(-30)
    ends_in_false_hu = (error is None and score is not None and sorted(score) == [-30, 10, 10, 10]
                        and events and events[-1][1] == "Hu")
    if ends_in_false_hu:
        error = events[-1][2]
    for i, ev in enumerate(events):
        n, kind, seat, tile, ign, discard, dn = ev
        nxt = events[i + 1] if i + 1 < len(events) else None
        if kind in ("Hu", "Huang"):
            break
        # what the judge shows, and each seat's request
        if kind not in ("Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang"):
            raise ValueError(kind)
        try:
            j.feed(kind, seat, tile, (), discard)
        except (ValueError, TypeError, KeyError):
            pass                # an illegal action of a bad fixture: written as it is, the match ends there
        if kind == "Draw":
            disp = {"action": "DRAW", "player": seat, "tile": tile}
            content = {str(s): (f"2 {tile}" if s == seat else f"3 {seat} DRAW") for s in range(4)}
        elif kind == "Play":
            disp = {"action": "PLAY", "player": seat, "tile": tile}
            content = {str(s): f"3 {seat} PLAY {tile}" for s in range(4)}
        elif kind in ("Chi", "Peng"):
            disp = {"action": kind.upper(), "player": seat, "tile": discard}
            if kind == "Chi":
                disp["tileCHI"] = tile
                content = {str(s): f"3 {seat} CHI {tile} {discard}" for s in range(4)}
            else:
                content = {str(s): f"3 {seat} PENG {discard}" for s in range(4)}
        elif kind in ("Gang", "AnGang"):
            disp = {"action": "GANG", "player": seat, "tile": tile}
            content = {str(s): f"3 {seat} GANG" for s in range(4)}
        elif kind == "BuGang":
            disp = {"action": "BUGANG", "player": seat, "tile": tile}
            content = {str(s): f"3 {seat} BUGANG {tile}" for s in range(4)}
        disp["canHu"] = [j.can_hu(s) if kind in ("Draw", "Play", "Chi", "Peng", "BuGang") else -4
                         for s in range(4)]
        disp["tileCnt"] = list(j.left)
        where[n] = len(logs)
        if dn is not None:
            where[dn] = len(logs)
        logs.append(_judge_entry(disp, content))
        # the seats' responses: the next event's actor, and the losing claims
        resp = {}
        if nxt is not None and nxt[1] not in ("Draw", "Huang"):
            r = response_of(nxt, j.hands[nxt[2]])
            if r is not None:
                resp[nxt[2]] = r
            for s, k, t in nxt[4]:
                h = j.hands[s]
                if k == "Peng":
                    resp[s] = f"PENG {_filler_discard(h, (t,) if h[t] == 2 else ())}"
                elif k == "Chi":
                    m = ORDER[t]
                    need = Counter([CODES[m - 1], t, CODES[m + 1]])
                    need[j.live[1]] -= 1
                    resp[s] = f"CHI {t} {_filler_discard(h - need)}"
                else:
                    resp[s] = k.upper()
        elif nxt is None and error is not None and not ends_in_false_hu:
            # the text archive has no line for the response the judge refused: a false Hu
            resp[error] = "HU"
        logs.append(_bot_entry(resp))
    final = events[-1] if events else None
    if final is not None and final[1] == "Hu" and not ends_in_false_hu:
        n, kind, seat, tile, ign, discard, dn = final
        j.feed("Hu", seat, tile)
        w = j.win
        disp = {"action": "HU", "player": seat, "tile": tile}
        if fan is not None:
            disp["fanCnt"] = fan[0]
            disp["fan"] = [{"name": name, "cnt": c, "value": 0} for name, c in fan[1]]
        disp["score"] = score
        disp["canHu"] = [-4] * 4
        disp["tileCnt"] = list(j.left)
        where[n] = len(logs)
        logs.append(_judge_entry(disp, {str(s): score[s] for s in range(4)}, "finish"))
    elif final is not None and final[1] == "Huang":
        where[final[0]] = len(logs)
        logs.append(_judge_entry({"action": "HUANG", "score": score, "canHu": [-4] * 4, "tileCnt": list(j.left)},
                                 {str(s): score[s] for s in range(4)}, "finish"))
    elif error is not None:
        if ends_in_false_hu:
            where[final[0]] = len(logs)
        logs.append(_judge_entry({"action": "WH", "player": error, "score": score, "canHu": [-4] * 4,
                                  "tileCnt": list(j.left)}, {str(s): score[s] for s in range(4)}, "finish"))
    init = {"quan": quan, "srand": 0}
    if walltiles:
        init["walltiles"] = " ".join(t for w in j.walls() for t in w)
    obj = {"_id": match_id, "status": "Finished", "players": [{"name": f"bot{s}"} for s in range(4)],
           "initdata": json.dumps(init), "logs": [e if e is not None else _bot_entry({}) for e in logs]}
    return obj, where
