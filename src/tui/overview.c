/* overview.c — one character a block of nodes (see overview.h). */
#include "overview.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

static int digits(long v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

bool overview_supported(const Net *net)
{
    return net && net_ndim(net) <= 2 && net_nlinks(net) == 2 * (int64_t)net_ndim(net) * net_size(net);
}

/* Room for the blocks inside a map of w x h (labels take a column strip and a row). */
static void room(const Net *net, int w, int h, int *rw, int *rh)
{
    long maxlab = net_ndim(net) == 1 ? net_size(net) : net_dim(net, 0);
    *rw = w - digits(maxlab) - 1;
    *rh = h - 1;
    if (*rw < 1) *rw = 1;
    if (*rh < 1) *rh = 1;
}

int overview_capacity(const OvSrc *src)
{
    const CostParams *cp = src && src->sim ? sim_params(src->sim) : NULL;
    return cp && cp->model == COST_SEIDEL ? 1 << cp->nu : 1;
}

int overview_grade(int32_t peak, int cap)
{
    if (cap < 1) cap = 1;
    if (peak <= cap) return 0;
    int32_t f = (int32_t)(((int64_t)peak + cap - 1) / cap);   /* the contention factor, >= 2 */
    int d = 1;
    while ((2 << d) <= f && d < 9) d++;
    return d;
}

int overview_bcols(const Net *net, int B)
{
    /* a character is about twice as tall as wide: a block of B rows spans B/2 columns, so
     * that the net keeps its shape and uses the width */
    return net && net_ndim(net) == 2 && B > 1 ? (B + 1) / 2 : B;
}

int overview_fit(const Net *net, int w, int h)
{
    if (!net) return 1;
    int rw, rh;
    room(net, w, h, &rw, &rh);
    long b;
    if (net_ndim(net) == 1) {
        long cells = (long)rw * rh;
        b = (net_size(net) + cells - 1) / cells;
    } else {
        long br = (net_dim(net, 0) + rh - 1) / rh, bc = (net_dim(net, 1) + rw - 1) / rw;
        b = br > 2 * bc - 1 ? br : 2 * bc - 1;   /* (B rows, (B+1)/2 >= bc columns a block) */
    }
    return b < 1 ? 1 : (int)b;
}

struct Overview {
    long gen;
    int32_t pos;
    int block, brows, bcols, per_row;
    OvBlock *cells;       /* [brows * bcols] */
};

Overview *overview_new(void)
{
    Overview *ov = calloc(1, sizeof *ov);
    if (ov) ov->gen = -1;
    return ov;
}

/* Drop the cached aggregates. */
static void drop(Overview *ov)
{
    free(ov->cells);
    ov->cells = NULL;
    ov->gen = -1;
}

void overview_free(Overview *ov)
{
    if (!ov) return;
    drop(ov);
    free(ov);
}

/* Block coordinates of a node under the cached geometry. */
static void block_of(const Overview *ov, const Net *net, int32_t v, int *br, int *bc)
{
    int B = ov->block;
    if (net_ndim(net) == 1) {
        long idx = v / B;
        *br = (int)(idx / ov->per_row);
        *bc = (int)(idx % ov->per_row);
    } else {
        int32_t cols = net_dim(net, 1);
        *br = (int)((v / cols) / B);
        *bc = (int)((v % cols) / overview_bcols(net, B));
    }
}

/* (Re)compute the aggregates for the position shown. */
static bool ensure(Overview *ov, const OvSrc *src)
{
    if (!ov || !src->net || src->block <= 0 || !overview_supported(src->net)) return false;
    const Net *net = src->net;
    int rw, rh;
    room(net, src->map_w, src->map_h, &rw, &rh);
    int per_row = net_ndim(net) == 1 ? rw : 0;
    if (ov->cells && ov->gen == src->gen && ov->pos == src->pos &&
        ov->block == src->block && ov->per_row == per_row)
        return true;
    drop(ov);
    int B = src->block;
    ov->block = B;
    ov->per_row = per_row;
    if (net_ndim(net) == 1) {
        long nb = (net_size(net) + B - 1) / B;
        ov->bcols = (int)(nb < per_row ? nb : per_row);
        ov->brows = (int)((nb + per_row - 1) / per_row);
    } else {
        ov->brows = (int)((net_dim(net, 0) + B - 1) / B);
        int Bc = overview_bcols(net, B);
        ov->bcols = (int)((net_dim(net, 1) + Bc - 1) / Bc);
    }
    OvBlock *cells = calloc((size_t)ov->brows * (size_t)ov->bcols, sizeof *cells);
    if (!cells) return false;
    int32_t step = src->step;
    const int32_t *sends = NULL, *recvs = NULL, *loads = NULL;
    if (step >= 0) {
        sim_port_counts(src->sim, step, &sends, &recvs);
        loads = sim_link_loads(src->sim, step);
    }
    uint64_t all = sched_nchunks(src->sched);
    int per = 2 * net_ndim(net), cap = overview_capacity(src);
    for (int32_t v = 0; v < net_size(net); v++) {
        int br, bc;
        block_of(ov, net, v, &br, &bc);
        OvBlock *o = &cells[(size_t)br * ov->bcols + bc];
        o->nodes++;
        uint64_t h = sim_held(src->sim, v);
        o->full += h >= all;
        o->held += h > 0;
        if (recvs && recvs[v] > 0) o->receiving++;
        if (loads)
            for (int k = 0; k < per; k++) {
                int32_t l = loads[(int64_t)v * per + k];
                if (l > o->peak) o->peak = l;
                o->over += l > cap;
            }
    }
    ov->cells = cells;
    ov->gen = src->gen;
    ov->pos = src->pos;
    return true;
}

bool overview_block(Overview *ov, const OvSrc *src, int32_t node, OvBlock *out, int *br, int *bc)
{
    if (!ensure(ov, src) || node < 0 || node >= net_size(src->net)) return false;
    block_of(ov, src->net, node, br, bc);
    *out = ov->cells[(size_t)*br * ov->bcols + *bc];
    return true;
}

int32_t overview_hot(const OvSrc *src)
{
    int32_t step = src->step;
    if (!src->net || step < 0) return -1;
    const Net *net = src->net;
    const int32_t *loads = sim_link_loads(src->sim, step);
    int64_t best = -1;
    int32_t peak = 0;
    for (int64_t l = 0; l < net_nlinks(net); l++)
        if (loads[l] > peak) {
            peak = loads[l];
            best = l;
        }
    if (best < 0) return -1;
    int32_t tail; int dim, dir;
    net_link_info(net, best, &tail, &dim, &dir);
    return tail;
}

void overview_draw(Overview *ov, const OvSrc *src)
{
    if (!ensure(ov, src)) return;
    const OvSrc *L = src;
    const Net *net = src->net;
    const Glyphs *g = theme_glyphs();
    OvBlock *cells = ov->cells;
    int B = ov->block;
    long maxlab = net_ndim(net) == 1 ? net_size(net) : net_dim(net, 0);
    int lw = digits(maxlab) + 1;
    int x0 = L->map_x + lw, y0 = L->map_y + 1;
    int rows = ov->brows < L->map_h - 1 ? ov->brows : L->map_h - 1;
    int cols = ov->bcols < L->map_w - lw ? ov->bcols : L->map_w - lw;
    int cap = overview_capacity(src);
    int dim = theme_attr(R_DIM);
    char t[32];
    /* column numbers: the first column (or offset in the row) of every 10th block */
    for (int c = 0; c < cols; c += 10) {
        snprintf(t, sizeof t, "%ld", (long)c * overview_bcols(net, B));
        attrset(dim);
        mvaddnstr(L->map_y, x0 + c, t, cols - c);
    }
    int cbr = -1, cbc = -1;
    block_of(ov, net, src->cursor, &cbr, &cbc);
    for (int r = 0; r < rows; r++) {
        if (r % 5 == 0) {
            long v = net_ndim(net) == 1 ? (long)r * ov->per_row * B : (long)r * B;
            snprintf(t, sizeof t, "%*ld", lw - 1, v);
            attrset(dim);
            mvaddnstr(y0 + r, L->map_x, t, lw - 1);
        }
        for (int c = 0; c < cols; c++) {
            const OvBlock *o = &cells[(size_t)r * ov->bcols + c];
            if (o->nodes == 0) continue;
            char ch[16];
            const char *s;
            Role role;
            int d = overview_grade(o->peak, cap);
            if (d > 0) {
                snprintf(ch, sizeof ch, "%d", d);
                s = ch;
                role = d <= 1 ? R_OV1 : d == 2 ? R_OV2 : R_OV3;   /* factor 2-3, 4-7, 8+ */
            } else if (o->receiving > 0) {
                int q = 4 * o->receiving / o->nodes;
                s = q == 0 ? "." : q == 1 ? ":" : q == 2 ? "+" : "#";
                role = R_RECV;
            } else {
                s = 2 * o->full >= o->nodes ? g->full : 2 * o->held >= o->nodes ? g->partial
                                                                              : g->empty;
                role = o->peak > 0 ? R_CIRCUIT : 2 * o->full >= o->nodes ? R_FULL
                     : 2 * o->held >= o->nodes ? R_PARTIAL : R_EMPTY;
            }
            int attr = theme_attr(role);
            if (r == cbr && c == cbc) attr = theme_attr(R_CURSOR) | A_REVERSE;
            attrset(attr);
            mvaddstr(y0 + r, x0 + c, s);
        }
    }
    attrset(A_NORMAL);
}
