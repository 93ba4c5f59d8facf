/* draw-figure.c — the Chart panel showing a figure of the s-to-p paper (figure.h): curves
 * over the figure's x axis (Figs. 2-4, 6-8) or, for Fig. 5, the algorithms' bars side by side
 * per distribution.  Every curve point and bar is marked with its series' digit, so the plot
 * reads the same in colour, in monochrome (NO_COLOR) and with --ascii.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw-chart.h"
#include "theme.h"

static const Role roles[6] = {R_C1, R_C2, R_C3, R_C4, R_C5, R_C6};

static char mark_of(int j) { return (char)(j < 9 ? '1' + j : 'a' + j - 9); }

static void fmt_value(char *t, size_t len, double v, bool percent)
{
    if (percent) snprintf(t, len, "%+.1f%%", v);
    else if (fabs(v) >= 1e6) snprintf(t, len, "%.1fM", v / 1e6);
    else if (fabs(v) >= 1e4) snprintf(t, len, "%.1fk", v / 1e3);
    else snprintf(t, len, "%.0f", v);
}

/* The screen row of value v on a plot of ph rows from `top` spanning [lo, hi]. */
static int row_of(double v, double lo, double hi, int top, int ph)
{
    return top + (int)lround((hi - v) / (hi - lo) * (ph - 1));
}

static void curves(const StopPlot *p, const int *xs, double lo, double hi, int top, int ph)
{
    for (int j = 0; j < p->nseries; j++) {
        char m[2] = {mark_of(j), 0};
        for (int i = 0; i < p->nx; i++) {
            if (isnan(p->y[j][i])) continue;
            int y = row_of(p->y[j][i], lo, hi, top, ph);
            if ((mvinch(y, xs[i]) & A_CHARTEXT) != ' ') draw_put(y, xs[i], 1, theme_attr(R_KEY), "*");
            else draw_put(y, xs[i], 1, theme_attr(roles[j % 6]), m);
        }
    }
    /* the lines between the points, where nothing is drawn yet */
    for (int j = 0; j < p->nseries; j++)
        for (int i = 1; i < p->nx; i++) {
            double a = p->y[j][i - 1], b = p->y[j][i];
            if (isnan(a) || isnan(b)) continue;
            for (int x = xs[i - 1] + 1; x < xs[i]; x++) {
                double f = (double)(x - xs[i - 1]) / (xs[i] - xs[i - 1]);
                draw_put_blank(row_of(a + f * (b - a), lo, hi, top, ph), x,
                               theme_attr(roles[j % 6]), ".");
            }
        }
}

/* Fig. 5: per x point a group of bars, one per series, each topped by its digit. */
static void bars(const StopPlot *p, int x0, int pw, double lo, double hi, int top, int ph,
                 int *xs)
{
    int gw = pw / p->nx;                 /* a group's columns, a gap included */
    int bw = (gw - 1) / p->nseries;
    if (bw < 1) bw = 1;
    for (int i = 0; i < p->nx; i++) {
        int gx = x0 + i * gw;
        xs[i] = gx + (p->nseries * bw) / 2;
        for (int j = 0; j < p->nseries; j++) {
            if (isnan(p->y[j][i])) continue;
            int ytop = row_of(p->y[j][i], lo, hi, top, ph), base = row_of(0, lo, hi, top, ph);
            char m[2] = {mark_of(j), 0};
            for (int c = 0; c < bw; c++)
                for (int y = ytop; y <= base; y++)
                    draw_put(y, gx + j * bw + c, 1, theme_attr(roles[j % 6]),
                             y == ytop ? m : theme_glyphs()->v_idle);
        }
    }
}

void draw_figure(const struct AppFigure *f, Box *b)
{
    const StopPlot *p = &f->plot;
    int dim = theme_attr(R_DIM);
    char t[160];
    draw_line(b, theme_attr(R_HEAD), f->def->title);
    snprintf(t, sizeof t, "model %s, %s timing; %d curves over %d points", f->model,
             f->async ? "async" : "lockstep", p->nseries, p->nx);
    draw_line(b, dim, t);
    int legend_rows = (p->nseries + 1) / 2;
    /* the words below the plot: the axes and the command, wrapped to the panel's width (a
     * word may push one more row: +1 each) */
    char axes[200], cmd[512];
    snprintf(axes, sizeof axes, "x: %s   y: %s", p->xaxis, p->yaxis);
    snprintf(cmd, sizeof cmd, "the same numbers: meshcast %s%s%s%s%s%s", f->def->command,
             f->async ? " --timing async" : "", strcmp(f->model, "seidel") ? " --model " : "",
             strcmp(f->model, "seidel") ? f->model : "", f->profile[0] ? " --profile " : "",
             f->profile);
    int w = b->w > 1 ? b->w : 1;
    int words = ((int)strlen(axes) + w - 1) / w + 1 + ((int)strlen(cmd) + w - 1) / w + 1;
    int ph = b->h - b->row - 1 - 1 - legend_rows - words;
    int yw = 8, pw = b->w - yw - 1;
    if (ph < 4 || pw < 10) {
        draw_line(b, dim, "(too small for the figure)");
        return;
    }
    double lo = 0, hi = 0;
    for (int j = 0; j < p->nseries; j++)
        for (int i = 0; i < p->nx; i++)
            if (!isnan(p->y[j][i])) {
                if (p->y[j][i] < lo) lo = p->y[j][i];
                if (p->y[j][i] > hi) hi = p->y[j][i];
            }
    if (hi - lo < 1e-9) hi = lo + 1;
    int top = b->y + b->row, x0 = b->x + yw + 1;
    /* y axis: the top, the middle and the bottom value; zero when the range crosses it */
    for (int r = 0; r < ph; r++) draw_put(top + r, x0 - 1, 1, dim, theme_glyphs()->v_idle);
    for (int r = 0; r < ph; r += (ph - 1) / 2 > 0 ? (ph - 1) / 2 : 1) {
        fmt_value(t, sizeof t, hi - (hi - lo) * r / (ph - 1), p->percent);
        draw_put(top + r, b->x, yw - 1, dim, t);
    }
    for (int i = 0; i < pw; i++) draw_put(top + ph, x0 + i, 1, dim, theme_glyphs()->h_idle);
    if (lo < 0)
        for (int i = 0; i < pw; i++)
            draw_put_blank(row_of(0, lo, hi, top, ph), x0 + i, dim, theme_glyphs()->h_idle);
    int xs[STOPFIG_MAXX];
    if (f->def->bars) {
        bars(p, x0, pw, lo, hi, top, ph, xs);
    } else {
        for (int i = 0; i < p->nx; i++)
            xs[i] = x0 + (p->nx > 1 ? (int)lround((double)i * (pw - 1) / (p->nx - 1)) : pw / 2);
        curves(p, xs, lo, hi, top, ph);
    }
    b->row += ph + 1;
    /* x labels where they do not run into each other */
    int y = b->y + b->row, end = 0;
    for (int i = 0; i < p->nx; i++) {
        int l = (int)strlen(p->xlabel[i]), x = xs[i] - l / 2;
        if (i == p->nx - 1 && x + l > b->x + b->w) x = b->x + b->w - l;
        if (x < x0) x = x0;
        if (x <= end) continue;
        draw_put(y, x, l, dim, p->xlabel[i]);
        end = x + l;
    }
    b->row++;
    draw_wrap(b, dim, axes, 0);
    /* the legend: digit, colour and name of every curve (a series with no value says so) */
    for (int j = 0; j < p->nseries; j++) {
        bool any = false;
        for (int i = 0; i < p->nx; i++) any |= !isnan(p->y[j][i]);
        int x = b->x + (j % 2) * (b->w / 2), ly = b->y + b->row + j / 2;
        char m[2] = {mark_of(j), 0};
        draw_put(ly, x, 1, theme_attr(roles[j % 6]), m);
        snprintf(t, sizeof t, "%s%s", p->name[j], any ? "" : " (does not run)");
        draw_put(ly, x + 2, b->w / 2 - 2, theme_attr(R_NORMAL), t);
    }
    b->row += legend_rows;
    draw_wrap(b, dim, cmd, 0);
}
