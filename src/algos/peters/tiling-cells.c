/* tiling-cells.c — `tiling` on any 2-D torus: S_k on uneven cells, then the cells (tiling.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cells.h"
#include "fill.h"
#include "tiling.h"

/* The cells' fill plans: plan[i][j] for cells one node taller (i) or wider (j) than the
 * smallest.  False when memory runs out. */
static bool make_plans(const PetersCells c[2], PetersFill *plan[2][2])
{
    int32_t q0 = c[0].extent / c[0].ncell, q1 = c[1].extent / c[1].ncell;
    bool ok = true;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            plan[i][j] = NULL;
            bool need = (c[0].extent % c[0].ncell != 0 || i == 0) &&
                        (c[1].extent % c[1].ncell != 0 || j == 0);
            if (need && ok && !(plan[i][j] = peters_fill_new(q0 + i, q1 + j)))
                ok = false;
        }
    return ok;
}

static void free_plans(PetersFill *plan[2][2])
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            peters_fill_free(plan[i][j]);
}

static int fill_phases(PetersFill *plan[2][2])
{
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (plan[i][j] && peters_fill_phases(plan[i][j]) > n)
                n = peters_fill_phases(plan[i][j]);
    return n;
}

static int32_t pow5(int k)
{
    int32_t r = 1;
    while (k-- > 0)
        r *= 5;
    return r;
}

/* 2k + the fill's phases; -1 when memory runs out. */
static int phases_with(const Net *net, int k)
{
    PetersCells c[2] = { { 0 }, { 0 } };
    PetersFill *plan[2][2] = { { NULL, NULL }, { NULL, NULL } };
    int n = -1;
    if (peters_cells_init(&c[0], net_dim(net, 0), pow5(k)) &&
        peters_cells_init(&c[1], net_dim(net, 1), pow5(k)) && make_plans(c, plan))
        n = 2 * k + fill_phases(plan);
    free_plans(plan);
    peters_cells_free(&c[0]);
    peters_cells_free(&c[1]);
    return n;
}

int tiling_cells_k(const Net *net)
{
    int32_t e = net_dim(net, 0) < net_dim(net, 1) ? net_dim(net, 0) : net_dim(net, 1);
    int k = 0;
    while ((int64_t)pow5(k) * 5 <= e)
        k++;
    if (k == 0)
        return 0;
    /* one less only where its cells are small enough to plan quickly (at most 64 x 64 nodes:
     * every torus up to 320 x 320) */
    int64_t big = ((int64_t)net_dim(net, 0) / pow5(k - 1) + 1) *
                  (net_dim(net, 1) / pow5(k - 1) + 1);
    if (big > 64 * 64)
        return k;
    int a = phases_with(net, k), b = phases_with(net, k - 1);
    return b >= 0 && (a < 0 || b < a) ? k - 1 : k;
}

/* The boss of cell (i, j): the source's cell is (0, 0). */
static int32_t boss_node(const Net *net, const PetersCells c[2], const int32_t src[2], int32_t i,
                         int32_t j)
{
    int32_t x[2] = { (src[0] + c[0].boss[i]) % c[0].extent, (src[1] + c[1].boss[j]) % c[1].extent };
    return net_id(net, x);
}

typedef struct {
    int32_t *i, *j;
    int64_t n;
} CellList;

/* One S_k phase: every informed cell sends along pat, stretched. */
static bool cell_phase(Sched *s, const char *label, const PetersPattern *pat,
                       const PetersCells c[2], const int32_t src[2], CellList *inf)
{
    const Net *net = sched_net(s);
    ChunkRange all = { 0, sched_nchunks(s) };
    int64_t n = inf->n;
    if (sched_step(s) < 0 || !sched_label(s, label) || !sched_reserve(s, n * pat->nout, 0))
        return false;
    for (int64_t x = 0; x < n; x++) {
        int32_t v = boss_node(net, c, src, inf->i[x], inf->j[x]);
        for (int o = 0; o < pat->nout; o++) {
            NetSeg seg[PETERS_MAXSEG];
            int32_t j0, j1;
            int ns = peters_cells_route(c, inf->i[x], inf->j[x], &pat->out[o], seg, &j0, &j1);
            int32_t w = net_route_end(net, v, seg, ns);
            if (w < 0 || w != boss_node(net, c, src, j0, j1)) {
                sched_fail(s, "%s: a route misses its cell's boss", label);
                return false;
            }
            if (!sched_send_route(s, v, w, &all, 1, seg, (size_t)ns))
                return false;
            inf->i[inf->n] = j0;
            inf->j[inf->n++] = j1;
        }
    }
    return true;
}

bool tiling_cells(Sched *s, int k, int32_t source)
{
    const Net *net = sched_net(s);
    int32_t K = pow5(k), src[2];
    net_coords(net, source, src);
    PetersCells c[2] = { { 0 }, { 0 } };
    PetersFill *plan[2][2] = { { NULL, NULL }, { NULL, NULL } };
    CellList inf = { malloc(sizeof(int32_t) * (size_t)K * (size_t)K),
                     malloc(sizeof(int32_t) * (size_t)K * (size_t)K), 0 };
    PetersSet out = { 0 };
    bool ok = inf.i && inf.j && peters_cells_init(&c[0], net_dim(net, 0), K) &&
              peters_cells_init(&c[1], net_dim(net, 1), K) && make_plans(c, plan) &&
              peters_set_init(&out, net_size(net));
    if (!ok)
        sched_fail(s, "out of memory");
    if (ok) {
        inf.i[0] = inf.j[0] = 0;
        inf.n = 1;
    }
    for (int i = k; ok && i >= 1; i--) {
        int32_t u = pow5(i - 1);
        char label[128];
        PetersPattern p = tiling_knight(u, 2 * u, u, 2 * u);
        snprintf(label, sizeof label, "tiling: knight's moves (%ld,%ld) between the C_%d of each "
                 "S_%d of cells", (long)u, (long)(2 * u), i - 1, i);
        ok = cell_phase(s, label, &p, c, src, &inf);
        if (!ok)
            break;
        p = tiling_cross(u, u);
        snprintf(label, sizeof label, "tiling: cross at distance %ld between the S_%d of each "
                 "C_%d of cells", (long)u, i - 1, i - 1);
        ok = cell_phase(s, label, &p, c, src, &inf);
    }
    int np = ok ? fill_phases(plan) : 0;
    int32_t q0 = c[0].extent / K, q1 = c[1].extent / K;
    for (int p = 0; ok && p < np; p++) {
        char label[128];
        snprintf(label, sizeof label, "tiling: cross splits filling the %ldx%ld cells (%d of %d)",
                 (long)q0 + (c[0].extent % K != 0), (long)q1 + (c[1].extent % K != 0), p + 1,
                 np);
        ok = sched_step(s) >= 0 && sched_label(s, label);
        for (int64_t x = 0; ok && x < inf.n; x++) {
            int32_t i = inf.i[x], j = inf.j[x];
            const PetersFill *f = plan[c[0].size[i] - q0][c[1].size[j] - q1];
            ok = peters_fill_send(s, f, p, boss_node(net, c, src, i, j), 1, 1, &out);
        }
    }
    free(inf.i);
    free(inf.j);
    peters_set_free(&out);
    free_plans(plan);
    peters_cells_free(&c[0]);
    peters_cells_free(&c[1]);
    return ok;
}
