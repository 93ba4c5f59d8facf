/* flood.c — the store-and-forward baseline of Peters & Syska's Table 1 ("flood"): every
 * transfer is one hop (d = 1, the paper's "store-and-forward simulated by circuit switching").
 *
 * Breadth-first from the source: in phase i every node at distance i-1 sends the whole message
 * to each neighbour at distance i that it discovered first (neighbours tried along dimension 0
 * then 1 ..., the positive direction first).  All-port (a node uses each out-port at most once
 * a phase) and arc-disjoint (every circuit is its own arc); e phases, e the source's
 * eccentricity (the diameter on a ring or torus).  Not pipelined: e (alpha + delta + L tau)
 * under circuit, e (beta + L tau) under saf — far from the Table 1 row for store-and-forward
 * (sqrt(N) alpha, sqrt(N) delta, L tau / 4), which needs pipelining over four arc-disjoint
 * spanning trees (saf-trees, saftrees.c); this is the simplest d = 1 broadcast, to set the
 * start-up count against.
 */
#include <stdio.h>
#include <stdlib.h>

#include "phases.h"

static int32_t ecc(const Net *net, int32_t source)
{
    int32_t c[NET_MAXDIM], e = 0;
    net_coords(net, source, c);
    for (int d = 0; d < net_ndim(net); d++) {
        int32_t x = net_dim(net, d);
        if (net_wraps(net))
            e += x / 2;
        else
            e += c[d] > x - 1 - c[d] ? c[d] : x - 1 - c[d];
    }
    return e;
}

static bool flood_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int32_t n = net_size(net);
    int nd = net_ndim(net);
    uint8_t *seen = calloc((size_t)n, 1);
    int32_t *q = malloc(sizeof *q * (size_t)n);
    if (!seen || !q) {
        free(seen);
        free(q);
        sched_fail(s, "out of memory");
        return false;
    }
    ChunkRange all = { 0, sched_nchunks(s) };
    int64_t head = 0, tail = 0;
    q[tail++] = a->source;
    seen[a->source] = 1;
    bool ok = true;
    for (int phase = 1; ok && head < tail; phase++) {
        int64_t end = tail;
        bool opened = false;
        for (; ok && head < end; head++) {
            int32_t v = q[head];
            for (int dim = 0; ok && dim < nd; dim++)
                for (int dir = 1; ok && dir >= -1; dir -= 2) {
                    int32_t w = net_neighbor(net, v, dim, dir);
                    if (w < 0 || seen[w])
                        continue;
                    if (!opened) {
                        char label[64];
                        snprintf(label, sizeof label, "flood: distance %d", phase);
                        ok = sched_step(s) >= 0 && sched_label(s, label);
                        opened = true;
                    }
                    NetSeg seg = { (int8_t)dim, (int8_t)dir, 1 };
                    ok = ok && sched_send_route(s, v, w, &all, 1, &seg, 1);
                    seen[w] = 1;
                    q[tail++] = w;
                }
        }
    }
    free(seen);
    free(q);
    return ok;
}

static bool flood_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                          const CostParams *p, double *total)
{
    (void)d;
    double e = ecc(net, a->source), L = (double)a->bytes;
    if (p->model == COST_CIRCUIT)
        *total = e * (p->alpha + p->delta + L * p->tau);
    else if (p->model == COST_SAF)
        *total = e * (p->beta + L * p->tau);
    else
        return false;
    return true;
}

const AlgoDef algo_flood = {
    .name = "flood",
    .summary = "store-and-forward baseline: breadth-first, one hop per transfer, all-port",
    .ref = "Peters & Syska, Section 6 (store-and-forward simulated with d = 1)",
    .nets = 1u << NET_TORUS,
    .flags = 0,
    .params = NULL,
    .nparams = 0,
    .fits = NULL,
    .nchunks = NULL,
    .build = flood_build,
    .predict = flood_predict,
};
