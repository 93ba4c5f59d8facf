/* test_bounds.c — Sanders & Sibeyn's lower bounds (4), (5), (6) under postal never exceed a
 * simulated cost: every built-in of the paper (chain, bintree, fractional r = 1..5, the
 * simplex versions, bintree-direct and fractional-direct under simplex ports) on full:P for
 * P in 2..160, several packet counts, two startup costs.  And the erratum: (6) as printed exceeds the chain's cost on 2 PUs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/bounds.h"
#include "../../src/engine/sim.h"
#include "sanders-args.h"

static double simulate(const char *name, const Net *net, int r, int s, uint64_t bytes,
                       const CostParams *p)
{
    char err[256];
    const AlgoDef *d = algo_find(name, net);
    assert_non_null(d);
    AlgoArgs a;
    sanders_args_rs(&a, d, r, s);
    a.bytes = bytes;
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s: %s", name, err);
    Sim *sim = sim_run(sc, p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    if (!t->verified || !t->valid)
        fail_msg("%s on %s: verified %d valid %d", name, net_spec(net), t->verified, t->valid);
    double c = t->cost.total;
    sim_free(sim);
    sched_free(sc);
    return c;
}

static void test_bounds_hold(void **state)
{
    (void)state;
    const char *dup[] = { "chain", "bintree", "fractional" };
    const int ss[] = { 1, 3, 8, 32 };
    const double ts[] = { 1, 200 };
    int checked = 0;
    for (int P = 2; P <= 160; P += (P < 40 ? 1 : 7)) {
        char spec[32], err[128];
        snprintf(spec, sizeof spec, "full:%d", P);
        Net *net = net_parse(spec, err, sizeof err);
        assert_non_null(net);
        for (int ti = 0; ti < 2; ti++)
            for (int si = 0; si < 4; si++)
                for (int duplex = 1; duplex >= 0; duplex--) {
                    CostParams p;
                    cost_defaults(&p, COST_POSTAL);
                    p.t = ts[ti];
                    p.duplex = duplex;
                    uint64_t bytes = 4096;
                    PostalBounds lb;
                    assert_true(bounds_postal(P, bytes, &p, &lb));
                    assert_true(lb.packets <= lb.packets_paper);
                    double best = bounds_postal_best(&lb, &p);
                    for (int k = 0; k < 3; k++)
                        for (int r = 1; r <= (k == 2 ? 5 : 1); r++) {
                            char name[40];
                            snprintf(name, sizeof name, "%s%s", dup[k],
                                     duplex || k == 0 ? "" : "-simplex");
                            if (!duplex && k == 0)
                                continue;   /* the chain is duplex */
                            double c = simulate(name, net, k == 2 ? r : 0, ss[si], bytes, &p);
                            if (c < best * (1 - 1e-12))
                                fail_msg("%s r=%d s=%d on %s t=%g %s: cost %.9g < bound "
                                         "%.9g", name, r, ss[si], spec, p.t,
                                         duplex ? "duplex" : "simplex", c, best);
                            checked++;
                        }
                    if (!duplex) {   /* the direct simplex binary tree too */
                        double c = simulate("bintree-direct", net, 0, ss[si], bytes, &p);
                        if (c < best * (1 - 1e-12))
                            fail_msg("bintree-direct s=%d on %s t=%g: cost %.9g < bound %.9g",
                                     ss[si], spec, p.t, c, best);
                        checked++;
                        for (int r = 2; r <= 5; r += 3) {   /* and the fractional one */
                            c = simulate("fractional-direct", net, r, ss[si], bytes, &p);
                            if (c < best * (1 - 1e-12))
                                fail_msg("fractional-direct r=%d s=%d on %s t=%g: cost %.9g < "
                                         "bound %.9g", r, ss[si], spec, p.t, c, best);
                            checked++;
                        }
                    }
                }
        net_free(net);
    }
    assert_true(checked > 5000);
}

/* (6) as printed, k(1 + sqrt(t log P / k))^2, is above what the chain costs on 2 PUs with one
 * packet (t + k): its own argument (s - 1 + log P steps) gives k(1 + sqrt(t (log P - 1)/k))^2. */
static void test_eq6_erratum(void **state)
{
    (void)state;
    char err[128];
    Net *net = net_parse("full:2", err, sizeof err);
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    double c = simulate("chain", net, 0, 1, 1024, &p);
    assert_float_equal(c, 1025, 1e-9);
    PostalBounds lb;
    assert_true(bounds_postal(2, 1024, &p, &lb));
    assert_true(lb.packets_paper > c);          /* 1024 (1 + 1/32)^2 = 1089 */
    assert_float_equal(lb.packets_paper, 1089, 1e-9);
    assert_true(lb.packets <= c);
    assert_float_equal(lb.duplex, 1025, 1e-9);  /* (4) is tight here */
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eq6_erratum),
        cmocka_unit_test(test_bounds_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
