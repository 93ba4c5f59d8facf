/* sim.c — replay a schedule: holdings, verification, link and port contention, cost (see sim.h
 * for the semantics and docs/model.md for the prose).
 *
 * Link loads.  The directed links are laid out in a private order, "layout", in which every
 * (dimension, direction) pair is a block of net_size entries made of contiguous *lines* (one per
 * line of the net along that dimension), a link at the position of its tail node.  A straight
 * route segment is then one contiguous range of the layout, or two on a ring/torus when it
 * wraps.  Per step the loads are counted either by walking the routes link by link (when the
 * summed route length is small against the number of links; only touched links are cleared
 * afterwards) or by adding +1/-1 per range into a difference array and running a sum along
 * each line the step touches (and clearing only those lines).  Busiest-link loads per transfer
 * are only needed under seidel when some link carries more than 2^nu
 * circuits; they come from a range-maximum structure (block maxima of 64 links + a sparse table
 * over the blocks) or, on the walking path, from a second walk.
 */
#include "sim.h"
#include "bigmem.h"
#include "circuit.h"
#include "err-internal.h"
#include "chunkset-internal.h"
#include "net-internal.h"
#include "sched-internal.h"
#include "sim-internal.h"
#include "sim-async-internal.h"
#include "subround.h"
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <threads.h>

int sim_load_path = SIM_PATH_AUTO;
int64_t sim_par_min = 65536;

#define RMQ_SHIFT 6
#define SIM_WALK_MAX 4096   /* sim_transfer_info walks routes up to this long */
#define RMQ_BLOCK (1 << RMQ_SHIFT)

/* Holdings of one node: up to HOLD_INLINE intervals inline (cap == 0; the common case: one,
 * or two in the middle of an exchange), else the n intervals at base[off..off+n) of a heap
 * array of cap entries.  The offset lets a merge near the front shift the few intervals
 * before it instead of the many after it (a node that got a long strided set while
 * distributing absorbs it from the front, one exchange after another). */
#define HOLD_INLINE 4
/* A heap node also mirrors one of its intervals, the one it gained last ("hot": in an
 * exchange, the block it sends next and grows next), with the room that interval has before
 * it would touch its neighbours: the common send and receive are answered from the Hold
 * itself, without reading the heap array (a cache miss on big nets). */
#define HOT_NONE UINT32_MAX
typedef struct {
    union {
        ChunkRange in[HOLD_INLINE];
        struct {
            ChunkRange *base;
            uint32_t off;
            uint32_t hot;           /* index of the mirrored interval in base+off, HOT_NONE */
            ChunkRange hr;          /* = base[off+hot] */
            uint32_t lo_min, hi_max;/* hr may grow to [lo_min, hi_max] and touch nothing */
        } h;
    } u;
    uint32_t n, cap;
} Hold;

/* A transfer as the simulator reads it: the stored record and its step's extension. */
typedef struct {
    int32_t src, dst;
    uint32_t nr, route;
    const ChunkRange *r;
} XV;

static inline XV xv(const SchedFlat *f, int64_t i)
{
    const SchedXfer *x = &f->x[i];
    return (XV){ x->src, x->dst, sched_flat_nr(f, i), sched_flat_route(f, i),
                 sched_flat_ranges(f, i) };
}

/* A pointer to the view of transfer i of f (valid in the enclosing block). */
#define XVP(f, i) ((const XV[]){ xv((f), (i)) })

/* A range newly gained by a node in a step (SIM_HISTORY). */
typedef struct {
    int32_t node;
    ChunkRange r;
} Delta;

/* A piece of a route in the layout: links a..b inclusive, inside the line that starts at
 * `start` and has n links. */
typedef struct {
    int64_t a, b, start;
    int64_t n;
} Piece;

#define MAXPIECES (2 * NET_MAXSEG)

/* SIM_ASYNC on a big run whose timing reads no step views of ours (sim_async_own_steps): the
 * timing of every step runs on a second thread while this one replays the steps, each on
 * the same read-only schedule (a second core does the timing). */
typedef struct {
    SimAsyncRun *r;
    int32_t nsteps;
    atomic_bool stop;          /* set by the replay when it gives up */
    bool ok;                   /* (read after the join) */
    bool on;
    thrd_t t;
} AsyncJob;

static int async_job(void *arg)
{
    AsyncJob *j = arg;
    j->ok = true;
    for (int32_t st = 0; j->ok && st < j->nsteps && !atomic_load(&j->stop); st++)
        j->ok = sim_async_step(j->r, st, NULL);
    return 0;
}

struct Sim {
    const Sched *s;
    const Net *net;
    CostParams p;
    unsigned flags;
    int32_t nsteps;
    SimStep *steps;
    double *cum;
    SimTotals tot;
    SimViolation *viol;
    size_t nviol;

    Hold *hold;
    int32_t pos;
    Delta **dblk;              /* the deltas, in blocks of DBLK deltas (never moved) */
    uint64_t ndelta, ndblk;
    uint64_t *dstart;          /* nsteps+1 offsets into the deltas */
    uint64_t *xnew;            /* bit per transfer (all steps): its dst held none of it, so
                                * its delta is its own ranges and none is recorded */
    int64_t *xstart;           /* nsteps+1: transfers before each step */
    int32_t informed;          /* nodes holding at least one chunk (while running) */

    int64_t nlinks;
    int64_t base[NET_MAXDIM][2];
    int64_t lstride[NET_MAXDIM][NET_MAXDIM];  /* line index = sum over e != d of c[e]*lstride[d][e] */
    int32_t *load;             /* nlinks+1, layout order; zero except for cache_step */
    int32_t cache_step;
    int cache_path;            /* how cache_step's loads were counted */
    int32_t rmq_step;          /* the step the range-maximum structure describes, -1 */
    int32_t *linkload;         /* by link id, for linkload_step */
    int32_t linkload_step;
    int32_t *bmax;             /* range maximum: block maxima, then the sparse table */
    int32_t *bpre, *bsuf;      /* ... and, per link, the maximum from its block's start / to
                                * its block's end */
    int64_t nblocks;
    int levels;
    uint64_t *linebit;         /* difference-array path: lines touched in this step ... */
    int64_t *touched;          /* ... and their (start, length) pairs */
    int64_t ntouched, captouched;
    int64_t *over;             /* overloaded links (layout index), circuit model */
    int64_t nover, capover;
    bool full;                 /* full:P, hxbar: a private link per pair, see full_loads */
    bool hx;                   /* hxbar: module channels too (hx_channels) */
    int32_t hxA, hxB, hxC;     /* hxbar: modules, processors per module, channels */
    int32_t *chan;             /* hxbar: 2A: transfers out of (2m) and into (2m+1) each module
                                * in the step counted last */
    int32_t chan_raw;          /* ... and the most on one channel */
    int64_t *fk;               /* full: sorted pair links of the nodes that sent twice ... */
    int64_t nfk, capfk;        /* ... in the step last counted */

    int32_t *sends, *recvs;    /* per node; zero except for port_step */
    int32_t port_step;
    double *ssum, *rsum;       /* seidel: serialised cost per node */
    SubRound *sub;             /* seidel: a step's sub-rounds (lazy) */

    int32_t *xk;               /* busiest load per transfer of the step being simulated */
    uint64_t *xb;              /* bytes per transfer of the step being simulated */
    size_t capx;
    bool pow2;                 /* every dimension is 2^dshift[d] */
    int dshift[NET_MAXDIM];
    bool uniform;              /* every chunk has per_chunk bytes (bytes % nchunks == 0) */
    uint64_t per_chunk;
    int32_t *tmpnodes;
    size_t captmp;
    SchedFlatBuf fbuf;         /* the transfers of flat_step, when it has rule blocks */
    SchedFlat flat;
    int32_t flat_step;         /* -1: none */
    int32_t clean_step;        /* the last step simulated with no link over its capacity ... */
    int64_t clean_tcd;         /* ... and its TCD (a step of the same routes reuses them) */
    int32_t clean_mx;
    int64_t *edisj;            /* a schedule of edge blocks only whose edges all have arcs of
                                * their own: edisj[e] = the length of edges 0..e-1 (else NULL) */
    struct {                   /* circuit, saf: the step before's costliest transfer (run_step) */
        double cbest, csu, ctr;
        int32_t ccrit;
        int64_t cmaxlen;
    } lenp;
    SchedFlatBuf nbuf;         /* while simulating: the next step's, made ahead */
    SchedFlat next;
    int32_t next_step;         /* -1: none */
    SimAsyncRun *arun;         /* SIM_ASYNC: the timing, step by step while running ... */
    SimAsync *async;           /* ... and its result (until sim_async_take) */
    char aerr[160];            /* ... or why there is none */
    AsyncJob ajob;             /* the timing on a thread of its own (ajob.on) */
};

/* Step st's transfers as flat arrays (see sched-internal.h): the last step asked for is kept,
 * so a step made by rules is expanded once however many passes read it.  NULL when memory
 * runs out.  The view changes when another step is asked for. */
static const SchedFlat *sim_flat(Sim *sim, int32_t st)
{
    if (sim->flat_step == st)
        return &sim->flat;
    if (sim->next_step == st) {   /* made ahead: swap it in */
        SchedFlatBuf b = sim->fbuf;
        sim->fbuf = sim->nbuf;
        sim->nbuf = b;
        sim->flat = sim->next;
        sim->flat_step = st;
        sim->next_step = -1;
        return &sim->flat;
    }
    sim->flat_step = -1;
    if (!sched_flat(sim->s, st, &sim->fbuf, &sim->flat))
        return NULL;
    sim->flat_step = st;
    return &sim->flat;
}

static void *big_alloc(size_t bytes, bool zero) { return bigmem_alloc(bytes, zero); }

static void *big_zalloc(size_t bytes)
{
    return big_alloc(bytes, true);
}

/* ---- holdings ------------------------------------------------------------------------------ */

static inline const ChunkRange *hold_ranges(const Hold *h, size_t *n)
{
    *n = h->n;
    return h->cap ? h->u.h.base + h->u.h.off : h->u.in;
}

/* Set h to the k intervals t[0..k) (t may point into h's own array). */
static bool hold_set(Hold *h, const ChunkRange *t, size_t k)
{
    if (k <= HOLD_INLINE) {
        ChunkRange tmp[HOLD_INLINE];
        memcpy(tmp, t, k * sizeof *t);
        if (h->cap)
            free(h->u.h.base);
        memcpy(h->u.in, tmp, k * sizeof *t);
        h->n = (uint32_t)k;
        h->cap = 0;
        return true;
    }
    if (k > UINT32_MAX)
        return false;
    if (h->cap < k) {
        size_t cap = k < 4 ? 4 : k;
        ChunkRange *m = malloc(cap * sizeof *m);
        if (!m)
            return false;
        memcpy(m, t, k * sizeof *t);
        if (h->cap)
            free(h->u.h.base);
        h->u.h.base = m;
        h->cap = (uint32_t)cap;
    } else if (h->u.h.base != t) {
        memmove(h->u.h.base, t, k * sizeof *t);
    }
    h->u.h.off = 0;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)k;
    return true;
}

/* How many transfers ahead the per-transfer passes prefetch what they will touch (a node's
 * heap holdings, link loads): on big nets these are cache misses in an order no hardware
 * prefetcher guesses. */
#define PREFETCH 12
#define RING 16   /* a power of two > PREFETCH */

/* Ask for the whole of a Hold (40 bytes: half of them straddle two cache lines, and its n
 * and cap lie in the second). */
#define HOLD_FETCH(h, rw)                                                                    \
    do {                                                                                     \
        __builtin_prefetch((h), (rw));                                                       \
        __builtin_prefetch((const char *)(h) + sizeof(Hold) - 1, (rw));                      \
    } while (0)

static inline void hold_prefetch(const Hold *h)
{
    if (h->cap)
        __builtin_prefetch(h->u.h.base + h->u.h.off +
                           (h->u.h.hot == HOT_NONE ? 0 : h->u.h.hot));
}

/* Mirror interval i of a heap Hold (a = base + off). */
static inline void hot_set(Hold *h, const ChunkRange *a, size_t i)
{
    h->u.h.hot = (uint32_t)i;
    h->u.h.hr = a[i];
    h->u.h.lo_min = i > 0 ? a[i - 1].hi + 1 : 0;
    h->u.h.hi_max = i + 1 < h->n ? a[i + 1].lo - 1 : UINT32_MAX;
}

/* Heap case of hold_add: merge [lo,hi) (non-empty) into base[off..off+n). */
static bool heap_add(Hold *h, uint32_t lo, uint32_t hi)
{
    if (h->u.h.hot != HOT_NONE && lo <= h->u.h.hr.hi && hi >= h->u.h.hr.lo &&
        lo >= h->u.h.lo_min && hi <= h->u.h.hi_max) {
        /* grows the mirrored interval and touches no other */
        ChunkRange *hr = &h->u.h.hr;
        if (lo < hr->lo)
            hr->lo = lo;
        if (hi > hr->hi)
            hr->hi = hi;
        h->u.h.base[h->u.h.off + h->u.h.hot] = *hr;
        return true;
    }
    ChunkRange *a = h->u.h.base + h->u.h.off;
    size_t n = h->n;
    size_t i;   /* the first interval touching [lo,hi] or after it */
    if (h->u.h.hot != HOT_NONE) {
        /* near the mirrored interval (its cache line is the one prefetched): a few steps,
         * then a binary search on the side it points to */
        size_t p = h->u.h.hot;
        int steps = 0;
        if (a[p].hi >= lo) {
            while (p > 0 && a[p - 1].hi >= lo && steps < 8) {
                p--;
                steps++;
            }
            i = (p > 0 && a[p - 1].hi >= lo) ? cr_first_hi_ge(a, p, lo) : p;
        } else {
            p++;
            while (p < n && a[p].hi < lo && steps < 8) {
                p++;
                steps++;
            }
            i = (p < n && a[p].hi < lo) ? p + cr_first_hi_ge(a + p, n - p, lo) : p;
        }
    } else {
        i = (n && a[0].hi >= lo) ? 0 : cr_first_hi_ge(a, n, lo);
    }
    size_t j = i;
    while (j < n && a[j].lo <= hi)                                   /* touching [lo,hi] */
        j++;
    if (i == j) {
        /* insert at i: on the cheaper side when there is room before the first interval */
        if (h->u.h.off > 0 && i <= n - i) {
            a--;
            memmove(a, a + 1, i * sizeof *a);
            h->u.h.off--;
        } else {
            if ((size_t)h->u.h.off + n == h->cap) {
                if (h->u.h.off > 0) {
                    memmove(h->u.h.base, a, n * sizeof *a);
                    h->u.h.off = 0;
                } else {
                    if (h->cap > UINT32_MAX / 2)
                        return false;
                    size_t nc = (size_t)h->cap * 2;
                    ChunkRange *m = realloc(h->u.h.base, nc * sizeof *m);
                    if (!m)
                        return false;
                    h->u.h.base = m;
                    h->cap = (uint32_t)nc;
                }
                a = h->u.h.base + h->u.h.off;
            }
            memmove(a + i + 1, a + i, (n - i) * sizeof *a);
        }
        a[i].lo = lo;
        a[i].hi = hi;
        h->n++;
        hot_set(h, a, i);
        return true;
    }
    ChunkRange m = { a[i].lo < lo ? a[i].lo : lo, a[j - 1].hi > hi ? a[j - 1].hi : hi };
    size_t k = j - i - 1;   /* intervals that disappear */
    if (k > 0 && i < n - j) {
        memmove(a + k, a, i * sizeof *a);   /* shift the head up */
        a[j - 1] = m;
        h->u.h.off += (uint32_t)k;
    } else {
        a[i] = m;
        if (k > 0)
            memmove(a + i + 1, a + j, (n - j) * sizeof *a);
    }
    h->n -= (uint32_t)k;
    if (h->n <= HOLD_INLINE / 2)   /* back inline (not at HOLD_INLINE: hovering would churn) */
        return hold_set(h, h->u.h.base + h->u.h.off, h->n);
    hot_set(h, h->u.h.base + h->u.h.off, i);
    return true;
}

static bool hold_add_inline(Hold *h, uint32_t lo, uint32_t hi);

/* Add [lo,hi) to h: the common cases (a node's first range, a range that touches its only
 * one) inline, the rest out of line. */
static inline bool hold_add(Hold *h, uint32_t lo, uint32_t hi)
{
    if (lo >= hi)
        return true;
    if (h->cap)
        return heap_add(h, lo, hi);
    if (h->n == 0) {
        h->u.in[0].lo = lo;
        h->u.in[0].hi = hi;
        h->n = 1;
        return true;
    }
    if (h->n == 1 && lo <= h->u.in[0].hi && hi >= h->u.in[0].lo) {   /* touches: extend */
        if (lo < h->u.in[0].lo)
            h->u.in[0].lo = lo;
        if (hi > h->u.in[0].hi)
            h->u.in[0].hi = hi;
        return true;
    }
    return hold_add_inline(h, lo, hi);
}

/* hold_add into the inline intervals, in the general case. */
static bool hold_add_inline(Hold *h, uint32_t lo, uint32_t hi)
{
    /* insert into at most HOLD_INLINE intervals, merging what touches [lo,hi] */
    ChunkRange t[HOLD_INLINE + 1];
    size_t k = 0;
    bool placed = false;
    for (uint32_t i = 0; i < h->n; i++) {
        ChunkRange a = h->u.in[i];
        if (a.hi < lo) {
            t[k++] = a;
        } else if (a.lo > hi) {
            if (!placed) {
                t[k++] = (ChunkRange){ lo, hi };
                placed = true;
            }
            t[k++] = a;
        } else {
            if (a.lo < lo)
                lo = a.lo;
            if (a.hi > hi)
                hi = a.hi;
        }
    }
    if (!placed)
        t[k++] = (ChunkRange){ lo, hi };
    return hold_set(h, t, k);
}

static bool hold_remove(Hold *h, uint32_t lo, uint32_t hi)
{
    if (lo >= hi || h->n == 0)
        return true;
    if (!h->cap) {
        ChunkRange t[HOLD_INLINE + 1];
        size_t k = 0;
        for (uint32_t i = 0; i < h->n; i++) {
            ChunkRange a = h->u.in[i];
            if (a.hi <= lo || a.lo >= hi) {
                t[k++] = a;
                continue;
            }
            if (a.lo < lo)
                t[k++] = (ChunkRange){ a.lo, lo };
            if (a.hi > hi)
                t[k++] = (ChunkRange){ hi, a.hi };
        }
        return hold_set(h, t, k);
    }
    if (h->u.h.off > 0) {   /* cr_remove works on a plain array */
        memmove(h->u.h.base, h->u.h.base + h->u.h.off, h->n * sizeof(ChunkRange));
        h->u.h.off = 0;
    }
    ChunkRange *m = h->u.h.base;
    size_t n = h->n, cap = h->cap;
    if (!cr_remove(&m, &n, &cap, lo, hi) || cap > UINT32_MAX)
        return false;
    h->u.h.base = m;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)n;
    h->cap = (uint32_t)cap;
    if (n <= 1)
        return hold_set(h, m, n);
    return true;
}

static inline bool hold_contains(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss)
{
    if (h->cap && h->u.h.hot != HOT_NONE && h->u.h.hr.lo <= lo && hi <= h->u.h.hr.hi)
        return true;
    size_t n;
    const ChunkRange *r = hold_ranges(h, &n);
    if (n && r[0].lo <= lo && hi <= r[0].hi)   /* the first interval: the common case */
        return true;
    if (!h->cap)
        for (size_t i = 1; i < n; i++)
            if (r[i].lo <= lo && hi <= r[i].hi)
                return true;
    return cr_contains(r, n, lo, hi, miss);
}

/* Does h hold all of r[0..nr) (normalised)?  If not, *k gets the first range it lacks and *miss
 * the first chunk missing from it.  One pass with a cursor over the holdings (the ranges are
 * sorted), galloping over long stretches. */
static bool hold_contains_all(const Hold *h, const ChunkRange *r, uint32_t nr, uint32_t *k,
                              uint32_t *miss)
{
    if (nr == 1) {
        *k = 0;
        return hold_contains(h, r[0].lo, r[0].hi, miss);
    }
    if (nr <= 2) {   /* each on its own: the mirror, the first interval, a binary search */
        for (uint32_t j = 0; j < nr; j++)
            if (!hold_contains(h, r[j].lo, r[j].hi, miss)) {
                *k = j;
                return false;
            }
        return true;
    }
    size_t n;
    const ChunkRange *a = hold_ranges(h, &n);
    if (n == 1 && nr > 0 && a[0].lo <= r[0].lo && r[nr - 1].hi <= a[0].hi)
        return true;
    size_t i = 0;
    for (uint32_t j = 0; j < nr; j++) {
        uint32_t lo = r[j].lo, hi = r[j].hi;
        /* first holding range with hi > lo, from i on */
        size_t step = 1;
        while (i + step < n && a[i + step - 1].hi <= lo)
            step *= 2;
        if (i < n && a[i].hi <= lo) {
            size_t end = i + step < n ? i + step : n;
            i += cr_first_hi_gt(a + i, end - i, lo);
        }
        if (!(i < n && a[i].lo <= lo && a[i].hi >= hi)) {
            *k = j;
            *miss = (i < n && a[i].lo <= lo) ? a[i].hi : lo;
            return false;
        }
    }
    return true;
}

/* The deltas live in blocks of DBLK that never move (a big simulation records tens of millions:
 * no copying on growth, and each block on huge pages where offered). */
#define DBLK_SHIFT 19
#define DBLK ((uint64_t)1 << DBLK_SHIFT)

static inline const Delta *delta_at(const Sim *sim, uint64_t i)
{
    return &sim->dblk[i >> DBLK_SHIFT][i & (DBLK - 1)];
}

static bool push_delta(Sim *sim, int32_t node, uint32_t lo, uint32_t hi)
{
    if (sim->ndelta == sim->ndblk * DBLK) {
        if ((sim->ndblk & (sim->ndblk - 1)) == 0) {   /* 0, 1, 2, 4, ...: grow the index */
            Delta **q = realloc(sim->dblk, (size_t)(sim->ndblk ? 2 * sim->ndblk : 1) * sizeof *q);
            if (!q)
                return false;
            sim->dblk = q;
        }
        Delta *b = big_alloc(DBLK * sizeof *b, false);
        if (!b)
            return false;
        sim->dblk[sim->ndblk++] = b;
    }
    Delta *d = &sim->dblk[sim->ndelta >> DBLK_SHIFT][sim->ndelta & (DBLK - 1)];
    sim->ndelta++;
    d->node = node;
    d->r.lo = lo;
    d->r.hi = hi;
    return true;
}

/* Give [lo,hi) to node; with history, record exactly the parts it did not hold. */
static bool receive(Sim *sim, int32_t node, uint32_t lo, uint32_t hi, bool record)
{
    Hold *h = &sim->hold[node];
    if (record) {
        size_t n;
        const ChunkRange *r = hold_ranges(h, &n);
        size_t i = cr_first_hi_gt(r, n, lo);
        uint32_t cur = lo;
        for (; i < n && r[i].lo < hi; i++) {
            if (r[i].lo > cur && !push_delta(sim, node, cur, r[i].lo))
                return false;
            if (r[i].hi > cur)
                cur = r[i].hi;
        }
        if (cur < hi && !push_delta(sim, node, cur, hi))
            return false;
    }
    return hold_add(h, lo, hi);
}

/* Add (or remove) the sorted, disjoint ranges r[0..k) to (from) h in one pass over its
 * intervals: O(intervals + k), where k insertions or removals one by one could shift a long
 * array k times. */
static bool hold_merge(Hold *h, const ChunkRange *r, size_t k, bool add)
{
    size_t n;
    const ChunkRange *a = hold_ranges(h, &n);
    size_t cap = n + k;   /* a removal splits at most one interval in two */
    if (cap > UINT32_MAX)
        return false;
    ChunkRange *m = malloc(cap * sizeof *m);
    if (!m)
        return false;
    size_t o = 0;
    if (add) {
        size_t i = 0, j = 0;
        while (i < n || j < k) {
            ChunkRange x = (j >= k || (i < n && a[i].lo <= r[j].lo)) ? a[i++] : r[j++];
            if (o && m[o - 1].hi >= x.lo) {
                if (x.hi > m[o - 1].hi)
                    m[o - 1].hi = x.hi;
            } else {
                m[o++] = x;
            }
        }
    } else {
        size_t j = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t lo = a[i].lo, hi = a[i].hi;
            while (j < k && r[j].hi <= lo)
                j++;
            for (size_t q = j; q < k && r[q].lo < hi; q++) {
                if (r[q].lo > lo)
                    m[o++] = (ChunkRange){ lo, r[q].lo };
                if (r[q].hi > lo)
                    lo = r[q].hi;
                if (lo >= hi)
                    break;
            }
            if (lo < hi)
                m[o++] = (ChunkRange){ lo, hi };
        }
    }
    if (o <= HOLD_INLINE) {
        bool ok = hold_set(h, m, o);   /* inline: cannot fail */
        free(m);
        return ok;
    }
    if (h->cap)
        free(h->u.h.base);
    h->u.h.base = m;
    h->u.h.off = 0;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)o;
    h->cap = (uint32_t)cap;
    return true;
}

/* Does h hold none of the normalised ranges r[0..nr)? */
static bool holds_none(const Hold *h, const ChunkRange *r, uint32_t nr)
{
    size_t n;
    const ChunkRange *a = hold_ranges(h, &n);
    size_t i = 0;
    for (uint32_t j = 0; j < nr && i < n; j++) {
        if (a[i].hi <= r[j].lo)
            i += cr_first_hi_gt(a + i, n - i, r[j].lo);
        if (i < n && a[i].lo < r[j].hi)
            return false;
    }
    return true;
}

/* Give the normalised ranges r[0..nr) to node, transfer xi of the whole run.  With history,
 * what the node did not hold is recorded: as the transfer's bit when it held none of it,
 * else as deltas. */
static bool receive_all(Sim *sim, int32_t node, const ChunkRange *r, uint32_t nr, int64_t xi)
{
    Hold *h = &sim->hold[node];
    bool record = (sim->flags & SIM_HISTORY) != 0;
    if (record && holds_none(h, r, nr)) {
        sim->xnew[xi >> 6] |= UINT64_C(1) << (xi & 63);
        record = false;
    }
    if (nr >= 8) {
        size_t n;
        const ChunkRange *a = hold_ranges(h, &n);
        if (record) {
            /* the parts of r not held yet, in one pass (r and a are both sorted) */
            size_t i = 0;
            for (uint32_t j = 0; j < nr; j++) {
                uint32_t lo = r[j].lo, hi = r[j].hi, cur = lo;
                while (i < n && a[i].hi <= lo)
                    i++;
                for (size_t t = i; t < n && a[t].lo < hi; t++) {
                    if (a[t].lo > cur && !push_delta(sim, node, cur, a[t].lo))
                        return false;
                    if (a[t].hi > cur)
                        cur = a[t].hi;
                }
                if (cur < hi && !push_delta(sim, node, cur, hi))
                    return false;
            }
        }
        /* merge into a fresh array: O(n + nr) rather than nr insertions */
        return hold_merge(h, r, nr, true);
    }
    for (uint32_t k = 0; k < nr; k++)
        if (!receive(sim, node, r[k].lo, r[k].hi, record))
            return false;
    return true;
}

/* ---- routes in the layout ------------------------------------------------------------------ */

static inline void node_coords(const Sim *sim, int32_t u, int32_t *c)
{
    const Net *net = sim->net;
    if (sim->pow2) {   /* every dimension a power of two: shifts and masks, no division */
        for (int d = net->ndim - 1; d >= 0; d--) {
            c[d] = u & (net->dims[d] - 1);
            u >>= sim->dshift[d];
        }
        return;
    }
    switch (net->ndim) {
    case 1:
        c[0] = u;
        break;
    case 2:
        c[0] = u / net->dims[1];
        c[1] = u - c[0] * net->dims[1];
        break;
    default: {
        int32_t q = u / net->dims[2];
        c[2] = u - q * net->dims[2];
        c[0] = q / net->dims[1];
        c[1] = q - c[0] * net->dims[1];
        break;
    }
    }
}

/* Signed hops of the default route along one dimension (torus: shorter way, tie +). */
static inline int32_t hop_offset(const Net *net, int d, int32_t from, int32_t to)
{
    int32_t o = to - from;
    if (net->kind == NET_RING || net->kind == NET_TORUS) {
        int32_t n = net->dims[d];
        int32_t f = o < 0 ? o + n : o;
        return f <= n - f ? f : f - n;
    }
    return o;
}

/* Append the layout pieces of a straight segment from coordinates c along d. */
static inline int seg_pieces(const Sim *sim, const int32_t *c, int d, int dir, int32_t len,
                             Piece *pc)
{
    const Net *net = sim->net;
    int32_t n = net->dims[d], p = c[d];
    int64_t line = 0;
    for (int e = 0; e < net->ndim; e++)
        if (e != d)
            line += (int64_t)c[e] * sim->lstride[d][e];
    int64_t start = sim->base[d][dir < 0] + line * n;
    if (dir > 0) {
        int32_t q = p + len - 1;
        if (q < n) {
            pc[0] = (Piece){ start + p, start + q, start, n };
            return 1;
        }
        pc[0] = (Piece){ start + p, start + n - 1, start, n };
        pc[1] = (Piece){ start, start + q - n, start, n };
        return 2;
    }
    int32_t q = p - len + 1;
    if (q >= 0) {
        pc[0] = (Piece){ start + q, start + p, start, n };
        return 1;
    }
    pc[0] = (Piece){ start, start + p, start, n };
    pc[1] = (Piece){ start + q + n, start + n - 1, start, n };
    return 2;
}

/* The layout pieces of x's route (at most MAXPIECES); *len gets the route length. */
static int route_pieces(const Sim *sim, const XV *x, Piece *pc, int32_t *len)
{
    const Net *net = sim->net;
    int32_t c[NET_MAXDIM] = { 0, 0, 0 }, total = 0;
    int np = 0;
    node_coords(sim, x->src, c);
    if (x->route == SCHED_DEFAULT_ROUTE) {
        int32_t t[NET_MAXDIM] = { 0, 0, 0 };
        node_coords(sim, x->dst, t);
        for (int d = net->ndim - 1; d >= 0; d--) {
            if (c[d] == t[d])
                continue;
            int32_t o = hop_offset(net, d, c[d], t[d]);
            int32_t l = o < 0 ? -o : o;
            np += seg_pieces(sim, c, d, o < 0 ? -1 : 1, l, pc + np);
            c[d] = t[d];
            total += l;
        }
    } else {
        const NetSeg *seg = sched_route_segs(sim->s, x->route);
        uint32_t ns = sched_route_nseg(x->route);
        for (uint32_t i = 0; i < ns; i++) {
            int d = seg[i].dim;
            int32_t n = net->dims[d], l = seg[i].len;
            np += seg_pieces(sim, c, d, seg[i].dir, l, pc + np);
            int32_t nc = (c[d] + (seg[i].dir > 0 ? l : n - l)) % n;   /* l < n */
            c[d] = nc;
            total += l;
        }
    }
    if (len)
        *len = total;
    return np;
}

/* Route length without the pieces. */
static int32_t xfer_len(const Sim *sim, const XV *x)
{
    if (x->route != SCHED_DEFAULT_ROUTE) {
        const NetSeg *seg = sched_route_segs(sim->s, x->route);
        uint32_t ns = sched_route_nseg(x->route);
        int32_t total = 0;
        for (uint32_t i = 0; i < ns; i++)
            total += seg[i].len;
        return total;
    }
    const Net *net = sim->net;
    if (sim->full)
        return x->src != x->dst;
    int32_t c[NET_MAXDIM] = { 0, 0, 0 }, t[NET_MAXDIM] = { 0, 0, 0 }, total = 0;
    node_coords(sim, x->src, c);
    node_coords(sim, x->dst, t);
    for (int d = 0; d < net->ndim; d++) {
        int32_t o = hop_offset(net, d, c[d], t[d]);
        total += o < 0 ? -o : o;
    }
    return total;
}

/* Layout index -> link id. */
static int64_t layout_link(const Sim *sim, int64_t idx)
{
    const Net *net = sim->net;
    int64_t size = net->size;
    int db = (int)(idx / size);
    int d = db / 2, b = db % 2;
    int64_t rem = idx % size;
    int32_t n = net->dims[d], st = net->stride[d];
    int64_t line = rem / n, pos = rem % n;
    int64_t node = (line / st) * ((int64_t)st * n) + line % st + pos * st;
    return (node * net->ndim + d) * 2 + b;
}

/* Link id -> layout index. */
static int64_t link_layout(const Sim *sim, int64_t link)
{
    const Net *net = sim->net;
    int b = (int)(link & 1);
    int64_t x = link >> 1;
    int d = (int)(x % net->ndim);
    int64_t node = x / net->ndim;
    int64_t n = net->dims[d], st = net->stride[d];
    int64_t pos = (node / st) % n;
    int64_t line = (node / (st * n)) * st + node % st;
    return sim->base[d][b] + line * n + pos;
}

/* ---- link loads ---------------------------------------------------------------------------- */

static bool push_over(Sim *sim, int64_t idx)
{
    if (sim->nover == sim->capover) {
        int64_t nc = sim->capover ? sim->capover * 2 : 64;
        int64_t *o = realloc(sim->over, (size_t)nc * sizeof *o);
        if (!o)
            return false;
        sim->over = o;
        sim->capover = nc;
    }
    sim->over[sim->nover++] = idx;
    return true;
}

static bool push_touched(Sim *sim, int64_t start, int64_t n)
{
    if (sim->ntouched == sim->captouched) {
        int64_t nc = sim->captouched ? sim->captouched * 2 : 256;
        int64_t *t = realloc(sim->touched, (size_t)nc * 2 * sizeof *t);
        if (!t)
            return false;
        sim->touched = t;
        sim->captouched = nc;
    }
    sim->touched[2 * sim->ntouched] = start;
    sim->touched[2 * sim->ntouched + 1] = n;
    sim->ntouched++;
    return true;
}

/* ---- full nets: a private link per ordered pair ------------------------------------------ */

static int cmp_i64(const void *pa, const void *pb);
static bool push_over(Sim *sim, int64_t link);

/* hxbar: a channel with k transfers has load ceil(k/C) (C transfers a step at full speed). */
static int32_t chan_units(const Sim *sim, int32_t k) { return (k + sim->hxC - 1) / sim->hxC; }

/* hxbar: count the transfers over every module's out and in channel into sim->chan (kept for
 * the step until the next count), fold their loads (in units of C) into *max and the channels
 * over cap into *nover (and sim->over with collect). */
static void hx_channels(Sim *sim, const SchedFlat *f, int32_t cap, bool collect, int32_t *max,
                        int64_t *nover, bool *oom)
{
    int32_t *ch = sim->chan, B = sim->hxB, raw = 0;
    memset(ch, 0, 2 * (size_t)sim->hxA * sizeof *ch);
    for (int64_t i = 0; i < f->n; i++) {
        int32_t ms = f->x[i].src / B, md = f->x[i].dst / B;
        if (ms != md) {
            ch[2 * ms]++;
            ch[2 * md + 1]++;
        }
    }
    int64_t pairs = (int64_t)sim->net->size * sim->net->size;
    for (int64_t m = 0; m < 2 * (int64_t)sim->hxA; m++) {
        if (ch[m] > raw)
            raw = ch[m];
        int32_t u = chan_units(sim, ch[m]);
        if (u > *max)
            *max = u;
        if (u > cap) {
            (*nover)++;
            if (collect && !push_over(sim, pairs + m))
                *oom = true;
        }
    }
    sim->chan_raw = raw;
}

/* hxbar: transfers of the flat step f over channel link `link` (>= P*P), in units of C. */
static int32_t hx_channel_count(const Sim *sim, const SchedFlat *f, int64_t link)
{
    int64_t m = link - (int64_t)sim->net->size * sim->net->size;
    int32_t k = 0, B = sim->hxB, mod = (int32_t)(m / 2);
    bool in = m & 1;
    for (int64_t i = 0; f && i < f->n; i++) {
        int32_t ms = f->x[i].src / B, md = f->x[i].dst / B;
        k += ms != md && (in ? md : ms) == mod;
    }
    return chan_units(sim, k);
}

/* A pair's link carries the transfers of the step that join that pair.  sim->load[u] counts
 * u's sends (scratch, zero again on return); only when some node sends more than once are
 * the pair links of its transfers sorted into sim->fk, from which duplicates are counted
 * (overloads and xfer_maxload).  Every route is one hop: tcd = number of transfers. */
static int full_loads(Sim *sim, const SchedFlat *f, int64_t *tcd, int32_t cap, bool collect,
                      int32_t *max, int64_t *nover, bool *oom)
{
    int32_t *load = sim->load;
    int64_t P = sim->net->size, multi = 0;
    for (int64_t i = 0; i < f->n; i++)
        if (++load[f->x[i].src] == 2)
            multi += 2;
    int32_t mx = f->n > 0;
    int64_t ov = 0;
    sim->nover = 0;
    sim->nfk = 0;
    if (multi && sim->capfk < f->n) {
        int64_t *k = realloc(sim->fk, (size_t)f->n * sizeof *k);
        if (!k)
            *oom = true;
        else {
            sim->fk = k;
            sim->capfk = f->n;
        }
    }
    if (multi && !*oom) {
        for (int64_t i = 0; i < f->n; i++)
            if (load[f->x[i].src] > 1)
                sim->fk[sim->nfk++] = (int64_t)f->x[i].src * P + f->x[i].dst;
        qsort(sim->fk, (size_t)sim->nfk, sizeof *sim->fk, cmp_i64);
        for (int64_t a = 0, b; a < sim->nfk; a = b) {
            for (b = a + 1; b < sim->nfk && sim->fk[b] == sim->fk[a]; b++)
                ;
            int32_t run = (int32_t)(b - a);
            if (run > mx)
                mx = run;
            if (run > cap) {
                ov++;
                if (collect && !push_over(sim, sim->fk[a]))
                    *oom = true;
            }
        }
    }
    for (int64_t i = 0; i < f->n; i++)
        load[f->x[i].src] = 0;
    if (sim->hx)
        hx_channels(sim, f, cap, collect, &mx, &ov, oom);
    *max = mx;
    *nover = ov;
    *tcd = f->n;
    return SIM_PATH_DIRECT;
}

/* Transfers of the flat step f over the pair link `link` of a full net (hxbar: or the load
 * of a channel link). */
static int32_t full_pair_count(const Sim *sim, const SchedFlat *f, int64_t link)
{
    int32_t k = 0;
    int64_t P = sim->net->size;
    if (sim->hx && link >= P * P)
        return hx_channel_count(sim, f, link);
    for (int64_t i = 0; f && i < f->n; i++)
        k += (int64_t)f->x[i].src * P + f->x[i].dst == link;
    return k;
}

/* Count the loads of step st into sim->load (which must be all zero).  Returns the path used
 * (SIM_PATH_DIRECT or SIM_PATH_DIFF); *max and *over get the largest load and the number of
 * links above cap; with collect, the overloaded links go to sim->over.  *tcd is the step's
 * summed route length, or < 0 if unknown: then it is computed (along the way, when the step
 * has so many transfers that the difference arrays are sure to be taken). */
static int count_loads(Sim *sim, int32_t st, int64_t *tcd, int32_t cap, bool collect,
                       int32_t *max, int64_t *nover, bool *oom)
{
    const SchedFlat *f = sim_flat(sim, st);
    if (!f) {
        *oom = true;
        return SIM_PATH_DIRECT;
    }
    if (sim->full)
        return full_loads(sim, f, tcd, cap, collect, max, nover, oom);
    int32_t *load = sim->load;
    int32_t mx = 0;
    int64_t ov = 0;
    Piece pc[MAXPIECES];
    int path = sim_load_path;
    if (path != SIM_PATH_DIRECT && path != SIM_PATH_DIFF && *tcd < 0 &&
        f->n * 4 >= sim->nlinks)
        path = SIM_PATH_DIFF;   /* every route has a link: tcd * 4 >= nlinks */
    if (path != SIM_PATH_DIRECT && path != SIM_PATH_DIFF) {
        if (*tcd < 0) {
            *tcd = 0;
            for (int64_t i = 0; i < f->n; i++)
                *tcd += xfer_len(sim, XVP(f, i));
        }
        path = *tcd * 4 < sim->nlinks ? SIM_PATH_DIRECT : SIM_PATH_DIFF;
    }
    int64_t len_sum = 0;
    sim->nover = 0;
    if (path == SIM_PATH_DIRECT) {
        for (int64_t i = 0; i < f->n; i++) {
            int32_t len;
            int np = route_pieces(sim, XVP(f, i), pc, &len);
            len_sum += len;
            for (int k = 0; k < np; k++) {
                for (int64_t j = pc[k].a; j <= pc[k].b; j++) {
                    int32_t v = ++load[j];
                    if (v > mx)
                        mx = v;
                    if (v == cap + 1) {
                        ov++;
                        if (collect && !push_over(sim, j))
                            *oom = true;
                    }
                }
            }
        }
    } else {
        /* +1/-1 per piece, then a running sum over each line touched (only those) */
        if (!sim->linebit) {
            sim->linebit = big_zalloc((size_t)(sim->nlinks / 64 + 1) * sizeof *sim->linebit);
            if (!sim->linebit) {
                *oom = true;
                return path;
            }
        }
        sim->ntouched = 0;
        /* pipelined: the pieces of transfer i are computed (and their loads prefetched)
         * PREFETCH transfers before they are counted */
        Piece ring[RING][MAXPIECES];
        int rnp[RING];
        for (int64_t i = 0; i < f->n + PREFETCH; i++) {
            if (i < f->n) {
                int slot = (int)(i & (RING - 1));
                Piece *q = ring[slot];
                int32_t len;
                rnp[slot] = route_pieces(sim, XVP(f, i), q, &len);
                len_sum += len;
                for (int k = 0; k < rnp[slot]; k++) {
                    __builtin_prefetch(&load[q[k].a], 1);
                    __builtin_prefetch(&load[q[k].b + 1], 1);
                }
            }
            if (i < PREFETCH)
                continue;
            int slot = (int)((i - PREFETCH) & (RING - 1));
            int np = rnp[slot];
            memcpy(pc, ring[slot], (size_t)np * sizeof *pc);
            for (int k = 0; k < np; k++) {
                int64_t ls = pc[k].start;
                uint64_t bit = (uint64_t)1 << (ls & 63);
                if (!(sim->linebit[ls >> 6] & bit)) {
                    sim->linebit[ls >> 6] |= bit;
                    if (!push_touched(sim, ls, pc[k].n)) {
                        *oom = true;
                        return path;
                    }
                }
                load[pc[k].a]++;
                if (pc[k].b + 1 < ls + pc[k].n)
                    load[pc[k].b + 1]--;
            }
        }
        for (int64_t t = 0; t < sim->ntouched; t++) {
            int64_t a = sim->touched[2 * t], e = a + sim->touched[2 * t + 1];
            int32_t run = 0;
            for (int64_t j = a; j < e; j++) {
                run += load[j];
                load[j] = run;
                if (run > mx)
                    mx = run;
                if (run > cap) {
                    ov++;
                    if (collect && !push_over(sim, j))
                        *oom = true;
                }
            }
        }
    }
    *max = mx;
    *nover = ov;
    if (*tcd < 0)
        *tcd = len_sum;
    return path;
}

/* Zero sim->load after count_loads(st) took `path`. */
static void clear_loads(Sim *sim, int32_t st, int path)
{
    if (sim->full)
        return;   /* full_loads leaves nothing behind */
    if (path == SIM_PATH_DIRECT && sim->steps[st].tcd >= sim->nlinks / 8) {
        /* routes over an eighth of the links: one sweep beats walking them again */
        memset(sim->load, 0, (size_t)sim->nlinks * sizeof(int32_t));
    } else if (path == SIM_PATH_DIRECT) {
        const SchedFlat *f = sim_flat(sim, st);
        Piece pc[MAXPIECES];
        for (int64_t i = 0; f && i < f->n; i++) {
            int np = route_pieces(sim, XVP(f, i), pc, NULL);
            for (int k = 0; k < np; k++)
                memset(sim->load + pc[k].a, 0, (size_t)(pc[k].b - pc[k].a + 1) * sizeof(int32_t));
        }
    } else {
        for (int64_t t = 0; t < sim->ntouched; t++) {
            int64_t a = sim->touched[2 * t];
            memset(sim->load + a, 0, (size_t)sim->touched[2 * t + 1] * sizeof(int32_t));
            sim->linebit[a >> 6] &= ~((uint64_t)1 << (a & 63));
        }
        sim->ntouched = 0;
    }
}

/* Range maximum over sim->load: block maxima (level 0) and a sparse table over them. */
static bool rmq_build(Sim *sim)
{
    int64_t nb = (sim->nlinks + RMQ_BLOCK - 1) >> RMQ_SHIFT;
    /* A query never leaves one line of the net, so it spans at most longest/64 + 1 whole
     * blocks: the sparse table needs no level beyond that (5 instead of 17 on a 1024 x 1024
     * mesh). */
    int64_t longest = 1;
    for (int d = 0; d < sim->net->ndim; d++)
        if (sim->net->dims[d] > longest)
            longest = sim->net->dims[d];
    int64_t span = longest / RMQ_BLOCK + 1;
    if (span > nb)
        span = nb;
    int levels = 1;
    while (((int64_t)1 << levels) <= span)
        levels++;
    if (!sim->bmax) {
        sim->bmax = big_alloc((size_t)(nb * levels) * sizeof(int32_t), false);
        sim->bpre = big_alloc((size_t)sim->nlinks * sizeof(int32_t), false);
        sim->bsuf = big_alloc((size_t)sim->nlinks * sizeof(int32_t), false);
        if (!sim->bmax || !sim->bpre || !sim->bsuf) {
            free(sim->bmax);
            free(sim->bpre);
            free(sim->bsuf);
            sim->bmax = sim->bpre = sim->bsuf = NULL;
            return false;
        }
    }
    sim->nblocks = nb;
    sim->levels = levels;
    const int32_t *load = sim->load;
    int32_t *t = sim->bmax, *pre = sim->bpre, *suf = sim->bsuf;
    for (int64_t j = 0; j < nb; j++) {
        int64_t a = j << RMQ_SHIFT, b = a + RMQ_BLOCK;
        if (b > sim->nlinks)
            b = sim->nlinks;
        int32_t m = 0;
        for (int64_t i = a; i < b; i++) {
            if (load[i] > m)
                m = load[i];
            pre[i] = m;
        }
        t[j] = m;
        int32_t ms = 0;
        for (int64_t i = b; i-- > a;) {
            if (load[i] > ms)
                ms = load[i];
            suf[i] = ms;
        }
    }
    for (int l = 1; l < levels; l++) {
        int32_t *prev = t + (int64_t)(l - 1) * nb, *cur = t + (int64_t)l * nb;
        int64_t half = (int64_t)1 << (l - 1);
        for (int64_t j = 0; j + 2 * half <= nb; j++)
            cur[j] = prev[j] > prev[j + half] ? prev[j] : prev[j + half];
    }
    return true;
}

static inline int32_t scan_max(const int32_t *load, int64_t a, int64_t b)
{
    /* four independent maxima: no branch, no loop-carried chain of compares */
    int32_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;
    int64_t i = a;
    for (; i + 3 <= b; i += 4) {
        m0 = load[i] > m0 ? load[i] : m0;
        m1 = load[i + 1] > m1 ? load[i + 1] : m1;
        m2 = load[i + 2] > m2 ? load[i + 2] : m2;
        m3 = load[i + 3] > m3 ? load[i + 3] : m3;
    }
    for (; i <= b; i++)
        m0 = load[i] > m0 ? load[i] : m0;
    m0 = m1 > m0 ? m1 : m0;
    m2 = m3 > m2 ? m3 : m2;
    return m2 > m0 ? m2 : m0;
}

static int32_t rmq_query(const Sim *sim, int64_t a, int64_t b)
{
    int64_t ba = a >> RMQ_SHIFT, bb = b >> RMQ_SHIFT;
    if (ba == bb) {
        if ((b & (RMQ_BLOCK - 1)) == RMQ_BLOCK - 1 || b == sim->nlinks - 1)
            return sim->bsuf[a];    /* a to its block's end */
        if ((a & (RMQ_BLOCK - 1)) == 0)
            return sim->bpre[b];    /* its block's start to b */
        return scan_max(sim->load, a, b);
    }
    /* a's block from a, b's block up to b, the whole blocks between */
    int32_t m = sim->bsuf[a], m2 = sim->bpre[b];
    if (m2 > m)
        m = m2;
    int64_t ja = ba + 1, jb = bb - 1;
    if (ja > jb)
        return m;
    int64_t cnt = jb - ja + 1;
    int l = 63 - __builtin_clzll((unsigned long long)cnt);   /* floor(lg cnt) */
    const int32_t *row = sim->bmax + (int64_t)l * sim->nblocks;
    int32_t x = row[ja], y = row[jb - ((int64_t)1 << l) + 1];
    if (x > m)
        m = x;
    if (y > m)
        m = y;
    return m;
}

/* Bring into cache what rmq_query(a, b) will read. */
static inline void rmq_prefetch(const Sim *sim, int64_t a, int64_t b)
{
    int64_t ba = a >> RMQ_SHIFT, bb = b >> RMQ_SHIFT;
    __builtin_prefetch(&sim->bsuf[a]);
    __builtin_prefetch(&sim->bpre[b]);
    int64_t ja = ba + 1, jb = bb - 1;
    if (ja <= jb) {
        int l = 63 - __builtin_clzll((unsigned long long)(jb - ja + 1));
        const int32_t *row = sim->bmax + (int64_t)l * sim->nblocks;
        __builtin_prefetch(&row[ja]);
        __builtin_prefetch(&row[jb - ((int64_t)1 << l) + 1]);
    }
}

/* Busiest load on x's route: by walking (walk) or by the range-maximum structure. */
static int32_t xfer_maxload(const Sim *sim, const XV *x, bool walk)
{
    if (sim->full) {   /* the pair's link, from the step full_loads counted last */
        int64_t key = (int64_t)x->src * sim->net->size + x->dst, lo = 0, hi = sim->nfk;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (sim->fk[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        int32_t k = 0;
        while (lo + k < sim->nfk && sim->fk[lo + k] == key)
            k++;
        if (k < 1)
            k = 1;
        int32_t ms = sim->hx ? x->src / sim->hxB : 0, md = sim->hx ? x->dst / sim->hxB : 0;
        if (ms != md) {   /* hxbar: the channels out of and into the modules, too */
            int32_t a = chan_units(sim, sim->chan[2 * ms]), b = chan_units(sim, sim->chan[2 * md + 1]);
            if (a > k)
                k = a;
            if (b > k)
                k = b;
        }
        return k;
    }
    Piece pc[MAXPIECES];
    int np = route_pieces(sim, x, pc, NULL);
    int32_t m = 0;
    for (int k = 0; k < np; k++) {
        int32_t v = walk ? scan_max(sim->load, pc[k].a, pc[k].b) : rmq_query(sim, pc[k].a, pc[k].b);
        if (v > m)
            m = v;
    }
    return m;
}

/* ---- violations ---------------------------------------------------------------------------- */

static void add_viol(Sim *sim, SimViolation v)
{
    sim->tot.violations++;
    if (sim->nviol < SIM_MAXVIOL)
        sim->viol[sim->nviol++] = v;
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

static int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* ---- one step ------------------------------------------------------------------------------ */

static inline int32_t cap_of(const CostParams *p)
{
    return p->model == COST_SEIDEL ? (int32_t)1 << p->nu : 1;
}

static inline double ceil_div(int32_t k, int32_t cap)
{
    if (k <= cap)
        return 1.0;
    return (double)((k + cap - 1) / cap);
}


static bool ensure_x(Sim *sim, size_t n)
{
    if (n <= sim->capx)
        return true;
    size_t nc = sim->capx ? sim->capx : 64;
    while (nc < n)
        nc *= 2;
    /* per-step scratch: nothing to keep */
    free(sim->xk);
    free(sim->xb);
    sim->capx = 0;
    sim->xk = big_alloc(nc * sizeof *sim->xk, false);
    sim->xb = big_alloc(nc * sizeof *sim->xb, false);
    if (!sim->xk || !sim->xb)
        return false;
    sim->capx = nc;
    return true;
}

static bool ensure_tmp(Sim *sim, size_t n)
{
    if (n <= sim->captmp)
        return true;
    size_t nc = sim->captmp ? sim->captmp : 64;
    while (nc < n)
        nc *= 2;
    int32_t *t = realloc(sim->tmpnodes, nc * sizeof *t);
    if (!t)
        return false;
    sim->tmpnodes = t;
    sim->captmp = nc;
    return true;
}

/* The per-node sums of seidel's serialisation and of local operations, allocated the first
 * time a step needs them (never for broadcasts without port conflicts). */
/* The per-node send and receive counts (zero), made once. */
static bool ensure_ports(Sim *sim)
{
    if (sim->sends && sim->recvs)
        return true;
    size_t size = (size_t)sim->net->size;
    if (!sim->sends)
        sim->sends = big_zalloc(size * sizeof *sim->sends);
    if (!sim->recvs)
        sim->recvs = big_zalloc(size * sizeof *sim->recvs);
    return sim->sends && sim->recvs;
}

static bool ensure_sums(Sim *sim)
{
    if (sim->ssum)
        return true;
    size_t size = (size_t)sim->net->size;
    sim->ssum = big_zalloc(size * sizeof *sim->ssum);
    sim->rsum = big_zalloc(size * sizeof *sim->rsum);
    return sim->ssum && sim->rsum;
}

/* Byte counts add up saturating at UINT64_MAX: a huge message (--bytes near 2^64) times many
 * transfers must not wrap round to a small number. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t xfer_bytes(const Sim *sim, const XV *x)
{
    const Sched *s = sim->s;
    const ChunkRange *r = x->r;
    uint64_t b = 0;
    if (sim->uniform && x->nr == 1)   /* the common transfer */
        return (uint64_t)(r[0].hi - r[0].lo) * sim->per_chunk;
    if (sim->uniform) {   /* (hi-lo)*per_chunk <= bytes: no overflow */
        for (uint32_t k = 0; k < x->nr; k++)
            b += (uint64_t)(r[k].hi - r[k].lo) * sim->per_chunk;
        return b;
    }
    for (uint32_t k = 0; k < x->nr; k++)
        b += sched_range_bytes(s, r[k].lo, r[k].hi);
    return b;
}

/* For a step whose loads are counted (by `path`), whose largest load is mx and whose largest
 * transfer carries bmax bytes: no transfer can cost more than top = ceil(mx/2^nu)*a*bmax + b
 * (a, b >= 0), so the first transfer that costs exactly top is the one a scan for the
 * costliest transfer picks.  Finds it, its load put in sim->xk, asking for the loads only of
 * transfers whose bytes could reach top; routes are walked while that is cheap against the
 * size of the net, then the range-maximum structure answers.  -1 if no transfer costs top
 * (the caller then prices every transfer), -2 when memory runs out. */
static int64_t first_at_cost(Sim *sim, const SchedFlat *f, int path, int32_t mx, uint64_t bmax)
{
    const CostParams *p = &sim->p;
    int32_t cap = cap_of(p);
    double mtop = ceil_div(mx, cap);
    double top = mtop * p->a * (double)bmax + p->b;
    int64_t budget = sim->nlinks / 4 + 64;   /* links walked before the structure pays */
    bool walk = true;
    for (int64_t i = 0; i < f->n; i++) {
        double B = (double)sim->xb[i];
        if (mtop * p->a * B + p->b < top)
            continue;                         /* even over a busiest link it costs less */
        if (walk && path != SIM_PATH_DIRECT && budget < 0) {
            if (!rmq_build(sim))
                return -2;
            walk = false;
        }
        const XV *x = XVP(f, i);
        if (walk)
            budget -= xfer_len(sim, x);
        int32_t k = xfer_maxload(sim, x, walk);
        if (ceil_div(k, cap) * p->a * B + p->b == top) {
            sim->xk[i] = k;
            return i;
        }
    }
    return -1;
}

/* The link-load half of a step, which a second thread can do while the first checks the
 * sends and, later, hands out the receives: it touches only the loads and what belongs to
 * them (load, linebit, touched, over, the range-maximum arrays), the other half only the
 * holdings, ports, per-transfer bytes and violations; both only read the step's flat view. */
typedef struct {
    Sim *sim;
    const SchedFlat *f;
    int32_t st, cap;
    bool collect;
    int64_t tcd;
    int path;
    int32_t mx;
    int64_t nover;
    bool oom;
} LoadJob;

static int load_count_job(void *arg)
{
    LoadJob *j = arg;
    j->tcd = -1;
    j->path = count_loads(j->sim, j->st, &j->tcd, j->cap, j->collect, &j->mx, &j->nover,
                          &j->oom);
    return 0;
}

/* Clear the step's loads, then make the next step's flat view if it has rules (the step
 * being received reads only its own). */
static int load_clear_job(void *arg)
{
    LoadJob *j = arg;
    Sim *sim = j->sim;
    clear_loads(sim, j->st, j->path);
    int32_t nx = j->st + 1;
    if (nx < sim->nsteps && sim->s->steps[nx].nrule > 0 &&
        sched_flat(sim->s, nx, &sim->nbuf, &sim->next))
        sim->next_step = nx;
    return 0;
}

/* Circuit model, all-port: port_conflicts become the circuits over one per port, each
 * overloaded port a violation.  A port used twice is an arc used twice, so a step without an
 * overloaded arc has none to look for (circuit.h). */
static bool allport_step(Sim *sim, int32_t st, SimStep *out)
{
    if (sim->full)   /* full:P, hxbar: a link per pair, no grid ports */
        return true;
    out->port_conflicts = 0;
    if (sim->nover == 0)
        return true;
    CircuitPort *p;
    int64_t np = circuit_port_overloads(sim->s, st, &p);
    if (np < 0)
        return false;
    for (int64_t i = 0; i < np; i++) {
        out->port_conflicts += p[i].count - 1;
        add_viol(sim, (SimViolation){ .kind = SIM_V_ALLPORT, .step = st, .node = p[i].node,
                                      .link = p[i].link, .transfer = -1, .load = p[i].count,
                                      .recvs = p[i].in });
        out->violations++;
    }
    free(p);
    return true;
}

/* Seidel, a step in which some node sends or receives more than once: its sub-rounds
 * (subround.h), each priced as a one-port step by its costliest transfer (loads counting only
 * that sub-round's circuits), added up.  The breakdown adds up those transfers' terms; the
 * critical node is the one with the most sends or receives, which forces the sub-rounds
 * (ties: the first in transfer order, senders before receivers).  A link's load is the most
 * circuits on it in one sub-round (max_link_load, link_overloads, sim_link_load). */
static bool sub_price(Sim *sim, int32_t st, const SchedFlat *f, int32_t cap, SimStep *out,
                      double *startup, double *trans, double *cont)
{
    const CostParams *p = &sim->p;
    int64_t n = f->n;
    if (!sim->sub && !(sim->sub = subround_new(sim->net)))
        return false;
    int32_t nsub = subround_split(sim->sub, sim->s, st, cap);
    if (nsub < 0)
        return false;
    const int32_t *rd = subround_of(sim->sub), *k = subround_load(sim->sub);
    double *best = calloc((size_t)nsub, sizeof *best);
    int64_t *arg = malloc((size_t)nsub * sizeof *arg);
    if (!best || !arg) {
        free(best);
        free(arg);
        return false;
    }
    for (int32_t r = 0; r < nsub; r++)
        best[r] = -1;
    for (int64_t i = 0; i < n; i++) {
        double c = ceil_div(k[i], cap) * p->a * (double)sim->xb[i] + p->b;
        if (c > best[rd[i]]) {
            best[rd[i]] = c;
            arg[rd[i]] = i;
        }
    }
    *startup = *trans = *cont = 0;
    for (int32_t r = 0; r < nsub; r++) {
        int64_t i = arg[r];
        double ab = p->a * (double)sim->xb[i];
        *startup += p->b;
        *trans += ab;
        *cont += (ceil_div(k[i], cap) - 1) * ab;
    }
    int32_t most = 0;
    for (int64_t i = 0; i < n; i++)
        if (sim->sends[f->x[i].src] > most) {
            most = sim->sends[f->x[i].src];
            out->critical_node = f->x[i].src;
        }
    for (int64_t i = 0; i < n; i++)
        if (sim->recvs[f->x[i].dst] > most) {
            most = sim->recvs[f->x[i].dst];
            out->critical_node = f->x[i].dst;
        }
    free(best);
    free(arg);
    out->subrounds = nsub;
    out->max_link_load = subround_maxload(sim->sub);
    out->link_overloads = subround_overloads(sim->sub);
    return true;
}

/* True if steps a and b are made of the same edge blocks (sched_send_edges) and nothing else:
 * the same circuits, other chunks (a pipeline's middle steps), so the same link loads. */
static bool same_routes(const Sched *s, int32_t a, int32_t b)
{
    const SchedStep *x = &s->steps[a], *y = &s->steps[b];
    if (x->n || y->n || x->nrule != y->nrule || x->nrule == 0)
        return false;
    for (int32_t q = 0; q < x->nrule; q++)
        if (!sched_rule_is_edges(&x->rule[q]) || !sched_rule_is_edges(&y->rule[q]) ||
            x->rule[q].e0 != y->rule[q].e0 ||
            x->rule[q].count != y->rule[q].count)
            return false;
    return true;
}

/* sim->edisj: when every step is made of edge blocks only and no two edges of the table (nor
 * one route twice) use an arc, the lengths of the edges summed (see run_step); else NULL.
 * False when memory runs out. */
static bool edges_disjoint(Sim *sim)
{
    const Sched *s = sim->s;
    int64_t ne = s->nedges;
    if (sim->full || !sched_edges_only(s))
        return true;
    uint8_t *use = calloc((size_t)sim->nlinks, 1);
    int64_t *len = malloc(sizeof *len * (size_t)(ne + 1));
    if (!use || !len) {
        free(use);
        free(len);
        return false;
    }
    bool disj = true;
    len[0] = 0;
    for (int64_t e = 0; e < ne && disj; e++) {
        const SchedEdge *x = &s->edges[e];
        XV v = { x->src, x->dst, 1, x->route, NULL };
        Piece pc[MAXPIECES];
        int32_t l = 0;
        int np = route_pieces(sim, &v, pc, &l);
        for (int k = 0; k < np && disj; k++)
            for (int64_t j = pc[k].a; j <= pc[k].b && disj; j++)
                disj = use[j]++ == 0;
        len[e + 1] = len[e] + l;
    }
    free(use);
    if (disj)
        sim->edisj = len;
    else
        free(len);
    return true;
}

/* With sim->edisj: a step of edge blocks that name no edge twice loads every arc of its
 * routes once: its TCD (> 0), or -1 when it is not such a step. */
#define EDISJ_MAXBLOCKS 64

static int64_t edges_once_tcd(const Sim *sim, const SchedStep *ss)
{
    if (!sim->edisj || ss->n > 0 || ss->nrule == 0 || ss->nrule > EDISJ_MAXBLOCKS)
        return -1;
    int64_t tcd = 0;
    for (int32_t q = 0; q < ss->nrule; q++) {
        const SchedRule *r = &ss->rule[q];
        for (int32_t k = 0; k < q; k++) {
            const SchedRule *o = &ss->rule[k];
            if (r->e0 < o->e0 + o->count && o->e0 < r->e0 + r->count)
                return -1;   /* an edge twice */
        }
        tcd += sim->edisj[r->e0 + r->count] - sim->edisj[r->e0];
    }
    return tcd;
}

static bool run_step(Sim *sim, int32_t st)
{
    const Sched *s = sim->s;
    const SchedStep *ss = &s->steps[st];
    const SchedFlat *f = sim_flat(sim, st);
    if (!f)
        return false;
    const CostParams *p = &sim->p;
    SimStep *out = &sim->steps[st];
    int64_t n = f->n;
    memset(out, 0, sizeof *out);
    out->critical_node = -1;
    out->ntransfers = n;
    if (!ensure_x(sim, (size_t)n))
        return false;

    /* 2 (on a second thread for a big step). link loads */
    LoadJob job = { sim, f, st, cap_of(p), p->model == COST_CIRCUIT, 0, SIM_PATH_DIRECT, 0, 0,
                    false };
    thrd_t helper;
    /* a step of the same circuits as the step before, which had no link over its capacity:
     * the same loads (none over), nothing counted, nothing to clear */
    bool reuse = n > 0 && st > 0 && sim->clean_step == st - 1 && same_routes(s, st - 1, st);
    if (reuse) {
        job.tcd = sim->clean_tcd;
        job.mx = sim->clean_mx;
        job.path = SIM_PATH_AUTO;   /* (read by nothing: no loads needed) */
    }
    /* edge blocks on arcs of their own, no edge twice: every arc used carries one circuit,
     * nothing to count (nor, below, to clear) */
    int64_t once = reuse || n == 0 ? -1 : edges_once_tcd(sim, ss);
    bool same = reuse;   /* (the same routes as the step before) */
    if (once >= 0) {
        reuse = true;    /* (from here: no loads to count or clear) */
        job.tcd = once;
        job.mx = 1;
        job.path = SIM_PATH_AUTO;
        sim->nover = 0;
    }
    /* (on full:P the loads follow from the port counts of pass 1: no second thread) */
    bool par = !reuse && n > 0 && n >= sim_par_min && !sim->full &&
               thrd_create(&helper, load_count_job, &job) == thrd_success;

    /* 1. sends against start-of-step holdings; bytes, lengths, ports */
    uint64_t bytes = 0;
    int64_t conflicts = 0, multisend = 0, mixed = 0;
    uint64_t bmax = 0;   /* the most bytes one transfer carries ... */
    int64_t barg = 0;    /* ... first by */
    bool keepxb = p->model == COST_SEIDEL;   /* seidel prices them after pass 1 */
    /* circuit, saf: the costliest transfer (the first of them) and the longest route, priced
     * here (alpha + d delta + B tau; d beta + d B tau) */
    bool lenpass = p->model == COST_CIRCUIT || p->model == COST_SAF;
    double cbest = -1, csu = 0, ctr = 0;
    int32_t ccrit = -1;
    int64_t cmaxlen = 0;
    /* a step of the same edge blocks as the step before (same: in order, so the same routes
     * transfer by transfer), each sending one chunk of the same size: the same costliest
     * transfer, first at the same place */
    bool samelen = lenpass && same && sim->uniform;
    if (samelen) {
        cbest = sim->lenp.cbest, csu = sim->lenp.csu, ctr = sim->lenp.ctr;
        ccrit = sim->lenp.ccrit;
        cmaxlen = sim->lenp.cmaxlen;
        lenpass = false;
    }
    /* Sends and receives per node (one-port conflicts); not under circuit on a grid, whose
     * port rule allport_step checks from the arcs (a port used twice is an arc used twice) */
    bool ports = p->model != COST_CIRCUIT || sim->full;
    for (int64_t i = 0; i < n; i++) {
        const XV xv_ = xv(f, i), *x = &xv_;
        if (i + 2 * PREFETCH < n) {   /* the Hold itself, then (below) its heap; the ports */
            const SchedXfer *y = &f->x[i + 2 * PREFETCH];
            HOLD_FETCH(&sim->hold[y->src], 0);
            if (ports) {
                __builtin_prefetch(&sim->sends[y->src], 1);
                __builtin_prefetch(&sim->recvs[y->dst], 1);
            }
        }
        if (i + PREFETCH < n)
            hold_prefetch(&sim->hold[f->x[i + PREFETCH].src]);
        const ChunkRange *r = x->r;
        uint32_t miss, kmiss;
        if (x->nr && !hold_contains_all(&sim->hold[x->src], r, x->nr, &kmiss, &miss)) {
            add_viol(sim, (SimViolation){ .kind = SIM_V_NOT_HELD, .step = st, .node = x->src,
                                          .link = -1, .chunk = miss, .transfer = i });
            sim->tot.not_held++;
            out->violations++;
        }
        uint64_t b = xfer_bytes(sim, x);
        if (keepxb)
            sim->xb[i] = b;
        if (b > bmax) {
            bmax = b;
            barg = i;
        }
        bytes = sat_add(bytes, b);
        if (lenpass) {
            int32_t len = xfer_len(sim, x);
            if (len > cmaxlen)
                cmaxlen = len;
            double d = len, B = (double)b, su, tr;
            if (p->model == COST_SAF) {
                su = d * p->beta;
                tr = d * B * p->tau;
            } else {
                su = p->alpha + d * p->delta;
                tr = B * p->tau;
            }
            if (su + tr > cbest) {
                cbest = su + tr;
                csu = su;
                ctr = tr;
                ccrit = x->src;
            }
        }
        if (!ports)
            continue;
        if (++sim->sends[x->src] > 1) {
            conflicts++;
            multisend++;
        }
        if (++sim->recvs[x->dst] > 1)
            conflicts++;
        /* a node that both sends and receives is counted when the later of the two comes */
        if (!p->duplex) {
            mixed += sim->recvs[x->src] > 0;
            mixed += sim->sends[x->dst] > 0;
        }
    }
    out->bytes = bytes;
    out->max_bytes = bmax;
    out->port_conflicts = conflicts;
    if (lenpass || samelen) {
        sim->lenp.cbest = cbest, sim->lenp.csu = csu, sim->lenp.ctr = ctr;
        sim->lenp.ccrit = ccrit;
        sim->lenp.cmaxlen = cmaxlen;
    }

    if (par) {
        thrd_join(helper, NULL);
    } else if (n > 0 && !reuse && sim->full && !sim->hx && multisend == 0) {
        /* full:P, nobody sends twice: every pair link carries one transfer (full_loads' result
         * without its passes) */
        sim->nover = 0;
        sim->nfk = 0;
        job.tcd = n;
        job.mx = 1;
        job.nover = 0;
        job.path = SIM_PATH_DIRECT;
    } else if (n > 0 && !reuse) {
        load_count_job(&job);
    }
    out->tcd = n > 0 ? job.tcd : 0;
    int32_t cap = job.cap;
    bool circuit = job.collect;
    int path = job.path;
    int32_t mx = job.mx;
    int64_t nover = job.nover;
    if (job.oom)
        return false;
    out->max_link_load = mx;
    out->link_overloads = nover;
    out->max_channel_load = sim->hx && n > 0 ? sim->chan_raw : 0;
    sim->clean_step = nover == 0 && mx <= cap ? st : -1;
    sim->clean_tcd = job.tcd;
    sim->clean_mx = mx;
    if (circuit && sim->nover > 0) {
        /* report in link-id order, whichever path counted them */
        for (int64_t j = 0; !sim->full && j < sim->nover; j++)
            sim->over[j] = layout_link(sim, sim->over[j]);
        qsort(sim->over, (size_t)sim->nover, sizeof *sim->over, cmp_i64);
        for (int64_t j = 0; j < sim->nover; j++) {
            int64_t link = sim->over[j];
            int32_t ld = sim->full ? full_pair_count(sim, f, link)
                                   : sim->load[link_layout(sim, link)];
            add_viol(sim, (SimViolation){ .kind = SIM_V_LINK, .step = st, .node = -1,
                                          .link = link, .transfer = -1, .load = ld });
            out->violations++;
        }
    }
    if (circuit && !allport_step(sim, st, out))
        return false;

    /* 3. cost */
    double comm = 0, startup = 0, trans = 0, cont = 0;
    if (n > 0) {
        switch (p->model) {
        case COST_SEIDEL: {
            bool needk = mx > cap;
            /* Each node sends and receives at most once: the step costs what its costliest
             * transfer costs, at most that of the biggest over a busiest link; usually some
             * transfer costs that, and only the first one needs its load (first_at_cost). */
            bool onek = needk && conflicts == 0;
            int64_t first = onek ? first_at_cost(sim, f, path, mx, bmax) : -1;
            if (first == -2)
                return false;
            if (needk && first < 0 && conflicts == 0) {
                bool walk = path == SIM_PATH_DIRECT;
                if (!walk && !rmq_build(sim))
                    return false;
                if (walk) {
                    for (int64_t i = 0; i < n; i++)
                        sim->xk[i] = xfer_maxload(sim, XVP(f, i), true);
                } else {
                    /* pipelined like count_loads: the range-maximum entries of transfer
                     * i + PREFETCH are prefetched while transfer i is answered */
                    Piece ring[RING][MAXPIECES];
                    int rnp[RING];
                    for (int64_t i = 0; i < n + PREFETCH; i++) {
                        if (i < n) {
                            int slot = (int)(i & (RING - 1));
                            rnp[slot] = route_pieces(sim, XVP(f, i), ring[slot], NULL);
                            for (int k = 0; k < rnp[slot]; k++)
                                rmq_prefetch(sim, ring[slot][k].a, ring[slot][k].b);
                        }
                        if (i < PREFETCH)
                            continue;
                        int slot = (int)((i - PREFETCH) & (RING - 1));
                        int32_t m = 0;
                        for (int k = 0; k < rnp[slot]; k++) {
                            int32_t v = rmq_query(sim, ring[slot][k].a, ring[slot][k].b);
                            if (v > m)
                                m = v;
                        }
                        sim->xk[i - PREFETCH] = m;
                    }
                }
            }
            if (conflicts == 0) {
                /* every node sends and receives at most once: the costliest transfer */
                double best = -1;
                int64_t arg = first >= 0 ? first : 0;
                for (int64_t i = 0; first < 0 && i < n; i++) {
                    double m = needk ? ceil_div(sim->xk[i], cap) : 1.0;
                    double c = m * p->a * (double)sim->xb[i] + p->b;
                    if (c > best) {
                        best = c;
                        arg = i;
                    }
                }
                int32_t crit = f->x[arg].src;
                double m = needk ? ceil_div(sim->xk[arg], cap) : 1.0;
                double ab = p->a * (double)sim->xb[arg];
                startup = p->b;
                trans = ab;
                cont = (m - 1) * ab;
                comm = startup + trans + cont;
                out->critical_node = crit;
                out->subrounds = 1;
                break;
            }
            /* some node sends or receives more than once: sub-rounds (subround.h) */
            if (!sub_price(sim, st, f, cap, out, &startup, &trans, &cont))
                return false;
            comm = startup + trans + cont;
            break;
        }
        case COST_POSTAL: {
            startup = p->t;
            trans = p->beta * (double)bmax;
            comm = startup + trans;
            out->critical_node = f->x[barg].src;
            /* port rule: broken only if a node sent or received twice (duplex), or did both
             * (simplex) */
            if (conflicts == 0 && (p->duplex || mixed == 0))
                break;
            size_t nbad = 0;
            if (!ensure_tmp(sim, (size_t)(2 * n)))
                return false;
            for (int64_t i = 0; i < n; i++) {
                int32_t ends[2] = { f->x[i].src, f->x[i].dst };
                for (int e = 0; e < 2; e++) {
                    int32_t v = ends[e];
                    int32_t sn = sim->sends[v], rc = sim->recvs[v];
                    bool bad = sn > 1 || rc > 1 || (!p->duplex && sn > 0 && rc > 0);
                    if (bad)
                        sim->tmpnodes[nbad++] = v;
                }
            }
            if (nbad) {
                qsort(sim->tmpnodes, nbad, sizeof *sim->tmpnodes, cmp_i32);
                for (size_t j = 0; j < nbad; j++) {
                    if (j && sim->tmpnodes[j] == sim->tmpnodes[j - 1])
                        continue;
                    int32_t v = sim->tmpnodes[j];
                    /* simplex: one port for both ways, so a node that sends and receives
                     * uses it once too often (besides its extra sends and receives) */
                    if (!p->duplex && sim->sends[v] > 0 && sim->recvs[v] > 0)
                        out->port_conflicts++;
                    add_viol(sim, (SimViolation){ .kind = SIM_V_PORT, .step = st, .node = v,
                                                  .link = -1, .transfer = -1,
                                                  .load = sim->sends[v], .recvs = sim->recvs[v] });
                    out->violations++;
                }
            }
            break;
        }
        case COST_CIRCUIT:
        case COST_SAF:
        default:   /* (priced in pass 1) */
            out->max_len = cmaxlen;
            startup = csu;
            trans = ctr;
            out->critical_node = ccrit;
            comm = startup + trans;
            break;
        }
    }
    /* (the loads are cleared while the receives are handed out, the port counts in that
     * pass) */

    /* 4. local operations: rho * (bytes on every node + the most on one node) */
    double local = 0;
    if (ss->nloc == 1) {
        /* one operation (on one node or on all): no per-node sums needed */
        local = p->rho * (double)ss->loc[0].bytes;
    } else if (ss->nloc > 1) {
        /* in doubles: sums of byte counts near 2^64 neither wrap nor convert back out of
         * range (a double >= 2^64 cast to uint64_t is undefined) */
        double all = 0, most = 0;
        if (!ensure_sums(sim))
            return false;
        for (int64_t i = 0; i < ss->nloc; i++) {
            if (ss->loc[i].node < 0)
                all += (double)ss->loc[i].bytes;
            else
                sim->ssum[ss->loc[i].node] += (double)ss->loc[i].bytes;
        }
        for (int64_t i = 0; i < ss->nloc; i++) {
            int32_t v = ss->loc[i].node;
            if (v >= 0 && sim->ssum[v] > most)
                most = sim->ssum[v];
        }
        for (int64_t i = 0; i < ss->nloc; i++)
            if (ss->loc[i].node >= 0)
                sim->ssum[ss->loc[i].node] = 0;
        local = p->rho * (all + most);
    }

    out->cost.startup = startup;
    out->cost.transmission = trans;
    out->cost.contention = cont;
    out->cost.permutation = local;
    out->cost.total = comm + local;

    /* 5. receives (and the loads cleared, on the second thread for a big step) */
    par = n > 0 && !reuse && n >= sim_par_min &&
          thrd_create(&helper, load_clear_job, &job) == thrd_success;
    if (!par && n > 0 && !reuse)
        clear_loads(sim, st, path);
    bool ok = true;
    for (int64_t i = 0; ok && i < n; i++) {
        const XV xv_ = xv(f, i), *x = &xv_;
        if (ports) {
            sim->sends[x->src] = 0;
            sim->recvs[x->dst] = 0;
        }
        if (i + 2 * PREFETCH < n) {
            const SchedXfer *y = &f->x[i + 2 * PREFETCH];
            HOLD_FETCH(&sim->hold[y->dst], 1);
            if (ports) {
                __builtin_prefetch(&sim->sends[y->src], 1);
                __builtin_prefetch(&sim->recvs[y->dst], 1);
            }
        }
        if (i + PREFETCH < n)
            hold_prefetch(&sim->hold[f->x[i + PREFETCH].dst]);
        size_t had;
        hold_ranges(&sim->hold[x->dst], &had);
        ok = receive_all(sim, x->dst, x->r, x->nr, (sim->xstart ? sim->xstart[st] : 0) + i);
        if (had == 0 && x->nr > 0)
            sim->informed++;   /* its first chunks: the node is informed from now on */
    }
    out->informed = sim->informed;
    if (par)
        thrd_join(helper, NULL);
    return ok;
}

/* Every node's holdings back to the givens (what it holds before the first step); any it had
 * are dropped. */
static bool hold_givens(Sim *sim)
{
    const Sched *s = sim->s;
    for (int32_t v = 0; v < sim->net->size; v++) {
        Hold *h = &sim->hold[v];
        if (h->cap)
            free(h->u.h.base);
        memset(h, 0, sizeof *h);
    }
    for (size_t i = 0; i < s->ngiven; i++)
        if (!hold_add(&sim->hold[s->gnode[i]], s->grange[i].lo, s->grange[i].hi))
            return false;
    return true;
}

/* ---- public -------------------------------------------------------------------------------- */

void sim_free(Sim *sim)
{
    if (!sim)
        return;
    if (sim->hold) {
        for (int32_t v = 0; v < sim->net->size; v++)
            if (sim->hold[v].cap)
                free(sim->hold[v].u.h.base);
        free(sim->hold);
    }
    free(sim->steps);
    free(sim->cum);
    free(sim->viol);
    free(sim->chan);
    for (uint64_t b = 0; b < sim->ndblk; b++)
        free(sim->dblk[b]);
    free(sim->dblk);
    free(sim->dstart);
    free(sim->xstart);
    free(sim->xnew);
    free(sim->load);
    free(sim->linkload);
    free(sim->bmax);
    free(sim->over);
    free(sim->fk);
    free(sim->linebit);
    free(sim->touched);
    subround_free(sim->sub);
    free(sim->sends);
    free(sim->recvs);
    free(sim->ssum);
    free(sim->rsum);
    free(sim->xk);
    free(sim->xb);
    free(sim->bpre);
    free(sim->bsuf);
    free(sim->tmpnodes);
    free(sim->edisj);
    sched_flatbuf_free(&sim->fbuf);
    sched_flatbuf_free(&sim->nbuf);
    if (sim->ajob.on) {
        atomic_store(&sim->ajob.stop, true);
        thrd_join(sim->ajob.t, NULL);
    }
    sim_async_free(sim_async_end(sim->arun, NULL, 0));
    sim_async_free(sim->async);
    free(sim);
}

SimAsync *sim_async_take(Sim *sim, char *err, size_t errlen)
{
    if (!sim || !sim->async) {
        snprintf(err, errlen, "%s", sim && sim->aerr[0] ? sim->aerr : "async: not timed");
        return NULL;
    }
    SimAsync *a = sim->async;
    sim->async = NULL;
    return a;
}

static Sim *run_steps(const Sched *s, const CostParams *p, unsigned flags, int32_t nrun,
                      char *err, size_t errlen);

Sim *sim_run(const Sched *s, const CostParams *p, unsigned flags, char *err, size_t errlen)
{
    return run_steps(s, p, flags, -1, err, errlen);
}

Sim *sim_run_prefix(const Sched *s, const CostParams *p, unsigned flags, int32_t nsteps,
                    char *err, size_t errlen)
{
    if (nsteps < 0) {
        err_set(err, errlen, "sim: a negative number of steps");
        return NULL;
    }
    return run_steps(s, p, flags, nsteps, err, errlen);
}

/* Simulate the first nrun steps of s (all of them when nrun < 0 or more than s has). */
static Sim *run_steps(const Sched *s, const CostParams *p, unsigned flags, int32_t nrun,
                      char *err, size_t errlen)
{
    if (!s || !p) {
        err_set(err, errlen, "sim: no schedule or no cost parameters");
        return NULL;
    }
    if (sched_error(s)) {
        err_set(err, errlen, "bad schedule: %s", sched_error(s));
        return NULL;
    }
    if ((unsigned)p->model >= COST_NMODELS || p->nu < 0 || p->nu > COST_NU_MAX) {
        err_set(err, errlen, "sim: bad cost parameters");
        return NULL;
    }
    const Net *net = s->net;
    Sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        goto oom;
    sim->s = s;
    sim->net = net;
    sim->p = *p;
    sim->flags = flags;
    sim->nsteps = nrun >= 0 && nrun < s->nsteps ? nrun : s->nsteps;
    bool prefix = sim->nsteps < s->nsteps;
    sim->cache_step = sim->linkload_step = sim->port_step = sim->rmq_step = -1;
    sim->flat_step = sim->next_step = -1;
    sim->clean_step = -1;
    sim->nlinks = net_nlinks(net);
    sim->full = net_pairwise(net);
    sim->hx = net->kind == NET_HXBAR;
    sim->hxA = net->modules;
    sim->hxB = net->per;
    sim->hxC = net->channels;
    sim->pow2 = true;
    for (int d = 0; d < net->ndim; d++) {
        int32_t v = net->dims[d];
        int sh = 0;
        while (sh < 31 && (INT32_C(1) << sh) < v)
            sh++;
        sim->dshift[d] = sh;
        if ((INT32_C(1) << sh) != v)
            sim->pow2 = false;
    }
    sim->uniform = s->bytes % s->nchunks == 0;
    sim->per_chunk = s->bytes / s->nchunks;
    for (int d = 0; d < net->ndim; d++) {
        for (int b = 0; b < 2; b++)
            sim->base[d][b] = (int64_t)(2 * d + b) * net->size;
        for (int e = 0; e < net->ndim; e++) {
            int64_t st = 1;
            for (int f = e + 1; f < net->ndim; f++)
                if (f != d)
                    st *= net->dims[f];
            sim->lstride[d][e] = st;
        }
    }
    size_t size = (size_t)net->size;
    sim->steps = calloc((size_t)sim->nsteps + 1, sizeof *sim->steps);
    sim->cum = calloc((size_t)sim->nsteps + 1, sizeof *sim->cum);
    sim->viol = malloc(SIM_MAXVIOL * sizeof *sim->viol);
    sim->hold = big_zalloc(size * sizeof *sim->hold);
    /* full: per-node scratch (see full_loads), not per link */
    sim->load = big_zalloc(((size_t)(sim->full ? net->size : sim->nlinks) + 1) *
                           sizeof *sim->load);
    /* per-node sends and receives: only where run_step counts them (not under circuit on a
     * grid), else made when sim_port_counts first asks */
    if ((p->model != COST_CIRCUIT || sim->full) && !ensure_ports(sim))
        goto oom;
    if (sim->hx)
        sim->chan = calloc(2 * (size_t)sim->hxA, sizeof *sim->chan);
    if (!sim->steps || !sim->cum || !sim->viol || !sim->hold || !sim->load ||
        (sim->hx && !sim->chan))
        goto oom;
    if (flags & SIM_HISTORY) {
        sim->dstart = calloc((size_t)sim->nsteps + 1, sizeof *sim->dstart);
        sim->xstart = calloc((size_t)sim->nsteps + 1, sizeof *sim->xstart);
        if (!sim->dstart || !sim->xstart)
            goto oom;
        for (int32_t st = 0; st < sim->nsteps; st++)
            sim->xstart[st + 1] = sim->xstart[st] + sched_ntransfers(s, st);
        sim->xnew = big_zalloc(((size_t)sim->xstart[sim->nsteps] / 64 + 1) * sizeof *sim->xnew);
        if (!sim->xnew)
            goto oom;
    }
    if (!hold_givens(sim) || !edges_disjoint(sim))
        goto oom;
    if (flags & SIM_ASYNC)   /* (if it cannot be timed, the replay goes on: sim_async_take) */
        sim->arun = sim_async_begin(s, p, 0, sim->aerr, sizeof sim->aerr);
    if (sim->arun && sim_async_own_steps(sim->arun) && sched_total_transfers(s) >= sim_par_min) {
        sim->ajob.r = sim->arun;
        sim->ajob.nsteps = sim->nsteps;
        atomic_init(&sim->ajob.stop, false);
        sim->ajob.on = thrd_create(&sim->ajob.t, async_job, &sim->ajob) == thrd_success;
    }
    int64_t maxn = 0;   /* the per-transfer scratch, once, at its largest */
    for (int32_t st = 0; st < sim->nsteps; st++)
        if (sched_ntransfers(s, st) > maxn)
            maxn = sched_ntransfers(s, st);
    if (maxn > 0 && !ensure_x(sim, (size_t)maxn))
        goto oom;

    SimTotals *t = &sim->tot;
    t->nsteps = sim->nsteps;
    for (int32_t v = 0; v < net->size; v++) {
        size_t hn;
        hold_ranges(&sim->hold[v], &hn);
        sim->informed += hn > 0;
    }
    t->informed_before = sim->informed;
    double cum = 0;
    for (int32_t st = 0; st < sim->nsteps; st++) {
        progress_report(PROGRESS_SIM, st, sim->nsteps);
        if (progress_cancelled()) {
            sim_free(sim);
            err_set(err, errlen, "cancelled");
            return NULL;
        }
        if (sim->dstart)
            sim->dstart[st] = sim->ndelta;
        if (!run_step(sim, st))
            goto oom;
        /* the asynchronous timing, on the step's transfers as run_step left them */
        if (sim->arun && !sim->ajob.on && !sim_async_step(sim->arun, st, sim_flat(sim, st)))
            goto oom;
        const SimStep *o = &sim->steps[st];
        cum += o->cost.total;
        sim->cum[st] = cum;
        t->cost.total += o->cost.total;
        t->cost.startup += o->cost.startup;
        t->cost.transmission += o->cost.transmission;
        t->cost.contention += o->cost.contention;
        t->cost.permutation += o->cost.permutation;
        t->ntransfers += o->ntransfers;
        t->tcd += o->tcd;
        t->bytes = sat_add(t->bytes, o->bytes);
        if (o->max_link_load > t->max_link_load)
            t->max_link_load = o->max_link_load;
        if (o->max_channel_load > t->max_channel_load)
            t->max_channel_load = o->max_channel_load;
        t->link_overloads += o->link_overloads;
        t->port_conflicts += o->port_conflicts;
        t->subrounds += o->subrounds;
        if (o->subrounds > 1)
            t->split_steps++;
        if (o->ntransfers > 0)
            t->phases++;
        t->switch_hops += o->max_len;
        t->phase_bytes = sat_add(t->phase_bytes, o->max_bytes);
    }
    if (sim->dstart)
        sim->dstart[sim->nsteps] = sim->ndelta;
    sim->pos = sim->nsteps;
    /* a price of infinity (or NaN: inf - inf) would be shown as "null" and could win a
     * comparison: refused, whatever made it */
    if (!isfinite(t->cost.total) || !isfinite(t->cost.startup) ||
        !isfinite(t->cost.transmission) || !isfinite(t->cost.contention) ||
        !isfinite(t->cost.permutation)) {
        err_set(err, errlen, "the cost on %s " SIM_NOT_FINITE " (the cost "
                "parameters are too large)", net_spec(net));
        sim_free(sim);
        return NULL;
    }

    /* the end: every node must hold every chunk (a prefix is not the end: not verified) */
    for (int32_t v = 0; !prefix && v < net->size; v++) {
        uint32_t miss;
        if (!hold_contains(&sim->hold[v], 0, s->nchunks, &miss)) {
            t->incomplete_nodes++;
            add_viol(sim, (SimViolation){ .kind = SIM_V_INCOMPLETE, .step = sim->nsteps,
                                          .node = v, .link = -1, .chunk = miss,
                                          .transfer = -1 });
        }
    }
    t->verified = !prefix && t->not_held == 0 && t->incomplete_nodes == 0;
    t->valid = t->verified && t->violations == t->not_held + t->incomplete_nodes;
    if (sim->ajob.on) {
        thrd_join(sim->ajob.t, NULL);
        sim->ajob.on = false;
        if (!sim->ajob.ok)
            goto oom;
    }
    if (sim->arun) {
        sim->async = sim_async_end(sim->arun, sim->aerr, sizeof sim->aerr);
        sim->arun = NULL;
        if (!sim->async)
            goto oom;
    }
    /* The per-node cost sums and the view made ahead are only needed while running. */
    sched_flatbuf_free(&sim->nbuf);
    sim->next_step = -1;
    free(sim->ssum);
    free(sim->rsum);
    sim->ssum = sim->rsum = NULL;
    return sim;
oom:
    err_set(err, errlen, "out of memory simulating %s", net_spec(net));
    sim_free(sim);
    return NULL;
}

const Sched *sim_sched(const Sim *sim) { return sim ? sim->s : NULL; }
const CostParams *sim_params(const Sim *sim) { return sim ? &sim->p : NULL; }
const SimTotals *sim_totals(const Sim *sim) { return sim ? &sim->tot : NULL; }

const SimStep *sim_step(const Sim *sim, int32_t step)
{
    if (!sim || step < 0 || step >= sim->nsteps)
        return NULL;
    return &sim->steps[step];
}

double sim_cost_until(const Sim *sim, int32_t step)
{
    if (!sim || step < 0 || sim->nsteps == 0)
        return 0;
    if (step >= sim->nsteps)
        step = sim->nsteps - 1;
    return sim->cum[step];
}

size_t sim_nviolations(const Sim *sim) { return sim ? sim->nviol : 0; }

const SimViolation *sim_violation(const Sim *sim, size_t i)
{
    if (!sim || i >= sim->nviol)
        return NULL;
    return &sim->viol[i];
}

char *sim_violation_text(const Sim *sim, const SimViolation *v, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    buf[0] = '\0';
    if (!sim || !v)
        return buf;
    const Net *net = sim->net;
    char a[48], b[48];
    switch (v->kind) {
    case SIM_V_NOT_HELD:
        snprintf(buf, len, "step %ld: node %s sends chunk %lu it does not hold",
                 (long)v->step + 1, net_node_name(net, v->node, a, sizeof a),
                 (unsigned long)v->chunk);
        break;
    case SIM_V_LINK: {
        int32_t tail;
        net_link_info(net, v->link, &tail, NULL, NULL);
        int64_t pairs = (int64_t)net->size * net->size;
        if (sim->hx && v->link >= pairs) {   /* a module's channel, load in units of C */
            int64_t m = v->link - pairs;
            snprintf(buf, len, "step %ld: more than %ld transfers %s module %ld over its %ld "
                     "channels (load %ld)", (long)v->step + 1, (long)sim->hxC,
                     m % 2 ? "into" : "out of", (long)(m / 2), (long)sim->hxC, (long)v->load);
            break;
        }
        if (sim->p.model == COST_CIRCUIT && !sim->full) {
            snprintf(buf, len, "phase %ld: arc %s->%s is shared by %ld circuits "
                     "(arc-disjoint: one per arc)", (long)v->step + 1,
                     net_node_name(net, tail, a, sizeof a),
                     net_node_name(net, net_link_head(net, v->link), b, sizeof b), (long)v->load);
            break;
        }
        snprintf(buf, len, "step %ld: link %s->%s carries %ld circuits (capacity %ld)",
                 (long)v->step + 1, net_node_name(net, tail, a, sizeof a),
                 net_node_name(net, net_link_head(net, v->link), b, sizeof b), (long)v->load,
                 (long)cap_of(&sim->p));
        break;
    }
    case SIM_V_PORT:
        snprintf(buf, len, "step %ld: node %s sends %ld and receives %ld messages (%s)",
                 (long)v->step + 1, net_node_name(net, v->node, a, sizeof a), (long)v->load,
                 (long)v->recvs,
                 sim->p.duplex ? "duplex: at most one of each" : "simplex: one send or one receive");
        break;
    case SIM_V_ALLPORT: {
        int dim, dir;
        net_link_info(net, v->link, NULL, &dim, &dir);
        snprintf(buf, len, "phase %ld: node %s %s %ld circuits through its %s %s-port "
                 "(all-port: one per port)", (long)v->step + 1,
                 net_node_name(net, v->node, a, sizeof a), v->recvs ? "receives" : "sends",
                 (long)v->load, circuit_port_name(net_ndim(net), dim, dir, v->recvs != 0),
                 v->recvs ? "in" : "out");
        break;
    }
    case SIM_V_INCOMPLETE:
        snprintf(buf, len, "end: node %s lacks chunk %lu", net_node_name(net, v->node, a, sizeof a),
                 (unsigned long)v->chunk);
        break;
    default:
        snprintf(buf, len, "step %ld: unknown violation", (long)v->step + 1);
        break;
    }
    return buf;
}

/* Redo (add) or undo step st's deltas.  A step's deltas for one node are disjoint, and those
 * of one receive come together in increasing order: such a run of several goes in with one
 * merge. */
static bool apply_deltas(Sim *sim, int32_t st, bool add)
{
    bool ok = true;
    /* the transfers whose ranges were all new to their destination */
    int64_t x0 = sim->xstart[st], nx = sim->xstart[st + 1] - x0;
    const SchedFlat *f = nx > 0 ? sim_flat(sim, st) : NULL;
    if (nx > 0 && !f)
        return false;
    for (int64_t i = 0; ok && i < nx; i++) {
        int64_t b = x0 + i;
        if (!(sim->xnew[b >> 6] & (UINT64_C(1) << (b & 63))))
            continue;
        Hold *h = &sim->hold[f->x[i].dst];
        uint32_t nr = sched_flat_nr(f, i);
        const ChunkRange *r = sched_flat_ranges(f, i);
        if (nr >= 4) {
            ok = hold_merge(h, r, nr, add);
        } else {
            for (uint32_t k = 0; ok && k < nr; k++)
                ok = add ? hold_add(h, r[k].lo, r[k].hi) : hold_remove(h, r[k].lo, r[k].hi);
        }
    }
    uint64_t end = sim->dstart[st + 1];
    ChunkRange *buf = NULL;
    size_t capbuf = 0;
    for (uint64_t i = sim->dstart[st]; ok && i < end;) {
        const Delta *d = delta_at(sim, i);
        uint64_t j = i + 1;
        while (j < end && delta_at(sim, j)->node == d->node &&
               delta_at(sim, j)->r.lo >= delta_at(sim, j - 1)->r.hi)
            j++;
        Hold *h = &sim->hold[d->node];
        if (j - i < 4) {
            for (uint64_t q = i; ok && q < j; q++)
                ok = add ? hold_add(h, delta_at(sim, q)->r.lo, delta_at(sim, q)->r.hi)
                         : hold_remove(h, delta_at(sim, q)->r.lo, delta_at(sim, q)->r.hi);
        } else {
            size_t k = (size_t)(j - i);
            if (k > capbuf) {
                ChunkRange *nb = realloc(buf, k * sizeof *nb);
                if (!nb) {
                    ok = false;
                    break;
                }
                buf = nb;
                capbuf = k;
            }
            for (size_t q = 0; q < k; q++)
                buf[q] = delta_at(sim, i + q)->r;
            ok = hold_merge(h, buf, k, add);
        }
        i = j;
    }
    free(buf);
    return ok;
}

bool sim_seek(Sim *sim, int32_t pos)
{
    if (!sim || pos < 0 || pos > sim->nsteps)
        return false;
    if (pos == sim->pos)
        return true;
    if (!(sim->flags & SIM_HISTORY))
        return false;
    if (pos < sim->pos) {
        /* back by undoing the steps in between, or from the start (the givens) forwards,
         * whichever touches less: going back to the start of a big broadcast is a reset */
        uint64_t back = (sim->dstart[sim->pos] - sim->dstart[pos]) +
                        (uint64_t)(sim->xstart[sim->pos] - sim->xstart[pos]);
        uint64_t fresh = (uint64_t)sim->net->size + sim->s->ngiven +
                         (sim->dstart[pos] - sim->dstart[0]) + (uint64_t)sim->xstart[pos];
        if (fresh < back) {
            if (!hold_givens(sim))
                return false;
            sim->pos = 0;
        }
    }
    while (sim->pos > pos) {
        if (!apply_deltas(sim, sim->pos - 1, false))
            return false;
        sim->pos--;
    }
    while (sim->pos < pos) {
        if (!apply_deltas(sim, sim->pos, true))
            return false;
        sim->pos++;
    }
    return true;
}

int32_t sim_pos(const Sim *sim) { return sim ? sim->pos : 0; }

const ChunkRange *sim_holdings(const Sim *sim, int32_t node, size_t *nranges)
{
    static const ChunkRange none[1];
    if (!sim || node < 0 || node >= sim->net->size) {
        if (nranges)
            *nranges = 0;
        return none;
    }
    size_t n;
    const ChunkRange *r = hold_ranges(&sim->hold[node], &n);
    if (nranges)
        *nranges = n;
    return r;
}

uint64_t sim_held(const Sim *sim, int32_t node)
{
    size_t n;
    const ChunkRange *r = sim_holdings(sim, node, &n);
    return cr_count(r, n);
}

bool sim_holds(const Sim *sim, int32_t node, uint32_t chunk)
{
    if (!sim || node < 0 || node >= sim->net->size || chunk == UINT32_MAX)
        return false;
    return hold_contains(&sim->hold[node], chunk, chunk + 1, NULL);
}

/* Make sim->load hold the loads of step (layout order). */
static bool cache_loads(Sim *sim, int32_t step)
{
    if (sim->cache_step == step)
        return true;
    if (sim->cache_step >= 0)
        clear_loads(sim, sim->cache_step, sim->cache_path);
    sim->cache_step = -1;
    sim->rmq_step = -1;
    int32_t mx;
    int64_t nover;
    bool oom = false;
    const SchedFlat *f = sim_flat(sim, step);
    if (!f)
        return false;
    int64_t tcd = -1;
    sim->cache_path = count_loads(sim, step, &tcd, INT32_MAX / 2, false, &mx, &nover, &oom);
    if (oom) {
        clear_loads(sim, step, sim->cache_path);
        return false;
    }
    sim->cache_step = step;
    return true;
}

/* Seidel, a step played in sub-rounds: its sub-rounds split in sim->sub (subround.h), whose
 * link loads are the most circuits on a link at once. */
static bool sub_ready(Sim *sim, int32_t step)
{
    if (sim->p.model != COST_SEIDEL || sim->steps[step].subrounds <= 1)
        return false;
    if (!sim->sub && !(sim->sub = subround_new(sim->net)))
        return false;
    return subround_split(sim->sub, sim->s, step, cap_of(&sim->p)) > 0;
}

int32_t sim_link_load(Sim *sim, int32_t step, int64_t link)
{
    if (!sim || step < 0 || step >= sim->nsteps || link < 0 || link >= sim->nlinks)
        return 0;
    if (sub_ready(sim, step))
        return sim->full ? full_pair_count(sim, sim_flat(sim, step), link) > 0
                         : subround_link_load(sim->sub, link);
    if (sim->full)
        return full_pair_count(sim, sim_flat(sim, step), link);
    if (sim->linkload_step == step)
        return sim->linkload[link];
    if (!cache_loads(sim, step))
        return 0;
    /* link -> its line and position in the (dim, dir) layout (see sim_link_loads) */
    const Net *net = sim->net;
    int64_t node = link / (2 * net->ndim);
    int d = (int)(link / 2 % net->ndim), b = (int)(link % 2);
    int64_t n = net->dims[d], stv = net->stride[d];
    int64_t o = node / (stv * n), i = node % stv, q = node / stv % n;
    return sim->load[sim->base[d][b] + (o * stv + i) * n + q];
}

const int32_t *sim_link_loads(Sim *sim, int32_t step)
{
    if (!sim || step < 0 || step >= sim->nsteps)
        return NULL;
    if (sim->full)
        return NULL;   /* P*P pair links: ask sim_link_load */
    if (sim->linkload_step == step)
        return sim->linkload;
    if (!sim->linkload) {
        sim->linkload = malloc((size_t)sim->nlinks * sizeof *sim->linkload);
        if (!sim->linkload)
            return NULL;
    }
    if (sub_ready(sim, step)) {
        for (int64_t l = 0; l < sim->nlinks; l++)
            sim->linkload[l] = subround_link_load(sim->sub, l);
        sim->linkload_step = step;
        return sim->linkload;
    }
    if (!cache_loads(sim, step))
        return NULL;
    const Net *net = sim->net;
    for (int d = 0; d < net->ndim; d++) {
        int64_t n = net->dims[d], stv = net->stride[d];
        int64_t outer = net->size / (stv * n);
        for (int b = 0; b < 2; b++) {
            const int32_t *L = sim->load + sim->base[d][b];
            for (int64_t o = 0; o < outer; o++)
                for (int64_t i = 0; i < stv; i++) {
                    const int32_t *line = L + (o * stv + i) * n;
                    int64_t node = o * stv * n + i;
                    for (int64_t q = 0; q < n; q++, node += stv)
                        sim->linkload[(node * net->ndim + d) * 2 + b] = line[q];
                }
        }
    }
    sim->linkload_step = step;
    return sim->linkload;
}

void sim_transfer_info(Sim *sim, int32_t step, int64_t i, SimTransferInfo *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!sim || step < 0 || step >= sim->nsteps || i < 0 || i >= sched_ntransfers(sim->s, step))
        return;
    if (!cache_loads(sim, step))
        return;
    const SchedFlat *f = sim_flat(sim, step);
    if (!f)
        return;
    const XV xv_ = xv(f, i), *x = &xv_;
    const CostParams *p = &sim->p;
    /* On long routes (the difference-array case) query the range-maximum structure. */
    /* A short route is walked too: building the structure reads every link of the net, which
     * a front end asking about a few transfers of a big step (the Step panel) need not pay. */
    bool walk = sim->cache_path == SIM_PATH_DIRECT || (sim->rmq_step != step &&
                                                       xfer_len(sim, x) <= SIM_WALK_MAX);
    if (!walk && sim->rmq_step != step) {
        if (rmq_build(sim))
            sim->rmq_step = step;
        else
            walk = true;
    }
    int32_t k = sim->full ? full_pair_count(sim, f, (int64_t)x->src * sim->net->size + x->dst)
                          : xfer_maxload(sim, x, walk);
    if (sim->hx && x->src / sim->hxB != x->dst / sim->hxB) {   /* and its two channels */
        int32_t a = chan_units(sim, sim->chan[2 * (x->src / sim->hxB)]);
        int32_t b = chan_units(sim, sim->chan[2 * (x->dst / sim->hxB) + 1]);
        k = a > k ? a : k;
        k = b > k ? b : k;
    }
    if (sub_ready(sim, step)) {
        /* played in sub-rounds: only the circuits of its own sub-round count */
        k = subround_load(sim->sub)[i];
        out->subround = subround_of(sim->sub)[i] + 1;
    }
    double B = (double)xfer_bytes(sim, x), d = xfer_len(sim, x);
    out->load = k;
    double m = p->model == COST_SEIDEL ? ceil_div(k, cap_of(p)) : 1;
    out->cost = cost_transfer(p, d, B, m);
    switch (p->model) {
    case COST_SEIDEL:
        out->contention = (m - 1) * p->a * B;
        break;
    default:
        break;
    }
}

void sim_port_counts(Sim *sim, int32_t step, const int32_t **sends, const int32_t **recvs)
{
    const int32_t *s_ = NULL, *r_ = NULL;
    if (sim && step >= 0 && step < sim->nsteps && ensure_ports(sim)) {
        if (sim->port_step != step) {
            size_t size = (size_t)sim->net->size;
            memset(sim->sends, 0, size * sizeof *sim->sends);
            memset(sim->recvs, 0, size * sizeof *sim->recvs);
            const SchedFlat *f = sim_flat(sim, step);
            for (int64_t i = 0; f && i < f->n; i++) {
                sim->sends[f->x[i].src]++;
                sim->recvs[f->x[i].dst]++;
            }
            sim->port_step = f ? step : -1;
        }
        s_ = sim->sends;
        r_ = sim->recvs;
    }
    if (sends)
        *sends = s_;
    if (recvs)
        *recvs = r_;
}

bool sim_step_shape(Sim *sim, int32_t step, SimShape *out)
{
    if (!sim || !out || step < 0 || step >= sim->nsteps)
        return false;
    *out = (SimShape){ 0, -1, 0, false, INT64_MAX, 0 };
    const int32_t *sends;
    sim_port_counts(sim, step, &sends, NULL);
    const SchedFlat *f = sim_flat(sim, step);
    if (!f || sim->port_step != step)
        return false;
    const Net *net = sim->net;
    for (int32_t v = 0; v < net->size; v++)
        if (sends[v] > 0) {
            out->senders++;
            out->one_sender = v;
        }
    for (int64_t i = 0; i < f->n; i++) {
        const XV x = xv(f, i);
        int nseg = 0, d0 = 0, dir0 = 0;
        int64_t len = 0;
        if (x.route != SCHED_DEFAULT_ROUTE) {
            const NetSeg *seg = sched_route_segs(sim->s, x.route);
            nseg = (int)sched_route_nseg(x.route);
            for (int k = 0; k < nseg; k++)
                len += seg[k].len;
            if (nseg > 0) {
                d0 = seg[0].dim;
                dir0 = seg[0].dir;
            }
        } else if (sim->full) {
            nseg = len = x.src != x.dst;
            dir0 = x.dst > x.src ? 1 : -1;
        } else {   /* the default route: dimensions from the last to the first */
            int32_t c[NET_MAXDIM] = { 0, 0, 0 }, t[NET_MAXDIM] = { 0, 0, 0 };
            node_coords(sim, x.src, c);
            node_coords(sim, x.dst, t);
            for (int d = net->ndim - 1; d >= 0; d--) {
                int32_t o = c[d] == t[d] ? 0 : hop_offset(net, d, c[d], t[d]);
                if (o == 0)
                    continue;
                if (nseg++ == 0) {
                    d0 = d;
                    dir0 = o;
                }
                len += o < 0 ? -o : o;
            }
        }
        if (nseg > 0)
            out->dirs |= 1u << (2 * d0 + (dir0 > 0));
        if (nseg > 1)
            out->turns = true;
        if (len < out->hmin)
            out->hmin = len;
        if (len > out->hmax)
            out->hmax = len;
    }
    if (f->n == 0)
        out->hmin = 0;
    return true;
}
