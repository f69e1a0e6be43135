"""The old path of :mod:`mjfast.rules.zhuji.table` (Zhuji's 台 items), kept
working: the rule set is a package now (CHANGES.md, "Unreleased")."""
from .zhuji.table import ORDINARY, SPECIAL, ZHUJI_ITEMS, ZHUJI_TABLE, TaiItem, __all__  # noqa: F401
