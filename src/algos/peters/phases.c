/* phases.c — a phase of relative circuits sent from a list of nodes (phases.h). */
#include "phases.h"

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

static bool set_push(PetersSet *v, int32_t x)
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
            if (!set_push(to, w)) {
                sched_fail(s, "out of memory");
                return false;
            }
        }
    }
    return true;
}
