/* test_fuse.c — the replay's fused pass (sim-step.c): a step whose sources never decrease in
 * transfer order hands out its receives in the sends' pass, each once no later send can read
 * what it adds.  Pinned against the separate passes (step_fuse false: every figure, violation
 * and holding the same, sim_seek back and forth too) and against a replay with bitmaps written
 * here (the not-held violations, the informed nodes, the holdings, the port conflicts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim.h"
#include "simcmp.h"

#define MAXN 9
#define CH 48
#define STEPS 8
#define MAXX 12

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

typedef struct {
    int32_t src, dst;
    ChunkRange r[8];
    size_t nr;
} Xf;

static int cmp_src(const void *a, const void *b)
{
    const Xf *x = a, *y = b;
    return (x->src > y->src) - (x->src < y->src);
}

/* s simulated with the fused pass and without. */
static void run_both(const Sched *s, const CostParams *p, unsigned flags, Sim **fused,
                     Sim **apart)
{
    bool saved = step_fuse;
    step_fuse = true;
    *fused = sim_run(s, p, flags, NULL, 0);
    step_fuse = false;
    *apart = sim_run(s, p, flags, NULL, 0);
    step_fuse = saved;
    assert_non_null(*fused);
    assert_non_null(*apart);
}

/* Random schedules on three small nets, most steps with their transfers sorted by source (the
 * fused pass), some not: relays of what a node receives in the same step (which it must not
 * yet hold), strided sets, chunks not held, nodes that send or receive twice.  Under seidel
 * (nu 0-2), postal (duplex and simplex), circuit and saf, with and without SIM_HISTORY. */
static void test_fuse_random(void **state)
{
    (void)state;
    const char *specs[3] = { "array:8", "torus:2x4", "mesh:3x3" };
    for (unsigned seed = 1; seed <= 90; seed++) {
        srand(seed * 7919u);
        Net *net = net_parse(specs[seed % 3], NULL, 0);
        assert_non_null(net);
        int32_t N = net_size(net);
        Sched *s = sched_new(net, CH, CH * 5 + seed % 7);
        static bool have[MAXN][CH], start[MAXN][CH];
        memset(have, 0, sizeof have);
        sched_give(s, 0, 0, CH);
        for (uint32_t c = 0; c < CH; c++)
            have[0][c] = true;
        sched_give(s, 3, 5, 9);   /* a second node informed from the start */
        for (uint32_t c = 5; c < 9; c++)
            have[3][c] = true;
        /* the reference: each step's not-held (transfer, node, chunk) in order, the informed
         * nodes after it, its port conflicts */
        SimcmpNotHeld nh[STEPS * MAXX];
        int nnh = 0;
        int32_t informed[STEPS];
        int64_t conflicts[STEPS];
        for (int st = 0; st < STEPS; st++) {
            sched_step(s);
            memcpy(start, have, sizeof have);
            Xf xs[MAXX];
            int nx = 1 + (int)rnd(MAXX);
            for (int i = 0; i < nx; i++) {
                Xf *x = &xs[i];
                x->src = (int32_t)rnd((uint32_t)N);
                do
                    x->dst = (int32_t)rnd((uint32_t)N);
                while (x->dst == x->src);
                x->nr = 0;
                uint32_t kind = rnd(3);
                if (kind == 0) {   /* strided */
                    uint32_t len = 1 + rnd(2), stp = len + 1 + rnd(4);
                    for (uint32_t c = rnd(4); c + len <= CH && x->nr < 8; c += stp)
                        x->r[x->nr++] = (ChunkRange){ c, c + len };
                } else {           /* one aligned block */
                    uint32_t w = 1u << rnd(5), lo = rnd(CH) & ~(w - 1);
                    x->r[x->nr++] = (ChunkRange){ lo, lo + w };
                }
            }
            if (rnd(4))   /* sources in order: the fused pass */
                qsort(xs, (size_t)nx, sizeof *xs, cmp_src);
            /* now and then a relay: the next transfer sends on what this one brings (its
             * receiver does not hold it at the start, unless it did) */
            for (int i = 0; i + 1 < nx; i++)
                if (rnd(3) == 0 && xs[i].dst > xs[i].src && xs[i + 1].src <= xs[i].dst) {
                    xs[i + 1].src = xs[i].dst;
                    do
                        xs[i + 1].dst = (int32_t)rnd((uint32_t)N);
                    while (xs[i + 1].dst == xs[i + 1].src);
                    xs[i + 1].nr = xs[i].nr;
                    memcpy(xs[i + 1].r, xs[i].r, sizeof xs[i].r);
                    for (int j = i + 2; j < nx; j++)   /* keep the order where it was */
                        if (xs[j].src < xs[i + 1].src)
                            xs[j].src = xs[i + 1].src;
                    for (int j = i + 2; j < nx; j++)
                        while (xs[j].dst == xs[j].src)
                            xs[j].dst = (int32_t)rnd((uint32_t)N);
                }
            int32_t sends[MAXN] = { 0 }, recvs[MAXN] = { 0 };
            for (int i = 0; i < nx; i++) {
                Xf *x = &xs[i];
                assert_true(sched_send(s, x->src, x->dst, x->r, x->nr));
                bool lacked = false;
                for (size_t j = 0; j < x->nr && !lacked; j++)
                    for (uint32_t c = x->r[j].lo; c < x->r[j].hi && !lacked; c++)
                        if (!start[x->src][c]) {
                            nh[nnh].step = st, nh[nnh].node = x->src, nh[nnh].x = i;
                            nh[nnh].chunk = c;
                            nnh++;
                            lacked = true;
                        }
                for (size_t j = 0; j < x->nr; j++)
                    for (uint32_t c = x->r[j].lo; c < x->r[j].hi; c++)
                        have[x->dst][c] = true;
                sends[x->src]++;
                recvs[x->dst]++;
            }
            informed[st] = 0;
            conflicts[st] = 0;
            for (int32_t v = 0; v < N; v++) {
                bool any = false;
                for (uint32_t c = 0; c < CH; c++)
                    any = any || have[v][c];
                informed[st] += any;
                conflicts[st] += (sends[v] > 1 ? sends[v] - 1 : 0) + (recvs[v] > 1 ? recvs[v] - 1 : 0);
            }
        }
        assert_null(sched_error(s));
        CostParams p;
        int m = (int)(seed / 3 % 6);
        cost_defaults(&p, m <= 2 ? COST_SEIDEL : m <= 4 ? COST_POSTAL : (seed % 2 ? COST_CIRCUIT : COST_SAF));
        if (m <= 2)
            p.nu = m;
        if (m == 4)
            p.duplex = !p.duplex;
        unsigned flags = seed % 2 ? SIM_HISTORY : 0;
        Sim *fused, *apart;
        run_both(s, &p, flags, &fused, &apart);
        simcmp_runs(fused, apart);
        /* against the bitmaps */
        simcmp_not_held(fused, nh, nnh);
        assert_int_equal(sim_totals(fused)->not_held, nnh);
        for (int st = 0; st < STEPS; st++) {
            assert_int_equal(sim_step(fused, st)->informed, informed[st]);
            if (p.model == COST_SEIDEL || p.model == COST_POSTAL)
                assert_true(sim_step(fused, st)->port_conflicts >= conflicts[st]);
            if (p.model == COST_SEIDEL || (p.model == COST_POSTAL && p.duplex))
                assert_int_equal(sim_step(fused, st)->port_conflicts, conflicts[st]);
        }
        for (int32_t v = 0; v < N; v++)
            for (uint32_t c = 0; c < CH; c++)
                assert_int_equal(sim_holds(fused, v, c), have[v][c]);
        if (flags & SIM_HISTORY)   /* back and forth: the same holdings at every position */
            for (int t = 0; t < 12; t++) {
                int32_t pos = (int32_t)rnd(STEPS + 1);
                assert_true(sim_seek(fused, pos));
                assert_true(sim_seek(apart, pos));
                simcmp_holdings(fused, apart);
            }
        sim_free(fused);
        sim_free(apart);
        sched_free(s);
        net_free(net);
    }
}

/* One step, sources in order: 0 sends chunk 0 to 1, which relays it to 2 in the same step (it
 * did not hold it at the start: not held), then 2 sends it back to 0 (2 did not hold it
 * either); 1's receive must come after its send is checked. */
static void test_fuse_relay(void **state)
{
    (void)state;
    Net *net = net_parse("array:4", NULL, 0);
    assert_non_null(net);
    Sched *s = sched_new(net, 2, 2);
    sched_give(s, 0, 0, 2);
    sched_step(s);
    ChunkRange c0 = { 0, 1 };
    assert_true(sched_send(s, 0, 1, &c0, 1));
    assert_true(sched_send(s, 1, 2, &c0, 1));
    assert_true(sched_send(s, 2, 3, &c0, 1));
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *fused, *apart;
    run_both(s, &p, 0, &fused, &apart);
    simcmp_runs(fused, apart);
    assert_int_equal(sim_totals(fused)->not_held, 2);
    const SimViolation *v = sim_violation(fused, 0);
    assert_int_equal(v->kind, SIM_V_NOT_HELD);
    assert_int_equal(v->node, 1);
    assert_int_equal(v->transfer, 1);
    v = sim_violation(fused, 1);
    assert_int_equal(v->node, 2);
    assert_int_equal(v->transfer, 2);
    for (int32_t n = 1; n < 4; n++)
        assert_true(sim_holds(fused, n, 0));
    sim_free(fused);
    sim_free(apart);
    sched_free(s);
    net_free(net);
}

/* Seidel's broadcasts (whose steps the fused pass takes: st's and rh's sources rise) on small
 * nets, nu 0 and 1, fused and apart alike, and each verified with the predicted cost. */
static void test_fuse_algos(void **state)
{
    (void)state;
    const char *cases[][2] = { { "array:64", "st" }, { "array:64", "rh" }, { "mesh:8x8", "st" },
                               { "mesh:8x8", "rh" }, { "mesh:4x16", "rh" }, { "mesh:8x8", "bst" } };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int nu = 0; nu <= 1; nu++) {
            Net *net = net_parse(cases[c][0], NULL, 0);
            const AlgoDef *d = algo_find(cases[c][1], net);
            assert_non_null(d);
            AlgoArgs a;
            algo_args_init(&a, d);
            a.bytes = 4096;
            Sched *s = algo_build(d, net, &a, NULL, 0);
            assert_non_null(s);
            CostParams p;
            cost_defaults(&p, COST_SEIDEL);
            p.nu = nu;
            Sim *fused, *apart;
            run_both(s, &p, 0, &fused, &apart);
            simcmp_runs(fused, apart);
            assert_true(sim_totals(fused)->verified);
            double want;
            if (d->predict && d->predict(d, net, &a, &p, &want))
                assert_true(fabs(sim_totals(fused)->cost.total - want) <= 1e-9 * want);
            sim_free(fused);
            sim_free(apart);
            sched_free(s);
            net_free(net);
        }
}

/* Tree steps (sched_send_tree), whose ports the replay does not count: the same figures,
 * violations, holdings and port counts as the same transfers sent one by one
 * (sched_send_range), and port counts as counted here from the transfers.  Binomial trees
 * over members base + m stride from any root, some steps sending chunks not yet held, a step
 * of one block and a step of two (which counts its ports), under seidel (nu 0, 1), postal
 * (duplex, simplex), circuit and saf. */
static void test_tree_ports(void **state)
{
    (void)state;
    Net *net = net_parse("mesh:8x8", NULL, 0);
    assert_non_null(net);
    for (unsigned seed = 1; seed <= 24; seed++) {
        srand(seed * 31u);
        int k = 2 + (int)rnd(4);                       /* 4 .. 32 members */
        int32_t stride = 1 + (int32_t)rnd(2), base = (int32_t)rnd((uint32_t)(64 - (stride << k) + stride));
        int32_t root = (int32_t)rnd(1u << k);
        Sched *t = sched_new(net, 4, 4096), *r = sched_new(net, 4, 4096);
        sched_give(t, base + root * stride, 0, 3);
        sched_give(r, base + root * stride, 0, 3);
        /* the two-block step: a second tree over other members, in step 0 */
        for (int i = 0; i < k; i++) {
            uint32_t hi = rnd(4) ? 3 : 4;              /* chunk 3: held by nobody */
            sched_step(t);
            sched_step(r);
            assert_true(sched_send_tree(t, base, stride, k, i, root, 0, hi));
            int64_t span = INT64_C(1) << (k - i);
            for (int64_t m = 0; m < (INT64_C(1) << k); m += span)
                assert_true(sched_send_range(r, base + (int32_t)((m ^ root) * stride),
                                             base + (int32_t)(((m + span / 2) ^ root) * stride),
                                             0, hi));
            if (i == 0 && seed % 2) {   /* a second block: the step counts its ports */
                assert_true(sched_send_tree(t, base, stride, k, 0, root, 0, 1));
                int64_t sp = INT64_C(1) << k;
                assert_true(sched_send_range(r, base + (int32_t)(root * stride),
                                             base + (int32_t)(((sp / 2) ^ root) * stride), 0, 1));
            }
        }
        assert_null(sched_error(t));
        assert_null(sched_error(r));
        CostParams p;
        int m = (int)(seed % 6);
        cost_defaults(&p, m <= 1 ? COST_SEIDEL : m <= 3 ? COST_POSTAL : m == 4 ? COST_CIRCUIT : COST_SAF);
        if (m == 1)
            p.nu = 1;
        if (m == 3)
            p.duplex = !p.duplex;
        Sim *a = sim_run(t, &p, 0, NULL, 0), *b = sim_run(r, &p, 0, NULL, 0);
        assert_non_null(a);
        assert_non_null(b);
        simcmp_runs(a, b);
        for (int32_t st = 0; st < k; st++) {
            const int32_t *sa, *ra, *sb, *rb;
            sim_port_counts(a, st, &sa, &ra);
            int32_t want_s[64], want_r[64];
            memcpy(want_s, sa, sizeof want_s);
            memcpy(want_r, ra, sizeof want_r);
            sim_port_counts(b, st, &sb, &rb);
            int32_t cs[64] = { 0 }, cr[64] = { 0 };
            SchedTransfer x;
            for (int64_t i = 0; i < sched_ntransfers(r, st); i++) {
                sched_transfer(r, st, i, &x);
                cs[x.src]++;
                cr[x.dst]++;
            }
            for (int v = 0; v < 64; v++) {
                assert_int_equal(want_s[v], cs[v]);
                assert_int_equal(want_r[v], cr[v]);
                assert_int_equal(sb[v], cs[v]);
                assert_int_equal(rb[v], cr[v]);
            }
        }
        sim_free(a);
        sim_free(b);
        sched_free(t);
        sched_free(r);
    }
    net_free(net);
}

/* The end check (run_verify) on nets of 64 nodes and more, whose runs of 64 complete records
 * are passed over whole: every incomplete node named, in node order, with the first chunk it
 * lacks, against a reference here; nodes lacking chunks at the start, middle and end of a run,
 * in the last partial run, nodes with two intervals (a big Hold), and a dense table. */
static void test_verify_runs(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 12; seed++) {
        srand(seed * 131u);
        int32_t N = seed % 3 == 0 ? 64 : 64 * (int32_t)(1 + rnd(4)) + (int32_t)rnd(64);
        char spec[32];
        snprintf(spec, sizeof spec, "array:%ld", (long)N);
        Net *net = net_parse(spec, NULL, 0);
        assert_non_null(net);
        enum { C = 6 };
        Sched *s = sched_new(net, C, C * 10);
        int32_t lack[20];
        uint32_t first[20];
        int nl = 0;
        bool dense = seed % 4 == 0;   /* most nodes big: the table turns dense */
        for (int32_t v = 0; v < N; v++) {
            bool odd = nl < 20 && (rnd(16) == 0 || v == 63 || v == N - 1 || (seed % 2 && v == 64));
            if (dense && !odd) {   /* two intervals that make the whole: a big record */
                sched_give(s, v, 0, 2);
                sched_give(s, v, 3, C);
                sched_give(s, v, 2, 3);
                continue;
            }
            if (!odd) {
                sched_give(s, v, 0, C);
                continue;
            }
            uint32_t kind = rnd(4), c = 1 + rnd(C - 1);
            lack[nl] = v;
            if (kind == 0) {           /* nothing */
                first[nl] = 0;
            } else if (kind == 1) {    /* a prefix */
                sched_give(s, v, 0, c);
                first[nl] = c;
            } else if (kind == 2) {    /* a suffix */
                sched_give(s, v, c, C);
                first[nl] = 0;
            } else {                   /* a hole at c */
                sched_give(s, v, 0, c);
                if (c + 1 < C)
                    sched_give(s, v, c + 1, C);
                first[nl] = c;
            }
            nl++;
        }
        sched_step(s);
        assert_null(sched_error(s));
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        Sim *sim = sim_run(s, &p, 0, NULL, 0);
        assert_non_null(sim);
        const SimTotals *t = sim_totals(sim);
        assert_int_equal(t->incomplete_nodes, nl);
        assert_int_equal(t->verified, nl == 0);
        int k = 0;
        for (size_t i = 0; i < sim_nviolations(sim); i++) {
            const SimViolation *v = sim_violation(sim, i);
            assert_int_equal(v->kind, SIM_V_INCOMPLETE);
            assert_true(k < nl);
            assert_int_equal(v->node, lack[k]);
            assert_int_equal(v->chunk, first[k]);
            k++;
        }
        assert_int_equal(k, nl);
        sim_free(sim);
        sched_free(s);
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuse_relay),
        cmocka_unit_test(test_fuse_random),
        cmocka_unit_test(test_fuse_algos),
        cmocka_unit_test(test_tree_ports),
        cmocka_unit_test(test_verify_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
