/* asynctl.c — the asynchronous time line: asynctl.h. */
#include "asynctl.h"

#include <stdio.h>
#include <stdlib.h>

struct AsyncTl {
    long gen;          /* the generation built for (-1: none) */
    long tried;        /* the generation last tried (a failure is not tried again) */
    SimAsync *as;
    AsyncView *view;
    int32_t ev_node;   /* the node whose transfers ev lists (asynctl_node_events), or -1 */
    int64_t *ev, nev;
};

AsyncTl *asynctl_new(void)
{
    AsyncTl *tl = calloc(1, sizeof *tl);
    if (!tl) return NULL;
    tl->gen = tl->tried = -1;
    tl->ev_node = -1;
    return tl;
}

void asynctl_drop(AsyncTl *tl)
{
    if (!tl) return;
    free(tl->ev);
    tl->ev = NULL;
    tl->nev = 0;
    tl->ev_node = -1;
    asyncview_free(tl->view);
    sim_async_free(tl->as);
    tl->view = NULL;
    tl->as = NULL;
    tl->gen = tl->tried = -1;
}

void asynctl_free(AsyncTl *tl)
{
    asynctl_drop(tl);
    free(tl);
}

bool asynctl_build(AsyncTl *tl, const AtlSrc *src, char *err, size_t errlen)
{
    char why[200];
    asynctl_drop(tl);
    tl->tried = src->gen;
    if (!src->sched) {
        snprintf(err, errlen, "no broadcast to time");
        return false;
    }
    if (sched_total_transfers(src->sched) > ASYNCTL_MAXTRANSFERS) {
        snprintf(err, errlen, "the time line is drawn for schedules of up to %d transfers",
                 ASYNCTL_MAXTRANSFERS);
        return false;
    }
    tl->as = sim_async_run(src->sched, src->params, SIM_ASYNC_EVENTS, why, sizeof why);
    if (tl->as)
        tl->view = asyncview_new(src->sched, tl->as, why, sizeof why);
    if (!tl->view) {
        asynctl_drop(tl);
        tl->tried = src->gen;
        snprintf(err, errlen, "no time line: %s", why);
        return false;
    }
    tl->gen = src->gen;
    return true;
}

AsyncView *asynctl_view(AsyncTl *tl, const AtlSrc *src, char *err, size_t errlen)
{
    if (errlen) err[0] = '\0';
    if (!src->sched) return NULL;
    if (tl->view && tl->gen == src->gen) return tl->view;
    if (tl->tried == src->gen && tl->gen != src->gen) return NULL;   /* failed before */
    return asynctl_build(tl, src, err, errlen) ? tl->view : NULL;
}

const SimAsync *asynctl_run(const AsyncTl *tl) { return tl->as; }
AsyncView *asynctl_current(const AsyncTl *tl) { return tl->view; }
long asynctl_gen(const AsyncTl *tl) { return tl->gen; }

bool asynctl_move(AsyncTl *tl, int64_t to, bool relative)
{
    if (!tl->view) return true;
    if (relative) to += asyncview_pos(tl->view);
    return asyncview_seek(tl->view, to);
}

bool asynctl_at_end(const AsyncTl *tl)
{
    return !tl->view || asyncview_pos(tl->view) >= asyncview_ntimes(tl->view) - 1;
}

bool asynctl_seek_time(AsyncTl *tl, double t)
{
    AsyncView *v = tl->view;
    if (!v) return true;
    int64_t lo = 0, hi = asyncview_ntimes(v) - 1;   /* the latest moment not after t */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (asyncview_time(v, mid) <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return asyncview_pos(v) == lo || asyncview_seek(v, lo);
}

int32_t asynctl_step_at_moment(const AsyncTl *tl)
{
    AsyncView *v = tl->view;
    if (!v) return 0;
    int64_t m = asyncview_pos(v);
    if (m <= 0) return 0;
    double t = asyncview_time(v, m);
    int32_t k = 0;
    int64_t n = sim_async_nevents(tl->as);
    for (int64_t i = 0; i < n; i++) {   /* (sorted by start time) */
        const SimAsyncEvent *e = sim_async_event(tl->as, i);
        if (e->start > t) break;
        if (e->step + 1 > k) k = e->step + 1;
    }
    return k;
}

int64_t asynctl_node_events(AsyncTl *tl, const Sched *sched, int32_t node, const int64_t **ev)
{
    if (!tl->view)
        return -1;
    if (tl->ev_node != node || !tl->ev) {
        int64_t n = sim_async_nevents(tl->as), k = 0, cap = 16;
        int64_t *e = malloc((size_t)cap * sizeof *e);
        for (int64_t i = 0; e && i < n; i++) {
            const SimAsyncEvent *x = sim_async_event(tl->as, i);
            SchedTransfer t;
            sched_transfer(sched, x->step, x->index, &t);
            if (t.src != node && t.dst != node)
                continue;
            if (k == cap) {
                int64_t *g = realloc(e, (size_t)(cap *= 2) * sizeof *e);
                if (!g) {
                    free(e);
                    e = NULL;
                    break;
                }
                e = g;
            }
            e[k++] = i;
        }
        free(tl->ev);
        tl->ev = e;
        tl->nev = e ? k : 0;
        tl->ev_node = e ? node : -1;
        if (!e)
            return -1;
    }
    *ev = tl->ev;
    return tl->nev;
}
