/* figure.c — the paper's figures in the Chart panel (see figure.h). */
#include "figure.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/cost.h"
#include "job.h"

typedef struct {
    StopCmp *c;
    atomic_int done;
    bool ok;
} FigJob;

static void fig_job(void *v)
{
    FigJob *j = v;
    int nr = stopcmp_nrows(j->c), na = stopcmp_nalgos(j->c);
    j->ok = true;
    for (int i = 0; i < nr && j->ok; i++)
        for (int k = 0; k < na && j->ok; k++) {
            j->ok = stopcmp_cell(j->c, i, k);
            atomic_fetch_add(&j->done, 1);
        }
}

typedef struct {
    FigWaitFn wait;
    void *ctx;
    FigJob *j;
    int number, cells;
} FigWait;

static bool fig_wait(const Progress *p, double elapsed, void *v)
{
    FigWait *w = v;
    char what[160];
    snprintf(what, sizeof what, "figure %d: %d of %d simulations", w->number,
             atomic_load(&w->j->done), w->cells);
    return w->wait(w->ctx, what, p, elapsed);
}

bool figure_make(const char *const *words, int n, const FigSrc *src, FigWaitFn wait, void *ctx,
                 struct AppFigure **out, bool *cancelled, char *msg, size_t len)
{
    *out = NULL;
    char *end = NULL;
    long num = n >= 1 ? strtol(words[0], &end, 10) : 0;
    const StopFigure *def = end && *end == '\0' ? stopcmp_figure((int)num) : NULL;
    bool async = n == 2 && strcmp(words[1], "async") == 0;
    if (!def || n > 2 || (n == 2 && !async)) {
        snprintf(msg, len, ":figure takes a figure of the s-to-p paper, 2..8 (then async, "
                 "optional), or off");
        return false;
    }
    StopCmpSpec spec = def->spec;
    const char *model = src->model;
    spec.model = model;
    spec.profile = src->profile;   /* the machine's constants (:profile) */
    spec.async = async;
    char err[512];
    StopCmp *c = stopcmp_plan(&spec, err, sizeof err);
    if (!c) {
        snprintf(msg, len, "figure %d: %s", def->number, err);
        return false;
    }
    FigJob j = {c, 0, false};
    *cancelled = false;
    if (wait) {
        FigWait w = {wait, ctx, &j, def->number, stopcmp_nrows(c) * stopcmp_nalgos(c)};
        if (!job_run(fig_job, &j, fig_wait, &w)) j.ok = false;
    } else {
        fig_job(&j);
    }
    struct AppFigure *f = j.ok ? calloc(1, sizeof *f) : NULL;
    if (!j.ok || !f || !stopcmp_plot(def, c, &f->plot)) {
        stopcmp_free(c);
        free(f);
        *cancelled = !j.ok;
        snprintf(msg, len, "figure %d: %s", def->number, !j.ok ? "cancelled" : "does not fit a plot");
        return false;
    }
    stopcmp_free(c);
    f->def = def;
    f->async = async;
    snprintf(f->model, sizeof f->model, "%s", model ? model : "seidel");
    snprintf(f->profile, sizeof f->profile, "%s", spec.profile ? spec.profile : "");
    *out = f;
    snprintf(msg, len, "figure %d in the Chart panel (:figure off: back to cost vs size)",
             def->number);
    return true;
}

void figure_free(struct AppFigure *f) { free(f); }
