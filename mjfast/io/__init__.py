"""Reading and writing hand records.

:mod:`mjfast.io.jsonl` scores JSON-lines files of hand records (the format in
docs/notation.md): one record in, one result line out, in order;
:mod:`mjfast.io.jsontext` reads JSON text (orjson when installed) and words
what is not JSON.  The names below load :mod:`mjfast.io.jsonl` on first use:
the record validator (``mjfast.scoring.records``) reads its JSON through
``jsontext`` when ``import mjfast`` runs, and ``jsonl`` builds on it.
"""

__all__ = [
    "JSON_BACKEND",
    "RecordError",
    "process_jsonl",
    "score_jsonl",
    "score_records",
    "validate_record",
]


def __getattr__(name):
    if name in __all__:
        from . import jsonl   # first use; see the module's note
        return getattr(jsonl, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
