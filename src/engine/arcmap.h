/* arcmap.h — the simulators' private order of the directed links ("layout"), shared by the
 * lockstep replay (sim-*.c) and the asynchronous timing (sim-async.c); src/engine only.
 *
 * Every (dimension, direction) pair is a block of net_size entries made of contiguous *lines*,
 * one per line of the net along that dimension (row-major over the other coordinates), a link
 * at the position of its tail node in its line.  A straight route segment is then one
 * contiguous range of the layout, or two on a ring/torus when it wraps: a route is at most
 * ARCMAP_MAXPIECES pieces, read and written in a few tight loops.  On a pair net (full:P,
 * hxbar: net_pairwise) a route is the one pair link src * size + dst.
 *
 * The route functions are inline: both simulators call them once or twice per transfer.
 * Ownership: a ArcMap borrows its Net, which must outlive it; it owns nothing (no free). */
#ifndef MESHCAST_ARCMAP_H
#define MESHCAST_ARCMAP_H

#include "net-internal.h"
#include "sched-internal.h"

#include <stdbool.h>
#include <stdint.h>

/* Links a..b (inclusive) of the layout, inside the line that starts at `start` and has n
 * links (pair nets: a = b = start = the pair link, n = 1). */
typedef struct {
    int64_t a, b, start;
    int64_t n;
} ArcPiece;

#define ARCMAP_MAXPIECES (2 * NET_MAXSEG)

typedef struct {
    const Net *net;
    bool full;                 /* pair links (net_pairwise) */
    bool pow2;                 /* every dimension is 2^dshift[d]: coordinates by shifts */
    bool mesh2;                /* a 2-D mesh: default routes by arcmap_mesh2 */
    bool line1;                /* an array or a ring: default routes by arcmap_line1 */
    int lshift;                /* every line starts at a multiple of 2^lshift (so start >>
                                * lshift numbers the lines densely on a power-of-two net) */
    int dshift[NET_MAXDIM];
    int64_t base[NET_MAXDIM][2];              /* first entry of each (dimension, direction) */
    int64_t lstride[NET_MAXDIM][NET_MAXDIM];  /* line of dim d = sum over e != d of c[e]*this */
} ArcMap;

void arcmap_init(ArcMap *L, const Net *net);

/* ArcMap index -> link id (net.h's numbering), and back.  Not for pair nets. */
int64_t arcmap_link(const ArcMap *L, int64_t idx);
int64_t arcmap_index(const ArcMap *L, int64_t link);

/* The coordinates of node u. */
static inline void arcmap_coords(const ArcMap *L, int32_t u, int32_t *c)
{
    const Net *net = L->net;
    if (L->pow2) {   /* every dimension a power of two: shifts and masks, no division */
        for (int d = net->ndim - 1; d >= 0; d--) {
            c[d] = u & (net->dims[d] - 1);
            u >>= L->dshift[d];
        }
        return;
    }
    switch (net->ndim) {
    case 1:
        c[0] = u;
        break;
    case 2:
        c[0] = u / net->dims[1];
        c[1] = u - c[0] * net->dims[1];
        break;
    default: {
        int32_t q = u / net->dims[2];
        c[2] = u - q * net->dims[2];
        c[0] = q / net->dims[1];
        c[1] = q - c[0] * net->dims[1];
        break;
    }
    }
}

/* Signed hops of the default route along one dimension (torus: shorter way, tie +). */
static inline int32_t arcmap_hop(const Net *net, int d, int32_t from, int32_t to)
{
    int32_t o = to - from;
    if (net->kind == NET_RING || net->kind == NET_TORUS) {
        int32_t n = net->dims[d];
        int32_t f = o < 0 ? o + n : o;
        return f <= n - f ? f : f - n;
    }
    return o;
}

/* Append the pieces of a straight segment of len (< the line's length) links from
 * coordinates c along d in direction dir; returns their number (1 or 2). */
static inline int arcmap_seg(const ArcMap *L, const int32_t *c, int d, int dir, int32_t len,
                             ArcPiece *pc)
{
    const Net *net = L->net;
    int32_t n = net->dims[d], p = c[d];
    int64_t line = 0;
    for (int e = 0; e < net->ndim; e++)
        if (e != d)
            line += (int64_t)c[e] * L->lstride[d][e];
    int64_t start = L->base[d][dir < 0] + line * n;
    if (dir > 0) {
        int32_t q = p + len - 1;
        if (q < n) {
            pc[0] = (ArcPiece){ start + p, start + q, start, n };
            return 1;
        }
        pc[0] = (ArcPiece){ start + p, start + n - 1, start, n };
        pc[1] = (ArcPiece){ start, start + q - n, start, n };
        return 2;
    }
    int32_t q = p - len + 1;
    if (q >= 0) {
        pc[0] = (ArcPiece){ start + q, start + p, start, n };
        return 1;
    }
    pc[0] = (ArcPiece){ start, start + p, start, n };
    pc[1] = (ArcPiece){ start + q + n, start + n - 1, start, n };
    return 2;
}

/* The default route on a 2-D mesh (L->mesh2): along the row (dimension 1), then along the
 * column (dimension 0), at most one piece each; what the general loop below gives, without
 * its loops over dimensions. */
static inline int arcmap_mesh2(const ArcMap *L, int32_t src, int32_t dst, ArcPiece *pc,
                               int32_t *len)
{
    const Net *net = L->net;
    int32_t n0 = net->dims[0], n1 = net->dims[1], r0, c0, r1, c1;
    if (L->pow2) {
        r0 = src >> L->dshift[1];
        c0 = src & (n1 - 1);
        r1 = dst >> L->dshift[1];
        c1 = dst & (n1 - 1);
    } else {
        r0 = src / n1;
        c0 = src - r0 * n1;
        r1 = dst / n1;
        c1 = dst - r1 * n1;
    }
    int np = 0;
    if (c0 != c1) {   /* row r0's line of dimension 1 */
        int64_t start = L->base[1][c1 < c0] + (int64_t)r0 * n1;
        pc[np++] = c1 > c0 ? (ArcPiece){ start + c0, start + c1 - 1, start, n1 }
                           : (ArcPiece){ start + c1 + 1, start + c0, start, n1 };
    }
    if (r0 != r1) {   /* column c1's line of dimension 0 */
        int64_t start = L->base[0][r1 < r0] + (int64_t)c1 * n0;
        pc[np++] = r1 > r0 ? (ArcPiece){ start + r0, start + r1 - 1, start, n0 }
                           : (ArcPiece){ start + r1 + 1, start + r0, start, n0 };
    }
    if (len)
        *len = (c1 > c0 ? c1 - c0 : c0 - c1) + (r1 > r0 ? r1 - r0 : r0 - r1);
    return np;
}

/* The default route on an array or a ring (L->line1): a node's number is its coordinate, so
 * the route is one piece of the line (two when a ring's route wraps); what the general loop
 * below gives, without its coordinates and loops. */
static inline int arcmap_line1(const ArcMap *L, int32_t src, int32_t dst, ArcPiece *pc,
                               int32_t *len)
{
    int32_t o = arcmap_hop(L->net, 0, src, dst);
    if (len)
        *len = o < 0 ? -o : o;
    int32_t n = L->net->dims[0];
    if (o > 0) {   /* arcs src..src+o-1 of the + line, the last ones past n at its start */
        int64_t start = L->base[0][0];
        if (src + o <= n) {
            pc[0] = (ArcPiece){ start + src, start + src + o - 1, start, n };
            return 1;
        }
        pc[0] = (ArcPiece){ start + src, start + n - 1, start, n };
        pc[1] = (ArcPiece){ start, start + src + o - 1 - n, start, n };
        return 2;
    }
    if (o < 0) {   /* arcs src+o+1..src of the - line, those below 0 at its end */
        int64_t start = L->base[0][1];
        int32_t q = src + o + 1;
        if (q >= 0) {
            pc[0] = (ArcPiece){ start + q, start + src, start, n };
            return 1;
        }
        pc[0] = (ArcPiece){ start, start + src, start, n };
        pc[1] = (ArcPiece){ start + q + n, start + n - 1, start, n };
        return 2;
    }
    return 0;
}

/* The pieces (at most ARCMAP_MAXPIECES) of the route from src to dst: `route` of s
 * (sched-internal.h), or the default route (dimensions from the last to the first) when it is
 * SCHED_DEFAULT_ROUTE; returns their number, *len (if not NULL) gets the route's length. */
static inline int arcmap_route(const ArcMap *L, const Sched *s, int32_t src, int32_t dst,
                               uint32_t route, ArcPiece *pc, int32_t *len)
{
    const Net *net = L->net;
    if (L->full) {
        int64_t k = (int64_t)src * net->size + dst;
        pc[0] = (ArcPiece){ k, k, k, 1 };
        if (len)
            *len = src != dst;
        return 1;
    }
    if (L->mesh2 && route == SCHED_DEFAULT_ROUTE)
        return arcmap_mesh2(L, src, dst, pc, len);
    if (L->line1 && route == SCHED_DEFAULT_ROUTE)
        return arcmap_line1(L, src, dst, pc, len);
    int32_t c[NET_MAXDIM] = { 0, 0, 0 }, total = 0;
    int np = 0;
    arcmap_coords(L, src, c);
    if (route == SCHED_DEFAULT_ROUTE) {
        int32_t t[NET_MAXDIM] = { 0, 0, 0 };
        arcmap_coords(L, dst, t);
        for (int d = net->ndim - 1; d >= 0; d--) {
            if (c[d] == t[d])
                continue;
            int32_t o = arcmap_hop(net, d, c[d], t[d]);
            int32_t l = o < 0 ? -o : o;
            np += arcmap_seg(L, c, d, o < 0 ? -1 : 1, l, pc + np);
            c[d] = t[d];
            total += l;
        }
    } else {
        const NetSeg *seg = sched_route_segs(s, route);
        uint32_t ns = sched_route_nseg(route);
        for (uint32_t i = 0; i < ns; i++) {
            int d = seg[i].dim;
            int32_t n = net->dims[d], l = seg[i].len;
            np += arcmap_seg(L, c, d, seg[i].dir, l, pc + np);
            int32_t nc = (c[d] + (seg[i].dir > 0 ? l : n - l)) % n;   /* l < n */
            c[d] = nc;
            total += l;
        }
    }
    if (len)
        *len = total;
    return np;
}

/* Whether the routes of the flat step f (a grid's: not for pair nets), in f's order, are shown
 * to share no arc by their order: along each (dimension, direction) block of the layout every
 * piece lies wholly after or wholly before all the pieces of its block before it (outside their
 * hull), so no two pieces of a block share an arc, and blocks do not overlap.  Pieces in
 * increasing order (a binomial tree in node order), in decreasing order (the tree of the far
 * end) or growing outward pass; nothing is written, no memory per arc.  Returns f->n when they
 * do, with *tcd their summed length; else the index of the first transfer with a piece inside
 * the hull (< f->n; *tcd is then unspecified): the caller falls back to another proof. */
int64_t arcmap_sorted(const ArcMap *L, const Sched *s, const SchedFlat *f, int64_t *tcd);

/* arcmap_sorted with a hull per line of the layout instead of per block: every piece lies
 * wholly after or wholly before the pieces of its own line before it (pieces on different
 * lines share no arc).  A step of several lines at once in node order passes (rh's exchanges
 * of one hop along columns: row 0 goes down to row 1, row 2 to row 3, ...: each column line
 * sees its pieces in increasing order, while its block's hull is already past them).  Costs
 * an array of arcmap_nlines(L) hulls (8 bytes each, made and freed per call).  Returns as
 * arcmap_sorted does; 0 when memory runs out. */
int64_t arcmap_sorted_lines(const ArcMap *L, const Sched *s, const SchedFlat *f, int64_t *tcd);
/* A bound on the number of lines of the layout (for arcmap_sorted_lines' array). */
int64_t arcmap_nlines(const ArcMap *L);

/* Whether step st of s is made of tree blocks only (sched_send_tree; no stored transfers; any
 * number of blocks: st's column phase on a mesh has one per column) whose routes share no
 * arc, shown from the blocks' parameters alone (no transfer read): each block's members lie along one line of the net, spaced evenly,
 * and its transfers join members half apart, each pair inside an aligned run of 2 half members
 * of its own, so each route stays inside its run's stretch of the line (a ring's or torus's
 * route must be shorter than half the line, so that it cannot go round the other way), and no
 * two blocks' stretches on one line overlap.  *tcd gets the summed length.  False otherwise
 * (the caller tries arcmap_sorted).  Not for pair nets. */
#define ARCMAP_TREES_MAX 64   /* (blocks whose stretches fit on the stack; more: malloc) */
bool arcmap_trees(const ArcMap *L, const Sched *s, int32_t st, int64_t *tcd);

/* The length of that route, without its pieces. */
static inline int32_t arcmap_len(const ArcMap *L, const Sched *s, int32_t src, int32_t dst,
                                 uint32_t route)
{
    if (route != SCHED_DEFAULT_ROUTE) {
        const NetSeg *seg = sched_route_segs(s, route);
        uint32_t ns = sched_route_nseg(route);
        int32_t total = 0;
        for (uint32_t i = 0; i < ns; i++)
            total += seg[i].len;
        return total;
    }
    const Net *net = L->net;
    if (L->full)
        return src != dst;
    if (net->ndim == 1) {   /* an array or a ring: a node's number is its coordinate */
        int32_t o = arcmap_hop(net, 0, src, dst);
        return o < 0 ? -o : o;
    }
    int32_t c[NET_MAXDIM] = { 0, 0, 0 }, t[NET_MAXDIM] = { 0, 0, 0 }, total = 0;
    arcmap_coords(L, src, c);
    arcmap_coords(L, dst, t);
    for (int d = 0; d < net->ndim; d++) {
        int32_t o = arcmap_hop(net, d, c[d], t[d]);
        total += o < 0 ? -o : o;
    }
    return total;
}

#endif
