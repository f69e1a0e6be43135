import os
import sys

import pytest

# the test helpers (oracle.py, handgen.py, vectors_mcr.py) live beside the tests
sys.path.insert(0, os.path.dirname(__file__))

#: The reference calculator (a dev dependency) is needed only by the tests
#: marked ``oracle``; without it they, and only they, are skipped.
try:
    import MahjongGB  # noqa: F401
    HAVE_ORACLE = True
except ImportError:
    HAVE_ORACLE = False


def pytest_collection_modifyitems(config, items):
    if HAVE_ORACLE:
        return
    skip = pytest.mark.skip(reason="needs the reference calculator: pip install -e '.[dev]' (pymahjonggb)")
    for item in items:
        if "oracle" in item.keywords:
            item.add_marker(skip)
