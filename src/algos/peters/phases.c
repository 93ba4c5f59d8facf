/* phases.c — a phase of relative circuits sent from a list of nodes (phases.h). */
#include "phases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

bool peters_set_init(PetersSet *v, int64_t cap)
{
    v->n = 0;
    v->cap = cap > 0 ? cap : 1;
    v->node = malloc(sizeof *v->node * (size_t)v->cap);
    return v->node != NULL;
}

void peters_set_free(PetersSet *v)
{
    free(v->node);
    v->node = NULL;
    v->n = v->cap = 0;
}

bool peters_set_push(PetersSet *v, int32_t x)
{
    if (v->n == v->cap) {
        int64_t nc = v->cap * 2;
        int32_t *p = realloc(v->node, sizeof *p * (size_t)nc);
        if (!p)
            return false;
        v->node = p;
        v->cap = nc;
    }
    v->node[v->n++] = x;
    return true;
}

int peters_segs(const PetersRoute *r, NetSeg *seg)
{
    int n = 0;
    for (int i = 0; i < r->nseg; i++)
        if (r->len[i] != 0)
            seg[n++] = (NetSeg){ .dim = r->dim[i], .dir = r->len[i] > 0 ? 1 : -1,
                                 .len = r->len[i] > 0 ? r->len[i] : -r->len[i] };
    return n;
}

int64_t peters_route_len(const PetersRoute *r)
{
    int64_t d = 0;
    for (int i = 0; i < r->nseg; i++)
        d += r->len[i] > 0 ? r->len[i] : -r->len[i];
    return d;
}

bool peters_phase(Sched *s, const char *label, const PetersPattern *pat, PetersSet *from,
                  int64_t nfrom, PetersSet *to)
{
    const Net *net = sched_net(s);
    uint32_t nc = sched_nchunks(s);
    if (sched_step(s) < 0 || !sched_label(s, label))
        return false;
    NetSeg seg[PETERS_MAXOUT][PETERS_MAXSEG];
    int nseg[PETERS_MAXOUT];
    for (int o = 0; o < pat->nout; o++)
        nseg[o] = peters_segs(&pat->out[o], seg[o]);
    if (!sched_reserve(s, nfrom * pat->nout, 0))
        return false;
    ChunkRange all = { 0, nc };
    for (int64_t i = 0; i < nfrom; i++) {
        int32_t v = from->node[i];
        for (int o = 0; o < pat->nout; o++) {
            int32_t w = net_route_end(net, v, seg[o], nseg[o]);
            if (w < 0) {
                sched_fail(s, "%s: a route leaves the net", label);
                return false;
            }
            if (!sched_send_route(s, v, w, &all, 1, seg[o], nseg[o]))
                return false;
            if (!peters_set_push(to, w)) {
                sched_fail(s, "out of memory");
                return false;
            }
        }
    }
    return true;
}

void peters_tree_init(PetersTree *t)
{
    t->e = NULL;
    t->n = t->cap = 0;
    t->nlevels = t->caplevels = 0;
    t->start0 = 0;
    t->start = &t->start0;
}

void peters_tree_free(PetersTree *t)
{
    free(t->e);
    if (t->start != &t->start0)
        free(t->start);
    peters_tree_init(t);
}

bool peters_tree_level(PetersTree *t)
{
    if (t->nlevels + 1 > t->caplevels) {
        int nc = t->caplevels ? 2 * t->caplevels : 64;
        int64_t *old = t->start == &t->start0 ? NULL : t->start;
        int64_t *p = realloc(old, sizeof *p * (size_t)(nc + 1));
        if (!p)
            return false;
        if (t->start == &t->start0)
            p[0] = t->start0;
        t->start = p;
        t->caplevels = nc;
    }
    t->start[t->nlevels] = t->n;
    t->nlevels++;
    t->start[t->nlevels] = t->n;
    return true;
}

int32_t peters_tree_edge(PetersTree *t, const Net *net, int32_t src, const NetSeg *seg, int nseg,
                         int sub)
{
    int32_t dst = net_route_end(net, src, seg, nseg);
    if (dst < 0 || nseg > PETERS_MAXSEG)
        return -1;
    if (t->n == t->cap) {
        int64_t nc = t->cap ? t->cap * 2 : 1024;
        PetersEdge *p = realloc(t->e, sizeof *p * (size_t)nc);
        if (!p)
            return -1;
        t->e = p;
        t->cap = nc;
    }
    PetersEdge *e = &t->e[t->n++];
    e->src = src;
    e->dst = dst;
    e->nseg = (int8_t)nseg;
    e->sub = (int8_t)sub;
    for (int i = 0; i < nseg; i++)
        e->seg[i] = seg[i];
    t->start[t->nlevels] = t->n;
    return dst;
}

bool peters_B_ok(const AlgoDef *d, const AlgoArgs *a, char *err, size_t errlen)
{
    if (a->param[0] != ALGO_AUTO && a->param[0] < 0) {
        snprintf(err, errlen, "%s: B must be auto or a number of bytes >= 0", d->name);
        return false;
    }
    return true;
}

/* The packets of a sub-message of subbytes at B bytes a packet (peters_packets' rule). */
static double packets_of(uint64_t subbytes, double B)
{
    if (subbytes == 0 || !(B > 0) || B >= (double)subbytes)
        return 1;
    double p = ceil((double)subbytes / B);
    return p > (double)subbytes ? (double)subbytes : p;
}

bool peters_work_ok(const AlgoDef *d, const Net *net, const AlgoArgs *a, uint64_t subbytes,
                    double B, int ntrees, char *err, size_t errlen)
{
    double P = packets_of(subbytes, B);
    double others = (double)net_size(net) - 1;
    double work = P * ntrees * (others > 1 ? others : 1);
    if (P <= PETERS_PACKETS_MAX && work <= PETERS_WORK_MAX)
        return true;
    /* the fewest packets that fit both, and the B that gives them */
    double fit = floor(PETERS_WORK_MAX / (ntrees * (others > 1 ? others : 1)));
    if (fit > PETERS_PACKETS_MAX)
        fit = PETERS_PACKETS_MAX;
    double Bmin = fit >= 1 ? ceil((double)subbytes / fit) : (double)subbytes;
    snprintf(err, errlen,
             "%s: B=%s%.0f makes %.0f packets a tree (%d tree%s on %s: %.3g transfers), over the "
             "work budget of %d packets a tree and %.0f transfers; B >= %.0f fits",
             d->name, a->param[0] == ALGO_AUTO ? "auto = " : "", B > 0 ? B : 0, P, ntrees,
             ntrees == 1 ? "" : "s", net_spec(net), work, (int)PETERS_PACKETS_MAX,
             PETERS_WORK_MAX, Bmin);
    return false;
}

uint32_t peters_packets(uint64_t subbytes, double B)
{
    if (subbytes == 0)
        return 1;
    if (!(B > 0) || B >= (double)subbytes)
        return 1;
    double p = ceil((double)subbytes / B);
    if (p > (double)subbytes)
        p = (double)subbytes;
    return (uint32_t)p;
}

bool peters_tree_emit(Sched *s, const PetersTree *t, uint32_t npk, const char *name)
{
    /* the tree's edges go into the schedule's edge table once; every step sends a level's
     * edges with the packet it is at (chunk sub * npk + p) */
    int64_t e0 = -1;
    for (int64_t i = 0; i < t->n; i++) {
        const PetersEdge *e = &t->e[i];
        int64_t k = sched_edge(s, e->src, e->dst, e->seg, e->nseg, (uint32_t)e->sub);
        if (k < 0)
            return false;
        if (i == 0)
            e0 = k;
    }
    int64_t nsteps = (int64_t)t->nlevels + npk - 1;
    for (int64_t st = 0; st < nsteps; st++) {
        if (sched_step(s) < 0)
            return false;
        char label[96];
        int64_t plo = st - (t->nlevels - 1) > 0 ? st - (t->nlevels - 1) : 0;
        int64_t phi = st < (int64_t)npk - 1 ? st : (int64_t)npk - 1;
        if (npk == 1)
            snprintf(label, sizeof label, "%s: phase %lld of %d", name, (long long)st + 1,
                     t->nlevels);
        else
            snprintf(label, sizeof label, "%s: packets %lld..%lld in flight", name,
                     (long long)plo + 1, (long long)phi + 1);
        if (!sched_label(s, label))
            return false;
        for (int lv = 0; lv < t->nlevels; lv++) {
            int64_t p = st - lv;
            if (p < 0 || p >= (int64_t)npk)
                continue;
            if (!sched_send_edges(s, e0 + t->start[lv], t->start[lv + 1] - t->start[lv], npk,
                                  (uint32_t)p))
                return false;
        }
    }
    return true;
}
