# The shape checks of the compiled entry points' array arguments, shared by
# the modules that take batch columns (mjfast._core, mjfast._notation,
# mjfast._records): inline, compiled into each (no module of its own).
from libc.stdint cimport uint8_t


cdef inline int _check_len(Py_ssize_t got, Py_ssize_t want, str name) except -1:
    if got != want:
        raise ValueError(f"{name} has {got} rows or entries, expected {want}")
    return 0


cdef inline Py_ssize_t _check_rows(const uint8_t[:, ::1] a, str name) except -1:
    """The number of rows of an (N, 34) array."""
    if a.shape[1] != 34:
        raise ValueError(f"{name} must have 34 columns (one per tile kind), got {a.shape[1]}")
    return a.shape[0]
