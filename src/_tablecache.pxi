# The built tables on disk (included into _core.pyx): start-up, before the
# analysis step; used by the table builders of _core.pyx, _decide.pxi and
# _exact.pxi.
#
# Three kinds, each its own file: "tables" (everything _need_tables builds),
# "dec" (the useful-tile tables, src/_decide.pxi) and "exact" (the exact
# shanten's tables, src/_exact.pxi); each kind's builder calls _cache_read
# before building and _cache_store after.
#
# Building the tables is a visible part of a process's start-up, which a bot
# restarted every turn, a CLI call or a Dask worker pays each time (figures:
# benchmarks/README.md, "Start-up with the tables' disk cache").  After a build
# the tables are written to one file in the user's cache directory; a later
# process whose compiled module is the same file reads them back into buffers
# allocated as the build allocates them, checks them, and publishes them as the
# build does (under _tables_lock, _built set last).
#
# Where: $MJFAST_CACHE_DIR, else this OS's user cache directory as platformdirs
# names it (cache_dir() below).  platformdirs itself is not imported: it would
# add more to a process's start-up than reading the tables takes.
# MJFAST_NO_CACHE=1 turns it off (no read, no write).
#
# Never wrong tables: the file holds a key -- TABLE_FORMAT below and the
# identity of this compiled module (its file name, size, mtime and inode), so a
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

import os
import stat
import sys

#: Bump whenever what the tables hold changes (layout, meaning, a section
#: added or reordered) without the compiled module's file changing too --
#: in practice, with any change to the build code, as a second safety.
TABLE_FORMAT = 1

_CACHE_MAGIC = b"MJFTBL\x00\x01"
DEF NSECT = 16       # room for the most sections of one kind

cdef extern from "tablecache.h":
    uint64_t _checksum "mjfast_checksum"(const void* data, size_t n, uint64_t seed) nogil


ctypedef struct _TableSet:
    int count               # sections in this kind
    void* p[NSECT]
    size_t n[NSECT]
    bint big[NSECT]         # allocated with the huge-page hint, as its build does


# the sections of "tables", in file order: what the build publishes, plus the
# small static tables it fills (the shanten records' ranking, the readings'
# wide stores): dist, hdist, hflag, hwmask, flag2, wf, srec, hrec, part_slot,
# part_list, lo_rank, hi_off, two_packs, honor_packs


cdef void _section_sizes(_TableSet* t) noexcept nogil:
    cdef int i
    t.count = 14
    for i in range(NSECT):
        t.p[i] = NULL
        t.n[i] = 0
        t.big[i] = i == 0 or i == 5
    t.n[0] = NKEY * 10
    t.n[1] = NHKEY * 10
    t.n[2] = NHKEY
    t.n[3] = NHKEY * 2
    t.n[4] = NKEY // 4 + 1
    t.n[5] = NKEY * sizeof(uint32_t)
    t.n[6] = (NSREC + SREC_PAD) * SREC
    t.n[7] = NHKEY * SREC
    t.n[8] = PART_SLOTS * sizeof(uint64_t)
    t.n[9] = PART_LIST_MAX * sizeof(uint32_t)
    t.n[10] = sizeof(_lo_rank)
    t.n[11] = sizeof(_hi_off)
    t.n[12] = sizeof(TWO_PACKS)
    t.n[13] = sizeof(HONOR_PACKS)


cdef void _published_sections(_TableSet* t) noexcept nogil:
    """The sections as published (after a build or a load)."""
    _section_sizes(t)
    t.p[0] = _dist
    t.p[1] = _hdist
    t.p[2] = _hflag
    t.p[3] = _hwmask
    t.p[4] = _flag2
    t.p[5] = _wf
    t.p[6] = _srec
    t.p[7] = _hrec
    t.p[8] = _part_slot
    t.p[9] = _part_list
    t.p[10] = _lo_rank
    t.p[11] = _hi_off
    t.p[12] = TWO_PACKS
    t.p[13] = HONOR_PACKS


cdef uint64_t _payload_checksum(const _TableSet* t) noexcept nogil:
    cdef uint64_t h = 0x6D6A66617374ull      # "mjfast"
    cdef int i
    for i in range(t.count):
        h = _checksum(t.p[i], t.n[i], h)
    return h


cdef _cache_debug(str what):
    # the logging module is imported only when there is something to say
    import logging
    logging.getLogger("mjfast").debug("mjfast table cache: %s", what)


cdef object _cache_path_and_key(str kind):
    """(file path, key bytes) of this build's cache file of one kind of
    tables, or None when the cache is off or no directory can be named."""
    flag = os.environ.get("MJFAST_NO_CACHE", "")
    if flag and flag != "0":
        return None
    d = cache_dir()
    if d is None:
        return None
    so = os.path.abspath(__file__)
    st = os.stat(so)
    key = (f"kind={kind};format={TABLE_FORMAT};module={os.path.basename(so)};size={st.st_size};"
           f"mtime_ns={st.st_mtime_ns};ino={st.st_ino};debug={MJFAST_DEBUG_BUILD};path={so}"
           ).encode("utf-8", "surrogateescape")
    sob = so.encode("utf-8", "surrogatepass")
    cdef const char* sp = sob
    name = "%s-%016x.bin" % (kind, _checksum(sp, len(sob), 0))
    return os.path.join(d, name), key


cdef bytes _cache_header(const _TableSet* t, bytes key, uint64_t checksum):
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


cdef void _free_sections(_TableSet* t) noexcept nogil:
    cdef int i
    for i in range(t.count):
        free(t.p[i])
        t.p[i] = NULL


cdef bint _cache_read(str kind, _TableSet* t) except -1:
    """Read one kind of tables from its cache file into fresh buffers (t's
    count, sizes and allocators set by the caller, its pointers NULL).  True
    when every check passed (the caller publishes t.p); False, with nothing
    allocated, when there is no usable file."""
    cdef int i
    cdef uint64_t want_sum = 0
    cdef bint ok
    try:
        pk = _cache_path_and_key(kind)
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


cdef bint _cache_load_locked() except -1:
    """Under _tables_lock, _built False: read the tables from the cache file
    and publish them.  True when published; False (nothing published, nothing
    leaked) when there is no usable file."""
    global _dist, _hdist, _flag2, _hflag, _hwmask, _wf, _srec, _hrec, _built
    cdef _TableSet t
    _section_sizes(&t)
    if not _cache_read("tables", &t):
        return False
    # the small static tables first (nothing reads them before _built)
    memcpy(_lo_rank, t.p[10], t.n[10])
    memcpy(_hi_off, t.p[11], t.n[11])
    _part_install(<uint64_t*>t.p[8], <uint32_t*>t.p[9], <const uint64_t*>t.p[12], <const uint8_t*>t.p[13])
    free(t.p[10]); free(t.p[11]); free(t.p[12]); free(t.p[13])
    _dist = <uint8_t*>t.p[0]
    _hdist = <uint8_t*>t.p[1]
    _hflag = <uint8_t*>t.p[2]
    _hwmask = <uint8_t*>t.p[3]
    _flag2 = <uint8_t*>t.p[4]
    _wf = <uint32_t*>t.p[5]
    _srec = <uint8_t*>t.p[6]
    _hrec = <uint8_t*>t.p[7]
    _table_sources["tables"] = "cache"
    _built = True
    return True


cdef _cache_store(str kind, const _TableSet* t):
    """After a build (tables published): write one kind of tables to its
    cache file, or do nothing if that fails in any way."""
    cdef uint64_t s
    cdef int i
    try:
        pk = _cache_path_and_key(kind)
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


cdef _cache_store_tables():
    cdef _TableSet t
    _published_sections(&t)
    _cache_store("tables", &t)


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
#: (absent: not yet there)
_table_sources = {}


def table_source(kind="tables"):
    """Where this process's tables of one kind came from: None before first
    use, "built" (computed here) or "cache" (read from the disk cache).
    Kinds: "tables" (the lookup tables every call uses), "dec" (the
    useful-tile tables), "exact" (the exact shanten's tables)."""
    return _table_sources.get(kind)


def _table_sections(kind="tables"):
    """One kind of published tables, section by section, as bytes copies
    (tests: a cache-loaded set equals a built one byte for byte)."""
    cdef _TableSet t
    if kind == "tables":
        _need_tables()
        _published_sections(&t)
    elif kind == "dec":
        _need_dec()
        _dec_sections(&t)
        t.p[0] = _dec
        t.p[1] = _hdec
    elif kind == "exact":
        _need_exact()
        _exact_sections(&t)
        t.p[0] = _xdist
        t.p[1] = _xhdist
        t.p[2] = _xsrec
        t.p[3] = _xhrec
    else:
        raise ValueError(f"unknown table kind {kind!r}")
    return [(str(i), (<char*>t.p[i])[:t.n[i]]) for i in range(t.count)]
