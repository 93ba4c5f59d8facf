/* sim-holdtab.c — every node's holdings, the uncommon cases out of line: sim-hold.h. */
#include "sim-hold.h"

#include "bigmem.h"
#include "sched-internal.h"

#include <stdlib.h>
#include <string.h>

bool ht_init(HoldTab *t, int32_t nnodes, bool huge)
{
    memset(t, 0, sizeof *t);
    t->nnodes = nnodes;
    t->huge = huge;
    t->dense_at = nnodes / 16 > 64 ? (uint32_t)(nnodes / 16) : 64;
    /* every informed node's record is written: the pages made at once (bigmem.h) */
    size_t bytes = (size_t)(nnodes > 0 ? nnodes : 1) * sizeof *t->rec;
    t->rec = huge ? bigmem_alloc_huge(bytes) : bigmem_alloc_whole(bytes);
    return t->rec != NULL;
}

static void free_big(HoldTab *t)
{
    for (uint32_t i = 0; i < t->nbig; i++)
        hold_clear(&t->big[i]);
    t->nbig = 0;
}

void ht_free(HoldTab *t)
{
    if (!t)
        return;
    free_big(t);
    if (t->dense)   /* (only the heap arrays freed: the Holds read, not cleared one by one) */
        for (int32_t v = 0; v < t->nnodes; v++)
            if (hold_heap(&t->dense[v]))
                free(t->dense[v].u.h.base);
    free(t->dense);
    free(t->big);
    free(t->rec);
    memset(t, 0, sizeof *t);
}

void ht_reset(HoldTab *t)
{
    t->borrowed = false;
    if (t->dense) {
        for (int32_t v = 0; v < t->nnodes; v++)
            hold_clear(&t->dense[v]);
        return;
    }
    free_big(t);
    memset(t->rec, 0, (size_t)t->nnodes * sizeof *t->rec);
}

/* Node v's Hold when the table turns dense, from its record r. */
static inline Hold dense_hold(const HoldTab *t, ChunkRange r)
{
    Hold x;
    memset(&x, 0, sizeof x);
    if (r.lo == HT_BIG) {
        x = t->big[r.hi];   /* its heap array, if any, moves with it */
    } else if (r.lo < r.hi) {
        x.u.in[0] = r;
        x.n = 1;
    }
    return x;
}

/* The records' array grown in place into the dense one (rec, big freed): realloc keeps the
 * records' pages (made at ht_init) as the head of the new array (mremap moves, not copies, an
 * mmapped block), only the rest is fresh (made at once: bigmem_populate), and the Holds are
 * written from the last node down: dense[v] covers records 5v..5v+4, none of them before v,
 * so every record is read before a Hold is written over it.  The table's peak is the dense
 * array alone, not it and the records.  False: memory (the table unchanged). */
static Hold *dense_in_place(HoldTab *t)
{
    size_t n = (size_t)t->nnodes, rbytes = n * sizeof *t->rec, bytes = n * sizeof(Hold);
    char *p = realloc(t->rec, bytes);
    if (!p)
        return NULL;
    bigmem_populate(p + rbytes, bytes - rbytes);
    const ChunkRange *rec = (const ChunkRange *)p;
    Hold *d = (Hold *)p;
    for (size_t v = n; v-- > 0;) {
        Hold x = dense_hold(t, rec[v]);   /* (read whole before d[v] is written) */
        d[v] = x;
    }
    return d;
}

/* One Hold per node from now on: dense[v] (the records and big freed).  False: memory (the
 * table unchanged). */
static bool go_dense(HoldTab *t)
{
    Hold *d;
    if (t->huge) {   /* (huge pages for the dense array, bigmem.h: a new one) */
        d = bigmem_alloc_huge((size_t)t->nnodes * sizeof(Hold));
        if (!d)
            return false;
        for (int32_t v = 0; v < t->nnodes; v++)
            d[v] = dense_hold(t, t->rec[v]);
        free(t->rec);
    } else {
        d = dense_in_place(t);
        if (!d)
            return false;
    }
    free(t->big);
    t->big = NULL;
    t->rec = NULL;
    t->nbig = t->capbig = 0;
    t->dense = d;
    return true;
}

/* Node v's Hold in big, made (with its one interval, if any) when v is not big yet; or, dense,
 * dense[v]. */
static Hold *to_big(HoldTab *t, int32_t v)
{
    if (t->dense)
        return &t->dense[v];
    ChunkRange *r = &t->rec[v];
    if (r->lo == HT_BIG)
        return &t->big[r->hi];
    if (t->nbig >= t->dense_at)
        return go_dense(t) ? &t->dense[v] : NULL;
    if (t->nbig == t->capbig) {
        if (t->capbig >= UINT32_MAX / 2)
            return NULL;
        uint32_t nc = t->capbig ? 2 * t->capbig : 64;
        Hold *b = realloc(t->big, (size_t)nc * sizeof *b);
        if (!b)
            return NULL;
        t->big = b;
        t->capbig = nc;
    }
    Hold *h = &t->big[t->nbig];
    memset(h, 0, sizeof *h);
    if (r->lo < r->hi) {
        h->u.in[0] = *r;
        h->n = 1;
    }
    r->lo = HT_BIG;
    r->hi = t->nbig++;
    return h;
}

bool ht_add_slow(HoldTab *t, int32_t v, uint32_t lo, uint32_t hi)
{
    Hold *h = to_big(t, v);
    return h && hold_add(h, lo, hi);
}

/* Node v's holdings as a Hold: its big one, or *tmp made from its record. */
static const Hold *as_hold(const HoldTab *t, int32_t v, Hold *tmp)
{
    if (t->dense)
        return &t->dense[v];
    ChunkRange r = t->rec[v];
    if (r.lo == HT_BIG)
        return &t->big[r.hi];
    memset(tmp, 0, sizeof *tmp);
    if (r.lo < r.hi) {
        tmp->u.in[0] = r;
        tmp->n = 1;
    }
    return tmp;
}

/* Store the inline Hold tmp (at most HOLD_INLINE intervals, no heap) as node v's holdings. */
static bool put(HoldTab *t, int32_t v, const Hold *tmp)
{
    if (tmp->n <= 1) {
        t->rec[v] = tmp->n ? tmp->u.in[0] : (ChunkRange){ 0, 0 };
        return true;
    }
    Hold *h = to_big(t, v);
    if (!h)
        return false;
    *h = *tmp;
    return true;
}

bool ht_remove(HoldTab *t, int32_t v, uint32_t lo, uint32_t hi)
{
    if (t->dense)
        return hold_remove(&t->dense[v], lo, hi);
    if (t->rec[v].lo == HT_BIG)
        return hold_remove(&t->big[t->rec[v].hi], lo, hi);
    Hold tmp;
    as_hold(t, v, &tmp);
    if (!hold_remove(&tmp, lo, hi))   /* inline: no heap is made */
        return false;
    return put(t, v, &tmp);
}

bool ht_merge(HoldTab *t, int32_t v, const ChunkRange *r, size_t k, bool add)
{
    if (t->dense)
        return hold_merge(&t->dense[v], r, k, add);
    if (t->rec[v].lo == HT_BIG)
        return hold_merge(&t->big[t->rec[v].hi], r, k, add);
    Hold tmp;
    as_hold(t, v, &tmp);
    if (!hold_merge(&tmp, r, k, add))
        return false;
    if (!tmp.cap)
        return put(t, v, &tmp);
    Hold *h = to_big(t, v);   /* the merge made a heap array: tmp moves to big */
    if (!h) {
        hold_clear(&tmp);
        return false;
    }
    *h = tmp;
    return true;
}

/* The bits (fixed, free) of the submask set the borrowing h borrowed: kept in it, or (a base
 * borrowed as ranges) read from its first and last range.  False: not one (or not known). */
static inline bool base_bits(const HoldTab *t, const Hold *h, uint32_t *fb, uint32_t *mb)
{
    if (hold_sub(h)) {
        *fb = h->u.b.s.fixed;
        *mb = h->u.b.s.free;
        return true;
    }
    return t->subs && hold_borrowed(h) &&
           sched_pool_submasks(t->subs, h->u.b.base, hold_nb(h), fb, mb);
}

bool ht_contains_all_slow(const HoldTab *t, int32_t v, const ChunkRange *r, uint32_t nr,
                          uint32_t *k, uint32_t *miss)
{
    Hold tmp;
    const Hold *h = as_hold(t, v, &tmp);
    /* a submask set sent on from the submask set the node borrowed (rh's distribution): its
     * bits alone show it inside, with no range of the base read */
    uint32_t ft, mt, fb, mb;
    if (t->subs && nr >= 2 && base_bits(t, h, &fb, &mb) &&
        sched_pool_submasks(t->subs, r, nr, &ft, &mt) &&
        sched_submasks_within(ft, mt, fb, mb))
        return true;
    return hold_contains_all(h, r, nr, k, miss);
}

bool ht_holds_set(const HoldTab *t, int32_t v, uint32_t fixed, uint32_t free_)
{
    Hold tmp;
    const Hold *h = as_hold(t, v, &tmp);
    uint32_t fb, mb;
    if (hold_borrowed(h) && base_bits(t, h, &fb, &mb) &&
        sched_submasks_within(fixed, free_, fb, mb))
        return true;   /* inside the submask set it borrowed (see ht_contains_all) */
    if (!hold_borrowed(h) && hold_contains(h, fixed, (fixed | free_) + 1, NULL))
        return true;   /* one interval spans it */
    /* a few ranges (a set of 2-16, which a relay copied rather than borrowed): made from the
     * bits and tested */
    enum { FEW = 16 };
    ChunkRange g[FEW];
    uint32_t k, miss;
    return hold_sub_count(free_) <= FEW &&
           hold_contains_all(h, g, (uint32_t)sched_submasks_list(fixed, free_, g), &k, &miss);
}

bool ht_none(const HoldTab *t, int32_t v, const ChunkRange *r, uint32_t nr)
{
    Hold tmp;
    return hold_none(as_hold(t, v, &tmp), r, nr);
}

bool ht_borrow(HoldTab *t, int32_t v, const ChunkRange *r, uint32_t nr)
{
    Hold *h = to_big(t, v);
    if (!h)
        return false;
    hold_borrow(h, r, nr);
    t->borrowed = true;
    return true;
}

bool ht_borrow_sub(HoldTab *t, int32_t v, uint32_t fixed, uint32_t free_)
{
    Hold *h = to_big(t, v);
    if (!h)
        return false;
    hold_borrow_sub(h, fixed, free_);
    t->borrowed = true;
    return true;
}

bool ht_own_all(HoldTab *t)
{
    if (!t->borrowed)
        return true;
    Hold *h = t->dense ? t->dense : t->big;
    size_t n = t->dense ? (size_t)t->nnodes : t->nbig;
    for (size_t i = 0; i < n; i++)
        if (!hold_own(&h[i]))
            return false;
    t->borrowed = false;
    return true;
}

bool ht_finish(HoldTab *t, uint32_t nch, HtMissFn *fn, void *ctx)
{
    if (!fn)
        return ht_own_all(t);
    if (!t->dense) {
        if (!ht_own_all(t))   /* the big Holds only, not the records */
            return false;
        /* a run of FINISH_RUN nodes whose records are all the one interval [0, nch) holds
         * everything, found without a branch per node; the others are asked one by one */
        enum { FINISH_RUN = 64 };
        const ChunkRange *rec = t->rec;
        for (int32_t v = 0; v < t->nnodes; v++) {
            if (v % FINISH_RUN == 0 && t->nnodes - v >= FINISH_RUN) {
                uint32_t odd = 0;
                for (int32_t j = v; j < v + FINISH_RUN; j++)
                    odd |= rec[j].lo | (rec[j].hi ^ nch);
                if (odd == 0) {
                    v += FINISH_RUN - 1;
                    continue;
                }
            }
            uint32_t miss;
            if (!ht_contains(t, v, 0, nch, &miss))
                fn(ctx, v, miss);
        }
        return true;
    }
    /* dense: each Hold read once, owned (if it borrows) and tested while in cache */
    bool own = t->borrowed;
    for (int32_t v = 0; v < t->nnodes; v++) {
        Hold *h = &t->dense[v];
        if (own && hold_borrowed(h) && !hold_own(h))
            return false;
        uint32_t miss;
        if (!hold_contains(h, 0, nch, &miss))
            fn(ctx, v, miss);
    }
    t->borrowed = false;
    return true;
}
