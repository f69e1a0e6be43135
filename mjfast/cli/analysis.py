"""``mjfast shanten`` and ``mjfast waits``: how far a hand is from ready,
its waits and its useful tiles."""
from __future__ import annotations

import json

from ..analysis.hands import FORMS, shanten, useful_tiles, waits
from ..analysis.inputs import concealed as _concealed
from ..errors import InvalidArgument, InvalidHand
from ..hand import parse_hand
from ..tiles import tile_name
from .common import CliError, add_rules, echo, one_line, rules_arg


def _tiles_list(indices) -> str:
    return " ".join(tile_name(int(t)) for t in indices)


def _left(indices, full) -> int:
    """Copies of these tiles not in the hand (melds included)."""
    return sum(4 - int(full[t]) for t in indices)


def _parse_tiles_arg(words) -> tuple:
    text = " ".join(words)
    try:
        h = parse_hand(text)
    except (InvalidHand, InvalidArgument) as exc:
        raise CliError(one_line(exc)) from None
    return text, h


def _sized_hand(h, sizes: str):
    """(concealed counts, melds) of a parsed hand as the API reads it: melds
    in brackets, or implied by the tile count when there are none."""

    counts, melds, _ = _concealed(h, None, sizes)
    return counts, melds


def _cmd_shanten(args) -> int:
    text, h = _parse_tiles_arg(args.tiles)
    rs = rules_arg(args)
    try:
        n = shanten(h, form=args.form, rules=rs)
        counts, melds = _sized_hand(h, "any")
    except (InvalidHand, ValueError) as exc:
        raise CliError(one_line(exc)) from None
    full = h.all_counts
    ready_size = int(counts.sum()) + 3 * melds == 13   # waits and useful tiles need 13-3k tiles
    w = u = None
    if ready_size:
        try:
            if n == 0 and not args.form:
                w = waits(h, rules=rs)
            u = useful_tiles(h, form=args.form, rules=rs)
        except (InvalidHand, ValueError) as exc:
            raise CliError(one_line(exc)) from None
    if args.json:
        d = {"hand": text, "form": args.form, "shanten": n, "melds": melds,
             "waits": None if w is None else _names(w),
             "waits_left": None if w is None else _left(w, full),
             "useful_tiles": None if u is None else _names(u),
             "useful_left": None if u is None else _left(u, full)}
        echo(json.dumps(d, ensure_ascii=False))
        return 0
    if n < 0:
        state = "complete (a winning shape)"
    elif n == 0:
        state = "ready (tenpai, 听牌)"
    else:
        state = f"{n} tile{'s' if n > 1 else ''} from ready ({n}向听)"
    form = f" [{args.form}]" if args.form else ""
    echo(f"Shanten{form}: {n}  {state}")
    if w is not None:
        if w:
            echo(f"Waits: {_tiles_list(w)}  ({_left(w, full)} tiles left)")
        else:
            echo("Waits: none (every copy of the winning tiles is already in the hand)")
    if u is not None:
        kinds = len(u)
        echo(f"Useful tiles: {_tiles_list(u) or '(none)'}"
               + (f"  ({kinds} kind{'s' if kinds != 1 else ''}, {_left(u, full)} tiles left)" if u else ""))
    return 0


def _names(indices) -> list:
    return [tile_name(int(t)) for t in indices]


def _cmd_waits(args) -> int:
    text, h = _parse_tiles_arg(args.tiles)
    try:
        _sized_hand(h, "ready")
    except InvalidHand:
        raise CliError(f"waits need a 13-tile hand (counting 3 per meld; without brackets a short "
                       f"hand implies its melds), got {h.n_tiles}") from None
    rs = rules_arg(args)
    try:
        w = waits(h, rules=rs)
        n = shanten(h, rules=rs)
    except (InvalidHand, ValueError) as exc:
        raise CliError(one_line(exc)) from None
    left = _left(w, h.all_counts)
    if args.json:
        echo(json.dumps({"hand": text, "waits": _names(w), "tiles_left": left, "shanten": n},
                          ensure_ascii=False))
        return 0
    if w:
        echo(f"Waits: {_tiles_list(w)}  ({len(w)} kind{'s' if len(w) != 1 else ''}, "
               f"{left} tiles left)")
    else:
        why = "not ready" if n > 0 else "ready in shape, but every copy of the winning tile is held"
        echo(f"Waits: none ({why}; shanten {n})")
    return 0


def register(sub) -> None:
    """Register ``mjfast shanten`` and ``mjfast waits`` on the CLI's subparsers."""
    p = sub.add_parser("shanten", help="tiles away from ready (向听数), with waits and useful tiles",
                       description="Shanten of 13 or 14 tiles (melds in brackets count); for 13 tiles "
                                   "also the waits (when ready) and the useful tiles.")
    p.add_argument("tiles", nargs="+", metavar="TILES")
    p.add_argument("--form", choices=FORMS, default=None, help="one winning form only (default: all)")
    p.add_argument("--json", action="store_true",
                   help="print JSON: {hand, form, shanten, melds, waits, waits_left, useful_tiles, "
                        "useful_left} (waits/useful null when they do not apply)")
    add_rules(p)
    p.set_defaults(func=_cmd_shanten)

    p = sub.add_parser("waits", help="the winning tiles of a ready 13-tile hand",
                       description="The tiles that complete a 13-tile hand (melds in brackets count).")
    p.add_argument("tiles", nargs="+", metavar="TILES")
    p.add_argument("--json", action="store_true", help="print JSON: {hand, waits, tiles_left, shanten}")
    add_rules(p)
    p.set_defaults(func=_cmd_waits)
