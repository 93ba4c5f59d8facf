/* bigmem.c — big arrays on transparent huge pages: bigmem.h. */
#include "bigmem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *bigmem_alloc(size_t bytes, bool zero)
{
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        size_t sz = (bytes + huge - 1) / huge * huge;
        void *p = aligned_alloc(huge, sz);
        if (p) {
            (void)madvise(p, sz, MADV_HUGEPAGE);
            if (zero)
                memset(p, 0, bytes);
            return p;
        }
    }
#endif
    return zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
}
