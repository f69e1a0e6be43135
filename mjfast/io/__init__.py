"""Reading and writing hand records.

:mod:`mjfast.io.jsonl` scores JSON-lines files of hand records (the format in
docs/notation.md): one record in, one result line out, in order.
"""
from .jsonl import (
    JSON_BACKEND,
    RecordError,
    process_jsonl,
    score_jsonl,
    score_records,
    validate_record,
)

__all__ = [
    "JSON_BACKEND",
    "RecordError",
    "process_jsonl",
    "score_jsonl",
    "score_records",
    "validate_record",
]
