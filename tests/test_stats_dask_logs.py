"""Dask for match archives and self-play: a LocalCluster of 2 worker
processes gives the single-machine rows, files and statistics."""
import os

import pandas as pd
import pytest

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

import mjfast
import mjfast.logs as logs
from mjfast.cli import main
from mjfast.stats.logs import stats_of_logs
from mjfast.stats import enumerate as E
from mjfast.stats.simulate import simulate

from test_stats_simulate import ARCHIVE, DATA, _archive

EDGE = os.path.join(DATA, "edge.txt")


def test_logs_and_simulate_on_a_local_cluster(tmp_path, capsys):
    import mjfast.dask as mjd
    arch = tmp_path / "games.txt"
    _archive(arch, 50, 3)
    paths = [str(arch), ARCHIVE, EDGE]
    single = logs.score(paths)
    single_acc, _ = stats_of_logs(paths)
    single_sim = simulate(700, seed=4, chunk_size=200)
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    assert main(["logs", "score", *paths, "--out", str(tmp_path / "a" / "rows.csv"), "--no-progress"]) == 1
    assert main(["logs", "export", *paths, "--out", str(tmp_path / "a" / "hands.jsonl"), "--no-progress"]) == 1
    capsys.readouterr()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        ddf = mjd.score_logs(paths, chunk_bytes=6000)
        assert ddf.npartitions > len(paths)
        got = ddf.compute().reset_index(drop=True)
        acc = mjd.fan_frequencies(ddf)
        units = list(mjd.process_logs(paths, chunk_bytes=6000))
        address = cluster.scheduler_address
        assert main(["logs", "score", *paths, "--out", str(tmp_path / "b" / "rows.csv"), "--no-progress",
                     "--scheduler", address]) == 1
        err_logs = capsys.readouterr().err
        assert main(["logs", "export", *paths, "--out", str(tmp_path / "b" / "hands.jsonl"), "--no-progress",
                     "--scheduler", address]) == 1
        capsys.readouterr()
        assert main(["stats", "logs", *paths, "--scheduler", address, "--json"]) == 1
        payload = capsys.readouterr()
        sim = simulate(700, seed=4, chunk_size=200, scheduler=address)
        small = ["thirteen_orphans", "honors_knitted", "knitted_straight"]
        enum_dask = E.enumerate_stats(small, chunk=2500, scheduler=address)
        # the union's part of each chunk (hands no earlier form completes), scored on the cluster
        union_dask = [r for _f, _n, r in E._chunks_on_dask(["knitted_straight"], 2500, True, address)]
    enum_local = E.enumerate_stats(small, chunk=2500)
    for f in small:
        a, b = enum_dask.forms[f], enum_local.forms[f]
        assert (a.hands, a.physical, a.rows) == (b.hands, b.physical, b.rows) and a.hands > 0
        assert a.stats == b.stats and a.weighted == b.weighted
    union_local = [E._chunk_result("knitted_straight", h, True) for h in E.hands("knitted_straight", 2500)]
    assert len(union_dask) == len(union_local) > 1
    for (p1, u1), (p2, u2) in zip(union_dask, union_local):
        assert p1.stats == p2.stats and u1.stats == u2.stats and u1.weighted == u2.weighted
        assert 0 < u1.hands <= p1.hands
    # row for row, the single-machine DataFrame
    pd.testing.assert_frame_equal(got, single)
    assert acc == single_acc and sim.stats == single_sim.stats and sim.wins == single_sim.wins
    assert sim.workers == 2
    assert sum(len(u[0]) for u in units) == len(single)
    assert sum(u[2].skipped for u in units) == single.attrs["summary"].skipped > 0
    # the CLI writes the same file, and reports the same summary
    assert (tmp_path / "a" / "rows.csv").read_bytes() == (tmp_path / "b" / "rows.csv").read_bytes()
    assert (tmp_path / "a" / "hands.jsonl").read_bytes() == (tmp_path / "b" / "hands.jsonl").read_bytes()
    assert len((tmp_path / "a" / "hands.jsonl").read_text().splitlines()) == len(single)
    assert "skipped matches:" in err_logs and "bad-false-hu" in err_logs
    import json
    p = json.loads(payload.out)
    assert p["summary"]["wins"] == single_acc.wins and p["matches"]["skipped"] == single.attrs["summary"].skipped
