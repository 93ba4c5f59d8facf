/* sched-internal.h — the compact schedule layout, for the simulator inside src/engine.
 * Callers outside the engine use sched.h. */
#ifndef MESHCAST_SCHED_INTERNAL_H
#define MESHCAST_SCHED_INTERNAL_H

#include "sched.h"

#include <stdatomic.h>
#include <threads.h>

#define SCHED_DEFAULT_ROUTE UINT32_MAX
#define SCHED_SEG_BITS 5            /* explicit routes: route = first segment << 5 | nseg */
#define SCHED_MAX_SEGS (UINT32_C(1) << (32 - SCHED_SEG_BITS))

/* One stored transfer: its ends (8 bytes), and its range slot (8 bytes, SchedXferR): the one
 * range of a transfer with at most one (most sends are single ranges: no range pool, no
 * normalisation), or, with two or more, pool.roff, the first of its nr ranges in
 * Sched.ranges.  A step keeps the slots in an array of their own only once two of its
 * transfers differ in them: until then every slot is the step's r1 (a broadcast's step sends
 * the whole message, or one chunk, everywhere: 8 bytes a transfer).  The number of ranges and
 * the route live in SchedStep.ext, which a step has only once it holds a transfer that is not
 * "simple" (one range, default route). */
typedef struct {
    int32_t src, dst;
} SchedXfer;

typedef union {
    ChunkRange one;                    /* nr <= 1 */
    struct {
        uint32_t roff, unused;
    } pool;                            /* nr >= 2 */
} SchedXferR;

static inline bool sched_slot_eq(SchedXferR a, SchedXferR b)
{
    return a.one.lo == b.one.lo && a.one.hi == b.one.hi;
}

typedef struct {
    uint32_t nr;     /* number of ranges */
    uint32_t route;  /* SCHED_DEFAULT_ROUTE, or first segment in Sched.segs << 5 | nseg */
} SchedXferExt;

/* Check proved rule blocks (sched_send_rule_proved, sched_send_tree) transfer by transfer
 * too: a wrong proof then fails the schedule.  On in the sanitized builds, off otherwise. */
extern bool sched_check_proofs;

/* An edge of the schedule's edge table (sched_edge): an explicit route and a tag. */
typedef struct {
    int32_t src, dst;
    uint32_t route;         /* first segment in Sched.segs << 5 | nseg */
    uint32_t tag;
} SchedEdge;

/* A block of transfers given by a rule (sched_send_rule), or by edges of the edge table
 * (sched_send_edges: fn NULL, edge e0 + j sends chunk tag * mul + add): transfers
 * first..first+count-1 of the step's rule part, which follows its n stored transfers. */
typedef struct {
    SchedRuleFn fn;         /* one transfer at a time, or NULL and ... */
    SchedRuleBatchFn batch; /* ... many */
    void *ctx;              /* owned copy */
    int64_t first, count;
    int64_t e0;             /* edge blocks */
    uint32_t mul, add;
    bool exch;              /* an exchange (sched_send_rule_exchange): transfer j is node j's
                             * send to p(j), p(p(j)) = j, count = the net's size */
    SchedRulePairFn pairs;  /* an exchange's pairs (sched_send_rule_exchange_pairs), or NULL */
} SchedRule;

static inline bool sched_rule_is_edges(const SchedRule *r) { return !r->fn && !r->batch; }
/* A schedule made of edge blocks only (some edges, no stored transfers, no other rules): a
 * pipeline's trees, which the simulators can handle edge by edge. */
bool sched_edges_only(const Sched *s);
/* Is step st one block of sched_send_tree and nothing else?  Then no node sends twice or
 * receives twice, and none does both (a binomial tree's step: the members r ^ root send, the
 * members (r + span/2) ^ root receive, r a multiple of span; base + m stride with stride != 0
 * is one node per member): the simulator counts no ports for it. */
bool sched_step_is_tree(const Sched *s, int32_t st);
/* Step st's one exchange block (sched_send_rule_exchange) when the step is that block and
 * nothing else (no stored transfer, no other block), else NULL: every node sends once, to its
 * partner, and receives once, from it (the simulator replays it pair by pair, sim-exch.c). */
const SchedRule *sched_step_exchange(const Sched *s, int32_t st);
/* Transfers j0..j0+n-1 (n >= 1) of the rule block r (not an edge block) into out[0..n), as
 * the rule writes them (it was checked or proved when added: the ranges past nr unset). */
void sched_rule_gen(const SchedRule *r, int64_t j0, int64_t n, SchedRuleXfer *out);
/* The pairs of the exchange block r (its pairs function, not NULL) whose lower node lies in
 * [j0, j0+n) (n >= 1), as sched_send_rule_exchange_pairs says: transfer j then transfer p(j)
 * into out[2k], out[2k+1] (room for 2n), in increasing j; returns how many. */
int64_t sched_rule_pairs(const SchedRule *r, int64_t j0, int64_t n, SchedRuleXfer *out);
/* A tree block's shape (sched_send_tree): its members are base + stride * m (0 <= m < members)
 * and each of its count transfers joins two members half apart (one range each, default
 * routes), the pairs in distinct aligned runs of 2 half members.  False when r is no tree
 * block (for the simulator's proof that its routes share no arc, arcmap_trees). */
bool sched_rule_tree(const SchedRule *r, int32_t *base, int32_t *stride, int64_t *members,
                     int64_t *half);
/* Transfer j of rule block r: what its rule writes, or its edge; *route gets the edge's
 * explicit route, else SCHED_DEFAULT_ROUTE. */
void sched_rule_get(const Sched *s, const SchedRule *r, int64_t j, SchedRuleXfer *out,
                    uint32_t *route);

/* A stored transfer's chunk set as sched_send_submasks was given it, when that set has two
 * ranges or more: { fixed | m : m a submask of free_ } (SchedMore.sub[i] for the step's stored
 * transfer i; free_ SCHED_SUB_NONE for a transfer sent otherwise, or of one range).  The
 * simulator reads the set from these two words (bytes, the send test) instead of its ranges. */
typedef struct {
    uint32_t fixed, free_;
} SchedSub;

/* The ones in x, without a call (the release build has no popcnt instruction: gcc calls
 * libgcc's __popcountdi2 for __builtin_popcount). */
static inline int sched_pop32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}
#define SCHED_SUB_NONE UINT32_MAX   /* (never a free_: fixed | free_ < nchunks <= 2^32 - 1) */

/* What few steps have: rule blocks and local operations (SchedStep.more, made for the first);
 * the sets of submask sends. */
typedef struct {
    SchedRule *rule;        /* rule blocks, in the order added (SchedStep.nrule of them) */
    int32_t caprule;
    SchedLocal *loc;        /* local operations (SchedStep.nloc of them) */
    int64_t caploc;
    SchedSub *sub;          /* NULL, or one per stored transfer (made by the step's first
                             * submask send of two ranges or more) */
    int64_t capsub;
} SchedMore;

/* One step: 80 bytes, its transfers apart (a pipeline has a million steps of a few transfers,
 * so what only some steps have is in `more`). */
typedef struct {
    SchedXfer *x;           /* cap transfers; then, once two differ in their range slots, cap
                             * slots in the same block (sched_step_slots) */
    SchedXferR r1;          /* every stored transfer's range slot until then; after, both
                             * halves SCHED_SLOTS_APART */
    SchedXferExt *ext;      /* NULL: every transfer has nr 1 and the default route */
    int64_t n, cap;         /* stored transfers */
    int64_t capext;
    int64_t nruled;         /* transfers made by the rules */
    SchedMore *more;        /* the rule blocks' and local operations' arrays, or NULL (none) */
    const char *label;      /* in Sched.labels (shared by the steps of one label), or NULL */
    int32_t nrule;          /* rule blocks: more->rule[0..nrule) */
    int32_t nloc;           /* local operations: more->loc[0..nloc) */
} SchedStep;

struct Sched {
    const Net *net;
    uint32_t nchunks;
    uint64_t bytes;
    SchedStep *steps;
    int32_t nsteps, capsteps;
    int32_t cur;            /* current step, -1 if none opened */
    ChunkRange *ranges;     /* shared range pool; the ranges of submask sets at offsets from
                             * pend_roff on are not written until a reader asks for them
                             * (sched_pool_ready) */
    uint64_t nranges, capranges;
    uint64_t last_roff, last_nr;   /* the ranges appended last (reused by identical sends) */
    SchedSub last_sub;      /* ... and their set, when a submask send appended them
                             * (free_ SCHED_SUB_NONE: another send did) */
    uint64_t pend_roff;     /* the first pool offset not written yet, UINT64_MAX: none */
    atomic_bool lazy;       /* some pool ranges are not written yet (pend_roff) */
    mtx_t lock;             /* taken by sched_pool_ready, which may run on any reader's thread */
    uint64_t *submask;      /* a bit per pool range: a sched_send_submasks set starts here
                             * (NULL: none was sent); submask_words of them */
    uint64_t submask_words;
    NetSeg *segs;           /* explicit-route pool */
    uint64_t nsegs, capsegs;
    uint32_t rcache[4];     /* routes stored last (reused by identical routes) */
    int nrcache, rcnext;
    SchedEdge *edges;       /* the edge table (sched_edge) */
    int64_t nedges, capedges;
    int32_t *gnode;         /* initial holdings */
    ChunkRange *grange;
    size_t ngiven, capgiven;
    int64_t total;          /* transfers over all steps */
    int64_t maxflat;        /* the most transfers of a step with rule blocks (when added) */
    char **labels;          /* the distinct step labels, each stored once (a pipeline's
                             * million steps share a few): owned here, not by the steps */
    int32_t nlabels, caplabels;
    char *error;
};

/* Write the pool ranges that the submask sends left unwritten (sched_send_submasks keeps a
 * set as its two words and only reserves its ranges' place in the pool).  Every reader of the
 * pool calls it first: sched_flat, sched_transfer, the pack; a no-op when nothing is pending.
 * Safe to call from several threads reading one schedule (once written, ranges never move
 * until the next builder call).  The simulator's own replay of a submask step reads the sets
 * (SchedFlat.sub) and need not call it (sched_flat_sets). */
void sched_pool_ready(const Sched *s);

/* The ranges of the chunk set { fixed | m : m a submask of free_ } (fixed & free_ == 0,
 * fixed | free_ < UINT32_MAX) into out, in increasing order, as sched_send_submasks keeps them
 * (2^(the ones of free_ above its low run) of them: out must have room).  Their number. */
size_t sched_submasks_list(uint32_t fixed, uint32_t free_, ChunkRange *out);
/* The bytes of the chunk set { fixed | m : m a submask of free_ } (as sched_ranges_bytes of
 * its ranges, without them). */
uint64_t sched_submasks_bytes(const Sched *s, uint32_t fixed, uint32_t free_);

/* Is r[0..nr) (ranges in the pool) a whole set that sched_send_submasks stored, and then
 * which: { fixed | m : m a submask of free }?  (Read from its first and last range.) */
bool sched_pool_submasks(const Sched *s, const ChunkRange *r, size_t nr, uint32_t *fixed,
                         uint32_t *free_);
/* Does the set { ft | m : m a submask of mt } lie inside { fb | m : m a submask of mb }?
 * Every fixed | m of the first is some fb | m' of the second: the free bits of the first are
 * free in the second, and outside the second's free bits the fixed ones agree. */
static inline bool sched_submasks_within(uint32_t ft, uint32_t mt, uint32_t fb, uint32_t mb)
{
    return (mt & ~mb) == 0 && ((ft ^ fb) & ~mb) == 0;
}

static inline uint32_t sched_xfer_nr(const SchedStep *st, int64_t i)
{
    return st->ext ? st->ext[i].nr : 1;
}

static inline uint32_t sched_xfer_route(const SchedStep *st, int64_t i)
{
    return st->ext ? st->ext[i].route : SCHED_DEFAULT_ROUTE;
}

/* Give the step's transfer i (those before it have theirs; st->n is counted up by the caller)
 * the range slot v: kept as r1 while every transfer has the same, else in the second half of
 * st->x's block (made then, room for cap; the caller made room for transfer i in st->x).
 * False when memory runs out. */
bool sched_put_slot(SchedStep *st, int64_t i, SchedXferR v);

/* (r1's halves when the slots are apart: never a real slot, whose .pool.unused is 0 and whose
 * empty range is stored as {0, 0}) */
#define SCHED_SLOTS_APART UINT32_MAX

/* The step's range slots, or NULL: every one is st->r1. */
static inline SchedXferR *sched_step_slots(const SchedStep *st)
{
    return st->r1.one.lo == SCHED_SLOTS_APART && st->r1.one.hi == SCHED_SLOTS_APART
               ? (SchedXferR *)(void *)(st->x + st->cap)
               : NULL;
}

static inline const SchedXferR *sched_xfer_slot(const SchedStep *st, int64_t i)
{
    SchedXferR *r = sched_step_slots(st);
    return r ? &r[i] : &st->r1;
}

static inline const ChunkRange *sched_xfer_ranges(const Sched *s, const SchedStep *st, int64_t i)
{
    const SchedXferR *q = sched_xfer_slot(st, i);
    return sched_xfer_nr(st, i) <= 1 ? &q->one : s->ranges + q->pool.roff;
}

/* A step's transfers as flat arrays (the simulator's view): the stored arrays themselves for a
 * step without rules, else every transfer, stored and ruled, expanded into a SchedFlatBuf. */
typedef struct {
    const SchedXfer *x;
    const SchedXferR *r;      /* range slots, or NULL: every one is r1 */
    const SchedXferExt *ext;  /* NULL: every transfer has nr 1 and the default route */
    const ChunkRange *pool;   /* ranges of transfers with nr >= 2 start at pool[slot.pool.roff] */
    const SchedSub *sub;      /* NULL, or transfer i's set when it is a submask set of two
                               * ranges or more (SchedSub; a step of stored transfers only) */
    int64_t n;
    SchedXferR r1;
} SchedFlat;

typedef struct {
    SchedXfer *x;
    SchedXferR *r;
    SchedXferExt *ext;
    ChunkRange *pool;
    int64_t capx, capr, capext;
    uint64_t cappool;
} SchedFlatBuf;

/* Fill *out with step st's transfers, expanding into buf when the step has rules (buf's
 * arrays are reused and grown; *out is valid until buf is used again or freed).  False when
 * memory runs out. */
bool sched_flat(const Sched *s, int32_t st, SchedFlatBuf *buf, SchedFlat *out);
/* The same, without writing the pool's pending sets first (sched_pool_ready): for a step whose
 * view has sets (out->sub), the ranges of transfer i with sub[i].free_ != SCHED_SUB_NONE may
 * not be written yet; every other transfer's are. */
bool sched_flat_sets(const Sched *s, int32_t st, SchedFlatBuf *buf, SchedFlat *out);
void sched_flatbuf_free(SchedFlatBuf *buf);
/* The flat view of transfers j0..j0+n-1 of the rule block r (not an edge block), transfer
 * j0 + i as the view's i, expanded into buf (as sched_flat: valid until buf is used again).
 * False when memory runs out. */
bool sched_flat_rule(const Sched *s, const SchedRule *r, int64_t j0, int64_t n,
                     SchedFlatBuf *buf, SchedFlat *out);


static inline uint32_t sched_flat_nr(const SchedFlat *f, int64_t i)
{
    return f->ext ? f->ext[i].nr : 1;
}

static inline uint32_t sched_flat_route(const SchedFlat *f, int64_t i)
{
    return f->ext ? f->ext[i].route : SCHED_DEFAULT_ROUTE;
}

static inline const SchedXferR *sched_flat_slot(const SchedFlat *f, int64_t i)
{
    return f->r ? &f->r[i] : &f->r1;
}

/* (For a flat view without slots, the range points into *f: valid as long as f.) */
static inline const ChunkRange *sched_flat_ranges(const SchedFlat *f, int64_t i)
{
    const SchedXferR *q = sched_flat_slot(f, i);
    return sched_flat_nr(f, i) <= 1 ? &q->one : f->pool + q->pool.roff;
}

static inline uint32_t sched_route_nseg(uint32_t route)
{
    return route == SCHED_DEFAULT_ROUTE ? 0 : route & ((1u << SCHED_SEG_BITS) - 1);
}

static inline const NetSeg *sched_route_segs(const Sched *s, uint32_t route)
{
    return s->segs + (route >> SCHED_SEG_BITS);
}

#endif
