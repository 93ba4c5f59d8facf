/* draw-chart.h — the Chart panel: the comparison chart's cost against message size (chart.h:
 * log-log, crossovers dotted and in words, a measured run's point M), or Sanders & Sibeyn's
 * Fig. 3 (`:chart tradeoff`, chart-fig3.h), or a figure of the s-to-p paper (`:figure N`,
 * figure.h).
 *
 * A narrow interface: the panel reads only what it is given (a ChartSrc), never the App.  It
 * keeps nothing; Fig. 3 is computed into the Fig3 it is given on first show.
 */
#ifndef MESHCAST_TUI_DRAW_CHART_H
#define MESHCAST_TUI_DRAW_CHART_H

#include <stdint.h>

#include "../script/stopcmp.h"
#include "bcast.h"
#include "chart-fig3.h"
#include "chart.h"
#include "draw-text.h"
#include "figure.h"
#include "measfile.h"

/* What the panel shows: a figure (fig not NULL), else Fig. 3 (fig3 not NULL; its T table for
 * P = fig3_p), else the cost chart `chart` of the broadcast b (with the measured run meas, or
 * NULL).  chart and meas are read only for the cost chart. */
typedef struct {
    const struct AppFigure *fig;
    Fig3 *fig3;
    int64_t fig3_p;
    const Bcast *b;
    const Chart *chart;
    const MeasFile *meas;
} ChartSrc;

void draw_chart(const ChartSrc *src, Box *b);
/* The figure alone (draw-figure.c). */
void draw_figure(const struct AppFigure *f, Box *b);

#endif
