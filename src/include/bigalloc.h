/* bigalloc.h: the allocator of the big lookup tables (the shanten and
   decision tables, tens of megabytes).  C because it asks the operating
   system for huge pages (madvise on Linux), a platform call behind
   preprocessor tests; elsewhere it is plain malloc. */
#ifndef MJFAST_BIGALLOC_H
#define MJFAST_BIGALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
/* malloc for the big lookup tables, asking Linux for 2 MB pages: a
   per-call query touches a few dozen scattered entries of a 20 MB
   table, and with 4 KB pages nearly every one is also a TLB miss. */
static void* mjfast_big_alloc(size_t n) {
    void* p = malloc(n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p != NULL && n >= (4u << 20)) {
        uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)4095;
        if (e > a) madvise((void*)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}
#endif /* MJFAST_BIGALLOC_H */
