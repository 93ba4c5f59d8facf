/* sched-pack.c — a schedule as one byte string and back (see sched-pack.h). */
#include "sched-pack.h"
#include "progress.h"
#include "sched-internal.h"
#include "sched-strided.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void put_u64(SchedPut put, void *ud, uint64_t v) { put(ud, &v, sizeof v); }

/* A transfer as packed: its ends and its range slot (16 bytes, whatever the step stores). */
typedef struct {
    int32_t src, dst;
    SchedXferR r;
} Wire;

/* A strided rule block as packed (sched-strided.h), after its step's stored transfers. */
typedef struct {
    int32_t first, stride, offset;
    uint32_t nr;
    int64_t count;
    uint32_t r[4];          /* lo, hi of its ranges (the second 0, 0 when nr is 1) */
} Block;

/* A step's transfers as packed; for steps that are not all simple, their ranges and routes,
 * renumbered from 0. */
typedef struct {
    Wire *x;
    SchedXferExt *e;
    ChunkRange *pool;
    NetSeg *segs;
    int64_t capx, cape, cappool, capsegs;
} Local;

static bool room(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return true;
    int64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

static bool pack_ext(const Sched *s, const SchedFlat *f, Local *l, SchedPut put, void *ud)
{
    if (!room((void **)&l->x, &l->capx, f->n, sizeof *l->x) ||
        !room((void **)&l->e, &l->cape, f->n, sizeof *l->e))
        return false;
    int64_t np = 0, ns = 0;
    for (int64_t i = 0; i < f->n; i++) {
        Wire x = { f->x[i].src, f->x[i].dst, *sched_flat_slot(f, i) };
        SchedXferExt e = f->ext[i];
        if (e.nr > 1) {
            if (!room((void **)&l->pool, &l->cappool, np + e.nr, sizeof *l->pool))
                return false;
            memcpy(l->pool + np, f->pool + x.r.pool.roff, e.nr * sizeof *l->pool);
            x.r.pool.roff = (uint32_t)np;
            np += e.nr;
        }
        if (e.route != SCHED_DEFAULT_ROUTE) {
            uint32_t nseg = sched_route_nseg(e.route);
            if (!room((void **)&l->segs, &l->capsegs, ns + nseg, sizeof *l->segs))
                return false;
            memcpy(l->segs + ns, sched_route_segs(s, e.route), nseg * sizeof *l->segs);
            e.route = (uint32_t)(ns << SCHED_SEG_BITS) | nseg;
            ns += nseg;
        }
        l->x[i] = x;
        l->e[i] = e;
    }
    put(ud, l->x, (size_t)f->n * sizeof *l->x);
    put(ud, l->e, (size_t)f->n * sizeof *l->e);
    put_u64(put, ud, (uint64_t)np);
    put(ud, l->pool, (size_t)np * sizeof *l->pool);
    put_u64(put, ud, (uint64_t)ns);
    put(ud, l->segs, (size_t)ns * sizeof *l->segs);
    return true;
}

/* A step of simple transfers (one range each, default routes): the records only. */
static bool pack_simple(const SchedFlat *f, Local *l, SchedPut put, void *ud)
{
    if (!room((void **)&l->x, &l->capx, f->n, sizeof *l->x))
        return false;
    for (int64_t i = 0; i < f->n; i++)
        l->x[i] = (Wire){ f->x[i].src, f->x[i].dst, *sched_flat_slot(f, i) };
    put(ud, l->x, (size_t)f->n * sizeof *l->x);
    return true;
}

bool sched_pack(const Sched *s, SchedPut put, void *ud)
{
    size_t ng = sched_ngiven(s);
    put_u64(put, ud, ng);
    for (size_t i = 0; i < ng; i++) {
        int32_t node;
        ChunkRange r;
        sched_given(s, i, &node, &r);
        uint32_t g[3] = {(uint32_t)node, r.lo, r.hi};
        put(ud, g, sizeof g);
    }
    put_u64(put, ud, (uint64_t)s->nsteps);
    SchedFlatBuf fb = {0};
    Local l = {0};
    sched_pool_ready(s);   /* (the stored steps' ranges are read from the pool itself) */
    bool ok = true;
    for (int32_t k = 0; ok && k < s->nsteps; k++) {
        const SchedStep *st = &s->steps[k];
        size_t ll = st->label ? strlen(st->label) : 0;
        put_u64(put, ud, ll);
        put(ud, st->label, ll);
        /* a step whose rule blocks are all strided ships its stored transfers and the blocks'
         * parameters; any other is flattened */
        int32_t nq = sched_step_nrules(s, k), q = 0;
        SchedStrided sb;
        while (q < nq && sched_rule_as_strided(s, k, q, &sb))
            q++;
        bool ruled = nq > 0 && q == nq;
        SchedFlat f = { .x = st->x, .r = sched_step_slots(st), .ext = st->ext,
                        .pool = s->ranges, .n = st->n, .r1 = st->r1 };
        if (!ruled && !(ok = sched_flat(s, k, &fb, &f)))
            break;
        put_u64(put, ud, (uint64_t)f.n);
        put_u64(put, ud, f.ext != NULL);
        if (!f.ext)
            ok = pack_simple(&f, &l, put, ud);
        else
            ok = pack_ext(s, &f, &l, put, ud);
        put_u64(put, ud, ruled ? (uint64_t)nq : 0);
        for (q = 0; ruled && q < nq; q++) {
            sched_rule_as_strided(s, k, q, &sb);
            Block b = { sb.first, sb.stride, sb.offset, sb.nr, sb.count,
                        { sb.r[0].lo, sb.r[0].hi, sb.nr > 1 ? sb.r[1].lo : 0,
                          sb.nr > 1 ? sb.r[1].hi : 0 } };
            put(ud, &b, sizeof b);
        }
        put_u64(put, ud, (uint64_t)st->nloc);
        for (int64_t i = 0; i < st->nloc; i++) {
            int64_t v[2] = {st->more->loc[i].node, (int64_t)st->more->loc[i].bytes};
            put(ud, v, sizeof v);
        }
    }
    sched_flatbuf_free(&fb);
    free(l.x);
    free(l.e);
    free(l.pool);
    free(l.segs);
    return ok;
}

/* ---- reading, trusting nothing ---- */

typedef struct {
    const unsigned char *p;
    size_t left;
    bool bad;
} Rd;

static const unsigned char *take(Rd *r, uint64_t n)
{
    if (r->bad || n > r->left) {
        r->bad = true;
        return NULL;
    }
    const unsigned char *q = r->p;
    r->p += n;
    r->left -= n;
    return q;
}

static uint64_t get_u64(Rd *r)
{
    uint64_t v = 0;
    const unsigned char *q = take(r, sizeof v);
    if (q)
        memcpy(&v, q, sizeof v);
    return v;
}

/* n elements of size bytes each, copied into an aligned buffer (grown); NULL if short. */
static void *take_array(Rd *r, uint64_t n, size_t size, void **buf, int64_t *cap)
{
    if (r->bad || n > r->left / size) {
        r->bad = true;
        return NULL;
    }
    if (!room(buf, cap, n ? (int64_t)n : 1, size))   /* never NULL for none */
        return NULL;
    memcpy(*buf, take(r, n * size), (size_t)n * size);
    return *buf;
}

/* Append the n simple transfers (one range, default route) at q (packed, maybe unaligned) to
 * the open step: copied once, straight into the step's array, then checked there; true if
 * every one is valid and the step could take them as stored transfers.  False: nothing
 * appended (the caller sends them one by one, for sched_send's message). */
static bool append_simple(Sched *s, const unsigned char *q, int64_t n)
{
    SchedStep *st = &s->steps[s->cur];
    if (n == 0)
        return true;
    if (st->ext || st->nrule)
        return false;
    int32_t P = net_size(s->net);
    uint32_t nc = s->nchunks;
    bool ok = true;
    for (int64_t i = 0; i < n; i++) {
        Wire t;
        memcpy(&t, q + (size_t)i * sizeof t, sizeof t);
        ok &= !(t.src < 0 || t.src >= P || t.dst < 0 || t.dst >= P || t.src == t.dst ||
                t.r.one.lo >= t.r.one.hi || t.r.one.hi > nc);
    }
    if (!ok || !sched_reserve(s, n, 0))
        return false;
    for (int64_t i = 0; i < n; i++) {
        Wire t;
        memcpy(&t, q + (size_t)i * sizeof t, sizeof t);
        st->x[st->n + i] = (SchedXfer){ t.src, t.dst };
        if (!sched_put_slot(st, st->n + i, t.r)) {
            sched_fail(s, "out of memory");
            return false;
        }
    }
    st->n += n;
    s->total += n;
    progress_add(n);
    return true;
}

/* The step's strided rule blocks (sched_send_strided, as a tree step when one is): each
 * checked whole there; at most SCHED_PACK_MAX_RULED transfers given by blocks in all (*ruled
 * counts them).  False when the schedule records an error or the bytes are short. */
static bool unpack_rules(Sched *s, Rd *r, int64_t *ruled)
{
    uint64_t nb = get_u64(r);
    if (nb > r->left / sizeof(Block)) {
        r->bad = true;
        return false;
    }
    for (uint64_t i = 0; i < nb; i++) {
        Block b;
        memcpy(&b, take(r, sizeof b), sizeof b);
        if (b.count < 1 || b.count > SCHED_PACK_MAX_RULED - *ruled) {
            sched_fail(s, "step %ld: the packed schedule gives more than %lld transfers by "
                       "rules (or a block of none)", (long)s->cur + 1,
                       (long long)SCHED_PACK_MAX_RULED);
            return false;
        }
        *ruled += b.count;
        SchedStrided sb = { b.first, b.stride, b.offset, b.nr, b.count,
                            { { b.r[0], b.r[1] }, { b.r[2], b.r[3] } } };
        if (!sched_send_strided(s, &sb, true))
            return false;
    }
    return true;
}

bool sched_unpack(Sched *s, const unsigned char *p, size_t len, size_t skip_given,
                  size_t *used)
{
    Rd r = {p, len, false};
    void *xb = NULL, *eb = NULL, *pb = NULL, *sb = NULL;
    int64_t capx = 0, cape = 0, capp = 0, caps = 0;
    char *label = NULL;
    int64_t ruled = 0;
    uint64_t ng = get_u64(&r);
    if (ng > r.left / 12)
        r.bad = true;
    for (uint64_t i = 0; i < ng && !r.bad; i++) {
        uint32_t g[3];
        memcpy(g, take(&r, sizeof g), sizeof g);
        if (i >= skip_given && !sched_give(s, (int32_t)g[0], g[1], g[2]) && !sched_error(s))
            sched_fail(s, "a packed holding of node %ld is outside the schedule", (long)g[0]);
    }
    uint64_t ns = get_u64(&r);
    if (ns > INT32_MAX)   /* sched_at refuses more than it allows */
        r.bad = true;
    for (uint64_t k = 0; k < ns && !r.bad && !sched_error(s); k++) {
        if (!sched_at(s, (int32_t)k))
            break;
        uint64_t ll = get_u64(&r);
        const unsigned char *lp = take(&r, ll);
        if (lp && ll > 0) {
            char *q = realloc(label, ll + 1);
            if (!q) {
                sched_fail(s, "out of memory");
                break;
            }
            label = q;
            memcpy(label, lp, ll);
            label[ll] = '\0';
            sched_label(s, label);
        }
        uint64_t n = get_u64(&r), ext = get_u64(&r);
        if (!ext && !r.bad && n <= r.left / sizeof(Wire)) {
            /* simple transfers: one copy, from the bytes into the step */
            const unsigned char *q = r.p;
            if (append_simple(s, q, (int64_t)n)) {
                take(&r, n * sizeof(Wire));
                goto rules;
            }
            if (sched_error(s))
                break;
        }
        Wire *x = take_array(&r, n, sizeof *x, &xb, &capx);
        if (!x) {
            if (!r.bad)
                sched_fail(s, "out of memory");
            break;
        }
        if (!ext) {
            for (uint64_t i = 0; i < n && !sched_error(s); i++)
                sched_send(s, x[i].src, x[i].dst, &x[i].r.one, 1);
        } else {
            SchedXferExt *e = take_array(&r, n, sizeof *e, &eb, &cape);
            uint64_t np = get_u64(&r);
            ChunkRange *pool = take_array(&r, np, sizeof *pool, &pb, &capp);
            uint64_t nsg = get_u64(&r);
            NetSeg *segs = take_array(&r, nsg, sizeof *segs, &sb, &caps);
            if (!e || !pool || !segs) {
                if (!r.bad)
                    sched_fail(s, "out of memory");
                break;
            }
            for (uint64_t i = 0; i < n && !r.bad && !sched_error(s); i++) {
                uint32_t nr = e[i].nr, route = e[i].route;
                const ChunkRange *cr = &x[i].r.one;
                if (nr > 1) {
                    if (x[i].r.pool.roff > np || nr > np - x[i].r.pool.roff) {
                        r.bad = true;
                        break;
                    }
                    cr = pool + x[i].r.pool.roff;
                }
                if (route == SCHED_DEFAULT_ROUTE) {
                    sched_send(s, x[i].src, x[i].dst, cr, nr);
                } else {
                    uint64_t first = route >> SCHED_SEG_BITS, nseg = sched_route_nseg(route);
                    if (first > nsg || nseg > nsg - first) {
                        r.bad = true;
                        break;
                    }
                    sched_send_route(s, x[i].src, x[i].dst, cr, nr, segs + first, (int)nseg);
                }
            }
        }
    rules:;
        if (!r.bad && !sched_error(s) && !unpack_rules(s, &r, &ruled))
            break;
        uint64_t nl = get_u64(&r);
        if (nl > r.left / 16)
            r.bad = true;
        for (uint64_t i = 0; i < nl && !r.bad && !sched_error(s); i++) {
            int64_t v[2];
            memcpy(v, take(&r, sizeof v), sizeof v);
            sched_local(s, (int32_t)v[0], (uint64_t)v[1]);
        }
    }
    free(xb);
    free(eb);
    free(pb);
    free(sb);
    free(label);
    if (r.bad && !sched_error(s))
        sched_fail(s, "the packed schedule is malformed");
    if (used)
        *used = len - r.left;
    return !sched_error(s);
}
