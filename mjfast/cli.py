"""The ``mjfast`` command line.

    mjfast score "[567m2][EEE1]45m678pFF6m" --self-drawn --seat S
    mjfast score --jsonl hands.jsonl results.jsonl
    mjfast fans [KEY]
    mjfast shanten "123m456p789sEE12s"
    mjfast waits "123m456p789sEE12s"

Exit codes: 0 success (also when the reader of the output goes away, as
with ``| head``: the output stops quietly, without a traceback); 1 some
records of a ``--jsonl`` run could not be scored (each has an error line in
the output); 2 bad input or usage (a one-line ``mjfast: error: ...`` on
stderr); 130 interrupted.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import unicodedata
from typing import Optional, Sequence

from ._progress import NoBar, progress, set_total
from .cli_args import nonnegative_int, positive_int
from . import __version__
from .spec import flags as _flags

__all__ = ["main", "build_parser"]

PROG = "mjfast"
WINDS = "ESWN"
_WINDS_ZH = "东南西北"


class CliError(Exception):
    """A user error: reported as ``mjfast: error: <message>``, exit code 2."""


# ---------------------------------------------------------------------------
# small helpers


def _width(text: str) -> int:
    """Display width (CJK characters take two columns)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _one_line(exc: BaseException) -> str:
    return " ".join((str(exc) or type(exc).__name__).split())


def _wind_arg(value: str) -> int:
    # the one wind reader (mjfast.records.check_wind); on the command line a
    # digit comes as text
    from .errors import InvalidArgument, InvalidHand
    from .records import check_wind
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


def _print(text: str = "", file=None) -> None:
    print(text, file=sys.stdout if file is None else file)


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

    width = staticmethod(_width)
    ljust = staticmethod(_ljust)

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
        w = max(_width(x) for x in labels)
        out = []
        for k, (label, amount) in enumerate(zip(labels, seats)):
            mark = f"  {L['discarder']}" if (not s.self_drawn and k == args.discarder) else ""
            out.append(f"  {_ljust(label, w)}  {amount:+d}{mark}")
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
        from .tiles import TILE_NAMES
        out.append("Wildcards stood for: " + " ".join(TILE_NAMES[t] for t in s.substitutions))
    out.append("")

    # the fan table: first name column in the chosen language
    first = [(f.zh if lang == "zh" else f.name) for f in s.fans]
    second = [(f.name if lang == "zh" else f.zh) for f in s.fans]
    w1 = max([_width(L["fan"])] + [_width(t) for t in first])
    w2 = max([_width(L["other"])] + [_width(t) for t in second])
    wp = max(_width(L["points"]), 3)
    wc = max(_width(L["count"]), 3)
    ws = max(_width(L["subtotal"]), 5)
    header = (f"  {_ljust(L['fan'], w1)}  {_ljust(L['other'], w2)}  "
              f"{' ' * (wp - _width(L['points']))}{L['points']}  "
              f"{' ' * (wc - _width(L['count']))}{L['count']}  "
              f"{' ' * (ws - _width(L['subtotal']))}{L['subtotal']}")
    out.append(header)
    rule = "  " + "-" * (_width(header) - 2)
    out.append(rule)
    eng = s.rules.impl
    for f, a, b in zip(s.fans, first, second):
        out.append(f"  {_ljust(a, w1)}  {_ljust(b, w2)}  {f.points:>{wp}}  {f.count:>{wc}}  {f.total:>{ws}}"
                   + eng.cli_fan_note(s.rules, f))
    out.append(rule)
    out += eng.cli_figure(s.rules, s)
    flowers = s.flowers
    total_label = L["total"]
    tail = f"  ({s.points_without_flowers} {L['without_flowers']})" if flowers else ""
    out.append(f"  {_ljust(total_label, _width(header) - 2 - ws - 2)}  {s.total:>{ws}}{tail}")
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
    from .rules import available, get
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

    from .errors import InvalidArgument, InvalidHand
    from .score import score

    rs = _rules_arg(args)
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
        raise CliError(_one_line(exc)) from None
    _only_where_read(args, s.rules)
    # what is printed: the rule set's engine says (mjfast.rules.engine)
    kit = _Kit(args.lang)
    if args.json:
        _print(json.dumps(s.rules.impl.cli_json(s.rules, s, args, kit), ensure_ascii=False))
    else:
        _print(s.rules.impl.cli_text(s.rules, hand, s, args, kit))
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
    from .io.jsonl import DEFAULT_CHUNK_SIZE, score_jsonl

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
    rs = _rules_arg(args)
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
    _print(stats.summary(), file=sys.stderr)
    return 1 if stats.errors else 0


# ---------------------------------------------------------------------------
# mjfast fans [KEY]


def _find_fan(table, query: str):
    q = query.strip()
    if q.lstrip("#").isdigit():
        fan = table.get(int(q.lstrip("#")))
        if fan is not None:
            return fan
        raise CliError(f"no fan with id {q.lstrip('#')} (ids run {min(table.ids)}-{max(table.ids)})")
    from .rules.mcr import key_from_name

    for cand in (q, key_from_name(q)):
        fan = table.get(cand)
        if fan is not None:
            return fan
    for fan in table:
        if q == fan.zh or q.lower() == fan.en.lower():
            return fan
    by_key = {f.key: f.key for f in table}
    by_key.update({f.en.lower(): f.key for f in table})
    close = []
    for name in difflib.get_close_matches(q.lower(), list(by_key), n=6, cutoff=0.6) + \
            difflib.get_close_matches(key_from_name(q), list(by_key), n=6, cutoff=0.6):
        if by_key[name] not in close:
            close.append(by_key[name])
    hint = f"; did you mean {', '.join(close[:3])}?" if close else "; `mjfast fans` lists them"
    raise CliError(f"unknown fan {query!r}{hint}")


def _cmd_fans(args) -> int:
    from .rules import describe

    rs = _rules_arg(args)
    MCR = rs.table if rs is not None else __import__("mjfast.rules", fromlist=["MCR"]).MCR

    def as_json(fan):
        return {"id": fan.id, "key": fan.key, "name": fan.en, "zh": fan.zh, "points": fan.points,
                "excludes": list(fan.excludes), "partial": fan.partial or None, "form": fan.form}

    if args.json:
        data = as_json(_find_fan(MCR, " ".join(args.key))) if args.key else [as_json(f) for f in MCR]
        _print(json.dumps(data, ensure_ascii=False))
        return 0
    if args.key:
        fan = _find_fan(MCR, " ".join(args.key))
        if args.lang == "zh":
            _print(f"{fan.zh} {fan.en}")
        _print(describe(fan.key, MCR))
        return 0
    lang = args.lang
    rows = [(str(f.id), str(f.points), f.zh if lang == "zh" else f.en, f.en if lang == "zh" else f.zh)
            for f in MCR]
    head = ("id", "番数" if lang == "zh" else "pts", "番种" if lang == "zh" else "Fan",
            "Fan" if lang == "zh" else "番种")
    w = [max(_width(r[k]) for r in rows + [head]) for k in range(4)]
    for r in [head] + rows:
        _print(f"{' ' * (w[0] - _width(r[0]))}{r[0]}  {' ' * (w[1] - _width(r[1]))}{r[1]}  "
               f"{_ljust(r[2], w[2])}  {r[3]}".rstrip())
    return 0


# ---------------------------------------------------------------------------
# mjfast shanten / waits


def _tiles_list(indices) -> str:
    from .tiles import tile_name

    return " ".join(tile_name(int(t)) for t in indices)


def _left(indices, full) -> int:
    """Copies of these tiles not in the hand (melds included)."""
    return sum(4 - int(full[t]) for t in indices)


def _parse_tiles_arg(words) -> tuple:
    from .errors import InvalidArgument, InvalidHand
    from .hand import parse_hand

    text = " ".join(words)
    try:
        h = parse_hand(text)
    except (InvalidHand, InvalidArgument) as exc:
        raise CliError(_one_line(exc)) from None
    return text, h


def _sized_hand(h, sizes: str):
    """(concealed counts, melds) of a parsed hand as the API reads it: melds
    in brackets, or implied by the tile count when there are none."""
    from .core import _concealed

    counts, melds, _ = _concealed(h, None, sizes)
    return counts, melds


def _cmd_shanten(args) -> int:
    from .core import shanten, useful_tiles, waits
    from .errors import InvalidHand

    text, h = _parse_tiles_arg(args.tiles)
    rs = _rules_arg(args)
    try:
        n = shanten(h, form=args.form, rules=rs)
        counts, melds = _sized_hand(h, "any")
    except (InvalidHand, ValueError) as exc:
        raise CliError(_one_line(exc)) from None
    full = h.all_counts
    ready_size = int(counts.sum()) + 3 * melds == 13   # waits and useful tiles need 13-3k tiles
    w = u = None
    if ready_size:
        try:
            if n == 0 and not args.form:
                w = waits(h, rules=rs)
            u = useful_tiles(h, form=args.form, rules=rs)
        except (InvalidHand, ValueError) as exc:
            raise CliError(_one_line(exc)) from None
    if args.json:
        d = {"hand": text, "form": args.form, "shanten": n, "melds": melds,
             "waits": None if w is None else _names(w),
             "waits_left": None if w is None else _left(w, full),
             "useful_tiles": None if u is None else _names(u),
             "useful_left": None if u is None else _left(u, full)}
        _print(json.dumps(d, ensure_ascii=False))
        return 0
    if n < 0:
        state = "complete (a winning shape)"
    elif n == 0:
        state = "ready (tenpai, 听牌)"
    else:
        state = f"{n} tile{'s' if n > 1 else ''} from ready ({n}向听)"
    form = f" [{args.form}]" if args.form else ""
    _print(f"Shanten{form}: {n}  {state}")
    if w is not None:
        if w:
            _print(f"Waits: {_tiles_list(w)}  ({_left(w, full)} tiles left)")
        else:
            _print("Waits: none (every copy of the winning tiles is already in the hand)")
    if u is not None:
        kinds = len(u)
        _print(f"Useful tiles: {_tiles_list(u) or '(none)'}"
               + (f"  ({kinds} kind{'s' if kinds != 1 else ''}, {_left(u, full)} tiles left)" if u else ""))
    return 0


def _names(indices) -> list:
    from .tiles import tile_name

    return [tile_name(int(t)) for t in indices]


def _cmd_waits(args) -> int:
    from .core import shanten, waits
    from .errors import InvalidHand

    text, h = _parse_tiles_arg(args.tiles)
    try:
        _sized_hand(h, "ready")
    except InvalidHand:
        raise CliError(f"waits need a 13-tile hand (counting 3 per meld; without brackets a short "
                       f"hand implies its melds), got {h.n_tiles}") from None
    rs = _rules_arg(args)
    try:
        w = waits(h, rules=rs)
        n = shanten(h, rules=rs)
    except (InvalidHand, ValueError) as exc:
        raise CliError(_one_line(exc)) from None
    left = _left(w, h.all_counts)
    if args.json:
        _print(json.dumps({"hand": text, "waits": _names(w), "tiles_left": left, "shanten": n},
                          ensure_ascii=False))
        return 0
    if w:
        _print(f"Waits: {_tiles_list(w)}  ({len(w)} kind{'s' if len(w) != 1 else ''}, "
               f"{left} tiles left)")
    else:
        why = "not ready" if n > 0 else "ready in shape, but every copy of the winning tile is held"
        _print(f"Waits: none ({why}; shanten {n})")
    return 0


# ---------------------------------------------------------------------------
# the parser


class _LangAction(argparse.Action):
    """--lang that also records that it was given (for --jsonl's checks)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.lang_given = values


def _add_rules(p) -> None:
    from .cli_args import add_rules

    add_rules(p)


def _rules_arg(args, command=None, **limits):
    """The RuleSet of --rules / --rule-option, or None for plain MCR."""
    from .cli_args import RulesArgError, rules_from_args

    try:
        return rules_from_args(args, command or f"mjfast {args.command}", **limits)
    except RulesArgError as exc:
        raise CliError(str(exc)) from None


def _cmd_rules(args) -> int:
    from .rules import available, get

    if args.name and args.rules and args.name != args.rules:
        raise CliError(f"mjfast rules: NAME {args.name!r} and --rules {args.rules!r} disagree; give one")
    args.name = args.rules = args.name or args.rules
    chosen = _rules_arg(args, "mjfast rules")      # with --rule-option: the options' new values

    def rule_set(n):
        return chosen if chosen is not None and chosen.name == n else get(n)

    if args.json:
        out = []
        for n in ([args.name] if args.name else available()):
            rs = rule_set(n)
            out.append({"name": rs.name, "title": rs.title, "hand_size": rs.hand_size,
                        "forms": list(rs.forms), "flags": list(rs.flags), "players": rs.players,
                        "min_points": rs.min_points, "fans": len(rs.table),
                        "options": {o.name: {"default": o.default, "value": rs.options[o.name],
                                             "doc": o.doc,
                                             "choices": list(o.choices) if o.choices else None}
                                    for o in rs.option_specs},
                        "settlement": rs.settlement_text})
        _print(json.dumps(out[0] if args.name else out, ensure_ascii=False))
        return 0
    if args.name:
        _print(rule_set(args.name).describe())
        return 0
    if chosen is not None:
        raise CliError("mjfast rules: --rule-option needs a rule set (NAME or --rules NAME)")
    for n in available():
        _print(f"{n:12s} {get(n).title}")
    return 0


def _add_lang(p) -> None:
    p.add_argument("--lang", choices=("en", "zh"), default="en", action=_LangAction,
                   help="language of the first name column (default en)")
    p.set_defaults(lang_given=None)


def build_parser() -> argparse.ArgumentParser:
    from .core import FORMS

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Fast Chinese Official Mahjong (MCR, 国标麻将) scoring.",
        epilog="Hands: melds first in brackets, the last tile is the winning tile, "
               "e.g. \"[567m2][EEE1]45m678pFF6m\". Seats relative to the player are numbered "
               "like the meld digits: 1 = left (上家, plays just before), 2 = opposite (对家), "
               "3 = right (下家). Exit codes: 0 ok (also when the reader of the output goes away, "
               "e.g. `| head`: the output stops quietly), 1 some --jsonl records failed, "
               "2 bad input, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    _add_lang(p)
    _add_rules(p)
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

    p = sub.add_parser("fans", help="list the MCR fan table, or describe one fan",
                       description="List the 81 MCR fans (and flowers), or describe one by key, "
                                   "id, English or Chinese name.")
    p.add_argument("key", nargs="*", metavar="KEY", help="fan key, id, or name (e.g. pure_straight, 28)")
    _add_lang(p)
    _add_rules(p)
    p.add_argument("--json", action="store_true",
                   help="print JSON: a list of {id, key, name, zh, points, excludes, partial, form}, "
                        "or one such object for KEY")
    p.set_defaults(func=_cmd_fans)

    p = sub.add_parser("shanten", help="tiles away from ready (向听数), with waits and useful tiles",
                       description="Shanten of 13 or 14 tiles (melds in brackets count); for 13 tiles "
                                   "also the waits (when ready) and the useful tiles.")
    p.add_argument("tiles", nargs="+", metavar="TILES")
    p.add_argument("--form", choices=FORMS, default=None, help="one winning form only (default: all)")
    p.add_argument("--json", action="store_true",
                   help="print JSON: {hand, form, shanten, melds, waits, waits_left, useful_tiles, "
                        "useful_left} (waits/useful null when they do not apply)")
    _add_rules(p)
    p.set_defaults(func=_cmd_shanten)

    p = sub.add_parser("waits", help="the winning tiles of a ready 13-tile hand",
                       description="The tiles that complete a 13-tile hand (melds in brackets count).")
    p.add_argument("tiles", nargs="+", metavar="TILES")
    p.add_argument("--json", action="store_true", help="print JSON: {hand, waits, tiles_left, shanten}")
    _add_rules(p)
    p.set_defaults(func=_cmd_waits)

    from .rules import available
    p = sub.add_parser("rules", help="list the rule sets, or describe one (tiles, forms, options)",
                       description="The rule sets mjfast scores (--rules NAME on every command), or "
                                   "one rule set's tiles, forms, minimum, flags, options and settlement "
                                   "(--rule-option KEY=VALUE shows it with that option changed).")
    p.add_argument("name", nargs="?", choices=available(), metavar="NAME")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_rules(p)
    p.set_defaults(func=_cmd_rules)

    from .stats.cli import register as register_stats   # argparse only; the statistics load on use
    register_stats(sub)
    from .logs.cli import add_parser as _add_logs  # mjfast logs score|export (mjfast/logs/cli.py)
    _add_logs(sub)
    from .botzone.cli import register as register_match   # argparse only; the match loads on use
    register_match(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code (``mjfast`` exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except CliError as exc:
        _print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): not a failure, stop quietly
        # (exit 0, as documented in --help).  stdout is pointed at /dev/null so
        # that the interpreter's final flush does not report the closed pipe.
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
