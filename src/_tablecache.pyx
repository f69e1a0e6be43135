# cython: language_level=3
"""The lookup tables on disk: start-up, before the analysis step.

One file per kind of tables and install, written after a build and read back
by a later process of the same build.  The kinds and their owners, each of
which builds its tables itself and calls cache_read before building and
cache_store after: "tables" and "exact" (mjfast._tables: the lookup tables
every call uses, the exact shanten's), "dec" (mjfast._decide: the useful-tile
tables).  A module of its own so that each owner cimports one interface
(src/mjfast/_tablecache.pxd) and keys its files by its own compiled file.
""" 
#
# Building the tables is a visible part of a process's start-up, which a bot
# restarted every turn, a CLI call or a Dask worker pays each time (figures:
# benchmarks/README.md, "Start-up with the tables' disk cache").  After a build
# the tables are written to one file in the user's cache directory; a later
# process whose compiled module is the same file reads them back into buffers
# allocated as the build allocates them, checks them, and the owner publishes
# them as its build does (under its lock, its "built" flag set last).
#
# Where: $MJFAST_CACHE_DIR, else this OS's user cache directory as platformdirs
# names it (cache_dir() below).  platformdirs itself is not imported: it would
# add more to a process's start-up than reading the tables takes.
# MJFAST_NO_CACHE=1 turns it off (no read, no write).
#
# Never wrong tables: the file holds a key -- TABLE_FORMAT below and the
# identity of the owner's compiled module (its file name, size, mtime and inode), so a
# rebuild, an upgrade or another install never reads another build's tables
# -- the sizes of its sections, and a 64-bit checksum of the whole payload,
# all compared before anything is published.  A truncated, corrupt, foreign
# or unreadable file, a missing or read-only directory, a full disk: the
# process builds (and tries to write a good file), and says nothing unless
# the "mjfast" logger is at DEBUG.  Hashing the module file itself would be a
# stronger key but would add almost half again to the time of a load;
# size + mtime_ns + inode change on every rebuild or reinstall.
#
# The file is written whole to a temporary name in the same directory then
# renamed over the old one (os.replace: atomic on POSIX and Windows), so a
# reader sees the old file or the new one, never half of one; two processes
# writing at once each rename a complete file.  One file per kind and install
# (its name hashes the module's path), so rebuilds overwrite rather than pile up.
#
# The directory may hold anything (MJFAST_CACHE_DIR can name a shared one):
# every file is opened without blocking and read only if it is a regular file
# (a FIFO or a terminal at a cache file's name would otherwise hang the first
# table use), and the only files removed are ours: this process's temporary,
# cache files in our format whose install is gone, and temporaries named
# ".mjfast-tables-*.tmp" (a name only this module uses) that begin with our
# header and were left more than an hour ago.
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport malloc, free
import os
import stat
import sys
import time

cdef extern from "bigalloc.h":
    void* _big_alloc "mjfast_big_alloc"(size_t n) nogil
cdef extern from "openmp.h":
    int MJFAST_DEBUG_BUILD

#: Bump whenever what the tables hold changes (layout, meaning, a section
#: added or reordered) without the compiled module's file changing too --
#: in practice, with any change to the build code, as a second safety.
TABLE_FORMAT = 1

_CACHE_MAGIC = b"MJFTBL\x00\x01"

cdef extern from "tablecache.h":
    uint64_t _checksum "mjfast_checksum"(const void* data, size_t n, uint64_t seed) nogil


cdef uint64_t _payload_checksum(const TableSet* t) noexcept nogil:
    cdef uint64_t h = 0x6D6A66617374ull      # "mjfast"
    cdef int i
    for i in range(t.count):
        h = _checksum(t.p[i], t.n[i], h)
    return h


cdef _cache_debug(str what):
    # the logging module is imported only when there is something to say
    import logging
    logging.getLogger("mjfast").debug("mjfast table cache: %s", what)


cdef object _cache_path_and_key(str kind, str owner):
    """(file path, key bytes) of the cache file of one kind of tables for
    this build of its owner (the compiled module file that builds them), or
    None when the cache is off or no directory can be named."""
    flag = os.environ.get("MJFAST_NO_CACHE", "")
    if flag and flag != "0":
        return None
    d = cache_dir()
    if d is None:
        return None
    so = os.path.abspath(owner)
    st = os.stat(so)
    key = (f"kind={kind};format={TABLE_FORMAT};module={os.path.basename(so)};size={st.st_size};"
           f"mtime_ns={st.st_mtime_ns};ino={st.st_ino};debug={MJFAST_DEBUG_BUILD};path={so}"
           ).encode("utf-8", "surrogateescape")
    sob = so.encode("utf-8", "surrogatepass")
    cdef const char* sp = sob
    name = "%s-%016x.bin" % (kind, _checksum(sp, len(sob), 0))
    return os.path.join(d, name), key


cdef bytes _cache_header(const TableSet* t, bytes key, uint64_t checksum):
    import struct
    return (_CACHE_MAGIC + struct.pack("<IIIIQ", TABLE_FORMAT, t.count, len(key), 0, checksum)
            + struct.pack("<%dQ" % t.count, *[t.n[i] for i in range(t.count)]) + key)


cdef object _open_regular(path, bint follow=True):
    """``path`` opened for reading as a raw binary file, if it is a regular
    file.  FileNotFoundError when it is missing, another OSError when it is
    something else (a FIFO, a device, a directory) or cannot be opened.
    O_NONBLOCK makes the open itself return at once whatever the path is (a
    FIFO with no writer would block it); a regular file reads the same with
    it.  ``follow=False``: a symbolic link is refused too."""
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_BINARY", 0))
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        return open(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


cdef int _read_exact(f, void* p, size_t n) except -1:
    """Read n bytes from the raw file f straight into p: 1 when all came, else 0."""
    cdef uint8_t[::1] view = <uint8_t[:n]>(<uint8_t*>p) if n else None
    cdef size_t got = 0
    cdef object k
    while got < n:
        k = f.readinto(view[got:])
        if not k:
            return 0
        got += <size_t>k
    return 1


cdef void _free_sections(TableSet* t) noexcept nogil:
    cdef int i
    for i in range(t.count):
        free(t.p[i])
        t.p[i] = NULL


cdef bint cache_read(str kind, TableSet* t, str owner) except -1:
    """Read one kind of tables from its cache file into fresh buffers (t's
    count, sizes and allocators set by the caller, its pointers NULL).  True
    when every check passed (the caller publishes t.p); False, with nothing
    allocated, when there is no usable file."""
    cdef int i
    cdef uint64_t want_sum = 0
    cdef bint ok
    try:
        pk = _cache_path_and_key(kind, owner)
    except Exception as exc:        # e.g. the module's file cannot be stat'ed
        _cache_debug(f"no cache path: {exc}")
        return False
    if pk is None:
        return False
    path, key = pk
    try:
        f = _open_regular(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        _cache_debug(f"cannot open {path}: {exc}")
        return False
    try:
        with f:
            head = _cache_header(t, key, 0)
            got = f.read(len(head))
            # everything but the checksum field (bytes 24-31) must match: magic,
            # format, number of sections, key length, sizes, key
            if got is None or len(got) != len(head) or got[:24] != head[:24] or got[32:] != head[32:]:
                _cache_debug(f"{path}: another build's file or a damaged header; rebuilding")
                return False
            want_sum = int.from_bytes(got[24:32], "little")
            for i in range(t.count):
                t.p[i] = _big_alloc(t.n[i]) if t.big[i] else malloc(t.n[i])
                if t.p[i] == NULL:
                    _free_sections(t)
                    return False
            for i in range(t.count):
                if not _read_exact(f, t.p[i], t.n[i]):
                    _free_sections(t)
                    _cache_debug(f"{path}: truncated; rebuilding")
                    return False
            if f.read(1):
                _free_sections(t)
                _cache_debug(f"{path}: longer than its sections; rebuilding")
                return False
    except Exception as exc:        # an I/O error while reading: build instead
        _free_sections(t)
        _cache_debug(f"cannot read {path}: {exc}")
        return False
    with nogil:
        ok = _payload_checksum(t) == want_sum
    if not ok:
        _free_sections(t)
        _cache_debug(f"{path}: checksum mismatch; rebuilding")
        return False
    return True


cdef cache_store(str kind, const TableSet* t, str owner):
    """After a build (tables published): write one kind of tables to its
    cache file, or do nothing if that fails in any way."""
    cdef uint64_t s
    cdef int i
    try:
        pk = _cache_path_and_key(kind, owner)
    except Exception as exc:
        _cache_debug(f"no cache path: {exc}")
        return
    if pk is None:
        return
    path, key = pk
    with nogil:
        s = _payload_checksum(t)
    tmp = None
    try:
        import tempfile
        d = os.path.dirname(path)
        os.makedirs(d, exist_ok=True)
        _remove_stale_temporaries(d)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=_TMP_PREFIX, suffix=".tmp")
        # readable by others (mkstemp makes it private): nothing in it is
        # secret, and a cache directory shared by a cluster's users then works
        # (a directory only trusted users can write: the checksum catches
        # damage, not a forged file)
        try:
            os.chmod(tmp, 0o644)
        except OSError:
            pass
        with open(fd, "wb", buffering=0) as f:
            _write_all(f, _cache_header(t, key, s))
            for i in range(t.count):
                _write_all(f, <uint8_t[:t.n[i]]>(<uint8_t*>t.p[i]))
        os.replace(tmp, path)
        tmp = None
        _remove_orphans(d, path)
    except Exception as exc:        # read-only, full disk, no directory...
        _cache_debug(f"cannot write {path}: {exc}")
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


cdef _remove_orphans(d, own):
    """Cache files of installs that are gone: each file's key ends with the
    path of the compiled module that wrote it, and a temporary venv or an
    uninstalled copy would otherwise leave up to 97 MB behind for good.  Only
    files in our format whose module path no longer exists go (a directory
    shared with another machine, where that path is not mounted, would lose
    that machine's files; it writes them again on its next build)."""
    try:
        with os.scandir(d) as it:
            entries = [e for e in it if e.name.endswith(".bin") and e.path != own
                       and e.name.split("-", 1)[0] in ("tables", "dec", "exact")]
    except OSError:
        return
    for e in entries:
        try:
            with _open_regular(e.path) as f:
                head = f.read(16384)
            if head[:8] != _CACHE_MAGIC or len(head) < 32:
                continue
            count = int.from_bytes(head[12:16], "little")
            keylen = int.from_bytes(head[16:20], "little")
            key = head[32 + 8 * count:32 + 8 * count + keylen].decode("utf-8", "surrogateescape")
            _, sep, module = key.partition(";path=")
            if sep and module and not os.path.exists(module):
                os.unlink(e.path)
        except (OSError, ValueError):
            pass


#: the temporaries' names: ".mjfast-tables-<random>.tmp" (mkstemp)
_TMP_PREFIX = ".mjfast-tables-"


cdef _remove_stale_temporaries(d):
    """Temporaries left by a mjfast process killed while writing: a regular
    file named by _TMP_PREFIX, more than an hour old (a live writer finishes
    in well under a second), that begins with our header (the first thing a
    writer writes).  Anything else in the directory is someone else's and
    stays, whatever its name."""
    now = time.time()
    try:
        with os.scandir(d) as it:
            named = [e for e in it if e.name.startswith(_TMP_PREFIX) and e.name.endswith(".tmp")]
    except OSError:
        return
    for e in named:
        try:
            st = e.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or now - st.st_mtime <= 3600:
                continue
            with _open_regular(e.path, follow=False) as f:
                ours = f.read(len(_CACHE_MAGIC)) == _CACHE_MAGIC
            if ours:
                os.unlink(e.path)
        except OSError:
            pass


cdef _write_all(f, data):
    cdef object view = memoryview(data).cast("B")
    cdef Py_ssize_t done = 0, n = len(view)
    while done < n:
        k = f.write(view[done:])
        if not k:
            raise OSError("short write")
        done += k


def cache_dir():
    """The directory of the tables' disk cache (created when first written):
    $MJFAST_CACHE_DIR when set, else the user cache directory of this OS by
    platformdirs' convention, ``platformdirs.user_cache_dir("mjfast",
    appauthor=False)``:

    * Linux and other Unix: ``$XDG_CACHE_HOME/mjfast``, else ``~/.cache/mjfast``
    * macOS: ``$XDG_CACHE_HOME/mjfast``, else ``~/Library/Caches/mjfast``
    * Windows: ``%LOCALAPPDATA%\\mjfast\\Cache``, else ``~\\AppData\\Local\\mjfast\\Cache``

    (``XDG_CACHE_HOME`` counts when it is an absolute path, as the XDG
    specification says.)  None when no directory can be named (no home
    directory).  MJFAST_NO_CACHE=1 turns the cache off but does not change
    this answer."""
    d = os.environ.get("MJFAST_CACHE_DIR")
    if d:
        return d
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        if not base:
            home = _home()
            if home is None:
                return None
            base = os.path.join(home, "AppData", "Local")
        return os.path.join(base, "mjfast", "Cache")
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base.startswith("/"):
        return os.path.join(base, "mjfast")
    home = _home()
    if home is None:
        return None
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "mjfast")
    return os.path.join(home, ".cache", "mjfast")


cdef object _home():
    home = os.path.expanduser("~")
    if not home or home == "~":
        return None
    return home


#: where each kind of published tables came from: "built" or "cache"
#: (absent: not yet there); set by the owners (set_source)
_table_sources = {}


cdef set_source(str kind, str how):
    _table_sources[kind] = how


def table_source(kind="tables"):
    """Where this process's tables of one kind came from: None before first
    use, "built" (computed here) or "cache" (read from the disk cache).
    Kinds: "tables" (the lookup tables every call uses), "dec" (the
    useful-tile tables), "exact" (the exact shanten's tables)."""
    return _table_sources.get(kind)
