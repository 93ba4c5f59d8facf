/* sim-affine.c — a step of affine blocks replayed block by block (sim-affine.h).  What
 * step_run (sim-step.c) does transfer by transfer, here for runs of nodes: pass 1 checks
 * every block's sources against the start-of-step holdings (the violations in transfer
 * order), the bytes and the largest packet per block; the loads of a pair net whose nodes
 * each send at most once are one per transfer (loads_end's full:P case); the price as
 * price_comm finds it (postal: the first largest packet; seidel: the first costliest
 * transfer, each node sending and receiving once); pass 3 hands out the receives (no node
 * receives twice, so their order does not matter). */
#include "sim-affine.h"
#include "sched-affine.h"

#include <stdlib.h>

bool sim_affine_on = true;
_Atomic int64_t sim_affine_steps = 0;

typedef struct {
    int32_t lo, hi;   /* nodes [lo, hi) */
} Run;

static int cmp_run(const void *pa, const void *pb)
{
    const Run *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Sorted runs: does any node lie in two of them? */
static bool runs_overlap(const Run *r, int64_t n)
{
    for (int64_t i = 1; i < n; i++)
        if (r[i].lo < r[i - 1].hi)
            return true;
    return false;
}

/* Two sorted lists of runs, each without overlaps: a node in both? */
static bool runs_meet(const Run *a, int64_t na, const Run *b, int64_t nb)
{
    for (int64_t i = 0, j = 0; i < na && j < nb;) {
        if (a[i].lo < b[j].hi && b[j].lo < a[i].hi)
            return true;
        if (a[i].hi <= b[j].hi)
            i++;
        else
            j++;
    }
    return false;
}

/* Do the blocks' sources share no node, their destinations none, and (both) no node both
 * sends and receives?  -1: memory. */
static int blocks_apart(const SchedAffine *b, int64_t nb, bool both)
{
    Run *s = malloc(2 * (size_t)nb * sizeof *s);
    if (!s)
        return -1;
    Run *d = s + nb;
    for (int64_t q = 0; q < nb; q++) {
        s[q] = (Run){ b[q].src, b[q].src + b[q].len };
        d[q] = (Run){ b[q].dst, b[q].dst + b[q].len };
    }
    qsort(s, (size_t)nb, sizeof *s, cmp_run);
    qsort(d, (size_t)nb, sizeof *d, cmp_run);
    bool ok = !runs_overlap(s, nb) && !runs_overlap(d, nb) && !(both && runs_meet(s, nb, d, nb));
    free(s);
    return ok;
}

/* Do nodes v..v+len-1 all hold [lo,hi) in their records (one interval each)?  One test for
 * the run, without a branch per node (false: ask them one by one). */
static bool runs_hold(const HoldTab *t, int32_t v, int32_t len, uint32_t lo, uint32_t hi)
{
    if (t->dense)
        return false;
    const ChunkRange *rec = t->rec + v;
    uint32_t bad = 0;
    for (int32_t k = 0; k < len; k++)   /* (a big record's lo is HT_BIG > lo) */
        bad |= (uint32_t)(rec[k].lo > lo) | (uint32_t)(rec[k].hi < hi);
    return bad == 0;
}

/* Pass 1: the sends of every block against the start-of-step holdings; the bytes, and the
 * first transfer of the most bytes (postal) or of the highest price (seidel). */
static void affine_sends(Sim *sim, int32_t st, const SchedAffine *b, int64_t nb, SimStep *out,
                         uint64_t *bmax, int64_t *arg)
{
    const CostParams *p = &sim->p;
    bool seidel = p->model == COST_SEIDEL;
    uint64_t bytes = 0;
    double best = -1;
    *bmax = 0;
    *arg = 0;
    for (int64_t q = 0, at = 0; q < nb; at += b[q].len, q++) {
        uint32_t lo = b[q].r.lo, hi = b[q].r.hi, miss;
        if (runs_hold(&sim->hold, b[q].src, b[q].len, lo, hi))
            goto held;
        for (int32_t k = 0, v = b[q].src; k < b[q].len; k++, v++) {
            if (ht_contains(&sim->hold, v, lo, hi, &miss))
                continue;
            step_add_viol(sim, (SimViolation){ .kind = SIM_V_NOT_HELD, .step = st, .node = v,
                                               .link = -1, .chunk = miss, .transfer = at + k });
            sim->tot.not_held++;
            out->violations++;
        }
held:;
        XV x = { b[q].src, b[q].dst, 1, SCHED_DEFAULT_ROUTE, &b[q].r };
        uint64_t by = xfer_bytes(sim, &x);
        /* len sends of by bytes, added up saturating (as one by one) */
        uint64_t len = (uint64_t)b[q].len;
        bytes = by && len > (UINT64_MAX - bytes) / by ? UINT64_MAX : bytes + len * by;
        if (by > *bmax) {
            *bmax = by;
            if (!seidel)
                *arg = at;
        }
        if (seidel) {   /* price_seidel's scan, one block at a time (no load above 1) */
            double c = cost_transfer(p, 0, (double)by, 1.0);
            if (c > best) {
                best = c;
                *arg = at;
            }
        }
    }
    out->bytes = bytes;
    out->max_bytes = *bmax;
}

/* Pass 3: the receives (no node receives twice: in any order). */
static bool affine_receives(Sim *sim, const SchedAffine *b, int64_t nb)
{
    for (int64_t q = 0; q < nb; q++) {
        uint32_t lo = b[q].r.lo, hi = b[q].r.hi;
        ChunkRange *rec = sim->hold.dense ? NULL : sim->hold.rec;
        for (int32_t k = 0, v = b[q].dst; k < b[q].len; k++, v++) {
            /* the common receive: a record's one interval grown at its end (a pipeline's
             * next packet), as ht_add would grow it */
            if (rec && rec[v].lo <= lo && lo <= rec[v].hi && rec[v].lo < rec[v].hi) {
                if (hi > rec[v].hi)
                    rec[v].hi = hi;
                continue;
            }
            bool had = !ht_empty(&sim->hold, v);
            if (!ht_add(&sim->hold, v, lo, hi))
                return false;
            sim->informed += !had;
        }
    }
    return true;
}

/* The source of transfer j. */
static int32_t src_of(const SchedAffine *b, int64_t j)
{
    for (int64_t q = 0;; q++) {
        if (j < b[q].len)
            return b[q].src + (int32_t)j;
        j -= b[q].len;
    }
}

int affine_step_run(Sim *sim, int32_t st)
{
    const CostParams *p = &sim->p;
    const SchedAffine *b;
    int64_t nb, n;
    if (!sim_affine_on || (sim->flags & SIM_HISTORY) || sim->arun || !sim->full || sim->hx ||
        (p->model != COST_POSTAL && p->model != COST_SEIDEL) ||
        !sched_step_affine(sim->s, st, &b, &nb, &n) || n == 0)
        return 0;
    int apart = blocks_apart(b, nb, p->model == COST_POSTAL && !p->duplex);
    if (apart <= 0)
        return apart;
    SimStep *out = &sim->cur;
    sim->cur_step = st;
    *out = (SimStep){ 0 };
    out->critical_node = -1;
    out->ntransfers = n;
    uint64_t bmax;
    int64_t arg;
    affine_sends(sim, st, b, nb, out, &bmax, &arg);
    /* the loads: every pair link carries one transfer (no node sends twice) */
    sim->nover = 0;
    sim->nfk = 0;
    out->tcd = n;
    out->max_link_load = 1;
    sim->clean_step = 1 <= cap_of(p) ? st : -1;
    sim->clean_tcd = n;
    sim->clean_mx = 1;
    /* the price: the largest packet (postal), the costliest transfer (seidel) */
    CostTerms t = cost_terms(p, 0, (double)(p->model == COST_POSTAL ? bmax : 0), 1);
    if (p->model == COST_SEIDEL) {
        const SchedAffine *a = b;
        for (int64_t j = arg; j >= a->len; a++)
            j -= a->len;
        XV x = { a->src, a->dst, 1, SCHED_DEFAULT_ROUTE, &a->r };
        t = cost_terms(p, 0, (double)xfer_bytes(sim, &x), 1.0);
        out->subrounds = 1;
    }
    out->critical_node = src_of(b, arg);
    out->cost.startup = t.startup;
    out->cost.transmission = t.trans;
    out->cost.contention = t.cont;
    double local = 0;
    if (!price_local(sim, st, &local))
        return -1;
    /* (summed as price_comm and step_run sum them) */
    double comm = p->model == COST_SEIDEL ? t.startup + t.trans + t.cont : t.startup + t.trans;
    out->cost.permutation = local;
    out->cost.total = comm + local;
    if (!affine_receives(sim, b, nb))
        return -1;
    out->informed = sim->informed;
    sim->port_sat = false;
    sim_affine_steps++;
    return steps_put(&sim->steps, st, out) ? 1 : -1;
}
