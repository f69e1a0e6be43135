"""``mjfast logs``: score or export the wins of match archives.

    mjfast logs score FILE... [--out results.jsonl|.csv|.parquet] [--workers N] [--scheduler ADDRESS|local]
    mjfast logs export FILE... --out hands.jsonl [--workers N] [--scheduler ADDRESS|local]

Exit codes: 0 every match replayed; 1 some match was skipped (each is listed
on stderr with its line / log index and the reason) or some win could not be
scored; 2 bad usage.
"""
from __future__ import annotations

import contextlib
import csv
import json
import os
import sys
import time

__all__ = ["add_parser", "run"]


from .._extras import install_hint, require
from .._progress import progress
from .args import RulesArgError, add_rules, rules_from_args


class _Usage(Exception):
    pass


#: why --rules takes MCR only here (messages, --help)
_WHY = "Botzone matches are played and scored under MCR, and the recorded scores are MCR's"


def add_parser(sub):
    """Register ``logs`` on the main parser's subparsers (called by mjfast.cli)."""
    p = sub.add_parser("logs", help="score or export the wins of Botzone match archives (text or JSON)",
                       description="Read match archives (the text archive, match JSON files or directories, "
                                   "PMN), replay every match through the game engine and score its wins.")
    lsub = p.add_subparsers(dest="logs_command", metavar="{score,export}")
    for name, helptext in (("score", "one row per win: our score next to the recorded one"),
                           ("export", "the wins as JSONL hand records (input of `mjfast score --jsonl`)")):
        q = lsub.add_parser(name, help=helptext, description=helptext)
        q.add_argument("files", nargs="+", metavar="FILE", help="text archive, match JSON file or directory")
        q.add_argument("--out", metavar="PATH", required=(name == "export"),
                       help=("results file: .jsonl, .csv or .parquet (default: JSONL on stdout)"
                             if name == "score" else "hand records, JSONL ('-' for stdout)"))
        q.add_argument("--workers", type=int, default=1, metavar="N",
                       help="processes (files and chunks of files are split between them; same output)")
        q.add_argument("--no-progress", action="store_true", help="no progress bar")
        add_rules(q, ("mcr",), _WHY)
        q.add_argument("--scheduler", default=None, metavar="ADDRESS|local",
                       help="run the units of work on Dask: a scheduler address (tcp://host:8786) or 'local' "
                            "for a local cluster (pip install '.[dask]'); same output")
        q.set_defaults(func=run, logs_action=name)
    p.set_defaults(func=run, logs_action=None, logs_parser=p)
    return p


def _isatty(f):
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


def _jsonable(v):
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return v


class _Writer:
    """Rows to .jsonl / .csv / .parquet (or JSONL on stdout), in order."""

    def __init__(self, out, columns):
        self.columns = list(columns)
        self.kind = "jsonl"
        self.f = None
        self.pq = None
        self.csv = None
        if out in (None, "-"):
            self.f = sys.stdout
            return
        ext = os.path.splitext(out)[1].lower()
        if ext == ".csv":
            self.kind = "csv"
            self.f = open(out, "w", newline="", encoding="utf-8")
            self.csv = csv.writer(self.f)
            self.csv.writerow(self.columns)
        elif ext == ".parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise _Usage(f"--out *.parquet needs pyarrow: {install_hint('tables')}") from None
            self.kind = "parquet"
            self.path = out
        elif ext in (".jsonl", ".json", ".ndjson"):
            self.f = open(out, "w", encoding="utf-8")
        else:
            raise _Usage(f"--out must end in .jsonl, .csv or .parquet, got {out!r}")

    def write(self, rows):
        if not rows:
            return
        if self.kind == "jsonl":
            self.f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        elif self.kind == "csv":
            for r in rows:
                self.csv.writerow(["" if r[c] is None else _jsonable(r[c]) for c in self.columns])
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq
            cols = {c: [_jsonable(r[c]) for r in rows] for c in self.columns}
            table = pa.table({c: pa.array(v, type=_PA_TYPES[c](pa)) for c, v in cols.items()})
            if self.pq is None:
                self.pq = pq.ParquetWriter(self.path, table.schema)
            self.pq.write_table(table)

    def close(self):
        if self.kind == "parquet":
            if self.pq is None:
                import pyarrow as pa
                import pyarrow.parquet as pq
                schema = pa.schema([(c, _PA_TYPES[c](pa)) for c in self.columns])
                pq.write_table(schema.empty_table(), self.path)
            else:
                self.pq.close()
        elif self.f is not None and self.f is not sys.stdout:
            self.f.close()
        else:
            sys.stdout.flush()


# explicit parquet types so that every chunk has the same schema (all-None columns included)
_PA_TYPES = {
    "match": lambda pa: pa.string(), "file": lambda pa: pa.string(), "pos": lambda pa: pa.int64(),
    "winner": lambda pa: pa.int8(), "discarder": lambda pa: pa.int8(), "tile": lambda pa: pa.string(),
    "hand": lambda pa: pa.string(), "self_drawn": lambda pa: pa.bool_(), "fourth_tile": lambda pa: pa.bool_(),
    "last_tile": lambda pa: pa.bool_(), "kong": lambda pa: pa.bool_(), "seat_wind": lambda pa: pa.string(),
    "round_wind": lambda pa: pa.string(), "total": lambda pa: pa.int32(), "fans": lambda pa: pa.string(),
    "recorded_total": lambda pa: pa.int32(), "recorded_fans": lambda pa: pa.string(),
    "agrees": lambda pa: pa.bool_(), "settlement": lambda pa: pa.string(),
    "recorded_score": lambda pa: pa.string(), "error": lambda pa: pa.string(),
}


class CliError(Exception):
    """A usage error of ``mjfast logs``: ``mjfast: error: <message>``, exit code 2.
    (Handled here, not by mjfast.cli, so that imports flow one way.)"""


def run(args) -> int:
    try:
        return _run(args)
    except CliError as exc:
        print(f"mjfast: error: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:       # an optional component (or the game engine) is missing
        print(f"mjfast: error: {exc}", file=sys.stderr)
        return 2


def _run(args) -> int:
    if args.logs_action is None:
        args.logs_parser.print_help(sys.stderr)
        return 2
    if args.workers < 1:
        raise CliError(f"--workers must be >= 1, got {args.workers}")
    try:
        rules_from_args(args, f"mjfast logs {args.logs_action}", ("mcr",), options=False, why=_WHY)
    except RulesArgError as exc:
        raise CliError(str(exc)) from None
    for f in args.files:
        if not os.path.exists(f):
            raise CliError(f"no such file or directory: {f}")
    # the optional dependencies of the run, before any work (run() reports a missing one)
    if args.logs_action == "score" and args.out and os.path.splitext(args.out)[1].lower() == ".parquet":
        require("arrow", f"--out {args.out}")
    if getattr(args, "scheduler", None):
        require("dask", f"--scheduler {args.scheduler}")
    from ..logs.scoring import COLUMNS, Summary, process   # start-up: loaded when the command runs
    from ..logs import win_record   # start-up: loaded when the command runs

    total = Summary()
    t0 = time.perf_counter()
    # by bytes read, the total known once the input is cut into units of work
    bar = progress(total=None, desc="replaying", unit="B", enabled=False if args.no_progress else None)
    cluster = contextlib.ExitStack()
    if getattr(args, "scheduler", None):
        # the same units of work, run by a Dask cluster, yielded in order
        from ..stats.dask import client_for, process_logs   # optional: needs dask

        # (the Dask stand-in for scoring.process, called the same way)
        def process(paths, workers=1, want_rows=True, bytes_bar=None):  # type: ignore[misc]  # noqa: F811
            return process_logs(paths, want_rows=want_rows, bytes_bar=bytes_bar)
    try:
        if getattr(args, "scheduler", None):
            cluster.enter_context(client_for(args.scheduler))
        if args.logs_action == "score":
            try:
                w = _Writer(args.out, COLUMNS)
            except _Usage as exc:
                raise CliError(str(exc)) from None
            except OSError as exc:
                raise CliError(f"cannot write {args.out}: {exc.strerror or exc}") from None
            try:
                for rows, _wins, s in process(args.files, workers=args.workers, bytes_bar=bar):
                    # "file" stays as given on the command line
                    w.write([{**r, "match": None if r["match"] is None else str(r["match"])} for r in rows])
                    total.add(s)
                    bar.set_postfix_str(f"{total.matches:,} matches", refresh=False)
            finally:
                w.close()
        else:
            out = sys.stdout if args.out == "-" else None
            try:
                f = out or open(args.out, "w", encoding="utf-8")
            except OSError as exc:
                raise CliError(f"cannot write {args.out}: {exc.strerror or exc}") from None
            try:
                for _rows, wins, s in process(args.files, workers=args.workers, want_rows=False,
                                              bytes_bar=bar):
                    f.write("".join(json.dumps(win_record(x), ensure_ascii=False) + "\n" for x in wins))
                    total.add(s)
                    bar.set_postfix_str(f"{total.matches:,} matches", refresh=False)
            finally:
                if f is not sys.stdout:
                    f.close()
    finally:
        bar.close()
        cluster.close()
    dt = time.perf_counter() - t0
    # export writes every win it finds (nothing is scored): its balance says so
    print(total.text(exported=args.logs_action == "export"), file=sys.stderr)
    if _isatty(sys.stderr):
        # timing only on a terminal: redirected reports stay byte-identical between runs
        rate = total.matches / dt if dt > 0 else 0.0
        print(f"{total.matches} matches in {dt:.2f} s ({rate:,.0f} matches/s)", file=sys.stderr)
    bad = total.skipped or total.not_archives or any(p.kind == "win" for p in total.problems)
    return 1 if bad else 0
