"""One table of error codes (mjfast/spec/errors.py), one message per code,
and the exception kinds told apart."""
import ast

import numpy as np
import pytest

import mjfast
from mjfast import batch as B
from mjfast import batch_score, core
from mjfast import rules as R
from mjfast.errors import InvalidArgument, InvalidHand, InvalidOption, NotWinning, UnknownRules
from mjfast.spec import errors as E


def test_codes_are_unique_and_each_has_one_message():
    names = [c.name for c in E.CODES]
    assert len(names) == len(set(names))
    for fam in (E.CORE, E.BATCH, E.RECORDS):
        values = [c.value for c in E.CODES if c.family == fam]
        assert len(values) == len(set(values)), fam
        assert values == sorted(values) and values[0] in (0, 1)
    assert all(isinstance(c.message, str) for c in E.CODES)
    # every code but "no error" says something, and no two of a family say the same
    for fam in (E.CORE, E.BATCH, E.RECORDS):
        msgs = [c.message for c in E.CODES if c.family == fam and c.value]
        assert all(msgs) and len(msgs) == len(set(msgs)), fam


def test_the_python_constants_come_from_the_table():
    assert core.ERROR_MESSAGES == E.messages(E.CORE)
    assert core.ERR_BAD_SIZE == E.code("BAD_SIZE").value == 2
    assert batch_score.ERR_NOT_WINNING == E.code("NOT_WINNING").value == 2
    # the same number, two codes: told apart by name and family
    assert E.code("BAD_SIZE").family != E.code("NOT_WINNING").family
    assert (batch_score.ERR_OK, batch_score.ERR_INVALID) == (0, 1)
    assert B._ROW_MESSAGES[1:] == tuple(c.message for c in E.CODES if c.family == E.RECORDS)


def test_each_family_words_its_arrays_with_the_table():
    # core: a row with a fifth copy, errors="mask"
    hands = np.zeros((2, 34), np.uint8)
    hands[0, :14] = 1
    hands[1, 0] = 5
    hands[1, 1:10] = 1
    _, err = core.is_win_batch(hands, errors="mask")
    assert list(err) == [E.code("OK").value, E.code("TOO_MANY_COPIES").value]
    assert core.ERROR_MESSAGES[int(err[1])] == "a tile count above 4"
    # batch: a hand that does not win
    res = mjfast.score_batch(mjfast.HandBatch.from_strings(["123m456m789m123p5p6p"]))
    assert res.errors[0] == E.code("NOT_WINNING").value
    assert res.error_message(0) == E.code("NOT_WINNING").message
    # records: HandBatch array input, a winning tile out of range
    b = mjfast.HandBatch.from_strings(["123m456m789m123p5p5p"])
    b2 = mjfast.HandBatch(b.counts, b.melds, b.n_melds, np.array([40], np.uint8), b.flags, b.seat, b.round,
                          b.flowers)
    assert b2.messages[0] == E.code("WIN_TILE_RANGE").message


def test_the_spec_module_imports_nothing_of_mjfast():
    tree = ast.parse(open(E.__file__, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("mjfast")
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("mjfast") for a in node.names)


def test_invalid_argument_is_no_invalid_hand():
    assert not issubclass(InvalidArgument, InvalidHand)
    assert issubclass(InvalidArgument, TypeError) and issubclass(InvalidArgument, ValueError)
    assert issubclass(NotWinning, InvalidHand)
    for sub in (UnknownRules, InvalidOption):
        assert issubclass(sub, InvalidArgument) and not issubclass(sub, InvalidHand)
    assert mjfast.UnknownRules is UnknownRules and mjfast.InvalidOption is InvalidOption


def test_a_bad_option_an_unknown_rule_set_and_a_bad_hand_are_told_apart():
    hand = "123m456m789m123p5p5p"
    with pytest.raises(UnknownRules, match="unknown rule set 'riichi'"):
        mjfast.score(hand, rules="riichi")
    with pytest.raises(InvalidOption, match="rule set 'mcr' has no option 'nope'"):
        R.get("mcr", nope=1)
    with pytest.raises(InvalidOption, match="min_points"):
        R.get("mcr", min_points=-1)
    with pytest.raises(InvalidHand) as ei:
        mjfast.score("123m456m789m123p5p5x")
    assert not isinstance(ei.value, InvalidArgument)
    with pytest.raises(InvalidArgument) as ei:
        mjfast.score(hand, self_drawn="yes")
    assert not isinstance(ei.value, (InvalidHand, UnknownRules, InvalidOption))
    # each caught by what it is, and by TypeError / ValueError
    for call in (lambda: mjfast.score(hand, rules="riichi"), lambda: R.get("mcr", nope=1)):
        with pytest.raises(TypeError):
            call()
        with pytest.raises(ValueError):
            call()
