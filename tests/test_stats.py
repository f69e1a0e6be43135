"""The streaming fan statistics against a naive pandas computation."""
import math
import pickle

import numpy as np
import pandas as pd
import pytest

import mjfast
from mjfast.rules.mcr import MCR
from mjfast.stats import FanStats, wilson_interval, forms_of, self_drawn_of, FORM_NAMES, stats_of_files

from handgen import random_winning_records


@pytest.fixture(scope="module")
def corpus():
    recs = random_winning_records(4000, seed=11)
    recs[5] = {"hand": "123m"}                       # malformed: counted, never scored
    recs[9] = {"hand": "123m456p789s11239m", "self_drawn": True}  # well formed, not a win
    batch = mjfast.HandBatch.from_records(recs)
    return recs, batch, mjfast.score_batch(batch)


def test_wilson_hand_worked():
    # 8 successes in 10, z = 1.96: centre (0.8 + 0.19208) / 1.38416 = 0.716738,
    # half-width 1.96 / 1.38416 * sqrt(0.016 + 0.009604) = 0.226581
    lo, hi = wilson_interval(8, 10, z=1.96)
    assert lo == pytest.approx(0.490157, abs=1e-6)
    assert hi == pytest.approx(0.943319, abs=1e-6)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0 and hi == pytest.approx(0.161125, abs=1e-6)   # 3.8415 / 23.8415
    lo, hi = wilson_interval(np.array([0, 5]), np.array([0, 5]))
    assert math.isnan(lo[0]) and hi[1] == pytest.approx(1.0)


def test_wilson_against_scipy():
    stats = pytest.importorskip("scipy.stats")
    for k, n in ((3, 17), (250, 1000), (999, 1000)):
        ci = stats.binomtest(k, n).proportion_ci(method="wilson")
        lo, hi = wilson_interval(k, n)
        assert lo == pytest.approx(ci.low, rel=1e-9) and hi == pytest.approx(ci.high, rel=1e-9)


def test_table_against_naive_pandas(corpus):
    recs, batch, res = corpus
    acc = FanStats().update(res)
    df = res.to_pandas(names="display")
    ok = df[df["error_code"] == 0]
    assert acc.rows == len(df) and acc.invalid == 1 and acc.not_winning == 1
    assert acc.wins == len(ok) == len(df) - 2
    t = acc.table()
    for j, f in enumerate(MCR):
        col = ok[f.en]
        has = col > 0
        assert t["wins"][j] == has.sum(), f.key
        assert t["count"][j] == col.sum()
        assert t["share"][j] == pytest.approx(has.mean())
        if has.any():
            assert t["mean_total_with"][j] == pytest.approx(ok["total"][has].mean())
        else:
            assert math.isnan(t["mean_total_with"][j])
        if (~has).any():
            assert t["mean_total_without"][j] == pytest.approx(ok["total"][~has].mean())
        assert t["points"][j] == f.points
    # co-occurrence with integer arithmetic (no float products)
    p = (ok[list(BatchNames())] > 0).to_numpy().astype(np.int64)
    assert np.array_equal(acc.cooc, p.T @ p)
    # totals histogram and summary
    vc = ok["total"].value_counts()
    h = acc.histogram()
    assert all(h[v] == c for v, c in vc.items()) and h.sum() == len(ok)
    s = acc.summary()
    assert s["legal"] == ok["legal"].sum()
    assert s["totals"]["mean"] == pytest.approx(ok["total"].mean())
    assert s["totals"]["median"] == int(np.percentile(ok["total"], 50, method="inverted_cdf"))
    assert s["totals"]["max"] == ok["total"].max()
    # self-drawn: read from the fans, equal to the records' flag
    sd = [bool(r.get("self_drawn")) for i, r in enumerate(recs) if res.errors[i] == 0]
    assert s["self_drawn"] == sum(sd)


def BatchNames():
    return mjfast.BatchResult.fan_names


def _naive_form(fans):
    names = {n for n, *_ in fans}
    if "Seven Pairs" in names or "Seven Shifted Pairs" in names:
        return "seven_pairs"
    if "Thirteen Orphans" in names:
        return "thirteen_orphans"
    if "Greater Honors and Knitted Tiles" in names or "Lesser Honors and Knitted Tiles" in names:
        return "honors_knitted"
    if "Knitted Straight" in names:
        return "knitted_straight"
    return "regular"


def test_forms(corpus):
    recs, batch, res = corpus
    acc = FanStats().update(res)
    ok = np.flatnonzero(res.errors == 0)
    naive = pd.Series([_naive_form(res.fans(int(i))) for i in ok]).value_counts()
    s = acc.summary()["forms"]
    for f in FORM_NAMES:
        assert s[f]["wins"] == naive.get(f, 0)
    assert all(s[f]["wins"] > 0 for f in FORM_NAMES)      # the corpus has every form
    # each hand of a form completes in that form (the form of its best reading)
    form = forms_of(res.fan_counts[ok] > 0)
    for code, name in enumerate(FORM_NAMES):
        sel = ok[form == code]
        sel = sel[batch.n_melds[sel] == 0]
        assert (mjfast.shanten_batch(batch.counts[sel], form=name) == -1).all()


def test_merge_equals_single_pass(corpus):
    _, _, res = corpus
    whole = FanStats().update(res)
    parts = [FanStats(), FanStats(), FanStats()]
    cuts = [0, 700, 701, len(res)]
    for p, a, b in zip(parts, cuts, cuts[1:]):
        p.update_arrays(res.fan_counts[a:b], res.totals[a:b], res.legal[a:b], res.errors[a:b])
    merged = FanStats().merge(parts[2]).merge(parts[0]).merge(parts[1])
    assert merged == whole
    assert parts[0] + parts[1] + parts[2] == whole
    assert pickle.loads(pickle.dumps(whole)) == whole
    assert FanStats.from_state(whole.state()) == whole
    assert merged.table().equals(whole.table())


def test_weights_equal_repetition(corpus):
    _, _, res = corpus
    w = np.random.default_rng(3).integers(0, 4, len(res))
    rep = FanStats().update_arrays(np.repeat(res.fan_counts, w, 0), np.repeat(res.totals, w),
                                   np.repeat(res.legal, w), np.repeat(res.errors, w))
    wt = FanStats(weighted=True).update(res, weights=w)
    a, b = rep.state(), wt.state()
    for k in a:
        if k not in ("weighted", "rows", "invalid", "not_winning"):
            assert np.array_equal(a[k], b[k]), k
    with pytest.raises(ValueError):
        FanStats().update(res, weights=w)
    with pytest.raises(TypeError):
        FanStats(weighted=True).update(res, weights=w.astype(float))
    with pytest.raises(ValueError):
        FanStats().merge(wt)


def test_dataframe_input_and_keys(corpus):
    _, _, res = corpus
    a = FanStats().update(res)
    assert FanStats().update(res.to_pandas()) == a
    assert FanStats().update(res.to_pandas(names="display")) == a
    df = res.to_pandas()                # (fan columns by key)
    assert FanStats().update(df) == a
    with pytest.raises(ValueError, match="total"):
        FanStats().update(df.drop(columns=["total"]))
    with pytest.raises(TypeError):
        FanStats().update([1, 2, 3])


def test_cooccurrence_and_top(corpus):
    _, _, res = corpus
    acc = FanStats().update(res)
    keys, m = acc.cooccurrence(10)
    idx = [MCR.index(k) for k in keys]
    assert list(acc.fan_wins[idx]) == sorted(acc.fan_wins[idx], reverse=True)
    assert np.array_equal(np.diag(m), acc.fan_wins[idx])
    keys2, c = acc.cooccurrence(10, conditional=True)
    assert keys2 == keys and np.allclose(np.diag(c), 1.0)


def test_files(tmp_path, corpus):
    recs, batch, res = corpus
    import json
    want = FanStats().update(res)
    rec_path = tmp_path / "hands.jsonl"
    rec_path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    problems = []
    got = stats_of_files([rec_path], chunk_size=1000, on_problem=lambda *a: problems.append(a))
    assert got == want
    assert [p[1] for p in problems] == [6, 10]          # line numbers of the bad records
    res.to_pandas().to_parquet(tmp_path / "r.parquet")
    res.to_pandas().to_csv(tmp_path / "r.csv", index=False)
    assert stats_of_files(tmp_path / "r.parquet", chunk_size=999) == want
    assert stats_of_files(tmp_path / "r.csv", chunk_size=999) == want
    out = tmp_path / "results.jsonl"
    out.write_text("".join(json.dumps(res.record(i), ensure_ascii=False) + "\n" for i in range(len(res))))
    got = stats_of_files(out)
    # result lines: the two failed records become invalid rows (their error is all a line says)
    assert got.wins == want.wins and np.array_equal(got.cooc, want.cooc)
    assert got.invalid == 2
    with pytest.raises(ValueError, match="unknown file type"):
        stats_of_files(tmp_path / "x.txt")


def test_fans_column_of_mappings(corpus):
    # the log readers' table: one 'fans' column of {key: count} (or its text forms)
    import json
    _, _, res = corpus
    keys = mjfast.BatchResult.fan_keys
    rows = []
    for i in range(len(res)):
        if res.errors[i]:
            rows.append({"total": None, "fans": None, "error": res.error_message(i)})
            continue
        fans = {keys[j]: int(res.fan_counts[i, j]) for j in np.flatnonzero(res.fan_counts[i])}
        form = (fans, json.dumps(fans), "+".join(f"{k}*{v}" for k, v in fans.items()))[i % 3]
        rows.append({"total": int(res.totals[i]), "fans": form, "error": None})
    got = FanStats().update(pd.DataFrame(rows))
    want = FanStats().update(res)
    assert got.wins == want.wins and np.array_equal(got.cooc, want.cooc)
    assert np.array_equal(got.fan_count, want.fan_count) and np.array_equal(got.hist, want.hist)
    assert got.invalid == 2
    bad = pd.DataFrame([{"total": 9, "fans": {"no_such_fan": 1}}])
    assert FanStats().update(bad).invalid == 1


def test_bad_arrays():
    fc = np.zeros((3, 82), np.int64)
    tot = np.array([8, 9, 10])
    FanStats().update_arrays(fc, tot)                     # int64 counts in range: fine
    fc[0, 0] = 300
    with pytest.raises(ValueError, match="0-255"):
        FanStats().update_arrays(fc, tot)
    with pytest.raises(TypeError):
        FanStats().update_arrays(np.zeros((3, 82)), tot)
    with pytest.raises(TypeError):
        FanStats().update_arrays(np.zeros((3, 82), np.uint8), tot.astype(float))
    with pytest.raises(ValueError, match="82"):
        FanStats().update_arrays(np.zeros((3, 81), np.uint8), tot)
    with pytest.raises(ValueError, match="negative"):
        FanStats().update_arrays(np.zeros((3, 82), np.uint8), np.array([1, -1, 2]))
    with pytest.raises(ValueError, match="weights"):
        FanStats(weighted=True).update_arrays(np.zeros((3, 82), np.uint8), tot, weights=np.array([1, 2, 1 << 40]))
