"""Type stub of mjfast._fans (src/_fans.pyx): the scoring step -- the fan
kernel's entry points, the fan tables, the MCR settlement.

A hand is 34 uint8 counts (tile index 0-33) beside ``melds`` melds; a batch
is an (N, 34) uint8 array, its columns (N,) arrays.  The functions taking
``out`` / ``err`` arrays fill them in place (C-contiguous, of the dtype
given here: the compiled side takes typed memoryviews and refuses another
dtype) and return a count of bad rows or None; ``form`` is -1 (every form)
or 0-4, ``nthreads`` the OpenMP threads."""
import sys
from typing import Any, Callable, Final, Iterable, Optional, Sequence, Union

import numpy as np
from _typeshed import structseq
from numpy.typing import ArrayLike, NDArray
from typing_extensions import final

#: 34 uint8 counts: a uint8 array, or any buffer of bytes (bytes, bytearray)
_Counts = Union[NDArray[np.uint8], bytes, bytearray]
#: a reading's packs: (type, tile index of the lowest tile, melded)
_Packs = list[tuple[int, int, int]]

MCR_MIN_POINTS: Final[int]
#: the fan keys by compiled fan id (index 0: None)
FAN_KEYS_COMPILED: tuple[Optional[str], ...]
TP_FAN_KEYS: tuple[Optional[str], ...]
MCR_TABLE_POINTS: tuple[int, ...]
#: per fan id, the two 64-bit words of its exclusion mask
MCR_TABLE_MASKS: tuple[tuple[int, int], ...]
MCR_TABLE_DEMOTE: tuple[int, ...]
TP_TABLE_POINTS: tuple[int, ...]
TP_TABLE_MASKS: tuple[int, ...]
#: {rule set: (variant code, its fan keys by id)} of the compiled scorers
ENGINES: dict[str, tuple[int, tuple[Optional[str], ...]]]
# [(form, ((kind, tile), ...)), ...]
def decompose_one(counts: _Counts, melds: int) -> list[tuple[str, tuple[tuple[str, int], ...]]]: ...

def unique_wait_check(counts: NDArray[np.uint8], n_melds: NDArray[np.uint8], win: NDArray[np.uint8],
                      out: NDArray[np.int8]) -> None: ...
def knit_wait_check(kind: int, set_tile: int, pair: int, win: int) -> tuple[int, int]: ...
def four_tile_waits_check(a: int, b: int, c: int, d: int) -> tuple[int, int]: ...

def set_fan_table(points: ArrayLike, masks: ArrayLike, demote: ArrayLike) -> None: ...
# (total or -1 / -3, form, the reading's packs)
def score_one(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: int, win: int, flags: int, seat: int,
              rnd: int, flowers: int, fans_out: NDArray[np.int16], variant: int = 0) -> tuple[int, int, _Packs]: ...
def score_str(s: str, flags: int, seat: int, rnd: int, flowers: int, out: NDArray[np.int16], variant: int = 0,
              dropped_out: Optional[NDArray[np.uint8]] = None) -> int: ...
def score_batch_kernel(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
                       win: NDArray[np.uint8], flags: NDArray[np.uint8], seat: NDArray[np.uint8],
                       rnd: NDArray[np.uint8], flowers: NDArray[np.uint8], skip: NDArray[np.uint8],
                       totals_out: NDArray[np.int32], fans_out: NDArray[np.uint8], nthreads: int,
                       variant: int = 0) -> None: ...
def score_batch_mcr(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
                    win: NDArray[np.uint8], flags: NDArray[np.uint8], seat: NDArray[np.uint8],
                    rnd: NDArray[np.uint8], flowers: NDArray[np.uint8], invalid: NDArray[np.uint8],
                    totals_out: NDArray[np.int32], fans_out: NDArray[np.uint8], errors_out: NDArray[np.uint8],
                    legal_out: NDArray[np.uint8], ignored_out: NDArray[np.uint8], nthreads: int, variant: int = 0,
                    min_points: int = 8, strict: bool = False) -> int: ...
def impossible_flags(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: int, win: int,
                     flags: int) -> int: ...
def impossible_flags_batch(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
                           win: NDArray[np.uint8], flags: NDArray[np.uint8], out: NDArray[np.uint8]) -> None: ...
def two_player_score_one(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: int, win: int, flags: int,
                         opts: int, fans_out: NDArray[np.int16]) -> tuple[int, int, _Packs]: ...
def two_player_batch_kernel(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
                            added: NDArray[np.uint8], win: NDArray[np.uint8], flags: NDArray[np.uint8],
                            rule_flags: NDArray[np.uint8], skip: NDArray[np.uint8], opts: int,
                            totals_out: NDArray[np.int32], fans_out: NDArray[np.uint8],
                            dropped_out: NDArray[np.uint8], nthreads: int) -> None: ...
# the point changes (winner, left, opposite, right)
def settle_mcr(total: int, self_drawn: bool, discarder: int) -> tuple[int, int, int, int]: ...
