/* chunkset.h — sets of chunk ids kept as sorted, disjoint, non-adjacent half-open intervals,
 * so that a node holding a million consecutive chunks costs one interval.
 *
 * Ownership: chunkset_new returns a set the caller frees with chunkset_free.  The pointer
 * returned by chunkset_ranges stays valid until the next call that modifies the set.
 * Functions returning bool return false only when memory runs out (the set is unchanged).
 */
#ifndef MESHCAST_CHUNKSET_H
#define MESHCAST_CHUNKSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Chunks lo .. hi-1. */
typedef struct {
    uint32_t lo, hi;
} ChunkRange;

typedef struct ChunkSet ChunkSet;

ChunkSet *chunkset_new(void);
void chunkset_free(ChunkSet *cs);
void chunkset_clear(ChunkSet *cs);
ChunkSet *chunkset_copy(const ChunkSet *cs);

bool chunkset_add(ChunkSet *cs, uint32_t id);
bool chunkset_add_range(ChunkSet *cs, uint32_t lo, uint32_t hi);   /* no-op if lo >= hi */
bool chunkset_add_set(ChunkSet *cs, const ChunkSet *other);
bool chunkset_remove_range(ChunkSet *cs, uint32_t lo, uint32_t hi);

bool chunkset_contains(const ChunkSet *cs, uint32_t id);
/* True if every chunk of [lo,hi) is in cs.  If not and first_missing != NULL, stores the
 * smallest missing chunk id. */
bool chunkset_contains_range(const ChunkSet *cs, uint32_t lo, uint32_t hi,
                             uint32_t *first_missing);

uint64_t chunkset_count(const ChunkSet *cs);          /* number of chunks */
size_t chunkset_nranges(const ChunkSet *cs);
const ChunkRange *chunkset_ranges(const ChunkSet *cs); /* chunkset_nranges() entries */
bool chunkset_equal(const ChunkSet *a, const ChunkSet *b);

/* Write "0-3,7,9-12" (ids, inclusive ranges) into buf; truncated with "..." if too long.
 * Returns buf. */
char *chunkset_format(const ChunkRange *r, size_t nr, char *buf, size_t len);

/* Normalise an arbitrary list of ranges in place (sort, merge, drop empty); returns the new
 * count. */
size_t chunkset_normalize(ChunkRange *r, size_t nr);

#endif
