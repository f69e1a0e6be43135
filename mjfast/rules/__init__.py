"""Rule sets as data.

``mjfast.rules.mcr`` holds the Chinese Official (MCR) fan table.  Other rule
sets are built as new :class:`FanTable` objects (a table is immutable).
"""

from .mcr import (
    DEMOTES_FULLY_CONCEALED_HAND,
    FORMS,
    MCR,
    REFERENCE_ZH,
    Fan,
    FanTable,
    describe,
)

__all__ = [
    "Fan",
    "FanTable",
    "MCR",
    "DEMOTES_FULLY_CONCEALED_HAND",
    "REFERENCE_ZH",
    "FORMS",
    "describe",
]
