/* bigmem.c — big arrays on transparent huge pages: bigmem.h. */
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *bigmem_alloc(size_t bytes, bool zero)
{
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        if (zero) {
            /* calloc of a big block maps fresh pages, zero already: no memset pass over it
             * (the kernel zeroes each page once, on its first touch).  The advice covers the
             * huge-page-aligned inside of the block, given before anything touches it. */
            unsigned char *p = calloc(1, bytes);
            if (!p)
                return NULL;
            uintptr_t a = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
            uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(huge - 1);
            if (e > a)
                (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
            return p;
        }
        size_t sz = (bytes + huge - 1) / huge * huge;
        void *p = aligned_alloc(huge, sz);
        if (p) {
            (void)madvise(p, sz, MADV_HUGEPAGE);
            return p;
        }
    }
#endif
    return zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
}
