/* app-timeline.c — the App's side of the asynchronous time line (asynctl.h): whether it is
 * on, the view of the broadcast shown at its moment, moving, and what the user is told (see
 * app.h, "The asynchronous time line").  The time line itself is asynctl.c's: it reads only
 * the broadcast's schedule, cost parameters and generation (an AtlSrc). */
#include "app-core.h"

#include <stdio.h>

/* The time line's source: the broadcast shown. */
static AtlSrc atl_src(const App *a)
{
    AtlSrc s = {a->b.ready ? a->b.sched : NULL, a->b.ready ? sim_params(a->b.sim) : NULL,
                a->b.gen};
    return s;
}

bool app_timing(App *a, bool on)
{
    bool was = a->async_tl && a->b.ready && asynctl_current(a->atl) &&
               asynctl_gen(a->atl) == a->b.gen;
    a->async_tl = false;
    if (!on) {
        /* back to steps where the time line was: the step containing the moment shown */
        if (was) app_goto(a, asynctl_step_at_moment(a->atl));
        app_msg(a, false, "timing lockstep: steps (step %ld)", (long)app_pos(a));
        return true;
    }
    if (!a->b.ready) {
        asynctl_drop(a->atl);
        return false;
    }
    char err[300];
    AtlSrc s = atl_src(a);
    if (!asynctl_build(a->atl, &s, err, sizeof err)) {
        app_msg(a, true, "%s", err);
        return false;
    }
    a->async_tl = true;
    a->playing = false;
    app_msg(a, false, "timing async: %lld moments (transfers starting or ending), n/p move "
            "between them; A or :timing lockstep goes back to steps",
            (long long)asyncview_ntimes(asynctl_current(a->atl)));
    return true;
}

AsyncView *app_async_view(App *a)
{
    if (!a->async_tl || !a->b.ready)
        return NULL;
    char err[300];
    AtlSrc s = atl_src(a);
    AsyncView *v = asynctl_view(a->atl, &s, err, sizeof err);
    if (!v) {   /* the broadcast changed and its time line cannot be built: steps again */
        a->async_tl = false;
        if (err[0]) app_msg(a, true, "%s", err);
    }
    return v;
}

const SimAsync *app_async_run(App *a)
{
    return app_async_view(a) ? asynctl_run(a->atl) : NULL;
}

void app_async_move(App *a, int64_t to, bool relative)
{
    if (app_async_view(a) && !asynctl_move(a->atl, to, relative))
        app_msg(a, true, "out of memory moving on the time line");
}

bool app_async_at_end(App *a)
{
    return !app_async_view(a) || asynctl_at_end(a->atl);
}

int64_t app_async_node_events(App *a, int32_t node, const int64_t **ev)
{
    if (!app_async_view(a))
        return -1;
    return asynctl_node_events(a->atl, a->b.sched, node, ev);
}
