/* chunkset-internal.h — the interval-array primitives under ChunkSet, shared with the simulator
 * (which keeps per-node holdings with the single-interval case inline).  Not for callers outside
 * src/engine.
 *
 * An interval array is r[0..n) of sorted, disjoint, non-adjacent, non-empty half-open ranges,
 * with room for cap entries; the functions below grow it with realloc when needed and return
 * false only when memory runs out (the array is then unchanged).
 */
#ifndef MESHCAST_CHUNKSET_INTERNAL_H
#define MESHCAST_CHUNKSET_INTERNAL_H

#include "chunkset.h"

/* Index of the first range with hi >= x (n if none). */
size_t cr_first_hi_ge(const ChunkRange *r, size_t n, uint32_t x);
/* Index of the first range with hi > x (n if none). */
size_t cr_first_hi_gt(const ChunkRange *r, size_t n, uint32_t x);

bool cr_add(ChunkRange **r, size_t *n, size_t *cap, uint32_t lo, uint32_t hi);
bool cr_remove(ChunkRange **r, size_t *n, size_t *cap, uint32_t lo, uint32_t hi);
bool cr_contains(const ChunkRange *r, size_t n, uint32_t lo, uint32_t hi, uint32_t *first_missing);
uint64_t cr_count(const ChunkRange *r, size_t n);

#endif
