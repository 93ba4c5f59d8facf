/* chain.c — the pipelined chain broadcast (what MPI libraries use for long messages), on any
 * net and any size.
 *
 * The message is cut into s packets (parameter s, --set s=N; at most one packet per byte).
 * The nodes are put in a Hamiltonian order — the line on arrays and rings, the snake
 * (boustrophedon: even rows left to right, odd rows right to left; on 3-D nets the same
 * reflected order one level up) on meshes and tori — and the chain follows that order
 * starting at the source and wrapping round: position i of the chain is order[(pos(k) + i)
 * mod n].  This is MPI's rank-order chain (virtual rank (rank - root) mod n).
 * At step t the node at chain position i forwards packet t - i to position i + 1.
 *
 * Decision (inner source on an array): rather than two chains out of the source (two sends
 * per step from the source, a one-port conflict), the chain wraps: ..., n-1, 0, 1, ...; the
 * hop n-1 -> 0 is one circuit running leftwards over the whole array, where no other circuit
 * runs, so every link still carries at most one circuit.  On 2-D meshes and tori the hop from
 * the snake's end back to its start also uses only links the snake leaves free (checked by the
 * tests); on 3-D nets the closing hop runs first along the fastest dimension, then the
 * middle one, then backwards along the slowest, which the snake never uses backwards; the
 * tests check link load 1 on every 3-D mesh and torus from 2x2x2 to 5x5x5.
 *
 * Steps: n - 2 + s (n >= 2).  Cost (seidel, s dividing m, link load 1): (n-2+s)(a m/s + b),
 * whatever the source.  postal (duplex): (n-2+s)(t + beta m/s).  Other models, or a packet
 * size that does not divide m: no closed form offered.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../algos-internal.h"

static const AlgoParam chain_params[] = {
    {"s", 8, ALGO_AUTO, 1 << 20, "packets the message is cut into (auto: the paper's s)"},
};

/* s, or for s=auto the paper's sqrt(k(P-2)/t) (k = beta*m; Section 2), rounded. */
static uint32_t packets(const Net *net, const AlgoArgs *a)
{
    double v = a->param[0];
    if (v == ALGO_AUTO) {
        double k = a->cost.beta * (double)a->bytes, t = a->cost.t;
        v = t > 0 ? round(sqrt(k * (double)(net_size(net) - 2) / t)) : (double)a->bytes;
        if (v > (1 << 20))
            v = 1 << 20;
    }
    uint64_t s = (uint64_t)(v >= 1 ? v : 1);
    if (s < 1)
        s = 1;
    return (uint32_t)(s < a->bytes ? s : a->bytes);
}

/* A chain moves (n-1) packets per packet: refuse schedules too big to hold in memory. */
#define CHAIN_MAX_TRANSFERS (INT64_C(3) << 23)
#define CHAIN_MAX_STEPS (INT64_C(1) << 21)

static bool chain_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                       size_t errlen)
{
    if (a->param[0] != ALGO_AUTO && a->param[0] < 1) {
        snprintf(err, errlen, "%s: s must be at least 1 (or auto)", d->name);
        return false;
    }
    if (a->param[0] != ALGO_AUTO && a->param[0] != (double)(uint64_t)a->param[0]) {
        snprintf(err, errlen, "%s: s=%.15g is not a whole number of packets", d->name,
                 a->param[0]);
        return false;
    }
    int64_t t = ((int64_t)net_size(net) - 1) * packets(net, a);
    if (t > CHAIN_MAX_TRANSFERS) {
        snprintf(err, errlen, "%s on %s with s=%lu would need %lld transfers (at most %lld)",
                 d->name, net_spec(net), (unsigned long)packets(net, a), (long long)t,
                 (long long)CHAIN_MAX_TRANSFERS);
        return false;
    }
    /* ... and too many steps: n - 2 + s of them, a few hundred bytes each whatever they
     * hold (s=1 on torus:256x256x256 took 7.9 GB and 48 s) */
    int64_t steps = (int64_t)net_size(net) - 2 + packets(net, a);
    if (steps > CHAIN_MAX_STEPS) {
        snprintf(err, errlen, "%s on %s with s=%lu would need %lld steps (at most %lld)", d->name,
                 net_spec(net), (unsigned long)packets(net, a), (long long)steps,
                 (long long)CHAIN_MAX_STEPS);
        return false;
    }
    return true;
}

static uint32_t chain_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return packets(net, a);
}

/* Position -> node of the snake order (sanders_order_node, shared with the trees). */
static int32_t snake_node(const Net *net, int64_t pos)
{
    int32_t dims[NET_MAXDIM];
    int nd = net_ndim(net);
    for (int i = 0; i < nd; i++)
        dims[i] = net_dim(net, i);
    return sanders_order_node(dims, nd, pos);
}

static bool chain_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int32_t n = net_size(net);
    uint32_t np = sched_nchunks(s);
    if (n < 2)
        return true;
    int32_t *order = malloc(sizeof *order * (size_t)n);
    if (!order) {
        sched_fail(s, "out of memory");
        return false;
    }
    int64_t start = 0;
    for (int64_t p = 0; p < n; p++) {
        order[p] = snake_node(net, p);
        if (order[p] == a->source)
            start = p;
    }
    bool ok = true;
    int64_t nsteps = (int64_t)n - 2 + np;
    for (int64_t t = 0; ok && t < nsteps; t++) {
        char label[96];
        snprintf(label, sizeof label, "chain: packets %lld..%lld in flight",
                 (long long)(t - (n - 2) > 0 ? t - (n - 2) : 0),
                 (long long)(t < (int64_t)np - 1 ? t : (int64_t)np - 1));
        ok = sched_at(s, (int32_t)t) && sched_label(s, label);
        int64_t ilo = t - (int64_t)np + 1 > 0 ? t - (int64_t)np + 1 : 0;
        int64_t ihi = t < n - 2 ? t : n - 2;
        for (int64_t i = ilo; ok && i <= ihi; i++) {
            uint32_t pk = (uint32_t)(t - i);
            ok = sched_send_range(s, order[(start + i) % n], order[(start + i + 1) % n], pk,
                                  pk + 1);
        }
    }
    free(order);
    return ok;
}

/* The closed form (n - 2 + s)(t + k/s) into *total, or false with why there is none. */
static bool chain_closed(const Net *net, const AlgoArgs *a, const CostParams *p, double *total,
                         char *why, size_t len)
{
    int32_t n = net_size(net);
    uint32_t np = packets(net, a);
    if (n < 2) {
        *total = 0;
        return true;
    }
    if (a->bytes % np != 0)
        return sanders_why(why, len, "the closed form needs packets of equal size: %llu bytes "
                           "do not split into %lu packets", (unsigned long long)a->bytes,
                           (unsigned long)np);
    double steps = (double)n - 2.0 + np, L = (double)(a->bytes / np);
    switch (p->model) {
    case COST_SEIDEL:
        *total = steps * (p->a * L + p->b);
        return true;
    case COST_POSTAL:
        if (!p->duplex)
            return sanders_why(why, len, "under duplex=0 the chain's interior PUs would "
                               "send and receive in one step");
        *total = steps * (p->t + p->beta * L);
        return true;
    default:
        return false;
    }
}

static bool chain_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                          const CostParams *p, double *total)
{
    (void)d;
    return chain_closed(net, a, p, total, NULL, 0);
}

static bool chain_predict_none(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                               const CostParams *p, char *why, size_t len)
{
    (void)d;
    double t;
    return !chain_closed(net, a, p, &t, why, len);
}

const AlgoDef algo_chain = {
    .name = "chain",
    .summary = "pipelined chain: s packets forwarded along the line or the snake",
    .ref = "pipelined broadcast (MPI chain); Seidel 1 mentions it, does not analyse it",
    .nets = (1u << NET_ARRAY) | (1u << NET_RING) | (1u << NET_MESH) | (1u << NET_TORUS) |
            (1u << NET_FULL) | (1u << NET_HXBAR),
    .flags = 0,
    .params = chain_params,
    .nparams = 1,
    .fits = chain_fits,
    .nchunks = chain_nchunks,
    .build = chain_build,
    .predict = chain_predict,
    .predict_none = chain_predict_none,
};
