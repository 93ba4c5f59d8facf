/* tcd_opt.c — "tcd-opt": the least TCD over all time-step optimal broadcasts from a source
 * (the minimum Theorem 2 claims Algorithm 1 attains).  Nets of at most 16 nodes: the exact
 * programme of opt.c (its proof re-checked by `meshcast tcd-opt`); larger: the local search of
 * search.c started from `tcd`'s schedule, so never worse than Algorithm 1.
 * Parameters: cf = 1 requires every step to be contention-free under the net's default (XY)
 * routing; moves = the search's swap attempts (larger nets only). */
#include <stdio.h>

#include "../algos-internal.h"
#include "cangwu.h"

bool cangwu_tcd_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen);

#define OPT_MAXNODES 512   /* the search's assignments are at most 256 x 256 */

static bool opt_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen)
{
    if (!cangwu_tcd_fits(d, net, a, err, errlen))
        return false;
    if (net_size(net) > OPT_MAXNODES) {
        snprintf(err, errlen, "%s searches nets of at most %d nodes (%s has %ld)", d->name,
                 OPT_MAXNODES, net_spec(net), (long)net_size(net));
        return false;
    }
    return true;
}

static bool opt_build(const AlgoDef *def, Sched *s, const AlgoArgs *a)
{
    const Net *net = sched_net(s);
    bool cf = algo_param(def, a, "cf") != 0;
    char err[256];
    if (net_size(net) <= 16) {
        CangwuExact *x = cangwu_exact_new(net, cf, err, sizeof err);
        if (!x) {
            sched_fail(s, "%s", err);
            return false;
        }
        bool ok = cangwu_exact_sched(x, a->source, s);
        cangwu_exact_free(x);
        return ok;
    }
    AlgoArgs ta;
    algo_args_init(&ta, &algo_tcd);
    ta.source = a->source;
    ta.bytes = a->bytes;
    Sched *start = algo_build(&algo_tcd, net, &ta, err, sizeof err);
    if (!start) {
        sched_fail(s, "%s", err);
        return false;
    }
    int64_t tcd;
    bool ok = cangwu_search_sched(start, cf, (int64_t)algo_param(def, a, "moves"), s, &tcd);
    sched_free(start);
    return ok;
}

static const AlgoParam opt_params[] = {
    {"cf", 0, 0, 1, "1: every step contention-free under the default (XY) routing"},
    {"moves", 20000, 0, 1e8, "local-search swap attempts (nets over 16 nodes)"},
};

const AlgoDef algo_tcd_opt = {
    .name = "tcd-opt",
    .summary = "least TCD of any time-step optimal broadcast: exact <= 16 nodes, else search",
    .ref = "Cang & Wu, Theorem 2 (checked by search)",
    .nets = 1u << NET_ARRAY | 1u << NET_RING | 1u << NET_MESH | 1u << NET_TORUS,
    .flags = ALGO_SEARCH,
    .params = opt_params,
    .nparams = 2,
    .fits = opt_fits,
    .build = opt_build,
};
