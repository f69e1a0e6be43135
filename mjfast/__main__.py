"""``python -m mjfast ...``: the same as the ``mjfast`` command."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
