/* sched-strided.c — a strided block of transfers as a rule (see sched-strided.h). */
#include "sched-strided.h"
#include "progress.h"
#include "sched-internal.h"

#include <stdlib.h>
#include <string.h>

/* The rule's copy of the parameters (SchedStrided, count apart: the block's own). */
typedef struct {
    int32_t first, stride, offset;
    uint32_t nr;
    ChunkRange r[SCHED_RULE_MAXR];
} StridedRule;

static void strided_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const StridedRule *t = ctx;
    int64_t src = (int64_t)t->first + (int64_t)t->stride * j0;
    for (int64_t i = 0; i < n; i++, src += t->stride) {
        out[i].src = (int32_t)src;
        out[i].dst = (int32_t)(src + t->offset);
        out[i].nr = t->nr;
        out[i].r[0] = t->r[0];
        out[i].r[1] = t->r[1];
    }
}

/* (sched_send_strided checks the block whole before adding it) */
static bool strided_proved(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)net;
    (void)nchunks;
    (void)count;
    return true;
}

static bool is_strided(const SchedRule *r) { return r->batch == strided_batch; }

/* Why the block is wrong, or NULL. */
static const char *block_wrong(const Sched *s, const SchedStrided *b)
{
    int64_t P = net_size(s->net);
    if (b->count < 1 || b->count > INT32_MAX)
        return "a count of 1 to 2^31-1 transfers";
    if (b->offset == 0)
        return "offset 0 (a node sends to itself)";
    int64_t first = b->first, last = first + (int64_t)b->stride * (b->count - 1);
    if (first < 0 || first >= P || last < 0 || last >= P || first + b->offset < 0 ||
        first + b->offset >= P || last + b->offset < 0 || last + b->offset >= P)
        return "a node outside the net";
    if (b->nr < 1 || b->nr > SCHED_RULE_MAXR)
        return "1 or 2 chunk ranges";
    for (uint32_t k = 0; k < b->nr; k++)
        if (b->r[k].lo >= b->r[k].hi || b->r[k].hi > s->nchunks ||
            (k > 0 && b->r[k - 1].hi >= b->r[k].lo))
            return "chunk ranges sorted, non-empty, apart and below nchunks";
    return NULL;
}

/* b as a tree step (sched_send_tree), when it is one. */
static bool send_as_tree(Sched *s, const SchedStrided *b, bool *done)
{
    *done = false;
    int64_t c = b->count;
    if (b->nr != 1 || (c & (c - 1)) != 0 || c > (INT64_C(1) << 29))
        return true;
    int i = 0;
    while ((INT64_C(1) << i) < c)
        i++;
    int64_t st2 = 2 * (int64_t)b->offset;
    if (b->stride == st2) {          /* member 2j (first + 2j offset) sends to 2j + 1 */
        *done = true;
        return sched_send_tree(s, b->first, b->offset, i + 1, i, 0, b->r[0].lo, b->r[0].hi);
    }
    if (b->stride == -st2) {         /* member 2j + 1 sends to 2j, members -offset apart */
        *done = true;
        return sched_send_tree(s, b->first + b->offset, -b->offset, i + 1, i, 1, b->r[0].lo,
                               b->r[0].hi);
    }
    return true;
}

/* The step's last rule block, when it is a strided block that the block t of count transfers
 * continues (the same offset and chunks, its first sender the one after the last, the same
 * stride unless t is one transfer), else NULL. */
static SchedRule *continued(SchedStep *st, const StridedRule *t, int64_t count)
{
    if (st->nrule == 0)
        return NULL;
    SchedRule *last = &st->more->rule[st->nrule - 1];
    const StridedRule *p = last->ctx;
    if (!is_strided(last) || p->offset != t->offset || p->nr != t->nr ||
        memcmp(p->r, t->r, sizeof t->r) != 0 || (count > 1 && p->stride != t->stride) ||
        last->count + count > INT32_MAX ||
        (int64_t)p->first + (int64_t)p->stride * last->count != (int64_t)t->first)
        return NULL;
    return last;
}

bool sched_send_strided(Sched *s, const SchedStrided *b, bool tree)
{
    if (!s || sched_error(s))
        return false;
    if (s->cur < 0) {
        sched_fail(s, "strided send: no step opened");
        return false;
    }
    const char *why = block_wrong(s, b);
    if (why) {
        sched_fail(s, "step %ld: strided send: first %ld, stride %ld, count %lld, offset %ld: "
                   "needs %s", (long)s->cur + 1, (long)b->first, (long)b->stride,
                   (long long)b->count, (long)b->offset, why);
        return false;
    }
    if (tree) {
        bool done;
        bool ok = send_as_tree(s, b, &done);
        if (done || !ok)
            return ok;
    }
    StridedRule t = { b->first, b->stride, b->offset, b->nr, { b->r[0], { 0, 0 } } };
    if (b->nr > 1)
        t.r[1] = b->r[1];
    SchedStep *st = &s->steps[s->cur];
    SchedRule *last = continued(st, &t, b->count);
    if (last) {   /* the step's last block grows */
        progress_add(b->count);
        last->count += b->count;
        st->nruled += b->count;
        s->total += b->count;
        if (st->n + st->nruled > s->maxflat)
            s->maxflat = st->n + st->nruled;
        return true;
    }
    return sched_send_rule_proved(s, b->count, strided_batch, &t, sizeof t, strided_proved);
}

/* Do the step's last COMPACT_RUN - 1 stored transfers and the send b (one transfer) form a
 * strided block (default routes, b's chunks, b's offset, evenly spaced senders)?  Its stride
 * in *stride. */
#define COMPACT_RUN 8

static bool stored_run(const Sched *s, const SchedStep *st, const SchedStrided *b,
                       int32_t *stride)
{
    int64_t n = st->n, k = COMPACT_RUN - 1;
    if (n < k)
        return false;
    sched_pool_ready(s);   /* (the stored transfers' ranges are compared below) */
    int64_t d = (int64_t)b->first - st->x[n - 1].src;
    if (d < INT32_MIN || d > INT32_MAX)
        return false;
    for (int64_t j = 1; j <= k; j++) {
        int64_t i = n - j;
        if (st->x[i].src != (int64_t)b->first - j * d || st->x[i].dst - st->x[i].src != b->offset ||
            sched_xfer_nr(st, i) != b->nr || sched_xfer_route(st, i) != SCHED_DEFAULT_ROUTE ||
            memcmp(sched_xfer_ranges(s, st, i), b->r, b->nr * sizeof *b->r) != 0)
            return false;
    }
    *stride = (int32_t)d;
    return true;
}

bool sched_send_compact(Sched *s, int32_t src, int32_t dst, const ChunkRange *r, size_t nr)
{
    if (!s || s->cur < 0 || sched_error(s) || nr < 1 || nr > SCHED_RULE_MAXR || !r)
        return sched_send(s, src, dst, r, nr);
    SchedStep *st = &s->steps[s->cur];
    SchedStrided b = { src, 0, dst - src, (uint32_t)nr, 1, { r[0], { 0, 0 } } };
    if (nr > 1)
        b.r[1] = r[1];
    StridedRule t = { b.first, b.stride, b.offset, b.nr, { b.r[0], b.r[1] } };
    if (block_wrong(s, &b))   /* (sched_send names what is wrong) */
        return sched_send(s, src, dst, r, nr);
    if (st->nrule > 0) {
        if (continued(st, &t, 1))
            return sched_send_strided(s, &b, false);
        /* a send stored after blocks would be read before them: store them first */
        return sched_step_unrule(s, s->cur) && sched_send(s, src, dst, r, nr);
    }
    int32_t stride;
    if (!stored_run(s, st, &b, &stride))
        return sched_send(s, src, dst, r, nr);
    /* the run's stored transfers and this send become one block, in their place */
    int64_t k = COMPACT_RUN - 1;
    b.first = st->x[st->n - k].src;
    b.stride = stride;
    b.count = k + 1;
    st->n -= k;
    s->total -= k;
    return sched_send_strided(s, &b, false);
}

int32_t sched_step_nrules(const Sched *s, int32_t st)
{
    return st >= 0 && st < s->nsteps ? s->steps[st].nrule : 0;
}

bool sched_rule_as_strided(const Sched *s, int32_t st, int32_t q, SchedStrided *out)
{
    if (st < 0 || st >= s->nsteps || q < 0 || q >= s->steps[st].nrule)
        return false;
    const SchedRule *r = &s->steps[st].more->rule[q];
    if (is_strided(r)) {
        const StridedRule *t = r->ctx;
        *out = (SchedStrided){ t->first, t->stride, t->offset, t->nr, r->count,
                               { t->r[0], t->r[1] } };
        return true;
    }
    int32_t base, stride;
    int64_t members, half;
    if (!sched_rule_tree(r, &base, &stride, &members, &half) || r->count < 1)
        return false;
    /* transfer j: member (j span) ^ root -> (j span + half) ^ root; with root < span, that
     * is root + j span -> (root ^ half) + j span: a progression */
    SchedRuleXfer x;
    uint32_t route;
    sched_rule_get(s, r, 0, &x, &route);
    int64_t root = ((int64_t)x.src - base) / stride, span = 2 * half;
    int64_t step = (int64_t)stride * span;
    if (root >= span || step < INT32_MIN || step > INT32_MAX || r->count > INT32_MAX)
        return false;
    *out = (SchedStrided){ x.src, (int32_t)step, x.dst - x.src, 1, r->count,
                           { x.r[0], { 0, 0 } } };
    return true;
}

bool sched_step_unrule(Sched *s, int32_t step)
{
    if (!s || step < 0 || step >= s->nsteps)
        return false;
    SchedStep *st = &s->steps[step];
    if (st->nrule == 0)
        return true;
    /* take the blocks out of the step, then send their transfers into it, in order */
    int32_t nrule = st->nrule, cur = s->cur;
    int64_t nruled = st->nruled;
    SchedRule *rules = malloc((size_t)nrule * sizeof *rules);
    if (!rules) {
        sched_fail(s, "out of memory");
        return false;
    }
    memcpy(rules, st->more->rule, (size_t)nrule * sizeof *rules);
    st->nrule = 0;
    st->nruled = 0;
    s->total -= nruled;
    s->cur = step;
    bool ok = sched_reserve(s, nruled, 0);
    for (int32_t q = 0; q < nrule; q++) {
        for (int64_t j = 0; ok && j < rules[q].count; j++) {
            SchedRuleXfer x;
            uint32_t route;
            sched_rule_get(s, &rules[q], j, &x, &route);
            if (route == SCHED_DEFAULT_ROUTE) {
                ok = sched_send(s, x.src, x.dst, x.r, x.nr);
            } else {
                /* (copied: storing the route may move the pool it is read from) */
                NetSeg seg[NET_MAXSEG];
                int nseg = (int)sched_route_nseg(route);
                memcpy(seg, sched_route_segs(s, route), (size_t)nseg * sizeof *seg);
                ok = sched_send_route(s, x.src, x.dst, x.r, x.nr, seg, nseg);
            }
        }
        free(rules[q].ctx);
    }
    free(rules);
    /* (a step that had blocks for a while keeps no trace of them: what only some steps have
     * is made again when needed) */
    free(st->more->rule);
    st->more->rule = NULL;
    st->more->caprule = 0;
    if (st->nloc == 0) {
        free(st->more->loc);
        free(st->more);
        st->more = NULL;
    }
    s->cur = cur;
    return ok;
}
