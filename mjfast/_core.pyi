"""Type stub of the compiled core (src/_core.pyx and its .pxi includes): the
lookup tables, win / waits / shanten, the fan kernels, notation, records and
the discard ranking.

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

from mjfast.hand import Hand
from mjfast.rules.base import RuleSet

#: a notation string, a Hand, or the 34 concealed counts (any integer dtype)
_HandArg = Union[str, Hand, Sequence[int], NDArray[np.integer[Any]]]
#: wildcard_tiles=: a tile (name or index 0-33) or several
_WildTiles = Union[str, int, Iterable[Union[str, int]]]
#: 34 uint8 counts: a uint8 array, or any buffer of bytes (bytes, bytearray)
_Counts = Union[NDArray[np.uint8], bytes, bytearray]
#: a reading's packs: (type, tile index of the lowest tile, melded)
_Packs = list[tuple[int, int, int]]

# --- tables and build ---------------------------------------------------------

DEBUG_BUILD: Final[bool]
TABLE_FORMAT: Final[int]
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

def build_tables() -> float: ...
def table_nbytes() -> int: ...
def cache_dir() -> Optional[str]: ...
def table_source(kind: str = "tables") -> Optional[str]: ...
# PyCapsules of C function pointers for the other compiled modules
def _openmp_flag() -> bool: ...
def _set_slow(name: str, fn: Callable[..., Any]) -> None: ...

# --- one hand ----------------------------------------------------------------

def is_win_one(c: _Counts) -> bool: ...
def shanten_one(c: _Counts, melds: int, form: int) -> int: ...
def shanten_exact_one(c: _Counts, melds: int, form: int) -> int: ...
def waits_one(c: _Counts, melds: int) -> list[int]: ...
def useful_one(c: _Counts, melds: int, form: int) -> list[int]: ...
# (shanten, useful tiles as a 34-bit mask)
def useful_mask(c: _Counts, melds: int, form: int, held: _Counts) -> tuple[int, int]: ...
# (number of tiles, largest count)
def counts_info(c: _Counts) -> tuple[int, int]: ...
# [(form, ((kind, tile), ...)), ...]
def decompose_one(counts: _Counts, melds: int) -> list[tuple[str, tuple[tuple[str, int], ...]]]: ...
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

# --- checks used by the tests ------------------------------------------------

def unique_wait_check(counts: NDArray[np.uint8], n_melds: NDArray[np.uint8], win: NDArray[np.uint8],
                      out: NDArray[np.int8]) -> None: ...
def knit_wait_check(kind: int, set_tile: int, pair: int, win: int) -> tuple[int, int]: ...
def four_tile_waits_check(a: int, b: int, c: int, d: int) -> tuple[int, int]: ...

# --- batches -----------------------------------------------------------------

# src: any integer dtype but uint8 (the kernel is fused over these)
_Wide = Union[np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64]
def narrow_rows(src: NDArray[_Wide], dst: NDArray[np.uint8], flags: NDArray[np.uint8]) -> int: ...
def validate_batch(hands: NDArray[np.uint8], melds_given: NDArray[np.int64], mode: int,
                   melds_out: NDArray[np.uint8], err_out: NDArray[np.uint8]) -> int: ...
def is_win_checked(hands: NDArray[np.uint8], melds_given: NDArray[np.int64], out: NDArray[np.uint8],
                   err: NDArray[np.uint8], nthreads: int) -> int: ...
def waits_checked(hands: NDArray[np.uint8], melds_given: NDArray[np.int64], out: NDArray[np.uint8],
                  err: NDArray[np.uint8], nthreads: int) -> int: ...
def shanten_checked(hands: NDArray[np.uint8], melds_given: NDArray[np.int64], form: int, out: NDArray[np.int8],
                    err: NDArray[np.uint8], melds_out: NDArray[np.uint8], nthreads: int, exact: bool = False,
                    forms: int = 0x1F) -> int: ...
def shanten_batch(hands: NDArray[np.uint8], melds: NDArray[np.uint8], err: NDArray[np.uint8],
                  out: NDArray[np.int8], form: int, nthreads: int) -> int: ...
def shanten_plain_batch(hands: NDArray[np.uint8], melds: NDArray[np.uint8], form: int, out: NDArray[np.int8],
                        exact: bool = False) -> None: ...
def waits_batch(hands: NDArray[np.uint8], melds: NDArray[np.uint8], err: NDArray[np.uint8],
                out: NDArray[np.uint8], nthreads: int) -> int: ...
def discards_batch(hands: NDArray[np.uint8], melds: NDArray[np.uint8], err: NDArray[np.uint8],
                   seen: NDArray[np.uint8], sh_out: NDArray[np.int8], kinds_out: NDArray[np.uint8],
                   left_out: NDArray[np.uint8], nthreads: int) -> int: ...
def batch_row_codes(counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
                    win: NDArray[np.uint8], flags: NDArray[np.uint8], seat: NDArray[np.uint8],
                    rnd: NDArray[np.uint8], flowers: NDArray[np.uint8], added: NDArray[np.uint8],
                    skip: NDArray[np.uint8], code_out: NDArray[np.uint8]) -> int: ...

# --- fan scoring -------------------------------------------------------------

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

# --- fan targets -------------------------------------------------------------

# specs: [(nrank, allowed, chow, pung, pair), ...] bit masks over ranks
def build_restricted(specs: list[tuple[int, int, int, int, int]]) -> None: ...
def target_dists(c: _Counts, melds: int, shown: NDArray[np.uint8], F: NDArray[np.uint8],
                 RP: NDArray[np.int8], fan_of: NDArray[np.int16], rspec: NDArray[np.int8], rfan: NDArray[np.int16],
                 pallow: NDArray[np.uint8], pfan: NDArray[np.int16], form_fan: NDArray[np.int16],
                 out: NDArray[np.int16], useful: bool, useful_out: NDArray[np.int64]) -> None: ...

# --- notation, context, records ----------------------------------------------

# (0, melds, tiles, flowers, counts) -- melds and tiles tuples of codes, counts
# a list of 34 -- or (error code, a, b, c, d): the shape depends on the first
# item, which a type cannot say, so the rest is Any
def parse_notation(s: object, mode: int = 0) -> tuple[int, Any, Any, Any, Any]: ...
def parse_rows_fast(hands: list[Any], counts: NDArray[np.uint8], melds: NDArray[np.uint8],
                    n_melds: NDArray[np.uint8], win: NDArray[np.uint8], ok_out: NDArray[np.uint8]) -> None: ...
def parse_counts_fast(s: str, counts_out: NDArray[np.uint8], all_out: NDArray[np.uint8]) -> int: ...
def wind_code(v: object) -> int: ...
def flowers_code(v: object) -> int: ...
def context_code(self_drawn: object, fourth_tile: object, kong: object, last_tile: object, seat_wind: object,
                 round_wind: object, flowers: object) -> int: ...
def read_records(records: list[Any], counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
                 win: NDArray[np.uint8], flags: NDArray[np.uint8], seat: NDArray[np.uint8], rnd: NDArray[np.uint8],
                 flowers: NDArray[np.uint8], rule_flags: NDArray[np.uint8], status: NDArray[np.uint8],
                 ids: list[Any], kongs: Optional[list[Any]] = None) -> int: ...
def scan_lines(lines: list[bytes], counts: NDArray[np.uint8], melds: NDArray[np.uint8], n_melds: NDArray[np.uint8],
               win: NDArray[np.uint8], flags: NDArray[np.uint8], seat: NDArray[np.uint8], rnd: NDArray[np.uint8],
               flowers: NDArray[np.uint8], rule_flags: NDArray[np.uint8], status: NDArray[np.uint8],
               ids: list[Any], kongs: Optional[list[Any]] = None) -> None: ...
def write_results(ids: list[Any], py_rows: NDArray[np.uint8], totals: NDArray[np.int32], legal: NDArray[np.uint8],
                  fans: NDArray[np.uint8], order: NDArray[np.int32], frags: tuple[bytes, ...],
                  fmt: Callable[[int], bytes]) -> bytes: ...
