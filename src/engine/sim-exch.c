/* sim-exch.c — one exchange step of the lockstep replay, pair by pair, never expanded whole
 * (sim-core.h: step_exchange).  An exchange step is one block of sched_send_rule_exchange:
 * transfer j is node j's send to its partner p(j), whose own transfer p(j) comes back to j,
 * proved from the rule's parameters.  So every node sends once and receives once (no port
 * counts: no conflicts), and a pair's two receives touch only the pair's two nodes: the step
 * is replayed pair by pair, both sends checked against the start-of-step holdings, then both
 * receives, while the two Holds are in cache.
 *
 * The transfers are generated from the rule a block of EXCH_B at a time (the node order);
 * a pair whose partner lies in another block takes the partner's transfer from a few blocks
 * generated on demand (a small cache), both marked done in a bit per transfer (a block whose
 * transfers are all done is not generated at all); a later partner block with transfers left
 * is paired at once from the cache, so that rh's blocks are each generated once.  Each block's routes are
 * counted into the link loads while in cache (load_acc_add, sim-load.c), on this thread.
 * The not-held violations are put in transfer order at the end; the price comes from the
 * step's first transfers (price_comm_prefix) or, when those do not decide it, from the whole
 * step's flat view (sim_flat, as step_run would).  Figures, violations and holdings are those
 * of step_run's passes (tests/unit/test_exch.c pins them). */
#include "sim-core.h"

#include <stdlib.h>
#include <string.h>

bool step_exch = true;
_Atomic int64_t step_exch_steps = 0;

#define EXCH_B 512        /* transfers generated at a time (a multiple of 64) */
#define EXCH_NP 4         /* partner blocks kept */
#define EXCH_PREFIX 4096  /* transfers of the view priced first */
#define EXCH_AHEAD 16     /* transfers ahead whose Holds are fetched */

typedef struct {
    SchedRuleXfer *a;                    /* the block being paired (one of blk) */
    SchedRuleXfer *p[EXCH_NP];           /* partner blocks (the others) ... */
    int64_t p0[EXCH_NP];                 /* ... their first transfers (-1: none) */
    int next;                            /* the one to replace next */
    SchedXfer lx[EXCH_B], ly[EXCH_B];    /* the pairs' ends (this block's, partners'), for
                                          * the loads */
    SchedRuleXfer blk[EXCH_NP + 1][EXCH_B];
} ExchBuf;

/* What the pairs found.  Every chunk the same size (sim->uniform): chunks counted instead of
 * bytes (chunks, cmax, carg), turned into bytes at the end (exch_bytes). */
typedef struct {
    uint64_t bytes, bmax;
    int64_t barg;
    uint64_t chunks, cmax;
    int64_t carg;
    SimViolation *v;                     /* not-held violations, in the order found */
    size_t nv, capv;
    bool oom;
} ExchFacts;

bool step_exch_ok(const Sim *sim, int32_t st)
{
    const CostParams *p = &sim->p;
    return step_exch && !(sim->flags & SIM_HISTORY) && !sim->arun && !sim->full &&
           (p->model == COST_SEIDEL || (p->model == COST_POSTAL && p->duplex)) &&
           (sim_load_path == SIM_PATH_AUTO || sim_load_path == SIM_PATH_DIFF) &&
           sched_step_exchange(sim->s, st) != NULL;
}

/* Transfer d's record from the partner blocks (generated when not there). */
static const SchedRuleXfer *partner(ExchBuf *B, const SchedRule *r, int64_t n, int64_t d)
{
    int64_t b0 = d - d % EXCH_B;
    for (int q = 0; q < EXCH_NP; q++)
        if (B->p0[q] == b0)
            return &B->p[q][d - b0];
    int q = B->next;
    B->next = (q + 1) % EXCH_NP;
    sched_rule_gen(r, b0, n - b0 < EXCH_B ? n - b0 : EXCH_B, B->p[q]);
    B->p0[q] = b0;
    return &B->p[q][d - b0];
}

/* Transfer i's send (x), which its source lacks (miss: the first chunk it lacks): a not-held
 * violation.  False (e->oom) when memory runs out. */
static bool exch_viol(int32_t st, const SchedRuleXfer *x, int64_t i, uint32_t miss,
                      ExchFacts *e)
{
    if (e->nv == e->capv) {
        size_t nc = e->capv ? 2 * e->capv : 64;
        SimViolation *v = realloc(e->v, nc * sizeof *v);
        if (!v) {
            e->oom = true;
            return false;
        }
        e->v = v;
        e->capv = nc;
    }
    e->v[e->nv++] = (SimViolation){ .kind = SIM_V_NOT_HELD, .step = st, .node = x->src,
                                    .link = -1, .chunk = miss, .transfer = i };
    return true;
}

/* A transfer of c chunks (every chunk the same size), transfer i: the most (first by index)
 * and the sum so far. */
static inline __attribute__((always_inline)) void tally(uint64_t c, int64_t i, uint64_t *chunks,
                                                        uint64_t *cmax, int64_t *carg)
{
    if (c > *cmax || (c == *cmax && i < *carg)) {
        *cmax = c;
        *carg = i;
    }
    *chunks += c;
}

/* Transfer i's send (x), which its source holds or not (then *miss: the first chunk it
 * lacks): a not-held violation when not; its bytes (or chunks).  (e->oom when memory runs
 * out.) */
static inline __attribute__((always_inline)) void exch_note(Sim *sim, int32_t st,
                                                            const SchedRuleXfer *x, int64_t i,
                                                            bool held, uint32_t miss,
                                                            ExchFacts *e)
{
    if (!held && !exch_viol(st, x, i, miss, e))
        return;
    if (sim->uniform) {
        uint64_t c = 0;
        for (uint32_t k = 0; k < x->nr; k++)
            c += x->r[k].hi - x->r[k].lo;
        tally(c, i, &e->chunks, &e->cmax, &e->carg);
        return;
    }
    XV xv_ = { x->src, x->dst, x->nr, SCHED_DEFAULT_ROUTE, x->r };
    uint64_t b = xfer_bytes(sim, &xv_);
    if (b > e->bmax || (b == e->bmax && i < e->barg)) {
        e->bmax = b;
        e->barg = i;
    }
    e->bytes = sat_add(e->bytes, b);
}

/* Every chunk the same size: the bytes from the chunks counted, as exch_note would have added
 * them transfer by transfer (b = chunks * per_chunk: the first transfer with the most chunks
 * has the most bytes, unless per_chunk is 0 and every transfer none; the saturating sum of
 * non-negative terms is their sum, or UINT64_MAX when that does not fit). */
static void exch_bytes(const Sim *sim, ExchFacts *e)
{
    if (!sim->uniform)
        return;
    uint64_t p = sim->per_chunk, t;
    e->bytes = __builtin_mul_overflow(e->chunks, p, &t) ? UINT64_MAX : t;
    e->bmax = e->cmax * p;   /* (at most the message's bytes) */
    e->barg = p ? e->carg : 0;
}

/* Transfer i's send (x) against its source's holdings; its bytes. */
static inline __attribute__((always_inline)) void exch_send(Sim *sim, int32_t st,
                                                            const SchedRuleXfer *x, int64_t i,
                                                            ExchFacts *e)
{
    uint32_t miss = 0, kmiss;
    bool held = !x->nr ||
                (x->nr == 1 ? ht_contains(&sim->hold, x->src, x->r[0].lo, x->r[0].hi, &miss)
                            : ht_contains_all(&sim->hold, x->src, x->r, x->nr, &kmiss, &miss));
    exch_note(sim, st, x, i, held, miss, e);
}

/* Transfer x's receive.  False: memory. */
static inline __attribute__((always_inline)) bool exch_recv(Sim *sim, const SchedRuleXfer *x)
{
    bool had = !ht_empty(&sim->hold, x->dst);
    if (!hist_receive(sim, x->dst, x->r, x->nr, 0))
        return false;
    if (!had && x->nr > 0)
        sim->informed++;
    return true;
}

/* The same with the table dense (sim->hold.dense) and the Hold h of x's source (held_d) or
 * of its destination (exch_recv_d) at hand: one or two ranges tested and added on the Hold
 * itself, inline (two ranges, rh's second steps: each tested, the first one lacking named,
 * as ht_contains_all does; added one after the other, as hist_receive does without history
 * when two are too few to borrow); anything else through the table.  held_d: does x's source
 * hold x's ranges (if not, *miss), and *c gets x's chunks. */
static inline __attribute__((always_inline)) bool held_d(Sim *sim, const SchedRuleXfer *x,
                                                         const Hold *h, uint32_t *miss,
                                                         uint64_t *c)
{
    uint32_t kmiss;
    if (x->nr == 1) {
        *c = x->r[0].hi - x->r[0].lo;
        return hold_contains_inl(h, x->r[0].lo, x->r[0].hi, miss);
    }
    if (x->nr == 2) {
        *c = (uint64_t)(x->r[0].hi - x->r[0].lo) + (x->r[1].hi - x->r[1].lo);
        return hold_contains_inl(h, x->r[0].lo, x->r[0].hi, miss) &&
               hold_contains_inl(h, x->r[1].lo, x->r[1].hi, miss);
    }
    *c = 0;
    for (uint32_t k = 0; k < x->nr; k++)
        *c += x->r[k].hi - x->r[k].lo;
    return !x->nr || ht_contains_all(&sim->hold, x->src, x->r, x->nr, &kmiss, miss);
}

static inline __attribute__((always_inline)) bool exch_recv_d(Sim *sim, const SchedRuleXfer *x,
                                                              Hold *h)
{
    bool had = !hold_empty(h);
    if (x->nr == 1 || (x->nr == 2 && sim_borrow_min > 2)) {
        if (!hold_add(h, x->r[0].lo, x->r[0].hi) ||
            (x->nr == 2 && !hold_add(h, x->r[1].lo, x->r[1].hi)))
            return false;
    } else if (!hist_receive_all(sim, x->dst, x->r, x->nr, 0)) {
        return false;
    }
    if (!had && x->nr > 0)
        sim->informed++;
    return true;
}

static int cmp_viol(const void *pa, const void *pb)
{
    const SimViolation *a = pa, *b = pb;
    return (a->transfer > b->transfer) - (a->transfer < b->transfer);
}

/* Are transfers j0..j0+m-1 all done (their bits set)? */
static bool all_done(const uint64_t *done, int64_t j0, int64_t m)
{
    const uint64_t *w = done + (j0 >> 6);
    int64_t nw = (m + 63) >> 6;
    for (int64_t q = 0; q < nw; q++) {
        uint64_t want = q == nw - 1 && (m & 63) ? (UINT64_C(1) << (m & 63)) - 1 : ~UINT64_C(0);
        if ((w[q] & want) != want)
            return false;
    }
    return true;
}

/* Pair every transfer of the block B->a (transfers j0..j0+m-1) not done yet with its partner
 * (from the block or the partner blocks): both sends against the start-of-step holdings
 * (neither node has received yet: each receives only from the other), then both receives;
 * both marked done; their routes into the loads.  False: memory. */
static bool pair_block(Sim *sim, int32_t st, const SchedRule *r, int64_t n, ExchBuf *B,
                       int64_t j0, int64_t m, uint64_t *done, LoadAcc *la, ExchFacts *e)
{
    bool big = sim->hold.dense || sim->hold.nbig > 0;
    int64_t nl = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t j = j0 + i;
        if (i + EXCH_AHEAD < m) {
            ht_fetch(&sim->hold, B->a[i + EXCH_AHEAD].src, 1);
            ht_fetch(&sim->hold, B->a[i + EXCH_AHEAD].dst, 1);
            if (big) {
                ht_prefetch(&sim->hold, B->a[i + EXCH_AHEAD / 2].src);
                ht_prefetch(&sim->hold, B->a[i + EXCH_AHEAD / 2].dst);
            }
        }
        if (done[j >> 6] & (UINT64_C(1) << (j & 63)))   /* went with its partner */
            continue;
        const SchedRuleXfer *x = &B->a[i];
        int64_t d = x->dst;
        const SchedRuleXfer *y = d >= j0 && d < j0 + m ? &B->a[d - j0] : partner(B, r, n, d);
        done[j >> 6] |= UINT64_C(1) << (j & 63);
        done[d >> 6] |= UINT64_C(1) << (d & 63);
        exch_send(sim, st, x, j, e);
        exch_send(sim, st, y, d, e);
        if (e->oom || !exch_recv(sim, x) || !exch_recv(sim, y))
            return false;
        B->lx[nl] = (SchedXfer){ x->src, x->dst };
        B->ly[nl++] = (SchedXfer){ y->src, y->dst };
    }
    /* (each list in node order: a row's pieces one after the other) */
    SchedFlat lf = { .x = B->lx, .n = nl, .r1 = { .one = { 0, 1 } } };
    SchedFlat uf = { .x = B->ly, .n = nl, .r1 = { .one = { 0, 1 } } };
    return nl == 0 || (load_acc_add(sim, la, &lf) && load_acc_add(sim, la, &uf));
}

/* The pairs of the step (rule r, n transfers): sends, receives, loads into la.  The blocks
 * in order, each generated unless all its transfers are done; after each, the later partner
 * blocks still kept that have transfers left are paired at once from what was generated
 * (the partner block taking the block's place in the cache): an exchange whose pairs join a
 * few blocks (rh's interleaved steps: four) generates each block once.  False: memory. */
static bool exch_pairs(Sim *sim, int32_t st, const SchedRule *r, int64_t n, ExchBuf *B,
                       uint64_t *done, LoadAcc *la, ExchFacts *e)
{
    B->a = B->blk[EXCH_NP];
    for (int q = 0; q < EXCH_NP; q++) {
        B->p[q] = B->blk[q];
        B->p0[q] = -1;
    }
    B->next = 0;
    for (int64_t j0 = 0; j0 < n; j0 += EXCH_B) {
        int64_t m = n - j0 < EXCH_B ? n - j0 : EXCH_B;
        if (all_done(done, j0, m))
            continue;
        sched_rule_gen(r, j0, m, B->a);
        int64_t cur = j0, cm = m;
        for (;;) {
            if (!pair_block(sim, st, r, n, B, cur, cm, done, la, e))
                return false;
            int q = 0;
            for (; q < EXCH_NP; q++)
                if (B->p0[q] > j0 &&
                    !all_done(done, B->p0[q], n - B->p0[q] < EXCH_B ? n - B->p0[q] : EXCH_B))
                    break;
            if (q == EXCH_NP)
                break;
            SchedRuleXfer *t = B->a;   /* that block next; this one kept in its place */
            B->a = B->p[q];
            B->p[q] = t;
            int64_t nx = B->p0[q];
            B->p0[q] = cur;
            cur = nx;
            cm = n - cur < EXCH_B ? n - cur : EXCH_B;
        }
    }
    memset(done, 0, (size_t)((n >> 6) + 1) * sizeof *done);
    return true;
}

/* The np pairs at pr (transfer j then its partner's, each pair's two transfers) with the
 * table dense: both sends, both receives, on the two Holds; the pairs' ends into B->lx (the
 * lower ends') and B->ly.  uni: sim->uniform (the chunks tallied here, in registers, e's
 * after the run).  False: memory. */
static inline __attribute__((always_inline)) bool pairs_dense_(Sim *sim, int32_t st,
                                                               const SchedRuleXfer *pr,
                                                               int64_t np, ExchBuf *B,
                                                               ExchFacts *e, bool uni)
{
    Hold *H = sim->hold.dense;
    uint64_t chunks = 0, cmax = e->cmax;
    int64_t carg = e->carg;
    bool ok = true;
    for (int64_t k = 0; ok && k < np; k++) {
        /* (no prefetch: the lower and the upper ends are two streams the hardware follows;
         * fetching ahead measured no faster) */
        const SchedRuleXfer *x = &pr[2 * k], *y = x + 1;
        Hold *hx = &H[x->src], *hy = &H[y->src];
        uint32_t mx = 0, my = 0;
        uint64_t cx, cy;
        bool okx = held_d(sim, x, hx, &mx, &cx), oky = held_d(sim, y, hy, &my, &cy);
        if (uni) {
            tally(cx, x->src, &chunks, &cmax, &carg);
            tally(cy, y->src, &chunks, &cmax, &carg);
            ok = (okx || exch_viol(st, x, x->src, mx, e)) &&
                 (oky || exch_viol(st, y, y->src, my, e));
        } else {
            exch_note(sim, st, x, x->src, okx, mx, e);
            exch_note(sim, st, y, y->src, oky, my, e);
            ok = !e->oom;
        }
        ok = ok && exch_recv_d(sim, x, hy) && exch_recv_d(sim, y, hx);
        B->lx[k] = (SchedXfer){ x->src, x->dst };
        B->ly[k] = (SchedXfer){ y->src, y->dst };
    }
    e->chunks += chunks;
    e->cmax = cmax;
    e->carg = carg;
    return ok;
}

static bool pairs_dense(Sim *sim, int32_t st, const SchedRuleXfer *pr, int64_t np, ExchBuf *B,
                        ExchFacts *e)
{
    return sim->uniform ? pairs_dense_(sim, st, pr, np, B, e, true)
                        : pairs_dense_(sim, st, pr, np, B, e, false);
}

/* The same through the table (not dense). */
static bool pairs_table(Sim *sim, int32_t st, const SchedRuleXfer *pr, int64_t np, ExchBuf *B,
                        ExchFacts *e)
{
    bool big = sim->hold.nbig > 0;
    for (int64_t k = 0; k < np; k++) {
        if (k + EXCH_AHEAD < np) {
            ht_fetch(&sim->hold, pr[2 * (k + EXCH_AHEAD)].src, 1);
            ht_fetch(&sim->hold, pr[2 * (k + EXCH_AHEAD)].dst, 1);
            if (big) {
                ht_prefetch(&sim->hold, pr[2 * (k + EXCH_AHEAD / 2)].src);
                ht_prefetch(&sim->hold, pr[2 * (k + EXCH_AHEAD / 2)].dst);
            }
        }
        const SchedRuleXfer *x = &pr[2 * k], *y = x + 1;
        exch_send(sim, st, x, x->src, e);
        exch_send(sim, st, y, y->src, e);
        if (e->oom || !exch_recv(sim, x) || !exch_recv(sim, y))
            return false;
        B->lx[k] = (SchedXfer){ x->src, x->dst };
        B->ly[k] = (SchedXfer){ y->src, y->dst };
    }
    return true;
}

/* The pairs of the step from the rule's pairs function (sched_send_rule_exchange_pairs): the
 * nodes in runs of EXCH_B, each run's pairs (lower node in the run) at once, transfer j then
 * its partner's: both sends, both receives, as pair_block does; the lower ends and the upper
 * ends each in node order (two streams through the Holds), no done bits, no partner blocks;
 * each run's routes into the loads.  False: memory. */
static bool exch_pairs_gen(Sim *sim, int32_t st, const SchedRule *r, int64_t n, ExchBuf *B,
                           LoadAcc *la, ExchFacts *e)
{
    SchedRuleXfer *pr = B->blk[0];   /* (2 EXCH_B entries: blk[0] and blk[1]) */
    for (int64_t j0 = 0; j0 < n; j0 += EXCH_B) {
        int64_t m = n - j0 < EXCH_B ? n - j0 : EXCH_B;
        int64_t np = sched_rule_pairs(r, j0, m, pr);
        if (!(sim->hold.dense ? pairs_dense(sim, st, pr, np, B, e)
                              : pairs_table(sim, st, pr, np, B, e)))
            return false;
        SchedFlat lf = { .x = B->lx, .n = np, .r1 = { .one = { 0, 1 } } };
        SchedFlat uf = { .x = B->ly, .n = np, .r1 = { .one = { 0, 1 } } };
        if (np > 0 && !(load_acc_add(sim, la, &lf) && load_acc_add(sim, la, &uf)))
            return false;
    }
    return true;
}

/* The done bits, a bit per transfer, zero between steps (cleared at the step's end). */
static uint64_t *exch_done(Sim *sim, int64_t n)
{
    size_t words = (size_t)(n >> 6) + 1;
    if (words > sim->capdone) {
        free(sim->xdone);
        sim->capdone = 0;
        sim->xdone = calloc(words, sizeof *sim->xdone);
        if (!sim->xdone)
            return NULL;
        sim->capdone = words;
    }
    return sim->xdone;
}

bool step_exchange(Sim *sim, int32_t st)
{
    const SchedRule *r = sched_step_exchange(sim->s, st);
    const CostParams *p = &sim->p;
    int64_t n = r->count;
    SimStep *out = &sim->cur;
    sim->cur_step = st;
    memset(out, 0, sizeof *out);
    out->critical_node = -1;
    out->ntransfers = n;
    step_exch_steps++;
    ExchBuf *B = malloc(sizeof *B);
    uint64_t *done = r->pairs ? NULL : exch_done(sim, n);
    LoadAcc la;
    bool begun = B && (done || r->pairs) && load_acc_begin(sim, &la, n, true);
    if (begun)   /* (every node sends once: rows alike, sim-loadxch.c, when it can) */
        load_acc_exchange(sim, &la);
    ExchFacts e = { 0, 0, 0, 0, 0, 0, NULL, 0, 0, false };
    bool ok = begun && (r->pairs ? exch_pairs_gen(sim, st, r, n, B, &la, &e)
                                 : exch_pairs(sim, st, r, n, B, done, &la, &e));
    free(B);
    exch_bytes(sim, &e);
    StepFacts k = { .cap = cap_of(p), .path = SIM_PATH_DIFF, .ccrit = -1 };
    int64_t tcd = 0, nover = 0;
    int32_t mx = 0;
    if (ok && !load_acc_end(sim, &la, k.cap, false, &mx, &nover, &tcd))
        ok = false;
    if (!ok) {
        free(e.v);
        return false;
    }
    /* the not-held violations in transfer order, as pass 1 finds them */
    if (e.nv > 1)
        qsort(e.v, e.nv, sizeof *e.v, cmp_viol);
    for (size_t i = 0; i < e.nv; i++) {
        step_add_viol(sim, e.v[i]);
        sim->tot.not_held++;
        out->violations++;
    }
    free(e.v);
    out->bytes = e.bytes;
    out->max_bytes = e.bmax;
    out->tcd = tcd;
    out->max_link_load = mx;
    out->link_overloads = nover;
    sim->clean_step = nover == 0 && mx <= k.cap ? st : -1;
    sim->clean_tcd = tcd;
    sim->clean_mx = mx;
    k.mx = mx;
    k.bmax = e.bmax;
    k.barg = e.barg;
    /* the price from the first transfers, else from the whole step */
    double comm = 0, local = 0;
    SchedFlat pf;
    int64_t np = n < EXCH_PREFIX ? n : EXCH_PREFIX;
    int got = n > 0 && sched_flat_rule(sim->s, r, 0, np, &sim->pbuf, &pf)
                  ? price_comm_prefix(sim, st, &pf, &k, out, &comm)
                  : -1;
    if (got < 0 && n > 0)
        return false;
    if (got == 0) {
        const SchedFlat *f = sim_flat(sim, st);
        if (!f || !price_comm(sim, st, f, &k, out, &comm))
            return false;
    }
    if (!price_local(sim, st, &local))
        return false;
    out->cost.permutation = local;
    out->cost.total = comm + local;
    if (n > 0)
        load_clear(sim, st, SIM_PATH_DIFF);
    out->informed = sim->informed;
    sim->port_sat = false;
    return steps_put(&sim->steps, st, out);
}
