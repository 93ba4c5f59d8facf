/* chart-fig3.c — Fig. 3 for the Chart panel (chart-fig3.h). */
#include "chart-fig3.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fig3_compute(Fig3 *f)
{
    static const int64_t Ps[FIG3_NP] = { 64, 1024, 16384 };
    CostParams p;
    cost_defaults(&p, COST_POSTAL);   /* t = beta = 1: k/t is the message in bytes */
    for (int q = 0; q < FIG3_NP; q++) {
        f->P[q] = Ps[q];
        for (int i = 0; i < FIG3_NK; i++) {
            f->kt[i] = (uint64_t)4 << (2 * i);
            sanders_fig3_point(f->P[q], f->kt[i], &p, &f->pt[q][i]);
        }
    }
    f->nd = sanders_fig3_grid(4, (uint64_t)1 << 20, FIG3_ND, f->dk);
    for (int q = 0; q < FIG3_NP; q++) {
        for (int i = 0; i < f->nd; i++)
            sanders_fig3_point(f->P[q], f->dk[i], &p, &f->dpt[q][i]);
        sanders_fig3_max(f->P[q], 4, (uint64_t)1 << 20, &p, &f->max[q]);
    }
    f->ready = true;
}

int fig3_index(const Fig3 *f, int64_t P)
{
    for (int q = 0; q < FIG3_NP; q++)
        if (f->P[q] == P)
            return q;
    return -1;
}

enum { YW = 6 };   /* "1.75 |" */

/* The empty frame: the y axis with labels at the top, middle and last plot rows (lab(r)),
 * the x axis in the last row. */
static void frame(int w, int h, char *rows, double lo, double hi, bool logy)
{
    int ph = h - 1, pw = w - YW;
    for (int r = 0; r < h; r++) {
        char *row = rows + (size_t)r * (size_t)(w + 1);
        memset(row, ' ', (size_t)w);
        row[w] = '\0';
        if (r < ph) {
            row[YW - 1] = '|';
            if (r == 0 || r == ph - 1 || r == ph / 2) {
                double v = hi - (hi - lo) * r / (ph - 1);
                char lab[16];
                if (logy)
                    snprintf(lab, sizeof lab, "%.3g", pow(10, v));
                else
                    snprintf(lab, sizeof lab, "%4.2f", v);
                memcpy(row, lab, strlen(lab) < YW - 1 ? strlen(lab) : YW - 2);
            }
        } else {
            row[YW - 1] = '+';
            memset(row + YW, '-', (size_t)pw);
        }
    }
}

/* Mark (k/t index i, value v) in the frame: mark, or '*' over another mark. */
static void mark(char *rows, int w, int h, int i, int n, double v, double lo, double hi, char m)
{
    int ph = h - 1, pw = w - YW;
    int r = (int)lround((hi - v) / (hi - lo) * (ph - 1));
    int c = YW + (int)lround((double)i * (pw - 1) / (n - 1));
    if (r < 0 || r >= ph || c >= w)
        return;
    char *cell = rows + (size_t)r * (size_t)(w + 1) + c;
    *cell = *cell == ' ' ? m : '*';
}

bool fig3_plot_t(const Fig3 *f, int q, int w, int h, char *rows, double *ylo, double *yhi)
{
    if (w < 20 || h < 5 || q < 0 || q >= FIG3_NP)
        return false;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < f->nd; i++) {
        const SandersFig3 *x = &f->dpt[q][i];
        double v[3] = { x->chain, x->bintree, x->frac };
        for (int k = 0; k < 3; k++) {
            double y = log10(v[k] / (double)f->dk[i]);
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
        }
    }
    if (hi - lo < 1e-9)
        hi = lo + 1;
    frame(w, h, rows, lo, hi, true);
    for (int i = 0; i < f->nd; i++) {
        const SandersFig3 *x = &f->dpt[q][i];
        double k = (double)f->dk[i];
        mark(rows, w, h, i, f->nd, log10(x->chain / k), lo, hi, 'c');
        mark(rows, w, h, i, f->nd, log10(x->bintree / k), lo, hi, 'b');
        mark(rows, w, h, i, f->nd, log10(x->frac / k), lo, hi, 'f');
    }
    *ylo = pow(10, lo);
    *yhi = pow(10, hi);
    return true;
}

bool fig3_plot(const Fig3 *f, int w, int h, char *rows)
{
    if (w < 20 || h < 5)
        return false;
    double top = 1;
    for (int q = 0; q < FIG3_NP; q++)
        if (f->max[q].at.speedup > top)
            top = f->max[q].at.speedup;
    top = ceil(top * 10 - 1e-9) / 10;
    if (top <= 1)
        top = 1.1;
    frame(w, h, rows, 1, top, false);
    for (int q = 0; q < FIG3_NP; q++)
        for (int i = 0; i < f->nd; i++)
            mark(rows, w, h, i, f->nd, f->dpt[q][i].speedup, 1, top, (char)('1' + q));
    return true;
}
