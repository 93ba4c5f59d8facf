/* sched-strided.h — a strided block of transfers kept as a rule: how a Lua script's
 * st:send_strided (src/script/lua-mc.c) is stored, and how it crosses from the script's child
 * process (sched-pack.h) in a few bytes instead of 16 per transfer.
 *
 * A block is count transfers j = 0 .. count-1 on default routes: node first + j * stride
 * sends the chunks r[0..nr) (nr 1 or 2: sorted, non-empty, apart) to node first + j * stride +
 * offset.  Readers (sched_transfer, the simulator, export, sched_equal) see exactly what as
 * many sched_send calls, in that order, would have stored.
 *
 * Ownership and contract: as sched.h (the schedule owns the rule's copy of the parameters).
 */
#ifndef MESHCAST_SCHED_STRIDED_H
#define MESHCAST_SCHED_STRIDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched.h"

/* A strided block's parameters. */
typedef struct {
    int32_t first, stride, offset;
    uint32_t nr;              /* 1 or 2 */
    int64_t count;
    ChunkRange r[SCHED_RULE_MAXR];
} SchedStrided;

/* Add the block b to the current step, checked whole (every sender and receiver in the net,
 * offset != 0, 1 <= count <= INT32_MAX, nr 1..SCHED_RULE_MAXR ranges sorted, non-empty, apart
 * and below nchunks): false, recording "step N: strided send: ..." when it is wrong, no step is
 * open or memory runs out.
 *   tree false: the block is kept as a strided rule; when the step's last rule block is a
 *     strided one that this block continues (same stride, offset and chunks, its first sender
 *     the one after the last), that block grows instead (a script's row after row of one
 *     step, a progression, becomes one block).
 *   tree true: kept as a tree step (sched_send_tree) when it is one (one range, count a power
 *     of two, stride == +-2 offset: the step i of a 2^(i+1)-member binomial tree rooted at
 *     member 0 or 1, in the same order), else as above.  (The simulator has fast paths for
 *     tree steps; sched_unpack asks for them.) */
bool sched_send_strided(Sched *s, const SchedStrided *b, bool tree);

/* One send on the default route of 1..SCHED_RULE_MAXR ranges (sorted, non-empty, apart),
 * stored as sched_send stores it, but compactly where it can be: a send that continues the
 * step's last strided block (no stored transfer after it) joins it; one that makes a
 * progression with the step's last 7 stored transfers (the same offset and chunks, evenly
 * spaced senders) turns them and itself into a strided block; one that does neither, in a
 * step that has blocks, is stored after them (sched_step_unrule first).  The same transfers
 * in the same order as sched_send, whose checks and messages it keeps (a script's st:send
 * making a binomial tree's step one send at a time, a progression, builds a block). */
bool sched_send_compact(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr);

/* Step st's rule blocks turned into stored transfers, in the same order (they already come
 * after the stored ones): so that a send stored after them keeps its place.  False
 * (recording the error) when memory runs out. */
bool sched_step_unrule(Sched *s, int32_t st);
/* How many rule blocks step st has (read after its stored transfers). */
int32_t sched_step_nrules(const Sched *s, int32_t st);
/* Rule block q of step st as a strided block, when it is one: a strided rule, or a tree step
 * (sched_send_tree) whose transfers form a progression (its root below its span); false for
 * any other rule (and for q out of range). */
bool sched_rule_as_strided(const Sched *s, int32_t st, int32_t q, SchedStrided *out);

#endif
