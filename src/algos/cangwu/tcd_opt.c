/* tcd_opt.c — "tcd-opt": the least TCD over all time-step optimal broadcasts from a source
 * (the minimum Theorem 2 claims Algorithm 1 attains).  Nets of at most 16 nodes: the exact
 * programme of opt.c (its proof re-checked by `meshcast tcd-table`).  Larger, cf = 0: the
 * annealing search of anneal.c, once per orbit of the net's symmetries (the same value at
 * every source of an orbit, the schedule carried over by the symmetry), started from `tcd`'s
 * schedules, so never worse than Algorithm 1 (best order).  Larger, cf = 1: the older local
 * search of search.c (its steps checked for contention), moves/25 attempts.
 * Parameters: cf = 1 requires every step to be contention-free under the net's default (XY)
 * routing; moves = the search's budget of swap attempts (larger nets only). */
#include <stdio.h>

#include "../../engine/sim.h"

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

/* tcd's schedule from the source (flip = 0), or on a square 2-D net from the transposed
 * source with every transfer transposed back (flip = 1; NULL when that does not apply, or
 * under cf when it is not contention-free). */
static Sched *tcd_start(const Net *net, const AlgoArgs *a, int flip, bool cf, char *err,
                        size_t errlen)
{
    AlgoArgs ta;
    algo_args_init(&ta, &algo_tcd);
    ta.bytes = a->bytes;
    ta.source = a->source;
    int32_t c[NET_MAXDIM];
    if (flip) {
        if (net_ndim(net) != 2 || net_dim(net, 0) != net_dim(net, 1))
            return NULL;
        net_coords(net, a->source, c);
        int32_t tc[2] = {c[1], c[0]};
        ta.source = net_id(net, tc);
        if (ta.source == a->source)
            return NULL;   /* on the diagonal: the same start */
    }
    Sched *t = algo_build(&algo_tcd, net, &ta, err, errlen);
    if (!t || !flip)
        return t;
    Sched *u = sched_new(net, 1, a->bytes);
    bool ok = u && sched_give(u, a->source, 0, 1);
    for (int32_t st = 0; ok && st < sched_nsteps(t); st++) {
        ok = sched_at(u, st) && sched_label(u, sched_step_label(t, st));
        for (int64_t i = 0; ok && i < sched_ntransfers(t, st); i++) {
            SchedTransfer tr;
            sched_transfer(t, st, i, &tr);
            int32_t p[2], q[2];
            net_coords(net, tr.src, c);
            p[0] = c[1], p[1] = c[0];
            net_coords(net, tr.dst, c);
            q[0] = c[1], q[1] = c[0];
            ok = sched_send_range(u, net_id(net, p), net_id(net, q), 0, 1);
        }
    }
    sched_free(t);
    if (ok && cf) {
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        Sim *sim = sim_run(u, &p, 0, err, errlen);
        ok = sim && sim_totals(sim)->max_link_load <= 1;
        sim_free(sim);
    }
    if (!ok) {
        sched_free(u);
        return NULL;
    }
    return u;
}

/* The symmetry h' with h'(h(x)) = x. */
static int sym_inverse(const Net *net, int h)
{
    for (int g = 0; g < CANGWU_NSYMS; g++) {
        if (!cangwu_sym_valid(net, g, false))
            continue;
        bool inv = true;
        for (int32_t x = 0; x < net_size(net) && inv; x++)
            inv = cangwu_sym_apply(net, g, cangwu_sym_apply(net, h, x)) == x;
        if (inv)
            return g;
    }
    return 0;
}

/* cf = 0 on a net over 16 nodes: search once per orbit of the net's symmetries (from the
 * orbit's least node, rep), starting from tcd's schedule from every image h(rep) carried back
 * by h's inverse, and carry the result to the source. */
static bool opt_anneal(const AlgoDef *def, Sched *s, const AlgoArgs *a)
{
    const Net *net = sched_net(s);
    char err[256];
    int g = 0;
    int32_t rep = cangwu_orbit_rep(net, a->source, false, &g);
    Sched *starts[CANGWU_NSYMS];
    int ns = 0;
    bool ok = true;
    AlgoArgs ta;
    algo_args_init(&ta, &algo_tcd);
    ta.bytes = a->bytes;
    for (int h = 0; h < CANGWU_NSYMS && ok; h++) {
        if (!cangwu_sym_valid(net, h, false))
            continue;
        ta.source = cangwu_sym_apply(net, h, rep);
        Sched *t = algo_build(&algo_tcd, net, &ta, err, sizeof err);
        Sched *u = t ? sched_new(net, 1, a->bytes) : NULL;
        ok = u && sched_give(u, rep, 0, 1) && cangwu_sched_map(t, sym_inverse(net, h), u);
        sched_free(t);
        if (ok)
            starts[ns++] = u;
        else
            sched_free(u);
    }
    Sched *best = ok ? sched_new(net, 1, a->bytes) : NULL;
    int64_t tcd = -1;
    ok = ok && best && sched_give(best, rep, 0, 1) &&
         cangwu_anneal(starts, ns, (int64_t)algo_param(def, a, "moves"), best, &tcd);
    if (!ok)
        sched_fail(s, "%s", best && sched_error(best) ? sched_error(best)
                            : ns ? "out of memory" : err);
    else
        ok = cangwu_sched_map(best, g, s);
    for (int i = 0; i < ns; i++)
        sched_free(starts[i]);
    sched_free(best);
    return ok;
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
    if (!cf)
        return opt_anneal(def, s, a);
    /* cf = 1: the older search (search.c), whose steps are checked for contention.  Two
     * starts: tcd from the source, and tcd from the transposed source, transposed back
     * (the search keeps Algorithm 1's row-first habit, so from (2,3) and (3,2) of 8x8 it finds
     * different minima; the transposed start gives the search the other habit).  Under cf the
     * transposed start is used only if its steps are contention-free under XY routing too. */
    int64_t best = -1;
    bool ok = false;
    for (int flip = 0; flip < 2; flip++) {
        Sched *start = tcd_start(net, a, flip, cf, err, sizeof err);
        if (!start) {
            if (flip == 0) {
                sched_fail(s, "%s", err);
                return false;
            }
            continue;
        }
        Sched *try = sched_new(net, 1, a->bytes);
        int64_t tcd = -1;
        bool got = try && sched_give(try, a->source, 0, 1) &&
                   cangwu_search_sched(start, cf, (int64_t)algo_param(def, a, "moves") / 25, try,
                                       &tcd);
        sched_free(start);
        if (got && (best < 0 || tcd < best)) {
            best = tcd;
            /* copy the better one into s: rebuild its steps from try */
            sched_truncate(s, 0);
            for (int32_t t = 0; t < sched_nsteps(try); t++) {
                if (!sched_at(s, t) || !sched_label(s, sched_step_label(try, t)))
                    return false;
                for (int64_t i = 0; i < sched_ntransfers(try, t); i++) {
                    SchedTransfer tr;
                    sched_transfer(try, t, i, &tr);
                    if (!sched_send_range(s, tr.src, tr.dst, 0, 1))
                        return false;
                }
            }
            ok = true;
        } else if (!got && flip == 0) {
            sched_fail(s, "%s", try && sched_error(try) ? sched_error(try) : "search failed");
            sched_free(try);
            return false;
        }
        sched_free(try);
    }
    return ok;
}

static const AlgoParam opt_params[] = {
    {"cf", 0, 0, 1, "1: every step contention-free under the default (XY) routing"},
    {"moves", 1500000, 0, 1e9, "search moves (swap attempts), nets over 16 nodes; cf=1 makes "
                               "moves/25 of the older, slower kind"},
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
