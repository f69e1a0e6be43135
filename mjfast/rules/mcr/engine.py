"""The engine of the rule sets on the compiled MCR kernel (mcr, dazhong):
:class:`MCREngine`, the :class:`~mjfast.rules.engine.Engine` whose hands
:func:`mjfast.score` (its compiled path) and whose batches
:func:`mjfast.scoring.batch_rules.score_rows_mcr` score, with the rule set's
variant bits; and how ``mjfast score`` prints its four-player settlement
(the rule set's own: :meth:`RuleSet.settle <mjfast.rules.RuleSet.settle>`)."""
from __future__ import annotations

from ...scoring.batch_rules import score_rows_mcr
from ...scoring.score import WINDS, score
from ..engine import Engine

__all__ = ["MCREngine", "MCR_ENGINE"]


class MCREngine(Engine):
    """MCR's compiled engine: one instance serves mcr and dazhong (their
    differences are variant bits and tables of MCR's fan records)."""

    mcr_fans = True

    def score(self, rs, hand, ctx, flags, strict, wild):
        # mjfast.score scores a rule set of this engine on its compiled path (mcr_fans)
        return score(hand, **ctx, strict=strict, rules=rs, **wild, **flags)

    def score_batch(self, rs, batch, nthreads, strict, compiled=True):
        return score_rows_mcr(batch, rs, nthreads, strict)

    def cli_settlement(self, rs, s, discarder, seat):
        """``winner`` is what the winner gains, ``discarder_pays`` /
        ``others_pay`` what each loser pays (positive numbers), read off the
        rule set's settlement (a discard from the left when none is given)."""
        rel = rs.settle(s.total, s.self_drawn, None if s.self_drawn else 1)
        if s.self_drawn:
            return {"self_drawn": True, "discarder": None, "winner": rel[0],
                    "discarder_pays": None, "others_pay": -rel[1], "seats": list(s.settlement()),
                    "by_wind": dict(zip(WINDS, s.settlement(winner_seat=seat)))}
        return {"self_drawn": False, "discarder": discarder, "winner": rel[0],
                "discarder_pays": -rel[1], "others_pay": -rel[2],
                "seats": list(s.settlement(discarder)) if discarder else None,
                "by_wind": dict(zip(WINDS, s.settlement(winner_seat=seat, discarder_seat=(seat - discarder) % 4)))
                if discarder else None}

    def cli_tail(self, rs, s, args, kit):
        L = kit.labels
        f = s.total
        out = kit.legal_lines(s)
        st = kit.settlement(s, args.discarder, args.seat)
        # the base: what a player who did not discard pays on a discard win
        base = -rs.settle(f, False, 1)[2]
        out.append(f"{L['settlement']} ({L['base'].format(b=base)}, F = {f}):")
        if st["seats"] is None:
            out.append("  " + L["generic"].format(d=st["discarder_pays"], o=st["others_pay"], w=st["winner"]))
        else:
            out += kit.seat_lines(s, args, st["seats"])
        if not s.is_legal_win:
            out.append(f"  {L['not_legal_note']}")
        return out


#: the engine of mcr and dazhong (RuleSet.impl of a rule set naming no engine)
MCR_ENGINE = MCREngine()
