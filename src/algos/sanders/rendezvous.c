/* rendezvous.c — the rendezvous executor (rendezvous.h).  Each step looks only at the PUs
 * whose operation changed (mark_matches): O(transfers) a step, not O(P). */
#include "rendezvous.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t *cursor;
    RdvOp *cur;        /* cur[pu]: the operation pu waits on */
    bool *live;        /* live[pu]: pu has an operation left */
    int32_t *cand;     /* the PUs whose operation changed since they were last looked at */
    int32_t *next;     /* ... and this step's (the fired pairs') */
    uint64_t *fired;   /* a bit per PU: a sender of this step's transfers */
} Rdv;

static void rdv_free(Rdv *r)
{
    free(r->cursor);
    free(r->cur);
    free(r->live);
    free(r->cand);
    free(r->next);
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

/* A pair matches when the sender's operation is "send pk to v" and v's is "receive pk from
 * it", both live.  A match needs the operations both have now, so it is found from the one
 * of the two that changed last: only the PUs whose operation changed are looked at (each step
 * the fired pairs').  The senders go into a bitmap, read back in PU order: the step's
 * transfers come in the order of their senders, as a scan of every PU would give them. */
static int64_t mark_matches(const Rdv *r, const int32_t *cand, int64_t nc)
{
    int64_t nf = 0;
    for (int64_t q = 0; q < nc; q++) {
        int32_t w = cand[q];
        if (!r->live[w])
            continue;
        const RdvOp *o = &r->cur[w];
        int32_t u = o->send ? w : o->peer, v = o->send ? o->peer : w;
        const RdvOp *ou = &r->cur[u], *ov = &r->cur[v];
        if (r->live[u] && r->live[v] && ou->send && !ov->send && ou->peer == v &&
            ov->peer == u && ou->pk == ov->pk) {
            uint64_t bit = UINT64_C(1) << (u & 63);
            nf += (r->fired[u >> 6] & bit) == 0;
            r->fired[u >> 6] |= bit;
        }
    }
    return nf;
}

int64_t rdv_run(Sched *s, const RdvRun *run)
{
    int32_t n = run->n;
    Rdv r = { 0 };
    size_t words = ((size_t)n + 63) / 64;
    r.cursor = calloc((size_t)n, sizeof *r.cursor);
    r.cur = calloc((size_t)n, sizeof *r.cur);
    r.live = calloc((size_t)n, sizeof *r.live);
    r.cand = malloc(((size_t)n + 1) * sizeof *r.cand);
    r.next = malloc(((size_t)n + 1) * sizeof *r.next);
    r.fired = calloc(words + 1, sizeof *r.fired);
    if (!r.cursor || !r.cur || !r.live || !r.cand || !r.next || !r.fired) {
        rdv_free(&r);
        sched_fail(s, "out of memory");
        return -1;
    }
    int64_t nlive = 0, nc = 0;
    for (int32_t u = 0; u < n; u++) {
        if (!advance(run, &r, u, s)) {
            rdv_free(&r);
            return -1;
        }
        if (r.live[u])
            r.cand[nc++] = u, nlive++;
    }
    int64_t steps = 0;
    char label[160];
    while (nlive > 0) {
        int64_t nf = mark_matches(&r, r.cand, nc);
        if (nf == 0) {
            int32_t u = 0;
            while (!r.live[u])   /* the first PU still waiting */
                u++;
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
        nc = 0;
        for (size_t wd = 0; wd < words && ok; wd++)
            for (uint64_t b = r.fired[wd]; b && ok; b &= b - 1) {
                int32_t u = (int32_t)(wd * 64 + (size_t)__builtin_ctzll(b)), v = r.cur[u].peer;
                uint32_t pk = r.cur[u].pk;
                ok = sched_send_range(s, run->node[u], run->node[v], pk, pk + 1) &&
                     advance(run, &r, u, s) && advance(run, &r, v, s);
                nlive -= !r.live[u] + !r.live[v];
                r.next[nc++] = u;
                r.next[nc++] = v;
            }
        if (!ok) {
            rdv_free(&r);
            return -1;
        }
        memset(r.fired, 0, words * sizeof *r.fired);
        int32_t *t = r.cand;
        r.cand = r.next;
        r.next = t;
        steps++;
    }
    rdv_free(&r);
    return steps;
}
