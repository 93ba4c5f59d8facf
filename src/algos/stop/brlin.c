/* brlin.c — Br_Lin, Br_xy_source and Br_xy_dim (the s-to-p paper, Section 2): binomial-tree
 * broadcasting from every source at once, messages combined where they meet.
 *
 *   br-lin        the mesh as a linear array in snake order (row-major, every other row
 *                 reversed; --set snake=0: plain row-major); P_i and P_{i+ceil(n/2)} exchange (or one sends, if only one
 *                 holds anything), then both halves recurse.
 *   br-xy-source  Br_Lin in every row, then in every column, or columns first: rows first iff
 *                 the most sources in one row <= the most in one column (so that the first
 *                 dimension combines short messages; the paper's comparison sign is garbled,
 *                 its reasoning — sources in a few columns: rows first — decides it).
 *   br-xy-dim     rows first iff r <= c (the rows are the longer dimension), else columns.
 */
#include <stdio.h>
#include <stdlib.h>

#include "stop-internal.h"

int stop_levels(int32_t n)
{
    int L = 0;
    while (((int64_t)1 << L) < n)
        L++;
    return L;
}

int stop_brlin(StopHold *h, Sched *s, int32_t t0, const int32_t *seq, int32_t n,
               int32_t ngroups, const char *label)
{
    int levels = stop_levels(n);
    /* the segments of one group at this level: (lo, len), at most n */
    int32_t *lo = malloc(sizeof *lo * (size_t)n * 2), *len = lo ? lo + n : NULL;
    int32_t *nlo = malloc(sizeof *nlo * (size_t)n * 2), *nlen = nlo ? nlo + n : NULL;
    if (!lo || !nlo) {
        free(lo);
        free(nlo);
        sched_fail(s, "out of memory");
        return -1;
    }
    int32_t nseg = 1;
    lo[0] = 0;
    len[0] = n;
    char buf[160];
    for (int L = 0; L < levels; L++) {
        snprintf(buf, sizeof buf, "%s (%d/%d)", label, L + 1, levels);
        if (!sched_at(s, t0 + L) || !sched_label(s, buf))
            goto fail;
        for (int32_t g = 0; g < ngroups; g++) {
            const int32_t *q = seq + (int64_t)g * n;
            for (int32_t k = 0; k < nseg; k++) {
                int32_t a = (len[k] + 1) / 2, b = len[k] - a, o = lo[k];
                for (int32_t i = 0; i < b; i++)
                    if (!stop_hold_send(h, q[o + i], q[o + a + i]) ||
                        !stop_hold_send(h, q[o + a + i], q[o + i]))
                        goto fail;
                if (a > b && b > 0 && !stop_hold_send(h, q[o + a - 1], q[o + a]))
                    goto fail;
            }
        }
        if (!stop_hold_commit(h))
            goto fail;
        int32_t m = 0;
        for (int32_t k = 0; k < nseg; k++) {
            int32_t a = (len[k] + 1) / 2, b = len[k] - a;
            nlo[m] = lo[k];
            nlen[m++] = a;
            if (b > 0) {
                nlo[m] = lo[k] + a;
                nlen[m++] = b;
            }
        }
        for (int32_t k = 0; k < m; k++) {
            lo[k] = nlo[k];
            len[k] = nlen[k];
        }
        nseg = m;
    }
    free(lo);
    free(nlo);
    return levels;
fail:
    free(lo);
    free(nlo);
    return -1;
}

void stop_snake(const StopRect *q, int32_t *out)
{
    int64_t k = 0;
    for (int32_t x = 0; x < q->nr; x++)
        for (int32_t j = 0; j < q->nc; j++) {
            int32_t y = (x & 1) ? q->nc - 1 - j : j;
            out[k++] = (q->r0 + x) * q->cols + q->c0 + y;
        }
}

int stop_brxy(StopHold *h, Sched *s, int32_t t0, const StopRect *q, bool rows_first)
{
    int64_t n = (int64_t)q->nr * q->nc;
    int32_t *rows = malloc(sizeof *rows * (size_t)n), *cols = malloc(sizeof *cols * (size_t)n);
    if (!rows || !cols) {
        free(rows);
        free(cols);
        sched_fail(s, "out of memory");
        return -1;
    }
    for (int32_t x = 0; x < q->nr; x++)
        for (int32_t y = 0; y < q->nc; y++) {
            int32_t id = (q->r0 + x) * q->cols + q->c0 + y;
            rows[(int64_t)x * q->nc + y] = id;
            cols[(int64_t)y * q->nr + x] = id;
        }
    int first, second;
    if (rows_first) {
        first = stop_brlin(h, s, t0, rows, q->nc, q->nr, "Br_Lin in the rows");
        second = first < 0 ? -1
                           : stop_brlin(h, s, t0 + first, cols, q->nr, q->nc,
                                        "Br_Lin in the columns");
    } else {
        first = stop_brlin(h, s, t0, cols, q->nr, q->nc, "Br_Lin in the columns");
        second = first < 0 ? -1
                           : stop_brlin(h, s, t0 + first, rows, q->nc, q->nr,
                                        "Br_Lin in the rows");
    }
    free(rows);
    free(cols);
    return second < 0 ? -1 : first + second;
}

bool stop_rows_first(const StopHold *h, const StopRect *q)
{
    int32_t mr = 0, mc = 0;
    int32_t *col = calloc((size_t)q->nc, sizeof *col);
    for (int32_t x = 0; x < q->nr; x++) {
        int32_t inrow = 0;
        for (int32_t y = 0; y < q->nc; y++)
            if (!stop_hold_empty(h, (q->r0 + x) * q->cols + q->c0 + y)) {
                inrow++;
                if (col && ++col[y] > mc)
                    mc = col[y];
            }
        if (inrow > mr)
            mr = inrow;
    }
    free(col);
    return mr <= mc;
}

bool stop_grid(Sched *s, StopRect *q)
{
    int32_t r, c;
    if (!dist_grid(sched_net(s), &r, &c)) {
        sched_fail(s, "needs a 1-D or 2-D net");
        return false;
    }
    *q = (StopRect){0, 0, r, c, c};
    return true;
}

bool stop_fits(const AlgoDef *d, const Net *net, bool meshonly, int64_t per_node, char *err,
               size_t errlen)
{
    if (net_ndim(net) != (meshonly ? 2 : net_ndim(net)) || net_ndim(net) > 2) {
        snprintf(err, errlen, "%s needs a %s", d->name, meshonly ? "2-D mesh" :
                 "linear array or 2-D mesh");
        return false;
    }
    return !algo_too_big(d, net, per_node, STOP_MAX_TRANSFERS, err, errlen);
}

/* ---- the defs --------------------------------------------------------------------------- */

bool stop_fits_levels(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                      size_t errlen)
{
    (void)a;
    const StopSize *z = d->ud;
    int64_t levels = z->xy && net_ndim(net) == 2
                         ? stop_levels(net_dim(net, 0)) + stop_levels(net_dim(net, 1))
                         : stop_levels(net_size(net));
    return stop_fits(d, net, z->xy, z->extra + levels, err, errlen);
}

static bool build_lin(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    bool snake = algo_param(d, a, "snake") != 0;
    StopRect q;
    if (!stop_grid(s, &q))
        return false;
    StopHold *h = stop_hold_new(s);
    int32_t *seq = malloc(sizeof *seq * (size_t)net_size(sched_net(s)));
    bool ok = h && seq;
    if (ok) {
        if (snake) {
            stop_snake(&q, seq);
        } else {
            for (int32_t i = 0; i < net_size(sched_net(s)); i++)
                seq[i] = i;
        }
        ok = stop_brlin(h, s, 0, seq, net_size(sched_net(s)), 1, "Br_Lin") >= 0;
    } else if (h) {
        sched_fail(s, "out of memory");
    }
    free(seq);
    stop_hold_free(h);
    return ok;
}

static bool build_xy(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)a;
    StopRect q;
    if (!stop_grid(s, &q))
        return false;
    StopHold *h = stop_hold_new(s);
    if (!h)
        return false;
    bool rows = d == &algo_br_xy_dim ? q.nr <= q.nc : stop_rows_first(h, &q);
    bool ok = stop_brxy(h, s, 0, &q, rows) >= 0;
    stop_hold_free(h);
    return ok;
}

#define MESHES ((1u << NET_MESH))
#define LINEAR ((1u << NET_ARRAY) | (1u << NET_MESH))

static const StopSize lin_size = {1, false}, xy_size = {1, true};

static const AlgoParam lin_params[] = {
    {"snake", 1, 0, 1, "1: the paper's snake-like row-major order; 0: plain row-major"},
};

const AlgoDef algo_br_lin = {
    .name = "br-lin",
    .summary = "s-to-p: Br_Lin in snake order, exchange across the halves, recurse",
    .ref = "s-to-p Sec. 2",
    .nets = LINEAR,
    .flags = ALGO_STOP,
    .params = lin_params,
    .nparams = 1,
    .fits = stop_fits_levels,
    .build = build_lin,
    .ud = (void *)&lin_size,
};

const AlgoDef algo_br_xy_source = {
    .name = "br-xy-source",
    .summary = "s-to-p: Br_Lin in the rows then the columns, or the reverse, by the sources",
    .ref = "s-to-p Sec. 2",
    .nets = MESHES,
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_xy,
    .ud = (void *)&xy_size,
};

const AlgoDef algo_br_xy_dim = {
    .name = "br-xy-dim",
    .summary = "s-to-p: Br_Lin along the longer dimension first, then the other",
    .ref = "s-to-p Sec. 2",
    .nets = MESHES,
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_xy,
    .ud = (void *)&xy_size,
};
