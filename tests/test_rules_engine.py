"""The engine protocol (mjfast/rules/engine.py): every rule set answers
through its engine, and no code outside a rule set's own package knows a
rule set by its name."""
from __future__ import annotations

import ast
import os

import pytest

import mjfast
from mjfast import rules as R
from mjfast.rules.engine import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "mjfast")
RULES = os.path.join(PKG, "rules")


def _outside_rule_sets():
    """The package's Python files outside the rule-set packages
    (mjfast/rules/<name>/): the registry, the protocol and every user."""
    for d, dirs, files in os.walk(PKG):
        if os.path.dirname(d) == RULES:       # mjfast/rules/<name>/: a rule set's own
            dirs[:] = []
            continue
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(d, f)


def _names_in(node, names):
    """The registered names a comparison operand spells (a string, or a
    tuple / list / set of strings)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [n for e in node.elts for n in _names_in(e, names)]
    return []


def _name_comparisons(path, names):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            found = [n for op in [node.left, *node.comparators] for n in _names_in(op, names)]
            # an engine compared with a label, any label, is a name comparison too
            ops = [node.left, *node.comparators]
            engine = (any(isinstance(op, ast.Attribute) and op.attr == "engine" for op in ops)
                      and any(isinstance(op, ast.Constant) and isinstance(op.value, str) for op in ops))
            if found or engine:
                out.append((os.path.relpath(path, ROOT), node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Match):
            for case in node.cases:
                if any(isinstance(p, ast.MatchValue) and _names_in(p.value, names)
                       for p in ast.walk(case.pattern)):
                    out.append((os.path.relpath(path, ROOT), node.lineno, "match on a rule-set name"))
    return out


def test_the_scan_finds_a_name_comparison(tmp_path):
    p = tmp_path / "x.py"
    p.write_text('def f(rs):\n    if rs.name == "zhuji" or rs.engine != "x" or n in ("a", "guizhou"):\n'
                 '        return 1\n    match rs.name:\n        case "mcr":\n            return 2\n')
    found = _name_comparisons(str(p), set(R.available()))
    assert sorted(line for _, line, _ in found) == [2, 2, 2, 4]     # (three comparisons on line 2)


def test_no_rule_set_name_is_compared_outside_its_package():
    names = set(R.available())
    found = [hit for p in _outside_rule_sets() for hit in _name_comparisons(p, names)]
    assert not found, "\n".join(f"{p}:{line}: {code}" for p, line, code in found)


@pytest.mark.parametrize("name", R.available())
def test_every_rule_set_has_an_engine(name):
    rs = R.get(name)
    assert isinstance(rs.impl, Engine)
    # options do not change the engine (one instance serves every option value)
    assert rs.with_options().impl is rs.impl
    assert isinstance(rs.wild_kinds, tuple)


def test_engine_capabilities():
    assert R.get("mcr").impl.mcr_fans and R.get("dazhong").impl.mcr_fans
    assert not any(R.get(n).impl.mcr_fans for n in ("two_player", "guizhou", "zhuji", "shanghai_old"))
    assert R.get("zhuji", wildcards="5p").wild_kinds == ("5p",)
    assert R.get("mcr").wild_kinds == ()
    assert R.get("mcr").is_default and R.get("mcr", min_points=0).is_default
    assert not R.get("dazhong").is_default


def test_settle_goes_through_the_engine():
    class Doubling(Engine):
        def settle(self, rs, total, self_drawn, discarder, **kw):
            return (2 * total, -2 * total)

    rs = R.RuleSet(**{**R.get("two_player").__dict__, "name": "doubling", "engine_impl": Doubling()})
    assert rs.settle(5, True) == (10, -10)
    with pytest.raises(mjfast.InvalidArgument):
        rs.settle(5.5, True)            # the arguments are still checked once, by RuleSet.settle
