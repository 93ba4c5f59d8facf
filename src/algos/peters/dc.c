/* dc.c — Peters & Syska Section 5: divide and conquer on 2^k x 2^k tori ("dc"), k >= 2,
 * pipelined with packets of B bytes.
 *
 * Phases 1..k-1: every node informed in the phase before (the source for phase 1) sends to
 * (x+-l, y+-l), l = 2^(k-i-1), along four L-shaped routes that are one route turned by 90
 * degrees each time ((+l,+l): l along rows (dimension 0) then l along columns; (+l,-l): -l
 * along columns then +l along rows; ...; decided by us: the paper only draws Fig. 8).  After
 * phase k-1 the nodes informed in it are exactly the (odd, odd) ones relative to the source.
 * Phase k (Fig. 7): every (odd, odd) node sends to its four neighbours, except that for every
 * still uninformed (even, even) node e one of the redundant sends of a diagonal neighbour o of
 * e (a neighbour m of o that o's opposite partner across m informs too) is extended through m
 * to e: two hops.  Among the eight such paths to e (four informers, two legs first) we take
 * the first, in the order (informer below-right, below-left, above-right, above-left; rows
 * leg first, then columns leg first), whose arcs no circuit of any phase uses, the greedy
 * choice in node order (decided by us: the paper says "there is always at least one usable
 * path" and leaves the choice open).  The whole tree is then arc-disjoint — the tests check it
 * with circuit_tree_shared for every k they run, and the build fails, naming e, if the greedy
 * choice ever finds no free path.
 *
 * Pipelining: B bytes per packet (--set B=N; 0, the default: one packet; B=auto: the paper's
 * B_opt = sqrt((alpha + 2^(k-1) delta) L / ((k-1) tau)), rounded to a whole number of
 * packets).  Packet p runs phase i at step p + i - 1, so k + P - 1 steps.  The paper's
 * T(B) = k alpha + 2^k delta + k B tau + (L/B - 1)(alpha + 2^(k-1) delta + B tau) is the
 * asynchronous time (each packet leaves as soon as its arcs are free); in lockstep every step
 * costs its longest phase, which is what `predicted` gives for P > 1 (lockstep), and T(B) for
 * P = 1 (where they agree).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "phases.h"
#include "pipeline.h"

static const AlgoParam dc_params[] = {
    {"B", 0, ALGO_AUTO, 1e18, "bytes per packet (0: the whole message; auto: the paper's B_opt)"},
};

static int dc_k(const Net *net)
{
    if (net_kind(net) != NET_TORUS || net_ndim(net) != 2 || net_dim(net, 0) != net_dim(net, 1))
        return -1;
    int k = algo_log2(net_dim(net, 0));
    return k >= 2 ? k : -1;
}

static double dc_B(const Net *net, const AlgoArgs *a);

static bool dc_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    if (!peters_B_ok(d, a, err, errlen))
        return false;
    if (dc_k(net) < 0) {
        snprintf(err, errlen, "%s runs on 2^k x 2^k tori, k >= 2 (4x4, 8x8, ...), not on %s",
                 d->name, net_spec(net));
        return false;
    }
    return peters_work_ok(d, net, a, a->bytes, dc_B(net, a), 1, err, errlen);
}

/* B_opt of the paper, or the B asked for. */
static double dc_B(const Net *net, const AlgoArgs *a)
{
    double B = a->param[0];
    if (B != ALGO_AUTO)
        return B;
    int k = dc_k(net);
    const CostParams *p = &a->cost;
    if (!(p->tau > 0))
        return 0;
    return sqrt((p->alpha + ldexp(1, k - 1) * p->delta) * (double)a->bytes /
                ((k - 1) * p->tau));
}

static uint32_t dc_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    return peters_packets(a->bytes, dc_B(net, a));
}

static int32_t at(const Net *net, int32_t v, int32_t dr, int32_t dc)
{
    return net_neighbor(net, net_neighbor(net, v, 0, dr), 1, dc);
}

#define BIT(u, l) ((u)[(l) >> 3] & (1u << ((l) & 7)))
#define SETBIT(u, l) ((u)[(l) >> 3] |= (uint8_t)(1u << ((l) & 7)))

static void mark_route(const Net *net, uint8_t *used, int32_t v, const NetSeg *seg, int nseg)
{
    for (int g = 0; g < nseg; g++)
        for (int32_t h = 0; h < seg[g].len; h++) {
            int64_t l = net_link(net, v, seg[g].dim, seg[g].dir);
            SETBIT(used, l);
            v = net_neighbor(net, v, seg[g].dim, seg[g].dir);
        }
}

/* The tree of the broadcast (phases as levels). */
static bool dc_tree(Sched *s, int32_t source, PetersTree *t)
{
    const Net *net = sched_net(s);
    int k = dc_k(net);
    int32_t n = net_size(net), side = net_dim(net, 0);
    uint8_t *used = calloc((size_t)(net_nlinks(net) + 7) / 8, 1);
    int8_t *state = calloc((size_t)n, 1);      /* phase that informed the node; -1 source */
    uint8_t *redir = calloc((size_t)n, 1);     /* bit per out-port (dim*2 + (dir<0)) */
    int32_t *target = malloc(sizeof *target * (size_t)n * 4);   /* redirected port -> e */
    bool ok = used && state && redir && target;
    if (!ok)
        goto oom;
    state[source] = -1;
    int64_t from = 0;   /* the senders of a phase: the edges of the level before */
    for (int i = 1; i <= k - 1 && ok; i++) {
        int32_t l = (int32_t)1 << (k - i - 1);
        int64_t lo = from, hi = t->n;
        ok = peters_tree_level(t);
        int64_t nsend = i == 1 ? 1 : hi - lo;
        for (int64_t j = 0; j < nsend && ok; j++) {
            int32_t v = i == 1 ? source : t->e[lo + j].dst;
            NetSeg r[4][2] = {
                { { 0, 1, l }, { 1, 1, l } },
                { { 1, -1, l }, { 0, 1, l } },
                { { 0, -1, l }, { 1, -1, l } },
                { { 1, 1, l }, { 0, -1, l } },
            };
            for (int q = 0; q < 4 && ok; q++) {
                int32_t w = peters_tree_edge(t, net, v, r[q], 2, 0);
                ok = w >= 0;
                if (ok) {
                    state[w] = (int8_t)i;
                    mark_route(net, used, v, r[q], 2);
                }
            }
        }
        from = i == 1 ? 0 : hi;
        if (i == 1)
            from = 0;
    }
    if (!ok)
        goto oom;
    /* phase k: the (odd, odd) nodes relative to the source */
    int32_t sc[2];
    net_coords(net, source, sc);
    for (int32_t v = 0; v < n && ok; v++) {
        int32_t c[2];
        net_coords(net, v, c);
        int32_t x = ((c[0] - sc[0]) % side + side) % side, y = ((c[1] - sc[1]) % side + side) % side;
        if ((x & 1) || (y & 1) || state[v] != 0)
            continue;
        /* e = v uninformed (even, even): a free two-hop path from a diagonal informer */
        static const int sx[4] = { 1, 1, -1, -1 }, sy[4] = { 1, -1, 1, -1 };
        bool found = false;
        for (int q = 0; q < 8 && !found; q++) {
            int a = q >> 1, rowsfirst = !(q & 1);
            int32_t o = at(net, v, sx[a], sy[a]);
            int d1 = rowsfirst ? 0 : 1;                   /* the first leg's dimension */
            int dir1 = rowsfirst ? -sx[a] : -sy[a];
            int dir2 = rowsfirst ? -sy[a] : -sx[a];
            int32_t m = net_neighbor(net, o, d1, dir1);
            int32_t o2 = net_neighbor(net, m, d1, dir1);  /* m's other informer */
            int port = d1 * 2 + (dir1 < 0), port2 = d1 * 2 + (-dir1 < 0);
            int64_t a1 = net_link(net, o, d1, dir1), a2 = net_link(net, m, 1 - d1, dir2);
            if ((redir[o] >> port) & 1 || (redir[o2] >> port2) & 1 || BIT(used, a1) ||
                BIT(used, a2))
                continue;
            redir[o] |= (uint8_t)(1u << port);
            target[(int64_t)o * 4 + port] = v;
            SETBIT(used, a2);
            found = true;
        }
        if (!found) {
            char nm[48];
            sched_fail(s, "dc: no arc-disjoint path to %s in the last phase",
                       net_node_name(net, v, nm, sizeof nm));
            ok = false;
        }
    }
    if (ok) {
        int64_t lo = from, hi = t->n;
        ok = peters_tree_level(t);
        for (int64_t j = lo; j < hi && ok; j++) {
            int32_t o = t->e[j].dst;
            for (int port = 0; port < 4 && ok; port++) {
                int dim = port >> 1, dir = (port & 1) ? -1 : 1;
                NetSeg r[2] = { { (int8_t)dim, (int8_t)dir, 1 }, { 0, 0, 0 } };
                int nseg = 1;
                if ((redir[o] >> port) & 1) {
                    int32_t e = target[(int64_t)o * 4 + port];
                    int32_t m = net_neighbor(net, o, dim, dir);
                    /* the second leg: along the other dimension, towards e */
                    int dir2 = net_neighbor(net, m, 1 - dim, 1) == e ? 1 : -1;
                    r[1] = (NetSeg){ (int8_t)(1 - dim), (int8_t)dir2, 1 };
                    nseg = 2;
                }
                ok = peters_tree_edge(t, net, o, r, nseg, 0) >= 0;
            }
        }
        if (!ok)
            goto oom;
    }
    free(used);
    free(state);
    free(redir);
    free(target);
    return ok;
oom:
    if (!sched_error(s))
        sched_fail(s, "out of memory");
    free(used);
    free(state);
    free(redir);
    free(target);
    return false;
}

static bool dc_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    PetersTree t;
    peters_tree_init(&t);
    bool ok = dc_tree(s, a->source, &t) && peters_tree_emit(s, &t, sched_nchunks(s), "dc");
    peters_tree_free(&t);
    return ok;
}

/* The phases' lengths are 2^(k-i) (i < k) and 2 (phase k): pipeline.h prices the packets,
 * of unequal sizes too (when P does not divide L). */
static bool dc_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    (void)d;
    int k = dc_k(net);
    if (p->model != COST_CIRCUIT || k < 0)
        return false;
    uint32_t P = peters_packets(a->bytes, dc_B(net, a));
    int64_t len[64];   /* k <= 12 on a net of at most 2^24 nodes */
    for (int i = 1; i <= k; i++)
        len[i - 1] = i < k ? (INT64_C(1) << (k - i)) : 2;
    /* async: the paper's T(B) (pipeline.h's flow shop, equal to it when P divides L);
     * lockstep: every step its costliest circuit */
    *total = peters_pipe_time(p, a->async, len, k, a->bytes, P, 1);
    return !isnan(*total);
}

const AlgoDef algo_dc = {
    .name = "dc",
    .summary = "circuit-switched divide and conquer, arc-disjoint tree, pipelined (B)",
    .ref = "Peters & Syska, Section 5, Figs. 7-8, T(B)",
    .nets = 1u << NET_TORUS,
    .flags = 0,
    .params = dc_params,
    .nparams = 1,
    .fits = dc_fits,
    .nchunks = dc_nchunks,
    .build = dc_build,
    .predict = dc_predict,
};
