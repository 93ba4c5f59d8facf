/* figure.h — the paper's figures (the s-to-p paper, Figs. 2-8) as plots in the Chart panel:
 * `:figure N` computes figure N with the same code as `meshcast compare --sources`
 * (script/stopcmp.h) on a worker thread (job.h: progress shown, Escape cancels), and the
 * Chart panel then draws it instead of the cost-vs-size chart; `:figure off` goes back.
 * `:figure N async` prices every schedule event by event (sim-async.h).  The figure is
 * computed under the cost model of the broadcast shown.  No curses here.
 *
 * A narrow interface: figure_make reads only what it is given (the words, the model and profile
 * of the broadcast shown, a wait hook), never the App.
 * Ownership: figure_make allocates the figure, figure_free frees it (the App owns the one the
 * Chart panel shows, a->fig).
 */
#ifndef MESHCAST_TUI_FIGURE_H
#define MESHCAST_TUI_FIGURE_H

#include <stdbool.h>

#include <stddef.h>

#include "../engine/progress.h"
#include "../script/stopcmp.h"

struct AppFigure {
    const StopFigure *def;
    bool async;
    char model[32];
    char profile[72];   /* :profile NAME the figure was computed under, or "" */
    StopPlot plot;
};

/* What the figure is computed under: the broadcast shown's cost model (NULL: seidel) and
 * :profile (NULL: none). */
typedef struct {
    const char *model;
    const char *profile;
} FigSrc;

/* Called on this thread about every 40 ms while the figure is computed on a worker, with what
 * is done: false stops it. */
typedef bool (*FigWaitFn)(void *ctx, const char *what, const Progress *p, double elapsed_s);

/* `:figure N [async]` (words, n of them): compute figure N (with wait: on a worker; NULL: here)
 * into *out (figure_free frees it), true with what it shows in msg; false with why not in msg.
 * *cancelled is set once the computing starts: true when the wait stopped it. */
bool figure_make(const char *const *words, int n, const FigSrc *src, FigWaitFn wait, void *ctx,
                 struct AppFigure **out, bool *cancelled, char *msg, size_t len);
void figure_free(struct AppFigure *f);

#endif
