"""score() and score_batch() agree row by row under every registered rule set,
strict or not: the same total, fans, legality and ignored flags (with their
reasons) for a row that scores, and the same kind of failure for one that
does not.  Both go through the rule set's engine (mjfast/rules/engine.py);
this holds every engine's batch path to its one-hand path.

The records are the rule set's own wins (mjfast.testing under ``rules=``) and
the MCR generator's stream with its contradicting flags kept (kong /
fourth_tile the hand cannot hold, so the dropped flags are exercised), with
some of the rule sets' own flags set by turns: many of the MCR rows do not
win, or are refused under ``strict``, under the smaller rule sets, which is
part of what is compared.
"""
import pytest

import mjfast
import mjfast.testing

_OWN_FLAGS = ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start", "wild_win",
              "declared_ready", "discard_after_kong")


def _records(name, n=160):
    # the rule set's own wins (fields it does not read removed), then the MCR
    # stream as it comes, contradicting flags and all
    recs = mjfast.testing.winning_records(n // 2, seed=23, rules=name)
    recs += mjfast.testing.winning_records(n, seed=23, contradictions=True)
    for i, rec in enumerate(recs):
        flag = _OWN_FLAGS[i % len(_OWN_FLAGS)]
        if i % 3 == 0:
            rec[flag] = True
    # and rows that fail everywhere: not a win, five copies of a tile
    recs += [{"hand": "123m456m789m12p4s5s6s"}, {"hand": "11111m234m567m89m9m"}]
    return recs


def _one(rec, name, strict):
    kw = {k: v for k, v in rec.items() if k not in ("hand", "id", "rules")}
    try:
        s = mjfast.score(rec["hand"], rules=name, strict=strict, **kw)
    except mjfast.NotWinning:
        return "not winning"
    except (mjfast.InvalidHand, mjfast.InvalidArgument):
        # a bad hand, or a flag the rule set refuses for it (shanghai_old's
        # wild_win without wildcards): a batch reports the row as invalid
        return "invalid"
    return (s.total, sorted((f.name, f.zh, f.points, f.count) for f in s.fans), bool(s.is_legal_win),
            dict(s.ignored_flags))


def _row(res, i):
    if res.errors[i]:
        return "not winning" if res.errors[i] == mjfast.batch.ERR_NOT_WINNING else "invalid"
    return (int(res.totals[i]), sorted(res.fans(i)), bool(res.legal[i]),
            dict(res.ignored_flags(i)))


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("name", mjfast.rules.available())
def test_score_and_score_batch_agree_row_by_row(name, strict):
    recs = _records(name)
    res = mjfast.score_batch(recs, rules=name, strict=strict)
    kinds = set()
    for i, rec in enumerate(recs):
        one = _one(rec, name, strict)
        assert _row(res, i) == one, (name, strict, i, rec)
        kinds.add(one if isinstance(one, str) else "scored")
    # the comparison covered rows that score and rows that fail
    assert "scored" in kinds and len(kinds) > 1, kinds
