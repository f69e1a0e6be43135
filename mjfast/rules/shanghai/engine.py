"""Old Shanghai's engine: its 番/和 items are scored by
:func:`mjfast.rules.shanghai.score_shanghai` (the rule set's ``score_fn``);
this adds how ``mjfast score`` prints an item's unit and the figure the total
comes from."""
from __future__ import annotations

from ..engine import FunctionEngine

__all__ = ["ShanghaiEngine"]

_UNITS = {"fan": "番", "he": "和", "limit": "满贯"}


class ShanghaiEngine(FunctionEngine):
    """shanghai_old's engine (docs/rules.md, "shanghai_old")."""

    def cli_fan_note(self, rs, fan):
        return f"  {_UNITS[fan.unit]}"

    def cli_figure(self, rs, s):
        # 番/和 scoring: the figure the total comes from
        return [f"  和 {s.he} + base {s.base} = {s.he + s.base}, x 2^{s.fan} = {s.raw}"
                + (f"; limit hand {', '.join(s.limit_hand)}" if s.limit_hand else "")
                + (" (capped)" if s.capped else "")]
