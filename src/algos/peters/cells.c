/* cells.c — uneven cells and stretched routes: cells.h. */
#include "cells.h"

#include <stdlib.h>

bool peters_cells_init(PetersCells *c, int32_t extent, int32_t ncell)
{
    c->extent = extent;
    c->ncell = ncell;
    c->size = malloc(sizeof *c->size * (size_t)ncell);
    c->boss = malloc(sizeof *c->boss * (size_t)ncell);
    if (!c->size || !c->boss) {
        peters_cells_free(c);
        return false;
    }
    int64_t first = 0;
    for (int32_t i = 0; i < ncell; i++) {
        int64_t next = (int64_t)extent * (i + 1) / ncell;
        c->size[i] = (int32_t)(next - first);
        c->boss[i] = (int32_t)(first + (c->size[i] - 1) / 2);
        first = next;
    }
    int32_t b0 = c->boss[0];
    for (int32_t i = 0; i < ncell; i++)
        c->boss[i] -= b0;
    return true;
}

void peters_cells_free(PetersCells *c)
{
    free(c->size);
    free(c->boss);
    c->size = c->boss = NULL;
}

int peters_cells_route(const PetersCells c[2], int32_t i0, int32_t i1, const PetersRoute *r,
                       NetSeg *seg, int32_t *j0, int32_t *j1)
{
    int32_t at[2] = { i0, i1 };
    int n = 0;
    for (int i = 0; i < r->nseg; i++) {
        if (r->len[i] == 0)
            continue;
        const PetersCells *d = &c[r->dim[i]];
        int32_t from = at[r->dim[i]], k = d->ncell;
        int32_t to = (int32_t)(((int64_t)from + r->len[i]) % k);
        if (to < 0)
            to += k;
        /* the hops between the two bosses the way the route goes (a whole turn when the
         * route comes back to its cell) */
        int64_t hops = r->len[i] > 0 ? d->boss[to] - d->boss[from] : d->boss[from] - d->boss[to];
        if (hops <= 0)
            hops += d->extent;
        seg[n++] = (NetSeg){ .dim = r->dim[i], .dir = r->len[i] > 0 ? 1 : -1,
                             .len = (int32_t)hops };
        at[r->dim[i]] = to;
    }
    *j0 = at[0];
    *j1 = at[1];
    return n;
}
