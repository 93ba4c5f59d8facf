/* sim-core.h — the lockstep simulator's state and the contracts between its files (src/engine
 * only; sim.h is the public face, sim-internal.h the test hooks).  Which file holds what and
 * how a step flows through them: docs/engine.md.
 *
 *   sim.c          the run (sim_run: set up, step after step, totals, the end check), the
 *                  step views (sim_flat), the asynchronous timing's thread, the public accessors
 *   sim-step.c     one step's replay: sends checked against the holdings, bytes and ports
 *                  (pass 1), link loads and their violations, then the receives (pass 3)
 *   sim-exch.c     an exchange step's replay, pair by pair from its rule (no flat view)
 *   sim-price.c    one step's price under each model from what the passes found
 *   sim-sub.c      seidel's one-port rule: a step played in sub-rounds (glue to subround.h)
 *   sim-load.c     link loads: counting, clearing, busiest link per transfer, pair nets; the
 *                  second thread that counts (and clears) them while pass 1 (3) runs
 *   sim-loadsym.c  lines alike: a step's loads counted only for the lines unlike the others
 *   sim-loadxch.c  rows alike: an exchange step's loads from each node's dst - src, the rows
 *                  and columns classed at the step's end, one line per class counted
 *   sim-history.c  what each receive adds to a node, recorded for sim_seek, and the seek
 *   sim-query.c    questions about a step after the run (loads, ports, a transfer, shape)
 *   sim-steps.c    every step's figures (SimStep), compact: 12 bytes a step, kinds interned
 *   sim-hold.[ch]  one node's holdings (an interval set); sim-holdtab.c every node's (an
 *                  8-byte record each, a Hold for the nodes with several intervals)
 *   arcmap.[ch]    the links' order
 *
 * Ownership: a Sim owns every array in it (sim_free); it borrows the Sched and the Net. */
#ifndef MESHCAST_SIM_CORE_H
#define MESHCAST_SIM_CORE_H

#include "sim.h"
#include "bigmem.h"
#include "cost.h"
#include "arcmap.h"
#include "net-internal.h"
#include "sched-internal.h"
#include "sim-async-internal.h"
#include "sim-hold.h"
#include "sim-internal.h"
#include "subround.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <threads.h>

#define SIM_WALK_MAX 4096   /* sim_transfer_info walks routes up to this long */

/* How many transfers ahead the per-transfer passes prefetch what they will touch (a node's
 * heap holdings, link loads): on big nets these are cache misses in an order no hardware
 * prefetcher guesses. */
#define PREFETCH 12
#define RING 16   /* a power of two > PREFETCH */

/* A transfer as the simulator reads it: the stored record and its step's extension.  (In a
 * view from sched_flat_sets, the ranges r of a submask set, flat_set, may not be written until
 * sched_pool_ready: the replay reads the set's bits instead, sim-step.c.) */
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

/* Transfer i of f's submask set (sched_send_submasks, two ranges or more), or NULL. */
static inline const SchedSub *flat_set(const SchedFlat *f, int64_t i)
{
    return f->sub && f->sub[i].free_ != SCHED_SUB_NONE ? &f->sub[i] : NULL;
}

/* A pointer to the view of transfer i of f (valid in the enclosing block). */
#define XVP(f, i) ((const XV[]){ xv((f), (i)) })

/* Every step's figures, compact (sim-steps.c): step st's own informed and critical_node in
 * rec[st], the rest in kind[rec[st].kind], one SimStep per distinct kind (its informed and
 * critical_node 0).  slot is the hash table that finds a kind while running (freed after). */
typedef struct {
    uint32_t kind;
    int32_t informed, critical;
} StepRec;

#define KIND_WORDS 16          /* a kind's figures as words (sim-steps.c) */
typedef struct {
    StepRec *rec;              /* nsteps+1 */
    SimStep *kind;
    uint32_t nkind, capkind;
    uint32_t *slot;            /* kind index + 1, 0 empty; nslot a power of two */
    size_t nslot;
    uint64_t lastw[KIND_WORDS]; /* the kind put last (most steps have the one before's) ... */
    uint32_t last;             /* ... and its index */
} StepTab;

/* A range newly gained by a node in a step (SIM_HISTORY). */
typedef struct {
    int32_t node;
    ChunkRange r;
} Delta;

/* A step's shape as sim_step_shape last computed it (step1 = its step + 1; 0: none). */
#define SIM_SHAPES 64
typedef struct {
    int32_t step1;
    SimShape sh;
} ShapeMemo;

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

/* Lines alike (sim-loadsym.c): a step's pieces counted per line only for the lines whose
 * pieces differ from every other line's.  Each (dimension, direction) block of the layout keeps
 * up to SYM_NL "leaders": a leader is a sequence of pieces (their first and last link in the
 * line), and a line follows one while its pieces, in the order they come, are the leader's
 * first ones; a piece that agrees with no leader (and no room for a new one) sends the line
 * to the difference arrays, its pieces so far replayed there from its leader (counted once).
 * At the step's end a line with exactly its leader's pieces has that leader's loads: the first
 * such line is counted (the leader's "rep"), the others (its followers) are not, and their
 * overloads are the rep's times their number.  Until load_layout or load_clear a follower's
 * entries of sim->load are zero: load_xfer_max reads its rep's (sym_map), load_layout copies
 * the rep's in (materialised; load_clear zeroes them again). */
#define SYM_NL 4
#define SYM_KBITS 28
#define SYM_KMAX ((INT32_C(1) << SYM_KBITS) - 1)
#define SYM_V(q, k) ((int32_t)((q) << SYM_KBITS | (k)))
#define SYM_K(v) ((v) & SYM_KMAX)
#define SYM_Q(v) ((v) >> SYM_KBITS)
typedef struct {
    uint64_t *seq;             /* the pieces, (first << 32 | last) as offsets in the line */
    int32_t len, cap;
    int64_t rep;               /* after the step: the line counted for it (its start), -1 */
    int64_t nf;                /* ... and how many other lines have its loads */
} SymLead;
typedef struct {
    bool on;                   /* the last count left followers uncounted ... */
    bool mat;                  /* ... and load_layout copied their loads in since */
    bool pow2;
    int nblk;                  /* 2 * ndim blocks, block k at k * size in the layout */
    int szshift;               /* pow2: size == 1 << szshift */
    int64_t size;              /* the net's nodes: a block's links */
    int32_t *lk;               /* per line: SYM_V(the leader it follows (of its block's),
                                * its pieces so far), -1: counted in sim->load */
    int64_t nl;                /* lines (lbase[nblk]) */
    int64_t lbase[2 * NET_MAXDIM + 1];   /* the first line of each block */
    int32_t llen[2 * NET_MAXDIM];        /* the length of a block's lines */
    int lshift[2 * NET_MAXDIM];          /* pow2: llen == 1 << lshift */
    int nlead[2 * NET_MAXDIM];
    SymLead lead[2 * NET_MAXDIM][SYM_NL];
    int32_t *xd;               /* rows alike (sim-loadxch.c): per node, its transfer's dst - src
                                * in the exchange step being fed (0: none; zero between steps) */
    int64_t xcap;
} LoadSym;

struct Sim {
    const Sched *s;
    const Net *net;
    CostParams p;
    unsigned flags;
    int32_t nsteps;
    StepTab steps;             /* every step's figures (sim-steps.c) */
    SimStep cur;               /* the step being replayed (cur_step; -1 after the run) */
    int32_t cur_step;
    double *cum;
    SimTotals tot;
    SimViolation *viol;
    size_t nviol;

    HoldTab hold;            /* every node's holdings (sim-hold.h) */
    int32_t pos;
    Delta **dblk;              /* the deltas, in blocks of DBLK deltas (never moved) */
    uint64_t ndelta, ndblk;
    uint64_t *dstart;          /* nsteps+1 offsets into the deltas */
    uint64_t *xnew;            /* bit per transfer (all steps): its dst held none of it, so
                                * its delta is its own ranges and none is recorded */
    int64_t *xstart;           /* nsteps+1: transfers before each step */
    int32_t informed;          /* nodes holding at least one chunk (while running) */

    int64_t nlinks;
    ArcMap lay;                /* the links' private order (arcmap.h) */
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
    uint64_t *arcbit;          /* disjoint path: a bit per arc used in this step ... */
    int64_t arclo, archi;      /* ... set in words arclo..archi-1 (none: arclo >= archi) */
    uint8_t loadtr[2];         /* square 2-D mesh: column block (+, -) of sim->load held
                                * transposed (1: entry r * n1 + c, node order) since the
                                * count until load_layout (then 2: in layout order), and
                                * cleared whole by load_clear (sim-load.c) */
    LoadSym sym;               /* lines alike (sim-loadsym.c) */
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

    uint8_t *sends, *recvs;    /* per node, the step being simulated, saturating at
                                * UINT8_MAX (only whether a node sent twice matters, unless a
                                * count saturates: port_sat); zero between steps */
    bool port_sat;             /* a count saturated in this step: exact ones in qsends */
    int32_t *qsends, *qrecvs;  /* per node, exact; zero except for port_step */
    int32_t port_step;
    ShapeMemo shapes[SIM_SHAPES]; /* sim_step_shape's last few (sim-query.c) */
    double *ssum, *rsum;       /* seidel: serialised cost per node */
    SubRound *sub;             /* seidel: a step's sub-rounds (lazy) */

    int32_t *xk;               /* busiest load per transfer of the step being simulated */
    size_t capx;
    bool uniform;              /* every chunk has per_chunk bytes (bytes % nchunks == 0) */
    uint64_t per_chunk;
    int32_t *tmpnodes;
    size_t captmp;
    SchedFlatBuf fbuf;         /* the transfers of flat_step, when it has rule blocks */
    SchedFlat flat;
    int32_t flat_step;         /* -1: none */
    bool sets;                 /* while the run replays (no history, no asynchronous timing):
                                * views from sched_flat_sets, whose submask sets' ranges
                                * sim-step.c reads only after sched_pool_ready */
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
    SchedFlatBuf pbuf;         /* an exchange step's first transfers, priced (sim-exch.c) */
    uint64_t *xdone;           /* an exchange step's transfers sent with their partner (a bit
                                * each, zero between steps) ... */
    size_t capdone;            /* ... words */
    SchedFlatBuf nbuf;         /* while simulating: the next step's, made ahead */
    SchedFlat next;
    int32_t next_step;         /* -1: none */
    SimAsyncRun *arun;         /* SIM_ASYNC: the timing, step by step while running ... */
    SimAsync *async;           /* ... and its result (until sim_async_take) */
    char aerr[160];            /* ... or why there is none */
    AsyncJob ajob;             /* the timing on a thread of its own (ajob.on) */
};

/* The deltas live in blocks of DBLK that never move (a big simulation records tens of millions:
 * no copying on growth). */
#define DBLK_SHIFT 19
#define DBLK ((uint64_t)1 << DBLK_SHIFT)

static inline const Delta *delta_at(const Sim *sim, uint64_t i)
{
    return &sim->dblk[i >> DBLK_SHIFT][i & (DBLK - 1)];
}

/* The Sim's big arrays (bigmem.h): for the TUI (SIM_HISTORY), which reads them at random for
 * long (seek and frame), on huge pages; for a run on small pages (each touched once or twice,
 * where a huge page's first touch costs the host most); big_whole: written all over. */
static inline void *big_alloc(const Sim *sim, size_t bytes, bool zero)
{
    return sim->flags & SIM_HISTORY ? bigmem_alloc_huge(bytes) : bigmem_alloc(bytes, zero);
}
static inline void *big_zalloc(const Sim *sim, size_t bytes) { return big_alloc(sim, bytes, true); }
static inline void *big_whole(const Sim *sim, size_t bytes)
{
    return sim->flags & SIM_HISTORY ? bigmem_alloc_huge(bytes) : bigmem_alloc_whole(bytes);
}

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
    return sched_ranges_bytes(s, r, x->nr);   /* a strided set: no division per range */
}

/* Transfer i of f's bytes, a submask set's from its bits (flat_set: no range read). */
static inline uint64_t flat_bytes(const Sim *sim, const SchedFlat *f, int64_t i)
{
    const SchedSub *q = flat_set(f, i);
    if (!q)
        return xfer_bytes(sim, XVP(f, i));
    return sim->uniform ? sim->per_chunk << sched_pop32(q->free_)
                        : sched_submasks_bytes(sim->s, q->fixed, q->free_);
}

/* Node v's sends and receives in the step being simulated (after pass 1), exact. */
static inline int32_t port_sends(const Sim *sim, int32_t v)
{
    return sim->port_sat ? sim->qsends[v] : sim->sends[v];
}

static inline int32_t port_recvs(const Sim *sim, int32_t v)
{
    return sim->port_sat ? sim->qrecvs[v] : sim->recvs[v];
}

/* The layout pieces of x's route (at most ARCMAP_MAXPIECES); *len gets the route length. */
static inline int route_pieces(const Sim *sim, const XV *x, ArcPiece *pc, int32_t *len)
{
    return arcmap_route(&sim->lay, sim->s, x->src, x->dst, x->route, pc, len);
}

/* Route length without the pieces. */
static inline int32_t xfer_len(const Sim *sim, const XV *x)
{
    return arcmap_len(&sim->lay, sim->s, x->src, x->dst, x->route);
}

/* hxbar: a channel with k transfers has load ceil(k/C) (C transfers a step at full speed). */
static inline int32_t chan_units(const Sim *sim, int32_t k) { return (k + sim->hxC - 1) / sim->hxC; }

static inline int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

static inline int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* ---- sim.c */
/* Step st's transfers as flat arrays (see sched-internal.h): the last step asked for is kept,
 * so a step made by rules is expanded once however many passes read it.  NULL when memory
 * runs out.  The view changes when another step is asked for. */
const SchedFlat *sim_flat(Sim *sim, int32_t st);

/* ---- sim-steps.c */
/* An empty table for nsteps steps; steps_free frees it.  False: no memory. */
bool steps_init(StepTab *t, int32_t nsteps);
void steps_free(StepTab *t);
/* Step st's figures are s (interning its kind).  False: no memory. */
bool steps_put(StepTab *t, int32_t st, const SimStep *s);
/* The run is over: the hash table goes, the kinds shrink to their count. */
void steps_done(StepTab *t);
/* Step st's figures, put back together. */
void steps_get(const StepTab *t, int32_t st, SimStep *out);
/* Step st's kind: every figure but informed and critical_node (which read 0 there). */
static inline const SimStep *steps_kind(const StepTab *t, int32_t st)
{
    return &t->kind[t->rec[st].kind];
}

/* ---- sim-step.c */
/* Replay step st (steps in order, each once): check, count, price it into sim->cur (then
 * sim->steps) and hand out its receives.  False when memory runs out. */
bool step_run(Sim *sim, int32_t st);
/* ---- sim-exch.c */
/* Is step st one exchange block (sched_send_rule_exchange) that step_exchange replays (no
 * history, no asynchronous timing, seidel or duplex postal, a grid, loads by AUTO or DIFF)? */
bool step_exch_ok(const Sim *sim, int32_t st);
/* step_run for such a step: pair by pair from the rule, the loads block by block, nothing
 * expanded whole.  False when memory runs out. */
bool step_exchange(Sim *sim, int32_t st);

/* Record a violation (the first SIM_MAXVIOL kept, all counted). */
void step_add_viol(Sim *sim, SimViolation v);
/* Per-transfer scratch (sim->xk) for n transfers; per-node port counts (zero);
 * per-node node scratch (sim->tmpnodes) for n; per-node local sums (zero).  False: no memory. */
bool step_ensure_x(Sim *sim, size_t n);
bool step_ensure_ports(Sim *sim);
/* The exact per-node counts (sim->qsends, qrecvs), made once (zero).  False: no memory. */
bool step_ensure_qports(Sim *sim);
bool step_ensure_tmp(Sim *sim, size_t n);
bool step_ensure_sums(Sim *sim);
/* sim->edisj (see struct Sim) when the schedule allows it.  False when memory runs out. */
bool step_edges_disjoint(Sim *sim);

/* ---- sim-load.c */
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
/* Thread entries (thrd_start_t) on a LoadJob: count step st's loads (into tcd, path, mx,
 * nover, oom); clear them, then make the next step's flat view ahead if it has rules. */
int load_count_job(void *arg);
int load_clear_job(void *arg);
/* Count the loads of step st into sim->load (which must be all zero).  Returns the path used
 * (SIM_PATH_DIRECT or SIM_PATH_DIFF); *max and *over get the largest load and the number of
 * links above cap; with collect, the overloaded links go to sim->over.  *tcd is the step's
 * summed route length, or < 0 if unknown: then it is computed. */
int load_count(Sim *sim, int32_t st, int64_t *tcd, int32_t cap, bool collect, int32_t *max,
               int64_t *nover, bool *oom);
/* A step's loads counted block by block on the calling thread (the difference arrays, any
 * grid but a pair net; the same loads as load_count's SIM_PATH_DIFF):
 *   load_acc_begin(sim, &a, n, alike)  before the first block; n = the step's transfers,
 *                                sim->load all zero; alike: many lines likely carry the same
 *                                pieces (an exchange step), so count by LoadSym (the hook
 *                                sim_load_sym overrides it);
 *   load_acc_add(sim, &a, blk)   +1/-1 of every transfer of blk (a view of the whole step or
 *                                of some of its transfers, in any order, each once);
 *   load_acc_end(sim, &a, ...)   the sweep: largest load, overloads (collect: sim->over),
 *                                summed route length;
 * then load_clear(sim, st, SIM_PATH_DIFF) after the step, as for load_count.  Each returns
 * false when memory runs out.  (a: the caller's, on its stack; no memory of its own.) */
typedef struct {
    bool mesh2, pow2, tr;      /* 2-D mesh read from the ends; column pieces transposed */
    bool sym;                  /* lines alike (LoadSym): only the lines unlike the others
                                * counted (never transposed) */
    bool xch;                  /* rows alike (load_acc_exchange): fed into sim->sym.xd */
    bool cblk[2];              /* ... into these column blocks (+, -) */
    int32_t n0, n1, sh;
    int64_t rb[2], cb[2];      /* row lines' and column lines' blocks (+, -) */
    int64_t rlast[2];          /* the row lines (+, -) marked last */
    int64_t sum;               /* summed route length so far */
} LoadAcc;
bool load_acc_begin(Sim *sim, LoadAcc *a, int64_t n, bool alike);
bool load_acc_add(Sim *sim, LoadAcc *a, const SchedFlat *blk);
bool load_acc_end(Sim *sim, LoadAcc *a, int32_t cap, bool collect, int32_t *max, int64_t *nover,
                  int64_t *tcd);
/* A step of f's transfers whose sources are all distinct: true (with *tcd) when every route
 * is one hop, so that no two share an arc (sim-load.c); the caller then takes it as counted
 * by SIM_PATH_DISJOINT with nothing to clear. */
bool load_one_hop(const Sim *sim, const SchedFlat *f, int64_t *tcd);
/* Zero sim->load after load_count(st) took `path`. */
void load_clear(Sim *sim, int32_t st, int path);
/* sim->load in layout order again (the column blocks a step's count left transposed, see
 * sim->loadtr, transposed back); whoever reads sim->load directly between a count and its
 * clear calls it first (load_count and load_rmq_build do). */
void load_layout(Sim *sim);
/* The range-maximum structure over sim->load.  False when memory runs out. */
bool load_rmq_build(Sim *sim);
/* Busiest load on x's route: by walking (walk) or by the range-maximum structure. */
int32_t load_xfer_max(const Sim *sim, const XV *x, bool walk);
/* sim->xk[i] = the busiest load on transfer i's route for every transfer of f (the loads
 * counted by `path`).  False when memory runs out. */
bool load_all_max(Sim *sim, const SchedFlat *f, int path);
/* Transfers of the flat step f over the pair link `link` of a full net (hxbar: or the load
 * of a channel link). */
int32_t load_pair_count(const Sim *sim, const SchedFlat *f, int64_t link);
/* +1 at link a, -1 after link b, in the line that starts at ls (n links), the line marked
 * touched (for the sweep and the clear).  False when memory runs out. */
bool load_diff(Sim *sim, int64_t a, int64_t b, int64_t ls, int64_t n);

/* ---- sim-loadxch.c: an exchange step's loads by rows alike (called by sim-exch.c and
 * sim-load.c).  After load_acc_begin(..., alike) on a 2-D mesh counted by lines alike, a step
 * in which every node sends at most once (an exchange) may ask load_acc_exchange: then
 * load_acc_add only writes each transfer's dst - src (xch_add), and load_acc_end classes the
 * rows by those ints and the columns by what the classes put in them (xch_end), counting one
 * line per class (LoadSym's reps and followers); a node sending twice, an explicit route or
 * collect sends what was fed to the difference arrays (xch_flush) and the step goes on there.
 * Each returns false when memory runs out (load_acc_exchange: not taken). */
bool load_acc_exchange(Sim *sim, LoadAcc *a);
bool xch_add(Sim *sim, LoadAcc *a, const SchedFlat *f);
bool xch_flush(Sim *sim, LoadAcc *a);
bool xch_end(Sim *sim, LoadAcc *a);

/* ---- sim-loadsym.c (LoadSym, above; called by sim-load.c) */
/* Whether lines alike can be counted on this net; then every line starts empty, following
 * no leader.  False: count as usual (not a net of lines, or no memory). */
bool sym_begin(Sim *sim, bool forced);
/* The piece key's line: its block (*blk) and number, from the start of the line. */
int64_t sym_line(const LoadSym *S, int64_t start, int *blk);
/* A piece (key) of line li (block blk, start ls, n links) that its leader does not have at
 * the line's place: another leader's, a new leader, or the line counted from now on (its
 * pieces so far replayed into sim->load).  1: followed, 0: count it in sim->load, -1: memory. */
int sym_slow(Sim *sim, int blk, int64_t li, int64_t ls, int64_t n, uint64_t key);
/* After a step's last piece: the lines that followed only a part of their leader counted;
 * of those with all of it, each leader's first counted (its rep), the others its followers
 * (with keep; without, counted too).  False when memory runs out. */
bool sym_resolve(Sim *sim, bool keep);
/* After the sweep: the followers' overloads, the rep's times their number, added to *nover. */
void sym_overloads(const Sim *sim, int32_t cap, int64_t *nover);
/* The start of the line whose loads the line that starts at ls has (its rep, or itself). */
int64_t sym_map(const Sim *sim, int64_t ls);
/* The followers' loads copied from their reps into sim->load (load_layout). */
void sym_materialise(Sim *sim);
/* Forget the step's followers (load_clear), zeroing what sym_materialise wrote. */
void sym_clear(Sim *sim);
void sym_free(Sim *sim);
/* The usual case inline: the line follows a leader that has this piece next. */
static inline int sym_take(Sim *sim, int blk, int64_t li, int64_t ls, int64_t n, uint64_t key)
{
    LoadSym *S = &sim->sym;
    int32_t v = S->lk[li], k = SYM_K(v);
    if (v < 0)
        return 0;
    const SymLead *L = &S->lead[blk][SYM_Q(v)];
    if (k < L->len && L->seq[k] == key) {
        S->lk[li] = v + 1;
        return 1;
    }
    return sym_slow(sim, blk, li, ls, n, key);
}
static inline uint64_t sym_key(int64_t lo, int64_t hi)
{
    return (uint64_t)lo << 32 | (uint64_t)hi;
}

/* ---- sim-price.c */
/* What pass 1 found of a step, for pricing it. */
typedef struct {
    int32_t cap, mx;           /* links' capacity, the busiest link's load */
    int path;                  /* how its loads were counted */
    uint64_t bmax;             /* the most bytes one transfer carries ... */
    int64_t barg;              /* ... first by */
    int64_t conflicts, mixed;  /* extra sends and receives; nodes that did both */
    double csu, ctr;           /* circuit, saf: the costliest transfer's terms ... */
    int32_t ccrit;             /* ... its source */
    int64_t cmaxlen;           /* ... and the longest route */
} StepFacts;
/* Price step st (its flat view f, n > 0 transfers) into out->cost's startup, transmission and
 * contention (and critical_node, subrounds, max_len; postal's port violations); *comm gets
 * their sum as the model adds them.  False when memory runs out. */
bool price_comm(Sim *sim, int32_t st, const SchedFlat *f, const StepFacts *k, SimStep *out,
                double *comm);
/* The same from a prefix f of the step's transfers (k from all of them): 1 when the prefix
 * decides the price as price_comm would find it over all (out and *comm set), 0 when it does
 * not (then price_comm over the whole step; out's price untouched), -1 when memory runs out. */
int price_comm_prefix(Sim *sim, int32_t st, const SchedFlat *f, const StepFacts *k,
                      SimStep *out, double *comm);
/* *local = rho * (bytes on every node + the most on one node) of step st's local operations.
 * False when memory runs out. */
bool price_local(Sim *sim, int32_t st, double *local);

/* ---- sim-sub.c */
/* Seidel, a step in which some node sends or receives more than once: priced in sub-rounds
 * (subround.h) into the three terms, out's subrounds, loads, critical node.  False: memory. */
bool sub_price(Sim *sim, int32_t st, const SchedFlat *f, int32_t cap, SimStep *out,
               double *startup, double *trans, double *cont);
/* Seidel, a step played in sub-rounds (after the run): its sub-rounds split in sim->sub, whose
 * link loads are the most circuits on a link at once.  False when it is not such a step. */
bool sub_ready(Sim *sim, int32_t step);

/* ---- sim-history.c */
/* Give the normalised ranges r[0..nr) to node, transfer xi of the whole run; with
 * SIM_HISTORY, what the node did not hold is recorded (for sim_seek).  False: memory. */
bool hist_receive_all(Sim *sim, int32_t node, const ChunkRange *r, uint32_t nr, int64_t xi);
/* The same for a transfer whose nr ranges r are the submask set (fixed, free_) of a view from
 * sched_flat_sets, which may not be written yet: taken from the bits when it can (borrowed as
 * them into empty holdings without history, or a few ranges made here), else the pool written
 * first (sched_pool_ready) and r read. */
bool hist_receive_set(Sim *sim, int32_t node, uint32_t fixed, uint32_t free_,
                      const ChunkRange *r, uint32_t nr, int64_t xi);
/* Every node's holdings back to the givens (what it holds before the first step). */
bool hist_givens(Sim *sim);
/* hist_receive_all with the common cases inline: one range or two (rh's exchange), no history,
 * too few to borrow (the replay calls this once per transfer). */
static inline bool hist_receive(Sim *sim, int32_t node, const ChunkRange *r, uint32_t nr,
                                int64_t xi)
{
    if (nr == 1 && !(sim->flags & SIM_HISTORY))
        return ht_add(&sim->hold, node, r[0].lo, r[0].hi);
    if (nr == 2 && !(sim->flags & SIM_HISTORY) && sim_borrow_min > 2)
        return ht_add(&sim->hold, node, r[0].lo, r[0].hi) &&
               ht_add(&sim->hold, node, r[1].lo, r[1].hi);
    return hist_receive_all(sim, node, r, nr, xi);
}

#endif
