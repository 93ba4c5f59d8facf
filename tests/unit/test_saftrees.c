/* test_saftrees.c — `saf-trees`, the store-and-forward row of Peters & Syska's Table 1: four
 * spanning trees rooted at the source, pairwise arc-disjoint, every transfer one hop, the
 * quarters pipelined in packets.  On every X x Y torus from 3x3 to 32x32 (every source up to
 * 6x6, one elsewhere): read back from the schedule (B=0: chunk q is quarter q), every node
 * but the source receives each quarter exactly once over one hop, no arc carries two transfers
 * in the whole schedule (so the trees are arc-disjoint), every tree is X + Y - 1 levels deep;
 * the simulator finds it verified and valid (all-port, max arc load 1, no shared arc); the
 * prediction equals the simulated cost under lockstep and async for several L, B and cost
 * constants; Proposition 1's bound is never above the cost; B=auto's L*tau count tends to 1/4;
 * the torus it does not run on is refused with why. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/circuit-bounds.h"
#include "../../src/engine/circuit.h"
#include "../../src/engine/sim.h"
#include "../../src/engine/sim-async.h"
#include "mknet.h"

static Sched *build(const Net *net, int32_t source, uint64_t L, const char *B,
                    const CostParams *p, AlgoArgs *a)
{
    char err[256];
    const AlgoDef *d = algo_find("saf-trees", net);
    assert_non_null(d);
    algo_args_init(a, d);
    a->source = source;
    a->bytes = L;
    a->cost = *p;
    if (algo_args_set(a, d, "B", B, err, sizeof err) != 0)
        fail_msg("%s", err);
    Sched *s = algo_build(d, net, a, err, sizeof err);
    if (!s)
        fail_msg("saf-trees on %s from %d: %s", net_spec(net), (int)source, err);
    return s;
}

/* The trees as the schedule holds them (one packet per quarter). */
static void check_trees(const Net *net, int32_t source)
{
    CostParams p;
    cost_defaults(&p, COST_CIRCUIT);
    AlgoArgs a;
    Sched *s = build(net, source, 4096, "0", &p, &a);
    int32_t n = net_size(net);
    int64_t depth_want = (int64_t)net_dim(net, 0) + net_dim(net, 1) - 1;
    assert_int_equal(sched_nchunks(s), 4);
    assert_int_equal(sched_nsteps(s), depth_want);
    uint8_t *got = calloc((size_t)n, 1);                      /* bit q: quarter q received */
    uint8_t *arc = calloc((size_t)net_nlinks(net), 1);
    int64_t depth[4] = { 0, 0, 0, 0 }, narcs = 0;
    assert_true(got && arc);
    got[source] = 15;
    for (int32_t st = 0; st < sched_nsteps(s); st++) {
        uint8_t before[4096];   /* who held what when the step began (n <= 32 * 32 here) */
        assert_true(n <= 4096);
        memcpy(before, got, (size_t)n);
        for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            assert_int_equal(t.len, 1);
            assert_int_equal(t.nranges, 1);
            assert_int_equal(t.ranges[0].hi - t.ranges[0].lo, 1);
            int q = (int)t.ranges[0].lo;
            if (!((before[t.src] >> q) & 1))
                fail_msg("%s from %d: step %d, %d sends quarter %d it lacks", net_spec(net),
                         (int)source, (int)st, (int)t.src, q);
            if ((got[t.dst] >> q) & 1)
                fail_msg("%s from %d: %d gets quarter %d twice", net_spec(net), (int)source,
                         (int)t.dst, q);
            got[t.dst] |= (uint8_t)(1u << q);
            int64_t l = net_link(net, t.src, t.seg[0].dim, t.seg[0].dir);
            if (arc[l]++)
                fail_msg("%s from %d: arc %lld in two trees", net_spec(net), (int)source,
                         (long long)l);
            narcs++;
            if (st + 1 > depth[q])
                depth[q] = st + 1;
        }
    }
    for (int32_t v = 0; v < n; v++)
        assert_int_equal(got[v], 15);
    assert_int_equal(narcs, 4 * (int64_t)(n - 1));   /* every in-arc but the source's four */
    for (int q = 0; q < 4; q++)
        assert_int_equal(depth[q], depth_want);
    int64_t shared;
    int32_t s1, s2;
    bool oom = false;
    assert_false(circuit_tree_shared(s, &shared, &s1, &s2, &oom));
    assert_false(oom);
    free(got);
    free(arc);
    sched_free(s);
}

/* Simulated under both timings = predicted; valid; the bound under the cost.  Returns the
 * L*tau count (lockstep). */
static double check_cost(const Net *net, int32_t source, uint64_t L, const char *B,
                         const double par[3])
{
    char err[256];
    CostParams p;
    cost_defaults(&p, COST_CIRCUIT);
    p.alpha = par[0], p.delta = par[1], p.tau = par[2];
    AlgoArgs a;
    Sched *s = build(net, source, L, B, &p, &a);
    const AlgoDef *d = algo_find("saf-trees", net);
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    if (!t->verified || !t->valid || t->max_link_load > 1 || t->port_conflicts)
        fail_msg("%s L=%llu B=%s: verified %d valid %d max arc load %d port conflicts %lld",
                 net_spec(net), (unsigned long long)L, B, t->verified, t->valid,
                 (int)t->max_link_load, (long long)t->port_conflicts);
    uint32_t P = sched_nchunks(s) / 4;
    assert_int_equal(t->phases, net_dim(net, 0) + net_dim(net, 1) - 2 + (int32_t)P);
    assert_int_equal(t->switch_hops, t->phases);   /* d = 1 */
    double pred, got = t->cost.total;
    a.async = false;
    assert_true(algo_predict(d, net, &a, &p, &pred));
    if (fabs(pred - got) > 1e-9 * got)
        fail_msg("%s lockstep L=%llu B=%s: simulated %.6f, predicted %.6f", net_spec(net),
                 (unsigned long long)L, B, got, pred);
    CircuitBounds bd;
    assert_true(bounds_circuit(net, &p, L, &bd));
    assert_true(bd.total <= got + 1e-9);
    double ltau = (double)t->phase_bytes / (double)L;
    SimAsync *as = sim_async_run(s, &p, 0, err, sizeof err);
    assert_non_null(as);
    got = sim_async_total(as);
    a.async = true;
    assert_true(algo_predict(d, net, &a, &p, &pred));
    if (fabs(pred - got) > 1e-9 * got)
        fail_msg("%s async L=%llu B=%s: simulated %.6f, predicted %.6f", net_spec(net),
                 (unsigned long long)L, B, got, pred);
    assert_true(bd.total <= got + 1e-9);
    sim_async_free(as);
    sim_free(sim);
    sched_free(s);
    return ltau;
}

/* every torus 3x3 .. 32x32: the trees, from every source up to 6x6, from one elsewhere */
static void test_trees(void **state)
{
    (void)state;
    for (int x = 3; x <= 32; x++)
        for (int y = 3; y <= 32; y++) {
            char spec[32];
            snprintf(spec, sizeof spec, "torus:%dx%d", x, y);
            Net *net = mknet(spec);
            int32_t n = net_size(net);
            if (x <= 6 && y <= 6)
                for (int32_t v = 0; v < n; v++)
                    check_trees(net, v);
            else   /* one source each, a different one from torus to torus */
                check_trees(net, (int32_t)((x * 37 + y * 11) % n));
            net_free(net);
        }
}

static const double pars[][3] = { { 1, 0, 1 }, { 50, 3, 1 }, { 65, 10, 0.425 } };

/* simulated = predicted, both timings: several tori, sources, L, B, constants */
static void test_cost(void **state)
{
    (void)state;
    static const char *const nets[] = { "torus:3x3", "torus:4x7", "torus:8x8", "torus:9x5",
                                        "torus:25x25", "torus:17x32" };
    static const uint64_t Ls[] = { 1000, 4097, 333 };
    static const char *const Bs[] = { "auto", "0", "7", "100" };
    for (int ni = 0; ni < 6; ni++) {
        Net *net = mknet(nets[ni]);
        for (int pi = 0; pi < (ni < 4 ? 3 : 1); pi++)
            for (int li = 0; li < 3; li++)
                for (int bi = 0; bi < 4; bi++)
                    check_cost(net, (int32_t)(li * 7 + bi) % net_size(net), Ls[li], Bs[bi],
                               pars[pi]);
        net_free(net);
    }
}

/* Table 1's L tau / 4: with B=auto the L*tau count falls towards 1/4 as L grows */
static void test_quarter(void **state)
{
    (void)state;
    static const char *const nets[] = { "torus:5x5", "torus:9x9" };
    static const uint64_t Lmax[] = { 1024 * 1024, 64 * 1024 };
    static const double near[] = { 0.252, 0.27 };
    for (int ni = 0; ni < 2; ni++) {
        Net *net = mknet(nets[ni]);
        double prev = 1e9;
        for (uint64_t L = 1024; L <= Lmax[ni]; L *= 4) {
            double c = check_cost(net, 0, L, "auto", pars[0]);
            assert_true(c >= 0.25 && c < prev);
            prev = c;
        }
        if (prev >= near[ni])
            fail_msg("%s: L*tau count %g with B=auto", nets[ni], prev);
        net_free(net);
    }
}

static void test_refused(void **state)
{
    (void)state;
    static const char *const bad[] = { "torus:2x5", "torus:5x2", "ring:9", "mesh:5x5",
                                       "torus:3x3x3" };
    for (int i = 0; i < 5; i++) {
        Net *net = mknet(bad[i]);
        const AlgoDef *d = algo_find("saf-trees", net);
        if (strncmp(bad[i], "torus", 5) == 0)
            assert_non_null(d);   /* a torus: found, then refused by fits */
        if (d) {
            char err[256] = "";
            AlgoArgs a;
            algo_args_init(&a, d);
            Sched *s = algo_build(d, net, &a, err, sizeof err);
            assert_null(s);
            assert_non_null(strstr(err, "X, Y >= 3"));
        }
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trees),
        cmocka_unit_test(test_cost),
        cmocka_unit_test(test_quarter),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
