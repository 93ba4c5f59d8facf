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

/* arcmap_sorted on an array or a ring whose routes are all default (no extension): positions
 * in the line, one cursor per direction.  A + route from s covers arcs s..d-1 of the + block,
 * a - route arcs d+1..s of the - block (a link sits at its tail's position). */
static int64_t sorted_line1(const ArcMap *L, const SchedFlat *f, int64_t *tcd)
{
    const Net *net = L->net;
    const SchedXfer *x = f->x;
    int64_t n = f->n, sum = 0;
    int32_t up = -1, down = -1;   /* the last arc used in each block, -1: none */
    bool ring = net->kind == NET_RING;
    int32_t size = net->dims[0];
    for (int64_t i = 0; i < n; i++) {
        int32_t s = x[i].src, d = x[i].dst;
        int32_t o = ring ? arcmap_hop(net, 0, s, d) : d - s;
        if (o > 0) {
            if (s <= up || s + o > size)   /* (past the end: wraps round to arc 0) */
                return i;
            up = s + o - 1;
            sum += o;
        } else if (o < 0) {
            int32_t q = s + o + 1;   /* below 0: a ring's route wraps round, arcs 0..s then
                                      * q+size..size-1 (in order when none came before) */
            if ((q < 0 ? 0 : q) <= down)
                return i;
            down = q < 0 ? size - 1 : s;
            sum -= o;
        }
    }
    *tcd = sum;
    return n;
}

int64_t arcmap_sorted(const ArcMap *L, const Sched *s, const SchedFlat *f, int64_t *tcd)
{
    if (L->line1 && !f->ext)
        return sorted_line1(L, f, tcd);
    const Net *net = L->net;
    int nb = 2 * net->ndim;
    int64_t cur[2 * NET_MAXDIM], sum = 0, size = net->size;
    for (int k = 0; k < nb; k++)
        cur[k] = -1;
    ArcPiece pc[ARCMAP_MAXPIECES];
    for (int64_t i = 0; i < f->n; i++) {
        int32_t len;
        int np = arcmap_route(L, s, f->x[i].src, f->x[i].dst, sched_flat_route(f, i), pc, &len);
        for (int k = 0; k < np; k++) {
            int blk = 0;   /* the block of pc[k]: base[d][b] = (2d + b) * size */
            while (blk + 1 < nb && pc[k].start >= (blk + 1) * size)
                blk++;
            if (pc[k].a <= cur[blk])
                return i;
            cur[blk] = pc[k].b;
        }
        sum += len;
    }
    *tcd = sum;
    return f->n;
}
