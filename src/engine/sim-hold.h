/* sim-hold.h — what one node holds while a schedule is replayed: a sorted set of disjoint
 * chunk intervals, kept small for the common node (src/engine's simulator only; sim.h is the
 * public face).
 *
 * A Hold keeps up to HOLD_INLINE intervals inline (cap == 0; the common case: one, or two in
 * the middle of an exchange), else the n intervals at base[off..off+n) of a heap array of cap
 * entries.  The offset lets a merge near the front shift the few intervals before it instead
 * of the many after it (a node that got a long strided set while distributing absorbs it from
 * the front, one exchange after another).  A heap Hold also mirrors one of its intervals, the
 * one it gained last ("hot": in an exchange, the block it sends next and grows next), with the
 * room that interval has before it would touch its neighbours: the common send and receive
 * are answered from the Hold itself, without reading the heap array (a cache miss on big nets).
 *
 * A Hold may instead *borrow* its intervals (cap == HOLD_BOR_BIT | nb, hold_borrow): a node
 * that receives a long strided set into empty holdings (rh's distribution) points at the nb
 * sorted ranges it was sent (the schedule's range pool, which outlives the replay) instead of
 * copying them, and keeps what it gains afterwards in up to HOLD_BOR_OWN intervals of its own
 * (o[]): its holdings are base[0..nb) U o[0..n).  An interval added to o absorbs the base
 * intervals it touches (every base interval that touches an own interval lies inside it), so
 * an exchange that grows a block keeps it whole in o (the sends test o, not the base); once
 * an o interval covers the base's whole span the base is dropped (the Hold is inline again),
 * and a third o interval, a removal or a merge first copies the union into a heap array of
 * its own (hold_own).  While n >= 1 the Hold also keeps its own intervals' outer neighbours in
 * the base, as limits: o[0] may grow down to lim_lo and o[n-1] up to lim_hi without touching a
 * base interval (lim_lo = 1 + the end of the last base interval below o[0], 0 when there is
 * none; lim_hi = the start of the first base interval above o[n-1], minus 1, UINT32_MAX when
 * there is none).  So the exchange's receive (a block beside an own interval, or one that joins
 * two) reads nothing but the Hold, and the base is read only when the block reaches a base
 * interval.  hold_ranges of a borrowed Hold is its base only while o is empty: callers that
 * need the intervals of any Hold call hold_own first.
 *
 * A base that is a strided set as sched_send_submasks sends it, S = { fixed | m : m a submask
 * of free } (rh's distribution), is borrowed as what it is (cap == HOLD_BOR_BIT | HOLD_SUB_BIT,
 * hold_borrow_sub): the Hold keeps (fixed, free) in place of the pointer, and every question
 * about the base is a few bit operations on them (hold_sub_next, hold_sub_prev below), with no
 * range read: membership, the base interval at or after a chunk, the last one before it, the
 * limits.  Its intervals are the runs [fixed | m, (fixed | m) + 2^t) for the submasks m of free
 * above its t low ones.  hold_ranges must not be asked for such a Hold (it has no range array:
 * hold_own makes one).
 *
 * The common tests and additions are inline (the replay asks one per transfer); the rest is in
 * sim-hold.c.  Ownership: a Hold owns its heap array (free it with hold_clear), never a
 * borrowed base; a zeroed Hold is empty.  A function returning bool returns false only when
 * memory runs out (h unchanged or still a valid set). */
#ifndef MESHCAST_SIM_HOLD_H
#define MESHCAST_SIM_HOLD_H

#include "chunkset-internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOLD_INLINE 4
#define HOT_NONE UINT32_MAX
#define HOLD_BOR_BIT 0x80000000u   /* in cap: the Hold borrows its base (cap = this | nb) */
#define HOLD_SUB_BIT 0x40000000u   /* with it: the base is a submask set (fixed, free) */
#define HOLD_CAP_MAX 0x3fffffffu   /* the most entries a heap array or a borrowed base has */
#define HOLD_BOR_OWN 2             /* intervals of its own a borrowing Hold keeps */
typedef struct {
    union {
        ChunkRange in[HOLD_INLINE];
        struct {
            union {
                const ChunkRange *base; /* borrowed: sorted, disjoint, not touching; nb >= 1 */
                struct {
                    uint32_t fixed, free;   /* HOLD_SUB_BIT: the base is that submask set */
                } s;
            };
            uint32_t lim_lo, lim_hi;/* (n >= 1) o's room before a base interval, see above */
            ChunkRange o[HOLD_BOR_OWN]; /* its own: sorted, not touching; n of them */
        } b;
        struct {
            ChunkRange *base;
            uint32_t off;
            uint32_t hot;           /* index of the mirrored interval in base+off, HOT_NONE */
            ChunkRange hr;          /* = base[off+hot] */
            uint32_t lo_min, hi_max;/* hr may grow to [lo_min, hi_max] and touch nothing */
        } h;
    } u;
    uint32_t n, cap;
} Hold;

/* Ask for the whole of a Hold (40 bytes: half of them straddle two cache lines, and its n
 * and cap lie in the second). */
#define HOLD_FETCH(h, rw)                                                                    \
    do {                                                                                     \
        __builtin_prefetch((h), (rw));                                                       \
        __builtin_prefetch((const char *)(h) + sizeof(Hold) - 1, (rw));                      \
    } while (0)

/* Does h borrow its base?  Is that base a submask set?  How many intervals has it? */
static inline bool hold_borrowed(const Hold *h) { return (h->cap & HOLD_BOR_BIT) != 0; }
static inline bool hold_sub(const Hold *h) { return (h->cap & HOLD_SUB_BIT) != 0; }
static inline uint32_t hold_sub_count(uint32_t free_);
static inline uint32_t hold_nb(const Hold *h)
{
    if (hold_sub(h))
        return hold_sub_count(h->u.b.s.free);
    return h->cap & ~(HOLD_BOR_BIT | HOLD_SUB_BIT);
}

/* ---- submask sets S = { fixed | m : m a submask of free } (fixed & free == 0, fixed | free <
 * UINT32_MAX): chunk x is in S when (x & ~free) == fixed; S's intervals are 2^t long (t: the
 * low run of ones of free, hold_sub_low(free) = 2^t - 1), start at the members whose low t
 * bits are 0, and never touch (the bit above the low run is not free). */
static inline uint32_t hold_sub_low(uint32_t free_) { return free_ & ~(free_ + 1); }
/* How many intervals: 2^(the ones of free above its low run), counted without a call (the
 * release build has no popcnt instruction). */
static inline uint32_t hold_sub_count(uint32_t free_)
{
    uint32_t x = free_ & (free_ + 1);
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return UINT32_C(1) << ((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* The least member of S at or above x (false: none). */
static inline bool hold_sub_next(uint32_t fixed, uint32_t free_, uint32_t x, uint32_t *y)
{
    uint32_t d = (x ^ fixed) & ~free_;   /* the fixed bits x gets wrong */
    if (d == 0) {
        *y = x;
        return true;
    }
    int p = 31 - __builtin_clz(d);
    uint32_t mp = (uint32_t)((UINT64_C(2) << p) - 1);   /* bits 0..p */
    if ((fixed >> p) & 1) {   /* x too small at p: x's bits above, fixed's at and below */
        *y = (x & free_ & ~mp) | fixed;
        return true;
    }
    /* x too big at p: the free bits above p must grow to their next submask */
    uint32_t hb = free_ & ~mp, mh = x & hb;
    if (mh == hb)
        return false;
    *y = fixed | (((mh | ~hb) + 1) & hb);
    return true;
}

/* The greatest member of S at or below x (false: none). */
static inline bool hold_sub_prev(uint32_t fixed, uint32_t free_, uint32_t x, uint32_t *y)
{
    uint32_t d = (x ^ fixed) & ~free_;
    if (d == 0) {
        *y = x;
        return true;
    }
    int p = 31 - __builtin_clz(d);
    uint32_t mp = (uint32_t)((UINT64_C(2) << p) - 1);
    if ((x >> p) & 1) {   /* x too big at p: x's bits above, the most below */
        *y = (x & free_ & ~mp) | fixed | (free_ & mp);
        return true;
    }
    uint32_t hb = free_ & ~mp, mh = x & hb;   /* x too small at p: the previous submask */
    if (mh == 0)
        return false;
    *y = fixed | ((mh - 1) & hb) | (free_ & mp);
    return true;
}

/* Does h keep its intervals in a heap array of its own (not inline, not borrowed)? */
static inline bool hold_heap(const Hold *h) { return h->cap && !hold_borrowed(h); }

/* h's intervals (a borrowed Hold: only while it has none of its own and its base is not a
 * submask set, see above). */
static inline const ChunkRange *hold_ranges(const Hold *h, size_t *n)
{
    if (hold_borrowed(h)) {
        *n = hold_nb(h);
        return h->u.b.base;
    }
    *n = h->n;
    return h->cap ? h->u.h.base + h->u.h.off : h->u.in;
}

/* Does h hold nothing? */
static inline bool hold_empty(const Hold *h) { return h->n == 0 && !hold_borrowed(h); }

static inline void hold_prefetch(const Hold *h)
{
    if (hold_heap(h))
        __builtin_prefetch(h->u.h.base + h->u.h.off +
                           (h->u.h.hot == HOT_NONE ? 0 : h->u.h.hot));
}

/* Out of line (sim-hold.c): set h to the k intervals t[0..k) (t may point into h's own
 * array); the heap and the general inline cases of hold_add; remove [lo,hi); add (or remove)
 * the sorted, disjoint ranges r[0..k) in one pass; the multi-range tests. */
bool hold_set(Hold *h, const ChunkRange *t, size_t k);
bool hold_heap_add(Hold *h, uint32_t lo, uint32_t hi);
bool hold_add_small(Hold *h, uint32_t lo, uint32_t hi);
bool hold_remove(Hold *h, uint32_t lo, uint32_t hi);
bool hold_merge(Hold *h, const ChunkRange *r, size_t k, bool add);
/* Does h hold all of r[0..nr) (normalised)?  If not, *k gets the first range it lacks and
 * *miss the first chunk missing from it. */
bool hold_contains_all(const Hold *h, const ChunkRange *r, uint32_t nr, uint32_t *k,
                       uint32_t *miss);
/* Does h hold none of the normalised ranges r[0..nr)? */
bool hold_none(const Hold *h, const ChunkRange *r, uint32_t nr);
/* Empty h, freeing its heap array (a borrowed base is only let go). */
void hold_clear(Hold *h);
/* Make the empty h borrow the nr ranges at r (1 <= nr <= HOLD_CAP_MAX; sorted, disjoint, not
 * touching), which must stay unchanged until h lets them go (hold_own, hold_clear, or an add
 * that covers them). */
void hold_borrow(Hold *h, const ChunkRange *r, uint32_t nr);
/* Make the empty h borrow the submask set { fixed | m : m a submask of free } (fixed & free
 * == 0, fixed | free < UINT32_MAX, free above its low run not 0: at least two intervals). */
void hold_borrow_sub(Hold *h, uint32_t fixed, uint32_t free_);
/* A borrowed h: its holdings copied into intervals of its own (inline or a heap array); any
 * other h: unchanged. */
bool hold_own(Hold *h);
/* The borrowed cases of hold_add and hold_contains (out of line). */
bool hold_bor_add(Hold *h, uint32_t lo, uint32_t hi);
bool hold_bor_contains(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss);

/* Add [lo,hi) to h: the common cases (a node's first range, a range that touches its only
 * one) inline, the rest out of line. */
static inline bool hold_add(Hold *h, uint32_t lo, uint32_t hi)
{
    if (lo >= hi)
        return true;
    if (h->cap)
        return hold_borrowed(h) ? hold_bor_add(h, lo, hi) : hold_heap_add(h, lo, hi);
    if (h->n == 0) {
        h->u.in[0].lo = lo;
        h->u.in[0].hi = hi;
        h->n = 1;
        return true;
    }
    if (h->n == 1 && lo <= h->u.in[0].hi && hi >= h->u.in[0].lo) {   /* touches: extend */
        if (lo < h->u.in[0].lo)
            h->u.in[0].lo = lo;
        if (hi > h->u.in[0].hi)
            h->u.in[0].hi = hi;
        return true;
    }
    return hold_add_small(h, lo, hi);
}

/* Does h hold [lo,hi)?  If not, *miss (when not NULL) gets the first chunk it lacks.
 * (hold_contains_inl: the same, always inlined: hold_contains_all's.) */
static inline __attribute__((always_inline)) bool hold_contains_inl(const Hold *h, uint32_t lo,
                                                                   uint32_t hi, uint32_t *miss)
{
    if (hold_borrowed(h)) {   /* its own intervals first: an exchange sends one */
        for (uint32_t i = 0; i < h->n; i++)
            if (h->u.b.o[i].lo <= lo && hi <= h->u.b.o[i].hi)
                return true;
        return hold_bor_contains(h, lo, hi, miss);
    }
    if (h->cap && h->u.h.hot != HOT_NONE && h->u.h.hr.lo <= lo && hi <= h->u.h.hr.hi)
        return true;
    size_t n = h->n;   /* (not borrowed: hold_ranges without its borrowed case) */
    const ChunkRange *r = h->cap ? h->u.h.base + h->u.h.off : h->u.in;
    if (n && r[0].lo <= lo && hi <= r[0].hi)   /* the first interval: the common case */
        return true;
    if (!h->cap)
        for (size_t i = 1; i < n; i++)
            if (r[i].lo <= lo && hi <= r[i].hi)
                return true;
    return cr_contains(r, n, lo, hi, miss);
}
static inline bool hold_contains(const Hold *h, uint32_t lo, uint32_t hi, uint32_t *miss)
{
    return hold_contains_inl(h, lo, hi, miss);
}


/* ---- HoldTab: every node's holdings, 8 bytes for the common node ------------------------
 *
 * rec[v] is node v's one interval [lo,hi) (empty when lo >= hi; kept {0,0}), or, for a node
 * that has held two or more intervals since the table was last cleared, {HT_BIG, i}: its
 * holdings are the Hold big[i] above.  A node is moved to big the first time it needs a
 * second interval and stays there (a big Hold may hold one interval or none again) until
 * ht_reset.  The common send and receive (one interval, or one touching it) read and write
 * the 8-byte record only.  Once dense_at nodes are big (a sixteenth of them, at least 64: rh's
 * distribution leaves most nodes with strided sets), the table turns dense: one Hold per node,
 * by node (the records are freed; a Hold reached through a record, in the order nodes became
 * big, is one cache and TLB miss more than a Hold in node order).  Ownership: the table owns rec, big and the big Holds' arrays
 * (ht_free).  Pointers from ht_ranges stay valid until the table is next changed.  A node's
 * Hold may borrow (ht_borrow, see Hold above): ht_own_all ends every borrowing, and ht_ranges
 * must not be asked for a node that borrows and has intervals of its own (ht_empty asks
 * whether a node holds anything). */
#define HT_BIG UINT32_MAX
typedef struct {
    ChunkRange *rec;   /* per node */
    Hold *big;
    uint32_t nbig, capbig;
    uint32_t dense_at;   /* turn dense when this many nodes are big (tests may set it) */
    Hold *dense;         /* when not NULL: node v's holdings are dense[v] (rec, big freed) */
    int32_t nnodes;
    bool borrowed;       /* some Hold may borrow (ht_borrow since ht_own_all) */
    bool huge;           /* rec and dense on huge pages (read at random for long: bigmem.h) */
    const struct Sched *subs;   /* borrowed, or NULL: the schedule whose submask sets
                                 * (sched_send_submasks) a multi-range test may show
                                 * inside a borrowed base in O(1) (ht_contains_all) */
} HoldTab;

/* Out of line (sim-holdtab.c): make and free the table (ht_init false: memory; huge: the
 * table will be read at random for long, as the TUI's seek does: bigmem_alloc_huge); every node
 * back to empty; the uncommon cases of ht_add; remove; merge (as hold_merge); the
 * multi-range tests (as hold_contains_all, hold_none); bytes the table holds. */
bool ht_init(HoldTab *t, int32_t nnodes, bool huge);
void ht_free(HoldTab *t);
void ht_reset(HoldTab *t);
bool ht_add_slow(HoldTab *t, int32_t v, uint32_t lo, uint32_t hi);
bool ht_remove(HoldTab *t, int32_t v, uint32_t lo, uint32_t hi);
bool ht_merge(HoldTab *t, int32_t v, const ChunkRange *r, size_t k, bool add);
bool ht_contains_all_slow(const HoldTab *t, int32_t v, const ChunkRange *r, uint32_t nr,
                          uint32_t *k, uint32_t *miss);
bool ht_none(const HoldTab *t, int32_t v, const ChunkRange *r, uint32_t nr);
/* Is node v shown, from the set's bits alone, to hold the submask set { fixed | m : m a
 * submask of free_ } (fixed | free_ < UINT32_MAX)?  (rh's distribution: a set sent on from the
 * submask set the node borrowed, or from one interval that spans it; no range of the set is
 * read, sim-step.c.)  False says nothing: ask ht_contains_all with its ranges. */
bool ht_holds_set(const HoldTab *t, int32_t v, uint32_t fixed, uint32_t free_);
/* Node v, which holds nothing, borrows the nr ranges at r (as hold_borrow: 1 <= nr <=
 * HOLD_CAP_MAX; they must stay unchanged until ht_own_all).  False: memory. */
bool ht_borrow(HoldTab *t, int32_t v, const ChunkRange *r, uint32_t nr);
/* Node v, which holds nothing, borrows the submask set (fixed, free) (as hold_borrow_sub).
 * False: memory. */
bool ht_borrow_sub(HoldTab *t, int32_t v, uint32_t fixed, uint32_t free_);
/* Every borrowing node's holdings copied into its own (false: memory). */
bool ht_own_all(HoldTab *t);

static inline const ChunkRange *ht_ranges(const HoldTab *t, int32_t v, size_t *n)
{
    if (t->dense)
        return hold_ranges(&t->dense[v], n);
    const ChunkRange *r = &t->rec[v];
    if (r->lo != HT_BIG) {
        *n = r->lo < r->hi;
        return r;
    }
    return hold_ranges(&t->big[r->hi], n);
}

/* Does node v hold nothing? */
static inline bool ht_empty(const HoldTab *t, int32_t v)
{
    if (t->dense)
        return hold_empty(&t->dense[v]);
    const ChunkRange *r = &t->rec[v];
    if (r->lo != HT_BIG)
        return r->lo >= r->hi;
    return hold_empty(&t->big[r->hi]);
}

/* Ask for node v's record (and, when it is big, for its Hold). */
static inline void ht_fetch(const HoldTab *t, int32_t v, int rw)
{
    if (t->dense) {
        if (rw)
            HOLD_FETCH(&t->dense[v], 1);
        else
            HOLD_FETCH(&t->dense[v], 0);
    } else if (rw) {
        __builtin_prefetch(&t->rec[v], 1);
    } else {
        __builtin_prefetch(&t->rec[v], 0);
    }
}
static inline void ht_prefetch(const HoldTab *t, int32_t v)
{
    if (t->dense)
        hold_prefetch(&t->dense[v]);
    else if (t->rec[v].lo == HT_BIG)
        HOLD_FETCH(&t->big[t->rec[v].hi], 0);
}

/* Add [lo,hi) to node v (false: memory). */
static inline bool ht_add(HoldTab *t, int32_t v, uint32_t lo, uint32_t hi)
{
    if (t->dense)
        return hold_add(&t->dense[v], lo, hi);
    if (lo >= hi)
        return true;
    ChunkRange *r = &t->rec[v];
    if (r->lo != HT_BIG) {
        if (r->lo >= r->hi) {
            r->lo = lo;
            r->hi = hi;
            return true;
        }
        if (lo <= r->hi && hi >= r->lo) {   /* touches its interval: extend */
            if (lo < r->lo)
                r->lo = lo;
            if (hi > r->hi)
                r->hi = hi;
            return true;
        }
    }
    return ht_add_slow(t, v, lo, hi);
}

/* Does node v hold all of r[0..nr) (normalised)?  If not, *k gets the first range it lacks
 * and *miss the first chunk missing from it (as hold_contains_all).  Two ranges from an
 * inline Hold of a dense table (rh's exchange: a node's two blocks) inline, the rest out of
 * line. */
static inline bool ht_contains_all(const HoldTab *t, int32_t v, const ChunkRange *r,
                                   uint32_t nr, uint32_t *k, uint32_t *miss)
{
    if (nr == 2 && t->dense && t->dense[v].cap == 0) {
        const Hold *h = &t->dense[v];
        for (uint32_t j = 0; j < 2; j++) {
            bool in = false;
            for (uint32_t i = 0; i < h->n && !in; i++)
                in = h->u.in[i].lo <= r[j].lo && r[j].hi <= h->u.in[i].hi;
            if (!in && !cr_contains(h->u.in, h->n, r[j].lo, r[j].hi, miss)) {
                *k = j;
                return false;
            }
        }
        return true;
    }
    return ht_contains_all_slow(t, v, r, nr, k, miss);
}

/* Does node v hold [lo,hi)?  If not, *miss (when not NULL) gets the first chunk it lacks. */
static inline bool ht_contains(const HoldTab *t, int32_t v, uint32_t lo, uint32_t hi,
                               uint32_t *miss)
{
    if (t->dense)
        return hold_contains(&t->dense[v], lo, hi, miss);
    ChunkRange r = t->rec[v];
    if (r.lo == HT_BIG)
        return hold_contains(&t->big[r.hi], lo, hi, miss);
    if (r.lo < r.hi && r.lo <= lo && hi <= r.hi)
        return true;
    return cr_contains(&r, r.lo < r.hi, lo, hi, miss);
}

#endif
