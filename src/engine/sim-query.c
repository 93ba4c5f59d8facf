/* sim-query.c — questions about one step after the run (sim.h): its link loads (counted
 * again on demand and kept for the step last asked), a transfer's load and price, the port
 * counts, the step's shape.  sim-core.h has the contracts. */
#include "sim-core.h"

#include <stdlib.h>
#include <string.h>

/* Make sim->load hold the loads of step (layout order). */
static bool cache_loads(Sim *sim, int32_t step)
{
    if (sim->cache_step == step)
        return true;
    if (sim->cache_step >= 0)
        load_clear(sim, sim->cache_step, sim->cache_path);
    sim->cache_step = -1;
    sim->rmq_step = -1;
    int32_t mx;
    int64_t nover;
    bool oom = false;
    const SchedFlat *f = sim_flat(sim, step);
    if (!f)
        return false;
    int64_t tcd = -1;
    sim->cache_path = load_count(sim, step, &tcd, INT32_MAX / 2, false, &mx, &nover, &oom);
    if (oom) {
        load_clear(sim, step, sim->cache_path);
        return false;
    }
    sim->cache_step = step;
    return true;
}

/* link -> its line and position in the (dim, dir) layout (see sim_link_loads): the map asks
 * this for every link it shows, so without a division on a grid of power-of-two sides. */
static int64_t load_index(const Sim *sim, int64_t link)
{
    const Net *net = sim->net;
    int64_t node, r;
    switch (net->ndim) {   /* link = node * 2 ndim + 2 d + b; constant divisors */
    case 1:
        node = link >> 1, r = link & 1;
        break;
    case 2:
        node = link >> 2, r = link & 3;
        break;
    default:
        node = link / 6, r = link % 6;
        break;
    }
    int d = (int)(r >> 1), b = (int)(r & 1);
    int64_t n = net->dims[d], stv = net->stride[d], o, i, q;
    if (sim->lay.pow2) {
        int sh = __builtin_ctzll((unsigned long long)stv);
        i = node & (stv - 1);
        q = (node >> sh) & (n - 1);
        o = node >> (sh + sim->lay.dshift[d]);
    } else {
        o = node / (stv * n), i = node % stv, q = node / stv % n;
    }
    return sim->lay.base[d][b] + (o * stv + i) * n + q;
}

int32_t sim_link_load(Sim *sim, int32_t step, int64_t link)
{
    if (!sim || step < 0 || step >= sim->nsteps || link < 0 || link >= sim->nlinks)
        return 0;
    if (sub_ready(sim, step))
        return sim->full ? load_pair_count(sim, sim_flat(sim, step), link) > 0
                         : subround_link_load(sim->sub, link);
    if (sim->full)
        return load_pair_count(sim, sim_flat(sim, step), link);
    if (sim->linkload_step == step)
        return sim->linkload[link];
    if (!cache_loads(sim, step))
        return 0;
    return sim->load[load_index(sim, link)];
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
            const int32_t *L = sim->load + sim->lay.base[d][b];
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
        if (load_rmq_build(sim))
            sim->rmq_step = step;
        else
            walk = true;
    }
    int32_t k = sim->full ? load_pair_count(sim, f, (int64_t)x->src * sim->net->size + x->dst)
                          : load_xfer_max(sim, x, walk);
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
    if (sim && step >= 0 && step < sim->nsteps && step_ensure_qports(sim)) {
        if (sim->port_step != step) {
            size_t size = (size_t)sim->net->size;
            memset(sim->qsends, 0, size * sizeof *sim->qsends);
            memset(sim->qrecvs, 0, size * sizeof *sim->qrecvs);
            const SchedFlat *f = sim_flat(sim, step);
            for (int64_t i = 0; f && i < f->n; i++) {
                sim->qsends[f->x[i].src]++;
                sim->qrecvs[f->x[i].dst]++;
            }
            sim->port_step = f ? step : -1;
        }
        s_ = sim->qsends;
        r_ = sim->qrecvs;
    }
    if (sends)
        *sends = s_;
    if (recvs)
        *recvs = r_;
}

/* One route's facts for the shape: its segments (0, 1, more), the first one's dimension and
 * direction, its length in hops. */
typedef struct {
    int nseg, d0, dir0;
    int64_t len;
} RouteFacts;

static void shape_add(SimShape *out, const RouteFacts *r)
{
    if (r->nseg > 0)
        out->dirs |= 1u << (2 * r->d0 + (r->dir0 > 0));
    if (r->nseg > 1)
        out->turns = true;
    if (r->len < out->hmin)
        out->hmin = r->len;
    if (r->len > out->hmax)
        out->hmax = r->len;
}

/* The default route of x (dimensions from the last to the first), or its explicit one. */
static RouteFacts route_facts(const Sim *sim, const XV *x)
{
    const Net *net = sim->net;
    RouteFacts r = { 0, 0, 0, 0 };
    if (x->route != SCHED_DEFAULT_ROUTE) {
        const NetSeg *seg = sched_route_segs(sim->s, x->route);
        r.nseg = (int)sched_route_nseg(x->route);
        for (int k = 0; k < r.nseg; k++)
            r.len += seg[k].len;
        if (r.nseg > 0) {
            r.d0 = seg[0].dim;
            r.dir0 = seg[0].dir;
        }
    } else if (sim->full) {
        r.nseg = x->src != x->dst;
        r.len = r.nseg;
        r.dir0 = x->dst > x->src ? 1 : -1;
    } else {
        int32_t c[NET_MAXDIM] = { 0, 0, 0 }, t[NET_MAXDIM] = { 0, 0, 0 };
        arcmap_coords(&sim->lay, x->src, c);
        arcmap_coords(&sim->lay, x->dst, t);
        for (int d = net->ndim - 1; d >= 0; d--) {
            int32_t o = c[d] == t[d] ? 0 : arcmap_hop(net, d, c[d], t[d]);
            if (o == 0)
                continue;
            if (r.nseg++ == 0) {
                r.d0 = d;
                r.dir0 = o;
            }
            r.len += o < 0 ? -o : o;
        }
    }
    return r;
}

/* The common step on a 2-D grid of power-of-two sides (rh's, st's meshes): every route the
 * default one (along the columns' dimension 1 first, then 0), coordinates by shifts. */
static void shape_pow2_2d(const Sim *sim, const SchedFlat *f, SimShape *out)
{
    const Net *net = sim->net;
    int32_t m1 = net->dims[1] - 1, m0 = net->dims[0] - 1, n1 = net->dims[1], n0 = net->dims[0];
    int sh = sim->lay.dshift[1];
    bool wrap = net->kind == NET_TORUS;
    unsigned dirs = 0;
    bool turns = false;
    int64_t hmin = out->hmin, hmax = out->hmax;
    for (int64_t i = 0; i < f->n; i++) {
        int32_t u = f->x[i].src, v = f->x[i].dst;
        int32_t o1 = (v & m1) - (u & m1), o0 = ((v >> sh) & m0) - ((u >> sh) & m0);
        if (wrap) {
            int32_t a = o1 < 0 ? o1 + n1 : o1, b = o0 < 0 ? o0 + n0 : o0;
            o1 = a <= n1 - a ? a : a - n1;
            o0 = b <= n0 - b ? b : b - n0;
        }
        int64_t len = (o1 < 0 ? -o1 : o1) + (o0 < 0 ? -o0 : o0);
        if (o1 != 0)
            dirs |= 1u << (2 + (o1 > 0));
        else if (o0 != 0)
            dirs |= 1u << (o0 > 0);
        turns |= o1 != 0 && o0 != 0;
        if (len < hmin)
            hmin = len;
        if (len > hmax)
            hmax = len;
    }
    out->dirs |= dirs;
    out->turns |= turns;
    out->hmin = hmin;
    out->hmax = hmax;
}

static bool all_default(const SchedFlat *f)
{
    if (!f->ext)
        return true;
    for (int64_t i = 0; i < f->n; i++)
        if (f->ext[i].route != SCHED_DEFAULT_ROUTE)
            return false;
    return true;
}

/* The shape of step st, computed (sim_step_shape keeps the last few). */
static bool shape_of(Sim *sim, int32_t step, SimShape *out)
{
    *out = (SimShape){ 0, -1, 0, false, INT64_MAX, 0 };
    const int32_t *sends;
    sim_port_counts(sim, step, &sends, NULL);
    const SchedFlat *f = sim_flat(sim, step);
    if (!f || sim->port_step != step)
        return false;
    const Net *net = sim->net;
    int64_t senders = 0;
    for (int32_t v = 0; v < net->size; v++)   /* (no branch: the compiler's vectors) */
        senders += sends[v] > 0;
    out->senders = senders;
    for (int32_t v = net->size - 1; senders > 0 && v >= 0; v--)
        if (sends[v] > 0) {
            out->one_sender = v;   /* the last one */
            break;
        }
    const ArcMap *L = &sim->lay;
    if (!sim->full && net->ndim == 2 && L->pow2 &&
        (net->kind == NET_MESH || net->kind == NET_TORUS) && all_default(f)) {
        shape_pow2_2d(sim, f, out);
    } else {
        for (int64_t i = 0; i < f->n; i++) {
            const XV x = xv(f, i);
            RouteFacts r = route_facts(sim, &x);
            shape_add(out, &r);
        }
    }
    if (f->n == 0)
        out->hmin = 0;
    return true;
}

bool sim_step_shape(Sim *sim, int32_t step, SimShape *out)
{
    if (!sim || !out || step < 0 || step >= sim->nsteps)
        return false;
    /* a step's shape never changes: the last few asked are kept (the TUI steps back and
     * forth), each under its step + 1 (0: none) */
    ShapeMemo *m = &sim->shapes[step % SIM_SHAPES];
    if (m->step1 == step + 1) {
        *out = m->sh;
        return true;
    }
    if (!shape_of(sim, step, out))
        return false;
    m->step1 = step + 1;
    m->sh = *out;
    return true;
}
