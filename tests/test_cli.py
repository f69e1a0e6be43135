"""The command line (mjfast.cli) and the JSON-lines scorer (mjfast.io.jsonl)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

import mjfast
from mjfast.cli import main
from mjfast.io import jsonl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from vectors_mcr import VECTORS  # noqa: E402


def run(capsys, *argv):
    """(exit code, stdout, stderr) of main(argv) in-process."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_module(args, stdin=None):
    """``python -m mjfast ARGS`` in a subprocess."""
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run([sys.executable, "-m", "mjfast", *args], input=stdin, capture_output=True,
                          cwd=ROOT, env=env, timeout=120)


def lines_of(text):
    return [json.loads(line) for line in text.splitlines()]


# ---------------------------------------------------------------- score HAND


def test_score_table_example(capsys):
    code, out, err = run(capsys, "score", "[567m2][EEE1]45m678pFF6m")
    assert code == 0 and err == ""
    s = mjfast.score("[567m2][EEE1]45m678pFF6m")
    for f in s.fans:
        assert f.name in out and f.zh in out
    assert "Total" in out and str(s.total) in out
    assert "Legal win" in out and ": no" in out  # 5 points
    assert "discarder pays 13" in out  # generic discard settlement: 8 + F
    assert "winner gains 29" in out
    assert "[567m] [EEE] 456m 678p FF" in out


@pytest.mark.parametrize("hand,kwargs,fans,total", VECTORS[:12])
def test_score_table_vectors(capsys, hand, kwargs, fans, total):
    argv = ["score", hand]
    for k, v in kwargs.items():
        if v is True:
            argv.append("--" + k.replace("_", "-"))
        elif k in ("seat_wind", "round_wind"):
            argv += ["--seat" if k == "seat_wind" else "--round", str(v)]
        elif k == "flowers":
            argv += ["--flowers", str(v)]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    for name in fans:
        assert name in out
    total_line = [ln for ln in out.splitlines() if ln.strip().startswith("Total") and "|" not in ln][-1]
    assert total_line.split()[1] == str(total)


def test_score_spec_vector_total_23(capsys):
    code, out, _ = run(capsys, "score", "123m456m789m123p5p5p")
    assert code == 0
    assert "Pure Straight" in out and "清龙" in out
    total_line = [ln for ln in out.splitlines() if ln.strip().startswith("Total")][-1]
    assert total_line.split()[-1] == "23"
    assert "Legal win (at least 8 points without flowers): yes" in out


def test_score_words_joined(capsys):
    code, out, _ = run(capsys, "score", "123m", "456m", "789m", "123p", "5p", "5p", "--json")
    assert code == 0 and json.loads(out)["total"] == 23


def test_score_lang_zh_puts_chinese_first(capsys):
    code, out, _ = run(capsys, "score", "123m456m789m123p5p5p", "--lang", "zh")
    assert code == 0
    row = next(ln for ln in out.splitlines() if "清龙" in ln)
    assert row.index("清龙") < row.index("Pure Straight")
    assert "合计" in out
    code, out, _ = run(capsys, "score", "123m456m789m123p5p5p")
    row = next(ln for ln in out.splitlines() if "清龙" in ln)
    assert row.index("Pure Straight") < row.index("清龙")


def test_score_json(capsys):
    code, out, err = run(capsys, "score", "123m456m789m123p5p5p", "--json", "--flowers", "2")
    assert code == 0 and err == ""
    d = json.loads(out)
    s = mjfast.score("123m456m789m123p5p5p", flowers=2)
    expected = s.as_dict()
    assert {k: d[k] for k in expected} == expected
    assert d["total"] == 25 and d["legal"] is True
    st = d["settlement"]
    assert st["winner"] == 24 + 25 and st["discarder_pays"] == 8 + 25 and st["others_pay"] == 8
    assert st["seats"] is None


def test_score_settlement_self_drawn_and_discarder(capsys):
    code, out, _ = run(capsys, "score", "123m456m789m123p5p5p", "--self-drawn", "--json")
    st = json.loads(out)["settlement"]
    f = mjfast.score("123m456m789m123p5p5p", self_drawn=True).total
    assert st["seats"] == [3 * (8 + f), -(8 + f), -(8 + f), -(8 + f)]
    assert st["winner"] == 3 * (8 + f)

    code, out, _ = run(capsys, "score", "123m456m789m123p5p5p", "--discarder", "3", "--json")
    assert json.loads(out)["settlement"]["seats"] == [24 + 23, -8, -8, -(8 + 23)]
    code, out, _ = run(capsys, "score", "123m456m789m123p5p5p", "--discarder", "1")
    assert code == 0
    assert "+47" in out and "-31  discarder" in out

    # spec 10 example: F = 12 (10 points + 2 flowers)
    code, out, _ = run(capsys, "score", "234s567s234p567p5m5m", "--flowers", "2", "--json")
    st = json.loads(out)["settlement"]
    assert (st["discarder_pays"], st["others_pay"], st["winner"]) == (20, 8, 36)


def test_score_invalid_hand_exit_2(capsys):
    code, out, err = run(capsys, "score", "123m456m789m123p5p5x")
    assert code == 2 and out == ""
    assert err.startswith("mjfast: error: ") and "unknown tile" in err
    assert err.count("\n") == 1


def test_score_not_winning_exit_2(capsys):
    code, out, err = run(capsys, "score", "123m456m789m123p5p6p")
    assert code == 2 and out == ""
    assert err == "mjfast: error: not a winning hand: 123m456m789m123p5p6p\n"


def test_score_fifth_tile_exit_2(capsys):
    code, _, err = run(capsys, "score", "11111m456m789m12p3p")
    assert code == 2 and "fifth copy" in err


def test_score_self_drawn_with_discarder_is_an_error(capsys):
    code, _, err = run(capsys, "score", "123m456m789m123p5p5p", "--self-drawn", "--discarder", "2")
    assert code == 2 and "no discarder" in err


def test_score_bad_options(capsys):
    with pytest.raises(SystemExit) as ei:
        main(["score", "123m456m789m123p5p5p", "--seat", "Q"])
    assert ei.value.code == 2
    with pytest.raises(SystemExit) as ei:
        main(["score", "123m456m789m123p5p5p", "--flowers", "9"])
    assert ei.value.code == 2
    capsys.readouterr()
    code, _, err = run(capsys, "score")
    assert code == 2 and "give a hand" in err


def test_score_winds_and_flags(capsys):
    code, out, _ = run(capsys, "score", "EEESSSWWW123mNN", "--seat", "S", "--round", "s", "--json")
    assert code == 0
    assert json.loads(out)["total"] == 97  # spec vector: seat S, round S


def test_version(capsys):
    with pytest.raises(SystemExit) as ei:
        main(["--version"])
    assert ei.value.code == 0
    assert mjfast.__version__ in capsys.readouterr().out


def test_no_command_prints_help(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "score" in err


# ---------------------------------------------------------------- score --jsonl

MIXED = [
    '{"id": "a", "hand": "123m456m789m123p5p5p"}',                       # 1 ok, 23
    '{"id": "b", "hand": "123m456m789m123p5p5p"',                        # 2 bad JSON
    '{"id": "c", "hand": "11111m456m789m12p3p"}',                        # 3 fifth tile
    '{"id": 4, "hand": "123m456m789m123p5p6p"}',                         # 4 not winning
    '{"id": "e", "self_drawn": true}',                                   # 5 missing hand
    '',                                                                  # 6 blank line
    '{"id": "g", "hand": "123m456m789m123p5p5p", "self_drawn": "yes"}',  # 7 wrong type
    '{"id": "h", "hand": "123m456m789m123p5p5p", "seat_wind": 1, "round_wind": "S", "flowers": 3, "x": 1}',  # 8 ok
    '[1, 2]',                                                            # 9 not an object
    '{"hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": true}',          # 10 ok, no id
    '{"id": "k", "hand": "123m456m789m123p5p5p", "seat_wind": "Q"}',     # 11 bad wind
    '{"id": "l", "hand": "123m456m789m123p5p5p", "flowers": 9}',         # 12 bad flowers
]


def check_mixed(results):
    assert len(results) == len(MIXED)
    ok = {1, 8, 10}
    for n, r in enumerate(results, 1):
        if n in ok:
            assert "error" not in r and "line" not in r, (n, r)
            assert set(r) == {"id", "total", "fans", "legal"}
        else:
            assert set(r) == {"id", "line", "error"}, (n, r)
            assert r["line"] == n
            assert r["error"]
    assert [r["id"] for r in results] == ["a", None, "c", 4, "e", None, "g", "h", None, None, "k", "l"]
    assert results[0]["total"] == 23 and results[0]["legal"] is True
    assert results[0]["fans"][0] == {"name": "Pure Straight", "zh": "清龙", "points": 16, "count": 1}
    assert results[7]["total"] == 26  # 23 + 3 flowers
    assert results[9] == {"id": None, **mjfast.score("[567m2][EEE1]45m678pFF6m", self_drawn=True).as_dict()}
    assert results[1]["error"].startswith("bad JSON")
    assert "fifth copy" in results[2]["error"]
    assert "not a winning hand" in results[3]["error"]
    assert results[4]["error"] == "missing field 'hand'"
    assert results[5]["error"] == "blank line"
    assert "self_drawn" in results[6]["error"]
    assert "JSON object" in results[8]["error"]
    assert "seat_wind" in results[10]["error"]
    assert "flowers" in results[11]["error"]


def test_jsonl_mixed_files(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    dst = tmp_path / "out.jsonl"
    src.write_text("\n".join(MIXED) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "score", "--jsonl", str(src), str(dst))
    assert code == 1
    assert out == ""
    check_mixed(lines_of(dst.read_text(encoding="utf-8")))
    assert "scored 12 records, 9 errors in" in err and "records/s" in err


def test_jsonl_mixed_to_stdout_no_final_newline(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(MIXED), encoding="utf-8")  # no newline at the end
    code, out, err = run(capsys, "score", "--jsonl", str(src), "-")
    assert code == 1
    check_mixed(lines_of(out))
    assert "9 errors" in err


def test_jsonl_stdin_in_process(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(MIXED) + "\n"))
    code, out, err = run(capsys, "score", "--jsonl")
    assert code == 1
    check_mixed(lines_of(out))
    assert "scored 12 records" in err


def test_jsonl_stdin_subprocess():
    p = run_module(["score", "--jsonl", "-"], stdin=("\n".join(MIXED) + "\n").encode("utf-8"))
    assert p.returncode == 1
    check_mixed(lines_of(p.stdout.decode("utf-8")))
    err = p.stderr.decode("utf-8")
    assert "scored 12 records, 9 errors" in err
    assert "\r" not in err  # no progress bar on a non-TTY


def test_jsonl_all_good_exit_0(tmp_path, capsys):
    import handgen

    recs = list(handgen.iter_winning_records(300, seed=5))
    for i, r in enumerate(recs):
        r["id"] = i
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    code, out, err = run(capsys, "score", "--jsonl", str(src), "--chunk-size", "7", "--no-progress")
    assert code == 0
    results = lines_of(out)
    assert [r["id"] for r in results] == list(range(300))
    for r, rec in zip(results, recs):
        kw = {k: v for k, v in rec.items() if k not in ("id", "hand")}
        assert r == {"id": rec["id"], **mjfast.score(rec["hand"], **kw).as_dict()}
    assert "scored 300 records, 0 errors" in err


def test_jsonl_empty_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "score", "--jsonl")
    assert code == 0 and out == "" and "scored 0 records, 0 errors" in err


def test_jsonl_blank_and_crlf_lines():
    data = b'{"id":1,"hand":"123m456m789m123p5p5p"}\r\n\r\n   \n{"id":2,"hand":"123m456m789m123p5p5p"}'
    out = []
    n, k = jsonl.process_jsonl(io.BytesIO(data), out.append)
    res = lines_of(b"".join(out).decode())
    assert (n, k) == (4, 2)
    assert [r.get("error") for r in res] == [None, "blank line", "blank line", None]
    assert [r.get("line") for r in res] == [None, 2, 3, None]


def test_jsonl_invalid_utf8_is_a_bad_record():
    data = b'\xff\xfe{}\n{"id":2,"hand":"123m456m789m123p5p5p"}\n'
    out = []
    n, k = jsonl.process_jsonl(io.BytesIO(data), out.append)
    res = lines_of(b"".join(out).decode())
    assert (n, k) == (2, 1) and res[0]["line"] == 1 and res[0]["error"].startswith("bad JSON")
    assert res[1]["total"] == 23


def test_jsonl_rejects_single_hand_options(capsys):
    code, _, err = run(capsys, "score", "--jsonl", "--self-drawn")
    assert code == 2 and "--self-drawn" in err
    code, _, err = run(capsys, "score", "--jsonl", "a", "b", "c")
    assert code == 2


def test_jsonl_missing_input_file(tmp_path, capsys):
    code, _, err = run(capsys, "score", "--jsonl", str(tmp_path / "nope.jsonl"))
    assert code == 2 and err.startswith("mjfast: error: cannot read")


def test_validate_record_types():
    v = jsonl.validate_record
    assert v({"hand": "x"}) == ("x", False, False, False, False, 0, 0, 0)
    assert v({"hand": "x", "seat_wind": "n", "round_wind": 2, "flowers": 8, "kong": None}) == \
        ("x", False, False, False, False, 3, 2, 8)
    for bad in ({"hand": "x", "self_drawn": 1}, {"hand": "x", "flowers": 2.0},
                {"hand": "x", "flowers": True}, {"hand": "x", "seat_wind": 4},
                {"hand": "x", "round_wind": True}, {"hand": ["x"]}, {}):
        with pytest.raises(jsonl.RecordError):
            v(bad)


def test_score_records_matches_score():
    """score_records gives exactly mjfast.score(...).as_dict() plus the id, and the spec vectors."""
    import handgen

    recs = list(handgen.iter_winning_records(2000, seed=11))
    recs += [{"hand": h, **kw} for h, kw, _fans, _total in VECTORS]
    for i, r in enumerate(recs):
        r["id"] = i
    fast = jsonl.score_records(recs)
    for r, rec in zip(fast, recs):
        kw = {k: v for k, v in rec.items() if k not in ("id", "hand")}
        assert r == {"id": rec["id"], **mjfast.score(rec["hand"], **kw).as_dict()}
    by_hand = {(rec["hand"], tuple(sorted((k, v) for k, v in rec.items() if k not in ("id", "hand")))): r
               for rec, r in zip(recs, fast)}
    for h, kw, fans, total in VECTORS:
        r = by_hand[(h, tuple(sorted(kw.items())))]
        assert r["total"] == total
        assert {f["name"]: (f["points"], f["count"]) for f in r["fans"]} == fans


def test_jsonl_json_fallback(tmp_path):
    """Without orjson the standard json module gives the same results."""
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(MIXED) + "\n", encoding="utf-8")
    code = ("import sys; sys.modules['orjson'] = None\n"
            "from mjfast.io import jsonl\n"
            "assert jsonl.JSON_BACKEND == 'json'\n"
            "from mjfast.cli import main\n"
            f"sys.exit(main(['score', '--jsonl', {str(src)!r}]))\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONIOENCODING="utf-8")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, env=env, timeout=120)
    assert p.returncode == 1, p.stderr
    check_mixed(lines_of(p.stdout.decode("utf-8")))


# ---------------------------------------------------------------- fans, shanten, waits


def test_fans_list(capsys):
    code, out, _ = run(capsys, "fans")
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == len(mjfast.MCR) + 1
    assert "Pure Straight" in out and "清龙" in out
    row = next(r for r in rows if "Pure Straight" in r)
    assert row.split()[:2] == ["28", "16"]
    code, out, _ = run(capsys, "fans", "--lang", "zh")
    row = next(r for r in out.splitlines() if "Pure Straight" in r)
    assert row.index("清龙") < row.index("Pure Straight")


@pytest.mark.parametrize("query", ["pure_straight", "28", "Pure Straight", "pure straight", "清龙"])
def test_fans_describe(capsys, query):
    code, out, _ = run(capsys, "fans", query)
    assert code == 0 and out.startswith("#28 Pure Straight (清龙), 16 points")


def test_fans_unknown(capsys):
    code, _, err = run(capsys, "fans", "pure_stright")
    assert code == 2 and "pure_straight" in err
    code, _, err = run(capsys, "fans", "999")
    assert code == 2


def test_shanten(capsys):
    code, out, _ = run(capsys, "shanten", "123m456p789sEE12s")
    assert code == 0
    assert "Shanten: 0" in out and "Waits: 3s" in out
    code, out, _ = run(capsys, "shanten", "123m456p789sEE19s")
    assert "Shanten: 1" in out and "Useful tiles:" in out
    useful = [mjfast.tile_name(t) for t in mjfast.useful_tiles("123m456p789sEE19s")]
    assert " ".join(useful) in out
    code, out, _ = run(capsys, "shanten", "123m456p789sEE12s3s")
    assert "Shanten: -1" in out
    # a short hand without brackets implies its melds, as in the API: 1111m = 4 tiles + 3 melds
    code, out, _ = run(capsys, "shanten", "1111m")
    assert code == 0 and "Shanten: 0" in out and "Waits: none" in out
    code, _, err = run(capsys, "shanten", "11m")
    assert code == 0
    code, _, err = run(capsys, "shanten", "111m")
    assert code == 2 and err.startswith("mjfast: error:")


def test_waits(capsys):
    code, out, _ = run(capsys, "waits", "1112345678999m")
    assert code == 0 and "Waits: 1m 2m 3m 4m 5m 6m 7m 8m 9m" in out
    code, out, _ = run(capsys, "waits", "123m456p789sEE19s")
    assert code == 0 and "none" in out
    code, _, err = run(capsys, "waits", "123m456p789sEE1s")
    assert code == 2 and "13-tile" in err


def test_module_entry_point():
    p = run_module(["score", "123m456m789m123p5p5p", "--json"])
    assert p.returncode == 0
    assert json.loads(p.stdout.decode("utf-8"))["total"] == 23
    p = run_module(["score", "123m456m789m123p5p6p"])
    assert p.returncode == 2
    assert p.stderr.decode("utf-8").startswith("mjfast: error: not a winning hand")
