/* asynctl.c — the asynchronous time line: asynctl.h. */
#include "asynctl.h"

#include <stdlib.h>

static bool build(App *a)
{
    char err[200];
    asynctl_free(a);
    if (!a->b.ready)
        return false;
    if (sched_total_transfers(a->b.sched) > ASYNCTL_MAXTRANSFERS) {
        app_msg(a, true, "the time line is drawn for schedules of up to %d transfers",
                ASYNCTL_MAXTRANSFERS);
        return false;
    }
    a->atl.as = sim_async_run(a->b.sched, sim_params(a->b.sim), SIM_ASYNC_EVENTS, err,
                              sizeof err);
    if (a->atl.as)
        a->atl.view = asyncview_new(a->b.sched, a->atl.as, err, sizeof err);
    if (!a->atl.view) {
        asynctl_free(a);
        app_msg(a, true, "no time line: %s", err);
        return false;
    }
    a->atl.gen = a->b.gen;
    return true;
}

/* The lockstep position of the time line's moment: the last step any of whose transfers has
 * started by then (in flight or done); moment 0 is before the first step (position 0). */
static int32_t step_at_moment(App *a)
{
    AsyncView *v = a->atl.view;
    int64_t m = asyncview_pos(v);
    if (m <= 0) return 0;
    double t = asyncview_time(v, m);
    int32_t k = 0;
    int64_t n = sim_async_nevents(a->atl.as);
    for (int64_t i = 0; i < n; i++) {   /* (sorted by start time) */
        const SimAsyncEvent *e = sim_async_event(a->atl.as, i);
        if (e->start > t) break;
        if (e->step + 1 > k) k = e->step + 1;
    }
    return k;
}

bool asynctl_set(App *a, bool on)
{
    bool was = a->async_tl && a->b.ready && a->atl.view && a->atl.gen == a->b.gen;
    a->async_tl = false;
    if (!on) {
        /* back to steps where the time line was: the step containing the moment shown */
        if (was) app_goto(a, step_at_moment(a));
        app_msg(a, false, "timing lockstep: steps (step %ld)", (long)app_pos(a));
        return true;
    }
    if (!build(a))
        return false;
    a->async_tl = true;
    a->playing = false;
    app_msg(a, false, "timing async: %lld moments (transfers starting or ending), n/p move "
            "between them; A or :timing lockstep goes back to steps",
            (long long)asyncview_ntimes(a->atl.view));
    return true;
}

AsyncView *asynctl_view(App *a)
{
    if (!a->async_tl || !a->b.ready)
        return NULL;
    if (a->atl.gen != a->b.gen && !build(a)) {
        a->async_tl = false;
        return NULL;
    }
    return a->atl.view;
}

/* The App with the second broadcast and its time line in the first's places, or back. */
static void swap_vs(App *a)
{
    Bcast b = a->b;
    a->b = *a->vs;
    *a->vs = b;
    AsyncTl t = a->atl;
    a->atl = a->vatl;
    a->vatl = t;
}

void asynctl_vs_enter(App *a, double t)
{
    swap_vs(a);
    if (!a->async_tl || !a->b.ready)
        return;
    /* (built here as the first's is; if it cannot be, the half shows steps: the first's
     * time line stays on) */
    if (a->atl.gen != a->b.gen && !build(a)) {
        a->atl.gen = a->b.gen;   /* (no view: not tried again for this broadcast) */
        return;
    }
    AsyncView *v = a->atl.view;
    int64_t lo = 0, hi = asyncview_ntimes(v) - 1;   /* the latest moment not after t */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (asyncview_time(v, mid) <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (asyncview_pos(v) != lo && !asyncview_seek(v, lo))
        app_msg(a, true, "out of memory moving on the time line");
}

void asynctl_vs_leave(App *a) { swap_vs(a); }

void asynctl_vs_free(App *a)
{
    AsyncTl t = a->atl;
    a->atl = a->vatl;
    asynctl_free(a);
    a->vatl = a->atl;
    a->atl = t;
}

void asynctl_move(App *a, int64_t to, bool relative)
{
    AsyncView *v = asynctl_view(a);
    if (!v)
        return;
    if (relative)
        to += asyncview_pos(v);
    if (!asyncview_seek(v, to))
        app_msg(a, true, "out of memory moving on the time line");
}

bool asynctl_at_end(App *a)
{
    AsyncView *v = asynctl_view(a);
    return !v || asyncview_pos(v) >= asyncview_ntimes(v) - 1;
}

int64_t asynctl_node_events(App *a, int32_t node, const int64_t **ev)
{
    if (!asynctl_view(a))
        return -1;
    if (a->atl.ev_node != node || !a->atl.ev) {
        int64_t n = sim_async_nevents(a->atl.as), k = 0, cap = 16;
        int64_t *e = malloc((size_t)cap * sizeof *e);
        for (int64_t i = 0; e && i < n; i++) {
            const SimAsyncEvent *x = sim_async_event(a->atl.as, i);
            SchedTransfer t;
            sched_transfer(a->b.sched, x->step, x->index, &t);
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
        free(a->atl.ev);
        a->atl.ev = e;
        a->atl.nev = e ? k : 0;
        a->atl.ev_node = e ? node : -1;
        if (!e)
            return -1;
    }
    *ev = a->atl.ev;
    return a->atl.nev;
}

void asynctl_free(App *a)
{
    free(a->atl.ev);
    a->atl.ev = NULL;
    a->atl.nev = 0;
    a->atl.ev_node = -1;
    asyncview_free(a->atl.view);
    sim_async_free(a->atl.as);
    a->atl.view = NULL;
    a->atl.as = NULL;
    a->atl.gen = -1;
}
