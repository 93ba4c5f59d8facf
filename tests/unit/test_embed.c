/* test_embed.c — Section 4's mesh embedding (`fractional-htree`, embed.c over gtree.c): for
 * every mesh the construction covers up to 16 x 32 (r1 x r2 groups in a power-of-two grid),
 * r in 1..8 and every r1 that fits, from corner and inner sources: verified, valid under the
 * duplex postal model, simulated = predicted, the steps d + (r+1)floor((s-1)/r) + (s-1) mod r
 * + 1 with d = 2r - 2 + (log2 G - 1)(r+1) recomputed here, every hop inside a group one link
 * (the snake), and the link load measured: at most 2 everywhere, and 2 on Fig. 4's 8 x 16 with
 * r = 2 (the paper says one; docs/errata.md).  gtree.c refuses malformed trees. */
#include <math.h>
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

static void setp(AlgoArgs *a, const AlgoDef *d, const char *k, int v)
{
    char err[256], buf[32];
    snprintf(buf, sizeof buf, "%d", v);
    if (algo_args_set(a, d, k, buf, err, sizeof err) != 0)
        fail_msg("%s=%d: %s", k, v, err);
}

/* Run one case; returns the max link load. */
static int run_case(const Net *net, int r, int r1, int s, int32_t src)
{
    const AlgoDef *d = algo_find("fractional-htree", net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    setp(&a, d, "r", r);
    setp(&a, d, "s", s);
    setp(&a, d, "r1", r1);
    a.source = src;
    a.bytes = (uint64_t)s * 8;
    cost_defaults(&a.cost, COST_POSTAL);
    char err[256];
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s r=%d r1=%d s=%d src=%d: %s", net_spec(net), r, r1, s, (int)src, err);
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    if (!t->verified || !t->valid)
        fail_msg("%s r=%d r1=%d s=%d src=%d: verified %d valid %d", net_spec(net), r, r1, s,
                 (int)src, t->verified, t->valid);
    /* steps, from the grid of groups */
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1), r2 = r / r1;
    int64_t G = (int64_t)(rows / r1) * (cols / r2), n = 0;
    while ((INT64_C(1) << n) < G)
        n++;
    int64_t dd = 2 * r - 2 + (n - 1) * (r + 1);
    int64_t want = dd == 0 ? s : dd + (r + 1) * ((s - 1) / r) + (s - 1) % r + 1;
    if (t->nsteps != want)
        fail_msg("%s r=%d r1=%d s=%d: %d steps, want %lld", net_spec(net), r, r1, s,
                 (int)t->nsteps, (long long)want);
    assert_int_equal(sanders_embed_depth(d, net, &a), dd);
    double pred;
    assert_true(algo_predict(d, net, &a, &p, &pred));
    assert_float_equal(pred, (double)want * (p.t + p.beta * 8.0), 1e-9 * pred);
    assert_float_equal(t->cost.total, pred, 1e-9 * pred);
    /* inside a group (outside the source's, which may be rotated) every hop is one link */
    int32_t sg = (src / cols / r1) * (cols / r2) + (src % cols) / r2;
    for (int32_t st = 0; st < sched_nsteps(sc); st++)
        for (int64_t i = 0; i < sched_ntransfers(sc, st); i++) {
            SchedTransfer x;
            sched_transfer(sc, st, i, &x);
            assert_true(x.explicit_route);
            int32_t gs = (x.src / cols / r1) * (cols / r2) + (x.src % cols) / r2;
            int32_t gd = (x.dst / cols / r1) * (cols / r2) + (x.dst % cols) / r2;
            if (gs == gd && gs != sg && x.len != 1)
                fail_msg("%s r=%d r1=%d: hop %d -> %d inside a group is %lld links",
                         net_spec(net), r, r1, (int)x.src, (int)x.dst, (long long)x.len);
        }
    int load = (int)t->max_link_load;
    sim_free(sim);
    sched_free(sc);
    return load;
}

static void test_sweep(void **state)
{
    (void)state;
    const int rr[] = { 1, 2, 4, 8, 16 }, cc[] = { 1, 2, 4, 8, 16, 32 };
    int cases = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 6; j++) {
            char spec[32];
            if (rr[i] * cc[j] < 2)
                continue;
            snprintf(spec, sizeof spec, "mesh:%dx%d", rr[i], cc[j]);
            Net *net = mknet(spec);
            int32_t N = net_size(net);
            for (int r = 1; r <= 8; r++)
                for (int r1 = 1; r1 <= r; r1++) {
                    int r2 = r / r1;
                    if (r % r1 || rr[i] % r1 || cc[j] % r2 || rr[i] / r1 * (cc[j] / r2) < 2 ||
                        algo_log2(rr[i] / r1) < 0 || algo_log2(cc[j] / r2) < 0)
                        continue;
                    int32_t srcs[] = { 0, N - 1, (rr[i] / 2) * cc[j] + cc[j] / 2 };
                    for (int k = 0; k < 3; k++) {
                        int load = run_case(net, r, r1, 2 * r, srcs[k]);
                        if (load > 2)
                            fail_msg("%s r=%d r1=%d src=%d: link load %d", spec, r, r1,
                                     (int)srcs[k], load);
                        cases++;
                    }
                    run_case(net, r, r1, r + 3, 0);   /* s not a multiple of r */
                }
            net_free(net);
        }
    assert_true(cases > 300);
}

/* Fig. 4: r = 2 on 8 x 16.  Measured: link load 2 (the paper: edge congestion one); the
 * node-order embedding of `fractional` loads a link 9 times. */
static void test_fig4(void **state)
{
    (void)state;
    Net *net = mknet("mesh:8x16");
    assert_int_equal(run_case(net, 2, 1, 8, 0), 2);
    assert_int_equal(run_case(net, 2, 2, 8, 0), 2);
    assert_int_equal(run_case(net, 1, 1, 8, 0), 1);   /* the binary tree of PUs: one */
    const AlgoDef *d = algo_find("fractional", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    setp(&a, d, "r", 2);
    setp(&a, d, "s", 8);
    char err[256];
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_int_equal(sim_totals(sim)->max_link_load, 9);
    sim_free(sim);
    sched_free(sc);
    net_free(net);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:8x12", "mesh:6x8", "mesh:2x3" };
    char err[256];
    for (int i = 0; i < 3; i++) {
        Net *net = mknet(nets[i]);
        const AlgoDef *d = algo_find("fractional-htree", net);
        AlgoArgs a;
        algo_args_init(&a, d);
        err[0] = 0;
        assert_false(algo_check(d, net, &a, err, sizeof err));
        assert_non_null(strstr(err, "fractional-htree"));
        net_free(net);
    }
    Net *net = mknet("mesh:8x16");
    const AlgoDef *d = algo_find("fractional-htree", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    setp(&a, d, "r1", 3);
    assert_false(algo_check(d, net, &a, err, sizeof err));
    assert_non_null(strstr(err, "r1=3"));
    net_free(net);
    net = mknet("torus:8x16");
    assert_null(algo_find("fractional-htree", net));
    net_free(net);
}

/* gtree.c: a group reached twice, a short group with a child, an unreached group. */
static void test_gtree_malformed(void **state)
{
    (void)state;
    char err[256];
    int64_t d;
    int32_t mem[6] = { 0, 1, 2, 3, 4, 5 };
    int32_t down[3] = { 1, 2, -1 }, right[3] = { 2, -1, -1 };
    SandersGTree t = { .r = 2, .ngroups = 3, .member = mem, .down = down, .right = right,
                       .root = 0 };
    assert_false(sanders_gtree_depth(&t, 6, &d, err, sizeof err));
    assert_non_null(strstr(err, "reached twice"));
    right[0] = -1;
    down[1] = -1;
    assert_false(sanders_gtree_depth(&t, 6, &d, err, sizeof err));
    assert_non_null(strstr(err, "not reached"));
    right[0] = 2;
    mem[3] = -1;
    down[1] = 2;
    right[0] = -1;
    assert_false(sanders_gtree_depth(&t, 6, &d, err, sizeof err));
    assert_non_null(strstr(err, "members and a child"));
    mem[3] = 3;
    assert_true(sanders_gtree_depth(&t, 6, &d, err, sizeof err));
    assert_int_equal(d, -1 + 2 + 2 + 1);   /* chain of three groups of two: 0,1 | 2,3 | 4,5 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_fig4),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_gtree_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
