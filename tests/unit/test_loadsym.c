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
        int32_t mx;
        int64_t over, tcd;
        walk_figures(want, nl, cap, &mx, &over, &tcd);
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

/* ---- rows alike (sim-loadxch.c): an exchange step's rows classed by their dst - src ------ */

/* An exchange from a table: node j sends chunk 0 to tab[j] (tab an involution, no fixed point). */
typedef struct {
    const int32_t *tab;
} TabEx;

static void tab_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const TabEx *e = ctx;
    for (int64_t i = 0; i < n; i++)
        out[i] = (SchedRuleXfer){ .src = (int32_t)(j0 + i), .dst = e->tab[j0 + i], .nr = 1,
                                  .r = { { 0, 1 } } };
}

static int64_t tab_pairs(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const TabEx *e = ctx;
    int64_t np = 0;
    for (int64_t j = j0; j < j0 + n; j++)
        if (e->tab[j] > j) {
            tab_batch(ctx, j, 1, &out[2 * np]);
            tab_batch(ctx, e->tab[j], 1, &out[2 * np + 1]);
            np++;
        }
    return np;
}

static bool tab_prove(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)nchunks;
    return count == net_size(net);
}

/* A random involution on 0..n-1 (ids picked from those with want[i] set) with fixed points
 * only where fix allows: mode 0 identity, 1 i ^ b (b a power of two, when in range for all),
 * 2 pairs (2k, 2k+1), 3 random matching (fixed points if odd), 4 reversal. */
static void involution(int32_t n, int mode, int32_t *m, unsigned *seed)
{
    for (int32_t i = 0; i < n; i++)
        m[i] = i;
    int32_t b = 1;
    while (b * 2 < n && pick(seed, 2))
        b *= 2;
    switch (mode) {
    case 1:
        if (n % (2 * b) == 0)
            for (int32_t i = 0; i < n; i++)
                m[i] = i ^ b;
        break;
    case 2:
        for (int32_t i = 0; i + 1 < n; i += 2)
            m[i] = i + 1, m[i + 1] = i;
        break;
    case 3: {
        int32_t *p = malloc((size_t)n * sizeof *p);
        assert_non_null(p);
        for (int32_t i = 0; i < n; i++)
            p[i] = i;
        for (int32_t i = n - 1; i > 0; i--) {
            int32_t a = pick(seed, i + 1), t = p[i];
            p[i] = p[a], p[a] = t;
        }
        for (int32_t i = 0; i + 1 < n; i += 2)
            m[p[i]] = p[i + 1], m[p[i + 1]] = p[i];
        free(p);
        break;
    }
    case 4:
        for (int32_t i = 0; i < n; i++)
            m[i] = n - 1 - i;
        break;
    default:
        break;
    }
}

/* An exchange on an R x C mesh (C even): node (r, c) of column class k = c % K (K 1 or 2, C a
 * multiple of 2K) goes to (sig_k(r), pi_k(c)), pi_k a fixed-point-free involution of the
 * class's columns (so no node to itself); regular rows when sig_k is, the others not.  kind 1:
 * almost regular (two pairs of one row or column re-paired); kind 2: a random matching. */
static void exchange_table(int32_t R, int32_t C, int kind, int32_t *tab, unsigned *seed)
{
    int32_t N = R * C;
    if (kind == 2) {
        involution(N, 3, tab, seed);
        return;
    }
    int K = C % 4 == 0 ? 1 + pick(seed, 2) : 1;
    int32_t *sig = malloc((size_t)(2 * R) * sizeof *sig), *pi = malloc((size_t)(2 * C) * sizeof *pi);
    int32_t *cm = malloc((size_t)C * sizeof *cm);
    assert_true(sig && pi && cm);
    int32_t w = C / K;   /* the class's columns: k, k + K, ... (w of them, w even) */
    for (int k = 0; k < K; k++) {
        involution(R, pick(seed, 5), sig + k * R, seed);
        int pm = 1 + pick(seed, 4);
        involution(w, pm, cm, seed);
        bool fixed = false;
        for (int32_t i = 0; i < w; i++)
            fixed |= cm[i] == i;
        if (fixed)
            involution(w, 2, cm, seed);
        for (int32_t i = 0; i < w; i++)
            pi[k * C + i] = cm[i];
    }
    for (int32_t v = 0; v < N; v++) {
        int32_t r = v / C, c = v % C, k = c % K;
        tab[v] = sig[k * R + r] * C + pi[k * C + c / K] * K + k;
    }
    if (kind == 1) {   /* re-pair a, b = tab[a] with a second pair of a's row or column */
        int32_t a = pick(seed, N), b = tab[a], c = -1;
        bool col = pick(seed, 2);
        for (int t = 0; t < 64 && c < 0; t++) {
            int32_t x = col ? pick(seed, R) * C + a % C : a / C * C + pick(seed, C);
            if (x != a && x != b && tab[x] != a && tab[x] != b)
                c = x;
        }
        if (c >= 0) {
            int32_t d = tab[c];
            tab[a] = d, tab[d] = a, tab[b] = c, tab[c] = b;
        }
    }
    free(sig);
    free(pi);
    free(cm);
}

static Sim *run_xch(const Sched *s, const CostParams *p, int sym, int xch)
{
    sim_load_xch = xch;
    Sim *sim = run_sym(s, p, sym, SIM_PATH_AUTO);
    sim_load_xch = 0;
    return sim;
}

/* Random exchanges on meshes (and a torus: not taken) of regular, almost regular and random
 * rows, every model: rows alike against lines alike and the general counting, every figure,
 * the walk's loads, the loads after the run and each transfer's busiest link. */
static void test_rows_alike(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:16x16", "mesh:32x32", "mesh:8x32", "mesh:32x8", "mesh:12x12",
                           "mesh:6x10", "mesh:10x4", "mesh:64x16", "mesh:2x2", "torus:8x8" };
    unsigned seed = 4242;
    int64_t x0 = sim_xch_steps, l0 = sim_xch_rows_left, f0 = sim_sym_followed;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = net_parse(nets[k], NULL, 0);
        assert_non_null(net);
        int32_t N = net_size(net), C = net_dim(net, 1), R = N / C;
        int32_t *want = malloc((size_t)net_nlinks(net) * sizeof *want);
        int32_t *tab = malloc((size_t)(8 * N) * sizeof *tab);
        assert_true(want && tab);
        for (int round = 0; round < 6; round++) {
            Sched *s = walk_sched_all_hold(net, 2, 2048);
            int nsteps = 2 + pick(&seed, 6);
            for (int st = 0; st < nsteps; st++) {
                int32_t *t = tab + st * N;
                int kind = pick(&seed, 6);
                exchange_table(R, C, kind < 3 ? 0 : kind < 5 ? 1 : 2, t, &seed);
                for (int32_t v = 0; v < N; v++)   /* (an exchange: an involution, no fixed point) */
                    assert_true(t[v] != v && t[t[v]] == v);
                assert_true(sched_step(s) >= 0);
                TabEx e = { t };
                if (pick(&seed, 2))
                    assert_true(sched_send_rule_exchange_pairs(s, N, tab_batch, tab_pairs, &e,
                                                               sizeof e, tab_prove));
                else
                    assert_true(sched_send_rule_exchange(s, N, tab_batch, &e, sizeof e,
                                                         tab_prove));
            }
            assert_null(sched_error(s));
            for (int model = 0; model < 5; model++) {
                CostParams p;
                cost_defaults(&p, model == 3 ? COST_POSTAL : model == 4 ? COST_CIRCUIT
                                                                        : COST_SEIDEL);
                p.nu = model < 3 ? model : 0;
                int32_t cap = model < 3 ? INT32_C(1) << model : 1;
                Sim *a = run_xch(s, &p, 0, 0);    /* rows alike */
                Sim *b = run_xch(s, &p, 0, -1);   /* lines alike */
                Sim *g = run_xch(s, &p, -1, -1);  /* general */
                same_runs(a, g, s, net, cap, want);
                same_runs(b, g, s, net, cap, want);
                sim_free(a);
                sim_free(b);
                sim_free(g);
            }
            sched_free(s);
        }
        free(tab);
        free(want);
        net_free(net);
    }
    /* the path taken, rows classed and followed, rows of no class too */
    assert_true(sim_xch_steps - x0 > 500);
    assert_true(sim_xch_rows_left - l0 > 100);
    assert_true(sim_sym_followed - f0 > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_rh),
        cmocka_unit_test(test_rows_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
