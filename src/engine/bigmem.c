/* bigmem.c — the simulators' big arrays: bigmem.h. */
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void *bigmem_alloc(size_t bytes, bool zero)
{
    if (bytes == 0)
        bytes = 1;
    return zero ? calloc(1, bytes) : malloc(bytes);
}

void bigmem_populate(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    long pg = sysconf(_SC_PAGESIZE);
    if (p && pg > 0 && bytes >= ((size_t)1 << 20)) {
        uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
        uintptr_t e = ((uintptr_t)p + bytes) & ~((uintptr_t)pg - 1);
        if (e > a)   /* advice only: an older kernel refuses it, and the faults come as before */
            (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
    }
#else
    (void)p;
    (void)bytes;
#endif
}

void *bigmem_alloc_whole(size_t bytes)
{
    void *p = bigmem_alloc(bytes, true);
    bigmem_populate(p, bytes);
    return p;
}

void *bigmem_alloc_huge(size_t bytes)
{
    unsigned char *p = bigmem_alloc(bytes, true);
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (p && bytes >= 2 * huge) {
        /* calloc's fresh pages are untouched yet: the advice comes before the first fault */
        uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        uintptr_t e = ((uintptr_t)p + bytes) & ~(huge - 1);
        if (e > a)
            (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}
