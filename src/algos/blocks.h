/* blocks.h — the building blocks of Seidel's report, on groups of 2^k nodes that form an
 * arithmetic progression: member j (0 <= j < 2^k) is node base + j*stride (a contiguous
 * subarray, an interleaved subarray, a row, a column, a row of a 2^nu x 2^nu block).
 *
 * Each block adds its transfers to steps first .. first+k-1 of s (opening them as needed with
 * sched_at), so that concurrent blocks on disjoint groups share steps.  Chunk ranges are split
 * evenly: part j of [lo,hi) with 2^k parts is [lo + j*(hi-lo)/2^k, lo + (j+1)*(hi-lo)/2^k);
 * callers choose chunk counts divisible by 2^k.
 *
 * All return false (after sched_fail) on a bad argument.
 */
#ifndef MESHCAST_BLOCKS_H
#define MESHCAST_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sched.h"

/* Spanning binomial tree broadcast of [lo,hi) from member `root`: at step i (0-based) every
 * member that holds the range sends it to member ^ 2^(k-1-i) (the farthest first). */
bool blocks_st(Sched *s, int32_t first, int32_t base, int32_t stride, int k, int root,
               uint32_t lo, uint32_t hi);

/* Distribute (scatter) of [lo,hi) from member `root` by halving along the same tree (the
 * farthest first, as blocks_st): member j ends holding part j, so the packet order is kept and
 * no permutation is needed later. */
bool blocks_distribute(Sched *s, int32_t first, int32_t base, int32_t stride, int k, int root,
                       uint32_t lo, uint32_t hi);

/* Dimensional exchange (all-gather): member j holds part j of [lo,hi); exchanging with the
 * nearest partner first (member ^ 1, then ^ 2, ...) every member ends with all of [lo,hi) in
 * order, with no permutation. */
bool blocks_exchange(Sched *s, int32_t first, int32_t base, int32_t stride, int k,
                     uint32_t lo, uint32_t hi);

#endif
