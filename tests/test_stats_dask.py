"""Dask: a LocalCluster of 2 worker processes gives the single-machine rows and statistics."""
import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

import mjfast
from mjfast.stats import FanStats, stats_of_files

from handgen import random_winning_records


def _single_machine(path):
    frames = []
    for batch in mjfast.HandBatch.from_jsonl(path):
        res = mjfast.score_batch(batch)
        frames.append(res.to_pandas())
    return pd.concat(frames, ignore_index=True)


def test_local_cluster_matches_single_machine(tmp_path):
    import mjfast.dask as mjd
    paths = []
    recs = random_winning_records(3000, seed=21)
    for k in range(3):
        p = tmp_path / f"part{k}.jsonl"
        lines = [json.dumps(r) for r in recs[k * 1000:(k + 1) * 1000]]
        if k == 1:
            lines[17] = "{not json"
            lines[18] = json.dumps({"hand": "123m"})
        p.write_text("\n".join(lines) + "\n")
        paths.append(p)
    single = pd.concat([_single_machine(p) for p in paths], ignore_index=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        ddf = mjd.score_jsonl(paths, lines_per_partition=400)
        assert ddf.npartitions == 9
        got = ddf.compute().reset_index(drop=True)
        acc = mjd.fan_frequencies(ddf)
        acc_files = mjd.fan_frequencies_of_files(paths)
        from mjfast.cli import main
        out = tmp_path / "fans.csv"
        assert main(["stats", "table", *map(str, paths), "--scheduler", cluster.scheduler_address,
                     "--out", str(out)]) == 1          # exit 1: the two bad lines
    assert list(got["line"][:3]) == [1, 2, 3] and got["line"].iloc[1017] == 18
    assert got["file"].iloc[1500] == str(paths[1])
    assert got["message"].iloc[1017].startswith("line 18: bad JSON")
    pd.testing.assert_frame_equal(got.drop(columns=["file", "message"]), single)
    # the file's line, not the partition's (the error text is the CLI's: the line in its own column)
    assert got["error"].iloc[1017].startswith("bad JSON") and got["line"].iloc[1017] == 18
    want = FanStats()
    for p in paths:
        for batch in mjfast.HandBatch.from_jsonl(p):
            want.update(mjfast.score_batch(batch))
    assert acc == want
    assert acc_files == want == stats_of_files(paths)
    assert pd.read_csv(out)["wins"].tolist() == want.table(sort="share")["wins"].tolist()
    assert want.invalid == 2
