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


_HAND = "[567m2][EEE1]45m678pFF6m"
# lines the scanner reads or must leave to the decoder: the output is the same either way
_EDGE = [
    '{"hand":"%s"}' % _HAND, ' \t{ "hand" : "%s" , "id" : 5 }\t ' % _HAND, '{"hand":"%s","id":-0}' % _HAND,
    '{"hand":"%s","id":007}' % _HAND, '{"hand":"%s","id":-7}' % _HAND, '{"hand":"%s","id":1e2}' % _HAND,
    '{"hand":"%s","id":12345678901234567890123}' % _HAND, '{"hand":"%s","id":123456789012345678}' % _HAND,
    '{"hand":"%s","id":1234567890123456789}' % _HAND, '{"hand":"%s","id":"a\\"b"}' % _HAND,
    '{"hand":"%s","id":"\\u0041"}' % _HAND, '{"h\\u0061nd":"%s"}' % _HAND, '{"hand":"\\u005b567m2][EEE1]45m678pFF6m"}',
    '{"hand":"%s","hand":"123m"}' % _HAND, '{"hand":"123m","hand":"%s"}' % _HAND, '{"id":1,"id":2,"hand":"%s"}' % _HAND,
    '{"hand":"%s","x":[1,{"hand":"1m"}],"y":{"z":"}"}}' % _HAND, '{"hand":"%s","x":1.5,"y":"\\n"}' % _HAND,
    '{"hand":"%s","x":1,"x":2}' % _HAND, '{"hand":"%s","rules":null}' % _HAND, '{"hand":"%s","flowers":1.0}' % _HAND,
    '{"hand":"%s","flowers":8}' % _HAND, '{"hand":"%s","flowers":9}' % _HAND, '{"hand":"%s","flowers":-1}' % _HAND,
    '{"hand":"%s","seat_wind":"s","round_wind":3}' % _HAND, '{"hand":"%s","seat_wind":"X"}' % _HAND,
    '{"hand":"%s","seat_wind":"\\u0045"}' % _HAND, '{"hand":"%s","self_drawn":true,"kong":true}' % _HAND,
    '{"hand":"%s","self_drawn":1}' % _HAND, '{"hand":"%s","last_tile":"true"}' % _HAND,
    '{"hand":"%s","heavenly_hand":true}' % _HAND, '{"hand":"%s","human_hand":0}' % _HAND,
    '{"hand":"%s",}' % _HAND, '{"hand":"%s"' % _HAND, '{"hand":"%s"}}' % _HAND, '{"hand":"%s"} {}' % _HAND,
    '{"hand":"%s"}x' % _HAND, '{"hand" "%s"}' % _HAND, '{hand:"%s"}' % _HAND, "{'hand':'%s'}" % _HAND,
    '{"hand":"%s","id":tru}' % _HAND, '{"hand":"%s","id":nul}' % _HAND, '{"hand":"%s","id":-}' % _HAND,
    '{"hand":"%s","id":"caf\u00e9"}' % _HAND, '{"hand":"%s","id":"\x7f"}' % _HAND, '{"hand":"123m456m789m123p5p"}',
    '{"hand":"W1 W2 W3 B1 B2 B3 T1 T2 T3 F1 F1 F1 J1 J1","id":"bz"}', '{"hand":"123m456m789m123p55p H1"}',
    '{"hand":"123m456m789m12p3p55p"}', '{"hand":"111m222m333m444m5m5m","fourth_tile":true}', '{}', '[]', '',
    '{"hand":"%s","id":true,"extra":false,"more":null}' % _HAND, '\ufeff{"hand":"%s"}' % _HAND,
]


@pytest.mark.parametrize("eol", ["\n", "\r\n", ""])
def test_json_edge_lines(eol):
    chunk = [(line + eol).encode("utf-8") for line in _EDGE]
    got = jsonl._process_chunk_fast(chunk, 0, jsonl._loads)
    want = _old(chunk, 0)
    assert got[1] == want[1]
    for a, b, line in zip(got[0].splitlines(), want[0].splitlines(), _EDGE):
        assert a == b, line


def test_the_scanner_reads_the_common_line():
    from mjfast import _core
    from mjfast.batch import _empty
    recs = handgen.random_winning_records(300, seed=4)
    chunk = [(json.dumps(dict(r, id=i if i % 2 else f"r{i}")) + "\n").encode() for i, r in enumerate(recs)]
    chunk += [e.encode() for e in _EDGE[:3]]
    n = len(chunk)
    c = _empty(n)
    rf, st, ids = np.zeros(n, np.uint8), np.zeros(n, np.uint8), [None] * n
    _core.scan_lines(chunk, c["counts"], c["melds"], c["n_melds"], c["win_tile"], c["flags"], c["seat"],
                     c["round"], c["flowers"], rf, st, ids)
    assert st.tolist() == [0] * (n - 1) + [1]          # -0 is left to the decoder
    assert ids[:4] == ["r0", 1, "r2", 3] and ids[-2] == 5
    b = mjfast_batch(recs)
    for name in ("counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers"):
        assert np.array_equal(c[name][:300], getattr(b, name)), name


def mjfast_batch(recs):
    from mjfast import HandBatch
    return HandBatch.from_records(recs)


def test_from_lines_equals_decoding_then_reading():
    # HandBatch.from_lines (scanner + decoder) == every line decoded, then read by the Python reader
    from mjfast import HandBatch
    from mjfast.scoring.records import parse_error as _parse_error
    import records_reference as ref
    from test_records_fast import _check_same
    chunk = _lines(1500, 7) + [e.encode() + b"\n" for e in _EDGE]
    size, first = 400, 10
    batches = list(HandBatch.from_lines(chunk, chunk_size=size, first_line=first))
    assert [len(b) for b in batches] == [400, 400, 400, 300 + len(_EDGE)]
    for k, b in enumerate(batches):
        part = chunk[k * size:(k + 1) * size]
        objs, bad = [], {}
        for i, line in enumerate(part):
            try:
                objs.append(jsonl._loads(line))
            except Exception as exc:
                objs.append({})
                bad[i] = f"line {first + k * size + i}: {_parse_error(line, exc)}"
        want = ref.from_records(objs)
        for i, msg in bad.items():
            want["invalid"][i] = True
            want["messages"][i] = msg
        _check_same(b, want)
        assert b.lines.tolist() == list(range(first + k * size, first + k * size + len(part)))


@pytest.mark.slow
def test_fast_chunk_equals_the_python_chunk_many():
    for seed in range(100, 130):
        chunk = _lines(4000, seed)
        for strict in (False, True):
            assert jsonl._process_chunk_fast(chunk, 0, jsonl._loads, strict) == _old(chunk, 0, strict)
