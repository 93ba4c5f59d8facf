/* partials.c — a reduction's partial values step by step (see partials.h). */
#include "partials.h"
#include "err-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Partials {
    int32_t n, nsteps;
    uint32_t nc;
    int64_t *tot;   /* tot[pos * n + v] */
};

/* One combine of a step, taken from the counts as the step began. */
typedef struct {
    int32_t dst;
    uint32_t chunk;
    int64_t add;
} Add;

Partials *partials_new(const Sched *r, char *err, size_t errlen)
{
    const Net *net = sched_net(r);
    int32_t n = net_size(net), ns = sched_nsteps(r);
    uint32_t nc = sched_nchunks(r);
    if ((int64_t)n * nc > PARTIALS_MAX || (int64_t)n * (ns + 1) > PARTIALS_MAX) {
        err_set(err, errlen, "too big to show partials (%ld nodes, %lu chunks, %ld steps)",
                (long)n, (unsigned long)nc, (long)ns);
        return NULL;
    }
    Partials *p = calloc(1, sizeof *p);
    int64_t *cnt = calloc((size_t)n * nc, sizeof *cnt);
    int64_t *tot = p ? calloc((size_t)n * ((size_t)ns + 1), sizeof *tot) : NULL;
    Add *add = NULL;
    size_t nadd = 0, capadd = 0;
    bool ok = p && cnt && tot;
    for (size_t i = 0; ok && i < sched_ngiven(r); i++) {
        int32_t v;
        ChunkRange g;
        sched_given(r, i, &v, &g);
        for (uint32_t c = g.lo; c < g.hi && c < nc; c++)
            cnt[(size_t)v * nc + c] = 1;
    }
    for (int32_t v = 0; ok && v < n; v++)
        for (uint32_t c = 0; c < nc; c++)
            tot[v] += cnt[(size_t)v * nc + c];
    for (int32_t st = 0; ok && st < ns; st++) {
        nadd = 0;
        int64_t m = sched_ntransfers(r, st);
        for (int64_t i = 0; ok && i < m; i++) {
            SchedTransfer x;
            sched_transfer(r, st, i, &x);
            for (uint32_t k = 0; ok && k < x.nranges; k++)
                for (uint32_t c = x.ranges[k].lo; c < x.ranges[k].hi; c++) {
                    if (nadd == capadd) {
                        size_t cap = capadd ? 2 * capadd : 256;
                        Add *q = realloc(add, cap * sizeof *q);
                        if (!q) {
                            ok = false;
                            break;
                        }
                        add = q;
                        capadd = cap;
                    }
                    add[nadd++] = (Add){ x.dst, c, cnt[(size_t)x.src * nc + c] };
                }
        }
        int64_t *row = tot + (size_t)(st + 1) * n;
        memcpy(row, tot + (size_t)st * n, sizeof *row * (size_t)n);
        for (size_t i = 0; ok && i < nadd; i++) {
            cnt[(size_t)add[i].dst * nc + add[i].chunk] += add[i].add;
            row[add[i].dst] += add[i].add;
        }
    }
    free(cnt);
    free(add);
    if (!ok) {
        free(tot);
        free(p);
        err_set(err, errlen, "out of memory");
        return NULL;
    }
    *p = (Partials){ n, ns, nc, tot };
    return p;
}

void partials_free(Partials *p)
{
    if (!p)
        return;
    free(p->tot);
    free(p);
}

int64_t partials_count(const Partials *p, int32_t pos, int32_t node)
{
    if (!p || node < 0 || node >= p->n)
        return 0;
    if (pos < 0)
        pos = 0;
    if (pos > p->nsteps)
        pos = p->nsteps;
    return p->tot[(size_t)pos * p->n + node];
}

int64_t partials_full(const Partials *p) { return p ? (int64_t)p->n * p->nc : 0; }
