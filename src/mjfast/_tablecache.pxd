# The interface of mjfast._tablecache (src/_tablecache.pyx) for the modules
# that own tables (mjfast._tables, mjfast._decide): one kind of tables as
# sections, read from and written to the disk cache.

cdef enum:
    NSECT = 16          # room for the most sections of one kind

# one kind of tables as the cache sees it: the sections in file order, their
# sizes, and whether each is allocated with the huge-page hint (as its build
# allocates it, so a loaded set is freed and used the same way)
ctypedef struct TableSet:
    int count
    void* p[NSECT]
    size_t n[NSECT]
    bint big[NSECT]

# Read one kind (t's count, sizes and allocators set by the caller, its
# pointers NULL) from this build of `owner` (the file of the compiled module
# that builds that kind: its identity keys the file).  True when every check
# passed (the caller publishes t.p); False, nothing allocated, otherwise.
cdef bint cache_read(str kind, TableSet* t, str owner) except -1
# After a build: write one kind, or do nothing if that fails in any way.
cdef cache_store(str kind, const TableSet* t, str owner)
# Record where a kind came from ("built" or "cache": table_source()).
cdef set_source(str kind, str how)
