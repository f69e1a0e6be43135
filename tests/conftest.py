import atexit
import os
import shutil
import sys
import tempfile

import pytest

# The compiled tables are saved to a disk cache after a build (src/_tablecache.pyx).
# The suite never reads or writes the user's own cache (mjfast.core.cache_dir()): this
# process and every interpreter it starts share one temporary directory, removed
# at exit.  tests/test_table_cache.py sets its own directory per test.
_CACHE_DIR = tempfile.mkdtemp(prefix="mjfast-test-cache-")
os.environ["MJFAST_CACHE_DIR"] = _CACHE_DIR
os.environ.pop("MJFAST_NO_CACHE", None)
atexit.register(shutil.rmtree, _CACHE_DIR, True)

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
