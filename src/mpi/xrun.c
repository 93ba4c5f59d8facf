/* xrun.c — one rank's transfers: lockstep and async execution, the byte pattern, the check. */
#include "xrun.h"

#include <fcntl.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XRUN_TAGS 32768   /* MPI guarantees tags 0..32767 */
#define XRUN_SPIN 2000    /* polls before a waiting rank starts yielding its core */

typedef struct {
    uint32_t step, peer;
    bool send;
    uint32_t nranges;
    const ChunkRange *ranges;
    uint64_t bytes;
    int tag;
    bool scratch;           /* received into sbuf, then copied or compared or combined */
    unsigned char *sbuf;
    MPI_Datatype type;      /* a derived type over the message, or MPI_BYTE */
    uint64_t base;          /* where in the message the type starts */
    int count;
    bool own_type;
    /* per repetition */
    bool posted, done, applied;
    /* reduce, async: ops that must be done first (indices into ops) */
    int64_t *deps;
    int64_t ndeps;
} Op;

struct XRun {
    const SchedBin *b;
    int rank;
    XRunOpts o;
    uint32_t nsteps, nchunks;
    uint64_t bytes;
    bool reduce;
    unsigned char *data;        /* the message (broadcast) or this rank's partials (reduce) */
    uint8_t *given;             /* chunks this rank starts with */
    uint8_t *held;
    int32_t *got_step, *got_from;
    uint64_t *expect;           /* checksum of each chunk as it must end */
    Op *ops;
    int64_t nops;
    int64_t *step_first;        /* this rank's ops of step k: [step_first[k], step_first[k+1]) */
    MPI_Request *req;
    int *idx;
    MPI_Status *st;
    int status_fd;
    int32_t status_step;
    char err[256];
};

/* ---- pattern and checksum ---- */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Byte i of contribution r (a broadcast's message is contribution 0). */
static void pattern(unsigned char *dst, uint64_t off, uint64_t len, uint32_t r)
{
    uint64_t seed = UINT64_C(0x9E3779B97F4A7C15) * ((uint64_t)r + 1);
    for (uint64_t i = 0; i < len; i++) {
        uint64_t g = off + i;
        dst[i] = (unsigned char)(mix64((g >> 3) + seed) >> (8 * (g & 7)));
    }
}

static uint64_t fnv(const unsigned char *p, uint64_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (uint64_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static void fail(XRun *x, int step, const char *fmt, ...)
{
    char m[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    if (step >= 0)
        snprintf(x->err, sizeof x->err, "rank %d: step %d: %s", x->rank, step + 1, m);
    else
        snprintf(x->err, sizeof x->err, "rank %d: at the end: %s", x->rank, m);
}

static uint64_t coff(const XRun *x, uint32_t c) { return schedbin_chunk_offset(x->b, c); }
static uint64_t clen(const XRun *x, uint32_t c) { return coff(x, c + 1) - coff(x, c); }

/* ---- setup ---- */

static bool overlap(const Op *a, const Op *b)
{
    for (uint32_t i = 0, j = 0; i < a->nranges && j < b->nranges;) {
        if (a->ranges[i].hi <= b->ranges[j].lo)
            i++;
        else if (b->ranges[j].hi <= a->ranges[i].lo)
            j++;
        else
            return true;
    }
    return false;
}

static bool make_type(XRun *x, Op *op)
{
    uint64_t bytes = 0;
    for (uint32_t j = 0; j < op->nranges; j++)
        bytes += coff(x, op->ranges[j].hi) - coff(x, op->ranges[j].lo);
    op->bytes = bytes;
    op->type = MPI_BYTE;
    op->count = (int)bytes;
    op->base = coff(x, op->ranges[0].lo);
    if (op->scratch) {
        op->sbuf = malloc(bytes ? bytes : 1);
        return op->sbuf != NULL;
    }
    if (op->nranges == 1)
        return true;
    int *len = malloc(op->nranges * sizeof *len);
    MPI_Aint *disp = malloc(op->nranges * sizeof *disp);
    bool ok = len && disp;
    for (uint32_t j = 0; ok && j < op->nranges; j++) {
        disp[j] = (MPI_Aint)coff(x, op->ranges[j].lo);
        len[j] = (int)(coff(x, op->ranges[j].hi) - coff(x, op->ranges[j].lo));
    }
    op->base = 0;
    ok = ok && MPI_Type_create_hindexed((int)op->nranges, len, disp, MPI_BYTE, &op->type) ==
                   MPI_SUCCESS &&
         MPI_Type_commit(&op->type) == MPI_SUCCESS;
    op->own_type = ok;
    op->count = 1;
    free(len);
    free(disp);
    return ok;
}

/* This rank's ops in schedule order; which receives go to scratch (a chunk this rank may
 * already hold, or a reduction, which combines). */
static bool collect_ops(XRun *x)
{
    const SchedBin *b = x->b;
    uint32_t n = schedbin_nodes(b);
    uint64_t total = schedbin_step_first(b, x->nsteps);
    uint32_t *sseq = calloc(n, sizeof *sseq), *rseq = calloc(n, sizeof *rseq);
    uint8_t *had = malloc(x->nchunks);
    x->step_first = malloc(((size_t)x->nsteps + 1) * sizeof *x->step_first);
    if (!sseq || !rseq || !had || !x->step_first)
        goto oom;
    memcpy(had, x->given, x->nchunks);
    int64_t cap = 16;
    x->ops = malloc((size_t)cap * sizeof *x->ops);
    if (!x->ops)
        goto oom;
    uint32_t k = 0;
    x->step_first[0] = 0;
    for (uint64_t i = 0; i < total; i++) {
        while (k < x->nsteps && i >= schedbin_step_first(b, k + 1))
            x->step_first[++k] = x->nops;
        SchedBinXfer t;
        schedbin_xfer(b, i, &t);
        if (t.src != (uint32_t)x->rank && t.dst != (uint32_t)x->rank)
            continue;
        if (x->nops == cap) {
            Op *g = realloc(x->ops, (size_t)cap * 2 * sizeof *g);
            if (!g)
                goto oom;
            x->ops = g;
            cap *= 2;
        }
        Op *op = &x->ops[x->nops++];
        memset(op, 0, sizeof *op);
        op->step = k;
        op->send = t.src == (uint32_t)x->rank;
        op->peer = op->send ? t.dst : t.src;
        op->nranges = t.nranges;
        op->ranges = t.ranges;
        op->tag = (int)((op->send ? sseq[op->peer]++ : rseq[op->peer]++) % XRUN_TAGS);
        if (!op->send) {
            op->scratch = x->reduce;
            for (uint32_t j = 0; j < t.nranges; j++)
                for (uint32_t c = t.ranges[j].lo; c < t.ranges[j].hi; c++) {
                    if (had[c])
                        op->scratch = true;
                    had[c] = 1;
                }
        }
        if (!make_type(x, op))
            goto oom;
    }
    while (k < x->nsteps)
        x->step_first[++k] = x->nops;
    free(sseq);
    free(rseq);
    free(had);
    return true;
oom:
    free(sseq);
    free(rseq);
    free(had);
    snprintf(x->err, sizeof x->err, "rank %d: out of memory for its transfers", x->rank);
    return false;
}

/* Reduce, async: a send waits for the receives of earlier steps it overlaps (combined); a
 * receive is combined after the sends of its step and earlier that it overlaps (they read
 * the partial as it was). */
static bool reduce_deps(XRun *x)
{
    for (int64_t i = 0; i < x->nops; i++) {
        Op *a = &x->ops[i];
        for (int64_t j = 0; j < x->nops; j++) {
            Op *d = &x->ops[j];
            bool need = a->send ? (!d->send && d->step < a->step)
                                : (d->send && d->step <= a->step);
            if (!need || !overlap(a, d))
                continue;
            int64_t *g = realloc(a->deps, (size_t)(a->ndeps + 1) * sizeof *g);
            if (!g)
                return false;
            a->deps = g;
            a->deps[a->ndeps++] = j;
        }
    }
    return true;
}

static bool expected_sums(XRun *x)
{
    uint32_t n = schedbin_nodes(x->b);
    x->expect = malloc((size_t)x->nchunks * sizeof *x->expect);
    uint64_t big = 0;
    for (uint32_t c = 0; c < x->nchunks; c++)
        big = clen(x, c) > big ? clen(x, c) : big;
    unsigned char *a = malloc(big ? big : 1), *t = malloc(big ? big : 1);
    bool ok = x->expect && a && t;
    for (uint32_t c = 0; ok && c < x->nchunks; c++) {
        uint64_t len = clen(x, c), off = coff(x, c);
        if (!x->reduce) {
            pattern(a, off, len, 0);
        } else if (x->rank == (int)schedbin_root(x->b)) {
            memset(a, 0, len);
            for (uint32_t r = 0; r < n; r++) {
                pattern(t, off, len, r);
                for (uint64_t i = 0; i < len; i++)
                    a[i] = (unsigned char)(a[i] + t[i]);
            }
        }
        x->expect[c] = fnv(a, len);
    }
    free(a);
    free(t);
    return ok;
}

XRun *xrun_new(const SchedBin *b, int rank, const XRunOpts *o, char *err, size_t errlen)
{
    XRun *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "rank %d: out of memory", rank);
        return NULL;
    }
    x->b = b;
    x->rank = rank;
    x->o = *o;
    x->nsteps = schedbin_nsteps(b);
    x->nchunks = schedbin_nchunks(b);
    x->bytes = schedbin_bytes(b);
    x->reduce = schedbin_op(b) == SCHEDBIN_REDUCE;
    x->status_fd = -1;
    x->status_step = -2;
    x->data = malloc(x->bytes ? x->bytes : 1);
    x->given = calloc(x->nchunks, 1);
    x->held = calloc(x->nchunks, 1);
    x->got_step = malloc((size_t)x->nchunks * sizeof *x->got_step);
    x->got_from = malloc((size_t)x->nchunks * sizeof *x->got_from);
    bool ok = x->data && x->given && x->held && x->got_step && x->got_from;
    if (ok) {
        if (x->reduce)
            memset(x->given, 1, x->nchunks);
        for (size_t i = 0; i < schedbin_ngiven(b); i++) {
            uint32_t node;
            ChunkRange r;
            schedbin_given(b, i, &node, &r);
            if (node == (uint32_t)rank)
                memset(x->given + r.lo, 1, r.hi - r.lo);
        }
        ok = collect_ops(x);
    }
    if (ok && x->reduce && o->async)
        ok = reduce_deps(x);
    if (ok) {
        x->req = malloc((size_t)(x->nops ? x->nops : 1) * sizeof *x->req);
        x->idx = malloc((size_t)(x->nops ? x->nops : 1) * sizeof *x->idx);
        x->st = malloc((size_t)(x->nops ? x->nops : 1) * sizeof *x->st);
        ok = x->req && x->idx && x->st && expected_sums(x);
    }
    if (ok && o->status)
        x->status_fd = open(o->status, O_WRONLY);
    if (!ok) {
        snprintf(err, errlen, "%s", x->err[0] ? x->err : "out of memory");
        xrun_free(x);
        return NULL;
    }
    return x;
}

void xrun_free(XRun *x)
{
    if (!x)
        return;
    for (int64_t i = 0; i < x->nops; i++) {
        if (x->ops[i].own_type)
            MPI_Type_free(&x->ops[i].type);
        free(x->ops[i].sbuf);
        free(x->ops[i].deps);
    }
    if (x->status_fd >= 0)
        close(x->status_fd);
    free(x->ops);
    free(x->step_first);
    free(x->data);
    free(x->given);
    free(x->held);
    free(x->got_step);
    free(x->got_from);
    free(x->expect);
    free(x->req);
    free(x->idx);
    free(x->st);
    free(x);
}

const char *xrun_error(const XRun *x) { return x->err; }

/* ---- one repetition ---- */

static void reset(XRun *x)
{
    memcpy(x->held, x->given, x->nchunks);
    for (uint32_t c = 0; c < x->nchunks; c++) {
        x->got_step[c] = -1;
        x->got_from[c] = -1;
    }
    if (x->reduce) {
        pattern(x->data, 0, x->bytes, (uint32_t)x->rank);
    } else {
        memset(x->data, 0, x->bytes);
        for (uint32_t c = 0; c < x->nchunks; c++)
            if (x->given[c])
                pattern(x->data + coff(x, c), coff(x, c), clen(x, c), 0);
    }
    for (int64_t i = 0; i < x->nops; i++) {
        x->ops[i].posted = x->ops[i].done = x->ops[i].applied = false;
        x->req[i] = MPI_REQUEST_NULL;
    }
}

static void report_step(XRun *x, int32_t step)
{
    if (x->status_fd < 0 || step <= x->status_step)
        return;
    x->status_step = step;
    int32_t v = step;
    if (pwrite(x->status_fd, &v, sizeof v, (off_t)x->rank * (off_t)sizeof v) < 0) {
        close(x->status_fd);
        x->status_fd = -1;
    }
}

static void inject(XRun *x, uint32_t step)
{
    if (!x->o.inject || x->o.inject_rank != x->rank || (uint32_t)x->o.inject_step != step)
        return;
    report_step(x, (int32_t)step);
    if (x->o.inject == 'd')
        raise(SIGKILL);
    if (x->o.inject == 'h')
        for (;;)
            pause();
}

/* Post op i.  A send must hold every chunk it sends. */
static bool post(XRun *x, int64_t i)
{
    Op *op = &x->ops[i];
    int rc;
    op->posted = true;
    if (op->send)   /* receives are all posted at the start under async */
        report_step(x, (int32_t)op->step);
    if (op->send) {
        for (uint32_t j = 0; !x->reduce && j < op->nranges; j++)
            for (uint32_t c = op->ranges[j].lo; c < op->ranges[j].hi; c++)
                if (!x->held[c]) {
                    fail(x, (int)op->step, "sends chunk %lu to rank %lu before holding it",
                         (unsigned long)c, (unsigned long)op->peer);
                    return false;
                }
        if (x->o.inject == 'c' && x->o.inject_rank == x->rank &&
            (uint32_t)x->o.inject_step == op->step && op->bytes > 0) {
            /* a corrupted copy of what it should send */
            unsigned char *tmp = malloc(op->bytes);
            int pos = 0;
            if (!tmp)
                return false;
            MPI_Pack(x->data + op->base, op->count, op->type, tmp, (int)op->bytes, &pos, MPI_COMM_WORLD);
            tmp[0] ^= 0x5a;
            rc = MPI_Send(tmp, (int)op->bytes, MPI_BYTE, (int)op->peer, op->tag, MPI_COMM_WORLD);
            free(tmp);
            op->done = true;
            return rc == MPI_SUCCESS;
        }
        rc = MPI_Isend(x->data + op->base, op->count, op->type, (int)op->peer, op->tag, MPI_COMM_WORLD,
                       &x->req[i]);
    } else if (op->scratch) {
        rc = MPI_Irecv(op->sbuf, (int)op->bytes, MPI_BYTE, (int)op->peer, op->tag,
                       MPI_COMM_WORLD, &x->req[i]);
    } else {
        rc = MPI_Irecv(x->data + op->base, op->count, op->type, (int)op->peer, op->tag, MPI_COMM_WORLD,
                       &x->req[i]);
    }
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int n = 0;
        MPI_Error_string(rc, s, &n);
        fail(x, (int)op->step, "MPI error: %s", s);
        return false;
    }
    return true;
}

/* A receive is in: its chunks are held (broadcast) or combined (reduce). */
static bool apply(XRun *x, Op *op)
{
    unsigned char *s = op->sbuf;
    op->applied = true;
    for (uint32_t j = 0; j < op->nranges; j++)
        for (uint32_t c = op->ranges[j].lo; c < op->ranges[j].hi; c++) {
            uint64_t len = clen(x, c);
            unsigned char *d = x->data + coff(x, c);
            if (x->reduce) {
                for (uint64_t i = 0; i < len; i++)
                    d[i] = (unsigned char)(d[i] + s[i]);
            } else if (op->scratch && x->held[c]) {
                if (memcmp(d, s, len) != 0) {
                    fail(x, (int)op->step, "chunk %lu from rank %lu differs from the copy it "
                         "holds", (unsigned long)c, (unsigned long)op->peer);
                    return false;
                }
            } else if (op->scratch) {
                memcpy(d, s, len);
            }
            if (op->scratch)
                s += len;
            if (!x->held[c] || x->reduce) {
                x->got_step[c] = (int32_t)op->step;
                x->got_from[c] = (int32_t)op->peer;
            }
            x->held[c] = 1;
        }
    return true;
}

static bool completed(XRun *x, int64_t i, MPI_Status *st)
{
    Op *op = &x->ops[i];
    op->done = true;
    if (op->send)
        return true;
    int got = 0;
    MPI_Get_count(st, MPI_BYTE, &got);
    if ((uint64_t)got != op->bytes) {
        fail(x, (int)op->step, "got %d bytes from rank %lu, expected %llu", got,
             (unsigned long)op->peer, (unsigned long long)op->bytes);
        return false;
    }
    return x->reduce ? true : apply(x, op);
}

static void timed_out(XRun *x, int64_t lo, int64_t hi)
{
    for (int64_t i = lo; i < hi; i++) {
        Op *op = &x->ops[i];
        if (op->done)
            continue;
        if (!op->posted)
            fail(x, (int)op->step, "timed out after %g s: its send to rank %lu never got the "
                 "chunks it needs", x->o.timeout, (unsigned long)op->peer);
        else if (op->send)
            fail(x, (int)op->step, "timed out after %g s: rank %lu never took its message",
                 x->o.timeout, (unsigned long)op->peer);
        else
            fail(x, (int)op->step, "timed out after %g s waiting for a message from rank %lu",
                 x->o.timeout, (unsigned long)op->peer);
        return;
    }
    fail(x, -1, "timed out after %g s", x->o.timeout);
}

/* Wait until some of requests lo..hi-1 complete; completed() on each, its step's end time
 * noted.  *any: whether one did (false: none is active). */
static int poll_some(XRun *x, int64_t lo, int64_t hi, double deadline, double t0,
                     double *step_end, bool *any)
{
    int n = (int)(hi - lo), out = 0;
    *any = false;
    for (unsigned spin = 0;; spin++) {
        if (n == 0)
            return XRUN_OK;
        if (MPI_Testsome(n, x->req + lo, &out, x->idx, x->st) != MPI_SUCCESS) {
            fail(x, (int)x->ops[lo].step, "MPI_Testsome failed");
            return XRUN_MPI;
        }
        if (out == MPI_UNDEFINED)
            return XRUN_OK;
        if (out > 0)
            break;
        if (x->o.yield && spin > XRUN_SPIN)   /* oversubscribed: spin a little, then yield */
            sched_yield();
        if ((spin & 15) == 15 && MPI_Wtime() > deadline) {
            timed_out(x, lo, hi);
            return XRUN_TIMEOUT;
        }
    }
    *any = true;
    double now = MPI_Wtime() - t0;
    for (int k = 0; k < out; k++) {
        int64_t i = lo + x->idx[k];
        if (!completed(x, i, &x->st[k]))
            return XRUN_FAULT;
        if (now > step_end[x->ops[i].step])
            step_end[x->ops[i].step] = now;
    }
    return XRUN_OK;
}

static bool all_done(const XRun *x, int64_t lo, int64_t hi)
{
    for (int64_t i = lo; i < hi; i++)
        if (!x->ops[i].done)
            return false;
    return true;
}

static int run_lockstep(XRun *x, double t0, double deadline, double *step_end)
{
    for (uint32_t k = 0; k < x->nsteps; k++) {
        int64_t lo = x->step_first[k], hi = x->step_first[k + 1];
        report_step(x, (int32_t)k);
        inject(x, k);
        for (int pass = 0; pass < 2; pass++)   /* receives first, then sends */
            for (int64_t i = lo; i < hi; i++)
                if (x->ops[i].send == (pass == 1) && !post(x, i))
                    return XRUN_FAULT;
        while (!all_done(x, lo, hi)) {
            bool any;
            int rc = poll_some(x, lo, hi, deadline, t0, step_end, &any);
            if (rc != XRUN_OK)
                return rc;
            if (!any)
                break;
        }
        if (x->reduce)   /* the step's sends read the partials as they were: combine now */
            for (int64_t i = lo; i < hi; i++)
                if (!x->ops[i].send)
                    apply(x, &x->ops[i]);
        if (x->o.barrier)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    return XRUN_OK;
}

static bool deps_done(const XRun *x, const Op *op, bool applied)
{
    for (int64_t d = 0; d < op->ndeps; d++) {
        const Op *o = &x->ops[op->deps[d]];
        if (applied ? !o->applied : !o->done)
            return false;
    }
    return true;
}

static bool send_ready(const XRun *x, const Op *op)
{
    if (x->reduce)
        return deps_done(x, op, true);
    for (uint32_t j = 0; j < op->nranges; j++)
        for (uint32_t c = op->ranges[j].lo; c < op->ranges[j].hi; c++)
            if (!x->held[c])
                return false;
    return true;
}

static int run_async(XRun *x, double t0, double deadline, double *step_end)
{
    uint32_t injected = 0;
    for (int64_t i = 0; i < x->nops; i++)
        if (!x->ops[i].send && !post(x, i))
            return XRUN_FAULT;
    for (unsigned spin = 0;; spin++) {
        bool changed = true;
        while (changed) {
            changed = false;
            for (int64_t i = 0; i < x->nops; i++) {
                Op *op = &x->ops[i];
                if (op->send && !op->posted && send_ready(x, op)) {
                    while (injected <= op->step)
                        inject(x, injected++);
                    if (!post(x, i))
                        return XRUN_FAULT;
                    if (op->done && op->step < x->nsteps &&
                        MPI_Wtime() - t0 > step_end[op->step])
                        step_end[op->step] = MPI_Wtime() - t0;
                    changed = true;
                } else if (x->reduce && !op->send && op->done && !op->applied &&
                           deps_done(x, op, false)) {
                    if (!apply(x, op))
                        return XRUN_FAULT;
                    changed = true;
                }
            }
        }
        if (all_done(x, 0, x->nops)) {
            bool left = false;
            for (int64_t i = 0; i < x->nops; i++)
                left = left || (!x->ops[i].send && x->reduce && !x->ops[i].applied);
            if (!left)
                return XRUN_OK;
        }
        bool any;
        int rc = poll_some(x, 0, x->nops, deadline, t0, step_end, &any);
        if (rc != XRUN_OK)
            return rc;
        if (!any) {   /* nothing in flight, yet sends wait: they never get their chunks */
            if (x->o.yield && spin > XRUN_SPIN)
                sched_yield();
            if ((spin & 15) == 15 && MPI_Wtime() > deadline) {
                timed_out(x, 0, x->nops);
                return XRUN_TIMEOUT;
            }
        }
    }
}

/* Every chunk this rank must end with, checked against its checksum. */
static int verify(XRun *x)
{
    bool root = x->reduce && x->rank == (int)schedbin_root(x->b);
    if (x->reduce && !root)
        return XRUN_OK;
    for (uint32_t c = 0; c < x->nchunks; c++) {
        if (!x->held[c]) {
            fail(x, -1, "chunk %lu never arrived", (unsigned long)c);
            return XRUN_WRONG;
        }
        uint64_t h = fnv(x->data + coff(x, c), clen(x, c));
        if (h == x->expect[c])
            continue;
        const char *what = x->reduce ? "the combined value of chunk" : "chunk";
        if (x->got_step[c] >= 0)
            fail(x, x->got_step[c], "%s %lu (last from rank %ld) has wrong bytes: checksum "
                 "%016llx, expected %016llx", what, (unsigned long)c, (long)x->got_from[c],
                 (unsigned long long)h, (unsigned long long)x->expect[c]);
        else
            fail(x, -1, "%s %lu has wrong bytes: checksum %016llx, expected %016llx", what,
                 (unsigned long)c, (unsigned long long)h, (unsigned long long)x->expect[c]);
        return XRUN_WRONG;
    }
    return XRUN_OK;
}

int xrun_rep(XRun *x, double *step_end, double *total)
{
    reset(x);
    for (uint32_t k = 0; k < x->nsteps; k++)
        step_end[k] = -1;
    x->err[0] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), deadline = t0 + x->o.timeout;
    int rc = x->o.async ? run_async(x, t0, deadline, step_end)
                        : run_lockstep(x, t0, deadline, step_end);
    *total = MPI_Wtime() - t0;
    if (rc == XRUN_OK)
        rc = verify(x);
    return rc;
}
