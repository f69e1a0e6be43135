"""What score_batch hands back, and its compiled MCR pass.

:class:`BatchResult` (totals, fan counts, legal, error codes and messages of
every row, with tables for pandas / pyarrow), the error codes of a row, the
per-row rule-flag bits a :class:`~mjfast.batch.HandBatch` carries, and
``_score_batch_mcr``: MCR (and the rule sets on its engine) scored in one
compiled pass that writes every output of every row.  Both
:mod:`mjfast.batch` (``score_batch``) and :mod:`mjfast.batch_rules` (the rows
of other rule sets) build on it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import _core
from ._extras import NEEDS, MissingExtra, require
from .tiles import TILE_NAMES
from .rules.mcr import MCR
from .rules.base import RuleSet
from .spec import errors as _errors, flags as _flags
from .score import MIN_POINTS, dropped_reasons, ignored_message

#: Error codes of :class:`BatchResult` ``errors`` (the ``batch`` family of
#: mjfast/spec/errors.py, with their messages).
_CODES = _errors.family(_errors.BATCH)
_MESSAGES = _errors.messages(_errors.BATCH)
ERR_OK = _CODES["ROW_OK"]
ERR_INVALID = _CODES["INVALID"]           # the record or row is malformed (message in error_message(i))
ERR_NOT_WINNING = _CODES["NOT_WINNING"]   # well formed, but not a winning hand
# the compiled pass's codes for rows whose message is worded here (then ERR_INVALID)
_ROW_CHANGED = _CODES["ROW_CHANGED"]      # out of range: changed after the batch was validated
_ROW_STRICT = _CODES["ROW_STRICT"]        # strict=True and a flag the rules drop

#: Per-row bits of HandBatch.rule_flags: the flags of rule sets other than MCR
#: (two-player's four; old Shanghai's 百搭 win and 扣听; Guizhou's 热炮).
#: Declared in mjfast/spec/flags.py (the ``rule`` byte).
RULE_FLAG_BITS = _flags.bits(_flags.RULE)


def _need(need: str, what: str):
    """Import the optional dependency of ``need`` (a key of mjfast._extras.NEEDS),
    or raise MissingDependency saying how to install it."""
    try:
        require(need, what)
    except MissingExtra as exc:
        raise MissingDependency(str(exc)) from None
    return importlib.import_module(NEEDS[need][0][0])


class MissingDependency(MissingExtra):
    """An optional dependency (pandas, pyarrow) is not installed; the message says how to get it."""


class _TableColumns:
    """``BatchResult.fan_names`` / ``fan_keys``: MCR's when read on the class,
    the result's own fan table's when read on a result."""

    def __init__(self, attr):
        self.attr = attr

    def __get__(self, obj, cls=None):
        return getattr(MCR if obj is None else obj.table, self.attr)


@dataclass
class BatchResult:
    """Scores of a :class:`HandBatch`.  ``fan_counts[:, j]`` counts fan
    ``fan_names[j]`` (the fan table's order, ids 1-82)."""
    totals: np.ndarray        # (N,) int32, flowers included; -1 where errors != 0
    fan_counts: np.ndarray    # (N, 82) uint8 (a rule set's own table: one column per fan of it)
    legal: np.ndarray         # (N,) bool: >= 8 points without flowers
    errors: np.ndarray        # (N,) uint8: ERR_OK / ERR_INVALID / ERR_NOT_WINNING
    messages: dict = field(default_factory=dict)
    ids: Optional[list] = None
    lines: Optional[np.ndarray] = None   # (N,) int64 input line numbers (from_jsonl), else None
    ignored: Optional[np.ndarray] = None  # (N,) uint8 bits (records.FLAG_BITS) of the flags the rules dropped
    flags: Optional[np.ndarray] = None    # (N,) uint8 the flags as given (HandBatch.flags)
    rules: Optional[RuleSet] = None       # the rule set (None = MCR); fan columns follow its table
    extra_ignored: dict = field(default_factory=dict)   # row -> {flag: reason} beyond the MCR bits
    #: row -> the tiles its wildcards stood for (tile indices, as
    #: ``Score.substitutions``), for the rows a rule set scored with wildcards
    #: (Zhuji's 财神 named by its option ``wildcards``); other rows are absent
    substitutions: dict = field(default_factory=dict)

    @property
    def table(self):
        return MCR if self.rules is None else self.rules.table

    # on the class: MCR's columns (as before rule sets); on a result: its table's
    fan_names = _TableColumns("names_en")
    fan_keys = _TableColumns("keys")

    def __len__(self):
        return len(self.totals)

    def error_message(self, i: int) -> str:
        code = int(self.errors[i])
        if code == ERR_OK:
            return ""
        if code == ERR_NOT_WINNING:
            return _MESSAGES[ERR_NOT_WINNING]
        return self.messages.get(i, _MESSAGES[ERR_INVALID])

    def line(self, i: int) -> Optional[int]:
        """The input line number of row i (JSONL input), else None."""
        return None if self.lines is None else int(self.lines[i])

    def ignored_flags(self, i: int) -> dict:
        """{flag: reason} for the flags of row i that the rules dropped (see
        :attr:`mjfast.Score.ignored_flags`); empty for error rows."""
        if self.ignored is None or self.errors[i]:
            return {}
        out = dropped_reasons(int(self.ignored[i]), self.flags is not None and bool(self.flags[i] & 1))
        out.update(self.extra_ignored.get(i, {}))
        return out

    def fans(self, i: int) -> list:
        """[(name, zh, points, count)] of row i."""
        out = []
        fans = self.table.fans
        for j in np.flatnonzero(self.fan_counts[i]):
            f = fans[j]
            out.append((f.en, f.zh, f.points, int(self.fan_counts[i, j])))
        out.sort(key=lambda t: -t[2])
        return out

    def record(self, i: int) -> dict:
        """The JSONL result line of row i (docs/notation.md): ``{"id", "line",
        "error"}`` for an error row (``line`` None unless read from a file),
        else ``{"id", "total", "fans", "legal"}`` plus ``"ignored_flags"``
        when the rules dropped a flag."""
        rid = self.ids[i] if self.ids is not None else i
        if self.errors[i]:
            return {"id": rid, "line": self.line(i), "error": self.error_message(i)}
        out = {"id": rid, "total": int(self.totals[i]),
               "fans": [{"name": n, "zh": z, "points": p, "count": c} for n, z, p, c in self.fans(i)],
               "legal": bool(self.legal[i])}
        if i in self.substitutions:
            out["substitutions"] = [TILE_NAMES[t] for t in self.substitutions[i]]
        ign = self.ignored_flags(i)
        if ign:
            out["ignored_flags"] = ign
        if self.rules is not None and not self.rules.is_default:
            out["rules"] = self.rules.name
        return out

    def _error_column(self) -> list:
        return [self.error_message(i) if e else None for i, e in enumerate(self.errors.tolist())]

    def _ignored_column(self) -> list:
        if self.ignored is None:
            return [None] * len(self)
        return [", ".join(self.ignored_flags(i)) or None if (b or i in self.extra_ignored) else None
                for i, b in enumerate(self.ignored.tolist())]

    def _substitutions_column(self):
        """The tiles the wildcards stood for, per row (space-separated names,
        None where none did), or None when the batch was not scored with
        wildcards (no column then)."""
        wild = self.rules is not None and self.rules.wild_kinds
        if not self.substitutions and not wild:
            return None
        return [" ".join(TILE_NAMES[t] for t in self.substitutions[i]) if i in self.substitutions else None
                for i in range(len(self))]

    def to_pandas(self):
        """A DataFrame: (id,) total, legal, error_code, error (the message, None
        when fine), line (input line number, <NA> unless read from a file),
        ignored_flags (names of dropped flags, comma-separated, or None),
        substitutions (only for a rule set with wildcards: the tiles they stood
        for, space-separated), then one column per fan (English names).  Needs
        pandas (``pip install 'mjfast[pandas]'``)."""
        pd = _need("pandas", "BatchResult.to_pandas()")
        df = pd.DataFrame(self.fan_counts, columns=list(self.fan_names), copy=False)
        lines = pd.array(self.lines if self.lines is not None else [None] * len(self), dtype="Int64")
        # object columns: None stays None (not NaN) where there is nothing to say
        subs = self._substitutions_column()
        if subs is not None:
            df.insert(0, "substitutions", pd.Series(subs, dtype=object))
        df.insert(0, "ignored_flags", pd.Series(self._ignored_column(), dtype=object))
        df.insert(0, "line", lines)
        df.insert(0, "error", pd.Series(self._error_column(), dtype=object))
        df.insert(0, "error_code", self.errors)
        df.insert(0, "legal", self.legal)
        df.insert(0, "total", self.totals)
        if self.ids is not None:
            df.insert(0, "id", self.ids)
        return df

    def to_arrow(self):
        """A pyarrow Table with the same columns as :meth:`to_pandas`.  Needs
        pyarrow (``pip install 'mjfast[arrow]'``)."""
        pa = _need("arrow", "BatchResult.to_arrow()")
        cols = {}
        if self.ids is not None:
            cols["id"] = pa.array(self.ids)
        cols["total"] = pa.array(self.totals)
        cols["legal"] = pa.array(self.legal)
        cols["error_code"] = pa.array(self.errors)
        cols["error"] = pa.array(self._error_column(), type=pa.string())
        cols["line"] = pa.array(None if self.lines is None else self.lines, type=pa.int64()) \
            if self.lines is not None else pa.nulls(len(self), type=pa.int64())
        cols["ignored_flags"] = pa.array(self._ignored_column(), type=pa.string())
        subs = self._substitutions_column()
        if subs is not None:
            cols["substitutions"] = pa.array(subs, type=pa.string())
        for j, name in enumerate(self.fan_names):
            cols[name] = pa.array(self.fan_counts[:, j])
        return pa.table(cols)


def _on_mcr_columns(res) -> np.ndarray:
    """``res.fan_counts`` on MCR's 82 columns: a result under a table of
    MCR's records (dazhong's: MCR's fans less 明暗杠) spread by fan id, for
    what counts MCR's fans (the statistics)."""
    if res.table is MCR:
        return res.fan_counts
    out = np.zeros((len(res.totals), len(MCR)), np.uint8)
    out[:, [MCR.index(f.key) for f in res.table]] = res.fan_counts
    return out


def _score_batch_mcr(batch, nthreads, strict, invalid=None, messages=None, variant=0,
                     min_points=MIN_POINTS) -> BatchResult:
    batch.check_columns()
    n = len(batch)
    if invalid is None:
        invalid = batch.invalid
        messages = dict(batch.messages)
    # one compiled pass writes every output of every row (dropped flags,
    # error codes, legal, the fan row zeroed unless a win), so nothing here
    # runs per row but the messages of the rare rows it hands back
    totals = np.empty(n, np.int32)
    fans = np.empty((n, len(MCR)), np.uint8)
    errors = np.empty(n, np.uint8)
    legal = np.empty(n, bool)
    ignored = np.empty(n, np.uint8)
    if _core.score_batch_mcr(batch.counts, batch.melds, batch.n_melds, batch.win_tile, batch.flags, batch.seat,
                             batch.round, batch.flowers, invalid.view(np.uint8), totals, fans, errors,
                             legal.view(np.uint8), ignored, nthreads, variant, min(min_points, 1 << 62), strict):
        strict_rows = np.flatnonzero(errors == _ROW_STRICT)
        changed = np.flatnonzero(errors == _ROW_CHANGED)
        for i in strict_rows.tolist():
            messages[i] = f"{ignored_message(int(ignored[i]), bool(batch.flags[i] & 1))} (strict=True)"
        for i in changed.tolist():
            messages[i] = "row out of range (changed after the batch was validated?)"
        errors[strict_rows] = ERR_INVALID
        errors[changed] = ERR_INVALID
        ignored[strict_rows] = 0
    return BatchResult(totals, fans, legal, errors, messages, batch.ids, batch.lines, ignored, batch.flags)
