"""The tests' hand generators: mjfast.testing's, with the flags as drawn.

The differential tests were built on this stream (kong / fourth-tile flags
that the hand contradicts included, so that the dropped-flag path is
exercised); tests/data/mcr_million_digests.json pins its first million
records' results.  ``random_hands`` and ``BIASES`` are mjfast.testing's.
"""
from __future__ import annotations

from typing import Iterator, List

from mjfast import testing as _testing
from mjfast.testing import BIASES, random_hands

__all__ = ["random_winning_records", "iter_winning_records", "random_hands", "BIASES"]


def iter_winning_records(n: int, seed: int = 0) -> Iterator[dict]:
    """Yield n winning hand records (deterministic for a given seed)."""
    return _testing.iter_winning_records(n, seed, contradictions=True)


def random_winning_records(n: int, seed: int = 0) -> List[dict]:
    """A list of n winning hand records."""
    return list(iter_winning_records(n, seed))
