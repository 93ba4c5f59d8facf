/* htree.c — Peters & Syska Section 5: two arc-disjoint H-trees on (2^k - 1) x (2^k - 1) tori
 * ("htree"), k >= 2, the message split into X and Y, pipelined with packets of B bytes.
 *
 * An H-tree of side 2^j - 1 around a centre c with first orientation o: c sends to
 * c +- 2^(j-2) along o (the H's crossbar), each of those to +- 2^(j-2) along the other
 * dimension (its uprights, ending at the centres of the four quadrants of side 2^(j-1) - 1),
 * and each quadrant centre roots an H-tree of side 2^(j-1) - 1 with the same first
 * orientation; side 1 is a single node.  Orientation alternates level by level, 2k - 2 levels.
 * The tree whose first level is vertical (dimension 0) carries X, the other (horizontal first)
 * Y: "during odd phases X travels vertically and Y horizontally", and the source sends X and Y
 * at once.  Both trees start at the source; they are arc-disjoint (checked by the tests).
 *
 * Final phase (level 2k - 1): a node that lacks X or Y after the trees gets it over one hop
 * from a neighbour that holds it, on an arc no tree uses, a different neighbour for X and for Y
 * (per node the choice is independent of every other node's: the arc u->v serves only v).
 * The report says "every node that is not informed by the H-tree has two informed neighbours,
 * so one more phase [of one hop] is sufficient".  We check it while building: if some node
 * had no such neighbour the build adds a second final phase for it and says so in the step
 * label ("htree (extra phase)").  From k = 4 on it is needed (docs/errata.md: some nodes of the
 * central cross have no informed neighbour), and the time is the paper's T(B) plus
 * alpha + delta + B tau: `predicted` stays the paper's T(B), with that note (predict_note).
 * Neighbours are tried in the order up, down, left, right (decided by us; any works).
 *
 * Pipelining: B bytes per packet (--set B=N; 0: X and Y each one packet; B=auto: the paper's
 * B_opt = sqrt((alpha + 2^(k-2) delta) L / (4 (k-1) tau))).  X and Y are P packets each
 * (chunks 0..P-1 and P..2P-1).  Under --timing async the cost is the paper's T(B) =
 * (2k-1) alpha + (2^k - 1) delta + (2k-1) B tau + (L/(2B) - 1)(alpha + 2^(k-2) delta + B tau).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "phases.h"
#include "pipeline.h"

static const AlgoParam htree_params[] = {
    {"B", 0, ALGO_AUTO, 1e18, "bytes per packet of X and Y (0: one packet each; auto: B_opt)"},
};

static int htree_k(const Net *net)
{
    if (net_kind(net) != NET_TORUS || net_ndim(net) != 2 || net_dim(net, 0) != net_dim(net, 1))
        return -1;
    int k = algo_log2((int64_t)net_dim(net, 0) + 1);
    return k >= 2 ? k : -1;
}

static bool htree_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                       size_t errlen)
{
    if (!peters_B_ok(d, a, err, errlen))
        return false;
    if (htree_k(net) < 0) {
        snprintf(err, errlen,
                 "%s runs on (2^k-1) x (2^k-1) tori, k >= 2 (3x3, 7x7, 15x15, 31x31), not on %s",
                 d->name, net_spec(net));
        return false;
    }
    return true;
}

static double htree_B(const Net *net, const AlgoArgs *a)
{
    double B = a->param[0];
    if (B != ALGO_AUTO)
        return B;
    int k = htree_k(net);
    const CostParams *p = &a->cost;
    if (!(p->tau > 0))
        return 0;
    return sqrt((p->alpha + ldexp(1, k - 2) * p->delta) * (double)a->bytes /
                (4.0 * (k - 1) * p->tau));
}

static uint32_t htree_packets(const Net *net, const AlgoArgs *a)
{
    return peters_packets(a->bytes / 2 ? a->bytes / 2 : 1, htree_B(net, a));
}

static uint32_t htree_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    return 2 * htree_packets(net, a);
}

/* One final phase: every node lacking a sub-message gets it from a neighbour holding it over
 * an arc no circuit uses yet.  has[v] bit m: v holds sub-message m; `used` one bit per arc.
 * Returns the number of demands left unserved, or -1 (no memory). */
static int64_t final_phase(const Net *net, PetersTree *t, uint8_t *has, uint8_t *used,
                           uint8_t *got)
{
    int32_t n = net_size(net);
    int64_t left = 0;
    static const int dims[4] = { 0, 0, 1, 1 }, dirs[4] = { -1, 1, -1, 1 };
    for (int32_t v = 0; v < n; v++) {
        got[v] = 0;
        int taken = 0;   /* bit per neighbour direction used for v */
        for (int m = 0; m < 2; m++) {
            if ((has[v] >> m) & 1)
                continue;
            bool done = false;
            for (int q = 0; q < 4 && !done; q++) {
                if ((taken >> q) & 1)
                    continue;
                /* the neighbour on side q sends towards v: direction -dirs[q] */
                int32_t u = net_neighbor(net, v, dims[q], dirs[q]);
                int64_t arc = net_link(net, u, dims[q], -dirs[q]);
                if (!((has[u] >> m) & 1) || (used[arc >> 3] >> (arc & 7)) & 1)
                    continue;
                NetSeg seg = { (int8_t)dims[q], (int8_t)-dirs[q], 1 };
                if (peters_tree_edge(t, net, u, &seg, 1, m) < 0)
                    return -1;
                used[arc >> 3] |= (uint8_t)(1u << (arc & 7));
                taken |= 1 << q;
                got[v] |= (uint8_t)(1u << m);
                done = true;
            }
            if (!done)
                left++;
        }
    }
    for (int32_t v = 0; v < n; v++)
        has[v] |= got[v];
    return left;
}

static bool htree_tree(Sched *s, int32_t source, PetersTree *t, int *extra)
{
    const Net *net = sched_net(s);
    int k = htree_k(net);
    int32_t n = net_size(net);
    uint8_t *has = calloc((size_t)n, 1), *got = calloc((size_t)n, 1);
    uint8_t *used = calloc((size_t)(net_nlinks(net) + 7) / 8, 1);
    int32_t *cen[2] = { malloc(sizeof(int32_t) * (size_t)n), malloc(sizeof(int32_t) * (size_t)n) };
    int32_t *nxt[2] = { malloc(sizeof(int32_t) * (size_t)n), malloc(sizeof(int32_t) * (size_t)n) };
    int64_t ncen[2] = { 1, 1 };
    bool ok = has && got && used && cen[0] && cen[1] && nxt[0] && nxt[1];
    *extra = 0;
    if (ok) {
        cen[0][0] = cen[1][0] = source;
        has[source] = 3;
    }
    /* tree m = 0 (X): first orientation vertical (dimension 0); m = 1 (Y): horizontal */
    for (int j = k; ok && j >= 2; j--) {
        int32_t half = (int32_t)1 << (j - 2);
        for (int lv = 0; ok && lv < 2; lv++) {
            ok = peters_tree_level(t);
            for (int m = 0; ok && m < 2; m++) {
                int dim = (m == 0) == (lv == 0) ? 0 : 1;
                int64_t nn = 0;
                for (int64_t i = 0; ok && i < ncen[m]; i++)
                    for (int dir = -1; ok && dir <= 1; dir += 2) {
                        NetSeg seg = { (int8_t)dim, (int8_t)dir, half };
                        int32_t w = peters_tree_edge(t, net, cen[m][i], &seg, 1, m);
                        ok = w >= 0;
                        if (!ok)
                            break;
                        has[w] |= (uint8_t)(1u << m);
                        int32_t x = cen[m][i];
                        for (int32_t h = 0; h < half; h++) {
                            int64_t arc = net_link(net, x, dim, dir);
                            used[arc >> 3] |= (uint8_t)(1u << (arc & 7));
                            x = net_neighbor(net, x, dim, dir);
                        }
                        nxt[m][nn++] = w;
                    }
                int32_t *tmp = cen[m];
                cen[m] = nxt[m];
                nxt[m] = tmp;
                ncen[m] = nn;
            }
        }
    }
    while (ok) {
        if (!(ok = peters_tree_level(t)))
            break;
        int64_t left = final_phase(net, t, has, used, got);
        ok = left >= 0;
        if (!ok || left == 0)
            break;
        if (++*extra > 4) {
            sched_fail(s, "htree: nodes still uninformed after %d extra phases", *extra);
            ok = false;
        }
    }
    free(has);
    free(got);
    free(used);
    for (int m = 0; m < 2; m++) {
        free(cen[m]);
        free(nxt[m]);
    }
    if (!ok && !sched_error(s))
        sched_fail(s, "out of memory");
    return ok;
}

static bool htree_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    PetersTree t;
    peters_tree_init(&t);
    int extra = 0;
    bool ok = htree_tree(s, a->source, &t, &extra) &&
              peters_tree_emit(s, &t, sched_nchunks(s) / 2,
                               extra ? "htree (extra phase)" : "htree");
    peters_tree_free(&t);
    return ok;
}

/* Lockstep: step t costs alpha + (longest active level) delta + B tau; levels 2i-1, 2i (from
 * the top) are 2^(k-1-i) long, the final phase 1. */
static bool htree_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                          const CostParams *p, double *total)
{
    (void)d;
    int k = htree_k(net);
    if (p->model != COST_CIRCUIT || k < 0)
        return false;
    uint32_t P = htree_packets(net, a);
    int nl = 2 * k - 1;
    int64_t len[64];
    for (int l = 0; l < nl; l++)
        len[l] = l < nl - 1 ? (INT64_C(1) << (k - 2 - l / 2)) : 1;
    /* X and Y, P packets each (of unequal sizes when 2P does not divide L): async, the
     * paper's T(B) as a flow shop (pipeline.h); lockstep, each step's costliest circuit */
    *total = peters_pipe_time(p, a->async, len, nl, a->bytes, P, 2);
    return !isnan(*total);
}

/* From k = 4 on, the second one-hop phase (the build's, docs/errata.md). */
static bool htree_note(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       char *why, size_t len)
{
    (void)d;
    (void)a;
    int k = htree_k(net);
    if (p->model != COST_CIRCUIT || k < 4)
        return false;
    snprintf(why, len, "the paper's one final phase does not inform every node from 15x15 on: "
             "a second one-hop phase adds alpha + delta + B tau (docs/errata.md)");
    return true;
}

const AlgoDef algo_htree = {
    .name = "htree",
    .summary = "circuit-switched: two arc-disjoint H-trees carry halves X and Y, pipelined (B)",
    .ref = "Peters & Syska, Section 5, Figs. 9-10, T(B)",
    .nets = 1u << NET_TORUS,
    .flags = 0,
    .params = htree_params,
    .nparams = 1,
    .fits = htree_fits,
    .nchunks = htree_nchunks,
    .build = htree_build,
    .predict = htree_predict,
    .predict_note = htree_note,
};
