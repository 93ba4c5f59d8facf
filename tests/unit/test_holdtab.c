/* test_holdtab.c — the simulator's per-node holdings (sim-hold.h: the 8-byte record per node,
 * the Holds of nodes with several intervals, the Holds that borrow their base) against a plain
 * bitmap per node: random adds, removes, merges, borrows, tests and resets; and random
 * schedules replayed by the simulator against a naive replay with bitmaps (holdings after
 * every step, seeking back and forth; without history, borrowing or not: the same run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim-hold.h"
#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim.h"
#include "simcmp.h"

#define NODES 6
#define CH 64   /* chunks */

typedef struct {
    bool b[NODES][CH];
} Ref;

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

/* The bitmap's intervals must be exactly what ht_ranges gives (sorted, disjoint, not
 * touching), and the record must be used for a node that holds at most one interval when it
 * never held two. */
static bool borrows(const HoldTab *t, int32_t v)
{
    if (t->dense)
        return hold_borrowed(&t->dense[v]);
    return t->rec[v].lo == HT_BIG && hold_borrowed(&t->big[t->rec[v].hi]);
}

/* Node v's Hold (NULL when it is in its record). */
static const Hold *hold_of(const HoldTab *t, int32_t v)
{
    if (t->dense)
        return &t->dense[v];
    return t->rec[v].lo == HT_BIG ? &t->big[t->rec[v].hi] : NULL;
}

/* A borrowing Hold's own structure against its base, walked interval by interval: its own
 * intervals sorted and apart; every base interval that touches one lies inside it (absorbed);
 * the limits (sim-hold.h) those of the base intervals outside o[0] and o[n-1]; a base that
 * one own interval covers let go. */
/* The intervals of the submask set (fixed, free), found chunk by chunk (c is in it when its
 * bits outside free are fixed's), into r (room for all); how many. */
static uint32_t sub_brute(uint32_t fixed, uint32_t free_, ChunkRange *r)
{
    uint32_t k = 0, end = fixed | free_;
    for (uint32_t c = 0; c <= end; c++) {
        if ((c & ~free_) != fixed)
            continue;
        if (k > 0 && r[k - 1].hi == c)
            r[k - 1].hi = c + 1;
        else
            r[k++] = (ChunkRange){ c, c + 1 };
    }
    return k;
}

static void bor_check(const HoldTab *t, int32_t v)
{
    const Hold *h = hold_of(t, v);
    if (!h || !hold_borrowed(h))
        return;
    uint32_t nb = hold_nb(h), n = h->n;
    const ChunkRange *b = h->u.b.base, *o = h->u.b.o;
    static ChunkRange made[1u << 16];
    if (hold_sub(h)) {   /* its base from its bits, chunk by chunk */
        assert_true((h->u.b.s.fixed | h->u.b.s.free) < (1u << 16));
        assert_int_equal(sub_brute(h->u.b.s.fixed, h->u.b.s.free, made), nb);
        b = made;
    }
    assert_true(nb >= 1);
    assert_true(n <= HOLD_BOR_OWN);
    for (uint32_t i = 0; i < n; i++) {
        assert_true(o[i].lo < o[i].hi);
        if (i > 0)
            assert_true(o[i - 1].hi < o[i].lo);
    }
    if (n == 0)
        return;
    uint32_t want_lo = 0, want_hi = UINT32_MAX;
    bool outside = false;   /* some base interval not inside o[0] */
    for (uint32_t j = 0; j < nb; j++) {
        for (uint32_t i = 0; i < n; i++)
            if (b[j].lo <= o[i].hi && b[j].hi >= o[i].lo) {   /* touches: inside */
                assert_true(o[i].lo <= b[j].lo);
                assert_true(b[j].hi <= o[i].hi);
            }
        if (b[j].hi < o[0].lo)
            want_lo = b[j].hi + 1;
        if (b[j].lo > o[n - 1].hi && want_hi == UINT32_MAX)
            want_hi = b[j].lo - 1;
        outside = outside || b[j].lo < o[0].lo || b[j].hi > o[0].hi;
    }
    assert_int_equal(h->u.b.lim_lo, want_lo);
    assert_int_equal(h->u.b.lim_hi, want_hi);
    assert_true(n > 1 || outside);
}

static void same_bits(const HoldTab *t, int32_t v, const bool *b, uint32_t nch)
{
    bor_check(t, v);
    for (uint32_t c = 0; c < nch; c++)
        assert_int_equal(ht_contains(t, v, c, c + 1, NULL), b[c]);
    assert_int_equal(ht_empty(t, v), !memchr(b, true, nch));
    if (borrows(t, v))   /* its intervals are known only once it owns them (ht_own_all) */
        return;
    size_t n;
    const ChunkRange *r = ht_ranges(t, v, &n);
    size_t k = 0;
    for (uint32_t c = 0; c < nch;) {
        if (!b[c]) {
            c++;
            continue;
        }
        uint32_t e = c;
        while (e < nch && b[e])
            e++;
        assert_true(k < n);
        assert_int_equal(r[k].lo, c);
        assert_int_equal(r[k].hi, e);
        k++;
        c = e;
    }
    assert_int_equal(k, n);
}

static void same(const HoldTab *t, const Ref *ref, int32_t v) { same_bits(t, v, ref->b[v], CH); }

/* Normalised random ranges in [0,CH): up to max of them. */
static size_t rand_ranges(ChunkRange *r, size_t max)
{
    size_t k = 0;
    uint32_t c = rnd(8);
    while (k < max && c < CH) {
        uint32_t len = 1 + rnd(6);
        uint32_t hi = c + len > CH ? CH : c + len;
        r[k++] = (ChunkRange){ c, hi };
        c = hi + 1 + rnd(10);
    }
    return k;
}

static void check_tests(const HoldTab *t, const Ref *ref, int32_t v)
{
    /* one range */
    uint32_t lo = rnd(CH), hi = lo + 1 + rnd(CH - lo), miss = UINT32_MAX;
    uint32_t want_miss = UINT32_MAX;
    for (uint32_t c = lo; c < hi; c++)
        if (!ref->b[v][c]) {
            want_miss = c;
            break;
        }
    bool got = ht_contains(t, v, lo, hi, &miss);
    assert_int_equal(got, want_miss == UINT32_MAX);
    if (!got)
        assert_int_equal(miss, want_miss);
    /* several */
    ChunkRange r[12];
    uint32_t nr = (uint32_t)rand_ranges(r, 1 + rnd(12));
    uint32_t wk = UINT32_MAX, wm = 0, anyheld = 0;
    for (uint32_t j = 0; j < nr; j++)
        for (uint32_t c = r[j].lo; c < r[j].hi; c++) {
            if (ref->b[v][c])
                anyheld = 1;
            else if (wk == UINT32_MAX) {
                wk = j;
                wm = c;
            }
        }
    uint32_t k = 0;
    miss = 0;
    got = ht_contains_all(t, v, r, nr, &k, &miss);
    assert_int_equal(got, wk == UINT32_MAX);
    if (!got) {
        assert_int_equal(k, wk);
        /* hold_contains_all's *miss: the first chunk missing from range k */
        assert_int_equal(miss, wm);
    }
    assert_int_equal(ht_none(t, v, r, nr), !anyheld);
}

static void test_random_ops(void **state)
{
    (void)state;
    /* what borrowing nodes point at: never changed while borrowed (as the schedule's pool) */
    static ChunkRange pool[4096][16];
    size_t npool = 0;
    for (unsigned seed = 1; seed <= 60; seed++) {
        srand(seed);
        HoldTab t;
        assert_true(ht_init(&t, NODES, seed % 4 == 1));   /* huge pages or not: the same */
        /* odd seeds: the table turns dense once two nodes are big (in the middle of the
         * run, with records and big Holds to carry over); even: never */
        t.dense_at = seed % 2 ? 2 : UINT32_MAX;
        bool was_dense = false;
        Ref ref;
        memset(&ref, 0, sizeof ref);
        for (int op = 0; op < 3000; op++) {
            int32_t v = (int32_t)rnd(NODES);
            uint32_t kind = rnd(100);
            if (kind < 45) {   /* add one range, often touching what is held */
                uint32_t lo = rnd(CH), hi = lo + 1 + rnd(kind < 20 ? 4 : CH - lo);
                if (hi > CH)
                    hi = CH;
                assert_true(ht_add(&t, v, lo, hi));
                for (uint32_t c = lo; c < hi; c++)
                    ref.b[v][c] = true;
            } else if (kind < 60) {
                uint32_t lo = rnd(CH), hi = lo + 1 + rnd(8);
                if (hi > CH)
                    hi = CH;
                assert_true(ht_remove(&t, v, lo, hi));
                for (uint32_t c = lo; c < hi; c++)
                    ref.b[v][c] = false;
            } else if (kind < 72) {
                ChunkRange r[16];
                size_t k = rand_ranges(r, 1 + rnd(16));
                bool add = rnd(2);
                assert_true(ht_merge(&t, v, r, k, add));
                for (size_t j = 0; j < k; j++)
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                        ref.b[v][c] = add;
            } else if (kind < 80 && seed > 40) {
                /* seeds 41..60: an empty node borrows a set (else the others empty first) */
                if (!ht_empty(&t, v)) {
                    assert_true(ht_remove(&t, v, 0, CH));
                    memset(ref.b[v], 0, CH);
                }
                if (seed > 50 && rnd(2) == 0) {   /* seeds 51..60: a submask set, as bits */
                    uint32_t low = (1u << rnd(3)) - 1, fr = low, fx = 0;
                    for (uint32_t bit = 2 * low + 2; bit < CH; bit <<= 1)
                        if (rnd(2))
                            fr |= bit;
                    if (fr == low)   /* at least two intervals */
                        fr |= CH / 2;
                    for (uint32_t bit = 1; bit < CH; bit <<= 1)
                        if (!(fr & bit) && rnd(3) == 0)
                            fx |= bit;
                    if ((fx | fr) >= CH)
                        fx &= CH - 1;
                    assert_true(ht_borrow_sub(&t, v, fx, fr));
                    assert_true(borrows(&t, v));
                    for (uint32_t c = 0; c < CH; c++)
                        ref.b[v][c] = (c & ~fr) == fx;
                } else {
                    ChunkRange *r = pool[npool++ % 4096];
                    size_t k = rand_ranges(r, 1 + rnd(16));
                    if (rnd(3) == 0) {   /* a strided set: 1 or 2 chunks every 4 or 8 */
                        uint32_t len = 1 + rnd(2), step = 4u << rnd(2), c0 = rnd(4);
                        k = 0;
                        for (uint32_t c = c0; c + len <= CH && k < 16; c += step)
                            r[k++] = (ChunkRange){ c, c + len };
                    }
                    assert_true(ht_borrow(&t, v, r, (uint32_t)k));
                    assert_true(borrows(&t, v));
                    for (size_t j = 0; j < k; j++)
                        for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                            ref.b[v][c] = true;
                }
            } else if (kind < 90 && seed > 40) {
                /* grow a block around a held chunk, as an exchange does */
                uint32_t c = rnd(CH), w = 1u << rnd(5), lo = c & ~(w - 1);
                assert_true(ht_add(&t, v, lo, lo + w));
                for (uint32_t x = lo; x < lo + w; x++)
                    ref.b[v][x] = true;
            } else if (kind == 90 && seed > 40) {
                assert_true(ht_own_all(&t));
                for (int32_t w = 0; w < NODES; w++)
                    assert_false(borrows(&t, w));
            } else if (kind < 99) {
                check_tests(&t, &ref, v);
            } else {
                ht_reset(&t);
                memset(&ref, 0, sizeof ref);
            }
            same(&t, &ref, v);
            if (t.dense && !was_dense)   /* just carried over: every node */
                for (int32_t w = 0; w < NODES; w++)
                    same(&t, &ref, w);
            was_dense = was_dense || t.dense;
        }
        assert_int_equal(was_dense, seed % 2 == 1);
        for (int32_t v = 0; v < NODES; v++)
            same(&t, &ref, v);
        assert_true(ht_own_all(&t));   /* every node's exact intervals */
        for (int32_t v = 0; v < NODES; v++) {
            assert_false(borrows(&t, v));
            same(&t, &ref, v);
        }
        ht_free(&t);
    }
}

/* The 8-byte record: a node that only ever holds one interval never gets a Hold of its own;
 * the first time one needs two, it does, and keeps it until the table is reset (the table
 * stays sparse: fewer than dense_at nodes are big). */
static void test_record_then_big(void **state)
{
    (void)state;
    HoldTab t;
    assert_true(ht_init(&t, 3, true));
    assert_true(ht_add(&t, 0, 4, 8));
    assert_true(ht_add(&t, 0, 8, 12));   /* touches: extends */
    assert_true(ht_add(&t, 0, 0, 5));    /* overlaps */
    assert_int_equal(t.nbig, 0);
    assert_int_equal(t.rec[0].lo, 0);
    assert_int_equal(t.rec[0].hi, 12);
    assert_true(ht_remove(&t, 0, 0, 3));   /* still one interval */
    assert_int_equal(t.nbig, 0);
    assert_true(ht_add(&t, 1, 20, 21));
    assert_true(ht_add(&t, 1, 22, 23));   /* a gap: node 1 needs a Hold */
    assert_int_equal(t.nbig, 1);
    assert_int_equal(t.rec[1].lo, HT_BIG);
    assert_true(ht_contains(&t, 1, 22, 23, NULL));
    uint32_t miss = 0;
    assert_false(ht_contains(&t, 1, 20, 23, &miss));
    assert_int_equal(miss, 21);
    assert_true(ht_remove(&t, 0, 5, 6));   /* node 0 splits: a Hold too */
    assert_int_equal(t.nbig, 2);
    size_t n;
    const ChunkRange *r = ht_ranges(&t, 0, &n);
    assert_int_equal(n, 2);
    assert_int_equal(r[0].lo, 3);
    assert_int_equal(r[0].hi, 5);
    assert_int_equal(r[1].lo, 6);
    assert_int_equal(r[1].hi, 12);
    ht_reset(&t);
    assert_int_equal(t.nbig, 0);
    ht_ranges(&t, 0, &n);
    assert_int_equal(n, 0);
    assert_false(ht_contains(&t, 2, 0, 1, &miss));
    assert_int_equal(miss, 0);
    ht_free(&t);
}

/* Random schedules on array:8: the holdings the simulator reports after each step (by seeking,
 * back and forth) against a replay with bitmaps that only sends what the sender holds. */
static void test_random_schedules(void **state)
{
    (void)state;
    Net *net = net_parse("array:8", NULL, 0);
    assert_non_null(net);
    for (unsigned seed = 1; seed <= 30; seed++) {
        srand(seed * 7919u);
        enum { N = 8, STEPS = 8 };
        Sched *s = sched_new(net, CH, CH * 10);
        static bool hist[STEPS + 1][N][CH];
        memset(hist, 0, sizeof hist);
        sched_give(s, 0, 0, CH);
        for (uint32_t c = 0; c < CH; c++)
            hist[0][0][c] = true;
        if (seed % 2) {   /* a strided given */
            for (uint32_t c = 3; c < CH; c += 5) {
                sched_give(s, 5, c, c + 1);
                hist[0][5][c] = true;
            }
        }
        for (int st = 0; st < STEPS; st++) {
            sched_step(s);
            memcpy(hist[st + 1], hist[st], sizeof hist[st]);
            int nx = 1 + (int)rnd(6);
            for (int i = 0; i < nx; i++) {
                int32_t a = (int32_t)rnd(N), b = (int32_t)rnd(N);
                if (a == b)
                    continue;
                ChunkRange r[10];
                size_t k = rand_ranges(r, 1 + rnd(10));
                /* only what a held at the start of the step (no violations) */
                size_t kk = 0;
                for (size_t j = 0; j < k; j++) {
                    bool all = true;
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                        all = all && hist[st][a][c];
                    if (all)
                        r[kk++] = r[j];
                }
                if (!kk)
                    continue;
                assert_true(sched_send(s, a, b, r, kk));
                for (size_t j = 0; j < kk; j++)
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                        hist[st + 1][b][c] = true;
            }
        }
        assert_null(sched_error(s));
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        Sim *sim = sim_run(s, &p, SIM_HISTORY, NULL, 0);
        assert_non_null(sim);
        assert_int_equal(sim_totals(sim)->not_held, 0);
        int32_t order[] = { STEPS, 0, 3, 1, 7, 2, 8, 5, 4, 6, 0, 8, 1 };
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            int32_t pos = order[i];
            assert_true(sim_seek(sim, pos));
            for (int32_t v = 0; v < N; v++) {
                uint64_t cnt = 0;
                for (uint32_t c = 0; c < CH; c++) {
                    assert_int_equal(sim_holds(sim, v, c), hist[pos][v][c]);
                    cnt += hist[pos][v][c];
                }
                assert_int_equal(sim_held(sim, v), cnt);
                size_t nr;
                const ChunkRange *r = sim_holdings(sim, v, &nr);
                for (size_t j = 1; j < nr; j++)
                    assert_true(r[j - 1].hi < r[j].lo);   /* normalised: not touching */
            }
        }
        sim_free(sim);
        sched_free(s);
    }
    net_free(net);
}

/* s run twice: *copy never borrowing (every received set copied), *bor borrowing from sets of
 * 2 ranges on (a submask set as its bits, or as ranges when sub is false); sim_borrow_min
 * and hist_borrow_sub are left as they were. */
static void run_both_ways_sub(const Sched *s, const CostParams *p, Sim **copy, Sim **bor,
                              bool sub)
{
    uint32_t saved = sim_borrow_min;
    bool saved_sub = hist_borrow_sub;
    sim_borrow_min = UINT32_MAX;
    *copy = sim_run(s, p, 0, NULL, 0);
    sim_borrow_min = 2;
    hist_borrow_sub = sub;
    *bor = sim_run(s, p, 0, NULL, 0);
    sim_borrow_min = saved;
    hist_borrow_sub = saved_sub;
    assert_non_null(*copy);
    assert_non_null(*bor);
}

/* Random schedules without history (array:8 and torus:2x4, seidel with nu 0-2), in which nodes
 * receive strided sets into empty holdings and then grow blocks and send (some of them chunks
 * they lack): a run that borrows every
 * such set (sim_borrow_min 2) against one that copies them (never borrows) and against a
 * replay with bitmaps.  The not-held violations must name the same transfer and chunk. */
static void test_borrowed_schedules(void **state)
{
    (void)state;
    /* eight nodes each: on an array, and on a torus (routes that wrap, loads shared) */
    Net *nets[2] = { net_parse("array:8", NULL, 0), net_parse("torus:2x4", NULL, 0) };
    assert_non_null(nets[0]);
    assert_non_null(nets[1]);
    int64_t subs0 = hist_sub_borrows;
    for (unsigned seed = 1; seed <= 60; seed++) {
        Net *net = nets[seed % 2];
        srand(seed * 104729u);
        enum { N = 8, STEPS = 10 };
        Sched *s = sched_new(net, CH, CH * 3 + seed);   /* chunks of unequal bytes too */
        static bool have[N][CH], start[N][CH];
        memset(have, 0, sizeof have);
        sched_give(s, 0, 0, CH);
        for (uint32_t c = 0; c < CH; c++)
            have[0][c] = true;
        int64_t lacks = 0;
        for (int st = 0; st < STEPS; st++) {
            sched_step(s);
            memcpy(start, have, sizeof have);
            int nx = 1 + (int)rnd(6);
            for (int i = 0; i < nx; i++) {
                int32_t a = (int32_t)rnd(N), b = (int32_t)rnd(N);
                if (a == b)
                    continue;
                ChunkRange r[16];
                size_t k = 0;
                uint32_t kind = rnd(4);
                if (kind == 3) {   /* a submask set of 6 bits, often within what a held */
                    uint32_t fr = 0, fx = 0;
                    for (uint32_t bit = 1; bit < CH; bit <<= 1)
                        if (rnd(2))
                            fr |= bit;
                    if (fr == CH - 1)
                        fr &= ~1u;
                    for (uint32_t bit = 1; bit < CH; bit <<= 1)
                        if (!(fr & bit) && rnd(3) == 0)
                            fx |= bit;
                    bool all = true;
                    for (uint32_t c = 0; c < CH; c++)
                        all = all && ((c & ~fr) != fx || start[a][c]);
                    if (!all && rnd(4) != 0)
                        continue;
                    assert_true(sched_send_submasks(s, a, b, fx, fr));
                    for (uint32_t c = 0; c < CH; c++)
                        if ((c & ~fr) == fx) {
                            lacks += !start[a][c];
                            have[b][c] = true;
                        }
                    continue;
                }
                if (kind == 0) {   /* strided: len chunks every step */
                    uint32_t len = 1 + rnd(2), step = len + 1 + rnd(4);
                    for (uint32_t c = rnd(4); c + len <= CH && k < 16; c += step)
                        r[k++] = (ChunkRange){ c, c + len };
                } else if (kind == 1) {   /* an aligned block around a chunk */
                    uint32_t w = 1u << rnd(6), lo = rnd(CH) & ~(w - 1);
                    r[k++] = (ChunkRange){ lo, lo + w };
                } else {
                    k = rand_ranges(r, 1 + rnd(10));
                }
                /* mostly what a held at the start of the step; now and then not */
                size_t kk = 0;
                for (size_t j = 0; j < k; j++) {
                    bool all = true;
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                        all = all && start[a][c];
                    if (all || rnd(8) == 0)
                        r[kk++] = r[j];
                }
                if (!kk)
                    continue;
                assert_true(sched_send(s, a, b, r, kk));
                for (size_t j = 0; j < kk; j++)
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++) {
                        lacks += !start[a][c];
                        have[b][c] = true;   /* received whether or not a held it */
                    }
            }
        }
        assert_null(sched_error(s));
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        p.nu = (int)(seed % 3);   /* nu 0, 1, 2: loads not a multiple of 2^nu among them */
        for (int sub = 1; sub >= 0; sub--) {   /* submask sets borrowed as bits, as ranges */
            Sim *copy, *bor;
            run_both_ways_sub(s, &p, &copy, &bor, sub);
            assert_int_equal(sim_totals(bor)->not_held > 0, lacks > 0);
            simcmp_runs(bor, copy);
            for (int32_t v = 0; v < N; v++)
                for (uint32_t c = 0; c < CH; c++)
                    assert_int_equal(sim_holds(bor, v, c), have[v][c]);
            sim_free(copy);
            sim_free(bor);
        }
        sched_free(s);
    }
    assert_true(hist_sub_borrows > subs0);   /* submask sets were borrowed as bits */
    net_free(nets[0]);
    net_free(nets[1]);
}

/* A relay that borrowed a submask set sends submask sets on (rh's distribution, at random):
 * within its set, across it, beside it.  Node 0 sends S1 to node 1 (borrowed as bits), then
 * node 1 sends a random S2 to each other node: a send is not held exactly when S2 has a
 * member outside S1, and its violation names S2's first such chunk (listed here one by one);
 * the same run as one that copies. */
static void test_sub_relay(void **state)
{
    (void)state;
    Net *net = net_parse("array:8", NULL, 0);
    assert_non_null(net);
    int64_t subs0 = hist_sub_borrows;
    for (unsigned seed = 1; seed <= 200; seed++) {
        srand(seed * 2654435761u);
        Sched *s = sched_new(net, CH, CH * 5);
        sched_give(s, 0, 0, CH);
        uint32_t f1 = 0, x1 = 0;
        while ((f1 & ~hold_sub_low(f1)) == 0) {   /* at least two intervals */
            f1 = rnd(CH - 1);
            x1 = rnd(CH) & ~f1;
        }
        sched_step(s);
        assert_true(sched_send_submasks(s, 0, 1, x1, f1));
        sched_step(s);
        int64_t want = 0;
        uint32_t wmiss[8];
        for (int32_t d = 2; d < 8; d++) {
            uint32_t f2, x2;
            if (rnd(2)) {   /* within S1, or one bit off */
                f2 = f1 & (uint32_t)rand();
                x2 = (x1 | ((uint32_t)rand() & f1)) & ~f2;
                if (rnd(3) == 0) {
                    uint32_t bit = 1u << rnd(6);
                    f2 &= ~bit;
                    x2 ^= bit;
                }
            } else {
                f2 = rnd(CH - 1);
                x2 = rnd(CH) & ~f2;
            }
            assert_true(sched_send_submasks(s, 1, d, x2, f2));
            wmiss[d] = UINT32_MAX;
            for (uint32_t c = 0; c < CH && wmiss[d] == UINT32_MAX; c++)
                if ((c & ~f2) == x2 && (c & ~f1) != x1)
                    wmiss[d] = c;
            want += wmiss[d] != UINT32_MAX;
        }
        assert_null(sched_error(s));
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        for (int sub = 1; sub >= 0; sub--) {
            Sim *copy, *bor;
            run_both_ways_sub(s, &p, &copy, &bor, sub);
            assert_int_equal(sim_totals(bor)->not_held, want);
            size_t nv = sim_nviolations(bor), seen = 0;
            for (size_t i = 0; i < nv; i++) {
                const SimViolation *v = sim_violation(bor, i);
                if (v->kind != SIM_V_NOT_HELD)
                    continue;
                assert_int_equal(v->node, 1);
                int32_t d = (int32_t)v->transfer + 2;   /* the step's transfers 0..5: to 2..7 */
                assert_true(d >= 2 && d < 8);
                assert_int_equal(v->chunk, wmiss[d]);
                seen++;
            }
            assert_int_equal(seen, (size_t)want);
            simcmp_runs(bor, copy);
            sim_free(copy);
            sim_free(bor);
        }
        sched_free(s);
    }
    assert_true(hist_sub_borrows > subs0);
    net_free(net);
}

/* rh on meshes (its distribution sends strided sets, which the relaying nodes borrow; its
 * exchange then grows blocks across them), under seidel with nu = 0 and 1 and a message that
 * is not a multiple of the chunks: borrowing or not, the same run, every node ending with
 * every chunk. */
static void test_borrowed_rh(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:16x16", "mesh:8x32", "mesh:32x4", "array:512", "mesh:64x64" };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        Net *net = net_parse(nets[i], NULL, 0);
        assert_non_null(net);
        const AlgoDef *d = algo_find("rh", net);
        assert_non_null(d);
        AlgoArgs a;
        algo_args_init(&a, d);
        a.bytes = 1000003;
        a.source = (int32_t)(i * 37 % (size_t)net_size(net));
        char err[256];
        Sched *s = algo_build(d, net, &a, err, sizeof err);
        assert_non_null(s);
        for (int nu = 0; nu <= 1; nu++) {
            CostParams p;
            cost_defaults(&p, COST_SEIDEL);
            p.nu = nu;
            /* the submask sets borrowed as bits (every relay of a set of 2 ranges or more),
             * and as ranges */
            for (int sub = 1; sub >= 0; sub--) {
                Sim *copy, *bor;
                int64_t before = hist_sub_borrows;
                run_both_ways_sub(s, &p, &copy, &bor, sub);
                assert_true(sim_totals(bor)->verified);
                assert_int_equal(hist_sub_borrows > before, sub);
                simcmp_runs(bor, copy);
                sim_free(copy);
                sim_free(bor);
            }
        }
        sched_free(s);
        net_free(net);
    }
}

/* ---- long borrowed sets: the exchange's growing blocks and the distribution's subsets ---- */

#define LN 4        /* nodes */
#define LCH 4096    /* chunks */

typedef struct {
    bool b[LN][LCH];
} LRef;

/* Every chunk of node v as the bitmap says (and, once it owns them, its exact intervals). */
static void lsame(const HoldTab *t, const LRef *ref, int32_t v) { same_bits(t, v, ref->b[v], LCH); }

/* ht_contains_all (and ht_none, and ht_contains of each) of r[0..nr) against the bitmap. */
static void lcheck_all(const HoldTab *t, const LRef *ref, int32_t v, const ChunkRange *r,
                       uint32_t nr)
{
    uint32_t wk = UINT32_MAX, wm = 0;
    bool any = false;
    for (uint32_t j = 0; j < nr; j++)
        for (uint32_t c = r[j].lo; c < r[j].hi; c++) {
            any = any || ref->b[v][c];
            if (!ref->b[v][c] && wk == UINT32_MAX) {
                wk = j;
                wm = c;
            }
        }
    uint32_t k = 0, miss = 0;
    bool got = ht_contains_all(t, v, r, nr, &k, &miss);
    assert_int_equal(got, wk == UINT32_MAX);
    if (!got) {
        assert_int_equal(k, wk);
        assert_int_equal(miss, wm);
    }
    assert_int_equal(ht_none(t, v, r, nr), !any);
    if (nr > 0) {   /* one of them on its own */
        uint32_t j = rnd(nr), m1 = UINT32_MAX, want = UINT32_MAX;
        for (uint32_t c = r[j].lo; c < r[j].hi && want == UINT32_MAX; c++)
            if (!ref->b[v][c])
                want = c;
        assert_int_equal(ht_contains(t, v, r[j].lo, r[j].hi, &m1), want == UINT32_MAX);
        if (want != UINT32_MAX)
            assert_int_equal(m1, want);
    }
}

/* A long strided base (uneven now and then: ranges dropped, widened) borrowed by node v. */
static uint32_t long_base(ChunkRange *r, LRef *ref, int32_t v)
{
    uint32_t len = 1 + rnd(2), step = (len + 1) << rnd(4), c = rnd(step), k = 0;
    bool uneven = rnd(2);
    for (; c + len <= LCH; c += step) {
        if (uneven && rnd(8) == 0)
            continue;   /* dropped */
        uint32_t hi = c + len + (uneven && rnd(8) == 0 && c + len + 1 < c + step &&
                                 c + len < LCH);
        r[k++] = (ChunkRange){ c, hi };
    }
    if (k == 0)
        r[k++] = (ChunkRange){ 0, 1 };
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t x = r[j].lo; x < r[j].hi; x++)
            ref->b[v][x] = true;
    return k;
}

/* A submask set of up to 12 bits (runs of 1, 2 or 4 chunks) borrowed by node v as its bits;
 * its intervals (found chunk by chunk) into r. */
static uint32_t long_sub(ChunkRange *r, LRef *ref, int32_t v, HoldTab *t)
{
    uint32_t low = (1u << rnd(3)) - 1, fr = low, fx = 0;
    for (uint32_t bit = 2 * low + 2; bit < LCH; bit <<= 1)
        if (rnd(3) != 0)
            fr |= bit;
    if (fr == low)
        fr |= LCH / 2;
    for (uint32_t bit = 1; bit < LCH; bit <<= 1)
        if (!(fr & bit) && rnd(2) == 0)
            fx |= bit;
    uint32_t k = sub_brute(fx, fr, r);
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t x = r[j].lo; x < r[j].hi; x++)
            ref->b[v][x] = true;
    assert_true(ht_borrow_sub(t, v, fx, fr));
    return k;
}

static void test_borrowed_long(void **state)
{
    (void)state;
    static ChunkRange base[LN][LCH];
    static LRef ref;
    static ChunkRange r[LCH];
    /* seeds 1..40: bases borrowed as ranges; 41..80: submask sets borrowed as bits (the
     * subsets and blocks below are the distribution's and the exchange's as for rh) */
    for (unsigned seed = 1; seed <= 80; seed++) {
        srand(seed * 31337u);
        HoldTab t;
        assert_true(ht_init(&t, LN, false));
        t.dense_at = seed % 2 ? 1 : UINT32_MAX;   /* dense, or big Holds through the records */
        memset(&ref, 0, sizeof ref);
        uint32_t nb[LN];
        for (int32_t v = 0; v < LN; v++) {
            if (seed > 40) {
                nb[v] = long_sub(base[v], &ref, v, &t);
                continue;
            }
            nb[v] = long_base(base[v], &ref, v);
            assert_true(ht_borrow(&t, v, base[v], nb[v]));
        }
        for (int32_t v = 0; v < LN; v++) {
            /* the distribution: subsets of the base sent on (every q-th range, q small or
             * past the cursor's walk, or runs of 2^sh ranges every other run; trimmed now and
             * then; now and then a range it lacks) */
            for (int rep = 0; rep < 8; rep++) {
                uint32_t q = rep < 3 ? 1 + rnd(3) : 1 + rnd(40), nr = 0, sh = rnd(6);
                bool runs = rep >= 6;
                for (uint32_t j = runs ? 0 : rnd(q); j < nb[v]; j += runs ? 1 : q) {
                    if (runs && ((j >> sh) & 1))
                        continue;
                    ChunkRange x = base[v][j];
                    if (rnd(4) == 0 && x.hi - x.lo > 1)
                        x.lo++;
                    if (rep >= 4 && rnd(64) == 0 && x.hi < LCH &&
                        (nr == 0 || r[nr - 1].hi < x.lo))
                        x.hi++;   /* one chunk more than it holds (usually) */
                    if (nr > 0 && r[nr - 1].hi >= x.lo)
                        continue;
                    r[nr++] = x;
                }
                lcheck_all(&t, &ref, v, r, nr);
            }
            /* the exchange: a block around the node's chunk c, doubled step by step by the
             * partner's block (the block itself sent first); now and then the other way round
             * (two blocks a step apart, joined in the next) */
            uint32_t c = base[v][rnd(nb[v])].lo;
            for (uint32_t w = 1; w < LCH; w *= 2) {
                uint32_t lo = c & ~(w - 1), buddy = lo ^ w;
                ChunkRange blk = { lo, lo + w };
                lcheck_all(&t, &ref, v, &blk, 1);
                if (2 * w < LCH && rnd(3) == 0) {   /* the other way round */
                    uint32_t far = (lo ^ (2 * w)) & ~(w - 1);
                    assert_true(ht_add(&t, v, far, far + w));
                    for (uint32_t x = far; x < far + w; x++)
                        ref.b[v][x] = true;
                    ChunkRange two[2] = { { lo < far ? lo : far, (lo < far ? lo : far) + w },
                                          { lo < far ? far : lo, (lo < far ? far : lo) + w } };
                    lcheck_all(&t, &ref, v, two, 2);
                }
                assert_true(ht_add(&t, v, buddy, buddy + w));
                for (uint32_t x = buddy; x < buddy + w; x++)
                    ref.b[v][x] = true;
                bor_check(&t, v);
                if (rnd(4) == 0)
                    lsame(&t, &ref, v);
                if (rnd(4) == 0) {   /* a block elsewhere */
                    uint32_t o = rnd(LCH), ow = 1 + rnd(4);
                    if (o + ow > LCH)
                        ow = LCH - o;
                    assert_true(ht_add(&t, v, o, o + ow));
                    for (uint32_t x = o; x < o + ow; x++)
                        ref.b[v][x] = true;
                }
            }
            lsame(&t, &ref, v);
        }
        assert_true(ht_own_all(&t));
        for (int32_t v = 0; v < LN; v++) {
            assert_false(borrows(&t, v));
            lsame(&t, &ref, v);
        }
        ht_free(&t);
    }
}

/* A borrowing Hold's limits at their edges: own intervals grown outwards to one chunk short
 * of a base interval, to touching it, and past it; grown inwards into the gap between two own
 * intervals; joined.  An add within the limits must not read the base: it is poisoned (every
 * entry [0, EDGE_CH), which a read would take as held) while the add runs, then put back.
 * Checked against bitmaps and bor_check after every add. */
#define EDGE_CH 512
static void test_borrowed_edges(void **state)
{
    (void)state;
    static ChunkRange base[EDGE_CH], saved[EDGE_CH];
    /* seeds 301..600: a submask base, borrowed as its bits (nothing to poison: the limits
     * come from the bits) */
    for (unsigned seed = 1; seed <= 600; seed++) {
        srand(seed * 7919u);
        /* a base: intervals of 1-3 chunks, gaps of 1-12 */
        uint32_t nb = 0, fx = 0, fr = 0;
        for (uint32_t c = rnd(6); seed <= 300 && c + 3 < EDGE_CH && nb < EDGE_CH;
             c += 2 + rnd(12)) {
            uint32_t len = 1 + rnd(3);
            base[nb++] = (ChunkRange){ c, c + len };
            c += len;
        }
        if (seed > 300) {   /* runs of 1 or 2 chunks, 9 bits */
            fr = rnd(2);
            for (uint32_t bit = 2 * fr + 2; bit < EDGE_CH; bit <<= 1)
                if (rnd(3) != 0)
                    fr |= bit;
            if ((fr & ~1u) == 0)
                fr |= EDGE_CH / 2;
            for (uint32_t bit = 1; bit < EDGE_CH; bit <<= 1)
                if (!(fr & bit) && rnd(3) == 0)
                    fx |= bit;
            nb = sub_brute(fx, fr, base);
        }
        bool ref[EDGE_CH] = { false };
        for (uint32_t j = 0; j < nb; j++)
            for (uint32_t x = base[j].lo; x < base[j].hi; x++)
                ref[x] = true;
        HoldTab t;
        assert_true(ht_init(&t, 1, false));
        t.dense_at = seed % 2 ? 1 : UINT32_MAX;
        if (seed > 300)
            assert_true(ht_borrow_sub(&t, 0, fx, fr));
        else
            assert_true(ht_borrow(&t, 0, base, nb));
        for (int op = 0; op < 60 && borrows(&t, 0); op++) {
            const Hold *h = hold_of(&t, 0);
            uint32_t lo, hi, n = h->n;
            const ChunkRange *o = h->u.b.o;
            uint32_t kind = rnd(8);
            if (n == 0 || kind == 0) {   /* a chunk or two anywhere */
                lo = rnd(EDGE_CH - 2);
                hi = lo + 1 + rnd(2);
            } else if (kind <= 2) {   /* upwards from o[n-1] to its limit, +- a chunk */
                lo = o[n - 1].lo + rnd(o[n - 1].hi - o[n - 1].lo + 1);
                uint32_t lim = h->u.b.lim_hi > EDGE_CH - 2 ? EDGE_CH - 2 : h->u.b.lim_hi;
                hi = lim + rnd(3);   /* lim - 0 .. lim + 2: within, touching, past */
                if (hi > lim)
                    hi = hi - 1;
                if (rnd(3) == 0 && hi > o[n - 1].hi + 1)
                    hi = o[n - 1].hi + 1 + rnd(hi - o[n - 1].hi);
                if (hi <= lo)
                    hi = lo + 1;
            } else if (kind <= 4) {   /* downwards from o[0] to its limit, +- a chunk */
                hi = o[0].lo + rnd(o[0].hi - o[0].lo + 1);
                uint32_t lim = h->u.b.lim_lo;
                lo = lim >= 1 && rnd(2) ? lim - 1 : lim + rnd(2);
                if (rnd(3) == 0 && lo + 1 < o[0].lo)
                    lo = lo + rnd(o[0].lo - lo);
                if (lo >= hi)
                    lo = hi - 1;
            } else if (kind == 5 && n == 2) {   /* the gap between them, exactly */
                lo = o[0].hi;
                hi = o[1].lo;
            } else if (kind == 6 && n == 2) {   /* into the gap from one side */
                if (rnd(2)) {
                    lo = o[0].lo;
                    hi = o[0].hi + 1 + rnd(o[1].lo - o[0].hi);
                } else {
                    hi = o[1].hi;
                    lo = o[1].lo - 1 - rnd(o[1].lo - o[0].hi);
                }
            } else {   /* a block apart */
                lo = rnd(EDGE_CH - 4);
                hi = lo + 1 + rnd(4);
            }
            if (hi > EDGE_CH)
                hi = EDGE_CH;
            if (lo >= hi)
                continue;
            /* within the limits, beside or across own intervals only: no base read */
            uint32_t q1 = 0, q2;
            while (q1 < n && o[q1].hi < lo)
                q1++;
            for (q2 = q1; q2 < n && o[q2].lo <= hi; q2++)
                ;
            bool quiet = q2 > q1 && (lo >= o[q1].lo || (q1 == 0 && lo >= h->u.b.lim_lo)) &&
                         (hi <= o[q2 - 1].hi || (q2 == n && hi <= h->u.b.lim_hi));
            if (quiet) {
                memcpy(saved, base, nb * sizeof *base);
                for (uint32_t j = 0; j < nb; j++)
                    base[j] = (ChunkRange){ 0, EDGE_CH };
            }
            assert_true(ht_add(&t, 0, lo, hi));
            if (quiet)
                memcpy(base, saved, nb * sizeof *base);
            for (uint32_t x = lo; x < hi; x++)
                ref[x] = true;
            bor_check(&t, 0);
            for (uint32_t c = 0; c < EDGE_CH; c++)
                assert_int_equal(ht_contains(&t, 0, c, c + 1, NULL), ref[c]);
        }
        assert_true(ht_own_all(&t));
        size_t n;
        const ChunkRange *r = ht_ranges(&t, 0, &n);
        for (uint32_t c = 0; c < EDGE_CH; c++)
            assert_int_equal(cr_contains(r, n, c, c + 1, NULL), ref[c]);
        ht_free(&t);
    }
}

/* hold_sub_next and hold_sub_prev against the members listed one by one: every submask set
 * of 6 bits (every free, every fixed outside it), placed at bits 0-5 and at bits 26-31 (the
 * top bit's edge), asked at and around every chunk of the 6-bit space and past it. */
static void test_sub_bits(void **state)
{
    (void)state;
    for (int sh = 0; sh <= 26; sh += 26) {
        for (uint32_t fr = 0; fr < 64; fr++) {
            for (uint32_t fx = 0; fx < 64; fx++) {
                if (fx & fr)
                    continue;
                uint32_t mem[64], nm = 0;
                for (uint32_t c = 0; c < 64; c++)
                    if ((c & ~fr) == fx)
                        mem[nm++] = c << sh;
                uint32_t run = 0;   /* free's low run of ones, counted */
                while (run < 6 && ((fr >> run) & 1))
                    run++;
                assert_int_equal(hold_sub_low(fr << sh), sh ? 0 : (1u << run) - 1);
                uint32_t runs = 0;   /* the set's intervals: members not after a member */
                for (uint32_t i = 0; i < nm; i++)
                    runs += i == 0 || mem[i - 1] + (1u << sh) != mem[i];
                if (sh == 0)
                    assert_int_equal(hold_sub_count(fr), runs);
                else   /* every member its own interval (no low run at bit 26) */
                    assert_int_equal(hold_sub_count(fr << sh), nm);
                for (uint32_t c = 0; c < 65; c++) {
                    uint32_t xs[4] = { c << sh, (c << sh) + 1, (c << sh) - 1,
                                       (c << sh) + (sh ? (1u << 25) : 0) };
                    if (c == 64)
                        xs[0] = xs[1] = xs[3] = sh ? UINT32_MAX : 64;
                    for (int q = 0; q < 4; q++) {
                        uint32_t x = xs[q], y = 0, wn = UINT32_MAX, wp = UINT32_MAX;
                        bool hn = false, hp = false;
                        for (uint32_t i = 0; i < nm; i++) {
                            if (mem[i] >= x && !hn) {
                                hn = true;
                                wn = mem[i];
                            }
                            if (mem[i] <= x) {
                                hp = true;
                                wp = mem[i];
                            }
                        }
                        bool got = hold_sub_next(fx << sh, fr << sh, x, &y);
                        assert_int_equal(got, hn);
                        if (hn)
                            assert_int_equal(y, wn);
                        got = hold_sub_prev(fx << sh, fr << sh, x, &y);
                        assert_int_equal(got, hp);
                        if (hp)
                            assert_int_equal(y, wp);
                    }
                }
            }
        }
    }
}

/* The end of a run (ht_finish: own every borrowing Hold and report each node that lacks a
 * chunk, in one pass) and the dense turn (the records' array grown in place into the Holds')
 * against a 64-bit map per node: up to 200k nodes (the records then a block of its own, grown
 * by mremap), most holding everything (the records' runs of complete nodes), some empty, some
 * missing chunks, some borrowing ranges or a submask set and adding more; the table dense from
 * the start, turned dense in the middle, on huge pages or not, or never.  The misses expected
 * are found bit by bit: the nodes whose map is not full, each with its lowest missing chunk. */
typedef struct {
    int32_t n;
    int32_t v[64];
    uint32_t miss[64];
} Misses;

static void note_miss(void *ctx, int32_t v, uint32_t miss)
{
    Misses *m = ctx;
    if (m->n < 64) {
        m->v[m->n] = v;
        m->miss[m->n] = miss;
    }
    m->n++;
}

static void test_finish(void **state)
{
    (void)state;
    static ChunkRange pool[512][8];   /* borrowed: unchanged until ht_finish */
    int went_dense = 0;   /* of the 200k-node tables */
    for (unsigned seed = 1; seed <= 24; seed++) {
        srand(seed * 7919);
        int32_t n = seed % 3 == 0 ? 200000 : 1 + (int32_t)rnd(300);
        uint64_t *ref = calloc((size_t)n, sizeof *ref);
        assert_non_null(ref);
        HoldTab t;
        assert_true(ht_init(&t, n, seed % 4 == 1));
        t.dense_at = seed % 2 ? 1 + rnd(seed % 3 == 0 ? 500 : 8) : UINT32_MAX;
        size_t np = 0;
        int32_t want = 0;   /* nodes that lack a chunk */
        for (int32_t v = 0; v < n; v++) {
            /* (on the big tables runs of 64 complete nodes, as a run's end has) */
            uint32_t kind = n > 1000 && rnd(50) ? 0 : rnd(100);
            if (kind < 70) {   /* everything, in one range or two */
                uint32_t c = rnd(CH);
                assert_true(ht_add(&t, v, c, CH));
                assert_true(ht_add(&t, v, 0, c));
                ref[v] = UINT64_MAX;
            } else if (kind < 73) {   /* nothing */
            } else if (kind < 75) {   /* one interval short of one end */
                uint32_t lo = rnd(2);
                assert_true(ht_add(&t, v, lo, CH - 1 + lo));
                ref[v] = lo ? UINT64_MAX - 1 : UINT64_MAX >> 1;
            } else if (kind < 88) {   /* a few ranges */
                for (uint32_t i = 1 + rnd(4); i-- > 0;) {
                    uint32_t lo = rnd(CH), hi = lo + 1 + rnd(CH - lo);
                    assert_true(ht_add(&t, v, lo, hi));
                    for (uint32_t c = lo; c < hi; c++)
                        ref[v] |= (uint64_t)1 << c;
                }
            } else if (kind < 95 && np < 512) {   /* a borrowed strided set, then adds */
                ChunkRange *r = pool[np++];
                uint32_t len = 1 + rnd(2), step = 4u << rnd(2), c0 = rnd(4), k = 0;
                for (uint32_t c = c0; c + len <= CH && k < 8; c += step)
                    r[k++] = (ChunkRange){ c, c + len };
                assert_true(ht_borrow(&t, v, r, k));
                for (uint32_t j = 0; j < k; j++)
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                        ref[v] |= (uint64_t)1 << c;
                if (rnd(2)) {   /* the rest of it: complete, yet borrowing or let go */
                    uint32_t lo = rnd(CH);
                    assert_true(ht_add(&t, v, lo, CH));
                    assert_true(ht_add(&t, v, 0, lo));
                    ref[v] = UINT64_MAX;
                }
            } else {   /* a submask set as bits: 0,1 / 4,5 / ... */
                uint32_t fr = 1 | (uint32_t)(CH - 4) , fx = 0;
                assert_true(ht_borrow_sub(&t, v, fx, fr));
                for (uint32_t c = 0; c < CH; c++)
                    if ((c & ~fr) == fx)
                        ref[v] |= (uint64_t)1 << c;
                if (rnd(2)) {
                    assert_true(ht_add(&t, v, 2, 4));
                    ref[v] |= 0xcull;
                }
            }
            want += ref[v] != UINT64_MAX;
        }
        if (seed % 2 == 0)
            assert_null(t.dense);
        went_dense += t.dense != NULL && seed % 3 == 0;
        Misses m = { 0 };
        bool end = seed % 5 != 4;   /* else a prefix: owned, nothing verified */
        assert_true(ht_finish(&t, CH, end ? note_miss : NULL, &m));
        assert_int_equal(m.n, end ? want : 0);
        int32_t k = 0;
        for (int32_t v = 0; v < n; v++) {
            size_t nr;
            if (t.dense)
                assert_false(hold_borrowed(&t.dense[v]));
            else if (t.rec[v].lo == HT_BIG)
                assert_false(hold_borrowed(&t.big[t.rec[v].hi]));
            const ChunkRange *r = ht_ranges(&t, v, &nr);
            uint64_t got = 0;
            for (size_t i = 0; i < nr; i++)
                for (uint32_t c = r[i].lo; c < r[i].hi; c++)
                    got |= (uint64_t)1 << c;
            assert_true(got == ref[v]);
            if (end && ref[v] != UINT64_MAX && k < 64) {
                uint32_t first = 0;
                while (ref[v] >> first & 1)
                    first++;
                assert_int_equal(m.v[k], v);
                assert_int_equal(m.miss[k], first);
                k++;
            }
        }
        ht_free(&t);
        free(ref);
    }
    assert_int_equal(went_dense, 4);   /* seeds 3, 9, 15, 21 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sub_bits),
        cmocka_unit_test(test_random_ops),
        cmocka_unit_test(test_finish),
        cmocka_unit_test(test_record_then_big),
        cmocka_unit_test(test_random_schedules),
        cmocka_unit_test(test_borrowed_schedules),
        cmocka_unit_test(test_sub_relay),
        cmocka_unit_test(test_borrowed_rh),
        cmocka_unit_test(test_borrowed_long),
        cmocka_unit_test(test_borrowed_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
