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
    App *a;
    FigJob *j;
    int number, cells;
} FigWait;

static bool fig_wait(const Progress *p, double elapsed, void *v)
{
    FigWait *w = v;
    char what[160];
    snprintf(what, sizeof what, "figure %d: %d of %d simulations", w->number,
             atomic_load(&w->j->done), w->cells);
    return w->a->wait(w->a, what, p, elapsed, w->a->wait_ctx);
}

bool figure_command(App *a, const char *const *words, int n)
{
    if (n == 1 && strcmp(words[0], "off") == 0) {
        figure_free(a);
        app_msg(a, false, "the Chart panel shows cost vs message size again");
        return true;
    }
    char *end = NULL;
    long num = n >= 1 ? strtol(words[0], &end, 10) : 0;
    const StopFigure *def = end && *end == '\0' ? stopcmp_figure((int)num) : NULL;
    bool async = n == 2 && strcmp(words[1], "async") == 0;
    if (!def || n > 2 || (n == 2 && !async)) {
        app_msg(a, true, ":figure takes a figure of the s-to-p paper, 2..8 (then async, "
                "optional), or off");
        return false;
    }
    StopCmpSpec spec = def->spec;
    const char *model = a->b.ready ? cost_model_name(a->b.setup.cost.model) : NULL;
    spec.model = model;
    spec.profile = a->b.spec.profile;   /* the machine's constants (:profile) */
    spec.async = async;
    char err[512];
    StopCmp *c = stopcmp_plan(&spec, err, sizeof err);
    if (!c) {
        app_msg(a, true, "figure %d: %s", def->number, err);
        return false;
    }
    FigJob j = {c, 0, false};
    a->cancelled = false;
    if (a->wait) {
        FigWait w = {a, &j, def->number, stopcmp_nrows(c) * stopcmp_nalgos(c)};
        if (!job_run(fig_job, &j, fig_wait, &w)) j.ok = false;
    } else {
        fig_job(&j);
    }
    struct AppFigure *f = j.ok ? calloc(1, sizeof *f) : NULL;
    if (!j.ok || !f || !stopcmp_plot(def, c, &f->plot)) {
        stopcmp_free(c);
        free(f);
        a->cancelled = !j.ok;
        app_msg(a, true, "figure %d: %s", def->number, !j.ok ? "cancelled" : "does not fit a plot");
        return false;
    }
    stopcmp_free(c);
    f->def = def;
    f->async = async;
    snprintf(f->model, sizeof f->model, "%s", model ? model : "seidel");
    snprintf(f->profile, sizeof f->profile, "%s", spec.profile ? spec.profile : "");
    figure_free(a);
    a->fig = f;
    a->panel = PANEL_CHART;
    app_msg(a, false, "figure %d in the Chart panel (:figure off: back to cost vs size)",
            def->number);
    return true;
}

const struct AppFigure *figure_shown(const App *a) { return a->fig; }

void figure_free(App *a)
{
    free(a->fig);
    a->fig = NULL;
}
