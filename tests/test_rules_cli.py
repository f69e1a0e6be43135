"""``--rules NAME`` / ``--rule-option KEY=VALUE`` on every command: honoured
where the command can, refused with a message naming the command and the
rule set where it cannot (never ignored)."""
import argparse
import contextlib
import io
import json
import os
import pickle

import numpy as np
import pytest

import mjfast
from mjfast import rules as R
from mjfast.cli import build_parser, main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANDS = os.path.join(ROOT, "docs", "examples", "hands.jsonl")
GAMES = os.path.join(ROOT, "docs", "examples", "games.txt")


def _leaves(p, prefix=()):
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sp in a.choices.items():
                yield from _leaves(sp, prefix + (name,))
            return
    yield prefix, p


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_every_command_takes_rules_and_rule_option():
    leaves = list(_leaves(build_parser()))
    assert len(leaves) >= 12
    for words, p in leaves:
        opts = {s for a in p._actions for s in a.option_strings}
        assert {"--rules", "--rule-option"} <= opts, " ".join(words)


# (argv before the rule arguments, the command's name in the message)
MCR_ONLY = [
    (("logs", "score", GAMES), "mjfast logs score"),
    (("logs", "export", GAMES, "--out", "-"), "mjfast logs export"),
    (("stats", "logs", GAMES), "mjfast stats logs"),
    (("stats", "simulate", "--games", "4"), "mjfast stats simulate"),
    (("match", "mjfast:sample", "mjfast:sample", "mjfast:sample", "mjfast:sample", "--games", "1"),
     "mjfast match"),
]


@pytest.mark.parametrize("argv,command", MCR_ONLY)
def test_mcr_only_commands_refuse_other_rule_sets(argv, command):
    for other in ("dazhong", "two_player"):
        code, out, err = _run(*argv, "--rules", other)
        assert code == 2 and out == ""
        assert f"{command} does not support rule set {other!r}" in err and "MCR" in err
    # MCR with a changed option is refused too (the platform's rulings are fixed)
    code, out, err = _run(*argv, "--rule-option", "knitted_straight_wait=not_scored")
    assert code == 2 and f"{command} supports rule set 'mcr' with its default options only" in err
    assert "knitted_straight_wait=not_scored" in err
    # a bad option is named
    code, _, err = _run(*argv, "--rule-option", "nope=1")
    assert code == 2 and "has no option 'nope'" in err


def test_mcr_only_commands_accept_mcr():
    code, out, err = _run("stats", "logs", GAMES, "--rules", "mcr", "--rule-option", "min_points=8", "--json")
    assert code == 0 and json.loads(out)["summary"]["wins"] == 10
    code, out, _ = _run("logs", "export", GAMES, "--out", "-", "--rules", "mcr")
    assert code == 0 and len(out.splitlines()) == 10
    code, out, _ = _run("stats", "simulate", "--games", "8", "--rules", "mcr", "--json")
    assert code == 0 and json.loads(out)["games"]["games"] == 8


def test_stats_table_scores_hand_records_under_the_rule_set():
    recs = [json.loads(x) for x in open(HANDS, encoding="utf-8") if x.strip().startswith("{")
            and "hand" in x]
    good = [r for r in recs if isinstance(r.get("self_drawn", False), bool)]
    want = mjfast.score_batch(good, rules="dazhong")
    mcr = mjfast.score_batch(good)
    ok = want.errors == 0
    # the example file holds Nine Gates: dazhong drops its Pung of Terminals
    assert want.totals[ok].sum() < mcr.totals[ok].sum()
    code, out, _ = _run("stats", "table", HANDS, "--rules", "dazhong", "--json")
    d = json.loads(out)
    assert code == 1                            # the file's bad lines
    assert d["rules"] == "dazhong" and d["summary"]["wins"] == int(ok.sum())
    assert d["summary"]["totals"]["max"] == int(want.totals[ok].max())
    assert d["summary"]["totals"]["max"] != int(mcr.totals[ok].max())
    # the text output names the rule set and its minimum
    code, out, _ = _run("stats", "table", HANDS, "--rules", "dazhong")
    assert out.startswith("rules dazhong\n") and "legal (>= 0 without flowers)" in out


def test_stats_table_refuses_what_it_cannot_honour(tmp_path):
    code, _, err = _run("stats", "table", HANDS, "--rules", "two_player")
    assert code == 2 and "mjfast stats table does not support rule set 'two_player'" in err
    # a file of scored results was scored already: a rule set cannot apply
    res = tmp_path / "res.jsonl"
    code, out, _ = _run("score", "--jsonl", HANDS, str(res))
    code, _, err = _run("stats", "table", str(res), "--rules", "dazhong")
    assert code == 2 and "holds scored results" in err and "dazhong" in err
    code, _, err = _run("stats", "table", str(res), "--rules", "mcr")
    assert code == 1 and err.count("\n") >= 1   # plain MCR: read as before (bad lines reported)


def test_stats_table_records_under_their_own_table_are_reported(tmp_path):
    # records naming two_player (its own fan table) are bad rows, each reported
    f = tmp_path / "tp.jsonl"
    f.write_text('{"hand": "123m456m789mEEE5m5m", "rules": "two_player"}\n'
                 '{"hand": "123m456m789mEEE5m5m", "rules": "two_player"}\n', encoding="utf-8")
    code, out, err = _run("stats", "table", str(f), "--json")
    assert code == 1 and json.loads(out)["summary"]["invalid"] == 2
    assert err.count("has its own fan table") == 2


def test_stats_enumerate_rules():
    code, out, _ = _run("stats", "enumerate", "--form", "knitted_straight", "--json")
    plain = json.loads(out)
    code, out, _ = _run("stats", "enumerate", "--form", "knitted_straight", "--json",
                        "--rule-option", "knitted_straight_wait=not_scored")
    ruled = json.loads(out)
    assert code == 0 and ruled["rule_options"] == {"knitted_straight_wait": "not_scored"}

    def wins(d, key):
        return next(f["wins"] for f in d["fans"] if f["key"] == key and f["form"] == "knitted_straight")
    # the option removes the wait fan where the winning tile is a knitted one:
    # fewer wait fans, the same hands and knitted straights
    assert ruled["counts"] == plain["counts"]
    assert wins(ruled, "knitted_straight") == wins(plain, "knitted_straight")
    for k in ("edge_wait", "closed_wait", "single_wait"):
        assert wins(ruled, k) < wins(plain, k)
    code, _, err = _run("stats", "enumerate", "--form", "thirteen_orphans", "--rules", "two_player")
    assert code == 2 and "mjfast stats enumerate does not support rule set 'two_player'" in err


def test_rules_command_with_options():
    code, out, _ = _run("rules", "--rules", "dazhong", "--rule-option", "min_points=8")
    assert code == 0 and "min_points = 0 (now 8)" in out
    code, out, _ = _run("rules", "dazhong", "--rule-option", "min_points=8", "--json")
    d = json.loads(out)
    assert d["min_points"] == 8 and d["options"]["min_points"] == {**d["options"]["min_points"], "default": 0,
                                                                    "value": 8}
    code, _, err = _run("rules", "mcr", "--rules", "dazhong")
    assert code == 2 and "disagree" in err
    code, _, err = _run("rules", "--rule-option", "min_points=8")
    assert code == 2 and "needs a rule set" in err


def test_rule_sets_pickle_by_name_and_options():
    # worker processes and Dask tasks receive rule sets pickled
    for rs in (R.get("mcr"), R.get("dazhong"), R.get("two_player"),
               R.get("mcr", knitted_straight_wait="not_scored", min_points=0)):
        back = pickle.loads(pickle.dumps(rs))
        assert back == rs and dict(back.options) == dict(rs.options) and back.variant == rs.variant
    from mjfast.stats import stats_of_files
    acc = stats_of_files([HANDS], rules=pickle.loads(pickle.dumps(R.get("dazhong"))))
    assert acc.summary()["wins"] == 3
    with pytest.raises(ValueError, match="own fan table"):
        stats_of_files([HANDS], rules="two_player")
