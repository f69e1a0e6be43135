"""Type stub of the compiled record reader and result writer
(src/_records.pyx): the win context, records into batch columns, JSONL
results out; mjfast._core re-exports its names."""
from typing import Any, Callable, Optional

import numpy as np
from numpy.typing import NDArray

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
