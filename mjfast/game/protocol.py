"""The platform's request sequence, driving a :class:`GameState`.

The order of requests is the judge's (see docs/game.md):

1. ``0 seat quan`` to every seat, all answer PASS; 2. the deal, all PASS;
3. a draw: the drawer gets ``2 t`` and answers PLAY/GANG/BUGANG/HU, the others
   get ``3 p DRAW`` and answer PASS;
4. a discard (also the discard after a chow or pung): every seat gets
   ``3 p PLAY t`` (``3 p PENG t`` / ``3 p CHI m t``); the discarder answers
   PASS, the others PASS or a claim;
5. a kong (concealed, or melded from a discard): every seat gets ``3 p GANG``
   and answers PASS, then p draws its replacement;
6. an added kong: every seat gets ``3 p BUGANG t``; the others may answer HU.

Any answer the rules do not allow ends the game by the error rule.
"""
from __future__ import annotations

from .state import N_KINDS, GameState, IllegalAction

__all__ = ["drive"]


def drive(st: GameState, ask):
    """Run ``st`` to the end.  ``ask(st, kind)`` returns the 4 responses to the
    current request; ``kind`` is "INIT", "DEAL" or the last event's kind.  An
    illegal response ends the game by the error rule (``st.fail``)."""
    try:
        for kind in ("INIT", "DEAL"):
            resp = ask(st, kind)
            for s in range(4):
                st.acknowledge(s, resp[s])
        while True:
            ph = st.phase
            if ph == "draw":
                t = st.draw()
                if t is None:
                    return
                if t >= N_KINDS:                   # a flower, set aside: everyone acknowledges
                    resp = ask(st, "BUHUA")
                    for s in range(4):
                        st.acknowledge(s, resp[s])
                    continue
                resp = ask(st, "DRAW")
                cur = st.current
                for s in range(4):                 # the judge reads the answers in seat order
                    if s == cur:
                        st.turn(resp[s])
                        if st.phase == "over":
                            return
                    else:
                        st.acknowledge(s, resp[s])
            elif ph == "claim" or ph == "rob":
                resp = ask(st, st.event[0])
                st.claim(resp)
            else:
                return
            if st.phase == "over":
                return
            if st.event[0] == "GANG":               # a kong is announced; all must pass
                resp = ask(st, "GANG")
                for s in range(4):
                    st.acknowledge(s, resp[s])
    except IllegalAction as e:
        st.fail(e.seat, e.code, e.reason)
