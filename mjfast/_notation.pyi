"""Type stub of the compiled notation parser (src/_notation.pyx); mjfast._core
re-exports its names."""
from typing import Any, Callable, Optional

import numpy as np
from numpy.typing import NDArray

def parse_notation(s: object, mode: int = 0) -> tuple[int, Any, Any, Any, Any]: ...
def parse_rows_fast(hands: list[Any], counts: NDArray[np.uint8], melds: NDArray[np.uint8],
                    n_melds: NDArray[np.uint8], win: NDArray[np.uint8], ok_out: NDArray[np.uint8]) -> None: ...
def parse_counts_fast(s: str, counts_out: NDArray[np.uint8], all_out: NDArray[np.uint8]) -> int: ...
