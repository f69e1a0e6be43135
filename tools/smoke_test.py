"""Smoke test of an installed mjfast (cibuildwheel's test-command, tools/check_wheel.sh).

Imports the compiled core, scores one hand and runs one batch call; prints
where mjfast was imported from.  Exit status 0 = the install works.
"""
import numpy as np

import mjfast

s = mjfast.score("[567m2][EEE1]45m678pFF6m", self_drawn=True)
assert s.total == 6 and not s.is_legal_win, s
assert [f.key for f in s.fans] == ["prevalent_wind", "seat_wind", "one_voided_suit", "self_drawn"], s
h = mjfast.to_counts("1112345678999m5m")
assert mjfast.is_win_batch(np.stack([h, h]), workers=2).all()
assert mjfast.waits("1112345678999m") == list(range(9))
print(f"mjfast {mjfast.__version__} OK from {mjfast.__file__} (OpenMP: {mjfast.openmp_enabled()})")
