"""Guizhou's engine: its patterns are scored by
:func:`mjfast.rules.guizhou.hand.score_entry` (the rule set's ``score_fn``);
this adds how ``mjfast score`` prints a hand's pattern payment."""
from __future__ import annotations

from ..engine import FunctionEngine

__all__ = ["GuizhouEngine"]

class GuizhouEngine(FunctionEngine):
    """Guizhou's engine: its patterns (:func:`score_entry`), and how
    ``mjfast score`` prints a hand's pattern payment (a game's 豆 and 鸡 are
    :func:`settle`'s)."""

    def cli_settlement(self, rs, s, discarder, seat):
        # the pattern payment of this hand alone; a game's 豆 and 鸡: mjfast.rules.guizhou.settle
        f = s.total
        seats = list(s.settlement(None if s.self_drawn else discarder)) if s.self_drawn or discarder else None
        return {"self_drawn": s.self_drawn, "discarder": discarder, "pattern_only": True, "each_pays": f,
                "seats": seats,
                "by_wind": dict(zip(_WINDS, [seats[(seat - w) % 4] for w in range(4)])) if seats else None}

    def cli_tail(self, rs, s, args, kit):
        """The legal line and pattern payment of a Guizhou hand."""
        L = kit.labels
        out = [f"Legal win: {L['yes'] if s.is_legal_win else L['no']}"
               + (f" ({s.pass_note})" if s.pass_note else f" (pass: {s.passed_by})" if s.passed_by else ""), ""]
        st = kit.settlement(s, args.discarder, args.seat)
        out.append(f"{L['settlement']} (the pattern only, {s.total} per payer; a game's 豆 and 鸡: "
                   f"mjfast.rules.guizhou.settle):")
        if st["seats"] is None:
            out.append(f"  the discarder pays {s.total}  (--discarder 1|2|3 or --discarder-seat WIND for the seats)")
        else:
            out += kit.seat_lines(s, args, st["seats"])
        return out



_WINDS = ("E", "S", "W", "N")
