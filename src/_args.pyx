# cython: language_level=3, auto_pickle=False
"""The argument checks of the game modules' Python entry points
(mjfast._engine, mjfast._seat, mjfast._game, mjfast._replay): an int in a
range, a seat, a 64-bit seed, a probability, an output array.  One place,
so that each bad argument is worded the same way by every entry point.

Python functions, imported by the callers: they run once per call, not per
step, and as inline functions of a .pxd they would read numpy (np) from
each caller's globals instead of their own.
"""
import numpy as np


def int_arg(x, what, lo, hi):
    """x as an int in [lo, hi]: TypeError if it is not an integer, ValueError if out of range."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what}: an int, got {type(x).__name__}")
    v = int(x)
    if not lo <= v <= hi:
        raise ValueError(f"{what}: {lo}-{hi}, got {v}")
    return v


def seat_arg(x, what):
    return int_arg(x, what, 0, 3)


def u64_arg(x, what):
    return int_arg(x, what, 0, 0xFFFFFFFFFFFFFFFF)


def prob_arg(x, what):
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what}: a probability (float 0-1), got {type(x).__name__}")
    v = float(x)
    if not 0.0 <= v <= 1.0:          # NaN too
        raise ValueError(f"{what}: a probability 0-1, got {v!r}")
    return v


def flat_out(out, tuple shape, dtype, str what):
    """out (a new array if None) as a flat view: it must be a writable,
    C-contiguous numpy array of that shape and dtype (the C code writes it
    unchecked)."""
    if out is None:
        return np.zeros(shape, dtype=dtype).reshape(-1)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what}: a numpy array, got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{what}: dtype {np.dtype(dtype).name}, got {out.dtype}")
    if out.shape != shape or not out.flags.c_contiguous:
        raise ValueError(f"{what}: a C-contiguous array of shape {shape}, got shape {out.shape}"
                         f"{'' if out.flags.c_contiguous else ' (not C-contiguous)'}")
    if not out.flags.writeable:
        raise TypeError(f"{what}: a writable array (this one is read-only)")
    return out.reshape(-1)
