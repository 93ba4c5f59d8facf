/* saftrees.c — the store-and-forward row of Peters & Syska's Table 1 ("saf-trees"): the
 * message cut in four, each quarter pipelined in packets of B bytes down its own spanning tree
 * of the torus, the four trees rooted at the source and pairwise arc-disjoint, every transfer
 * one hop (d = 1).  Every X x Y torus with X, Y >= 3 (below 3 a ring's two arcs between the
 * same pair of nodes are not two different neighbours), from any source.
 *
 * The trees (offsets from the source; "row" = dimension 0, "column" = dimension 1).  One
 * pattern turned by 90 degrees four times: tree (a, sa, b, sb) has a spine from the source
 * along dimension a in direction sa (size_a - 1 hops, one way round), and from every spine
 * node but the source a rib along dimension b in direction sb (size_b - 1 hops).  The
 * source's own rib would run on the spine of the next tree, so it is the fix-up: a node on the
 * source's b-line (a-offset 0, b-offset w != 0) gets the packet over one hop in direction sa
 * from the last rib's node (a-offset -sa, the same w).  The four trees:
 *     quarter 0: spine +column (east),  ribs +row (north)
 *     quarter 1: spine +row (north),    ribs -column (west)
 *     quarter 2: spine -column (west),  ribs -row (south)
 *     quarter 3: spine -row (south),    ribs +column (east)
 * Arc-disjoint: the east arcs are quarter 0's on the source's row and into the source's
 * column, quarter 3's elsewhere (the arcs into the source's column are exactly the ones
 * quarter 3's ribs never use, the last hop of a ring being left out); likewise north (0's
 * ribs, 1's spine and fix-up), west (2, 1) and south (3, 2).  Every node but the source uses
 * all four of its in-arcs, one per tree; the four arcs into the source are the only idle ones.
 * The simulator checks it (max arc load 1) on every torus of the tests.
 *
 * Depth: a node at spine position u, rib position w is at level u + w; the fix-up nodes at
 * size_a + w; so every tree has exactly X + Y - 1 levels, twice the diameter (X/2 + Y/2):
 * one-way rings make it simple and arc-disjoint, at the price of the start-ups (a depth near
 * the diameter would need both directions of a ring in one tree, and the ring's other
 * direction in another tree from the far side).  Pipelined like htree (phases.h): packet p of
 * every quarter crosses level i in step p + i - 1, X + Y - 2 + P steps of alpha + delta +
 * B tau.  B=auto: the B minimising T(B) = (X + Y - 2 + L/(4B)) (alpha + delta + B tau),
 * B_opt = sqrt((alpha + delta) L / (4 (X + Y - 2) tau)); as L grows the L*tau count tends to
 * 1/4, Table 1's L tau / 4.  predict: the flow shop of pipeline.h over X + Y - 1 stages of one
 * hop and four trees (async), each step's costliest circuit (lockstep).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "phases.h"
#include "pipeline.h"

static const AlgoParam saf_params[] = {
    {"B", ALGO_AUTO, ALGO_AUTO, 1e18, "bytes per packet of each quarter (auto, the default: B_opt; 0: one packet)"},
};

/* The four trees: spine dimension and direction, rib dimension and direction. */
static const int8_t tree_pat[4][4] = {
    { 1, 1, 0, 1 }, { 0, 1, 1, -1 }, { 1, -1, 0, -1 }, { 0, -1, 1, 1 },
};

static bool saf_net_ok(const Net *net)
{
    return net_kind(net) == NET_TORUS && net_ndim(net) == 2 && net_dim(net, 0) >= 3 &&
           net_dim(net, 1) >= 3;
}

/* Levels of every tree: X + Y - 1. */
static int64_t saf_depth(const Net *net)
{
    return (int64_t)net_dim(net, 0) + net_dim(net, 1) - 1;
}

static double saf_B(const Net *net, const AlgoArgs *a);

static bool saf_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen)
{
    if (!peters_B_ok(d, a, err, errlen))
        return false;
    if (!saf_net_ok(net)) {
        snprintf(err, errlen,
                 "%s runs on 2-D tori X x Y with X, Y >= 3 (four arc-disjoint spanning trees "
                 "need four different neighbours), not on %s",
                 d->name, net_spec(net));
        return false;
    }
    return peters_work_ok(d, net, a, a->bytes / 4 ? a->bytes / 4 : 1, saf_B(net, a), 4, err,
                          errlen);
}

static double saf_B(const Net *net, const AlgoArgs *a)
{
    double B = a->param[0];
    if (B != ALGO_AUTO)
        return B;
    const CostParams *p = &a->cost;
    if (!(p->tau > 0))
        return 0;
    return sqrt((p->alpha + p->delta) * (double)a->bytes /
                (4.0 * (double)(saf_depth(net) - 1) * p->tau));
}

static uint32_t saf_packets(const Net *net, const AlgoArgs *a)
{
    return peters_packets(a->bytes / 4 ? a->bytes / 4 : 1, saf_B(net, a));
}

static uint32_t saf_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    return 4 * saf_packets(net, a);
}

/* The node at a-offset sa*u, b-offset sb*w from the source (c: the source's coordinates). */
static int32_t at(const Net *net, const int32_t *c, const int8_t *pat, int64_t u, int64_t w)
{
    int32_t x[2];
    int a = pat[0], b = pat[2];
    int64_t A = net_dim(net, a), B = net_dim(net, b);
    x[a] = (int32_t)(((c[a] + pat[1] * u) % A + A) % A);
    x[b] = (int32_t)(((c[b] + pat[3] * w) % B + B) % B);
    return net_id(net, x);
}

/* Add tree q's edges into level lv (the nodes at depth lv, each from its parent). */
static bool tree_level(PetersTree *t, const Net *net, const int32_t *c, int q, int64_t lv)
{
    const int8_t *pat = tree_pat[q];
    int64_t A = net_dim(net, pat[0]), B = net_dim(net, pat[2]);
    NetSeg spine = { pat[0], pat[1], 1 }, rib = { pat[2], pat[3], 1 };
    if (lv < A && peters_tree_edge(t, net, at(net, c, pat, lv - 1, 0), &spine, 1, q) < 0)
        return false;
    int64_t lo = lv - (B - 1) > 1 ? lv - (B - 1) : 1, hi = lv - 1 < A - 1 ? lv - 1 : A - 1;
    for (int64_t u = lo; u <= hi; u++)
        if (peters_tree_edge(t, net, at(net, c, pat, u, lv - u - 1), &rib, 1, q) < 0)
            return false;
    int64_t w = lv - A;   /* the fix-up: the source's b-line, from the last rib */
    if (w >= 1 && w <= B - 1 &&
        peters_tree_edge(t, net, at(net, c, pat, A - 1, w), &spine, 1, q) < 0)
        return false;
    return true;
}

static bool saf_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int32_t c[NET_MAXDIM];
    net_coords(net, a->source, c);
    PetersTree t;
    peters_tree_init(&t);
    int64_t D = saf_depth(net);
    bool ok = true;
    for (int64_t lv = 1; ok && lv <= D; lv++) {
        ok = peters_tree_level(&t);
        for (int q = 0; ok && q < 4; q++)
            ok = tree_level(&t, net, c, q, lv);
    }
    if (!ok)
        sched_fail(s, "out of memory");
    ok = ok && peters_tree_emit(s, &t, sched_nchunks(s) / 4, "saf-trees");
    peters_tree_free(&t);
    return ok;
}

static bool saf_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                        double *total)
{
    (void)d;
    if (p->model != COST_CIRCUIT || !saf_net_ok(net))
        return false;
    int64_t D = saf_depth(net);
    int64_t *len = malloc(sizeof *len * (size_t)D);
    if (!len)
        return false;
    for (int64_t i = 0; i < D; i++)
        len[i] = 1;
    *total = peters_pipe_time(p, a->async, len, (int)D, a->bytes, saf_packets(net, a), 4);
    free(len);
    return !isnan(*total);
}

const AlgoDef algo_saf_trees = {
    .name = "saf-trees",
    .summary = "store-and-forward (d = 1): quarters pipelined down four arc-disjoint trees (B)",
    .ref = "Peters & Syska, Table 1, store-and-forward row (sqrt(N) alpha, L tau / 4)",
    .nets = 1u << NET_TORUS,
    .flags = 0,
    .params = saf_params,
    .nparams = 1,
    .fits = saf_fits,
    .nchunks = saf_nchunks,
    .build = saf_build,
    .predict = saf_predict,
};
