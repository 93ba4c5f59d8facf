/* sim-async.c — asynchronous (event by event) timing of a schedule: sim-async.h. */
#include "sim-async.h"

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

static int cmp_ev(const void *pa, const void *pb)
{
    const SimAsyncEvent *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* The arcs of a route, one by one, without a division per hop. */
typedef struct {
    const Net *net;
    int nd;
    int32_t c[NET_MAXDIM], ext[NET_MAXDIM], stride[NET_MAXDIM];
    int32_t id;
} Walk;

static void walk_init(Walk *w, const Net *net, int32_t src)
{
    w->net = net;
    w->nd = net_ndim(net);
    net_coords(net, src, w->c);
    int32_t st = 1;
    for (int d = w->nd - 1; d >= 0; d--) {
        w->ext[d] = net_dim(net, d);
        w->stride[d] = st;
        st *= w->ext[d];
    }
    w->id = src;
}

/* The arc leaving the current node along (dim, dir); then moves along it. */
static int64_t walk_step(Walk *w, int dim, int dir)
{
    int64_t l = ((int64_t)w->id * w->nd + dim) * 2 + (dir < 0);
    int32_t c = w->c[dim] + dir;
    if (c < 0)
        c += w->ext[dim];
    else if (c >= w->ext[dim])
        c -= w->ext[dim];
    w->id += (c - w->c[dim]) * w->stride[dim];
    w->c[dim] = c;
    return l;
}

SimAsync *sim_async_run(const Sched *s, const CostParams *p, unsigned flags, char *err,
                        size_t errlen)
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
    bool links = p->model == COST_CIRCUIT || p->model == COST_SAF || p->model == COST_SEIDEL;
    bool ports = p->model == COST_SEIDEL || p->model == COST_POSTAL;
    bool simplex = p->model == COST_POSTAL && !p->duplex;
    if (p->model == COST_SEIDEL) {
        cap = 1 << p->nu;
        if (cap > 64 || (double)cap * (double)nl > (double)(INT64_C(1) << 27)) {
            snprintf(err, errlen, "async: seidel links of %d circuits on %s are too many "
                     "slots to time", cap, net_spec(net));
            return NULL;
        }
    }
    SimAsync *a = calloc(1, sizeof *a);
    double *arc = links ? calloc((size_t)(nl * cap), sizeof *arc) : NULL;
    double *sendp = ports ? calloc((size_t)n, sizeof *sendp) : NULL;
    double *recvp = ports && !simplex ? calloc((size_t)n, sizeof *recvp) : NULL;
    double *local = calloc((size_t)n, sizeof *local);     /* local operations done */
    double *lastin = calloc((size_t)n, sizeof *lastin);   /* latest arrival, earlier steps */
    double *stepin = calloc((size_t)n, sizeof *stepin);   /* latest arrival, this step */
    ArrList *arr = calloc((size_t)n, sizeof *arr);
    int64_t ntot = sched_total_transfers(s);
    bool ok = a && (!links || arc) && (!ports || sendp) && (!(ports && !simplex) || recvp) &&
              local && lastin && stepin && arr;
    if (ok) {
        a->nsteps = nsteps;
        a->step_end = calloc((size_t)(nsteps > 0 ? nsteps : 1), sizeof *a->step_end);
        ok = a->step_end != NULL;
    }
    if (ok && (flags & SIM_ASYNC_EVENTS)) {
        a->ev = malloc(sizeof *a->ev * (size_t)(ntot > 0 ? ntot : 1));
        ok = a->ev != NULL;
    }
    if (recvp == NULL && ports)
        recvp = sendp;   /* simplex: one port for both */
    double total = 0;
    for (int32_t st = 0; ok && st < nsteps; st++) {
        double send_end = 0;
        /* local operations: after the node's earlier arrivals and operations */
        int64_t nloc = sched_nlocals(s, st);
        for (int64_t i = 0; i < nloc; i++) {
            SchedLocal lo;
            sched_local_get(s, st, i, &lo);
            int32_t first = lo.node < 0 ? 0 : lo.node, last = lo.node < 0 ? n - 1 : lo.node;
            for (int32_t v = first; v <= last; v++) {
                local[v] = dmax(local[v], lastin[v]) + p->rho * (double)lo.bytes;
                send_end = dmax(send_end, local[v]);
            }
        }
        int64_t nt = sched_ntransfers(s, st);
        for (int64_t i = 0; ok && i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            double start = local[t.src];
            for (uint32_t r = 0; r < t.nranges; r++)
                start = dmax(start, arr_ready(&arr[t.src], t.ranges[r].lo, t.ranges[r].hi));
            if (ports) {
                start = dmax(start, sendp[t.src]);
                start = dmax(start, recvp[t.dst]);
            }
            if (links) {
                Walk w;
                walk_init(&w, net, t.src);
                for (int g = 0; g < t.nseg; g++)
                    for (int32_t h = 0; h < t.seg[g].len; h++) {
                        int64_t l = walk_step(&w, t.seg[g].dim, t.seg[g].dir);
                        /* the slot that frees first (one slot but under seidel nu > 0) */
                        double best = arc[l * cap];
                        for (int k = 1; k < cap; k++)
                            if (arc[l * cap + k] < best)
                                best = arc[l * cap + k];
                        start = dmax(start, best);
                    }
            }
            double end = start + cost_transfer(p, (double)t.len, (double)t.bytes, 1);
            if (ports) {
                sendp[t.src] = end;
                recvp[t.dst] = end;
            }
            if (links) {
                Walk w;
                walk_init(&w, net, t.src);
                for (int g = 0; g < t.nseg; g++)
                    for (int32_t h = 0; h < t.seg[g].len; h++) {
                        int64_t l = walk_step(&w, t.seg[g].dim, t.seg[g].dir);
                        int kbest = 0;
                        for (int k = 1; k < cap; k++)
                            if (arc[l * cap + k] < arc[l * cap + kbest])
                                kbest = k;
                        arc[l * cap + kbest] = end;
                    }
            }
            for (uint32_t r = 0; ok && r < t.nranges; r++)
                ok = arr_add(&arr[t.dst], t.ranges[r].lo, t.ranges[r].hi, end);
            stepin[t.dst] = dmax(stepin[t.dst], end);
            send_end = dmax(send_end, end);
            if (a->ev)
                a->ev[a->nev++] = (SimAsyncEvent){ start, end, st, i };
        }
        /* this step's arrivals count for the local operations of later steps */
        for (int64_t i = 0; ok && i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            lastin[t.dst] = dmax(lastin[t.dst], stepin[t.dst]);
        }
        a->step_end[st] = send_end;
        total = dmax(total, send_end);
    }
    if (ok && a->ev)
        qsort(a->ev, (size_t)a->nev, sizeof *a->ev, cmp_ev);
    free(arc);
    if (recvp != sendp)
        free(recvp);
    free(sendp);
    free(local);
    free(lastin);
    free(stepin);
    if (arr)
        for (int32_t v = 0; v < n; v++)
            free(arr[v].a);
    free(arr);
    if (!ok) {
        snprintf(err, errlen, "async: out of memory");
        sim_async_free(a);
        return NULL;
    }
    a->total = total;
    return a;
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

const SimAsyncEvent *sim_async_event(const SimAsync *a, int64_t i)
{
    return a && i >= 0 && i < a->nev ? &a->ev[i] : NULL;
}
