"""Type stub of mjfast._decide (src/_decide.pyx): the decisions -- shanten and
useful tiles of one hand, the discard ranking.

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

# (a stub names the data model and the rule-set type its Python front ends
# take: types for checkers, never imported at run time)
from mjfast.hand import Hand
from mjfast.rules.base import RuleSet

#: a notation string, a Hand, or the 34 concealed counts (any integer dtype)
_HandArg = Union[str, Hand, Sequence[int], NDArray[np.integer[Any]]]
#: wildcard_tiles=: a tile (name or index 0-33) or several
_WildTiles = Union[str, int, Iterable[Union[str, int]]]
#: 34 uint8 counts: a uint8 array, or any buffer of bytes (bytes, bytearray)
_Counts = Union[NDArray[np.uint8], bytes, bytearray]

def _set_slow(name: str, fn: Callable[..., Any]) -> None: ...
# (shanten, useful tiles as a 34-bit mask)
def useful_mask(c: _Counts, melds: int, form: int, held: _Counts) -> tuple[int, int]: ...
def shanten(hand: _HandArg, *, melds: Optional[int] = None, form: Optional[str] = None, exact: bool = False,
            rules: Union[str, RuleSet, None] = None, wildcards: Optional[int] = None,
            wildcard_tiles: Optional[_WildTiles] = None, wild_fifth: bool = False) -> int: ...
def useful_tiles(hand: _HandArg, *, melds: Optional[int] = None, form: Optional[str] = None,
                 rules: Union[str, RuleSet, None] = None, wildcards: Optional[int] = None,
                 wildcard_tiles: Optional[_WildTiles] = None, wild_fifth: bool = False) -> list[int]: ...
def best_discards(hand: _HandArg, *, melds: Optional[int] = None, visible: Optional[ArrayLike] = None,
                  **options: Any) -> list[Discard]: ...
def discards_core(c: _Counts, melds: int, held: _Counts,
                  seen: _Counts) -> list[Discard]: ...
@final
class Discard(structseq[Any], tuple[int, int, int, int, Optional[bool], Optional[int]]):
    """One answer of best_discards (a struct sequence built in src/include/discard.h;
    its __module__ is mjfast.bots)."""
    if sys.version_info >= (3, 10):
        __match_args__: Final = ("tile", "shanten", "useful_kinds", "useful_left")
    @property
    def tile(self) -> int: ...
    @property
    def shanten(self) -> int: ...
    @property
    def useful_kinds(self) -> int: ...
    @property
    def useful_left(self) -> int: ...
    @property
    def below_8(self) -> Optional[bool]: ...
    @property
    def fan_shanten(self) -> Optional[int]: ...
def discards_batch(hands: NDArray[np.uint8], melds: NDArray[np.uint8], err: NDArray[np.uint8],
                   seen: NDArray[np.uint8], sh_out: NDArray[np.int8], kinds_out: NDArray[np.uint8],
                   left_out: NDArray[np.uint8], nthreads: int) -> int: ...
