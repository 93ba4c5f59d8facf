/* bst_array.c — Seidel's bidirectional spanning tree (BST) broadcast on a linear array of 2^d
 * nodes (ORNL/TM-12356, 3.3.1 eq. 7 for nu = 0, 3.3.2 eq. 8 for nu > 0; any source: 4.3).
 *
 * nu = 0, source k, kbar = k ^ (2^d - 1) (the bit-wise complement, 4.3):
 *   1. halve: k keeps half of the message and sends the other half to kbar.
 *   2. two trees (d-1 steps): k broadcasts its half by ST over the nodes of its parity
 *      (an interleaved subarray of 2^(d-1) nodes, tree rooted at k>>1), kbar likewise over the
 *      other parity.  The roots are complements, so at every step the two trees send in
 *      opposite directions and never share a directed link (3.3.1, 4.3).
 *   3. pair exchange: nodes 2t and 2t+1 swap halves.
 *   Decision: which half k keeps is chosen so that even nodes end the trees with the first
 *   half and odd nodes with the second; the pair exchange then keeps packet order.
 * nu > 0: distribute the message as 2^nu packets over the source's metanode (4.2), a BST as
 *   above of each packet in each interleaved subarray of 2^(d-nu) nodes (stride 2^nu, rooted at
 *   the metanode's index), then the nearest-first exchange inside every metanode (3.3.2).
 * Cost (seidel): (2 + (d-nu-3)/2^(nu+1)) ma + (d+nu+1) b  (eq. 8; eq. 7 (d+1)(ma/2+b) at nu=0).
 *
 * Decisions: as st (nu < d; a 1-node array has no steps and cost 0, where eq. 7 would give
 * ma/2 + b; prediction only under seidel with the model's nu equal to the structural nu).
 */
#include <math.h>

#include "../algos-internal.h"
#include "../blocks.h"

static uint32_t bst_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 2u << a->nu;
}

/* A spanning tree over base + m*stride (m < 2^k) from member root, of [lo,hi), in steps
 * first .. first+k-1: blocks_st's transfers in the same order, each step a rule
 * (sched_send_tree: nothing stored per transfer). */
static bool tree_steps(Sched *s, int32_t first, int32_t base, int32_t stride, int k,
                       int32_t root, uint32_t lo, uint32_t hi)
{
    for (int i = 0; i < k; i++)
        if (!sched_at(s, first + i) || !sched_send_tree(s, base, stride, k, i, root, lo, hi))
            return false;
    return true;
}

/* BST of chunks [2p, 2p+2) in the subarray base + q*stride (q < 2^D) from member j, using
 * steps first .. first+D. */
static bool bst_sub(Sched *s, int32_t first, int32_t base, int32_t stride, int D, int32_t j,
                    uint32_t lo)
{
    int32_t jbar = j ^ ((INT32_C(1) << D) - 1);
    uint32_t mine = lo + (uint32_t)(j & 1), other = lo + (uint32_t)(jbar & 1);
    if (!sched_at(s, first) ||
        !sched_send_range(s, base + j * stride, base + jbar * stride, other, other + 1))
        return false;
    /* trees over the members of each parity: member 2t+par is node base+par*stride+t*2*stride */
    if (!tree_steps(s, first + 1, base + (j & 1) * stride, 2 * stride, D - 1, j >> 1, mine,
                    mine + 1) ||
        !tree_steps(s, first + 1, base + (jbar & 1) * stride, 2 * stride, D - 1, jbar >> 1,
                    other, other + 1))
        return false;
    for (int32_t t = 0; t < (INT32_C(1) << (D - 1)); t++)
        if (!blocks_exchange(s, first + D, base + 2 * t * stride, stride, 1, lo, lo + 2))
            return false;
    return true;
}

static bool bst_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    int dd = algo_log2(net_size(sched_net(s)));
    int nu = a->nu, D = dd - nu;
    int32_t g = INT32_C(1) << nu, k = a->source, meta = k >> nu;
    if (dd == 0)
        return true;
    if (nu > 0 && (!algo_open_steps(s, 0, nu, "distribute") ||
                   !algo_meta_distribute(s, 0, 0, 1, nu, k, 0, 2 * (uint32_t)g)))
        return false;
    if (!algo_open_steps(s, nu, 1, nu ? "BST in subarrays: halve" : "BST: halve") ||
        !algo_open_steps(s, nu + 1, D - 1, nu ? "BST in subarrays: two trees" : "BST: two trees") ||
        !algo_open_steps(s, nu + D, 1,
                    nu ? "BST in subarrays: pair exchange" : "BST: pair exchange"))
        return false;
    for (int32_t p = 0; p < g; p++)
        if (!bst_sub(s, nu, p, g, D, meta, 2 * (uint32_t)p))
            return false;
    return nu == 0 || (algo_open_steps(s, dd + 1, nu, "exchange") &&
                       algo_meta_exchange(s, dd + 1, 0, 1, dd, nu, 0, 2 * (uint32_t)g));
}

static bool bst_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                        const CostParams *p, double *total)
{
    (void)d;
    int dd = algo_log2(net_size(net));
    if (p->model != COST_SEIDEL || dd < 0 || p->nu != a->nu)
        return false;
    double m = (double)a->bytes, nu = p->nu, g2 = ldexp(1.0, p->nu + 1);
    if (dd == 0) {
        *total = 0;
        return true;
    }
    *total = (2.0 + (dd - nu - 3.0) / g2) * m * p->a + (dd + nu + 1.0) * p->b;
    return true;
}

const AlgoDef algo_bst_array = {
    .name = "bst",
    .summary = "bidirectional spanning trees from both ends; nu > 0 on interleaved subarrays",
    .ref = "Seidel 3.3, eqs. 7-8; 4.3; Table I",
    .nets = 1u << NET_ARRAY,
    .flags = ALGO_POW2 | ALGO_VIRTUAL,
    .fits = algo_array_tree_fits,
    .nchunks = bst_nchunks,
    .build = bst_build,
    .predict = bst_predict,
};
