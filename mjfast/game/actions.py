"""The fixed action space and the observation layout of the compiled engine.

A learning pipeline sees a game through two fixed-shape arrays per seat and
step (:meth:`mjfast._game.FastGame.legal_mask` / ``observe``, and their batch
forms :func:`mjfast._game.legal_masks` / ``observe_many``): which of
:data:`N_ACTIONS` actions are legal, and what the seat may see.  Both are
defined here, once, as data; src/_game.pyx mirrors the numbers as constants
and tests/test_game_actions.py asserts that the two agree.

The 235 actions (the space bot authors on the platform commonly use)::

    0        PASS
    1        HU
    2-35     PLAY t            t = 0..33
    36-98    CHI               3 * k + p: k = chow middle (suit * 7 + rank - 1,
                               ranks 1..7 of the middle tile), p = position of
                               the claimed tile in the chow (0 lower, 1 middle,
                               2 upper)
    99-132   PENG t            a pung of the discard t
    133-166  GANG t            a melded kong of the discard t
    167-200  ANGANG t          a concealed kong of t
    201-234  BUGANG t          a kong added to the own pung of t

A chow or pung is half an answer: the platform's response also names the
tile discarded after it (``CHI T2 W5``, ``PENG W5``), which a pipeline picks
as a second step.  So :func:`decode` takes that discard, and the legal mask
marks a chow or pung legal when at least one discard can follow it (always,
with 13 tiles).  The engine's own answers are ``(op, a, b)``: PASS ``(0, 0,
0)``, PLAY ``(1, t, 0)``, concealed kong ``(2, t, 0)``, melded kong ``(2, -1,
0)``, BUGANG ``(3, t, 0)``, HU ``(4, 0, 0)``, PENG ``(5, discard, 0)``, CHI
``(6, middle, discard)``: the tile a claim takes is the last tile, not in the
answer, so :func:`encode` needs it (``claimed``) for a chow, pung or melded
kong.
"""
from __future__ import annotations

from typing import Optional

from ..tiles import BOTZONE_CODES

__all__ = ["N_ACTIONS", "PASS", "HU", "PLAY", "CHI", "PENG", "GANG", "ANGANG", "BUGANG", "OFFSETS",
           "encode", "decode", "claimed_tile", "to_botzone", "from_botzone", "action_name",
           "OBS_FIELDS", "OBS_SIZE", "RIVER_LEN", "obs_fields", "OP_NAMES"]

#: The engine's op numbers (src/_game.pyx mirrors them; mjfast.game.record imports them from here).
OP_PASS, OP_PLAY, OP_GANG, OP_BUGANG, OP_HU, OP_PENG, OP_CHI = range(7)
OP_NAMES = ("PASS", "PLAY", "GANG", "BUGANG", "HU", "PENG", "CHI")

# the action space: (name, size), in index order
_BLOCKS = (("PASS", 1), ("HU", 1), ("PLAY", 34), ("CHI", 63), ("PENG", 34), ("GANG", 34), ("ANGANG", 34),
           ("BUGANG", 34))

#: First index of each block of actions.
OFFSETS = {}
_n = 0
for _name, _width in _BLOCKS:
    OFFSETS[_name] = _n
    _n += _width
#: The number of actions.
N_ACTIONS = _n
PASS, HU, PLAY, CHI, PENG, GANG, ANGANG, BUGANG = (OFFSETS[b] for b, _ in _BLOCKS)
_SIZES = dict(_BLOCKS)


def _tile(t, what) -> int:
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < 34:
        raise ValueError(f"{what}: a tile index 0-33, got {t!r}")
    return t


def _block(index):
    if isinstance(index, bool) or not hasattr(index, "__index__"):
        raise TypeError(f"action index: an int, got {type(index).__name__}")
    index = index.__index__()
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"action index: 0-{N_ACTIONS - 1}, got {index}")
    for name, size in _BLOCKS:
        if index < OFFSETS[name] + size:
            return name, index - OFFSETS[name]
    raise AssertionError(index)                      # pragma: no cover


def _chow(middle, claimed) -> int:
    """The CHI index of the chow around ``middle`` taking ``claimed``."""
    _tile(middle, "chow middle")
    _tile(claimed, "claimed tile")
    if middle >= 27 or not 1 <= middle % 9 <= 7:
        raise ValueError(f"chow middle: a suited tile of rank 2-8, got {BOTZONE_CODES[middle]}")
    p = claimed - middle + 1
    if not 0 <= p <= 2:
        raise ValueError(f"claimed tile {BOTZONE_CODES[claimed]} is not in the chow around {BOTZONE_CODES[middle]}")
    return CHI + 3 * ((middle // 9) * 7 + middle % 9 - 1) + p


def _chow_tiles(k):
    """(middle, claimed) of the k-th chow action."""
    j, p = divmod(k, 3)
    middle = (j // 7) * 9 + j % 7 + 1
    return middle, middle - 1 + p


def encode(op: int, a: int = 0, b: int = 0, claimed: Optional[int] = None) -> int:
    """The action index of the engine's answer ``(op, a, b)``.  ``claimed``
    (the discard being claimed: the engine's ``last_tile``) is needed for a
    chow, a pung and a melded kong; the discard after a chow or pung (``b``
    of CHI, ``a`` of PENG) is not part of the index."""
    if op == OP_PASS:
        return PASS
    if op == OP_HU:
        return HU
    if op == OP_PLAY:
        return PLAY + _tile(a, "PLAY tile")
    if op == OP_BUGANG:
        return BUGANG + _tile(a, "BUGANG tile")
    if op == OP_GANG and a != -1:
        return ANGANG + _tile(a, "GANG tile")
    if op in (OP_GANG, OP_PENG, OP_CHI):
        if claimed is None:
            raise ValueError(f"{OP_NAMES[op]}: the claimed tile is needed (claimed=)")
        if op == OP_CHI:
            return _chow(a, claimed)
        return (GANG if op == OP_GANG else PENG) + _tile(claimed, "claimed tile")
    raise ValueError(f"op: 0-6, got {op!r}")


def decode(index: int, discard: Optional[int] = None):
    """The engine's answer ``(op, a, b)`` for an action index; a chow or pung
    needs the ``discard`` that follows it (ValueError without one)."""
    name, k = _block(index)
    if name in ("CHI", "PENG"):
        if discard is None:
            raise ValueError(f"{name}: the discard after the claim is needed (discard=)")
        _tile(discard, "discard")
        if name == "PENG":
            return OP_PENG, discard, 0
        return OP_CHI, _chow_tiles(k)[0], discard
    if name == "PASS":
        return OP_PASS, 0, 0
    if name == "HU":
        return OP_HU, 0, 0
    if name == "PLAY":
        return OP_PLAY, k, 0
    if name == "GANG":
        return OP_GANG, -1, 0
    if name == "ANGANG":
        return OP_GANG, k, 0
    return OP_BUGANG, k, 0


def claimed_tile(index: int) -> Optional[int]:
    """The discard a chow, pung or melded kong takes (None for other actions)."""
    name, k = _block(index)
    if name == "CHI":
        return _chow_tiles(k)[1]
    if name in ("PENG", "GANG"):
        return k
    return None


def to_botzone(index: int, discard: Optional[int] = None) -> str:
    """The platform's response string (``"CHI T2 W5"``, ``"GANG"`` for a
    melded kong, ``"GANG W1"`` for a concealed one)."""
    op, a, b = decode(index, discard)
    c = BOTZONE_CODES
    if op == OP_CHI:
        return f"CHI {c[a]} {c[b]}"
    if op in (OP_PLAY, OP_PENG, OP_BUGANG) or (op == OP_GANG and a >= 0):
        return f"{OP_NAMES[op]} {c[a]}"
    return OP_NAMES[op]


_CODE = {c: i for i, c in enumerate(BOTZONE_CODES)}


def from_botzone(response: str, claimed: Optional[int] = None) -> int:
    """The action index of a response string; ``claimed`` as for :func:`encode`."""
    if not isinstance(response, str):
        raise TypeError(f"response: a string, got {type(response).__name__}")
    parts = response.split()
    try:
        tiles = [_CODE[p] for p in parts[1:]]
    except KeyError as exc:
        raise ValueError(f"response {response!r}: unknown tile {exc.args[0]!r}") from None
    op = parts[0] if parts else ""
    shapes = {"PASS": (0,), "HU": (0,), "PLAY": (1,), "GANG": (0, 1), "BUGANG": (1,), "PENG": (1,), "CHI": (2,)}
    if op not in shapes or len(tiles) not in shapes[op]:
        raise ValueError(f"not a response: {response!r}")
    code = OP_NAMES.index(op)
    if op == "GANG":
        return encode(code, tiles[0] if tiles else -1, 0, claimed)
    a, b = (tiles + [0, 0])[:2]
    return encode(code, a, b, claimed=claimed)


def action_name(index: int) -> str:
    """A short readable name: ``PLAY W1``, ``CHI W2 (W1)`` (middle, claimed tile), ``PENG W5``, ..."""
    name, k = _block(index)
    c = BOTZONE_CODES
    if name == "CHI":
        m, t = _chow_tiles(k)
        return f"CHI {c[m]} ({c[t]})"
    return name if _SIZES[name] == 1 else f"{name} {c[k]}"


# ----------------------------------------------------------------------------- the observation

#: Discards kept per seat in the observation (a seat draws at most 21 tiles
#: and claims at most 4 times: at most 25 discards).
RIVER_LEN = 40

#: The observation of one seat: one int8 vector of OBS_SIZE, these named
#: fields in this order (name, shape, meaning).  -1 marks "none" / "hidden".
OBS_FIELDS = (
    ("hand", (34,), "the seat's own concealed tiles, count per tile"),
    ("melds", (4, 4, 4), "per seat (absolute 0-3) and meld slot: kind (-1 none, 0 chow, 1 pung, 2 melded kong, "
                         "3 added kong, 4 concealed kong), tile (a chow's lowest; -1 for another seat's concealed "
                         "kong), from seat (the discarder; -1 concealed), claimed tile (-1 concealed)"),
    ("river", (4, RIVER_LEN, 2), "per seat, its discards in order: tile, and the seat that claimed it (chow, "
                                 "pung, kong or Hu; -1 if nobody did); -1 past the last"),
    ("river_len", (4,), "discards per seat"),
    ("walls", (4,), "tiles left in each seat's wall"),
    ("shown", (34,), "shown copies per tile: unclaimed discards and melded tiles (not concealed kongs), the "
                     "fourth-tile count"),
    ("state", (6,), "seat, quan (prevalent wind), phase (0 draw, 1 turn, 2 claim, 3 rob, 4 over), current seat, "
                    "last tile (the discard / added kong in phases claim and rob, the drawn tile for the drawer "
                    "in phase turn; else -1), after kong (the current draw replaces a kong)"),
)


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _layout():
    out, off = {}, 0
    for name, shape, _ in OBS_FIELDS:
        out[name] = (off, shape)
        off += _size(shape)
    return out, off


#: Offset and shape of each field in the vector; the vector's length.
OBS_LAYOUT, OBS_SIZE = _layout()


def obs_fields(obs):
    """Named views of observation vector(s) ``obs`` (any leading dimensions,
    last OBS_SIZE): ``{"hand": (..., 34), "melds": (..., 4, 4, 4), ...}``."""
    lead = obs.shape[:-1]
    if obs.shape[-1:] != (OBS_SIZE,):
        raise ValueError(f"obs: last dimension {OBS_SIZE}, got shape {obs.shape}")
    return {name: obs[..., off:off + _size(shape)].reshape(lead + shape) for name, (off, shape) in OBS_LAYOUT.items()}
