/* test_pipeline.c — dc and htree pipelined with packets that do not divide the message
 * (B=auto and explicit B, L not a multiple of the packet count): the prediction
 * (pipeline.h: the paper's T(B) as a flow shop over packets of sched's unequal sizes under
 * --timing async, each step's costliest circuit under lockstep) equals the
 * simulated time, both timings, several k, L, B and cost constants; and with equal packets
 * the flow shop is the paper's T(B) formula itself. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/algos/peters/pipeline.h"
#include "../../src/engine/sim.h"
#include "../../src/engine/sim-async.h"

static void check(const char *algo, const char *spec, uint64_t L, const char *B,
                  const double par[3], int *uneven)
{
    char err[256];
    Net *n = net_parse(spec, err, sizeof err);
    assert_non_null(n);
    const AlgoDef *d = algo_find(algo, n);
    assert_non_null(d);
    CostParams p;
    cost_defaults(&p, COST_CIRCUIT);
    p.alpha = par[0], p.delta = par[1], p.tau = par[2];
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = 1;
    a.bytes = L;
    a.cost = p;
    if (algo_args_set(&a, d, "B", B, err, sizeof err) != 0)
        fail_msg("%s", err);
    Sched *s = algo_build(d, n, &a, err, sizeof err);
    if (!s)
        fail_msg("%s on %s: %s", algo, spec, err);
    uint32_t nc = sched_nchunks(s);
    *uneven += L % nc != 0;
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    assert_non_null(sim);
    assert_true(sim_totals(sim)->valid);
    double pred, got = sim_totals(sim)->cost.total;
    /* htree on 3x3 with X and Y one packet each: Fig. 9's two phases of one hop, each as long
     * as the bigger half (ceil(L/2) bytes), not T(B)'s three (docs/errata.md) */
    bool fig9 = strcmp(algo, "htree") == 0 && net_dim(n, 0) == 3 && nc == 2;
    a.async = false;
    assert_true(algo_predict(d, n, &a, &p, &pred));
    if (fig9)
        pred = 2 * (p.alpha + p.delta + (double)((L + 1) / 2) * p.tau);
    if (fabs(pred - got) > 1e-9 * got)
        fail_msg("%s lockstep on %s L=%llu B=%s (%u chunks): simulated %.6f, predicted %.6f",
                 algo, spec, (unsigned long long)L, B, nc, got, pred);
    SimAsync *as = sim_async_run(s, &p, 0, err, sizeof err);
    assert_non_null(as);
    got = sim_async_total(as);
    a.async = true;
    assert_true(algo_predict(d, n, &a, &p, &pred));
    if (fig9)
        pred = 2 * (p.alpha + p.delta + (double)((L + 1) / 2) * p.tau);
    if (fabs(pred - got) > 1e-9 * got)
        fail_msg("%s async on %s L=%llu B=%s (%u chunks): simulated %.6f, predicted %.6f",
                 algo, spec, (unsigned long long)L, B, nc, got, pred);
    sim_async_free(as);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static const double pars[][3] = { { 50, 3, 1 }, { 1, 0, 1 }, { 65, 10, 0.425 } };
static const uint64_t Ls[] = { 1000, 4097, 10007, 333 };
static const char *const Bs[] = { "auto", "7", "100", "999" };

static void test_dc_uneven(void **state)
{
    (void)state;
    int uneven = 0;
    static const char *const nets[] = { "torus:4x4", "torus:8x8", "torus:16x16" };
    for (int ni = 0; ni < 3; ni++)
        for (int pi = 0; pi < 3; pi++)
            for (int li = 0; li < 4; li++)
                for (int bi = 0; bi < 4; bi++)
                    check("dc", nets[ni], Ls[li], Bs[bi], pars[pi], &uneven);
    assert_true(uneven > 50);   /* most of them: packets of two sizes */
}

/* htree for k = 2, 3 (from k = 4 the last phase has circuits of two hops the paper does not:
 * docs/errata.md); on 3x3 the one-packet runs are Fig. 9's two phases */
static void test_htree_uneven(void **state)
{
    (void)state;
    int uneven = 0;
    static const char *const nets[] = { "torus:3x3", "torus:7x7" };
    for (int ni = 0; ni < 2; ni++)
        for (int pi = 0; pi < 3; pi++)
            for (int li = 0; li < 4; li++)
                for (int bi = 0; bi < 4; bi++)
                    check("htree", nets[ni], Ls[li], Bs[bi], pars[pi], &uneven);
    assert_true(uneven > 30);
}

/* equal packets: the flow shop is T(B) = sum_i (alpha + d_i delta + B tau) + (P-1) max_i */
static void test_flow_shop_is_TB(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_CIRCUIT);
    p.alpha = 65, p.delta = 10, p.tau = 0.5;
    for (int k = 2; k <= 8; k++) {
        int64_t d[16];
        for (int i = 1; i <= k; i++)
            d[i - 1] = i < k ? (INT64_C(1) << (k - i)) : 2;
        for (uint32_t P = 1; P <= 64; P *= 4) {
            uint64_t B = 96, L = B * P;
            double want = k * p.alpha + ldexp(1, k) * p.delta + k * (double)B * p.tau +
                          (P - 1) * (p.alpha + ldexp(1, k - 1) * p.delta + (double)B * p.tau);
            assert_true(fabs(peters_pipe_time(&p, true, d, k, L, P, 1) - want) <= 1e-9 * want);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dc_uneven),
        cmocka_unit_test(test_htree_uneven),
        cmocka_unit_test(test_flow_shop_is_TB),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
