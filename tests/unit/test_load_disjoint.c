/* test_load_disjoint.c — the replay's disjoint-routes path (sim-load.c: a step whose routes
 * share no arc is found by their order along each line (arcmap_sorted) or by one bit per arc,
 * and the link loads are then never counted): on
 * random one-port schedules over arrays, rings, meshes and tori (default and explicit routes,
 * steps whose routes share arcs and steps whose do not), under seidel (nu 0, 1) and circuit,
 * on one thread and on two, every step's largest link load equals the one found here by
 * walking each route hop by hop with net_link (independent of the simulator's layout), and
 * every figure of the run (per step and in all, the violations) equals the run whose loads
 * are all counted (SIM_PATH_DIRECT). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim.h"
#include "simcmp.h"
#include "walkload.h"

/* The largest arc load of step st, walking every route hop by hop (walkload.h). */
static int32_t brute_max(const Sched *s, const Net *net, int32_t st)
{
    int64_t nl = net_nlinks(net);
    int32_t *load = malloc((size_t)nl * sizeof *load), mx = 0;
    assert_non_null(load);
    walk_loads(s, net, st, load);
    for (int64_t l = 0; l < nl; l++)
        mx = load[l] > mx ? load[l] : mx;
    free(load);
    return mx;
}

/* Sort the pairs (a[i], b[i]), i < n, by a (insertion: the nets are small). */
static void sort_pairs(int32_t *a, int32_t *b, int32_t n)
{
    for (int32_t i = 1; i < n; i++)
        for (int32_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            int32_t t = a[j]; a[j] = a[j - 1]; a[j - 1] = t;
            t = b[j]; b[j] = b[j - 1]; b[j - 1] = t;
        }
}

/* A random one-port schedule: each step pairs k distinct senders with k distinct receivers,
 * few (disjoint routes likely) or many (shared arcs likely), shuffled or by sender; some sends
 * on explicit routes. */
static Sched *random_sched(const Net *net, unsigned *seed)
{
    int32_t P = net_size(net);
    Sched *s = walk_sched_all_hold(net, 2, 2048);
    int32_t *perm = malloc((size_t)P * sizeof *perm), *perm2 = malloc((size_t)P * sizeof *perm2);
    int nsteps = 1 + (int)(rand_r(seed) % 8);
    for (int k = 0; k < nsteps; k++) {
        assert_true(sched_step(s) >= 0);
        for (int32_t v = 0; v < P; v++)
            perm[v] = perm2[v] = v;
        for (int32_t v = P - 1; v > 0; v--) {
            int32_t a = (int32_t)(rand_r(seed) % (unsigned)(v + 1)), b = (int32_t)(rand_r(seed) % (unsigned)(v + 1));
            int32_t t = perm[v]; perm[v] = perm[a]; perm[a] = t;
            t = perm2[v]; perm2[v] = perm2[b]; perm2[b] = t;
        }
        int32_t n = rand_r(seed) % 2 ? 1 + (int32_t)(rand_r(seed) % 3) : 1 + (int32_t)(rand_r(seed) % (unsigned)P);
        if (rand_r(seed) % 2)   /* by source: often in order along each line (arcmap_sorted) */
            sort_pairs(perm, perm2, n);
        for (int32_t i = 0; i < n; i++) {
            int32_t src = perm[i], dst = perm2[i];
            if (src == dst)
                continue;
            uint32_t lo = rand_r(seed) % 2;
            if (net_ndim(net) == 2 && rand_r(seed) % 4 == 0) {
                /* along the column first, then the row: the default goes the other way (this
                 * test's copy, before walkload.h, went the default way) */
                NetSeg seg[2];
                int ns = walk_route_other_way(net, src, dst, seg);
                assert_true(sched_send_route(s, src, dst, &(ChunkRange){ lo, 2 }, 1, seg, ns));
            } else {
                assert_true(sched_send_range(s, src, dst, lo, 2));
            }
        }
    }
    free(perm);
    free(perm2);
    assert_null(sched_error(s));
    return s;
}

/* a and b the same (simcmp.h), and every step's largest load the walk's (a step with port
 * conflicts is played in sub-rounds under seidel: its load is the most on a link at once, not
 * over the step, so it is left to the comparison). */
static void same_runs(Sim *a, Sim *b, const Sched *s, const Net *net)
{
    simcmp_runs(a, b);
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        if (sim_step(b, st)->port_conflicts == 0) {
            int32_t want = brute_max(s, net, st);
            assert_int_equal(sim_step(a, st)->max_link_load, want);
            assert_int_equal(sim_step(b, st)->max_link_load, want);
        }
}

/* s under seidel (nu 0, 1) and circuit, on one thread and on two: its loads found by the
 * disjoint-routes path where it applies (SIM_PATH_AUTO) against all counted (SIM_PATH_DIRECT). */
static void both_paths(const Sched *s, const Net *net)
{
    for (int model = 0; model < 3; model++) {
        CostParams p;
        cost_defaults(&p, model == 2 ? COST_CIRCUIT : COST_SEIDEL);
        p.nu = model == 1;
        for (int par = 0; par < 2; par++) {
            sim_par_min = par ? 0 : INT64_MAX;
            sim_load_path = SIM_PATH_AUTO;
            Sim *a = sim_run(s, &p, 0, NULL, 0);
            sim_load_path = SIM_PATH_DIRECT;
            Sim *b = sim_run(s, &p, 0, NULL, 0);
            sim_load_path = SIM_PATH_AUTO;
            sim_par_min = 65536;
            assert_non_null(a);
            assert_non_null(b);
            same_runs(a, b, s, net);
            sim_free(a);
            sim_free(b);
        }
    }
}

static void test_random(void **state)
{
    (void)state;
    const char *nets[] = { "array:16", "array:64", "ring:9", "ring:16", "mesh:4x4", "mesh:5x7",
                           "torus:4x4", "torus:5x6", "mesh:8x8", "array:300", "ring:260",
                           "mesh:3x150", "torus:2x200" };
    unsigned seed = 2611;
    int shared = 0, disjoint = 0;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = net_parse(nets[k], NULL, 0);
        assert_non_null(net);
        for (int round = 0; round < 25; round++) {
            Sched *s = random_sched(net, &seed);
            for (int32_t st = 0; st < sched_nsteps(s); st++) {
                int32_t m = brute_max(s, net, st);
                shared += m > 1;
                disjoint += m == 1;
            }
            both_paths(s, net);
            sched_free(s);
        }
        net_free(net);
    }
    /* both kinds of step were met, many times */
    assert_true(shared > 100);
    assert_true(disjoint > 100);
}

/* Steps of tree blocks (sched_send_tree, whose routes load_disjoint proves from the blocks'
 * parameters, arcmap_trees): one or two blocks a step along rows, columns or the line, either
 * way, spacing 1 or 2, any root; replayed as above against counted loads. */
static void test_trees(void **state)
{
    (void)state;
    const char *nets[] = { "array:64", "array:50", "ring:32", "mesh:8x8", "mesh:6x10",
                           "torus:8x8", "torus:5x12" };
    unsigned seed = 77;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = net_parse(nets[k], NULL, 0);
        assert_non_null(net);
        int32_t P = net_size(net), nd = net_ndim(net);
        for (int round = 0; round < 10; round++) {
            Sched *s = walk_sched_all_hold(net, 1, 4096);
            for (int st = 0; st < 6; st++) {
                assert_true(sched_step(s) >= 0);
                int nb = 1 + (int)(rand_r(&seed) % 2);
                for (int b = 0; b < nb; b++) {
                    int d = (int)(rand_r(&seed) % (unsigned)nd);
                    int32_t n = net_dim(net, d), g = 1 + (int32_t)(rand_r(&seed) % 2);
                    int kk = 1;
                    while (((INT32_C(2) << kk) - 1) * g <= n - 1 && kk < 4)
                        kk++;
                    kk = 1 + (int)(rand_r(&seed) % (unsigned)kk);
                    int32_t span = ((INT32_C(1) << kk) - 1) * g;
                    if (span > n - 1) {
                        g = 1;
                        span = (INT32_C(1) << kk) - 1;
                    }
                    int32_t c[3], base;
                    net_coords(net, (int32_t)(rand_r(&seed) % (unsigned)P), c);
                    bool up = rand_r(&seed) % 2;
                    c[d] = (up ? 0 : span) + (int32_t)(rand_r(&seed) % (unsigned)(n - span));
                    base = net_id(net, c);
                    int32_t stride = (up ? g : -g) * (d == nd - 1 ? 1 : net_dim(net, nd - 1));
                    int i = (int)(rand_r(&seed) % (unsigned)kk);
                    int32_t root = (int32_t)(rand_r(&seed) % (1u << kk));
                    assert_true(sched_send_tree(s, base, stride, kk, i, root, 0, 1));
                }
            }
            assert_null(sched_error(s));
            both_paths(s, net);
            sched_free(s);
        }
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
