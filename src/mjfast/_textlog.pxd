# The interface of mjfast._textlog (src/_textlog.pyx), the text archive's
# tokenizer and pull reader, for the replay driver (mjfast._replay): the
# match record the driver replays (LMatch and its events LEv, filled from
# the bytes here or from a read Match by the driver itself) and the reader
# that fills it one match at a time.
from libc.stdint cimport uint8_t, int8_t

cdef enum:
    LR_MAXTOK = 40          # words of a line (a Deal line has 16; more: the Python reader reads the match)
    LR_MAXEV = 512          # events the text reader holds (a legal game has fewer than 350)
    LK_DRAW = 1
    LK_PLAY = 2
    LK_ANGANG = 3
    LK_BUGANG = 4
    LK_CHI = 5
    LK_PENG = 6
    LK_GANG = 7
    LK_HU = 8
    LK_BUHUA = 9
    LK_OTHER = 10           # an event of no known kind (a hand-built Match)
    END_HU = 1
    END_HUANG = 2
    END_ERROR = 3

# what lr_next found
cdef enum:
    LR_END = 0              # the chunk is read
    LR_MATCH = 1            # m holds a match: bytes m.b0:stop
    LR_TEXT = 2             # bytes 0:stop, before the first Match line (the Python reader refuses them)

cdef struct LEv:
    int pos                 # line number / log index
    int8_t seat
    int8_t kind
    int8_t tile             # -1: not written (a Hu)
    int8_t disc             # Chi / Peng: the claimer's discard
    int8_t nign             # losing claims (Ignore clauses / a match JSON's responses), at most 4 kept
    int8_t ig_seat[4]
    int8_t ig_kind[4]       # 0: the answer is given (a match JSON's response) in ig_op/a/b
    int8_t ig_tile[4]
    int ig_op[4]
    int ig_a[4]
    int ig_b[4]

cdef struct LMatch:
    Py_ssize_t b0           # text: byte offset of the Match line
    int line                # text: its line number
    Py_ssize_t id0, id1     # text: the id's bytes
    int quan
    uint8_t deals[4][13]
    int dealt[4]
    bint known              # walls holds the match's walls
    uint8_t walls[4][34]
    int nev, cap
    int pending             # text: ev[nev] is a Chi / Peng waiting for its Play line
    int end                 # 0 still going, END_*
    int end_pos
    int error_seat          # END_ERROR: the offender
    bint check_error        # END_ERROR: the judge refused this answer (WA / WH), the engine must too
    int err_turn[3]         #   the answer as (op, a, b), read as an answer to a draw
    int err_claim[3]        #   and as an answer to a discard / an added kong
    Py_ssize_t fan0, fan1   # text: the Fan line (-1: none)
    int fan_line
    int has_score
    int score[4]
    int bad                 # text: anything unusual: the Python reader reads this match
    # the driver's answer (the reader leaves them 0)
    int fail, fail_ev, fail_a, fail_b
    int out_seat            # END_ERROR: the seat the error rule settled
    int ans[3]              # F_CLAIM_TO: the answer the rules gave the claim to
    LEv* ev

# The reader's place in a chunk (lr_open sets it; the fields are lr_next's).
cdef struct LReader:
    const uint8_t* d
    Py_ssize_t n
    Py_ssize_t max_line
    Py_ssize_t pos          # the next line's start
    int lineno              # the last line's number
    bint eof                # every line is read
    bint active             # m holds a match begun
    bint pre_text           # a word before the first Match line
    # a Match line read while m still held the match before it: the next
    # call begins its match
    Py_ssize_t next_b0      # -1: none
    Py_ssize_t next_id0, next_id1
    int next_line
    bint next_bad

# m emptied for a new match (its ev and cap kept; quan and fan0 -1)
cdef void new_match(LMatch* m) noexcept nogil
# r at the start of d[0:n] (a chunk that begins at a line start, first_line
# its first line's number; a line of more than max_line bytes makes its
# match bad)
cdef void lr_open(LReader* r, const uint8_t* d, Py_ssize_t n, int first_line, Py_ssize_t max_line) noexcept nogil
# the next segment of the chunk: LR_MATCH (m filled; it ends at stop),
# LR_TEXT (bytes 0:stop) or LR_END; between calls m is the caller's (the
# next call empties it before it begins a match)
cdef int lr_next(LReader* r, LMatch* m, Py_ssize_t* stop) noexcept nogil
