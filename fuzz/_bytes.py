"""A tiny deterministic reader of fuzzer bytes.

The harnesses take their decisions from the input bytes through this class
rather than ``atheris.FuzzedDataProvider`` so that the checks run without
atheris: ``tests/test_fuzz_regressions.py`` replays saved inputs through the
same ``check`` functions in the normal test suite.
"""
import sys


class Bytes:
    def __init__(self, data: bytes):
        self.data = bytes(data)
        self.pos = 0

    def left(self) -> int:
        return len(self.data) - self.pos

    def byte(self) -> int:
        """The next byte (0 once the input is used up)."""
        if self.pos >= len(self.data):
            return 0
        b = self.data[self.pos]
        self.pos += 1
        return b

    def int(self, lo: int, hi: int) -> int:
        """An int in [lo, hi] from up to 8 bytes."""
        span = hi - lo + 1
        v = 0
        n = 0
        while (1 << (8 * n)) < span and n < 8:
            v = (v << 8) | self.byte()
            n += 1
        return lo + v % span

    def bool(self) -> bool:
        return bool(self.byte() & 1)

    def pick(self, seq):
        return seq[self.int(0, len(seq) - 1)]

    def take(self, n: int) -> bytes:
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out

    def rest(self) -> bytes:
        return self.take(self.left())


def fuzz_main(check, *modules: str) -> None:
    """Run ``check`` under atheris, instrumenting mjfast and ``modules``.

    atheris is imported here, not at module level, so that the harnesses'
    ``check`` functions stay importable (and replayable by the test suite)
    without it."""
    import importlib

    import atheris

    with atheris.instrument_imports():
        for name in ("mjfast",) + modules:
            importlib.import_module(name)
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()
