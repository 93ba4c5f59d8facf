/* goal-plan.c — from GOAL operations to meshcast steps: match sends with recvs, cut the
 * message into chunks at the streams' boundaries, and list-schedule the sends (goal.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "goal-internal.h"

#define UNSET INT32_MIN

typedef struct {
    int32_t src, dst;
    uint32_t tag, op;
} Key;

static int key_cmp(const void *a, const void *b)
{
    const Key *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

static bool same_group(const Key *x, const Key *y)
{
    return x->src == y->src && x->dst == y->dst && x->tag == y->tag;
}

typedef struct {
    GoalProg *g;
    char *err;
    size_t errlen;
    uint32_t *mate;     /* send -> its recv, recv -> its send */
    uint64_t *off;      /* send: its offset in the (src, dst) stream, then its chunks
                         * lo | hi << 32 */
    /* scheduling */
    uint32_t *pending;
    int32_t *ready, *start, *done, *arrival;
    uint32_t *dfirst, *dlist;   /* dependents of op i: dlist[dfirst[i]..dfirst[i+1]) (dep ids) */
    uint32_t *work;
    size_t nwork;
    uint64_t *heap;
    size_t nheap;
    int32_t *nextfree;  /* per rank: the first step its next send may take */
} Plan;

static bool plan_fail(Plan *p, const GoalOp *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool plan_fail(Plan *p, const GoalOp *op, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s:%lu: %s", p->g->name, op ? (unsigned long)op->line : 0ul,
             msg);
    return false;
}

static const char *kind_name(uint8_t k)
{
    return k == GOP_SEND ? "send" : k == GOP_RECV ? "recv" : "calc";
}

/* Keys of every send (or recv) as (src, dst, tag, op), tag 0 when !with_tag; sorted. */
static Key *comm_keys(const GoalProg *g, uint8_t kind, bool with_tag, size_t *n)
{
    size_t k = 0;
    for (uint32_t i = 0; i < g->nops; i++)
        k += g->ops[i].kind == kind;
    Key *keys = malloc((k ? k : 1) * sizeof *keys);
    if (!keys)
        return NULL;
    k = 0;
    for (uint32_t i = 0; i < g->nops; i++) {
        const GoalOp *o = &g->ops[i];
        if (o->kind != kind)
            continue;
        bool send = kind == GOP_SEND;
        keys[k++] = (Key){send ? o->rank : o->peer, send ? o->peer : o->rank,
                          with_tag ? o->tag : 0, i};
    }
    qsort(keys, k, sizeof *keys, key_cmp);
    *n = k;
    return keys;
}

/* The k-th send from A to B with tag T meets the k-th recv of B from A with tag T. */
static bool match(Plan *p)
{
    GoalProg *g = p->g;
    size_t ns, nr;
    Key *s = comm_keys(g, GOP_SEND, true, &ns);
    Key *r = s ? comm_keys(g, GOP_RECV, true, &nr) : NULL;
    bool ok = s && r;
    if (!ok)
        plan_fail(p, NULL, "out of memory");
    size_t i = 0, j = 0;
    while (ok && (i < ns || j < nr)) {
        int c = i == ns ? 1 : j == nr ? -1 : key_cmp(&(Key){s[i].src, s[i].dst, s[i].tag, 0},
                                                     &(Key){r[j].src, r[j].dst, r[j].tag, 0});
        if (c < 0) {
            const GoalOp *o = &g->ops[s[i].op];
            ok = plan_fail(p, o, "rank %ld's send to rank %ld (tag %lu) has no matching recv",
                           (long)o->rank, (long)o->peer, (unsigned long)o->tag);
        } else if (c > 0) {
            const GoalOp *o = &g->ops[r[j].op];
            ok = plan_fail(p, o, "rank %ld's recv from rank %ld (tag %lu) has no matching send",
                           (long)o->rank, (long)o->peer, (unsigned long)o->tag);
        } else {
            const GoalOp *so = &g->ops[s[i].op], *ro = &g->ops[r[j].op];
            if (so->size != ro->size)
                ok = plan_fail(p, ro, "a recv of %llu b meets a send of %llu b (line %lu)",
                               (unsigned long long)ro->size, (unsigned long long)so->size,
                               (unsigned long)so->line);
            p->mate[s[i].op] = r[j].op;
            p->mate[r[j].op] = s[i].op;
            i++, j++;
        }
    }
    free(s);
    free(r);
    return ok;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

__extension__ typedef unsigned __int128 U128;

/* A meshcast-written file: each send's tag is its first chunk (goal.h); into p->off as
 * lo | hi << 32. */
static bool tagged_chunks(Plan *p)
{
    GoalProg *g = p->g;
    uint64_t n = g->tag_chunks, m = g->tag_bytes;
    for (uint32_t i = 0; i < g->nops; i++) {
        const GoalOp *o = &g->ops[i];
        if (o->kind != GOP_SEND)
            continue;
        if (o->tag >= n)
            return plan_fail(p, o, "tag %lu is not a chunk (the meshcast line says %llu)",
                             (unsigned long)o->tag, (unsigned long long)n);
        uint64_t off = (uint64_t)((U128)o->tag * m / n);
        U128 end = (U128)off + o->size;
        uint64_t hi = (uint64_t)((end * n + m - 1) / m);
        if (end > m || hi > n || (U128)hi * m / n != end)
            return plan_fail(p, o, "%llu b from chunk %lu do not end at a chunk's end",
                             (unsigned long long)o->size, (unsigned long)o->tag);
        p->off[i] = o->tag | hi << 32;
    }
    g->bytes = m;
    g->nchunks = (uint32_t)n;
    return true;
}

/* Offsets in the (src, dst) streams, the message (the longest stream), its chunks; into
 * p->off as lo | hi << 32. */
static bool streams(Plan *p)
{
    GoalProg *g = p->g;
    if (g->tag_chunks)
        return tagged_chunks(p);
    size_t ns;
    Key *s = comm_keys(g, GOP_SEND, false, &ns);
    if (!s)
        return plan_fail(p, NULL, "out of memory");
    uint64_t m = 0, gcd = 0, run = 0;
    for (size_t i = 0; i < ns; i++) {
        if (i == 0 || !same_group(&s[i], &s[i - 1]))
            run = 0;
        const GoalOp *o = &g->ops[s[i].op];
        p->off[s[i].op] = run;
        if (o->size > UINT64_MAX - run) {
            free(s);
            return plan_fail(p, o, "rank %ld sends rank %ld more than 2^64 bytes",
                             (long)o->rank, (long)o->peer);
        }
        run += o->size;
        gcd = gcd64(gcd, gcd64(p->off[s[i].op], run));
        if (run > m)
            m = run;
    }
    free(s);
    if (m == 0)
        return plan_fail(p, NULL, "no send: nothing to broadcast");
    gcd = gcd64(gcd, m);
    if (m / gcd > UINT32_MAX - 1)
        return plan_fail(p, NULL, "the streams cut %llu bytes into more than 2^32 chunks",
                         (unsigned long long)m);
    g->bytes = m;
    g->nchunks = (uint32_t)(m / gcd);
    for (uint32_t i = 0; i < g->nops; i++)
        if (g->ops[i].kind == GOP_SEND)
            p->off[i] = p->off[i] / gcd | (p->off[i] + g->ops[i].size) / gcd << 32;
    return true;
}

/* The source: the one rank that sends in the first step (nobody else holds anything yet). */
static bool find_source(Plan *p)
{
    GoalProg *g = p->g;
    g->source = g->xf[0].src;
    for (int64_t i = g->step_first[0]; i < g->step_first[1]; i++)
        if (g->xf[i].src != g->source) {
            const GoalXfer *x = &g->xf[i];
            GoalOp at = {.line = x->line};
            return plan_fail(p, &at, "ranks %ld and %ld both send in the first step: meshcast "
                             "reads broadcasts from one source", (long)g->source, (long)x->src);
        }
    return true;
}

/* ---- list scheduling ---- */

static void heap_push(Plan *p, int32_t step, uint32_t op)
{
    uint64_t v = (uint64_t)(uint32_t)step << 32 | op;
    size_t i = p->nheap++;
    while (i > 0 && p->heap[(i - 1) / 2] > v) {
        p->heap[i] = p->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    p->heap[i] = v;
}

static uint64_t heap_pop(Plan *p)
{
    uint64_t top = p->heap[0], v = p->heap[--p->nheap];
    size_t i = 0, n = p->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && p->heap[c + 1] < p->heap[c])
            c++;
        if (p->heap[c] >= v)
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (n)
        p->heap[i] = v;
    return top;
}

/* op's start (start_kind) or done is known: its dependents of that kind move on. */
static void notify(Plan *p, uint32_t op, bool start_kind)
{
    const GoalDep *deps = p->g->deps;
    int32_t t = start_kind ? p->start[op] : p->done[op] + 1;
    for (uint32_t k = p->dfirst[op]; k < p->dfirst[op + 1]; k++) {
        const GoalDep *d = &deps[p->dlist[k]];
        if ((bool)d->start != start_kind)
            continue;
        if (t > p->ready[d->to])
            p->ready[d->to] = t;
        if (--p->pending[d->to] == 0)
            p->work[p->nwork++] = d->to;
    }
}

static void recv_done(Plan *p, uint32_t op)
{
    int32_t posted = p->start[op] - 1;
    p->done[op] = p->arrival[op] > posted ? p->arrival[op] : posted;
    notify(p, op, false);
}

/* op's requirements are met (pending 0) at step ready[op]. */
static void became_ready(Plan *p, uint32_t op)
{
    const GoalOp *o = &p->g->ops[op];
    if (o->kind == GOP_SEND) {
        heap_push(p, p->ready[op], op);
        return;
    }
    p->start[op] = p->ready[op];
    notify(p, op, true);
    if (o->kind == GOP_CALC) {
        p->done[op] = p->ready[op] - 1;
        notify(p, op, false);
    } else if (p->arrival[op] != UNSET) {
        recv_done(p, op);
    }
}

static void drain(Plan *p)
{
    while (p->nwork)
        became_ready(p, p->work[--p->nwork]);
}

static void run_sends(Plan *p)
{
    drain(p);
    while (p->nheap) {
        uint64_t v = heap_pop(p);
        int32_t step = (int32_t)(v >> 32);
        uint32_t op = (uint32_t)v;
        const GoalOp *o = &p->g->ops[op];
        if (step < p->nextfree[o->rank]) {
            heap_push(p, p->nextfree[o->rank], op);
            continue;
        }
        p->nextfree[o->rank] = step + 1;
        p->start[op] = p->done[op] = step;
        notify(p, op, true);
        notify(p, op, false);
        uint32_t r = p->mate[op];
        p->arrival[r] = step;
        if (p->pending[r] == 0 && p->start[r] != UNSET)
            recv_done(p, r);
        drain(p);
    }
}

static bool dependents(Plan *p)
{
    GoalProg *g = p->g;
    for (uint32_t k = 0; k < g->ndeps; k++) {
        p->dfirst[g->deps[k].from + 1]++;
        p->pending[g->deps[k].to]++;
    }
    for (uint32_t i = 0; i < g->nops; i++)
        p->dfirst[i + 1] += p->dfirst[i];
    uint32_t *fill = malloc(((size_t)g->nops + 1) * sizeof *fill);
    if (!fill)
        return plan_fail(p, NULL, "out of memory");
    memcpy(fill, p->dfirst, ((size_t)g->nops + 1) * sizeof *fill);
    for (uint32_t k = 0; k < g->ndeps; k++)
        p->dlist[fill[g->deps[k].from]++] = k;
    free(fill);
    return true;
}

static bool schedule(Plan *p)
{
    GoalProg *g = p->g;
    if (!dependents(p))
        return false;
    for (uint32_t i = 0; i < g->nops; i++) {
        p->start[i] = p->done[i] = p->arrival[i] = UNSET;
        if (p->pending[i] == 0)
            p->work[p->nwork++] = i;
    }
    run_sends(p);
    for (uint32_t i = 0; i < g->nops; i++)
        if (p->done[i] == UNSET) {
            const GoalOp *o = &g->ops[i];
            return plan_fail(p, o, "rank %ld's %s never completes (a cycle of requires, or "
                             "it waits for one that never does)", (long)o->rank,
                             kind_name(o->kind));
        }
    return true;
}

/* The sends, grouped by step (empty steps dropped), as chunk ranges. */
static bool lay_out(Plan *p)
{
    GoalProg *g = p->g;
    int32_t last = -1;
    int64_t n = 0;
    for (uint32_t i = 0; i < g->nops; i++)
        if (g->ops[i].kind == GOP_SEND) {
            n++;
            if (p->start[i] > last)
                last = p->start[i];
        }
    int32_t *renum = calloc((size_t)last + 2, sizeof *renum);
    g->xf = malloc((size_t)n * sizeof *g->xf);
    if (!renum || !g->xf) {
        free(renum);
        return plan_fail(p, NULL, "out of memory");
    }
    for (uint32_t i = 0; i < g->nops; i++)
        if (g->ops[i].kind == GOP_SEND)
            renum[p->start[i]] = 1;
    int32_t ns = 0;
    for (int32_t s = 0; s <= last; s++)
        renum[s] = renum[s] ? ns++ : -1;
    g->nsteps = ns;
    g->nxf = n;
    g->step_first = calloc((size_t)ns + 1, sizeof *g->step_first);
    if (!g->step_first) {
        free(renum);
        return plan_fail(p, NULL, "out of memory");
    }
    for (uint32_t i = 0; i < g->nops; i++)
        if (g->ops[i].kind == GOP_SEND)
            g->step_first[renum[p->start[i]] + 1]++;
    for (int32_t s = 0; s < ns; s++)
        g->step_first[s + 1] += g->step_first[s];
    int64_t *fill = malloc(((size_t)ns + 1) * sizeof *fill);
    if (!fill) {
        free(renum);
        return plan_fail(p, NULL, "out of memory");
    }
    memcpy(fill, g->step_first, ((size_t)ns + 1) * sizeof *fill);
    for (uint32_t i = 0; i < g->nops; i++) {
        const GoalOp *o = &g->ops[i];
        if (o->kind != GOP_SEND)
            continue;
        g->xf[fill[renum[p->start[i]]]++] =
            (GoalXfer){o->rank, o->peer, (uint32_t)p->off[i], (uint32_t)(p->off[i] >> 32),
                       o->line};
    }
    free(fill);
    free(renum);
    return true;
}

static void plan_free(Plan *p)
{
    free(p->mate);
    free(p->off);
    free(p->pending);
    free(p->ready);
    free(p->start);
    free(p->done);
    free(p->arrival);
    free(p->dfirst);
    free(p->dlist);
    free(p->work);
    free(p->heap);
    free(p->nextfree);
}

bool goal_plan(GoalProg *g, char *err, size_t errlen)
{
    size_t n = (size_t)g->nops + 1;
    Plan p = {
        .g = g, .err = err, .errlen = errlen,
        .mate = malloc(n * sizeof(uint32_t)), .off = calloc(n, sizeof(uint64_t)),
        .pending = calloc(n, sizeof(uint32_t)), .ready = calloc(n, sizeof(int32_t)),
        .start = malloc(n * sizeof(int32_t)), .done = malloc(n * sizeof(int32_t)),
        .arrival = malloc(n * sizeof(int32_t)), .dfirst = calloc(n + 1, sizeof(uint32_t)),
        .dlist = malloc(((size_t)g->ndeps + 1) * sizeof(uint32_t)),
        .work = malloc(n * sizeof(uint32_t)), .heap = malloc(n * sizeof(uint64_t)),
        .nextfree = calloc((size_t)g->nranks, sizeof(int32_t)),
    };
    bool ok = p.mate && p.off && p.pending && p.ready && p.start && p.done && p.arrival &&
              p.dfirst && p.dlist && p.work && p.heap && p.nextfree;
    if (!ok)
        plan_fail(&p, NULL, "out of memory");
    ok = ok && match(&p) && streams(&p) && schedule(&p) && lay_out(&p) &&
         find_source(&p);
    plan_free(&p);
    return ok;
}
