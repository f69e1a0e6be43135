"""Hostile match archives: every bad file is one skipped match (or skipped
file) with its reason, every other match is still scored, the summary is
printed and the exit code is the documented one (docs/logs.md, "Limits");
memory stays bounded on junk."""
import builtins
import json
import os
import re
import subprocess
import sys

import pandas as pd
import pytest

import logs_helpers as H
import mjfast.logs as logs
import mjfast.logs.jsonlog as J
from mjfast.cli import main
from mjfast.logs.limits import MAX_JSON_DEPTH, MAX_LINE_CHARS, MAX_RECORDED, MAX_TEXT_MATCH_BYTES, recorded_int
from mjfast.logs.scoring import split_tasks
from mjfast.logs.text import text_blocks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "logs")
ARCHIVES = [os.path.join(DATA, "archive.txt"), os.path.join(DATA, "edge.txt"),
            os.path.join(ROOT, "docs", "examples", "games.txt")]
N_GOOD = 56
BAD_NAME = "20.json"


def _good(i):
    make = H.selfdrawn_json if i % 2 else H.claims_json
    return json.dumps(make(match_id=f"m{i}")).encode()


def _with_finish(edit):
    m = H.selfdrawn_json(match_id="bad")
    edit(m["logs"][-1]["output"])
    return json.dumps(m).encode()


def _cnt(value):
    return json.dumps(H.selfdrawn_json(match_id="bad")).replace('"cnt": 1, "value": 16', f'"cnt": {value}, '
                                                                '"value": 16').encode()


def _finish_inf(out):
    del out["display"]["score"]
    out["content"]["0"] = float("inf")


def _deep():
    text = json.dumps(H.selfdrawn_json(match_id="bad"))
    return (text[:-1] + ', "debug": ' + "[" * 200000 + "]" * 200000 + "}").encode()


def _total(v):
    return _with_finish(lambda out: out["display"].__setitem__("fanCnt", v))


# kind -> (bytes of the bad file, a piece of the reason); None: the file is good
BAD = {
    "nested-200000": (_deep, f"nested more than {MAX_JSON_DEPTH} deep"),
    "cnt-Infinity": (lambda: _cnt("Infinity"), "is not a finite number: inf"),
    "cnt-1e400": (lambda: _cnt("1e400"), "is not a finite number: inf"),
    "cnt-1.9": (lambda: _cnt("1.9"), "is not a whole number: 1.9"),
    "finish-Infinity": (lambda: _with_finish(_finish_inf), "the recorded score of player 0 is not a finite number"),
    "total-3e9": (lambda: _total(3_000_000_000), "fanCnt 3000000000 is out of range"),
    "total-2^63": (lambda: _total(2 ** 63), f"fanCnt {2 ** 63} is out of range"),
    "total-2^70": (lambda: _total(2 ** 70), f"fanCnt {2 ** 70} is out of range"),
    "unreadable": (lambda: _good(99), "cannot read: Permission denied"),
    "too-large": (lambda: json.dumps(H.selfdrawn_json(match_id="big") | {"pad": "x" * 300_000}).encode(),
                  "larger than 100000 characters"),
    "bom": (lambda: b"\xef\xbb\xbf" + _good(99), None),
}


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """Make a directory of 57 match JSON files, one of them bad."""
    # a small limit for the too-large case, so the test stays quick
    monkeypatch.setattr(J, "MAX_JSON_CHARS", 100_000)
    monkeypatch.setattr(J, "WHOLE_FILE_BYTES", 100_000)

    def make(kind, name="d"):
        d = tmp_path / name
        d.mkdir()
        for i in range(N_GOOD + 1):
            if i != 20:
                (d / f"{i:02d}.json").write_bytes(_good(i))
        (d / BAD_NAME).write_bytes(BAD[kind][0]())
        if kind == "unreadable":
            bad = str(d / BAD_NAME)
            real = builtins.open

            def deny(file, *a, **kw):
                if isinstance(file, (str, os.PathLike)) and os.fspath(file) == bad:
                    raise PermissionError(13, "Permission denied", bad)
                return real(file, *a, **kw)
            monkeypatch.setattr(builtins, "open", deny)
        return str(d)
    return make


def _expect(summary, kind):
    reason = BAD[kind][1]
    if reason is None:
        assert (summary.matches, summary.replayed, summary.skipped) == (N_GOOD + 1, N_GOOD + 1, 0)
        return
    assert (summary.matches, summary.replayed, summary.skipped) == (N_GOOD + 1, N_GOOD, 1)
    [p] = summary.problems
    assert p.kind == "match" and os.path.basename(p.file) == BAD_NAME and reason in p.reason, p


@pytest.mark.parametrize("kind", sorted(BAD))
def test_logs_score_export_and_stats_go_on_past_a_bad_file(hostile, kind, tmp_path, capsys):
    d = hostile(kind)
    n_wins = N_GOOD + (BAD[kind][1] is None)
    code = 0 if BAD[kind][1] is None else 1

    out = tmp_path / "rows.jsonl"
    assert main(["logs", "score", d, "--out", str(out), "--no-progress"]) == code
    err = capsys.readouterr().err
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == n_wins and all(r["total"] == r["recorded_total"] for r in rows)
    assert f"matches read {N_GOOD + 1} = replayed {n_wins} + skipped {N_GOOD + 1 - n_wins}" in err
    assert f"wins found {n_wins} = wins scored {n_wins}" in err
    if code:
        assert BAD_NAME in err and BAD[kind][1] in err and "Traceback" not in err

    pq = tmp_path / "rows.parquet"
    assert main(["logs", "score", d, "--out", str(pq), "--no-progress", "--workers", "2"]) == code
    capsys.readouterr()
    back = pd.read_parquet(pq)
    assert list(back["match"]) == [r["match"] for r in rows]

    hands = tmp_path / "hands.jsonl"
    assert main(["logs", "export", d, "--out", str(hands), "--no-progress"]) == code
    err = capsys.readouterr().err
    assert len(hands.read_text().splitlines()) == n_wins
    assert f"wins found {n_wins} = wins exported {n_wins}\n" in err + "\n"
    if code:
        assert BAD[kind][1] in err

    assert main(["stats", "logs", d, "--json"]) == code
    got = capsys.readouterr()
    payload = json.loads(got.out)
    assert payload["matches"] == {"read": N_GOOD + 1, "replayed": n_wins, "skipped": N_GOOD + 1 - n_wins,
                                  "wins": n_wins}
    if code:
        assert BAD[kind][1] in got.err

    df = logs.score(d)
    assert len(df) == n_wins and str(df["recorded_total"].dtype) == "Int64"
    _expect(df.attrs["summary"], kind)
    two = logs.score(d, workers=2)
    pd.testing.assert_frame_equal(df, two)
    _expect(two.attrs["summary"], kind)


def test_every_bad_file_at_once_on_dask(hostile, tmp_path, capsys):
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("dask.distributed")
    import mjfast.dask as mjd
    # one directory holding each bad file next to the 56 good ones
    d = hostile("cnt-1.9")
    for k, kind in enumerate(sorted(set(BAD) - {"cnt-1.9", "unreadable"})):
        with open(os.path.join(d, f"20-{k:02d}.json"), "wb") as f:
            f.write(BAD[kind][0]())
    bad = sorted(set(BAD) - {"bom", "unreadable"})
    single = logs.score(d)
    s = single.attrs["summary"]
    assert len(single) == N_GOOD + 1 and s.skipped == len(s.problems) == len(bad)
    assert all(any(BAD[k][1] in p.reason for p in s.problems) for k in bad)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        units = list(mjd.process_logs([d]))
        got = mjd.score_logs([d]).compute().reset_index(drop=True)
        assert main(["logs", "score", d, "--out", str(tmp_path / "r.jsonl"), "--no-progress",
                     "--scheduler", cluster.scheduler_address]) == 1
    err = capsys.readouterr().err
    assert [p.reason for _r, _w, u in units for p in u.problems] == [p.reason for p in s.problems]
    assert sum(len(r) for r, _w, _u in units) == len(single)
    pd.testing.assert_frame_equal(got, single.reset_index(drop=True), check_dtype=False)
    assert f"skipped {len(bad)}" in err and len((tmp_path / "r.jsonl").read_text().splitlines()) == len(single)


# -- text archives --------------------------------------------------------------------------

def _text_match(i=0):
    """The i-th win of docs/examples/games.txt (engine games: each replays)."""
    with open(ARCHIVES[2], encoding="utf-8") as f:
        ms = re.split(r"(?m)^(?=Match )", f.read())
    return [m for m in ms if "\nFan " in m][i]


def _text_bad(edit):
    return edit(_text_match(0)).encode()


TEXT_BAD = {
    "fan-total-3e9": (lambda: _text_bad(lambda m: _sub_fan(m, lambda w: ["Fan", "3000000000"] + w[2:])),
                      "the recorded fan total 3000000000 is out of range"),
    "fan-total-2^70": (lambda: _text_bad(lambda m: _sub_fan(m, lambda w: ["Fan", str(2 ** 70)] + w[2:])),
                       f"the recorded fan total {2 ** 70} is out of range"),
    "fan-count-1.9": (lambda: _text_bad(lambda m: _sub_fan(m, lambda w: w[:2] + [w[2].replace("*1", "*1.9", 1)])),
                      "expected 'Fan <total> <name>*<count>+...'"),
    "score-10-digits": (lambda: _text_bad(lambda m: _sub_line(m, "Score ", lambda w: ["Score", "9999999999"] + w[2:])),
                        "the recorded score of player 0 9999999999 is out of range"),
    "long-line": (lambda: _text_bad(lambda m: m.replace("\n", " " * (MAX_LINE_CHARS + 1) + "\n", 3)),
                  f"a line of more than {MAX_LINE_CHARS} characters"),
    "junk-no-match": (lambda: b"Player 0 Draw W1\n" * (MAX_TEXT_MATCH_BYTES // 17 + 100),
                      "the text before the first 'Match' line is longer than"),
    "huge-match": (lambda: (_text_match(0).rstrip("\n") + "\n" + "Player 0 Draw W1\n" * (MAX_TEXT_MATCH_BYTES // 17)
                            ).encode(), "the match is longer than"),
    "bom": (lambda: b"\xef\xbb\xbf" + _text_match(1).encode(), None),
}


def _sub_line(m, head, edit, split=-1):
    lines = m.split("\n")
    k = next(i for i, x in enumerate(lines) if x.startswith(head))
    lines[k] = " ".join(edit(lines[k].split(" ", split)))
    return "\n".join(lines)


def _sub_fan(m, edit):
    return _sub_line(m, "Fan ", edit, 2)


@pytest.mark.parametrize("kind", sorted(TEXT_BAD))
def test_text_archive_bad_file_among_good_ones(kind, tmp_path, capsys):
    make, reason = TEXT_BAD[kind]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(make())
    files = ARCHIVES[:1] + [str(bad)] + ARCHIVES[1:]
    good = logs.score(ARCHIVES)
    gs = good.attrs["summary"]
    for fast in (True, False):
        from mjfast.logs.scoring import process
        total = logs.Summary()
        rows = []
        for r, _w, s in process(files, fast=fast):
            rows += r
            total.add(s)
        assert total.matches == gs.matches + 1
        assert len(rows) == len(good) + (reason is None)
        if reason is not None:
            assert total.skipped == gs.skipped + 1
            [p] = [p for p in total.problems if p.file == str(bad)]
            assert reason in p.reason, p
    out = tmp_path / "r.parquet"
    code = main(["logs", "score", *files, "--out", str(out), "--no-progress", "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err          # the fixtures hold reported matches too
    assert len(pd.read_parquet(out)) == len(good) + (reason is None)
    if reason is not None:
        assert reason in err


def test_text_blocks_cover_the_file_and_read_past_an_oversize_match(tmp_path):
    good = _text_match(0)
    big = "Match big\n" + "Player 0 Draw W1\n" * (len(good) // 17 + 40)
    text = ("junk\n" * 30) + good + big + good + big
    p = tmp_path / "a.txt"
    p.write_text(text)
    got = list(text_blocks(str(p), block=64, limit=len(good) + 100))
    kinds = [("data" if d is not None else "over") for d, _ in got]
    # the junk (150 bytes) and the good matches are within the limit (blocks of about 64 bytes)
    assert kinds.count("over") == 2 and kinds[-1] == "over" and kinds[:2] == ["data", "data"]
    body = b"".join(d if d is not None else b"?" * info[2] for d, info in got)
    assert len(body) == len(text.encode())
    lines = [info if d is not None else info[0] for d, info in got]
    at = 0
    for (d, info), first in zip(got, lines):
        assert first == text.encode()[:at].count(b"\n") + 1
        at += len(d) if d is not None else info[2]
    over = [info for d, info in got if d is None]
    assert all(head == b"Match big" and size == len(big) for _l, head, size in over)


# -- numbers ------------------------------------------------------------------------------

@pytest.mark.parametrize("v, ok", [(23, 23), (23.0, 23), ("23", 23), (-8, -8), (MAX_RECORDED, MAX_RECORDED),
                                   (MAX_RECORDED + 1, None), (-MAX_RECORDED - 1, None), (1.9, None),
                                   (float("inf"), None), (float("nan"), None), (True, None), (None, None),
                                   ("x", None), ([1], None), (2 ** 70, None), ("1" * 5000, None)])
def test_recorded_numbers(v, ok):
    if ok is None:
        with pytest.raises(ValueError, match="the total"):
            recorded_int(v, "the total")
    else:
        assert recorded_int(v, "the total") == ok


@pytest.mark.parametrize("value", [2 ** 64, 2 ** 64 + 1, 2 ** 70 + 3, -(2 ** 63) - 1, -(10 ** 19), 10 ** 30])
def test_huge_integers_read_the_same_by_orjson_and_the_json_module(tmp_path, monkeypatch, value):
    pytest.importorskip("orjson")
    p = tmp_path / "m.json"
    m = H.selfdrawn_json(match_id="x")
    m["logs"][-1]["output"]["display"]["fanCnt"] = value
    m["logs"][-1]["output"]["display"]["quan"] = value
    m["seq"] = value
    p.write_text(json.dumps([m, H.claims_json(), {"_id": value, "logs": []}]))
    with_orjson = [(x.id, x.problem, x.recorded_total) for x in logs.read(str(p))]
    monkeypatch.setattr(J, "_orjson", None)
    without = [(x.id, x.problem, x.recorded_total) for x in logs.read(str(p))]
    assert with_orjson == without
    assert f"fanCnt {value} is out of range" in with_orjson[0][1][1] and with_orjson[2][0] == str(value)


def test_a_bom_json_and_a_bad_element_in_a_streamed_list(tmp_path, monkeypatch):
    p = tmp_path / "m.json"
    good = [json.dumps(H.selfdrawn_json()), json.dumps(H.claims_json())]
    # element 1 is bad JSON (a comma before "]") inside brackets that close
    p.write_bytes(b"\xef\xbb\xbf" + ("[" + good[0] + ', {"logs": [1, 2,]}, ' + good[1] + "]").encode())
    # the broken element's brackets close: the elements after it are still read
    for whole in (True, False):
        if not whole:
            monkeypatch.setattr(J, "WHOLE_FILE_BYTES", 0)
        ms = list(logs.read(str(p)))
        assert [m.id for m in ms] == ["m#0", "m#1", "m#2"]
        assert ms[0].problem is None and ms[2].problem is None and "bad JSON" in ms[1].problem[1]


def test_unreadable_file_named_on_the_command_line(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "locked.txt"
    bad.write_text(_text_match(0))
    real = builtins.open

    def deny(file, *a, **kw):
        if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(bad):
            raise PermissionError(13, "Permission denied", str(bad))
        return real(file, *a, **kw)
    monkeypatch.setattr(builtins, "open", deny)
    assert split_tasks([str(bad)])      # no exception while planning the work
    code = main(["logs", "score", ARCHIVES[2], str(bad), "--out", str(tmp_path / "r.jsonl"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1 and f"{bad}: cannot read: Permission denied" in err and "Traceback" not in err
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == len(logs.score(ARCHIVES[2]))


# -- the export summary ---------------------------------------------------------------------

@pytest.mark.parametrize("path", ARCHIVES)
def test_export_summary_adds_up(path, tmp_path, capsys):
    out = tmp_path / "h.jsonl"
    code = main(["logs", "export", path, "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    n = len(out.read_text().splitlines())
    s = logs.score(path).attrs["summary"]
    assert code == (1 if s.skipped else 0)
    assert err.splitlines()[1] == f"wins found {s.wins} = wins exported {n}" and n == s.wins > 0
    assert err.splitlines()[0].startswith(f"matches read {s.matches} = replayed {s.replayed} + skipped {s.skipped}")


# -- memory -----------------------------------------------------------------------------------

# The child's own peak is VmHWM, the high-water mark of its address space.
# Not ru_maxrss: Linux carries the peak of the image a process exec'd from
# into it, and subprocess starts children by vfork, so ru_maxrss would be at
# least the peak of the pytest process itself (over 400 MB late in a full
# run, with every table and library loaded), whatever the child used.
_PEAK = r"""
def _peak_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # KiB on Linux
"""

_RSS = _PEAK + r"""
import json, sys
import mjfast.logs as logs
df = logs.score(sys.argv[1:])
s = df.attrs["summary"]
print(json.dumps({"rows": len(df), "matches": s.matches, "skipped": s.skipped,
                  "reasons": [p.reason for p in s.problems],
                  "rss_mb": _peak_mb()}))
"""

#: the documented bound on peak resident memory of a run on hostile input (docs/logs.md)
RSS_BOUND_MB = 400


def _peak(paths):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _RSS, *map(str, paths)], capture_output=True, text=True,
                         env=env, timeout=1200)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _junk_text(path, mb):
    line = b"Player 0 Draw W1 and some words that are not an event\n"
    block = line * ((1 << 20) // len(line) + 1)
    with open(path, "wb") as f:
        for _ in range(mb):
            f.write(block[:1 << 20])


def _huge_json(path, mb):
    m = H.selfdrawn_json(match_id="huge")
    unit = json.dumps(H.bots())
    with open(path, "w") as f:
        text = json.dumps(m)
        k = text.index('"logs": [') + len('"logs": [')
        f.write(text[:k])
        n = (mb << 20) // (len(unit) + 2)
        chunk = ", ".join([unit] * 1000) + ", "
        for _ in range(n // 1000):
            f.write(chunk)
        f.write(text[k:])


def _hostile_run(tmp_path, mb):
    txt = tmp_path / "junk.txt"
    js = tmp_path / "huge.json"
    _junk_text(txt, mb)
    _huge_json(js, mb)
    got = _peak([ARCHIVES[2], txt, js, ARCHIVES[2]])
    good = len(logs.score(ARCHIVES[2]))
    assert got["rows"] == 2 * good                      # nothing lost around the junk
    assert any("text before the first 'Match' line is longer than" in r for r in got["reasons"])
    assert any("larger than" in r and "MAX_JSON_CHARS" in r for r in got["reasons"])
    assert got["rss_mb"] < RSS_BOUND_MB, got
    return got


def test_peak_measured_is_the_childs_own():
    # a parent whose own peak is far above the child's must not show in the
    # child's figure (it did through ru_maxrss: the bound failed late in a
    # full run while the child's true peak stayed under 200 MB)
    big = b"\x01" * (300 << 20)        # every page touched: the parent's peak rises by 300 MB
    del big
    code = _PEAK + "print(_peak_mb())"
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) < 150, out.stdout


def test_memory_bounded_on_30_mb_of_junk(tmp_path):
    _hostile_run(tmp_path, 30)


@pytest.mark.slow
def test_memory_bounded_on_200_mb_of_junk(tmp_path):
    _hostile_run(tmp_path, 200)


# ---------------------------------------------------------------------------
# files that are not match archives, and the files the platform ships with
# its matches (a download is <id>.json + <id>_metadata.json per match)


def _download(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    for mid, m in (("5f0a", H.selfdrawn_json()), ("5f0b", H.huang_json())):
        (d / f"{mid}.json").write_text(json.dumps(m), encoding="utf-8")
        (d / f"{mid}_metadata.json").write_text(json.dumps({"_id": mid, "players": [{"bot": "x"}] * 4}),
                                                encoding="utf-8")
    return d


def _report(capsys):
    return capsys.readouterr().err.splitlines()


def test_a_download_directory_reads_its_matches_and_ignores_the_metadata(tmp_path, capsys):
    d = _download(tmp_path)
    out = tmp_path / "r.jsonl"
    assert main(["logs", "score", str(d), "--out", str(out), "--no-progress"]) == 0
    err = _report(capsys)
    assert err[0].startswith("matches read 2 = replayed 2 + skipped 0")
    assert "platform files ignored (*_metadata.json, no match in them): 2" in err
    assert not any("metadata" in ln and "match" in ln.split(":")[0] for ln in err[3:]), err
    s = logs.score(d).attrs["summary"]
    assert (s.matches, s.skipped, len(s.platform_files)) == (2, 0, 2)
    s2 = logs.Summary()
    assert len(list(logs.wins(d, s2))) == 1 and (s2.matches, s2.skipped, len(s2.platform_files)) == (2, 0, 2)
    assert [m.id for m in logs.read(d)] == [m.id for m in logs.read(d / "5f0a.json")] + \
        [m.id for m in logs.read(d / "5f0b.json")]
    # named on the command line, a metadata file is recognised as well
    assert main(["logs", "score", str(d / "5f0a_metadata.json"), "--out", str(out), "--no-progress"]) == 0
    assert "platform files ignored (*_metadata.json, no match in them): 1" in _report(capsys)


def test_hand_records_passed_by_mistake_are_one_line_not_one_per_record(tmp_path, capsys):
    f = tmp_path / "hands.jsonl"
    f.write_text("".join(json.dumps({"id": i, "hand": "123m456m789m123p5p5p"}) + "\n" for i in range(5001)))
    out = tmp_path / "r.jsonl"
    assert main(["logs", "score", str(f), str(_download(tmp_path)), "--out", str(out), "--no-progress"]) == 1
    err = _report(capsys)
    assert err[0].startswith("matches read 2 = replayed 2 + skipped 0")
    i = err.index("files not read (not match archives): 1")
    assert err[i + 1] == (f"  {f}: not a match archive: its first value is an object with keys 'id', 'hand', "
                          "not a match record (with 'logs'); the file is not read")
    assert len(err) < 10 and not any("skipped matches" in ln for ln in err), err
    with pytest.raises(logs.NotAnArchive, match="not a match archive"):
        list(logs.read(f))
    s = logs.score([f]).attrs["summary"]
    assert (s.matches, [p.kind for p in s.not_archives]) == (0, ["file"])
    assert main(["stats", "logs", str(f)]) == 1
    assert "files not read (not match archives): 1" in _report(capsys)


@pytest.mark.parametrize("text,what", [("{}", "an empty object"), ('["hello"]', "a JSON str"),
                                       ("[1, 2]", "a JSON int"), ('[{"a": 1}]', "an object with keys 'a'"),
                                       ('{"a": 1}\n{"logs": []}', "an object with keys 'a'")])
def test_json_that_cannot_begin_a_match_archive(tmp_path, text, what):
    f = tmp_path / "x.json"
    f.write_text(text)
    s = logs.Summary()
    assert list(logs.wins(f, s)) == [] and s.matches == 0
    assert [p.reason for p in s.not_archives] == [
        f"not a match archive: its first value is {what}, not a match record (with 'logs'); the file is not read"]


def test_a_broken_first_match_is_still_a_skipped_match(tmp_path):
    # a match object without its logs is a bad match of an archive, not a file of something else
    f = tmp_path / "m.json"
    m = H.selfdrawn_json()
    f.write_text(json.dumps([{"initdata": m["initdata"]}, m]))
    s = logs.score([f]).attrs["summary"]
    assert (s.matches, s.skipped, s.not_archives) == (2, 1, [])
    assert s.problems[0].reason == "not a match record: no 'logs' list"


def test_a_text_file_without_a_match_line_is_one_line(tmp_path, capsys):
    f = tmp_path / "notes.txt"
    f.write_text("# my notes\n" + "some line\n" * 1000)
    s = logs.Summary()
    assert list(logs.wins(f, s)) == [] and s.matches == 0 and len(s.not_archives) == 1
    assert main(["logs", "score", str(f), "--out", str(tmp_path / "r.jsonl"), "--no-progress"]) == 1
    err = _report(capsys)
    assert err[0].startswith("matches read 0 = replayed 0 + skipped 0")
    assert f"  {f}: not a match archive: no 'Match' line (line 1: '# my notes'); the file is not read" in err
    # text before a first Match line is still a bad entry of an archive
    g = tmp_path / "a.txt"
    g.write_text("junk\n" + open(os.path.join(os.path.dirname(__file__), "data", "logs", "archive.txt")).read())
    s = logs.score([g]).attrs["summary"]
    assert s.not_archives == [] and s.problems[0].reason == "line before the first 'Match' line: 'junk'"


def test_a_directory_with_a_file_that_is_no_archive_reads_the_others(tmp_path, capsys):
    d = _download(tmp_path)
    (d / "hands.json").write_text(json.dumps({"hand": "123m456m789m123p5p5p"}))
    ms = list(logs.read(d))
    assert [m.id for m in ms] == ["5f0a", "5f0b", "hands"] and "not a match archive" in ms[2].problem[1]
    s = logs.score(d).attrs["summary"]
    assert (s.matches, s.replayed, len(s.not_archives), len(s.platform_files)) == (2, 2, 1, 2)
