"""`mjfast stats ...` and the figures."""
import json

import numpy as np
import pandas as pd
import pytest

import mjfast
from mjfast.cli import main
from mjfast.stats import FanStats

from handgen import random_winning_records


@pytest.fixture(scope="module")
def hands_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("stats") / "hands.jsonl"
    recs = random_winning_records(1500, seed=4)
    lines = [json.dumps(r) for r in recs]
    lines[9] = "{broken"
    lines[20] = json.dumps({"hand": "123m456p789s11239m"})     # not a win
    p.write_text("\n".join(lines) + "\n")
    return p


def test_table_outputs(hands_file, tmp_path, capsys):
    out = tmp_path / "fans.csv"
    assert main(["stats", "table", str(hands_file), "--out", str(out), "--top", "3"]) == 1
    cap = capsys.readouterr()
    assert f"{hands_file}:10: bad JSON" in cap.err and f"{hands_file}:21: not a winning hand" in cap.err
    assert "rows 1,500   wins 1,498   invalid 1   not winning 1" in cap.out
    df = pd.read_csv(out)
    assert len(df) == len(mjfast.MCR) and df["wins"].is_monotonic_decreasing
    acc = FanStats()
    for b in mjfast.HandBatch.from_jsonl(hands_file):
        acc.update(mjfast.score_batch(b))
    want = acc.table(sort="share")
    assert df["wins"].tolist() == want["wins"].tolist()
    assert np.allclose(df["share_low"].fillna(-1), want["share_low"].fillna(-1))
    for suffix in (".parquet", ".json"):
        o = tmp_path / f"fans{suffix}"
        main(["stats", "table", str(hands_file), "--out", str(o)])
        got = pd.read_parquet(o) if suffix == ".parquet" else pd.DataFrame(json.loads(o.read_text()))
        assert got["wins"].tolist() == want["wins"].tolist()
    capsys.readouterr()
    assert main(["stats", "table", str(hands_file), "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["summary"]["wins"] == 1498
    assert {f["key"] for f in payload["fans"]} == set(want[want["wins"] > 0]["key"])


def test_table_errors(hands_file, tmp_path, capsys):
    assert main(["stats", "table", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["stats", "table", str(hands_file), "--out", str(tmp_path / "x.xlsx")]) == 2
    assert "--out" in capsys.readouterr().err
    (tmp_path / "x.txt").write_text("1\n")
    assert main(["stats", "table", str(tmp_path / "x.txt")]) == 2
    assert "unknown file type" in capsys.readouterr().err


def test_enumerate_json(capsys):
    assert main(["stats", "enumerate", "--form", "honors_knitted", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["counts"]["honors_knitted"] == {"hands": 720, "physical_hands": 193273528320, "rows": 10080}
    keys = {f["key"]: f for f in payload["fans"]}
    assert keys["self_drawn"]["share"] == 1.0
    assert keys["lesser_honors_and_knitted_tiles"]["wins"] + keys["greater_honors_and_knitted_tiles"]["wins"] == 10080


def test_plots(tmp_path, hands_file, capsys):
    pytest.importorskip("matplotlib")
    from mjfast.stats.plot import plot_all, fan_bars
    acc = FanStats()
    for b in mjfast.HandBatch.from_jsonl(hands_file):
        acc.update(mjfast.score_batch(b))
    paths = plot_all(acc, tmp_path / "f.png")
    assert [p.split("/")[-1] for p in paths] == ["f.png", "f-totals.png", "f-cooccurrence.png"]
    for p in paths:
        with open(p, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    svg = fan_bars(acc, tmp_path / "f.svg")
    assert "<svg" in open(svg).read(2000)
    with pytest.raises(ValueError, match="suffix"):
        fan_bars(acc, tmp_path / "f.gif")
    with pytest.raises(ValueError, match="no fan"):
        fan_bars(FanStats(), tmp_path / "e.png")
    assert main(["stats", "table", str(hands_file), "--plot", str(tmp_path / "c.svg")]) == 1
    assert (tmp_path / "c-totals.svg").exists() and (tmp_path / "c-cooccurrence.svg").exists()
    assert main(["stats", "table", str(hands_file), "--plot", str(tmp_path / "c.bmp")]) == 2


def test_stats_table_lists_the_first_bad_lines_then_counts_the_rest(tmp_path, capsys):
    from mjfast.logs.limits import REPORT_LIST_LIMIT
    f = tmp_path / "h.jsonl"
    good = json.dumps({"hand": "123m456m789m123p5p5p"})
    bad_at = [i for i in range(1, 1001) if i % 7 == 0]                 # 142 bad lines
    f.write_text("".join(("{bad" if i in bad_at else good) + "\n" for i in range(1, 1001)))
    for workers in ("1", "2"):
        assert main(["stats", "table", str(f), "--top", "1", "--workers", workers]) == 1
        err = capsys.readouterr().err.splitlines()
        assert [int(ln.split(":")[1]) for ln in err[:-1]] == bad_at[:REPORT_LIST_LIMIT]
        assert all(ln.startswith(f"{f}:") and "bad JSON" in ln for ln in err[:-1])
        assert err[-1] == f"... and {len(bad_at) - REPORT_LIST_LIMIT} more lines with a problem " \
                          f"({len(bad_at)} in all, the first {REPORT_LIST_LIMIT} listed)"
    # at most the limit: each listed, no count line
    f.write_text("".join(("{bad" if i in bad_at[:3] else good) + "\n" for i in range(1, 101)))
    assert main(["stats", "table", str(f), "--top", "1"]) == 1
    assert len(capsys.readouterr().err.splitlines()) == 3
