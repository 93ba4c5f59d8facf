/* test_holdtab.c — the simulator's per-node holdings (sim-hold.h: the 8-byte record per node,
 * the Holds of nodes with several intervals) against a plain bitmap per node: random adds,
 * removes, merges, tests and resets; and random schedules replayed by the simulator against a
 * naive replay with bitmaps (holdings after every step, seeking back and forth). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim-hold.h"
#include "../../src/engine/sim.h"

#define NODES 6
#define CH 64   /* chunks */

typedef struct {
    bool b[NODES][CH];
} Ref;

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

/* The bitmap's intervals must be exactly what ht_ranges gives (sorted, disjoint, not
 * touching), and the record must be used for a node that holds at most one interval when it
 * never held two. */
static void same(const HoldTab *t, const Ref *ref, int32_t v)
{
    size_t n;
    const ChunkRange *r = ht_ranges(t, v, &n);
    size_t k = 0;
    for (uint32_t c = 0; c < CH;) {
        if (!ref->b[v][c]) {
            c++;
            continue;
        }
        uint32_t e = c;
        while (e < CH && ref->b[v][e])
            e++;
        assert_true(k < n);
        assert_int_equal(r[k].lo, c);
        assert_int_equal(r[k].hi, e);
        k++;
        c = e;
    }
    assert_int_equal(k, n);
}

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
    for (unsigned seed = 1; seed <= 40; seed++) {
        srand(seed);
        HoldTab t;
        assert_true(ht_init(&t, NODES));
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
            } else if (kind < 80) {
                ChunkRange r[16];
                size_t k = rand_ranges(r, 1 + rnd(16));
                bool add = rnd(2);
                assert_true(ht_merge(&t, v, r, k, add));
                for (size_t j = 0; j < k; j++)
                    for (uint32_t c = r[j].lo; c < r[j].hi; c++)
                        ref.b[v][c] = add;
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
    assert_true(ht_init(&t, 3));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_ops),
        cmocka_unit_test(test_record_then_big),
        cmocka_unit_test(test_random_schedules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
