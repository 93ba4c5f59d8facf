/* test_chain.c — the pipelined chain on every kind of net and any size, several packet
 * counts, every source: verified, one circuit per link, one send and one receive per node and
 * step, n-2+s steps, and (n-2+s)(am/s+b) under seidel, (n-2+s)(t+beta m/s) under postal. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sim.h"
#include "mknet.h"

/* One chain broadcast under model m; checks everything; returns the simulated cost. */
static void check(const Net *net, int32_t source, int s, uint64_t bytes, CostModel model)
{
    char err[256], spec[128];
    snprintf(spec, sizeof spec, "chain on %s source %d s=%d m=%llu model %s", net_spec(net),
             (int)source, s, (unsigned long long)bytes, cost_model_name(model));
    const AlgoDef *d = algo_find("chain", net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    char val[32];
    snprintf(val, sizeof val, "%d", s);
    assert_int_equal(algo_args_set(&a, d, "s", val, err, sizeof err), 0);
    a.source = source;
    a.bytes = bytes;
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s: %s", spec, err);
    CostParams p;
    cost_defaults(&p, model);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    int32_t n = net_size(net);
    int np = (uint64_t)s < bytes ? s : (int)bytes;
    if (!t->verified || !t->valid)
        fail_msg("%s: verified %d valid %d", spec, t->verified, t->valid);
    assert_int_equal(t->nsteps, n - 2 + np);
    assert_int_equal(t->port_conflicts, 0);
    if (t->max_link_load > 1)
        fail_msg("%s: max link load %d", spec, (int)t->max_link_load);
    double want;
    bool has = algo_predict(d, net, &a, &p, &want);
    if (bytes % (uint64_t)np == 0) {
        assert_true(has);
        double steps = n - 2 + np, L = (double)(bytes / (uint64_t)np);
        double formula = model == COST_SEIDEL ? steps * (p.a * L + p.b)
                                              : steps * (p.t + p.beta * L);
        assert_float_equal(want, formula, 1e-9 * formula);
        if (fabs(t->cost.total - want) > 1e-9 * want)
            fail_msg("%s: simulated %.9g, closed form %.9g", spec, t->cost.total, want);
    }
    sim_free(sim);
    sched_free(sc);
}

static const int packets[] = {1, 3, 8};

static void test_lines(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        for (int n = 2; n <= 40; n++) {
            char spec[32];
            snprintf(spec, sizeof spec, "%s:%d", kind ? "ring" : "array", n);
            Net *net = mknet(spec);
            for (size_t i = 0; i < 3; i++)
                for (int32_t k = 0; k < n; k += (n <= 12 ? 1 : 9))
                    check(net, k, packets[i], 240, COST_SEIDEL);
            check(net, n - 1, 8, 240, COST_POSTAL);
            net_free(net);
        }
    }
}

static void test_grids(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        for (int r = 2; r <= 6; r++) {
            for (int c = 2; c <= 7; c++) {
                char spec[32];
                snprintf(spec, sizeof spec, "%s:%dx%d", kind ? "torus" : "mesh", r, c);
                Net *net = mknet(spec);
                for (size_t i = 0; i < 3; i++)
                    for (int32_t k = 0; k < r * c; k += 1 + (r * c) / 7)
                        check(net, k, packets[i], 240, COST_SEIDEL);
                check(net, r * c / 2, 8, 240, COST_POSTAL);
                net_free(net);
            }
        }
    }
}

/* 3-D nets: the snake's closing hop shares no link either. */
static void test_3d(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++)
        for (int x = 2; x <= 5; x++)
            for (int y = 2; y <= 5; y++)
                for (int z = 2; z <= 5; z++) {
                    char spec[48];
                    snprintf(spec, sizeof spec, "%s:%dx%dx%d", kind ? "torus" : "mesh", x, y, z);
                    Net *net = mknet(spec);
                    check(net, (x * y * z) / 3, 8, 240, COST_SEIDEL);
                    net_free(net);
                }
}

/* More packets than bytes: one packet per byte. A packet count that does not divide m gets
 * no closed form. */
static void test_small_messages(void **state)
{
    (void)state;
    Net *net = mknet("array:5");
    check(net, 2, 8, 3, COST_SEIDEL);
    const AlgoDef *d = algo_find("chain", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.bytes = 1000;
    a.param[0] = 3;
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    double v;
    assert_false(algo_predict(d, net, &a, &p, &v));
    char err[128];
    /* s takes "auto" (stored as ALGO_AUTO = -1), so 0 passes the range and algo_check
     * refuses it */
    assert_int_equal(algo_args_set(&a, d, "s", "0", err, sizeof err), 0);
    assert_false(algo_check(d, net, &a, err, sizeof err));
    assert_string_equal(err, "chain: s must be at least 1 (or auto)");
    assert_int_equal(algo_args_set(&a, d, "s", "-2", err, sizeof err), -2);
    net_free(net);
    /* too big to hold: refused with one line, not built */
    net = mknet("mesh:4096x4096");
    algo_args_init(&a, d);
    a.bytes = 1 << 20;
    a.param[0] = 64;
    assert_false(algo_check(d, net, &a, err, sizeof err));
    assert_non_null(strstr(err, "transfers"));
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_grids),
        cmocka_unit_test(test_3d),
        cmocka_unit_test(test_small_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
