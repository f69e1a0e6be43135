"""Scale-out on Dask (``pip install '.[dask]'``).

Each partition is scored by the ordinary single-machine path
(``HandBatch`` + ``score_batch``), so a cluster gives the same rows as one
machine, in the same order; statistics are :class:`mjfast.stats.FanStats`
accumulators merged in a tree.

    from dask.distributed import Client
    import mjfast.dask as mjd
    client = Client("tcp://scheduler:8786")          # or Client() for a local cluster
    ddf = mjd.score_jsonl(["part-000.jsonl", ...])   # dask DataFrame, a partition per file (or chunk)
    acc = mjd.fan_frequencies(ddf)                   # FanStats over all of it
    acc.table()

Match archives the same way: ``score_logs(paths)`` is a dask DataFrame of
the rows ``mjfast.logs.score(paths)`` returns (one partition per unit of
work - a file, or a ~4 MB run of matches of a text archive), and
``fan_frequencies`` reads it too.  ``process_logs`` yields each unit's
(rows, wins, summary) computed on the cluster, in order (what ``mjfast logs
score --scheduler`` writes).
"""
from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, List, Optional, Sequence

from .._extras import require

if TYPE_CHECKING:       # an annotation only: pandas comes with dask's dataframe
    import pandas

require("dask", "mjfast.dask")

import dask  # noqa: E402  (after the check: its message says what to install)
import dask.dataframe as dd  # noqa: E402
import numpy as np  # noqa: E402

from ..scoring.batch import HandBatch, score_batch
from . import FanStats, stats_of_files

__all__ = ["score_jsonl", "score_logs", "process_logs", "fan_frequencies", "fan_frequencies_of_files", "client_for",
           "jsonl_partitions"]


def jsonl_partitions(paths: Sequence, lines_per_partition: Optional[int] = None) -> List[tuple]:
    """``(path, first line, byte offset, byte end)`` of each partition: a whole
    file, or runs of ``lines_per_partition`` lines (offsets found by one scan)."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    parts = []
    for p in paths:
        p = os.fspath(p)
        size = os.path.getsize(p)
        if not lines_per_partition:
            parts.append((p, 1, 0, size))
            continue
        with open(p, "rb") as f:
            start, line, n = 0, 1, 0
            pos = 0
            for raw in f:
                pos += len(raw)
                n += 1
                if n == lines_per_partition:
                    parts.append((p, line, start, pos))
                    start, line, n = pos, line + n, 0
            if n or not parts or parts[-1][0] != p:
                parts.append((p, line, start, pos))
    return parts


def _score_part(part) -> "pandas.DataFrame":
    """Score one partition exactly as the single-machine path does."""
    import pandas as pd
    path, first_line, start, end = part
    frames = []
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    # the same reader as HandBatch.from_jsonl, over this byte range (rows carry
    # their file line numbers in the "line" column)
    for batch in _batches(data, first_line=first_line):
        res = score_batch(batch)
        df = res.to_pandas()
        df.insert(0, "message", [res.error_message(i) for i in range(len(res))])
        df.insert(0, "file", path)
        frames.append(df)
    if not frames:
        return _meta()
    return pd.concat(frames, ignore_index=True)


def _batches(data: bytes, chunk_size: int = 65536, first_line: int = 1):
    """The batches ``HandBatch.from_jsonl`` makes of these lines (same reader,
    same handling of bad JSON), from bytes already read."""
    lines = data.split(b"\n")          # as iterating a binary file does: only \n ends a line
    if lines and lines[-1] == b"":
        lines.pop()
    return HandBatch.from_lines(lines, chunk_size, first_line)


def _meta():
    import pandas as pd
    res = score_batch(HandBatch.from_records([]))
    df = res.to_pandas()
    df["id"] = df["id"].astype(object)
    df.insert(0, "message", pd.Series([], dtype=object))
    df.insert(0, "file", pd.Series([], dtype=object))
    return df


def score_jsonl(paths, lines_per_partition: Optional[int] = None) -> "dd.DataFrame":
    """A dask DataFrame of the scores of JSONL hand-record files: one partition
    per file (or per ``lines_per_partition`` lines).  Columns: file, message
    (empty when scored), then those of ``BatchResult.to_pandas()`` (id, total,
    legal, error_code, error, line - the file's line number -, ignored_flags,
    one per fan)."""
    parts = jsonl_partitions(paths, lines_per_partition)
    # ids are any JSON value: keep them as Python objects, as the single-machine
    # path does (not dask's default conversion of object columns to strings)
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_map(_score_part, parts, meta=_meta(), enforce_metadata=False)


# -- match archives --------------------------------------------------------------


def _logs_tasks(paths, chunk_bytes):
    from ..logs import path_list as _paths   # start-up: the logs load for a logs job only
    from ..logs.scoring import split_tasks   # start-up: the logs load for a logs job only
    paths = _paths(paths)
    for p in paths:
        if not os.path.exists(p):
            raise FileNotFoundError(p)
    return split_tasks(paths, chunk_bytes)


def _logs_frame(rows):
    """The DataFrame mjfast.logs.score makes of these rows."""
    import pandas as pd
    from ..logs.scoring import COLUMNS   # start-up: the logs load for a logs job only
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    for col in ("pos", "winner", "discarder", "total", "recorded_total"):
        df[col] = df[col].astype("Int64")
    return df


def _logs_part(task):
    from ..logs.scoring import run_task   # start-up: the logs load for a logs job only
    rows, _wins, _summary = run_task(task)
    return _logs_frame(rows)


def score_logs(paths, chunk_bytes: int = 4 << 20) -> "dd.DataFrame":
    """A dask DataFrame of the wins of match archives (text archives, match
    JSON files or directories): the rows and columns of
    :func:`mjfast.logs.score`, one partition per unit of work (a JSON file, a
    text archive or a run of about ``chunk_bytes`` of it), each read,
    replayed and scored by the single-machine path.  Skipped matches are not
    rows: :func:`process_logs` (or ``mjfast logs score``) reports them."""
    tasks = _logs_tasks(paths, chunk_bytes)
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_map(_logs_part, tasks, meta=_logs_frame([]), enforce_metadata=False)


def process_logs(paths, want_rows: bool = True, chunk_bytes: int = 4 << 20, bytes_bar=None):
    """``(rows, wins, summary)`` of each unit of work of
    :func:`mjfast.logs.scoring.process`, computed by the current
    ``dask.distributed`` client and yielded in input order (``bytes_bar``:
    as :func:`mjfast.logs.scoring.process`'s)."""
    from dask.distributed import get_client
    from ..logs.scoring import run_task, set_bytes_total, task_bytes   # start-up: the logs load for a logs job only
    tasks = _logs_tasks(paths, chunk_bytes)
    if bytes_bar is not None:
        set_bytes_total(bytes_bar, tasks)
    client = get_client()
    futures = client.map(run_task, tasks, want_rows=want_rows, pure=False)
    for t, f in zip(tasks, futures):
        yield f.result()
        f.release()
        if bytes_bar is not None:
            bytes_bar.update(task_bytes(t))


def _stats_of_frame(df) -> FanStats:
    return FanStats().update(df)


def _merge(*accs) -> FanStats:
    out = FanStats()
    for a in accs:
        out.merge(a)
    return out


def _tree(items, fan_in: int = 8):
    while len(items) > 1:
        items = [dask.delayed(_merge)(*items[i:i + fan_in]) for i in range(0, len(items), fan_in)]
    return items[0]


def fan_frequencies(ddf) -> FanStats:
    """:class:`FanStats` of a dask DataFrame of scored hands (columns as in
    :func:`score_jsonl`), one accumulator per partition merged in a tree."""
    parts = ddf.to_delayed()
    if not parts:
        return FanStats()
    return _tree([dask.delayed(_stats_of_frame)(p) for p in parts]).compute()


def fan_frequencies_of_files(paths, chunk_size: int = 65536, rules=None) -> FanStats:
    """:class:`FanStats` of scored-result or hand-record files (as
    ``mjfast stats table`` reads them), one task per file; ``rules`` as in
    :func:`mjfast.stats.stats_of_files`."""
    paths = [os.fspath(p) for p in paths]
    if not paths:
        return FanStats()
    return _tree([dask.delayed(stats_of_files)([p], chunk_size=chunk_size, rules=rules)
                  for p in paths]).compute()


@contextlib.contextmanager
def client_for(scheduler: str):
    """A ``dask.distributed.Client`` for ``scheduler``: an address
    (``tcp://host:8786``) or ``"local"`` (a local cluster of worker processes)."""
    from dask.distributed import Client, LocalCluster      # (checked with dask when this module loaded)
    if scheduler == "local":
        with LocalCluster(processes=True, threads_per_worker=1) as cluster, Client(cluster) as client:
            yield client
    else:
        with Client(scheduler) as client:
            yield client
