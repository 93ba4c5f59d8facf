/* test_ftree.c — Sanders & Sibeyn's trees on full:P: for every P in 2..300 and r in 1..8 from
 * node 0, fractional, fractional-simplex (and bintree, bintree-simplex at r = 1) are verified,
 * valid under postal (duplex; the simplex versions also under simplex ports), use every pair
 * link at most once per step, and cost what the closed form says, with the step count
 * d + (r+1)floor((s-1)/r) + (s-1) mod r + 1 recomputed here from the recurrence.  r = 1 is the
 * binary tree (the same schedule), r >= P-1 with s <= r the chain (the same schedule); the
 * layout recurrence gives the paper's P_i; other sources and the other nets verify, and there the
 * link load the simulator measures is what a naive walk along the routes counts. */
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
#include "../../src/engine/sim.h"
#include "mknet.h"

static Sched *build(const char *name, const Net *net, int r, int s, int32_t src, uint64_t bytes,
                    AlgoArgs *a, const AlgoDef **dd)
{
    char err[256], v[32];
    const AlgoDef *d = algo_find(name, net);
    assert_non_null(d);
    algo_args_init(a, d);
    if (r > 0) {
        snprintf(v, sizeof v, "%d", r);
        assert_int_equal(algo_args_set(a, d, "r", v, err, sizeof err), 0);
    }
    snprintf(v, sizeof v, "%d", s);
    assert_int_equal(algo_args_set(a, d, "s", v, err, sizeof err), 0);
    a->source = src;
    a->bytes = bytes;
    Sched *sc = algo_build(d, net, a, err, sizeof err);
    if (!sc)
        fail_msg("%s on %s r=%d s=%d: %s", name, net_spec(net), r, s, err);
    *dd = d;
    return sc;
}

/* The paper's d, from its recurrence, independently of ftree.c. */
static int64_t depth(int64_t P, int64_t r)
{
    int64_t p[4096];
    for (int64_t i = 0;; i++) {
        p[i] = i <= r ? i + 1 : r + p[i - r] + p[i - r - 1];
        if (p[i] >= P)
            return i - 1;
    }
}

static int64_t run_check(const char *name, const Net *net, int r, int s, int duplex,
                         int64_t want_steps)
{
    AlgoArgs a;
    const AlgoDef *d;
    uint64_t bytes = (uint64_t)s * 16;
    Sched *sc = build(name, net, r, s, 0, bytes, &a, &d);
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    p.duplex = duplex;
    char err[256];
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    if (!t->verified || !t->valid || t->max_link_load != 1)
        fail_msg("%s on %s r=%d s=%d duplex=%d: verified %d valid %d load %d", name,
                 net_spec(net), r, s, duplex, t->verified, t->valid, (int)t->max_link_load);
    if (want_steps >= 0 && t->nsteps != want_steps)
        fail_msg("%s on %s r=%d s=%d: %d steps, want %lld", name, net_spec(net), r, s,
                 (int)t->nsteps, (long long)want_steps);
    double pred;
    bool odd = strstr(name, "simplex") && (net_size(net) & 1) && net_size(net) > 3;
    if (odd) {   /* only the paper's bound: twice the duplex steps on ceil(P/2) */
        assert_false(algo_predict(d, net, &a, &p, &pred));
        int64_t P = net_size(net), bound = 2 * sanders_tree_steps((P + 1) / 2, r > 0 ? r : 1, s);
        if (t->nsteps > bound)
            fail_msg("%s on %s: %d steps > bound %lld", name, net_spec(net), (int)t->nsteps,
                     (long long)bound);
        int64_t n = t->nsteps;
        sim_free(sim);
        sched_free(sc);
        return n;
    }
    if (!algo_predict(d, net, &a, &p, &pred))
        fail_msg("%s on %s: no closed form", name, net_spec(net));
    double formula = t->nsteps * (p.t + p.beta * 16.0);
    assert_float_equal(pred, formula, 1e-9 * formula);
    if (fabs(t->cost.total - pred) > 1e-9 * pred)
        fail_msg("%s on %s r=%d s=%d: simulated %.9g, predicted %.9g", name, net_spec(net), r,
                 s, t->cost.total, pred);
    int64_t n = t->nsteps;
    sim_free(sim);
    sched_free(sc);
    return n;
}

static void test_sweep_duplex(void **state)
{
    (void)state;
    for (int P = 2; P <= 300; P++) {
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", P);
        Net *net = mknet(spec);
        for (int r = 1; r <= 8; r++) {
            int ss[] = { 2 * r, r + 3 };   /* a multiple of r, and (mostly) not */
            for (int k = 0; k < 2; k++) {
                int s = ss[k];
                int64_t want = P == 2 ? s   /* the root's pauses are empty */
                                      : depth(P, r) + (r + 1) * ((s - 1) / r) + (s - 1) % r + 1;
                assert_int_equal(sanders_tree_steps(P, r, s), want);
                run_check("fractional", net, r, s, 1, want);
                if (s % r == 0 && P > 2)   /* the paper's (7) counts one step more */
                    assert_int_equal(want, depth(P, r) + s + s / r - 1);
            }
        }
        net_free(net);
    }
}

static void test_sweep_simplex(void **state)
{
    (void)state;
    for (int P = 2; P <= 300; P++) {
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", P);
        Net *net = mknet(spec);
        for (int r = 1; r <= 8; r++) {
            int s = r + 1;
            int64_t n = run_check("fractional-simplex", net, r, s, 0, -1);
            /* twice the duplex steps of ceil(P/2) couples, at most */
            if (P > 2)
                assert_true(n <= 2 * sanders_tree_steps((P + 1) / 2, r, s));
        }
        net_free(net);
    }
}

/* The direct simplex binary tree (bintree-direct): for every P in 2..300 verified and valid
 * under simplex (and duplex) ports, at d + 3s - 2 steps (s for P = 2, 2s for P = 3 and 4, where
 * d <= 1 leaves steps with nobody communicating), the closed form; and against the two-substep
 * emulation (bintree-simplex): never slower once s >= 4, and with many packets it approaches
 * 3 steps per packet against the emulation's 4. */
static void test_sweep_direct(void **state)
{
    (void)state;
    for (int P = 2; P <= 300; P++) {
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", P);
        Net *net = mknet(spec);
        int64_t d = depth(P, 1);
        for (int s = 1; s <= 9; s += 4) {
            int64_t want = d <= 1 ? (d + 1) * s : d + 3 * s - 2;
            assert_int_equal(sanders_direct_steps(P, s), want);
            run_check("bintree-direct", net, 0, s, 0, want);
            run_check("bintree-direct", net, 0, s, 1, want);
            if (s >= 4) {
                int64_t em = run_check("bintree-simplex", net, 0, s, 0, -1);
                if (want > em)
                    fail_msg("P=%d s=%d: direct %lld steps > emulation %lld", P, s,
                             (long long)want, (long long)em);
            }
        }
        net_free(net);
    }
    /* many packets: 3 per packet against 4 */
    Net *net = mknet("full:64");
    int64_t a = run_check("bintree-direct", net, 0, 200, 0, -1);
    int64_t b = run_check("bintree-direct", net, 0, 100, 0, -1);
    int64_t c = run_check("bintree-simplex", net, 0, 200, 0, -1);
    int64_t e = run_check("bintree-simplex", net, 0, 100, 0, -1);
    assert_int_equal(a - b, 300);
    assert_int_equal(c - e, 400);
    net_free(net);
}

/* r = 1 is the binary tree; r >= P-1 with s <= r is the chain. */
static void test_special_cases(void **state)
{
    (void)state;
    for (int P = 2; P <= 40; P++) {
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", P);
        Net *net = mknet(spec);
        AlgoArgs a;
        const AlgoDef *d;
        Sched *f1 = build("fractional", net, 1, 6, 0, 96, &a, &d);
        Sched *b = build("bintree", net, 0, 6, 0, 96, &a, &d);
        assert_true(sched_equal(f1, b));
        sched_free(f1);
        sched_free(b);
        f1 = build("fractional-simplex", net, 1, 5, 0, 80, &a, &d);
        b = build("bintree-simplex", net, 0, 5, 0, 80, &a, &d);
        assert_true(sched_equal(f1, b));
        sched_free(f1);
        sched_free(b);
        Sched *fr = build("fractional", net, P + 3, 4, 0, 64, &a, &d);
        Sched *ch = build("chain", net, 0, 4, 0, 64, &a, &d);
        if (!sched_equal(fr, ch))
            fail_msg("fractional r=%d s=4 on %s is not the chain", P + 3, spec);
        sched_free(fr);
        sched_free(ch);
        run_check("bintree-simplex", net, 0, 3, 0, -1);
        net_free(net);
    }
}

/* The recurrence: P_i = 1 + P_{i-1} + P_{i-2} for r = 1 (1, 2, 4, 7, 12, 20: Fig. 1-a's
 * "P_5 = 18" is not what it gives, see docs/errata.md), P_i = i + 1 for i <= r. */
static void test_recurrence(void **state)
{
    (void)state;
    const int64_t bin[] = { 1, 2, 4, 7, 12, 20, 33, 54 };
    for (int i = 0; i < 8; i++)
        assert_int_equal(sanders_tree_size(i, 1), bin[i]);
    assert_int_equal(sanders_tree_size(3, 2), 5);   /* 2 + P_1 + P_0 */
    assert_int_equal(sanders_tree_size(5, 3), 2 * 0 + 3 + 3 + 2 + 0 * 1);   /* 3 + P_2 + P_1 */
    for (int r = 1; r <= 8; r++)
        for (int i = 0; i <= r; i++)
            assert_int_equal(sanders_tree_size(i, r), i + 1);
    assert_int_equal(sanders_tree_depth(18, 1), 4);
    assert_int_equal(sanders_tree_depth(1024, 1), depth(1024, 1));
}

/* Any source, and the other nets (where the embedding's link load is measured, not
 * asserted): every node gets every packet, no one sends what it lacks, ports are kept. */
static void test_other_nets_and_sources(void **state)
{
    (void)state;
    const char *nets[] = { "array:13", "ring:16", "mesh:5x7", "torus:4x6", "mesh:3x3x3",
                           "full:33" };
    const char *algos[] = { "fractional", "fractional-simplex", "bintree" };
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        Net *net = mknet(nets[i]);
        for (size_t k = 0; k < 3; k++)
            for (int32_t src = 0; src < net_size(net); src += 5) {
                AlgoArgs a;
                const AlgoDef *d;
                Sched *sc = build(algos[k], net, k == 2 ? 0 : 3, 7, src, 700, &a, &d);
                CostParams p;
                cost_defaults(&p, COST_POSTAL);
                p.duplex = k != 1;
                char err[256];
                Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
                assert_non_null(sim);
                const SimTotals *t = sim_totals(sim);
                if (!t->verified || !t->valid)
                    fail_msg("%s on %s from %d: verified %d valid %d", algos[k], nets[i],
                             (int)src, t->verified, t->valid);
                assert_int_equal(t->nsteps,
                                 k == 1 ? t->nsteps : sanders_tree_steps(net_size(net),
                                                                         k == 2 ? 1 : 3, 7));
                sim_free(sim);
                sched_free(sc);
            }
        net_free(net);
    }
}

/* The trees embedded in node order on array, ring, mesh and torus: the link load the simulator
 * measures, step by step, is what a naive walk along every transfer's route counts (the
 * busiest directed link and the summed route length), under seidel and postal alike; on the
 * array the embedding does share links (load > 1), on full:P never. */
static void test_link_load(void **state)
{
    (void)state;
    const char *nets[] = { "array:64", "ring:64", "mesh:8x8", "torus:8x8", "full:64" };
    const char *algos[] = { "fractional", "bintree", "bintree-direct", "fractional-simplex" };
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        Net *net = mknet(nets[i]);
        int64_t nl = net_nlinks(net);
        int32_t *cnt = calloc((size_t)(nl > 0 ? nl : 1), sizeof *cnt);
        assert_non_null(cnt);
        for (size_t k = 0; k < sizeof algos / sizeof *algos; k++) {
            bool has_r = strncmp(algos[k], "fractional", 10) == 0;
            AlgoArgs a;
            const AlgoDef *d;
            Sched *sc = build(algos[k], net, has_r ? 2 : 0, 6, 5, 600, &a, &d);
            for (int model = 0; model < 2; model++) {
                CostParams p;
                cost_defaults(&p, model ? COST_POSTAL : COST_SEIDEL);
                p.duplex = 1;
                Sim *sim = sim_run(sc, &p, 0, NULL, 0);
                assert_non_null(sim);
                assert_true(sim_totals(sim)->verified);
                int32_t all = 0;
                for (int32_t st = 0; st < sched_nsteps(sc); st++) {
                    int32_t mx = 0;
                    int64_t tcd = 0;
                    memset(cnt, 0, (size_t)(nl > 0 ? nl : 1) * sizeof *cnt);
                    for (int64_t j = 0; j < sched_ntransfers(sc, st); j++) {
                        SchedTransfer x;
                        sched_transfer(sc, st, j, &x);
                        int32_t u = x.src;
                        if (net_kind(net) == NET_FULL)
                            continue;   /* no grid links: counted below */
                        for (int g = 0; g < x.nseg; g++)
                            for (int32_t h = 0; h < x.seg[g].len; h++) {
                                int64_t l = net_link(net, u, x.seg[g].dim, x.seg[g].dir);
                                assert_true(l >= 0 && l < nl);
                                if (++cnt[l] > mx)
                                    mx = cnt[l];
                                u = net_neighbor(net, u, x.seg[g].dim, x.seg[g].dir);
                                tcd++;
                            }
                        assert_int_equal(u, x.dst);
                    }
                    if (net_kind(net) == NET_FULL)   /* a pair link each: one hop, load 1 */
                        mx = sched_ntransfers(sc, st) > 0, tcd = sched_ntransfers(sc, st);
                    const SimStep *ss = sim_step(sim, st);
                    if (ss->max_link_load != mx || ss->tcd != tcd)
                        fail_msg("%s on %s step %d: load %d tcd %lld, walked %d %lld", algos[k],
                                 nets[i], (int)st, (int)ss->max_link_load,
                                 (long long)ss->tcd, (int)mx, (long long)tcd);
                    if (mx > all)
                        all = mx;
                }
                assert_int_equal(sim_totals(sim)->max_link_load, all);
                if (strcmp(nets[i], "array:64") == 0)
                    assert_true(all > 1);
                if (net_kind(net) == NET_FULL)
                    assert_int_equal(all, 1);
                sim_free(sim);
            }
            sched_free(sc);
        }
        free(cnt);
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recurrence),
        cmocka_unit_test(test_special_cases),
        cmocka_unit_test(test_other_nets_and_sources),
        cmocka_unit_test(test_sweep_duplex),
        cmocka_unit_test(test_sweep_simplex),
        cmocka_unit_test(test_sweep_direct),
        cmocka_unit_test(test_link_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
