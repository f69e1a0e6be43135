"""The MCR rule sets (mcr and dazhong) on the compiled MCR engine.

``mjfast.rules.mcr`` is the MCR fan table (:mod:`~mjfast.rules.mcr.table`,
re-exported here: :data:`MCR`, :class:`Fan`, :class:`FanTable`, ...); the
package holds the rule sets themselves (:mod:`~mjfast.rules.mcr.sets`:
``MCR_RULES``, ``DAZHONG``, their options, variant bits and settlement) and
their engine (:mod:`~mjfast.rules.mcr.engine`, imported on first use: it is
the scoring code itself, which imports this table).  The predicates are
compiled (src/fankernel/mcr_fans.pxd, mcr_score.pxd).
"""
from .table import (  # noqa: F401  (the table's public names, and key_from_name for the command line)
    DEMOTES_FULLY_CONCEALED_HAND,
    FORMS,
    MCR,
    REFERENCE_ZH,
    Fan,
    FanTable,
    describe,
    key_from_name,
)
from .table import __all__  # noqa: F401
