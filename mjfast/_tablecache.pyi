"""Type stub of mjfast._tablecache (src/_tablecache.pyx): the lookup tables' disk cache.

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

TABLE_FORMAT: Final[int]
def cache_dir() -> Optional[str]: ...
def table_source(kind: str = "tables") -> Optional[str]: ...
