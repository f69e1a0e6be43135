"""``python -m mjfast.cli ...``: the same as the ``mjfast`` command (and ``python -m mjfast``)."""
import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
