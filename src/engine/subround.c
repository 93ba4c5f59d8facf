/* subround.c — a step split into one-port sub-rounds and their link loads: subround.h. */
#include "subround.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct SubRound {
    const Net *net;
    int32_t *lastsend, *lastrecv;   /* per node: 1 + the sub-round of its last send/receive */
    int32_t *load;                  /* per link id, the current sub-round's loads (lazy) */
    int32_t *peak;                  /* per link id, its largest load in any sub-round */
    int64_t *touched;               /* the links with peak > 0 */
    int64_t ntouched, captouched;
    int32_t *round, *kload;         /* per transfer */
    int64_t *order;                 /* transfers sorted by sub-round */
    int64_t *first;                 /* per sub-round + 1: where it starts in order */
    size_t capx, capr;
    const Sched *s;                 /* what the cache holds */
    int32_t step, cap, nsub, maxload;
    int64_t over;
    bool oom;
};

SubRound *subround_new(const Net *net)
{
    SubRound *sr = calloc(1, sizeof *sr);
    if (!sr)
        return NULL;
    sr->net = net;
    sr->step = -1;
    size_t size = (size_t)net_size(net);
    sr->lastsend = calloc(size, sizeof *sr->lastsend);
    sr->lastrecv = calloc(size, sizeof *sr->lastrecv);
    if (!sr->lastsend || !sr->lastrecv) {
        subround_free(sr);
        return NULL;
    }
    return sr;
}

void subround_free(SubRound *sr)
{
    if (!sr)
        return;
    free(sr->lastsend);
    free(sr->lastrecv);
    free(sr->load);
    free(sr->peak);
    free(sr->touched);
    free(sr->round);
    free(sr->kload);
    free(sr->order);
    free(sr->first);
    free(sr);
}

static bool grow(void **p, size_t n, size_t size)
{
    void *q = realloc(*p, n * size);
    if (!q)
        return false;
    *p = q;
    return true;
}

/* Walk the links of transfer i's route: add `delta` to each load (counting the overloads
 * over cap when adding), or (delta 0) return the largest load on it. */
static int32_t walk(SubRound *sr, const Sched *s, int32_t st, int64_t i, int delta)
{
    const Net *net = sr->net;
    SchedTransfer t;
    sched_transfer(s, st, i, &t);
    int32_t node = t.src, m = 0;
    for (int g = 0; g < t.nseg; g++) {
        for (int32_t h = 0; h < t.seg[g].len; h++) {
            int64_t l = net_link(net, node, t.seg[g].dim, t.seg[g].dir);
            int32_t *v = &sr->load[l];
            if (delta > 0) {
                if (++*v > sr->peak[l]) {
                    if (sr->peak[l] == 0) {
                        if (sr->ntouched == sr->captouched) {
                            size_t nc = sr->captouched ? 2 * (size_t)sr->captouched : 64;
                            if (!grow((void **)&sr->touched, nc, sizeof *sr->touched)) {
                                sr->oom = true;
                                return 0;
                            }
                            sr->captouched = (int64_t)nc;
                        }
                        sr->touched[sr->ntouched++] = l;
                    }
                    sr->peak[l] = *v;
                    if (*v == sr->cap + 1)
                        sr->over++;
                }
                if (*v > sr->maxload)
                    sr->maxload = *v;
            } else if (delta < 0) {
                --*v;
            } else if (*v > m) {
                m = *v;
            }
            node = net_neighbor(net, node, t.seg[g].dim, t.seg[g].dir);
        }
    }
    return m;
}

int32_t subround_split(SubRound *sr, const Sched *s, int32_t st, int32_t cap)
{
    if (sr->s == s && sr->step == st && sr->cap == cap)
        return sr->nsub;
    sr->s = NULL;
    sr->step = -1;
    int64_t n = sched_ntransfers(s, st);
    if ((size_t)n > sr->capx) {
        size_t nc = sr->capx ? sr->capx : 64;
        while (nc < (size_t)n)
            nc *= 2;
        if (!grow((void **)&sr->round, nc, sizeof *sr->round) ||
            !grow((void **)&sr->kload, nc, sizeof *sr->kload) ||
            !grow((void **)&sr->order, nc, sizeof *sr->order))
            return -1;
        sr->capx = nc;
    }
    /* the sub-rounds, in schedule order */
    int32_t nsub = 0;
    for (int64_t i = 0; i < n; i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        int32_t r = sr->lastsend[t.src] > sr->lastrecv[t.dst] ? sr->lastsend[t.src]
                                                               : sr->lastrecv[t.dst];
        sr->round[i] = r;
        sr->lastsend[t.src] = sr->lastrecv[t.dst] = r + 1;
        if (r + 1 > nsub)
            nsub = r + 1;
    }
    for (int64_t i = 0; i < n; i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        sr->lastsend[t.src] = sr->lastrecv[t.dst] = 0;
    }
    /* transfers grouped by sub-round (counting sort, stable) */
    if ((size_t)nsub + 1 > sr->capr) {
        if (!grow((void **)&sr->first, (size_t)nsub + 1, sizeof *sr->first))
            return -1;
        sr->capr = (size_t)nsub + 1;
    }
    memset(sr->first, 0, ((size_t)nsub + 1) * sizeof *sr->first);
    for (int64_t i = 0; i < n; i++)
        sr->first[sr->round[i] + 1]++;
    for (int32_t r = 0; r < nsub; r++)
        sr->first[r + 1] += sr->first[r];
    for (int64_t i = 0; i < n; i++)
        sr->order[sr->first[sr->round[i]]++] = i;
    for (int32_t r = nsub; r > 0; r--)
        sr->first[r] = sr->first[r - 1];
    sr->first[0] = 0;
    /* loads per sub-round */
    sr->cap = cap;
    sr->maxload = n > 0;
    sr->over = 0;
    if (net_pairwise(sr->net)) {   /* full:P, hxbar: pair links, no grid links to walk */
        /* a pair's link is used by its source only, which sends once per sub-round */
        for (int64_t i = 0; i < n; i++)
            sr->kload[i] = 1;
    } else {
        if (!sr->load) {
            sr->load = calloc((size_t)net_nlinks(sr->net), sizeof *sr->load);
            sr->peak = calloc((size_t)net_nlinks(sr->net), sizeof *sr->peak);
            if (!sr->load || !sr->peak)
                return -1;
        }
        for (int64_t j = 0; j < sr->ntouched; j++)
            sr->peak[sr->touched[j]] = 0;
        sr->ntouched = 0;
        sr->oom = false;
        for (int32_t r = 0; r < nsub; r++) {
            int64_t a = sr->first[r], b = sr->first[r + 1];
            for (int64_t j = a; j < b; j++)
                walk(sr, s, st, sr->order[j], 1);
            for (int64_t j = a; j < b; j++)
                sr->kload[sr->order[j]] = walk(sr, s, st, sr->order[j], 0);
            for (int64_t j = a; j < b; j++)
                walk(sr, s, st, sr->order[j], -1);
        }
        if (sr->oom)
            return -1;
    }
    sr->s = s;
    sr->step = st;
    sr->nsub = nsub;
    return nsub;
}

const int32_t *subround_of(const SubRound *sr) { return sr->round; }
const int32_t *subround_load(const SubRound *sr) { return sr->kload; }
int32_t subround_maxload(const SubRound *sr) { return sr->maxload; }
int64_t subround_overloads(const SubRound *sr) { return sr->over; }
int32_t subround_link_load(const SubRound *sr, int64_t link)
{
    return sr->peak && link >= 0 && link < net_nlinks(sr->net) ? sr->peak[link] : 0;
}
