/* circuit.c — all-port and whole-schedule arc-disjointness checks of the circuit model. */
#include "circuit.h"

#include <stdlib.h>

static int cmp_port(const void *pa, const void *pb)
{
    const CircuitPort *a = pa, *b = pb;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->in != b->in)
        return a->in ? 1 : -1;
    return (a->link > b->link) - (a->link < b->link);
}

/* The arc entering dst: the last hop of the route. */
static int64_t last_arc(const Net *net, const SchedTransfer *t)
{
    const NetSeg *g = &t->seg[t->nseg - 1];
    int32_t before = net_neighbor(net, t->dst, g->dim, -g->dir);
    return net_link(net, before, g->dim, g->dir);
}

int64_t circuit_port_overloads(const Sched *s, int32_t st, CircuitPort **out)
{
    *out = NULL;
    const Net *net = sched_net(s);
    int64_t n = sched_ntransfers(s, st);
    if (n <= 1)
        return 0;
    CircuitPort *p = malloc((size_t)(2 * n) * sizeof *p);
    if (!p)
        return -1;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        if (t.nseg == 0)
            continue;
        p[m++] = (CircuitPort){ t.src, net_link(net, t.src, t.seg[0].dim, t.seg[0].dir), 1,
                                false };
        p[m++] = (CircuitPort){ t.dst, last_arc(net, &t), 1, true };
    }
    qsort(p, (size_t)m, sizeof *p, cmp_port);
    int64_t k = 0;
    for (int64_t i = 0; i < m;) {
        int64_t j = i + 1;
        while (j < m && cmp_port(&p[i], &p[j]) == 0)
            j++;
        if (j - i > 1) {
            p[k] = p[i];
            p[k].count = (int32_t)(j - i);
            k++;
        }
        i = j;
    }
    if (k == 0) {
        free(p);
        return 0;
    }
    *out = p;
    return k;
}

bool circuit_tree_shared(const Sched *s, int64_t *arc, int32_t *first_step, int32_t *second_step,
                         bool *oom)
{
    const Net *net = sched_net(s);
    int64_t nl = net_nlinks(net);
    *arc = -1;
    *first_step = *second_step = -1;
    *oom = false;
    uint8_t *used = calloc((size_t)(nl + 7) / 8, 1);
    if (!used) {
        *oom = true;
        return false;
    }
    int32_t ns = sched_nsteps(s);
    for (int32_t st = 0; st < ns && *arc < 0; st++) {
        int64_t n = sched_ntransfers(s, st);
        for (int64_t i = 0; i < n && *arc < 0; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            int32_t v = t.src;
            for (int g = 0; g < t.nseg && *arc < 0; g++) {
                for (int32_t h = 0; h < t.seg[g].len; h++) {
                    int64_t l = net_link(net, v, t.seg[g].dim, t.seg[g].dir);
                    if (used[l >> 3] & (1u << (l & 7))) {
                        *arc = l;
                        *second_step = st;
                        break;
                    }
                    used[l >> 3] |= (uint8_t)(1u << (l & 7));
                    v = net_neighbor(net, v, t.seg[g].dim, t.seg[g].dir);
                }
            }
        }
    }
    free(used);
    if (*arc < 0)
        return false;
    /* the first use: scan again up to the second */
    for (int32_t st = 0; st <= *second_step && *first_step < 0; st++) {
        int64_t n = sched_ntransfers(s, st);
        for (int64_t i = 0; i < n && *first_step < 0; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            int32_t v = t.src;
            for (int g = 0; g < t.nseg && *first_step < 0; g++)
                for (int32_t h = 0; h < t.seg[g].len; h++) {
                    if (net_link(net, v, t.seg[g].dim, t.seg[g].dir) == *arc) {
                        *first_step = st;
                        break;
                    }
                    v = net_neighbor(net, v, t.seg[g].dim, t.seg[g].dir);
                }
        }
    }
    return true;
}

const char *circuit_port_name(int ndim, int dim, int dir, bool in)
{
    if (in)
        dir = -dir;   /* an arc going right enters through the left port */
    if (ndim == 1)
        return dir > 0 ? "right" : "left";
    if (dim == ndim - 1)
        return dir > 0 ? "right" : "left";
    if (dim == ndim - 2)
        return dir > 0 ? "down" : "up";
    return dir > 0 ? "back" : "front";
}

const CircuitWords *circuit_words(CostModel m)
{
    static const CircuitWords seidel = { "link", "overloaded links", "port conflicts" };
    static const CircuitWords circuit = { "arc", "shared arcs", "all-port conflicts" };
    return m == COST_CIRCUIT ? &circuit : &seidel;
}
