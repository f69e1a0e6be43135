"""Tables: BatchResult.to_pandas / to_arrow, mjfast.logs.score, the tables of
mjfast.stats, and HandBatch.from_pandas / from_arrow.

* one convention for fans: keys (``BatchResult.fan_keys``), in the fan
  columns of to_pandas / to_arrow, the ``fans`` dicts of logs.score and the
  ``key`` column of the statistics; display names on request;
* ``id`` is a nullable integer when the ids are integers;
* the error text of a frame is the text ``mjfast score --jsonl`` writes for
  the same line (differentially, over every kind of bad record);
* the logs summary comes back through ``summary=``;
* a frame of records reads as the same records given as dicts.
"""
from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

import mjfast
import mjfast.logs as logs
from mjfast import InvalidArgument
from mjfast.batch import ERR_INVALID, ERR_NOT_WINNING, HandBatch, score_batch
from mjfast.cli import main
from mjfast.rules.mcr import MCR
from mjfast.stats import FanStats

from handgen import random_winning_records

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(ROOT, "docs", "examples", "games.txt")
ARCHIVE = os.path.join(ROOT, "tests", "data", "logs", "archive.txt")
WIN = "123m456m789m123p5p5p"

# one line of each kind of problem a record can have (and good ones between)
BAD_LINES = [
    json.dumps({"id": 1, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": True, "seat_wind": "S", "flowers": 1}),
    json.dumps({"id": 2, "hand": "123m456m789m123p5p6p"}),                       # not a win
    json.dumps({"id": 3, "hand": WIN, "self_drawn": "yes"}),
    "not json",
    json.dumps({"id": 5, "hand": WIN, "seat_wind": "east"}),
    json.dumps({"id": 6, "hand": WIN, "flowers": 9}),
    json.dumps({"id": 7, "hand": WIN, "flowers": 1.5}),
    json.dumps({"id": 8, "hand": "1111m1m"}),
    json.dumps({"id": 9}),
    "[1, 2]",
    json.dumps({"id": 10, "hand": WIN, "rules": "nope"}),
    json.dumps({"id": 11, "hand": WIN, "last_tile": True, "fourth_tile": 1}),
    json.dumps({"id": 12, "hand": WIN, "wildcards": 2}),
    json.dumps({"id": 13, "hand": 5}),
    "",
    json.dumps({"id": 14, "hand": WIN, "kong": True}),
    json.dumps({"id": 15, "hand": "19m19p19s1234567z 1m".replace(" ", "")}),
    json.dumps({"id": 16, "hand": "1112345678999m5m", "self_drawn": True, "note": "unknown keys are ignored"}),
    json.dumps({"id": 17, "hand": "11m 22m"}),
    json.dumps({"id": 18, "hand": "123m456m789m123pXp"}),
    json.dumps({"id": "s", "hand": "[123m][456m][789m][123p]5p6p"}),             # not a win, with melds
    '{"id": 20, "hand": "123m456m789m123p5p5p", "self_drawn": tru}',
]


# -- id -------------------------------------------------------------------------------------


def test_integer_ids_with_gaps_are_a_nullable_integer_column():
    res = score_batch([{"id": 1, "hand": WIN}, {"hand": WIN}, {"id": 3, "hand": "xx"}, {"id": 2 ** 62, "hand": WIN}])
    df = res.to_pandas()
    # before: float64 with NaN (and 2**62 rounded)
    assert str(df["id"].dtype) == "Int64"
    assert df["id"].tolist()[0] == 1 and df["id"].isna().tolist() == [False, True, False, False]
    assert int(df["id"].iloc[3]) == 2 ** 62
    t = res.to_arrow()
    assert t.schema.field("id").type == pa.int64()
    assert t.column("id").to_pylist() == [1, None, 3, 2 ** 62]


def test_string_ids_stay_strings_and_mixed_ids_do_not_break_arrow():
    res = score_batch([{"id": "a", "hand": WIN}, {"hand": WIN}])
    assert res.to_pandas()["id"].tolist() == ["a", None]
    assert res.to_arrow().column("id").to_pylist() == ["a", None]
    ids = [1, "a", [1, 2], 2.5, None, True, {"k": 1}, 2 ** 70]
    res = score_batch([{"id": i, "hand": WIN} for i in ids])
    assert res.to_pandas()["id"].tolist() == ids          # as given
    # before: pyarrow.ArrowInvalid; now each id as its JSON text
    got = res.to_arrow().column("id").to_pylist()
    assert got == [None if i is None else json.dumps(i) for i in ids]


def test_arrays_without_ids_have_no_id_column():
    b = HandBatch.from_records([{"hand": WIN}])
    b2 = HandBatch(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers)
    res = score_batch(b2)
    assert "id" not in res.to_pandas().columns and "id" not in res.to_arrow().column_names


# -- fan columns: keys, display names on request ----------------------------------------------


@pytest.fixture(scope="module")
def scored():
    recs = random_winning_records(300, seed=4) + [{"id": "bad", "hand": "xx"}, {"id": "nw", "hand": WIN[:-1] + "6p"}]
    return recs, score_batch(recs)


def test_fan_columns_are_keys_by_default_and_names_on_request(scored):
    _, res = scored
    n = len(res.fan_keys)
    for frame in (res.to_pandas(), res.to_arrow().to_pandas()):
        assert list(frame.columns[-n:]) == list(MCR.keys)
    for names, want in (("display", MCR.names_en), ("zh", MCR.names_zh), ("key", MCR.keys)):
        df = res.to_pandas(names=names)
        t = res.to_arrow(names=names)
        assert list(df.columns[-n:]) == list(want) == t.column_names[-n:]
        assert (df.iloc[:, -n:].to_numpy() == res.fan_counts).all()
        assert (np.column_stack([t.column(c).to_numpy() for c in t.column_names[-n:]]) == res.fan_counts).all()
    for bad in ("en", "Display", None, 1):
        with pytest.raises(InvalidArgument, match="names must be one of"):
            res.to_pandas(names=bad)
        with pytest.raises(InvalidArgument, match="names must be one of"):
            res.to_arrow(names=bad)


def test_arrow_fan_fields_carry_key_name_zh_and_points(scored):
    _, res = scored
    schema = res.to_arrow(names="display").schema
    for fan in MCR:
        md = schema.field(fan.en).metadata
        assert md == {b"key": fan.key.encode(), b"name": fan.en.encode(), b"zh": fan.zh.encode(),
                      b"points": str(fan.points).encode()}
    assert schema.field("total").metadata is None


def test_a_rule_sets_own_table_gives_its_own_keys():
    res = score_batch(["11112233445566p"], rules="guizhou")
    t = mjfast.rules.get("guizhou").table
    df = res.to_pandas()
    assert list(df.columns[-len(t):]) == list(t.keys) == list(res.fan_keys)
    assert list(res.to_pandas(names="display").columns[-len(t):]) == list(t.names_en)
    row = {k: int(v) for k, v in df.iloc[0, -len(t):].items() if v}
    assert row == {f.key: f.count for f in mjfast.score("11112233445566p", rules="guizhou").fans}


def test_stats_tables_and_frames_share_the_keys(scored):
    _, res = scored
    acc = FanStats().update(res)
    table = acc.table()
    assert table["key"].tolist() == list(res.fan_keys)
    # a keyed frame and a display-named one feed the statistics alike
    assert FanStats().update(res.to_pandas()) == acc == FanStats().update(res.to_pandas(names="display"))
    keys, _m = acc.cooccurrence(5)
    assert set(keys) <= set(res.fan_keys)


def test_logs_score_fans_are_the_keyed_columns_of_the_exported_records():
    df = logs.score([GAMES, ARCHIVE])
    recs = list(logs.export([GAMES, ARCHIVE]))
    assert len(recs) == len(df) > 10
    frame = score_batch(recs).to_pandas()
    keys = list(MCR.keys)
    for fans, (_, row) in zip(df["fans"], frame.iterrows()):
        assert fans == {k: int(row[k]) for k in keys if row[k]}
    assert df["total"].tolist() == frame["total"].tolist()


# -- the error text is the command line's -----------------------------------------------------


def _cli_lines(tmp_path, lines, extra=()):
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    dst = tmp_path / "out.jsonl"
    main(["score", "--jsonl", str(src), str(dst), "--no-progress", *extra])
    return src, [json.loads(x) for x in dst.read_text().splitlines()]


@pytest.mark.parametrize("chunk_size", [1, 5, 1000])
def test_frame_errors_are_the_cli_errors_for_each_line(tmp_path, chunk_size, capsys):
    src, cli = _cli_lines(tmp_path, BAD_LINES)
    results = list(map(score_batch, HandBatch.from_jsonl(str(src), chunk_size=chunk_size)))
    df = pd.concat([r.to_pandas() for r in results], ignore_index=True)
    arrow = [e for r in results for e in r.to_arrow().column("error").to_pylist()]
    records = [r.record(i) for r in results for i in range(len(r))]
    assert len(cli) == len(df) == len(BAD_LINES)
    n_errors = 0
    for k, line in enumerate(cli):
        want = line.get("error")
        n_errors += want is not None
        assert df["error"].iloc[k] == want == arrow[k], (k, BAD_LINES[k])
        assert records[k].get("error") == want
        if want is not None:
            assert records[k] == line             # the whole result line
            assert df["line"].iloc[k] == line["line"] == k + 1
    assert n_errors >= 15
    assert any(e.startswith("not a winning hand: ") for e in df["error"].dropna())
    capsys.readouterr()


def test_frame_errors_from_records_and_strings_are_the_cli_errors(tmp_path, capsys):
    _, cli = _cli_lines(tmp_path, BAD_LINES)
    good = [k for k, ln in enumerate(BAD_LINES) if ln.startswith("{")]
    decoded = []
    for k in good:
        try:
            decoded.append((k, json.loads(BAD_LINES[k])))
        except ValueError:
            pass
    res = score_batch([d for _, d in decoded])
    for i, (k, _d) in enumerate(decoded):
        assert res.to_pandas()["error"].iloc[i] == cli[k].get("error"), BAD_LINES[k]
    # notation strings: the hand as given
    res = score_batch(["123m456m789m123p5p6p", "[123m][456m][789m][123p]5p6p", WIN])
    assert res.to_pandas()["error"].tolist()[:2] == ["not a winning hand: 123m456m789m123p5p6p",
                                                     "not a winning hand: [123m][456m][789m][123p]5p6p"]
    capsys.readouterr()


def test_frame_errors_under_a_rule_set_are_the_cli_errors(tmp_path, capsys):
    lines = [json.dumps({"id": 1, "hand": "123m456m789m123p5p6p", "rules": "dazhong"}),
             json.dumps({"id": 2, "hand": WIN, "rules": "dazhong", "flowers": 9}),
             json.dumps({"id": 3, "hand": WIN, "rules": "dazhong"})]
    src, cli = _cli_lines(tmp_path, lines)
    res = score_batch(next(HandBatch.from_jsonl(str(src))))
    assert res.to_pandas()["error"].tolist() == [c.get("error") for c in cli]
    assert cli[0]["error"] == "not a winning hand: 123m456m789m123p5p6p"
    capsys.readouterr()


def test_batches_built_from_arrays_say_not_a_winning_hand_without_a_hand():
    b = HandBatch.from_strings(["123m456m789m123p5p6p"])
    arrays = HandBatch(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers)
    res = score_batch(arrays)
    assert res.errors[0] == ERR_NOT_WINNING and res.to_pandas()["error"].iloc[0] == "not a winning hand"


# -- the logs summary ---------------------------------------------------------------------------


def test_logs_score_fills_the_summary_it_is_given(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(open(GAMES, encoding="utf-8").read().replace("Player 0 Play", "Player 0 Plya", 1))
    s = logs.Summary()
    df = logs.score([GAMES, str(bad)], summary=s)
    assert s.matches == 24 and s.skipped == 1 and s.replayed == 23 and s.wins == len(df)
    assert [str(p) for p in s.problems] == [str(p) for p in df.attrs["summary"].problems] and s.problems
    # it survives what drops attrs, and it adds up over calls
    both = pd.concat([df, logs.score(GAMES, summary=s)])
    assert s.matches == 36 and s.wins == len(both)
    with pytest.raises(InvalidArgument, match="Summary"):
        logs.score(GAMES, summary={})


def test_logs_score_rows_are_the_cli_rows(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    main(["logs", "score", GAMES, ARCHIVE, "--out", str(out), "--no-progress"])
    capsys.readouterr()
    cli = [json.loads(x) for x in out.read_text().splitlines()]
    df = logs.score([GAMES, ARCHIVE])
    assert [r["error"] for r in cli] == df["error"].tolist()
    assert [r["fans"] for r in cli] == df["fans"].tolist()


# -- HandBatch.from_pandas / from_arrow -------------------------------------------------------


def _same(a, b):
    assert (a.errors == b.errors).all() and (a.totals == b.totals).all()
    assert (a.fan_counts == b.fan_counts).all() and (a.legal == b.legal).all()
    assert [a.error_message(i) for i in range(len(a))] == [b.error_message(i) for i in range(len(b))]
    assert [a.record(i) for i in range(len(a))] == [b.record(i) for i in range(len(b))]


def test_from_pandas_reads_a_frame_as_the_records():
    recs = random_winning_records(400, seed=9)
    recs += [{"id": 900, "hand": "xx"}, {"id": 901, "hand": WIN, "flowers": 12}, {"id": 902, "hand": WIN[:-1] + "6p"},
             {"id": 903, "hand": WIN, "self_drawn": "yes"}, {"id": 904, "seat_wind": "S"}]
    df = pd.DataFrame(recs)          # gaps: NaN, float flowers, object columns with None
    got = score_batch(HandBatch.from_pandas(df))
    _same(got, score_batch(HandBatch.from_records(recs)))
    bad = {int(got.ids[i]): got.error_message(i) for i in np.flatnonzero(got.errors)}
    assert set(bad) == {900, 901, 902, 903, 904}
    assert "flowers" in bad[901] and "self_drawn" in bad[903] and "hand" in bad[904]


def test_from_pandas_takes_nullable_and_numpy_columns():
    df = pd.DataFrame({"id": pd.array([1, None, 3], dtype="Int64"),
                       "hand": ["[567m2][EEE1]45m678pFF6m", WIN, "123m456m789m123p5p6p"],
                       "self_drawn": pd.array([True, None, False], dtype="boolean"),
                       "flowers": pd.array([1, 2, None], dtype="Int64"),
                       "seat_wind": ["S", None, "W"], "extra": [0.5, 1.5, 2.5]})
    res = score_batch(HandBatch.from_pandas(df))
    want = score_batch([{"id": 1, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": True, "flowers": 1,
                         "seat_wind": "S"},
                        {"hand": WIN, "flowers": 2},
                        {"id": 3, "hand": "123m456m789m123p5p6p", "self_drawn": False, "seat_wind": "W"}])
    _same(res, want)
    assert res.ids == [1, None, 3] and res.errors[2] == ERR_NOT_WINNING
    # a row from the frame is the frame's row: the error text names it
    assert res.to_pandas()["error"].iloc[2] == "not a winning hand: 123m456m789m123p5p6p"


def test_from_arrow_reads_a_table_as_the_records():
    recs = random_winning_records(200, seed=3)
    keys = sorted({k for r in recs for k in r})
    table = pa.table({k: [r.get(k) for r in recs] for k in keys})
    _same(score_batch(HandBatch.from_arrow(table)), score_batch(recs))
    _same(score_batch(HandBatch.from_arrow(table.to_batches()[0])), score_batch(recs))
    t = pa.table({"id": [1, 2, None], "hand": [WIN, "bad", None], "flowers": [0, 9, 1]})
    res = score_batch(HandBatch.from_arrow(t))
    assert res.errors.tolist() == [0, ERR_INVALID, ERR_INVALID] and res.ids == [1, 2, None]
    assert "flowers" in res.error_message(1) or "tile" in res.error_message(1)
    assert "hand" in res.error_message(2)


def test_a_frame_read_back_from_its_own_records_scores_the_same():
    recs = random_winning_records(100, seed=5)
    df = pd.DataFrame(recs)
    path_free = HandBatch.from_pandas(df.iloc[::-1].reset_index(drop=True))
    res = score_batch(path_free)
    assert res.totals.tolist() == score_batch(recs[::-1]).totals.tolist()


def test_from_pandas_and_from_arrow_refuse_what_is_not_a_table():
    with pytest.raises(InvalidArgument, match="DataFrame"):
        HandBatch.from_pandas([{"hand": WIN}])
    with pytest.raises(InvalidArgument, match="Table"):
        HandBatch.from_arrow(pd.DataFrame({"hand": [WIN]}))
    dup = pd.DataFrame([[WIN, WIN]], columns=["hand", "hand"])
    with pytest.raises(InvalidArgument, match="duplicate columns: hand"):
        HandBatch.from_pandas(dup)
    with pytest.raises(InvalidArgument, match="column names must be strings"):
        HandBatch.from_pandas(pd.DataFrame({0: [WIN]}))
    assert len(HandBatch.from_pandas(pd.DataFrame({"hand": []}))) == 0


def test_a_whole_float_is_an_int_only_in_an_integer_field():
    df = pd.DataFrame({"hand": [WIN, WIN], "flowers": [2.0, float("nan")], "self_drawn": [1.0, 0.0]})
    res = score_batch(HandBatch.from_pandas(df))
    # flowers 2.0 is 2; self_drawn 1.0 is not a bool: an error row naming it, as for the record
    assert res.errors.tolist() == [ERR_INVALID, ERR_INVALID]
    assert "self_drawn" in res.error_message(0)
    ok = score_batch(HandBatch.from_pandas(df.drop(columns=["self_drawn"])))
    assert ok.errors.tolist() == [0, 0]
    assert ok.totals[0] == ok.totals[1] + 2 and not math.isnan(ok.totals[0])


def test_the_tables_example_of_docs_notation_md_prints_what_it_says(capsys):
    # the block's comments are what it prints: the table lines, then a "# x" after each print(...)
    import re
    with open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8") as f:
        section = f.read().split("### Tables", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    want = []
    for line in code.splitlines():
        if line.startswith("# "):
            want.append(line[2:])
        elif line.startswith("print(") and "#" in line:
            want.append(line.split("#", 1)[1].strip())
    exec(compile(code, "docs/notation.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == want and len(want) == 6


def test_numpy_ids_of_a_batch_of_arrays_are_integers():
    b = HandBatch.from_records([{"hand": WIN}, {"hand": WIN}, {"hand": "xx"}])
    for ids in (np.array([7, 8, 9]), [np.int64(7), np.int32(8), np.uint8(9)]):
        res = score_batch(HandBatch(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round,
                                    b.flowers, ids=ids, invalid=b.invalid, messages=b.messages))
        assert str(res.to_pandas()["id"].dtype) == "Int64" and res.to_pandas()["id"].tolist() == [7, 8, 9]
        assert res.to_arrow().column("id").to_pylist() == [7, 8, 9]
