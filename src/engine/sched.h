/* sched.h — broadcast schedules: synchronous steps of transfers and local operations.
 *
 * The message of `bytes` bytes is cut into `nchunks` chunks with ids 0..nchunks-1.  Chunk i
 * has floor((i+1)*bytes/nchunks) - floor(i*bytes/nchunks) bytes, so a range [lo,hi) has
 * floor(hi*bytes/nchunks) - floor(lo*bytes/nchunks) bytes (sched_range_bytes, O(1)).
 *
 * Initial holdings are given with sched_give (for a broadcast: the source holds every chunk).
 * Steps are synchronous: a transfer may only send chunks its source held when the step began
 * (the simulator checks this; the builder does not).
 *
 * Building: sched_step() opens a new step; sched_send*() and sched_local() add to the current
 * step: the one opened last, or the one chosen with sched_at().  A builder call that is wrong in itself (node out of range, src == dst, a chunk
 * id >= nchunks, an explicit route that does not end at dst, no step opened) returns false and
 * records the first such error, readable with sched_error(); the schedule is then unusable.
 *
 * Transfers are stored compactly (8 bytes each while every transfer of a step carries the
 * same chunk ranges, as a broadcast's steps do; 16 once they differ, 24 with more ranges or an
 * explicit route, plus their ranges), or not at all when given by a rule (sched_send_rule);
 * routes are the default dimension-ordered route unless given explicitly.
 *
 * Ownership: sched_new borrows the Net, which must outlive the Sched.  The caller frees the
 * Sched with sched_free.  Pointers returned by readers stay valid until the next builder call;
 * a SchedTransfer's `ranges` may point into the SchedTransfer itself (rbuf), so it is valid
 * as long as both.
 */
#ifndef MESHCAST_SCHED_H
#define MESHCAST_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chunkset.h"
#include "net.h"

typedef struct Sched Sched;

/* One transfer, as read back. */
typedef struct {
    int32_t src, dst;
    const ChunkRange *ranges; /* normalised: sorted, disjoint */
    uint32_t nranges;
    bool explicit_route;      /* false: the default route net_route(src, dst) */
    int nseg;                 /* segments of the route (filled in either case) */
    NetSeg seg[NET_MAXSEG];
    int64_t len;              /* route length in hops */
    uint64_t bytes;           /* bytes carried */
    ChunkRange rbuf[2];       /* where `ranges` points for a transfer made by a rule */
} SchedTransfer;

/* One local operation (an in-node permutation of `bytes` bytes). node == -1: every node. */
typedef struct {
    int32_t node;
    uint64_t bytes;
} SchedLocal;

Sched *sched_new(const Net *net, uint32_t nchunks, uint64_t bytes);
void sched_free(Sched *s);

const Net *sched_net(const Sched *s);
uint32_t sched_nchunks(const Sched *s);
uint64_t sched_bytes(const Sched *s);
uint64_t sched_range_bytes(const Sched *s, uint32_t lo, uint32_t hi);
/* The sum of sched_range_bytes over the n ranges at r (a transfer's: a strided set may have
 * hundreds of thousands), in about the time of as many additions when they are sorted. */
uint64_t sched_ranges_bytes(const Sched *s, const ChunkRange *r, size_t n);

/* Initial holdings: node holds chunks [lo,hi). */
bool sched_give(Sched *s, int32_t node, uint32_t lo, uint32_t hi);
/* The initial holdings, as (node, range) pairs. */
size_t sched_ngiven(const Sched *s);
void sched_given(const Sched *s, size_t i, int32_t *node, ChunkRange *r);
/* The node that initially holds chunk 0, or -1 (the broadcast's source). */
int32_t sched_source(const Sched *s);

/* Open a new step; returns its index (0-based). */
int32_t sched_step(Sched *s);
/* Make `step` the current step (the one sends and locals go to), first opening empty steps up
 * to it if the schedule has fewer.  Lets an algorithm compose concurrent sub-operations, each
 * adding to steps first..first+k-1.  Returns false for step < 0. */
bool sched_at(Sched *s, int32_t step);
/* Label the step opened last ("phase 2: ST broadcast in the columns"); copied. */
bool sched_label(Sched *s, const char *label);

bool sched_send(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr);
bool sched_send_range(Sched *s, int32_t src, int32_t dst, uint32_t lo, uint32_t hi);
bool sched_send_route(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr,
                      const NetSeg *seg, int nseg);
/* One send of the strided chunk set { fixed | m : m a submask of free } (fixed & free == 0,
 * fixed | free < nchunks): as sched_send of its ranges in increasing order would store it
 * (the same transfer, the same ranges in the pool: readers see no difference), but kept as its
 * two words, its ranges' place in the pool reserved and written only when a reader first asks
 * for ranges (rh's distribution: 7.3M ranges on mesh:1024x1024, which a simulation reads as
 * bits).  False (recording the error) when the set or the nodes are wrong, no step is open or
 * memory runs out. */
bool sched_send_submasks(Sched *s, int32_t src, int32_t dst, uint32_t fixed, uint32_t free_);
bool sched_local(Sched *s, int32_t node, uint64_t bytes);

/* Transfers given by a rule instead of one by one: a block of `count` transfers on default
 * routes whose j-th (0 <= j < count) is what fn(ctx, j, out) writes: src, dst, and nr <=
 * SCHED_RULE_MAXR ranges, sorted, non-empty and not touching (r[k].hi < r[k+1].lo).  The
 * schedule copies the ctxsize bytes at ctx (suitably aligned for any type) and keeps only the
 * rule, so a step of a million transfers of a regular pattern (an exchange) costs a few bytes
 * instead of 16 MB; readers (sched_transfer, the simulator, export) see the block's transfers
 * as if each had been sent with sched_send, after the step's stored transfers, blocks in the
 * order they were added.  fn must be pure: its result may depend only on the copied ctx and
 * j (pointers inside ctx must outlive the schedule).  Every transfer is generated and checked
 * here, as sched_send checks (a bad one fails the schedule now, naming it).  Returns false
 * (recording the error) when a transfer is wrong, no step is open or memory runs out. */
#define SCHED_RULE_MAXR 2
typedef struct {
    int32_t src, dst;
    uint32_t nr;
    ChunkRange r[SCHED_RULE_MAXR];
} SchedRuleXfer;
typedef void (*SchedRuleFn)(const void *ctx, int64_t j, SchedRuleXfer *out);
bool sched_send_rule(Sched *s, int64_t count, SchedRuleFn fn, const void *ctx, size_t ctxsize);
/* The same, with a rule that writes transfers j0..j0+n-1 into out[0..n) in one call (n >= 1):
 * a rule made of blocks walks them in order instead of searching for every transfer, which
 * matters for steps of millions.  Same contract as above: pure, ranges as above. */
typedef void (*SchedRuleBatchFn)(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out);
bool sched_send_rule_batch(Sched *s, int64_t count, SchedRuleBatchFn fn, const void *ctx,
                           size_t ctxsize);
/* Step i (0 <= i < k) of a binomial spanning tree over the 2^k members base + m * stride
 * (0 <= m < 2^k), rooted at member `root` (Seidel 3.1.1, any root by XOR, 4.1): for r = 0,
 * span, 2 span, ... below 2^k (span = 2^(k-i)), member r ^ root sends [lo,hi) to member
 * (r + span/2) ^ root, in that order, as as many sched_send_range calls would (nothing when
 * lo == hi); kept as a rule (a few bytes, however many transfers).  The block is checked
 * whole (first and last member in the net, stride != 0, 1 <= k <= 30, root < 2^k, lo <= hi <=
 * nchunks), not transfer by transfer (a proved rule, as below).  False (recording the error) when it is wrong, no step
 * is open or memory runs out. */
bool sched_send_tree(Sched *s, int32_t base, int32_t stride, int k, int i, int32_t root,
                     uint32_t lo, uint32_t hi);
/* The same, with a proof: prove(ctx, net, nchunks, count) returns true when the rule's
 * parameters (the copied ctx) show every transfer j < count valid as the checks above would
 * find it (nodes in the net and apart, ranges as above); then the block is not generated
 * here, only when read.  When it returns false the block is checked transfer by transfer.
 * With sched_check_proofs (sched-internal.h; on in the sanitized builds) a proved block is
 * checked as well, so that the test suites catch a wrong proof. */
typedef bool (*SchedRuleProveFn)(const void *ctx, const Net *net, uint32_t nchunks,
                                 int64_t count);
bool sched_send_rule_proved(Sched *s, int64_t count, SchedRuleBatchFn fn, const void *ctx,
                            size_t ctxsize, SchedRuleProveFn prove);
/* The same for an exchange, which prove also shows from the parameters: count is the net's
 * size and transfer j is node j's send (src == j) to a partner p(j) != j whose own transfer
 * comes back (p(p(j)) = j): every node sends once and receives once, from the node it sends
 * to.  The simulator replays such a step pair by pair without expanding it.  When prove
 * returns false (or with sched_check_proofs) the block is generated and both the transfers
 * and the exchange are checked: a block that is not an exchange fails the schedule. */
bool sched_send_rule_exchange(Sched *s, int64_t count, SchedRuleBatchFn fn, const void *ctx,
                              size_t ctxsize, SchedRuleProveFn prove);
/* The same, with the exchange's pairs written directly as well: pairs(ctx, j0, n, out) writes,
 * for every node j in [j0, j0+n) whose partner p(j) is above it, in increasing j, transfer j
 * then transfer p(j) (out[2k] and out[2k+1], every field and the first nr ranges, exactly as
 * fn writes them; out has room for 2n) and returns how many pairs it wrote.  The simulator
 * then replays the step pair by pair in node order (the lower ends and the upper ends each a
 * stream), without looking for a partner's transfer.  Pure like fn; whenever the block is
 * checked (prove false, or sched_check_proofs) the pairs are checked against fn too. */
typedef int64_t (*SchedRulePairFn)(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out);
bool sched_send_rule_exchange_pairs(Sched *s, int64_t count, SchedRuleBatchFn fn,
                                    SchedRulePairFn pairs, const void *ctx, size_t ctxsize,
                                    SchedRuleProveFn prove);
/* Pipelined trees: transfers along a schedule-wide table of edges, each an explicit route
 * with a tag (the sub-message it carries, say), sent again and again with another chunk.
 * sched_edge adds an edge (checked here, once, as sched_send_route checks a route: nodes in
 * the net, src != dst, the route a path that ends at dst) and returns its index, or -1
 * (recording the error).  sched_send_edges adds to the current step one transfer per edge
 * first..first+count-1, in that order: edge e sends the one chunk tag(e) * mul + add, along
 * its route.  Readers see them as if each had been sent with sched_send_route (after the
 * step's stored transfers, with the rule blocks in the order added); the schedule keeps
 * 16 bytes per edge and a few per block instead of 24 per transfer plus its route.  False
 * (recording the error) when no step is open, an edge index is out of range or a chunk is not
 * below nchunks.  Edges need no step; sched_truncate to 0 steps drops them. */
int64_t sched_edge(Sched *s, int32_t src, int32_t dst, const NetSeg *seg, int nseg,
                   uint32_t tag);
bool sched_send_edges(Sched *s, int64_t first, int64_t count, uint32_t mul, uint32_t add);
/* Optional: make room in the current step for `ntransfers` more transfers and in the schedule
 * for `nranges` more chunk ranges of multi-range sends, so that the sends that follow do not
 * reallocate (a builder that knows its counts saves the growth copies and slack).  A hint:
 * never required, changes nothing observable.  Returns false (recording the error) when no
 * step is open or memory runs out.  (Sends of one range never use the range pool.) */
bool sched_reserve(Sched *s, int64_t ntransfers, uint64_t nranges);

/* Remove every step at index >= nsteps (used by script reloads and by builders that retry). */
void sched_truncate(Sched *s, int32_t nsteps);

const char *sched_error(const Sched *s);  /* NULL if none */
/* Record an error from outside the builder (e.g. an algorithm's own check); first one sticks. */
void sched_fail(Sched *s, const char *fmt, ...);

int32_t sched_nsteps(const Sched *s);
const char *sched_step_label(const Sched *s, int32_t step);  /* "" if none */
int64_t sched_ntransfers(const Sched *s, int32_t step);
int64_t sched_total_transfers(const Sched *s);
void sched_transfer(const Sched *s, int32_t step, int64_t i, SchedTransfer *out);
int64_t sched_nlocals(const Sched *s, int32_t step);
void sched_local_get(const Sched *s, int32_t step, int64_t i, SchedLocal *out);

/* True if two schedules have the same chunks, bytes, givens and, step by step, the same
 * transfers (as multisets: order within a step does not matter) and local operations. */
bool sched_equal(const Sched *a, const Sched *b);
/* Where two schedules first differ, in sched_equal's sense: -1 nowhere (sched_equal), -2
 * before any step (chunks, bytes, givens or net), else the first step (0-based) whose
 * transfers or local operations differ, or the shorter one's step count when one schedule
 * is a prefix of the other. */
int32_t sched_first_difference(const Sched *a, const Sched *b);

#endif
