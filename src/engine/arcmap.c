/* arcmap.c — the simulators' link layout: arcmap.h. */
#include "arcmap.h"

#include <stdlib.h>

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

/* Piece a..b outside the hull [*lo, *hi] (empty: *lo > *hi): true, with the hull grown. */
static inline bool hull_put(int64_t *lo, int64_t *hi, int64_t a, int64_t b)
{
    if (b >= *lo && a <= *hi)
        return false;
    *lo = a < *lo ? a : *lo;
    *hi = b > *hi ? b : *hi;
    return true;
}

/* arcmap_sorted on an array or a ring whose routes are all default: positions in the line, a
 * hull per direction.  A + route from s covers arcs s..s+o-1 of the + line, a - route arcs
 * s+o+1..s of the - line (a link sits at its tail's position); on a ring, past an end it wraps
 * round (two pieces, as arcmap_line1 gives them). */
static int64_t sorted_line1(const ArcMap *L, const SchedFlat *f, int64_t *tcd)
{
    const Net *net = L->net;
    const SchedXfer *x = f->x;
    int64_t n = f->n, sum = 0, size = net->dims[0];
    int64_t ulo = INT64_MAX, uhi = -1, dlo = INT64_MAX, dhi = -1;   /* + and - hulls */
    bool ring = net->kind == NET_RING;
    for (int64_t i = 0; i < n; i++) {
        int64_t s = x[i].src, d = x[i].dst;
        int64_t o = ring ? arcmap_hop(net, 0, x[i].src, x[i].dst) : d - s;
        if (o > 0) {
            int64_t b = s + o - 1;
            bool ok = b < size ? hull_put(&ulo, &uhi, s, b)
                               : hull_put(&ulo, &uhi, s, size - 1) &&
                                 hull_put(&ulo, &uhi, 0, b - size);
            if (!ok)
                return i;
            sum += o;
        } else if (o < 0) {
            int64_t a = s + o + 1;
            bool ok = a >= 0 ? hull_put(&dlo, &dhi, a, s)
                             : hull_put(&dlo, &dhi, 0, s) &&
                               hull_put(&dlo, &dhi, a + size, size - 1);
            if (!ok)
                return i;
            sum -= o;
        }
    }
    *tcd = sum;
    return n;
}

int64_t arcmap_sorted(const ArcMap *L, const Sched *s, const SchedFlat *f, int64_t *tcd)
{
    if (L->line1 && !f->ext)   /* an array's or ring's default routes */
        return sorted_line1(L, f, tcd);
    const Net *net = L->net;
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
        uint32_t route = sched_flat_route(f, i);
        int np = L->mesh2 && route == SCHED_DEFAULT_ROUTE
                     ? arcmap_mesh2(L, src, dst, pc, &len)
                     : arcmap_route(L, s, src, dst, route, pc, &len);
        for (int k = 0; k < np; k++) {
            int b = 0;   /* the block of pc[k]: base[d][dir] = (2d + dir) * size */
            while (b + 1 < nb && pc[k].start >= (b + 1) * size)
                b++;
            if (!hull_put(&lo[b], &hi[b], pc[k].a, pc[k].b))
                return i;   /* not outside the hull: it may share an arc */
        }
        sum += len;
    }
    *tcd = sum;
    return f->n;
}

int64_t arcmap_nlines(const ArcMap *L)
{
    const Net *net = L->net;
    int32_t m = net->dims[0];
    for (int d = 1; d < net->ndim; d++)
        m = net->dims[d] < m ? net->dims[d] : m;
    return (int64_t)2 * net->ndim * net->size / m + 1;
}

/* The number of the line that starts at `start` (< arcmap_nlines): distinct lines start at
 * least the shortest line's length apart, so start / that length numbers them apart (a shift
 * on a power-of-two net). */
static inline int64_t line_no(const ArcMap *L, int64_t start, int32_t shortest)
{
    return L->pow2 ? start >> L->lshift : start / shortest;
}

int64_t arcmap_sorted_lines(const ArcMap *L, const Sched *s, const SchedFlat *f, int64_t *tcd)
{
    const Net *net = L->net;
    int64_t nl = arcmap_nlines(L), sum = 0;
    if (f->n == 0) {
        *tcd = 0;
        return 0;
    }
    int32_t shortest = net->dims[0];
    for (int d = 1; d < net->ndim; d++)
        shortest = net->dims[d] < shortest ? net->dims[d] : shortest;
    /* each line's hull [lo, hi] of positions in the line (empty: lo > hi) */
    int32_t *h = malloc((size_t)nl * 2 * sizeof *h);
    if (!h)
        return 0;
    for (int64_t k = 0; k < nl; k++) {
        h[2 * k] = INT32_MAX;
        h[2 * k + 1] = -1;
    }
    ArcPiece pc[ARCMAP_MAXPIECES];
    for (int64_t i = 0; i < f->n; i++) {
        int32_t len;
        uint32_t route = sched_flat_route(f, i);
        int np = L->mesh2 && route == SCHED_DEFAULT_ROUTE
                     ? arcmap_mesh2(L, f->x[i].src, f->x[i].dst, pc, &len)
                     : arcmap_route(L, s, f->x[i].src, f->x[i].dst, route, pc, &len);
        for (int k = 0; k < np; k++) {
            int32_t *q = h + 2 * line_no(L, pc[k].start, shortest);
            int32_t a = (int32_t)(pc[k].a - pc[k].start), b = (int32_t)(pc[k].b - pc[k].start);
            if (b >= q[0] && a <= q[1]) {
                free(h);
                return i;   /* not outside its line's hull: it may share an arc */
            }
            q[0] = a < q[0] ? a : q[0];
            q[1] = b > q[1] ? b : q[1];
        }
        sum += len;
    }
    free(h);
    *tcd = sum;
    return f->n;
}

/* One tree block's stretch: its line (dimension d, the line's first node) and the members'
 * positions lo..hi along it. */
typedef struct {
    int d;
    int64_t line, lo, hi;
} TreeSpan;

static int cmp_span(const void *pa, const void *pb)
{
    const TreeSpan *a = pa, *b = pb;
    if (a->d != b->d)
        return a->d < b->d ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Block q's stretch into *sp and its summed route length added to *sum; false when the block
 * is not a tree along one line (or a route may go round the other way). */
static bool tree_span(const ArcMap *L, const SchedRule *r, TreeSpan *sp, int64_t *sum)
{
    const Net *net = L->net;
    int32_t base, stride, cf[NET_MAXDIM], cl[NET_MAXDIM];
    int64_t members, half;
    if (!sched_rule_tree(r, &base, &stride, &members, &half))
        return false;
    arcmap_coords(L, base, cf);
    arcmap_coords(L, (int32_t)(base + (int64_t)stride * (members - 1)), cl);
    int d = -1;   /* the one dimension along which the first and last members differ */
    for (int e = 0; e < net->ndim; e++)
        if (cf[e] != cl[e]) {
            if (d >= 0)
                return false;
            d = e;
        }
    /* (then member m is at coordinate cf[d] + c m of that line, none past its end) */
    if (d < 0 || stride % net->stride[d] != 0)
        return false;
    int64_t c = stride / net->stride[d], len = half * (c < 0 ? -c : c);
    if (net_wraps(net) && 2 * len >= net->dims[d])
        return false;
    sp->d = d;
    sp->line = base - (int64_t)cf[d] * net->stride[d];
    sp->lo = cf[d] < cl[d] ? cf[d] : cl[d];
    sp->hi = cf[d] < cl[d] ? cl[d] : cf[d];
    *sum += r->count * len;
    return true;
}

bool arcmap_trees(const ArcMap *L, const Sched *s, int32_t st, int64_t *tcd)
{
    const SchedStep *ss = &s->steps[st];
    if (L->full || ss->n > 0 || ss->nrule < 1)
        return false;
    TreeSpan small[ARCMAP_TREES_MAX], *sp = small;
    if (ss->nrule > ARCMAP_TREES_MAX && !(sp = malloc((size_t)ss->nrule * sizeof *sp)))
        return false;
    int64_t sum = 0;
    bool ok = true;
    for (int32_t q = 0; ok && q < ss->nrule; q++)
        ok = tree_span(L, &ss->more->rule[q], &sp[q], &sum);
    /* no two stretches of one line overlap (stretches that only touch share no arc either:
     * refused all the same): sorted by line and start, each begins past the one before */
    if (ok && ss->nrule > 1) {
        qsort(sp, (size_t)ss->nrule, sizeof *sp, cmp_span);
        for (int32_t q = 1; ok && q < ss->nrule; q++)
            ok = !(sp[q].d == sp[q - 1].d && sp[q].line == sp[q - 1].line &&
                   sp[q].lo <= sp[q - 1].hi);
    }
    if (sp != small)
        free(sp);
    if (ok)
        *tcd = sum;
    return ok;
}
