"""``mjfast fans`` (the MCR fan table, or one fan) and ``mjfast rules`` (the
rule sets, or one rule set's tiles, forms, options and settlement)."""
from __future__ import annotations

import difflib
import json

from ..rules import MCR as MCR_TABLE, available, describe, get
from ..rules.mcr import key_from_name
from .common import CliError, add_lang, add_rules, echo, ljust, rules_arg, width


def _find_fan(table, query: str):
    q = query.strip()
    if q.lstrip("#").isdigit():
        fan = table.get(int(q.lstrip("#")))
        if fan is not None:
            return fan
        raise CliError(f"no fan with id {q.lstrip('#')} (ids run {min(table.ids)}-{max(table.ids)})")

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
    rs = rules_arg(args)
    MCR = rs.table if rs is not None else MCR_TABLE

    def as_json(fan):
        return {"id": fan.id, "key": fan.key, "name": fan.en, "zh": fan.zh, "points": fan.points,
                "excludes": list(fan.excludes), "partial": fan.partial or None, "form": fan.form}

    if args.json:
        data = as_json(_find_fan(MCR, " ".join(args.key))) if args.key else [as_json(f) for f in MCR]
        echo(json.dumps(data, ensure_ascii=False))
        return 0
    if args.key:
        fan = _find_fan(MCR, " ".join(args.key))
        if args.lang == "zh":
            echo(f"{fan.zh} {fan.en}")
        echo(describe(fan.key, MCR))
        return 0
    lang = args.lang
    rows = [(str(f.id), str(f.points), f.zh if lang == "zh" else f.en, f.en if lang == "zh" else f.zh)
            for f in MCR]
    head = ("id", "番数" if lang == "zh" else "pts", "番种" if lang == "zh" else "Fan",
            "Fan" if lang == "zh" else "番种")
    w = [max(width(r[k]) for r in rows + [head]) for k in range(4)]
    for r in [head] + rows:
        echo(f"{' ' * (w[0] - width(r[0]))}{r[0]}  {' ' * (w[1] - width(r[1]))}{r[1]}  "
               f"{ljust(r[2], w[2])}  {r[3]}".rstrip())
    return 0


def _cmd_rules(args) -> int:
    if args.name and args.rules and args.name != args.rules:
        raise CliError(f"mjfast rules: NAME {args.name!r} and --rules {args.rules!r} disagree; give one")
    args.name = args.rules = args.name or args.rules
    chosen = rules_arg(args, "mjfast rules")      # with --rule-option: the options' new values

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
        echo(json.dumps(out[0] if args.name else out, ensure_ascii=False))
        return 0
    if args.name:
        echo(rule_set(args.name).describe())
        return 0
    if chosen is not None:
        raise CliError("mjfast rules: --rule-option needs a rule set (NAME or --rules NAME)")
    for n in available():
        echo(f"{n:12s} {get(n).title}")
    return 0


def register_fans(sub) -> None:
    """Register ``mjfast fans`` on the CLI's subparsers."""
    p = sub.add_parser("fans", help="list the MCR fan table, or describe one fan",
                       description="List the 81 MCR fans (and flowers), or describe one by key, "
                                   "id, English or Chinese name.")
    p.add_argument("key", nargs="*", metavar="KEY", help="fan key, id, or name (e.g. pure_straight, 28)")
    add_lang(p)
    add_rules(p)
    p.add_argument("--json", action="store_true",
                   help="print JSON: a list of {id, key, name, zh, points, excludes, partial, form}, "
                        "or one such object for KEY")
    p.set_defaults(func=_cmd_fans)


def register_rules(sub) -> None:
    """Register ``mjfast rules`` on the CLI's subparsers."""
    p = sub.add_parser("rules", help="list the rule sets, or describe one (tiles, forms, options)",
                       description="The rule sets mjfast scores (--rules NAME on every command), or "
                                   "one rule set's tiles, forms, minimum, flags, options and settlement "
                                   "(--rule-option KEY=VALUE shows it with that option changed).")
    p.add_argument("name", nargs="?", choices=available(), metavar="NAME")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules(p)
    p.set_defaults(func=_cmd_rules)
