/* sched.c — broadcast schedules (see sched.h). */
#include "sched.h"
#include "net-internal.h"
#include "sched-internal.h"
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(void **p, size_t elem, uint64_t *cap, uint64_t need)
{
    if (need <= *cap)
        return true;
    uint64_t nc = *cap ? *cap : 8;
    while (nc < need)
        nc *= 2;
    if (nc > SIZE_MAX / elem)
        return false;
    /* realloc, not a fresh block and a copy: glibc moves a big (mmapped) block's pages with
     * mremap, so growing by doubling neither copies the transfers nor touches fresh memory
     * for them again (bigmem.h says why no huge pages) */
    size_t bytes = (size_t)(nc * elem);
    void *q = realloc(*p, bytes);
    if (!q)
        return false;
    *p = q;
    *cap = nc;
    return true;
}

static bool grow64(void **p, size_t elem, int64_t *cap, int64_t need)
{
    uint64_t c = (uint64_t)*cap;
    bool ok = grow(p, elem, &c, (uint64_t)need);
    *cap = (int64_t)c;
    return ok;
}

void sched_fail(Sched *s, const char *fmt, ...)
{
    if (!s || s->error || !fmt)
        return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s->error = strdup(buf);
    if (!s->error)
        s->error = strdup("out of memory");
}

Sched *sched_new(const Net *net, uint32_t nchunks, uint64_t bytes)
{
    if (!net || nchunks == 0)
        return NULL;
    Sched *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->net = net;
    s->nchunks = nchunks;
    s->bytes = bytes;
    s->cur = -1;
    s->last_roff = UINT64_MAX;
    s->last_sub.free_ = SCHED_SUB_NONE;
    s->pend_roff = UINT64_MAX;
    atomic_init(&s->lazy, false);
    if (mtx_init(&s->lock, mtx_plain) != thrd_success) {
        free(s);
        return NULL;
    }
    return s;
}

static void step_free(SchedStep *st)
{
    free(st->x);
    free(st->ext);
    if (!st->more)
        return;
    free(st->more->loc);
    free(st->more->sub);
    for (int32_t k = 0; k < st->nrule; k++)
        free(st->more->rule[k].ctx);
    free(st->more->rule);
    free(st->more);
}

/* st->more, made the first time the step needs it.  False when memory runs out. */
static bool more_room(SchedStep *st)
{
    if (!st->more)
        st->more = calloc(1, sizeof *st->more);
    return st->more != NULL;
}

void sched_free(Sched *s)
{
    if (!s)
        return;
    for (int32_t i = 0; i < s->nsteps; i++)
        step_free(&s->steps[i]);
    for (int32_t i = 0; i < s->nlabels; i++)
        free(s->labels[i]);
    free(s->labels);
    free(s->steps);
    free(s->ranges);
    free(s->submask);
    free(s->segs);
    free(s->edges);
    free(s->gnode);
    free(s->grange);
    free(s->error);
    mtx_destroy(&s->lock);
    free(s);
}

const Net *sched_net(const Sched *s) { return s ? s->net : NULL; }
uint32_t sched_nchunks(const Sched *s) { return s ? s->nchunks : 0; }
uint64_t sched_bytes(const Sched *s) { return s ? s->bytes : 0; }

uint64_t sched_range_bytes(const Sched *s, uint32_t lo, uint32_t hi)
{
    if (!s || lo >= hi)
        return 0;
    if (hi > s->nchunks)
        hi = s->nchunks;
    if (lo >= hi)
        return 0;
    if (lo == 0 && hi == s->nchunks)
        return s->bytes;
    if (s->bytes <= UINT32_MAX) {   /* bytes * hi < 2^64: plain 64-bit arithmetic */
        uint64_t b = s->bytes;
        return b * hi / s->nchunks - b * lo / s->nchunks;
    }
    unsigned __int128 b = s->bytes;
    uint64_t h = (uint64_t)(b * hi / s->nchunks);
    uint64_t l = (uint64_t)(b * lo / s->nchunks);
    return h - l;
}

/* floor(b*x/N) for the ends of the ranges in turn: (q, rem) = b*x divided by N.  A point at
 * most WALK_NEAR chunks after the one before moves on by the table's b*d = tq[d]*N + tr[d]
 * (an addition, no division); one farther off, or before it, is divided afresh.  Exact, like
 * sched_range_bytes (b <= UINT32_MAX and x <= N: b*x fits in 64 bits). */
#define WALK_NEAR 16
typedef struct {
    uint64_t b, N, x, q, rem;
    uint64_t tq[WALK_NEAR + 1], tr[WALK_NEAR + 1];
} FloorWalk;

static void floor_walk_init(FloorWalk *w, uint64_t b, uint64_t N)
{
    w->b = b;
    w->N = N;
    w->x = w->q = w->rem = 0;
    for (uint64_t d = 0; d <= WALK_NEAR; d++) {
        w->tq[d] = b * d / N;
        w->tr[d] = b * d % N;
    }
}

static uint64_t floor_at(FloorWalk *w, uint64_t to)
{
    if (to >= w->x && to - w->x <= WALK_NEAR) {
        uint64_t d = to - w->x;
        w->q += w->tq[d];
        w->rem += w->tr[d];
        if (w->rem >= w->N) {
            w->rem -= w->N;
            w->q++;
        }
        w->x = to;
    } else {
        uint64_t t = w->b * to;
        w->q = t / w->N;
        w->rem = t % w->N;
        w->x = to;
    }
    return w->q;
}

uint64_t sched_ranges_bytes(const Sched *s, const ChunkRange *r, size_t n)
{
    if (!s || !r)
        return 0;
    uint64_t sum = 0;
    if (n < 64 || s->bytes > UINT32_MAX) {   /* a few ranges, or huge messages: one by one */
        for (size_t k = 0; k < n; k++)
            sum += sched_range_bytes(s, r[k].lo, r[k].hi);
        return sum;
    }
    uint64_t N = s->nchunks;
    if (s->bytes % N == 0) {   /* every chunk the same size */
        for (size_t k = 0; k < n; k++) {
            uint64_t hi = r[k].hi < N ? r[k].hi : N;
            if (r[k].lo < hi)
                sum += hi - r[k].lo;
        }
        return sum * (s->bytes / N);
    }
    FloorWalk w;
    floor_walk_init(&w, s->bytes, N);
    for (size_t k = 0; k < n; k++) {
        uint64_t lo = r[k].lo, hi = r[k].hi < N ? r[k].hi : N;
        if (lo >= hi)
            continue;
        sum -= floor_at(&w, lo);   /* (unsigned: the total is what counts) */
        sum += floor_at(&w, hi);
    }
    return sum;
}

bool sched_give(Sched *s, int32_t node, uint32_t lo, uint32_t hi)
{
    if (!s)
        return false;
    if (node < 0 || node >= net_size(s->net)) {
        sched_fail(s, "give: node %ld is not in %s", (long)node, net_spec(s->net));
        return false;
    }
    if (lo >= hi || hi > s->nchunks) {
        sched_fail(s, "give: chunks %lu..%lu are not a range of 0..%lu", (unsigned long)lo,
                   (unsigned long)hi, (unsigned long)s->nchunks);
        return false;
    }
    uint64_t cap = s->capgiven, cap2 = s->capgiven;
    if (!grow((void **)&s->gnode, sizeof *s->gnode, &cap, s->ngiven + 1) ||
        !grow((void **)&s->grange, sizeof *s->grange, &cap2, s->ngiven + 1)) {
        sched_fail(s, "out of memory");
        return false;
    }
    s->capgiven = (size_t)(cap < cap2 ? cap : cap2);
    s->gnode[s->ngiven] = node;
    s->grange[s->ngiven].lo = lo;
    s->grange[s->ngiven].hi = hi;
    s->ngiven++;
    return true;
}

size_t sched_ngiven(const Sched *s) { return s ? s->ngiven : 0; }

void sched_given(const Sched *s, size_t i, int32_t *node, ChunkRange *r)
{
    bool ok = s && i < s->ngiven;
    if (node)
        *node = ok ? s->gnode[i] : -1;
    if (r) {
        r->lo = ok ? s->grange[i].lo : 0;
        r->hi = ok ? s->grange[i].hi : 0;
    }
}

int32_t sched_source(const Sched *s)
{
    if (!s)
        return -1;
    for (size_t i = 0; i < s->ngiven; i++)
        if (s->grange[i].lo == 0)
            return s->gnode[i];
    return -1;
}

static bool open_upto(Sched *s, int32_t step)
{
    if (step >= s->capsteps) {
        int64_t nc = s->capsteps ? s->capsteps : 16;
        while (nc <= step)
            nc *= 2;
        if (nc > INT32_MAX)
            nc = INT32_MAX;
        SchedStep *p = realloc(s->steps, (size_t)nc * sizeof *p);
        if (!p)
            return false;
        s->steps = p;
        s->capsteps = (int32_t)nc;
    }
    while (s->nsteps <= step) {
        memset(&s->steps[s->nsteps], 0, sizeof s->steps[0]);
        s->nsteps++;
    }
    return true;
}

/* More steps than any broadcast on the largest net needs; a bigger index is a script's bug
 * (and would cost gigabytes of empty steps). */
#define SCHED_MAXSTEPS (1 << 24)

/* A build on a thread whose Progress asks to stop (progress.h) fails with "cancelled". */
static bool cancelled(Sched *s)
{
    if (!progress_cancelled())
        return false;
    sched_fail(s, "cancelled");
    return true;
}

int32_t sched_step(Sched *s)
{
    if (!s || cancelled(s))
        return -1;
    if (s->nsteps >= SCHED_MAXSTEPS) {
        sched_fail(s, "more than %d steps", SCHED_MAXSTEPS);
        return -1;
    }
    if (!open_upto(s, s->nsteps)) {
        sched_fail(s, "out of memory");
        return -1;
    }
    s->cur = s->nsteps - 1;
    return s->cur;
}

bool sched_at(Sched *s, int32_t step)
{
    if (!s || step < 0)
        return false;
    if (step >= SCHED_MAXSTEPS) {
        sched_fail(s, "step %lld: more than %d steps", (long long)step + 1, SCHED_MAXSTEPS);
        return false;
    }
    if (!open_upto(s, step)) {
        sched_fail(s, "out of memory");
        return false;
    }
    s->cur = step;
    return true;
}

/* The label's copy in s->labels: one already stored among the last 64 (steps come labelled in
 * runs, with few distinct texts), else a new one; NULL when memory runs out. */
static const char *label_intern(Sched *s, const char *label)
{
    for (int32_t i = s->nlabels - 1; i >= 0 && i >= s->nlabels - 64; i--)
        if (strcmp(s->labels[i], label) == 0)
            return s->labels[i];
    if (s->nlabels == s->caplabels) {
        int32_t nc = s->caplabels ? s->caplabels * 2 : 8;
        char **p = realloc(s->labels, (size_t)nc * sizeof *p);
        if (!p)
            return NULL;
        s->labels = p;
        s->caplabels = nc;
    }
    char *c = strdup(label);
    if (!c)
        return NULL;
    s->labels[s->nlabels++] = c;
    return c;
}

bool sched_label(Sched *s, const char *label)
{
    if (!s || !label)
        return false;
    if (s->cur < 0) {
        sched_fail(s, "label: no step opened");
        return false;
    }
    const char *c = label_intern(s, label);
    if (!c) {
        sched_fail(s, "out of memory");
        return false;
    }
    s->steps[s->cur].label = c;
    return true;
}

/* Give st the per-transfer ranges counts and routes (room for `need`), the transfers so far
 * being simple (one range, default route) if it had none. */
static bool ensure_ext(SchedStep *st, int64_t need)
{
    bool fresh = !st->ext;
    if (!grow64((void **)&st->ext, sizeof *st->ext, &st->capext, need))
        return false;
    if (fresh)
        for (int64_t i = 0; i < st->n; i++)
            st->ext[i] = (SchedXferExt){ 1, SCHED_DEFAULT_ROUTE };
    return true;
}

/* Room in st->x for `need` transfers (and as many slots after them, when the step keeps its
 * slots apart: sched_step_slots). */
static bool xfer_room(SchedStep *st, int64_t need)
{
    if (!sched_step_slots(st))
        return grow64((void **)&st->x, sizeof *st->x, &st->cap, need);
    if (need <= st->cap)
        return true;
    int64_t old = st->cap, n = st->n;
    if (!grow64((void **)&st->x, sizeof *st->x + sizeof(SchedXferR), &st->cap, need))
        return false;
    /* (grow kept the old block's bytes: the slots follow the old capacity's transfers) */
    memmove(st->x + st->cap, st->x + old, (size_t)n * sizeof(SchedXferR));
    return true;
}

bool sched_put_slot(SchedStep *st, int64_t i, SchedXferR v)
{
    SchedXferR *r = sched_step_slots(st);
    if (!r) {
        if (i == 0 || sched_slot_eq(v, st->r1)) {
            if (i == 0)
                st->r1 = v;
            return true;
        }
        /* the slots apart from now on: the block doubles (cap transfers, then cap slots) */
        SchedXfer *x = realloc(st->x, (size_t)st->cap * (sizeof *st->x + sizeof *r));
        if (!x)
            return false;
        st->x = x;
        r = (SchedXferR *)(void *)(x + st->cap);
        for (int64_t j = 0; j < i; j++)
            r[j] = st->r1;
        st->r1.one = (ChunkRange){ SCHED_SLOTS_APART, SCHED_SLOTS_APART };
    }
    r[i] = v;
    return true;
}

/* The checks every send passes (stored or made by a rule) in the current step. */
static bool check_send(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr)
{
    const Net *net = s->net;
    long step = (long)s->cur + 1;
    if (src < 0 || src >= net->size || dst < 0 || dst >= net->size) {
        sched_fail(s, "step %ld: send %ld->%ld: node not in %s", step, (long)src, (long)dst,
                   net->spec);
        return false;
    }
    if (src == dst) {
        sched_fail(s, "step %ld: send %ld->%ld: a node cannot send to itself", step, (long)src,
                   (long)dst);
        return false;
    }
    if (nr > 0 && !r) {
        sched_fail(s, "step %ld: send %ld->%ld: no chunk ranges", step, (long)src, (long)dst);
        return false;
    }
    for (size_t i = 0; i < nr; i++) {
        if (r[i].lo < r[i].hi && r[i].hi > s->nchunks) {
            sched_fail(s, "step %ld: send %ld->%ld: chunk %lu is not below %lu", step,
                       (long)src, (long)dst, (unsigned long)(r[i].hi - 1),
                       (unsigned long)s->nchunks);
            return false;
        }
    }
    return true;
}

/* An explicit route from src must be a path of the net that ends at dst ("WHAT N: ..." in the
 * error). */
static bool route_ok(Sched *s, const char *what, long num, int32_t src, int32_t dst,
                     const NetSeg *seg, int nseg)
{
    const Net *net = s->net;
    if (nseg < 0 || nseg > NET_MAXSEG || (nseg > 0 && !seg)) {
        sched_fail(s, "%s %ld: send %ld->%ld: a route has 0 to %d segments", what, num,
                   (long)src, (long)dst, NET_MAXSEG);
        return false;
    }
    int32_t end = net_route_end(net, src, seg, nseg);
    if (end < 0) {
        sched_fail(s, "%s %ld: send %ld->%ld: the route is not a path in %s", what, num,
                   (long)src, (long)dst, net->spec);
        return false;
    }
    if (end != dst) {
        sched_fail(s, "%s %ld: send %ld->%ld: the route ends at node %ld", what, num,
                   (long)src, (long)dst, (long)end);
        return false;
    }
    return true;
}

/* Room in the segment pool for nseg more. */
static bool route_room(Sched *s, int nseg)
{
    if (s->nsegs + (uint64_t)nseg >= SCHED_MAX_SEGS) {
        sched_fail(s, "too many explicit route segments in one schedule");
        return false;
    }
    if (!grow((void **)&s->segs, sizeof *s->segs, &s->capsegs, s->nsegs + (uint64_t)nseg)) {
        sched_fail(s, "out of memory");
        return false;
    }
    return true;
}

static bool segs_equal(const NetSeg *a, const NetSeg *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i].dim != b[i].dim || a[i].dir != b[i].dir || a[i].len != b[i].len)
            return false;
    return true;
}

/* Append a route to the pool (room made by route_room); its handle.  A route equal to one of
 * the last few stored is not stored again (a phase sends the same few relative routes from
 * every node). */
static uint32_t route_store(Sched *s, const NetSeg *seg, int nseg)
{
    for (int i = 0; i < s->nrcache; i++) {
        uint32_t h = s->rcache[i];
        if ((int)sched_route_nseg(h) == nseg && segs_equal(sched_route_segs(s, h), seg, nseg))
            return h;
    }
    uint32_t route = (uint32_t)(s->nsegs << SCHED_SEG_BITS) | (uint32_t)nseg;
    if (nseg)
        memcpy(s->segs + s->nsegs, seg, (size_t)nseg * sizeof *seg);
    s->nsegs += (uint64_t)nseg;
    s->rcache[s->rcnext] = route;
    s->rcnext = (s->rcnext + 1) % 4;
    if (s->nrcache < 4)
        s->nrcache++;
    return route;
}

/* The slot {lo, hi} (or {roff, 0}) made in one 64-bit register: written as two 32-bit halves
 * and passed on as one word, it is a store-forwarding stall per send (about a fifth of
 * sched_send_submasks' samples in rh's build). */
static inline SchedXferR slot_of(uint32_t lo, uint32_t hi)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint64_t w = (uint64_t)lo << 32 | hi;
#else
    uint64_t w = (uint64_t)hi << 32 | lo;   /* (one.lo, the first field, in the low half) */
#endif
    SchedXferR v;
    memcpy(&v, &w, sizeof v);
    return v;
}

/* Store a checked send in step st (room for it made by xfer_room): its range slot, its ranges
 * count and route (ext, once some transfer of the step needs it). */
static inline __attribute__((always_inline)) bool put_send(Sched *s, SchedStep *st,
                                                          int32_t src, int32_t dst,
                                                          SchedXferR slot, uint32_t xnr,
                                                          uint32_t route, bool explicit_route)
{
    if (!sched_put_slot(st, st->n, slot) ||
        ((xnr != 1 || explicit_route || st->ext) && !ensure_ext(st, st->n + 1))) {
        sched_fail(s, "out of memory");
        return false;
    }
    st->x[st->n] = (SchedXfer){ src, dst };   /* (sched_put_slot may have moved st->x) */
    if (st->more && st->more->sub) {   /* (sched_send_submasks rewrites it for its own) */
        if (!grow64((void **)&st->more->sub, sizeof *st->more->sub, &st->more->capsub,
                    st->n + 1)) {
            sched_fail(s, "out of memory");
            return false;
        }
        st->more->sub[st->n] = (SchedSub){ 0, SCHED_SUB_NONE };
    }
    if (st->ext) {
        st->ext[st->n].nr = xnr;
        st->ext[st->n].route = route;
    }
    st->n++;
    s->total++;
    return true;
}

/* The n >= 2 normalised ranges written at the pool's end (room made) become a send's slot:
 * kept, or, when they equal the ranges appended last, those instead.  False (recording the
 * error) when the pool's offsets run out. */
static bool pool_commit(Sched *s, size_t n, SchedXferR *slot)
{
    const ChunkRange *dstr = s->ranges + s->nranges;
    uint64_t roff = s->nranges;
    /* (the first ranges compared before the call: a strided distribution's sends differ
     * there) */
    if (s->last_roff != UINT64_MAX && s->last_nr == n &&
        s->ranges[s->last_roff].lo == dstr->lo && s->ranges[s->last_roff].hi == dstr->hi &&
        memcmp(s->ranges + s->last_roff, dstr, n * sizeof *dstr) == 0)
        roff = s->last_roff;
    if (roff > UINT32_MAX - n) {
        sched_fail(s, "too many chunk ranges in one schedule");
        return false;
    }
    if (roff == s->nranges) {
        s->nranges += n;
        s->last_roff = roff;
        s->last_nr = n;
        s->last_sub.free_ = SCHED_SUB_NONE;
    }
    *slot = slot_of((uint32_t)roff, 0);
    return true;
}

/* A send's start: not cancelled (counted for the progress line) and a step open to take it.
 * False (recording the error) otherwise. */
static bool send_open(Sched *s, int32_t src, int32_t dst)
{
    if (!s || cancelled(s))
        return false;
    progress_add(1);
    if (s->cur < 0) {
        sched_fail(s, "send %ld->%ld: no step opened", (long)src, (long)dst);
        return false;
    }
    return true;
}

/* Common part of the sends: validate, normalise, store. */
static bool add_send(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr,
                     const NetSeg *seg, int nseg, bool explicit_route)
{
    if (!send_open(s, src, dst))
        return false;
    int32_t step = s->cur;
    if (!check_send(s, src, dst, r, nr))
        return false;
    if (explicit_route && !route_ok(s, "step", (long)step + 1, src, dst, seg, nseg))
        return false;
    uint32_t route = SCHED_DEFAULT_ROUTE;
    if (explicit_route && !route_room(s, nseg))
        return false;
    SchedStep *st = &s->steps[step];
    if (!xfer_room(st, st->n + 1)) {
        sched_fail(s, "out of memory");
        return false;
    }
    SchedXferR slot;
    uint32_t xnr;
    if (nr == 0) {
        /* no range: an empty transfer (nothing to normalise, nothing in the pool) */
        xnr = 0;
        slot.one = (ChunkRange){ 0, 0 };
    } else if (nr == 1) {
        /* one range: inline, nothing to normalise (an empty one is dropped) */
        xnr = r[0].lo < r[0].hi;
        slot.one = xnr ? r[0] : (ChunkRange){ 0, 0 };
    } else {
        /* Normalise into the pool (reusing the ranges of the previous send when identical,
         * which are written first if they are a submask set's); a result of at most one range
         * goes inline after all. */
        sched_pool_ready(s);
        if (!grow((void **)&s->ranges, sizeof *s->ranges, &s->capranges, s->nranges + nr)) {
            sched_fail(s, "out of memory");
            return false;
        }
        ChunkRange *dstr = s->ranges + s->nranges;
        if (nr)
            memcpy(dstr, r, nr * sizeof *r);
        size_t n = chunkset_normalize(dstr, nr);
        if (n <= 1) {
            slot.one = n ? dstr[0] : (ChunkRange){ 0, 0 };
            xnr = (uint32_t)n;
        } else {
            if (!pool_commit(s, n, &slot))
                return false;
            xnr = (uint32_t)n;
        }
    }
    if (explicit_route)
        route = route_store(s, seg, nseg);
    return put_send(s, st, src, dst, slot, xnr, route, explicit_route);
}

bool sched_reserve(Sched *s, int64_t ntransfers, uint64_t nranges)
{
    if (!s || s->cur < 0 || ntransfers < 0)
        return false;
    SchedStep *st = &s->steps[s->cur];
    if (!xfer_room(st, st->n + ntransfers) ||
        (st->ext && !ensure_ext(st, st->n + ntransfers)) ||
        !grow((void **)&s->ranges, sizeof *s->ranges, &s->capranges, s->nranges + nranges)) {
        sched_fail(s, "out of memory");
        return false;
    }
    return true;
}

bool sched_send(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr)
{
    return add_send(s, src, dst, r, nr, NULL, 0, false);
}

bool sched_send_range(Sched *s, int32_t src, int32_t dst, uint32_t lo, uint32_t hi)
{
    ChunkRange r = { lo, hi };
    return add_send(s, src, dst, &r, 1, NULL, 0, false);
}

/* The ranges of the chunk set { fixed | m : m a submask of free } (fixed & free == 0), in
 * increasing order, into out, free's t low bits all set and `above` its bits above them (t < 32):
 * each range is 2^t chunks, one per submask of `above` (2^popcount(above) of them).  Two never
 * touch: a range that ended where the next one starts would carry into bit t, which is fixed
 * (not in free) and so the same in both.  Returns the number written. */
static size_t submask_ranges(uint32_t fixed, int t, uint32_t above, ChunkRange *out)
{
    uint32_t w = UINT32_C(1) << t;
    size_t n = 0;
    uint32_t sub = 0;
    for (;;) {
        uint32_t id = fixed | sub;
        out[n++] = (ChunkRange){ id, id + w };
        if (sub == above)
            break;
        sub = ((sub | ~above) + 1) & above;
    }
    return n;
}

/* Mark pool offset at as the start of a submask set (the bitmap grown with the pool). */
static bool mark_submasks(Sched *s, uint64_t at)
{
    uint64_t need = s->capranges / 64 + 1;
    if (need > s->submask_words) {
        uint64_t *q = realloc(s->submask, need * sizeof *q);
        if (!q)
            return false;
        memset(q + s->submask_words, 0, (need - s->submask_words) * sizeof *q);
        s->submask = q;
        s->submask_words = need;
    }
    s->submask[at / 64] |= UINT64_C(1) << (at % 64);
    return true;
}

/* The set's runs: t, the low ones of free_ (each range 2^t chunks), and the bits above. */
static void submask_split(uint32_t free_, int *t, uint32_t *above)
{
    int k = 0;
    while ((free_ >> k) & 1)
        k++;
    *t = k;
    *above = free_ & ~((UINT32_C(1) << k) - 1);
}

/* The sanitized builds (sched_check_proofs): submask_ranges lists the n ranges of the set
 * as sched_send would keep them (normalised: sorted, apart, none empty). */
static bool submasks_checked(uint32_t fixed, int t, uint32_t above, size_t n)
{
    ChunkRange *r = malloc(n * sizeof *r);
    bool ok = r && submask_ranges(fixed, t, above, r) == n && chunkset_normalize(r, n) == n;
    free(r);
    return ok;
}

/* Record stored transfer i's set in st->more->sub, made now for the step's first (the
 * transfers before it get none). */
static bool sub_put(SchedStep *st, int64_t i, SchedSub v)
{
    if (!more_room(st))
        return false;
    SchedMore *m = st->more;
    bool fresh = !m->sub;
    if (!grow64((void **)&m->sub, sizeof *m->sub, &m->capsub, i + 1))
        return false;
    if (fresh)
        for (int64_t j = 0; j < i; j++)
            m->sub[j] = (SchedSub){ 0, SCHED_SUB_NONE };
    m->sub[i] = v;
    return true;
}

/* Write the pending submask sets' ranges (offsets from pend_roff on): every stored transfer's
 * that has one there, and the set appended last (which a later send may share).  (The lock
 * held, or the builder's exclusive use.) */
static void pool_flush(Sched *s)
{
    uint64_t from = s->pend_roff;
    if (from == UINT64_MAX)
        return;
    for (int32_t k = 0; k < s->nsteps; k++) {
        const SchedStep *st = &s->steps[k];
        if (!st->more || !st->more->sub)
            continue;
        const SchedSub *sub = st->more->sub;
        for (int64_t i = 0; i < st->n; i++) {
            if (sub[i].free_ == SCHED_SUB_NONE)
                continue;
            uint32_t roff = sched_xfer_slot(st, i)->pool.roff;
            if (roff < from)
                continue;
            int t;
            uint32_t above;
            submask_split(sub[i].free_, &t, &above);
            submask_ranges(sub[i].fixed, t, above, s->ranges + roff);
        }
    }
    if (s->last_sub.free_ != SCHED_SUB_NONE && s->last_roff != UINT64_MAX &&
        s->last_roff >= from) {
        int t;
        uint32_t above;
        submask_split(s->last_sub.free_, &t, &above);
        submask_ranges(s->last_sub.fixed, t, above, s->ranges + s->last_roff);
    }
    s->pend_roff = UINT64_MAX;
}

void sched_pool_ready(const Sched *cs)
{
    if (!cs || !atomic_load_explicit(&cs->lazy, memory_order_acquire))
        return;
    Sched *s = (Sched *)cs;   /* (a Sched is never made const: readers are handed it so) */
    mtx_lock(&s->lock);
    if (atomic_load_explicit(&s->lazy, memory_order_relaxed)) {
        pool_flush(s);
        atomic_store_explicit(&s->lazy, false, memory_order_release);
    }
    mtx_unlock(&s->lock);
}

bool sched_send_submasks(Sched *s, int32_t src, int32_t dst, uint32_t fixed, uint32_t free_)
{
    if (!send_open(s, src, dst))
        return false;
    if (!check_send(s, src, dst, NULL, 0))
        return false;
    long step = (long)s->cur + 1;
    if ((fixed & free_) != 0 || (uint64_t)(fixed | free_) >= s->nchunks) {
        sched_fail(s, "step %ld: send %ld->%ld: a chunk set (fixed %#lx, free %#lx) %s", step,
                   (long)src, (long)dst, (unsigned long)fixed, (unsigned long)free_,
                   (fixed & free_) ? "whose fixed and free bits overlap"
                                   : "reaches a chunk not below the chunk count");
        return false;
    }
    SchedStep *st = &s->steps[s->cur];
    if (!xfer_room(st, st->n + 1)) {
        sched_fail(s, "out of memory");
        return false;
    }
    /* (fixed | free_) < nchunks <= 2^32 - 1: free_ is not all ones, so its run of low ones
     * t < 32, and every range ends by (fixed | free_) + 1 <= nchunks */
    int t;
    uint32_t above;
    submask_split(free_, &t, &above);
    int k = sched_pop32(above);
    SchedXferR slot;
    if (k == 0)
        return put_send(s, st, src, dst, slot_of(fixed, fixed + (UINT32_C(1) << t)), 1,
                        SCHED_DEFAULT_ROUTE, false);
    size_t n = (size_t)1 << k;
    if (sched_check_proofs && !submasks_checked(fixed, t, above, n)) {
        sched_fail(s, "step %ld: send %ld->%ld: a chunk set's ranges are wrong", step,
                   (long)src, (long)dst);
        return false;
    }
    SchedSub set = { fixed, free_ };
    bool ok;
    if (s->last_roff != UINT64_MAX && s->last_nr == n && s->last_sub.free_ == SCHED_SUB_NONE) {
        /* the ranges appended last are another send's, of as many ranges: this set's are
         * written and compared with them now, as sched_send's would be (pool_commit) */
        if (!grow((void **)&s->ranges, sizeof *s->ranges, &s->capranges, s->nranges + n)) {
            sched_fail(s, "out of memory");
            return false;
        }
        submask_ranges(fixed, t, above, s->ranges + s->nranges);
        uint64_t at = s->nranges;
        if (!pool_commit(s, n, &slot))
            return false;
        if (slot.pool.roff == at)
            s->last_sub = set;
        ok = slot.pool.roff != at || mark_submasks(s, at);
    } else if (s->last_roff != UINT64_MAX && s->last_nr == n &&
               s->last_sub.fixed == fixed && s->last_sub.free_ == free_) {
        /* the set appended last, again: its ranges shared (as pool_commit shares them) */
        slot = slot_of((uint32_t)s->last_roff, 0);
        ok = true;
    } else {
        /* the ranges' place in the pool, not written until a reader asks (sched_pool_ready):
         * pages never written cost nothing */
        uint64_t at = s->nranges;
        if (at > UINT32_MAX - n) {
            sched_fail(s, "too many chunk ranges in one schedule");
            return false;
        }
        if (!grow((void **)&s->ranges, sizeof *s->ranges, &s->capranges, at + n)) {
            sched_fail(s, "out of memory");
            return false;
        }
        s->nranges = at + n;
        s->last_roff = at;
        s->last_nr = n;
        s->last_sub = set;
        if (s->pend_roff == UINT64_MAX)
            s->pend_roff = at;
        atomic_store_explicit(&s->lazy, true, memory_order_release);
        slot = slot_of((uint32_t)at, 0);
        ok = mark_submasks(s, at);
    }
    if (!ok) {
        sched_fail(s, "out of memory");
        return false;
    }
    if (!put_send(s, st, src, dst, slot, (uint32_t)n, SCHED_DEFAULT_ROUTE, false))
        return false;
    if (!sub_put(st, st->n - 1, set)) {
        sched_fail(s, "out of memory");
        return false;
    }
    return true;
}

size_t sched_submasks_list(uint32_t fixed, uint32_t free_, ChunkRange *out)
{
    int t;
    uint32_t above;
    submask_split(free_, &t, &above);
    return submask_ranges(fixed, t, above, out);
}

uint64_t sched_submasks_bytes(const Sched *s, uint32_t fixed, uint32_t free_)
{
    int t;
    uint32_t above;
    submask_split(free_, &t, &above);
    uint32_t w = UINT32_C(1) << t;
    enum { BATCH = 256 };
    ChunkRange r[BATCH];
    uint64_t b = 0;
    size_t n = 0;
    uint32_t sub = 0;
    for (;;) {   /* (submask_ranges, a batch at a time; sums of integers: any grouping) */
        r[n++] = (ChunkRange){ fixed | sub, (fixed | sub) + w };
        bool last = sub == above;
        if (n == BATCH || last) {
            b += sched_ranges_bytes(s, r, n);
            n = 0;
        }
        if (last)
            return b;
        sub = ((sub | ~above) + 1) & above;
    }
}

bool sched_pool_submasks(const Sched *s, const ChunkRange *r, size_t nr, uint32_t *fixed,
                         uint32_t *free_)
{
    uintptr_t a = (uintptr_t)r, p = (uintptr_t)s->ranges;
    if (!s->submask || nr < 2 || a < p || (a - p) % sizeof *r != 0)
        return false;
    uint64_t off = (a - p) / sizeof *r;
    if (off >= s->submask_words * 64 || off + nr > s->nranges ||
        !((s->submask[off / 64] >> (off % 64)) & 1))
        return false;
    /* a marked start is a whole set's only when nr is its length: the first and last ranges
     * must say so (2^popcount(above) ranges of one width, the last at fixed | above) */
    uint32_t lo = r[0].lo, w = r[0].hi - r[0].lo, above = lo ^ r[nr - 1].lo;
    if ((w & (w - 1)) != 0 || (above & (w - 1)) != 0 || (lo & above) != 0 ||
        (lo & (w - 1)) != 0 || r[nr - 1].hi - r[nr - 1].lo != w ||
        ((size_t)1 << sched_pop32(above)) != nr)
        return false;
    *fixed = lo;
    *free_ = above | (w - 1);
    return true;
}

bool sched_send_route(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr,
                      const NetSeg *seg, int nseg)
{
    return add_send(s, src, dst, r, nr, seg, nseg, true);
}

/* Room for one more rule block in st. */
static bool rule_room(SchedStep *st)
{
    if (!more_room(st))
        return false;
    SchedMore *m = st->more;
    if (st->nrule < m->caprule)
        return true;
    int32_t nc = m->caprule ? m->caprule * 2 : 4;
    SchedRule *q = m->caprule > INT32_MAX / 2 ? NULL : realloc(m->rule, (size_t)nc * sizeof *q);
    if (!q)
        return false;
    m->rule = q;
    m->caprule = nc;
    return true;
}

/* Transfers j0..j0+n-1 of rule r into out[0..n), each first set to "nothing" (-1 -> -1, no
 * ranges), so that a rule that leaves a field unwritten is caught by the checks. */
static void rule_fill(const SchedRule *r, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = (SchedRuleXfer){ -1, -1, 0, { { 0, 0 }, { 0, 0 } } };
    if (r->batch) {
        r->batch(r->ctx, j0, n, out);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        r->fn(r->ctx, j0 + i, &out[i]);
}

/* The same for a rule already checked (when added, or proved): it writes what it wrote then
 * (it is pure), so only nr is set first (a rule that leaves it was checked with nr 0); the
 * ranges past nr are never read. */
static void rule_replay(const SchedRule *r, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    for (int64_t i = 0; i < n; i++)
        out[i].nr = 0;
    if (r->batch) {
        r->batch(r->ctx, j0, n, out);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        r->fn(r->ctx, j0 + i, &out[i]);
}

#define RULE_BATCH 256   /* transfers generated at a time */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
bool sched_check_proofs = true;
#else
bool sched_check_proofs = false;
#endif

/* Every transfer of rule block `rule` (count of them) checked as sched_send checks: false
 * (recording the first bad one) when one is wrong. */
static bool rule_check(Sched *s, const SchedRule *rule, int64_t count)
{
    SchedRuleXfer buf[RULE_BATCH];
    const Net *net = s->net;
    for (int64_t j0 = 0; j0 < count; j0 += RULE_BATCH) {
        int64_t m = count - j0 < RULE_BATCH ? count - j0 : RULE_BATCH;
        rule_fill(rule, j0, m, buf);
        for (int64_t i = 0; i < m; i++) {
            const SchedRuleXfer *x = &buf[i];
            /* the common transfer (one range, nodes in the net, apart) in one test; anything
             * else through the full checks, which name what is wrong */
            if (x->nr == 1 && x->r[0].lo < x->r[0].hi && x->r[0].hi <= s->nchunks &&
                (uint32_t)x->src < (uint32_t)net->size &&
                (uint32_t)x->dst < (uint32_t)net->size && x->src != x->dst)
                continue;
            bool ok = x->nr <= SCHED_RULE_MAXR;
            for (uint32_t k = 0; ok && k < x->nr; k++)
                ok = x->r[k].lo < x->r[k].hi && (k == 0 || x->r[k - 1].hi < x->r[k].lo);
            if (!ok) {
                sched_fail(s, "step %ld: rule transfer %lld (%ld->%ld): at most %d ranges, "
                           "sorted, non-empty and apart", (long)s->cur + 1,
                           (long long)(j0 + i), (long)x->src, (long)x->dst, SCHED_RULE_MAXR);
                return false;
            }
            if (!check_send(s, x->src, x->dst, x->r, x->nr))
                return false;
        }
    }
    return true;
}

/* Add a rule block of `count` transfers to the current step.  Every transfer is generated and
 * checked here, unless `prove` shows the block valid from its parameters (then only with
 * sched_check_proofs, which must agree). */
/* A block that claims to be an exchange (sched_send_rule_exchange) of count = the net's size
 * transfers: transfer j is node j's, and its partner's transfer comes back to j.  False (recording why)
 * when it is not so, or when memory runs out. */
static bool exchange_check(Sched *s, const SchedRule *rule, int64_t count)
{
    int32_t *p = malloc(sizeof *p * (size_t)count);
    if (!p) {
        sched_fail(s, "out of memory");
        return false;
    }
    SchedRuleXfer buf[RULE_BATCH];
    bool ok = true;
    int64_t bad = -1;
    for (int64_t j0 = 0; ok && j0 < count; j0 += RULE_BATCH) {
        int64_t m = count - j0 < RULE_BATCH ? count - j0 : RULE_BATCH;
        rule_fill(rule, j0, m, buf);
        for (int64_t i = 0; ok && i < m; i++) {
            ok = buf[i].src == j0 + i && buf[i].dst >= 0 && buf[i].dst < count &&
                 buf[i].dst != buf[i].src;
            p[j0 + i] = buf[i].dst;
            bad = j0 + i;
        }
    }
    for (int64_t j = 0; ok && j < count; j++) {
        ok = p[p[j]] == j;
        bad = j;
    }
    free(p);
    if (!ok)
        sched_fail(s, "step %ld: rule transfer %lld: not an exchange (node j sends to p(j), "
                   "p(j) sends back to j)", (long)s->cur + 1, (long long)bad);
    return ok;
}

/* Two transfers the same as a reader sees them (src, dst, nr and the first nr ranges). */
static bool same_xfer(const SchedRuleXfer *a, const SchedRuleXfer *b)
{
    if (a->src != b->src || a->dst != b->dst || a->nr != b->nr || a->nr > SCHED_RULE_MAXR)
        return false;
    for (uint32_t k = 0; k < a->nr; k++)
        if (a->r[k].lo != b->r[k].lo || a->r[k].hi != b->r[k].hi)
            return false;
    return true;
}

/* An exchange block's pairs function (sched_send_rule_exchange_pairs) against its transfers
 * (the block already checked as an exchange): for every run of nodes, exactly the nodes whose
 * partner is above them, in order, each with its transfer and its partner's as the rule
 * writes them (every field written: the pairs' buffer is poisoned first).  False (recording
 * the first pair that differs) when it is not so. */
static bool pairs_check(Sched *s, const SchedRule *rule, int64_t count)
{
    SchedRuleXfer buf[RULE_BATCH], pb[2 * RULE_BATCH], t;
    for (int64_t j0 = 0; j0 < count; j0 += RULE_BATCH) {
        int64_t m = count - j0 < RULE_BATCH ? count - j0 : RULE_BATCH;
        rule_fill(rule, j0, m, buf);
        for (int64_t i = 0; i < 2 * m; i++)
            pb[i] = (SchedRuleXfer){ -1, -1, UINT32_MAX, { { 1, 0 }, { 1, 0 } } };
        int64_t np = rule->pairs(rule->ctx, j0, m, pb), k = 0;
        bool ok = np >= 0 && np <= m;
        for (int64_t i = 0; ok && i < m; i++) {
            if (buf[i].dst < j0 + i)
                continue;
            rule_fill(rule, buf[i].dst, 1, &t);
            ok = k < np && same_xfer(&pb[2 * k], &buf[i]) && same_xfer(&pb[2 * k + 1], &t);
            k++;
            if (!ok)
                sched_fail(s, "step %ld: exchange pair of nodes %lld and %ld: not the rule's "
                           "transfers", (long)s->cur + 1, (long long)(j0 + i), (long)buf[i].dst);
        }
        if (ok && k != np)
            sched_fail(s, "step %ld: exchange pairs of nodes %lld..%lld: %lld pairs, not %lld",
                       (long)s->cur + 1, (long long)j0, (long long)(j0 + m - 1),
                       (long long)np, (long long)k);
        if (!ok || k != np)
            return false;
    }
    return true;
}

static bool add_rule(Sched *s, int64_t count, SchedRuleFn fn, SchedRuleBatchFn batch,
                     SchedRulePairFn pairs, const void *ctx, size_t ctxsize,
                     SchedRuleProveFn prove, bool exch)
{
    if (!s || cancelled(s))
        return false;
    progress_add(count);
    if (s->cur < 0) {
        sched_fail(s, "rule send: no step opened");
        return false;
    }
    if (count < 0 || (!fn && !batch) || (ctxsize && !ctx)) {
        sched_fail(s, "step %ld: a rule send needs a count >= 0 and a function",
                   (long)s->cur + 1);
        return false;
    }
    if (count == 0)
        return true;
    if (exch && count != s->net->size) {   /* (the simulator relies on it: always checked) */
        sched_fail(s, "step %ld: an exchange of %lld transfers on %s (one per node)",
                   (long)s->cur + 1, (long long)count, s->net->spec);
        return false;
    }
    /* the copy first, so that fn is checked on exactly what it will be given later */
    void *copy = malloc(ctxsize ? ctxsize : 1);
    if (!copy) {
        sched_fail(s, "out of memory");
        return false;
    }
    if (ctxsize)
        memcpy(copy, ctx, ctxsize);
    SchedRule rule = { fn, batch, copy, 0, count, 0, 0, 0, exch, pairs };
    bool proved = prove && prove(copy, s->net, s->nchunks, count);
    if ((!proved || sched_check_proofs) &&
        (!rule_check(s, &rule, count) || (exch && !exchange_check(s, &rule, count)) ||
         (pairs && !pairs_check(s, &rule, count)))) {
        if (proved && s->error) {   /* say so, with the transfer the check named */
            char *why = s->error;
            s->error = NULL;
            sched_fail(s, "a rule's proof is wrong: %s", why);
            free(why);
        }
        free(copy);
        return false;
    }
    SchedStep *st = &s->steps[s->cur];
    if (!rule_room(st)) {
        free(copy);
        sched_fail(s, "out of memory");
        return false;
    }
    rule.first = st->nruled;
    st->more->rule[st->nrule++] = rule;
    st->nruled += count;
    s->total += count;
    if (st->n + st->nruled > s->maxflat)
        s->maxflat = st->n + st->nruled;
    return true;
}

int64_t sched_edge(Sched *s, int32_t src, int32_t dst, const NetSeg *seg, int nseg,
                   uint32_t tag)
{
    if (!s || cancelled(s))
        return -1;
    const Net *net = s->net;
    long num = (long)s->nedges + 1;
    if (src < 0 || src >= net->size || dst < 0 || dst >= net->size || src == dst) {
        sched_fail(s, "edge %ld: %ld->%ld: %s", num, (long)src, (long)dst,
                   src == dst ? "a node cannot send to itself" : "node not in the net");
        return -1;
    }
    if (!route_ok(s, "edge", num, src, dst, seg, nseg) || !route_room(s, nseg))
        return -1;
    if (!grow64((void **)&s->edges, sizeof *s->edges, &s->capedges, s->nedges + 1)) {
        sched_fail(s, "out of memory");
        return -1;
    }
    s->edges[s->nedges] = (SchedEdge){ src, dst, route_store(s, seg, nseg), tag };
    return s->nedges++;
}

bool sched_send_edges(Sched *s, int64_t first, int64_t count, uint32_t mul, uint32_t add)
{
    if (!s || cancelled(s))
        return false;
    progress_add(count);
    if (s->cur < 0) {
        sched_fail(s, "edge send: no step opened");
        return false;
    }
    if (first < 0 || count < 0 || first > s->nedges || count > s->nedges - first) {
        sched_fail(s, "step %ld: edges %lld..%lld are not in the table of %lld",
                   (long)s->cur + 1, (long long)first + 1, (long long)(first + count),
                   (long long)s->nedges);
        return false;
    }
    if (count == 0)
        return true;
    uint32_t maxtag = 0;
    for (int64_t e = first; e < first + count; e++)
        if (s->edges[e].tag > maxtag)
            maxtag = s->edges[e].tag;
    if ((uint64_t)maxtag * mul + add >= s->nchunks) {
        sched_fail(s, "step %ld: edge send: chunk %llu is not below %lu", (long)s->cur + 1,
                   (unsigned long long)((uint64_t)maxtag * mul + add),
                   (unsigned long)s->nchunks);
        return false;
    }
    SchedStep *st = &s->steps[s->cur];
    if (!rule_room(st)) {
        sched_fail(s, "out of memory");
        return false;
    }
    st->more->rule[st->nrule++] = (SchedRule){ NULL, NULL, NULL, st->nruled, count, first, mul,
                                               add, false, NULL };
    st->nruled += count;
    s->total += count;
    if (st->n + st->nruled > s->maxflat)
        s->maxflat = st->n + st->nruled;
    return true;
}

bool sched_send_rule(Sched *s, int64_t count, SchedRuleFn fn, const void *ctx, size_t ctxsize)
{
    return add_rule(s, count, fn, NULL, NULL, ctx, ctxsize, NULL, false);
}

bool sched_send_rule_batch(Sched *s, int64_t count, SchedRuleBatchFn fn, const void *ctx,
                           size_t ctxsize)
{
    return add_rule(s, count, NULL, fn, NULL, ctx, ctxsize, NULL, false);
}

bool sched_send_rule_proved(Sched *s, int64_t count, SchedRuleBatchFn fn, const void *ctx,
                            size_t ctxsize, SchedRuleProveFn prove)
{
    return add_rule(s, count, NULL, fn, NULL, ctx, ctxsize, prove, false);
}

bool sched_send_rule_exchange(Sched *s, int64_t count, SchedRuleBatchFn fn, const void *ctx,
                              size_t ctxsize, SchedRuleProveFn prove)
{
    return add_rule(s, count, NULL, fn, NULL, ctx, ctxsize, prove, true);
}

bool sched_send_rule_exchange_pairs(Sched *s, int64_t count, SchedRuleBatchFn fn,
                                    SchedRulePairFn pairs, const void *ctx, size_t ctxsize,
                                    SchedRuleProveFn prove)
{
    if (s && !pairs) {
        sched_fail(s, "step %ld: an exchange's pairs need a function", (long)s->cur + 1);
        return false;
    }
    return add_rule(s, count, NULL, fn, pairs, ctx, ctxsize, prove, true);
}

const SchedRule *sched_step_exchange(const Sched *s, int32_t st)
{
    const SchedStep *ss = &s->steps[st];
    return ss->n == 0 && ss->nrule == 1 && ss->more->rule[0].exch ? &ss->more->rule[0] : NULL;
}

void sched_rule_gen(const SchedRule *r, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    rule_replay(r, j0, n, out);
}

int64_t sched_rule_pairs(const SchedRule *r, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    return r->pairs(r->ctx, j0, n, out);
}

/* ---- a step of a binomial spanning tree, as a rule (sched_send_tree) ---------------------- */

/* Transfer j of the block: member r ^ root sends to member (r + half) ^ root, r = j * span
 * (r + half == r ^ half: r is a multiple of span = 2 half). */
typedef struct {
    int32_t base, stride, root;
    int64_t span, half;
    ChunkRange r;
} TreeRule;

static void tree_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const TreeRule *t = ctx;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = (j0 + i) * t->span;
        out[i].src = (int32_t)(t->base + t->stride * (r ^ t->root));
        out[i].dst = (int32_t)(t->base + t->stride * ((r ^ t->half) ^ t->root));
        out[i].nr = 1;
        out[i].r[0] = t->r;
    }
}

static bool is_tree(const SchedRule *r) { return r->batch == tree_batch; }

bool sched_step_is_tree(const Sched *s, int32_t st)
{
    const SchedStep *ss = &s->steps[st];
    return ss->n == 0 && ss->nrule == 1 && is_tree(&ss->more->rule[0]);
}

bool sched_rule_tree(const SchedRule *r, int32_t *base, int32_t *stride, int64_t *members,
                     int64_t *half)
{
    if (!is_tree(r))
        return false;
    const TreeRule *t = r->ctx;
    *base = t->base;
    *stride = t->stride;
    *members = t->span * r->count;   /* span = 2^(k-i), count = 2^i */
    *half = t->half;
    return true;
}

/* (sched_send_tree has proved the block before adding it) */
static bool tree_proved(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)net;
    (void)nchunks;
    (void)count;
    return true;
}

/* The same transfers straight into the flat view's ends (the range is the block's one). */
static void tree_ends(const SchedRule *rule, SchedXfer *x)
{
    const TreeRule *t = rule->ctx;
    int64_t st = t->stride;
    int64_t src = t->base + st * t->root, dst = t->base + st * (t->half ^ t->root);
    if (t->root < t->span) {   /* r ^ root == r + root for every r: a progression */
        int64_t d = st * t->span;
        for (int64_t j = 0; j < rule->count; j++, src += d, dst += d)
            x[j] = (SchedXfer){ (int32_t)src, (int32_t)dst };
        return;
    }
    for (int64_t j = 0; j < rule->count; j++) {
        int64_t r = j * t->span;
        x[j] = (SchedXfer){ (int32_t)(t->base + st * (r ^ t->root)),
                            (int32_t)(t->base + st * ((r ^ t->half) ^ t->root)) };
    }
}

bool sched_send_tree(Sched *s, int32_t base, int32_t stride, int k, int i, int32_t root,
                     uint32_t lo, uint32_t hi)
{
    if (!s)
        return false;
    if (s->cur < 0) {
        sched_fail(s, "tree send: no step opened");
        return false;
    }
    long step = (long)s->cur + 1;
    const Net *net = s->net;
    if (k < 1 || k > 30 || i < 0 || i >= k || root < 0 || root >= (INT32_C(1) << k) ||
        lo > hi || hi > s->nchunks) {
        sched_fail(s, "step %ld: tree send: bad block (k %d, step %d, root %ld, chunks "
                   "%lu..%lu)", step, k, i, (long)root, (unsigned long)lo, (unsigned long)hi);
        return false;
    }
    /* Every member base + stride * m (0 <= m < 2^k) is in the net when the first and the last
     * are; the two ends of a transfer are distinct members (they differ in bit k-1-i of m),
     * hence distinct nodes when stride != 0; the range is checked once: the block is proved. */
    int64_t last = (int64_t)base + (int64_t)stride * ((INT64_C(1) << k) - 1);
    if (base < 0 || base >= net->size || last < 0 || last >= net->size || stride == 0) {
        sched_fail(s, "step %ld: tree send: group base %ld stride %ld of %ld members leaves %s",
                   step, (long)base, (long)stride, (long)(INT64_C(1) << k), net->spec);
        return false;
    }
    if (lo == hi) {   /* nothing to send (as sched_send_range of an empty range would not) */
        progress_add(INT64_C(1) << i);
        return !cancelled(s);
    }
    TreeRule t = { base, stride, root, INT64_C(1) << (k - i), INT64_C(1) << (k - 1 - i),
                   { lo, hi } };
    return add_rule(s, INT64_C(1) << i, NULL, tree_batch, NULL, &t, sizeof t, tree_proved, false);
}

bool sched_local(Sched *s, int32_t node, uint64_t bytes)
{
    if (!s)
        return false;
    if (s->cur < 0) {
        sched_fail(s, "local operation: no step opened");
        return false;
    }
    if (node < -1 || node >= net_size(s->net)) {
        sched_fail(s, "step %ld: local operation on node %ld not in %s", (long)s->cur + 1,
                   (long)node, net_spec(s->net));
        return false;
    }
    SchedStep *st = &s->steps[s->cur];
    if (st->nloc == INT32_MAX) {
        sched_fail(s, "step %ld: too many local operations", (long)s->cur + 1);
        return false;
    }
    if (!more_room(st) ||
        !grow64((void **)&st->more->loc, sizeof *st->more->loc, &st->more->caploc, st->nloc + 1)) {
        sched_fail(s, "out of memory");
        return false;
    }
    st->more->loc[st->nloc].node = node;
    st->more->loc[st->nloc].bytes = bytes;
    st->nloc++;
    return true;
}

void sched_truncate(Sched *s, int32_t nsteps)
{
    if (!s || nsteps < 0 || nsteps >= s->nsteps)
        return;
    for (int32_t i = nsteps; i < s->nsteps; i++) {
        s->total -= s->steps[i].n + s->steps[i].nruled;
        step_free(&s->steps[i]);
    }
    s->nsteps = nsteps;
    if (s->cur >= nsteps)
        s->cur = nsteps - 1;
    if (nsteps == 0) {
        /* Nothing refers to the pools any more: reclaim them. */
        s->nranges = 0;
        s->pend_roff = UINT64_MAX;
        s->last_sub.free_ = SCHED_SUB_NONE;
        atomic_store_explicit(&s->lazy, false, memory_order_release);
        if (s->submask)
            memset(s->submask, 0, s->submask_words * sizeof *s->submask);
        s->nsegs = 0;
        s->nrcache = s->rcnext = 0;
        s->nedges = 0;
        s->last_roff = UINT64_MAX;
    }
}

const char *sched_error(const Sched *s) { return s ? s->error : "no schedule"; }

int32_t sched_nsteps(const Sched *s) { return s ? s->nsteps : 0; }

const char *sched_step_label(const Sched *s, int32_t step)
{
    if (!s || step < 0 || step >= s->nsteps || !s->steps[step].label)
        return "";
    return s->steps[step].label;
}

int64_t sched_ntransfers(const Sched *s, int32_t step)
{
    if (!s || step < 0 || step >= s->nsteps)
        return 0;
    return s->steps[step].n + s->steps[step].nruled;
}

int64_t sched_total_transfers(const Sched *s) { return s ? s->total : 0; }

/* Transfer j of rule block r (its route in *route: explicit for an edge block). */
void sched_rule_get(const Sched *s, const SchedRule *r, int64_t j, SchedRuleXfer *out,
                    uint32_t *route)
{
    if (!sched_rule_is_edges(r)) {
        rule_fill(r, j, 1, out);
        *route = SCHED_DEFAULT_ROUTE;
        return;
    }
    const SchedEdge *e = &s->edges[r->e0 + j];
    uint32_t c = e->tag * r->mul + r->add;
    *out = (SchedRuleXfer){ e->src, e->dst, 1, { { c, c + 1 }, { 0, 0 } } };
    *route = e->route;
}

/* Transfer j of st's rule part. */
static void rule_xfer(const Sched *s, const SchedStep *st, int64_t j, SchedRuleXfer *out,
                      uint32_t *route)
{
    int32_t lo = 0, hi = st->nrule - 1;   /* the last block with first <= j */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (st->more->rule[mid].first <= j)
            lo = mid;
        else
            hi = mid - 1;
    }
    sched_rule_get(s, &st->more->rule[lo], j - st->more->rule[lo].first, out, route);
}

bool sched_edges_only(const Sched *s)
{
    if (s->nedges == 0)
        return false;
    for (int32_t st = 0; st < s->nsteps; st++) {
        const SchedStep *ss = &s->steps[st];
        if (ss->n > 0)
            return false;
        for (int32_t q = 0; q < ss->nrule; q++)
            if (!sched_rule_is_edges(&ss->more->rule[q]))
                return false;
    }
    return true;
}

/* Room for `need` elements in a flat view's array, whose contents need not survive (no copy
 * into a bigger block).  A big step's view is made room for at once for the schedule's largest
 * rule step (`hint`, its transfers): the pages that are never written cost nothing, and the
 * steps that grow up to it touch each page once instead of once per doubling. */
static bool flat_room(void **p, size_t elem, int64_t *cap, int64_t need, int64_t hint)
{
    if (need <= *cap)
        return true;
    if (need >= (INT64_C(1) << 16) && hint > need)
        need = hint;
    free(*p);
    *p = NULL;
    *cap = 0;
    return grow64(p, elem, cap, need);
}

/* A flat view being filled: the slots are kept as one (r1) until two differ. */
typedef struct {
    SchedFlatBuf *b;
    int64_t n, hint;
    bool apart;
    SchedXferR r1;
} FlatFill;

/* Give transfer k its slot v (k > 0: the transfers before have theirs).  False when memory
 * runs out. */
static bool flat_slot(FlatFill *f, int64_t k, SchedXferR v)
{
    if (!f->apart) {
        if (k == 0 || sched_slot_eq(v, f->r1)) {
            if (k == 0)
                f->r1 = v;
            return true;
        }
        if (!flat_room((void **)&f->b->r, sizeof *f->b->r, &f->b->capr, f->n, f->hint))
            return false;
        for (int64_t i = 0; i < k; i++)
            f->b->r[i] = f->r1;
        f->apart = true;
    }
    f->b->r[k] = v;
    return true;
}

/* Transfer k of a flat view from a rule's record: its ends in b->x, its ranges as a slot (one
 * range inline, more copied into b->pool at *np, which grows). */
static inline SchedXferR rule_put(SchedFlatBuf *b, int64_t k, const SchedRuleXfer *rx,
                                  uint32_t *np)
{
    SchedXferR v;
    b->x[k] = (SchedXfer){ rx->src, rx->dst };
    if (rx->nr <= 1) {
        v.one = rx->nr ? rx->r[0] : (ChunkRange){ 0, 0 };
    } else {
        memcpy(b->pool + *np, rx->r, rx->nr * sizeof *b->pool);
        v.pool.roff = *np;
        v.pool.unused = 0;
        *np += rx->nr;
    }
    return v;
}

/* Give transfers 0..k-1 the ext {1, default route}, once a transfer needs ext. */
static void flat_ext_from(SchedFlatBuf *b, int64_t k)
{
    for (int64_t i = 0; i < k; i++)
        b->ext[i] = (SchedXferExt){ 1, SCHED_DEFAULT_ROUTE };
}

bool sched_flat(const Sched *s, int32_t step, SchedFlatBuf *b, SchedFlat *out)
{
    sched_pool_ready(s);
    return sched_flat_sets(s, step, b, out);
}

bool sched_flat_sets(const Sched *s, int32_t step, SchedFlatBuf *b, SchedFlat *out)
{
    const SchedStep *st = &s->steps[step];
    if (st->nrule == 0) {
        *out = (SchedFlat){ .x = st->x, .r = sched_step_slots(st), .ext = st->ext,
                            .pool = s->ranges, .sub = st->more ? st->more->sub : NULL,
                            .n = st->n, .r1 = st->r1 };
        return true;
    }
    /* (a step with rule blocks: its stored transfers' ranges are copied, so those of its
     * submask sets written first) */
    if (st->more && st->more->sub)
        sched_pool_ready(s);
    int64_t n = st->n + st->nruled;
    uint64_t npool = 0;
    bool need_ext = st->ext != NULL;
    for (int32_t q = 0; q < st->nrule; q++) {
        const SchedRule *r = &st->more->rule[q];
        if (sched_rule_is_edges(r))
            need_ext = true;
        else if (!is_tree(r))
            npool += 2 * (uint64_t)r->count, need_ext = true;   /* (a rule's nr may be 0 or 2) */
    }
    for (int64_t i = 0; i < st->n; i++)
        if (sched_xfer_nr(st, i) > 1)
            npool += sched_xfer_nr(st, i);
    int64_t hint = s->maxflat;
    if (npool > UINT32_MAX || !flat_room((void **)&b->x, sizeof *b->x, &b->capx, n, hint) ||
        (need_ext && !flat_room((void **)&b->ext, sizeof *b->ext, &b->capext, n, hint)) ||
        (npool && !grow((void **)&b->pool, sizeof *b->pool, &b->cappool, npool)))
        return false;
    FlatFill f = { b, n, hint, false, { .one = { 0, 0 } } };
    /* ext is written only once some transfer needs it (nr != 1 or an explicit route); the
     * ones before it are filled in then */
    bool ext = st->ext != NULL;
    uint32_t np = 0;
    for (int64_t i = 0; i < st->n; i++) {
        SchedXferR q = *sched_xfer_slot(st, i);
        uint32_t nr = sched_xfer_nr(st, i);
        if (nr > 1) {
            memcpy(b->pool + np, sched_xfer_ranges(s, st, i), nr * sizeof *b->pool);
            q.pool.roff = np;
            np += nr;
        }
        b->x[i] = st->x[i];
        if (!flat_slot(&f, i, q))
            return false;
        if (ext)
            b->ext[i] = (SchedXferExt){ nr, sched_xfer_route(st, i) };
    }
    int64_t k = st->n;
    for (int32_t q = 0; q < st->nrule; q++) {
        const SchedRule *r = &st->more->rule[q];
        if (sched_rule_is_edges(r) && !ext) {   /* edge blocks: explicit routes */
            flat_ext_from(b, k);
            ext = true;
        }
        if (sched_rule_is_edges(r)) {
            const SchedEdge *e = s->edges + r->e0;
            for (int64_t j = 0; j < r->count; j++, k++) {
                uint32_t c = e[j].tag * r->mul + r->add;
                b->x[k] = (SchedXfer){ e[j].src, e[j].dst };
                if (!flat_slot(&f, k, (SchedXferR){ .one = { c, c + 1 } }))
                    return false;
                b->ext[k] = (SchedXferExt){ 1, e[j].route };
            }
            continue;
        }
        if (is_tree(r)) {   /* one range each, default routes: the ends, and one slot */
            tree_ends(r, b->x + k);
            SchedXferR v = { .one = ((const TreeRule *)r->ctx)->r };
            if (!flat_slot(&f, k, v))
                return false;
            if (f.apart)
                for (int64_t j = 1; j < r->count; j++)
                    b->r[k + j] = v;
            if (ext)
                for (int64_t j = 0; j < r->count; j++)
                    b->ext[k + j] = (SchedXferExt){ 1, SCHED_DEFAULT_ROUTE };
            k += r->count;
            continue;
        }
        SchedRuleXfer buf[RULE_BATCH];
        for (int64_t j0 = 0; j0 < r->count; j0 += RULE_BATCH) {
            int64_t m = r->count - j0 < RULE_BATCH ? r->count - j0 : RULE_BATCH;
            rule_replay(r, j0, m, buf);
            for (int64_t j = 0; j < m; j++, k++) {
                const SchedRuleXfer *rx = &buf[j];
                SchedXferR v = rule_put(b, k, rx, &np);
                if (f.apart)
                    b->r[k] = v;
                else if (!flat_slot(&f, k, v))
                    return false;
                if (!ext && rx->nr != 1) {
                    flat_ext_from(b, k);
                    ext = true;
                }
                if (ext)
                    b->ext[k] = (SchedXferExt){ rx->nr, SCHED_DEFAULT_ROUTE };
            }
        }
    }
    *out = (SchedFlat){ .x = b->x, .r = f.apart ? b->r : NULL, .ext = ext ? b->ext : NULL,
                        .pool = b->pool, .n = n, .r1 = f.r1 };
    return true;
}

bool sched_flat_rule(const Sched *s, const SchedRule *r, int64_t j0, int64_t n,
                     SchedFlatBuf *b, SchedFlat *out)
{
    (void)s;
    if (!flat_room((void **)&b->x, sizeof *b->x, &b->capx, n, 0) ||
        !flat_room((void **)&b->r, sizeof *b->r, &b->capr, n, 0) ||
        !flat_room((void **)&b->ext, sizeof *b->ext, &b->capext, n, 0) ||
        !grow((void **)&b->pool, sizeof *b->pool, &b->cappool, 2 * (uint64_t)n + 1))
        return false;
    SchedRuleXfer buf[RULE_BATCH];
    uint32_t np = 0;
    for (int64_t k0 = 0; k0 < n; k0 += RULE_BATCH) {
        int64_t m = n - k0 < RULE_BATCH ? n - k0 : RULE_BATCH;
        rule_replay(r, j0 + k0, m, buf);
        for (int64_t j = 0; j < m; j++) {
            const SchedRuleXfer *rx = &buf[j];
            int64_t k = k0 + j;
            b->r[k] = rule_put(b, k, rx, &np);
            b->ext[k] = (SchedXferExt){ rx->nr, SCHED_DEFAULT_ROUTE };
        }
    }
    *out = (SchedFlat){ .x = b->x, .r = b->r, .ext = b->ext, .pool = b->pool, .n = n,
                        .r1 = { .one = { 0, 0 } } };
    return true;
}

void sched_flatbuf_free(SchedFlatBuf *b)
{
    if (!b)
        return;
    free(b->x);
    free(b->r);
    free(b->ext);
    free(b->pool);
    *b = (SchedFlatBuf){ 0 };
}

void sched_transfer(const Sched *s, int32_t step, int64_t i, SchedTransfer *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    out->src = out->dst = -1;
    if (!s || step < 0 || step >= s->nsteps || i < 0 || i >= sched_ntransfers(s, step))
        return;
    const SchedStep *st = &s->steps[step];
    if (i >= st->n) {
        SchedRuleXfer rx;
        uint32_t route;
        rule_xfer(s, st, i - st->n, &rx, &route);
        out->src = rx.src;
        out->dst = rx.dst;
        out->nranges = rx.nr;
        memcpy(out->rbuf, rx.r, sizeof out->rbuf);
        out->ranges = out->rbuf;
        out->explicit_route = route != SCHED_DEFAULT_ROUTE;
        if (out->explicit_route) {
            out->nseg = (int)sched_route_nseg(route);
            memcpy(out->seg, sched_route_segs(s, route), (size_t)out->nseg * sizeof *out->seg);
        } else {
            out->nseg = net_route_fast(s->net, rx.src, rx.dst, out->seg);
        }
        out->len = net_route_len(out->seg, out->nseg);
        out->bytes = sched_ranges_bytes(s, rx.r, rx.nr);
        return;
    }
    const SchedXfer *x = &st->x[i];
    uint32_t route = sched_xfer_route(st, i);
    if (st->more && st->more->sub && st->more->sub[i].free_ != SCHED_SUB_NONE)
        sched_pool_ready(s);   /* (its ranges may not be written yet) */
    out->src = x->src;
    out->dst = x->dst;
    out->ranges = sched_xfer_ranges(s, st, i);
    out->nranges = sched_xfer_nr(st, i);
    if (route == SCHED_DEFAULT_ROUTE) {
        out->explicit_route = false;
        out->nseg = net_route_fast(s->net, x->src, x->dst, out->seg);
    } else {
        out->explicit_route = true;
        out->nseg = (int)sched_route_nseg(route);
        memcpy(out->seg, sched_route_segs(s, route), (size_t)out->nseg * sizeof *out->seg);
    }
    out->len = net_route_len(out->seg, out->nseg);
    out->bytes = sched_ranges_bytes(s, out->ranges, out->nranges);
}

int64_t sched_nlocals(const Sched *s, int32_t step)
{
    if (!s || step < 0 || step >= s->nsteps)
        return 0;
    return s->steps[step].nloc;
}

void sched_local_get(const Sched *s, int32_t step, int64_t i, SchedLocal *out)
{
    if (!out)
        return;
    out->node = -1;
    out->bytes = 0;
    if (!s || step < 0 || step >= s->nsteps || i < 0 || i >= s->steps[step].nloc)
        return;
    *out = s->steps[step].more->loc[i];
}

/* ---- equality ---------------------------------------------------------------------------- */

/* Transfers are compared through small keys; routes are resolved only when one of the two is
 * explicit (two default routes between the same nodes are the same route). */
typedef struct {
    const Sched *s;
    const SchedXfer *x;
    const ChunkRange *r;
    uint32_t nr, route;
} XKey;

static XKey make_key(const Sched *s, const SchedFlat *f, int64_t i)
{
    return (XKey){ s, &f->x[i], sched_flat_ranges(f, i), sched_flat_nr(f, i),
                   sched_flat_route(f, i) };
}

static int key_route(const XKey *k, NetSeg *seg)
{
    const SchedXfer *x = k->x;
    if (k->route == SCHED_DEFAULT_ROUTE)
        return net_route_fast(k->s->net, x->src, x->dst, seg);
    uint32_t n = sched_route_nseg(k->route);
    memcpy(seg, sched_route_segs(k->s, k->route), n * sizeof *seg);
    return (int)n;
}

static int cmp_key(const void *pa, const void *pb)
{
    const XKey *a = pa, *b = pb;
    if (a->x->src != b->x->src)
        return a->x->src < b->x->src ? -1 : 1;
    if (a->x->dst != b->x->dst)
        return a->x->dst < b->x->dst ? -1 : 1;
    if (a->nr != b->nr)
        return a->nr < b->nr ? -1 : 1;
    const ChunkRange *ra = a->r, *rb = b->r;
    for (uint32_t i = 0; i < a->nr; i++) {
        if (ra[i].lo != rb[i].lo)
            return ra[i].lo < rb[i].lo ? -1 : 1;
        if (ra[i].hi != rb[i].hi)
            return ra[i].hi < rb[i].hi ? -1 : 1;
    }
    if (a->route == SCHED_DEFAULT_ROUTE && b->route == SCHED_DEFAULT_ROUTE)
        return 0;
    NetSeg sa[NET_MAXSEG], sb[NET_MAXSEG];
    int na = key_route(a, sa), nb = key_route(b, sb);
    if (na != nb)
        return na < nb ? -1 : 1;
    for (int i = 0; i < na; i++) {
        if (sa[i].dim != sb[i].dim)
            return sa[i].dim < sb[i].dim ? -1 : 1;
        if (sa[i].dir != sb[i].dir)
            return sa[i].dir < sb[i].dir ? -1 : 1;
        if (sa[i].len != sb[i].len)
            return sa[i].len < sb[i].len ? -1 : 1;
    }
    return 0;
}

static int cmp_local(const void *pa, const void *pb)
{
    const SchedLocal *a = pa, *b = pb;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? -1 : 1;
    return 0;
}

typedef struct {
    int32_t node;
    ChunkRange r;
} Given;

static int cmp_given(const void *pa, const void *pb)
{
    const Given *a = pa, *b = pb;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->r.lo != b->r.lo)
        return a->r.lo < b->r.lo ? -1 : 1;
    if (a->r.hi != b->r.hi)
        return a->r.hi < b->r.hi ? -1 : 1;
    return 0;
}

static bool givens_equal(const Sched *a, const Sched *b)
{
    if (a->ngiven != b->ngiven)
        return false;
    size_t n = a->ngiven;
    if (n == 0)
        return true;
    Given *ga = malloc(n * sizeof *ga), *gb = malloc(n * sizeof *gb);
    bool eq = false;
    if (ga && gb) {
        for (size_t i = 0; i < n; i++) {
            ga[i] = (Given){ a->gnode[i], a->grange[i] };
            gb[i] = (Given){ b->gnode[i], b->grange[i] };
        }
        qsort(ga, n, sizeof *ga, cmp_given);
        qsort(gb, n, sizeof *gb, cmp_given);
        eq = memcmp(ga, gb, n * sizeof *ga) == 0;
    }
    free(ga);
    free(gb);
    return eq;
}

static bool step_equal(const Sched *a, const Sched *b, int32_t st)
{
    const SchedStep *sa = &a->steps[st], *sb = &b->steps[st];
    if (sched_ntransfers(a, st) != sched_ntransfers(b, st) || sa->nloc != sb->nloc)
        return false;
    bool eq = true;
    if (sa->nloc) {
        size_t n = (size_t)sa->nloc;
        SchedLocal *la = malloc(n * sizeof *la), *lb = malloc(n * sizeof *lb);
        eq = la && lb;
        if (eq) {
            memcpy(la, sa->more->loc, n * sizeof *la);
            memcpy(lb, sb->more->loc, n * sizeof *lb);
            qsort(la, n, sizeof *la, cmp_local);
            qsort(lb, n, sizeof *lb, cmp_local);
            for (size_t i = 0; i < n && eq; i++)
                eq = la[i].node == lb[i].node && la[i].bytes == lb[i].bytes;
        }
        free(la);
        free(lb);
    }
    if (!eq || sched_ntransfers(a, st) == 0)
        return eq;
    size_t n = (size_t)sched_ntransfers(a, st);
    SchedFlatBuf ba = { 0 }, bb = { 0 };
    SchedFlat fa, fb;
    XKey *ka = malloc(n * sizeof *ka), *kb = malloc(n * sizeof *kb);
    eq = ka && kb && sched_flat(a, st, &ba, &fa) && sched_flat(b, st, &bb, &fb);
    if (eq) {
        for (size_t i = 0; i < n; i++) {
            ka[i] = make_key(a, &fa, (int64_t)i);
            kb[i] = make_key(b, &fb, (int64_t)i);
        }
        qsort(ka, n, sizeof *ka, cmp_key);
        qsort(kb, n, sizeof *kb, cmp_key);
        for (size_t i = 0; i < n && eq; i++)
            eq = cmp_key(&ka[i], &kb[i]) == 0;
    }
    free(ka);
    free(kb);
    sched_flatbuf_free(&ba);
    sched_flatbuf_free(&bb);
    return eq;
}

bool sched_equal(const Sched *a, const Sched *b)
{
    if (!a || !b)
        return a == b;
    if (a->nchunks != b->nchunks || a->bytes != b->bytes || a->nsteps != b->nsteps)
        return false;
    if (a->net != b->net && strcmp(net_spec(a->net), net_spec(b->net)) != 0)
        return false;
    if (!givens_equal(a, b))
        return false;
    for (int32_t st = 0; st < a->nsteps; st++)
        if (!step_equal(a, b, st))
            return false;
    return true;
}

int32_t sched_first_difference(const Sched *a, const Sched *b)
{
    if (!a || !b)
        return a == b ? -1 : -2;
    if (a->nchunks != b->nchunks || a->bytes != b->bytes || !givens_equal(a, b) ||
        (a->net != b->net && strcmp(net_spec(a->net), net_spec(b->net)) != 0))
        return -2;
    int32_t n = a->nsteps < b->nsteps ? a->nsteps : b->nsteps;
    for (int32_t st = 0; st < n; st++)
        if (!step_equal(a, b, st))
            return st;
    return a->nsteps == b->nsteps ? -1 : n;
}
