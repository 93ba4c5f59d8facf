/* repos.c — repositioning and partitioning (the s-to-p paper, Section 3).
 *
 *   repos-lin        move the sources to Br_Lin's ideal distribution, the left diagonals
 *                    Dl:s (Section 5.2), then Br_Lin.
 *   repos-xy-source  move them to Br_xy_source's ideal, the row distribution whose rows make
 *                    the sources increase fastest (Ri:s, dist.h), then Br_xy_source.
 *   part-lin         split the machine in two halves G1, G2 (the rows in two if r >= c, else
 *                    the columns; G1 the larger), move ceil(s/2) sources to the ideal
 *                    distribution (Dl) of G1 and the rest to that of G2, Br_Lin in both halves
 *                    at once, then every node of G1 exchanges with the node at the same place
 *                    in G2 (an odd G1's last row or column, which has no partner, exchanges with G2's
 *                    first, which so exchanges twice).
 *   part-xy-source   the same with Ri and Br_xy_source in the halves.
 *
 * The move is one step: a source already on a place of the ideal distribution stays; the
 * others, in ascending order, go to the free places, in ascending order (the paper does not
 * say how sources are matched to places; we take the simplest).  A step in which nobody moves
 * is not made.
 */
#include <stdlib.h>

#include "stop-internal.h"

/* Move the sources (nodes holding something in h) to the places tgt[0..nt) (sorted ids) at
 * step t.  Returns the steps used (0 or 1), -1 after sched_fail. */
static int reposition(StopHold *h, Sched *s, int32_t t, const int32_t *tgt, int32_t nt)
{
    int32_t p = net_size(sched_net(s));
    int32_t *src = malloc(sizeof *src * (size_t)p);
    unsigned char *is_tgt = calloc((size_t)p, 1), *is_src = calloc((size_t)p, 1);
    int used = -1;
    if (!src || !is_tgt || !is_src) {
        sched_fail(s, "out of memory");
        goto out;
    }
    int32_t ns = stop_hold_nodes(h, src);
    for (int32_t i = 0; i < nt; i++)
        is_tgt[tgt[i]] = 1;
    for (int32_t i = 0; i < ns; i++)
        is_src[src[i]] = 1;
    int32_t k = 0;   /* next free place */
    used = 0;
    for (int32_t i = 0; i < ns; i++) {
        if (is_tgt[src[i]])
            continue;
        while (k < nt && is_src[tgt[k]])
            k++;
        if (k == nt)
            break;
        if (!used && (!sched_at(s, t) || !sched_label(s, "Repos: move the sources"))) {
            used = -1;
            goto out;
        }
        used = 1;
        if (!stop_hold_send(h, src[i], tgt[k])) {
            used = -1;
            goto out;
        }
        is_src[tgt[k]] = 1;   /* taken */
        k++;
        is_tgt[src[i]] = 2;   /* moved away: forget it after the step */
    }
    if (!stop_hold_commit(h)) {
        used = -1;
        goto out;
    }
    for (int32_t i = 0; i < ns; i++)
        if (is_tgt[src[i]] == 2)
            stop_hold_forget(h, src[i]);
out:
    free(src);
    free(is_tgt);
    free(is_src);
    return used;
}

/* The places of kind k for n sources in rectangle q, as global ids appended to out. */
static bool places(Sched *s, DistKind k, const StopRect *q, int32_t n, int32_t *out)
{
    if (n == 0)
        return true;
    char err[128];
    if (!dist_cells(k, q->nr, q->nc, n, out, err, sizeof err)) {
        sched_fail(s, "%s", err);
        return false;
    }
    for (int32_t i = 0; i < n; i++)
        out[i] = (q->r0 + out[i] / q->nc) * q->cols + q->c0 + out[i] % q->nc;
    return true;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Broadcast inside rectangle q from step t: Br_Lin on its snake (lin) or Br_xy_source.
 * Returns the steps used or -1. */
static int inside(StopHold *h, Sched *s, int32_t t, const StopRect *q, bool lin)
{
    if (!lin)
        return stop_brxy(h, s, t, q, stop_rows_first(h, q));
    int32_t n = q->nr * q->nc;
    int32_t *seq = malloc(sizeof *seq * (size_t)n);
    if (!seq) {
        sched_fail(s, "out of memory");
        return -1;
    }
    stop_snake(q, seq);
    int st = stop_brlin(h, s, t, seq, n, 1, "Br_Lin");
    free(seq);
    return st;
}

static bool build_repos(Sched *s, bool lin)
{
    StopRect q;
    if (!stop_grid(s, &q))
        return false;
    StopHold *h = stop_hold_new(s);
    int32_t ns = (int32_t)sched_ngiven(s);
    int32_t *tgt = malloc(sizeof *tgt * (size_t)ns);
    bool ok = h && tgt && places(s, lin ? DIST_DIAG_L : DIST_ROW_IDEAL, &q, ns, tgt);
    if (!tgt && h)
        sched_fail(s, "out of memory");
    int t = ok ? reposition(h, s, 0, tgt, ns) : -1;
    ok = t >= 0 && inside(h, s, t, &q, lin) >= 0;
    free(tgt);
    stop_hold_free(h);
    return ok;
}

static bool build_part(Sched *s, bool lin)
{
    StopRect q;
    if (!stop_grid(s, &q))
        return false;
    bool by_rows = q.nr >= q.nc;
    int32_t full = by_rows ? q.nr : q.nc, a = (full + 1) / 2, b = full - a;
    if (b == 0)    /* one node: nothing to do */
        return true;
    StopRect g1 = q, g2 = q;
    if (by_rows) {
        g1.nr = a;
        g2.r0 = a;
        g2.nr = b;
    } else {
        g1.nc = a;
        g2.c0 = a;
        g2.nc = b;
    }
    int32_t ns = (int32_t)sched_ngiven(s), n2 = ns / 2;
    if (n2 > g2.nr * g2.nc)
        n2 = g2.nr * g2.nc;
    int32_t n1 = ns - n2;
    StopHold *h = stop_hold_new(s);
    int32_t *tgt = malloc(sizeof *tgt * (size_t)ns);
    DistKind k = lin ? DIST_DIAG_L : DIST_ROW_IDEAL;
    bool ok = h && tgt && places(s, k, &g1, n1, tgt) && places(s, k, &g2, n2, tgt + n1);
    if (!tgt && h)
        sched_fail(s, "out of memory");
    int t = -1;
    if (ok) {
        qsort(tgt, (size_t)ns, sizeof *tgt, cmp_i32);
        t = reposition(h, s, 0, tgt, ns);
    }
    int t1 = t >= 0 ? inside(h, s, t, &g1, lin) : -1;
    int t2 = t1 >= 0 ? inside(h, s, t, &g2, lin) : -1;
    ok = t2 >= 0;
    if (ok) {
        int32_t te = t + (t1 > t2 ? t1 : t2);
        ok = sched_at(s, te) && sched_label(s, "Part: exchange between the halves");
        int32_t other = by_rows ? g1.nc : g1.nr;
        for (int32_t i = 0; ok && i < a; i++)
            for (int32_t j = 0; ok && j < other; j++) {
                int32_t x = by_rows ? q.r0 + i : q.r0 + j, y = by_rows ? q.c0 + j : q.c0 + i;
                int32_t u = x * q.cols + y;
                int32_t v = by_rows ? (x + a) * q.cols + y : x * q.cols + y + a;
                if (i < b)
                    ok = stop_hold_send(h, u, v) && stop_hold_send(h, v, u);
                else {  /* odd: G1's last line has no partner; it exchanges with G2's
                         * first line (which exchanges with G1's first too) */
                    int32_t w = by_rows ? a * q.cols + y : x * q.cols + a;
                    ok = stop_hold_send(h, u, w) && stop_hold_send(h, w, u);
                }
            }
        ok = ok && stop_hold_commit(h);
    }
    free(tgt);
    stop_hold_free(h);
    return ok;
}

static bool build_repos_lin(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    return build_repos(s, true);
}

static bool build_repos_xy(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    return build_repos(s, false);
}

static bool build_part_lin(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    return build_part(s, true);
}

static bool build_part_xy(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    return build_part(s, false);
}

/* Br_Lin's levels and 3 more transfers per node (the move, the exchange) */
static const StopSize lin_size = {3, false}, xy_size = {3, true};

const AlgoDef algo_repos_lin = {
    .name = "repos-lin",
    .summary = "s-to-p: move the sources to the left diagonals (Dl), then Br_Lin",
    .ref = "s-to-p Sec. 3, 5.2",
    .nets = (1u << NET_ARRAY) | (1u << NET_MESH),
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_repos_lin,
    .ud = (void *)&lin_size,
};

const AlgoDef algo_repos_xy_source = {
    .name = "repos-xy-source",
    .summary = "s-to-p: move the sources to the ideal rows (Ri), then Br_xy_source",
    .ref = "s-to-p Sec. 3, 5.2",
    .nets = 1u << NET_MESH,
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_repos_xy,
    .ud = (void *)&xy_size,
};

const AlgoDef algo_part_lin = {
    .name = "part-lin",
    .summary = "s-to-p: reposition, Br_Lin in each half, exchange between the halves",
    .ref = "s-to-p Sec. 3",
    .nets = (1u << NET_ARRAY) | (1u << NET_MESH),
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_part_lin,
    .ud = (void *)&lin_size,
};

const AlgoDef algo_part_xy_source = {
    .name = "part-xy-source",
    .summary = "s-to-p: reposition, Br_xy_source in each half, exchange between the halves",
    .ref = "s-to-p Sec. 3",
    .nets = 1u << NET_MESH,
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_part_xy,
    .ud = (void *)&xy_size,
};
