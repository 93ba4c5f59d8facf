/* stopcmp.h — the s-to-p algorithms side by side (the s-to-p paper, Figs. 2-8): the rows and cells
 * behind `meshcast compare --sources` and the Chart panel's figures, computed once, here.
 *
 * A comparison is every combination of the nets, the source specs, the values of s and the
 * message lengths (one row each) times the algorithms (one column each).  A source spec is a
 * distribution with its s (R:30), with s a percentage of p (Dr:10%: at least 1), or a bare
 * kind when `s` gives the values (E with s "1:100:9").  `bytes` "LO:HI" runs LO, 2LO, ... HI;
 * `total` gives every source total/s bytes (the total data fixed, Fig. 6).  `relative` names
 * the column the others are measured against (Fig. 8's percentage difference).
 *
 * stopcmp_plan checks everything a user can get wrong (the message is one line, for exit 2)
 * and lays out the rows; nothing is simulated yet.  stopcmp_cell then builds and simulates
 * one cell through setup_make (the path `run` takes), so callers can show progress between
 * cells or stop early; stopcmp_cell returns false when the build was cancelled (progress.h).
 *
 * The figures: stopcmp_figure(n) is the comparison behind the paper's Figure n (2..8), and
 * stopcmp_plot reshapes its computed cells into curves (or bars) over the figure's x axis.
 *
 * Ownership: the spec's strings must outlive the StopCmp; stopcmp_free frees it and its rows.
 */
#ifndef MESHCAST_STOPCMP_H
#define MESHCAST_STOPCMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STOPCMP_MAXITEMS 64
#define STOPCMP_MAXROWS 4096

typedef struct {
    const char *net, *nets;     /* one net, or a comma list (exactly one of them) */
    const char *sources;        /* comma list of source specs */
    const char *s;              /* "LO:HI[:STEP]" or NULL */
    const char *bytes;          /* "M" or "LO:HI" or NULL (1024) */
    const char *total;          /* a byte count or NULL */
    const char *algos;          /* comma list or NULL (every s-to-p algorithm) */
    const char *relative;       /* one of the algorithms or NULL */
    const char *model;          /* NULL: seidel */
    const char *profile;        /* a machine profile (profile.h), or NULL */
    bool async;                 /* price schedules event by event (sim-async.h) */
    const char *const *sets;    /* "K=V" */
    size_t nsets;
} StopCmpSpec;

/* The state of a cell. */
enum { STOPCMP_OK, STOPCMP_UNVERIFIED, STOPCMP_INVALID, STOPCMP_NORUN, STOPCMP_TODO };

typedef struct {
    char net[64], src[64];
    int32_t p, s;
    uint64_t bytes;
    double cost[STOPCMP_MAXITEMS];   /* us */
    int state[STOPCMP_MAXITEMS];     /* STOPCMP_* */
    int32_t steps[STOPCMP_MAXITEMS];
} StopCmpRow;

typedef struct StopCmp StopCmp;

/* NULL with a one-line reason in err if the spec is wrong (a usage error). */
StopCmp *stopcmp_plan(const StopCmpSpec *spec, char *err, size_t errlen);
void stopcmp_free(StopCmp *c);

int stopcmp_nrows(const StopCmp *c);
int stopcmp_nalgos(const StopCmp *c);
const char *stopcmp_algo(const StopCmp *c, int k);
const StopCmpRow *stopcmp_row(const StopCmp *c, int i);
/* The column of spec->relative, or -1. */
int stopcmp_relcol(const StopCmp *c);
/* Percentage by which column k is cheaper than the relative column in row i (positive: it
 * pays); false if either did not run or there is no relative column. */
bool stopcmp_percent(const StopCmp *c, int i, int k, double *out);

/* Build and simulate cell (i, k).  False only if cancelled (the cell stays STOPCMP_TODO). */
bool stopcmp_cell(StopCmp *c, int i, int k);
/* Every cell; false if cancelled. */
bool stopcmp_run(StopCmp *c);

/* ---- the paper's figures ---------------------------------------------------------------- */

typedef enum { STOPFIG_S, STOPFIG_BYTES, STOPFIG_P, STOPFIG_DIST, STOPFIG_NET } StopFigX;

typedef struct {
    int number;              /* 2..8 */
    const char *title;       /* what is plotted, in words */
    const char *command;     /* the same table: `meshcast compare ...` */
    StopCmpSpec spec;
    StopFigX x;              /* what varies along the x axis */
    bool bars;               /* Fig. 5: the algorithms side by side per distribution */
    bool series_by_source;   /* Fig. 7, 8: one curve per source spec, not per algorithm */
} StopFigure;

/* The figure numbered n (2..8), or NULL. */
const StopFigure *stopcmp_figure(int n);

#define STOPFIG_MAXX 128
#define STOPFIG_MAXSERIES 16

/* A figure's computed cells as curves: y[j][i] is series j at x point i (NAN: no value). */
typedef struct {
    int nx, nseries;
    char xlabel[STOPFIG_MAXX][24];
    char name[STOPFIG_MAXSERIES][32];
    double y[STOPFIG_MAXSERIES][STOPFIG_MAXX];
    bool percent;            /* y is a percentage (Fig. 8), else a cost in us */
    char xaxis[48], yaxis[80];
} StopPlot;

/* Reshape a computed comparison of figure f into curves; false if it does not fit. */
bool stopcmp_plot(const StopFigure *f, const StopCmp *c, StopPlot *out);

#endif
