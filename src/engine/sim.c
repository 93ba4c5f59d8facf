/* sim.c — replay a schedule in lockstep (sim.h for the semantics, docs/model.md for the prose,
 * docs/engine.md for which file holds what): the run — set up, each step in turn
 * (sim-step.c), totals, the end check — the steps' flat views, the asynchronous timing on a
 * thread of its own, and the public accessors.  The state and the files' contracts are in
 * sim-core.h. */
#include "sim-core.h"
#include "circuit.h"
#include "err-internal.h"
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_load_path = SIM_PATH_AUTO;
bool sim_count_general = false;
bool sim_count_natural = false;
int64_t sim_par_min = 65536;
uint32_t sim_borrow_min = 8;

static int async_job(void *arg)
{
    AsyncJob *j = arg;
    j->ok = true;
    for (int32_t st = 0; j->ok && st < j->nsteps && !atomic_load(&j->stop); st++)
        j->ok = sim_async_step(j->r, st, NULL);
    return 0;
}

/* Step st's transfers as flat arrays (see sched-internal.h): the last step asked for is kept,
 * so a step made by rules is expanded once however many passes read it.  NULL when memory
 * runs out.  The view changes when another step is asked for. */
const SchedFlat *sim_flat(Sim *sim, int32_t st)
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
    if (!(sim->sets ? sched_flat_sets : sched_flat)(sim->s, st, &sim->fbuf, &sim->flat))
        return NULL;
    sim->flat_step = st;
    return &sim->flat;
}

/* ---- public -------------------------------------------------------------------------------- */

void sim_free(Sim *sim)
{
    if (!sim)
        return;
    ht_free(&sim->hold);
    steps_free(&sim->steps);
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
    sym_free(sim);
    free(sim->arcbit);
    free(sim->touched);
    subround_free(sim->sub);
    free(sim->sends);
    free(sim->recvs);
    free(sim->qsends);
    free(sim->qrecvs);
    free(sim->ssum);
    free(sim->rsum);
    free(sim->xk);
    free(sim->bpre);
    free(sim->bsuf);
    free(sim->tmpnodes);
    free(sim->edisj);
    sched_flatbuf_free(&sim->fbuf);
    sched_flatbuf_free(&sim->nbuf);
    sched_flatbuf_free(&sim->pbuf);
    free(sim->xdone);
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

/* Set up sim for s (sim->s, net, p, flags, nsteps given): the layout, the arrays, the
 * givens, the asynchronous timing.  False when memory runs out. */
static bool run_setup(Sim *sim)
{
    const Sched *s = sim->s;
    const Net *net = s->net;
    const CostParams *p = &sim->p;
    sim->cache_step = sim->linkload_step = sim->port_step = sim->rmq_step = -1;
    sim->flat_step = sim->next_step = -1;
    sim->clean_step = -1;
    sim->nlinks = net_nlinks(net);
    sim->full = net_pairwise(net);
    sim->hx = net->kind == NET_HXBAR;
    sim->hxA = net->modules;
    sim->hxB = net->per;
    sim->hxC = net->channels;
    arcmap_init(&sim->lay, net);
    sim->uniform = s->bytes % s->nchunks == 0;
    sim->per_chunk = s->bytes / s->nchunks;
    sim->cur_step = -1;
    bool stepped = steps_init(&sim->steps, sim->nsteps);
    sim->cum = calloc((size_t)sim->nsteps + 1, sizeof *sim->cum);
    sim->viol = malloc(SIM_MAXVIOL * sizeof *sim->viol);
    /* the TUI (SIM_HISTORY) seeks through the holdings at random for long: huge pages */
    bool held = ht_init(&sim->hold, net->size, (sim->flags & SIM_HISTORY) != 0);
    if (held && !(sim->flags & SIM_HISTORY))   /* (only a run borrows: sim-hold.h) */
        sim->hold.subs = s;
    /* full: per-node scratch (see full_loads), not per link */
    sim->load = big_zalloc(sim, ((size_t)(sim->full ? net->size : sim->nlinks) + 1) *
                           sizeof *sim->load);
    /* (per-node sends and receives: made by the first step that counts them, step_run) */
    if (sim->hx)
        sim->chan = calloc(2 * (size_t)sim->hxA, sizeof *sim->chan);
    if (!stepped || !sim->cum || !sim->viol || !held || !sim->load ||
        (sim->hx && !sim->chan))
        return false;
    if (sim->flags & SIM_HISTORY) {
        sim->dstart = calloc((size_t)sim->nsteps + 1, sizeof *sim->dstart);
        sim->xstart = calloc((size_t)sim->nsteps + 1, sizeof *sim->xstart);
        if (!sim->dstart || !sim->xstart)
            return false;
        for (int32_t st = 0; st < sim->nsteps; st++)
            sim->xstart[st + 1] = sim->xstart[st] + sched_ntransfers(s, st);
        sim->xnew = big_zalloc(sim, ((size_t)sim->xstart[sim->nsteps] / 64 + 1) * sizeof *sim->xnew);
        if (!sim->xnew)
            return false;
    }
    /* the givens, into the fresh (empty) table: nothing to clear first (hist_givens would
     * write every record), and the informed nodes counted as they come, not by reading every
     * node's record */
    for (size_t i = 0; i < s->ngiven; i++) {
        size_t had, now;
        ht_ranges(&sim->hold, s->gnode[i], &had);
        if (!ht_add(&sim->hold, s->gnode[i], s->grange[i].lo, s->grange[i].hi))
            return false;
        ht_ranges(&sim->hold, s->gnode[i], &now);
        sim->informed += had == 0 && now > 0;
    }
    if (!step_edges_disjoint(sim))
        return false;
    if (sim->flags & SIM_ASYNC)   /* (if it cannot be timed, the replay goes on: sim_async_take) */
        sim->arun = sim_async_begin(s, p, 0, sim->aerr, sizeof sim->aerr);
    if (sim->arun && sim_async_own_steps(sim->arun) && sched_total_transfers(s) >= sim_par_min) {
        sim->ajob.r = sim->arun;
        sim->ajob.nsteps = sim->nsteps;
        atomic_init(&sim->ajob.stop, false);
        sim->ajob.on = thrd_create(&sim->ajob.t, async_job, &sim->ajob) == thrd_success;
    }
    int64_t maxn = 0;   /* the per-transfer scratch, once, at its largest */
    for (int32_t st = 0; st < sim->nsteps; st++) {
        int64_t n = sched_ntransfers(s, st);
        if (n > maxn)
            maxn = n;
    }
    if (maxn > 0 && !step_ensure_x(sim, (size_t)maxn))
        return false;
    sim->tot.nsteps = sim->nsteps;
    sim->tot.informed_before = sim->informed;
    /* (the replay of a step of submask sets reads their bits, not their ranges: sim-step.c) */
    sim->sets = !(sim->flags & (SIM_HISTORY | SIM_ASYNC));
    return true;
}

/* Add step o's figures to the totals t. */
static void run_add(SimTotals *t, const SimStep *o)
{
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

/* A node that does not hold every chunk at the end (ht_finish): an incomplete node. */
static void verify_miss(void *ctx, int32_t v, uint32_t miss)
{
    Sim *sim = ctx;
    sim->tot.incomplete_nodes++;
    step_add_viol(sim, (SimViolation){ .kind = SIM_V_INCOMPLETE, .step = sim->nsteps, .node = v,
                                       .link = -1, .chunk = miss, .transfer = -1 });
}

/* The end: no Hold outlives the run borrowing the schedule's ranges (sim-hold.h), and every
 * node must hold every chunk (a prefix is not the end: not verified), in one pass over the
 * holdings.  False: memory. */
static bool run_verify(Sim *sim, bool prefix)
{
    SimTotals *t = &sim->tot;
    if (!ht_finish(&sim->hold, sim->s->nchunks, prefix ? NULL : verify_miss, sim))
        return false;
    t->verified = !prefix && t->not_held == 0 && t->incomplete_nodes == 0;
    t->valid = t->verified && t->violations == t->not_held + t->incomplete_nodes;
    return true;
}

/* The asynchronous timing's result, its thread joined.  False when it ran out of memory. */
static bool run_async_end(Sim *sim)
{
    if (sim->ajob.on) {
        thrd_join(sim->ajob.t, NULL);
        sim->ajob.on = false;
        if (!sim->ajob.ok)
            return false;
    }
    if (sim->arun) {
        sim->async = sim_async_end(sim->arun, sim->aerr, sizeof sim->aerr);
        sim->arun = NULL;
        if (!sim->async)
            return false;
    }
    return true;
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
    if (!run_setup(sim))
        goto oom;
    SimTotals *t = &sim->tot;
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
        if (!step_run(sim, st))
            goto oom;
        /* the asynchronous timing, on the step's transfers as step_run left them */
        if (sim->arun && !sim->ajob.on && !sim_async_step(sim->arun, st, sim_flat(sim, st)))
            goto oom;
        const SimStep *o = &sim->cur;
        cum += o->cost.total;
        sim->cum[st] = cum;
        run_add(t, o);
    }
    if (sim->dstart)
        sim->dstart[sim->nsteps] = sim->ndelta;
    if (!run_verify(sim, prefix))   /* (and no Hold borrows any more) */
        goto oom;
    /* the views from now on (queries after the run) with every range written */
    sim->sets = false;
    sim->flat_step = -1;
    sim->pos = sim->nsteps;
    sim->cur_step = -1;
    steps_done(&sim->steps);
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
    if (!run_async_end(sim))
        goto oom;
    /* The per-node cost sums and the view made ahead are only needed while running. */
    sched_flatbuf_free(&sim->nbuf);
    sched_flatbuf_free(&sim->pbuf);
    free(sim->xdone);
    sim->xdone = NULL;
    sim->capdone = 0;
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

const SimStep *sim_step_get(const Sim *sim, int32_t step, SimStep *out)
{
    if (!sim || !out || step < 0 || step >= sim->nsteps)
        return NULL;
    steps_get(&sim->steps, step, out);
    return out;
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
