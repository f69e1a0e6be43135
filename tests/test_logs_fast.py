"""The compiled reader of the text archive (mjfast.logs.fasttext; src/_textlog.pyx
reads, src/_replay.pyx replays) against the Python path (mjfast.logs.text + mjfast.logs.replay, the reference):
the same rows, wins and problems (match, line, reason) on archives written by
the game engine, on corrupted copies of them and on the hand-written fixtures."""
import os
import random

import pytest

import mjfast.logs as L
from mjfast.game import play, players
from mjfast.logs import fasttext
from mjfast.logs.scoring import process, run_task, split_tasks

HERE = os.path.dirname(__file__)
FIXTURES = [os.path.join(HERE, "data", "logs", f) for f in ("archive.txt", "edge.txt")]

pytestmark = pytest.mark.skipif(not fasttext.AVAILABLE, reason="compiled engine not built")


def _game_text(i, **kw):
    ps = [players.RandomPlayer(seed=i * 4 + k, **kw) for k in range(4)]
    return play(ps, seed=i, quan=i % 4, match_id=f"g{i}").to_botzone_text()


_GAMES = {}


def games(n, first=0):
    """Match texts of seeded random games (claims, kongs and wins on purpose)."""
    key = (n, first)
    if key not in _GAMES:
        _GAMES[key] = [_game_text(i, p_claim=0.7, p_kong=0.9) for i in range(first, first + n)]
    return _GAMES[key]


def both(path, chunk_bytes=None):
    """(rows, wins, summary) of the whole file by the two paths, unit by unit."""
    tasks = split_tasks([path]) if chunk_bytes is None else split_tasks([path], chunk_bytes)
    out = []
    for fast in (True, False):
        rows, wins, problems = [], [], []
        total = L.Summary()
        for t in tasks:
            r, _w, s = run_task(t, True, fast)
            _r, w, _s = run_task(t, False, fast)
            rows += r
            wins += w
            total.add(s)
        out.append((rows, wins, total))
    return out


def same(path, chunk_bytes=None):
    (rf, wf, sf), (rp, wp, sp) = both(path, chunk_bytes)
    assert rf == rp
    assert wf == wp
    assert [vars(p) for p in sf.problems] == [vars(p) for p in sp.problems]
    assert sf.text() == sp.text()
    assert sf.disagreements == sp.disagreements
    return sf


def segments(path):
    with open(path, "rb") as f:
        data = f.read()
    return fasttext.replay_text(data, 1, fasttext._KEYS)


def test_engine_archive_is_read_by_the_compiled_path_alone(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("".join(games(150)), encoding="utf-8")
    kinds = [s[0] for s in segments(p)]
    assert len(kinds) == 150 and 0 not in kinds          # no match fell back to Python
    assert kinds.count(2) >= 30 and kinds.count(1) >= 10
    s = same(p)
    assert s.matches == 150 and s.skipped == 0 and s.wins == kinds.count(2) == s.scored
    assert s.agree == s.with_record == s.wins


def test_hand_written_fixtures_same_on_both_paths():
    for f in FIXTURES:
        s = same(f)
        assert s.skipped > 0 and s.replayed > 0
        assert any(k == 0 for k, *_ in segments(f)) and any(k == 2 for k, *_ in segments(f))


def test_chunks_and_workers_give_the_same_output(tmp_path, monkeypatch):
    from mjfast.logs import scoring
    p = tmp_path / "a.txt"
    p.write_text("".join(games(120)), encoding="utf-8")
    assert len(split_tasks([p], 20000)) > 5
    same(p, 20000)
    # small units of work, so that two workers really share them
    monkeypatch.setattr(scoring, "split_tasks", lambda paths, chunk_bytes=20000: split_tasks(paths, chunk_bytes))
    ref = [list(x) for x in process([p], workers=1, fast=False)]
    assert len(ref) > 5
    for workers in (1, 2):
        got = [list(x) for x in process([p], workers=workers)]
        assert [r for r, _w, _s in got] == [r for r, _w, _s in ref]
        assert [w for _r, w, _s in got] == [w for _r, w, _s in ref]
        assert [s.text() for _r, _w, s in got] == [s.text() for _r, _w, s in ref]


# -- corrupted archives ------------------------------------------------------------

WORDS = ["Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "BuHua", "Hu", "Deal", "Ignore", "Player",
         "Huang", "Fan", "Score", "Wind", "Match", "hu", "CHI", "draw"]
TILES = ["W1", "W9", "B5", "T3", "F4", "J3", "J4", "W0", "H3", "X1", "w1", "B10", "F1F"]
OTHER = ["0", "1", "2", "3", "4", "-1", "00", "+5", "-30", "10", "1_0", "\u0665", "", "x"]
SPACES = ["\xa0", "\u3000", "\x1c", "\t", "\r", "\x0b", "\x85", "  "]
JUNK = ["", "   ", "Match", "Match a b", "Huang", "Score 1 2 3", "Score -30 10 10 10", "Fan x", "Fan 8 \u5e73\u548c*x",
        "\ufeffMatch z", "Wind 1", "Player 0 Deal W1", "Player 9 Draw W1", "Fan 8", "garbage \xff"]


def _mutate(lines, rnd):
    i = rnd.randrange(len(lines))
    op = rnd.randrange(14)
    claims = [k for k, x in enumerate(lines) if x.split(" ")[2:3] in (["Chi"], ["Peng"], ["Gang"], ["Hu"])]
    if op >= 12 and claims:
        # a losing claim that may or may not be legal, or a claim of another kind
        i = rnd.choice(claims)
        words = lines[i].split(" ")
        if op == 12:
            seat = rnd.choice([x for x in "0123" if x != words[1]])
            tile = f" {words[3]}" if len(words) > 3 and words[3] != "Ignore" and rnd.random() < 0.8 else ""
            lines[i] += f" Ignore Player {seat} {rnd.choice(['Chi', 'Peng', 'Gang', 'Hu'])}{tile}"
        else:
            words[2] = rnd.choice([x for x in ("Chi", "Peng", "Gang", "Hu") if x != words[2]])
            lines[i] = " ".join(words)
        return lines
    words = lines[i].split(" ")
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    elif op == 2 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif op == 3:
        words[rnd.randrange(len(words))] = rnd.choice(TILES + WORDS + OTHER)
        lines[i] = " ".join(words)
    elif op == 4:
        words.insert(rnd.randrange(len(words) + 1), rnd.choice(TILES + WORDS + OTHER))
        lines[i] = " ".join(words)
    elif op == 5 and len(words) > 1:
        del words[rnd.randrange(len(words))]
        lines[i] = " ".join(words)
    elif op == 6:
        lines[i] += f" Ignore Player {rnd.choice('01234')} {rnd.choice(['Chi', 'peng', 'GANG', 'Hu', 'Pass'])}" \
                    + (f" {rnd.choice(TILES)}" if rnd.random() < 0.7 else "")
    elif op == 7:
        k = rnd.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:k] + rnd.choice(SPACES) + lines[i][k:]
    elif op == 8:
        lines.insert(i, rnd.choice(JUNK))
    elif op == 9:
        del lines[i:]
    elif op == 10:
        # another seat's name on a Draw / Play / claim line
        if words[0] == "Player" and len(words) > 2:
            words[1] = str((int(words[1]) + rnd.randrange(1, 4)) % 4) if words[1].isdigit() else "1"
            lines[i] = " ".join(words)
    else:
        lines[i] = lines[i].replace(" ", rnd.choice(SPACES), 1)
    return lines


def corrupted(seed, n=80):
    rnd = random.Random(seed)
    out = []
    for text in games(n, first=1000):
        lines = text.split("\n")
        if rnd.random() < 0.6:
            for _ in range(rnd.choice((1, 1, 1, 2, 3))):
                if lines:
                    lines = _mutate(lines, rnd)
        out.append("\n".join(lines))
    text = "".join(t if t.endswith("\n") else t + "\n" for t in out)
    if seed % 3 == 1:
        text = text.replace("\n", "\r\n")
    if seed % 4 == 2:
        text = rnd.choice(JUNK) + "\n" + text
    if seed % 5 == 3:
        text = text.rstrip("\n")
    return text


@pytest.mark.parametrize("seed", range(8))
def test_corrupted_archives_same_on_both_paths(tmp_path, seed):
    p = tmp_path / "c.txt"
    p.write_bytes(corrupted(seed).encode("utf-8", "surrogatepass"))
    s = same(p)
    assert s.skipped > 0 and s.replayed > 0
    kinds = [k for k, *_ in segments(p)]
    assert 0 in kinds and 2 in kinds


def test_bad_bytes_and_a_bom_same_on_both_paths(tmp_path):
    text = "".join(games(20))
    raw = text.encode()
    a = raw.index(b"Player 1 Draw", len(raw) // 3) + 9
    b = raw.index(b"Player 2 Play", 2 * len(raw) // 3) + 13
    raw = b"\xef\xbb\xbf" + raw[:a] + b"\xff\xfe" + raw[a:b] + b"\xe5\x85" + raw[b:]
    p = tmp_path / "b.txt"
    p.write_bytes(raw)
    s = same(p)
    # the two with bad bytes; a byte-order mark at the start of the file is dropped
    assert s.matches == 20 and s.skipped == 2
    assert all(p.match != "g0" for p in s.problems)


@pytest.mark.slow
def test_many_corrupted_archives_same_on_both_paths(tmp_path):
    for seed in range(8, 60):
        p = tmp_path / f"c{seed}.txt"
        p.write_bytes(corrupted(seed).encode("utf-8", "surrogatepass"))
        same(p)


# -- match JSON: files decoded at once by orjson read like the streamed ones -------------

def _match_fields(ms):
    return [{k: getattr(m, k) for k in m.__slots__} for m in ms]


def test_whole_file_json_reads_like_the_streaming_reader(tmp_path, monkeypatch):
    import json

    import logs_helpers as H
    from mjfast.logs import jsonlog

    pytest.importorskip("orjson")
    objs = []
    for i in range(6):
        ps = [players.RandomPlayer(seed=i * 4 + k) for k in range(4)]
        objs.append(play(ps, seed=i, quan=i % 4, match_id=f"j{i}").to_botzone_json())
    objs += [H.selfdrawn_json(), H.claims_json(), H.wa_json()]
    files = {
        "one.json": json.dumps(objs[0]),
        "list.json": json.dumps(objs),
        "bare.json": json.dumps(objs[1]["logs"]),
        "lines.json": "\n".join(json.dumps(o) for o in objs[:3]),      # several values: streamed
        "nan.json": json.dumps(objs[2]).replace('"time": 3', '"time": NaN', 1),
        "dup.json": '{"logs": [], "logs": ' + json.dumps(objs[3]["logs"]) + "}",
        "trunc.json": json.dumps(objs)[:-200],
        "scalar.json": "5",
        "empty.json": "[]",
        "bad.json": json.dumps(objs[4])[:5000] + "}}",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "utf.json").write_bytes(json.dumps(objs[5]).encode()[:-30] + b"\xff" + json.dumps(objs[5]).encode()[-30:])
    got = _match_fields(L.read(tmp_path))
    monkeypatch.setattr(jsonlog, "_orjson", None)
    want = _match_fields(L.read(tmp_path))
    assert got == want
    assert len(want) >= len(objs) * 2
    # and so are their scores
    monkeypatch.undo()
    rows = [list(x) for x in process([tmp_path])]
    monkeypatch.setattr(jsonlog, "_orjson", None)
    assert rows == [list(x) for x in process([tmp_path])]          # rows, wins, summaries (problems included)
    assert sum(s.skipped for _r, _w, s in rows) >= 3 and sum(s.wins for _r, _w, s in rows) >= 3
    # a file whose value is no match object is no match archive: one entry for the file, no match counted
    assert [(os.path.basename(p.file), p.kind) for _r, _w, s in rows for p in s.not_archives] == \
        [("scalar.json", "file")]


def test_cli_score_output_is_the_python_paths_rows(tmp_path, capsys):
    import json

    from mjfast.cli import main
    p = tmp_path / "a.txt"
    p.write_text("".join(games(60)) + "".join(games(20, first=1000))[:-300], encoding="utf-8")  # last one truncated
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"rows{workers}.jsonl"
        assert main(["logs", "score", str(p), "--out", str(out), "--workers", workers, "--no-progress"]) == 1
        outs.append(out.read_bytes())
        assert "skipped 1" in capsys.readouterr().err
    assert outs[0] == outs[1]
    ref = [r for rows, _w, _s in process([p], fast=False) for r in rows]
    got = [json.loads(x) for x in outs[0].decode().splitlines()]
    assert len(got) == len(ref) > 20
    assert got == [json.loads(json.dumps(r, ensure_ascii=False)) for r in ref]


def test_random_bytes_same_on_both_paths(tmp_path):
    # byte-level damage (NULs, high bytes, cut UTF-8, stray newlines) anywhere,
    # the Fan lines included: the compiled reader must neither crash nor differ
    rnd = random.Random(7)
    base = "".join(games(12)).encode()
    for k in range(40):
        raw = bytearray(base)
        for _ in range(rnd.randrange(1, 12)):
            i = rnd.randrange(len(raw))
            op = rnd.randrange(4)
            if op == 0:
                raw[i] = rnd.randrange(256)
            elif op == 1:
                raw[i:i] = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 4)))
            elif op == 2:
                del raw[i:i + rnd.randrange(1, 40)]
            else:
                raw[i:i] = rnd.choice([b"\n", b"\r\n", b"\x00", b"\xe5\x85", b" Ignore Player 2 Hu", b"\nMatch x\n"])
        p = tmp_path / f"r{k}.txt"
        p.write_bytes(bytes(raw))
        same(p)
    for k in range(20):
        p = tmp_path / f"n{k}.txt"
        p.write_bytes(bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 300))))
        same(p)


# -- known walls the deal agrees with, but not the 136 tiles ---------------------

def test_known_walls_with_a_fifth_copy_are_an_impossible_deal():
    import copy
    from mjfast.logs.jsonlog import match_from_json
    from reference import replay as ref

    obj = play([players.RandomPlayer(seed=k) for k in range(4)], seed=3, match_id="w").to_botzone_json()
    m = match_from_json(obj, "w")
    assert m.walls is not None and L.replay(m).outcome in ("hu", "huang")
    draws = [sum(1 for e in m.events if e.kind == "DRAW" and e.seat == s) for s in range(4)]
    s = draws.index(min(draws))
    assert 13 + draws[s] < 34
    # a tile nobody draws becomes a fifth copy of a dealt one: deals and draws still agree
    bad = copy.deepcopy(m.walls)
    bad[s][33] = next(t for t in bad[s][:13] if bad[s][33] != t)
    m.walls = bad
    with pytest.raises(L.MatchError, match="impossible deal: walls: ") as got:
        L.replay(m)
    with pytest.raises(L.MatchError) as want:
        ref.replay(m)
    assert (got.value.pos, got.value.reason) == (want.value.pos, want.value.reason)


def test_huang_with_a_wrong_score_is_reported_on_both_paths(tmp_path):
    texts = [t for t in games(150) if "\nHuang\n" in t][:3]
    assert len(texts) == 3
    bad = texts[1].replace("Score 0 0 0 0", "Score 0 2 0 0")
    p = tmp_path / "h.txt"
    p.write_text(texts[0] + bad + texts[2], encoding="utf-8")
    s = same(p)
    assert s.matches == 3 and s.skipped == 1 and "settlement of a Huang" in s.problems[0].reason
