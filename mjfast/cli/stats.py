"""``mjfast stats ...``: fan statistics from the command line.

    mjfast stats table FILE... [--out fans.csv|.parquet|.json] [--plot fans.png] [--scheduler ADDRESS|local]
    mjfast stats enumerate [--form regular|seven_pairs|...|all] [--out fans.csv] [--plot enum.png]
    mjfast stats simulate --games N [--seed S] [--bots baseline|random|tsumogiri ...] [--workers W]
    mjfast stats logs FILE... [--out fans.csv|.parquet|.json] [--plot fans.png] [--workers W]

Only argparse is imported here; the statistics load when a command runs.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np
from .._extras import MissingExtra, require
from .._progress import progress
from .args import RulesArgError, add_rules, nonnegative_int, positive_int, rules_from_args
from ..analysis.hands import FORMS
from ..rules import available, get
from ..rules.base import loaded
from ..stats import stats_of_files

__all__ = ["register"]

FORM_CHOICES = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight", "all")


class StatsError(Exception):
    """A user error: ``mjfast: error: <message>``, exit code 2 (as the main CLI)."""


def _error(msg):
    return StatsError(msg)


def _guard(func):
    # the main CLI's error class lives in mjfast.cli, which imports this
    # module: report our own errors the same way instead of importing it
    def run(args):
        try:
            return func(args)
        except (StatsError, RulesArgError, MissingExtra) as exc:
            print(f"mjfast: error: {exc}", file=sys.stderr)
            return 2
    return run


def register(sub) -> None:
    """Add the ``stats`` command to the top-level subparsers."""
    p = sub.add_parser("stats", help="fan statistics: from scored files, or exactly over all concealed hands",
                       description="Fan statistics (frequency, points, share of wins with a 95 % interval, "
                                   "mean totals, forms, self-drawn share, co-occurrence).")
    ssub = p.add_subparsers(dest="stats_command", metavar="STATS_COMMAND")

    t = ssub.add_parser("table", help="statistics of scored result files or hand-record files",
                        description="Read scored results (.parquet/.csv with a 'total' column and one column per "
                                    "fan, or the JSONL output of 'mjfast score --jsonl') or hand records (.jsonl, "
                                    "scored here) and print the fan table; streams any file size.")
    t.add_argument("files", nargs="+", metavar="FILE")
    _common(t)
    t.add_argument("--chunk-size", type=positive_int, default=65536, metavar="N", help="rows per chunk (default 65536)")
    _scheduler(t)
    add_rules(t, _mcr_table_sets(), _TABLE_WHY)
    t.set_defaults(func=_guard(_cmd_table))

    e = ssub.add_parser("enumerate", help="exact statistics over every fully concealed winning hand",
                        description="Walk every distinct fully concealed 14-tile winning hand of the form(s) and "
                                    "score it with each of its tiles as the winning tile (self-drawn, East seat "
                                    "and round, no flowers): exact fan counts, unweighted and weighted by the "
                                    "physical tile combinations.")
    e.add_argument("--form", choices=FORM_CHOICES, default="all", help="one winning form, or all (default) "
                   "with their union")
    _common(e)
    _scheduler(e)
    add_rules(e, _mcr_table_sets(full=True), _ENUM_WHY)
    e.set_defaults(func=_guard(_cmd_enumerate))

    m = ssub.add_parser("simulate", help="statistics of self-play games in the compiled engine",
                        description="Play games between compiled bots (default: the baseline bot in every seat), "
                                    "score every win in bulk and print the fan table with the engine's "
                                    "throughput.  Game g of a run depends on (seed, g) only: the numbers are "
                                    "the same for any --workers and --chunk-size.")
    m.add_argument("--games", type=positive_int, required=True, metavar="N", help="games to play")
    m.add_argument("--seed", type=nonnegative_int, default=0, metavar="S", help="the series of games (default 0)")
    m.add_argument("--bots", nargs="+", default=["baseline"], metavar="BOT",
                   help="one compiled policy for all seats or four (east south west north): baseline "
                        "(default), random, tsumogiri")
    m.add_argument("--chunk-size", type=positive_int, default=20000, metavar="N", help="games per task "
                   "(default 20000)")
    _common(m, workers_help="worker processes (-1 = all cores; default 1)")
    _scheduler(m)
    add_rules(m, ("mcr",), _ENGINE_WHY)
    m.set_defaults(func=_guard(_cmd_simulate))

    lg = ssub.add_parser("logs", help="statistics of the wins of Botzone match archives, in one command",
                         description="Read match archives (as 'mjfast logs score' does: text archive, match "
                                     "JSON files or directories), replay every match, score its wins in bulk "
                                     "and print the fan table.")
    lg.add_argument("files", nargs="+", metavar="FILE", help="text archive, match JSON file or directory")
    _common(lg, workers_help="processes (files and chunks of files are split between them; same output)")
    _scheduler(lg)
    add_rules(lg, ("mcr",), _LOGS_WHY)
    lg.set_defaults(func=_guard(_cmd_logs))
    p.set_defaults(func=lambda args: _no_sub(p))


#: why the commands that replay or play games take MCR only (messages, --help)
_ENGINE_WHY = "the compiled game engine plays MCR with its rules as they are"
_LOGS_WHY = "Botzone matches are played and scored under MCR"
_TABLE_WHY = "the statistics count MCR's fan table; hand records are scored under the rule set"
_ENUM_WHY = "the walk covers MCR's tiles and forms and counts MCR's fans"


def _mcr_table_sets(full=False):
    """The registered rule sets scored with the MCR fan table (the table the
    statistics count); ``full``: also with all 34 tiles and every MCR form."""
    out = []
    for n in available():
        if not loaded(n):
            continue        # not loaded yet (the parser does not load them): each has its own table
        rs = get(n)
        if rs.impl.mcr_fans and (not full or (len(rs.tiles) == 34 and set(rs.forms) >= set(FORMS)
                                             and rs.hand_size == 13)):
            out.append(n)
    return tuple(out)


def _rules(args, command, supported, options=True, why=""):
    """The RuleSet of --rules / --rule-option, checked for the command (None = MCR)."""
    return rules_from_args(args, f"mjfast stats {command}", supported, options, why)


def _scheduler(p):
    p.add_argument("--scheduler", default=None, metavar="ADDRESS|local",
                   help="run on Dask: a scheduler address (tcp://host:8786) or 'local' for a local cluster "
                        "(pip install '.[dask]')")


def _common(p, workers_help="scoring threads (-1 = all cores)"):
    p.add_argument("--out", default=None, metavar="PATH", help="write the fan table (.csv, .parquet or .json)")
    p.add_argument("--plot", default=None, metavar="PATH",
                   help="write figures: PATH (fan frequencies), PATH-totals and PATH-cooccurrence (.png, .svg or .pdf); "
                        "enumerate also writes PATH-physical* (weighted by physical tiles)")
    p.add_argument("--top", type=int, default=25, metavar="N", help="fans printed (default 25; 0 = all seen)")
    p.add_argument("--workers", type=int, default=1, metavar="W", help=workers_help)
    p.add_argument("--json", action="store_true", help="print the summary and the table as JSON")


def _no_sub(p):
    p.print_help(sys.stderr)
    return 2


# ---------------------------------------------------------------------------


def _check_out(path):
    if path is None:
        return
    if os.path.splitext(path)[1].lower() not in (".csv", ".parquet", ".json"):
        raise _error(f"--out {path}: the table format follows the suffix: .csv, .parquet or .json")


def _check_plot(path):
    if path is None:
        return
    from ..stats.plot import SUFFIXES   # start-up: loaded when the command runs
    if os.path.splitext(path)[1].lower() not in SUFFIXES:
        raise _error(f"--plot {path}: the figure format follows the suffix: {', '.join(SUFFIXES)}")


def _check_extras(args, inputs=()):
    """The optional dependencies this run needs, checked before any work
    (a missing one: one line, exit code 2).  The printed table and --json
    need none; --out .csv needs pandas, --out .parquet pandas and pyarrow,
    --plot matplotlib, --scheduler Dask; as input, .csv tables pandas and
    .parquet pandas and pyarrow."""
    _check_out(args.out)
    _check_plot(args.plot)
    if args.out:
        suffix = os.path.splitext(args.out)[1].lower()
        if suffix == ".csv":
            require("pandas", f"--out {args.out}")
        elif suffix == ".parquet":
            require("parquet", f"--out {args.out}")
    if args.plot:
        require("plot", f"--plot {args.plot}")
    for f in inputs:
        suffix = os.path.splitext(f)[1].lower()
        if suffix == ".csv":
            require("pandas", f"reading {f}")
        elif suffix in (".parquet", ".pq"):
            require("parquet", f"reading {f}")
    if getattr(args, "scheduler", None):
        require("dask", f"--scheduler {args.scheduler}")


def _table_rows(acc, sort=None) -> list:
    """``acc.table(sort).to_dict(orient="records")`` without pandas: one dict
    per fan, in the fan table's order or, with ``sort``, that column's
    largest first (NaN last), ties by id."""
    cols = acc.columns()
    order = np.arange(len(cols["id"])) if not sort else np.lexsort((cols["id"], -cols[sort]))
    lists = {k: v[order].tolist() for k, v in cols.items()}
    return [dict(zip(lists, vals)) for vals in zip(*lists.values())]


def _write_table(rows, path):
    """Write the table (a list of row dicts, all with the same keys in the
    same order) to .csv / .parquet (pandas, checked at the start) or .json."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".json":
        with open(path, "w", encoding="utf-8") as f:
            json.dump(_jsonable(rows), f, ensure_ascii=False, indent=1)
            f.write("\n")
        return
    import pandas as pd
    df = pd.DataFrame(rows, columns=list(rows[0]) if rows else None)
    if suffix == ".csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, index=False)


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _pct(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.3f} %"


def _print_summary(s, out, rules=None):
    if rules is not None:
        opts = "".join(f" {k}={v}" for k, v in rules.changed_options.items())
        print(f"rules {rules.name}{opts}", file=out)
    print(f"rows {s['rows']:,}   wins {s['wins']:,}   invalid {s['invalid']:,}   not winning {s['not_winning']:,}",
          file=out)
    if not s["wins"]:
        return
    iv = s.get("self_drawn_interval")
    ci = f"  [{_pct(iv[0])}, {_pct(iv[1])}]" if iv else ""
    m = 8 if rules is None else rules.min_points
    print(f"legal (>= {m} without flowers) {_pct(s['legal_share'])}   self-drawn {_pct(s['self_drawn_share'])}{ci}",
          file=out)
    t = s["totals"]
    print(f"totals: mean {t['mean']:.2f}  sd {t['std']:.2f}  min {t['min']}  median {t['median']}  "
          f"p90 {t['p90']}  p99 {t['p99']}  max {t['max']}", file=out)
    print("forms: " + "   ".join(f"{k} {_pct(v['share'])}" for k, v in s["forms"].items()), file=out)


def _print_table(rows, top, out, weighted=False):
    seen = [r for r in rows if r["wins"] > 0]
    if top:
        seen = seen[:top]
    print(f"{'fan':<34} {'pts':>3} {'wins':>14} {'share':>10}" +
          ("" if weighted else f" {'95 % interval':>21}") + f" {'mean total with/without':>24}", file=out)
    for r in seen:
        line = f"{r['name'][:34]:<34} {r['points']:>3} {r['wins']:>14,} {_pct(r['share']):>10}"
        if not weighted:
            line += f" {_pct(r['share_low']) + ' - ' + _pct(r['share_high']):>21}"
        mw = "-" if math.isnan(r["mean_total_without"]) else f"{r['mean_total_without']:.1f}"
        line += f" {r['mean_total_with']:>12.1f} / {mw:<9}"
        print(line.rstrip(), file=out)


def _cmd_table(args) -> int:
    _check_extras(args, args.files)
    for f in args.files:
        if not os.path.exists(f):
            raise _error(f"{f}: no such file")
    from ..logs.limits import REPORT_LIST_LIMIT     # the cap of the logs reports (loaded on use, as the rest)
    problems = [0]          # lines with a problem; the first REPORT_LIST_LIMIT are listed

    def on_problem(path, line, msg):
        problems[0] += 1
        if problems[0] <= REPORT_LIST_LIMIT:
            print(f"{path}:{line}: {msg}", file=sys.stderr)

    rs = _rules(args, "table", _mcr_table_sets(), why=_TABLE_WHY)
    t0 = time.perf_counter()
    try:
        if args.scheduler:
            from ..stats.dask import client_for, fan_frequencies_of_files   # optional: needs dask
            with client_for(args.scheduler):
                acc = fan_frequencies_of_files(args.files, chunk_size=args.chunk_size, rules=rs)
        else:
            acc = stats_of_files(args.files, chunk_size=args.chunk_size, workers=args.workers,
                                 on_problem=on_problem, rules=rs)
    except (ValueError, OSError) as exc:
        raise _error(str(exc)) from None
    except ImportError as exc:
        raise _error(str(exc)) from None
    seconds = time.perf_counter() - t0
    if problems[0] > REPORT_LIST_LIMIT:
        print(f"... and {problems[0] - REPORT_LIST_LIMIT:,} more lines with a problem ({problems[0]:,} in all, "
              f"the first {REPORT_LIST_LIMIT} listed)", file=sys.stderr)
    _report(acc, args, seconds, extra={"files": list(args.files)}, rules=rs)
    return 1 if acc.invalid else 0


def _report(acc, args, seconds, extra=None, timing=True, rules=None):
    rows = _table_rows(acc, sort="share")
    s = acc.summary()
    if rules is not None:
        # which rule set scored the rows (and so the minimum of "legal")
        extra = dict(extra or {}, rules=rules.name, rule_options=dict(rules.changed_options))
    if args.out:
        _write_table(rows, args.out)
    if args.plot:
        from ..stats.plot import plot_all   # start-up: loaded when the command runs
        plot_all(acc, args.plot)
    if args.json:
        cols = ["id", "key", "name", "zh", "points", "wins", "count", "share", "share_low", "share_high",
                "mean_total_with", "mean_total_without"]
        payload = dict(extra or {}, summary=s, seconds=round(seconds, 3),
                       fans=[{c: r[c] for c in cols} for r in rows if r["wins"] > 0])
        print(json.dumps(_jsonable(payload), ensure_ascii=False))
        return
    _print_summary(s, sys.stdout, rules)
    print(file=sys.stdout)
    _print_table(rows, args.top, sys.stdout, weighted=acc.weighted)
    if timing:
        _timing(seconds)


def _cmd_enumerate(args) -> int:
    _check_extras(args)
    from ..stats.enumerate import enumerate_stats, FORM_NAMES, count_hands   # start-up: loaded when the command runs
    rs = _rules(args, "enumerate", _mcr_table_sets(full=True), why=_ENUM_WHY)
    forms = FORM_NAMES if args.form == "all" else (args.form,)
    t0 = time.perf_counter()
    seen = dict.fromkeys(forms, 0)
    with progress(total=sum(count_hands(f) for f in forms), desc="enumerating", unit="hand",
                  enabled=False if args.json else None) as bar:
        def moved(form, done):
            bar.set_postfix_str(form, refresh=False)
            bar.update(done - seen[form])
            seen[form] = done
        try:
            r = enumerate_stats(forms, workers=args.workers, progress=moved, scheduler=args.scheduler,
                                rules=rs)
        except ImportError as exc:
            raise _error(str(exc)) from None
    seconds = time.perf_counter() - t0
    results = dict(r.forms)
    if r.union is not None:
        results["all"] = r.union
    cols = ["id", "key", "name", "zh", "points", "wins", "count", "share", "mean_total_with", "mean_total_without"]
    table = []
    for name, fr in results.items():
        for a, b in zip(_table_rows(fr.stats), _table_rows(fr.weighted)):
            table.append({"form": name, **{c: a[c] for c in cols}, "physical_share": b["share"],
                          "physical_mean_total_with": b["mean_total_with"]})
    if args.out:
        _write_table(table, args.out)
    main = results["all" if "all" in results else forms[0]]
    if args.plot:
        # exact counts: no sampling intervals; both weightings
        from ..stats.plot import plot_all   # start-up: loaded when the command runs
        what = "all concealed winning hands" if args.form == "all" else args.form
        plot_all(main.stats, args.plot, title=what, intervals=False,
                 xlabel="share of (hand, winning tile) rows with the fan (exact)")
        stem, suffix = os.path.splitext(args.plot)
        plot_all(main.weighted, f"{stem}-physical{suffix}", title=what + ", physical tiles", intervals=False,
                 xlabel="share with the fan, weighted by physical tile combinations (exact)")
    counts = {name: {"hands": fr.hands, "physical_hands": fr.physical, "rows": fr.rows}
              for name, fr in results.items()}
    if args.json:
        payload = {"seconds": round(seconds, 3), "counts": counts,
                   **({} if rs is None else {"rules": rs.name, "rule_options": dict(rs.changed_options)}),
                   "summary": {name: {"unweighted": fr.stats.summary(), "physical": fr.weighted.summary()}
                               for name, fr in results.items()},
                   "fans": [x for x in table if x["wins"] > 0]}
        print(json.dumps(_jsonable(payload), ensure_ascii=False))
        return 0
    if rs is not None:
        print("rules " + rs.name + "".join(f" {k}={v}" for k, v in rs.changed_options.items()))
    print(f"{'form':<18} {'hands':>12} {'physical hands':>22} {'rows (hand x winning tile)':>28}")
    for name, c in counts.items():
        print(f"{name:<18} {c['hands']:>12,} {c['physical_hands']:>22,} {c['rows']:>28,}")
    print()
    name = "all" if "all" in results else forms[0]
    print(f"fans over the {name} rows (share unweighted / weighted by physical tiles):")
    sub = sorted((x for x in table if x["form"] == name and x["wins"] > 0), key=lambda x: (-x["wins"], x["id"]))
    if args.top:
        sub = sub[:args.top]
    for x in sub:
        print(f"  {x['name'][:34]:<34} {x['points']:>3} {x['wins']:>14,} {_pct(x['share']):>10} "
              f"{_pct(x['physical_share']):>10}")
    _timing(seconds)
    return 0


def _timing(seconds):
    # on a terminal only: printed output stays the same from run to run
    if sys.stderr.isatty():
        print(f"({seconds:.2f} s)", file=sys.stderr)


def _cmd_simulate(args) -> int:
    _check_extras(args)
    from ..game.fast import POLICIES   # start-up: loaded when the command runs
    bad = [b for b in args.bots if b not in POLICIES]
    if bad or len(args.bots) not in (1, 4):
        raise _error(f"--bots: one bot for all seats or four, each one of {', '.join(sorted(POLICIES))}; "
                     f"got {' '.join(args.bots)}")
    if args.workers < 1 and args.workers != -1:
        raise _error(f"--workers must be >= 1 (or -1 for all cores), got {args.workers}")
    _rules(args, "simulate", ("mcr",), options=False, why=_ENGINE_WHY)
    from ..stats.simulate import simulate   # start-up: loaded when the command runs
    with progress(total=args.games, desc="playing", unit="game", enabled=False if args.json else None) as bar:
        def moved(done):
            bar.update(done - bar.n)
        try:
            sim = simulate(args.games, seed=args.seed, bots=args.bots, workers=args.workers,
                           chunk_size=args.chunk_size, progress=moved, scheduler=args.scheduler)
        except ImportError as exc:
            raise _error(str(exc)) from None
    g = sim.summary()
    if not args.json:
        print(f"games {g['games']:,}   wins {g['wins']:,} ({_pct(g['win_share'])})   no winner "
              f"{g['no_winner']:,}   bots {' '.join(g['policies'])}   seed {g['seed']}")
    # the throughput goes to stderr: stdout stays the same from run to run
    print(f"{g['games']:,} games in {g['seconds']:.2f} s: {g['games_per_second']:,.0f} games/s "
          f"({g['games_per_second_per_worker']:,.0f} per worker, {g['workers']} worker"
          f"{'s' if g['workers'] != 1 else ''}; {g['games_per_cpu_second']:,.0f} games per CPU second)",
          file=sys.stderr)
    _report(sim.stats, args, sim.seconds, extra={"games": g}, timing=False)
    if sim.mismatches:
        print(f"mjfast: error: {sim.mismatches} wins scored differently in bulk than in the engine",
              file=sys.stderr)
        return 1
    return 0


def _cmd_logs(args) -> int:
    _check_extras(args)
    for f in args.files:
        if not os.path.exists(f):
            raise _error(f"{f}: no such file or directory")
    if args.workers < 1:
        raise _error(f"--workers must be >= 1, got {args.workers}")
    _rules(args, "logs", ("mcr",), options=False, why=_LOGS_WHY)
    t0 = time.perf_counter()
    try:
        from ..stats.logs import stats_of_logs   # start-up: loaded when the command runs
        with progress(desc="replaying", unit="B", enabled=False if args.json else None) as bar:
            if args.scheduler:
                from ..stats.dask import client_for   # optional: needs dask
                with client_for(args.scheduler):
                    acc, summary = stats_of_logs(args.files, on_dask=True, bytes_bar=bar)
            else:
                acc, summary = stats_of_logs(args.files, workers=args.workers, bytes_bar=bar)
    except ImportError as exc:
        raise _error(str(exc)) from None
    seconds = time.perf_counter() - t0
    if summary is not None:
        print(summary.text(), file=sys.stderr)
    extra: dict = {"files": list(args.files)}
    if summary is not None:
        extra["matches"] = {"read": summary.matches, "replayed": summary.replayed, "skipped": summary.skipped,
                            "wins": summary.wins}
    _report(acc, args, seconds, extra=extra)
    bad = summary is not None and (summary.skipped or summary.not_archives
                                   or any(p.kind == "win" for p in summary.problems))
    return 1 if bad or acc.invalid else 0
