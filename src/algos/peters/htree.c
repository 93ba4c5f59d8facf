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
 * Last phase (level 2k - 1): a node that lacks X or Y after the trees gets it over a circuit of
 * at most `hops` (1 or 2; default 2) hops from a node that holds it, on arcs no tree uses, no
 * two circuits on one arc (lastphase.h: an augmenting search).  The report says "every node
 * that is not informed by the H-tree has two informed neighbours, so one more phase [of one
 * hop] is sufficient"; from k = 4 on it is not (docs/errata.md: some nodes of the central
 * cross have no informed neighbour).  With two-hop circuits one last phase completes k = 4,
 * 5, 6: 2k - 1 phases, T(B) + delta (async).  With hops=1, or where the search leaves
 * deliveries (k >= 7), further phases follow ("htree (extra phase)").  `predicted` stays the
 * paper's T(B); predict_note says what the build's last phases add.
 * Fig. 9 (k = 2, X and Y one packet each): the originator sends the opposite halves in phase 2
 * and the four nodes of phase 1 forward theirs: every node is informed after two phases.
 *
 * Pipelining: B bytes per packet (--set B=N; 0: X and Y each one packet; B=auto: the paper's
 * B_opt = sqrt((alpha + 2^(k-2) delta) L / (4 (k-1) tau))).  X and Y are P packets each
 * (chunks 0..P-1 and P..2P-1).  Under --timing async the cost is the paper's T(B) =
 * (2k-1) alpha + (2^k - 1) delta + (2k-1) B tau + (L/(2B) - 1)(alpha + 2^(k-2) delta + B tau).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lastphase.h"
#include "phases.h"
#include "pipeline.h"

static const AlgoParam htree_params[] = {
    {"B", 0, ALGO_AUTO, 1e18, "bytes per packet of X and Y (0: one packet each; auto: B_opt)"},
    {"hops", 2, 1, 2, "longest circuit of the last phase (2: 2k - 1 phases on every k <= 6; "
                      "1: one-hop phases, a second one from 15x15)"},
};

static int htree_k(const Net *net)
{
    if (net_kind(net) != NET_TORUS || net_ndim(net) != 2 || net_dim(net, 0) != net_dim(net, 1))
        return -1;
    int k = algo_log2((int64_t)net_dim(net, 0) + 1);
    return k >= 2 ? k : -1;
}

static double htree_B(const Net *net, const AlgoArgs *a);

static bool htree_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                       size_t errlen)
{
    if (!peters_B_ok(d, a, err, errlen))
        return false;
    if (a->param[1] != 1 && a->param[1] != 2) {
        snprintf(err, errlen, "%s: hops must be 1 or 2, not %g", d->name, a->param[1]);
        return false;
    }
    if (htree_k(net) < 0) {
        snprintf(err, errlen,
                 "%s runs on (2^k-1) x (2^k-1) tori, k >= 2 (3x3, 7x7, 15x15, 31x31), not on %s",
                 d->name, net_spec(net));
        return false;
    }
    return peters_work_ok(d, net, a, a->bytes / 2 ? a->bytes / 2 : 1, htree_B(net, a), 2, err,
                          errlen);
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

/* What a build made of the phases after the two trees (htree_plan). */
typedef struct {
    int nlast;          /* phases after the trees: 0 (Fig. 9), 1, or more (extra phases) */
    int hops[8];        /* the longest circuit of each */
} HtreeShape;

/* Fig. 9: on 3x3 with X and Y in one packet each, the originator sends the opposite halves in
 * phase 2 ("the originator does the opposite") and every node is informed after two phases. */
static bool htree_fig9(const Net *net, const AlgoArgs *a)
{
    return htree_k(net) == 2 && htree_packets(net, a) == 1;
}

/* The source's phase-2 sends of Fig. 9: X horizontally, Y vertically, one hop each way.  Their
 * arcs are the other tree's phase-1 arcs, free again in phase 2 (nothing is pipelined). */
static bool htree_opposite(const Net *net, PetersTree *t, int32_t source, uint8_t *has)
{
    for (int m = 0; m < 2; m++)
        for (int dir = -1; dir <= 1; dir += 2) {
            NetSeg seg = { (int8_t)(m == 0 ? 1 : 0), (int8_t)dir, 1 };
            int32_t w = peters_tree_edge(t, net, source, &seg, 1, m);
            if (w < 0)
                return false;
            has[w] |= (uint8_t)(1u << m);
        }
    return true;
}

/* The two H-trees' 2k - 2 levels into t from source; has[v] bit m: v holds sub-message m,
 * `used` one bit per arc the trees use. */
static bool htree_levels(const Net *net, int32_t source, bool fig9, PetersTree *t, uint8_t *has,
                         uint8_t *used)
{
    int k = htree_k(net);
    int32_t n = net_size(net);
    int32_t *cen[2] = { malloc(sizeof(int32_t) * (size_t)n), malloc(sizeof(int32_t) * (size_t)n) };
    int32_t *nxt[2] = { malloc(sizeof(int32_t) * (size_t)n), malloc(sizeof(int32_t) * (size_t)n) };
    int64_t ncen[2] = { 1, 1 };
    bool ok = cen[0] && cen[1] && nxt[0] && nxt[1];
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
            if (ok && fig9 && j == 2 && lv == 1)
                ok = htree_opposite(net, t, source, has);
        }
    }
    for (int m = 0; m < 2; m++) {
        free(cen[m]);
        free(nxt[m]);
    }
    return ok;
}

/* The whole tree into t: the H-trees, then last phases of circuits of at most `hops` hops
 * until every node holds X and Y.  False on no memory (*err: 0) or when 8 last phases do not
 * complete it (*err: 1). */
static bool htree_plan(const Net *net, int32_t source, const AlgoArgs *a, PetersTree *t,
                       HtreeShape *sh, int *err)
{
    int32_t n = net_size(net);
    uint8_t *has = calloc((size_t)n, 1);
    uint8_t *used = calloc((size_t)(net_nlinks(net) + 7) / 8, 1);
    bool ok = has && used && htree_levels(net, source, htree_fig9(net, a), t, has, used);
    *sh = (HtreeShape){ 0, { 0 } };
    *err = 0;
    while (ok) {
        int64_t lacking = 0;
        for (int32_t v = 0; v < n; v++)
            lacking += has[v] != 3;
        if (!lacking)
            break;
        if (sh->nlast == 8) {
            *err = 1;
            ok = false;
            break;
        }
        LastPhase lp;
        ok = peters_tree_level(t) &&
             peters_last_phase(net, t, has, used, (int)a->param[1], &lp);
        if (ok)
            sh->hops[sh->nlast++] = lp.maxhops;
    }
    free(has);
    free(used);
    return ok;
}

static bool htree_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    PetersTree t;
    peters_tree_init(&t);
    HtreeShape sh;
    int err;
    bool ok = htree_plan(sched_net(s), a->source, a, &t, &sh, &err) &&
              peters_tree_emit(s, &t, sched_nchunks(s) / 2,
                               sh.nlast > 1 ? "htree (extra phase)" : "htree");
    peters_tree_free(&t);
    if (!ok && !sched_error(s))
        sched_fail(s, err ? "htree: nodes still uninformed after 8 last phases" : "out of memory");
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

/* Why the run differs from the paper's T(B): Fig. 9's two phases on 3x3, or, from 15x15 on,
 * last phases other than the paper's one of one hop (docs/errata.md).  The shape is the
 * build's own (htree_plan), so the note says what this run did. */
static bool htree_note(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       char *why, size_t len)
{
    (void)d;
    int k = htree_k(net);
    if (p->model != COST_CIRCUIT || k < 0)
        return false;
    if (htree_fig9(net, a)) {
        snprintf(why, len, "Fig. 9: the originator sends the opposite halves in phase 2, so 3x3 "
                 "takes two phases; T(B) counts 2k - 1 = 3 (docs/errata.md)");
        return true;
    }
    PetersTree t;
    peters_tree_init(&t);
    HtreeShape sh;
    int err;
    bool ok = htree_plan(net, a->source, a, &t, &sh, &err);
    peters_tree_free(&t);
    if (!ok || (sh.nlast == 1 && sh.hops[0] <= 1))
        return false;
    const char *head = "the paper's one final phase of one hop does not inform every node from "
                       "15x15 on";
    if (sh.nlast == 1)
        snprintf(why, len, "%s: its circuits of up to two hops add delta (docs/errata.md)", head);
    else if (sh.nlast == 2 && sh.hops[0] == 1 && sh.hops[1] == 1)
        snprintf(why, len, "%s: a second one-hop phase adds alpha + delta + B tau "
                 "(docs/errata.md)", head);
    else
        snprintf(why, len, "%s: %d last phases of up to %d hops (docs/errata.md)", head, sh.nlast,
                 sh.hops[0] > sh.hops[1] ? sh.hops[0] : sh.hops[1]);
    return true;
}

const AlgoDef algo_htree = {
    .name = "htree",
    .summary = "circuit-switched: two arc-disjoint H-trees carry halves X and Y, pipelined (B)",
    .ref = "Peters & Syska, Section 5, Figs. 9-10, T(B)",
    .nets = 1u << NET_TORUS,
    .flags = 0,
    .params = htree_params,
    .nparams = 2,
    .fits = htree_fits,
    .nchunks = htree_nchunks,
    .build = htree_build,
    .predict = htree_predict,
    .predict_note = htree_note,
};
