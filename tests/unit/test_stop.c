/* test_stop.c — s-to-p broadcasting (the s-to-p paper): the source distributions (exactly s
 * sources, the documented shapes, the paper's examples), bad --sources, every algorithm x
 * every distribution x s in {1, 2, 7, 30, p} on four meshes verified and valid (and timed
 * asynchronously: contention-free, never later than lockstep), the messages' bytes, and the paper's claims
 * that the engine can decide (docs/errata.md, s-to-p). */
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
#include "../../src/engine/dist.h"
#include "../../src/engine/sim-async.h"
#include "../../src/engine/sim.h"
#include "mknet.h"

static int32_t *cells(DistKind k, int32_t r, int32_t c, int32_t s)
{
    int32_t *v = malloc(sizeof *v * (size_t)s);
    char err[128];
    assert_non_null(v);
    if (!dist_cells(k, r, c, s, v, err, sizeof err))
        fail_msg("dist_cells %s:%d on %dx%d: %s", dist_name(k), s, r, c, err);
    return v;
}

static bool has(const int32_t *v, int32_t n, int32_t id)
{
    for (int32_t i = 0; i < n; i++)
        if (v[i] == id)
            return true;
    return false;
}

/* ---- distributions --------------------------------------------------------------------- */

static const int32_t grids[][2] = {{10, 10}, {8, 8}, {16, 32}, {7, 13}, {1, 16}, {13, 7}};

static void test_dist_exact(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int32_t r = grids[g][0], c = grids[g][1], p = r * c;
        const int32_t ss[] = {1, 2, 7, 30, p / 2, p - 1, p};
        for (int k = 0; k < DIST_NKINDS; k++)
            for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
                int32_t s = ss[i];
                if (s < 1 || s > p)
                    continue;
                int32_t *v = cells((DistKind)k, r, c, s);
                for (int32_t j = 0; j < s; j++) {
                    assert_true(v[j] >= 0 && v[j] < p);
                    if (j)
                        assert_true(v[j - 1] < v[j]);   /* sorted and distinct */
                }
                free(v);
            }
    }
}

/* Rows: ceil(s/c) rows at floor(k*r/i), all full but the one with the most... the last. */
static void test_dist_rows_cols(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int32_t r = grids[g][0], c = grids[g][1];
        for (int32_t s = 1; s <= r * c; s += 3) {
            int32_t *v = cells(DIST_ROW, r, c, s), i = (s + c - 1) / c;
            for (int32_t k = 0; k < i; k++) {
                int32_t row = k * r / i, n = 0;
                for (int32_t y = 0; y < c; y++)
                    n += has(v, s, row * c + y);
                assert_int_equal(n, k + 1 < i ? c : s - (i - 1) * c);
            }
            free(v);
            v = cells(DIST_COL, r, c, s);
            i = (s + r - 1) / r;
            for (int32_t k = 0; k < i; k++) {
                int32_t col = k * c / i, n = 0;
                for (int32_t x = 0; x < r; x++)
                    n += has(v, s, x * c + col);
                assert_int_equal(n, k + 1 < i ? r : s - (i - 1) * r);
            }
            free(v);
        }
    }
    /* the paper's example: R(20) on 10x10 in the first and sixth row; the ideal rows in the
     * first and seventh */
    int32_t *v = cells(DIST_ROW, 10, 10, 20);
    assert_int_equal(v[0], 0);
    assert_int_equal(v[10], 50);
    free(v);
    v = cells(DIST_ROW_IDEAL, 10, 10, 20);
    assert_int_equal(v[0], 0);
    assert_int_equal(v[10], 60);
    free(v);
}

/* Ri's promise, checked on every grid of up to 17 rows: its rows are sources whose
 * first-level Br_Lin partners (line x pairs with x + ceil(n/2); on an odd n the middle line,
 * which has no such partner, sends to the line after it, ceil(n/2): the one line 0 sends to)
 * are neither source rows nor shared, whenever that is possible at all (at most floor(n/2)
 * rows: an odd n leaves one line without a partner of its own). */
static void test_dist_ideal_rows_partners(void **state)
{
    (void)state;
    for (int32_t r = 2; r <= 17; r++)
        for (int32_t c = 1; c <= 9; c += 4)
            for (int32_t rows = 1; rows <= r / 2; rows++) {
                int32_t s = rows * c, h = (r + 1) / 2;
                int32_t *v = cells(DIST_ROW_IDEAL, r, c, s);
                bool src[32] = { false }, part[32] = { false };
                for (int32_t j = 0; j < s; j++)
                    src[v[j] / c] = true;
                int32_t nrows = 0;
                for (int32_t x = 0; x < r; x++) {
                    if (!src[x])
                        continue;
                    nrows++;
                    int32_t q = x < h ? (x + h < r ? x + h : x + 1) : x - h;
                    if (src[q] || part[q])
                        fail_msg("Ri:%d on %dx%d: row %d's partner %d is %s", (int)s, (int)r,
                                 (int)c, (int)x, (int)q, src[q] ? "a source" : "shared");
                    part[q] = true;
                }
                assert_int_equal(nrows, rows);
                free(v);
            }
}

static void test_dist_diag_equal_block(void **state)
{
    (void)state;
    int32_t *v = cells(DIST_DIAG_R, 10, 10, 10);
    for (int32_t x = 0; x < 10; x++)
        assert_int_equal(v[x], 11 * x);
    free(v);
    v = cells(DIST_DIAG_L, 10, 10, 10);
    for (int32_t x = 0; x < 10; x++)
        assert_int_equal(v[x], 9 * (x + 1));
    free(v);
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int32_t r = grids[g][0], c = grids[g][1], p = r * c, L = r < c ? r : c;
        for (int32_t s = 1; s <= p; s += 5) {
            /* a right diagonal has one source per row (r <= c) or column: never more */
            int32_t *d = cells(DIST_DIAG_R, r, c, s), mr, mc;
            int32_t i = (s + L - 1) / L;
            dist_max_per_line(r, c, d, s, &mr, &mc);
            assert_true((r <= c ? mr : mc) <= i);
            free(d);
            int32_t *e = cells(DIST_EQUAL, r, c, s);
            for (int32_t j = 0; j < s; j++)
                assert_int_equal(e[j], (int32_t)((int64_t)j * p / s));
            free(e);
            int32_t *b = cells(DIST_BLOCK, r, c, s), h = 0, w = 0;
            for (int32_t j = 0; j < s; j++) {
                h = b[j] / c + 1 > h ? b[j] / c + 1 : h;
                w = b[j] % c + 1 > w ? b[j] % c + 1 : w;
            }
            assert_true((int64_t)h * w - s < (h > w ? h : w));   /* a block, only one row short */
            free(b);
            /* the cross: every source on the middle bars' lines, about half on each */
            int32_t *x = cells(DIST_CROSS, r, c, s), inrow = 0;
            for (int32_t j = 0; j < s; j++)
                inrow += x[j] / c == r / 2;
            if (s / 2 + 1 <= (r < c ? r : c) && s >= 4)
                assert_true(inrow >= s / 2 - 1 && inrow <= s / 2 + 2);
            free(x);
        }
    }
}

static void test_dist_parse_errors(void **state)
{
    (void)state;
    Net *net = mknet("mesh:10x10");
    const char *bad[] = {"R:0", "R:101", "Q:3", "R:x", "R:", "1,1", "100", "", "3,4;3,4",
                         "0,,1", "-1", "R:-3", "Dr:1000000000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int32_t *v, n;
        DistKind k;
        char err[256] = "";
        assert_false(dist_parse(net, bad[i], &v, &n, &k, err, sizeof err));
        assert_true(err[0] != '\0');
        assert_null(strchr(err, '\n'));
    }
    int32_t *v, n;
    DistKind k;
    char err[256];
    assert_true(dist_parse(net, "42,7,3", &v, &n, &k, err, sizeof err));
    assert_int_equal(n, 3);
    assert_int_equal(v[0], 3);
    assert_int_equal(v[2], 42);
    assert_int_equal(k, DIST_LIST);
    free(v);
    assert_true(dist_parse(net, "3,4;0", &v, &n, &k, err, sizeof err));
    assert_int_equal(n, 2);
    assert_int_equal(v[1], 34);
    free(v);
    assert_true(dist_parse(net, "dr:10", &v, &n, &k, err, sizeof err));
    assert_int_equal(k, DIST_DIAG_R);
    free(v);
    net_free(net);
}

/* ---- algorithms ------------------------------------------------------------------------ */

static const char *const algos[] = {"br-lin", "br-xy-source", "br-xy-dim", "xor", "2-step",
                                    "repos-lin", "repos-xy-source", "part-lin",
                                    "part-xy-source"};

typedef struct {
    Sched *sched;
    Sim *sim;
} Built;

static double build_snake = 1;   /* br-lin's parameter snake */

static bool build(const char *algo, const Net *net, const int32_t *src, int32_t ns,
                  uint64_t bytes, Built *b, bool must)
{
    const AlgoDef *d = algo_find(algo, net);
    if (!d)
        fail_msg("no algorithm %s on %s", algo, net_spec(net));
    AlgoArgs a;
    algo_args_init(&a, d);
    a.sources = src;
    a.nsources = ns;
    a.source = src[0];
    a.bytes = bytes;
    if (d->nparams)
        a.param[0] = build_snake;
    char err[256];
    b->sched = algo_build(d, net, &a, err, sizeof err);
    if (!b->sched) {
        if (must)
            fail_msg("%s on %s with %d sources: %s", algo, net_spec(net), ns, err);
        return false;
    }
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    b->sim = sim_run(b->sched, &p, 0, err, sizeof err);
    if (!b->sim)
        fail_msg("sim_run: %s", err);
    return true;
}

static void unbuild(Built *b)
{
    sim_free(b->sim);
    sched_free(b->sched);
}

static void test_sweep(void **state)
{
    (void)state;
    const char *nets[] = {"mesh:10x10", "mesh:8x8", "mesh:16x32", "mesh:7x13"};
    int runs = 0;
    for (size_t n = 0; n < sizeof nets / sizeof nets[0]; n++) {
        Net *net = mknet(nets[n]);
        int32_t r = net_dim(net, 0), c = net_dim(net, 1), p = r * c;
        const int32_t ss[] = {1, 2, 7, 30, p};
        for (int k = 0; k < DIST_NKINDS; k++)
            for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) {
                int32_t s = ss[i];
                if (s == p && k != DIST_ROW)
                    continue;   /* every distribution of p sources is every node */
                int32_t *v = cells((DistKind)k, r, c, s);
                for (size_t al = 0; al < sizeof algos / sizeof algos[0]; al++) {
                    Built b;
                    build(algos[al], net, v, s, 100, &b, true);
                    const SimTotals *t = sim_totals(b.sim);
                    if (!t->verified || !t->valid)
                        fail_msg("%s on %s %s:%d: verified %d valid %d", algos[al], nets[n],
                                 dist_name((DistKind)k), s, t->verified, t->valid);
                    assert_int_equal(t->informed_before, s);
                    /* --timing async: every s-to-p schedule times event by event; with no
                     * link over capacity and no port conflict it is never later than
                     * lockstep (no waiting for a step's slowest transfer); with shared links
                     * it may be (async serialises whole transfers where lockstep charges
                     * only the contention factor: part-lin with one source) */
                    char aerr[256];
                    SimAsync *as = sim_async_run(b.sched, sim_params(b.sim), 0, aerr, sizeof aerr);
                    if (!as)
                        fail_msg("async %s on %s %s:%d: %s", algos[al], nets[n],
                                 dist_name((DistKind)k), s, aerr);
                    double at = sim_async_total(as);
                    bool free_ = t->link_overloads == 0 && t->port_conflicts == 0;
                    if (!(at > 0 || s == p) || !isfinite(at) ||
                        (free_ && at > t->cost.total * (1 + 1e-12)))
                        fail_msg("async %s on %s %s:%d: %g against lockstep %g", algos[al],
                                 nets[n], dist_name((DistKind)k), s, at, t->cost.total);
                    sim_async_free(as);
                    assert_int_equal(t->nsteps ? sim_step(b.sim, t->nsteps - 1)->informed
                                               : t->informed_before, p);
                    /* the combining algorithms and xor deliver every message to every other
                     * node exactly once */
                    if (al <= 3)
                        assert_int_equal(t->bytes, (uint64_t)s * 100 * (uint64_t)(p - 1));
                    unbuild(&b);
                    runs++;
                }
                free(v);
            }
        net_free(net);
    }
    /* and on arrays, where the linear ones run */
    Net *net = mknet("array:13");
    int32_t v[13];
    for (int32_t s = 1; s <= 13; s += 4) {
        dist_cells(DIST_EQUAL, 1, 13, s, v, NULL, 0);
        const char *lin[] = {"br-lin", "xor", "2-step", "repos-lin", "part-lin"};
        for (size_t al = 0; al < 5; al++) {
            Built b;
            build(lin[al], net, v, s, 64, &b, true);
            assert_true(sim_totals(b.sim)->verified && sim_totals(b.sim)->valid);
            unbuild(&b);
        }
    }
    net_free(net);
    assert_true(runs > 1000);
}

/* Every message is exactly --bytes long, whatever s and the chunk count. */
static void test_message_bytes(void **state)
{
    (void)state;
    Net *net = mknet("mesh:7x13");
    int32_t v[91];
    dist_cells(DIST_CROSS, 7, 13, 30, v, NULL, 0);
    Built b;
    build("br-lin", net, v, 30, 1001, &b, true);
    assert_int_equal(sched_bytes(b.sched), 30 * 1001);
    assert_int_equal(sched_ngiven(b.sched), 30);
    for (size_t i = 0; i < sched_ngiven(b.sched); i++) {
        int32_t node;
        ChunkRange rg;
        sched_given(b.sched, i, &node, &rg);
        assert_true(has(v, 30, node));
        assert_int_equal(sched_range_bytes(b.sched, rg.lo, rg.hi), 1001);
    }
    unbuild(&b);
    /* one-source algorithms refuse many sources; with one they run */
    const AlgoDef *st = algo_find("st", net);
    AlgoArgs a;
    algo_args_init(&a, st);
    a.sources = v;
    a.nsources = 30;
    char err[256];
    assert_false(algo_check(st, net, &a, err, sizeof err));
    assert_non_null(strstr(err, "s-to-p"));
    net_free(net);
}

/* ---- the paper's claims ---------------------------------------------------------------- */

static bool same_schedule(const char *net_spec_, DistKind k, int32_t s, double snake)
{
    Net *net = mknet(net_spec_);
    int32_t *v = cells(k, net_dim(net, 0), net_dim(net, 1), s);
    Built a, b;
    build_snake = snake;
    build("br-lin", net, v, s, 512, &a, true);
    build_snake = 1;
    build("br-xy-source", net, v, s, 512, &b, true);
    bool eq = sched_equal(a.sched, b.sched);
    unbuild(&a);
    unbuild(&b);
    free(v);
    net_free(net);
    return eq;
}

/* "When the number of rows is a power of 2, Algorithm Br_Lin is actually identical to
 * Algorithm Br_xy_source" on a row distribution: true in plain row-major order (br-lin
 * snake=0) for 2, 4, 8, 16 rows; not in the paper's own snake order (the last column level
 * pairs (x,j) with (x+1,c-1-j) across the turn of the snake: erratum), nor for 10 rows. */
static void test_claim_brlin_is_brxy(void **state)
{
    (void)state;
    assert_true(same_schedule("mesh:8x8", DIST_ROW, 16, 0));
    assert_true(same_schedule("mesh:16x32", DIST_ROW, 30, 0));
    assert_true(same_schedule("mesh:4x10", DIST_ROW, 20, 0));
    assert_true(same_schedule("mesh:2x8", DIST_ROW, 8, 0));
    assert_true(same_schedule("mesh:16x32", DIST_ROW, 100, 0));
    assert_false(same_schedule("mesh:8x8", DIST_ROW, 16, 1));
    assert_false(same_schedule("mesh:16x32", DIST_ROW, 30, 1));
    assert_false(same_schedule("mesh:10x10", DIST_ROW, 20, 0));
    assert_false(same_schedule("mesh:8x8", DIST_COL, 16, 0));
}

static int32_t informed_after(const char *algo, const char *netspec, DistKind k, int32_t s,
                              int32_t step)
{
    Net *net = mknet(netspec);
    int32_t *v = cells(k, net_dim(net, 0), net_dim(net, 1), s);
    Built b;
    build(algo, net, v, s, 1024, &b, true);
    int32_t n = sim_step(b.sim, step)->informed;
    unbuild(&b);
    free(v);
    net_free(net);
    return n;
}

/* R(20) on 10x10: "the first iteration does not increase the number of source processors"
 * for Br_xy_source (it goes columns first: rows 0 and 5 are partners); the ideal rows 0 and 6
 * double.  Dr(10) on 10x10 with Br_Lin: the paper says no increase; in our snake model the
 * first iteration goes from 10 to 18 (two pairs of sources meet: erratum in docs). */
static void test_claim_first_iteration(void **state)
{
    (void)state;
    assert_int_equal(informed_after("br-xy-source", "mesh:10x10", DIST_ROW, 20, 0), 20);
    assert_int_equal(informed_after("br-xy-source", "mesh:10x10", DIST_ROW_IDEAL, 20, 0), 40);
    assert_int_equal(informed_after("br-lin", "mesh:10x10", DIST_DIAG_R, 10, 0), 18);
    /* odd row counts: the ideal rows double in the first column step too (Ri:18 on 9x9 was
     * rows 0 and 4, both partnered with row 5: 27, not 36) */
    assert_int_equal(informed_after("br-xy-source", "mesh:9x9", DIST_ROW_IDEAL, 18, 0), 36);
    assert_int_equal(informed_after("br-xy-source", "mesh:7x6", DIST_ROW_IDEAL, 18, 0), 36);
    assert_int_equal(informed_after("br-xy-source", "mesh:11x6", DIST_ROW_IDEAL, 30, 0), 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dist_exact),
        cmocka_unit_test(test_dist_rows_cols),
        cmocka_unit_test(test_dist_ideal_rows_partners),
        cmocka_unit_test(test_dist_diag_equal_block),
        cmocka_unit_test(test_dist_parse_errors),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_message_bytes),
        cmocka_unit_test(test_claim_brlin_is_brxy),
        cmocka_unit_test(test_claim_first_iteration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
