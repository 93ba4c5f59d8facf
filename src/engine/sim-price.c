/* sim-price.c — one step's price in the lockstep timing (sim-core.h: price_comm, price_local),
 * from what the step's passes found (StepFacts; a transfer's bytes from its ranges, xfer_bytes):
 *   seidel   each node sends and receives at most once: the costliest transfer
 *            (cost_transfer with its busiest link's ceil(k / 2^nu)); else the step's
 *            sub-rounds, each priced so, added up (sim-sub.c);
 *   postal   t + beta * the largest packet; nodes that break the port rule are violations;
 *   circuit, saf  the costliest transfer, priced in pass 1 (sim-step.c);
 * and the local operations: rho * (bytes on every node + the most on one node).  The formulas
 * are cost.h's (cost_transfer, cost_terms). */
#include "sim-core.h"

#include <stdlib.h>

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
    double top = cost_transfer(p, 0, (double)bmax, mtop);
    int64_t budget = sim->nlinks / 4 + 64;   /* links walked before the structure pays */
    bool walk = true;
    for (int64_t i = 0; i < f->n; i++) {
        const XV *x = XVP(f, i);
        double B = (double)flat_bytes(sim, f, i);
        if (cost_transfer(p, 0, B, mtop) < top)
            continue;                         /* even over a busiest link it costs less */
        if (walk && path != SIM_PATH_DIRECT && budget < 0) {
            if (!load_rmq_build(sim))
                return -2;
            walk = false;
        }
        if (walk)
            budget -= xfer_len(sim, x);
        int32_t k = load_xfer_max(sim, x, walk);
        if (cost_transfer(p, 0, B, ceil_div(k, cap)) == top) {
            sim->xk[i] = k;
            return i;
        }
    }
    return -1;
}

/* Seidel.  With prefix, f holds only the step's first transfers: *decided is false (and
 * nothing priced) when the price depends on those after. */
static bool price_seidel(Sim *sim, int32_t st, const SchedFlat *f, const StepFacts *k,
                         SimStep *out, CostTerms *t, bool prefix, bool *decided)
{
    const CostParams *p = &sim->p;
    int64_t n = f->n;
    int32_t cap = k->cap;
    bool needk = k->mx > cap;
    *decided = !prefix;
    if (prefix && (k->conflicts > 0 || (!needk && p->a < 0)))
        return true;
    if (k->conflicts > 0) {   /* some node sends or receives more than once: sub-rounds */
        if (!sub_price(sim, st, f, cap, out, &t->startup, &t->trans, &t->cont))
            return false;
        return true;
    }
    /* Each node sends and receives at most once: the step costs what its costliest transfer
     * costs, at most that of the biggest over a busiest link; usually some transfer costs
     * that, and only the first one needs its load (first_at_cost). */
    int64_t first = needk ? first_at_cost(sim, f, k->path, k->mx, k->bmax) : -1;
    if (first == -2)
        return false;
    if (prefix && needk && first < 0)
        return true;   /* (not in the prefix) */
    if (needk && first < 0 && !load_all_max(sim, f, k->path))
        return false;
    /* No load needed (every link within capacity) and a >= 0: a transfer's price
     * fl(fl(a*B) + b) never falls as B grows, so the costliest price is the largest packet's
     * and the scan below picks the first transfer that costs it: stop there. */
    bool attop = !needk && p->a >= 0;
    double top = attop ? cost_transfer(p, 0, (double)k->bmax, 1.0) : 0;
    double best = -1;
    int64_t arg = first >= 0 ? first : 0;
    for (int64_t i = 0; first < 0 && i < n && !(attop && best == top); i++) {
        double m = needk ? ceil_div(sim->xk[i], cap) : 1.0;
        double c = cost_transfer(p, 0, (double)flat_bytes(sim, f, i), m);
        if (c > best) {
            best = c;
            arg = i;
        }
    }
    if (prefix && first < 0 && best != top)
        return true;   /* (the first transfer at the top price is not in the prefix) */
    *decided = true;
    double m = needk ? ceil_div(sim->xk[arg], cap) : 1.0;
    *t = cost_terms(p, 0, (double)flat_bytes(sim, f, arg), m);
    out->critical_node = f->x[arg].src;
    out->subrounds = 1;
    return true;
}

/* Postal: port rule broken only if a node sent or received twice (duplex), or did both
 * (simplex); each such node once a violation. */
static bool postal_ports(Sim *sim, int32_t st, const SchedFlat *f, SimStep *out)
{
    const CostParams *p = &sim->p;
    int64_t n = f->n;
    size_t nbad = 0;
    if (!step_ensure_tmp(sim, (size_t)(2 * n)))
        return false;
    for (int64_t i = 0; i < n; i++) {
        int32_t ends[2] = { f->x[i].src, f->x[i].dst };
        for (int e = 0; e < 2; e++) {
            int32_t v = ends[e];
            int32_t sn = port_sends(sim, v), rc = port_recvs(sim, v);
            bool bad = sn > 1 || rc > 1 || (!p->duplex && sn > 0 && rc > 0);
            if (bad)
                sim->tmpnodes[nbad++] = v;
        }
    }
    if (nbad)
        qsort(sim->tmpnodes, nbad, sizeof *sim->tmpnodes, cmp_i32);
    for (size_t j = 0; j < nbad; j++) {
        if (j && sim->tmpnodes[j] == sim->tmpnodes[j - 1])
            continue;
        int32_t v = sim->tmpnodes[j];
        /* simplex: one port for both ways, so a node that sends and receives uses it once too
         * often (besides its extra sends and receives) */
        int32_t sn = port_sends(sim, v), rc = port_recvs(sim, v);
        if (!p->duplex && sn > 0 && rc > 0)
            out->port_conflicts++;
        step_add_viol(sim, (SimViolation){ .kind = SIM_V_PORT, .step = st, .node = v,
                                           .link = -1, .transfer = -1, .load = sn,
                                           .recvs = rc });
        out->violations++;
    }
    return true;
}

static int price_any(Sim *sim, int32_t st, const SchedFlat *f, const StepFacts *k,
                     SimStep *out, double *comm, bool prefix)
{
    const CostParams *p = &sim->p;
    CostTerms t = { 0, 0, 0 };
    bool decided = true;
    switch (p->model) {
    case COST_SEIDEL:
        if (!price_seidel(sim, st, f, k, out, &t, prefix, &decided))
            return -1;
        if (!decided)
            return 0;
        *comm = t.startup + t.trans + t.cont;
        break;
    case COST_POSTAL:
        if (prefix && (k->barg >= f->n || k->conflicts != 0 || (!p->duplex && k->mixed != 0)))
            return 0;
        t = cost_terms(p, 0, (double)k->bmax, 1);
        *comm = t.startup + t.trans;
        out->critical_node = f->x[k->barg].src;
        if ((k->conflicts != 0 || (!p->duplex && k->mixed != 0)) && !postal_ports(sim, st, f, out))
            return -1;
        break;
    case COST_CIRCUIT:
    case COST_SAF:
    default:   /* (priced in pass 1) */
        out->max_len = k->cmaxlen;
        t.startup = k->csu;
        t.trans = k->ctr;
        out->critical_node = k->ccrit;
        *comm = t.startup + t.trans;
        break;
    }
    out->cost.startup = t.startup;
    out->cost.transmission = t.trans;
    out->cost.contention = t.cont;
    return 1;
}

bool price_comm(Sim *sim, int32_t st, const SchedFlat *f, const StepFacts *k, SimStep *out,
                double *comm)
{
    return price_any(sim, st, f, k, out, comm, false) > 0;
}

int price_comm_prefix(Sim *sim, int32_t st, const SchedFlat *f, const StepFacts *k,
                      SimStep *out, double *comm)
{
    return price_any(sim, st, f, k, out, comm, true);
}

bool price_local(Sim *sim, int32_t st, double *local)
{
    const CostParams *p = &sim->p;
    const SchedStep *ss = &sim->s->steps[st];
    *local = 0;
    if (ss->nloc == 1) {
        /* one operation (on one node or on all): no per-node sums needed */
        *local = p->rho * (double)ss->more->loc[0].bytes;
    } else if (ss->nloc > 1) {
        /* in doubles: sums of byte counts near 2^64 neither wrap nor convert back out of
         * range (a double >= 2^64 cast to uint64_t is undefined) */
        double all = 0, most = 0;
        if (!step_ensure_sums(sim))
            return false;
        for (int64_t i = 0; i < ss->nloc; i++) {
            if (ss->more->loc[i].node < 0)
                all += (double)ss->more->loc[i].bytes;
            else
                sim->ssum[ss->more->loc[i].node] += (double)ss->more->loc[i].bytes;
        }
        for (int64_t i = 0; i < ss->nloc; i++) {
            int32_t v = ss->more->loc[i].node;
            if (v >= 0 && sim->ssum[v] > most)
                most = sim->ssum[v];
        }
        for (int64_t i = 0; i < ss->nloc; i++)
            if (ss->more->loc[i].node >= 0)
                sim->ssum[ss->more->loc[i].node] = 0;
        *local = p->rho * (all + most);
    }
    return true;
}
