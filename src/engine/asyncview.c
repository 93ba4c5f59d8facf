/* asyncview.c — an asynchronous run at one moment: asyncview.h. */
#include "asyncview.h"

#include <stdio.h>
#include <stdlib.h>

#include "chunkset.h"

struct AsyncView {
    const Sched *s;
    const SimAsync *as;
    const Net *net;
    int32_t size;            /* net_size (kept: the view may be freed after the net) */
    double *times;
    int64_t ntimes, pos;
    ChunkSet **hold;         /* per node */
    int32_t *load;           /* per link id */
    int32_t *recv;           /* per node */
    int64_t *flight, nflight, nstart, nend;
};

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

AsyncView *asyncview_new(const Sched *s, const SimAsync *as, char *err, size_t errlen)
{
    int64_t ne = sim_async_nevents(as);
    if (ne == 0 && sched_total_transfers(s) > 0) {
        snprintf(err, errlen, "the asynchronous run kept no events");
        return NULL;
    }
    AsyncView *v = calloc(1, sizeof *v);
    if (!v)
        goto oom;
    v->s = s;
    v->as = as;
    v->net = sched_net(s);
    v->size = net_size(v->net);
    size_t size = (size_t)v->size;
    v->times = malloc(((size_t)ne * 2 + 1) * sizeof *v->times);
    v->hold = calloc(size, sizeof *v->hold);
    v->load = calloc((size_t)net_nlinks(v->net), sizeof *v->load);
    v->recv = calloc(size, sizeof *v->recv);
    v->flight = malloc(((size_t)ne + 1) * sizeof *v->flight);
    if (!v->times || !v->hold || !v->load || !v->recv || !v->flight)
        goto oom;
    for (size_t n = 0; n < size; n++)
        if (!(v->hold[n] = chunkset_new()))
            goto oom;
    int64_t nt = 0;
    v->times[nt++] = 0;
    for (int64_t i = 0; i < ne; i++) {
        v->times[nt++] = sim_async_event(as, i)->start;
        v->times[nt++] = sim_async_event(as, i)->end;
    }
    qsort(v->times, (size_t)nt, sizeof *v->times, cmp_double);
    int64_t m = 0;
    for (int64_t i = 0; i < nt; i++)
        if (m == 0 || v->times[i] != v->times[m - 1])
            v->times[m++] = v->times[i];
    v->ntimes = m;
    v->pos = -1;
    if (!asyncview_seek(v, 0))
        goto oom;
    return v;
oom:
    asyncview_free(v);
    snprintf(err, errlen, "out of memory for the time line");
    return NULL;
}

void asyncview_free(AsyncView *v)
{
    if (!v)
        return;
    if (v->hold)
        for (int32_t n = 0; n < v->size; n++)
            chunkset_free(v->hold[n]);
    free(v->hold);
    free(v->times);
    free(v->load);
    free(v->recv);
    free(v->flight);
    free(v);
}

int64_t asyncview_ntimes(const AsyncView *v) { return v->ntimes; }
double asyncview_time(const AsyncView *v, int64_t i)
{
    return i >= 0 && i < v->ntimes ? v->times[i] : 0;
}
int64_t asyncview_pos(const AsyncView *v) { return v->pos; }

/* Add delta to the load of every link of t's route. */
static void route_load(AsyncView *v, const SchedTransfer *t, int delta)
{
    if (net_pairwise(v->net)) {   /* full, hxbar: the pair's link (hxbar: and the channels) */
        v->load[net_pair_link(v->net, t->src, t->dst)] += delta;
        int32_t B = net_hxbar_per(v->net);
        if (B > 0 && t->src / B != t->dst / B) {
            v->load[net_channel_link(v->net, t->src / B, false)] += delta;
            v->load[net_channel_link(v->net, t->dst / B, true)] += delta;
        }
        return;
    }
    int32_t u = t->src;
    for (int g = 0; g < t->nseg; g++)
        for (int32_t h = 0; h < t->seg[g].len; h++) {
            v->load[net_link(v->net, u, t->seg[g].dim, t->seg[g].dir)] += delta;
            u = net_neighbor(v->net, u, t->seg[g].dim, t->seg[g].dir);
        }
}

bool asyncview_seek(AsyncView *v, int64_t i)
{
    if (i < 0)
        i = 0;
    if (i >= v->ntimes)
        i = v->ntimes - 1;
    /* undo the flights of the moment shown, then replay from the givens */
    for (int64_t k = 0; k < v->nflight; k++) {
        const SimAsyncEvent *e = sim_async_event(v->as, v->flight[k]);
        SchedTransfer t;
        sched_transfer(v->s, e->step, e->index, &t);
        route_load(v, &t, -1);
        v->recv[t.dst]--;
    }
    v->nflight = v->nstart = v->nend = 0;
    for (int32_t n = 0; n < v->size; n++)
        chunkset_clear(v->hold[n]);
    for (size_t g = 0; g < sched_ngiven(v->s); g++) {
        int32_t n;
        ChunkRange r;
        sched_given(v->s, g, &n, &r);
        if (!chunkset_add_range(v->hold[n], r.lo, r.hi))
            return false;
    }
    double t = v->times[i];
    int64_t ne = sim_async_nevents(v->as);
    for (int64_t k = 0; k < ne; k++) {
        const SimAsyncEvent *e = sim_async_event(v->as, k);
        if (e->start > t)
            break;   /* sorted by start */
        v->nstart += e->start == t;
        v->nend += e->end == t;
        SchedTransfer x;
        sched_transfer(v->s, e->step, e->index, &x);
        if (e->end <= t) {
            for (uint32_t r = 0; r < x.nranges; r++)
                if (!chunkset_add_range(v->hold[x.dst], x.ranges[r].lo, x.ranges[r].hi))
                    return false;
        } else {
            v->flight[v->nflight++] = k;
            route_load(v, &x, 1);
            v->recv[x.dst]++;
        }
    }
    v->pos = i;
    return true;
}

int64_t asyncview_nflight(const AsyncView *v) { return v->nflight; }
const SimAsyncEvent *asyncview_flight(const AsyncView *v, int64_t k)
{
    return k >= 0 && k < v->nflight ? sim_async_event(v->as, v->flight[k]) : NULL;
}
int64_t asyncview_nstarting(const AsyncView *v) { return v->nstart; }
int64_t asyncview_nending(const AsyncView *v) { return v->nend; }
int32_t asyncview_link_load(const AsyncView *v, int64_t link)
{
    return link >= 0 && link < net_nlinks(v->net) ? v->load[link] : 0;
}
int32_t asyncview_receiving(const AsyncView *v, int32_t node)
{
    return node >= 0 && node < net_size(v->net) ? v->recv[node] : 0;
}
uint64_t asyncview_held(const AsyncView *v, int32_t node)
{
    return node >= 0 && node < net_size(v->net) ? chunkset_count(v->hold[node]) : 0;
}
bool asyncview_holds(const AsyncView *v, int32_t node, uint32_t chunk)
{
    return node >= 0 && node < net_size(v->net) && chunkset_contains(v->hold[node], chunk);
}
