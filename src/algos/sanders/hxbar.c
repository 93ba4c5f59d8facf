/* hxbar.c — Section 4, "Hierarchies of Crossbars": the fractional tree embedded in an a x b
 * hierarchical crossbar `hxbar:AxB` (`fractional-hxbar`).
 *
 * The paper (for b >= r and at least two channels in and out per module): "one group in each
 * module is connected to form a global binary tree with a nodes.  Next, the b - r remaining
 * PUs in each module are connected to form a local fractional tree.  ... Groups in the global
 * tree with degree one can directly link with their local tree.  Leaf groups in the global
 * tree use one of their free links to connect to their local tree.  The remaining free links
 * are used to connect to the local trees of modules with a group in the global tree of degree
 * two.  There will be one remaining unused link."  Our reading, built as a tree of groups for
 * gtree.c (Fig. 2's timing; a group has a down and a right child):
 *
 *  - modules in order from the source's (module i is (source module + i) mod a); module i's
 *    global group is its first r PUs (in the source's module: from the source on, wrapping
 *    inside the module); the global tree is the heap on modules: i's children 2i+1 (down)
 *    and 2i+2 (right);
 *  - the other b - r PUs of a module, in order, are cut into local groups of r (the last
 *    shorter) forming the heap tree of local groups (k's children 2k+1 down, 2k+2 right);
 *  - a global group with one global child feeds its own local tree from its right slot; a
 *    leaf feeds its own local tree (down) and, from its right slot, the local tree of one
 *    module whose global group has two children (they are matched in order; a binary heap
 *    has one leaf more than it has such modules: the unused link).
 *
 * So every module sends out at most two transfers a step (a group sends at most one down and
 * one right) and takes in at most two (its global head, and its local root from a leaf): two
 * channels suffice — the simulator counts the channel load (net.h, sim.h) and
 * `tests/unit/test_hxbar.c` checks it is at most 2 for c = 2 (and that c = 1 overloads).
 * Steps: d + (r+1)floor((s-1)/r) + (s-1) mod r + 1 with d the tree's deepest offset (gtree.h);
 * the paper gives no closed form for this tree, and none is offered.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"
#include "gtree.h"

static const AlgoParam hx_params[] = {
    {"r", 2, 1, 1 << 12, "group size: PUs per group (at most the processors of a module)"},
    {"s", 8, 1, 1 << 20, "packets the message is cut into"},
};

#define HX_MAX_TRANSFERS (INT64_C(1) << 24)

static bool hx_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    double r = a->param[0], s = a->param[1];
    if (r != floor(r) || s != floor(s)) {
        snprintf(err, errlen, "%s: r and s must be whole numbers", d->name);
        return false;
    }
    int32_t B = net_hxbar_per(net);
    if (r > B) {
        snprintf(err, errlen, "%s on %s: r=%g is more than the %d processors of a module "
                 "(Section 4 needs b >= r)", d->name, net_spec(net), r, (int)B);
        return false;
    }
    int64_t t = ((int64_t)net_size(net) - 1) * (int64_t)s;
    if (t > HX_MAX_TRANSFERS) {
        snprintf(err, errlen, "%s on %s with s=%g would need %lld transfers (at most %lld)",
                 d->name, net_spec(net), s, (long long)t, (long long)HX_MAX_TRANSFERS);
        return false;
    }
    return true;
}

static uint32_t hx_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    uint64_t s = (uint64_t)a->param[1];
    return (uint32_t)(s < a->bytes ? s : a->bytes);
}

/* Node of PU k (0..B-1, in the order above) of module i (0-based from the source's). */
static int32_t pu_node(int32_t A, int32_t B, int32_t src, int32_t i, int32_t k)
{
    int32_t m0 = src / B, m = (m0 + i) % A;
    int32_t p = m == m0 ? (src % B + k) % B : k;
    return m * B + p;
}

bool sanders_hxbar_tree(const Net *net, int32_t r, int32_t src, SandersGTree *t,
                        int32_t **block)
{
    int32_t A = net_hxbar_modules(net), B = net_hxbar_per(net);
    int32_t L = (B - r + r - 1) / r;   /* local groups per module */
    int32_t G = A * (1 + L);           /* group g: module g / (1+L), its global (0) or local */
    int32_t *m = malloc(((size_t)G * (size_t)r + 2 * (size_t)G) * sizeof *m);
    if (!m)
        return false;
    int32_t *down = m + (size_t)G * r, *right = down + G;
    for (int32_t g = 0; g < G; g++) {
        down[g] = right[g] = -1;
        int32_t i = g / (1 + L), j = g % (1 + L);   /* module, group in it */
        for (int32_t k = 0; k < r; k++) {
            int32_t pk = j == 0 ? k : r + (j - 1) * r + k;
            m[(int64_t)g * r + k] = pk < B ? pu_node(A, B, src, i, pk) : -1;
        }
    }
#define GLOBAL(i) ((i) * (1 + L))
#define LOCAL(i, k) ((i) * (1 + L) + 1 + (k))
    int32_t pending = 0;   /* next module with two global children whose local tree waits */
    for (int32_t i = 0; i < A; i++) {
        int32_t g = GLOBAL(i), c1 = 2 * i + 1, c2 = 2 * i + 2;
        if (c1 < A)
            down[g] = GLOBAL(c1);
        if (c2 < A)
            right[g] = GLOBAL(c2);
        for (int32_t k = 0; k < L; k++) {   /* the local heap */
            if (2 * k + 1 < L)
                down[LOCAL(i, k)] = LOCAL(i, 2 * k + 1);
            if (2 * k + 2 < L)
                right[LOCAL(i, k)] = LOCAL(i, 2 * k + 2);
        }
        if (L == 0)
            continue;
        if (c1 < A && c2 >= A)
            right[g] = LOCAL(i, 0);   /* degree one: its own local tree */
        else if (c1 >= A)
            down[g] = LOCAL(i, 0);    /* a leaf: its own local tree, then another's */
    }
    for (int32_t i = 0; i < A && L > 0; i++) {   /* leaves feed the degree-two modules */
        if (2 * i + 1 < A)
            continue;
        while (pending < A && 2 * pending + 2 >= A)
            pending++;
        if (pending < A)
            right[GLOBAL(i)] = LOCAL(pending++, 0);
    }
#undef GLOBAL
#undef LOCAL
    *t = (SandersGTree){ .r = r, .ngroups = G, .member = m, .down = down, .right = right,
                         .root = 0 };
    *block = m;
    return true;
}

static bool hx_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    SandersGTree t;
    int32_t *block;
    if (!sanders_hxbar_tree(net, (int32_t)a->param[0], a->source, &t, &block)) {
        sched_fail(s, "out of memory");
        return false;
    }
    bool ok = sanders_gtree_build(&t, s, "global and local trees");
    free(block);
    return ok;
}

const AlgoDef algo_fractional_hxbar = {
    .name = "fractional-hxbar",
    .summary = "fractional tree on a hierarchical crossbar: a global tree of one group per "
               "module, local trees inside",
    .ref = "Sanders & Sibeyn 4 (Hierarchies of Crossbars); timing Fig. 2",
    .nets = 1u << NET_HXBAR,
    .params = hx_params,
    .nparams = 2,
    .fits = hx_fits,
    .nchunks = hx_nchunks,
    .build = hx_build,
};
