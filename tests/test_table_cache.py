"""The disk cache of the built tables (src/_tablecache.pyx).

Every check runs in fresh interpreters with MJFAST_CACHE_DIR set to the test's
own temporary directory: the tables are built or loaded once per process, so
only a new process shows what the cache does.  The reference for every table
byte is a process that builds with the cache off (MJFAST_NO_CACHE=1).
"""
import glob
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# a process's table source and the sha256 of each table section
_DIGESTS = r"""
    import hashlib, json
    from mjfast import _core, _tablecache, _tables
    spent = _tables.build_tables()
    secs = _tables._table_sections()
    print(json.dumps({"source": _tablecache.table_source(), "again": _tables.build_tables(),
                      "nbytes": _tables.table_nbytes(), "spent": spent,
                      "sections": {name: [len(b), hashlib.sha256(b).hexdigest()] for name, b in secs}}))
"""

# the answers of a few hundred scored hands, and shanten and waits of random hands
_ANSWERS = r"""
    import hashlib, json, sys
    import numpy as np
    sys.path.insert(0, "tests")
    import mjfast
    from mjfast import _core, _tablecache, _tables, HandBatch, score_batch
    from handgen import random_winning_records, random_hands
    recs = random_winning_records(400, seed=5)
    res = score_batch(HandBatch.from_records(recs))
    out = {"source": None}
    out["totals"] = hashlib.sha256(np.ascontiguousarray(res.totals).tobytes()).hexdigest()
    out["fans"] = hashlib.sha256(np.ascontiguousarray(res.fan_counts).tobytes()).hexdigest()
    out["one"] = [mjfast.score(r["hand"]).total for r in recs[:40] if "+" not in r["hand"]][:20]
    sh, wa = [], []
    for k, bias in enumerate((None, "one_suit", "honors", "knitted", "pairs", "terminals")):
        H = random_hands(300, 13, seed=k, bias=bias)
        sh.append(np.asarray(mjfast.shanten_batch(H)).tobytes())
        wa.append(np.asarray(mjfast.waits_batch(H)).tobytes())
    out["shanten"] = hashlib.sha256(b"".join(sh)).hexdigest()
    out["waits"] = hashlib.sha256(b"".join(wa)).hexdigest()
    out["single"] = [mjfast.shanten("123m456p789s11pEEN"), mjfast.waits("1112345678999m")]
    H = random_hands(300, 13, seed=9)
    out["exact"] = hashlib.sha256(np.asarray(mjfast.shanten_batch(H, exact=True)).tobytes()).hexdigest()
    out["useful"] = [repr(mjfast.useful_tiles(h)) for h in H[:60]]
    H14 = random_hands(60, 14, seed=10)
    out["discards"] = [repr(mjfast.best_discards(h)) for h in H14]
    out["sources"] = [_tablecache.table_source(k) for k in ("dec", "exact")]
    out["source"] = _tablecache.table_source()
    print(json.dumps(out))
"""


def _child(code, cache_dir, no_cache=False, extra_env=None, timeout=300):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("MJFAST_NO_CACHE", None)
    env["MJFAST_CACHE_DIR"] = str(cache_dir)
    if no_cache:
        env["MJFAST_NO_CACHE"] = "1"
    env.update(extra_env or {})
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def _cache_files(d):
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The tables of a build with the cache off: (digests, answers)."""
    d = tmp_path_factory.mktemp("nocache")
    tables, _ = _child(_DIGESTS, d, no_cache=True)
    answers, _ = _child(_ANSWERS, d, no_cache=True)
    assert tables["source"] == "built" and answers["source"] == "built"
    assert _cache_files(d) == []            # MJFAST_NO_CACHE=1 writes nothing
    return tables, answers


@pytest.fixture(scope="module")
def good_file(tmp_path_factory):
    """A cache file written by a build (copied into each test's directory)."""
    d = tmp_path_factory.mktemp("good")
    got, _ = _child(_DIGESTS, d)
    assert got["source"] == "built"
    return _cached_file(d)


def _place(good_file, d):
    import shutil
    path = os.path.join(d, os.path.basename(good_file))
    shutil.copyfile(good_file, path)
    return path


def _cached_file(d, kind="tables"):
    files = [f for f in _cache_files(d) if f.startswith(kind + "-")]
    assert len(files) == 1 and files[0].endswith(".bin"), files
    return os.path.join(d, files[0])


def test_loaded_tables_equal_built_ones_byte_for_byte(reference, tmp_path):
    ref, _ = reference
    first, _ = _child(_DIGESTS, tmp_path)
    assert first["source"] == "built"
    path = _cached_file(tmp_path)           # one file, no temporary left behind
    second, _ = _child(_DIGESTS, tmp_path)
    assert second["source"] == "cache"
    assert second["sections"] == ref["sections"] == first["sections"]
    assert second["again"] == 0.0 and second["spent"] > 0.0
    # table_nbytes() counts the published tables (the small static ones aside)
    # (sections 0-9: dist, hdist, hflag, hwmask, flag2, wf, srec, hrec, part_slot, part_list)
    assert second["nbytes"] == sum(ref["sections"][str(k)][0] for k in range(10))
    # the file is the sections plus a header holding the key
    assert os.path.getsize(path) > sum(n for n, _ in ref["sections"].values())
    # a load does not rewrite the file
    st = os.stat(path)
    _child(_DIGESTS, tmp_path)
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns


def test_answers_identical_with_and_without_the_cache(reference, good_file, tmp_path):
    _, ref = reference
    _place(good_file, tmp_path)
    first, _ = _child(_ANSWERS, tmp_path)   # loads the tables, builds and writes the other two kinds
    got, _ = _child(_ANSWERS, tmp_path)
    assert first["source"] == "cache" and first["sources"] == ["built", "built"]
    assert got["source"] == "cache" and got["sources"] == ["cache", "cache"]
    assert ref["sources"] == ["built", "built"]
    strip = lambda d: {k: v for k, v in d.items() if k not in ("source", "sources")}  # noqa: E731
    assert strip(got) == strip(ref) == strip(first)


def test_no_cache_neither_reads_nor_writes(reference, good_file, tmp_path):
    ref, _ = reference
    got, _ = _child(_DIGESTS, tmp_path, no_cache=True)
    assert got["source"] == "built" and _cache_files(tmp_path) == []
    path = _place(good_file, tmp_path)
    with open(path, "r+b") as f:            # a damaged file that a read would report...
        f.seek(os.path.getsize(path) // 2)
        f.write(b"\xff" * 64)
    st = os.stat(path)
    got, _ = _child(_DIGESTS, tmp_path, no_cache=True)
    assert got["source"] == "built" and got["sections"] == ref["sections"]
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns     # ...is neither read nor replaced


def _truncate_half(path):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)


def _truncate_one(path):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 1)


def _truncate_header(path):
    with open(path, "r+b") as f:
        f.truncate(20)


def _empty(path):
    open(path, "wb").close()


def _append(path):
    with open(path, "ab") as f:
        f.write(b"\0")


def _flip_payload(path):
    # one bit deep in the distance table: sizes and key still right
    with open(path, "r+b") as f:
        f.seek(4096 * 1000 + 7)
        b = f.read(1)
        f.seek(4096 * 1000 + 7)
        f.write(bytes([b[0] ^ 1]))


def _flip_last_byte(path):
    with open(path, "r+b") as f:
        f.seek(-1, os.SEEK_END)
        b = f.read(1)
        f.seek(-1, os.SEEK_END)
        f.write(bytes([b[0] ^ 0x80]))


def _wrong_key(path):
    # another build of the module: the same layout, its mtime differs
    with open(path, "r+b") as f:
        head = f.read(4096)
        i = head.index(b"mtime_ns=") + len(b"mtime_ns=")
        f.seek(i)
        f.write(b"1" if head[i:i + 1] != b"1" else b"2")


def _wrong_format(path):
    with open(path, "r+b") as f:
        f.seek(8)
        f.write((999).to_bytes(4, "little"))


def _wrong_magic(path):
    with open(path, "r+b") as f:
        f.write(b"NOTMJFST")


def _wrong_size(path):
    # a section's size in the header changed (and the file with it)
    with open(path, "r+b") as f:
        f.seek(32)
        n = int.from_bytes(f.read(8), "little")
        f.seek(32)
        f.write((n + 8).to_bytes(8, "little"))
    _append(path)
    with open(path, "ab") as f:
        f.write(b"\0" * 7)


def _garbage(path):
    size = os.path.getsize(path)
    with open(path, "wb") as f:
        f.write(os.urandom(size))


def _a_directory(path):
    # unreadable: a directory where the file should be (root reads any file)
    os.remove(path)
    os.mkdir(path)


DAMAGE = [_truncate_half, _truncate_one, _truncate_header, _empty, _append, _flip_payload, _flip_last_byte,
          _wrong_key, _wrong_format, _wrong_magic, _wrong_size, _garbage, _a_directory]


@pytest.mark.parametrize("damage", DAMAGE, ids=[f.__name__.strip("_") for f in DAMAGE])
def test_a_bad_cache_falls_back_to_a_correct_build(reference, good_file, tmp_path, damage):
    ref, _ = reference
    path = _place(good_file, tmp_path)
    damage(path)
    got, err = _child(_DIGESTS, tmp_path)
    assert got["source"] == "built"
    assert got["sections"] == ref["sections"]
    assert err == ""                        # silent
    if damage is _a_directory:
        assert os.path.isdir(path)          # the write failed, quietly
        return
    # the build wrote a good file over the bad one
    with open(path, "rb") as f, open(good_file, "rb") as g:
        assert f.read() == g.read()
    assert _cache_files(tmp_path) == [os.path.basename(path)]     # no temporary left


def test_the_debug_log_says_why(good_file, tmp_path):
    _flip_payload(_place(good_file, tmp_path))
    code = "import logging; logging.basicConfig(level=logging.DEBUG)\n" + textwrap.dedent(_DIGESTS)
    got, err = _child(code, tmp_path)
    assert got["source"] == "built"
    assert "mjfast table cache" in err and "checksum" in err


def test_an_unusable_cache_directory_is_ignored(reference, tmp_path):
    ref, _ = reference
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    for d in (blocker, blocker / "sub"):
        got, err = _child(_DIGESTS, d)
        assert got["source"] == "built" and got["sections"] == ref["sections"] and err == ""
    assert blocker.read_text() == "a file where the cache directory should be"


def test_default_location_follows_xdg_cache_home(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    code = "import os; os.environ.pop('MJFAST_CACHE_DIR')\n" + textwrap.dedent(_DIGESTS)
    got, _ = _child(code, tmp_path / "unused", extra_env=env)
    assert got["source"] == "built"
    assert len(glob.glob(str(tmp_path / "xdg" / "mjfast" / "tables-*.bin"))) == 1
    assert not (tmp_path / "unused").exists()
    got, _ = _child(code, tmp_path / "unused", extra_env=env)
    assert got["source"] == "cache"


def test_home_cache_when_nothing_is_set(tmp_path):
    code = ("import os; os.environ.pop('MJFAST_CACHE_DIR'); os.environ.pop('XDG_CACHE_HOME', None)\n"
            + textwrap.dedent(_DIGESTS))
    _child(code, tmp_path / "unused", extra_env={"HOME": str(tmp_path / "home")})
    assert len(glob.glob(str(tmp_path / "home" / ".cache" / "mjfast" / "tables-*.bin"))) == 1


_FIRST_CALLS_FROM_CACHE = r"""
    import json, threading
    import numpy as np
    import mjfast
    from mjfast import _core, _tablecache, _tables
    H = np.tile(mjfast.to_counts("1112345678999m").astype(np.uint8), (64, 1))
    results, errors = {}, []
    def work(k):
        try:
            results[k] = mjfast.waits("1112345678999m") == list(range(9)) and bool(
                (mjfast.shanten_batch(H) == 0).all())
        except Exception as exc:
            errors.append(repr(exc))
    ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in ts: t.start()
    for t in ts: t.join()
    print(json.dumps({"source": _tablecache.table_source(), "ok": all(results.values()) and len(results) == 8,
                      "errors": errors, "again": _tables.build_tables()}))
"""


def test_first_calls_from_many_threads_load_once(good_file, tmp_path):
    _place(good_file, tmp_path)
    got, _ = _child(_FIRST_CALLS_FROM_CACHE, tmp_path)
    assert got == {"source": "cache", "ok": True, "errors": [], "again": 0.0}


def _old(path):
    os.utime(path, (1_000_000_000, 1_000_000_000), follow_symlinks=False)


def test_a_killed_writers_temporary_is_cleared_by_the_next_write(tmp_path):
    """Only our own stale temporaries go: the name only this module uses,
    begun with our header, more than an hour old.  Anything else stays,
    whatever its name or age (the directory may be shared, MJFAST_CACHE_DIR)."""
    header = b"MJFTBL\x00\x01" + b"\x00" * 24       # what a killed writer leaves: a header, part of a payload
    stale = tmp_path / ".mjfast-tables-0123abcd.tmp"
    stale.write_bytes(header + b"half a payload")
    fresh = tmp_path / ".mjfast-tables-4567efgh.tmp"    # perhaps another process writing now
    fresh.write_bytes(header)
    not_ours = tmp_path / ".mjfast-tables-ijklmnop.tmp"  # our name, not our content
    not_ours.write_bytes(b"someone else's half file")
    foreign = tmp_path / ".tables-0123abcd.tmp"         # a name other programs may use
    foreign.write_bytes(b"half a file")
    foreign_ours = tmp_path / ".tables-89abcdef.tmp"    # even in our format: not a name only we use
    foreign_ours.write_bytes(header)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "data"
    target.write_bytes(header)
    link = tmp_path / ".mjfast-tables-qrstuvwx.tmp"      # a link to a file of ours elsewhere: not followed
    link.symlink_to(target)
    for f in (stale, not_ours, foreign, foreign_ours, target, link):
        _old(f)
    got, _ = _child(_DIGESTS, tmp_path)
    assert got["source"] == "built"
    assert not stale.exists()
    for f in (fresh, not_ours, foreign, foreign_ours, target):
        assert f.exists(), f
    assert link.is_symlink()
    assert foreign.read_bytes() == b"half a file" and target.read_bytes() == header
    _cached_file_ok = [f for f in _cache_files(tmp_path) if f.endswith(".bin")]
    assert len(_cached_file_ok) == 1
    assert os.stat(tmp_path / _cached_file_ok[0]).st_mode & 0o777 == 0o644


_SPY_TEMPORARIES = r"""
    import json, os, tempfile
    seen = []
    real = tempfile.mkstemp
    def spy(*a, **k):
        fd, p = real(*a, **k)
        seen.append(os.path.basename(p))
        return fd, p
    tempfile.mkstemp = spy
    from mjfast import _core, _tablecache, _tables
    _tables.build_tables()
    print(json.dumps({"source": _tablecache.table_source(), "seen": seen}))
"""


def test_a_writers_temporary_is_what_the_cleanup_looks_for(tmp_path):
    """The name a writer gives its temporary and the header it begins with
    (the file renamed into place) are the two marks the cleanup checks, so
    a writer killed mid-write leaves a file the next write clears."""
    got, _ = _child(_SPY_TEMPORARIES, tmp_path)
    assert got["source"] == "built"
    assert len(got["seen"]) == 1
    name = got["seen"][0]
    assert name.startswith(".mjfast-tables-") and name.endswith(".tmp")
    path = _cached_file(tmp_path)
    assert _cache_files(tmp_path) == [os.path.basename(path)]
    with open(path, "rb") as f:
        assert f.read(8) == b"MJFTBL\x00\x01"


def _kind_names(scratch):
    """This build's cache file names of the three kinds (each named by the
    module that builds it: written once in a scratch directory)."""
    _child(_ANSWERS, scratch, timeout=120)
    names = sorted(n for n in os.listdir(scratch) if n.endswith(".bin"))
    assert [n.split("-", 1)[0] for n in names] == ["dec", "exact", "tables"], names
    return names


def test_a_fifo_at_the_cache_path_does_not_hang(reference, good_file, tmp_path):
    """A FIFO where a cache file should be used to block open() for good on
    first table use; now it is not a regular file, so it is skipped, the
    tables are built (the same answers) and the FIFO replaced by a good file."""
    _, ref = reference
    names = _kind_names(tmp_path / "scratch")
    for n in names:
        os.mkfifo(tmp_path / n)
    os.mkfifo(tmp_path / "dec-00000000deadbeef.bin")          # another install's name: left alone
    os.mkfifo(tmp_path / ".mjfast-tables-00000000.tmp")       # our temporaries' name: not a file
    _old(tmp_path / ".mjfast-tables-00000000.tmp")
    got, err = _child(_ANSWERS, tmp_path, timeout=120)
    assert got["source"] == "built" and got["sources"] == ["built", "built"] and err == ""
    strip = lambda d: {k: v for k, v in d.items() if k not in ("source", "sources")}  # noqa: E731
    assert strip(got) == strip(ref)
    for n in names:
        assert os.path.isfile(tmp_path / n)
    import stat
    for n in ("dec-00000000deadbeef.bin", ".mjfast-tables-00000000.tmp"):
        assert stat.S_ISFIFO(os.lstat(tmp_path / n).st_mode)
    again, _ = _child(_ANSWERS, tmp_path, timeout=120)
    assert again["source"] == "cache" and again["sources"] == ["cache", "cache"]


def test_a_device_at_the_cache_path_is_not_read(reference, good_file, tmp_path):
    # /dev/zero would read forever as a payload of zeros; a link to it is not
    # a regular file, so the build goes ahead (and the link is replaced)
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    ref, _ = reference
    path = tmp_path / os.path.basename(good_file)
    path.symlink_to("/dev/zero")
    got, err = _child(_DIGESTS, tmp_path, timeout=120)
    assert got["source"] == "built" and got["sections"] == ref["sections"] and err == ""
    assert path.is_file() and not path.is_symlink()


_KIND_DIGESTS = r"""
    import hashlib, json, sys
    from mjfast import _decide, _tablecache, _tables
    kind = sys.argv[1]
    secs = (_decide if kind == "dec" else _tables)._table_sections(kind)
    print(json.dumps({"source": _tablecache.table_source(kind), "main": _tablecache.table_source(),
                      "sections": {name: [len(b), hashlib.sha256(b).hexdigest()] for name, b in secs}}))
"""


@pytest.mark.parametrize("kind", ["dec", "exact"])
def test_the_useful_tile_and_exact_tables_are_cached_too(tmp_path, kind):
    code = f"import sys; sys.argv[1:] = [{kind!r}]\n" + textwrap.dedent(_KIND_DIGESTS)
    ref, _ = _child(code, tmp_path / "off", no_cache=True)
    assert ref["source"] == "built" and not (tmp_path / "off").exists()
    first, _ = _child(code, tmp_path)
    assert first["source"] == "built"
    path = _cached_file(tmp_path, kind)
    second, _ = _child(code, tmp_path)
    assert second["source"] == "cache" and second["main"] == "cache"
    assert second["sections"] == first["sections"] == ref["sections"]
    # damaged: built again, the same bytes, and the file rewritten
    _flip_payload(path)
    third, err = _child(code, tmp_path)
    assert third["source"] == "built" and third["sections"] == ref["sections"] and err == ""
    fourth, _ = _child(code, tmp_path)
    assert fourth["source"] == "cache"


def test_an_unknown_kind_is_refused():
    from mjfast import _core, _tablecache, _tables
    from mjfast import _decide
    for owner in (_tables, _decide):
        with pytest.raises(ValueError, match="unknown table kind"):
            owner._table_sections("nonsense")
    assert _tablecache.table_source("nonsense") is None


def test_processes_starting_together_on_an_empty_cache(reference, tmp_path):
    """Several processes that all miss build and write at once: every one gets
    the right tables, and one whole file is left (each renames a complete one)."""
    ref, _ = reference
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MJFAST_CACHE_DIR=str(tmp_path))
    env.pop("MJFAST_NO_CACHE", None)
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(_DIGESTS)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outs
    for out, err in outs:
        assert json.loads(out)["sections"] == ref["sections"] and err == ""
    assert _cache_files(tmp_path) == [os.path.basename(_cached_file(tmp_path))]
    got, _ = _child(_DIGESTS, tmp_path)
    assert got["source"] == "cache" and got["sections"] == ref["sections"]


def _fake_file(path, module):
    """A cache file's header (no payload) naming the compiled module `module`."""
    import struct
    key = f"kind=tables;format=1;module=x.so;size=1;mtime_ns=1;ino=1;debug=0;path={module}".encode()
    with open(path, "wb") as f:
        f.write(b"MJFTBL\x00\x01" + struct.pack("<IIIIQ", 1, 14, len(key), 0, 0) + b"\0" * 8 * 14 + key)


def test_files_of_installs_that_are_gone_are_removed_on_write(tmp_path):
    gone = tmp_path / "tables-00000000deadbeef.bin"
    _fake_file(gone, str(tmp_path / "no-such-venv" / "_core.so"))
    alive = tmp_path / "dec-00000000cafebabe.bin"
    _fake_file(alive, os.path.join(ROOT, "setup.py"))           # its module exists: kept
    other = tmp_path / "exact-0000000012345678.bin"
    other.write_bytes(b"not one of ours")                       # not our format: kept
    stranger = tmp_path / "notes.bin"
    stranger.write_bytes(b"x")
    got, _ = _child(_DIGESTS, tmp_path)
    assert got["source"] == "built"
    assert not gone.exists() and alive.exists() and other.exists() and stranger.exists()
    assert len([f for f in _cache_files(tmp_path) if f.startswith("tables-")]) == 1


# The default location, by each OS's convention: platformdirs'
# user_cache_dir("mjfast", appauthor=False), written out by hand here and, when
# platformdirs is installed (a test dependency), compared with it as well.
# _tablecache.cache_dir() reads sys.platform and the environment at each call.
_HOME = "/home/u"
_CONVENTIONS = [
    # (sys.platform, environment, the directory)
    ("linux", {}, "/home/u/.cache/mjfast"),
    ("linux", {"XDG_CACHE_HOME": "/x/cache"}, "/x/cache/mjfast"),
    ("linux", {"XDG_CACHE_HOME": "relative/cache"}, "/home/u/.cache/mjfast"),    # XDG: absolute paths only
    ("freebsd14", {}, "/home/u/.cache/mjfast"),
    ("darwin", {}, "/home/u/Library/Caches/mjfast"),
    ("darwin", {"XDG_CACHE_HOME": "/x/cache"}, "/x/cache/mjfast"),
    ("win32", {"LOCALAPPDATA": r"C:\Users\u\AppData\Local", "XDG_CACHE_HOME": "/x/cache"},
     os.path.join(r"C:\Users\u\AppData\Local", "mjfast", "Cache")),
    ("win32", {}, os.path.join(_HOME, "AppData", "Local", "mjfast", "Cache")),
]


def _platformdirs_answer(platform, env):
    try:
        import platformdirs.macos, platformdirs.unix, platformdirs.windows  # noqa: E401,F401
    except ImportError:     # a test dependency (.[dev]): without it, the hand-written answers only
        return None
    if platform == "win32":
        from platformdirs.windows import Windows as cls
        if "LOCALAPPDATA" not in env:
            # platformdirs asks Windows itself (which always knows); the home
            # fallback is mjfast's own, for a process started without the variable
            return None
        # platformdirs asks Windows for the folder; off Windows this variable stands in
        os.environ["WIN_PD_OVERRIDE_LOCAL_APPDATA"] = env["LOCALAPPDATA"]
    elif platform == "darwin":
        from platformdirs.macos import MacOS as cls
    else:
        from platformdirs.unix import Unix as cls
    return cls(appname="mjfast", appauthor=False).user_cache_dir


@pytest.mark.parametrize("platform, env, want", _CONVENTIONS)
def test_default_location_is_each_os_user_cache_dir(monkeypatch, platform, env, want):
    from mjfast import _core, _tablecache, _tables

    for var in ("MJFAST_CACHE_DIR", "XDG_CACHE_HOME", "LOCALAPPDATA", "WIN_PD_OVERRIDE_LOCAL_APPDATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", _HOME)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(sys, "platform", platform)
    assert _tablecache.cache_dir() == want
    monkeypatch.setenv("MJFAST_NO_CACHE", "1")          # off, but the location stays named
    assert _tablecache.cache_dir() == want
    monkeypatch.setenv("MJFAST_CACHE_DIR", "/somewhere/else")    # the override wins on every OS
    assert _tablecache.cache_dir() == "/somewhere/else"
    monkeypatch.delenv("MJFAST_CACHE_DIR")
    oracle = _platformdirs_answer(platform, env)
    assert oracle in (None, want), oracle


def test_no_home_no_cache_directory(monkeypatch):
    from mjfast import _core, _tablecache, _tables

    for var in ("MJFAST_CACHE_DIR", "XDG_CACHE_HOME", "LOCALAPPDATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda p: p)     # as when no home can be found
    for platform in ("linux", "darwin", "win32"):
        monkeypatch.setattr(sys, "platform", platform)
        assert _tablecache.cache_dir() is None, platform
