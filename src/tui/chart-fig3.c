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
    f->ready = true;
}

int fig3_index(const Fig3 *f, int64_t P)
{
    for (int q = 0; q < FIG3_NP; q++)
        if (f->P[q] == P)
            return q;
    return -1;
}

bool fig3_plot(const Fig3 *f, int w, int h, char *rows)
{
    enum { YW = 6 };   /* "1.75 |" */
    if (w < 20 || h < 5)
        return false;
    double top = 1;
    for (int q = 0; q < FIG3_NP; q++)
        for (int i = 0; i < FIG3_NK; i++)
            if (f->pt[q][i].speedup > top)
                top = f->pt[q][i].speedup;
    top = ceil(top * 10 - 1e-9) / 10;
    if (top <= 1)
        top = 1.1;
    int ph = h - 1, pw = w - YW;
    for (int r = 0; r < h; r++) {
        char *row = rows + (size_t)r * (size_t)(w + 1);
        memset(row, ' ', (size_t)w);
        row[w] = '\0';
        if (r < ph) {
            row[YW - 1] = '|';
            if (r == 0 || r == ph - 1 || r == ph / 2) {
                char lab[16];
                snprintf(lab, sizeof lab, "%4.2f", top - (top - 1) * r / (ph - 1));
                memcpy(row, lab, strlen(lab) < YW - 1 ? strlen(lab) : YW - 2);
            }
        } else {
            row[YW - 1] = '+';
            memset(row + YW, '-', (size_t)pw);
        }
    }
    for (int q = 0; q < FIG3_NP; q++)
        for (int i = 0; i < FIG3_NK; i++) {
            double s = f->pt[q][i].speedup;
            int r = (int)lround((top - s) / (top - 1) * (ph - 1));
            int c = YW + (int)lround((double)i * (pw - 1) / (FIG3_NK - 1));
            if (r < 0 || r >= ph || c >= w)
                continue;
            char *cell = rows + (size_t)r * (size_t)(w + 1) + c;
            *cell = *cell == ' ' ? (char)('1' + q) : '*';
        }
    return true;
}
