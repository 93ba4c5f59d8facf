/* vs.c — a second broadcast side by side (see vs.h). */
#include "vs.h"
#include "asynctl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Vs {
    Bcast *b;              /* the second broadcast (NULL: closed) */
    char label[96];        /* "bst", "st nu=1" */
    AsyncTl *tl;           /* its time line (asynctl.h) */
};

Vs *vs_new(void)
{
    Vs *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->tl = asynctl_new();
    if (!v->tl) {
        free(v);
        return NULL;
    }
    return v;
}

void vs_close(Vs *v, const VsHost *h)
{
    if (!v || !v->b) return;
    asynctl_drop(v->tl);
    h->bcast_free(v->b);
    free(v->b);
    v->b = NULL;
    v->label[0] = '\0';
}

void vs_free(Vs *v, const VsHost *h)
{
    if (!v) return;
    vs_close(v, h);
    asynctl_free(v->tl);
    free(v);
}

const Bcast *vs_bcast(const Vs *v) { return v && v->b && v->b->ready ? v->b : NULL; }
const char *vs_label(const Vs *v) { return v ? v->label : ""; }

int32_t vs_nsteps(const Vs *v)
{
    const Bcast *b = vs_bcast(v);
    return b ? sched_nsteps(b->sched) : 0;
}

int32_t vs_pos(const Vs *v)
{
    const Bcast *b = vs_bcast(v);
    return b ? b->pos : 0;
}

void vs_sync(Vs *v, int32_t pos)
{
    if (!vs_bcast(v)) return;
    Bcast *b = v->b;
    int32_t n = sched_nsteps(b->sched);
    if (sim_seek(b->sim, pos < n ? pos : n)) b->pos = sim_pos(b->sim);
}

static void say(const VsHost *h, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(const VsHost *h, bool error, const char *fmt, ...)
{
    char t[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    h->msg(h->ctx, error, t);
}

/* Build the second broadcast from the first one's words changed by `label`'s words. */
static bool build(Vs *v, const VsHost *h, const char *label)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s", label);
    SetupSpec ss = h->spec;
    const char *sets[32];
    size_t ns = 0;
    for (size_t i = 0; i < ss.nsets && ns < 16; i++) sets[ns++] = ss.sets[i];
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strchr(w, '=')) {
            if (ns < 32) sets[ns++] = w;   /* later settings win (setup applies in order) */
        } else {
            ss.algo = w;
        }
    }
    ss.sets = sets;
    ss.nsets = ns;
    Bcast *nb = calloc(1, sizeof *nb);
    if (!nb) return false;
    char err[300] = "";
    if (!h->build(h->ctx, nb, &ss, h->pos, err, sizeof err)) {
        free(nb);
        if (h->cancelled(h->ctx)) say(h, false, "cancelled (Esc)");
        else say(h, true, "vs %s: %s", label, err);
        return false;
    }
    vs_close(v, h);
    v->b = nb;
    snprintf(v->label, sizeof v->label, "%s", label);
    vs_sync(v, h->pos);
    return true;
}

bool vs_command(Vs *v, const VsHost *h, const char *const *words, int n)
{
    if (n == 1 && strcmp(words[0], "off") == 0) {
        vs_close(v, h);
        say(h, false, "one broadcast again");
        return true;
    }
    if (n < 1 || !h->ready) {
        say(h, true, ":vs takes an algorithm and/or settings, e.g. :vs bst, :vs st nu=1, "
            "or :vs off");
        return false;
    }
    char label[96] = "";
    for (int i = 0; i < n; i++) {
        size_t l = strlen(label);
        snprintf(label + l, sizeof label - l, "%s%s", i ? " " : "", words[i]);
    }
    if (!build(v, h, label)) return false;
    say(h, false, "side by side: %s | %s (:vs off to leave)", h->name, label);
    return true;
}

bool vs_follow(Vs *v, const VsHost *h)
{
    if (!v->b || !h->ready) return true;
    char label[96];
    snprintf(label, sizeof label, "%s", v->label);
    if (!build(v, h, label)) {
        vs_close(v, h);
        return false;
    }
    return true;
}

AsyncView *vs_async_view(Vs *v, double t, char *err, size_t errlen)
{
    if (errlen) err[0] = '\0';
    const Bcast *b = vs_bcast(v);
    if (!b) return NULL;
    AtlSrc src = {b->sched, sim_params(b->sim), b->gen};
    AsyncView *av = asynctl_view(v->tl, &src, err, errlen);
    if (av && !asynctl_seek_time(v->tl, t))
        snprintf(err, errlen, "out of memory moving on the time line");
    return av;
}

const SimAsync *vs_async_run(const Vs *v)
{
    return v && v->b ? asynctl_run(v->tl) : NULL;
}
