/* st_array.c — Seidel's spanning tree (ST) broadcast on a linear array of 2^d nodes
 * (ORNL/TM-12356, 3.1.1 eq. 1 for nu = 0, 3.1.2 eq. 2 for nu > 0; any source: 4.1, 4.2).
 *
 * nu = 0: d steps; at step i (1-based) every holder j sends the whole message to
 *         j ^ 2^(d-i), the tree rooted at the source k by XOR-ing with k (4.1).  Each step is
 *         a rule (sched_send_tree, the transfers of blocks_st in the same order).
 * nu > 0: the array is 2^nu interleaved subarrays (subarray p: nodes q*2^nu + p).
 *   1. distribute: the source k scatters the message as 2^nu packets over its metanode
 *      (the contiguous block of 2^nu nodes holding k, 4.2); member p gets packet p.
 *   2. ST in subarrays: member p of that metanode broadcasts packet p in subarray p, rooted at
 *      the metanode's index (the 2^nu trees share steps; each link carries at most 2^nu).
 *   3. exchange: every metanode does the nearest-first dimensional exchange, so each node
 *      ends with packets 0..2^nu-1 in order and no permutation is needed.
 * Cost (seidel): (2 + (d-nu-2)/2^nu) ma + (d+nu) b  (eq. 2; eq. 1 when nu = 0).
 *
 * Decisions: Table I assumes nu < d; a larger nu is refused.  A 1-node array (d = 0) is
 * allowed with nu = 0: no steps, cost 0.  The closed form is given for the seidel model only,
 * and only when the model's nu equals the structural nu the schedule was built with (a->nu);
 * otherwise there is no prediction (the schedule still simulates).
 */
#include <math.h>

#include "../algos-internal.h"
#include "../blocks.h"

static uint32_t st_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 1u << a->nu;
}

static bool st_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    int dd = algo_log2(net_size(sched_net(s)));
    int nu = a->nu;
    int32_t g = INT32_C(1) << nu, k = a->source;
    if (dd == 0)
        return true;
    if (nu == 0) {   /* each step a rule (sched_send_tree): no memory per transfer */
        if (!algo_open_steps(s, 0, dd, "ST broadcast"))
            return false;
        for (int i = 0; i < dd; i++)
            if (!sched_at(s, i) || !sched_send_tree(s, 0, 1, dd, i, k, 0, 1))
                return false;
        return true;
    }
    return algo_open_steps(s, 0, nu, "distribute") &&
           algo_open_steps(s, nu, dd - nu, "ST in subarrays") &&
           algo_open_steps(s, dd, nu, "exchange") &&
           algo_lin_st(s, 0, 0, 1, dd, nu, k, 0, (uint32_t)g);
}

static bool st_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    (void)d;
    int dd = algo_log2(net_size(net));
    if (p->model != COST_SEIDEL || dd < 0 || p->nu != a->nu)
        return false;
    double m = (double)a->bytes, nu = p->nu, g = ldexp(1.0, p->nu);
    if (dd == 0) {
        *total = 0;
        return true;
    }
    *total = (2.0 + (dd - nu - 2.0) / g) * m * p->a + (dd + nu) * p->b;
    return true;
}

const AlgoDef algo_st_array = {
    .name = "st",
    .summary = "spanning binomial tree; nu > 0: distribute, interleaved trees, exchange",
    .ref = "Seidel 3.1, eqs. 1-2; 4.1-4.2; Table I",
    .nets = 1u << NET_ARRAY,
    .flags = ALGO_POW2 | ALGO_VIRTUAL,
    .fits = algo_array_tree_fits,
    .nchunks = st_nchunks,
    .build = st_build,
    .predict = st_predict,
};
