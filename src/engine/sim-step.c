/* sim-step.c — one step of the lockstep replay (sim-core.h: step_run).  A step flows:
 *   loads_begin   decide whether its link loads must be counted at all (the same circuits as
 *                 the step before, or edges on arcs of their own: no) and, for a big step,
 *                 start counting them on a second thread (sim-load.c);
 *   sends_pass    pass 1: each send against the start-of-step holdings (sim-hold.h), bytes,
 *                 circuit/saf's costliest transfer and longest route, sends and receives per
 *                 node (the one-port rule);
 *   loads_end     the loads joined (or counted here), the overloaded links and ports as
 *                 violations;
 *   price         the step's cost (sim-price.c), local operations included;
 *   receives_pass pass 3: the receives handed out (sim-history.c records what was new), the
 *                 port counts zeroed, the loads cleared meanwhile on the second thread.
 * Also here: the per-step scratch and the violations list. */
#include "sim-core.h"
#include "circuit.h"
#include "sim-affine.h"

#include <stdlib.h>
#include <string.h>

#ifndef STEP_FAR
#define STEP_FAR 64
#endif
#ifndef STEP_NEAR
#define STEP_NEAR 32
#endif

bool step_fuse = true;

bool step_ensure_x(Sim *sim, size_t n)
{
    if (n <= sim->capx)
        return true;
    size_t nc = sim->capx ? sim->capx : 64;
    while (nc < n)
        nc *= 2;
    /* per-step scratch: nothing to keep */
    free(sim->xk);
    sim->capx = 0;
    sim->xk = big_alloc(sim, nc * sizeof *sim->xk, false);
    if (!sim->xk)
        return false;
    sim->capx = nc;
    return true;
}

bool step_ensure_tmp(Sim *sim, size_t n)
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

/* The per-node send and receive counts (zero), made once. */
bool step_ensure_ports(Sim *sim)
{
    if (sim->sends && sim->recvs)
        return true;
    size_t size = (size_t)sim->net->size;
    /* a broadcast's receivers (every node) and senders write them all over (bigmem.h) */
    if (!sim->sends)
        sim->sends = big_whole(sim, size * sizeof *sim->sends);
    if (!sim->recvs)
        sim->recvs = big_whole(sim, size * sizeof *sim->recvs);
    return sim->sends && sim->recvs;
}

/* The exact per-node counts (sim_port_counts; a step whose saturating counts overflow). */
bool step_ensure_qports(Sim *sim)
{
    size_t size = (size_t)sim->net->size;
    if (!sim->qsends)
        sim->qsends = big_zalloc(sim, size * sizeof *sim->qsends);
    if (!sim->qrecvs)
        sim->qrecvs = big_zalloc(sim, size * sizeof *sim->qrecvs);
    return sim->qsends && sim->qrecvs;
}

/* A step in which some node sent or received UINT8_MAX times or more: its exact counts, in
 * qsends and qrecvs (sim_port_counts' arrays, which then describe this step), for the readers
 * of port_sends and port_recvs.  False: no memory. */
static bool ports_exact(Sim *sim, int32_t st, const SchedFlat *f)
{
    if (!step_ensure_qports(sim))
        return false;
    size_t size = (size_t)sim->net->size;
    memset(sim->qsends, 0, size * sizeof *sim->qsends);
    memset(sim->qrecvs, 0, size * sizeof *sim->qrecvs);
    for (int64_t i = 0; i < f->n; i++) {
        sim->qsends[f->x[i].src]++;
        sim->qrecvs[f->x[i].dst]++;
    }
    sim->port_step = st;
    sim->port_sat = true;
    return true;
}

/* The per-node sums of local operations, allocated the first time a step needs them. */
bool step_ensure_sums(Sim *sim)
{
    if (sim->ssum)
        return true;
    size_t size = (size_t)sim->net->size;
    sim->ssum = big_zalloc(sim, size * sizeof *sim->ssum);
    sim->rsum = big_zalloc(sim, size * sizeof *sim->rsum);
    return sim->ssum && sim->rsum;
}

void step_add_viol(Sim *sim, SimViolation v)
{
    sim->tot.violations++;
    if (sim->nviol < SIM_MAXVIOL)
        sim->viol[sim->nviol++] = v;
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
        step_add_viol(sim, (SimViolation){ .kind = SIM_V_ALLPORT, .step = st, .node = p[i].node,
                                      .link = p[i].link, .transfer = -1, .load = p[i].count,
                                      .recvs = p[i].in });
        out->violations++;
    }
    free(p);
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
        if (!sched_rule_is_edges(&x->more->rule[q]) || !sched_rule_is_edges(&y->more->rule[q]) ||
            x->more->rule[q].e0 != y->more->rule[q].e0 ||
            x->more->rule[q].count != y->more->rule[q].count)
            return false;
    return true;
}

/* sim->edisj: when every step is made of edge blocks only and no two edges of the table (nor
 * one route twice) use an arc, the lengths of the edges summed (see run_step); else NULL.
 * False when memory runs out. */
bool step_edges_disjoint(Sim *sim)
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
        ArcPiece pc[ARCMAP_MAXPIECES];
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
        const SchedRule *r = &ss->more->rule[q];
        for (int32_t k = 0; k < q; k++) {
            const SchedRule *o = &ss->more->rule[k];
            if (r->e0 < o->e0 + o->count && o->e0 < r->e0 + r->count)
                return -1;   /* an edge twice */
        }
        tcd += sim->edisj[r->e0 + r->count] - sim->edisj[r->e0];
    }
    return tcd;
}

/* A step between its passes. */
typedef struct {
    const SchedFlat *f;
    int64_t n;
    LoadJob job;
    thrd_t helper;
    bool par;                  /* the loads are being counted on the helper thread */
    bool reuse;                /* no loads to count or clear */
    bool same;                 /* the same routes as the step before */
    bool ports;                /* sends and receives counted per node */
    int64_t multisend;         /* nodes' sends beyond their first */
    bool sat;                  /* a port count saturated (ports_exact) */
    bool fuse;                 /* the receives handed out in pass 1 (srcs_rising) */
    bool tree;                 /* a tree step (sched_step_is_tree): ports need no counting */
    int64_t x0;                /* the step's first transfer in the whole run (SIM_HISTORY) */
    StepFacts k;
} StepRun;

/* Whether step st's loads need counting, and if so whether on the helper thread (started). */
static void loads_begin(Sim *sim, int32_t st, StepRun *R)
{
    const CostParams *p = &sim->p;
    int64_t n = R->n;
    R->job = (LoadJob){ sim, R->f, st, cap_of(p), p->model == COST_CIRCUIT, 0, SIM_PATH_DIRECT,
                        0, 0, false };
    /* a step of the same circuits as the step before, which had no link over its capacity:
     * the same loads (none over), nothing counted, nothing to clear */
    R->reuse = n > 0 && st > 0 && sim->clean_step == st - 1 && same_routes(sim->s, st - 1, st);
    if (R->reuse) {
        R->job.tcd = sim->clean_tcd;
        R->job.mx = sim->clean_mx;
        R->job.path = SIM_PATH_AUTO;   /* (read by nothing: no loads needed) */
    }
    /* edge blocks on arcs of their own, no edge twice: every arc used carries one circuit,
     * nothing to count (nor, below, to clear) */
    int64_t once = R->reuse || n == 0 ? -1 : edges_once_tcd(sim, &sim->s->steps[st]);
    R->same = R->reuse;
    if (once >= 0) {
        R->reuse = true;    /* (from here: no loads to count or clear) */
        R->job.tcd = once;
        R->job.mx = 1;
        R->job.path = SIM_PATH_AUTO;
        sim->nover = 0;
    }
    /* (on full:P the loads follow from the port counts of pass 1: no second thread) */
    R->par = !R->reuse && n > 0 && n >= sim_par_min && !sim->full &&
             thrd_create(&R->helper, load_count_job, &R->job) == thrd_success;
}

/* Circuit, saf: price one transfer (len links, b bytes) against the costliest so far. */
static inline void len_price(const CostParams *p, int32_t len, uint64_t b, int32_t src,
                             StepFacts *k, double *cbest)
{
    if (len > k->cmaxlen)
        k->cmaxlen = len;
    CostTerms t = cost_terms(p, len, (double)b, 1);
    if (t.startup + t.trans > *cbest) {
        *cbest = t.startup + t.trans;
        k->csu = t.startup;
        k->ctr = t.trans;
        k->ccrit = src;
    }
}

/* Are the step's sources in transfer order, none smaller than the one before?  Then once the
 * send of a transfer from s is checked, no later send reads the holdings of a node below s,
 * and a receive into such a node can be handed out at once (pass 1 with the receives, while
 * the transfer and the Holds it touches are still in cache): the holdings every send is
 * checked against are still those of the start of the step, and the receives come in their
 * own order, as pass 3 would hand them out. */
static bool srcs_rising(const SchedFlat *f)
{
    const SchedXfer *x = f->x;
    int32_t prev = INT32_MIN;
    for (int64_t i = 0; i < f->n; i++) {
        if (x[i].src < prev)
            return false;
        prev = x[i].src;
    }
    return true;
}

/* May some node's holdings be a Hold apart from its record (a heap or big Hold for
 * ht_prefetch to ask for)?  While none is, ht_prefetch would only read the node's record: a
 * load that waits for its miss (st on array:16777216 never has a big node): not asked. */
static inline bool holds_big(const Sim *sim) { return sim->hold.dense || sim->hold.nbig > 0; }

/* A step whose transfers all have one range, the same (f->r1), and the default route (st's
 * steps: "one"): transfer i without reading its range slot or extension; every transfer
 * carries the bytes of the first. */
static inline bool flat_one(const SchedFlat *f) { return !f->r && !f->ext; }

static inline XV xv_one(const SchedFlat *f, int64_t i)
{
    return (XV){ f->x[i].src, f->x[i].dst, 1, SCHED_DEFAULT_ROUTE, &f->r1.one };
}

/* A submask set of at most this many ranges is tested from a list made here (a view from
 * sched_flat_sets: sim->sets). */
#define SET_LIST_MAX 16

/* Does x's source hold what x sends (start of step)?  If not, *miss gets the first chunk it
 * lacks.  A submask set q (flat_set) is first asked from its bits (ht_holds_set); its ranges,
 * which a view from sched_flat_sets may not have written yet, are read only when they do not
 * decide. */
static bool __attribute__((noinline)) set_held(Sim *sim, const XV *x, const SchedSub *q,
                                               uint32_t *miss)
{
    if (ht_holds_set(&sim->hold, x->src, q->fixed, q->free_))
        return true;
    uint32_t kmiss;
    if (x->nr <= SET_LIST_MAX && sim->sets) {   /* a short set: its ranges listed here */
        ChunkRange r[SET_LIST_MAX];
        size_t n = sched_submasks_list(q->fixed, q->free_, r);
        return ht_contains_all(&sim->hold, x->src, r, (uint32_t)n, &kmiss, miss);
    }
    sched_pool_ready(sim->s);
    return ht_contains_all(&sim->hold, x->src, x->r, x->nr, &kmiss, miss);
}

static inline bool send_held(Sim *sim, const XV *x, const SchedSub *q, uint32_t *miss)
{
    uint32_t kmiss;
    if (x->nr == 0)
        return true;
    if (x->nr == 1)
        return ht_contains(&sim->hold, x->src, x->r[0].lo, x->r[0].hi, miss);
    if (q)
        return set_held(sim, x, q, miss);
    return ht_contains_all(&sim->hold, x->src, x->r, x->nr, &kmiss, miss);
}

/* Give node x->dst what x carries (transfer xi of the run; q: its submask set, flat_set,
 * whose ranges are written first when its view may not have them).  False: memory. */
static inline bool receive_xv(Sim *sim, const XV *x, const SchedSub *q, int64_t xi)
{
    if (q)   /* (from its bits when it can: sim-history.c) */
        return hist_receive_set(sim, x->dst, q->fixed, q->free_, x->r, x->nr, xi);
    return hist_receive(sim, x->dst, x->r, x->nr, xi);
}

/* Hand out transfer i's receive (its dst informed if it held nothing), the receivers' Holds
 * ahead asked for.  False: memory. */
static inline __attribute__((always_inline)) bool receive_one(Sim *sim, const SchedFlat *f,
                                                             int64_t i, int64_t x0, bool one)
{
    if (i + STEP_FAR < f->n)
        ht_fetch(&sim->hold, f->x[i + STEP_FAR].dst, 1);
    if (holds_big(sim) && i + STEP_NEAR < f->n)
        ht_prefetch(&sim->hold, f->x[i + STEP_NEAR].dst);
    const XV xv_ = one ? xv_one(f, i) : xv(f, i), *x = &xv_;
    bool had = !ht_empty(&sim->hold, x->dst);
    if (!receive_xv(sim, x, one ? NULL : flat_set(f, i), x0 + i))
        return false;
    if (!had && x->nr > 0)
        sim->informed++;   /* its first chunks: the node is informed from now on */
    return true;
}

/* Pass 1: sends against start-of-step holdings; bytes, lengths, ports; with R->fuse, the
 * receives too, each as soon as no later send can read what it adds (srcs_rising).  False
 * when memory runs out (a receive).  Made twice by the compiler (sends_pass): for a step of
 * flat_one (one, constant true: no range slot or extension read, the bytes once) and for the
 * others. */
static inline __attribute__((always_inline)) bool sends_loop(Sim *sim, int32_t st, StepRun *R,
                                                             SimStep *out, bool one)
{
    const CostParams *p = &sim->p;
    const SchedFlat *f = R->f;
    int64_t n = R->n;
    StepFacts *k = &R->k;
    uint64_t bytes = 0;
    /* circuit, saf: the costliest transfer (the first of them) and the longest route, priced
     * here (alpha + d delta + B tau; d beta + d B tau) */
    bool lenpass = p->model == COST_CIRCUIT || p->model == COST_SAF;
    double cbest = -1;
    k->ccrit = -1;
    /* a step of the same edge blocks as the step before (same: in order, so the same routes
     * transfer by transfer), each sending one chunk of the same size: the same costliest
     * transfer, first at the same place */
    bool samelen = lenpass && R->same && sim->uniform;
    if (samelen) {
        cbest = sim->lenp.cbest, k->csu = sim->lenp.csu, k->ctr = sim->lenp.ctr;
        k->ccrit = sim->lenp.ccrit;
        k->cmaxlen = sim->lenp.cmaxlen;
        lenpass = false;
    }
    bool ports = R->ports;   /* (see step_run) */
    bool sat = false;
    bool fuse = R->fuse, ok = true;
    int64_t rcv = 0;   /* (fuse) the next receive to hand out */
    uint64_t b1 = one && n > 0 ? xfer_bytes(sim, XVP(f, 0)) : 0;
    for (int64_t i = 0; i < n; i++) {
        const XV xv_ = one ? xv_one(f, i) : xv(f, i), *x = &xv_;
        if (i + STEP_FAR < n) {   /* the Hold itself, then (below) its heap; the ports */
            const SchedXfer *y = &f->x[i + STEP_FAR];
            ht_fetch(&sim->hold, y->src, 0);
            if (ports) {
                __builtin_prefetch(&sim->sends[y->src], 1);
                __builtin_prefetch(&sim->recvs[y->dst], 1);
            }
        }
        if (holds_big(sim) && i + STEP_NEAR < n)
            ht_prefetch(&sim->hold, f->x[i + STEP_NEAR].src);
        uint32_t miss;
        const SchedSub *q = one ? NULL : flat_set(f, i);
        if (!send_held(sim, x, q, &miss)) {
            step_add_viol(sim, (SimViolation){ .kind = SIM_V_NOT_HELD, .step = st,
                                               .node = x->src, .link = -1, .chunk = miss,
                                               .transfer = i });
            sim->tot.not_held++;
            out->violations++;
        }
        uint64_t b = one ? b1 : q ? flat_bytes(sim, f, i) : xfer_bytes(sim, x);
        if (b > k->bmax) {
            k->bmax = b;
            k->barg = i;
        }
        bytes = sat_add(bytes, b);
        if (lenpass)
            len_price(p, xfer_len(sim, x), b, x->src, k, &cbest);
        if (ports) {
            /* (saturating: a send beyond the first is seen whatever the count) */
            uint8_t s0 = sim->sends[x->src], r0 = sim->recvs[x->dst];
            sim->sends[x->src] = (uint8_t)(s0 + (s0 < UINT8_MAX));
            sim->recvs[x->dst] = (uint8_t)(r0 + (r0 < UINT8_MAX));
            sat |= s0 == UINT8_MAX || r0 == UINT8_MAX;
            if (s0 > 0) {
                k->conflicts++;
                R->multisend++;
            }
            if (r0 > 0)
                k->conflicts++;
            /* a node that both sends and receives is counted when the later of the two
             * comes */
            if (!p->duplex) {
                k->mixed += sim->recvs[x->src] > 0;
                k->mixed += sim->sends[x->dst] > 0;
            }
        }
        /* the receives, in order, each once every send from its dst is checked (the later
         * sources are all at least x->src) */
        for (; fuse && ok && rcv <= i && f->x[rcv].dst < x->src; rcv++)
            ok = receive_one(sim, f, rcv, R->x0, one);
    }
    for (; fuse && ok && rcv < n; rcv++)
        ok = receive_one(sim, f, rcv, R->x0, one);
    out->bytes = bytes;
    R->sat = sat;
    out->max_bytes = k->bmax;
    out->port_conflicts = k->conflicts;
    if (lenpass || samelen) {
        sim->lenp.cbest = cbest, sim->lenp.csu = k->csu, sim->lenp.ctr = k->ctr;
        sim->lenp.ccrit = k->ccrit;
        sim->lenp.cmaxlen = k->cmaxlen;
    }
    return ok;
}

static bool sends_pass(Sim *sim, int32_t st, StepRun *R, SimStep *out)
{
    return flat_one(R->f) ? sends_loop(sim, st, R, out, true) : sends_loop(sim, st, R, out, false);
}

/* The loads joined (or counted now), the step's load figures, overloaded links and (circuit)
 * ports as violations.  False when memory runs out. */
static bool loads_end(Sim *sim, int32_t st, StepRun *R, SimStep *out)
{
    LoadJob *job = &R->job;
    const SchedFlat *f = R->f;
    int64_t n = R->n;
    if (R->par) {
        thrd_join(R->helper, NULL);
    } else if (n > 0 && !R->reuse && sim->full && !sim->hx && R->multisend == 0) {
        /* full:P, nobody sends twice: every pair link carries one transfer (full_loads' result
         * without its passes) */
        sim->nover = 0;
        sim->nfk = 0;
        job->tcd = n;
        job->mx = 1;
        job->nover = 0;
        job->path = SIM_PATH_DIRECT;
    } else if (n > 0 && !R->reuse && (R->ports || R->tree) && R->multisend == 0 &&
               load_one_hop(sim, f, &job->tcd)) {
        /* no node sends twice and every route is one hop: no arc shared, none to count */
        sim->nover = 0;
        job->mx = job->tcd > 0;
        job->nover = 0;
        job->path = SIM_PATH_DISJOINT;
    } else if (n > 0 && !R->reuse) {
        load_count_job(job);
    }
    out->tcd = n > 0 ? job->tcd : 0;
    R->k.cap = job->cap;
    R->k.path = job->path;
    R->k.mx = job->mx;
    if (job->oom)
        return false;
    int32_t mx = job->mx;
    int64_t nover = job->nover;
    out->max_link_load = mx;
    out->link_overloads = nover;
    out->max_channel_load = sim->hx && n > 0 ? sim->chan_raw : 0;
    sim->clean_step = nover == 0 && mx <= job->cap ? st : -1;
    sim->clean_tcd = job->tcd;
    sim->clean_mx = mx;
    if (job->collect && sim->nover > 0) {
        /* report in link-id order, whichever path counted them */
        for (int64_t j = 0; !sim->full && j < sim->nover; j++)
            sim->over[j] = arcmap_link(&sim->lay, sim->over[j]);
        qsort(sim->over, (size_t)sim->nover, sizeof *sim->over, cmp_i64);
        for (int64_t j = 0; j < sim->nover; j++) {
            int64_t link = sim->over[j];
            int32_t ld = sim->full ? load_pair_count(sim, f, link)
                                   : sim->load[arcmap_index(&sim->lay, link)];
            step_add_viol(sim, (SimViolation){ .kind = SIM_V_LINK, .step = st, .node = -1,
                                               .link = link, .transfer = -1, .load = ld });
            out->violations++;
        }
    }
    return !job->collect || allport_step(sim, st, out);
}

/* Pass 3: the receives (and the loads cleared, on the second thread for a big step).  False
 * when memory runs out. */
static bool receives_pass(Sim *sim, int32_t st, StepRun *R, SimStep *out)
{
    const SchedFlat *f = R->f;
    int64_t n = R->n;
    bool ports = R->ports;
    R->par = n > 0 && !R->reuse && n >= sim_par_min &&
             thrd_create(&R->helper, load_clear_job, &R->job) == thrd_success;
    if (!R->par && n > 0 && !R->reuse)
        load_clear(sim, st, R->job.path);
    int64_t x0 = R->x0;
    bool ok = true;
    if (R->fuse && ports && n >= sim->net->size / 16) {
        /* the receives are handed out: only the port counts to zero, for a big step all at
         * once (no pass over the transfers) */
        memset(sim->sends, 0, (size_t)sim->net->size * sizeof *sim->sends);
        memset(sim->recvs, 0, (size_t)sim->net->size * sizeof *sim->recvs);
    } else if (R->fuse) {
        for (int64_t i = 0; ports && i < n; i++) {
            sim->sends[f->x[i].src] = 0;
            sim->recvs[f->x[i].dst] = 0;
        }
    }
    if (R->fuse)
        n = 0;
    for (int64_t i = 0; ok && i < n; i++) {
        const XV xv_ = xv(f, i), *x = &xv_;
        if (ports) {
            sim->sends[x->src] = 0;
            sim->recvs[x->dst] = 0;
        }
        if (i + STEP_FAR < n) {
            const SchedXfer *y = &f->x[i + STEP_FAR];
            ht_fetch(&sim->hold, y->dst, 1);
            if (ports) {
                __builtin_prefetch(&sim->sends[y->src], 1);
                __builtin_prefetch(&sim->recvs[y->dst], 1);
            }
        }
        if (holds_big(sim) && i + STEP_NEAR < n)
            ht_prefetch(&sim->hold, f->x[i + STEP_NEAR].dst);
        bool had = !ht_empty(&sim->hold, x->dst);
        ok = receive_xv(sim, x, flat_set(f, i), x0 + i);
        if (!had && x->nr > 0)
            sim->informed++;   /* its first chunks: the node is informed from now on */
    }
    out->informed = sim->informed;
    sim->port_sat = false;
    if (R->par)
        thrd_join(R->helper, NULL);
    return ok;
}

bool step_run(Sim *sim, int32_t st)
{
    if (step_exch_ok(sim, st))
        return step_exchange(sim, st);   /* pair by pair, not expanded (sim-exch.c) */
    int aff = affine_step_run(sim, st);   /* affine blocks on full:P, block by block */
    if (aff != 0)
        return aff > 0;
    const SchedFlat *f = sim_flat(sim, st);
    if (!f)
        return false;
    SimStep *out = &sim->cur;
    sim->cur_step = st;
    memset(out, 0, sizeof *out);
    out->critical_node = -1;
    out->ntransfers = f->n;
    if (!step_ensure_x(sim, (size_t)f->n))
        return false;
    StepRun R = { .f = f, .n = f->n, .x0 = sim->xstart ? sim->xstart[st] : 0 };
    R.fuse = step_fuse && f->n > 0 && srcs_rising(f);
    /* Sends and receives per node (one-port conflicts): not under circuit on a grid, whose
     * port rule allport_step checks from the arcs (a port used twice is an arc used twice),
     * nor in a tree step, whose nodes send and receive at most once and never both (the
     * arrays are made for the first step that counts) */
    R.tree = sched_step_is_tree(sim->s, st);
    R.ports = (sim->p.model != COST_CIRCUIT || sim->full) && !R.tree;
    if (R.ports && !step_ensure_ports(sim))
        return false;
    loads_begin(sim, st, &R);                 /* 2, on a second thread for a big step */
    bool rcvd = sends_pass(sim, st, &R, out); /* 1 (and 5, fused) */
    bool exact = !R.sat || ports_exact(sim, st, f);
    if (!loads_end(sim, st, &R, out) || !exact || !rcvd)   /* 2 (joined even when out of memory) */
        return false;
    double comm = 0, local = 0;               /* 3. cost */
    if (f->sub && R.k.conflicts > 0)
        sched_pool_ready(sim->s);   /* (sub-rounds read the transfers' ranges: sim-sub.c) */
    if (f->n > 0 && !price_comm(sim, st, f, &R.k, out, &comm))
        return false;
    /* (the loads are cleared while the receives are handed out, the port counts in that
     * pass) */
    if (!price_local(sim, st, &local))        /* 4. local operations */
        return false;
    out->cost.permutation = local;
    out->cost.total = comm + local;
    return receives_pass(sim, st, &R, out) &&   /* 5 */
           steps_put(&sim->steps, st, out);
}
