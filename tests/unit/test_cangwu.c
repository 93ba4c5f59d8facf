/* test_cangwu.c — Cang & Wu: the eyes (eq. 2), Algorithm 1 (`tcd`) on every
 * 2^k x 2^k mesh k = 1..5 from every source (k <= 4) and sampled sources (k = 5): verified,
 * 2k steps, time-step optimal, contention-free under XY routing, TCD equal to eq. 4's
 * recursion, to eq. 3 / eq. 10 at the eyes and eq. 8 / eq. 9 at the corners; d = 3 (k = 1..3)
 * and d = 1 from the eyes equal to eqs. 12-14; tori from every source equal to eq. 10/13; the
 * worked examples of Section 2; and the engine's time-step optimality verdict (tso.h) on
 * schedules that are not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/algos/cangwu/cangwu.h"
#include "../../src/engine/progress.h"
#include "../../src/engine/sim.h"
#include "../../src/engine/tso.h"
#include "full.h"
#include "mknet.h"

/* Build and simulate tcd from source; check verified, kd steps, time-step optimal and
 * contention-free; return the TCD (and the predicted one in *pred, -1 if none). */
static int64_t run_tcd(const Net *net, int32_t source, int literal, double *pred)
{
    char err[256];
    const AlgoDef *d = algo_find("tcd", net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = source;
    a.param[0] = literal;
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s from %d: %s", net_spec(net), (int)source, err);
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    int dd, k;
    assert_true(cangwu_shape(net, &dd, &k));
    if (!t->verified || t->nsteps != dd * k || t->port_conflicts != 0)
        fail_msg("%s from %d: verified %d steps %d conflicts %lld", net_spec(net), (int)source,
                 t->verified, (int)t->nsteps, (long long)t->port_conflicts);
    TsoVerdict v;
    tso_check(sim, &v);
    if (!v.optimal || !v.contention_free)
        fail_msg("%s from %d: time-step optimal %d, contention-free %d", net_spec(net),
                 (int)source, v.optimal, v.contention_free);
    int64_t tcd = t->tcd;
    if (!algo_predict_tcd(d, net, &a, pred))
        *pred = -1;
    sim_free(sim);
    sched_free(sc);
    return tcd;
}

static void test_eyes(void **state)
{
    (void)state;
    static const int64_t a[] = {0, 1, 1, 3, 5, 11, 21, 43};
    for (int k = 0; k < 8; k++)
        assert_int_equal(cangwu_a(k), a[k]);
    for (int k = 2; k < 20; k++)   /* eq. 1 */
        assert_int_equal(cangwu_a(k), (INT64_C(1) << (k - 1)) - cangwu_a(k - 1));
    /* Fig. 3 (b): the eyes of 4x4 are the inner four nodes */
    Net *net = mknet("mesh:4x4");
    int32_t e[8];
    assert_int_equal(cangwu_eyes(net, 0, 2, 0, e), 4);
    assert_int_equal(e[0], 5);
    assert_int_equal(e[1], 9);
    assert_int_equal(e[2], 6);
    assert_int_equal(e[3], 10);
    for (int32_t i = 0; i < 16; i++)
        assert_int_equal(cangwu_is_eye(net, i), i == 5 || i == 6 || i == 9 || i == 10);
    net_free(net);
    /* every eye E_k is an eye E_(k-1) of its quadrant (Definition 2) */
    net = mknet("mesh:32x32");
    for (int32_t i = 0; i < 1024; i++) {
        if (!cangwu_is_eye(net, i))
            continue;
        assert_int_equal(cangwu_eyes(net, 0, 4, i, e), 4);
        bool found = false;
        for (int j = 0; j < 4; j++)
            found = found || e[j] == i;
        assert_true(found);
    }
    net_free(net);
}

static void test_forms(void **state)
{
    (void)state;
    for (int k = 1; k <= 12; k++) {
        int64_t v;
        assert_int_equal(cangwu_md_eye_eq10(k), cangwu_md_eye_rec(2, k));
        assert_true(cangwu_md_eye_closed(2, k, &v));
        assert_int_equal(v, cangwu_md_eye_rec(2, k));
        assert_int_equal(cangwu_md_corner_eq9(k), cangwu_md_corner_rec(k));
        assert_int_equal(cangwu_md_corner_rec(k), cangwu_d_rec(k, 0, 0, 1));
        assert_int_equal(cangwu_md_eye_eq14(k), cangwu_md_eye_rec(3, k));
        assert_true(cangwu_md_eye_closed(3, k, &v));
        assert_int_equal(v, cangwu_md_eye_rec(3, k));
        assert_false(cangwu_md_eye_closed(1, k, &v));   /* eq. 13 divides by 0 at d = 1 */
    }
    /* the worked examples (Sections 2 and 3; Section 4) */
    assert_int_equal(cangwu_md_corner_eq9(2), 18);
    assert_int_equal(cangwu_md_corner_eq9(3), 79);
    assert_int_equal(cangwu_md_corner_eq9(4), 318);
    assert_int_equal(cangwu_md_eye_eq10(1), 3);
    assert_int_equal(cangwu_md_eye_eq10(2), 15);
    assert_int_equal(cangwu_md_eye_eq10(3), 69);
    assert_int_equal(cangwu_md_eye_eq10(4), 291);
    assert_int_equal(cangwu_d_rec(2, 1, 0, 1), 16);   /* MD_2(0,1) = 16: x = 0, y = 1 */
    assert_int_equal(cangwu_d_rec(2, 0, 1, 1), 17);   /* the transposed source, literally */
    assert_int_equal(cangwu_d_rec(2, 0, 1, 2), 17);
    assert_int_equal(cangwu_d_rec(2, 0, 1, 0), 16);
    assert_int_equal(cangwu_d_rec(2, 1, 1, 1), 15);
    assert_int_equal(cangwu_md_eye_rec(3, 1), 7);
    assert_int_equal(cangwu_md_eye_rec(3, 2), 63);
    assert_int_equal(cangwu_md_eye_rec(3, 3), 525);
}

/* Every source of every 2^k x 2^k mesh (sampled at k = 5), the three readings of Algorithm 1. */
static void test_mesh2d(void **state)
{
    (void)state;
    for (int k = 1; k <= 5; k++) {
        char spec[32];
        int32_t n = INT32_C(1) << k;
        snprintf(spec, sizeof spec, "mesh:%dx%d", (int)n, (int)n);
        Net *net = mknet(spec);
        int64_t eye = cangwu_md_eye_eq10(k), corner = cangwu_md_corner_eq9(k);
        int64_t best = -1;
        for (int32_t src = 0; src < n * n; src += k == 5 ? 37 : 1) {
            int32_t r = src / n, c = src % n;
            for (int lit = 0; lit < 3; lit++) {
                double pred;
                int64_t tcd = run_tcd(net, src, lit, &pred);
                int64_t want = cangwu_d_rec(k, r, c, lit);
                if (tcd != want || pred != (double)want)
                    fail_msg("%s (%d,%d) literal=%d: tcd %lld, eq. 4 %lld, predicted %g", spec,
                             (int)r, (int)c, lit, (long long)tcd, (long long)want, pred);
                if (cangwu_is_eye(net, src))
                    assert_int_equal(tcd, eye);
                if ((r == 0 || r == n - 1) && (c == 0 || c == n - 1))
                    assert_int_equal(tcd, corner);
                /* Theorem 1: no source does better than an eye */
                assert_true(tcd >= eye);
                if (!lit && (best < 0 || tcd < best))
                    best = tcd;
            }
        }
        /* the eyes themselves, and the corners, at k = 5 too */
        for (int32_t r = 0; r < n; r++)
            for (int32_t c = 0; c < n; c++) {
                int32_t src = r * n + c;
                bool corner_node = (r == 0 || r == n - 1) && (c == 0 || c == n - 1);
                if (k == 5 && (cangwu_is_eye(net, src) || corner_node)) {
                    double pred;
                    int64_t tcd = run_tcd(net, src, 0, &pred);
                    assert_int_equal(tcd, corner_node ? corner : eye);
                    assert_true(pred == (double)tcd);
                }
            }
        if (k <= 4)
            assert_int_equal(best, eye);   /* Corollary 1 within Algorithm 1 */
        net_free(net);
    }
}

/* Fig. 2(a), 4x4, as the paper's text fixes it, row by row (meshcast's (row, column); the
 * paper's N(x,y) is column x, row y).  Our copy of the paper leaves the figure's numbers out;
 * the cells are worked by hand from Algorithm 1's words, "rotate the mesh, if necessary, until
 * S is in the upper-left submesh" and the first message to the upper-right eye E_2(2) (along
 * the row), which the text prints for the upper-left quadrant: D_2(0,0) = FD 2 + SD 4 + RD 12
 * = 18 (Section 2); from N(1,0) (row 0, column 1): FD 2 (to E_2(2) = N(2,1)), SD 2 + 1 (S to
 * E_2(3) = N(1,2), E_2(2) to E_2(4)), RD 12 = 17 (the Appendix's D_2(1,0) = 17); from N(0,1)
 * (row 1, column 0): FD 2, SD 1 + 1 (S to E_1(1) of the lower-left submesh, N(0,2)), RD 12 =
 * 16 (Section 2's MD_2(0,1) = 16); from N(1,1) 15.  A rotation by 90 degrees carries each of
 * the other quadrants onto the upper-left one, so the 17s turn about the centre (a pinwheel,
 * not mirror images). */
static const int fig2a[4][4] = {
    {18, 17, 16, 18},
    {16, 15, 15, 17},
    {17, 15, 15, 16},
    {18, 16, 17, 18},
};

/* literal=1 (the rotating reading) reproduces Fig. 2(a) cell for cell; literal=2 (row first,
 * mirrored) and literal=0 (the better order) do not; on 8x8 .. 32x32 the rotating reading is
 * invariant under the square's quarter turns and not under its transpose (test_mesh2d checks
 * every cell of it against the simulated schedule). */
static void test_fig2a_literal(void **state)
{
    (void)state;
    Net *net = mknet("mesh:4x4");
    int diff_mirror = 0, diff_best = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            double pred;
            int64_t t = run_tcd(net, r * 4 + c, 1, &pred);
            if (t != fig2a[r][c] || pred != (double)t)
                fail_msg("literal=1 from (%d,%d): %lld (predicted %g), Fig. 2(a) %d", r, c,
                         (long long)t, pred, fig2a[r][c]);
            diff_mirror += run_tcd(net, r * 4 + c, 2, &pred) != fig2a[r][c];
            diff_best += run_tcd(net, r * 4 + c, 0, &pred) != fig2a[r][c];
        }
    assert_int_equal(diff_mirror, 4);   /* (0,2) (1,3) (2,0) (3,1) */
    assert_int_equal(diff_best, 4);     /* the four 17s are 16 */
    net_free(net);
    for (int k = 3; k <= 5; k++) {
        int32_t n = INT32_C(1) << k;
        int chiral = 0;
        for (int32_t r = 0; r < n; r++)
            for (int32_t c = 0; c < n; c++) {
                int64_t v = cangwu_d_rec(k, r, c, 1);
                /* a quarter turn (r,c) -> (c, n-1-r) keeps it; a transpose need not */
                assert_int_equal(v, cangwu_d_rec(k, c, n - 1 - r, 1));
                chiral += v != cangwu_d_rec(k, c, r, 1);
            }
        assert_true(chiral > 0);
    }
}

static void test_3d_1d_torus(void **state)
{
    (void)state;
    for (int k = 1; k <= 3; k++) {
        char spec[48];
        int32_t n = INT32_C(1) << k;
        int32_t lo = (int32_t)cangwu_eye_lo(k), hi = lo + (int32_t)cangwu_a(k);
        int64_t want;
        assert_true(cangwu_md_eye_closed(3, k, &want));
        snprintf(spec, sizeof spec, "mesh:%dx%dx%d", (int)n, (int)n, (int)n);
        Net *net = mknet(spec);
        for (int e = 0; e < 8; e++) {
            int32_t c[3] = {e & 1 ? hi : lo, e & 2 ? hi : lo, e & 4 ? hi : lo};
            double pred;
            assert_int_equal(run_tcd(net, net_id(net, c), false, &pred), want);
            assert_true(pred == (double)want);
        }
        /* any source: verified, time-step optimal, never below the eyes */
        for (int32_t src = 0; src < net_size(net); src += 7) {
            double pred;
            assert_true(run_tcd(net, src, 0, &pred) >= want);
            assert_true(run_tcd(net, src, true, &pred) >= want);
        }
        net_free(net);
        snprintf(spec, sizeof spec, "torus:%dx%dx%d", (int)n, (int)n, (int)n);
        net = mknet(spec);
        for (int32_t src = 0; src < net_size(net); src += 5) {
            double pred;
            assert_int_equal(run_tcd(net, src, 0, &pred), want);
        }
        net_free(net);
    }
    for (int k = 1; k <= 6; k++) {
        char spec[48];
        int32_t n = INT32_C(1) << k;
        snprintf(spec, sizeof spec, "array:%d", (int)n);
        Net *net = mknet(spec);
        double pred;
        assert_int_equal(run_tcd(net, (int32_t)cangwu_eye_lo(k), false, &pred),
                         cangwu_md_eye_rec(1, k));
        net_free(net);
        snprintf(spec, sizeof spec, "torus:%dx%d", (int)n, (int)n);
        net = mknet(spec);
        for (int32_t src = 0; src < n * n; src += (k > 3 ? 13 : 1)) {
            assert_int_equal(run_tcd(net, src, 0, &pred), cangwu_md_eye_eq10(k));
            assert_true(pred == (double)cangwu_md_eye_eq10(k));
        }
        net_free(net);
    }
}

/* The verdict on schedules that are not time-step optimal. */
static void test_tso(void **state)
{
    (void)state;
    char err[256];
    Net *net = mknet("mesh:4x4");
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    /* Seidel's st on 4x4: verified, more steps than 4 */
    const AlgoDef *d = algo_find("st-simple", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    assert_non_null(sc);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    TsoVerdict v;
    tso_check(sim, &v);
    assert_int_equal(v.min_steps, 4);
    assert_true(sim_totals(sim)->verified);
    assert_int_equal(v.optimal, sim_totals(sim)->nsteps == 4);
    sim_free(sim);
    sched_free(sc);
    /* hand-made: 0->1, then 0->2 and 1->3 (4 informed after 2), then only 2 new: not optimal */
    sc = sched_new(net, 1, 8);
    sched_give(sc, 0, 0, 1);
    sched_step(sc);
    sched_send_range(sc, 0, 1, 0, 1);
    sched_step(sc);
    sched_send_range(sc, 0, 2, 0, 1);
    sched_send_range(sc, 1, 3, 0, 1);
    sched_step(sc);
    sched_send_range(sc, 0, 4, 0, 1);
    sched_send_range(sc, 1, 5, 0, 1);
    sim = sim_run(sc, &p, 0, err, sizeof err);
    tso_check(sim, &v);
    assert_false(v.optimal);
    assert_int_equal(v.first_short, 2);
    char buf[200];
    tso_text(sim, &v, buf, sizeof buf);
    if (!strstr(buf, "step 3 informs 6"))
        fail_msg("%s", buf);
    sim_free(sim);
    sched_free(sc);
    /* two messages over one link in a step: not contention-free */
    sc = sched_new(net, 1, 8);
    sched_give(sc, 0, 0, 1);
    sched_step(sc);
    sched_send_range(sc, 0, 1, 0, 1);
    sched_step(sc);
    sched_send_range(sc, 0, 3, 0, 1);
    sched_send_range(sc, 1, 2, 0, 1);
    sim = sim_run(sc, &p, 0, err, sizeof err);
    tso_check(sim, &v);
    assert_false(v.contention_free);
    sim_free(sim);
    sched_free(sc);
    net_free(net);
}

/* A broadcast on array:n from node 0 in which every informed node sends to the next
 * uninformed one each step, but step `short_at` informs one node fewer than that (-1: none);
 * run under seidel, its verdict into v.  Returns the number of steps. */
static int32_t tso_of_doubling(int32_t n, int32_t short_at, TsoVerdict *v, bool *verified)
{
    char err[256], spec[32];
    snprintf(spec, sizeof spec, "array:%d", (int)n);
    Net *net = mknet(spec);
    Sched *sc = sched_new(net, 1, 8);
    sched_give(sc, 0, 0, 1);
    int32_t have = 1, steps = 0;
    while (have < n) {
        sched_step(sc);
        int32_t senders = have, got = have;
        if (steps == short_at && senders > 1)
            senders--;   /* one node fewer than doubling */
        for (int32_t u = 0; u < senders && got < n; u++)
            assert_true(sched_send_range(sc, u, got++, 0, 1));
        have = got;
        steps++;
    }
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_non_null(sim);
    tso_check(sim, v);
    *verified = sim_totals(sim)->verified;
    sim_free(sim);
    sched_free(sc);
    net_free(net);
    return steps;
}

/* Cang & Wu's definition (Cang & Wu, Section 1: "after each step the number of nodes having
 * received the message must be doubled"): a step that informs even one node fewer than double
 * is not time-step optimal, also when the broadcast still ends in the least number of steps
 * (1 -> 2 -> 3 -> 6 on 6 nodes: 3 steps, step 2 one short).  Every N up to 40, every step. */
static void test_tso_one_short(void **state)
{
    (void)state;
    int caught_in_time = 0;
    for (int32_t n = 3; n <= 40; n++) {
        int32_t m = 0;   /* ceil(log2 n), computed apart from tso.c */
        while ((INT32_C(1) << m) < n)
            m++;
        TsoVerdict v;
        bool ver;
        assert_int_equal(tso_of_doubling(n, -1, &v, &ver), m);
        assert_true(ver);
        assert_int_equal(v.min_steps, m);
        assert_true(v.optimal);
        assert_int_equal(v.first_short, -1);
        for (int32_t t = 1; t < m - 1; t++) {   /* (step 0 has one sender, nothing to drop) */
            int32_t steps = tso_of_doubling(n, t, &v, &ver);
            assert_true(ver);
            if (v.optimal || v.first_short != t)
                fail_msg("array:%d, step %d one node short: optimal %d first_short %d",
                         (int)n, (int)t + 1, v.optimal, (int)v.first_short);
            caught_in_time += steps == m;
        }
    }
    /* the hard cases (short, yet done in the least steps) were among them */
    assert_true(caught_in_time > 10);
}

/* Build and simulate name with params; check verified and time-step optimal; the TCD. */
static int64_t run_algo(const Net *net, const char *name, int32_t source, const char *set,
                        const char *val)
{
    char err[256];
    const AlgoDef *d = algo_find(name, net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = source;
    if (set)
        assert_int_equal(algo_args_set(&a, d, set, val, err, sizeof err), 0);
    if (strcmp(name, "tcd-opt") == 0 && (!set || strcmp(set, "moves") != 0))
        assert_int_equal(algo_args_set(&a, d, "moves", "2000", err, sizeof err), 0);
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s on %s from %d: %s", name, net_spec(net), (int)source, err);
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    TsoVerdict v;
    tso_check(sim, &v);
    if (!sim_totals(sim)->verified || !v.optimal)
        fail_msg("%s on %s from %d: verified %d time-step optimal %d", name, net_spec(net),
                 (int)source, sim_totals(sim)->verified, v.optimal);
    if (set && strcmp(set, "cf") == 0 && !v.contention_free)
        fail_msg("%s cf=1 on %s from %d: not contention-free", name, net_spec(net), (int)source);
    int64_t tcd = sim_totals(sim)->tcd;
    sim_free(sim);
    sched_free(sc);
    return tcd;
}

/* The exact search's schedule from source: verified, time-step optimal (contention-free under
 * cf); its TCD. */
static int64_t exact_tcd(const CangwuExact *x, const Net *net, int32_t source, bool cf)
{
    char err[256];
    Sched *sc = sched_new(net, 1, 8);
    assert_true(sched_give(sc, source, 0, 1));
    if (!cangwu_exact_sched(x, source, sc))
        fail_msg("%s from %d: %s", net_spec(net), (int)source, sched_error(sc));
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    TsoVerdict v;
    tso_check(sim, &v);
    assert_true(sim_totals(sim)->verified && v.optimal);
    assert_true(!cf || v.contention_free);
    int64_t tcd = sim_totals(sim)->tcd;
    sim_free(sim);
    sched_free(sc);
    return tcd;
}

/* tcd-opt on 4x4: the exact minimum, its proof re-checked, attained by the schedule; and a
 * broken table fails the check. */
static void test_exact(void **state)
{
    (void)state;
    char err[256];
    Net *net = mknet("mesh:4x4");
    for (int cf = 0; cf < 2; cf++) {
        CangwuExact *x = cangwu_exact_new(net, cf, err, sizeof err);
        assert_non_null(x);
        /* (the contention-free programme's proof, 30% of this program's time under the
         * sanitizers, is re-checked in the release-built run: full.h; the same checker goes
         * through cf = 0's here) */
        int64_t checked = 0;
        if ((cf == 0 || FULL_RUN) && !cangwu_exact_check(x, &checked, err, sizeof err))
            fail_msg("cf=%d: proof: %s", cf, err);
        assert_true(checked > 1000000 || (cf == 1 && !FULL_RUN));
        for (int32_t src = 0; src < 16; src++) {
            int64_t v = cangwu_exact_value(x, src);
            assert_int_equal(exact_tcd(x, net, src, cf), v);
            /* Theorem 2 on 4x4: Algorithm 1 (the better order) attains the minimum */
            assert_int_equal(cangwu_d_rec(2, src / 4, src % 4, false), v);
        }
        cangwu_exact_free(x);
    }
    /* the built-in runs it too */
    assert_int_equal(run_algo(net, "tcd-opt", 1, NULL, NULL), 16);
    net_free(net);
    /* a too-big net is refused with a message */
    net = mknet("mesh:8x8");
    assert_null(cangwu_exact_new(net, false, err, sizeof err));
    assert_non_null(strstr(err, "16"));
    net_free(net);
    /* the exact search on other small nets: every source's value is attained and proved */
    static const char *const small[] = {"array:8", "torus:4x4", "mesh:2x2x2", "mesh:2x2"};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        net = mknet(small[i]);
        CangwuExact *x = cangwu_exact_new(net, false, err, sizeof err);
        assert_non_null(x);
        assert_true(cangwu_exact_check(x, NULL, err, sizeof err));
        for (int32_t src = 0; src < net_size(net); src++)
            assert_int_equal(exact_tcd(x, net, src, false), cangwu_exact_value(x, src));
        cangwu_exact_free(x);
        net_free(net);
    }
}

/* tcd-opt on 8x8: never worse than tcd (a few sources, a short search). */
static void test_search(void **state)
{
    (void)state;
    Net *net = mknet("mesh:8x8");
    static const int32_t srcs[] = {0, 9, 27, 18};
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        double pred;
        int64_t t = run_tcd(net, srcs[i], 0, &pred);
        int64_t o = run_algo(net, "tcd-opt", srcs[i], "moves", "3000");
        if (o > t)
            fail_msg("8x8 from %d: tcd-opt %lld > tcd %lld", (int)srcs[i], (long long)o,
                     (long long)t);
        assert_true(run_algo(net, "tcd-opt", srcs[i], "cf", "1") <= t);
    }
    net_free(net);
}

/* tcd's schedule from source (the better order). */
static Sched *tcd_sched(const Net *net, int32_t source)
{
    char err[256];
    const AlgoDef *d = algo_find("tcd", net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = source;
    Sched *t = algo_build(d, net, &a, err, sizeof err);
    if (!t)
        fail_msg("tcd on %s from %d: %s", net_spec(net), (int)source, err);
    return t;
}

/* A poor time-step optimal start: in every step the informed nodes, in the order they were
 * informed, send to the uninformed nodes in order of their ids. */
static Sched *naive_sched(const Net *net, int32_t source)
{
    int32_t n = net_size(net), L[64], nl = 1, next = 0;
    bool got[64] = {false};
    assert_true(n <= 64);
    L[0] = source;
    got[source] = true;
    Sched *s = sched_new(net, 1, 8);
    assert_true(sched_give(s, source, 0, 1));
    for (int32_t t = 0; nl < n; t++) {
        assert_true(sched_at(s, t));
        int32_t m = nl;
        for (int32_t i = 0; i < m; i++) {
            while (got[next])
                next++;
            assert_true(sched_send_range(s, L[i], next, 0, 1));
            got[next] = true;
            L[nl++] = next;
        }
    }
    return s;
}

/* The annealing search (anneal.c) reaches the proven minimum (opt.c's exact programme, its
 * proof re-checked) from every source of every 16-node net where tcd runs, started from a
 * poor schedule (naive_sched); and its schedule costs what it says. */
static void test_anneal_exact(void **state)
{
    (void)state;
    char err[256];
    static const char *const nets[] = {"mesh:4x4", "torus:4x4", "array:16"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        Net *net = mknet(nets[i]);
        CangwuExact *x = cangwu_exact_new(net, false, err, sizeof err);
        assert_non_null(x);
        assert_true(cangwu_exact_check(x, NULL, err, sizeof err));
        int above = 0;
        for (int32_t src = 0; src < net_size(net); src++) {
            Sched *t = naive_sched(net, src);
            Sched *s = sched_new(net, 1, 8);
            assert_true(sched_give(s, src, 0, 1));
            int64_t tcd = -1;
            assert_true(cangwu_anneal(&t, 1, 20000, s, &tcd));
            if (tcd != cangwu_exact_value(x, src))
                fail_msg("%s from %d: anneal %lld, exact %lld", nets[i], (int)src,
                         (long long)tcd, (long long)cangwu_exact_value(x, src));
            CostParams p;
            cost_defaults(&p, COST_SEIDEL);
            Sim *sim = sim_run(s, &p, 0, err, sizeof err);
            assert_non_null(sim);
            assert_true(sim_totals(sim)->verified);
            assert_int_equal(sim_totals(sim)->tcd, tcd);
            /* the start was above the minimum somewhere: the search did the work */
            Sim *st = sim_run(t, &p, 0, err, sizeof err);
            above += sim_totals(st)->tcd > tcd;
            sim_free(st);
            sim_free(sim);
            sched_free(s);
            sched_free(t);
        }
        assert_true(above > 0);   /* the naive start is above the minimum somewhere */
        cangwu_exact_free(x);
        net_free(net);
    }
    /* and from tcd's own schedule (on 8x8, where the exact programme does not reach, the
     * result is at most tcd's) */
    Net *net = mknet("mesh:8x8");
    Sched *t = tcd_sched(net, 27), *s = sched_new(net, 1, 8);
    assert_true(sched_give(s, 27, 0, 1));
    int64_t tcd = -1;
    assert_true(cangwu_anneal(&t, 1, 200000, s, &tcd));
    assert_true(tcd <= 72 && tcd >= 69);   /* tcd from (3,3): 72; no source below the eyes' 69 */
    sched_free(s);
    sched_free(t);
    net_free(net);
}

/* 16x16: the search is exact under the square's symmetries (every image of a source gets the
 * same TCD), and at (3,6), where the old search's table (docs/tcd-tables.md before, `--set
 * moves=1000`, 295) and tcd (296) were not minimal, it finds 293 or less. */
static void test_16x16(void **state)
{
    (void)state;
    Net *net = mknet("mesh:16x16");
    int32_t imgs[8][2] = {{3, 6}, {6, 3}, {12, 6}, {6, 12}, {3, 9}, {9, 3}, {12, 9}, {9, 12}};
    int64_t v0 = -1;
    for (int i = 0; i < 8; i++) {
        int64_t v = run_algo(net, "tcd-opt", imgs[i][0] * 16 + imgs[i][1], "moves", "3000");
        if (v0 < 0)
            v0 = v;
        assert_int_equal(v, v0);
    }
    /* (the search's quality with 100 times that budget: in the release-built run, full.h;
     * it was 40% of this program's time under the sanitizers, the same search code as above) */
    int64_t v = FULL_RUN ? run_algo(net, "tcd-opt", 3 * 16 + 6, "moves", "300000") : 0;
    if (v > 293)
        fail_msg("16x16 from (3,6): tcd-opt %lld, want <= 293 (old table 295)", (long long)v);
    net_free(net);
}

/* A search asked to stop stops, with "cancelled" (the screen's q and Esc). */
static void test_cancel(void **state)
{
    (void)state;
    char err[256];
    Net *net = mknet("mesh:16x16");
    const AlgoDef *d = algo_find("tcd-opt", net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = 3 * 16 + 6;
    Progress p;
    progress_init(&p);
    atomic_store(&p.cancel, true);
    progress_attach(&p);
    for (int cf = 0; cf < 2; cf++) {
        assert_int_equal(algo_args_set(&a, d, "cf", cf ? "1" : "0", err, sizeof err), 0);
        Sched *sc = algo_build(d, net, &a, err, sizeof err);
        if (sc)
            fail_msg("cf=%d: a cancelled search returned a schedule", cf);
        assert_non_null(strstr(err, "cancelled"));
    }
    progress_attach(NULL);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eyes),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_mesh2d),
        cmocka_unit_test(test_fig2a_literal),
        cmocka_unit_test(test_3d_1d_torus),
        cmocka_unit_test(test_tso),
        cmocka_unit_test(test_tso_one_short),
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_anneal_exact),
        cmocka_unit_test(test_16x16),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
