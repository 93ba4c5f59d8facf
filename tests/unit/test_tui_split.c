/* test_tui_split.c — a big broadcast shown before its whole history is simulated (issue 9:
 * rh on mesh:1024x1024 steppable within 1.5 s).  The engine half: sim_run_prefix's steps are
 * sim_run's.  The App half (thresholds lowered so that small nets split): app_set_spec with a
 * wait hook hands over the first steps while a worker simulates the rest; those steps, their
 * holdings and the narration are the whole's; going past them waits for the whole (drawing),
 * after which every step and the totals are sim_run's; freeing the App meanwhile stops the
 * worker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sim.h"
#include "../../src/script/setup.h"
#include "../../src/tui/app-core.h"

static const char *const cases[][2] = {
    {"mesh:32x32", "rh"}, {"mesh:16x16", "st"}, {"array:64", "bst"}, {"torus:8x8", "chain"},
    {"mesh:4x4x4", "chain"}, {"array:48", "st"},
};

static void same_step(const SimStep *x, const SimStep *y)
{
    assert_true(x->cost.total == y->cost.total);
    assert_true(x->cost.contention == y->cost.contention);
    assert_int_equal(x->ntransfers, y->ntransfers);
    assert_int_equal(x->max_link_load, y->max_link_load);
    assert_int_equal(x->link_overloads, y->link_overloads);
    assert_int_equal(x->informed, y->informed);
}

static void same_holdings(Sim *x, Sim *y, int32_t size)
{
    for (int32_t v = 0; v < size; v++)
        assert_int_equal(sim_held(x, v), sim_held(y, v));
}

/* Case c built and simulated whole (the reference); its setup and spec in st and sp. */
typedef struct {
    Setup st;
    SetupSpec sp;
    Sched *s;
    Sim *whole;
    int32_t n;
} Ref;

static void ref_make(size_t c, Ref *r)
{
    char err[300];
    memset(r, 0, sizeof *r);
    r->sp.net = cases[c][0];
    r->sp.algo = cases[c][1];
    if (!setup_make(&r->sp, &r->st, err, sizeof err)) fail_msg("%s", err);
    r->s = algo_build(r->st.def, r->st.net, &r->st.args, err, sizeof err);
    assert_non_null(r->s);
    r->whole = sim_run(r->s, &r->st.cost, SIM_HISTORY, err, sizeof err);
    assert_non_null(r->whole);
    r->n = sched_nsteps(r->s);
}

static void ref_free(Ref *r)
{
    sim_free(r->whole);
    sched_free(r->s);
    setup_free(&r->st);
}

/* Every prefix length: the same steps, holdings at every position, never verified. */
static void test_prefix(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        Ref r;
        ref_make(c, &r);
        Setup st = r.st;
        Sched *s = r.s;
        Sim *whole = r.whole;
        int32_t n = r.n;
        char err[300];
        for (int32_t m = 0; m <= n + 1; m += (n > 12 ? n / 6 : 1)) {
            Sim *p = sim_run_prefix(s, &st.cost, SIM_HISTORY, m, err, sizeof err);
            assert_non_null(p);
            int32_t k = m < n ? m : n;
            assert_int_equal(sim_totals(p)->nsteps, k);
            assert_int_equal(sim_totals(p)->verified, m >= n);
            assert_int_equal(sim_pos(p), k);
            assert_null(sim_step(p, k));
            assert_false(sim_seek(p, k + 1));
            for (int32_t i = 0; i < k; i++) {
                same_step(sim_step(p, i), sim_step(whole, i));
                assert_true(sim_cost_until(p, i) == sim_cost_until(whole, i));
            }
            for (int32_t pos = k; pos >= 0; pos -= (k > 4 ? k / 4 : 1)) {
                assert_true(sim_seek(p, pos));
                assert_true(sim_seek(whole, pos));
                same_holdings(p, whole, net_size(st.net));
            }
            sim_free(p);
        }
        assert_null(sim_run_prefix(s, &st.cost, SIM_HISTORY, -1, err, sizeof err));
        ref_free(&r);
    }
}

static int hook_calls;
static bool hook(App *a, const char *what, const Progress *p, double el, void *ctx)
{
    (void)a; (void)what; (void)p; (void)el; (void)ctx;
    hook_calls++;
    return true;
}

static void test_app_split(void **state)
{
    (void)state;
    app_split_min = 1;
    app_prefix_transfers = 40;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        Ref r;
        ref_make(c, &r);
        Setup st = r.st;
        SetupSpec sp = r.sp;
        Sim *whole = r.whole;
        int32_t n = r.n;

        App *a = app_new();
        a->wait = hook;
        app_layout(a, 160, 40);
        assert_true(app_set_spec(a, &sp));
        assert_true(app_partial(a));
        int32_t m = a->b.nsim;
        assert_true(m >= 1 && m < n);
        long long done, total;
        assert_true(app_rest_progress(a, &done, &total));
        /* the first steps: the whole's numbers, holdings and words */
        for (int32_t pos = 0; pos <= m; pos++) {
            app_goto(a, pos);
            assert_int_equal(a->b.pos, pos);
            assert_true(sim_seek(whole, pos));
            same_holdings(a->b.sim, whole, net_size(st.net));
            if (pos > 0) same_step(sim_step(a->b.sim, pos - 1), sim_step(whole, pos - 1));
        }
        assert_true(app_partial(a));    /* still: only app_poll or a later step takes it in */
        /* a later step waits for the whole */
        app_goto(a, m + 1);
        assert_false(app_partial(a));
        assert_false(app_rest_progress(a, &done, &total));
        assert_int_equal(a->b.nsim, n);
        assert_int_equal(a->b.pos, m + 1);
        assert_true(sim_totals(a->b.sim)->verified);
        assert_true(sim_totals(a->b.sim)->cost.total == sim_totals(whole)->cost.total);
        assert_true(sim_seek(whole, m + 1));
        same_holdings(a->b.sim, whole, net_size(st.net));
        app_goto(a, n);
        assert_int_equal(a->b.pos, n);
        app_free(a);

        /* freed while the rest runs: the worker stops, nothing leaks */
        a = app_new();
        a->wait = hook;
        assert_true(app_set_spec(a, &sp));
        assert_true(app_partial(a));
        app_free(a);

        /* from a later position than the first steps: no split */
        a = app_new();
        a->wait = hook;
        assert_true(app_set_spec(a, &sp));
        app_goto(a, n);
        assert_true(app_rebuild(a));
        assert_false(app_partial(a));
        assert_int_equal(a->b.pos, n);
        app_free(a);

        ref_free(&r);
    }
    app_split_min = APP_LONG_SEEK_TRANSFERS;
    app_prefix_transfers = 262144;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_app_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
