"""JSON text from users: what is JSON and how a bad line is worded are
mjfast's, whatever JSON library is installed.

Every message below is worked out by hand from the text (the column counts
characters from 1).  The same readers then run in a subprocess where
``import orjson`` fails, and must print exactly what they print here (with
orjson when it is installed); orjson's decoding is checked against the
standard decoder's on random texts.
"""
import json
import os
import random
import subprocess
import sys

import pytest

import mjfast
from mjfast.io import jsontext as _jsontext
from mjfast.batch import HandBatch, score_batch
from mjfast.io.jsonl import process_jsonl
from mjfast.stats import stats_of_files

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

#: (line, mjfast's message), each position counted by hand
MESSAGES = [
    (b"not json", "bad JSON at column 1: expected a value, found 'not'"),
    (b'{"id": 1, "hand": "123m"', "bad JSON at column 25: the text ends inside an object, expected ',' or '}'"),
    (b'{"id": 1,}', "bad JSON at column 10: trailing comma before '}'"),
    (b'{"id": [1, 2,]}', "bad JSON at column 14: trailing comma before ']'"),
    (b'{"id": tru}', "bad JSON at column 8: expected a value, found 'tru'"),
    (b'{"id": NaN}', "bad JSON at column 8: expected a value, found 'NaN'"),
    (b'{"id": -Infinity}', "bad JSON at column 9: expected a digit after '-', found 'Infinity'"),
    (b'{"id": 1e999}', "bad JSON at column 8: number out of range: 1e999"),
    (b'{"id": 01}', "bad JSON at column 8: number with a leading zero"),
    (b'{"id": 1.}', "bad JSON at column 10: expected a digit after '.', found '}'"),
    (b'{"id": 1} x', "bad JSON at column 11: more text after the JSON value: 'x'"),
    (b'{"id" 1}', "bad JSON at column 7: expected ':' after the key, found '1'"),
    (b"{'id': 1}", "bad JSON at column 2: expected a key in double quotes, found \"'\""),
    (b'{"hand": "123m', "bad JSON at column 10: string not closed (no closing quote)"),
    (b'{"hand": "\\q"}', "bad JSON at column 11: bad escape '\\q' in a string"),
    (b'{"hand": "\\u12"}', "bad JSON at column 11: bad escape '\\u12\"}' in a string (\\u takes four hex digits)"),
    (b'{"hand": "\\ud800"}', "bad JSON at column 11: unpaired surrogate '\\ud800' in a string"),
    (b'{"hand": "a\tb"}', "bad JSON at column 12: control character U+0009 in a string (write it as an escape)"),
    (b'{"hand": "\xe4\xb8\x9c\xff"}', "bad JSON at column 12: not UTF-8 text (byte 0xff)"),
    (b'\xef\xbb\xbf{"hand": "123m"}', "bad JSON at column 1: expected a value, found a byte order mark (U+FEFF)"),
    ('{"hand": "东", "id": x}'.encode(), "bad JSON at column 21: expected a value, found 'x'"),
    (b"[" * 300 + b"]" * 300, "bad JSON at column 257: nested deeper than 256 levels"),
    (b"", "blank line"),
    (b" \t\r\n", "blank line"),
    (b'{"id": 1\r\n', "bad JSON at column 9: the text ends inside an object, expected ',' or '}'"),
]


@pytest.mark.parametrize("line,message", MESSAGES, ids=[m for _, m in MESSAGES])
def test_bad_line_is_worded_by_mjfast(line, message):
    with pytest.raises(_jsontext.BadJSON) as e:
        _jsontext.loads(line)
    assert _jsontext.describe(line) == message
    if line.strip():
        assert str(e.value) == message
    # the same text given as str reads the same (after a valid UTF-8 decode)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return
    assert _jsontext.describe(text) == message


def test_several_lines_of_text_give_line_and_column():
    assert _jsontext.describe('{"id": 1,\n  "hand" 5}') == \
        "bad JSON at line 2, column 10: expected ':' after the key, found '5'"
    assert _jsontext.describe(7) == "a line must be text (bytes or str), got int"


def test_what_the_rules_accept_reads_exactly():
    big = 10 ** 30
    assert _jsontext.loads(b'{"id": %d}' % big) == {"id": big}        # an int, not a float
    assert _jsontext.loads(b'{"id": -0.0, "x": "\\ud83d\\ude00"}') == {"id": -0.0, "x": "\U0001F600"}
    assert _jsontext.loads("[" * 256 + "]" * 256) is not None
    assert _jsontext.loads(b'{"a": 1.5e308}') == {"a": 1.5e308}


# -- the readers: the same output whether orjson is installed or not ---------

def _jsonl_file(tmp):
    lines = [json.dumps({"id": 1, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": True}).encode()]
    lines += [line for line, _ in MESSAGES if line.strip()]
    lines += [b'{"id": 1e-07, "hand": "1112345678999m5m"}', b'{"id": 18446744073709551616, "hand": "1112345678999m5m"}',
              b'{"id": [2.5e-05], "hand": "123m456m789m123p5p5p", "rules": "dazhong"}', b'']
    path = os.path.join(tmp, "hands.jsonl")
    with open(path, "wb") as f:
        f.write(b"\n".join(lines) + b"\n")
    res = os.path.join(tmp, "results.jsonl")
    with open(res, "wb") as f:
        f.write(b'{"id": 1, "total": 8, "fans": [], "legal": true}\n{"total": 8,\n\n{"total": NaN}\n')
    return path, res


def _report(tmp):
    """Every reader's view of the test files: the JSONL scorer's output, the
    batch readers' messages, stats' problems, the line decoder's values."""
    path, res = _jsonl_file(tmp)
    with open(path, "rb") as f:
        lines = f.readlines()
    out = []
    process_jsonl(lines, out.append, chunk_size=5)
    process_jsonl(lines, out.append, chunk_size=7, rules="mcr")       # the grouped path
    msgs = []
    for batch in HandBatch.from_jsonl(path, chunk_size=4):
        r = score_batch(batch)
        msgs += [r.error_message(i) for i in range(len(batch)) if r.errors[i]]
    for batch in HandBatch.from_lines([x.decode("utf-8", "replace") for x in lines], chunk_size=3):
        msgs += [batch.messages.get(i) for i in range(len(batch)) if batch.invalid[i]]
    problems = []
    for p in (path, res):
        stats_of_files([p], on_problem=lambda _, line, m: problems.append((line, m)))
    values = []
    for line in lines:
        try:
            values.append(repr(mjfast.io.jsontext.loads(line)))
        except Exception as exc:
            values.append(type(exc).__name__ + ": " + str(exc))
    return {"jsonl": b"".join(out).decode(), "batch": msgs, "stats": problems, "values": values,
            "backend": mjfast.io.jsonl.JSON_BACKEND}


_BLOCKED = """
import json, sys
sys.modules["orjson"] = None          # import orjson now raises ImportError
sys.path.insert(0, {here!r})
import test_json_messages as t
import mjfast.io.jsontext
assert mjfast.io.jsontext._fast_loads is None
print(json.dumps(t._report(sys.argv[1])))
"""


def _without_orjson(tmp):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE]))
    out = subprocess.run([sys.executable, "-c", _BLOCKED.format(here=HERE), str(tmp)], capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_readers_print_the_same_without_orjson(tmp_path):
    here = json.loads(json.dumps(_report(str(tmp_path))))     # (tuples as lists, as the subprocess's)
    there = _without_orjson(tmp_path)
    assert there.pop("backend") == "json"
    here.pop("backend")
    assert here == there
    # and what they print is mjfast's wording
    text = here["jsonl"].splitlines()
    results = [json.loads(x) for x in text]
    by_line = {r["line"]: r["error"] for r in results if "error" in r}
    assert by_line[2] == MESSAGES[0][1] and by_line[3] == MESSAGES[1][1]
    nine_gates = mjfast.score("1112345678999m5m").total
    small, big = [i for i, r in enumerate(results) if r.get("total") == nine_gates][:2]
    assert results[small]["id"] == 1e-07 and '"id":1e-07,' in text[small]      # the standard encoder's digits
    assert results[big]["id"] == 18446744073709551616 and '"id":18446744073709551616,' in text[big]
    assert "line 2: " + MESSAGES[0][1] in here["batch"]
    assert [m for _, m in here["stats"]][-3:] == [
        "bad JSON at column 13: the text ends inside an object, expected a key in double quotes",
        "blank line", "bad JSON at column 11: expected a value, found 'NaN'"]


def test_cli_prints_the_same_without_orjson(tmp_path):
    path, _ = _jsonl_file(str(tmp_path))
    code = ("import sys\n{block}from mjfast.cli import main\nsys.exit(main(['score', '--jsonl', {path!r}]))\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    runs = [subprocess.run([sys.executable, "-c", code.format(block=block, path=path)], capture_output=True,
                           text=True, env=env, timeout=300)
            for block in ("", "sys.modules['orjson'] = None\n")]
    assert runs[0].returncode == runs[1].returncode == 1
    assert runs[0].stdout == runs[1].stdout
    assert '"error":"bad JSON at column 1: expected a value, found \'not\'"' in runs[0].stdout


# -- the fast decoder reads as the standard one -------------------------------

_PIECES = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', 'd', '8', '0', '1', '9', '-', '.', 'e', 'E', '+', ' ',
           '\n', 'a', 'true', 'false', 'null', 'NaN', '"id"', '123', '1.5', '1e400', '12345678901234567890',
           '\ufeff', '\t', '\x01', '\xe9', '\ud800', '\\ud83d\\ude00', '\\udc00', '0.000025']


def _random_texts(n, seed):
    rng = random.Random(seed)
    seeds = [{"a": [1, 2.5, "x"]}, [1, {"b": None}], "s", 1, {"id": 7, "hand": "123m"}, [[[]]]]
    for _ in range(n):
        if rng.random() < 0.6:
            s = json.dumps(rng.choice(seeds))
            k = rng.randrange(len(s) + 1)
            s = s[:k] + rng.choice(_PIECES) + s[k + rng.randrange(2):]
        else:
            s = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 10)))
        yield s
        yield s.encode("utf-8", "surrogatepass")


def _outcome(fn, line):
    try:
        return "ok", repr(fn(line))
    except _jsontext.BadJSON as exc:
        return "bad", str(exc)


def test_fast_and_standard_decoders_agree_on_random_texts():
    n_bad = 0
    for line in _random_texts(20000, 11):
        got = _outcome(_jsontext.loads, line)
        assert got == _outcome(_jsontext._loads_std, line), line
        assert "not readable" not in got[1], line        # the scan finds every error a decoder finds
        n_bad += got[0] == "bad"
    assert 5000 < n_bad < 35000          # both kinds were tried


def test_orjson_refuses_what_the_rules_refuse():
    orjson = pytest.importorskip("orjson")
    for line in _random_texts(20000, 12):
        if not (line.strip() if isinstance(line, bytes) else line.strip()):
            continue
        try:
            orjson.loads(line)
            ok = True
        except orjson.JSONDecodeError:
            ok = False
        assert ok == (_outcome(_jsontext.loads, line)[0] == "ok"), line


def test_compiled_scanner_reads_only_what_the_decoder_accepts():
    # the lines the compiled reader takes without decoding are valid JSON
    # giving the same record (the others it hands to the decoder)
    rng = random.Random(5)
    base = b'{"id": 12, "hand": "1112345678999m5m", "self_drawn": true, "flowers": 1}'
    lines = []
    for _ in range(4000):
        k = rng.randrange(len(base) + 1)
        lines.append(base[:k] + rng.choice([b"", b" ", b"0", b"-", b"1", b",", b"}", b'"', b"x", b"."]) +
                     base[k + rng.randrange(2):])
    batch = HandBatch._from_json_lines(lines, first_line=1)[0]
    ref = HandBatch.from_records([_jsontext.loads(x) if _outcome(_jsontext.loads, x)[0] == "ok" else None
                                  for x in lines])
    for i, line in enumerate(lines):
        ok = _outcome(_jsontext.loads, line)[0] == "ok"
        if not ok:
            assert batch.invalid[i] and batch.messages[i] == f"line {i + 1}: {_jsontext.describe(line)}"
        else:
            assert batch.invalid[i] == ref.invalid[i], line
            if not batch.invalid[i]:
                assert batch.ids[i] == ref.ids[i] and (batch.counts[i] == ref.counts[i]).all(), line
