"""Optional dependencies: a command that needs one checks it before any work
and, when it is missing, exits 2 with one line naming the extra to install;
a command that can work without it does, with the same output.

Each command runs in a subprocess where the module cannot be imported (a
finder in front of sys.meta_path refuses it, as for a package that is not
installed)."""
import json
import os
import re
import subprocess
import sys

import pytest

import mjfast
from mjfast import _extras
from mjfast.stats import FanStats
from mjfast.stats.cli import _table_rows

from handgen import random_winning_records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = os.path.join(ROOT, "tests", "data", "logs", "archive.txt")

_RUN = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(",")) - {""}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
from mjfast.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _mjfast(blocked, *args, cwd=None):
    env = dict(os.environ, PYTHONPATH=ROOT, COLUMNS="80")
    return subprocess.run([sys.executable, "-c", _RUN, ",".join(blocked), *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("extras")
    hands = d / "hands.jsonl"
    hands.write_text("\n".join(json.dumps(r) for r in random_winning_records(300, seed=8)) + "\n")
    res = mjfast.score_batch(next(mjfast.HandBatch.from_jsonl(hands)))
    df = res.to_pandas()
    df.to_csv(d / "scored.csv", index=False)
    df.to_parquet(d / "scored.parquet", index=False)
    return {"hands": hands, "csv": d / "scored.csv", "parquet": d / "scored.parquet"}


def _missing(blocked, need, flag, args, out, tmp_path):
    """The command exits 2 with exactly ``mjfast: error: <flag> needs <module>:
    install mjfast's extra '<extra>' (...)`` on stderr, prints nothing else and writes no file."""
    r = _mjfast(blocked, *args, cwd=tmp_path)
    module = blocked[0]
    want = f"mjfast: error: {flag} needs {module}: {_extras.install_hint(_extras.NEEDS[need][1])}\n"
    assert (r.returncode, r.stderr, r.stdout) == (2, want, ""), (args, r.stderr[-2000:])
    if out is not None:
        assert not os.path.exists(tmp_path / out), "the work was done before the check"


SIM = ["stats", "simulate", "--games", "200", "--seed", "2"]
ENUM = ["stats", "enumerate", "--form", "thirteen_orphans"]


@pytest.mark.parametrize("blocked,need,args,flag,out", [
    (["pandas"], "pandas", SIM + ["--out", "t.csv"], "--out t.csv", "t.csv"),
    (["pandas"], "parquet", SIM + ["--out", "t.parquet"], "--out t.parquet", "t.parquet"),
    (["pyarrow"], "parquet", SIM + ["--out", "t.parquet"], "--out t.parquet", "t.parquet"),
    (["pandas"], "pandas", ENUM + ["--out", "t.csv"], "--out t.csv", "t.csv"),
    (["matplotlib"], "plot", SIM + ["--plot", "f.png"], "--plot f.png", "f.png"),
    (["matplotlib"], "plot", ENUM + ["--plot", "f.png"], "--plot f.png", "f.png"),
    (["matplotlib"], "plot", ["stats", "logs", ARCHIVE, "--plot", "f.png", "--out", "t.json"], "--plot f.png",
     "t.json"),
    (["dask"], "dask", SIM + ["--scheduler", "local", "--out", "t.json"], "--scheduler local", "t.json"),
    (["distributed"], "dask", SIM + ["--scheduler", "local", "--out", "t.json"], "--scheduler local", "t.json"),
    (["dask"], "dask", ENUM + ["--scheduler", "local", "--out", "t.json"], "--scheduler local", "t.json"),
    (["dask"], "dask", ["stats", "logs", ARCHIVE, "--scheduler", "local", "--out", "t.json"], "--scheduler local",
     "t.json"),
    (["dask"], "dask", ["logs", "score", ARCHIVE, "--scheduler", "local", "--out", "r.jsonl"], "--scheduler local",
     "r.jsonl"),
    (["distributed"], "dask", ["logs", "export", ARCHIVE, "--scheduler", "local", "--out", "h.jsonl"],
     "--scheduler local", "h.jsonl"),
    (["pyarrow"], "arrow", ["logs", "score", ARCHIVE, "--out", "r.parquet"], "--out r.parquet", "r.parquet"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_missing_extra_stops_the_command_before_its_work(blocked, need, args, flag, out, tmp_path):
    _missing(blocked, need, flag, args, out, tmp_path)


def test_stats_table_checks_its_inputs_and_options_first(files, tmp_path):
    for blocked, key, need in ((["pandas"], "csv", "pandas"), (["pandas"], "parquet", "parquet"),
                               (["pyarrow"], "parquet", "parquet")):
        path = files[key]
        _missing(blocked, need, f"reading {path}", ["stats", "table", files["hands"], path, "--out", "t.json"],
                 "t.json", tmp_path)
    _missing(["matplotlib"], "plot", "--plot f.png", ["stats", "table", files["hands"], "--plot", "f.png",
                                                      "--out", "t.json"], "t.json", tmp_path)
    _missing(["dask"], "dask", "--scheduler local", ["stats", "table", files["hands"], "--scheduler", "local",
                                                     "--out", "t.json"], "t.json", tmp_path)


def _same_without(blocked, args, tmp_path, outs=()):
    """The command's stdout (and files) are the same with the modules blocked."""
    runs = []
    for b, sub in ((), "with"), (blocked, "without"):
        d = tmp_path / sub
        d.mkdir(parents=True)
        r = _mjfast(b, *args, cwd=d)
        assert r.returncode in (0, 1), r.stderr[-2000:]       # (1: the archive holds bad matches)
        runs.append((r.returncode, r.stdout, [(d / o).read_text() for o in outs]))
    assert runs[0] == runs[1]
    return runs[0][1]


def _drop_timing(text):
    d = json.loads(text)
    d.pop("seconds", None)
    for k in ("seconds", "games_per_second", "games_per_second_per_worker", "cpu_seconds", "games_per_cpu_second"):
        d.get("games", {}).pop(k, None)
    return d


@pytest.mark.parametrize("blocked", [["pandas", "pyarrow", "matplotlib", "dask", "distributed", "tqdm"]])
def test_tables_print_without_pandas(blocked, files, tmp_path):
    out = _same_without(blocked, SIM, tmp_path / "sim")
    assert "games 200" in out and "All Chows" in out
    out = _same_without(blocked, ENUM + ["--out", "t.json"], tmp_path / "enum", outs=["t.json"])
    assert "thirteen_orphans" in out and "Thirteen Orphans" in out
    out = _same_without(blocked, ["stats", "table", files["hands"], "--top", "0"], tmp_path / "table")
    assert "rows 300   wins 300" in out
    out = _same_without(blocked, ["stats", "logs", ARCHIVE], tmp_path / "logs")
    assert "wins" in out
    out = _same_without(blocked, ["logs", "score", ARCHIVE, "--out", "r.csv"], tmp_path / "lscore", outs=["r.csv"])
    # --json and --out .json too (the timing fields aside)
    runs = []
    for b, sub in ((), "with"), (blocked, "without"):
        d = tmp_path / ("json-" + sub)
        d.mkdir()
        r = _mjfast(b, *SIM, "--json", "--out", "t.json", cwd=d)
        assert r.returncode == 0, r.stderr[-2000:]
        runs.append((_drop_timing(r.stdout), (d / "t.json").read_text()))
    assert runs[0] == runs[1]
    assert runs[0][0]["fans"] and runs[0][0]["summary"]["wins"] == runs[0][0]["games"]["wins"]


def test_table_rows_are_pandas_table_records():
    acc = FanStats()
    for b in mjfast.HandBatch.from_records(random_winning_records(500, seed=3)), :
        acc.update(mjfast.score_batch(b))
    for sort in (None, "share", "wins"):
        want = acc.table(sort=sort).to_dict(orient="records")
        got = _table_rows(acc, sort)
        assert [list(r) for r in got] == [list(r) for r in want]
        same = lambda a, b: a == b or (a != a and b != b)                      # noqa: E731 (NaN == NaN)
        assert all(same(g[k], w[k]) for g, w in zip(got, want) for k in w), sort
    empty = FanStats()          # no wins: every share NaN, the table order kept
    assert [r["id"] for r in _table_rows(empty, "share")] == empty.table(sort="share")["id"].tolist()


def test_every_need_names_one_extra_that_installs_it():
    # the extras of pyproject.toml: each need's extra installs every module it imports
    try:
        import tomllib
    except ImportError:     # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    dist = {"pandas": "pandas", "pyarrow": "pyarrow", "matplotlib": "matplotlib", "dask": "dask[dataframe]",
            "dask.dataframe": "dask[dataframe]", "distributed": "distributed"}
    for need, (modules, extra) in _extras.NEEDS.items():
        names = {req.split(">")[0].split("=")[0].split("<")[0].strip() for req in extras[extra]}
        for m in modules:
            assert dist[m] in names, (need, m, extra)


def test_library_functions_say_what_to_install(monkeypatch):
    monkeypatch.setattr(_extras, "missing", lambda need: _extras.NEEDS[need][0][0])
    acc = FanStats()
    with pytest.raises(ImportError, match=r"^FanStats.table\(\) .*needs pandas: install mjfast's extra 'tables' \(pip install '\.\[tables\]' in its source directory\)$"):
        acc.table()
    res = mjfast.score_batch(mjfast.HandBatch.from_strings(["123m456m789m123p5p5p"]))
    with pytest.raises(mjfast.batch.MissingDependency, match=r"needs pyarrow: install mjfast's extra 'tables' "):
        res.to_arrow()
    with pytest.raises(ImportError, match=r"needs matplotlib: install mjfast's extra 'plot' "):
        from mjfast.stats import plot
        plot.fan_bars(acc, "x.png")


def test_the_all_extra_holds_every_users_extra():
    # `pip install 'mjfast[all]'` (README, "Install") gives every optional feature,
    # and `.[dev]` (the contributors' line) everything `all` and `test` give
    try:
        import tomllib
    except ImportError:     # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]

    def names(extra):
        return {re.split(r"[<>=!~; ]", req, maxsplit=1)[0] for req in extras[extra]}

    users = set(extras) - {"all", "dev", "test", "bench"}
    assert {"cli", "tables", "plot", "dask"} <= users
    for extra in users:
        assert names(extra) <= names("all"), (extra, names(extra) - names("all"))
    for extra in ("all", "test", "bench"):
        assert names(extra) <= names("dev"), (extra, names(extra) - names("dev"))
