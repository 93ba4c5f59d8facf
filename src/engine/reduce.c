/* reduce.c — reductions: a broadcast run backwards, and whose contributions every partial
 * combines (see reduce.h). */
#include "reduce.h"
#include "err-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Reduce {
    const Net *net;
    int32_t nsteps, root;
    bool exact, verified;
    double combine;
    double *step_combine;
    ReduceViolation *viol;
    size_t nviol;
    int64_t nviol_total;
};

/* The kept part of one broadcast transfer: what it delivered first. */
typedef struct {
    int32_t src, dst;
    int64_t at;          /* first kept range in the pool */
    uint32_t n;          /* kept ranges */
    int64_t xi;          /* the transfer's index in its step (for its route) */
} Kept;

typedef struct {
    void *p;
    int64_t n, cap;
    size_t size;
} Vec;

static bool vec_push(Vec *v, const void *x)
{
    if (v->n == v->cap) {
        int64_t nc = v->cap ? 2 * v->cap : 256;
        void *q = realloc(v->p, (size_t)nc * v->size);
        if (!q)
            return false;
        v->p = q;
        v->cap = nc;
    }
    memcpy((char *)v->p + (size_t)v->n * v->size, x, v->size);
    v->n++;
    return true;
}

Sched *reduce_reverse(const Sched *b, int64_t *dropped, char *err, size_t errlen)
{
    const Net *net = sched_net(b);
    int64_t P = net_size(net);
    uint32_t nc = sched_nchunks(b);
    int32_t n = sched_nsteps(b);
    int64_t drop = 0;
    Sched *r = sched_new(net, nc, sched_bytes(b));
    uint64_t words = ((uint64_t)P * nc + 63) / 64;
    uint64_t *has = calloc(words, sizeof *has);   /* has[v*nc + c]: v got chunk c already */
    int64_t *first = calloc((size_t)n + 1, sizeof *first);   /* first Kept of each step */
    Vec kept = { .size = sizeof(Kept) }, pool = { .size = sizeof(ChunkRange) };
    bool ok = r && has && first;
    for (size_t g = 0; ok && g < sched_ngiven(b); g++) {
        int32_t v;
        ChunkRange cr;
        sched_given(b, g, &v, &cr);
        for (uint32_t c = cr.lo; c < cr.hi; c++) {
            uint64_t bit = (uint64_t)v * nc + c;
            has[bit >> 6] |= (uint64_t)1 << (bit & 63);
        }
    }
    /* forward: keep of every transfer the chunks it delivers first */
    for (int32_t st = 0; ok && st < n; st++) {
        first[st] = kept.n;
        int64_t nt = sched_ntransfers(b, st);
        for (int64_t i = 0; ok && i < nt; i++) {
            SchedTransfer x;
            sched_transfer(b, st, i, &x);
            Kept k = { x.src, x.dst, pool.n, 0, i };
            for (uint32_t q = 0; ok && q < x.nranges; q++) {
                ChunkRange run = { 0, 0 };
                for (uint32_t c = x.ranges[q].lo; ok && c <= x.ranges[q].hi; c++) {
                    bool take = false;
                    if (c < x.ranges[q].hi) {
                        uint64_t bit = (uint64_t)x.dst * nc + c;
                        take = !(has[bit >> 6] & ((uint64_t)1 << (bit & 63)));
                        if (take)
                            has[bit >> 6] |= (uint64_t)1 << (bit & 63);
                        else
                            drop++;
                    }
                    if (take && run.hi == c && run.hi > run.lo) {
                        run.hi++;
                    } else {
                        if (run.hi > run.lo) {
                            ok = vec_push(&pool, &run);
                            k.n++;
                        }
                        run = take ? (ChunkRange){ c, c + 1 } : (ChunkRange){ 0, 0 };
                    }
                }
            }
            if (ok && k.n > 0)
                ok = vec_push(&kept, &k);
        }
    }
    first[n] = kept.n;
    /* every node holds its contribution to every chunk; the kept transfers, backwards */
    for (int64_t v = 0; ok && v < P; v++)
        ok = sched_give(r, (int32_t)v, 0, nc);
    for (int32_t st = n - 1; ok && st >= 0; st--) {
        const char *label = sched_step_label(b, st);
        char buf[160];
        snprintf(buf, sizeof buf, "reduce (broadcast step %ld reversed)%s%s", (long)st + 1,
                 label && *label ? ": " : "", label ? label : "");
        ok = sched_at(r, n - 1 - st) && sched_label(r, buf);
        for (int64_t q = first[st]; ok && q < first[st + 1]; q++) {
            const Kept *k = (const Kept *)kept.p + q;
            const ChunkRange *cr = (const ChunkRange *)pool.p + k->at;
            SchedTransfer x;
            sched_transfer(b, st, k->xi, &x);
            if (x.explicit_route) {
                NetSeg seg[NET_MAXSEG];
                for (int e = 0; e < x.nseg; e++) {
                    seg[e] = x.seg[x.nseg - 1 - e];
                    seg[e].dir = (int8_t)-seg[e].dir;
                }
                ok = sched_send_route(r, k->dst, k->src, cr, k->n, seg, x.nseg);
            } else {
                ok = sched_send(r, k->dst, k->src, cr, k->n);
            }
        }
        int64_t nl = sched_nlocals(b, st);
        for (int64_t i = 0; ok && i < nl; i++) {
            SchedLocal l;
            sched_local_get(b, st, i, &l);
            ok = sched_local(r, l.node, l.bytes);
        }
    }
    free(has);
    free(first);
    free(kept.p);
    free(pool.p);
    if (!ok || sched_error(r)) {
        err_set(err, errlen, "reversing the broadcast: %s",
                r && sched_error(r) ? sched_error(r) : "out of memory");
        sched_free(r);
        return NULL;
    }
    if (dropped)
        *dropped = drop;
    return r;
}

static void add_viol(Reduce *rd, ReduceViolation v)
{
    rd->nviol_total++;
    if (rd->nviol < REDUCE_MAXVIOL)
        rd->viol[rd->nviol++] = v;
}

/* splitmix64: the key of a contributor (hashed tracking) */
static uint64_t key_of(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

typedef struct {
    uint32_t count;
    uint64_t sum;
} Hashed;

typedef struct {
    int32_t dst;
    uint32_t chunk;
    int64_t at;   /* offset of the snapshot (exact: P counts; hashed: one Hashed) */
} Pending;

Reduce *reduce_run(const Sched *r, int32_t root, double gamma, char *err, size_t errlen)
{
    const Net *net = sched_net(r);
    int64_t P = net_size(net), C = sched_nchunks(r);
    if (root < 0 || root >= P) {
        err_set(err, errlen, "reduce: root %ld is outside %s", (long)root, net_spec(net));
        return NULL;
    }
    Reduce *rd = calloc(1, sizeof *rd);
    if (!rd)
        goto oom;
    rd->net = net;
    rd->root = root;
    rd->nsteps = sched_nsteps(r);
    rd->exact = P * P * C <= REDUCE_EXACT_MAX;
    rd->step_combine = calloc((size_t)rd->nsteps + 1, sizeof *rd->step_combine);
    rd->viol = malloc(REDUCE_MAXVIOL * sizeof *rd->viol);
    if (!rd->step_combine || !rd->viol)
        goto oom;
    uint8_t *cnt = NULL;   /* exact: cnt[(v*C + c)*P + x] */
    Hashed *hs = NULL;     /* hashed: hs[v*C + c] */
    if (rd->exact) {
        cnt = calloc((size_t)(P * P * C), 1);
        if (!cnt)
            goto oom;
        for (int64_t v = 0; v < P; v++)
            for (int64_t c = 0; c < C; c++)
                cnt[(v * C + c) * P + v] = 1;
    } else {
        hs = malloc((size_t)(P * C) * sizeof *hs);
        if (!hs)
            goto oom;
        for (int64_t v = 0; v < P; v++)
            for (int64_t c = 0; c < C; c++)
                hs[v * C + c] = (Hashed){ 1, key_of((uint64_t)v) };
    }
    /* exact: the step at which each partial last took in a contribution (to say how far a lost
     * one got) */
    int32_t *last = rd->exact ? malloc((size_t)(P * C) * sizeof *last) : NULL;
    if (rd->exact && !last) {
        free(cnt);
        goto oom;
    }
    for (int64_t i = 0; last && i < P * C; i++)
        last[i] = -1;
    uint64_t *recvb = calloc((size_t)P, sizeof *recvb);
    Pending *pend = NULL;
    uint8_t *snap = NULL;
    Hashed *hsnap = NULL;
    int64_t cappend = 0;
    bool ok = recvb != NULL;
    for (int32_t st = 0; ok && st < rd->nsteps; st++) {
        /* 1. snapshot what every transfer sends (start-of-step partials) */
        int64_t nt = sched_ntransfers(r, st), np = 0;
        uint64_t maxb = 0;
        for (int64_t i = 0; ok && i < nt; i++) {
            SchedTransfer x;
            sched_transfer(r, st, i, &x);
            recvb[x.dst] += x.bytes;
            if (recvb[x.dst] > maxb)
                maxb = recvb[x.dst];
            for (uint32_t k = 0; ok && k < x.nranges; k++)
                for (uint32_t c = x.ranges[k].lo; ok && c < x.ranges[k].hi; c++) {
                    if (np == cappend) {
                        int64_t ncap = cappend ? 2 * cappend : 256;
                        Pending *p2 = realloc(pend, (size_t)ncap * sizeof *p2);
                        void *s2 = rd->exact ? realloc(snap, (size_t)(ncap * P))
                                             : realloc(hsnap, (size_t)ncap * sizeof *hsnap);
                        if (p2)
                            pend = p2;
                        if (s2) {
                            if (rd->exact)
                                snap = s2;
                            else
                                hsnap = s2;
                        }
                        if (!p2 || !s2) {
                            ok = false;
                            break;
                        }
                        cappend = ncap;
                    }
                    pend[np] = (Pending){ x.dst, c, np };
                    if (rd->exact)
                        memcpy(snap + np * P, cnt + ((int64_t)x.src * C + c) * P, (size_t)P);
                    else
                        hsnap[np] = hs[(int64_t)x.src * C + c];
                    np++;
                }
        }
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer x;
            sched_transfer(r, st, i, &x);
            recvb[x.dst] = 0;
        }
        rd->step_combine[st] = gamma * (double)maxb;
        rd->combine += rd->step_combine[st];
        /* 2. combine */
        for (int64_t q = 0; ok && q < np; q++) {
            const Pending *pd = &pend[q];
            if (rd->exact) {
                uint8_t *w = cnt + ((int64_t)pd->dst * C + pd->chunk) * P;
                const uint8_t *u = snap + q * P;
                int32_t twice = -1;
                for (int64_t x = 0; x < P; x++) {
                    if (!u[x])
                        continue;
                    if (w[x] && twice < 0)
                        twice = (int32_t)x;
                    if (!w[x])
                        last[(int64_t)pd->dst * C + pd->chunk] = st;
                    unsigned s = (unsigned)w[x] + u[x];
                    w[x] = (uint8_t)(s > 255 ? 255 : s);
                }
                if (twice >= 0)
                    add_viol(rd, (ReduceViolation){ .step = st, .node = pd->dst,
                                                    .chunk = pd->chunk, .contribution = twice,
                                                    .doubled = true, .reached = -1 });
            } else {
                Hashed *w = &hs[(int64_t)pd->dst * C + pd->chunk];
                w->count += hsnap[q].count;
                w->sum += hsnap[q].sum;
            }
        }
    }
    if (ok) {
        /* 3. the root: every contribution to every chunk exactly once */
        uint64_t all = 0;
        for (int64_t x = 0; x < P; x++)
            all += key_of((uint64_t)x);
        for (int64_t c = 0; c < C; c++) {
            if (rd->exact) {
                const uint8_t *w = cnt + ((int64_t)root * C + c) * P;
                for (int64_t x = 0; x < P; x++) {
                    if (w[x] != 0)
                        continue;
                    /* how far it got: of the partials that took it in, the last to */
                    int32_t far = -1, when = -1;
                    for (int64_t v = 0; v < P; v++)
                        if (v != x && cnt[(v * C + c) * P + x] && last[v * C + c] > when) {
                            when = last[v * C + c];
                            far = (int32_t)v;
                        }
                    add_viol(rd, (ReduceViolation){ .step = rd->nsteps, .node = root,
                                                    .chunk = (uint32_t)c,
                                                    .contribution = (int32_t)x,
                                                    .reached = far });
                }
            } else {
                const Hashed *w = &hs[(int64_t)root * C + c];
                if (w->count != P || w->sum != all)
                    add_viol(rd, (ReduceViolation){ .step = rd->nsteps, .node = root,
                                                    .chunk = (uint32_t)c, .contribution = -1,
                                                    .doubled = w->count > P,
                                                    .count = w->count, .reached = -1 });
            }
        }
    }
    free(cnt);
    free(last);
    free(hs);
    free(recvb);
    free(pend);
    free(snap);
    free(hsnap);
    if (!ok)
        goto oom;
    rd->verified = rd->nviol_total == 0;
    return rd;
oom:
    reduce_free(rd);
    err_set(err, errlen, "out of memory checking the reduction");
    return NULL;
}

void reduce_free(Reduce *rd)
{
    if (!rd)
        return;
    free(rd->step_combine);
    free(rd->viol);
    free(rd);
}

bool reduce_verified(const Reduce *rd) { return rd && rd->verified; }
bool reduce_exact(const Reduce *rd) { return rd && rd->exact; }
double reduce_combine_cost(const Reduce *rd) { return rd ? rd->combine : 0; }
double reduce_step_combine(const Reduce *rd, int32_t step)
{
    return rd && step >= 0 && step < rd->nsteps ? rd->step_combine[step] : 0;
}
int64_t reduce_violation_count(const Reduce *rd) { return rd ? rd->nviol_total : 0; }
size_t reduce_nviolations(const Reduce *rd) { return rd ? rd->nviol : 0; }
const ReduceViolation *reduce_violation(const Reduce *rd, size_t i)
{
    return rd && i < rd->nviol ? &rd->viol[i] : NULL;
}

char *reduce_violation_text(const Reduce *rd, const ReduceViolation *v, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    buf[0] = '\0';
    if (!rd || !v)
        return buf;
    char a[48], b[48];
    net_node_name(rd->net, v->node, a, sizeof a);
    if (v->contribution >= 0)
        net_node_name(rd->net, v->contribution, b, sizeof b);
    if (v->doubled && v->contribution >= 0)
        snprintf(buf, len, "step %ld: node %s combines node %s's contribution to chunk %lu a "
                 "second time", (long)v->step + 1, a, b, (unsigned long)v->chunk);
    else if (v->contribution >= 0) {
        char c[48];
        if (v->reached >= 0)
            net_node_name(rd->net, v->reached, c, sizeof c);
        snprintf(buf, len, "end (after step %ld): the root %s lacks node %s's contribution to "
                 "chunk %lu: %s%s%s", (long)v->step, a, b, (unsigned long)v->chunk,
                 v->reached >= 0 ? "it got as far as node " : "node ",
                 v->reached >= 0 ? c : b, v->reached >= 0 ? "" : " never sent it on");
    }
    else
        snprintf(buf, len, "end: the root %s's partial of chunk %lu combines %lld "
                 "contributions, not each of the %ld nodes once", a, (unsigned long)v->chunk,
                 (long long)v->count, (long)net_size(rd->net));
    return buf;
}

bool reduce_prediction_holds(const Net *net, CostModel model)
{
    return model == COST_POSTAL || net_kind(net) == NET_FULL;
}
