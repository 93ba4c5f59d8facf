/* sim-history.c — what each receive adds to a node, and going back and forth (sim-core.h).
 *
 * With SIM_HISTORY a run records, per transfer, one bit when its destination held none of what
 * it got (the transfer's own ranges are then the delta), else the parts that were new as
 * deltas (node, range) in never-moving blocks; sim_seek redoes or undoes whole steps from
 * them, or starts again from the givens when that touches less. */
#include "sim-core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool push_delta(Sim *sim, int32_t node, uint32_t lo, uint32_t hi)
{
    if (sim->ndelta == sim->ndblk * DBLK) {
        if ((sim->ndblk & (sim->ndblk - 1)) == 0) {   /* 0, 1, 2, 4, ...: grow the index */
            Delta **q = realloc(sim->dblk, (size_t)(sim->ndblk ? 2 * sim->ndblk : 1) * sizeof *q);
            if (!q)
                return false;
            sim->dblk = q;
        }
        Delta *b = big_alloc(sim, DBLK * sizeof *b, false);
        if (!b)
            return false;
        sim->dblk[sim->ndblk++] = b;
    }
    Delta *d = &sim->dblk[sim->ndelta >> DBLK_SHIFT][sim->ndelta & (DBLK - 1)];
    sim->ndelta++;
    d->node = node;
    d->r.lo = lo;
    d->r.hi = hi;
    return true;
}

/* Give [lo,hi) to node; with history, record exactly the parts it did not hold. */
static bool receive(Sim *sim, int32_t node, uint32_t lo, uint32_t hi, bool record)
{
    if (record) {
        size_t n;
        const ChunkRange *r = ht_ranges(&sim->hold, node, &n);
        size_t i = cr_first_hi_gt(r, n, lo);
        uint32_t cur = lo;
        for (; i < n && r[i].lo < hi; i++) {
            if (r[i].lo > cur && !push_delta(sim, node, cur, r[i].lo))
                return false;
            if (r[i].hi > cur)
                cur = r[i].hi;
        }
        if (cur < hi && !push_delta(sim, node, cur, hi))
            return false;
    }
    return ht_add(&sim->hold, node, lo, hi);
}

/* Give the normalised ranges r[0..nr) to node, transfer xi of the whole run.  With history,
 * what the node did not hold is recorded: as the transfer's bit when it held none of it,
 * else as deltas. */
/* Are the nr ranges at r the schedule's own (its range pool: a stored transfer of a step
 * without rules), which stay put while the replay runs? */
static bool in_pool(const Sim *sim, const ChunkRange *r, uint32_t nr)
{
    uintptr_t a = (uintptr_t)r, p = (uintptr_t)sim->s->ranges;
    return sim->s->ranges && a >= p && (a - p) / sizeof *r + nr <= sim->s->nranges;
}

bool hist_borrow_sub = true;
_Atomic int64_t hist_sub_borrows = 0;

bool hist_receive_all(Sim *sim, int32_t node, const ChunkRange *r, uint32_t nr, int64_t xi)
{
    bool record = (sim->flags & SIM_HISTORY) != 0;
    /* a long set into empty holdings, without history: borrowed, not copied (sim-hold.h;
     * the run ends every borrowing before it returns) */
    if (!record && nr >= sim_borrow_min && nr <= HOLD_CAP_MAX && in_pool(sim, r, nr) &&
        ht_empty(&sim->hold, node)) {
        uint32_t fixed, free_;   /* a submask set: borrowed as its bits (sim-hold.h) */
        if (hist_borrow_sub && sim->hold.subs &&
            sched_pool_submasks(sim->s, r, nr, &fixed, &free_)) {
            hist_sub_borrows++;
            return ht_borrow_sub(&sim->hold, node, fixed, free_);
        }
        return ht_borrow(&sim->hold, node, r, nr);
    }
    if (record && ht_none(&sim->hold, node, r, nr)) {
        sim->xnew[xi >> 6] |= UINT64_C(1) << (xi & 63);
        record = false;
    }
    if (nr >= 8) {
        size_t n;
        const ChunkRange *a = ht_ranges(&sim->hold, node, &n);
        if (record) {
            /* the parts of r not held yet, in one pass (r and a are both sorted) */
            size_t i = 0;
            for (uint32_t j = 0; j < nr; j++) {
                uint32_t lo = r[j].lo, hi = r[j].hi, cur = lo;
                while (i < n && a[i].hi <= lo)
                    i++;
                for (size_t t = i; t < n && a[t].lo < hi; t++) {
                    if (a[t].lo > cur && !push_delta(sim, node, cur, a[t].lo))
                        return false;
                    if (a[t].hi > cur)
                        cur = a[t].hi;
                }
                if (cur < hi && !push_delta(sim, node, cur, hi))
                    return false;
            }
        }
        /* merge into a fresh array: O(n + nr) rather than nr insertions */
        return ht_merge(&sim->hold, node, r, nr, true);
    }
    for (uint32_t k = 0; k < nr; k++)
        if (!receive(sim, node, r[k].lo, r[k].hi, record))
            return false;
    return true;
}

bool hist_receive_set(Sim *sim, int32_t node, uint32_t fixed, uint32_t free_,
                      const ChunkRange *r, uint32_t nr, int64_t xi)
{
    enum { FEW = 16 };
    ChunkRange g[FEW];
    if (!(sim->flags & SIM_HISTORY) && hist_borrow_sub) {   /* (else as ranges, as before) */
        if (sim->hold.subs && nr >= sim_borrow_min && nr <= HOLD_CAP_MAX &&
            ht_empty(&sim->hold, node)) {
            hist_sub_borrows++;
            return ht_borrow_sub(&sim->hold, node, fixed, free_);
        }
        /* a few: its ranges made from the bits */
        if (nr <= FEW && hold_sub_count(free_) == nr)
            return hist_receive(sim, node, g, (uint32_t)sched_submasks_list(fixed, free_, g), xi);
    }
    sched_pool_ready(sim->s);
    return hist_receive(sim, node, r, nr, xi);
}

/* Every node's holdings back to the givens (what it holds before the first step); any it had
 * are dropped. */
bool hist_givens(Sim *sim)
{
    const Sched *s = sim->s;
    ht_reset(&sim->hold);
    for (size_t i = 0; i < s->ngiven; i++)
        if (!ht_add(&sim->hold, s->gnode[i], s->grange[i].lo, s->grange[i].hi))
            return false;
    return true;
}

/* Does node v hold exactly the nr ranges at r? */
static bool holds_just(const Sim *sim, int32_t v, const ChunkRange *r, uint32_t nr)
{
    size_t n;
    const ChunkRange *a = ht_ranges(&sim->hold, v, &n);
    return n == nr && memcmp(a, r, nr * sizeof *r) == 0;
}

/* Redo (add) or undo step st's deltas.  A step's deltas for one node are disjoint, and those
 * of one receive come together in increasing order: such a run of several goes in with one
 * merge. */
static bool apply_deltas(Sim *sim, int32_t st, bool add)
{
    bool ok = true;
    /* the transfers whose ranges were all new to their destination */
    int64_t x0 = sim->xstart[st], nx = sim->xstart[st + 1] - x0;
    const SchedFlat *f = nx > 0 ? sim_flat(sim, st) : NULL;
    if (nx > 0 && !f)
        return false;
    for (int64_t i = 0; ok && i < nx; i++) {
        if (i + PREFETCH < nx)   /* the receiver's Hold: a miss no prefetcher guesses */
            ht_fetch(&sim->hold, f->x[i + PREFETCH].dst, 1);
        int64_t b = x0 + i;
        if (!(sim->xnew[b >> 6] & (UINT64_C(1) << (b & 63))))
            continue;
        int32_t v = f->x[i].dst;
        uint32_t nr = sched_flat_nr(f, i);
        const ChunkRange *r = sched_flat_ranges(f, i);
        if (nr >= 4 && !add && holds_just(sim, v, r, nr)) {
            /* undoing what made v's whole holdings (rh's distribution hands out strided sets
             * to nodes holding nothing): one removal of their span, no merge */
            ok = ht_remove(&sim->hold, v, r[0].lo, r[nr - 1].hi);
        } else if (nr >= 4) {
            ok = ht_merge(&sim->hold, v, r, nr, add);
        } else {
            for (uint32_t k = 0; ok && k < nr; k++)
                ok = add ? ht_add(&sim->hold, v, r[k].lo, r[k].hi)
                         : ht_remove(&sim->hold, v, r[k].lo, r[k].hi);
        }
    }
    uint64_t end = sim->dstart[st + 1];
    ChunkRange *buf = NULL;
    size_t capbuf = 0;
    for (uint64_t i = sim->dstart[st]; ok && i < end;) {
        const Delta *d = delta_at(sim, i);
        uint64_t j = i + 1;
        while (j < end && delta_at(sim, j)->node == d->node &&
               delta_at(sim, j)->r.lo >= delta_at(sim, j - 1)->r.hi)
            j++;
        int32_t v = d->node;
        if (j - i < 4) {
            for (uint64_t q = i; ok && q < j; q++)
                ok = add ? ht_add(&sim->hold, v, delta_at(sim, q)->r.lo, delta_at(sim, q)->r.hi)
                         : ht_remove(&sim->hold, v, delta_at(sim, q)->r.lo,
                                     delta_at(sim, q)->r.hi);
        } else {
            size_t k = (size_t)(j - i);
            if (k > capbuf) {
                ChunkRange *nb = realloc(buf, k * sizeof *nb);
                if (!nb) {
                    ok = false;
                    break;
                }
                buf = nb;
                capbuf = k;
            }
            for (size_t q = 0; q < k; q++)
                buf[q] = delta_at(sim, i + q)->r;
            ok = ht_merge(&sim->hold, v, buf, k, add);
        }
        i = j;
    }
    free(buf);
    return ok;
}

bool sim_seek(Sim *sim, int32_t pos)
{
    if (!sim || pos < 0 || pos > sim->nsteps)
        return false;
    if (pos == sim->pos)
        return true;
    if (!(sim->flags & SIM_HISTORY))
        return false;
    if (pos < sim->pos) {
        /* back by undoing the steps in between, or from the start (the givens) forwards,
         * whichever touches less: going back to the start of a big broadcast is a reset */
        uint64_t back = (sim->dstart[sim->pos] - sim->dstart[pos]) +
                        (uint64_t)(sim->xstart[sim->pos] - sim->xstart[pos]);
        uint64_t fresh = (uint64_t)sim->net->size + sim->s->ngiven +
                         (sim->dstart[pos] - sim->dstart[0]) + (uint64_t)sim->xstart[pos];
        if (fresh < back) {
            if (!hist_givens(sim))
                return false;
            sim->pos = 0;
        }
    }
    while (sim->pos > pos) {
        if (!apply_deltas(sim, sim->pos - 1, false))
            return false;
        sim->pos--;
    }
    while (sim->pos < pos) {
        if (!apply_deltas(sim, sim->pos, true))
            return false;
        sim->pos++;
    }
    return true;
}

int32_t sim_pos(const Sim *sim) { return sim ? sim->pos : 0; }

const ChunkRange *sim_holdings(const Sim *sim, int32_t node, size_t *nranges)
{
    static const ChunkRange none[1];
    if (!sim || node < 0 || node >= sim->net->size) {
        if (nranges)
            *nranges = 0;
        return none;
    }
    size_t n;
    const ChunkRange *r = ht_ranges(&sim->hold, node, &n);
    if (nranges)
        *nranges = n;
    return r;
}

uint64_t sim_held(const Sim *sim, int32_t node)
{
    size_t n;
    const ChunkRange *r = sim_holdings(sim, node, &n);
    return cr_count(r, n);
}

bool sim_holds(const Sim *sim, int32_t node, uint32_t chunk)
{
    if (!sim || node < 0 || node >= sim->net->size || chunk == UINT32_MAX)
        return false;
    return ht_contains(&sim->hold, node, chunk, chunk + 1, NULL);
}
