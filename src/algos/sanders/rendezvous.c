/* rendezvous.c — the rendezvous executor (rendezvous.h).  One pass over the PUs that still
 * have operations per step: O(P) a step. */
#include "rendezvous.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int64_t *cursor;
    RdvOp *cur;        /* cur[pu]: the operation pu waits on */
    bool *live;        /* live[pu]: pu has an operation left */
    int32_t *act;      /* the live PUs */
    int32_t *fired;    /* senders of this step's transfers */
} Rdv;

static void rdv_free(Rdv *r)
{
    free(r->cursor);
    free(r->cur);
    free(r->live);
    free(r->act);
    free(r->fired);
}

static bool advance(const RdvRun *run, Rdv *r, int32_t pu, Sched *s)
{
    r->live[pu] = run->next(run->ctx, pu, &r->cursor[pu], &r->cur[pu]);
    if (r->live[pu] && (r->cur[pu].peer < 0 || r->cur[pu].peer >= run->n ||
                        r->cur[pu].peer == pu)) {
        sched_fail(s, "rendezvous: PU %d %s PU %d", pu, r->cur[pu].send ? "sends to" :
                   "receives from", r->cur[pu].peer);
        return false;
    }
    return true;
}

int64_t rdv_run(Sched *s, const RdvRun *run)
{
    int32_t n = run->n;
    Rdv r = { 0 };
    r.cursor = calloc((size_t)n, sizeof *r.cursor);
    r.cur = calloc((size_t)n, sizeof *r.cur);
    r.live = calloc((size_t)n, sizeof *r.live);
    r.act = malloc((size_t)n * sizeof *r.act);
    r.fired = malloc((size_t)n * sizeof *r.fired);
    if (!r.cursor || !r.cur || !r.live || !r.act || !r.fired) {
        rdv_free(&r);
        sched_fail(s, "out of memory");
        return -1;
    }
    int32_t nact = 0;
    for (int32_t u = 0; u < n; u++) {
        if (!advance(run, &r, u, s)) {
            rdv_free(&r);
            return -1;
        }
        if (r.live[u])
            r.act[nact++] = u;
    }
    int64_t steps = 0;
    char label[160];
    while (nact > 0) {
        int32_t nf = 0;
        for (int32_t q = 0; q < nact; q++) {
            int32_t u = r.act[q];
            const RdvOp *o = &r.cur[u];
            if (!o->send)
                continue;
            const RdvOp *w = &r.cur[o->peer];
            if (r.live[o->peer] && !w->send && w->peer == u && w->pk == o->pk)
                r.fired[nf++] = u;
        }
        if (nf == 0) {
            int32_t u = r.act[0];
            sched_fail(s, "rendezvous: deadlock at step %lld: PU %d waits to %s packet %u %s "
                       "PU %d", (long long)steps + 1, u, r.cur[u].send ? "send" : "receive",
                       r.cur[u].pk, r.cur[u].send ? "to" : "from", r.cur[u].peer);
            rdv_free(&r);
            return -1;
        }
        if (steps >= run->max_steps) {
            sched_fail(s, "rendezvous: more than %lld steps", (long long)run->max_steps);
            rdv_free(&r);
            return -1;
        }
        snprintf(label, sizeof label, "%s: step %lld", run->label, (long long)steps + 1);
        if (sched_step(s) < 0 || !sched_label(s, label)) {
            rdv_free(&r);
            return -1;
        }
        bool ok = true;
        for (int32_t q = 0; q < nf && ok; q++) {
            int32_t u = r.fired[q], v = r.cur[u].peer;
            uint32_t pk = r.cur[u].pk;
            ok = sched_send_range(s, run->node[u], run->node[v], pk, pk + 1) &&
                 advance(run, &r, u, s) && advance(run, &r, v, s);
        }
        if (!ok) {
            rdv_free(&r);
            return -1;
        }
        steps++;
        int32_t k = 0;
        for (int32_t q = 0; q < nact; q++)
            if (r.live[r.act[q]])
                r.act[k++] = r.act[q];
        nact = k;
    }
    rdv_free(&r);
    return steps;
}
