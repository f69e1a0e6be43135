"""What score_batch hands back, and its compiled MCR pass.

:class:`BatchResult` (totals, fan counts, legal, error codes and messages of
every row, with tables for pandas / pyarrow), the error codes of a row, the
per-row rule-flag bits a :class:`~mjfast.scoring.batch.HandBatch` carries, and
``score_batch_mcr``: MCR (and the rule sets on its engine) scored in one
compiled pass that writes every output of every row.  Both
:mod:`mjfast.scoring.batch` (``score_batch``) and :mod:`mjfast.scoring.batch_rules` (the rows
of other rule sets) build on it.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from .. import _fans
from .._extras import NEEDS, MissingExtra, require
from ..errors import InvalidArgument
from .records import one_line as _one_line, show as _show
from ..tiles import TILE_NAMES
from ..rules.mcr import MCR
from ..rules.base import RuleSet
from ..spec import errors as _errors, flags as _flags
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

#: ``names=`` of BatchResult.to_pandas / to_arrow -> the fan table's attribute naming the fan columns
_NAMES = {"key": "keys", "display": "names_en", "zh": "names_zh"}


def require_module(need: str, what: str):
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
    #: row -> the hand as the input gave it (a notation string) or None; set by
    #: score_batch from the batch, for the error text of the rows that are not
    #: winning hands (the text ``mjfast score --jsonl`` writes)
    hand_texts: Optional[Callable[[int], Optional[str]]] = field(default=None, repr=False, compare=False)

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
            return {"id": rid, "line": self.line(i), "error": self._error_text(i)}
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

    def _error_text(self, i: int) -> str:
        """The error of row i as ``mjfast score --jsonl`` writes it: one line,
        the hand named when it is not a winning hand, no "line N:" (the line
        has its own field)."""
        if int(self.errors[i]) == ERR_NOT_WINNING:
            hand = self.hand_texts(i) if self.hand_texts is not None else None
            return _MESSAGES[ERR_NOT_WINNING] if hand is None else f"{_MESSAGES[ERR_NOT_WINNING]}: {hand}"
        msg = self.error_message(i)
        if self.lines is not None:
            prefix = f"line {int(self.lines[i])}: "
            if msg.startswith(prefix):
                msg = msg[len(prefix):]
        return _one_line(msg)

    def _error_column(self) -> list:
        return [self._error_text(i) if e else None for i, e in enumerate(self.errors.tolist())]

    def _fan_column_names(self, names: str) -> list:
        if names not in _NAMES:
            raise InvalidArgument(f"names must be one of {', '.join(map(repr, _NAMES))}, got {_show(names)}")
        return list(getattr(self.table, _NAMES[names]))

    def _id_values(self):
        """("int", ids) when every id given is an integer of 64 bits (None
        where absent), ("str", ids) when every one is a string, else
        ("json", each id as its JSON text) for ids of mixed types."""
        # (ids given with a batch of arrays may be a numpy array, or hold numpy scalars)
        ids = [x.item() if isinstance(x, np.generic) else x for x in self.ids]
        kinds = set()
        for x in ids:
            if x is None:
                continue
            if type(x) is int and -(1 << 63) <= x < (1 << 63):
                kinds.add("int")
            elif isinstance(x, str):
                kinds.add("str")
            else:
                kinds.add("other")
            if len(kinds) > 1:
                break
        if kinds <= {"int"}:
            return "int", ids
        if kinds == {"str"}:
            return "str", ids
        return "json", [None if x is None else json.dumps(x, ensure_ascii=False, default=str) for x in ids]

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

    def to_pandas(self, names: str = "key"):
        """A DataFrame: (id,) total, legal, error_code, error (the message, as
        ``mjfast score --jsonl`` writes it; None when fine), line (input line
        number, <NA> unless read from a file), ignored_flags (names of dropped
        flags, comma-separated, or None), substitutions (only for a rule set
        with wildcards: the tiles they stood for, space-separated), then one
        column per fan of the rule set's table, in its order.

        ``names``: what the fan columns are called: ``"key"`` (the default:
        the keys of ``fan_keys``, as in ``mjfast.logs.score``'s ``fans`` and
        the tables of ``mjfast.stats``), ``"display"`` (the English names of
        ``fan_names``) or ``"zh"``.  ``id``: Int64 (<NA> where a record had
        none) when the ids are integers, else objects as given.  Needs pandas
        (``pip install '.[tables]'``)."""
        fan_cols = self._fan_column_names(names)
        pd = require_module("pandas", "BatchResult.to_pandas()")
        df = pd.DataFrame(self.fan_counts, columns=fan_cols, copy=False)
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
            kind, ids = self._id_values()
            # integer ids with some missing: Int64, not float64 with NaN
            df.insert(0, "id", pd.array(ids, dtype="Int64") if kind == "int" else pd.Series(self.ids, dtype=object))
        return df

    def to_arrow(self, names: str = "key"):
        """A pyarrow Table with the columns of :meth:`to_pandas` (``names``
        likewise).  Each fan column's field metadata holds the fan's ``key``,
        ``name`` (English), ``zh`` and ``points``.  ``id``: int64 when the
        ids are integers, string when they are strings, else each id's JSON
        text.  Needs pyarrow (``pip install '.[tables]'``)."""
        fan_cols = self._fan_column_names(names)
        pa = require_module("arrow", "BatchResult.to_arrow()")
        cols = {}
        if self.ids is not None:
            kind, ids = self._id_values()
            cols["id"] = pa.array(ids, type=pa.int64() if kind == "int" else pa.string())
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
        fields = [pa.field(c, v.type) for c, v in cols.items()]
        arrays = list(cols.values())
        for j, (col, fan) in enumerate(zip(fan_cols, self.table.fans)):
            arrays.append(pa.array(self.fan_counts[:, j]))
            fields.append(pa.field(col, pa.uint8(), metadata={"key": fan.key, "name": fan.en, "zh": fan.zh,
                                                               "points": str(fan.points)}))
        return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def on_mcr_columns(res) -> np.ndarray:
    """``res.fan_counts`` on MCR's 82 columns: a result under a table of
    MCR's records (dazhong's: MCR's fans less 明暗杠) spread by fan id, for
    what counts MCR's fans (the statistics)."""
    if res.table is MCR:
        return res.fan_counts
    out = np.zeros((len(res.totals), len(MCR)), np.uint8)
    out[:, [MCR.index(f.key) for f in res.table]] = res.fan_counts
    return out


def score_batch_mcr(batch, nthreads, strict, invalid=None, messages=None, variant=0,
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
    if _fans.score_batch_mcr(batch.counts, batch.melds, batch.n_melds, batch.win_tile, batch.flags, batch.seat,
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
