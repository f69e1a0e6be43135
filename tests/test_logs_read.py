"""mjfast.logs readers: the text archive and the match JSON (no rules involved)."""
import io
import json
import os

import pytest

import mjfast.logs as L
from mjfast.logs.jsonlog import iter_json_values, match_from_json, read_json
from mjfast.logs.scoring import split_tasks, detect_format
from mjfast.logs.text import parse_text_lines

import logs_helpers as H

HERE = os.path.dirname(__file__)
ARCHIVE = os.path.join(HERE, "data", "logs", "archive.txt")

HEAD = """Match m1
Wind 2
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B2 B3 B4 T5
Player 1 Deal B1 B1 B5 B6 T1 T2 T3 T7 T8 F1 F2 J1 J2
Player 2 Deal B7 B8 B9 T4 T4 T6 T6 F3 F3 J3 J3 W1 W9
Player 3 Deal B5 B5 T1 T9 T9 F2 F4 F4 J1 J2 W2 W8 B6
"""


def parse(text):
    return list(parse_text_lines(io.StringIO(text)))


def test_archive_fixture_reads_every_match():
    ms = list(L.read(ARCHIVE))
    assert len(ms) == 24
    assert ms[0].id == "selfdrawn-first-draw" and ms[0].quan == 0 and ms[0].pos == 1
    assert [e.kind for e in ms[0].events] == ["DRAW", "HU"]
    assert ms[0].events[0].pos == 7 and ms[0].recorded_total == 23
    assert ms[0].recorded_fans == [("清龙", 1), ("不求人", 1), ("平和", 1), ("单钓将", 1)]
    assert ms[0].recorded_scores == [93, -31, -31, -31]


def test_claim_lines_carry_their_play_line_and_ignore_clauses():
    m = parse(HEAD + "Player 0 Draw T4\nPlayer 0 Play T4\n"
                     "Player 2 Peng T4 Ignore Player 1 Chi T3 Ignore Player 3 HU T4\nPlayer 2 Play B9\n"
                     "Player 3 Chi B8\nPlayer 3 Play W2\n")[0]
    assert m.problem is None
    peng, chi = m.events[2], m.events[3]
    assert (peng.kind, peng.seat, peng.tile, peng.discard, peng.pos, peng.discard_pos) == ("PENG", 2, "T4", "B9", 9, 10)
    assert peng.ignored == (L.Claim(1, "CHI", "T3", None), L.Claim(3, "HU", "T4", None))
    assert (chi.kind, chi.tile, chi.discard, chi.pos, chi.discard_pos) == ("CHI", "B8", "W2", 11, 12)


def test_ignore_clause_words_any_case():
    m = parse(HEAD + "Player 0 Draw T5\nPlayer 0 Play T5\nPlayer 1 Hu T5 Ignore Player 0 PENG T5 Ignore Player 3 CHI T4\n")[0]
    assert m.problem is None
    assert [(c.seat, c.kind, c.tile) for c in m.events[-1].ignored] == [(0, "PENG", "T5"), (3, "CHI", "T4")]
    assert m.end == "hu" and m.end_pos == 9


@pytest.mark.parametrize("line, reason", [
    ("Player 0 Fly W1", "unknown action 'Fly'"),
    ("Player 4 Draw W1", "bad seat '4'"),
    ("Player 0 Draw Z1", "unknown tile 'Z1'"),
    ("Player 0 Draw", "expected 'Player 0 Draw <tile>'"),
    ("Player 0 Play W1 W2", "expected 'Player 0 Play <tile>'"),
    ("Player 0 Peng", "expected 'Player 0 Peng <tile>'"),
    ("Player 1 Hu W1 Ignore Player 9 Hu W1", "bad Ignore clause"),
    ("Player 1 Hu W1 Ignore Someone", "expected 'Ignore Player <n> <claim> <tile>'"),
    ("Score 1 2 3", "Score line before the end"),
    ("Fan 8 无番和*1", "a Fan line without a Hu"),
    ("Wind 1", "a second Wind line"),
    ("Player 0 Deal W1 W2", "player 0 is dealt twice"),
    ("Hello world", "unknown line"),
    ("Player 0 BuHua W1", "BuHua needs a flower"),
])
def test_malformed_line_is_reported_with_its_line_and_the_next_match_is_read(line, reason):
    ms = parse(HEAD + "Player 0 Draw T5\n" + line + "\nPlayer 0 Play T5\n" + HEAD.replace("m1", "m2"))
    assert len(ms) == 2
    assert ms[0].problem is not None
    assert ms[0].problem[0] == 8, ms[0].problem
    assert reason in ms[0].problem[1]
    assert ms[1].id == "m2" and ms[1].problem is None


def test_short_deal():
    m = parse(HEAD.replace("Player 3 Deal B5 B5 T1 T9 T9 F2 F4 F4 J1 J2 W2 W8 B6", "Player 3 Deal B5 B5 H1"))[0]
    assert m.problem == (6, "a deal has 13 tiles, got 2")


def test_chi_without_its_play_line():
    m = parse(HEAD + "Player 0 Draw B7\nPlayer 0 Play B7\nPlayer 1 Chi B8\nPlayer 2 Draw W1\n")[0]
    assert m.problem == (10, "a Chi must be followed by the claimer's Play line (line 9)")
    m = parse(HEAD + "Player 0 Draw B7\nPlayer 0 Play B7\nPlayer 1 Peng B7\n")[0]
    assert m.problem[0] == 9 and "not followed" in m.problem[1]


def test_lines_after_the_end_and_before_the_first_match():
    ms = parse("junk line\n" + HEAD + "Player 0 Draw T5\nPlayer 0 Hu T5\nFan 23 清龙*1\nScore 93 -31 -31 -31\n"
               "Player 1 Draw W1\n")
    assert ms[0].id is None and ms[0].problem[0] == 1
    assert ms[1].problem[0] == 12 and "after the end of the match" in ms[1].problem[1]


def test_error_rule_score_line_without_hu():
    m = parse(HEAD + "Player 0 Draw T5\nPlayer 0 Play T5\nScore 10 -30 10 10\n")[0]
    assert m.problem is None and m.end == "error" and m.error_seat == 1


def test_reader_streams():
    """The first match is yielded before the reader looks past the next Match line."""
    def lines():
        yield from io.StringIO(HEAD + "Player 0 Draw T5\nPlayer 0 Hu T5\n" + HEAD.replace("m1", "m2"))
        raise AssertionError("read too far")
    it = parse_text_lines(lines())
    assert next(it).id == "m1"


def test_split_tasks_cut_at_match_lines_with_line_numbers(tmp_path):
    text = open(ARCHIVE, encoding="utf-8").read() * 3
    p = tmp_path / "big.txt"
    p.write_text(text, encoding="utf-8")
    whole = [(m.id, m.pos, m.problem, [e.pos for e in m.events]) for m in L.read(str(p))]
    for chunk in (200, 1000, 5000, 1 << 20):
        tasks = split_tasks([str(p)], chunk_bytes=chunk)
        parts = []
        for path, fmt, a, b, line in tasks:
            parts += [(m.id, m.pos, m.problem, [e.pos for e in m.events])
                      for m in L.iter_matches(path, fmt, a, b, line)]
        assert parts == whole, chunk
    assert len(split_tasks([str(p)], chunk_bytes=1000)) > 10


# -- JSON -----------------------------------------------------------------------------

def test_iter_json_values_streams_a_list_in_small_chunks():
    data = json.dumps([{"k": i, "pad": "x" * i} for i in range(300)])
    got = list(iter_json_values(io.StringIO(data), chunk=17))
    assert got[0] == ("list", None) and [v["k"] for _t, v in got[1:]] == list(range(300))
    with pytest.raises(ValueError, match="element 299"):
        list(iter_json_values(io.StringIO(data[:-10]), chunk=64))


def test_json_match_events_and_losing_claims():
    m = match_from_json(H.claims_json(), "c")
    assert m.problem is None and m.quan == 2
    hu = m.events[-1]
    assert (hu.kind, hu.seat, hu.tile, hu.pos) == ("HU", 1, "B3", 16)
    assert hu.ignored == (L.Claim(0, "PENG", None, "PENG T6"), L.Claim(3, "CHI", None, "CHI B4 T9"))
    assert m.recorded_total == 21 and m.recorded_scores == [-8, 45, -29, -8]


@pytest.mark.parametrize("shape", ["object", "list", "bare-logs", "lines", "object-initdata"])
def test_json_file_shapes(tmp_path, shape):
    a = H.selfdrawn_json(match_id="A")
    b = H.claims_json(match_id="B", initdata="object")
    p = tmp_path / "m.json"
    if shape == "object":
        p.write_text(json.dumps(a))
        want = ["A"]
    elif shape == "object-initdata":
        p.write_text(json.dumps(b))
        want = ["B"]
    elif shape == "list":
        p.write_text(json.dumps([a, b, a]))
        want = ["A", "B", "A"]
    elif shape == "bare-logs":
        p.write_text(json.dumps(a["logs"]))
        want = ["m"]
    else:
        p.write_text(json.dumps(a) + "\n" + json.dumps(b) + "\n")
        want = ["A", "B"]
    assert detect_format(str(p)) == "json"
    ms = list(L.read(str(p)))
    assert [m.id for m in ms] == want
    assert all(m.problem is None and m.end == "hu" for m in ms)


def test_json_directory_and_bad_files(tmp_path):
    (tmp_path / "2.json").write_text(json.dumps(H.claims_json()))
    (tmp_path / "1.json").write_text(json.dumps(H.selfdrawn_json()))
    (tmp_path / "3.json").write_text(json.dumps(H.selfdrawn_json())[:-30])
    (tmp_path / "notes.txt").write_text("not read")
    ms = list(read_json(str(tmp_path)))
    assert [m.id for m in ms] == ["1", "2", "3#0"]
    assert ms[2].problem is not None and "bad JSON" in ms[2].problem[1]


def test_json_malformed_entries():
    obj = H.selfdrawn_json()
    obj["logs"][4]["output"]["display"]["tile"] = "Q7"
    m = match_from_json(obj, "x")
    assert m.problem == (4, "DRAW with a bad tile 'Q7'")
    obj = H.selfdrawn_json()
    obj["initdata"] = "{not json"
    assert match_from_json(obj, "x").problem == (0, "initdata is not valid JSON")
    assert match_from_json({"foo": 1}, "x").problem == (0, "not a match record: no 'logs' list")
    obj = H.selfdrawn_json()
    obj["logs"][2]["output"]["display"]["hand"][1] = ["W1"]
    assert match_from_json(obj, "x").problem == (2, "player 1 is dealt 1 tiles, not 13")


def test_pmn_is_recognised_and_reported(tmp_path):
    p = tmp_path / "g.pmn"
    p.write_text('[Event "Duplicate MCR"]\n[Deal "c7d345677b3689w2r1f c79d12558b45w13r23f'
                 ' c11267db4589w334r2f c5668d279b3789w4r3f"]\n[Play "T0r2D0r1"]\n')
    assert detect_format(str(p)) == "pmn"
    df = L.score(str(p))
    s = df.attrs["summary"]
    assert (s.matches, s.skipped, len(df)) == (1, 1, 0)
    assert "PMN" in s.problems[0].reason


def test_crlf_and_bad_utf8(tmp_path):
    text = open(ARCHIVE, encoding="utf-8").read()
    p = tmp_path / "crlf.txt"
    p.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert [(m.id, m.problem, [e.pos for e in m.events]) for m in L.read(str(p))] == \
        [(m.id, m.problem, [e.pos for e in m.events]) for m in L.read(ARCHIVE)]
    p = tmp_path / "bad.txt"
    p.write_bytes(text.encode("utf-8").replace(b"Player 0 Draw T5\n", b"Player 0 Draw T\xff\n", 1))
    ms = list(L.read(str(p)))
    assert ms[0].problem == (7, "unknown tile 'T\ufffd'")
    assert ms[2].problem is None and len(ms) == 24


def test_api_argument_errors(tmp_path):
    with pytest.raises(TypeError):
        L.score(123)
    with pytest.raises(TypeError):
        L.read(["a", "b"])
    with pytest.raises(FileNotFoundError):
        L.score([str(tmp_path / "missing.txt")])
