"""Strings for the differential test of the notation parser
(tests/test_parser_diff.py): valid hands in every notation, and mutations of
them (characters deleted, inserted, swapped or replaced; Botzone tokens,
flowers, whitespace of every kind, unicode, brackets and meld digits)."""
from __future__ import annotations

import random

from handgen import random_winning_records

_BZ = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + [f"F{r}" for r in range(1, 5)] + \
      [f"J{r}" for r in range(1, 4)]
_FLOWERS = [f"H{r}" for r in range(1, 9)]
# the notation's characters, then troublemakers: '0', Botzone letters, other
# whitespace (tab, newline, form feed, ideographic and no-break space, the
# separators \x1c-\x1f that str.isspace counts), Chinese tile names, letters
# that are no tile, full-width digits, an emoji
ALPHABET = ("123456789mpsESWNCFP[] " * 3 + "0BTJH" + "\t\n\r\f\v\u3000\xa0\x1c\x1f\x85"
            + "万饼条东中" + "xXeM" + "\uff11\U0001F004" + "[]]][" + "567")
_WHITESPACE = " \t\n\r\f\v\u3000\xa0\x1c\x85\u2028"


def _botzone(rng, hand_tiles):
    toks = [_BZ[t] for t in hand_tiles]
    if rng.random() < 0.3:
        k = rng.randint(1, 3)
        for f in rng.sample(_FLOWERS, k):
            toks.insert(rng.randint(0, len(toks)), f)
    if rng.random() < 0.1:
        toks.insert(rng.randint(0, len(toks)), rng.choice(_FLOWERS))
    sep = [rng.choice(" \t  \u3000") * rng.randint(1, 2) for _ in toks]
    return "".join(t + s for t, s in zip(toks, sep)).rstrip() if rng.random() < 0.7 else \
        rng.choice(_WHITESPACE) + " ".join(toks) + rng.choice(["", " ", "\n"])


def _tiles_of(hand):
    """Concealed tiles of a compact hand (no melds) as indices, in order."""
    out, run = [], []
    for ch in hand:
        if ch.isdigit():
            run.append(int(ch))
        elif ch in "mps":
            out.extend("mps".index(ch) * 9 + r - 1 for r in run)
            run = []
        elif ch in "ESWNCFP":
            out.append(27 + "ESWNCFP".index(ch))
    return out


def _mutate(rng, s):
    k = rng.randint(1, 3)
    for _ in range(k):
        op = rng.random()
        i = rng.randint(0, len(s))
        if op < 0.25 and s:                                   # delete
            i = min(i, len(s) - 1)
            s = s[:i] + s[i + 1:]
        elif op < 0.5:                                        # insert
            s = s[:i] + rng.choice(ALPHABET) + s[i:]
        elif op < 0.65 and len(s) > 1:                        # swap neighbours
            i = min(i, len(s) - 2)
            s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
        elif op < 0.8 and s:                                  # replace
            i = min(i, len(s) - 1)
            s = s[:i] + rng.choice(ALPHABET) + s[i + 1:]
        elif op < 0.9:                                        # a Botzone token or flower
            s = s[:i] + rng.choice(["", " "]) + rng.choice(_BZ + _FLOWERS + ["F5", "J4", "H9", "W0"]) + \
                rng.choice(["", " "]) + s[i:]
        else:                                                 # a meld digit / bracket
            s = s[:i] + rng.choice(["[", "]", "[]", "0]", "4]", "5]", "8]", "[1", "[EEEE]"]) + s[i:]
    return s


def _spaced(rng, s):
    """Whitespace of any kind between characters (sometimes inside runs)."""
    out = []
    for ch in s:
        out.append(ch)
        if rng.random() < 0.15:
            out.append(rng.choice(_WHITESPACE))
    return "".join(out)


FIXED = [
    "", " ", "\t", "[", "]", "[]", "[ ]", "[[", "]]", "][", "[EEE", "EEE]", "[EEE]", "[EEE] ", " [EEE]",
    "[EEE][SSS][WWW][NNN]CC", "[EEE][SSS][WWW][NNN][CCC]", "[EEE][SSS][WWW][NNN][CCC]PP",
    "[567m2][EEE1]45m678pFF6m", "[567m2] [EEE1] 45m678pFF6m", "[567m2]\t[EEE1]\n45m 678p FF 6m",
    "[567m2]\u3000[EEE1]45m", "[EEEE5][SSSS][WWWW1]CC", "[EEEE4]", "[EEEE8]", "[EEEE0]", "[EEE0]", "[EEE4]",
    "[123m0]", "[123m4]", "[132m]", "[321m2]", "[891m]", "[912m]", "[789m]", "[12m3p]", "[EES]", "[ESW]",
    "[1234m]", "[1111m]", "[11112m]", "[11m]", "[1m]", "[E1]", "[W1]", "[W1 W2 W3]", "[12]", "[m]", "[0m]",
    "[1m2m3m]", "[1m1m1m]", "[EEEE ]", "[ EEE]", "[E E E]", "[EE\u3000E]", "[123x]", "[123m]]", "[[123m]",
    "[123m]45m[EEE]", "45m]", "123m456p789s11122z", "10m", "0m", "123m0", "12 3m", "m12", "45E", "123m45",
    "123mX", "123me", "E1sW", "9m1m", "W1 W2 W3 B5 T9 F1 F4 J1 J3", "W1 W2 123m", "123m W1", "W1W2",
    "W1 H1 W2", "H1 H1", "H1 H2 H3 H4 H5 H6 H7 H8", "H1 H2 H1 X", "W1 F5 W2", "J4", "H9", "W1 H9", "F F",
    "F1 F1", "W", "W1", "W1 x", "W1 [EEE]", "  J2\tF2  ", "1111m", "11111m", "111112m", "1111m1m",
    "11111111111111111m", "1" * 40 + "m", "EEEEE", "[EEEE]E", "[EEE]EE", "[EEE1]EE1m", "东南西北",
    "一万", "１m", "1ｍ", "\U0001F004", "W1\u3000W2", "W1\xa0W2", "W1\x1cW2", "123m\x1c456p", "1\x1c2m",
    "[567m2][EEE1]45m678pFF6m[", "[567m2][EEE1]45m678pFF6m]", "[567m2]][EEE1]", "[567m2[EEE1]",
    "[EEE][EEE][EEE]", "[EEEE][EEE]", "[123m][123m][123m][123m]1m", "[123m][123m][123m][123m][123m]",
    "[111m][111m]", "H1 W1 W1 W1 W1 W1", "1" * 100 + "m", "9" * 70 + "s E", "W1 " * 40, "H1 " + "F2 " * 30,
    "\u3000".join(["1m"] * 40) + "X", "东" * 80, "[" + "1" * 80 + "m]", "[EEE]" + "1" * 80 + "p", "W1 W1 W1 W1 W1", "[EEE]W1 W2", "[EEE] W1 W2 W3",
]


def _meld_like(rng):
    """A bracketed body near a meld: 3-4 tiles of one kind or a run, maybe a
    digit 0-9, sometimes a stray character."""
    t = rng.randrange(34)
    kind = rng.random()
    if t >= 27:
        body = "ESWNCFP"[t - 27] * rng.choice([2, 3, 3, 4, 4, 5])
    elif kind < 0.5:
        r = t % 9 + 1
        body = "".join(str((r + k - 1) % 9 + 1) for k in rng.choice([(0, 1, 2), (0, 2, 1), (2, 1, 0), (0, 1), (0, 1, 2, 3)]))
        body += "mps"[t // 9]
    else:
        body = str(t % 9 + 1) * rng.choice([2, 3, 3, 4, 4, 5]) + "mps"[t // 9]
    if rng.random() < 0.6:
        body += rng.choice("0123456789")
    if rng.random() < 0.1:
        i = rng.randint(0, len(body))
        body = body[:i] + rng.choice(ALPHABET) + body[i:]
    return "[" + body + "]" + rng.choice(["", "", " ", "\t"])


def strings(n, seed=0):
    """``n`` strings: FIXED, then valid hands (compact, spaced, Botzone) and
    mutations of them."""
    rng = random.Random(seed)
    out = list(FIXED)
    recs = random_winning_records(max(64, n // 4), seed=seed)
    while len(out) < n:
        hand = rng.choice(recs)["hand"]
        r = rng.random()
        if r < 0.15:
            s = hand
        elif r < 0.25:
            s = _spaced(rng, hand)
        elif r < 0.4:
            concealed = hand[hand.rfind("]") + 1:]
            s = _botzone(rng, _tiles_of(concealed))
            if "]" in hand and rng.random() < 0.2:
                s = hand[:hand.rfind("]") + 1] + s
        elif r < 0.45:
            s = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 20)))
        elif r < 0.55:
            s = "".join(_meld_like(rng) for _ in range(rng.randint(1, 5))) + hand[hand.rfind("]") + 1:]
        else:
            s = _mutate(rng, hand if rng.random() < 0.8 else _botzone(rng, _tiles_of(hand[hand.rfind("]") + 1:])))
        out.append(s)
    return out[:n]
