"""Bulk scoring: N hands as columns, scored in compiled code on every core.

>>> batch = HandBatch.from_records([{"hand": "123m456m789m123p5p5p"}, {"hand": "bad"}])
>>> res = score_batch(batch, workers=-1)
>>> res.totals, res.errors            # doctest: +SKIP
(array([23, -1], dtype=int32), array([0, 1], dtype=uint8))

Validation happens in Python (per record when parsing, vectorised for arrays);
the kernel trusts what it is given.  A bad record never aborts the batch and
never yields a number: its row is flagged in ``errors`` with a message.

This module builds batches (:class:`HandBatch` from records, JSON lines,
strings or arrays) and holds :func:`score_batch`, which picks the pass:
:mod:`mjfast.scoring.batch_result` has :class:`BatchResult` and the compiled MCR pass,
:mod:`mjfast.scoring.batch_rules` the rows of other rule sets.
"""
from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from .. import _core
from ..analysis.hands import resolve_workers
from ..analysis.inputs import NARROW_DTYPES as _NARROW
from ..errors import InvalidArgument, InvalidHand
from ..hand import parse_hand
from ..spec import errors as _errors
from ..rules.mcr import MCR
from ..rules.base import RuleSet, available, get as _get_rules
from .records import (FLAG_BITS, RecordError, check_context, check_flag, check_flowers, check_wind, validate_record,
                      flag_values as _flag_values, parse_error as _parse_error, show as _show)
from ..io.jsontext import loads as _loads
from ..analysis.wild import MAX_WILDCARDS, check as _wild_check
from .score import MELD_KIND as _KIND, WINDS, hand_args, MIN_POINTS, dropped_flags, dropped_reasons, ignored_message
from .batch_result import (BatchResult, ERR_INVALID, ERR_NOT_WINNING, ERR_OK, MissingDependency, RULE_FLAG_BITS,
                           require_module as _need, score_batch_mcr as _score_batch_mcr)

__all__ = ["HandBatch", "BatchResult", "score_batch", "ERR_OK", "ERR_INVALID", "ERR_NOT_WINNING"]


def _empty(n):
    return dict(
        counts=np.zeros((n, 34), np.uint8),
        melds=np.zeros((n, 4, 3), np.uint8),
        n_melds=np.zeros(n, np.uint8),
        win_tile=np.zeros(n, np.uint8),
        flags=np.zeros(n, np.uint8),
        seat=np.zeros(n, np.uint8),
        round=np.zeros(n, np.uint8),
        flowers=np.zeros(n, np.uint8),
    )


class HandBatch:
    """N winning hands as numpy columns.

    counts (N, 34) uint8: concealed tiles, winning tile included.
    melds (N, 4, 3) uint8: per meld (kind 0 chow / 1 pung / 2 kong, tile - a
    chow's lowest -, open 1 = claimed / 0 = concealed kong); n_melds (N,).
    win_tile (N,): tile index.  flags (N,): bit 0 self-drawn, 1 fourth tile,
    2 kong, 3 last tile.  seat, round (N,): 0-3 = E S W N.  flowers (N,): 0-8.
    added (N, 4) uint8, optional: for meld j a kong added to the player's own
    melded pung (``[EEEE5]``..``[EEEE7]``), the digit of the pung's discarder
    1-3, else 0.  MCR scores such a kong as any melded kong; a rule set may not
    (two_player's ``added_kong_is_melded_kong``).
    rule_flags (N,) uint8, optional: bits of :data:`RULE_FLAG_BITS` (flags of
    rule sets other than MCR; a rule set reports those it has no use for).
    wildcards (N,) uint8, optional: wildcards held beside the row's tiles,
    0-8 (the row then holds 14 - k tiles counting 3 per meld; scored as
    ``mjfast.score(hand, wildcards=k)`` scores it).  wild_kinds (N,) uint64,
    optional: bit t set = tile kind t is wild in that row (``wildcard_tiles``;
    not with wildcards in the same row).
    ids: optional list echoed back.  invalid (N,) bool + messages: rows that
    could not be read (kept, flagged, never scored).  lines: the input line
    number of each row (1-based, set by :meth:`from_jsonl`), else None.
    """

    def __init__(self, counts, melds, n_melds, win_tile, flags, seat, round, flowers,
                 ids=None, invalid=None, messages=None, validate=True, lines=None, rules=None,
                 rule_flags=None, added=None, wildcards=None, wild_kinds=None):
        #: the rule set the rows are meant for (None = MCR, or whatever
        #: score_batch is told); rule_flags: per row, bits of RULE_FLAG_BITS
        self.rules = None if rules is None else _get_rules(rules)
        out_of_range = {}    # row -> message, for values no uint8 column can hold
        self.counts = _uint8_column(counts, None, "counts", out_of_range)
        n = self.counts.shape[0]
        if self.counts.ndim != 2 or self.counts.shape[1] != 34:
            raise InvalidHand(f"counts must be (N, 34); got {self.counts.shape}")
        self.melds = _uint8_column(melds, (n, 4, 3), "melds", out_of_range)
        self.n_melds = _uint8_column(n_melds, (n,), "n_melds", out_of_range)
        self.win_tile = _uint8_column(win_tile, (n,), "win_tile", out_of_range)
        self.flags = _uint8_column(flags, (n,), "flags", out_of_range)
        self.seat = _uint8_column(seat, (n,), "seat", out_of_range)
        self.round = _uint8_column(round, (n,), "round", out_of_range)
        self.flowers = _uint8_column(flowers, (n,), "flowers", out_of_range)
        self.ids = ids
        self.invalid = np.zeros(n, bool) if invalid is None else np.ascontiguousarray(invalid, bool)
        if self.invalid.shape != (n,):
            raise InvalidArgument(f"invalid must have shape {(n,)}; got {self.invalid.shape}")
        self.messages = dict(messages or {})
        for i, msg in out_of_range.items():
            if not self.invalid[i]:
                self.invalid[i] = True
                self.messages[i] = msg
        self.lines = None if lines is None else np.asarray(lines, dtype=np.int64)
        self.rule_flags = (np.zeros(n, np.uint8) if rule_flags is None
                           else _uint8_column(rule_flags, (n,), "rule_flags", out_of_range))
        #: per row, the wildcards held beside its tiles (0 = none): the row's
        #: columns then hold 14 - k tiles counting 3 per meld
        self.wildcards = (np.zeros(n, np.uint8) if wildcards is None
                          else _uint8_column(wildcards, (n,), "wildcards", out_of_range))
        #: per row, the tile kinds that are wild (``wildcard_tiles``) as bits
        #: 0-33 of a uint64 (0 = none): the row's tiles of those kinds are its
        #: wildcards
        self.wild_kinds = np.zeros(n, np.uint64) if wild_kinds is None else _kinds_column(wild_kinds, n)
        # ``added`` may be the notation of the rows that could hold an added
        # kong, taken when the batch was built and read when the column is
        # first asked for (only rule sets scored row by row need it)
        self._added_src = None
        if added is None:
            self._added = np.zeros((n, 4), np.uint8)
        elif type(added) is _KongNotation:
            self._added, self._added_src = None, added
        else:
            self._added = _uint8_column(added, (n, 4), "added", out_of_range)
        #: row -> the hand as the input gave it, or None (see _HandTexts)
        self._hand_texts = None
        if validate:
            self._validate_arrays()

    def __len__(self):
        return self.counts.shape[0]

    @property
    def added(self) -> np.ndarray:
        """(N, 4) uint8: see the class docstring."""
        if self._added is None:
            self._added = self._added_src.column(self.melds, self.n_melds, self.invalid)
            self._added_src = None
        return self._added

    @added.setter
    def added(self, value):
        self._added_src = None
        self._added = value

    #: (column, dtype, shape after N) of every array the kernel reads
    _COLUMNS = (("counts", np.uint8, (34,)), ("melds", np.uint8, (4, 3)), ("n_melds", np.uint8, ()),
                ("win_tile", np.uint8, ()), ("flags", np.uint8, ()), ("seat", np.uint8, ()),
                ("round", np.uint8, ()), ("flowers", np.uint8, ()), ("invalid", np.bool_, ()),
                ("rule_flags", np.uint8, ()), ("wildcards", np.uint8, ()), ("wild_kinds", np.uint64, ()))

    def check_columns(self) -> None:
        """Raise ``InvalidHand`` naming the column if one is not a C-contiguous
        array of the right dtype and shape (N rows, N = ``len(counts)``).

        The columns are plain attributes: code may replace one after the batch
        was built.  :func:`score_batch` calls this first (it costs a few
        attribute reads), and the kernel re-checks every row's values as it
        reads them, so a replaced or changed column is refused or flagged,
        never read out of bounds."""
        counts = self.counts
        if not isinstance(counts, np.ndarray) or counts.ndim != 2:
            raise InvalidHand("batch.counts must be an (N, 34) uint8 array")
        n = counts.shape[0]
        for name, dtype, tail in self._COLUMNS:
            a = getattr(self, name)
            want = (n,) + tail
            if not isinstance(a, np.ndarray) or a.dtype != dtype or a.shape != want or not a.flags.c_contiguous:
                got = f"{a.dtype} {a.shape}" if isinstance(a, np.ndarray) else type(a).__name__
                raise InvalidHand(f"batch.{name} must be a C-contiguous {np.dtype(dtype)} array of shape {want}; "
                                  f"got {got} (build a new HandBatch rather than replacing a column)")

    # -- construction -----------------------------------------------------

    @classmethod
    def from_records(cls, records: Sequence[dict], *, rules=None) -> "HandBatch":
        """From hand-record dicts (docs/notation.md; fields checked by
        :func:`mjfast.scoring.records.validate_record`); a bad record is flagged, not raised.

        ``records`` is a list (or any iterable) of dicts; a single dict or a
        string raises TypeError (it would otherwise make one row per key / character).

        ``rules``: the rule set (name or RuleSet).  A record may carry
        ``"rules"`` (a name); without ``rules=`` the records' common one is
        used, and a record naming another rule set than the batch's is an
        invalid row.  The flags of other rule sets (:data:`RULE_FLAG_BITS`:
        ``heavenly_hand`` ... ``discard_after_kong``), ``wildcards`` (a
        count 0-8) and ``wildcard_tiles`` (wild kinds) are read too."""
        return cls._read_records(_sequence_arg(records, "records", "a list of record dicts"), rules)[0]

    @classmethod
    def from_pandas(cls, df, *, rules=None) -> "HandBatch":
        """From a pandas DataFrame whose columns are fields of the hand record
        (``hand``, ``self_drawn``, ``seat_wind``, ``id``, ... as in
        docs/notation.md), one row per record: each row is read as
        :meth:`from_records` reads a dict, so a bad row is flagged with its
        message (an error row of ``score_batch``), not raised.  A missing value
        (None, NaN, <NA>) leaves the field out (its default applies); a whole
        float in an integer field (``flowers`` of a column with gaps) is the
        int.  Other columns are ignored as unknown record keys are."""
        pd = _need("pandas", "HandBatch.from_pandas()")
        if not isinstance(df, pd.DataFrame):
            raise InvalidArgument(f"from_pandas takes a pandas DataFrame, got {type(df).__name__}")
        if df.columns.has_duplicates:
            dup = sorted({str(c) for c in df.columns[df.columns.duplicated()]})
            raise InvalidArgument(f"the DataFrame has duplicate columns: {', '.join(dup)}")
        columns = {c: (df[c].tolist(), df[c].isna().to_numpy()) for c in df.columns}
        return cls._read_records(_table_records(columns, len(df)), rules)[0]

    @classmethod
    def from_arrow(cls, table, *, rules=None) -> "HandBatch":
        """From a pyarrow Table (or RecordBatch) with the columns of
        :meth:`from_pandas`, read the same way (nulls leave the field out)."""
        pa = _need("arrow", "HandBatch.from_arrow()")
        if not isinstance(table, (pa.Table, pa.RecordBatch)):
            raise InvalidArgument(f"from_arrow takes a pyarrow Table or RecordBatch, got {type(table).__name__}")
        names = list(table.schema.names)
        if len(set(names)) != len(names):
            dup = sorted({c for c in names if names.count(c) > 1})
            raise InvalidArgument(f"the table has duplicate columns: {', '.join(dup)}")
        columns = {}
        for c in names:
            col = table.column(c)
            missing = col.is_null(nan_is_null=True)
            columns[c] = (col.to_pylist(), missing.to_numpy(zero_copy_only=False))
        return cls._read_records(_table_records(columns, table.num_rows), rules)[0]

    @classmethod
    def _read_records(cls, records: list, rules=None) -> tuple:
        """(batch, number of records carrying a "rules" value): from_records
        for a list."""
        n = len(records)
        cols = _empty(n)
        rflags = np.zeros(n, np.uint8)
        wild = np.zeros(n, np.uint8)
        kinds = np.zeros(n, np.uint64)
        slow = np.zeros(n, np.uint8)
        ids = [None] * n
        kongs: list = []    # [row, hand, ...]: the rows with a melded kong
        # the common record (a dict, a compact winning hand, well-typed fields)
        # is read in compiled code; the rest goes through the Python validator
        n_rules = _core.read_records(records, cols["counts"], cols["melds"], cols["n_melds"], cols["win_tile"],
                                     cols["flags"], cols["seat"], cols["round"], cols["flowers"], rflags,
                                     slow, ids, kongs)
        slow_rows = np.flatnonzero(slow).tolist()
        if not n_rules:
            # the compiled reader counts "rules" only in the records it reads
            # through; one it hands over at once (a key it has no slot for:
            # wildcards, a rule-set flag, a non-ASCII key) may name one too
            n_rules = sum(1 for i in slow_rows if type(records[i]) is dict and records[i].get("rules") is not None)
        rule_msgs = {}
        if n_rules:
            rules, rule_msgs = _records_rules(records, rules)
        invalid = np.zeros(n, bool)
        messages = {}
        for i in slow_rows:
            msg = _read_record(cols, i, records[i], wild, kinds)
            if msg is not None:
                invalid[i] = True
                messages[i] = msg
            else:               # (read, so a dict with a str hand)
                kongs += (i, records[i]["hand"])
        for i, msg in rule_msgs.items():
            if not invalid[i]:
                invalid[i] = True
                messages[i] = msg
        for i in slow_rows:
            if not invalid[i]:
                msg = _read_rule_flags(rflags, i, records[i])
                if msg is not None:
                    invalid[i] = True
                    messages[i] = msg
        rflags[invalid] = 0
        wild[invalid] = 0
        kinds[invalid] = 0
        out = cls(**cols, ids=ids, invalid=invalid, messages=messages, validate=False, rules=rules,
                  rule_flags=rflags, wildcards=wild, wild_kinds=kinds, added=_KongNotation.from_pairs(kongs))
        out._hand_texts = _HandTexts(records, "records")
        return out, n_rules

    @classmethod
    def from_strings(cls, hands: Sequence[str], *, self_drawn=False, fourth_tile=False, kong=False,
                     last_tile=False, seat_wind="E", round_wind="E", flowers=0, rules=None) -> "HandBatch":
        """From notation strings; each context argument is a scalar (checked at
        once: a bad one raises) or a length-N sequence (a bad item flags its row).

        ``hands`` is a list (or any iterable) of strings; a single string
        raises TypeError (it would otherwise make one row per character)."""
        hands = _sequence_arg(hands, "hands", "a list of notation strings")
        n = len(hands)
        names = ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers")
        values = (self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
        scalar = [isinstance(v, (str, bool, int, np.integer, np.bool_)) or v is None for v in values]
        # scalars are arguments: checked once, a bad one is an error of the call,
        # and broadcast; a sequence is checked item by item (a bad item flags its row)
        defaults = (False, False, False, False, "E", "E", 0)
        f0, s0, r0, fl0 = check_context(*(v if sc else d for v, sc, d in zip(values, scalar, defaults)))
        cols, ok = _parse_hands(hands)
        invalid = np.zeros(n, bool)
        messages: dict = {}
        if all(scalar):
            cols["flags"][:] = f0
            cols["seat"][:] = s0
            cols["round"][:] = r0
            cols["flowers"][:] = fl0
        else:
            for name, v, sc in zip(names, values, scalar):
                if not sc:
                    _context_column(cols, name, v, n, invalid, messages)
            # the scalar flags' bits, under the sequences' own
            cols["flags"] |= f0
            for name, sc, c, x in ((names[4], scalar[4], "seat", s0), (names[5], scalar[5], "round", r0),
                                   (names[6], scalar[6], "flowers", fl0)):
                if sc:
                    cols[c][:] = x
        for i in np.flatnonzero(~ok & ~invalid).tolist():
            # not taken by the compiled reader (a string that does not parse, is
            # not a 14-tile hand or holds flower codes): hand_args reads it or
            # words the problem
            try:
                # (_flag_values: the four win flags; a tuple's length is not in its type)
                _fill_row(cols, i, hands[i], *_flag_values(int(cols["flags"][i])), int(cols["seat"][i]),  # type: ignore[call-arg]
                          int(cols["round"][i]), int(cols["flowers"][i]))
            except (InvalidHand, TypeError, ValueError) as exc:
                invalid[i] = True
                messages[i] = str(exc)
        out = cls(**cols, invalid=invalid, messages=messages, validate=False, rules=rules,
                  added=_KongNotation(None, hands))    # (hands: a list of our own)
        out._hand_texts = _HandTexts(hands, "strings")
        return out

    @classmethod
    def from_jsonl(cls, path, chunk_size: int = 65536) -> Iterator["HandBatch"]:
        """Stream a JSONL file of hand records as batches of ``chunk_size``
        (memory stays flat for any file size).  Bad JSON lines become invalid
        rows; every row's ``lines`` entry is its line number in the file.

        ``chunk_size`` must be an int >= 1 (checked at the call, before any
        reading)."""
        if isinstance(chunk_size, (bool, np.bool_)) or not isinstance(chunk_size, (int, np.integer)):
            raise TypeError(f"chunk_size must be an int >= 1, got {_show(chunk_size)}")
        if chunk_size < 1:
            raise ValueError(f"chunk_size must be an int >= 1, got {int(chunk_size)}")
        return cls._iter_jsonl(path, int(chunk_size))

    @classmethod
    def _iter_jsonl(cls, path, chunk_size):
        with open(path, "rb") as f:
            yield from cls.from_lines(f, chunk_size)

    @classmethod
    def from_lines(cls, lines, chunk_size: int = 65536, first_line: int = 1, rules=None) -> Iterator["HandBatch"]:
        """Batches of ``chunk_size`` from JSON lines (bytes or str, e.g. an open
        binary file), the first being line ``first_line``: the reader of
        :meth:`from_jsonl`, for data that is not a whole file."""
        chunk = []
        first = first_line      # line number of chunk[0]
        for lineno, line in enumerate(lines, first_line):
            chunk.append(line)
            if len(chunk) == chunk_size:
                yield cls._from_json_lines(chunk, rules, first)[0]
                chunk = []
                first = lineno + 1
        if chunk:
            yield cls._from_json_lines(chunk, rules, first)[0]

    @classmethod
    def _from_json_lines(cls, chunk: list, rules=None, first_line=None) -> tuple:
        """(batch, number of records naming a rule set) for a list of JSON
        lines.  The common line (bytes holding a flat record of plain values)
        is read by the compiled scanner without decoding; the others are
        decoded and read as from_records reads them.  A line that does not
        decode is an invalid row ("line N: bad JSON ..." when ``first_line``,
        the number of chunk[0], is given; then ``lines`` is set too)."""
        n = len(chunk)
        cols = _empty(n)
        rflags = np.zeros(n, np.uint8)
        wild = np.zeros(n, np.uint8)
        kinds = np.zeros(n, np.uint64)
        status = np.zeros(n, np.uint8)
        ids = [None] * n
        kongs: list = []    # [row, line, ...]: the scanned rows with a melded kong
        _core.scan_lines(chunk, cols["counts"], cols["melds"], cols["n_melds"], cols["win_tile"], cols["flags"],
                         cols["seat"], cols["round"], cols["flowers"], rflags, status, ids, kongs)
        invalid = np.zeros(n, bool)
        messages = {}
        n_rules = 0
        slow = np.flatnonzero(status).tolist()
        if slow:
            objs = []
            bad = {}
            for i in slow:
                try:
                    objs.append(_loads(chunk[i]))
                except Exception as exc:  # BadJSON (mjfast.io.jsontext), worded by _parse_error
                    objs.append(None)
                    msg = _parse_error(chunk[i], exc)
                    bad[i] = msg if first_line is None else f"line {first_line + i}: {msg}"
            # scanned lines name no rule set: the slow ones decide the batch's
            sub, n_rules = cls._read_records(objs, rules)
            rules = sub.rules
            rows = np.asarray(slow)
            for name, col in cols.items():
                col[rows] = getattr(sub, name)
            rflags[rows] = sub.rule_flags
            wild[rows] = sub.wildcards
            kinds[rows] = sub.wild_kinds
            for k, i in enumerate(slow):
                ids[i] = sub.ids[k]
            for k in np.flatnonzero(sub.invalid).tolist():
                invalid[slow[k]] = True
                messages[slow[k]] = sub.messages.get(k, "invalid hand")
            src = sub._added_src
            for k, h in zip(src.rows, src.items):
                kongs += (slow[k], h)
            messages.update(bad)
        lines = None if first_line is None else np.arange(first_line, first_line + n, dtype=np.int64)
        out = cls(**cols, ids=ids, invalid=invalid, messages=messages, validate=False, rules=rules,
                  rule_flags=rflags, wildcards=wild, wild_kinds=kinds, lines=lines,
                  added=_KongNotation.from_pairs(kongs))
        out._hand_texts = _HandTexts(chunk, "lines")
        return out, n_rules

    # -- validation of array input ------------------------------------------

    def _validate_arrays(self):
        """Checks for batches built from arrays, one compiled pass over the
        rows (_core.batch_row_codes): flag bad rows, the first failing check
        of each named (_ROW_MESSAGES)."""
        n = len(self)
        code = np.empty(n, np.uint8)
        wild = self.wildcards
        counts = self.counts
        over = np.flatnonzero((wild > MAX_WILDCARDS) & ~self.invalid)
        for i in over.tolist():
            self.invalid[i] = True
            self.messages[i] = f"wildcards must be 0..{MAX_WILDCARDS}, got {int(wild[i])}"
        wk = self.wild_kinds
        for i in np.flatnonzero((wk >> np.uint64(34) != 0) & ~self.invalid).tolist():
            self.invalid[i] = True
            self.messages[i] = "wild_kinds: bits 0-33 only (one per tile kind)"
        for i in np.flatnonzero((wk != 0) & (wild > 0) & ~self.invalid).tolist():
            self.invalid[i] = True
            self.messages[i] = "pass wildcards=k or wildcard_tiles=[...], not both"
        rows = np.flatnonzero((wild > 0) & ~self.invalid)
        if rows.size:
            # a row beside k wildcards is checked as its tiles plus k tiles of
            # kinds it holds nowhere (at most 4 of one kind: never a fifth
            # copy), so that every other check is the same
            counts = counts.copy()
            for i in rows.tolist():
                full = counts[i].astype(np.int16)
                for j in range(min(int(self.n_melds[i]), 4)):
                    kind, t = int(self.melds[i, j, 0]), min(int(self.melds[i, j, 1]), 33)
                    full[t:t + 3 if kind == 0 else t + 1] += 1
                free = [t for t in range(34) if full[t] == 0]
                k = int(wild[i])
                for t in free:
                    if k == 0:
                        break
                    counts[i, t] = min(k, 4)
                    k -= counts[i, t]
        if not _core.batch_row_codes(counts, self.melds, self.n_melds, self.win_tile, self.flags, self.seat,
                                     self.round, self.flowers, np.ascontiguousarray(self.added, np.uint8),
                                     self.invalid.view(np.uint8), code):
            return
        rows = np.flatnonzero(code)
        for i in rows[np.argsort(code[rows], kind="stable")].tolist():     # check by check, as numpy did
            self.invalid[i] = True
            self.messages[i] = _ROW_MESSAGES[code[i]]


#: the checks of HandBatch's array input, in the order they are made (code
#: 1..: the ``records`` family of mjfast/spec/errors.py)
_ROW_MESSAGES = (None,) + tuple(_errors.messages(_errors.RECORDS)[k]
                                for k in range(1, len(_errors.messages(_errors.RECORDS)) + 1))


class _HandTexts:
    """Row -> the ``hand`` of the input as given (a string), or None: read
    only for the rows whose error text names the hand (not a winning hand).
    ``kind``: what ``source`` holds: "records" (dicts), "lines" (JSON lines)
    or "strings" (notation strings)."""

    def __init__(self, source, kind):
        self.source = source
        self.kind = kind

    def __call__(self, i: int):
        item = self.source[i]
        if self.kind == "strings":
            return item if isinstance(item, str) else None
        if self.kind == "lines":
            try:
                item = _loads(item)
            except Exception:  # (such a row is an error of its own, never "not a winning hand")
                return None
        hand = item.get("hand") if isinstance(item, dict) else None
        return hand if isinstance(hand, str) else None


#: record fields that hold integers: a whole float there is read as the int
#: (pandas stores an integer column with a missing value as float64)
_INT_FIELDS = frozenset(("id", "flowers", "seat_wind", "round_wind", "wildcards"))


def _table_records(columns: dict, n: int) -> list:
    """Record dicts of a table given as ``{column: (values, missing)}``:
    ``values`` a list of n values, ``missing`` a bool array (or None) of the
    rows where the table has no value, which leave the field out.  numpy
    scalars become Python ones, and a whole float in a field of integers
    becomes an int.  (A pass per column, not a test per cell: the rows are
    built by dict(zip), a few times the cost of from_records itself.)"""
    full, gaps = {}, {}
    for name, (values, missing) in columns.items():
        if not isinstance(name, str):
            raise InvalidArgument(f"column names must be strings (the record fields), got {_show(name)}")
        kinds = set(map(type, values))
        if any(issubclass(k, np.generic) for k in kinds):
            values = [v.item() if isinstance(v, np.generic) else v for v in values]
            kinds = set(map(type, values))
        if float in kinds and name in _INT_FIELDS:
            values = [int(v) if type(v) is float and v.is_integer() else v for v in values]
        if missing is not None and np.asarray(missing, bool).any():
            gaps[name] = (values, np.flatnonzero(~np.asarray(missing, bool)).tolist())
        else:
            full[name] = values
    # the columns without gaps row by row in C (dict(zip)), then the others
    names = list(full)
    out = [dict(zip(names, row)) for row in zip(*full.values())] if names else [{} for _ in range(n)]
    for name, (values, keep) in gaps.items():
        for i in keep:
            out[i][name] = values[i]
    return out


def _uint8_column(a, shape, name, out_of_range) -> np.ndarray:
    """A HandBatch column as C-contiguous uint8 (zero-copy when it already is
    one); a scalar is broadcast to ``shape``.  Integer input only (a float or
    string column is a TypeError naming it); a value outside 0..255 is not
    wrapped: its row is recorded in ``out_of_range`` (flagged invalid)."""
    a = np.asarray(a)
    if a.dtype == object:
        flat = a.ravel().tolist()
        if not all(type(x) is int for x in flat):
            raise InvalidArgument(f"{name} must hold integers, got {_show(flat[:3])}")
        a = np.array([min(max(x, -1), 256) for x in flat], dtype=np.int64).reshape(a.shape)
    elif a.dtype.kind == "f":
        # whole numbers in a float array are read as integers (np.zeros(...) is float)
        if not np.isfinite(a).all() or (a != np.floor(a)).any():
            raise InvalidArgument(f"{name} must hold whole numbers, got a fraction, inf or nan")
        a = np.clip(a, -1, 256).astype(np.int64)
    elif a.dtype.kind not in "iub":
        raise InvalidArgument(f"{name} must hold integers, got dtype {a.dtype}")
    if a.dtype in _NARROW and a.ndim >= 1 and a.size and a.flags.c_contiguous:
        # one compiled pass: clamped to 0..255, the rows holding another value noted
        out = np.empty(a.shape, np.uint8)
        fl = np.empty(a.shape[0], np.uint8)
        if _core.narrow_rows(a.reshape(a.shape[0], -1), out.reshape(a.shape[0], -1), fl):
            for i in np.flatnonzero(fl).tolist():
                out_of_range.setdefault(i, f"{name} out of range (a value below 0 or above 255)")
        a = out
    if a.dtype != np.uint8 and a.dtype.kind != "b" and a.size and (a.min() < 0 or a.max() > 255):
        bad = (a < 0) | (a > 255)
        if a.ndim == 0:
            raise _column_error(name)(f"{name} must be 0-255, got {int(a)}")
        rows = np.flatnonzero(bad.reshape(bad.shape[0], -1).any(axis=1))
        for i in rows.tolist():
            out_of_range.setdefault(i, f"{name} out of range (a value below 0 or above 255)")
        a = np.clip(a, 0, 255)
    if shape is None:
        return np.ascontiguousarray(a, dtype=np.uint8)
    if a.ndim == 0:
        return np.full(shape, a, dtype=np.uint8)
    a = np.ascontiguousarray(a, dtype=np.uint8)
    if a.shape != shape:
        raise _column_error(name)(f"{name} must have shape {shape}; got {a.shape}")
    return a


#: The HandBatch columns that are the hands themselves: a bad one is an
#: InvalidHand; a bad context column (flags, winds, flowers, ...) is an argument.
_HAND_COLUMNS = frozenset(("counts", "melds", "n_melds", "win_tile", "added"))


def _column_error(name):
    return InvalidHand if name in _HAND_COLUMNS else InvalidArgument


def _kinds_column(a, n) -> np.ndarray:
    """HandBatch.wild_kinds: (N,) uint64 bit masks (bit t: tile kind t is wild)."""
    a = np.asarray(a)
    if a.ndim == 0:
        a = np.full(n, a)
    if a.dtype.kind not in "iu" or a.shape != (n,) or (a.dtype.kind == "i" and a.size and a.min() < 0):
        raise InvalidArgument(f"wild_kinds must be a ({n},) array of non-negative integer bit masks, "
                              f"got dtype {a.dtype}, shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.uint64)


def _sequence_arg(value, name, what) -> list:
    """``value`` as a list; a str / bytes / dict / non-iterable raises TypeError
    (a string would become one row per character, a dict one per key)."""
    if isinstance(value, (str, bytes, bytearray, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}"
                        + (f" {_show(value)}" if isinstance(value, (str, bytes)) else ""))
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise TypeError(f"{name} must be {what} (one dimension), got an array of shape {value.shape}")
    return list(value)


class _KongNotation:
    """The notation of a batch's rows, kept for its ``added`` column, read on
    demand: only the rule sets scored row by row need it.  Taken when the
    batch is built, so that the batch does not depend on what it was built
    from: strings and bytes cannot change, and a record's hand string is
    taken while the record is read (by the compiled reader, for the rows
    holding a melded kong, the only rows an added kong can be in), never
    looked up in the record later.  Dropped once the column is read.

    ``rows`` None: ``items[i]`` is row i's; else ``items[k]`` is row
    ``rows[k]``'s.  An item is notation (str) or a JSON line (bytes) holding
    a record."""
    __slots__ = ("rows", "items")

    def __init__(self, rows, items):
        self.rows = rows
        self.items = items

    @classmethod
    def from_pairs(cls, flat: list) -> "_KongNotation":
        """From [row, item, row, item, ...] (the compiled readers' output)."""
        return cls(flat[0::2], flat[1::2])

    def column(self, melds, n_melds, invalid) -> np.ndarray:
        """The ``added`` column (see :class:`HandBatch`): the melds columns hold
        a kong added to a pung as any melded kong, so the rows whose notation
        has an added kong (a meld digit 5-7, ``[EEEE5]``) are read again by the
        Python parser for it (MCR scores an added kong as any melded kong)."""
        added = np.zeros((melds.shape[0], 4), np.uint8)
        rows = range(len(self.items)) if self.rows is None else self.rows
        for i, h in zip(rows, self.items):
            if type(h) is bytes:
                try:
                    h = _loads(h).get("hand")
                except Exception:   # (the line was read when the batch was built, so not expected)
                    continue
            if invalid[i] or type(h) is not str or not ("5]" in h or "6]" in h or "7]" in h):
                continue
            try:
                ms = parse_hand(h).melds
            except InvalidHand:          # (read by the parser, so not expected)
                continue
            for m in ms:
                if m.added:
                    for j in range(int(n_melds[i])):
                        if melds[i, j, 0] == 2 and melds[i, j, 1] == m.tile and melds[i, j, 2] == 1:
                            added[i, j] = m.claimed
        return added


def _records_rules(records, rules):
    """The batch's rule set and {row: message} for records naming another one."""
    names = [r.get("rules") if type(r) is dict else None for r in records]
    msgs = {}
    if rules is None:
        given = {n for n in names if n is not None}
        if len(given) == 1:
            only = given.pop()
            if isinstance(only, str):
                try:
                    rules = _get_rules(only)
                except InvalidArgument:         # (an unknown name: reported below, per record)
                    rules = None
    rs = _get_rules(rules)
    for i, n in enumerate(names):
        if n is None or n == rs.name:
            continue
        if not isinstance(n, str):
            msgs[i] = f"'rules' must be a rule-set name (a string), got {_show(n)}"
        elif n not in available():
            msgs[i] = f"unknown rule set {n!r} (available: {', '.join(available())})"
        else:
            msgs[i] = (f"record asks for rule set {n!r} but the batch is scored under {rs.name!r} "
                       "(score each rule set's records separately)")
    return rules, msgs


def _parse_hands(hands):
    """Columns for N hands, filled by the compiled parser where it can; ok[i]
    is False where the row goes through hand_args (a string that does not
    parse, is not a 14-tile hand or holds flower codes)."""
    n = len(hands)
    cols = _empty(n)
    ok = np.zeros(n, np.uint8)
    _core.parse_rows_fast(hands, cols["counts"], cols["melds"], cols["n_melds"], cols["win_tile"], ok)
    return cols, ok.view(bool)


def _fill_row(cols, i, hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers):
    h, counts, melds, n_melds, win, flags, seat, rnd, fl = hand_args(
        hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
    cols["counts"][i] = counts
    cols["melds"][i] = melds
    cols["n_melds"][i] = n_melds
    cols["win_tile"][i] = win
    cols["flags"][i] = flags
    cols["seat"][i] = seat
    cols["round"][i] = rnd
    cols["flowers"][i] = fl


def _context_column(cols, name, values, n, invalid, messages):
    """One context argument given as a sequence: each item checked into its
    column (flags: its bit of ``flags``); the first bad item of a row, in
    argument order, flags the row."""
    values = _sequence_arg(values, name, f"a scalar or a sequence of {n} values")
    if len(values) != n:
        raise ValueError(f"{name} has {len(values)} items for {n} hands")
    if name in FLAG_BITS:
        check, bit = check_flag, FLAG_BITS[name]
    elif name == "flowers":
        check, bit = check_flowers, 0
    else:
        check, bit = check_wind, 0
    col = cols["flags" if bit else {"seat_wind": "seat", "round_wind": "round"}.get(name, name)]
    for i, v in enumerate(values):
        if invalid[i]:
            continue
        try:
            x = check(v, name)
        except (InvalidHand, TypeError, ValueError) as exc:
            invalid[i] = True
            messages[i] = str(exc)
            continue
        if bit:
            if x:
                col[i] |= bit
        else:
            col[i] = x


def _read_record(cols, i, rec, wild, kinds):
    """Row i from a record the compiled reader left to Python: None when it
    was read, else the message saying what is wrong with it.  A record with
    ``wildcards`` k >= 1 holds 14 - k real tiles (counting 3 per meld); k goes
    to ``wild[i]``."""
    try:
        args = validate_record(rec)
    except RecordError as exc:
        return str(exc)
    k = rec.get("wildcards")
    wt = rec.get("wildcard_tiles")
    if k is not None or wt is not None:
        try:
            if k is not None:
                k = _wild_check(k, None, False).k
            if wt is not None:
                # (wildcards 0 is no wildcards, as when absent)
                if k:
                    raise InvalidArgument("pass wildcards=k or wildcard_tiles=[...], not both")
                try:
                    w = _wild_check(None, wt, False).kinds
                except (InvalidHand, TypeError, ValueError) as exc:
                    msg = str(exc)
                    return msg if msg.startswith("wildcard_tiles") else f"wildcard_tiles: {msg}"
                if not w:
                    return "wildcard_tiles must name at least one tile kind (absent or null: none)"
                kinds[i] = sum(1 << t for t in w)
        except (InvalidHand, TypeError, ValueError) as exc:
            return str(exc)
    try:
        # what the compiled reader did not take (flower codes, a hand that
        # does not parse or is not 14 tiles, wildcards): read here, or the
        # problem worded
        if k:
            _fill_row_wild(cols, i, k, *args)
            wild[i] = k
        else:
            _fill_row(cols, i, *args)
    except (InvalidHand, TypeError, ValueError) as exc:
        return str(exc)
    return None


def _fill_row_wild(cols, i, k, hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers):
    """_fill_row for a hand beside k wildcards: its real tiles in the columns
    (14 - k counting 3 per meld), the winning tile its last real one."""
    flags, seat, rnd, fl = check_context(self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
    h = parse_hand(hand)
    if not h.tiles:
        # (old Shanghai's four melds and two 百搭, one the winning tile, has no
        # real concealed tile: mjfast.score takes it, a batch row cannot)
        raise InvalidHand("a batch row needs a winning tile among the concealed tiles "
                          "(score a hand of melds and wildcards only with mjfast.score)")
    n = len(h.tiles) + k + 3 * len(h.melds)
    if n != 14:
        raise InvalidHand(f"a winning hand has 14 tiles counting 3 per meld; got {len(h.tiles)} real concealed"
                          f" + {k} wildcards + {len(h.melds)} melds = {n}")
    fl += h.flowers or 0
    if fl > 8:
        raise InvalidHand(f"at most 8 flowers, got {fl}")
    for j, m in enumerate(h.melds):
        cols["melds"][i, j] = (_KIND[m.kind], m.tile, 0 if m.concealed else 1)
    cols["counts"][i] = h.counts
    cols["n_melds"][i] = len(h.melds)
    cols["win_tile"][i] = h.win_tile
    cols["flags"][i] = flags
    cols["seat"][i] = seat
    cols["round"][i] = rnd
    cols["flowers"][i] = fl


def _read_rule_flags(rflags, i, rec):
    """The rule-set flags of a record the compiled reader left to Python
    into rflags[i]; a message when one is not a bool (the last such flag is
    named, as the record reader always has)."""
    msg = None
    for name, bit in RULE_FLAG_BITS.items():
        v = rec.get(name)
        if v is None or v is False:
            continue
        if v is True:
            rflags[i] |= bit
        else:
            msg = f"{name} must be true or false (a bool), got {_show(v)}"
    return msg


def score_batch(batch, *, workers: int = 1, strict: bool = False, rules=None) -> BatchResult:
    """Score every hand of ``batch`` (a :class:`HandBatch`, or a list of notation
    strings / record dicts).  ``workers``: threads, checked by
    :func:`mjfast.analysis.inputs.resolve_workers` (-1 = all cores; counts above the usable
    cores are clamped to them); results do not depend on it.  A single string or
    dict raises TypeError.

    A flag the rules drop (see :attr:`mjfast.Score.ignored_flags`) is reported
    per row in ``ignored`` / :meth:`BatchResult.ignored_flags`; with
    ``strict=True`` such a row is an error instead (``ERR_INVALID``, the reason
    in ``error_message(i)``).

    ``rules``: a rule-set name or :class:`~mjfast.rules.RuleSet` (default:
    the batch's ``rules``, else MCR).  Rows holding a tile the rule set does
    not play are errors naming it; ``legal`` uses the rule set's minimum."""
    nthreads = resolve_workers(workers)
    strict = check_flag(strict, "strict")
    if not isinstance(batch, HandBatch):
        items = _sequence_arg(batch, "batch", "a HandBatch or a list of notation strings / record dicts")
        if items and all(isinstance(x, str) for x in items):
            batch = HandBatch.from_strings(items, rules=rules)
        else:
            batch = HandBatch.from_records(items, rules=rules)
    batch.check_columns()       # (before the columns that pick the path are read)
    if (rules is None and batch.rules is None and not batch.rule_flags.any() and not batch.wildcards.any()
            and not batch.wild_kinds.any()):
        res = _score_batch_mcr(batch, nthreads, strict)
    else:
        rs = _get_rules(rules if rules is not None else batch.rules)
        from .batch_rules import score_batch_rules as _score_batch_rules     # (loaded on first use, as the rule sets are)
        res = _score_batch_rules(batch, rs, nthreads, strict or rs.strict)
    # the hands as given: the error text of a row that is not a win names it
    res.hand_texts = batch._hand_texts
    return res


