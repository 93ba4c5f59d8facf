/* chunkset.c — sets of chunk ids as sorted interval arrays (see chunkset.h). */
#include "chunkset.h"
#include "chunkset-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ChunkSet {
    ChunkRange *r;
    size_t n, cap;
};

/* ---- interval-array primitives ------------------------------------------------------- */

size_t cr_first_hi_ge(const ChunkRange *r, size_t n, uint32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].hi >= x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

size_t cr_first_hi_gt(const ChunkRange *r, size_t n, uint32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].hi > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static bool cr_reserve(ChunkRange **r, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 4;
    while (nc < need)
        nc *= 2;
    if (nc > SIZE_MAX / sizeof(ChunkRange))
        return false;
    ChunkRange *p = realloc(*r, nc * sizeof *p);
    if (!p)
        return false;
    *r = p;
    *cap = nc;
    return true;
}

bool cr_add(ChunkRange **r, size_t *n, size_t *cap, uint32_t lo, uint32_t hi)
{
    if (lo >= hi)
        return true;
    ChunkRange *a = *r;
    size_t i = cr_first_hi_ge(a, *n, lo);   /* first range touching or after lo */
    size_t j = i;
    while (j < *n && a[j].lo <= hi)         /* ranges touching [lo,hi] */
        j++;
    if (i == j) {
        if (!cr_reserve(r, cap, *n + 1))
            return false;
        a = *r;
        memmove(a + i + 1, a + i, (*n - i) * sizeof *a);
        a[i].lo = lo;
        a[i].hi = hi;
        (*n)++;
        return true;
    }
    uint32_t nlo = a[i].lo < lo ? a[i].lo : lo;
    uint32_t nhi = a[j - 1].hi > hi ? a[j - 1].hi : hi;
    a[i].lo = nlo;
    a[i].hi = nhi;
    if (j > i + 1) {
        memmove(a + i + 1, a + j, (*n - j) * sizeof *a);
        *n -= j - i - 1;
    }
    return true;
}

bool cr_remove(ChunkRange **r, size_t *n, size_t *cap, uint32_t lo, uint32_t hi)
{
    if (lo >= hi)
        return true;
    ChunkRange *a = *r;
    size_t i = cr_first_hi_gt(a, *n, lo);   /* first range reaching past lo */
    size_t j = i;
    while (j < *n && a[j].lo < hi)          /* ranges overlapping [lo,hi) */
        j++;
    if (i == j)
        return true;
    ChunkRange left = { a[i].lo, lo }, right = { hi, a[j - 1].hi };
    size_t keep = (left.lo < left.hi) + (right.lo < right.hi);
    size_t nn = *n - (j - i) + keep;
    if (nn > *n) {
        if (!cr_reserve(r, cap, nn))
            return false;
        a = *r;
    }
    memmove(a + i + keep, a + j, (*n - j) * sizeof *a);
    size_t k = i;
    if (left.lo < left.hi)
        a[k++] = left;
    if (right.lo < right.hi)
        a[k++] = right;
    *n = nn;
    return true;
}

bool cr_contains(const ChunkRange *r, size_t n, uint32_t lo, uint32_t hi, uint32_t *first_missing)
{
    if (lo >= hi)
        return true;
    size_t i = cr_first_hi_gt(r, n, lo);
    if (i < n && r[i].lo <= lo && r[i].hi >= hi)
        return true;
    if (first_missing)
        *first_missing = (i < n && r[i].lo <= lo) ? r[i].hi : lo;
    return false;
}

uint64_t cr_count(const ChunkRange *r, size_t n)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += (uint64_t)(r[i].hi - r[i].lo);
    return c;
}

/* ---- ChunkSet ------------------------------------------------------------------------- */

ChunkSet *chunkset_new(void)
{
    return calloc(1, sizeof(ChunkSet));
}

void chunkset_free(ChunkSet *cs)
{
    if (!cs)
        return;
    free(cs->r);
    free(cs);
}

void chunkset_clear(ChunkSet *cs)
{
    if (cs)
        cs->n = 0;
}

ChunkSet *chunkset_copy(const ChunkSet *cs)
{
    ChunkSet *c = chunkset_new();
    if (!c || !cs)
        return c;
    if (cs->n) {
        c->r = malloc(cs->n * sizeof *c->r);
        if (!c->r) {
            free(c);
            return NULL;
        }
        memcpy(c->r, cs->r, cs->n * sizeof *c->r);
        c->n = c->cap = cs->n;
    }
    return c;
}

bool chunkset_add(ChunkSet *cs, uint32_t id)
{
    if (!cs || id == UINT32_MAX)
        return cs != NULL;   /* id UINT32_MAX cannot be represented as [id, id+1) */
    return cr_add(&cs->r, &cs->n, &cs->cap, id, id + 1);
}

bool chunkset_add_range(ChunkSet *cs, uint32_t lo, uint32_t hi)
{
    if (!cs)
        return false;
    return cr_add(&cs->r, &cs->n, &cs->cap, lo, hi);
}

bool chunkset_add_set(ChunkSet *cs, const ChunkSet *other)
{
    if (!cs)
        return false;
    if (!other || other == cs)
        return true;
    if (cs->n == 0) {
        if (!cr_reserve(&cs->r, &cs->cap, other->n))
            return false;
        if (other->n)
            memcpy(cs->r, other->r, other->n * sizeof *cs->r);
        cs->n = other->n;
        return true;
    }
    /* Merge into a fresh array so that failure leaves cs unchanged. */
    size_t cap = cs->n + other->n, n = 0;
    ChunkRange *m = malloc(cap * sizeof *m);
    if (!m)
        return false;
    size_t i = 0, j = 0;
    while (i < cs->n || j < other->n) {
        ChunkRange x;
        if (j >= other->n || (i < cs->n && cs->r[i].lo <= other->r[j].lo))
            x = cs->r[i++];
        else
            x = other->r[j++];
        if (n && m[n - 1].hi >= x.lo) {
            if (x.hi > m[n - 1].hi)
                m[n - 1].hi = x.hi;
        } else {
            m[n++] = x;
        }
    }
    free(cs->r);
    cs->r = m;
    cs->n = n;
    cs->cap = cap;
    return true;
}

bool chunkset_remove_range(ChunkSet *cs, uint32_t lo, uint32_t hi)
{
    if (!cs)
        return false;
    return cr_remove(&cs->r, &cs->n, &cs->cap, lo, hi);
}

bool chunkset_contains(const ChunkSet *cs, uint32_t id)
{
    if (!cs || id == UINT32_MAX)
        return false;
    return cr_contains(cs->r, cs->n, id, id + 1, NULL);
}

bool chunkset_contains_range(const ChunkSet *cs, uint32_t lo, uint32_t hi, uint32_t *first_missing)
{
    if (!cs) {
        if (lo >= hi)
            return true;
        if (first_missing)
            *first_missing = lo;
        return false;
    }
    return cr_contains(cs->r, cs->n, lo, hi, first_missing);
}

uint64_t chunkset_count(const ChunkSet *cs)
{
    return cs ? cr_count(cs->r, cs->n) : 0;
}

size_t chunkset_nranges(const ChunkSet *cs)
{
    return cs ? cs->n : 0;
}

const ChunkRange *chunkset_ranges(const ChunkSet *cs)
{
    static const ChunkRange none[1];
    return cs && cs->r ? cs->r : none;
}

bool chunkset_equal(const ChunkSet *a, const ChunkSet *b)
{
    size_t na = chunkset_nranges(a), nb = chunkset_nranges(b);
    if (na != nb)
        return false;
    return na == 0 || memcmp(a->r, b->r, na * sizeof *a->r) == 0;
}

char *chunkset_format(const ChunkRange *r, size_t nr, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    buf[0] = '\0';
    if (!r)
        nr = 0;
    size_t pos = 0, fits = 0;   /* fits: end of the last whole item that leaves room for "..." */
    for (size_t i = 0; i < nr; i++) {
        char item[48];
        if (r[i].lo >= r[i].hi)
            continue;
        if (r[i].hi - r[i].lo == 1)
            snprintf(item, sizeof item, "%s%u", pos ? "," : "", r[i].lo);
        else
            snprintf(item, sizeof item, "%s%u-%u", pos ? "," : "", r[i].lo, r[i].hi - 1);
        size_t il = strlen(item);
        if (pos + il + 1 > len) {
            /* Truncate after the last whole item that leaves room for "...". */
            if (len >= 4)
                memcpy(buf + fits, "...", 4);
            else
                buf[fits] = '\0';
            return buf;
        }
        memcpy(buf + pos, item, il + 1);
        pos += il;
        if (pos + 4 <= len)
            fits = pos;
    }
    return buf;
}

static int cmp_range(const void *a, const void *b)
{
    const ChunkRange *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return 0;
}

size_t chunkset_normalize(ChunkRange *r, size_t nr)
{
    if (!r || nr == 0)
        return 0;
    /* Fast path: already normalised (the common case for builders). */
    bool sorted = true;
    for (size_t i = 0; i < nr; i++) {
        if (r[i].lo >= r[i].hi || (i && r[i - 1].hi >= r[i].lo)) {
            sorted = false;
            break;
        }
    }
    if (sorted)
        return nr;
    qsort(r, nr, sizeof *r, cmp_range);
    size_t n = 0;
    for (size_t i = 0; i < nr; i++) {
        if (r[i].lo >= r[i].hi)
            continue;
        if (n && r[n - 1].hi >= r[i].lo) {
            if (r[i].hi > r[n - 1].hi)
                r[n - 1].hi = r[i].hi;
        } else {
            r[n++] = r[i];
        }
    }
    return n;
}
