"""Built-in players, for tests, benchmarks and as examples of the protocol.

* :data:`tsumogiri`: discards the tile it drew, passes on everything else.
* :class:`RandomPlayer`: picks among the legal actions with a seeded RNG; it
  wins whenever it legally can, claims and kongs with the given probabilities,
  and discards to keep its hand close to ready (or at random).

Both answer request strings (``respond``) and also implement ``act(state,
seat)``, the fast path :func:`mjfast.game.play` uses to skip building request
strings.  A player bound to a state (``bind``) reads its legal actions from it
instead of tracking the game from the requests itself.
"""
from __future__ import annotations

import random

from .. import _core
from .fast import check_probability
from .state import CODES, N_KINDS

__all__ = ["Tsumogiri", "tsumogiri", "RandomPlayer", "Scripted"]


class Tsumogiri:
    """Discard the drawn tile; pass on everything else.  Never wins."""

    #: the compiled engine's policy number (see mjfast.game.fast.POLICIES)
    compiled_policy = 0

    def respond(self, request: str) -> str:
        if request[0] == "2":
            return "PLAY " + request[2:]
        return "PASS"

    __call__ = respond

    def act(self, st, seat):
        if st.phase == "turn":
            return "PLAY " + CODES[st.last_tile]
        return "PASS"


#: The shared stateless instance.
tsumogiri = Tsumogiri()


class Scripted:
    """A player for fixtures: ``script`` is a list of (request, response)
    pairs answered in order: when the request equals the next pair's request,
    the pair's response is given; any other request gets the default
    behaviour (tsumogiri).  ``requests`` collects what the player received."""

    def __init__(self, script=(), default=None):
        self.script = list(script)
        self.default = default or tsumogiri
        self.requests = []

    def respond(self, request):
        self.requests.append(request)
        if self.script and self.script[0][0] == request:
            return self.script.pop(0)[1]
        return self.default(request)

    __call__ = respond


class RandomPlayer:
    """A seeded random legal player.

    ``p_claim``: probability of taking an offered chow / pung; ``p_kong``: of
    declaring an offered kong (melded, concealed or added); ``p_greedy``: of
    discarding a tile that keeps the shanten lowest (else a random tile).
    It declares Hu whenever that is legal (``p_hu``), so every action occurs.
    Each probability is a number in [0, 1] (else
    :class:`~mjfast.errors.InvalidArgument`).
    """

    def __init__(self, seed=None, p_claim=0.5, p_kong=0.7, p_hu=1.0, p_greedy=0.8):
        self.rng = random.Random(seed)
        self.p_claim = check_probability(p_claim, "p_claim")
        self.p_kong = check_probability(p_kong, "p_kong")
        self.p_hu = check_probability(p_hu, "p_hu")
        self.p_greedy = check_probability(p_greedy, "p_greedy")
        self.state = None
        self.seat = None

    def bind(self, st, seat):
        self.state = st
        self.seat = seat

    def respond(self, request):
        if self.state is None:
            raise RuntimeError("RandomPlayer answers request strings only when bound to a state (play() binds it)")
        return self.act(self.state, self.seat)

    __call__ = respond

    def act(self, st, seat):
        legal = st.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        if "HU" in legal and rng.random() < self.p_hu:
            return "HU"
        kongs = [a for a in legal if a.startswith(("GANG", "BUGANG"))]
        if kongs and rng.random() < self.p_kong:
            return rng.choice(kongs)
        claims = [a for a in legal if a.startswith(("PENG", "CHI"))]
        if claims and rng.random() < self.p_claim:
            return self._best(st, seat, claims)
        plays = [a for a in legal if a.startswith("PLAY")]
        if plays:
            return self._best(st, seat, plays)
        return "PASS"

    def _best(self, st, seat, options):
        """Among responses that end in a discard, one that keeps the hand
        closest to ready (with probability p_greedy), else a random one."""
        rng = self.rng
        if rng.random() >= self.p_greedy:
            return rng.choice(options)
        h = st.hands[seat]
        n_melds = len(st.melds[seat])
        best, best_s = [], 99
        t = st.last_tile
        for a in options:
            parts = a.split()
            c = bytearray(h)
            if parts[0] == "PENG":
                c[t] -= 2
                melds = n_melds + 1
            elif parts[0] == "CHI":
                m = CODES.index(parts[1])
                c[t] += 1
                for u in (m - 1, m, m + 1):
                    c[u] -= 1
                melds = n_melds + 1
            else:
                melds = n_melds
            c[CODES.index(parts[-1])] -= 1
            s = _core.shanten_one(bytes(c), melds, -1)
            if s < best_s:
                best, best_s = [a], s
            elif s == best_s:
                best.append(a)
        return rng.choice(best)
