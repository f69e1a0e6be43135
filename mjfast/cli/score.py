"""``mjfast score``: one winning hand (its fans, total and settlement, as the
rule set's engine prints them), or with ``--jsonl`` a file of hand records.

    mjfast score "[567m2][EEE1]45m678pFF6m" --self-drawn --seat S
    mjfast score --jsonl hands.jsonl results.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Optional

from .._progress import NoBar, progress, set_total
from ..errors import InvalidArgument, InvalidHand
from ..rules import available, get
from ..scoring.records import check_wind
from ..scoring.score import score
from ..spec import flags as _flags
from .args import nonnegative_int, positive_int
from .common import CliError, add_lang, add_rules, echo, ljust, one_line, rules_arg, width
from ..tiles import TILE_NAMES


WINDS = "ESWN"
_WINDS_ZH = "东南西北"


def _wind_arg(value: str) -> int:
    # the one wind reader (mjfast.records.check_wind); on the command line a
    # digit comes as text
    v = value.strip()
    try:
        return check_wind(int(v) if v in ("0", "1", "2", "3") else v, "wind")
    except (InvalidHand, InvalidArgument):
        raise argparse.ArgumentTypeError(f"a wind is E, S, W or N (or 0-3), got {value!r}") from None


def _flowers_arg(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"flowers is an integer 0-8, got {value!r}") from None
    if not 0 <= n <= 8:
        raise argparse.ArgumentTypeError(f"flowers is an integer 0-8, got {n}")
    return n


# ---------------------------------------------------------------------------
# mjfast score "<hand>"

_LABELS = {
    "en": {
        "hand": "Hand",
        "win": "Win",
        "self_drawn": "self-drawn",
        "discard": "on a discard",
        "seat": "seat wind",
        "round": "prevalent wind",
        "flowers": "flowers",
        "extra": "also",
        "sets": "Sets",
        "fan": "Fan",
        "other": "番种",
        "points": "Points",
        "count": "Count",
        "subtotal": "Total",
        "total": "Total",
        "without_flowers": "without flowers",
        "legal": "Legal win (at least {m} points without flowers)",
        "yes": "yes",
        "no": "no",
        "settlement": "Settlement",
        "base": "base {b}",
        "winner": "winner",
        "left": "1 left 上家",
        "opposite": "2 opposite 对家",
        "right": "3 right 下家",
        "discarder": "discarder",
        "generic": ("the discarder pays {d}, each of the other two pays {o}, the winner gains {w}"
                    "  (--discarder 1|2|3 or --discarder-seat WIND for the seats)"),
        "ignored": "Ignored",
        "not_legal_note": "note: below the minimum, so this hand could not be declared",
        "pts": "points",
    },
    "zh": {
        "hand": "手牌",
        "win": "和牌",
        "self_drawn": "自摸",
        "discard": "点和",
        "seat": "门风",
        "round": "圈风",
        "flowers": "花牌",
        "extra": "另",
        "sets": "组合",
        "fan": "番种",
        "other": "Fan",
        "points": "番数",
        "count": "次数",
        "subtotal": "小计",
        "total": "合计",
        "without_flowers": "不计花牌",
        "legal": "起和（不计花牌至少 {m} 番）",
        "yes": "是",
        "no": "否",
        "settlement": "结算",
        "base": "底分 {b}",
        "winner": "和牌者",
        "left": "1 上家",
        "opposite": "2 对家",
        "right": "3 下家",
        "discarder": "点炮",
        "generic": "点炮者付 {d}，其余两家各付 {o}，和牌者得 {w}（用 --discarder 1|2|3 或 --discarder-seat 指定座位）",
        "ignored": "忽略",
        "not_legal_note": "注意：不足起和番数，不能和牌",
        "pts": "番",
    },
}

_FLAG_NAMES = {
    "en": {"fourth_tile": "fourth tile", "kong": "kong", "last_tile": "last tile"},
    "zh": {"fourth_tile": "绝张", "kong": "杠", "last_tile": "海底"},
}


def _settlement(s, discarder: Optional[int], seat: int) -> dict:
    """The settlement as data: the rule set's engine's
    (:meth:`mjfast.rules.engine.Engine.cli_settlement`), else the generic one.

    ``seats`` holds the signed point changes of (winner, left, opposite,
    right) and ``by_wind`` the same by absolute seat ``{"E": .., "S": ..,
    "W": .., "N": ..}`` (the winner sits at ``seat``), or None for a discard
    win whose discarder was not given (1 = left 上家, 2 = opposite 对家, 3 =
    right 下家, as the notation's meld digits).
    """
    st = s.rules.impl.cli_settlement(s.rules, s, discarder, seat)
    if st is not None:
        return st
    # the generic one: ask the result's settlement
    try:
        seats = list(s.settlement(None if s.self_drawn else discarder))
    except ValueError:
        seats = None                  # it needs the discarder, which was not given
    by_wind = None
    if seats is not None:
        by_wind = {WINDS[(seat - k) % 4]: amount for k, amount in enumerate(seats)}
        by_wind = {w: by_wind[w] for w in WINDS}
    return {"self_drawn": s.self_drawn, "discarder": discarder, "seats": seats, "by_wind": by_wind}


class _Kit:
    """The table helpers a rule set's engine prints ``mjfast score`` with
    (:meth:`mjfast.rules.engine.Engine.cli_text` and ``cli_tail``)."""

    width = staticmethod(width)
    ljust = staticmethod(ljust)

    def __init__(self, lang: str):
        self.lang = lang
        self.labels = _LABELS[lang]
        self.winds = _WINDS_ZH if lang == "zh" else WINDS

    def table(self, hand: str, s, args) -> str:
        """The generic table: the hand, its sets, the fans, the total, then
        the engine's ``cli_tail`` or the generic legal line and seats."""
        return _score_table(hand, s, args, self.lang)

    def settlement(self, s, discarder, seat) -> dict:
        return _settlement(s, discarder, seat)

    def legal_lines(self, s) -> list:
        """The legal-win line (the rule set's minimum) and a blank line."""
        L = self.labels
        legal = s.is_legal_win
        pts = s.points_without_flowers
        return [f"{L['legal'].format(m=s.rules.min_points)}: {L['yes'] if legal else L['no']} "
                f"({pts} {'>=' if legal else '<'} {s.rules.min_points})", ""]

    def seat_lines(self, s, args, seats) -> list:
        """One line per seat: the winner, then left, opposite, right."""
        L = self.labels
        # relative seat k sits at wind seat - k: 1 = left plays just before the winner
        names = [L["winner"], L["left"], L["opposite"], L["right"]]
        labels = [f"{n} ({self.winds[(args.seat - k) % 4]})" for k, n in enumerate(names)]
        w = max(width(x) for x in labels)
        out = []
        for k, (label, amount) in enumerate(zip(labels, seats)):
            mark = f"  {L['discarder']}" if (not s.self_drawn and k == args.discarder) else ""
            out.append(f"  {ljust(label, w)}  {amount:+d}{mark}")
        return out


def _score_table(hand: str, s, args, lang: str) -> str:
    L = _LABELS[lang]
    seat, rnd = args.seat, args.round
    wind_names = _WINDS_ZH if lang == "zh" else WINDS
    out = []
    out.append(f"{L['hand']}: {hand}")
    how = [L["self_drawn"] if args.self_drawn else L["discard"],
           f"{L['seat']} {wind_names[seat]}", f"{L['round']} {wind_names[rnd]}"]
    if args.flowers:
        how.append(f"{L['flowers']} {args.flowers}")
    ignored = s.ignored_flags
    extra = [_FLAG_NAMES[lang][k] for k in ("fourth_tile", "kong", "last_tile")
             if getattr(args, k) and k not in ignored]
    if extra:
        how.append(f"{L['extra']}: " + ", ".join(extra))
    out.append(f"{L['win']}: " + ", ".join(how))
    for k, why in ignored.items():
        out.append(f"{L['ignored']}: {_FLAG_NAMES[lang].get(k, k.replace('_', ' '))} ({why})")
    if not s.rules.is_default or s.rules.changed_options:
        opts = "".join(f" {k}={v}" for k, v in s.rules.changed_options.items())
        out.append(f"Rules: {s.rules.name}{opts}")
    if s.decomposition:
        sets = " ".join(f"[{t}]" if melded else t for _kind, t, melded in s.decomposition)
        form = "" if s.form == "regular" else f"  ({s.form.replace('_', ' ')})"
        out.append(f"{L['sets']}: {sets}{form}")
    if getattr(s, "substitutions", None):
        out.append("Wildcards stood for: " + " ".join(TILE_NAMES[t] for t in s.substitutions))
    out.append("")

    # the fan table: first name column in the chosen language
    first = [(f.zh if lang == "zh" else f.name) for f in s.fans]
    second = [(f.name if lang == "zh" else f.zh) for f in s.fans]
    w1 = max([width(L["fan"])] + [width(t) for t in first])
    w2 = max([width(L["other"])] + [width(t) for t in second])
    wp = max(width(L["points"]), 3)
    wc = max(width(L["count"]), 3)
    ws = max(width(L["subtotal"]), 5)
    header = (f"  {ljust(L['fan'], w1)}  {ljust(L['other'], w2)}  "
              f"{' ' * (wp - width(L['points']))}{L['points']}  "
              f"{' ' * (wc - width(L['count']))}{L['count']}  "
              f"{' ' * (ws - width(L['subtotal']))}{L['subtotal']}")
    out.append(header)
    rule = "  " + "-" * (width(header) - 2)
    out.append(rule)
    eng = s.rules.impl
    for f, a, b in zip(s.fans, first, second):
        out.append(f"  {ljust(a, w1)}  {ljust(b, w2)}  {f.points:>{wp}}  {f.count:>{wc}}  {f.total:>{ws}}"
                   + eng.cli_fan_note(s.rules, f))
    out.append(rule)
    out += eng.cli_figure(s.rules, s)
    flowers = s.flowers
    total_label = L["total"]
    tail = f"  ({s.points_without_flowers} {L['without_flowers']})" if flowers else ""
    out.append(f"  {ljust(total_label, width(header) - 2 - ws - 2)}  {s.total:>{ws}}{tail}")
    kit = _Kit(lang)
    tail = s.rules.impl.cli_tail(s.rules, s, args, kit)
    if tail is not None:
        return "\n".join(out + tail)
    out += kit.legal_lines(s)
    st = _settlement(s, args.discarder, seat)
    name = s.rules.name
    out.append(f"{L['settlement']} (rules {name}, F = {s.total}; `mjfast rules {name}` says who pays):")
    if st["seats"] is None:
        out.append("  give the discarder (--discarder 1|2|3 or --discarder-seat WIND) for the payments")
        return "\n".join(out)
    out += kit.seat_lines(s, args, st["seats"])
    if not s.is_legal_win:
        out.append(f"  {L['not_legal_note']}")
    return "\n".join(out)


#: `mjfast score` options that only some rule sets' engines read (their
#: Engine.cli_options): {argparse dest: the option}
_ENGINE_OPTIONS = {"dealer_repeats": "--dealer-repeats"}


def _only_where_read(args, rs) -> None:
    """A CliError for an option of :data:`_ENGINE_OPTIONS` given under a
    rule set whose engine does not read it, naming the ones that do."""
    for dest, flag in _ENGINE_OPTIONS.items():
        if getattr(args, dest, None) and dest not in rs.impl.cli_options:
            takers = [(n, get(n).impl.cli_options[dest]) for n in available() if dest in get(n).impl.cli_options]
            raise CliError(f"{flag} is for " + ", ".join(f"--rules {n} ({why})" for n, why in takers))


def _cmd_score(args) -> int:
    if args.jsonl:
        return _cmd_score_jsonl(args)
    if not args.inputs:
        raise CliError("give a hand to score, e.g. mjfast score \"123m456m789m123p5p5p\" (or --jsonl)")
    # --no-progress and --chunk-size only matter with --jsonl: ignored here
    hand = " ".join(args.inputs)
    # defaults of the single-hand options are None so --jsonl can reject them
    for k in _flags.names(_flags.WIN):
        if getattr(args, k) is None:
            setattr(args, k, False)
    args.seat = 0 if args.seat is None else args.seat
    args.round = 0 if args.round is None else args.round
    args.flowers = 0 if args.flowers is None else args.flowers
    if args.discarder is not None and args.discarder_seat is not None:
        raise CliError("give --discarder (relative: 1 left, 2 opposite, 3 right) or --discarder-seat "
                       "(absolute wind), not both")
    if args.discarder_seat is not None:
        if args.discarder_seat == args.seat:
            raise CliError(f"--discarder-seat {WINDS[args.seat]} is the winner's own seat (--seat)")
        # absolute -> relative: the player on the winner's left (1) sits at seat - 1
        args.discarder = (args.seat - args.discarder_seat) % 4
    if args.self_drawn and args.discarder is not None:
        raise CliError("a self-drawn win has no discarder (drop --discarder or --self-drawn)")

    rs = rules_arg(args)
    # a flag the rule set has no use for is reported as ignored (an error
    # with --strict), as score() and the batch readers report it
    extra = {k: True for k in _flags.names(_flags.RULE) if getattr(args, k, False)}
    if args.wildcards is not None:
        extra["wildcards"] = args.wildcards
    if rs is not None and rs.players == 2 and args.discarder not in (None, 1):
        raise CliError("two-player: the discarder is always the opponent (--discarder 1, or leave it out)")

    try:
        s = score(hand, self_drawn=args.self_drawn, fourth_tile=args.fourth_tile, kong=args.kong,
                  last_tile=args.last_tile, seat_wind=args.seat, round_wind=args.round,
                  flowers=args.flowers, strict=bool(args.strict), rules=rs, **extra)
    except (InvalidHand, InvalidArgument) as exc:
        raise CliError(one_line(exc)) from None
    _only_where_read(args, s.rules)
    # what is printed: the rule set's engine says (mjfast.rules.engine)
    kit = _Kit(args.lang)
    if args.json:
        echo(json.dumps(s.rules.impl.cli_json(s.rules, s, args, kit), ensure_ascii=False))
    else:
        echo(s.rules.impl.cli_text(s.rules, hand, s, args, kit))
    return 0


# ---------------------------------------------------------------------------
# mjfast score --jsonl [IN [OUT]]


def _count_lines(path: str) -> Optional[int]:
    """Lines in a regular file (for the progress bar's total), else None."""
    try:
        if not os.path.isfile(path):
            return None
        n = 0
        last = b"\n"
        with open(path, "rb") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                n += block.count(b"\n")
                last = block[-1:]
        return n + (last != b"\n")
    except OSError:
        return None


#: The command line's words for MCR's context flags (declared in
#: mjfast/spec/flags.py, each an option ``--name-with-dashes``); every other
#: flag is offered with its meaning and the rule sets that read it, from the
#: declaration, so that a rule set's flags are named in one place.
_FLAG_HELP = {
    "self_drawn": "won by drawing the tile (自摸)",
    "fourth_tile": "the winning tile is the last of its kind (和绝张)",
    "kong": "robbing the kong (discard win) / out with replacement tile (self-drawn)",
    "last_tile": "last tile of the wall (海底捞月 / 妙手回春)",
}


def _flag_option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _flag_help(name: str) -> str:
    f = _flags.FLAGS[name]
    return _FLAG_HELP.get(name) or f"{f.meaning} ({', '.join(f.read_by)}; other rule sets ignore it)"


def _cmd_score_jsonl(args) -> int:
    from ..io.jsonl import DEFAULT_CHUNK_SIZE, score_jsonl   # start-up: loaded on first use

    given = [_flag_option(k) for k in _flags.names(_flags.WIN) if getattr(args, k) is not None]
    given += [name for name, v in (
        ("--seat", args.seat), ("--round", args.round),
        ("--flowers", args.flowers), ("--discarder", args.discarder),
        ("--discarder-seat", args.discarder_seat), ("--lang", args.lang_given),
        ("--dealer-repeats", args.dealer_repeats), ("--wildcards", args.wildcards),
    ) if v is not None]
    given += [_flag_option(k) for k in _flags.names(_flags.RULE) if getattr(args, k, False)]
    if given:
        raise CliError(f"{', '.join(given)} cannot be used with --jsonl (each record carries its own fields)")
    rs = rules_arg(args)
    if len(args.inputs) > 2:
        raise CliError(f"--jsonl takes at most IN and OUT, got {len(args.inputs)} arguments")
    src = args.inputs[0] if args.inputs else "-"
    dst = args.inputs[1] if len(args.inputs) > 1 else "-"
    if src != "-" and dst != "-" and os.path.exists(dst):
        try:
            if os.path.samefile(src, dst):
                raise CliError(f"input and output are the same file: {dst}")
        except OSError:
            pass

    fin = fout = None
    try:
        try:
            fin = sys.stdin if src == "-" else open(src, "rb")
        except OSError as exc:
            raise CliError(f"cannot read {src}: {exc.strerror or exc}") from None
        try:
            fout = sys.stdout if dst == "-" else open(dst, "wb")
        except OSError as exc:
            raise CliError(f"cannot write {dst}: {exc.strerror or exc}") from None
        with progress(desc="scoring", unit="line", enabled=False if args.no_progress else None) as bar:
            if src != "-" and not isinstance(bar, NoBar):
                # the total (lines of a regular file) only when a bar is drawn: it costs a pass over the file
                set_total(bar, _count_lines(src))
            stats = score_jsonl(fin, fout, chunk_size=args.chunk_size or DEFAULT_CHUNK_SIZE,
                                progress=bar.update, strict=bool(args.strict), rules=rs)
    finally:
        if fin is not None and fin is not sys.stdin:
            fin.close()
        if fout is not None and fout is not sys.stdout:
            fout.close()
    echo(stats.summary(), file=sys.stderr)
    return 1 if stats.errors else 0


def register(sub) -> None:
    """Register ``mjfast score`` on the CLI's subparsers."""
    p = sub.add_parser(
        "score", help="score a winning hand, or a JSON-lines file of hand records",
        description="Score one winning hand (HAND), or with --jsonl a file of hand records "
                    "(IN, default stdin; OUT, default stdout; '-' for either). "
                    "With --jsonl: one result line per input line, in order; a bad record gives "
                    "{\"id\", \"line\", \"error\"} and the run goes on (a blank line is a bad record too; "
                    "unknown keys are ignored; a field of the wrong type is an error); exit code 1 "
                    "if any record failed; a summary goes to stderr.",
        usage="%(prog)s HAND [options]\n       %(prog)s --jsonl [IN [OUT]] [--no-progress]",
    )
    p.add_argument("inputs", nargs="*", metavar="HAND | IN OUT",
                   help="the hand (words are joined with spaces), or with --jsonl the input "
                        "and output files")
    for k in _flags.names(_flags.WIN):
        # (None: not given, so that --jsonl can refuse it)
        p.add_argument(_flag_option(k), action="store_true", default=None, help=_flag_help(k))
    p.add_argument("--seat", type=_wind_arg, default=None, metavar="WIND",
                   help="seat wind E S W N (default E)")
    p.add_argument("--round", type=_wind_arg, default=None, metavar="WIND",
                   help="prevalent (round) wind E S W N (default E)")
    p.add_argument("--flowers", type=_flowers_arg, default=None, metavar="N", help="flower tiles 0-8")
    p.add_argument("--discarder", type=int, choices=(1, 2, 3), default=None,
                   help="who discarded the winning tile, relative to the winner and numbered like "
                        "the notation's meld digits: 1 = the player on the left (上家, who plays just "
                        "before the winner), 2 = opposite (对家), 3 = the player on the right (下家). "
                        "Without it a discard win's settlement is shown generically.")
    p.add_argument("--discarder-seat", type=_wind_arg, default=None, metavar="WIND",
                   help="the discarder's absolute seat, E S W N (or 0-3); the winner's is --seat. "
                        "Play order is E -> S -> W -> N, so with --seat S, E is the player on the left.")
    p.add_argument("--strict", action="store_true", default=None,
                   help="a flag the rules drop (e.g. --fourth-tile with another copy of the winning "
                        "tile in hand) is an error, not a note; with --jsonl, an error line for "
                        "that record")
    add_lang(p)
    add_rules(p)
    p.add_argument("--wildcards", type=nonnegative_int, default=None, metavar="K",
                   help="K wildcards (百搭, jokers) beside the hand's tiles: the best substitution is "
                        "scored (docs/wildcards.md)")
    for k in _flags.names(_flags.RULE):
        p.add_argument(_flag_option(k), action="store_true", default=False, help=_flag_help(k))
    p.add_argument("--dealer-repeats", type=nonnegative_int, default=None, metavar="N",
                   help="zhuji: the hand is a 老庄 hand, the N-th in a row after a draw or a dealer win "
                        "(its payouts are multiplied; 0 = not a 老庄 hand)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--jsonl", action="store_true",
                   help="score JSON-lines hand records from IN to OUT")
    p.add_argument("--no-progress", action="store_true", default=None,
                   help="no progress bar (there is none anyway unless stderr is a terminal)")
    p.add_argument("--chunk-size", type=positive_int, default=None, metavar="N",
                   help="records per chunk with --jsonl (default 8192)")
    p.set_defaults(func=_cmd_score)
