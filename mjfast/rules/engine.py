"""The engine protocol: what every rule set's engine answers.

A :class:`~mjfast.rules.RuleSet` is data (its tiles, hand size, forms, fan
table, the context flags it reads, its options and their defaults, its
minimum, its wildcard limit); its *engine* is the code that scores and
settles under it.  :func:`mjfast.score`, :func:`mjfast.score_batch` (and so
:class:`~mjfast.HandBatch` and the JSONL reader), and ``mjfast score`` ask
the rule set's engine (``rules.impl``) and nothing else: no code outside a
rule set's own package (``mjfast/rules/<name>/``) compares rule-set names or
reads a rule set's options (tests/test_rules_engine.py checks).

An engine is a subclass of :class:`Engine` (one instance serves every
option value of its rule sets: the options come with ``rs``)::

    score(rs, hand, ctx, flags, strict, wild)     one hand -> a result
    score_batch(rs, batch, nthreads, strict)      a HandBatch -> a BatchResult
    settle(rs, total, self_drawn, discarder, **kw)  a won hand's point changes
    cli_text(rs, hand, s, args, kit)              what `mjfast score` prints
    cli_json(rs, s, args, kit)                    ... with --json (a dict)

plus what the rest of the package asks instead of a name or an option:
:attr:`Engine.mcr_fans`, :attr:`Engine.cli_options` and
:meth:`Engine.wild_kinds`.  The rest a rule set declares as data on its
:class:`~mjfast.rules.RuleSet`: options and defaults (``option_specs``,
``options``), the flags it reads (``flags``), its wildcard limit
(``max_wildcards``), its minimum (``min_points``, ``legal``).

A rule set names its engine by an instance or by ``"module:NAME"`` (so that
a rule set's data loads without its engine, and the MCR rule sets, which
``mjfast.score`` needs at import, do not import the scoring code they are
scored by).  Without one, a rule set with a ``score_fn`` gets
:data:`FUNCTION_ENGINE` (the hook of docs/architecture.md, "Adding a rule
set") and one without gets MCR's compiled engine.
"""
from __future__ import annotations

__all__ = ["Engine", "FunctionEngine", "FUNCTION_ENGINE"]


class Engine:
    """The protocol every rule set's engine implements (see the module
    docstring).  The defaults here are the generic ones: a rule set's
    engine overrides what its rules need."""

    #: Capability: the engine is the compiled MCR kernel with the rule set's
    #: variant bits, scoring with MCR's fan records: :func:`mjfast.score`
    #: scores such a rule set on its own compiled path, and what reads MCR
    #: fan ids (the statistics, fan targets, the discard ranking) takes it.
    mcr_fans = False
    #: ``mjfast score`` options beyond the common ones that this engine
    #: reads: ``{argparse dest: the words naming it in an error}``; the
    #: command line refuses them under every other rule set.
    cli_options: dict = {}

    # -- scoring --------------------------------------------------------------
    def score(self, rs, hand, ctx: dict, flags: dict, strict, wild: dict):
        """Score one hand under ``rs``.  ``hand``: notation or a Hand;
        ``ctx``: :func:`mjfast.score`'s MCR context keywords (self_drawn,
        fourth_tile, kong, last_tile, seat_wind, round_wind, flowers, as
        given: unchecked); ``flags``: its other keyword flags (unchecked
        names and values); ``strict``: as given; ``wild``: ``wildcards``,
        ``wildcard_tiles``, ``wild_fifth``.  Returns a result with the
        reading API of :class:`mjfast.Score` (total, fans, is_legal_win,
        ignored_flags, settlement, as_dict); raises NotWinning /
        InvalidHand / InvalidArgument."""
        raise NotImplementedError(f"{type(self).__name__}.score")

    def score_batch(self, rs, batch, nthreads: int, strict: bool, compiled: bool = True):
        """Score a :class:`~mjfast.HandBatch` under ``rs``: a
        :class:`~mjfast.scoring.batch_result.BatchResult` whose rows are what
        :meth:`score` gives each row.  The default scores row by row through
        :meth:`score` (``compiled``: an engine with a compiled batch pass
        may be asked for its row path instead, to test one against the
        other)."""
        from ..scoring.batch_rules import score_rows_own   # start-up: loaded on first use
        return score_rows_own(batch, rs, nthreads, strict)

    def score_row(self, rs, h, f, given, seat, rnd, k=0, strict=False, kinds=None):
        """One batch row for the default :meth:`score_batch`: (total or -1
        when not winning, {fan key: count}, {flag: reason}, legal by the
        rule set's own test, the tiles its wildcards stood for or None)."""
        from ..scoring.batch_rules import score_row_by_engine   # start-up: loaded on first use
        return score_row_by_engine(self, rs, h, f, given, seat, rnd, k, strict, kinds)

    def wild_kinds(self, rs) -> tuple:
        """The tile kinds the rule set's own rules make wild (every copy in a
        hand; zhuji's 财神), () for none: what the analysis functions and
        the discard ranking read instead of an option."""
        return ()

    # -- settlement -----------------------------------------------------------
    def settle(self, rs, total: int, self_drawn: bool, discarder, **kw) -> tuple:
        """Point changes of the players for a won hand worth ``total``
        (arguments checked by :meth:`RuleSet.settle`); by default the rule
        set's ``settle_fn``."""
        return rs.settle_fn(rs, total, self_drawn, discarder, **kw)

    # -- the command line -----------------------------------------------------
    def cli_settlement(self, rs, s, discarder, seat: int):
        """The settlement of ``mjfast score`` as data (``seats``: the
        winner's, left's, opposite's and right's changes, or None), or None
        for the command line's generic one (it asks ``s.settlement``)."""
        return None

    def cli_fan_note(self, rs, fan) -> str:
        """What the generic table prints after a fan's row ("" for nothing)."""
        return ""

    def cli_figure(self, rs, s) -> list:
        """Lines the generic table prints between the fans and the total
        (how the total is figured), [] for none."""
        return []

    def cli_tail(self, rs, s, args, kit):
        """The lines of ``mjfast score`` after the fan table's total (the
        legal line, the settlement), or None for the generic ones
        (``kit.legal_lines(s)``, then the seats of :meth:`cli_settlement`)."""
        return None

    def cli_text(self, rs, hand: str, s, args, kit) -> str:
        """What ``mjfast score`` prints; ``kit`` holds the command line's
        table helpers (``kit.table(hand, s, args)``: the generic table)."""
        return kit.table(hand, s, args)

    def cli_json(self, rs, s, args, kit) -> dict:
        """What ``mjfast score --json`` prints (a dict)."""
        d = s.as_dict()
        d["settlement"] = kit.settlement(s, args.discarder, args.seat)
        return d


class FunctionEngine(Engine):
    """The engine of a rule set that scores hands with its ``score_fn``
    (``score_fn(hand, rs, ctx, flags, strict, wild)``, as :meth:`Engine.score`
    without ``rs`` first): batches row by row."""

    def score(self, rs, hand, ctx, flags, strict, wild):
        return rs.score_fn(hand, rs, ctx, flags, strict, wild)


#: the engine of a rule set given a ``score_fn`` and no engine of its own
FUNCTION_ENGINE = FunctionEngine()
