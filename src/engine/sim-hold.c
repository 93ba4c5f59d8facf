/* sim-hold.c — a node's holdings while replaying, out of line: sim-hold.h. */
#include "sim-hold.h"

#include "sched-internal.h"

#include <stdlib.h>
#include <string.h>

/* The first index of b[0..nb) with b[j].hi >= x (nb if none): a binary search without
 * branches on the data (a base of a few cache lines is searched in a few cycles each). */
static size_t bsearch_hi_ge(const ChunkRange *b, size_t nb, uint32_t x)
{
    if (nb == 0)
        return 0;
    const ChunkRange *p = b;
    while (nb > 1) {
        size_t half = nb / 2;
        p = p[half].hi < x ? p + half : p;
        nb -= half;
    }
    return (size_t)(p - b) + (p->hi < x);
}

/* Set h to the k intervals t[0..k) (t may point into h's own array). */
bool hold_set(Hold *h, const ChunkRange *t, size_t k)
{
    if (hold_borrowed(h))   /* let the base go (t is read before the Hold is written) */
        h->cap = 0;
    if (k <= HOLD_INLINE) {
        ChunkRange tmp[HOLD_INLINE];
        memcpy(tmp, t, k * sizeof *t);
        if (hold_heap(h))
            free(h->u.h.base);
        memcpy(h->u.in, tmp, k * sizeof *t);
        h->n = (uint32_t)k;
        h->cap = 0;
        return true;
    }
    if (k > HOLD_CAP_MAX)
        return false;
    if (h->cap < k) {
        size_t cap = k < 4 ? 4 : k;
        ChunkRange *m = malloc(cap * sizeof *m);
        if (!m)
            return false;
        memcpy(m, t, k * sizeof *t);
        if (hold_heap(h))
            free(h->u.h.base);
        h->u.h.base = m;
        h->cap = (uint32_t)cap;
    } else if (h->u.h.base != t) {
        memmove(h->u.h.base, t, k * sizeof *t);
    }
    h->u.h.off = 0;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)k;
    return true;
}

/* Mirror interval i of a heap Hold (a = base + off). */
static inline void hot_set(Hold *h, const ChunkRange *a, size_t i)
{
    h->u.h.hot = (uint32_t)i;
    h->u.h.hr = a[i];
    h->u.h.lo_min = i > 0 ? a[i - 1].hi + 1 : 0;
    h->u.h.hi_max = i + 1 < h->n ? a[i + 1].lo - 1 : UINT32_MAX;
}

/* Heap case of hold_add (sim-hold.h): merge [lo,hi) (non-empty) into base[off..off+n). */
bool hold_heap_add(Hold *h, uint32_t lo, uint32_t hi)
{
    if (h->u.h.hot != HOT_NONE && lo <= h->u.h.hr.hi && hi >= h->u.h.hr.lo &&
        lo >= h->u.h.lo_min && hi <= h->u.h.hi_max) {
        /* grows the mirrored interval and touches no other */
        ChunkRange *hr = &h->u.h.hr;
        if (lo < hr->lo)
            hr->lo = lo;
        if (hi > hr->hi)
            hr->hi = hi;
        h->u.h.base[h->u.h.off + h->u.h.hot] = *hr;
        return true;
    }
    ChunkRange *a = h->u.h.base + h->u.h.off;
    size_t n = h->n;
    size_t i;   /* the first interval touching [lo,hi] or after it */
    if (h->u.h.hot != HOT_NONE) {
        /* near the mirrored interval (its cache line is the one prefetched): a few steps,
         * then a binary search on the side it points to */
        size_t p = h->u.h.hot;
        int steps = 0;
        if (a[p].hi >= lo) {
            while (p > 0 && a[p - 1].hi >= lo && steps < 8) {
                p--;
                steps++;
            }
            i = (p > 0 && a[p - 1].hi >= lo) ? cr_first_hi_ge(a, p, lo) : p;
        } else {
            p++;
            while (p < n && a[p].hi < lo && steps < 8) {
                p++;
                steps++;
            }
            i = (p < n && a[p].hi < lo) ? p + cr_first_hi_ge(a + p, n - p, lo) : p;
        }
    } else {
        i = (n && a[0].hi >= lo) ? 0 : cr_first_hi_ge(a, n, lo);
    }
    size_t j = i;
    while (j < n && a[j].lo <= hi)                                   /* touching [lo,hi] */
        j++;
    if (i == j) {
        /* insert at i: on the cheaper side when there is room before the first interval */
        if (h->u.h.off > 0 && i <= n - i) {
            a--;
            memmove(a, a + 1, i * sizeof *a);
            h->u.h.off--;
        } else {
            if ((size_t)h->u.h.off + n == h->cap) {
                if (h->u.h.off > 0) {
                    memmove(h->u.h.base, a, n * sizeof *a);
                    h->u.h.off = 0;
                } else {
                    if (h->cap > HOLD_CAP_MAX / 2)
                        return false;
                    size_t nc = (size_t)h->cap * 2;
                    ChunkRange *m = realloc(h->u.h.base, nc * sizeof *m);
                    if (!m)
                        return false;
                    h->u.h.base = m;
                    h->cap = (uint32_t)nc;
                }
                a = h->u.h.base + h->u.h.off;
            }
            memmove(a + i + 1, a + i, (n - i) * sizeof *a);
        }
        a[i].lo = lo;
        a[i].hi = hi;
        h->n++;
        hot_set(h, a, i);
        return true;
    }
    ChunkRange m = { a[i].lo < lo ? a[i].lo : lo, a[j - 1].hi > hi ? a[j - 1].hi : hi };
    size_t k = j - i - 1;   /* intervals that disappear */
    if (k > 0 && i < n - j) {
        memmove(a + k, a, i * sizeof *a);   /* shift the head up */
        a[j - 1] = m;
        h->u.h.off += (uint32_t)k;
    } else {
        a[i] = m;
        if (k > 0)
            memmove(a + i + 1, a + j, (n - j) * sizeof *a);
    }
    h->n -= (uint32_t)k;
    if (h->n <= HOLD_INLINE / 2)   /* back inline (not at HOLD_INLINE: hovering would churn) */
        return hold_set(h, h->u.h.base + h->u.h.off, h->n);
    hot_set(h, h->u.h.base + h->u.h.off, i);
    return true;
}

/* A full inline Hold with [lo,hi) inserted at i: a heap array (out of the way of
 * hold_add_small, which then keeps no array on its stack: 217M -> 174M instructions of
 * rh on mesh:512x512). */
static __attribute__((noinline)) bool add_small_spill(Hold *h, uint32_t i, uint32_t lo,
                                                      uint32_t hi)
{
    ChunkRange t[HOLD_INLINE + 1];
    memcpy(t, h->u.in, i * sizeof *t);
    t[i] = (ChunkRange){ lo, hi };
    memcpy(t + i + 1, h->u.in + i, (h->n - i) * sizeof *t);
    return hold_set(h, t, h->n + 1);
}

/* hold_add into the inline intervals, in the general case, in place: [lo,hi) grows the first
 * interval it touches (and joins those after it that it touches too), or goes in between
 * (an exchange's cases: a block apart from the node's one, blocks that grow one of two or
 * fill the gap); a fifth interval moves the Hold to a heap array. */
bool hold_add_small(Hold *h, uint32_t lo, uint32_t hi)
{
    ChunkRange *in = h->u.in;
    uint32_t n = h->n, i = 0;
    if (n == 2 && lo > in[0].hi) {   /* two, after the first (rh's exchange, mostly) */
        if (hi >= in[1].lo && lo <= in[1].hi) {   /* grows the second */
            if (lo < in[1].lo)
                in[1].lo = lo;
            if (hi > in[1].hi)
                in[1].hi = hi;
            return true;
        }
        if (hi < in[1].lo) {   /* between them */
            in[2] = in[1];
            in[1] = (ChunkRange){ lo, hi };
        } else {   /* after them */
            in[2] = (ChunkRange){ lo, hi };
        }
        h->n = 3;
        return true;
    }
    if (n == 2 && hi < in[1].lo) {   /* two, touching the first or before it, not the second */
        if (hi >= in[0].lo) {   /* grows the first */
            if (lo < in[0].lo)
                in[0].lo = lo;
            if (hi > in[0].hi)
                in[0].hi = hi;
            return true;
        }
        in[2] = in[1];
        in[1] = in[0];
        in[0] = (ChunkRange){ lo, hi };
        h->n = 3;
        return true;
    }
    while (i < n && in[i].hi < lo)   /* the first interval touching [lo,hi] or after it */
        i++;
    if (i < n && in[i].lo <= hi) {   /* touches in[i]: in[i..j) become one */
        uint32_t j = i + 1;
        while (j < n && in[j].lo <= hi)
            j++;
        if (lo < in[i].lo)
            in[i].lo = lo;
        in[i].hi = in[j - 1].hi > hi ? in[j - 1].hi : hi;
        for (uint32_t q = j; q < n; q++)
            in[i + 1 + q - j] = in[q];
        h->n = n - (j - i - 1);
        return true;
    }
    if (n < HOLD_INLINE) {   /* touches none: inserted at i */
        for (uint32_t q = n; q > i; q--)
            in[q] = in[q - 1];
        in[i] = (ChunkRange){ lo, hi };
        h->n = n + 1;
        return true;
    }
    return add_small_spill(h, i, lo, hi);
}

bool hold_remove(Hold *h, uint32_t lo, uint32_t hi)
{
    if (lo >= hi || hold_empty(h))
        return true;
    if (!hold_own(h))
        return false;
    if (!h->cap) {
        /* in place when [lo,hi) meets one interval (the seek's undo of a receive: a block
         * taken off the end of one, or one taken away) */
        ChunkRange *in = h->u.in;
        uint32_t n = h->n, f = 0;
        while (f < n && in[f].hi <= lo)
            f++;
        if (f == n || in[f].lo >= hi)   /* meets none */
            return true;
        if (f + 1 == n || in[f + 1].lo >= hi) {
            if (lo <= in[f].lo && hi >= in[f].hi) {   /* all of it */
                for (uint32_t q = f + 1; q < n; q++)
                    in[q - 1] = in[q];
                h->n = n - 1;
                return true;
            }
            if (lo <= in[f].lo || hi >= in[f].hi) {   /* one end */
                if (lo <= in[f].lo)
                    in[f].lo = hi;
                else
                    in[f].hi = lo;
                return true;
            }
            if (n < HOLD_INLINE) {   /* the middle: split in two */
                for (uint32_t q = n; q > f + 1; q--)
                    in[q] = in[q - 1];
                in[f + 1] = (ChunkRange){ hi, in[f].hi };
                in[f].hi = lo;
                h->n = n + 1;
                return true;
            }
        }
        ChunkRange t[HOLD_INLINE + 1];
        size_t k = 0;
        for (uint32_t i = 0; i < h->n; i++) {
            ChunkRange a = h->u.in[i];
            if (a.hi <= lo || a.lo >= hi) {
                t[k++] = a;
                continue;
            }
            if (a.lo < lo)
                t[k++] = (ChunkRange){ a.lo, lo };
            if (a.hi > hi)
                t[k++] = (ChunkRange){ hi, a.hi };
        }
        return hold_set(h, t, k);
    }
    if (h->u.h.off > 0) {   /* cr_remove works on a plain array */
        memmove(h->u.h.base, h->u.h.base + h->u.h.off, h->n * sizeof(ChunkRange));
        h->u.h.off = 0;
    }
    ChunkRange *m = h->u.h.base;
    size_t n = h->n, cap = h->cap;
    if (!cr_remove(&m, &n, &cap, lo, hi) || cap > HOLD_CAP_MAX)
        return false;
    h->u.h.base = m;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)n;
    h->cap = (uint32_t)cap;
    if (n <= 1)
        return hold_set(h, m, n);
    return true;
}

static bool bor_contains_at(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss, size_t *i_);

/* Does h hold all of r[0..nr) (normalised)?  If not, *k gets the first range it lacks and *miss
 * the first chunk missing from it.  One pass with a cursor over the holdings (the ranges are
 * sorted), galloping over long stretches. */
bool hold_contains_all(const Hold *h, const ChunkRange *r, uint32_t nr, uint32_t *k,
                       uint32_t *miss)
{
    if (nr == 1) {
        *k = 0;
        return hold_contains_inl(h, r[0].lo, r[0].hi, miss);
    }
    if (hold_sub(h)) {   /* each on its own, by bits: no range of the base read */
        uint32_t fixed = h->u.b.s.fixed, f = h->u.b.s.free, low = hold_sub_low(f);
        for (uint32_t j = 0; j < nr; j++) {
            uint32_t lo = r[j].lo, hi = r[j].hi;
            if (lo >= hi || ((lo & ~f) == fixed && ((lo ^ (hi - 1)) & ~low) == 0))
                continue;   /* inside one base interval */
            if (!hold_contains_inl(h, lo, hi, miss)) {
                *k = j;
                return false;
            }
        }
        return true;
    }
    if (hold_borrowed(h)) {   /* each on its own, a cursor moving along the base */
        const ChunkRange *b = h->u.b.base, *o = h->u.b.o;
        size_t nb = hold_nb(h), i = 0;
        uint32_t j0 = 0;
        if (h->n == 0) {   /* the distribution's case, its walk alone (no own intervals yet) */
            for (; j0 < nr; j0++) {
                uint32_t lo = r[j0].lo, hi = r[j0].hi;
                size_t end = nb - 1 - i < 16 ? nb - 1 : i + 16;
                while (i < end && b[i].hi <= lo)
                    i++;
                if (!(b[i].lo <= lo && hi <= b[i].hi))
                    break;   /* (and from here on as below) */
            }
        }
        for (uint32_t j = j0; j < nr; j++) {
            uint32_t lo = r[j].lo, hi = r[j].hi;
            if (lo >= hi)
                continue;
            /* its own intervals (an exchange sends them), then the base interval at the
             * cursor or one of the next 16 (the distribution sends a subset of the base on:
             * every other interval, or runs of them; a walk over two cache lines is cheaper
             * than a gallop's scattered reads) */
            bool own = false;
            for (uint32_t q = 0; q < h->n && !own; q++)
                own = o[q].lo <= lo && hi <= o[q].hi;
            if (own)
                continue;
            for (int s = 0; s < 16 && i + 1 < nb && b[i].hi <= lo; s++)
                i++;
            if (i < nb && b[i].lo <= lo && hi <= b[i].hi)
                continue;
            if (!bor_contains_at(h, lo, hi, miss, &i)) {
                *k = j;
                return false;
            }
        }
        return true;
    }
    if (nr <= 2) {   /* each on its own: the mirror, the first interval, a binary search */
        for (uint32_t j = 0; j < nr; j++)
            if (!hold_contains_inl(h, r[j].lo, r[j].hi, miss)) {
                *k = j;
                return false;
            }
        return true;
    }
    size_t n;
    const ChunkRange *a = hold_ranges(h, &n);
    if (n == 1 && nr > 0 && a[0].lo <= r[0].lo && r[nr - 1].hi <= a[0].hi)
        return true;
    size_t i = 0;
    for (uint32_t j = 0; j < nr; j++) {
        uint32_t lo = r[j].lo, hi = r[j].hi;
        /* first holding range with hi > lo, from i on */
        size_t step = 1;
        while (i + step < n && a[i + step - 1].hi <= lo)
            step *= 2;
        if (i < n && a[i].hi <= lo) {
            size_t end = i + step < n ? i + step : n;
            i += cr_first_hi_gt(a + i, end - i, lo);
        }
        if (!(i < n && a[i].lo <= lo && a[i].hi >= hi)) {
            *k = j;
            *miss = (i < n && a[i].lo <= lo) ? a[i].hi : lo;
            return false;
        }
    }
    return true;
}

/* Add (or remove) the sorted, disjoint ranges r[0..k) to (from) h in one pass over its
 * intervals: O(intervals + k), where k insertions or removals one by one could shift a long
 * array k times. */
bool hold_merge(Hold *h, const ChunkRange *r, size_t k, bool add)
{
    if (!hold_own(h))
        return false;
    size_t n;
    const ChunkRange *a = hold_ranges(h, &n);
    size_t cap = n + k;   /* a removal splits at most one interval in two */
    if (cap > HOLD_CAP_MAX)
        return false;
    ChunkRange *m = malloc(cap * sizeof *m);
    if (!m)
        return false;
    size_t o = 0;
    if (add) {
        size_t i = 0, j = 0;
        while (i < n || j < k) {
            ChunkRange x = (j >= k || (i < n && a[i].lo <= r[j].lo)) ? a[i++] : r[j++];
            if (o && m[o - 1].hi >= x.lo) {
                if (x.hi > m[o - 1].hi)
                    m[o - 1].hi = x.hi;
            } else {
                m[o++] = x;
            }
        }
    } else {
        size_t j = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t lo = a[i].lo, hi = a[i].hi;
            while (j < k && r[j].hi <= lo)
                j++;
            for (size_t q = j; q < k && r[q].lo < hi; q++) {
                if (r[q].lo > lo)
                    m[o++] = (ChunkRange){ lo, r[q].lo };
                if (r[q].hi > lo)
                    lo = r[q].hi;
                if (lo >= hi)
                    break;
            }
            if (lo < hi)
                m[o++] = (ChunkRange){ lo, hi };
        }
    }
    if (o <= HOLD_INLINE) {
        bool ok = hold_set(h, m, o);   /* inline: cannot fail */
        free(m);
        return ok;
    }
    if (hold_heap(h))
        free(h->u.h.base);
    h->u.h.base = m;
    h->u.h.off = 0;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)o;
    h->cap = (uint32_t)cap;
    return true;
}

/* Does h hold none of the normalised ranges r[0..nr)? */
bool hold_none(const Hold *h, const ChunkRange *r, uint32_t nr)
{
    if (hold_borrowed(h)) {   /* neither its own intervals nor the base */
        for (uint32_t j = 0; j < nr; j++) {
            for (uint32_t i = 0; i < h->n; i++)
                if (h->u.b.o[i].lo < r[j].hi && r[j].lo < h->u.b.o[i].hi)
                    return false;
            if (hold_sub(h)) {   /* S's first member at or after lo lies at or after hi */
                uint32_t y;
                if (hold_sub_next(h->u.b.s.fixed, h->u.b.s.free, r[j].lo, &y) && y < r[j].hi)
                    return false;
                continue;
            }
            size_t i = cr_first_hi_gt(h->u.b.base, hold_nb(h), r[j].lo);
            if (i < hold_nb(h) && h->u.b.base[i].lo < r[j].hi)
                return false;
        }
        return true;
    }
    size_t n;
    const ChunkRange *a = hold_ranges(h, &n);
    size_t i = 0;
    for (uint32_t j = 0; j < nr && i < n; j++) {
        if (a[i].hi <= r[j].lo)
            i += cr_first_hi_gt(a + i, n - i, r[j].lo);
        if (i < n && a[i].lo < r[j].hi)
            return false;
    }
    return true;
}

void hold_clear(Hold *h)
{
    if (hold_heap(h))
        free(h->u.h.base);
    memset(h, 0, sizeof *h);
}

/* ---- borrowed Holds (sim-hold.h) ----------------------------------------------------------- */

void hold_borrow(Hold *h, const ChunkRange *r, uint32_t nr)
{
    hold_clear(h);
    h->u.b.base = r;
    h->u.b.lim_lo = 0;
    h->u.b.lim_hi = UINT32_MAX;
    h->n = 0;
    h->cap = HOLD_BOR_BIT | nr;
}

void hold_borrow_sub(Hold *h, uint32_t fixed, uint32_t free_)
{
    hold_clear(h);
    h->u.b.s.fixed = fixed;
    h->u.b.s.free = free_;
    h->u.b.lim_lo = 0;
    h->u.b.lim_hi = UINT32_MAX;
    h->n = 0;
    h->cap = HOLD_BOR_BIT | HOLD_SUB_BIT;
}

bool hold_own(Hold *h)
{
    if (!hold_borrowed(h))
        return true;
    size_t nb = hold_nb(h), n = h->n;
    if (nb + n > HOLD_CAP_MAX)
        return false;
    ChunkRange *gen = NULL;   /* a submask base, made */
    if (hold_sub(h)) {
        gen = malloc(nb * sizeof *gen);
        if (!gen)
            return false;
        sched_submasks_list(h->u.b.s.fixed, h->u.b.s.free, gen);
    }
    const ChunkRange *b = gen ? gen : h->u.b.base;
    ChunkRange o[HOLD_BOR_OWN];
    memcpy(o, h->u.b.o, n * sizeof *o);
    ChunkRange *m = malloc((nb + n) * sizeof *m);
    if (!m) {
        free(gen);
        return false;
    }
    size_t k = 0, i = 0, j = 0;   /* the union, touching intervals merged */
    while (i < nb || j < n) {
        ChunkRange x = (j >= n || (i < nb && b[i].lo <= o[j].lo)) ? b[i++] : o[j++];
        if (k && m[k - 1].hi >= x.lo) {
            if (x.hi > m[k - 1].hi)
                m[k - 1].hi = x.hi;
        } else {
            m[k++] = x;
        }
    }
    free(gen);
    h->cap = 0;
    h->n = 0;
    if (k <= HOLD_INLINE) {
        bool ok = hold_set(h, m, k);   /* inline: cannot fail */
        free(m);
        return ok;
    }
    h->u.h.base = m;
    h->u.h.off = 0;
    h->u.h.hot = HOT_NONE;
    h->n = (uint32_t)k;
    h->cap = (uint32_t)(nb + n);
    return true;
}

/* The first index j of b[0..nb) (nb >= 1) with b[j].hi >= x (nb if none), galloping from the
 * guess p: a few intervals read near it rather than a binary search over all of them. */
static size_t gallop_hi_ge(const ChunkRange *b, size_t nb, size_t p, uint32_t x)
{
    if (p >= nb)
        p = nb - 1;
    size_t step = 1;
    if (b[p].hi >= x) {   /* the answer is at or before p */
        while (p > 0) {
            size_t s = step < p ? step : p;
            if (b[p - s].hi < x)   /* ... in (p-s, p] */
                return p - s + 1 + cr_first_hi_ge(b + p - s + 1, s - 1, x);
            p -= s;
            step *= 2;
        }
        return 0;
    }
    while (p + 1 < nb) {   /* b[p].hi < x: the answer is after p */
        size_t s = step < nb - 1 - p ? step : nb - 1 - p;
        if (b[p + s].hi >= x)   /* ... in (p, p+s] */
            return p + 1 + cr_first_hi_ge(b + p + 1, s - 1, x);
        p += s;
        step *= 2;
    }
    return nb;
}

/* The first index e >= j of b[0..nb) with b[e].lo > x (nb if none), galloping from j. */
static size_t gallop_lo_gt(const ChunkRange *b, size_t nb, size_t j, uint32_t x)
{
    size_t step = 1, p = j;
    if (p >= nb || b[p].lo > x)
        return p;
    while (p + 1 < nb) {   /* b[p].lo <= x */
        size_t s = step < nb - 1 - p ? step : nb - 1 - p;
        if (b[p + s].lo > x) {   /* ... in (p, p+s]: a binary search */
            size_t lo = p + 1, hi = p + s;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (b[mid].lo > x)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            return lo;
        }
        p += s;
        step *= 2;
    }
    return nb;
}

/* A guess of the first index of b[0..nb) with b[j].hi >= x, for a gallop to start from: a
 * short base searched, a long one (a strided set: about evenly spread) interpolated from its
 * two ends, which are read at once, where a search would wait for one miss after another. */
static size_t base_guess(const ChunkRange *b, size_t nb, uint32_t x)
{
    if (nb < 64)
        return bsearch_hi_ge(b, nb, x);
    uint32_t first = b[0].lo, last = b[nb - 1].hi;
    if (x <= first)
        return 0;
    if (x >= last)
        return nb - 1;
    return (size_t)((double)(x - first) / (double)(last - first) * (double)(nb - 1));
}

/* A borrowed Hold's own intervals that touch [*lo,*hi] taken out of o and into it (the
 * others kept in order).  True when that made [*lo,*hi] grow (it may now touch more). */
static bool own_absorb(Hold *h, uint32_t *lo, uint32_t *hi)
{
    ChunkRange *o = h->u.b.o;
    bool grew = false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < h->n; i++) {
        if (o[i].hi < *lo || o[i].lo > *hi) {
            o[k++] = o[i];
            continue;
        }
        if (o[i].lo < *lo) {
            *lo = o[i].lo;
            grew = true;
        }
        if (o[i].hi > *hi) {
            *hi = o[i].hi;
            grew = true;
        }
    }
    h->n = k;
    return grew;
}

/* [lo,hi), which touches none of them, put in order among a borrowed Hold's own intervals
 * (n < HOLD_BOR_OWN); returns its index. */
static uint32_t own_put(Hold *h, uint32_t lo, uint32_t hi)
{
    ChunkRange *o = h->u.b.o;
    uint32_t i = h->n;
    while (i > 0 && o[i - 1].lo > lo) {
        o[i] = o[i - 1];
        i--;
    }
    o[i] = (ChunkRange){ lo, hi };
    h->n++;
    return i;
}

/* A borrowed h with n >= 1 own intervals, of which o[k] is new: its limits (sim-hold.h), and
 * the base let go (the Hold inline again) when its one own interval covers it.  j and e: the
 * first base interval that ends at or after o[k].lo, and the first that starts after
 * o[k].hi.  An outermost own interval that is not the new one was there before, untouched
 * (one the new interval touched is part of it): its limit stays. */
static bool bor_settle(Hold *h, uint32_t k, size_t j, size_t e)
{
    const ChunkRange *b = h->u.b.base;
    size_t nb = hold_nb(h);
    if (k == 0)   /* b[0..j) end before o[0] and do not touch it */
        h->u.b.lim_lo = j > 0 ? b[j - 1].hi + 1 : 0;
    if (k + 1 == h->n)   /* b[e..nb) start after o[n-1] */
        h->u.b.lim_hi = e < nb ? b[e].lo - 1 : UINT32_MAX;
    if (h->n == 1 && j == 0 && e == nb)   /* every base interval lies inside o[0] */
        return hold_set(h, h->u.b.o, 1);
    return true;
}

/* A submask-borrowing h with n >= 1 own intervals: both limits from the bits (the last
 * member of S at or below o[0].lo - 2 ends the last base interval below o[0]: o[0].lo - 1 is
 * no member, or its interval would touch o[0] and lie inside it; the first member above
 * o[n-1].hi starts the first base interval above), and the base let go when o[0] covers it. */
static bool sub_settle(Hold *h)
{
    uint32_t fixed = h->u.b.s.fixed, f = h->u.b.s.free, y;
    const ChunkRange *o = h->u.b.o;
    uint32_t lo = o[0].lo, hi = o[h->n - 1].hi;
    h->u.b.lim_lo = lo >= 2 && hold_sub_prev(fixed, f, lo - 2, &y) ? y + 2 : 0;
    h->u.b.lim_hi = hi < UINT32_MAX && hold_sub_next(fixed, f, hi + 1, &y) ? y - 1 : UINT32_MAX;
    if (h->n == 1 && h->u.b.lim_lo == 0 && h->u.b.lim_hi == UINT32_MAX)
        return hold_set(h, h->u.b.o, 1);
    return true;
}

/* bor_add_slow of a submask base: the base intervals [lo,hi] touches are those holding lo - 1
 * and hi (those between lie inside), found by bits. */
static bool sub_add_slow(Hold *h, uint32_t lo, uint32_t hi)
{
    uint32_t fixed = h->u.b.s.fixed, f = h->u.b.s.free, low = hold_sub_low(f);
    for (;;) {
        if (lo > 0 && ((lo - 1) & ~f) == fixed)
            lo = (lo - 1) & ~low;
        if ((hi & ~f) == fixed)   /* (a member is below fixed | free < UINT32_MAX) */
            hi = (hi | low) + 1;
        if (!own_absorb(h, &lo, &hi))
            break;
    }
    if (h->n == HOLD_BOR_OWN)   /* no room of its own: the union copied, then added to */
        return hold_own(h) && hold_add(h, lo, hi);
    own_put(h, lo, hi);
    return sub_settle(h);
}

/* hold_add of a borrowed Hold, the general case: [lo,hi) (non-empty) absorbs the base
 * intervals and the own intervals it touches, again until it touches no more, and goes into o
 * (or, o full, the union is copied first). */
static bool bor_add_slow(Hold *h, uint32_t lo, uint32_t hi)
{
    if (hold_sub(h))
        return sub_add_slow(h, lo, hi);
    const ChunkRange *b = h->u.b.base;
    size_t nb = hold_nb(h);
    size_t j = base_guess(b, nb, lo), e;
    for (;;) {
        /* j: the first base interval ending at or after lo; e: the first starting after hi */
        j = gallop_hi_ge(b, nb, j, lo);
        e = j;
        if (j < nb && b[j].lo <= hi) {   /* b[j..e) touch [lo,hi] */
            e = gallop_lo_gt(b, nb, j, hi);
            if (b[j].lo < lo)
                lo = b[j].lo;
            if (b[e - 1].hi > hi)
                hi = b[e - 1].hi;
        }
        if (!own_absorb(h, &lo, &hi))
            break;
    }
    if (h->n == HOLD_BOR_OWN)   /* no room of its own: the union copied, then added to */
        return hold_own(h) && hold_add(h, lo, hi);
    return bor_settle(h, own_put(h, lo, hi), j, e);
}

/* hold_add of a borrowed Hold.  The exchange's case without reading the base: [lo,hi) touches
 * the own intervals o[q1..q2) and reaches past them only outwards, within the limits (below
 * o[0] down to lim_lo, above o[n-1] up to lim_hi): it touches no base interval that is not
 * inside an own interval already, so o[q1..q2) and [lo,hi) become one, and the limits stay. */
bool hold_bor_add(Hold *h, uint32_t lo, uint32_t hi)
{
    ChunkRange *o = h->u.b.o;
    uint32_t n = h->n, q1 = 0;
    while (q1 < n && o[q1].hi < lo)
        q1++;
    uint32_t q2 = q1;
    while (q2 < n && o[q2].lo <= hi)
        q2++;
    if (q2 == q1 || (lo < o[q1].lo && (q1 > 0 || lo < h->u.b.lim_lo)) ||
        (hi > o[q2 - 1].hi && (q2 < n || hi > h->u.b.lim_hi)))
        return bor_add_slow(h, lo, hi);
    ChunkRange m = { lo < o[q1].lo ? lo : o[q1].lo, hi > o[q2 - 1].hi ? hi : o[q2 - 1].hi };
    o[q1] = m;
    for (uint32_t i = q2; i < n; i++)
        o[q1 + 1 + i - q2] = o[i];
    h->n = n - (q2 - q1 - 1);
    if (h->n == 1 && h->u.b.lim_lo == 0 && h->u.b.lim_hi == UINT32_MAX)
        return hold_set(h, o, 1);   /* no base interval outside o[0]: the base covered */
    return true;
}

/* Does the borrowed h hold [lo,hi) (non-empty)?  *i is a cursor into the base (a guess, moved
 * to the base interval reached). */
static bool bor_contains_at(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss, size_t *i_)
{
    const ChunkRange *b = h->u.b.base, *o = h->u.b.o;
    size_t nb = hold_nb(h);
    size_t i = gallop_hi_ge(b, nb, *i_, lo + 1);
    bool ok = true;
    uint32_t cur = lo;
    while (cur < hi) {   /* cur: the first chunk not known to be held */
        if (i < nb && b[i].hi <= cur)
            i = gallop_hi_ge(b, nb, i, cur + 1);
        uint32_t reach = cur;
        if (i < nb && b[i].lo <= cur)
            reach = b[i].hi;
        for (uint32_t k = 0; k < h->n; k++)
            if (o[k].lo <= cur && cur < o[k].hi && o[k].hi > reach)
                reach = o[k].hi;
        if (reach == cur) {
            if (miss)
                *miss = cur;
            ok = false;
            break;
        }
        cur = reach;
    }
    *i_ = i;
    return ok;
}

/* bor_contains_at of a submask base: piece by piece, each a base interval (by bits) or an own
 * interval that holds the first chunk not known to be held. */
static bool sub_contains(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss)
{
    uint32_t fixed = h->u.b.s.fixed, f = h->u.b.s.free, low = hold_sub_low(f);
    const ChunkRange *o = h->u.b.o;
    uint32_t cur = lo;
    while (cur < hi) {
        uint32_t reach = cur;
        if ((cur & ~f) == fixed)
            reach = (cur | low) + 1;
        for (uint32_t k = 0; k < h->n; k++)
            if (o[k].lo <= cur && cur < o[k].hi && o[k].hi > reach)
                reach = o[k].hi;
        if (reach == cur) {
            if (miss)
                *miss = cur;
            return false;
        }
        cur = reach;
    }
    return true;
}

bool hold_bor_contains(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss)
{
    if (lo >= hi)
        return true;
    if (hold_sub(h))
        return sub_contains(h, lo, hi, miss);
    size_t i = bsearch_hi_ge(h->u.b.base, hold_nb(h), lo + 1);
    return bor_contains_at(h, lo, hi, miss, &i);
}
