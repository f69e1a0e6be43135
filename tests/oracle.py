"""Test oracle: thin wrappers around the reference calculator PyMahjongGB.

Only the test-suite imports this module; the ``mjfast`` library never does.
The reference is imported as ``MahjongGB`` (PyPI ``PyMahjongGB`` 1.4.0).

Functions
---------
``oracle_score(rec)``
    Score a hand record (``notation.md`` format) -> ``(total, {en_name: (points_each, count)})``.
    ``total`` is sum(points * count), flowers included (as ``"Flower Tiles"``).
    Raises :class:`OracleError` for a hand the reference rejects, and (with the
    default ``strict=True``) for inputs the binding would silently accept but the
    rules forbid: a fifth copy, more than 4 melds, flowers outside 0-8, a bad wind.
``oracle_is_win(counts34, n_melds=None)``
    Is a 14-3k tile set (concealed tiles incl. the winning tile) a complete hand?
``oracle_waits(counts34, n_melds=None)``
    Tiles t (ascending) such that a 13-3k set + t is complete; t with
    ``counts[t] == 4`` (all four copies already concealed) are excluded.
``oracle_shanten(counts34, n_melds=None)``
    Shanten over all forms; 13-3k sizes from ``MahjongShanten``; for 14-3k
    sizes -1 if complete, else the minimum over discards of the 13-3k shanten.
``oracle_shanten_form(counts34, form)`` / ``oracle_useful_form(counts34, form)``
    The reference's per-form shanten (and its useful-tile list).
``n_melds=None`` means "infer from the size" (size = 13-3k or 14-3k); an
explicit value is checked against the size.

Per-form functions and the sizes the reference accepts (others raise
``TypeError('ERROR_INVALID_HAND')``, which these wrappers turn into ValueError):

==================  ============================  ============================
form                reference function            sizes (13-3k) accepted
==================  ============================  ============================
regular             RegularShanten                1, 4, 7, 10, 13
seven_pairs         SevenPairsShanten             13
thirteen_orphans    ThirteenOrphansShanten        13
honors_knitted      HonorsAndKnittedTilesShanten  13
knitted_straight    KnittedStraightShanten        10, 13
==================  ============================  ============================

``oracle_shanten_form`` also takes the matching 14-3k sizes: -1 if some discard
t leaves a hand at shanten 0 whose useful tiles contain t (i.e. the hand is
complete in that form), else the minimum over discards.

Reference facts found by experiment (PyMahjongGB 1.4.0)
--------------------------------------------------------
* Pack offers are 0..3 only; 4+ raise ``TypeError('ERROE_WRONG_OFFER_CODE')``
  (sic, "ERROE").  There is **no way to express an added kong (加杠)**: it is
  passed as a melded kong ``("GANG", tile, 1..3)``; the reference scores added
  and direct melded kongs identically.  ``GANG`` offer 0 = concealed kong.
  ``PENG``/``CHI`` with offer 0 are treated as *concealed* sets (keeps
  Concealed Hand), so this wrapper always passes 1..3 for them.
* The binding never checks the four-copy limit: a fifth (even sixth) copy is
  accepted and scored (e.g. a 5-copy hand gave Tile Hog with count 255, an
  unsigned underflow).  ``oracle_score`` therefore rejects a fifth copy itself
  (``strict=True``); ``oracle_is_win``/``oracle_waits``/``oracle_shanten``
  raise ValueError for counts > 4 instead of answering.
* Flower counts are not range-checked (9 is scored as 9 flowers); seat and
  prevalent winds 0..3 are not range-checked either.
* ``MahjongShanten`` ignores its ``pack`` argument completely: it returns the
  minimum of the five per-form shantens over the standing tiles, each form
  simply refusing sizes it does not handle (so 13 tiles -> all five forms,
  10 -> regular + knitted straight, 7/4/1 -> regular).  That is exactly the
  right set of forms for 0, 1 and >=2 melds.  It rejects 14-3k sizes
  (``ERROR_INVALID_HAND_OR_PACK``) and the empty hand.
* The shanten functions are structural: a tile counts as useful even when all
  four copies are already in the hand.  ``1111m 234567p 789s`` is shanten 0
  (useful: 1m only, a fifth copy) although no real tile completes it, so
  ``oracle_shanten(h) == 0`` does not imply ``oracle_waits(h) != []``.  The fan
  calculator likewise accepts ``1111m234567p789s`` + ``1m``.
* Four identical concealed tiles count as two pairs for seven pairs (both in
  the fan calculator and in SevenPairsShanten), matching mcr-rules.md section 4.
  ``oracle_is_win`` reports what the fan calculator accepts, so e.g.
  ``1111m 22p 44p 66p 77s 99s`` is a win (Seven Pairs + Tile Hog).
* Error messages: ``ERROR_WRONG_TILES_COUNT``, ``ERROR_NOT_WIN``,
  ``ERROE_WRONG_TILE_CODE``, ``ERROE_WRONG_OFFER_CODE``,
  ``ERROE_WRONG_PACK_CODE``, ``ERROR_INVALID_HAND`` (shanten),
  ``ERROR_INVALID_HAND_OR_PACK`` (MahjongShanten); all are ``TypeError``.

Timings (this machine: 2 cores, CPython 3.11; per call, measured with
``python tests/oracle.py``, which runs ``_benchmark()``; +-20 % run to run):

================================================  ==============
oracle_score (generated winning record, parsed)   ~16 us
  of which the raw MahjongFanCalculator call      ~4 us
oracle_is_win (14 random tiles)                   ~11 us
oracle_waits (13 random tiles, 34 probes)         ~90 us
oracle_shanten (13 tiles; MahjongShanten)         ~12 us
oracle_shanten (14 tiles; win check + discards)   ~85-100 us
oracle_shanten_form regular (13)                  ~57 us
oracle_shanten_form seven_pairs / orphans / hk    ~8 us
oracle_shanten_form knitted_straight (13)         ~63 us
oracle_shanten_form regular (14, via discards)    ~0.6-0.7 ms
================================================  ==============
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

try:
    import MahjongGB as _gb
except ImportError:  # the tests that need it are marked ``oracle`` and skipped (conftest.py)
    _gb = None

#: True when the reference calculator is installed.
HAVE_ORACLE = _gb is not None

__all__ = [
    "OracleError",
    "FAN_NAMES_EN",
    "TILE_CODES",
    "parse_hand",
    "record_to_reference_args",
    "oracle_score",
    "oracle_is_win",
    "oracle_waits",
    "oracle_shanten",
    "oracle_shanten_form",
    "oracle_useful_form",
    "FORMS",
]


class OracleError(Exception):
    """The reference rejected the hand (or the record is malformed)."""


# --------------------------------------------------------------------------
# tiles
# --------------------------------------------------------------------------

#: Botzone code of each of our 34 tile indices.
TILE_CODES: Tuple[str, ...] = tuple(
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
_CODE_TO_IDX = {c: i for i, c in enumerate(TILE_CODES)}
_SUIT_OFF = {"m": 0, "p": 9, "s": 18}
_HONOR_IDX = {"E": 27, "S": 28, "W": 29, "N": 30, "C": 31, "F": 32, "P": 33}
_WIND_IDX = {"E": 0, "S": 1, "W": 2, "N": 3}

#: The reference's English fan names, in its table order (index 1..82;
#: 82 = the 2016 extra "Concealed Kong and Melded Kong").
FAN_NAMES_EN: Tuple[str, ...] = (
    "Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Kongs",
    "Seven Shifted Pairs", "Thirteen Orphans", "All Terminals", "Little Four Winds",
    "Little Three Dragons", "All Honors", "Four Concealed Pungs", "Pure Terminal Chows",
    "Quadruple Chow", "Four Pure Shifted Pungs", "Four Pure Shifted Chows", "Three Kongs",
    "All Terminals and Honors", "Seven Pairs", "Greater Honors and Knitted Tiles",
    "All Even Pungs", "Full Flush", "Pure Triple Chow", "Pure Shifted Pungs",
    "Upper Tiles", "Middle Tiles", "Lower Tiles", "Pure Straight",
    "Three-Suited Terminal Chows", "Pure Shifted Chows", "All Five", "Triple Pung",
    "Three Concealed Pungs", "Lesser Honors and Knitted Tiles", "Knitted Straight",
    "Upper Four", "Lower Four", "Big Three Winds", "Mixed Straight", "Reversible Tiles",
    "Mixed Triple Chow", "Mixed Shifted Pungs", "Chicken Hand", "Last Tile Draw",
    "Last Tile Claim", "Out with Replacement Tile", "Robbing The Kong", "All Pungs",
    "Half Flush", "Mixed Shifted Chows", "All Types", "Melded Hand", "Two Concealed Kongs",
    "Two Dragons Pungs", "Outside Hand", "Fully Concealed Hand", "Two Melded Kongs",
    "Last Tile", "Dragon Pung", "Prevalent Wind", "Seat Wind", "Concealed Hand",
    "All Chows", "Tile Hog", "Double Pung", "Two Concealed Pungs", "Concealed Kong",
    "All Simples", "Pure Double Chow", "Mixed Double Chow", "Short Straight",
    "Two Terminal Chows", "Pung of Terminals or Honors", "Melded Kong", "One Voided Suit",
    "No Honors", "Edge Wait", "Closed Wait", "Single Wait", "Self-Drawn", "Flower Tiles",
    "Concealed Kong and Melded Kong",
)
assert len(FAN_NAMES_EN) == 82


# --------------------------------------------------------------------------
# notation parser (private, independent of mjfast)
# --------------------------------------------------------------------------

_MELD_RE = re.compile(r"\[([^\]]*)\]")
_BOTZONE_RE = re.compile(r"^\s*(?:[WBTFJ][1-9]\s*)+$")


def _parse_compact(s: str) -> List[int]:
    """Compact tiles ('123m45pEES') -> list of tile indices in written order."""
    out: List[int] = []
    digits: List[int] = []
    for ch in s:
        if ch.isspace():
            continue
        if "1" <= ch <= "9":
            digits.append(ord(ch) - 48)
        elif ch in _SUIT_OFF:
            if not digits:
                raise OracleError(f"suit letter {ch!r} without digits in {s!r}")
            off = _SUIT_OFF[ch]
            out.extend(off + d - 1 for d in digits)
            digits = []
        elif ch in _HONOR_IDX:
            if digits:
                raise OracleError(f"digits without a suit letter before {ch!r} in {s!r}")
            out.append(_HONOR_IDX[ch])
        else:
            raise OracleError(f"bad character {ch!r} in {s!r}")
    if digits:
        raise OracleError(f"digits without a suit letter at the end of {s!r}")
    return out


def _parse_tiles(s: str) -> List[int]:
    if _BOTZONE_RE.match(s):
        return [_CODE_TO_IDX[t] for t in s.split()]
    return _parse_compact(s)


def _parse_meld(body: str) -> Tuple[str, int, int]:
    """'567m2' -> ('chow', lowest_idx, digit or -1), ('pung', idx, d), ('kong', idx, d)."""
    b = body.replace(" ", "")
    digit = -1
    # suited melds end with the suit letter, then the optional digit: '567m2';
    # honor melds are letters then the optional digit: 'EEE1'
    m = re.fullmatch(r"([1-9]+[mps]|[ESWNCFP]+)([0-9])?", b)
    if not m:
        raise OracleError(f"bad meld [{body}]")
    tiles = sorted(_parse_compact(m.group(1)))
    if m.group(2) is not None:
        digit = int(m.group(2))
    n = len(tiles)
    if n == 3 and tiles[0] == tiles[1] == tiles[2]:
        if digit not in (-1, 1, 2, 3):
            raise OracleError(f"bad pung digit in [{body}]")
        return ("pung", tiles[0], digit)
    if n == 4 and tiles[0] == tiles[1] == tiles[2] == tiles[3]:
        if digit not in (-1, 1, 2, 3, 5, 6, 7):
            raise OracleError(f"bad kong digit in [{body}]")
        return ("kong", tiles[0], digit)
    if (n == 3 and tiles[0] < 27 and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
            and tiles[0] // 9 == tiles[2] // 9):
        if digit not in (-1, 1, 2, 3):
            raise OracleError(f"bad chow digit in [{body}]")
        return ("chow", tiles[0], digit)
    raise OracleError(f"[{body}] is not a chow, pung or kong")


def parse_hand(hand: str) -> Tuple[List[Tuple[str, int, int]], List[int]]:
    """Parse a notation string -> (melds, concealed tile indices in written order).

    melds: list of (kind, tile, digit) with kind in chow/pung/kong, tile = the
    lowest tile index, digit = -1 when absent.  The last concealed tile is the
    winning tile when the string describes a win.
    """
    melds = [_parse_meld(m) for m in _MELD_RE.findall(hand)]
    rest = _MELD_RE.sub(" ", hand)
    if "[" in rest or "]" in rest:
        raise OracleError(f"unbalanced brackets in {hand!r}")
    return melds, _parse_tiles(rest)


def _wind(v, field: str) -> int:
    if isinstance(v, bool):
        raise OracleError(f"bad {field}: {v!r}")
    if isinstance(v, int):
        if 0 <= v <= 3:
            return v
    elif isinstance(v, str) and v in _WIND_IDX:
        return _WIND_IDX[v]
    raise OracleError(f"bad {field}: {v!r}")


def record_to_reference_args(rec: dict, strict: bool = True) -> tuple:
    """Record -> positional argument tuple for MahjongFanCalculator (without verbose)."""
    if "hand" not in rec:
        raise OracleError("record has no 'hand'")
    melds, tiles = parse_hand(rec["hand"])
    if not tiles:
        raise OracleError("no concealed tiles (the winning tile is missing)")
    packs = []
    counts = [0] * 34
    for kind, t, d in melds:
        code = TILE_CODES[t]
        if kind == "chow":
            packs.append(("CHI", TILE_CODES[t + 1], d if d > 0 else 1))
            counts[t] += 1
            counts[t + 1] += 1
            counts[t + 2] += 1
        elif kind == "pung":
            packs.append(("PENG", code, d if d > 0 else 1))
            counts[t] += 3
        else:
            offer = 0 if d < 0 else (d - 4 if d >= 5 else d)
            packs.append(("GANG", code, offer))
            counts[t] += 4
    for t in tiles:
        counts[t] += 1
    flowers = rec.get("flowers", 0)
    if strict:
        if len(melds) > 4:
            raise OracleError(f"{len(melds)} melds")
        n = len(tiles) + 3 * len(melds)
        if n != 14:
            raise OracleError(f"ERROR_WRONG_TILES_COUNT ({n} tiles counting 3 per meld)")
        over = [TILE_CODES[i] for i in range(34) if counts[i] > 4]
        if over:
            raise OracleError(f"ERROR_TILE_COUNT_GREATER_THAN_4 ({', '.join(over)})")
        if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
            raise OracleError(f"bad flowers: {flowers!r}")
    win = TILE_CODES[tiles[-1]]
    hand = tuple(TILE_CODES[t] for t in tiles[:-1])
    return (
        tuple(packs), hand, win, int(flowers),
        bool(rec.get("self_drawn", False)), bool(rec.get("fourth_tile", False)),
        bool(rec.get("kong", False)), bool(rec.get("last_tile", False)),
        _wind(rec.get("seat_wind", "E"), "seat_wind"),
        _wind(rec.get("round_wind", "E"), "round_wind"),
    )


def oracle_score(rec: dict, strict: bool = True) -> Tuple[int, Dict[str, Tuple[int, int]]]:
    """Score a hand record with the reference.

    Returns ``(total, {en_name: (points_each, count)})``; total includes flowers.
    Raises OracleError when the reference (or, with strict, the rules) rejects it.
    """
    args = record_to_reference_args(rec, strict)
    try:
        res = _gb.MahjongFanCalculator(*args, verbose=True)
    except TypeError as e:
        raise OracleError(str(e)) from None
    fans: Dict[str, Tuple[int, int]] = {}
    total = 0
    for pts, cnt, _zh, en in res:
        fans[en] = (pts, cnt)
        total += pts * cnt
    return total, fans


# --------------------------------------------------------------------------
# win / waits / shanten on 34-count arrays
# --------------------------------------------------------------------------

def _counts_list(counts34) -> List[int]:
    c = counts34.tolist() if hasattr(counts34, "tolist") else [int(x) for x in counts34]
    if len(c) != 34:
        raise ValueError(f"need 34 counts, got {len(c)}")
    if min(c) < 0 or max(c) > 4:
        bad = [f"{TILE_CODES[i]}={x}" for i, x in enumerate(c) if not 0 <= x <= 4]
        raise ValueError(f"counts must be 0..4: {', '.join(bad)}")
    return c


def _melds_for(size: int, n_melds: Optional[int], complete: bool) -> int:
    base = 14 if complete else 13
    if n_melds is None:
        if size < 1 or (base - size) % 3 or size > base:
            raise ValueError(f"size {size} is not {base}-3k")
        return (base - size) // 3
    if not 0 <= n_melds <= 4 or size != base - 3 * n_melds:
        raise ValueError(f"size {size} does not match {n_melds} melds ({base}-3k tiles)")
    return n_melds


_REPEATS = tuple(tuple((code,) * n for n in range(5)) for code in TILE_CODES)


def _tiles_of(c: Sequence[int]) -> tuple:
    out: tuple = ()
    for i, n in enumerate(c):
        if n:
            out += _REPEATS[i][n]
    return out


def _dummy_packs(c: Sequence[int], k: int) -> tuple:
    """k melded pungs of tiles absent from c, so every count stays <= 4."""
    packs = []
    # prefer honors and then suited tiles from the top; never needed to be clever:
    # at most 14 kinds are used by the concealed tiles, 34 exist.
    for i in range(33, -1, -1):
        if len(packs) == k:
            break
        if c[i] == 0:
            packs.append(("PENG", TILE_CODES[i], 1))
    return tuple(packs)


def _is_win_list(c: List[int], k: int) -> bool:
    """c: validated counts of a 14-3k set."""
    w = max(i for i in range(34) if c[i])
    c[w] -= 1
    hand = _tiles_of(c)
    c[w] += 1
    try:
        _gb.MahjongFanCalculator(_dummy_packs(c, k), hand, TILE_CODES[w], 0,
                                 False, False, False, False, 0, 0)
    except TypeError as e:
        if str(e) == "ERROR_NOT_WIN":
            return False
        raise RuntimeError(f"reference error {e} on {hand}+{TILE_CODES[w]}") from None
    return True


def oracle_is_win(counts34, n_melds: Optional[int] = None) -> bool:
    """True if the 14-3k concealed tile set (winning tile included) is complete.

    Raises ValueError for a wrong size or a count outside 0..4 (never answers
    False for an invalid input).
    """
    c = _counts_list(counts34)
    k = _melds_for(sum(c), n_melds, True)
    return _is_win_list(c, k)


def oracle_waits(counts34, n_melds: Optional[int] = None) -> List[int]:
    """Ascending tile indices t such that the 13-3k set + t is complete.

    Tiles with counts[t] == 4 are excluded (their fifth copy does not exist).
    """
    c = _counts_list(counts34)
    k = _melds_for(sum(c), n_melds, False)
    hand = _tiles_of(c)
    packs = _dummy_packs(c, k)
    out = []
    calc = _gb.MahjongFanCalculator
    for t in range(34):
        if c[t] >= 4:
            continue
        try:
            calc(packs, hand, TILE_CODES[t], 0, False, False, False, False, 0, 0)
        except TypeError as e:
            if str(e) == "ERROR_NOT_WIN":
                continue
            raise RuntimeError(f"reference error {e} on {hand}+{TILE_CODES[t]}") from None
        out.append(t)
    return out


def _shanten13(c: List[int], k: int) -> int:
    try:
        return _gb.MahjongShanten(_dummy_packs(c, k), _tiles_of(c))
    except TypeError as e:
        raise RuntimeError(f"reference error {e}") from None


def oracle_shanten(counts34, n_melds: Optional[int] = None) -> int:
    """Shanten over all forms allowed with the meld count.

    13-3k tiles: MahjongShanten (0 = ready).  14-3k tiles: -1 if complete,
    else min over discards of the 13-3k shanten.
    """
    c = _counts_list(counts34)
    size = sum(c)
    if size % 3 == 1:
        k = _melds_for(size, n_melds, False)
        return _shanten13(c, k)
    k = _melds_for(size, n_melds, True)
    if _is_win_list(c, k):
        return -1
    best = 99
    for t in range(34):
        if c[t]:
            c[t] -= 1
            best = min(best, _shanten13(c, k))
            c[t] += 1
    return best


FORMS = {
    "regular": ("RegularShanten", (1, 4, 7, 10, 13)),
    "seven_pairs": ("SevenPairsShanten", (13,)),
    "thirteen_orphans": ("ThirteenOrphansShanten", (13,)),
    "honors_knitted": ("HonorsAndKnittedTilesShanten", (13,)),
    "knitted_straight": ("KnittedStraightShanten", (10, 13)),
}


def _form_call(c: List[int], form: str) -> Tuple[int, List[int]]:
    name, sizes = FORMS[form]
    fn = getattr(_gb, name)
    if sum(c) not in sizes:
        raise ValueError(f"{form} shanten takes sizes {sizes} (or +1), got {sum(c)}")
    try:
        s, useful = fn(_tiles_of(c))
    except TypeError as e:
        raise RuntimeError(f"reference error {e}") from None
    return s, sorted(_CODE_TO_IDX[u] for u in useful)


def oracle_useful_form(counts34, form: str) -> Tuple[int, List[int]]:
    """(shanten, useful tile indices) of one form, 13-3k sizes only, as the reference says.

    The useful list is structural (may contain a tile whose 4 copies are held).
    """
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; one of {sorted(FORMS)}")
    return _form_call(_counts_list(counts34), form)


def oracle_shanten_form(counts34, form: str) -> int:
    """Shanten of one form; 13-3k sizes direct, 14-3k sizes via discards (-1 = complete)."""
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; one of {sorted(FORMS)}")
    c = _counts_list(counts34)
    size = sum(c)
    if size - 1 not in FORMS[form][1]:
        return _form_call(c, form)[0]
    best = 99
    for t in range(34):
        if c[t]:
            c[t] -= 1
            s, useful = _form_call(c, form)
            c[t] += 1
            if s == 0 and t in useful:
                return -1
            best = min(best, s)
    return best


# --------------------------------------------------------------------------
# timing helper: python tests/oracle.py
# --------------------------------------------------------------------------

def _benchmark() -> None:  # pragma: no cover
    import random
    import time

    rng = random.Random(1)
    wall = [i for i in range(34) for _ in range(4)]

    def hands(size, n):
        out = []
        for _ in range(n):
            c = [0] * 34
            for t in rng.sample(wall, size):
                c[t] += 1
            out.append(c)
        return out

    def timeit(label, fn, items):
        t0 = time.perf_counter()
        for x in items:
            fn(x)
        dt = (time.perf_counter() - t0) / len(items) * 1e6
        print(f"{label:48s} {dt:9.1f} us")

    try:
        import handgen  # type: ignore
        recs = handgen.random_winning_records(5000, seed=3)
        timeit("oracle_score (winning records)", oracle_score, recs)
        args = [record_to_reference_args(r) for r in recs]
        timeit("raw MahjongFanCalculator", lambda a: _gb.MahjongFanCalculator(*a, verbose=True), args)
    except ImportError:
        pass
    h13 = hands(13, 3000)
    h14 = hands(14, 1000)
    timeit("oracle_is_win (14 random tiles)", oracle_is_win, h14)
    timeit("oracle_waits (13 random tiles)", oracle_waits, h13[:1000])
    timeit("oracle_shanten (13)", oracle_shanten, h13)
    timeit("oracle_shanten (14)", oracle_shanten, h14)
    for form in FORMS:
        timeit(f"oracle_shanten_form {form} (13)", lambda c: oracle_shanten_form(c, form), h13[:1000])
    timeit("oracle_shanten_form regular (14)", lambda c: oracle_shanten_form(c, "regular"), h14[:300])


if __name__ == "__main__":  # pragma: no cover
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _benchmark()
