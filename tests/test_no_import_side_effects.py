"""The compiled engine's MCR fan table is data of the compiled module
itself (generated from mjfast/rules/mcr/table.py at build time and loaded when
mjfast._fans is initialised), not a side effect of importing a Python module."""
import ast
import os
import subprocess
import sys

import numpy as np

import mjfast
from mjfast import _fans
from mjfast.rules.mcr import DEMOTES_FULLY_CONCEALED_HAND, MCR

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# load the scoring module (mjfast._fans, with the compiled modules it cimports) alone: a bare package module stands in for mjfast (its
# __init__, which imports mjfast.score, never runs), then score one hand
_CHILD = r"""
import importlib.machinery, importlib.util, sys, types
import numpy as np
pkg = types.ModuleType("mjfast"); pkg.__path__ = [sys.argv[1]]
sys.modules["mjfast"] = pkg
path = sys.argv[2]
spec = importlib.util.spec_from_file_location("mjfast._fans", path,
                                              loader=importlib.machinery.ExtensionFileLoader("mjfast._fans", path))
core = importlib.util.module_from_spec(spec); sys.modules["mjfast._fans"] = core
spec.loader.exec_module(core)
buf = np.zeros(100, dtype=np.int16)
total = core.score_str("123m456m789m123p5p5p", 0, 0, 0, 0, buf, 0)
print(total, sorted(m for m in sys.modules if m.startswith("mjfast")))
"""


def test_the_kernel_scores_without_mjfast_score_imported():
    out = subprocess.run([sys.executable, "-c", _CHILD, os.path.dirname(mjfast.__file__), _fans.__file__],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    total, mods = out.stdout.split(" ", 1)
    assert int(total) == mjfast.score("123m456m789m123p5p5p").total == 23
    assert "mjfast.score" not in mods and "mjfast.rules" not in mods


def test_no_python_module_loads_the_fan_table():
    for d, _, files in os.walk(os.path.join(ROOT, "mjfast")):
        for f in files:
            if f.endswith(".py"):
                text = open(os.path.join(d, f), encoding="utf-8").read()
                calls = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Attribute)
                         and n.attr == "set_fan_table"]
                assert not calls, os.path.join(d, f)


def test_the_generated_table_is_the_data():
    # the generated tuples _core loads at its initialisation: every fan's
    # points, exclusions and demotion, as mjfast/rules/mcr/table.py states them
    n = max(MCR.ids) + 1
    from mjfast._fans import MCR_TABLE_DEMOTE, MCR_TABLE_MASKS, MCR_TABLE_POINTS
    assert len(MCR_TABLE_POINTS) == len(MCR_TABLE_MASKS) == len(MCR_TABLE_DEMOTE) == n
    for f in MCR:
        assert MCR_TABLE_POINTS[f.id] == f.points
        want = [0, 0]
        for k in f.excludes:
            j = MCR[k].id
            want[j // 64] |= 1 << (j % 64)
        assert list(MCR_TABLE_MASKS[f.id]) == want, f.key
        assert MCR_TABLE_DEMOTE[f.id] == (f.key in DEMOTES_FULLY_CONCEALED_HAND)
    assert np.count_nonzero(MCR_TABLE_POINTS) == len(MCR)


# the same for the two-player table: _core alone scores a two-player hand
_CHILD_TP = _CHILD.split("buf = np.zeros")[0] + r"""
counts = np.zeros(34, np.uint8)
for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 31, 31):
    counts[t] += 1
fans = np.zeros(len(core.TP_FAN_KEYS), np.int16)
total, form, items = core.two_player_score_one(counts, np.zeros((4, 4), np.uint8), 0, 31, 0, 0, fans)
print(total, sorted(m for m in sys.modules if m.startswith("mjfast")))
"""


def test_the_two_player_kernel_scores_without_its_rule_set_imported():
    out = subprocess.run([sys.executable, "-c", _CHILD_TP, os.path.dirname(mjfast.__file__), _fans.__file__],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    total, mods = out.stdout.split(" ", 1)
    # 1m-9m (a pure straight of characters) EEE + CC, won on C: the rule set's own total without flowers
    want = mjfast.score("123456789mEEECC", rules="two_player")
    assert int(total) == want.total > 0
    assert "mjfast.rules" not in mods


def test_no_python_module_loads_the_two_player_table():
    for d, _, files in os.walk(os.path.join(ROOT, "mjfast")):
        for f in files:
            if f.endswith(".py"):
                text = open(os.path.join(d, f), encoding="utf-8").read()
                assert "set_two_player_table" not in text, os.path.join(d, f)


def test_the_generated_two_player_table_is_the_data():
    from mjfast._fans import TP_FAN_KEYS, TP_TABLE_MASKS, TP_TABLE_POINTS
    from mjfast.rules.two_player.table import TWO_PLAYER_TABLE as TP
    assert TP_FAN_KEYS[1:] == TP.keys
    assert len(TP_TABLE_POINTS) == len(TP_TABLE_MASKS) == max(TP.ids) + 1
    for f in TP:
        assert TP_TABLE_POINTS[f.id] == f.points
        want = 0
        for k in f.excludes:
            want |= 1 << TP[k].id
        assert TP_TABLE_MASKS[f.id] == want, f.key
