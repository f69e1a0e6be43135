"""The bot program (python -m mjfast.botzone) on input that is not the
interaction: it answers PASS with the reason in the debug output and one
error line on stderr, goes on to the end of the input and then exits with 1,
without a traceback (as docs/botzone.md says); a huge simple-interaction
header is refused at once, with bounded memory.  An unknown --bot, an empty
or closed input and a reader that goes away are one line (or none) and an
exit status too."""
import json
import os
import resource
import subprocess
import sys

import pytest

from mjfast.botzone.__main__ import KEEP_RUNNING, MAX_TURNS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the program's data segment may not grow past this (a list of 10**8 lines would)
MEMORY_LIMIT = 1 << 30


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY_LIMIT, MEMORY_LIMIT))


def program(data, *args):
    """(exit status, stdout lines, stderr) of the bot program given ``data`` (str or bytes)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               OPENBLAS_NUM_THREADS="1")
    if isinstance(data, str):
        data = data.encode()
    p = subprocess.run([sys.executable, "-m", "mjfast.botzone", *args], input=data, capture_output=True, env=env,
                       timeout=300, preexec_fn=_limit_memory)
    return p.returncode, p.stdout.decode().splitlines(), p.stderr.decode()


def _json_pass(line):
    obj = json.loads(line)
    assert obj["response"] == "PASS" and obj["debug"].startswith("error: "), obj
    return obj["debug"]


BAD_JSON = [
    ("{bad", "bad JSON input"),
    ('{"requests": []}', "non-empty list of request strings"),
    ('{"requests": 5}', "non-empty list of request strings"),
    ('{"requests": "0 0 0"}', "non-empty list of request strings"),
    ('{"requests": [5]}', "non-empty list of request strings"),
    ("{}", "non-empty list of request strings"),
    ('{"requests": ["0 0 0"], "responses": 7}', "'responses' must be a list"),
    ('{"requests": ["0 0 0"], "responses": [null]}', "'responses' must be a list"),
    ('{"requests": ["0 9 0"]}', "ProtocolError"),
    ('{"requests": ["0 0 0", "2 W1"]}', "before the deal"),
    ('{"requests": [' + "[" * 100000 + "]}", "bad JSON input"),
]


@pytest.mark.parametrize("data,reason", BAD_JSON)
def test_bad_json_input_answers_pass(data, reason):
    rc, out, err = program(data + "\n", "--once")
    assert rc == 1 and len(out) == 1, (rc, out, err)
    assert reason in _json_pass(out[0])
    assert reason in err and "Traceback" not in err


BAD_HEADERS = ["abc", "0", "-1", "1.5", "+1", "\u0663", str(MAX_TURNS + 1), "100000000", "not json"]


@pytest.mark.parametrize("head", BAD_HEADERS)
def test_bad_simple_header_answers_pass(head):
    rc, out, err = program(head + "\n0 0 0\n\n\n", "--once")
    assert rc == 1 and out[0] == "PASS" and len(out) == 2, (rc, out, err)
    assert out[1].startswith("error: bad simple header") and "Traceback" not in err


def test_huge_header_returns_promptly_with_bounded_memory():
    # 10**8 turns would be 2 * 10**8 lines: refused before reading any (RLIMIT_DATA above)
    rc, out, err = program("100000000\n", "--once")
    assert rc == 1 and out == ["PASS", f"error: bad simple header '100000000': the turn number 1-{MAX_TURNS}"]
    rc, out, err = program(f"{MAX_TURNS}\n0 0 0\n", "--once")
    assert rc == 1 and out[0] == "PASS" and "the input ended after 1 of the" in out[1], out


def test_simple_input_that_ends_early():
    rc, out, err = program("3\n0 0 0\nPASS\n", "--once")
    assert rc == 1 and out == ["PASS", "error: the input ended after 2 of the 5 lines of turn 3"]


def test_bytes_that_are_not_utf8():
    rc, out, err = program(b"\xff\xfe{\n", "--once")
    assert rc == 1 and out[0] == "PASS" and out[1].startswith("error: bad simple header"), out
    rc, out, err = program(b'{"requests": ["0 0 0", "1 0 0 0 0 \xff"]}\n', "--once")
    assert rc == 1 and len(out) == 1 and "ProtocolError" in _json_pass(out[0])


def test_keep_running_bad_lines():
    lines = ['{"requests": ["0 0 0"]}', "2 W1", '"2 W1"', '"unterminated', '{"requests": 5}', '"\\ud800"',
             '"3 0 DRAW"', "{" + "[" * 50000]
    rc, out, err = program("\n".join(lines) + "\n")
    assert rc == 1, err
    answers = out[0::2]
    assert out[1::2] == [KEEP_RUNNING] * len(answers) and len(answers) == len(lines)
    assert json.loads(answers[0]) == {"response": "PASS"}
    # a draw before any deal is a bad request, not a PLAY of the drawn tile
    assert "before the deal" in _json_pass(answers[1]) and "before the deal" in _json_pass(answers[2])
    assert "bad JSON request" in _json_pass(answers[3])
    assert "non-empty list" in _json_pass(answers[4])
    assert "before the deal" in _json_pass(answers[5])        # a lone surrogate, read and refused
    assert "before the deal" in _json_pass(answers[6])
    assert "bad JSON input" in _json_pass(answers[7])
    assert "Traceback" not in err


def test_keep_running_goes_on_after_a_bad_request():
    # a refused request leaves the state as it was: the game goes on from there
    deal = "1 0 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2"
    rc, out, err = program("\n".join(["1", "0 0 0", "", "", deal, "2 H1", "2 W9", ""]) + "\n")
    assert rc == 1, err
    assert out[0] == "PASS" and out[1] == KEEP_RUNNING and out[2] == "PASS" and out[3] == KEEP_RUNNING
    assert out[4] == "PASS" and out[5].startswith("error: ProtocolError") and "'2 H1'" in out[5]
    assert out[7].startswith("PLAY "), out


def _error_lines(err):
    lines = err.splitlines()
    assert "Traceback" not in err and all(ln.startswith("python -m mjfast.botzone: error: ") for ln in lines), err
    return lines


@pytest.mark.parametrize("data", ["garbage\n", '{"requests": ["0 0\n', "3\n0 0 0\nPASS\n", b"\xff\xfe\x00\n"])
def test_garbage_or_truncated_input_is_one_error_line_and_exit_1(data):
    rc, out, err = program(data)
    assert rc == 1 and len(_error_lines(err)) == 1, (rc, out, err)
    assert out[0] == "PASS" or _json_pass(out[0])


def test_each_bad_turn_has_its_line_and_a_good_game_exits_0():
    rc, out, err = program('{"requests": ["0 0 0"]}\n"2 W1"\n"1 0 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2"\n')
    assert rc == 1 and len(_error_lines(err)) == 1 and "before the deal" in err
    rc, out, err = program('{"requests": ["0 0 0"]}\n"1 0 0 0 0 W1 W2 W3 B5 B5 B7 T1 T1 T9 F1 F1 J1 J2"\n')
    assert rc == 0 and err == "" and out == ['{"response": "PASS"}', KEEP_RUNNING] * 2


def test_an_unknown_bot_is_an_error_before_any_input():
    rc, out, err = program('{"requests": ["0 0 0"]}\n', "--bot", "foo")
    assert rc == 2 and out == []
    assert _error_lines(err) == ["python -m mjfast.botzone: error: --bot 'foo': no such bot; "
                                 "the bots are baseline, sample"]


def test_empty_or_closed_input_is_an_error():
    rc, out, err = program("")
    assert rc == 1 and out == [] and _error_lines(err) == ["python -m mjfast.botzone: error: no request: the input is empty"]
    p = subprocess.run([sys.executable, "-m", "mjfast.botzone"], stdin=None, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=ROOT), timeout=60, close_fds=True,
                       preexec_fn=lambda: os.close(0))
    assert p.returncode == 2 and _error_lines(p.stderr) == [
        "python -m mjfast.botzone: error: standard input or output is closed"]


def test_a_reader_that_goes_away_ends_the_program_quietly(tmp_path):
    # many answers into a pipe whose reader has left after the first line
    # (the input is a file: the program never waits for it)
    inp = tmp_path / "in.txt"
    inp.write_text('{"requests": ["0 0 0"]}\n' + '"3 0 PLAY W1"\n' * 50000)
    r, w = os.pipe()
    with open(inp, "rb") as stdin:
        p = subprocess.Popen([sys.executable, "-m", "mjfast.botzone"], stdin=stdin, stdout=w,
                             stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=ROOT))
    os.close(w)
    with os.fdopen(r, "rb") as f:
        assert f.readline() == b'{"response": "PASS"}\n'
    _, err = p.communicate(timeout=120)
    assert p.returncode == 0 and b"Traceback" not in err and b"Broken pipe" not in err, err[-2000:]
