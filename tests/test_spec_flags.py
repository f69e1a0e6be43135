"""The context flags are declared once (mjfast/spec/flags.py): the compiled
constants are generated from it, every rule set's declaration agrees with it,
and a flag added there is reported as ignored by the rule sets that do not
read it, with nothing else edited."""
import ast
import dataclasses
import os
import re

import numpy as np
import pytest

import mjfast
from mjfast import _core
from mjfast import rules as R
from mjfast.batch_score import RULE_FLAG_BITS
from mjfast.records import FLAG_BITS, FLAG_NAMES
from mjfast.rules.base import ignored_flags, strict_message
from mjfast.spec import flags as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# one winning hand per rule set (each scores without an error, no flowers)
HANDS = {
    "mcr": "123m456m789m123p5p5p",
    "dazhong": "123m456m789m123p5p5p",
    "two_player": "123m456m789mEEE5m5m",
    "shanghai_old": "123m456m789m123p5p5p",
    "zhuji": "EEECCC123m789m5m5m",
    "guizhou": "11112233445566p",
}


def _generated():
    with open(os.path.join(ROOT, "src", "fankernel", "flag_bits.pxd"), encoding="utf-8") as f:
        text = f.read()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+([A-Z_]+) = (\d+)\s*$", text, re.M)}


def test_generated_constants_equal_the_spec():
    want = {F.c_name(f): f.bit for f in F.FLAGS.values()}
    assert _generated() == want


def test_the_compiled_code_packs_the_spec_bits():
    # the win byte as the compiled context packer writes it, one flag at a time
    for k, name in enumerate(FLAG_NAMES):
        args = [False] * 4
        args[k] = True
        assert _core.context_code(*args, "E", "E", 0) & 15 == F.FLAGS[name].bit
    # the rule byte as the compiled record reader writes it (the four it reads itself)
    hand = "123m456m789mEEE5m5m"
    for name in ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start"):
        b = mjfast.HandBatch.from_records([{"hand": hand, name: True}])
        assert int(b.rule_flags[0]) == F.FLAGS[name].bit


def test_the_python_tables_are_the_spec():
    assert FLAG_NAMES == ("self_drawn", "fourth_tile", "kong", "last_tile")
    assert FLAG_BITS == {n: f.bit for n, f in F.FLAGS.items() if f.byte == F.WIN}
    assert RULE_FLAG_BITS == {n: f.bit for n, f in F.FLAGS.items() if f.byte == F.RULE}


def test_the_spec_module_imports_nothing_of_mjfast():
    # setup.py loads it by path before the package is built
    tree = ast.parse(open(F.__file__, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("mjfast"), ast.dump(node)
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("mjfast") for a in node.names)


def test_bits_are_unique_per_byte():
    for byte in (F.WIN, F.RULE):
        bits = [f.bit for f in F.FLAGS.values() if f.byte == byte]
        assert len(bits) == len(set(bits)) and all(b and b & (b - 1) == 0 and b < 256 for b in bits)


def test_read_by_agrees_with_each_rule_set():
    for name in R.available():
        rs = R.get(name)
        reads = {n for n in F.FLAGS if n in rs.flags}
        assert reads == {n for n, f in F.FLAGS.items() if name in f.read_by}, name


@pytest.mark.parametrize("name", sorted(HANDS))
def test_a_flag_of_another_rule_set_is_reported_with_one_wording(name):
    rs = R.get(name)
    others = [n for n in F.names(F.RULE) if n not in rs.flags]
    for n in others:
        s = mjfast.score(HANDS[name], rules=name, **{n: True})
        assert s.ignored_flags[n] == f"ignored: rule set {name!r} {rs.ignored_wording}"
        assert ignored_flags(rs, {n: True}) == {n: s.ignored_flags[n]}
        with pytest.raises(mjfast.InvalidHand) as e:
            mjfast.score(HANDS[name], rules=name, strict=True, **{n: True})
        assert str(e.value) == strict_message({n: s.ignored_flags[n]})


@pytest.fixture
def new_flag(monkeypatch):
    """A flag added to the spec the way a maintainer adds one: one entry,
    read by two_player only."""
    flag = F.Flag("tenpai_bonus", F.RULE, 128, "a test flag", ("two_player",))
    monkeypatch.setitem(F.FLAGS, flag.name, flag)
    return flag


@pytest.mark.parametrize("name", sorted(HANDS))
def test_an_added_flag_is_reported_by_the_rule_sets_that_do_not_read_it(new_flag, name):
    rs = R.get(name)
    assert F.names(F.RULE)[-1] == "tenpai_bonus"
    s = mjfast.score(HANDS[name], rules=name, tenpai_bonus=True)
    plain = mjfast.score(HANDS[name], rules=name)
    assert s.total == plain.total
    assert s.ignored_flags == {**plain.ignored_flags,
                               "tenpai_bonus": f"ignored: rule set {name!r} {rs.ignored_wording}"}
    with pytest.raises(mjfast.InvalidHand, match=r"^tenpai_bonus ignored: .* \(strict=True\)$"):
        mjfast.score(HANDS[name], rules=name, strict=True, tenpai_bonus=True)
    # a rule set that declares it reads the flag does not report it
    reader = dataclasses.replace(rs, name=name, flags=rs.flags + ("tenpai_bonus",))
    assert "tenpai_bonus" not in ignored_flags(reader, {"tenpai_bonus": True})


def test_an_unknown_keyword_is_still_a_type_error():
    for name in HANDS:
        with pytest.raises(TypeError, match="unexpected keyword argument 'tenpai_bonus'"):
            mjfast.score(HANDS[name], rules=name, tenpai_bonus=True)


def test_ignored_flags_come_in_spec_order():
    rs = R.get("zhuji")
    given = {"wild_win": True, "discard_after_kong": True, "fourth_tile": True, "human_hand": np.bool_(True),
             "kong": True, "declared_ready": False}
    assert list(ignored_flags(rs, given)) == ["fourth_tile", "human_hand", "wild_win", "discard_after_kong"]


def test_strict_message_words_dropped_and_ignored_flags():
    d = {"kong": "dropped: robbing a kong needs a winning tile that is not also in the hand or its melds",
         "wild_win": "ignored: rule set 'mcr' has no fan that uses it"}
    assert strict_message(d) == ("kong cannot hold: robbing a kong needs a winning tile that is not also in the "
                                 "hand or its melds; wild_win ignored: rule set 'mcr' has no fan that uses it "
                                 "(strict=True)")
