# The row order of mjfast._fans's MCR batch (score_batch_mcr): rows grouped
# by the shape of their melds, and the prefetch of the rows ahead.  Inline,
# compiled into the one module that cimports it.
from libc.stdint cimport uint8_t, int32_t
from fankernel.fan_ids cimport NFAN_TABLE

# Rows are scored grouped by the shape of their melds -- how many, and how
# many of them chows: 25 groups, each in row order -- every result written to
# its own row.  The kernel's branches follow the hand's shape (its melds, the
# chows of a reading, the special forms of a concealed hand), so on a batch
# of mixed hands they are mispredicted often; runs of hands of one shape let
# the predictors learn it.  Visited in that order, a row's columns are no
# longer where the hardware prefetcher looks, so each row's lines are
# requested ROW_AHEAD rows before it is scored (its tiles, melds and fan row:
# the one-byte columns share their lines with 63 neighbours).  Figures, and a
# staging copy that cost what it saved: benchmarks/README.md, "Rows grouped
# by the shape of their melds".
cdef enum:
    GROUP_CHUNK = 32768         # rows grouped at a time: a group's rows stay within 32,768 rows
    ROW_AHEAD = 16
    N_GROUPS = 26               # 25 shapes + the rows that are not scored

cdef extern from "bits.h":
    void _prefetch "mjfast_prefetch"(const void* p) nogil


cdef inline int _row_group(const uint8_t[::1] n_melds, const uint8_t[:, :, ::1] melds, const uint8_t[::1] invalid,
                           Py_ssize_t i) noexcept nogil:
    """5 * melds + chow melds (0..24); 25 for a row that is not scored
    (invalid, or a meld count out of range: _read_row refuses it).  No branch
    on the number of melds (a loop as long as it mispredicted about once a
    row): the four meld slots are always there to read."""
    cdef int m = n_melds[i]
    cdef const uint8_t* k = &melds[i, 0, 0]
    cdef int c = (((k[0] == 0) & (m > 0)) + ((k[3] == 0) & (m > 1)) + ((k[6] == 0) & (m > 2))
                  + ((k[9] == 0) & (m > 3)))
    return 25 if (invalid[i] != 0) | (m > 4) else 5 * m + c


cdef inline void _group_rows(const uint8_t[::1] n_melds, const uint8_t[:, :, ::1] melds, const uint8_t[::1] invalid,
                             Py_ssize_t c0, Py_ssize_t c1, Py_ssize_t* order, uint8_t* grp) noexcept nogil:
    """order[c0:c1] = the rows c0..c1-1 grouped (a stable counting sort).
    Each row's group is read from the caller's arrays once, into grp
    (c1 - c0 bytes): another thread may change those arrays while we run,
    and a group read again for the placing pass could differ from the one
    counted, placing a row past its group's range and leaving an order
    slot unwritten (a row index read out of bounds later)."""
    cdef Py_ssize_t start[N_GROUPS + 1]
    cdef Py_ssize_t i
    cdef int g
    for g in range(N_GROUPS + 1):
        start[g] = c0
    for i in range(c0, c1):
        g = _row_group(n_melds, melds, invalid, i)
        grp[i - c0] = <uint8_t>g
        start[g + 1] += 1
    for g in range(1, N_GROUPS + 1):
        start[g] += start[g - 1] - c0
    for i in range(c0, c1):
        g = grp[i - c0]
        order[start[g]] = i
        start[g] += 1


cdef inline void _prefetch_row(Py_ssize_t r, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                               const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                               const uint8_t[::1] rnd, const uint8_t[::1] flowers, int32_t[::1] totals_out,
                               uint8_t[:, ::1] fans_out, uint8_t[::1] errors_out, uint8_t[::1] legal_out,
                               uint8_t[::1] ignored_out) noexcept nogil:
    """Request the cache lines row r's scoring reads and writes."""
    _prefetch(&counts[r, 0])
    _prefetch(&counts[r, 33])
    _prefetch(&melds[r, 0, 0])
    _prefetch(&melds[r, 3, 2])
    _prefetch(&fans_out[r, 0])
    _prefetch(&fans_out[r, NFAN_TABLE - 2])
