/* lastphase.c — the last phase of a tree broadcast: lastphase.h. */
#include "lastphase.h"

#include <stdlib.h>

/* Neighbour sides, in the order routes are tried: up, down, left, right. */
static const int side_dim[4] = { 0, 0, 1, 1 }, side_dir[4] = { -1, 1, -1, 1 };

/* A route into v: its last hop comes from v's neighbour w on side q1; a two-hop route's first
 * hop comes into w from w's neighbour u on side q2 (q2 = -1: one hop, u = w). */
typedef struct {
    int8_t q1, q2;
} Route;

/* How deep one demand's eviction chain may go, and how many demands one search may visit:
 * bounds on the work (the stack stays small and a hopeless demand costs little). */
#define LP_MAXDEPTH 128
#define LP_MAXVISIT 4096

typedef struct {
    const Net *net;
    const uint8_t *has, *used;
    int maxhops;
    int64_t ndem;
    int32_t *dv;        /* demand d: node dv[d], sub-message dm[d] */
    uint8_t *dm;
    Route *as;          /* the route demand d holds (q1 < 0: none) */
    int32_t *owner;     /* per arc: the demand whose route uses it, -1 */
    int32_t *stamp;     /* per demand: the search that visited it last */
    int32_t search;
    int64_t visits;
} Ctx;

static bool is_used(const uint8_t *used, int64_t arc)
{
    return (used[arc >> 3] >> (arc & 7)) & 1;
}

/* The routes into demand d's node, in order; arcs[r][0..1] their arcs (the last hop first). */
static int routes(const Ctx *c, int64_t d, Route *r, int64_t (*arcs)[2])
{
    int32_t v = c->dv[d];
    int m = c->dm[d], n = 0;
    for (int hops = 1; hops <= c->maxhops; hops++)
        for (int q1 = 0; q1 < 4; q1++) {
            int32_t w = net_neighbor(c->net, v, side_dim[q1], side_dir[q1]);
            int64_t a1 = net_link(c->net, w, side_dim[q1], -side_dir[q1]);
            if (is_used(c->used, a1))
                continue;
            if (hops == 1) {
                if ((c->has[w] >> m) & 1) {
                    r[n] = (Route){ (int8_t)q1, -1 };
                    arcs[n][0] = a1, arcs[n][1] = -1;
                    n++;
                }
                continue;
            }
            for (int q2 = 0; q2 < 4; q2++) {
                int32_t u = net_neighbor(c->net, w, side_dim[q2], side_dir[q2]);
                if (u == v || !((c->has[u] >> m) & 1))
                    continue;
                int64_t a0 = net_link(c->net, u, side_dim[q2], -side_dir[q2]);
                if (a0 == a1 || is_used(c->used, a0))
                    continue;
                r[n] = (Route){ (int8_t)q1, (int8_t)q2 };
                arcs[n][0] = a1, arcs[n][1] = a0;
                n++;
            }
        }
    return n;
}

static void take(Ctx *c, int64_t d, Route r, const int64_t *arcs)
{
    c->as[d] = r;
    for (int i = 0; i < 2 && arcs[i] >= 0; i++)
        c->owner[arcs[i]] = (int32_t)d;
}

static void give_back(Ctx *c, int64_t d, const int64_t *arcs)
{
    c->as[d].q1 = -1;
    for (int i = 0; i < 2 && arcs[i] >= 0; i++)
        c->owner[arcs[i]] = -1;
}

/* The arcs of the route demand d holds. */
static void held_arcs(const Ctx *c, int64_t d, int64_t *arcs)
{
    Route r = c->as[d];
    int32_t v = c->dv[d];
    int32_t w = net_neighbor(c->net, v, side_dim[r.q1], side_dir[r.q1]);
    arcs[0] = net_link(c->net, w, side_dim[r.q1], -side_dir[r.q1]);
    arcs[1] = -1;
    if (r.q2 >= 0) {
        int32_t u = net_neighbor(c->net, w, side_dim[r.q2], side_dir[r.q2]);
        arcs[1] = net_link(c->net, u, side_dim[r.q2], -side_dir[r.q2]);
    }
}

/* Find demand d a route, evicting one other demand and re-routing it if need be. */
static bool augment(Ctx *c, int64_t d, int depth)
{
    if (depth > LP_MAXDEPTH || ++c->visits > LP_MAXVISIT)
        return false;
    c->stamp[d] = c->search;
    Route r[16];
    int64_t arcs[16][2];
    int nr = routes(c, d, r, arcs);
    for (int i = 0; i < nr; i++) {
        int32_t e = -1;
        int nconf = 0;
        for (int j = 0; j < 2 && arcs[i][j] >= 0; j++) {
            int32_t o = c->owner[arcs[i][j]];
            if (o >= 0 && o != e) {
                e = o;
                nconf++;
            }
        }
        if (nconf == 0) {
            take(c, d, r[i], arcs[i]);
            return true;
        }
        if (nconf > 1 || c->stamp[e] == c->search)
            continue;
        int64_t earcs[2];
        held_arcs(c, e, earcs);
        Route er = c->as[e];
        give_back(c, e, earcs);
        take(c, d, r[i], arcs[i]);
        if (augment(c, e, depth + 1))
            return true;
        give_back(c, d, arcs[i]);
        take(c, e, er, earcs);
    }
    return false;
}

/* The first free route of demand d, or -1. */
static int first_free(const Ctx *c, const Route *r, int64_t (*arcs)[2], int nr)
{
    for (int i = 0; i < nr; i++)
        if (c->owner[arcs[i][0]] < 0 && (arcs[i][1] < 0 || c->owner[arcs[i][1]] < 0))
            return i;
    (void)r;
    return -1;
}

static bool emit(const Ctx *c, PetersTree *t, uint8_t *has, uint8_t *used, LastPhase *out)
{
    for (int64_t d = 0; d < c->ndem; d++) {
        Route r = c->as[d];
        if (r.q1 < 0) {
            out->left++;
            continue;
        }
        int32_t v = c->dv[d];
        int32_t w = net_neighbor(c->net, v, side_dim[r.q1], side_dir[r.q1]);
        NetSeg seg[2];
        int nseg = 0;
        int32_t u = w;
        if (r.q2 >= 0) {
            u = net_neighbor(c->net, w, side_dim[r.q2], side_dir[r.q2]);
            seg[nseg++] = (NetSeg){ (int8_t)side_dim[r.q2], (int8_t)-side_dir[r.q2], 1 };
        }
        seg[nseg++] = (NetSeg){ (int8_t)side_dim[r.q1], (int8_t)-side_dir[r.q1], 1 };
        if (nseg == 2 && seg[0].dim == seg[1].dim && seg[0].dir == seg[1].dir) {
            seg[0].len = 2;   /* straight on: one piece of two hops */
            nseg = 1;
        }
        if (peters_tree_edge(t, c->net, u, seg, nseg, c->dm[d]) < 0)
            return false;
        int hops = r.q2 >= 0 ? 2 : 1;
        if (hops > out->maxhops)
            out->maxhops = hops;
    }
    for (int64_t d = 0; d < c->ndem; d++)
        if (c->as[d].q1 >= 0) {
            int64_t arcs[2];
            held_arcs(c, d, arcs);
            for (int i = 0; i < 2 && arcs[i] >= 0; i++)
                used[arcs[i] >> 3] |= (uint8_t)(1u << (arcs[i] & 7));
            has[c->dv[d]] |= (uint8_t)(1u << c->dm[d]);
        }
    return true;
}

bool peters_last_phase(const Net *net, PetersTree *t, uint8_t *has, uint8_t *used, int maxhops,
                       LastPhase *out)
{
    int32_t n = net_size(net);
    int64_t nl = net_nlinks(net);
    *out = (LastPhase){ 0, 0 };
    Ctx c = { .net = net, .has = has, .used = used, .maxhops = maxhops };
    for (int32_t v = 0; v < n; v++)
        c.ndem += (has[v] & 1) == 0;
    for (int32_t v = 0; v < n; v++)
        c.ndem += (has[v] & 2) == 0;
    c.dv = malloc(sizeof *c.dv * (size_t)(c.ndem ? c.ndem : 1));
    c.dm = malloc((size_t)(c.ndem ? c.ndem : 1));
    c.as = malloc(sizeof *c.as * (size_t)(c.ndem ? c.ndem : 1));
    c.stamp = calloc((size_t)(c.ndem ? c.ndem : 1), sizeof *c.stamp);
    c.owner = malloc(sizeof *c.owner * (size_t)nl);
    bool ok = c.dv && c.dm && c.as && c.stamp && c.owner;
    if (ok) {
        int64_t d = 0;
        for (int32_t v = 0; v < n; v++)
            for (int m = 0; m < 2; m++)
                if (!((has[v] >> m) & 1)) {
                    c.dv[d] = v, c.dm[d] = (uint8_t)m;
                    c.as[d++].q1 = -1;
                }
        for (int64_t i = 0; i < nl; i++)
            c.owner[i] = -1;
        for (d = 0; d < c.ndem; d++) {
            Route r[16];
            int64_t arcs[16][2];
            int nr = routes(&c, d, r, arcs);
            int i = first_free(&c, r, arcs, nr);
            if (i >= 0) {
                take(&c, d, r[i], arcs[i]);
                continue;
            }
            c.search++;
            c.visits = 0;
            augment(&c, d, 0);
        }
        ok = emit(&c, t, has, used, out);
    }
    free(c.dv);
    free(c.dm);
    free(c.as);
    free(c.stamp);
    free(c.owner);
    if (!ok)
        out->left = -1;
    return ok;
}
