/* sim-async.c — asynchronous (event by event) timing of a schedule: sim-async.h. */
#include "sim-async-internal.h"
#include "arcmap.h"
#include "bigmem.h"
#include "net-internal.h"
#include "sched-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A node's arrivals: chunk ranges with the time they arrived, sorted by lo, disjoint. */
typedef struct {
    uint32_t lo, hi;
    double t;
} Arr;

typedef struct {
    Arr *a;
    uint32_t n, cap;
} ArrList;

struct SimAsync {
    double total;
    int64_t chan_waits;      /* hxbar: transfers that waited for a module channel */
    double chan_wait, chan_wait_max;
    int32_t nsteps;
    double *step_end;
    SimAsyncEvent *ev;
    int64_t nev;
};

static double dmax(double a, double b) { return a > b ? a : b; }

/* The latest arrival of any chunk of [lo,hi) at a node (0: given, or never received). */
static double arr_ready(const ArrList *l, uint32_t lo, uint32_t hi)
{
    /* the first range that ends after lo */
    uint32_t a = 0, b = l->n;
    while (a < b) {
        uint32_t m = (a + b) / 2;
        if (l->a[m].hi <= lo)
            a = m + 1;
        else
            b = m;
    }
    double t = 0;
    for (uint32_t i = a; i < l->n && l->a[i].lo < hi; i++)
        t = dmax(t, l->a[i].t);
    return t;
}

/* Record [lo,hi) arriving at time t where the node held none of it before (a chunk already
 * there keeps its first arrival). */
static bool arr_add(ArrList *l, uint32_t lo, uint32_t hi, double t)
{
    uint32_t a = 0, b = l->n;
    while (a < b) {
        uint32_t m = (a + b) / 2;
        if (l->a[m].hi <= lo)
            a = m + 1;
        else
            b = m;
    }
    /* the gaps of [lo,hi) not covered from index a on */
    while (lo < hi) {
        if (a < l->n && l->a[a].lo <= lo) {
            lo = l->a[a].hi > lo ? l->a[a].hi : lo;
            a++;
            continue;
        }
        uint32_t end = a < l->n && l->a[a].lo < hi ? l->a[a].lo : hi;
        if (a > 0 && l->a[a - 1].hi == lo && l->a[a - 1].t == t) {
            l->a[a - 1].hi = end;   /* extends the range before, same time */
        } else {
            if (l->n == l->cap) {
                uint32_t nc = l->cap ? l->cap * 2 : 2;
                Arr *p = realloc(l->a, sizeof *p * nc);
                if (!p)
                    return false;
                l->a = p;
                l->cap = nc;
            }
            memmove(&l->a[a + 1], &l->a[a], sizeof *l->a * (l->n - a));
            l->a[a] = (Arr){ lo, end, t };
            l->n++;
            a++;
        }
        lo = end;
    }
    return true;
}

/* The slot of k that frees first. */
static double *chan_first(double *t, int32_t k)
{
    double *best = t;
    for (int32_t i = 1; i < k; i++)
        if (t[i] < *best)
            best = &t[i];
    return best;
}

static int cmp_ev(const void *pa, const void *pb)
{
    const SimAsyncEvent *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Arc times live in the links' private order (arcmap.h, shared with the lockstep replay): a
 * route is a few contiguous pieces of it, its arcs read and written in a few tight loops.  On
 * full:P each transfer has its pair link. */

/* A node's arrivals, kept cheaply for the common case: chunk ranges arriving in increasing
 * order in up to NSTREAM streams (a pipeline; the H-trees' X and Y packets in turn; the four
 * quarters of saf-trees), read soon after.  In "stream" mode each stream keeps its newest TAILN ranges in the node's records and
 * older ones in a shared append-only log, chained newest first; in a stream every range lies
 * above the ones before it, and no range of one stream meets one of the other.  A range that
 * fits no stream (unless it is already held: a redundant receive changes nothing) or a read
 * that reaches below a stream's tail turns the node into "list" mode: all its ranges in a
 * sorted ArrList of its own, as the general case needs. */
#define TAILN 2
#define NSTREAM 4

typedef struct {
    uint32_t lo, hi;
    double t;
    uint32_t prev;  /* 1 + the entry before it in its node's chain, 0 none */
} LogArr;

#define LOG_SHIFT 16
#define LOG_BLOCK (INT64_C(1) << LOG_SHIFT)

typedef struct {
    LogArr **blk;
    int64_t n, nblk, capblk;
} Log;

typedef struct {
    Arr tail[TAILN];   /* the newest entries, ascending */
    uint32_t chain;    /* 1 + the newest entry in the log, 0 none */
    uint32_t base;     /* the lowest chunk of the stream (of its first entry) */
    uint32_t floor;    /* entries below this were dropped, not logged (0: none) */
    uint8_t nt;        /* entries in the tail (0: the stream is unused) */
} Stream;

/* What the pass keeps of a node, in one cache line (the other streams, less used, apart). */
typedef struct {
    Stream s0;
    uint32_t list;     /* list mode when not 0: 1 + its index in Arrivals.lists */
    uint8_t ns;        /* streams in use: 0..ns-1 (stream k is used only after 0..k-1) */
    uint8_t unused;
    uint16_t rstep;    /* its last reading step (read_stamp; 0 none; a node silent for a
                        * multiple of 2^14 steps only drops less) and flags, ... */
    uint32_t rmin;     /* ... and the lowest chunk read in it */
    uint32_t dropb;    /* entries ending at or below this may be dropped (read_dropb of the
                        * reading step before; 0: none) */
} NodeArr;
_Static_assert(sizeof(NodeArr) == 64, "a node's record fits one cache line");

/* An entry leaving a stream's tail is logged, or dropped when it lies wholly at or below
 * the lowest chunk the node read in its last finished reading step (dropb): a pipeline's node
 * reads, step after step, packets that all lie above the lowest it read the step before, and
 * a big broadcast would otherwise log hundreds of megabytes never read.  Should a read or a
 * receive later reach below a stream's floor (or a node with dropped entries turn to list
 * mode), the run is "spoiled": the steps so far are timed again from the start keeping every
 * entry (keep), and the run goes on in that mode. */
typedef struct {
    Log lg;
    Stream *sx[NSTREAM];   /* every node's stream k >= 1, allocated when first used */
    ArrList *lists;    /* the nodes in list mode */
    uint32_t nlists, caplists;
    int32_t n;
    bool keep;         /* log every entry (never drop) */
    bool spoiled;      /* a dropped entry may have been needed: time again with keep */
} Arrivals;

/* Does [lo,hi) reach below what stream S dropped? */
static inline bool below_floor(const Stream *S, uint32_t nt, uint32_t lo, uint32_t hi)
{
    return nt > 0 && lo < S->floor && hi > S->base;
}

/* Stream k of node id (whose record is v). */
static inline Stream *stream_of(NodeArr *v, Arrivals *A, int32_t id, int k)
{
    return k == 0 ? &v->s0 : &A->sx[k][id];
}

/* How many streams the node uses. */
static inline int nstreams(const NodeArr *v) { return v->ns; }

static inline LogArr *log_at(const Log *g, int64_t i)
{
    return &g->blk[i >> LOG_SHIFT][i & (LOG_BLOCK - 1)];
}

static bool log_push(Log *g, Arr a, uint32_t prev, uint32_t *idx)
{
    if (g->n >= (int64_t)UINT32_MAX - 1)
        return false;
    if ((g->n >> LOG_SHIFT) >= g->nblk) {
        if (g->nblk == g->capblk) {
            int64_t nc = g->capblk ? g->capblk * 2 : 16;
            LogArr **p = realloc(g->blk, sizeof *p * (size_t)nc);
            if (!p)
                return false;
            g->blk = p;
            g->capblk = nc;
        }
        g->blk[g->nblk] = malloc(sizeof(LogArr) * (size_t)LOG_BLOCK);
        if (!g->blk[g->nblk])
            return false;
        g->nblk++;
    }
    *log_at(g, g->n) = (LogArr){ a.lo, a.hi, a.t, prev };
    *idx = (uint32_t)++g->n;   /* 1 + its index */
    return true;
}

static void log_free(Log *g)
{
    for (int64_t i = 0; i < g->nblk; i++)
        free(g->blk[i]);
    free(g->blk);
}

/* The stream's entries (chain, then tail), ascending, appended to a[*k]. */
static void stream_out(const Stream *S, uint32_t nt, const Log *g, Arr *a, uint32_t *k)
{
    uint32_t nc = 0;
    for (int64_t i = S->chain; i > 0; i = log_at(g, i - 1)->prev)
        nc++;
    uint32_t j = *k + nc;
    for (int64_t i = S->chain; i > 0; i = log_at(g, i - 1)->prev) {
        const LogArr *e = log_at(g, i - 1);
        a[--j] = (Arr){ e->lo, e->hi, e->t };
    }
    *k += nc;
    for (uint32_t q = 0; q < nt; q++)
        a[(*k)++] = S->tail[q];
}

static int cmp_arr(const void *pa, const void *pb)
{
    const Arr *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Turn a node into list mode: its streams, merged, into its own ArrList. */
static bool node_list(NodeArr *v, Arrivals *A, int32_t id)
{
    if (v->list)
        return true;
    if (A->nlists == A->caplists) {
        uint32_t nc = A->caplists ? A->caplists * 2 : 16;
        ArrList *q = nc > A->caplists ? realloc(A->lists, sizeof *q * nc) : NULL;
        if (!q)
            return false;
        A->lists = q;
        A->caplists = nc;
    }
    int ns = nstreams(v);
    uint32_t n = 0;
    for (int q = 0; q < ns; q++) {
        const Stream *S = stream_of(v, A, id, q);
        if (S->floor)
            A->spoiled = true;   /* the list would lack what was dropped */
        n += S->nt;
        for (int64_t i = S->chain; i > 0; i = log_at(&A->lg, i - 1)->prev)
            n++;
    }
    Arr *a = malloc(sizeof *a * (n ? n : 1));
    if (!a)
        return false;
    uint32_t k = 0;
    for (int q = 0; q < ns; q++)
        stream_out(stream_of(v, A, id, q), stream_of(v, A, id, q)->nt, &A->lg, a, &k);
    if (ns > 1)
        qsort(a, k, sizeof *a, cmp_arr);   /* disjoint ascending runs */
    A->lists[A->nlists++] = (ArrList){ a, n, n ? n : 1 };
    v->list = A->nlists;
    return true;
}

/* [lo,hi) against a stream of nt entries: 0 it meets none, 1 it meets some (*m: raised to
 * their latest time), -1 it may meet entries more than a few down the log (not looked at). */
#define CHAIN_LOOK 16

static inline int stream_meets(const Stream *S, uint32_t nt, const Log *g, uint32_t lo,
                               uint32_t hi, double *m)
{
    if (nt == 0 || S->tail[nt - 1].hi <= lo || hi <= S->base)
        return 0;
    int met = 0;
    for (uint32_t j = nt; j > 0; j--) {
        const Arr *z = &S->tail[j - 1];
        if (z->hi <= lo)
            return met;
        if (z->lo < hi) {
            met = 1;
            if (z->t > *m)
                *m = z->t;
        }
        if (z->lo <= lo)
            return met;
    }
    /* a packet sent some steps after it came: down the chain a little */
    int64_t i = S->chain;
    for (int k = 0; i > 0 && k < CHAIN_LOOK; k++) {
        const LogArr *e = log_at(g, i - 1);
        if (e->hi <= lo)
            return met;
        if (e->lo < hi) {
            met = 1;
            if (e->t > *m)
                *m = e->t;
        }
        if (e->lo <= lo)
            return met;
        i = e->prev;
    }
    return i > 0 ? -1 : met;
}

/* A node's reading step, as NodeArr.rstep keeps it: 1 + st mod 2^14 (never 0) in the low
 * bits, and two flags. */
#define RSTEP_MULTI 0x8000u     /* it read more than one range in that step */
#define RSTEP_SEVERAL 0x4000u   /* it sends in more than one block (for good) */
#define RSTEP_STAMP 0x3fffu

static inline uint16_t read_stamp(int32_t st)
{
    uint16_t r = (uint16_t)((uint32_t)(st + 1) & RSTEP_STAMP);
    return r ? r : 1;
}

/* What the node's finished reading step lets it drop: entries ending at or below the lowest
 * chunk it read then, plus one if it read one range only and sends in one block (a pipeline's
 * node that forwards in one phase reads a higher packet each step; one that sends in several
 * phases reads the lowest again). */
static inline uint32_t read_dropb(const NodeArr *v)
{
    return v->rmin + ((v->rstep & (RSTEP_MULTI | RSTEP_SEVERAL)) ? 0 : 1);
}

/* The latest arrival of any chunk of [lo,hi) at node id (0: given or never received), read
 * in step st; false when memory runs out. */
static inline bool node_ready(NodeArr *v, Arrivals *A, int32_t id, int32_t st, uint32_t lo,
                              uint32_t hi, double *t)
{
    uint16_t rs = read_stamp(st);
    if ((v->rstep & RSTEP_STAMP) != rs) {
        if (v->rstep & RSTEP_STAMP)
            v->dropb = read_dropb(v);
        v->rstep = (uint16_t)(rs | (v->rstep & RSTEP_SEVERAL));
        v->rmin = lo;
    } else if (lo != v->rmin) {
        v->rstep |= RSTEP_MULTI;
        if (lo < v->rmin)
            v->rmin = lo;
    }
    if (!v->list) {
        double m = 0;
        bool seen = true;
        for (int q = 0; q < v->ns; q++) {
            const Stream *S = stream_of(v, A, id, q);
            if (below_floor(S, S->nt, lo, hi))
                A->spoiled = true;
            seen = seen && stream_meets(S, S->nt, &A->lg, lo, hi, &m) >= 0;
        }
        if (seen) {
            *t = m;
            return true;
        }
        if (!node_list(v, A, id))
            return false;
    }
    *t = arr_ready(&A->lists[v->list - 1], lo, hi);
    return true;
}

/* Append [lo,hi) at t to a stream whose newest entry ends at or below lo. */
static inline bool stream_push(Stream *S, Arrivals *A, uint32_t dropb,
                               uint32_t lo, uint32_t hi, double t)
{
    Arr *z = &S->tail[S->nt - 1];
    if (z->hi == lo && z->t == t) {
        z->hi = hi;
        return true;
    }
    if (S->nt == TAILN) {
        if (!A->keep && S->tail[0].hi <= dropb) {
            if (S->tail[0].hi > S->floor)
                S->floor = S->tail[0].hi;
        } else {
            uint32_t idx;
            if (!log_push(&A->lg, S->tail[0], S->chain, &idx))
                return false;
            S->chain = idx;
        }
        memmove(&S->tail[0], &S->tail[1], sizeof S->tail[0] * (TAILN - 1));
        S->nt--;
    }
    S->tail[S->nt++] = (Arr){ lo, hi, t };
    return true;
}

/* Record [lo,hi) arriving at node id at time t (chunks already there keep their first
 * arrival). */
static inline bool node_add(NodeArr *v, Arrivals *A, int32_t id, int32_t st, uint32_t lo,
                            uint32_t hi, double t)
{
    /* what its reads so far allow to drop (the reading step before this one finished) */
    uint16_t rs = v->rstep & RSTEP_STAMP;
    uint32_t db = rs && rs != read_stamp(st) ? read_dropb(v) : v->dropb;
    if (!v->list) {
        if (v->ns == 0) {   /* (stream k is used only after streams 0..k-1) */
            v->s0.tail[0] = (Arr){ lo, hi, t };
            v->s0.base = lo;
            v->s0.nt = 1;
            v->ns = 1;
            return true;
        }
        int ns = nstreams(v);
        Stream *S[NSTREAM];
        bool fit[NSTREAM], free_[NSTREAM], next[NSTREAM];
        int nfree = 0, anynext = 0;
        for (int q = 0; q < ns; q++) {
            S[q] = stream_of(v, A, id, q);
            if (below_floor(S[q], S[q]->nt, lo, hi))
                A->spoiled = true;
            for (uint32_t j = 0; j < S[q]->nt; j++)
                if (S[q]->tail[j].lo <= lo && hi <= S[q]->tail[j].hi)
                    return true;   /* held already */
        }
        for (int q = 0; q < ns; q++) {
            double m = 0;
            uint32_t top = S[q]->tail[S[q]->nt - 1].hi;
            fit[q] = top <= lo;
            free_[q] = stream_meets(S[q], S[q]->nt, &A->lg, lo, hi, &m) == 0;
            next[q] = fit[q] && top == lo;
            nfree += free_[q];
            anynext |= next[q];
        }
        /* where it follows on: the stream it continues; else (a gap) a new stream while there
         * is one; else above the stream that ends nearest below it — the others never met */
        for (int q = 0; q < ns; q++)
            if (next[q] && nfree - free_[q] == ns - 1)
                return stream_push(S[q], A, db, lo, hi, t);
        if (ns < NSTREAM && nfree == ns && !anynext) {
            if (!A->sx[ns]) {
                A->sx[ns] = calloc((size_t)A->n, sizeof *A->sx[ns]);
                if (!A->sx[ns])
                    return false;
            }
            A->sx[ns][id] = (Stream){ .tail = { { lo, hi, t } }, .base = lo, .nt = 1 };
            v->ns = (uint8_t)(ns + 1);
            return true;
        }
        int best = -1;
        uint32_t btop = 0;
        for (int q = 0; q < ns; q++)
            if (fit[q] && (best < 0 || S[q]->tail[S[q]->nt - 1].hi > btop)) {
                best = q;
                btop = S[q]->tail[S[q]->nt - 1].hi;
            }
        if (best >= 0 && nfree - free_[best] == ns - 1)
            return stream_push(S[best], A, db, lo, hi, t);
        if (!node_list(v, A, id))
            return false;
    }
    return arr_add(&A->lists[v->list - 1], lo, hi, t);
}

/* Per node: the last step in which it sends (-1 never: its arrivals are never read, so not
 * kept; most nodes of a broadcast tree are leaves) and its arrival record among the senders'
 * (-1 none).  Only senders have records: fewer cache lines to touch and to zero. */
typedef struct {
    int32_t last, slot;
} NodeIdx;

/* What a transfer needs of its route, worked out AHEAD transfers early, when what it will
 * touch is also asked into the cache (the node records and the arcs are where the time goes on
 * a big net). */
#define AHEAD 16

typedef struct {
    int64_t len;
    int32_t ssrc, sdst;   /* the records of its source and (if kept) destination, -1 none */
    int np;
    ArcPiece pc[ARCMAP_MAXPIECES];
} Ahead;

/* Node v sends in step st (the steps come last first) in block b: its last step, and whether
 * it sends in more than one block (slot -2 until the slots are given out). */
static inline void note_send(NodeIdx *idx, int32_t *blk, int32_t v, int32_t st, int32_t b)
{
    if (idx[v].last < 0)
        idx[v].last = st;
    if (blk[v] != b) {
        if (blk[v] >= 0)
            idx[v].slot = -2;
        blk[v] = b;
    }
}

/* The last step in which each node sends, and the nodes that send in more than one block
 * (an edge block sent again in later steps, as a pipeline does, is one block).  Steps are read from the last: an edge block
 * already met in a later step has nothing to add (a pipeline sends the same few blocks step
 * after step). */
#define SEEN_MAX 256

static void last_sends(const Sched *s, NodeIdx *idx, int32_t *blk)
{
    for (int32_t v = 0; v < s->net->size; v++) {
        idx[v] = (NodeIdx){ -1, -1 };
        blk[v] = -1;
    }
    int64_t seen[SEEN_MAX][2];
    int nseen = 0;
    int32_t nblk = SEEN_MAX;   /* block ids: an edge block's place in seen, else from here */
    for (int32_t st = s->nsteps - 1; st >= 0; st--) {
        const SchedStep *ss = &s->steps[st];
        int32_t b = nblk++;
        for (int64_t i = 0; i < ss->n; i++)
            note_send(idx, blk, ss->x[i].src, st, b);
        for (int32_t q = 0; q < ss->nrule; q++) {
            const SchedRule *r = &ss->more->rule[q];
            b = nblk++;
            if (sched_rule_is_edges(r)) {
                int k = 0;
                while (k < nseen && !(seen[k][0] == r->e0 && seen[k][1] == r->count))
                    k++;
                if (k < nseen)
                    continue;
                if (nseen < SEEN_MAX) {
                    seen[nseen][0] = r->e0;
                    seen[nseen][1] = r->count;
                    b = nseen++;
                }
            }
            for (int64_t j = 0; j < r->count; j++) {
                SchedRuleXfer x;
                uint32_t route;
                sched_rule_get(s, r, j, &x, &route);
                note_send(idx, blk, x.src, st, b);
            }
        }
    }
}

/* Exclusive edges.  When the schedule is made of edge blocks only (sched_send_edges: a
 * pipeline's tree sent again and again) and an edge's arcs are used by no other edge (nor
 * twice by its own route), those arcs serve that edge's transfers alone, in schedule order:
 * they all free at the end of its last transfer, so one time per edge stands for all of them
 * (the same maxima, bit for bit, as reading every arc), and what the timing needs of the edge
 * is worked out once, not again in every step. */
typedef struct {
    double free;     /* when its arcs are free; < 0: not exclusive (timed on the arcs) */
    int32_t len;     /* route length in hops (longer routes: no records, the general way) */
    int32_t ssrc;    /* its source's record (-1: the edge is never sent) */
    int32_t sdst;    /* its destination's record, -1 none ... */
    int32_t dlast;   /* ... read up to this step (the last in which the destination sends) */
} EdgeRec;
_Static_assert(sizeof(EdgeRec) == 24, "an edge's record: 24 bytes");

struct SimAsyncRun {
    const Sched *s;
    CostParams p;
    unsigned flags;
    int32_t n, nsteps;
    int cap;
    bool links, ports, haslocal, uniform;
    uint64_t per_chunk;
    ArcMap L;
    SimAsync *a;
    double *arc, *sendp, *recvp;
    double *local, *in;   /* local operations done, the latest arrival (haslocal only) */
    /* hxbar: when each of a module's C out channels (slots 2m*C..) and C in channels
     * ((2m+1)*C..) is free, under every model */
    int32_t hxB, hxC;
    double *chan;
    NodeIdx *idx;
    NodeArr *arr;         /* one cache line per sending node */
    EdgeRec *edge;        /* per edge of the table (exclusive edges), or NULL */
    Arrivals A;
    SchedFlatBuf fb;      /* sim_async_run's own flat views */
    Ahead ring[AHEAD];
    double total;
    bool ok;
};

static void ahead(SimAsyncRun *R, Ahead *ah, const SchedFlat *f, int64_t i, int32_t st)
{
    const ArcMap *L = &R->L;
    const SchedXfer *x = &f->x[i];
    uint32_t route = sched_flat_route(f, i);
    if (R->links) {
        int32_t len;
        ah->np = arcmap_route(L, R->s, x->src, x->dst, route, ah->pc, &len);
        ah->len = len;
    } else {
        ah->np = 0;
        ah->len = arcmap_len(L, R->s, x->src, x->dst, route);
    }
    NodeIdx is = R->idx[x->src], id = R->idx[x->dst];   /* (asked for AHEAD transfers before) */
    ah->ssrc = is.slot;
    ah->sdst = id.last >= st ? id.slot : -1;
    if (is.slot >= 0)
        __builtin_prefetch(&R->arr[is.slot]);
    if (ah->sdst >= 0)
        __builtin_prefetch(&R->arr[ah->sdst], 1);
    for (int k = 1; k < NSTREAM && R->A.sx[k]; k++) {   /* more streams in use */
        if (is.slot >= 0)
            __builtin_prefetch(&R->A.sx[k][is.slot]);
        if (ah->sdst >= 0)
            __builtin_prefetch(&R->A.sx[k][ah->sdst], 1);
    }
    for (int q = 0; q < ah->np; q++)
        __builtin_prefetch(R->arc + ah->pc[q].a, 1);
}

/* The route of edge e as layout pieces; returns their number. */
static int edge_pieces(const SimAsyncRun *R, const SchedEdge *e, ArcPiece *pc)
{
    return arcmap_route(&R->L, R->s, e->src, e->dst, e->route, pc, NULL);
}

/* The exclusive edges' records (R->edge), when the schedule and the model allow them (one
 * circuit per arc, arcs on a grid, edge blocks only); *shared: some edge is not exclusive
 * (its transfers are timed on the arcs).  False when memory runs out. */
static bool edges_init(SimAsyncRun *R, bool *shared)
{
    const Sched *s = R->s;
    *shared = true;
    if (!R->links || R->cap != 1 || R->L.full || !sched_edges_only(s))
        return true;
    int64_t nl = net_nlinks(s->net), ne = s->nedges;
    uint8_t *use = calloc((size_t)nl, 1);   /* edges over the arc, up to 2 */
    R->edge = bigmem_alloc(sizeof *R->edge * (size_t)ne, false);
    if (!use || !R->edge) {
        free(use);
        return false;
    }
    ArcPiece pc[ARCMAP_MAXPIECES];
    for (int64_t e = 0; e < ne; e++) {
        int np = edge_pieces(R, &s->edges[e], pc);
        for (int q = 0; q < np; q++)
            for (int64_t h = 0, hn = pc[q].b - pc[q].a + 1; h < hn; h++)
                use[pc[q].a + h] += use[pc[q].a + h] < 2;
    }
    *shared = false;
    for (int64_t e = 0; e < ne; e++) {
        const SchedEdge *x = &s->edges[e];
        int np = edge_pieces(R, x, pc);
        bool excl = true;
        for (int q = 0; q < np && excl; q++)
            for (int64_t h = 0, hn = pc[q].b - pc[q].a + 1; h < hn && excl; h++)
                excl = use[pc[q].a + h] == 1;
        *shared = *shared || !excl;
        int64_t len = 0;
        const NetSeg *seg = sched_route_segs(s, x->route);
        for (uint32_t g = 0; g < sched_route_nseg(x->route); g++)
            len += seg[g].len;
        if (len > INT32_MAX) {   /* (a route round and round a ring) */
            free(R->edge);
            R->edge = NULL;
            *shared = true;
            break;
        }
        NodeIdx is = R->idx[x->src], id = R->idx[x->dst];
        R->edge[e] = (EdgeRec){ excl ? 0 : -1, (int32_t)len, is.slot, id.slot, id.last };
    }
    free(use);
    return true;
}

static SimAsyncRun *run_fail(SimAsyncRun *R, char *err, size_t errlen)
{
    snprintf(err, errlen, "async: out of memory");
    sim_async_free(sim_async_end(R, NULL, 0));
    return NULL;
}

static SimAsyncRun *run_begin(const Sched *s, const CostParams *p, unsigned flags, bool keep,
                              char *err, size_t errlen)
{
    if (!s || !p) {
        snprintf(err, errlen, "async: no schedule");
        return NULL;
    }
    const Net *net = sched_net(s);
    int32_t n = net_size(net);
    int64_t nl = net_nlinks(net);
    int32_t nsteps = sched_nsteps(s);
    int cap = 1;
    if (p->model == COST_SEIDEL) {
        cap = 1 << p->nu;
        if (cap > 64 || (double)cap * (double)nl > (double)(INT64_C(1) << 27)) {
            snprintf(err, errlen, "async: seidel links of %d circuits on %s are too many "
                     "slots to time", cap, net_spec(net));
            return NULL;
        }
    }
    SimAsyncRun *R = calloc(1, sizeof *R);
    if (!R) {
        snprintf(err, errlen, "async: out of memory");
        return NULL;
    }
    R->s = s;
    R->p = *p;
    R->flags = flags;
    R->A.keep = keep;
    R->n = n;
    R->nsteps = nsteps;
    R->cap = cap;
    R->links = p->model == COST_CIRCUIT || p->model == COST_SAF || p->model == COST_SEIDEL;
    R->ports = p->model == COST_SEIDEL || p->model == COST_POSTAL;
    bool simplex = p->model == COST_POSTAL && !p->duplex;
    arcmap_init(&R->L, net);
    for (int32_t st = 0; st < nsteps; st++)
        R->haslocal = R->haslocal || sched_nlocals(s, st) > 0;
    R->uniform = sched_bytes(s) % sched_nchunks(s) == 0;
    R->per_chunk = sched_bytes(s) / sched_nchunks(s);
    R->a = calloc(1, sizeof *R->a);
    if (!R->a)
        return run_fail(R, err, errlen);
    if (R->ports) {
        R->sendp = calloc((size_t)n, sizeof *R->sendp);
        R->recvp = simplex ? R->sendp : calloc((size_t)n, sizeof *R->recvp);
        if (!R->sendp || !R->recvp)
            return run_fail(R, err, errlen);
    }
    R->hxB = net_hxbar_per(net);
    R->hxC = net_hxbar_channels(net);
    if (R->hxB > 0 && !(R->chan = calloc((size_t)net_hxbar_modules(net) * 2 * (size_t)R->hxC,
                                         sizeof *R->chan)))
        return run_fail(R, err, errlen);
    if (R->haslocal) {
        R->local = calloc((size_t)n, sizeof *R->local);
        R->in = calloc((size_t)n, sizeof *R->in);
        if (!R->local || !R->in)
            return run_fail(R, err, errlen);
    }
    if (!(R->idx = bigmem_alloc(sizeof *R->idx * (size_t)n, true)))
        return run_fail(R, err, errlen);
    int32_t *blk = malloc(sizeof *blk * (size_t)(n > 0 ? n : 1));
    if (!blk)
        return run_fail(R, err, errlen);
    last_sends(s, R->idx, blk);
    free(blk);
    int32_t ns = 0;
    for (int32_t v = 0; v < n; v++)
        ns += R->idx[v].last >= 0;
    R->A.n = ns;
    if (!(R->arr = bigmem_alloc(sizeof *R->arr * (size_t)(ns > 0 ? ns : 1), true)))
        return run_fail(R, err, errlen);
    ns = 0;
    for (int32_t v = 0; v < n; v++)
        if (R->idx[v].last >= 0) {
            if (R->idx[v].slot == -2)   /* sends in several blocks: may read a packet again */
                R->arr[ns].rstep = RSTEP_SEVERAL;
            R->idx[v].slot = ns++;
        }
    bool shared = true;
    if (!edges_init(R, &shared))
        return run_fail(R, err, errlen);
    if (R->links && shared &&
        !(R->arc = bigmem_alloc((size_t)(nl * cap) * sizeof *R->arc, true)))
        return run_fail(R, err, errlen);
    R->a->nsteps = nsteps;
    R->a->step_end = calloc((size_t)(nsteps > 0 ? nsteps : 1), sizeof *R->a->step_end);
    if (!R->a->step_end)
        return run_fail(R, err, errlen);
    if (flags & SIM_ASYNC_EVENTS) {
        int64_t ntot = sched_total_transfers(s);
        R->a->ev = malloc(sizeof *R->a->ev * (size_t)(ntot > 0 ? ntot : 1));
        if (!R->a->ev)
            return run_fail(R, err, errlen);
    }
    R->ok = true;
    return R;
}

SimAsyncRun *sim_async_begin(const Sched *s, const CostParams *p, unsigned flags, char *err,
                             size_t errlen)
{
    return run_begin(s, p, flags, false, err, errlen);
}

static bool run_again(SimAsyncRun *R, int32_t st);

/* Time one transfer (transfer i of step st: src to dst, ranges r[0..nr), a route of len hops
 * given as layout pieces pc[0..np), or, for an exclusive edge, by the time *efree its arcs
 * free; the records of its source and of its destination, -1 if not kept); its end raises
 * *send_end.  False when memory runs out. */
__attribute__((always_inline)) static inline bool time_xfer(SimAsyncRun *R, int32_t st, int64_t i, int32_t src, int32_t dst,
                             uint32_t nr, const ChunkRange *r, int64_t len, int32_t ssrc,
                             int32_t sdst, const ArcPiece *pc, int np, double *efree,
                             double *send_end)
{
    const CostParams *p = &R->p;
    SimAsync *a = R->a;
    double *arc = R->arc;
    int cap = R->cap;
    bool ok = true;
    double start = R->haslocal ? R->local[src] : 0;
    uint64_t bytes = 0;
    for (uint32_t k = 0; ok && k < nr; k++) {
        double tr = 0;
        ok = node_ready(&R->arr[ssrc], &R->A, ssrc, st, r[k].lo, r[k].hi, &tr);
        start = dmax(start, tr);
    }
    for (uint32_t k = 0; k < nr; k++)
        bytes += R->uniform ? (uint64_t)(r[k].hi - r[k].lo) * R->per_chunk
                            : sched_range_bytes(R->s, r[k].lo, r[k].hi);
    if (R->ports) {
        start = dmax(start, R->sendp[src]);
        start = dmax(start, R->recvp[dst]);
    }
    if (efree) {
        start = dmax(start, *efree);
    } else if (cap == 1) {
        for (int q = 0; q < np; q++) {
            const double *t = arc + pc[q].a;
            double m = start;
            for (int64_t h = 0, hn = pc[q].b - pc[q].a + 1; h < hn; h++)
                m = t[h] > m ? t[h] : m;
            start = m;
        }
    } else {
        /* the slot that frees first of every arc */
        for (int q = 0; q < np; q++)
            for (int64_t h = 0, hn = pc[q].b - pc[q].a + 1; h < hn; h++) {
                const double *t = arc + (pc[q].a + h) * cap;
                double best = t[0];
                for (int k = 1; k < cap; k++)
                    if (t[k] < best)
                        best = t[k];
                start = dmax(start, best);
            }
    }
    /* hxbar, between modules: the out channel of the source's module and the in channel of
     * the destination's that free first */
    double *cout = NULL, *cin = NULL;
    int32_t hxB = R->hxB, hxC = R->hxC;
    if (hxB > 0 && src / hxB != dst / hxB) {
        cout = chan_first(R->chan + (int64_t)(src / hxB) * 2 * hxC, hxC);
        cin = chan_first(R->chan + ((int64_t)(dst / hxB) * 2 + 1) * hxC, hxC);
        double c = dmax(*cout, *cin);
        if (c > start) {
            a->chan_waits++;
            a->chan_wait += c - start;
            a->chan_wait_max = dmax(a->chan_wait_max, c - start);
            start = c;
        }
    }
    double end = start + cost_transfer(p, (double)len, (double)bytes, 1);
    if (cout) {
        *cout = end;
        *cin = end;
    }
    if (R->ports) {
        R->sendp[src] = end;
        R->recvp[dst] = end;
    }
    if (efree) {
        *efree = end;
    } else if (cap == 1) {
        for (int q = 0; q < np; q++) {
            double *t = arc + pc[q].a;
            for (int64_t h = 0, hn = pc[q].b - pc[q].a + 1; h < hn; h++)
                t[h] = end;
        }
    } else {
        for (int q = 0; q < np; q++)
            for (int64_t h = 0, hn = pc[q].b - pc[q].a + 1; h < hn; h++) {
                double *t = arc + (pc[q].a + h) * cap;
                int kbest = 0;
                for (int k = 1; k < cap; k++)
                    if (t[k] < t[kbest])
                        kbest = k;
                t[kbest] = end;
            }
    }
    if (sdst >= 0)   /* else never read */
        for (uint32_t k = 0; ok && k < nr; k++)
            ok = node_add(&R->arr[sdst], &R->A, sdst, st, r[k].lo, r[k].hi, end);
    if (R->haslocal)
        R->in[dst] = dmax(R->in[dst], end);
    *send_end = dmax(*send_end, end);
    if (a->ev)
        a->ev[a->nev++] = (SimAsyncEvent){ start, end, st, i };
    return ok;
}

/* Step st of a schedule of edge blocks only, with the edges' records (edges_init). */
#define EDGE_AHEAD 12

static bool edges_step(SimAsyncRun *R, int32_t st, double *send_end)
{
    const Sched *s = R->s;
    const SchedStep *ss = &s->steps[st];
    const NodeArr *arr = R->arr;
    bool ok = true;
    for (int32_t q = 0; ok && q < ss->nrule; q++) {
        const SchedRule *r = &ss->more->rule[q];
        const SchedEdge *x = s->edges + r->e0;
        EdgeRec *E = R->edge + r->e0;
        int64_t n = r->count;
        for (int64_t j = 0; j < EDGE_AHEAD && j < n; j++) {
            __builtin_prefetch(&arr[E[j].ssrc]);
            if (E[j].sdst >= 0 && E[j].dlast >= st)
                __builtin_prefetch(&arr[E[j].sdst], 1);
        }
        for (int64_t j = 0; ok && j < n; j++) {
            if (j + EDGE_AHEAD < n) {
                const EdgeRec *f = &E[j + EDGE_AHEAD];
                __builtin_prefetch(&arr[f->ssrc]);
                if (f->sdst >= 0 && f->dlast >= st)
                    __builtin_prefetch(&arr[f->sdst], 1);
            }
            EdgeRec *e = &E[j];
            uint32_t c = x[j].tag * r->mul + r->add;
            ChunkRange cr = { c, c + 1 };
            int32_t sdst = e->dlast >= st ? e->sdst : -1;
            int64_t i = ss->n + r->first + j;
            if (e->free >= 0) {
                ok = time_xfer(R, st, i, x[j].src, x[j].dst, 1, &cr, e->len, e->ssrc, sdst,
                               NULL, 0, &e->free, send_end);
            } else {
                ArcPiece pc[ARCMAP_MAXPIECES];
                int np = edge_pieces(R, &x[j], pc);
                ok = time_xfer(R, st, i, x[j].src, x[j].dst, 1, &cr, e->len, e->ssrc, sdst,
                               pc, np, NULL, send_end);
            }
        }
    }
    return ok;
}

bool sim_async_step(SimAsyncRun *R, int32_t st, const SchedFlat *fp)
{
    if (!R->ok)
        return false;
    const Sched *s = R->s;
    const CostParams *p = &R->p;
    SimAsync *a = R->a;
    double *local = R->local;
    bool ok = true;
    double send_end = 0;
    /* local operations: after the node's earlier arrivals and operations */
    int64_t nloc = sched_nlocals(s, st);
    for (int64_t i = 0; i < nloc; i++) {
        SchedLocal lo;
        sched_local_get(s, st, i, &lo);
        int32_t v0 = lo.node < 0 ? 0 : lo.node, v1 = lo.node < 0 ? R->n - 1 : lo.node;
        for (int32_t v = v0; v <= v1; v++) {
            local[v] = dmax(local[v], R->in[v]) + p->rho * (double)lo.bytes;
            send_end = dmax(send_end, local[v]);
        }
    }
    if (R->edge) {
        ok = edges_step(R, st, &send_end);
    } else {
        const SchedFlat *f = fp;
        SchedFlat own;
        if (!f) {
            if (!sched_flat(s, st, &R->fb, &own)) {
                R->ok = false;
                return false;
            }
            f = &own;
        }
        Ahead *ring = R->ring;
        const NodeIdx *idx = R->idx;
        for (int64_t i = 0; i < 2 * AHEAD && i < f->n; i++) {
            __builtin_prefetch(&idx[f->x[i].src]);
            __builtin_prefetch(&idx[f->x[i].dst]);
        }
        for (int64_t i = 0; i < AHEAD && i < f->n; i++)
            ahead(R, &ring[i], f, i, st);
        for (int64_t i = 0; ok && i < f->n; i++) {
            const SchedXfer *x = &f->x[i];
            const Ahead *ah = &ring[i % AHEAD];
            ok = time_xfer(R, st, i, x->src, x->dst, sched_flat_nr(f, i),
                           sched_flat_ranges(f, i), ah->len, ah->ssrc, ah->sdst, ah->pc, ah->np,
                           NULL, &send_end);
            if (i + 2 * AHEAD < f->n) {
                __builtin_prefetch(&idx[f->x[i + 2 * AHEAD].src]);
                __builtin_prefetch(&idx[f->x[i + 2 * AHEAD].dst]);
            }
            if (i + AHEAD < f->n)
                ahead(R, &ring[i % AHEAD], f, i + AHEAD, st);
        }
    }
    a->step_end[st] = send_end;
    R->total = dmax(R->total, send_end);
    R->ok = ok;
    if (ok && R->A.spoiled && !R->A.keep)
        return run_again(R, st);
    return ok;
}

/* Free what the run holds but the run itself and its result. */
static void run_free_parts(SimAsyncRun *R)
{
    sched_flatbuf_free(&R->fb);
    free(R->arc);
    if (R->recvp != R->sendp)
        free(R->recvp);
    free(R->sendp);
    free(R->local);
    free(R->in);
    free(R->chan);
    free(R->idx);
    for (uint32_t k = 0; k < R->A.nlists; k++)
        free(R->A.lists[k].a);
    free(R->A.lists);
    log_free(&R->A.lg);
    for (int k = 1; k < NSTREAM; k++)
        free(R->A.sx[k]);
    free(R->arr);
    free(R->edge);
}

/* A dropped arrival may have been needed by step st: steps 0..st timed again from the start,
 * keeping every arrival (the run goes on from there in that mode). */
static bool run_again(SimAsyncRun *R, int32_t st)
{
    char e[160];
    SimAsyncRun *Q = run_begin(R->s, &R->p, R->flags, true, e, sizeof e);
    if (!Q)
        return false;
    for (int32_t k = 0; k <= st; k++)
        if (!sim_async_step(Q, k, NULL))
            break;
    run_free_parts(R);
    sim_async_free(R->a);
    *R = *Q;
    free(Q);
    return R->ok;
}

bool sim_async_own_steps(const SimAsyncRun *R) { return R && R->edge; }

SimAsync *sim_async_end(SimAsyncRun *R, char *err, size_t errlen)
{
    if (!R)
        return NULL;
    SimAsync *a = R->a;
    bool ok = R->ok && a;
    double total = R->total;
    if (ok && a->ev)
        qsort(a->ev, (size_t)a->nev, sizeof *a->ev, cmp_ev);
    run_free_parts(R);
    free(R);
    if (!ok) {
        if (err)
            snprintf(err, errlen, "async: out of memory");
        sim_async_free(a);
        return NULL;
    }
    a->total = total;
    return a;
}

SimAsync *sim_async_run(const Sched *s, const CostParams *p, unsigned flags, char *err,
                        size_t errlen)
{
    SimAsyncRun *R = sim_async_begin(s, p, flags, err, errlen);
    if (!R)
        return NULL;
    for (int32_t st = 0; st < R->nsteps; st++)
        if (!sim_async_step(R, st, NULL))
            break;
    return sim_async_end(R, err, errlen);
}

void sim_async_free(SimAsync *a)
{
    if (!a)
        return;
    free(a->step_end);
    free(a->ev);
    free(a);
}

double sim_async_total(const SimAsync *a) { return a ? a->total : 0; }

double sim_async_step_end(const SimAsync *a, int32_t step)
{
    return a && step >= 0 && step < a->nsteps ? a->step_end[step] : 0;
}

int64_t sim_async_nevents(const SimAsync *a) { return a ? a->nev : 0; }

int64_t sim_async_channel_waits(const SimAsync *a) { return a ? a->chan_waits : 0; }
double sim_async_channel_wait(const SimAsync *a) { return a ? a->chan_wait : 0; }
double sim_async_channel_wait_max(const SimAsync *a) { return a ? a->chan_wait_max : 0; }

const SimAsyncEvent *sim_async_event(const SimAsync *a, int64_t i)
{
    return a && i >= 0 && i < a->nev ? &a->ev[i] : NULL;
}
