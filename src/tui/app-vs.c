/* app-vs.c — the App as the host of the second broadcast side by side (vs.h): what vs reads
 * of the first broadcast and the callbacks it calls (see app.h, "Side by side").  vs.c itself
 * never sees the App. */
#include "app-core.h"

#include <stdio.h>

static bool host_build(void *ctx, Bcast *out, const SetupSpec *spec, int32_t pos, char *err,
                       size_t errlen)
{
    return app_build_bcast(ctx, out, spec, pos, err, errlen);
}

static void host_msg(void *ctx, bool error, const char *text)
{
    app_msg(ctx, error, "%s", text);
}

static bool host_cancelled(void *ctx) { return ((const App *)ctx)->cancelled; }

VsHost app_vs_host(App *a)
{
    VsHost h = {
        .ready = a->b.ready, .pos = a->b.pos,
        .name = a->b.ready ? a->b.setup.def->name : "",
        .spec = app_spec(a),
        .ctx = a, .build = host_build, .bcast_free = app_bcast_free, .msg = host_msg,
        .cancelled = host_cancelled,
    };
    return h;
}

bool app_vs_command(App *a, const char *const *words, int n)
{
    VsHost h = app_vs_host(a);
    return vs_command(a->vs, &h, words, n);
}

void app_vs_follow(App *a)
{
    if (!vs_bcast(a->vs) || !a->b.ready) return;
    /* the message of what changed the first stays, unless the second fails */
    char keep[sizeof a->msg];
    snprintf(keep, sizeof keep, "%s", a->msg);
    bool err = a->msg_error;
    VsHost h = app_vs_host(a);
    if (!vs_follow(a->vs, &h)) return;
    snprintf(a->msg, sizeof a->msg, "%s", keep);
    a->msg_error = err;
}

AsyncView *app_vs_async_view(App *a, double t)
{
    char err[300];
    AsyncView *v = vs_async_view(a->vs, t, err, sizeof err);
    if (err[0]) app_msg(a, true, "%s", err);
    return v;
}
