/* test_algos_array.c — Seidel's linear-array algorithms through the real table: st (eqs. 1,
 * 2), bst (eqs. 7, 8), rh (Table I): verified, contention as the paper states, simulated cost
 * equal to the closed form, every source (Section 4). */
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

typedef struct {
    Sched *s;
    Sim *sim;
    double predicted;
    bool has_pred;
} Run;

/* Build and simulate name on net; fails the test if the build fails. */
static Run run(const char *name, const Net *net, int32_t source, uint64_t bytes, int nu)
{
    Run r = {0};
    char err[256];
    const AlgoDef *d = algo_find(name, net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = source;
    a.bytes = bytes;
    a.nu = nu;
    r.s = algo_build(d, net, &a, err, sizeof err);
    if (!r.s)
        fail_msg("%s on %s nu=%d: %s", name, net_spec(net), nu, err);
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    p.nu = nu;
    r.sim = sim_run(r.s, &p, 0, err, sizeof err);
    if (!r.sim)
        fail_msg("sim_run: %s", err);
    r.has_pred = algo_predict(d, net, &a, &p, &r.predicted);
    return r;
}

static void done(Run *r)
{
    sim_free(r->sim);
    sched_free(r->s);
}

static void assert_close(double got, double want, const char *what)
{
    if (fabs(got - want) > 1e-9 * fabs(want) + 1e-9)
        fail_msg("%s: simulated %.9g, closed form %.9g", what, got, want);
}

static const uint64_t sizes[] = {8, 1024, 65536};

/* st and bst on array:2^1 .. 2^10, nu 0..3 (nu < d): verified, valid, max link load <= 2^nu,
 * no overload, no port conflict, simulated == eq. 1/2 (st) and eq. 7/8 (bst). */
static void sweep_tree(const char *name, uint32_t chunks_per_nu)
{
    for (int d = 1; d <= 10; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", 1 << d);
        Net *net = mknet(spec);
        for (int nu = 0; nu <= 3 && (nu == 0 || nu < d); nu++) {
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                if (sizes[i] % ((uint64_t)chunks_per_nu << nu) != 0)
                    continue;
                Run r = run(name, net, 0, sizes[i], nu);
                const SimTotals *t = sim_totals(r.sim);
                char what[96];
                snprintf(what, sizeof what, "%s %s nu=%d m=%llu", name, spec, nu,
                         (unsigned long long)sizes[i]);
                if (!t->verified || !t->valid)
                    fail_msg("%s: not verified/valid", what);
                assert_true(t->max_link_load <= (1 << nu));
                assert_int_equal(t->link_overloads, 0);
                assert_int_equal(t->port_conflicts, 0);
                assert_true(r.has_pred);
                assert_close(t->cost.total, r.predicted, what);
                /* steps: st d+nu, bst d+nu+1 */
                assert_int_equal(t->nsteps, d + nu + (strcmp(name, "bst") == 0));
                done(&r);
            }
        }
        net_free(net);
    }
}

static void test_st_sweep(void **state)
{
    (void)state;
    sweep_tree("st", 1);
}

static void test_bst_sweep(void **state)
{
    (void)state;
    sweep_tree("bst", 2);
}

/* rh: verified; exchange step j has 2^(d-1-j) circuits on its busiest link (the paper's
 * "2^(d-1) messages contend for the link from node 2^(d-1)-1 to node 2^(d-1)"), links are
 * overloaded exactly on the steps where that exceeds 2^nu; simulated == Table I. */
static void test_rh_sweep(void **state)
{
    (void)state;
    for (int d = 1; d <= 10; d++) {
        int n = 1 << d;
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", n);
        Net *net = mknet(spec);
        for (int nu = 0; nu <= 3 && (nu == 0 || nu < d); nu++) {
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                if (sizes[i] % (uint64_t)n != 0)
                    continue;
                Run r = run("rh", net, 0, sizes[i], nu);
                const SimTotals *t = sim_totals(r.sim);
                char what[96];
                snprintf(what, sizeof what, "rh %s nu=%d m=%llu", spec, nu,
                         (unsigned long long)sizes[i]);
                if (!t->verified)
                    fail_msg("%s: not verified", what);
                assert_int_equal(t->nsteps, 2 * d + 1);
                assert_int_equal(t->port_conflicts, 0);
                for (int s = 0; s <= d; s++)      /* permute and distribute: no contention */
                    assert_true(sim_step(r.sim, s)->max_link_load <= 1);
                for (int j = 0; j < d; j++) {
                    const SimStep *st = sim_step(r.sim, 1 + d + j);
                    int e = d - 1 - j;
                    assert_int_equal(st->max_link_load, 1 << e);
                    assert_int_equal(st->link_overloads > 0, e > nu);
                }
                assert_true(r.has_pred);
                assert_close(t->cost.total, r.predicted, what);
                done(&r);
            }
        }
        net_free(net);
    }
}

/* Section 4: every source of array:16 and array:32, nu 0..3 (< d): verified, no contention
 * (st, bst), the same cost as from node 0. */
static void test_every_source(void **state)
{
    (void)state;
    const char *names[] = {"st", "bst", "rh"};
    for (int d = 4; d <= 5; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", 1 << d);
        Net *net = mknet(spec);
        for (size_t a = 0; a < 3; a++) {
            for (int nu = 0; nu <= 3; nu++) {
                Run r0 = run(names[a], net, 0, 4096, nu);
                double c0 = sim_totals(r0.sim)->cost.total;
                for (int32_t k = 0; k < (1 << d); k++) {
                    Run r = run(names[a], net, k, 4096, nu);
                    const SimTotals *t = sim_totals(r.sim);
                    char what[96];
                    snprintf(what, sizeof what, "%s %s nu=%d source %d", names[a], spec, nu,
                             (int)k);
                    if (!t->verified)
                        fail_msg("%s: not verified", what);
                    if (a < 2 && (t->link_overloads || t->port_conflicts))
                        fail_msg("%s: contention (%lld overloads, %lld port conflicts)", what,
                                 (long long)t->link_overloads, (long long)t->port_conflicts);
                    assert_close(t->cost.total, c0, what);
                    assert_close(t->cost.total, r.predicted, what);
                    done(&r);
                }
                done(&r0);
            }
        }
        net_free(net);
    }
}

/* Table I assumes nu < d: anything else is refused with a one-line message. */
static void test_refusals(void **state)
{
    (void)state;
    Net *net = mknet("array:4");
    const char *names[] = {"st", "bst", "rh"};
    for (size_t i = 0; i < 3; i++) {
        const AlgoDef *d = algo_find(names[i], net);
        assert_non_null(d);
        AlgoArgs a;
        algo_args_init(&a, d);
        a.nu = 9;
        char err[256] = "";
        assert_null(algo_build(d, net, &a, err, sizeof err));
        char want[96];
        snprintf(want, sizeof want, "%s on array:4 needs nu < 2 (got nu=9)", names[i]);
        assert_string_equal(err, want);
        assert_null(strchr(err, '\n'));
    }
    net_free(net);
}

/* The TUI shows step labels; the phases are named. */
static void test_labels(void **state)
{
    (void)state;
    Net *net = mknet("array:16");
    Run r = run("st", net, 0, 1024, 1);
    assert_string_equal(sched_step_label(r.s, 0), "distribute");
    assert_string_equal(sched_step_label(r.s, 1), "ST in subarrays");
    assert_string_equal(sched_step_label(r.s, 4), "exchange");
    done(&r);
    r = run("rh", net, 3, 1024, 0);
    assert_string_equal(sched_step_label(r.s, 0), "permute (source)");
    assert_string_equal(sched_step_label(r.s, 1), "distribute");
    assert_string_equal(sched_step_label(r.s, 5), "exchange (contention 8)");
    done(&r);
    r = run("bst", net, 0, 1024, 0);
    assert_string_equal(sched_step_label(r.s, 0), "BST: halve");
    assert_string_equal(sched_step_label(r.s, 4), "BST: pair exchange");
    done(&r);
    net_free(net);
}

/* Predictions: none when the model's nu differs from the structural nu (st, bst), none for
 * other models. */
static void test_predict_scope(void **state)
{
    (void)state;
    Net *net = mknet("array:16");
    const AlgoDef *d = algo_find("st", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.nu = 1;
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    double v;
    p.nu = 0;
    assert_false(algo_predict(d, net, &a, &p, &v));
    p.nu = 1;
    assert_true(algo_predict(d, net, &a, &p, &v));
    cost_defaults(&p, COST_POSTAL);
    assert_false(algo_predict(d, net, &a, &p, &v));
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_sweep),     cmocka_unit_test(test_bst_sweep),
        cmocka_unit_test(test_rh_sweep),     cmocka_unit_test(test_every_source),
        cmocka_unit_test(test_refusals),     cmocka_unit_test(test_labels),
        cmocka_unit_test(test_predict_scope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
