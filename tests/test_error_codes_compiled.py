"""The compiled code reads the error table (mjfast/spec/errors.py) too: its
codes are the table's, generated into src/error_codes.pxd, and its guards
word their ValueError with the table's message of the code."""
import os
import re

import numpy as np
import pytest

from mjfast import _core, _fans
from mjfast.spec import errors as E

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_generated_constants_are_the_table():
    text = open(os.path.join(ROOT, "src", "error_codes.pxd"), encoding="utf-8").read()
    consts = {m.group(1): int(m.group(2)) for m in re.finditer(r"^    ERR_(\w+) = (\d+)$", text, re.M)}
    assert consts == {c.name: c.value for c in E.CODES}
    # no code is written as a number in the compiled checks any more
    checks = open(os.path.join(ROOT, "src", "_core.pyx"), encoding="utf-8").read()
    body = checks[checks.index("cdef inline int _batch_row_code"):checks.index("def batch_row_codes")]
    assert re.findall(r"return (\d+)", body) == ["0"]          # (0: no error)
    fan_entry = open(os.path.join(ROOT, "src", "_fans.pyx"), encoding="utf-8").read()
    assert "DEF ROW_CHANGED" not in fan_entry and "DEF ROW_STRICT" not in fan_entry


def _raises(fn, *args):
    with pytest.raises(ValueError) as e:
        fn(*args)
    return str(e.value)


def test_guards_word_their_errors_from_the_table():
    core, rec = E.messages(E.CORE), E.messages(E.RECORDS)
    c = np.zeros(34, np.uint8)
    c[0] = 5
    assert _raises(_fans.decompose_one, c, 0) == core[E.code("TOO_MANY_COPIES").value]
    ok = np.zeros(34, np.uint8)
    ok[:7] = 2
    assert _raises(_core.shanten_one, ok, 5, -1) == core[E.code("BAD_MELDS").value] + ", got 5"
    assert _raises(_core.shanten_one, ok[:], 1, -1).startswith(core[E.code("BAD_SIZE").value] + ": 14 tiles")
    m = np.zeros((4, 3), np.uint8)
    buf = np.zeros(84, np.int16)
    assert _raises(_fans.score_one, ok, m, 0, 0, 16, 0, 0, 0, buf).startswith(rec[E.code("FLAG_BITS").value] + ": 16")
    assert _raises(_fans.score_one, ok, m, 0, 0, 0, 4, 0, 0, buf) == rec[E.code("WINDS").value] + ", got 4, 0"
    assert _raises(_fans.score_one, ok, m, 0, 0, 0, 0, 0, 9, buf) == rec[E.code("FLOWERS").value] + ", got 9"
    assert _raises(_fans.score_one, ok, m, 0, 40, 0, 0, 0, 0, buf).startswith(rec[E.code("WIN_TILE_RANGE").value])
