"""What the analysis entry points accept, checked and turned into the arrays
the compiled core reads: a notation string, a :class:`~mjfast.hand.Hand` or
a 34-count row for one hand (:func:`concealed`), an (N, 34) integer array
for a batch (:func:`batch_input`), the ``melds`` and ``workers`` arguments;
and the error codes of the batch functions' ``errors="mask"`` arrays.

Every check words its error once, here: :mod:`mjfast.analysis.hands`, the
discard ranking and the fan targets call these.
"""
from __future__ import annotations

import os

import numpy as np

from .. import _core
from ..errors import InvalidArgument, InvalidHand
from ..hand import Hand, parse_hand, to_counts
from ..scoring.records import show as _show
from ..spec import errors as _errors

#: Error codes of the batch functions with ``errors="mask"`` (the ``core``
#: family of mjfast/spec/errors.py, with their messages).
_CODES = _errors.family(_errors.CORE)
ERR_OK = _CODES["OK"]
ERR_TOO_MANY_COPIES = _CODES["TOO_MANY_COPIES"]   # a count above 4
ERR_BAD_SIZE = _CODES["BAD_SIZE"]                 # the tile count does not fit the call (14-3k / 13-3k)
ERR_BAD_MELDS = _CODES["BAD_MELDS"]               # melds outside 0..4
ERR_NEGATIVE = _CODES["NEGATIVE"]                 # a negative count (signed input arrays)
ERR_BAD_WILDCARDS = _CODES["BAD_WILDCARDS"]       # a wildcard count outside 0..8
ERR_FORM = _CODES["FORM"]                         # the form asked for does not apply beside the row's melds
ERR_RULES = _CODES["RULES"]                       # a tile the rule set (rules=) does not play
ERROR_MESSAGES = _errors.messages(_errors.CORE)


def _usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def resolve_workers(workers) -> int:
    """The thread count for ``workers``, the one check every batch function uses.

    ``workers`` is an int (a numpy integer is fine, a bool is not): 1 = the
    calling thread, k > 1 = k threads, -1 = every usable core (``OMP_NUM_THREADS``
    honoured).  A count above the usable cores is clamped to them: more threads
    than cores only add start-up cost, and results never depend on the count.
    0 and values below -1 raise ``ValueError``; anything not an int ``TypeError``.
    """
    if not isinstance(workers, (int, np.integer)) or isinstance(workers, (bool, np.bool_)):
        raise TypeError(f"workers must be an int (-1 = all cores, or 1, 2, ...), got {type(workers).__name__} {workers!r}")
    workers = int(workers)       # Python ints are unbounded: no overflow below
    if workers == 0 or workers < -1:
        raise ValueError(f"workers must be -1 (all cores) or a count >= 1, got {workers}")
    cores = _usable_cores()
    if workers == -1:
        env = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
        if env.isdigit() and int(env) >= 1:
            return min(int(env), cores)
        return cores
    return min(workers, cores)


def melds_arg(melds):
    """``melds`` of a single-hand call: None or an int 0..4."""
    if melds is None:
        return None
    if isinstance(melds, (bool, np.bool_)) or not isinstance(melds, (int, np.integer)):
        raise InvalidArgument(f"melds must be None (implied by the tile count) or an int 0..4, "
                              f"got {_show(melds)}")
    if not 0 <= melds <= 4:
        raise InvalidArgument(f"melds must be None (implied by the tile count) or an int 0..4, got {melds}")
    return int(melds)


def concealed(hand, melds, sizes, extra=0):
    """(counts uint8[34] C-contiguous, melds, all-tiles counts or None) after validation.

    ``sizes``: "win" (14-3k concealed tiles), "ready" (13-3k) or "any" (either).
    A string or Hand with melds in brackets fixes the melds; without any, the
    melds are ``melds`` or implied by the tile count, exactly as for an array
    (``"1111m"`` is 4 tiles + 3 melds, like ``to_counts("1111m")``).
    ``extra``: tiles held beside the counts (wildcards), counted in the size."""
    melds = melds_arg(melds)
    full = None
    if type(hand) is str:
        # the compiled parser into count arrays; on an error parse_hand words it
        counts = np.empty(34, np.uint8)
        full = np.empty(34, np.uint8)
        k = _core.parse_counts_fast(hand, counts, full)
        if k >= 0:
            if k > 0:
                if melds is not None and melds != k:
                    raise InvalidHand(f"melds={melds} contradicts the {k} melds in the hand")
                melds = k
            return counts, sized(int(counts.sum()) + extra, melds, sizes), full
        full = None
        hand = parse_hand(hand)
    if isinstance(hand, Hand):
        if hand.melds:
            if melds is not None and melds != len(hand.melds):
                raise InvalidHand(f"melds={melds} contradicts the {len(hand.melds)} melds in the hand")
            melds = len(hand.melds)
        counts = np.ascontiguousarray(hand.counts, dtype=np.uint8)
        full = hand.all_counts
    elif type(hand) is np.ndarray and hand.dtype == np.uint8 and hand.shape == (34,):
        # a count row: validated in one compiled pass
        counts = hand if hand.flags.c_contiguous else np.ascontiguousarray(hand)
        n, mx = _core.counts_info(counts)
        if mx > 4:
            t = int(np.argmax(counts))
            raise InvalidHand(f"a fifth copy of tile {t}: count {int(counts[t])} (at most 4)")
        return counts, sized(n + extra, melds, sizes), None
    else:
        counts = np.ascontiguousarray(to_counts(hand), dtype=np.uint8)
    return counts, sized(int(counts.sum()) + extra, melds, sizes), full


def sized(n, melds, sizes):
    """The melds (given, or implied by the n concealed tiles), checked against
    the sizes a call takes; raises InvalidHand naming the count."""
    if melds is None:
        if n % 3 == 2:
            melds = (14 - n) // 3
        elif n % 3 == 1:
            melds = (13 - n) // 3
        else:
            raise InvalidHand(f"a hand has 13 or 14 tiles counting 3 per meld (13-3k or 14-3k concealed tiles); got {n}")
    if not 0 <= melds <= 4:
        raise InvalidHand(f"a hand has 13 or 14 tiles counting 3 per meld (13-3k or 14-3k concealed tiles, at most 14); got {n}")
    melds = int(melds)
    total = n + 3 * melds
    if sizes == "win" and total != 14:
        raise InvalidHand(f"a complete hand has 14 tiles counting 3 per meld; got {n} concealed + {melds} melds = {total}")
    if sizes == "ready" and total != 13:
        raise InvalidHand(f"a ready hand has 13 tiles counting 3 per meld; got {n} concealed + {melds} melds = {total}")
    if sizes == "any" and total not in (13, 14):
        raise InvalidHand(f"a hand has 13 or 14 tiles counting 3 per meld; got {n} concealed + {melds} melds = {total}")
    return melds


#: the integer dtypes narrowed by _core.narrow_rows (native byte order)
NARROW_DTYPES = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64))


def batch_array(hands, melds, errors):
    """The (N, 34) uint8 C-contiguous array, the given melds (int64 or None)
    and the rows with a negative count (bool mask, or None: they are
    emptied here and flagged by the caller)."""
    if errors not in ("raise", "mask"):
        raise ValueError(f"errors must be 'raise' or 'mask', got {errors!r}")
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise InvalidHand(f"hands must be an (N, 34) array of tile counts; got shape {arr.shape}")
    negative = None
    if arr.dtype != np.uint8:
        if arr.dtype.kind not in "iu":
            raise InvalidArgument(f"hands must hold integer tile counts, got dtype {arr.dtype}")
        if arr.dtype in NARROW_DTYPES and arr.flags.c_contiguous:
            # one compiled pass narrows the counts, a count above 255 as 255
            # (too many copies), and empties a row with a negative count (the
            # caller flags it)
            out = np.empty(arr.shape, np.uint8)
            fl = np.empty(arr.shape[0], np.uint8)
            if _core.narrow_rows(arr, out, fl):
                neg = (fl & 1) != 0
                if neg.any():
                    negative = neg
                    out[neg] = 0
            arr = out
        else:
            # the same in numpy (a strided or byte-swapped array): a count
            # outside 0..255 (negative ones too, in two's complement) sets a
            # bit above the low eight in the OR of them all
            if arr.size and int(np.bitwise_or.reduce(arr, axis=None)) & ~0xFF:
                neg = (arr < 0).any(axis=1)
                arr = np.clip(arr, 0, 255)
                if neg.any():
                    negative = neg
                    arr[neg] = 0
            arr = arr.astype(np.uint8)
    arr = np.ascontiguousarray(arr)
    given = None
    if melds is not None:
        given = melds_column(melds, arr.shape[0])
    return arr, given, negative


def melds_column(melds, n):
    """The ``melds`` of a batch call as int64[n] (a scalar applies to every
    row); values outside 0..4 are kept (clipped to -1..5) for the per-row check."""
    m = np.asarray(melds)
    if m.dtype == object:
        flat = m.ravel().tolist()
        if not all(type(x) is int for x in flat):
            raise InvalidArgument(f"melds must be None, an int or an integer array, got {_show(melds)}")
        m = np.array([max(-1, min(5, x)) for x in flat], dtype=np.int64).reshape(m.shape)
    elif m.dtype.kind not in "iu":
        raise InvalidArgument(f"melds must be None, an int or an integer array, got dtype {m.dtype}")
    elif m.dtype.kind == "u":
        m = np.minimum(m, 5)
    try:
        return np.ascontiguousarray(np.broadcast_to(m.astype(np.int64), (n,)))
    except ValueError:
        raise ValueError(f"melds must be one int or {n} values (one per row), got shape {m.shape}") from None


def raise_first(arr, given, err):
    first = int(np.flatnonzero(err)[0])
    n = int(arr[first].sum())
    m = f"melds={int(given[first])}" if given is not None else "melds implied by the size"
    detail = "" if err[first] == ERR_NEGATIVE else f" ({n} tiles, {m})"
    raise InvalidHand(
        f"row {first}: {ERROR_MESSAGES[int(err[first])]}{detail}; "
        "pass errors='mask' to flag bad rows instead"
    )


def batch_input(hands, melds, sizes, errors):
    """Validate an (N, 34) batch; returns (hands, given melds, melds uint8[N], err uint8[N]).

    The per-row checks run in one compiled pass; bad rows raise (naming the
    first) or, with errors="mask", are flagged (the kernels skip them)."""
    arr, given, negative = batch_array(hands, melds, errors)
    n = arr.shape[0]
    m = np.empty(n, dtype=np.uint8)
    err = np.empty(n, dtype=np.uint8)
    nbad = _core.validate_batch(arr, given, {"win": 0, "ready": 1, "any": 2}[sizes], m, err)
    if negative is not None:
        err[negative] = ERR_NEGATIVE
        nbad = int(np.count_nonzero(err))
    if nbad and errors == "raise":
        raise_first(arr, given, err)
    return arr, given, m, err


def check_unchanged(arr, given, err, errors, nchanged):
    """The kernels copy each row before checking and reading it; a row that
    fails that check passed validation a moment before, so the caller's array
    was changed during the call (by another thread)."""
    if nchanged and errors == "raise":
        first = int(np.flatnonzero(err)[0])
        raise InvalidHand(f"row {first} changed while the batch call was running "
                          f"({ERROR_MESSAGES[int(err[first])]}); pass errors='mask' to flag bad rows instead")


def with_errors(out, err, errors):
    return (out, err) if errors == "mask" else out
