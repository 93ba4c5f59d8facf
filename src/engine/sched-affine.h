/* sched-affine.h — a step's transfers as affine blocks: block q sends its one chunk range
 * from node src + k to node dst + k for k = 0..len-1 (a pipelined tree laid out in node
 * order: Sanders & Sibeyn's fractional and binary trees on full:P, arrays and rings, whose
 * every step is a few hundred such blocks of up to a million transfers).
 *
 * sched_send_affine adds the blocks to the current step as one proved rule
 * (sched_send_rule_proved): readers see their transfers, blocks in order and k rising, as if
 * each had been sent with sched_send_range; the block list is checked whole (each block's
 * first and last node in the net, src != dst, lo < hi <= nchunks), not transfer by transfer.
 * The simulator asks sched_step_affine whether a step is made of one such rule and nothing
 * else, and may then replay it block by block (sim-affine.c) instead of transfer by transfer.
 *
 * Ownership: the schedule copies the blocks. */
#ifndef MESHCAST_SCHED_AFFINE_H
#define MESHCAST_SCHED_AFFINE_H

#include <stdbool.h>
#include <stdint.h>

#include "sched.h"

typedef struct {
    int32_t src, dst;   /* the block's first transfer: src -> dst */
    int32_t len;        /* its transfers: src + k -> dst + k, 0 <= k < len (len 0: none) */
    ChunkRange r;       /* what each carries: lo < hi <= nchunks */
} SchedAffine;

/* Add the nb blocks at b to the current step (in order).  False (recording the error, as
 * sched_send_range would name the first bad transfer) when a block is wrong, no step is open
 * or memory runs out. */
bool sched_send_affine(Sched *s, const SchedAffine *b, int64_t nb);

/* Is step st made of one sched_send_affine rule and nothing else (no stored transfers, no
 * other rule)?  Then *b and *nb get its blocks (owned by the schedule; the blocks of length 0
 * are left out) and *count its transfers. */
bool sched_step_affine(const Sched *s, int32_t st, const SchedAffine **b, int64_t *nb,
                       int64_t *count);

#endif
