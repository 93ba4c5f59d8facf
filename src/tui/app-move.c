/* app-move.c — where the App is in its broadcast: the position (side by side: the longer
 * one's), going to a step (a long seek across big steps goes one step at a time with the wait
 * hook drawn, Escape stops it), and play's tick.  See app.h (app_goto, app_pos, app_nsteps,
 * app_tick). */
#include "app-core.h"

#include <stdio.h>

#include "asynctl.h"
#include "vs.h"

int32_t app_nsteps(const App *a)
{
    int32_t n = a->b.ready ? sched_nsteps(a->b.sched) : 0;
    if (vs_nsteps(a->vs) > n) n = vs_nsteps(a->vs);
    return n;
}

int32_t app_pos(const App *a)
{
    /* (both follow one position, each up to its own end: the further one is the position) */
    return vs_bcast(a->vs) && vs_pos(a->vs) > a->b.pos ? vs_pos(a->vs) : a->b.pos;
}

/* A seek across many big steps goes one step at a time, drawing between steps (the wait
 * hook), so that G on a large net shows where it is and Escape stops it.  True if done. */
static bool app_long_seek(App *a, int32_t pos)
{
    int32_t from = a->b.pos;
    int32_t span = pos > from ? pos - from : from - pos;
    if (!a->wait || span < 2 || sched_total_transfers(a->b.sched) < APP_LONG_SEEK_TRANSFERS)
        return false;
    a->cancelled = false;
    Progress p;
    progress_init(&p);
    char what[160];
    snprintf(what, sizeof what, "going to step %ld", (long)pos);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double last = -1;
    int dir = pos > from ? 1 : -1;
    for (int32_t k = from; k != pos;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
        if (last < 0 || el - last >= 0.25) {
            last = el;
            progress_init(&p);
            atomic_store(&p.phase, PROGRESS_SEEK);
            atomic_store(&p.done, (long long)(k > from ? k - from : from - k));
            atomic_store(&p.total, (long long)span);
            if (!a->wait(a, what, &p, el, a->wait_ctx)) {
                a->cancelled = true;
                app_msg(a, false, "stopped at step %ld (Esc)", (long)k);
                return true;
            }
        }
        k += dir;
        if (!sim_seek(a->b.sim, k)) {
            app_msg(a, true, "cannot seek to step %ld", (long)k);
            return true;
        }
        a->b.pos = k;
    }
    return true;
}

void app_goto(App *a, int32_t pos)
{
    if (!a->b.ready) return;
    int32_t n = app_nsteps(a), own = sched_nsteps(a->b.sched);
    if (pos < 0) pos = 0;
    if (pos > n) pos = n;
    vs_sync(a->vs, pos);
    if (pos > own) pos = own;   /* the first broadcast stays done at its last state */
    if (pos > a->b.nsim && !app_need_steps(a, pos)) pos = a->b.nsim;
    if (a->b.rest) atomic_store(&a->b.rest->want, pos);
    if (app_long_seek(a, pos)) return;
    if (sim_seek(a->b.sim, pos))
        a->b.pos = pos;
    else
        app_msg(a, true, "cannot seek to step %ld", (long)pos);
}

void app_tick(App *a)
{
    if (!a->playing) return;
    if (app_async_view(a)) {   /* the time line: the next moment */
        app_async_move(a, 1, true);
        if (app_async_at_end(a)) a->playing = false;
        return;
    }
    if (app_pos(a) >= app_nsteps(a)) {
        a->playing = false;
        return;
    }
    app_goto(a, app_pos(a) + 1);
    if (app_pos(a) >= app_nsteps(a)) a->playing = false;
}
