"""rules="mcr" is bit for bit the engine as it was before rule sets existed,
on the 1M-hand corpus of the differential tests (slow: run by hand).

tests/data/mcr_million_digests.json holds, per chunk of 100,000 records, a
sha256 of every output column of score_batch computed by the engine of
commit 4892c63 (the last one before rule sets; built apart, the corpus made
by this checkout's tests/handgen.py).  The engine has changed much since
(rule-set variant bits, the fan kernel split into modules, the records
reader): this checks that MCR did not move.
"""
import hashlib
import json
import os

import numpy as np
import pytest

import mjfast
from mjfast import rules as R

import handgen

DATA = os.path.join(os.path.dirname(__file__), "data", "mcr_million_digests.json")


def _digest(res):
    h = hashlib.sha256()
    for a in (res.totals.astype(np.int32), res.fan_counts.astype(np.uint8), res.legal.astype(bool),
              res.errors.astype(np.uint8)):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def test_digest_file_is_sound():
    with open(DATA, encoding="utf-8") as f:
        d = json.load(f)
    assert d["chunk"] == 100_000 and len(d["digests"]) == 10 and len(set(d["digests"])) == 10


@pytest.mark.slow
def test_mcr_million_bit_for_bit_the_engine_before_rule_sets():
    with open(DATA, encoding="utf-8") as f:
        want = json.load(f)["digests"]
    gen = handgen.iter_winning_records(1_000_000, seed=2026)
    for k, expected in enumerate(want):
        chunk = [r for _, r in zip(range(100_000), gen)]
        batch = mjfast.HandBatch.from_records(chunk)
        for rules in (None, "mcr", R.MCR_RULES):
            got = _digest(mjfast.score_batch(batch, rules=rules))
            assert got == expected, f"chunk {k} (records {k * 100_000}..), rules={rules!r}"
    assert next(gen, None) is None
