/* bigmem.h — the simulators' big arrays (engine-internal): one place that says how they are
 * allocated.
 *
 * A big array comes from malloc/calloc on 4 KiB pages, without MADV_HUGEPAGE.  Measured on the
 * machine the targets are measured on (a virtual machine whose balloon takes back free 2 MiB
 * blocks: free page reporting at order 9), a transparent huge page is such a block, so its first
 * touch makes the host back 2 MiB again: `st` on array:16777216 spent 0.05-0.9 s of system
 * time on it from run to run, against 0.1-0.2 s every time on small pages, with no user time
 * gained (docs/engine.md, "Memory touched once").  The exception: arrays read at random for
 * long (the TUI's, bigmem_alloc_huge), where the fewer TLB misses pay.  A zeroed array is not
 * memset: calloc maps fresh pages that the kernel zeroes on first touch, and a page never
 * touched costs nothing.  Growing big arrays use realloc, which moves an mmapped block's pages
 * (mremap) instead of copying them.
 *
 * Ownership: the caller frees the result with free(). */
#ifndef MESHCAST_BIGMEM_H
#define MESHCAST_BIGMEM_H

#include <stdbool.h>
#include <stddef.h>

/* An array of `bytes` (zeroed when zero is true), NULL when memory runs out. */
void *bigmem_alloc(size_t bytes, bool zero);

/* A zeroed array of `bytes` that the caller will write all over (every node's record in a
 * broadcast): its pages are made at once (MADV_POPULATE_WRITE, where the system has it), one
 * call instead of two faults per page (a read that maps the shared zero page, then the write
 * that replaces it).  NULL when memory runs out. */
void *bigmem_alloc_whole(size_t bytes);

/* The pages of p[0..bytes) made now (MADV_POPULATE_WRITE, where the system has it; a block
 * under 1 MiB is left to its faults), for memory the caller is about to write all over (the
 * part realloc added to a block, say): the contents are unchanged. */
void bigmem_populate(void *p, size_t bytes);

/* A zeroed array of `bytes` read and written at random over a long life (the Sim's arrays
 * under SIM_HISTORY, which the TUI's seek and frame walk node by node and link by link): on
 * transparent huge pages (MADV_HUGEPAGE on its 2 MiB-aligned inside, where the system has
 * it), which cut the TLB misses of those walks for the first-touch price above.  NULL when
 * memory runs out. */
void *bigmem_alloc_huge(size_t bytes);

#endif
