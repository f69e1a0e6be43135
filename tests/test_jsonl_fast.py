"""The compiled JSONL path (records read, result lines written in compiled
code) against the Python one it replaces: the same bytes, line for line, on
random files with malformed lines, odd ids, dropped flags and strict mode."""
import io
import json
import random

import numpy as np
import pytest

from mjfast.io import jsonl

import handgen
from test_records_fast import random_records

_IDS = [None, 0, -1, 7, 2 ** 63 - 1, -2 ** 63, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 10 ** 30, 1.5, -0.0, 1e300, True, False,
        "", "a", "x y", "quote\"d", "back\\slash", "tab\there", "new\nline", "\u4e1c", "caf\u00e9", "\x7f", "</script>",
        [1, "2"], {"k": [None]}, "\U0001F004"]


def _lines(n, seed):
    rng = random.Random(seed)
    recs = random_records(n, seed, bad=0.4)
    out = []
    for r in recs:
        if type(r) is dict:
            r = {k: (bool(v) if isinstance(v, np.bool_) else int(v) if isinstance(v, np.integer) else v)
                 for k, v in r.items()}
            if rng.random() < 0.4:
                r["id"] = rng.choice(_IDS)
            if rng.random() < 0.1:
                r["kong"] = True            # often dropped: an ignored_flags line
        try:
            line = json.dumps(r, ensure_ascii=rng.random() < 0.5)
        except (TypeError, ValueError):
            line = json.dumps(str(r))
        k = rng.random()
        if k < 0.03:
            line = line[: rng.randrange(len(line) + 1)]                  # cut
        elif k < 0.05:
            line = rng.choice(["", "   ", "[1,2]", "null", "1", '"x"', "{", "}", '{"hand":"123m"} x', "\xff"])
        eol = rng.choice(["\n", "\n", "\r\n"])
        out.append((line + eol).encode("utf-8", "surrogateescape") if line != "\xff" else b"\xff\xfe{}\n")
    return out


def _old(chunk, n_done, strict=False):
    out = jsonl._process_chunk(chunk, n_done, jsonl._loads, strict)
    return jsonl._encode(out), sum(1 for r in out if "error" in r)


@pytest.mark.parametrize("seed", range(5))
def test_fast_chunk_equals_the_python_chunk(seed):
    chunk = _lines(1200, seed)
    for strict in (False, True):
        got = jsonl._process_chunk_fast(chunk, 1000 * seed, jsonl._loads, strict)
        want = _old(chunk, 1000 * seed, strict)
        assert got is not None
        assert got[1] == want[1]
        g, w = got[0].splitlines(), want[0].splitlines()
        assert len(g) == len(w) == len(chunk)
        for a, b in zip(g, w):
            assert a == b
        assert want[1] > 100 and len(chunk) - want[1] > 300


def test_fast_chunk_all_valid():
    recs = handgen.random_winning_records(3000, seed=9)
    chunk = [(json.dumps(dict(r, id=i)) + "\n").encode() for i, r in enumerate(recs)]
    got = jsonl._process_chunk_fast(chunk, 0, jsonl._loads)
    assert got == _old(chunk, 0)
    assert got[1] == 0


def test_records_naming_rule_sets_take_the_grouped_path():
    chunk = [b'{"hand":"123m456m789m123p55p","rules":"mcr"}\n', b'{"hand":"123m456m789m123p55p"}\n']
    assert jsonl._process_chunk_fast(chunk, 0, jsonl._loads) is None
    out = []
    jsonl.process_jsonl(chunk, out.append)
    assert b"".join(out) == _old(chunk, 0)[0]


def test_process_jsonl_output_identical(monkeypatch):
    data = b"".join(_lines(3000, 42))
    fast = []
    n1, e1 = jsonl.process_jsonl(io.BytesIO(data), fast.append, chunk_size=700)
    monkeypatch.setattr(jsonl, "_process_chunk_fast", lambda *a, **k: None)
    slow = []
    n2, e2 = jsonl.process_jsonl(io.BytesIO(data), slow.append, chunk_size=700)
    assert (n1, e1) == (n2, e2)
    assert b"".join(fast) == b"".join(slow)


def test_write_results_checks_its_arguments():
    from mjfast import _core
    order, frags = jsonl._fan_frags()
    u = lambda *s: np.zeros(s, np.uint8)
    with pytest.raises(ValueError):
        _core.write_results([1], u(2), np.zeros(1, np.int32), u(1), u(1, 82), order, frags, None)
    with pytest.raises(ValueError):
        _core.write_results([1], u(1), np.zeros(1, np.int32), u(1), u(1, 82), np.array([99], np.int32),
                            frags[:1], None)
    with pytest.raises(TypeError):
        _core.write_results([1], u(1), np.zeros(1, np.int32), u(1), u(1, 82), order[:1], ("x",), None)
    with pytest.raises(TypeError):    # fmt must give bytes
        _core.write_results([1.5], u(1), np.zeros(1, np.int32), u(1), u(1, 82), order, frags, lambda i: "x")
    assert _core.write_results([3], u(1), np.full(1, 8, np.int32), np.ones(1, np.uint8), u(1, 82), order, frags,
                               None) == b'{"id":3,"total":8,"fans":[],"legal":true}\n'
