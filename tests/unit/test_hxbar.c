/* test_hxbar.c — the hierarchical crossbar hxbar:AxB[,c=C] (net.c, the channel counting of
 * sim.c) and Section 4's embedding `fractional-hxbar` (hxbar.c over gtree.c): specs and their
 * one-line errors; a step that sends k transfers out of a module loads its out channel
 * ceil(k/C) (overloaded past C), transfers inside a module use no channel; for A in 1..12, B in
 * 1..9, r in 1..min(B,4), corner and inner sources: verified, valid under the duplex postal
 * model, the steps of gtree.h's formula with the tree's d, and at most 2 transfers on any
 * channel (so no overload with the default C = 2), while C = 1 overloads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algos-internal.h"
#include "../../src/algos/sanders/gtree.h"
#include "../../src/engine/sim.h"
#include "mknet.h"
#include "sanders-args.h"

static void test_specs(void **state)
{
    (void)state;
    Net *n = mknet("hxbar:4x8");
    assert_int_equal(net_kind(n), NET_HXBAR);
    assert_int_equal(net_size(n), 32);
    assert_int_equal(net_hxbar_modules(n), 4);
    assert_int_equal(net_hxbar_per(n), 8);
    assert_int_equal(net_hxbar_channels(n), 2);
    assert_string_equal(net_spec(n), "hxbar:4x8");
    assert_int_equal(net_nlinks(n), 32 * 32 + 8);
    assert_int_equal(net_channel_link(n, 3, true), 32 * 32 + 7);
    assert_int_equal(net_channel_link(n, 4, false), -1);
    assert_int_equal(net_distance(n, 0, 31), 1);
    int32_t node;
    int dim, dir;
    net_link_info(n, net_channel_link(n, 2, true), &node, &dim, &dir);
    assert_int_equal(node, 16);
    assert_int_equal(dir, -1);
    assert_int_equal(net_link_head(n, net_channel_link(n, 2, false)), -1);
    assert_int_equal(net_pair_link(n, 1, 9), 1 * 32 + 9);
    net_free(n);
    n = mknet("hxbar:4x8,c=3");
    assert_int_equal(net_hxbar_channels(n), 3);
    assert_string_equal(net_spec(n), "hxbar:4x8,c=3");
    Net *again = mknet(net_spec(n));
    assert_int_equal(net_hxbar_channels(again), 3);
    net_free(again);
    net_free(n);
    const char *bad[] = { "hxbar:4", "hxbar:4x8,c=0", "hxbar:4x8,x", "hxbar:4x4x4",
                          "hxbar:4x8,c=", "hxbar:0x8", "hxbar:1x1" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[256] = "";
        assert_null(net_parse(bad[i], err, sizeof err));
        assert_non_null(strstr(err, "bad net"));
        assert_null(strchr(err, '\n'));
    }
}

static void test_channel_counting(void **state)
{
    (void)state;
    for (int c = 1; c <= 4; c++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hxbar:2x4,c=%d", c);
        Net *n = mknet(spec);
        Sched *s = sched_new(n, 1, 64);
        for (int v = 0; v < 4; v++)
            sched_give(s, v, 0, 1);
        sched_step(s);
        for (int v = 0; v < 4; v++)   /* 4 transfers out of module 0 into module 1 */
            assert_true(sched_send_range(s, v, 4 + v, 0, 1));
        sched_step(s);
        assert_true(sched_send_range(s, 4, 5, 0, 1));   /* inside module 1: no channel */
        assert_true(sched_send_range(s, 6, 7, 0, 1));
        CostParams p;
        cost_defaults(&p, COST_POSTAL);
        char err[256];
        Sim *sim = sim_run(s, &p, 0, err, sizeof err);
        assert_non_null(sim);
        const SimStep *st0 = sim_step(sim, 0), *st1 = sim_step(sim, 1);
        int units = (4 + c - 1) / c;
        assert_int_equal(st0->max_channel_load, 4);
        assert_int_equal(st0->max_link_load, units);
        assert_int_equal(st0->link_overloads, units > 1 ? 2 : 0);   /* out of 0, into 1 */
        assert_int_equal(sim_link_load(sim, 0, net_channel_link(n, 0, false)), units);
        assert_int_equal(sim_link_load(sim, 0, net_channel_link(n, 1, true)), units);
        assert_int_equal(sim_link_load(sim, 0, net_channel_link(n, 0, true)), 0);
        assert_int_equal(st1->max_channel_load, 0);
        assert_int_equal(st1->max_link_load, 1);
        assert_int_equal(sim_totals(sim)->max_channel_load, 4);
        assert_true(sim_totals(sim)->verified);
        sim_free(sim);
        sched_free(s);
        net_free(n);
    }
}

/* One case: returns the largest channel load. */
static int run_case(const Net *net, int r, int s, int32_t src)
{
    const AlgoDef *d = algo_find("fractional-hxbar", net);
    assert_non_null(d);
    AlgoArgs a;
    sanders_args_rs(&a, d, r, s);
    char err[256];
    a.source = src;
    a.bytes = (uint64_t)s * 4;
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s r=%d s=%d src=%d: %s", net_spec(net), r, s, (int)src, err);
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    const SimTotals *t = sim_totals(sim);
    if (!t->verified || !t->valid)
        fail_msg("%s r=%d s=%d src=%d: verified %d valid %d", net_spec(net), r, s, (int)src,
                 t->verified, t->valid);
    SandersGTree tree;
    int32_t *block;
    assert_true(sanders_hxbar_tree(net, r, src, &tree, &block));
    int64_t dd;
    assert_true(sanders_gtree_depth(&tree, net_size(net), &dd, err, sizeof err));
    free(block);
    int64_t want = sanders_gtree_steps(dd, r, s);
    if (t->nsteps > want || (dd > 0 && t->nsteps != want))
        fail_msg("%s r=%d s=%d: %d steps, want %lld (d=%lld)", net_spec(net), r, s,
                 (int)t->nsteps, (long long)want, (long long)dd);
    int ch = t->max_channel_load;
    if (net_hxbar_channels(net) >= 2 && (ch > 2 || t->max_link_load > 1))
        fail_msg("%s r=%d s=%d src=%d: channel load %d, link load %d", net_spec(net), r, s,
                 (int)src, ch, (int)t->max_link_load);
    sim_free(sim);
    sched_free(sc);
    return ch;
}

static void test_sweep(void **state)
{
    (void)state;
    int cases = 0;
    for (int A = 1; A <= 12; A++)
        for (int B = 1; B <= 9; B++) {
            if (A * B < 2)
                continue;
            char spec[32];
            snprintf(spec, sizeof spec, "hxbar:%dx%d", A, B);
            Net *net = mknet(spec);
            int32_t N = net_size(net);
            for (int r = 1; r <= B && r <= 4; r++) {
                int32_t srcs[] = { 0, N - 1, N / 2 };
                for (int k = 0; k < 3; k++, cases++)
                    run_case(net, r, 2 * r, srcs[k]);
                run_case(net, r, r + 3, 0);
            }
            net_free(net);
        }
    assert_true(cases > 500);
    /* one channel a module: the global tree's two children overload it */
    Net *net = mknet("hxbar:8x4,c=1");
    assert_int_equal(run_case(net, 2, 8, 0), 2);
    net_free(net);
}

static void test_refusals(void **state)
{
    (void)state;
    Net *net = mknet("hxbar:4x2");
    const AlgoDef *d = algo_find("fractional-hxbar", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    char err[256];
    assert_int_equal(algo_args_set(&a, d, "r", "3", err, sizeof err), 0);
    assert_false(algo_check(d, net, &a, err, sizeof err));
    assert_non_null(strstr(err, "b >= r"));
    net_free(net);
    net = mknet("full:8");
    assert_null(algo_find("fractional-hxbar", net));
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_channel_counting),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
