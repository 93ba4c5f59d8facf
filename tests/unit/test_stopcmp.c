/* test_stopcmp.c — the s-to-p comparison behind `compare --sources` and the Chart panel's
 * figures (script/stopcmp.h): every figure of the s-to-p paper (2..8) plans, runs verified, and its
 * plot holds exactly the cells computed (the right x axis, one curve per algorithm or per
 * source spec, Fig. 8 as percentages); a cell is what an independent build and simulation
 * of the same setup gives; bad specs are one-line errors; a cancelled run stops. */
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
#include "../../src/engine/progress.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim.h"
#include "../../src/script/setup.h"
#include "../../src/script/stopcmp.h"

static StopCmp *run_figure(const StopFigure *f)
{
    char err[512] = "";
    StopCmp *c = stopcmp_plan(&f->spec, err, sizeof err);
    if (!c) fail_msg("figure %d: %s", f->number, err);
    assert_true(stopcmp_run(c));
    return c;
}

/* The cost of one setup built and simulated here, not through stopcmp. */
static double direct_cost(const char *net, const char *algo, const char *src, uint64_t bytes)
{
    char b[32], err[512];
    snprintf(b, sizeof b, "%llu", (unsigned long long)bytes);
    SetupSpec spec = {.net = net, .algo = algo, .bytes = b, .sources = src};
    Setup st;
    if (!setup_make(&spec, &st, err, sizeof err)) fail_msg("%s", err);
    Sched *s = algo_build(st.def, st.net, &st.args, err, sizeof err);
    assert_non_null(s);
    Sim *sim = sim_run(s, &st.cost, 0, err, sizeof err);
    assert_non_null(sim);
    double v = sim_totals(sim)->cost.total;
    sim_free(sim);
    sched_free(s);
    setup_free(&st);
    return v;
}

static void test_every_figure(void **state)
{
    (void)state;
    /* x points and curves of each figure, as the paper draws it */
    static const struct { int n, nx, nseries; bool percent; } want[] = {
        {2, 34, 5, false}, {3, 10, 5, false}, {4, 7, 5, false}, {5, 8, 3, false},
        {6, 8, 3, false},  {7, 3, 3, false},  {8, 12, 4, true},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const StopFigure *f = stopcmp_figure(want[w].n);
        assert_non_null(f);
        StopCmp *c = run_figure(f);
        for (int i = 0; i < stopcmp_nrows(c); i++)
            for (int k = 0; k < stopcmp_nalgos(c); k++)
                if (stopcmp_row(c, i)->state[k] != STOPCMP_OK)
                    fail_msg("figure %d row %d %s: state %d", f->number, i, stopcmp_algo(c, k),
                             stopcmp_row(c, i)->state[k]);
        StopPlot *p = malloc(sizeof *p);
        assert_non_null(p);
        assert_true(stopcmp_plot(f, c, p));
        if (p->nx != want[w].nx || p->nseries != want[w].nseries)
            fail_msg("figure %d: %d x %d, want %d x %d", f->number, p->nx, p->nseries,
                     want[w].nx, want[w].nseries);
        assert_int_equal(p->percent, want[w].percent);
        /* every plotted value is a computed cell; every cell is plotted */
        int found = 0;
        for (int j = 0; j < p->nseries; j++)
            for (int i = 0; i < p->nx; i++) {
                assert_false(isnan(p->y[j][i]));
                found++;
            }
        int cells = stopcmp_nrows(c) * (p->percent ? 1 : stopcmp_nalgos(c));
        assert_int_equal(found, cells);
        if (!p->percent && !f->series_by_source) {
            /* curve k at its row's x point is column k of that row */
            for (int i = 0; i < stopcmp_nrows(c); i++)
                for (int k = 0; k < stopcmp_nalgos(c); k++) {
                    double v = stopcmp_row(c, i)->cost[k];
                    bool hit = false;
                    for (int x = 0; x < p->nx; x++) hit |= p->y[k][x] == v;
                    assert_true(hit);
                }
        }
        free(p);
        stopcmp_free(c);
    }
    assert_null(stopcmp_figure(1));
    assert_null(stopcmp_figure(9));
}

/* A cell is the cost an independent build and simulation of that setup gives. */
static void test_cell_is_the_engine(void **state)
{
    (void)state;
    const StopFigure *f = stopcmp_figure(5);
    StopCmp *c = run_figure(f);
    for (int i = 0; i < stopcmp_nrows(c); i += 3)
        for (int k = 0; k < stopcmp_nalgos(c); k++) {
            const StopCmpRow *r = stopcmp_row(c, i);
            assert_true(fabs(r->cost[k] - direct_cost(r->net, stopcmp_algo(c, k), r->src,
                                                      r->bytes)) < 1e-9);
        }
    stopcmp_free(c);
}

/* Fig. 6: the total fixed (each source total/s bytes), and the paper's claim that spreading
 * the same data over more sources is faster: so for all three (80K over 40 sources beats 80K
 * over 5), much more for br-xy-source and br-xy-dim than for br-lin, which hardly gains under
 * seidel's one-port sub-rounds (docs/errata.md, s-to-p claims). */
static void test_fig6_total_and_claim(void **state)
{
    (void)state;
    const StopFigure *f = stopcmp_figure(6);
    StopCmp *c = run_figure(f);
    int n = stopcmp_nrows(c);
    for (int i = 0; i < n; i++)
        assert_int_equal(stopcmp_row(c, i)->bytes, 81920 / (uint64_t)stopcmp_row(c, i)->s);
    assert_int_equal(stopcmp_row(c, 0)->s, 5);
    assert_int_equal(stopcmp_row(c, n - 1)->s, 40);
    double gain_lin = 0, gain_xy = 1;
    for (int k = 0; k < stopcmp_nalgos(c); k++) {
        double gain = 1 - stopcmp_row(c, n - 1)->cost[k] / stopcmp_row(c, 0)->cost[k];
        assert_true(gain > 0);
        if (strcmp(stopcmp_algo(c, k), "br-lin") == 0)
            gain_lin = gain;
        else if (gain < gain_xy)
            gain_xy = gain;
    }
    assert_true(gain_lin < gain_xy / 2);
    stopcmp_free(c);
}

/* Fig. 8's percentage is 100 (relative - other) / relative, per row. */
static void test_fig8_percent(void **state)
{
    (void)state;
    const StopFigure *f = stopcmp_figure(8);
    StopCmp *c = run_figure(f);
    int rel = stopcmp_relcol(c);
    assert_int_equal(rel, 0);
    for (int i = 0; i < stopcmp_nrows(c); i++) {
        const StopCmpRow *r = stopcmp_row(c, i);
        double pc;
        assert_true(stopcmp_percent(c, i, 1, &pc));
        assert_true(fabs(pc - 100 * (r->cost[0] - r->cost[1]) / r->cost[0]) < 1e-9);
    }
    stopcmp_free(c);
}

static void test_bad_specs(void **state)
{
    (void)state;
    static const struct { StopCmpSpec s; const char *msg; } bad[] = {
        {{.net = "mesh:4x4"}, "missing --sources"},
        {{.sources = "R:3"}, "give one of --net"},
        {{.net = "mesh:4x4", .sources = "Q:3"}, "bad --sources item 'Q:3'"},
        {{.net = "mesh:4x4", .sources = "R:0"}, "s must be a positive number"},
        {{.net = "mesh:4x4", .sources = "R"}, "has no s"},
        {{.net = "mesh:4x4", .sources = "R", .s = "5:2"}, "bad --s"},
        {{.net = "mesh:4x4", .sources = "R:3", .bytes = "8K:1K"}, "bad --bytes"},
        {{.net = "mesh:4x4", .sources = "R:3", .bytes = "1K", .total = "8K"}, "exclude"},
        {{.net = "mesh:4x4", .sources = "R:3", .algos = "nope"}, "unknown algorithm 'nope'"},
        {{.net = "mesh:4x4", .sources = "R:3", .relative = "st"}, "--relative 'st'"},
        {{.net = "mesh:4x4", .sources = "R:3", .model = "nope"}, "model"},
        {{.net = "mesh:0x4", .sources = "R:3"}, "mesh"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512] = "";
        StopCmp *c = stopcmp_plan(&bad[i].s, err, sizeof err);
        if (c) fail_msg("case %zu planned", i);
        if (!strstr(err, bad[i].msg) || strchr(err, '\n'))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].msg);
    }
}

/* A cancelled run stops at the next cell and leaves the rest to do. */
static void test_cancel(void **state)
{
    (void)state;
    Progress p;
    progress_init(&p);
    atomic_store(&p.cancel, true);
    progress_attach(&p);
    StopCmp *c = stopcmp_plan(&stopcmp_figure(2)->spec, (char[256]){0}, 256);
    assert_non_null(c);
    assert_false(stopcmp_run(c));
    progress_attach(NULL);
    assert_int_equal(stopcmp_row(c, stopcmp_nrows(c) - 1)->state[0], STOPCMP_TODO);
    stopcmp_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_figure),
        cmocka_unit_test(test_cell_is_the_engine),
        cmocka_unit_test(test_fig6_total_and_claim),
        cmocka_unit_test(test_fig8_percent),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
