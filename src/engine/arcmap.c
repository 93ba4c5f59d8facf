/* arcmap.c — the simulators' link layout: arcmap.h. */
#include "arcmap.h"

void arcmap_init(ArcMap *L, const Net *net)
{
    L->net = net;
    L->full = net_pairwise(net);
    L->pow2 = true;
    L->mesh2 = net->kind == NET_MESH && net->ndim == 2;
    L->line1 = !L->full && net->ndim == 1;
    for (int d = 0; d < net->ndim; d++) {
        int32_t v = net->dims[d];
        int sh = 0;
        while (sh < 31 && (INT32_C(1) << sh) < v)
            sh++;
        L->dshift[d] = sh;
        if ((INT32_C(1) << sh) != v)
            L->pow2 = false;
    }
    L->lshift = 0;
    for (int d = 0; L->pow2 && d < net->ndim; d++)   /* (each base is a multiple of size) */
        if (d == 0 || L->dshift[d] < L->lshift)
            L->lshift = L->dshift[d];
    for (int d = 0; d < net->ndim; d++) {
        for (int b = 0; b < 2; b++)
            L->base[d][b] = (int64_t)(2 * d + b) * net->size;
        for (int e = 0; e < net->ndim; e++) {
            int64_t st = 1;
            for (int f = e + 1; f < net->ndim; f++)
                if (f != d)
                    st *= net->dims[f];
            L->lstride[d][e] = st;
        }
    }
}

int64_t arcmap_link(const ArcMap *L, int64_t idx)
{
    const Net *net = L->net;
    int64_t size = net->size;
    int db = (int)(idx / size);
    int d = db / 2, b = db % 2;
    int64_t rem = idx % size;
    int32_t n = net->dims[d], st = net->stride[d];
    int64_t line = rem / n, pos = rem % n;
    int64_t node = (line / st) * ((int64_t)st * n) + line % st + pos * st;
    return (node * net->ndim + d) * 2 + b;
}

int64_t arcmap_index(const ArcMap *L, int64_t link)
{
    const Net *net = L->net;
    int b = (int)(link & 1);
    int64_t x = link >> 1;
    int d = (int)(x % net->ndim);
    int64_t node = x / net->ndim;
    int64_t n = net->dims[d], st = net->stride[d];
    int64_t pos = (node / st) % n;
    int64_t line = (node / (st * n)) * st + node % st;
    return L->base[d][b] + line * n + pos;
}

int64_t arcmap_sorted(const ArcMap *L, const Sched *s, const SchedFlat *f, int64_t *tcd)
{
    const Net *net = L->net;
    bool line1 = L->line1 && !f->ext;   /* an array's or ring's default routes */
    int nb = 2 * net->ndim;
    /* the hull [lo, hi] of the pieces seen in each block (empty: lo > hi) */
    int64_t lo[2 * NET_MAXDIM], hi[2 * NET_MAXDIM], sum = 0, size = net->size;
    for (int k = 0; k < nb; k++) {
        lo[k] = INT64_MAX;
        hi[k] = -1;
    }
    ArcPiece pc[ARCMAP_MAXPIECES];
    for (int64_t i = 0; i < f->n; i++) {
        int32_t len, src = f->x[i].src, dst = f->x[i].dst;
        int np = line1 ? arcmap_line1(L, src, dst, pc, &len)
                       : arcmap_route(L, s, src, dst, sched_flat_route(f, i), pc, &len);
        for (int k = 0; k < np; k++) {
            int b = 0;   /* the block of pc[k]: base[d][dir] = (2d + dir) * size */
            while (b + 1 < nb && pc[k].start >= (b + 1) * size)
                b++;
            if (pc[k].b >= lo[b] && pc[k].a <= hi[b])
                return i;   /* not outside the hull: it may share an arc */
            lo[b] = pc[k].a < lo[b] ? pc[k].a : lo[b];
            hi[b] = pc[k].b > hi[b] ? pc[k].b : hi[b];
        }
        sum += len;
    }
    *tcd = sum;
    return f->n;
}
