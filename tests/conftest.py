import os
import sys

# the test helpers (oracle.py, handgen.py, vectors_mcr.py) live beside the tests
sys.path.insert(0, os.path.dirname(__file__))
