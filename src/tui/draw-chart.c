/* draw-chart.c — the Chart panel (see draw-chart.h): the cost of every algorithm that runs on
 * the net against the message size (chart.h, computed by the App: log-log, crossovers dotted
 * and in words, a measured run's M), or Sanders & Sibeyn's Fig. 3 (`:chart tradeoff`), or a
 * figure of the s-to-p paper (`:figure N`, draw-figure.c).
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "draw-chart.h"
#include "theme.h"

/* Sanders & Sibeyn's Fig. 3 in place of the cost chart (`:chart tradeoff [P]`; the numbers of
 * `meshcast tradeoff`, chart-fig3.h): the speedup plotted for the three P, their maxima,
 * T/(k/t) of the three algorithms plotted for one P, and its T table. */
static void panel_fig3(Fig3 *fig3, int64_t fig3_p, Box *b)
{
    if (!fig3->ready) fig3_compute(fig3);
    const Fig3 *f = fig3;
    int dim = theme_attr(R_DIM), q = fig3_index(f, fig3_p);
    if (q < 0) q = 1;
    draw_box_put(b, theme_attr(R_HEAD), "Fig. 3: fractional tree vs chain and bintree");
    draw_box_put(b, dim, "full:P, postal duplex, t = beta = 1, each its best s and r");
    /* two plots (the speedup, then T for P) share what the maxima and the table leave */
    int left = b->h - b->row - (FIG3_NK + 2) - FIG3_NP - 5;
    int ph = left / 2 - 1, pt = left - left / 2 - 2;
    if (ph > 12) ph = 12;
    if (pt > 12) pt = 12;
    if (ph >= 5 && b->w >= 20) {
        char *rows = malloc((size_t)ph * (size_t)(b->w + 1));
        if (rows && fig3_plot(f, b->w, ph, rows)) {
            draw_box_put(b, dim, "speedup over the better of chain and bintree");
            for (int r = 0; r < ph; r++)
                draw_box_put(b, r == ph - 1 ? dim : theme_attr(R_KEY), "%s",
                        rows + (size_t)r * (size_t)(b->w + 1));
            draw_box_put(b, dim, "      k/t = 4 .. 1M (log, %d points)", f->nd);
        }
        free(rows);
    }
    for (int p = 0; p < FIG3_NP; p++)   /* exact, over every integer k/t (sanders_fig3_max) */
        draw_box_put(b, p == q ? 0 : dim, "%d P=%lld: max speedup %.4f at k/t %llu", p + 1,
                (long long)f->P[p], f->max[p].at.speedup, (unsigned long long)f->max[p].k);
    if (pt >= 5 && b->w >= 20) {   /* T against k/t for P: where the chain and the tree lose */
        char *rows = malloc((size_t)pt * (size_t)(b->w + 1));
        double lo, hi;
        if (rows && fig3_plot_t(f, q, b->w, pt, rows, &lo, &hi)) {
            draw_box_put(b, dim, "T/(k/t) for P = %lld (log): c chain, b bintree, f fract",
                    (long long)f->P[q]);
            for (int r = 0; r < pt; r++)
                draw_box_put(b, r == pt - 1 ? dim : theme_attr(R_KEY), "%s",
                        rows + (size_t)r * (size_t)(b->w + 1));
            draw_box_put(b, dim, "      k/t = 4 .. 1M (log, %d points)", f->nd);
        }
        free(rows);
    }
    draw_box_put(b, theme_attr(R_HEAD), "T for P = %lld (:chart tradeoff P)", (long long)f->P[q]);
    draw_box_put(b, dim, "%8s %9s %9s %9s %4s %7s", "k/t", "chain", "bintree", "fract", "r",
            "speedup");
    for (int i = 0; i < FIG3_NK; i++) {
        const SandersFig3 *x = &f->pt[q][i];
        char rt[16];
        snprintf(rt, sizeof rt, x->r_frac >= (1 << 20) ? "inf" : "%lld", (long long)x->r_frac);
        draw_box_put(b, 0, "%8llu %9.0f %9.0f %9.0f %4s %7.3f", (unsigned long long)f->kt[i],
                x->chain, x->bintree, x->frac, rt, x->speedup);
    }
}

/* The plot's frame: where it stands and its log scale. */
typedef struct {
    const Chart *c;
    const MeasFile *meas;
    int top, ph, pw, yw;
    double llo, lhi;
    int xs[CHART_NSIZES];
} Plot;

static const Role roles[6] = {R_C1, R_C2, R_C3, R_C4, R_C5, R_C6};

/* The axes, the crossovers' dotted lines and the mark under the current size: the index of
 * that size among the charted ones, or -1. */
static int chart_axes(const Bcast *bc, Box *b, Plot *P)
{
    const Chart *c = P->c;
    int top = P->top, ph = P->ph, pw = P->pw, yw = P->yw;
    double llo = P->llo, lhi = P->lhi;
    int *xs = P->xs;
    int dim = theme_attr(R_DIM);
    char t[32];
    /* y axis */
    for (int r = 0; r < ph; r++) {
        draw_put(top + r, b->x + yw, 1, dim, theme_glyphs()->v_idle);
        if (r == 0 || r == ph - 1 || r == ph / 2) {
            double v = pow(10, lhi - (lhi - llo) * r / (ph - 1));
            if (v >= 1e6) snprintf(t, sizeof t, "%6.1fM", v / 1e6);
            else if (v >= 1e4) snprintf(t, sizeof t, "%6.1fk", v / 1e3);
            else snprintf(t, sizeof t, "%7.0f", v);
            draw_put_cut(top + r, b->x, yw - 1, dim, t);
        }
    }
    for (int i = 0; i < pw; i++) draw_put(top + ph, b->x + yw + 1 + i, 1, dim, theme_glyphs()->h_idle);
    /* x: the sizes spread over pw columns */
    for (int s = 0; s < CHART_NSIZES; s++)
        xs[s] = b->x + yw + 1 + (int)lround((double)s * (pw - 1) / (CHART_NSIZES - 1));
    /* crossovers: a dotted line at the exact first byte count (log scale between the sampled
     * sizes), once bisected; at the sampled size until then */
    for (int i = 0; i < c->ncross; i++) {
        const ChartCross *x = &c->cross[i];
        uint64_t at = x->exact ? x->exact : x->hi;
        double f = (log2((double)at) - log2((double)c->bytes[0])) /
                   (log2((double)c->bytes[CHART_NSIZES - 1]) - log2((double)c->bytes[0]));
        int cx = b->x + yw + 1 + (int)lround(f * (pw - 1));
        for (int r = 0; r < ph; r++) draw_put(top + r, cx, 1, dim, ":");
        draw_put(top + ph, cx, 1, theme_attr(R_BAD), theme_glyphs()->cross);
    }
    /* the current size */
    uint64_t cur = bc->setup.args.bytes;
    int cur_s = -1;
    for (int s = 0; s < CHART_NSIZES; s++)
        if (c->bytes[s] == cur) {
            draw_put(top + ph, xs[s], 1, theme_attr(R_KEY), "^");
            cur_s = s;
        }
    return cur_s;
}

/* The curves' points (a curve equal to an earlier one drawn once) and the measured M: true
 * when two different curves meet at one cell. */
static bool chart_points(Plot *P)
{
    const Chart *c = P->c;
    const MeasFile *meas = P->meas;
    int top = P->top, ph = P->ph, pw = P->pw, yw = P->yw;
    double llo = P->llo, lhi = P->lhi;
    const int *xs = P->xs;
    int bx = P->xs[0] - yw - 1;
    /* points: a curve equal to an earlier one everywhere is drawn once (the legend says so);
     * where two different curves meet at one cell, a '*' */
    signed char *owner = calloc((size_t)ph * (size_t)CHART_NSIZES, 1);
    bool meet = false;
    for (int k = 0; k < c->nalgo; k++) {
        if (c->sampled && c->same_as[k] >= 0) continue;
        char mark[2] = {(char)('1' + k), 0};
        if (k >= 9) mark[0] = (char)('a' + k - 9);
        for (int s = 0; s < CHART_NSIZES; s++) {
            if (c->cost[k][s] <= 0) continue;
            int r = (int)lround((lhi - log10(c->cost[k][s])) / (lhi - llo) * (ph - 1));
            signed char *o = owner ? &owner[r * CHART_NSIZES + s] : NULL;
            if (o && *o) {
                draw_put(top + r, xs[s], 1, theme_attr(R_KEY), "*");
                meet = true;
                continue;
            }
            if (o) *o = (signed char)(k + 1);
            draw_put(top + r, xs[s], 1, theme_attr(roles[k % 6]), mark);
        }
    }
    free(owner);
    if (meas && meas->total > 0) {   /* M: the measured total at the size shown */
        double f = (log2((double)meas->bytes) - log2((double)c->bytes[0])) /
                   (log2((double)c->bytes[CHART_NSIZES - 1]) - log2((double)c->bytes[0]));
        if (f >= 0 && f <= 1) {
            int r = (int)lround((lhi - log10(meas->total)) / (lhi - llo) * (ph - 1));
            draw_put(top + r, bx + yw + 1 + (int)lround(f * (pw - 1)), 1,
                theme_attr(R_HILITE) | A_BOLD, "M");
        }
    }
    return meet;
}

/* The legend: a mark and a name for each curve, three to a line. */
static void chart_legend(Box *b, const Chart *c)
{
    int legend_rows = (c->nalgo + 2) / 3;
    for (int k = 0; k < c->nalgo; k++) {
        int col = k % 3, row = k / 3;
        int x = b->x + col * (b->w / 3);
        char mark[2] = {(char)('1' + k), 0};
        if (k >= 9) mark[0] = (char)('a' + k - 9);
        char nm[48];
        if (c->sampled && c->same_as[k] >= 0) {
            int j = c->same_as[k];
            snprintf(nm, sizeof nm, "%s =%c", c->name[k], j >= 9 ? 'a' + j - 9 : '1' + j);
        } else {
            snprintf(nm, sizeof nm, "%s", c->name[k]);
        }
        draw_put(b->y + b->row + row, x, 1, theme_attr(roles[k % 6]), mark);
        draw_put_cut(b->y + b->row + row, x + 2, b->w / 3 - 2, theme_attr(R_NORMAL), nm);
    }
    b->row += legend_rows;
}

/* Under the legend: the measured point, the curves that coincide, the crossovers in words (as
 * meshcast compare says them) or the cheapest at every size. */
static void chart_notes(const Bcast *bc, Box *b, const Chart *c, const MeasFile *meas)
{
    int dim = theme_attr(R_DIM);
    if (meas) {   /* the measured point's legend: which is which */
        char m1[32], p1[32];
        draw_fmt_cost(m1, sizeof m1, meas->total);
        draw_fmt_cost(p1, sizeof p1, sim_totals(bc->sim)->cost.total);
        draw_box_put(b, theme_attr(R_HILITE), "M measured %s: %s us (%lld reps); sim %s",
                meas->algo, m1, (long long)meas->reps, p1);
    }
    for (int k = 0; k < c->nalgo && c->sampled; k++)
        if (c->same_as[k] >= 0)
            draw_box_put(b, dim, "%s costs what %s costs at every size", c->name[k],
                    c->name[c->same_as[k]]);
    /* crossovers in words, as meshcast compare says them */
    for (int i = 0; i < c->ncross && draw_box_line(b); i++) {
        const ChartCross *x = &c->cross[i];
        if (x->exact)
            draw_box_put(b, theme_attr(R_KEY), "%s beats %s from %llu bytes", c->name[x->winner],
                    c->name[x->loser], (unsigned long long)x->exact);
        else if (i >= c->cross_next && !c->done)
            draw_box_put(b, dim, "%s beats %s between %llu and %llu bytes (bisecting)",
                    c->name[x->winner], c->name[x->loser], (unsigned long long)x->lo,
                    (unsigned long long)x->hi);
        else
            draw_box_put(b, theme_attr(R_KEY), "%s beats %s from %llu bytes (sampled)",
                    c->name[x->winner], c->name[x->loser], (unsigned long long)x->hi);
    }
    if (c->ncross == 0 && c->sampled) {
        int w = -1;
        for (int k = 0; k < c->nalgo; k++)
            if (c->ok[k][0] && (w < 0 || c->cost[k][0] < c->cost[w][0])) w = k;
        if (w >= 0) draw_box_put(b, dim, "cheapest at every size: %s", c->name[w]);
    }
}

void draw_chart(const ChartSrc *src, Box *b)
{
    if (src->fig) {   /* :figure N */
        draw_figure(src->fig, b);
        return;
    }
    if (src->fig3) {   /* :chart tradeoff */
        panel_fig3(src->fig3, src->fig3_p, b);
        return;
    }
    const Bcast *bc = src->b;
    const Chart *c = src->chart;
    const CostParams *cp = sim_params(bc->sim);
    draw_box_put(b, theme_attr(R_HEAD), "Cost vs message size (%s, %s)", net_spec(bc->setup.net),
            cost_model_name(cp->model));
    if (!c->done)
        draw_box_put(b, theme_attr(R_KEY), "computing... (%d charted, %zu of %zu looked at)",
                c->nalgo, c->next_def, algo_count());
    if (c->nalgo == 0) {
        if (c->done) draw_wrap(b, theme_attr(R_DIM), c->note, 0);
        return;
    }
    int legend_rows = (c->nalgo + 2) / 3;
    const MeasFile *meas = src->meas;   /* a real run: one point, and its line */
    int extra = c->ncross + (meas != NULL);   /* the lines under the legend */
    for (int k = 0; k < c->nalgo && c->sampled; k++) extra += c->same_as[k] >= 0;
    int ph = b->h - b->row - 4 - legend_rows - 1 - (extra > 0 ? extra : 1);
    int yw = 8;
    int pw = b->w - yw - 1;
    if (ph < 4 || pw < 10) {
        draw_box_put(b, theme_attr(R_DIM), "(too small for the chart)");
        if (meas) {
            char m1[32];
            draw_fmt_cost(m1, sizeof m1, meas->total);
            draw_box_put(b, theme_attr(R_HILITE), "M measured %s: %s us", meas->algo, m1);
        }
        return;
    }
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < c->nalgo; k++)
        for (int s = 0; s < CHART_NSIZES; s++)
            if (c->cost[k][s] > 0) {
                if (c->cost[k][s] < lo) lo = c->cost[k][s];
                if (c->cost[k][s] > hi) hi = c->cost[k][s];
            }
    if (meas && meas->total > 0) {
        if (meas->total < lo) lo = meas->total;
        if (meas->total > hi) hi = meas->total;
    }
    if (!(hi > 0)) return;
    double llo = log10(lo), lhi = log10(hi);
    if (lhi - llo < 1e-9) { llo -= 0.5; lhi += 0.5; }
    Plot P = {.c = c, .meas = meas, .top = b->y + b->row, .ph = ph, .pw = pw, .yw = yw,
              .llo = llo, .lhi = lhi};
    int dim = theme_attr(R_DIM);
    char t[32];
    int *xs = P.xs;
    int cur_s = chart_axes(bc, b, &P);
    uint64_t cur = bc->setup.args.bytes;
    bool meet = chart_points(&P);
    b->row += ph + 1;
    char l1[16], l2[16], l3[16];
    draw_fmt_bytes(l1, sizeof l1, c->bytes[0]);
    draw_fmt_bytes(l2, sizeof l2, c->bytes[CHART_NSIZES / 2]);
    draw_fmt_bytes(l3, sizeof l3, c->bytes[CHART_NSIZES - 1]);
    int y = b->y + b->row;
    draw_put_cut(y, xs[0], 8, dim, l1);
    draw_put_cut(y, xs[CHART_NSIZES / 2] - 1, 8, dim, l2);
    draw_put_cut(y, xs[CHART_NSIZES - 1] - (int)strlen(l3) + 1, 8, dim, l3);
    b->row++;
    const char *unit = cost_unit(bc->setup.cost.model);   /* us under seidel */
    draw_box_put(b, dim, "bytes (log)  cost in %s (log)", strcmp(unit, "us") == 0 ? "us" : "model units");
    if (cur_s >= 0) {
        draw_fmt_bytes(t, sizeof t, cur);
        draw_box_put(b, dim, "^ %s, the size on the map%s", t, meet ? "   * curves meet" : "");
    } else if (meet) {
        draw_box_put(b, dim, "* two curves meet at that point");
    }
    chart_legend(b, c);
    chart_notes(bc, b, c, meas);
}
