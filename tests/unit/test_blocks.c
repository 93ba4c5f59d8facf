/* test_blocks.c — Seidel's building blocks (blocks.h): spanning tree, distribute, exchange on
 * contiguous and interleaved groups, from every root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../../src/algos/blocks.h"
#include "../../src/engine/sim.h"
#include "mknet.h"

static Sim *simulate(const Sched *s, int nu)
{
    CostParams p;
    char err[256];
    cost_defaults(&p, COST_SEIDEL);
    p.nu = nu;
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    if (!sim)
        fail_msg("sim_run: %s", err);
    return sim;
}

/* ST from every root on array:2^k, contiguous (stride 1) and reversed (stride -1): verified,
 * k steps, no link overload at nu = 0, no port conflicts, cost k(ma+b). */
static void test_st_every_root(void **state)
{
    (void)state;
    for (int k = 1; k <= 6; k++) {
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", 1 << k);
        Net *net = mknet(spec);
        for (int stride = -1; stride <= 1; stride += 2) {
            int32_t base = stride > 0 ? 0 : (1 << k) - 1;
            for (int root = 0; root < (1 << k); root++) {
                Sched *s = sched_new(net, 1, 1024);
                assert_true(sched_give(s, base + stride * root, 0, 1));
                assert_true(blocks_st(s, 0, base, stride, k, root, 0, 1));
                assert_null(sched_error(s));
                assert_int_equal(sched_nsteps(s), k);
                Sim *sim = simulate(s, 0);
                const SimTotals *t = sim_totals(sim);
                assert_true(t->valid);
                assert_int_equal(t->link_overloads, 0);
                assert_int_equal(t->port_conflicts, 0);
                assert_true(t->max_link_load <= 1);
                assert_float_equal(t->cost.total, k * (1024 * 0.08 + 75), 1e-6);
                sim_free(sim);
                sched_free(s);
            }
        }
        net_free(net);
    }
}

/* Distribute from every root: member j ends holding exactly part j (order kept). */
static void test_distribute_parts(void **state)
{
    (void)state;
    Net *net = mknet("array:64");
    for (int k = 0; k <= 4; k++) {
        int g = 1 << k;
        for (int stride = 1; stride <= 4; stride *= 2) {
            for (int root = 0; root < g; root++) {
                uint32_t nch = (uint32_t)(3 * g);
                Sched *s = sched_new(net, nch, 3 * 1024);
                int32_t base = 1;
                assert_true(sched_give(s, base + stride * root, 0, nch));
                assert_true(blocks_distribute(s, 0, base, stride, k, root, 0, nch));
                assert_null(sched_error(s));
                Sim *sim = simulate(s, 0);
                assert_int_equal(sim_totals(sim)->port_conflicts, 0);
                /* member j holds part j, and (having relayed them) the parts of its subtree:
                 * 2^(trailing zeros of j ^ root) members, all of them for the root */
                for (int j = 0; j < g; j++) {
                    int32_t node = base + stride * j;
                    int rel = j ^ root;
                    uint64_t sub = rel ? (uint64_t)(rel & -rel) : (uint64_t)g;
                    for (uint32_t c = 3 * (uint32_t)j; c < 3 * (uint32_t)j + 3; c++)
                        assert_true(sim_holds(sim, node, c));
                    assert_int_equal(sim_held(sim, node), 3 * sub);
                }
                /* cost (1 - 1/2^k) ma + kb on a contiguous group (no contention) */
                if (stride == 1)
                    assert_float_equal(sim_totals(sim)->cost.total,
                                       (1.0 - 1.0 / g) * 3 * 1024 * 0.08 + k * 75.0, 1e-6);
                sim_free(sim);
                sched_free(s);
            }
        }
    }
    net_free(net);
}

/* Exchange: member j holds part j; afterwards everyone holds all, load 2^i on step i. */
static void test_exchange(void **state)
{
    (void)state;
    for (int k = 0; k <= 5; k++) {
        int g = 1 << k;
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", 2 * g);
        Net *net = mknet(spec);
        for (int stride = 1; stride <= 2; stride++) {
            Sched *s = sched_new(net, (uint32_t)g, (uint64_t)g * 16);
            for (int j = 0; j < g; j++)
                assert_true(sched_give(s, stride * j, (uint32_t)j, (uint32_t)j + 1));
            /* nodes outside the group: give them everything so verification is about the group */
            for (int32_t x = 0; x < 2 * g; x++)
                if (x % stride != 0 || x / stride >= g)
                    assert_true(sched_give(s, x, 0, (uint32_t)g));
            assert_true(blocks_exchange(s, 0, 0, stride, k, 0, (uint32_t)g));
            assert_null(sched_error(s));
            assert_int_equal(sched_nsteps(s), k);
            Sim *sim = simulate(s, 10);
            assert_true(sim_totals(sim)->verified);
            assert_int_equal(sim_totals(sim)->port_conflicts, 0);
            for (int i = 0; i < k; i++)
                assert_int_equal(sim_step(sim, i)->max_link_load, 1 << i);
            sim_free(sim);
            sched_free(s);
        }
        net_free(net);
    }
}

/* Interleaved concurrent STs (2^nu of them) share steps and stay within 2^nu per link. */
static void test_interleaved_concurrent(void **state)
{
    (void)state;
    Net *net = mknet("array:64");
    for (int nu = 1; nu <= 3; nu++) {
        int g = 1 << nu, k = 6 - nu;
        for (int root = 0; root < (1 << k); root++) {
            Sched *s = sched_new(net, (uint32_t)g, 64 * 8);
            for (int p = 0; p < g; p++) {
                assert_true(sched_give(s, root * g + p, (uint32_t)p, (uint32_t)p + 1));
                assert_true(blocks_st(s, 0, p, g, k, root, (uint32_t)p, (uint32_t)p + 1));
            }
            assert_int_equal(sched_nsteps(s), k);
            Sim *sim = simulate(s, nu);
            assert_true(sim_totals(sim)->max_link_load <= g);
            assert_int_equal(sim_totals(sim)->link_overloads, 0);
            assert_int_equal(sim_totals(sim)->port_conflicts, 0);
            sim_free(sim);
            sched_free(s);
        }
    }
    net_free(net);
}

static void test_bad_args(void **state)
{
    (void)state;
    Net *net = mknet("array:8");
    Sched *s = sched_new(net, 4, 64);
    assert_true(sched_give(s, 0, 0, 4));
    assert_false(blocks_st(s, 0, 0, 2, 3, 0, 0, 4)); /* member 7*2 = 14 leaves array:8 */
    assert_non_null(sched_error(s));
    sched_free(s);
    s = sched_new(net, 4, 64);
    assert_false(blocks_distribute(s, 0, 0, 1, 2, 4, 0, 4)); /* root outside the group */
    assert_non_null(sched_error(s));
    sched_free(s);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_every_root),
        cmocka_unit_test(test_distribute_parts),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_interleaved_concurrent),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
