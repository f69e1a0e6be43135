"""The error codes of mjfast's array results, declared once: one table, one
message per code.

Three result arrays carry codes, each its own family (its numbers are the
values users read in that array, so they stay as they are):

* ``core``: the ``errors="mask"`` arrays of the batch functions of
  :mod:`mjfast.analysis.hands` (is_win_batch, shanten_batch, ...);
* ``batch``: ``BatchResult.errors`` of :func:`mjfast.score_batch`;
* ``records``: the checks of a :class:`mjfast.HandBatch` built from arrays,
  in the order they are made (the first failing one names the row's error).

A code's ``name`` is unique over the whole table, so the same number in two
families (2 is a bad size in ``core`` and a hand that does not win in
``batch``) can never be taken for the other: the Python constants are made
from the names (``mjfast.core.ERR_BAD_SIZE``, ``mjfast.batch_score.ERR_NOT_WINNING``).

Pure data: this module imports nothing of mjfast.
"""
from typing import NamedTuple

__all__ = ["Code", "CODES", "CORE", "BATCH", "RECORDS", "family", "messages", "code"]

CORE = "core"
BATCH = "batch"
RECORDS = "records"


class Code(NamedTuple):
    family: str
    name: str       # unique over the table
    value: int      # as the family's result arrays hold it
    message: str


CODES = (
    Code(CORE, "OK", 0, "ok"),
    Code(CORE, "TOO_MANY_COPIES", 1, "a tile count above 4"),
    Code(CORE, "BAD_SIZE", 2, "wrong number of tiles for the number of melds"),
    Code(CORE, "BAD_MELDS", 3, "melds must be 0..4"),
    Code(CORE, "NEGATIVE", 4, "a negative tile count"),
    Code(CORE, "BAD_WILDCARDS", 5, "a wildcard count outside 0..8"),
    Code(CORE, "FORM", 6, "the form does not apply beside the melds"),
    Code(CORE, "RULES", 7, "a tile the rule set does not play"),

    Code(BATCH, "ROW_OK", 0, ""),
    # the row's own message (BatchResult.messages) says what; this is the fallback
    Code(BATCH, "INVALID", 1, "invalid hand"),
    Code(BATCH, "NOT_WINNING", 2, "not a winning hand"),
    # the compiled pass's codes for rows whose message Python words (the row then reads INVALID)
    Code(BATCH, "ROW_CHANGED", 3, "a row changed after the batch was validated"),
    Code(BATCH, "ROW_STRICT", 4, "strict=True and a flag the rules drop"),

    Code(RECORDS, "MELDS_OVER_4", 1, "more than 4 melds"),
    Code(RECORDS, "MELD_KIND", 2, "meld kind must be 0 (chow), 1 (pung) or 2 (kong)"),
    Code(RECORDS, "MELD_TILE", 3, "meld tile out of range"),
    Code(RECORDS, "CHOW_START", 4, "a chow must start on a suited 1-7"),
    Code(RECORDS, "CONCEALED_NOT_KONG", 5, "only a kong can be concealed"),
    Code(RECORDS, "FIFTH_COPY", 6, "a fifth copy of a tile"),
    Code(RECORDS, "ROW_SIZE", 7, "a winning hand has 14 tiles counting 3 per meld"),
    Code(RECORDS, "WIN_TILE_RANGE", 8, "winning tile out of range"),
    Code(RECORDS, "WIN_TILE_NOT_HELD", 9, "the winning tile is not among the concealed tiles"),
    Code(RECORDS, "FLAG_BITS", 10, "unknown flag bits"),
    Code(RECORDS, "WINDS", 11, "winds must be 0-3"),
    Code(RECORDS, "FLOWERS", 12, "flowers must be 0-8"),
    Code(RECORDS, "ADDED", 13, "added must be 0, or 1-3 on a melded kong (the discarder of the pung it was added to)"),
)


def family(name: str) -> dict:
    """{code name: value} of one family."""
    return {c.name: c.value for c in CODES if c.family == name}


def messages(name: str) -> dict:
    """{value: message} of one family."""
    return {c.value: c.message for c in CODES if c.family == name}


def code(name: str) -> Code:
    """The code of a name."""
    for c in CODES:
        if c.name == name:
            return c
    raise KeyError(name)
