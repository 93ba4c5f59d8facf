/* figure.h — the paper's figures (papers/004, Figs. 2-8) as plots in the Chart panel:
 * `:figure N` computes figure N with the same code as `meshcast compare --sources`
 * (script/stopcmp.h) on a worker thread (job.h: progress shown, Escape cancels), and the
 * Chart panel then draws it instead of the cost-vs-size chart; `:figure off` goes back.
 * `:figure N async` prices every schedule event by event (sim-async.h).  The figure is
 * computed under the cost model of the broadcast shown.  No curses here.
 *
 * Ownership: the App owns a->fig (figure_free frees it; app_free calls it).
 */
#ifndef MESHCAST_TUI_FIGURE_H
#define MESHCAST_TUI_FIGURE_H

#include <stdbool.h>

#include "../script/stopcmp.h"
#include "app.h"

struct AppFigure {
    const StopFigure *def;
    bool async;
    char model[32];
    char profile[72];   /* :profile NAME the figure was computed under, or "" */
    StopPlot plot;
};

/* `:figure WORDS...` (n words): "N [async]" or "off". */
bool figure_command(App *a, const char *const *words, int n);
/* The figure the Chart panel shows, or NULL. */
const struct AppFigure *figure_shown(const App *a);
void figure_free(App *a);

#endif
