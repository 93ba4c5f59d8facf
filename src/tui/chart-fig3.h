/* chart-fig3.h — Sanders & Sibeyn's Fig. 3 for the Chart panel (`:chart tradeoff`): for P =
 * 64, 1024, 16384 and k/t = 4, 16, ..., 2^20 (the table), the cost T of the chain, the binary
 * tree and the best fractional tree (each with its best s and r) and the speedup of the
 * fractional tree over the better of the other two — the numbers `meshcast tradeoff` prints,
 * from the same engine call (sanders_fig3_point, postal duplex, t = beta = 1).  The curves are
 * plotted densely, at the FIG3_ND values of k/t of `meshcast tradeoff --points 64`
 * (sanders_fig3_grid), and each maximum is the exact one over every integer k/t in 4..2^20
 * (sanders_fig3_max, branch and bound), as `meshcast tradeoff` prints it.  No curses here: the plot is
 * rendered into rows of text that draw.c puts on the screen.
 *
 * Ownership: a Fig3 is a plain value (the caller's). */
#ifndef MESHCAST_TUI_CHART_FIG3_H
#define MESHCAST_TUI_CHART_FIG3_H

#include <stdbool.h>
#include <stdint.h>

#include "../algos/sanders/autotune.h"

#define FIG3_NP 3
#define FIG3_NK 10   /* k/t = 4^1 .. 4^10 */
#define FIG3_ND 64   /* the curves: 64 values of k/t, 4 .. 2^20 on a log scale */

typedef struct {
    bool ready;
    int64_t P[FIG3_NP];
    uint64_t kt[FIG3_NK];
    SandersFig3 pt[FIG3_NP][FIG3_NK];
    int nd;                                /* the dense grid (sanders_fig3_grid) */
    uint64_t dk[FIG3_ND];
    SandersFig3 dpt[FIG3_NP][FIG3_ND];
    SandersFig3Max max[FIG3_NP];           /* the exact maxima over 4..2^20 */
} Fig3;

/* Compute every point and the maxima (under a second). */
void fig3_compute(Fig3 *f);

/* The index of P in f->P, or -1. */
int fig3_index(const Fig3 *f, int64_t P);

/* The speedup against k/t (log) in h rows of w characters: row r of the plot is
 * rows + r*(w+1), NUL-terminated; a y label of 5 characters and an axis on the left, the
 * marks '1', '2', '3' for the three P ('*' where two fall in one cell); the last row is the
 * x axis.  The y range is 1 .. the largest speedup rounded up to a tenth.  False (nothing
 * written) when w < 20 or h < 5. */
bool fig3_plot(const Fig3 *f, int w, int h, char *rows);

/* T against k/t for P = f->P[q], in the same frame (rows, y labels, x axis): T/(k/t), the cost
 * per unit of message, on a log scale (*ylo .. *yhi, the smallest and largest value over the
 * three algorithms; the top row is *yhi, the last plot row *ylo), k/t on the same log x axis
 * as fig3_plot.  Marks 'c' chain, 'b' bintree, 'f' the best fractional tree, '*' where two or
 * three fall in one cell.  False (nothing written) when w < 20, h < 5 or q is out of range. */
bool fig3_plot_t(const Fig3 *f, int q, int w, int h, char *rows, double *ylo, double *yhi);

#endif
