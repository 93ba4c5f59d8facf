/* test_load_mesh2.c — the difference-array path on a 2-D mesh (sim-load.c: diff_mesh2 reads
 * each transfer's row and column piece straight from its ends, and on a square mesh counts the
 * column pieces of a big step into the transposed block, transposed back before the sweep;
 * the sweep finds the largest load and the overloads four links at a time).  On random
 * one-port schedules of row and column exchanges in node order (rh's kind: XOR partners, the
 * axis chosen per parity class as rh's interleaved pairs do, or cyclic shifts), random
 * permutations (both pieces per route) and sparse steps, some sends on explicit routes, over
 * square and oblong meshes of power-of-two and other sides (and tori, which take the general
 * path), under seidel with nu 0, 1, 2 and under circuit (overloaded links collected), on one
 * thread and on two: every step's loads, link by link, are the ones found here by walking each
 * route hop by hop with net_link (independent of the simulator's layout), its largest load and
 * overloads are those of that walk, and every figure of the run (per step and in all, the
 * violations with their loads) equals the runs that count through the general route pieces
 * (sim_count_general), in the layout's order (sim_count_natural) and by walking
 * (SIM_PATH_DIRECT); and so do runs that add each step's transfers block by block
 * (load_acc_add, blocks of 1-40 transfers, read from the ends or through the route pieces). */
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

static int32_t pick(unsigned *seed, int32_t n) { return (int32_t)(rand_r(seed) % (unsigned)n); }

/* Send from src to dst, on an explicit route (along the column first, then the row: the
 * default goes the other way) now and then. */
static void send(Sched *s, const Net *net, int32_t src, int32_t dst, unsigned *seed)
{
    uint32_t lo = (uint32_t)pick(seed, 2);
    if (net_kind(net) == NET_MESH && pick(seed, 16) == 0) {
        NetSeg seg[2];
        int ns = walk_route_other_way(net, src, dst, seg);
        assert_true(sched_send_route(s, src, dst, &(ChunkRange){ lo, 2 }, 1, seg, ns));
    } else {
        assert_true(sched_send_range(s, src, dst, lo, 2));
    }
}

/* One step's partner of every node (-1: none), a permutation: an exchange, a shift or a
 * random permutation, of all nodes or of some. */
static void partners(const Net *net, int32_t *to, unsigned *seed)
{
    int32_t R = net_dim(net, 0), C = net_dim(net, 1), P = R * C;
    bool pow2 = !(R & (R - 1)) && !(C & (C - 1));
    int kind = pick(seed, 4);
    if (kind == 0 && pow2 && R > 2 && C > 2) {
        /* rh's exchanges: XOR by a row bit and a column bit, >= 1, each parity class of
         * (r, c) along the row, the column or not at all (XOR keeps the class) */
        int32_t fr = INT32_C(1) << (1 + pick(seed, 31 - __builtin_clz((unsigned)R) - 1));
        int32_t fc = INT32_C(1) << (1 + pick(seed, 31 - __builtin_clz((unsigned)C) - 1));
        int axis[4];
        for (int k = 0; k < 4; k++)
            axis[k] = pick(seed, 3);
        for (int32_t v = 0; v < P; v++) {
            int32_t r = v / C, c = v % C;
            int a = axis[(r & 1) * 2 + (c & 1)];
            to[v] = a == 0 ? -1 : a == 1 ? r * C + (c ^ fc) : (r ^ fr) * C + c;
        }
    } else if (kind <= 1) {
        /* a cyclic shift along one axis (some routes go the other way round) */
        bool col = pick(seed, 2);
        int32_t k = 1 + pick(seed, (col ? R : C) - 1 > 0 ? (col ? R : C) - 1 : 1);
        for (int32_t v = 0; v < P; v++) {
            int32_t r = v / C, c = v % C;
            to[v] = col ? (r + k) % R * C + c : r * C + (c + k) % C;
        }
    } else {
        for (int32_t v = 0; v < P; v++)
            to[v] = v;
        for (int32_t v = P - 1; v > 0; v--) {
            int32_t a = pick(seed, v + 1), t = to[v];
            to[v] = to[a];
            to[a] = t;
        }
    }
    if (pick(seed, 3) == 0) {   /* a sparse step: few transfers (not transposed) */
        int32_t keep = 1 + pick(seed, P / 8 + 1);
        for (int32_t v = 0; v < P; v++)
            if (pick(seed, P) >= keep)
                to[v] = -1;
    }
}

static Sched *random_sched(const Net *net, unsigned *seed)
{
    int32_t P = net_size(net);
    Sched *s = walk_sched_all_hold(net, 2, 2048);
    int32_t *to = malloc((size_t)P * sizeof *to);
    assert_non_null(to);
    int nsteps = 2 + pick(seed, 6);
    for (int k = 0; k < nsteps; k++) {
        assert_true(sched_step(s) >= 0);
        partners(net, to, seed);
        for (int32_t v = 0; v < P; v++)   /* in node order, as a rule makes them */
            if (to[v] >= 0 && to[v] != v)
                send(s, net, v, to[v], seed);
    }
    free(to);
    assert_null(sched_error(s));
    return s;
}

/* Every figure of a and b the same (simcmp.h); both runs' loads of every step are the walk's,
 * and so are their largest load, overloads (over cap) and tcd. */
static void same_runs(Sim *a, Sim *b, const Sched *s, const Net *net, int32_t cap,
                      int32_t *want, int64_t *ntr)
{
    simcmp_runs(a, b);
    int64_t nl = net_nlinks(net);
    for (int32_t st = 0; st < sched_nsteps(s); st++) {
        const SimStep *x = sim_step(a, st);
        walk_loads(s, net, st, want);
        int32_t mx;
        int64_t over, tcd;
        walk_figures(want, nl, cap, &mx, &over, &tcd);
        *ntr += sched_ntransfers(s, st) * 4 >= net_size(net);
        assert_int_equal(x->max_link_load, mx);
        assert_int_equal(x->link_overloads, over);
        assert_int_equal(x->tcd, tcd);
        /* the loads asked for after the run (counted again then), link by link (b's are a's:
         * simcmp_runs) */
        const int32_t *la = sim_link_loads(a, st);
        assert_non_null(la);
        assert_memory_equal(la, want, (size_t)nl * sizeof *la);
    }
}

static Sim *run_with(const Sched *s, const CostParams *p, int path, bool general, bool natural)
{
    sim_load_path = path;
    sim_count_general = general;
    sim_count_natural = natural;
    Sim *sim = sim_run(s, p, 0, NULL, 0);
    sim_load_path = SIM_PATH_AUTO;
    sim_count_general = sim_count_natural = false;
    assert_non_null(sim);
    return sim;
}

/* run_with(SIM_PATH_DIFF) with the step's transfers added in blocks of B (load_acc_add). */
static Sim *run_blocks(const Sched *s, const CostParams *p, int64_t B, bool general)
{
    sim_load_block = B;
    Sim *sim = run_with(s, p, SIM_PATH_DIFF, general, false);
    sim_load_block = 0;
    return sim;
}

static void test_random(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:8x8", "mesh:16x16", "mesh:32x32", "mesh:6x6", "mesh:12x12",
                           "mesh:8x16", "mesh:16x4", "mesh:5x9", "mesh:2x2", "mesh:1x8",
                           "mesh:7x1", "torus:8x8", "torus:6x10" };
    unsigned seed = 2127;
    int64_t big = 0;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = net_parse(nets[k], NULL, 0);
        assert_non_null(net);
        int32_t *want = malloc((size_t)net_nlinks(net) * sizeof *want);
        assert_non_null(want);
        for (int round = 0; round < 6; round++) {
            Sched *s = random_sched(net, &seed);
            for (int model = 0; model < 4; model++) {
                CostParams p;
                cost_defaults(&p, model == 3 ? COST_CIRCUIT : COST_SEIDEL);
                p.nu = model < 3 ? model : 0;
                int32_t cap = model < 3 ? INT32_C(1) << model : 1;
                for (int par = 0; par < 2; par++) {
                    sim_par_min = par ? 0 : INT64_MAX;
                    Sim *a = run_with(s, &p, SIM_PATH_DIFF, false, false);
                    Sim *g = run_with(s, &p, SIM_PATH_DIFF, true, false);
                    Sim *n = run_with(s, &p, SIM_PATH_DIFF, false, true);
                    Sim *d = run_with(s, &p, SIM_PATH_DIRECT, false, false);
                    Sim *u = run_with(s, &p, SIM_PATH_AUTO, false, false);
                    Sim *b = run_blocks(s, &p, 1 + pick(&seed, 40), false);
                    Sim *bg = run_blocks(s, &p, 1 + pick(&seed, 40), true);
                    sim_par_min = 65536;
                    same_runs(b, bg, s, net, cap, want, &big);
                    sim_free(b);
                    sim_free(bg);
                    same_runs(a, g, s, net, cap, want, &big);
                    same_runs(n, d, s, net, cap, want, &big);
                    same_runs(u, a, s, net, cap, want, &big);
                    sim_free(a);
                    sim_free(g);
                    sim_free(n);
                    sim_free(d);
                    sim_free(u);
                }
            }
            sched_free(s);
        }
        free(want);
        net_free(net);
    }
    assert_true(big > 100);   /* big steps (transposed on a square mesh) were met, often */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

