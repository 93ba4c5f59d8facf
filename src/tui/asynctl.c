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

bool asynctl_set(App *a, bool on)
{
    a->async_tl = false;
    if (!on) {
        app_msg(a, false, "timing lockstep: steps");
        return true;
    }
    if (a->vs) {
        app_msg(a, true, "the time line shows one broadcast: :vs off first");
        return false;
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
    if (!a->async_tl || !a->b.ready || a->vs)   /* side by side: steps (vs.h) */
        return NULL;
    if (a->atl.gen != a->b.gen && !build(a)) {
        a->async_tl = false;
        return NULL;
    }
    return a->atl.view;
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

void asynctl_free(App *a)
{
    asyncview_free(a->atl.view);
    sim_async_free(a->atl.as);
    a->atl.view = NULL;
    a->atl.as = NULL;
    a->atl.gen = -1;
}
