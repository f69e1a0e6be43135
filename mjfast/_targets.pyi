"""Type stub of mjfast._targets (src/_targets.pyx): fan-aware distances.

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

# specs: [(nrank, allowed, chow, pung, pair), ...] bit masks over ranks
def build_restricted(specs: list[tuple[int, int, int, int, int]]) -> None: ...
def target_dists(c: _Counts, melds: int, shown: NDArray[np.uint8], F: NDArray[np.uint8],
                 RP: NDArray[np.int8], fan_of: NDArray[np.int16], rspec: NDArray[np.int8], rfan: NDArray[np.int16],
                 pallow: NDArray[np.uint8], pfan: NDArray[np.int16], form_fan: NDArray[np.int16],
                 out: NDArray[np.int16], useful: bool, useful_out: NDArray[np.int64]) -> None: ...
