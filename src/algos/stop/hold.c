/* hold.c — the s-to-p builders' model of every node's holdings (stop-internal.h): sorted
 * chunk ranges per node (one inline, more on the heap), sends queued per step and applied
 * together. */
#include <stdlib.h>
#include <string.h>

#include "stop-internal.h"

typedef struct {
    uint32_t n, cap;     /* cap <= 1: the range is inline */
    union {
        ChunkRange one;
        ChunkRange *many;
    } u;
} HNode;

typedef struct {
    int32_t dst;
    uint32_t n;
    size_t off;          /* into pool */
} Pending;

struct StopHold {
    Sched *s;
    int32_t p;
    HNode *node;
    Pending *pend;
    size_t npend, cappend;
    ChunkRange *pool;    /* the queued transfers' ranges */
    size_t npool, cappool;
    ChunkRange *tmp;     /* scratch for unions */
    size_t captmp;
};

static const ChunkRange *ranges(const HNode *x)
{
    return x->cap <= 1 ? &x->u.one : x->u.many;
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q)
        return false;
    *p = q;
    *cap = nc;
    return true;
}

/* Store r[0..n) as x's ranges. */
static bool store(HNode *x, const ChunkRange *r, uint32_t n)
{
    if (n <= 1 && x->cap <= 1) {
        x->n = n;
        x->cap = 1;
        if (n)
            x->u.one = r[0];
        return true;
    }
    if (x->cap <= 1 || x->cap < n) {
        uint32_t nc = n < 4 ? 4 : n;
        ChunkRange *m = malloc(sizeof *m * nc);
        if (!m)
            return false;
        if (x->cap > 1)
            free(x->u.many);
        x->u.many = m;
        x->cap = nc;
    }
    memmove(x->u.many, r, sizeof *r * n);
    x->n = n;
    return true;
}

static bool fail(StopHold *h)
{
    sched_fail(h->s, "out of memory");
    return false;
}

/* Union of a (na) and b (nb) into h->tmp; returns the count. */
static uint32_t unite(StopHold *h, const ChunkRange *a, uint32_t na, const ChunkRange *b,
                      uint32_t nb, bool *ok)
{
    *ok = grow((void **)&h->tmp, &h->captmp, (size_t)na + nb, sizeof *h->tmp);
    if (!*ok)
        return 0;
    uint32_t i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        ChunkRange r = (j >= nb || (i < na && a[i].lo <= b[j].lo)) ? a[i++] : b[j++];
        if (n && r.lo <= h->tmp[n - 1].hi) {
            if (r.hi > h->tmp[n - 1].hi)
                h->tmp[n - 1].hi = r.hi;
        } else {
            h->tmp[n++] = r;
        }
    }
    return n;
}

StopHold *stop_hold_new(Sched *s)
{
    StopHold *h = calloc(1, sizeof *h);
    int32_t p = net_size(sched_net(s));
    if (h)
        h->node = calloc((size_t)p, sizeof *h->node);
    if (!h || !h->node) {
        free(h);
        sched_fail(s, "out of memory");
        return NULL;
    }
    h->s = s;
    h->p = p;
    for (size_t i = 0; i < sched_ngiven(s); i++) {
        int32_t nd;
        ChunkRange r;
        sched_given(s, i, &nd, &r);
        HNode *x = &h->node[nd];
        bool ok;
        uint32_t n = unite(h, ranges(x), x->n, &r, 1, &ok);
        if (!ok || !store(x, h->tmp, n)) {
            stop_hold_free(h);
            sched_fail(s, "out of memory");
            return NULL;
        }
    }
    return h;
}

void stop_hold_free(StopHold *h)
{
    if (!h)
        return;
    for (int32_t i = 0; i < h->p; i++)
        if (h->node[i].cap > 1)
            free(h->node[i].u.many);
    free(h->node);
    free(h->pend);
    free(h->pool);
    free(h->tmp);
    free(h);
}

bool stop_hold_empty(const StopHold *h, int32_t node) { return h->node[node].n == 0; }

bool stop_hold_send(StopHold *h, int32_t src, int32_t dst)
{
    const HNode *a = &h->node[src], *b = &h->node[dst];
    if (a->n == 0)
        return true;
    /* a minus b, appended to the pool */
    if (!grow((void **)&h->pool, &h->cappool, h->npool + (size_t)a->n + b->n, sizeof *h->pool))
        return fail(h);
    const ChunkRange *ra = ranges(a), *rb = ranges(b);
    size_t start = h->npool, n = start;
    uint32_t j = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        uint32_t lo = ra[i].lo, hi = ra[i].hi;
        while (j < b->n && rb[j].hi <= lo)
            j++;
        uint32_t k = j;
        while (lo < hi) {
            if (k >= b->n || rb[k].lo >= hi) {
                h->pool[n++] = (ChunkRange){lo, hi};
                break;
            }
            if (rb[k].lo > lo)
                h->pool[n++] = (ChunkRange){lo, rb[k].lo};
            if (rb[k].hi >= hi)
                break;
            lo = rb[k].hi;
            k++;
        }
    }
    if (n == start)
        return true;
    if (!sched_send(h->s, src, dst, h->pool + start, n - start))
        return false;
    if (!grow((void **)&h->pend, &h->cappend, h->npend + 1, sizeof *h->pend))
        return fail(h);
    h->pend[h->npend++] = (Pending){dst, (uint32_t)(n - start), start};
    h->npool = n;
    return true;
}

bool stop_hold_commit(StopHold *h)
{
    for (size_t i = 0; i < h->npend; i++) {
        HNode *x = &h->node[h->pend[i].dst];
        bool ok;
        uint32_t n = unite(h, ranges(x), x->n, h->pool + h->pend[i].off, h->pend[i].n, &ok);
        if (!ok || !store(x, h->tmp, n))
            return fail(h);
    }
    h->npend = 0;
    h->npool = 0;
    return true;
}

void stop_hold_forget(StopHold *h, int32_t node) { h->node[node].n = 0; }

bool stop_hold_all(StopHold *h, int32_t node)
{
    ChunkRange r = {0, sched_nchunks(h->s)};
    if (!store(&h->node[node], &r, 1))
        return fail(h);
    return true;
}

int32_t stop_hold_nodes(const StopHold *h, int32_t *out)
{
    int32_t n = 0;
    for (int32_t i = 0; i < h->p; i++)
        if (h->node[i].n)
            out[n++] = i;
    return n;
}
