"""Zhuji's engine: its 台 items are scored by
:func:`mjfast.rules.zhuji.score_entry` (the rule set's ``score_fn``); this
adds its 财神 kinds and how ``mjfast score`` prints a hand."""
from __future__ import annotations

from ..engine import FunctionEngine
from .format import settlement, table

__all__ = ["ZhujiEngine"]


class ZhujiEngine(FunctionEngine):
    """Zhuji's engine: its 台 items (:func:`score_entry`), and how
    ``mjfast score`` prints them and the payout (:mod:`~mjfast.rules.zhuji.format`)."""

    cli_options = {"dealer_repeats": "老庄"}

    def wild_kinds(self, rs):
        return rs.options["wildcards"]

    def cli_text(self, rs, hand, s, args, kit):
        return table(hand, s, args, args.lang, kit.width)

    def cli_json(self, rs, s, args, kit):
        d = s.as_dict()
        d["settlement"] = settlement(s, args.discarder, args.dealer_repeats or 0)
        return d
