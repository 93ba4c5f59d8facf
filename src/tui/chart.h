/* chart.h — the comparison chart's numbers (the Chart panel's cost against message size):
 * every algorithm that runs on the net, sampled at CHART_NSIZES sizes, and the crossovers
 * between the cheapest, bisected to the exact byte count.  Types only, no curses: the App
 * computes one a step at a time (app_chart, app_chart_work), draw-chart.h draws it.
 */
#ifndef MESHCAST_TUI_CHART_H
#define MESHCAST_TUI_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHART_MAXALGO 16
#define CHART_NSIZES 18
#define CHART_MAXCROSS 16
/* A change of the cheapest algorithm between two sampled sizes, bisected to the exact first
 * byte count as `meshcast compare` does: `winner` beats `loser` from `exact` bytes. */
typedef struct {
    int winner, loser;     /* chart rows */
    uint64_t lo, hi;       /* loser still wins at lo, winner at hi (narrowed while bisecting) */
    uint64_t exact;        /* 0 until bisected */
} ChartCross;
typedef struct {
    long gen;              /* the Bcast gen it was computed for; -1 none */
    int nalgo;
    char name[CHART_MAXALGO][32];
    uint64_t bytes[CHART_NSIZES];
    double cost[CHART_MAXALGO][CHART_NSIZES]; /* < 0: could not run */
    char note[160];
    size_t next_def;       /* the next algo_at() index to look at */
    size_t cur_def;        /* the algo_at() index being computed, when busy */
    bool busy, cur_any;    /* an algorithm is half done; some size ran */
    int next_size;
    bool ok[CHART_MAXALGO][CHART_NSIZES];      /* verified and valid: may win */
    int same_as[CHART_MAXALGO];                /* an earlier row with the same cost at every
                                                * size, or -1 */
    ChartCross cross[CHART_MAXCROSS];
    int ncross, cross_next;                    /* crossovers found; the one being bisected */
    bool sampled;                              /* every (algorithm, size) ran */
    bool done;
} Chart;

#endif
