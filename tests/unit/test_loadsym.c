/* test_loadsym.c — a step's link loads counted only for the lines unlike the others
 * (sim-loadsym.c: a line follows a leader while its pieces are the leader's, leaves for the
 * difference arrays at its first piece the leader has not; at the end the first line with all
 * of a leader's pieces is counted and the others have its loads).  Pinned, with the hook
 * sim_load_sym, against the general counting (-1) on random steps that are regular (every row
 * alike; rows alike two by two, as rh's interleaved exchanges; rows of three and of five
 * patterns, more than a block's leaders), almost regular (one transfer of the first, a middle
 * or the last row or column dropped, moved elsewhere, or doubled), and not at all (random
 * permutations), in node order or reversed, a third of them with some sends on explicit
 * routes, on square and oblong
 * meshes of power-of-two and other sides, tori (wrapping routes), an array and a ring, a 3-D
 * mesh, under seidel nu 0-2 (the price reads each costliest transfer's busiest link, which
 * often lies in a line not counted), postal, circuit (overloaded links collected) and saf, one
 * thread and two, the transfers added all at once or a few at a time: every figure, violation and holding the same (simcmp.h), every step's
 * largest load, overloads and summed route length those of a hop-by-hop walk (walkload.h),
 * and the loads asked for after the run (counted again, the followers' copied in) and every
 * transfer's busiest link those of the walk.  And rh's exchange steps, which ask for lines
 * alike themselves (sim-exch.c), the same as counted in full, with lines followed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim.h"
#include "simcmp.h"
#include "walkload.h"

static int32_t pick(unsigned *seed, int32_t n) { return (int32_t)(rand_r(seed) % (unsigned)n); }

/* Partners of a step on an R x C grid (-1: none): row r's pattern is pat[r % per] (a shift
 * along the row, a flip of a column bit, a shift down the column, or nothing, per column
 * parity), so that rows `per` apart are alike; per 0: a random permutation. */
static void partners(int32_t R, int32_t C, int per, int32_t *to, unsigned *seed)
{
    int32_t P = R * C;
    if (per == 0) {
        for (int32_t v = 0; v < P; v++)
            to[v] = v;
        for (int32_t v = P - 1; v > 0; v--) {
            int32_t a = pick(seed, v + 1), t = to[v];
            to[v] = to[a];
            to[a] = t;
        }
        return;
    }
    int kind[8][2];
    int32_t amt[8][2];
    for (int k = 0; k < per; k++)
        for (int par = 0; par < 2; par++) {
            kind[k][par] = pick(seed, 4);
            amt[k][par] = 1 + pick(seed, (C > R ? C : R) - 1 > 0 ? (C > R ? C : R) - 1 : 1);
        }
    for (int32_t v = 0; v < P; v++) {
        int32_t r = v / C, c = v % C, k = r % per, par = c & 1, a = amt[k][par];
        switch (kind[k][par]) {
        case 0:   /* along the row (around it on a mesh: both directions) */
            to[v] = r * C + (c + a) % C;
            break;
        case 1: {   /* a column bit flipped, when the column has it */
            int32_t b = 1;
            while (b * 2 <= a)
                b *= 2;
            to[v] = (c ^ b) < C ? r * C + (c ^ b) : -1;
            break;
        }
        case 2:   /* down the column */
            to[v] = (r + a) % R * C + c;
            break;
        default:
            to[v] = -1;
        }
    }
}

/* A step from to[] (in node order or reversed), perhaps with one transfer of row or column
 * `line` (first, middle or last) dropped, sent elsewhere or sent twice. */
static void add_step(Sched *s, const Net *net, int32_t R, int32_t C, const int32_t *to,
                     unsigned *seed)
{
    int32_t P = R * C, odd = -1, other = -1;
    int how = pick(seed, 4);   /* 0: none, 1: dropped, 2: elsewhere, 3: doubled */
    if (how) {
        bool col = pick(seed, 2);
        int where = pick(seed, 3);
        int32_t n = col ? C : R, line = where == 0 ? 0 : where == 1 ? n / 2 : n - 1;
        int32_t along = pick(seed, col ? R : C);
        odd = col ? along * C + line : line * C + along;
        other = pick(seed, P);
    }
    bool rev = pick(seed, 4) == 0, routes = pick(seed, 3) == 0;
    for (int32_t k = 0; k < P; k++) {
        int32_t v = rev ? P - 1 - k : k, d = to[v];
        if (v == odd && how == 1)
            continue;
        if (v == odd && how == 2)
            d = other;
        for (int rep = 0; rep < (v == odd && how == 3 ? 2 : 1); rep++) {
            if (d < 0 || d == v)
                continue;
            uint32_t lo = (uint32_t)pick(seed, 2);   /* 1 or 2 chunks: bytes differ */
            if (routes && net_ndim(net) == 2 && pick(seed, 24) == 0) {
                NetSeg seg[2];
                int ns = walk_route_other_way(net, v, d, seg);
                if (net_kind(net) == NET_MESH) {
                    assert_true(sched_send_route(s, v, d, &(ChunkRange){ lo, 2 }, 1, seg, ns));
                    continue;
                }
            }
            assert_true(sched_send_range(s, v, d, lo, 2));
        }
    }
}

static Sched *random_sched(const Net *net, unsigned *seed)
{
    int32_t P = net_size(net), C = net_dim(net, net_ndim(net) - 1), R = P / C;
    Sched *s = walk_sched_all_hold(net, 2, 2048);
    int32_t *to = malloc((size_t)P * sizeof *to);
    assert_non_null(to);
    int nsteps = 3 + pick(seed, 5);
    for (int k = 0; k < nsteps; k++) {
        assert_true(sched_step(s) >= 0);
        static const int pers[] = { 1, 2, 2, 3, 5, 0 };
        partners(R, C, pers[pick(seed, 6)], to, seed);
        add_step(s, net, R, C, to, seed);
    }
    free(to);
    assert_null(sched_error(s));
    return s;
}

/* Every figure of a and b the same (simcmp.h); a's loads of every step are the walk's, and so
 * are its largest load, overloads (over cap), tcd, and every transfer's busiest link. */
static void same_runs(Sim *a, Sim *b, const Sched *s, const Net *net, int32_t cap,
                      int32_t *want)
{
    simcmp_runs(a, b);
    int64_t nl = net_nlinks(net);
    for (int32_t st = 0; st < sched_nsteps(s); st++) {
        const SimStep *x = sim_step(a, st);
        walk_loads(s, net, st, want);
        int32_t mx = 0;
        int64_t over = 0, tcd = 0;
        for (int64_t l = 0; l < nl; l++) {
            mx = want[l] > mx ? want[l] : mx;
            over += want[l] > cap;
            tcd += want[l];
        }
        assert_int_equal(x->tcd, tcd);
        if (x->subrounds <= 1) {   /* (a step in sub-rounds has its sub-rounds' loads) */
            assert_int_equal(x->max_link_load, mx);
            assert_int_equal(x->link_overloads, over);
        }
        const int32_t *la = sim_link_loads(a, st);
        assert_non_null(la);
        if (x->subrounds <= 1)
            assert_memory_equal(la, want, (size_t)nl * sizeof *la);
        for (int64_t i = 0; x->subrounds <= 1 && i < sched_ntransfers(s, st); i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            int32_t u = t.src, k = 0;
            for (int g = 0; g < t.nseg; g++) {
                NetSeg one = { t.seg[g].dim, t.seg[g].dir, 1 };
                for (int32_t h = 0; h < t.seg[g].len; h++) {
                    int64_t l = net_link(net, u, t.seg[g].dim, t.seg[g].dir);
                    k = want[l] > k ? want[l] : k;
                    u = net_route_end(net, u, &one, 1);
                }
            }
            SimTransferInfo ti;
            sim_transfer_info(a, st, i, &ti);
            assert_int_equal(ti.load, k);
        }
    }
}

static Sim *run_sym(const Sched *s, const CostParams *p, int sym, int path)
{
    sim_load_sym = sym;
    sim_load_path = path;
    Sim *sim = sim_run(s, p, 0, NULL, 0);
    sim_load_sym = 0;
    sim_load_path = SIM_PATH_AUTO;
    assert_non_null(sim);
    return sim;
}

static void test_random(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:16x16", "mesh:32x32", "mesh:8x32", "mesh:32x8", "mesh:12x12",
                           "mesh:6x10", "mesh:9x5", "torus:8x8", "torus:6x10", "mesh:2x2",
                           "array:64", "ring:32", "mesh:4x4x4" };
    unsigned seed = 2112;
    int64_t followed = sim_sym_followed, left = sim_sym_left;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = net_parse(nets[k], NULL, 0);
        assert_non_null(net);
        int32_t *want = malloc((size_t)net_nlinks(net) * sizeof *want);
        assert_non_null(want);
        for (int round = 0; round < 4; round++) {
            Sched *s = random_sched(net, &seed);
            for (int model = 0; model < 6; model++) {
                CostParams p;
                cost_defaults(&p, model == 3 ? COST_POSTAL : model == 4 ? COST_CIRCUIT
                                  : model == 5 ? COST_SAF : COST_SEIDEL);
                p.nu = model < 3 ? model : 0;
                int32_t cap = model < 3 ? INT32_C(1) << model : 1;
                sim_par_min = (round + model) % 2 ? 0 : INT64_MAX;
                Sim *a = run_sym(s, &p, 1, SIM_PATH_DIFF);
                Sim *g = run_sym(s, &p, -1, SIM_PATH_DIFF);
                Sim *u = run_sym(s, &p, 1, SIM_PATH_AUTO);
                sim_load_block = 1 + pick(&seed, 6);   /* (a view of a few transfers at a time,
                                                         * as the exchange's replay adds them) */
                Sim *b = run_sym(s, &p, 1, SIM_PATH_DIFF);
                sim_load_block = 0;
                sim_par_min = 65536;
                sim_load_sym = 1;   /* (the queries count again by lines alike too: the
                                     * followers' loads copied in, load_layout) */
                same_runs(a, g, s, net, cap, want);
                same_runs(u, g, s, net, cap, want);
                same_runs(b, g, s, net, cap, want);
                sim_load_sym = 0;
                sim_free(b);
                sim_free(a);
                sim_free(g);
                sim_free(u);
            }
            sched_free(s);
        }
        free(want);
        net_free(net);
    }
    /* both ways were taken, often */
    assert_true(sim_sym_followed - followed > 1000);
    assert_true(sim_sym_left - left > 100);
}

/* rh's exchange steps (sim-exch.c asks for lines alike) against the same run counted in full,
 * every model; lines followed on every mesh of 8 lines a block or more. */
static void test_rh(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:8x8", "mesh:16x16", "mesh:8x32", "mesh:64x16", "mesh:4x4",
                           "mesh:32x32" };
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = net_parse(nets[k], NULL, 0);
        assert_non_null(net);
        int32_t *want = malloc((size_t)net_nlinks(net) * sizeof *want);
        assert_non_null(want);
        for (int32_t src = 0; src < net_size(net); src += net_size(net) / 3 + 1) {
            const AlgoDef *d = algo_find("rh", net);
            assert_non_null(d);
            AlgoArgs args;
            algo_args_init(&args, d);
            args.bytes = 1u << 20;
            args.source = src;
            char err[256];
            Sched *s = algo_build(d, net, &args, err, sizeof err);
            assert_non_null(s);
            for (int model = 0; model < 6; model++) {
                CostParams p;
                cost_defaults(&p, model == 3 ? COST_POSTAL : model == 4 ? COST_CIRCUIT
                                  : model == 5 ? COST_SAF : COST_SEIDEL);
                p.nu = model < 3 ? model : 0;
                int32_t cap = model < 3 ? INT32_C(1) << model : 1;
                int64_t f0 = sim_sym_followed;
                Sim *a = run_sym(s, &p, 0, SIM_PATH_AUTO);
                int64_t fol = sim_sym_followed - f0;
                Sim *g = run_sym(s, &p, -1, SIM_PATH_AUTO);
                same_runs(a, g, s, net, cap, want);
                if (net_size(net) >= 64 && (model < 3 || (model == 3 && p.duplex)))
                    if (fol == 0)
                        fail_msg("%s model %d src %d: no line followed", nets[k], model, src);
                sim_free(a);
                sim_free(g);
            }
            sched_free(s);
        }
        free(want);
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_rh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
