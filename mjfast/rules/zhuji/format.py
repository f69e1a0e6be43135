"""``mjfast score --rules zhuji``: the 台 table and the payout of one hand
(its engine, :mod:`~mjfast.rules.zhuji.engine`, hands a
:class:`~mjfast.rules.zhuji.ZhujiScore` over here)."""
from __future__ import annotations

from ...tiles import TILE_NAMES
from ...errors import InvalidArgument, InvalidHand

_L: dict = {
    "en": {"hand": "Hand", "win": "Win", "self_drawn": "self-drawn", "robbing": "robbing a kong",
           "discard": "on a discard", "wilds": "财神", "stood": "stood for", "sets": "Sets",
           "item": "Item", "other": "项目", "tai": "台", "count": "Count", "subtotal": "Subtotal",
           "total": "Total 台", "ordinary": "ordinary", "legal": "Legal win (at least {m} 台)",
           "yes": "yes", "no": "no", "settlement": "Settlement", "winner": "winner",
           "seats": ("1 left 上家", "2 opposite 对家", "3 right 下家"), "ignored": "Ignored",
           "note": "Not counted", "konger": "konger", "repeat": "老庄 x{f}"},
    "zh": {"hand": "手牌", "win": "和牌", "self_drawn": "自摸", "robbing": "抢杠", "discard": "点和",
           "wilds": "财神", "stood": "代替", "sets": "组合", "item": "项目", "other": "Item", "tai": "台",
           "count": "次数", "subtotal": "小计", "total": "合计台数", "ordinary": "普通台数",
           "legal": "起胡（至少 {m} 台）", "yes": "是", "no": "否", "settlement": "结算", "winner": "和牌者",
           "seats": ("1 上家", "2 对家", "3 下家"), "ignored": "忽略", "note": "不计", "konger": "开杠者",
           "repeat": "老庄 x{f}"},
}


def settlement(s, discarder, dealer_repeats=0) -> dict:
    """The payout as data: ``unit`` (2^(台 - 2), what each loser pays before
    the 老庄 ``factor``), ``seats`` (winner, left, opposite, right), or ``error`` when the
    hand is no legal win or a robbed kong's konger is not given."""
    out = {"self_drawn": s.self_drawn, "tai": s.total, "dealer_repeats": dealer_repeats}
    try:
        seats = s.settlement(konger=discarder, dealer_repeats=dealer_repeats)
    except (InvalidHand, InvalidArgument) as exc:
        out["error"] = str(exc)
        return out
    out["unit"] = 2 ** (s.total - 2)
    out["factor"] = seats[0] // (3 * out["unit"])
    out["winner"] = seats[0]
    out["seats"] = list(seats)
    return out


def table(hand: str, s, args, lang: str, width) -> str:
    """The text table of ``mjfast score --rules zhuji``; ``width`` measures
    a string in terminal columns (CJK counts 2)."""
    L = _L[lang]
    out = [f"{L['hand']}: {hand}"]
    robbing = "robbing_kong" in s.items
    how = L["self_drawn"] if s.self_drawn else (L["robbing"] if robbing else L["discard"])
    out.append(f"{L['win']}: {how}")
    for k, why in s.ignored_flags.items():
        out.append(f"{L['ignored']}: {k.replace('_', ' ')} ({why})")
    opts = "".join(f" {k}={''.join(v) if isinstance(v, tuple) else v}"
                   for k, v in s.rules.changed_options.items())
    out.append(f"Rules: {s.rules.name}{opts}")
    if s.substitutions is not None:
        stood = " ".join(TILE_NAMES[t] for t in s.substitutions) or "-"
        out.append(f"{L['wilds']}: {s.wilds}, {L['stood']}: {stood}")
    sets = " ".join(f"[{t}]" if melded else t for _kind, t, melded in s.decomposition)
    form = "" if s.form == "regular" else "  (all honors, any shape)"
    out.append(f"{L['sets']}: {sets}{form}")
    out.append("")
    first = [(f.zh if lang == "zh" else f.name) for f in s.fans]
    second = [(f.name if lang == "zh" else f.zh) for f in s.fans]
    w1 = max([width(L["item"])] + [width(t) for t in first])
    w2 = max([width(L["other"])] + [width(t) for t in second])

    def pad(t, w):
        return t + " " * (w - width(t))

    def rpad(t, w):
        return " " * (w - width(t)) + t

    header = (f"  {pad(L['item'], w1)}  {pad(L['other'], w2)}  {rpad(L['tai'], 3)}  {rpad(L['count'], 5)}  "
              f"{rpad(L['subtotal'], 8)}")
    out.append(header)
    rule = "  " + "-" * (width(header) - 2)
    out.append(rule)
    for f, a, b in zip(s.fans, first, second):
        out.append(f"  {pad(a, w1)}  {pad(b, w2)}  {f.points:>3}  {f.count:>5}  {f.total:>8}")
    out.append(rule)
    out.append(f"  {pad(L['total'], width(header) - 12)}  {s.total:>8}  ({L['ordinary']} {s.ordinary}"
               + (f"; {s.how}" if s.specials else "") + ")")
    for k, why in s.notes.items():
        out.append(f"{L['note']}: {k.replace('_', ' ')} ({why})")
    m = s.rules.options["min_tai"]
    out.append(f"{L['legal'].format(m=m)}: {L['yes'] if s.legal else L['no']}"
               + ("" if s.legal else f" ({s.why_not_legal})"))
    out.append("")
    reps = getattr(args, "dealer_repeats", None) or 0
    st = settlement(s, args.discarder, reps)
    if "error" in st:
        out.append(f"{L['settlement']}: {st['error']}")
        return "\n".join(out)
    factor = st["factor"]
    extra = f", {L['repeat'].format(f=factor)}" if factor != 1 else ""
    out.append(f"{L['settlement']} (2^({s.total} - 2) = {st['unit']}{extra}):")
    labels = [L["winner"]] + list(L["seats"])
    w = max(width(x) for x in labels)
    for k, (label, amount) in enumerate(zip(labels, st["seats"])):
        mark = f"  {L['konger']}" if robbing and k == args.discarder else ""
        out.append(f"  {pad(label, w)}  {amount:+d}{mark}")
    return "\n".join(out)
