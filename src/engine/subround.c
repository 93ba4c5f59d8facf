/* subround.c — a step split into one-port sub-rounds and their link loads: subround.h.
 *
 * Loads are kept per link in the simulators' layout (arcmap.h), where a route is a few
 * contiguous ranges.  A sub-round whose routes are short is counted by walking them link by
 * link; one whose routes are long against its number of transfers (one node sending to every
 * node of array:65536 makes 65535 sub-rounds of one route each, 2^31 links in all) is counted
 * from its ranges alone: their ends sorted, the count between consecutive ends, a sparse table
 * for each transfer's busiest range, and each range's count kept; at the end of the step the
 * links' peaks are painted from those kept ranges, largest count first, each link once (a
 * "next unpainted link" union-find).  So a step costs O(min(route lengths, k log k)) per
 * sub-round of k transfers plus O(links), never the sum of its route lengths. */
#include "subround.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arcmap.h"

typedef struct {
    int64_t pos;
    int32_t delta;
} Ev;

typedef struct {
    int64_t a, b;      /* layout links a..b */
    int32_t c;         /* circuits on them in one sub-round */
} Iv;

struct SubRound {
    const Net *net;
    ArcMap map;
    int64_t nlay;                   /* layout entries */
    int32_t *lastsend, *lastrecv;   /* per node: 1 + the sub-round of its last send/receive */
    int32_t *load;                  /* per layout link, the current sub-round's loads (lazy) */
    int32_t *peak;                  /* per layout link, its largest load in any sub-round */
    int64_t *touched;               /* the links with peak > 0 */
    int64_t ntouched, captouched;
    int32_t *round, *kload;         /* per transfer */
    int64_t *order;                 /* transfers sorted by sub-round */
    int64_t *first;                 /* per sub-round + 1: where it starts in order */
    size_t capx, capr;
    Ev *ev;                         /* a swept sub-round's range ends */
    int64_t *xs;                    /* its distinct ends */
    int32_t *tab;                   /* its counts' sparse table (levels of m) */
    size_t capev, capxs, captab;
    Iv *iv;                         /* ranges with their counts, painted at the end */
    size_t niv, capiv;
    int64_t *next;                  /* the paint's union-find (nlay + 1) */
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
    if (!net_pairwise(net)) {
        arcmap_init(&sr->map, net);
        sr->nlay = 2 * (int64_t)net_ndim(net) * net_size(net);
    }
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
    free(sr->ev);
    free(sr->xs);
    free(sr->tab);
    free(sr->iv);
    free(sr->next);
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

/* Room for n items of size in *p (capacity *cap, doubled). */
static bool reserve(void **p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap)
        return true;
    size_t nc = *cap ? *cap : 64;
    while (nc < n)
        nc *= 2;
    if (!grow(p, nc, size))
        return false;
    *cap = nc;
    return true;
}

/* The layout ranges of transfer i's route; returns their number. */
static int pieces(const SubRound *sr, const Sched *s, int32_t st, int64_t i, ArcPiece *pc)
{
    SchedTransfer t;
    sched_transfer(s, st, i, &t);
    int32_t c[NET_MAXDIM] = { 0, 0, 0 };
    net_coords(sr->net, t.src, c);
    int np = 0;
    for (int g = 0; g < t.nseg; g++) {
        int d = t.seg[g].dim, dir = t.seg[g].dir;
        int32_t n = net_dim(sr->net, d), len = t.seg[g].len;
        while (len > 0) {   /* a segment once round the ring or more: whole lines */
            int32_t l = len < n ? len : n - 1;
            if (np + 2 > ARCMAP_MAXPIECES * 4)
                break;
            np += arcmap_seg(&sr->map, c, d, dir, l, pc + np);
            c[d] = (int32_t)(((int64_t)c[d] + (dir > 0 ? l : n - l)) % n);
            len -= l;
        }
    }
    return np;
}

/* A new peak c on layout link l. */
static void raise_peak(SubRound *sr, int64_t l, int32_t c)
{
    if (c <= sr->peak[l])
        return;
    if (sr->peak[l] == 0) {
        if (!reserve((void **)&sr->touched, (size_t *)&sr->captouched, (size_t)sr->ntouched + 1,
                     sizeof *sr->touched)) {
            sr->oom = true;
            return;
        }
        sr->touched[sr->ntouched++] = l;
    }
    if (sr->peak[l] <= sr->cap && c > sr->cap)
        sr->over++;
    sr->peak[l] = c;
    if (c > sr->maxload)
        sr->maxload = c;
}

/* Walk transfer i's route: add `delta` to each load (raising the peaks when adding), or
 * (delta 0) return the largest load on it. */
static int32_t walk(SubRound *sr, const Sched *s, int32_t st, int64_t i, int delta)
{
    ArcPiece pc[ARCMAP_MAXPIECES * 4];
    int np = pieces(sr, s, st, i, pc);
    int32_t m = 0;
    for (int k = 0; k < np; k++)
        for (int64_t l = pc[k].a; l <= pc[k].b; l++) {
            int32_t *v = &sr->load[l];
            if (delta > 0) {
                ++*v;
                raise_peak(sr, l, *v);
            } else if (delta < 0) {
                --*v;
            } else if (*v > m) {
                m = *v;
            }
        }
    return m;
}

static int cmp_ev(const void *x, const void *y)
{
    const Ev *a = x, *b = y;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int cmp_iv(const void *x, const void *y)
{
    const Iv *a = x, *b = y;
    return a->c > b->c ? -1 : a->c < b->c;
}

static int64_t find_x(const int64_t *xs, int64_t m, int64_t v)
{
    int64_t lo = 0, hi = m;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (xs[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The sub-round order[a..b) counted from its ranges alone (see the top). */
static bool sweep(SubRound *sr, const Sched *s, int32_t st, int64_t a, int64_t b)
{
    ArcPiece pc[ARCMAP_MAXPIECES * 4];
    size_t ne = 0;
    for (int64_t j = a; j < b; j++) {
        int np = pieces(sr, s, st, sr->order[j], pc);
        if (!reserve((void **)&sr->ev, &sr->capev, ne + 2 * (size_t)np, sizeof *sr->ev))
            return false;
        for (int k = 0; k < np; k++) {
            sr->ev[ne++] = (Ev){ pc[k].a, 1 };
            sr->ev[ne++] = (Ev){ pc[k].b + 1, -1 };
        }
    }
    if (ne == 0) {
        for (int64_t j = a; j < b; j++)
            sr->kload[sr->order[j]] = 0;
        return true;
    }
    qsort(sr->ev, ne, sizeof *sr->ev, cmp_ev);
    /* distinct ends xs[0..m) and cnt[i]: the circuits on links xs[i] .. xs[i+1]-1 */
    int levels = 1;
    while (((size_t)1 << levels) <= ne)
        levels++;
    if (!reserve((void **)&sr->xs, &sr->capxs, ne, sizeof *sr->xs) ||
        !reserve((void **)&sr->tab, &sr->captab, ne * (size_t)levels, sizeof *sr->tab))
        return false;
    int64_t m = 0;
    int32_t run = 0;
    int32_t *cnt = sr->tab;
    for (size_t e = 0; e < ne;) {
        int64_t x = sr->ev[e].pos;
        while (e < ne && sr->ev[e].pos == x)
            run += sr->ev[e++].delta;
        sr->xs[m] = x;
        cnt[m] = run;
        m++;
    }
    /* the counts' ranges kept for the paint */
    for (int64_t i = 0; i + 1 < m; i++) {
        if (cnt[i] <= 0)
            continue;
        if (!reserve((void **)&sr->iv, &sr->capiv, sr->niv + 1, sizeof *sr->iv))
            return false;
        sr->iv[sr->niv++] = (Iv){ sr->xs[i], sr->xs[i + 1] - 1, cnt[i] };
    }
    /* sparse table: tab[k * m + i] = max cnt[i .. i + 2^k) */
    for (int k = 1; ((int64_t)1 << k) <= m; k++)
        for (int64_t i = 0; i + ((int64_t)1 << k) <= m; i++) {
            int32_t x = sr->tab[(size_t)(k - 1) * (size_t)m + (size_t)i];
            int32_t y = sr->tab[(size_t)(k - 1) * (size_t)m + (size_t)i + ((size_t)1 << (k - 1))];
            sr->tab[(size_t)k * (size_t)m + (size_t)i] = x > y ? x : y;
        }
    for (int64_t j = a; j < b; j++) {
        int np = pieces(sr, s, st, sr->order[j], pc);
        int32_t best = 0;
        for (int k = 0; k < np; k++) {
            int64_t lo = find_x(sr->xs, m, pc[k].a), hi = find_x(sr->xs, m, pc[k].b + 1);
            if (hi <= lo)
                continue;
            int lv = 0;
            while (((int64_t)1 << (lv + 1)) <= hi - lo)
                lv++;
            int32_t x = sr->tab[(size_t)lv * (size_t)m + (size_t)lo];
            int32_t y = sr->tab[(size_t)lv * (size_t)m + (size_t)(hi - ((int64_t)1 << lv))];
            int32_t v = x > y ? x : y;
            if (v > best)
                best = v;
        }
        sr->kload[sr->order[j]] = best;
    }
    return true;
}

static int64_t find_next(int64_t *next, int64_t x)
{
    int64_t r = x;
    while (next[r] != r)
        r = next[r];
    while (next[x] != r) {
        int64_t up = next[x];
        next[x] = r;
        x = up;
    }
    return r;
}

/* The kept ranges painted onto the peaks, largest count first, each link once. */
static bool paint(SubRound *sr)
{
    if (sr->niv == 0)
        return true;
    if (!sr->next && !(sr->next = malloc(((size_t)sr->nlay + 1) * sizeof *sr->next)))
        return false;
    for (int64_t i = 0; i <= sr->nlay; i++)
        sr->next[i] = i;
    qsort(sr->iv, sr->niv, sizeof *sr->iv, cmp_iv);
    for (size_t k = 0; k < sr->niv; k++) {
        const Iv *v = &sr->iv[k];
        for (int64_t p = find_next(sr->next, v->a); p <= v->b; p = find_next(sr->next, p)) {
            raise_peak(sr, p, v->c);
            sr->next[p] = p + 1;
        }
    }
    sr->niv = 0;
    return !sr->oom;
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
            sr->load = calloc((size_t)sr->nlay, sizeof *sr->load);
            sr->peak = calloc((size_t)sr->nlay, sizeof *sr->peak);
            if (!sr->load || !sr->peak)
                return -1;
        }
        for (int64_t j = 0; j < sr->ntouched; j++)
            sr->peak[sr->touched[j]] = 0;
        sr->ntouched = 0;
        sr->oom = false;
        sr->niv = 0;
        for (int32_t r = 0; r < nsub; r++) {
            int64_t a = sr->first[r], b = sr->first[r + 1], hops = 0;
            for (int64_t j = a; j < b; j++) {
                SchedTransfer t;
                sched_transfer(s, st, sr->order[j], &t);
                hops += t.len;
            }
            if (hops > 16 * (b - a) + 64) {   /* long routes: from their ranges */
                if (!sweep(sr, s, st, a, b))
                    return -1;
                continue;
            }
            for (int64_t j = a; j < b; j++)
                walk(sr, s, st, sr->order[j], 1);
            for (int64_t j = a; j < b; j++)
                sr->kload[sr->order[j]] = walk(sr, s, st, sr->order[j], 0);
            for (int64_t j = a; j < b; j++)
                walk(sr, s, st, sr->order[j], -1);
        }
        if (sr->oom || !paint(sr))
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
    if (!sr->peak || link < 0 || link >= net_nlinks(sr->net))
        return 0;
    return sr->peak[arcmap_index(&sr->map, link)];
}
