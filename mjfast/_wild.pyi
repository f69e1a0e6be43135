"""Type stub of the compiled wildcard analysis (src/_wild.pyx): win, shanten
and waits of hands with k wildcards.  A hand is 34 uint8 counts (the real
tiles), ``k`` its wildcards, ``melds`` its melds; ``form`` -1 (any) or 0-4;
the batch functions fill ``out`` / ``err`` (one entry per row; err 0 is ok)
and return the number of bad rows."""
from typing import Optional, Union

import numpy as np
from numpy.typing import NDArray

#: 34 uint8 counts: a uint8 array, or any buffer of bytes (bytes, bytearray)
_Counts = Union[NDArray[np.uint8], bytes, bytearray]

MAX_WILDCARDS: int

def build_win_tables() -> None: ...
def build_shanten_tables() -> None: ...
def is_win_one(c: _Counts, k: int, melds: int, fifth: bool) -> bool: ...
def shanten_one(c: _Counts, k: int, melds: int, form: int, fifth: bool,
                caps: Optional[_Counts] = None) -> int: ...
# a 35-bit mask: bit t, drawing tile t completes the hand; bit 34, a drawn wildcard does
def waits_one(c: _Counts, k: int, melds: int, fifth: bool) -> int: ...
# (shanten, the useful tiles as a 35-bit mask as waits_one's)
def useful_one(c: _Counts, k: int, melds: int, form: int, fifth: bool,
               caps: Optional[_Counts] = None) -> tuple[int, int]: ...
# each substitution as 34 bytes: the copies of each kind the wildcards stand for
def win_substitutions(c: _Counts, k: int, melds: int, limit: int = -1,
                      caps: Optional[_Counts] = None) -> list[bytes]: ...
def is_win_batch(hands: NDArray[np.uint8], ks: NDArray[np.uint8], melds_given: NDArray[np.int64],
                 has_given: bool, fifth: bool, out: NDArray[np.uint8], err: NDArray[np.uint8],
                 nthreads: int) -> int: ...
def shanten_batch(hands: NDArray[np.uint8], ks: NDArray[np.uint8], melds_given: NDArray[np.int64],
                  has_given: bool, form: int, fifth: bool, out: NDArray[np.int8], err: NDArray[np.uint8],
                  nthreads: int) -> int: ...
def waits_batch(hands: NDArray[np.uint8], ks: NDArray[np.uint8], melds_given: NDArray[np.int64],
                has_given: bool, fifth: bool, out: NDArray[np.uint8], err: NDArray[np.uint8],
                nthreads: int) -> int: ...
