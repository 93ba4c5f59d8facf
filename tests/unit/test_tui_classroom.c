/* test_tui_classroom.c — issue 9's screen half without a terminal: long builds that report
 * progress and can be cancelled (engine/progress.h, the App's wait hook), the cursor on folded
 * arrays, the bytes picker, theme names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "srctree.h"

#include "../../src/algos/algo.h"
#include "../../src/engine/progress.h"
#include "../../src/script/setup.h"
#include "../../src/tui/app-core.h"
#include "../../src/tui/overview.h"
#include "../../src/tui/theme.h"

static App *open_app(const char *net, const char *algo)
{
    App *a = app_new();
    assert_non_null(a);
    SetupSpec spec = {0};
    spec.net = net;
    spec.algo = algo;
    if (!app_set_spec(a, &spec)) fail_msg("%s %s: %s", net, algo, a->msg);
    app_layout(a, 160, 40);
    return a;
}

/* A Progress that asks to stop makes the builder and the simulator give up with "cancelled";
 * one that does not ask sees the build's transfers and every simulated step. */
static void test_progress_engine(void **state)
{
    (void)state;
    Setup st;
    char err[200];
    SetupSpec spec = {.net = "mesh:16x16", .algo = "rh"};
    assert_true(setup_make(&spec, &st, err, sizeof err));
    Progress p;
    progress_init(&p);
    progress_attach(&p);
    Sched *s = algo_build(st.def, st.net, &st.args, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(atomic_load(&p.done), sched_total_transfers(s));
    Sim *sim = sim_run(s, &st.cost, SIM_HISTORY, err, sizeof err);
    assert_non_null(sim);
    assert_int_equal(atomic_load(&p.phase), PROGRESS_SIM);
    assert_int_equal(atomic_load(&p.total), sched_nsteps(s));
    assert_int_equal(atomic_load(&p.done), sched_nsteps(s) - 1);
    sim_free(sim);
    atomic_store(&p.cancel, true);
    err[0] = '\0';
    assert_null(sim_run(s, &st.cost, SIM_HISTORY, err, sizeof err));
    assert_string_equal(err, "cancelled");
    sched_free(s);
    err[0] = '\0';
    assert_null(algo_build(st.def, st.net, &st.args, err, sizeof err));
    assert_non_null(strstr(err, "cancelled"));
    progress_attach(NULL);
    /* detached: nothing stops */
    s = algo_build(st.def, st.net, &st.args, err, sizeof err);
    assert_non_null(s);
    sched_free(s);
    setup_free(&st);
}

/* The App's wait hook: called while the build runs on a worker; false cancels it and the
 * broadcast shown stays. */
typedef struct {
    int calls;
    int cancel_at;     /* cancel on this call (0: never) */
    char what[160];
} Hook;

static bool hook(App *a, const char *what, const Progress *p, double el, void *ctx)
{
    (void)a; (void)p; (void)el;
    Hook *h = ctx;
    snprintf(h->what, sizeof h->what, "%s", what);
    return ++h->calls != h->cancel_at;
}

static void test_build_cancel(void **state)
{
    (void)state;
    App *a = open_app("mesh:8x8", "st");
    long gen = a->b.gen;
    Hook h = {0, 1, ""};
    a->wait = hook;
    a->wait_ctx = &h;
    assert_false(app_command(a, "net mesh:1024x1024"));   /* long enough to be asked */
    assert_true(a->cancelled);
    assert_true(h.calls >= 1);
    assert_string_equal(h.what, "building st on mesh:1024x1024");
    assert_string_equal(net_spec(a->b.setup.net), "mesh:8x8");   /* kept */
    assert_int_equal(a->b.gen, gen);
    assert_false(a->msg_error);
    /* not cancelled: it is built */
    h.calls = 0;
    h.cancel_at = 0;
    assert_true(app_command(a, "net mesh:64x64"));
    assert_false(a->cancelled);
    assert_string_equal(net_spec(a->b.setup.net), "mesh:64x64");
    app_free(a);
}

/* Defect 8: on a folded array, l goes on to the next node across rows, h back; j/k a row. */
static void test_folded_cursor(void **state)
{
    (void)state;
    App *a = open_app("array:64", "st");
    app_layout(a, 70, 30);
    assert_true(a->lay.per_row > 1 && a->lay.per_row < 64);
    int per = a->lay.per_row;
    a->cursor = per - 1;                 /* the end of the first row */
    app_key(a, "l");
    assert_int_equal(a->cursor, per);
    app_key(a, "h");
    assert_int_equal(a->cursor, per - 1);
    app_key(a, "j");
    assert_int_equal(a->cursor, 2 * per - 1);
    a->cursor = 63;
    app_key(a, "l");
    assert_int_equal(a->cursor, 63);
    app_key(a, "<Right>");
    assert_int_equal(a->cursor, 63);
    a->cursor = 0;
    app_key(a, "h");
    assert_int_equal(a->cursor, 0);
    app_free(a);
}

/* Defect 11: the bytes picker lists the current size (also an odd one) and 1M. */
static void test_bytes_picker(void **state)
{
    (void)state;
    App *a = open_app("mesh:8x8", "st");
    app_key(a, "b");
    assert_int_equal(a->mode, MODE_PICKER);
    bool have_1k = false, have_1m = false;
    for (size_t i = 0; i < a->nitems; i++) {
        if (strcmp(a->items[i], "1K") == 0) have_1k = true;
        if (strcmp(a->items[i], "1M") == 0) have_1m = true;
    }
    assert_true(have_1k);
    assert_true(have_1m);
    assert_string_equal(a->items[a->pick_sel], "1K");   /* opens on the current size */
    app_key(a, "<Escape>");
    assert_true(app_command(a, "bytes 3000"));
    app_key(a, "b");
    assert_string_equal(a->items[a->pick_sel], "3000");
    for (size_t i = 1; i < a->nitems; i++) {   /* in order */
        uint64_t x, y;
        assert_true(setup_parse_bytes(a->items[i - 1], &x));
        assert_true(setup_parse_bytes(a->items[i], &y));
        assert_true(x < y);
    }
    app_key(a, "<Escape>");
    app_free(a);
}

/* Defect 11: a theme is a name, never a path. */
static void test_theme_names(void **state)
{
    (void)state;
    char err[300];
    assert_true(theme_check("default", err, sizeof err));
    assert_true(theme_check("contrast", err, sizeof err));
    assert_false(theme_check("nosuch", err, sizeof err));
    assert_non_null(strstr(err, "no theme 'nosuch'"));
    assert_false(theme_check("../../etc/passwd", err, sizeof err));
    assert_non_null(strstr(err, "a theme is a name"));
    App *a = open_app("mesh:8x8", "st");
    assert_false(app_command(a, "theme ../../etc/passwd"));
    assert_true(a->msg_error);
    assert_false(a->theme_changed);
    assert_false(app_command(a, "theme /etc/passwd"));
    assert_true(app_command(a, "theme contrast"));
    assert_true(a->theme_changed);
    app_free(a);
}

/* Defect 9: receiving and overloaded look different in the contrast theme and without colour. */
static void test_recv_vs_overload(void **state)
{
    (void)state;
    char err[300];
    const char *themes[] = {"default", "contrast"};
    for (int i = 0; i < 2; i++) {
        assert_true(theme_check(themes[i], err, sizeof err));
        int f1, b1, a1, m1, f2, b2, a2, m2;
        theme_role(R_RECV, &f1, &b1, &a1, &m1);
        theme_role(R_OVERLOAD, &f2, &b2, &a2, &m2);
        assert_true(b1 != b2 || f1 != f2);
        /* not just a hue apart: another attribute too (underline), for colour blindness */
        assert_true(a1 != a2);
        assert_true(m1 != m2);   /* NO_COLOR */
        theme_role(R_CONFLICT, &f2, &b2, &a2, &m2);
        assert_true(m1 != m2);
    }
}

/* Narration: every step in words with the engine's numbers. */
static void test_narration(void **state)
{
    (void)state;
    App *a = open_app("mesh:8x8", "rh");
    int32_t n = app_nsteps(a);
    char want[160];
    snprintf(want, sizeof want, "Before step 1: (0,0) holds the whole message");
    app_goto(a, 0);
    assert_non_null(strstr(app_narration(a), want));
    for (int32_t k = 1; k <= n; k++) {
        app_goto(a, k);
        const char *t = app_narration(a);
        const SimStep *S = sim_step(a->b.sim, k - 1);
        snprintf(want, sizeof want, "Step %ld/%ld: ", (long)k, (long)n);
        assert_non_null(strstr(t, want));
        snprintf(want, sizeof want, "= %.2f", S->cost.total);
        assert_non_null(strstr(t, want));
        if (S->link_overloads > 0) {
            snprintf(want, sizeof want, "%lld link%s overloaded, up to %ld circuits",
                     (long long)S->link_overloads, S->link_overloads == 1 ? "" : "s",
                     (long)S->max_link_load);
            assert_non_null(strstr(t, want));
        } else if (sched_ntransfers(a->b.sched, k - 1) > 0) {
            assert_non_null(strstr(t, "no link shared"));
        }
    }
    app_free(a);
}

/* The overview: blocks cover every node once; :hot finds the step's peak load. */
static void test_overview(void **state)
{
    (void)state;
    App *a = open_app("mesh:64x64", "rh");
    app_layout(a, 160, 40);
    int32_t best = 0, bs = 0;
    for (int32_t k = 0; k < app_nsteps(a); k++)
        if (sim_step(a->b.sim, k)->max_link_load > best) {
            best = sim_step(a->b.sim, k)->max_link_load;
            bs = k;
        }
    app_goto(a, bs + 1);
    assert_true(app_command(a, "overview 8"));
    assert_int_equal(a->ov_block, 8);
    OvBlock o;
    int br, bc;
    int64_t nodes = 0;
    /* a block is 8 rows by 4 columns (a character is about twice as tall as wide) */
    assert_int_equal(overview_bcols(a->b.setup.net, 8), 4);
    OvSrc src = app_overview_src(a);
    for (int32_t r = 0; r < 64; r += 8)
        for (int32_t c = 0; c < 64; c += 4)
            if (overview_block(a->ov, &src, r * 64 + c, &o, &br, &bc)) {
                assert_int_equal(br, r / 8);
                assert_int_equal(bc, c / 4);
                nodes += o.nodes;
            }
    assert_int_equal(nodes, net_size(a->b.setup.net));
    assert_true(app_command(a, "hot"));
    src = app_overview_src(a);
    assert_true(overview_block(a->ov, &src, a->cursor, &o, &br, &bc));
    assert_int_equal(o.peak, best);
    app_key(a, "z");                 /* zoom in: a smaller block, then the map again */
    assert_int_equal(a->ov_block, 4);
    assert_true(app_command(a, "overview off"));
    assert_int_equal(a->ov_block, 0);
    app_free(a);
}

/* The overview grades overload against the links' capacity C (2^nu under seidel, 1 under the
 * other models; docs/model.md "Link loads"), as the engine counts link_overloads: over every
 * step of rh on mesh:16x16 under nu = 0, 1, 2 and postal, the blocks' overloaded links add up
 * to the step's link_overloads, a block has a digit exactly when one of its links is over C,
 * and the digit d is the one with (2^d - 1) C < peak <= (2^(d+1) - 1) C (ceil(peak/C) in
 * 2^d .. 2^(d+1)-1).  The grades used to be of the absolute load: 2 circuits under nu = 1 were
 * a digit 1. */
static void test_overview_capacity(void **state)
{
    (void)state;
    /* the grade by the closed intervals, for capacities 1, 2, 4 */
    assert_int_equal(overview_grade(1, 1), 0);
    assert_int_equal(overview_grade(2, 1), 1);
    assert_int_equal(overview_grade(3, 1), 1);
    assert_int_equal(overview_grade(4, 1), 2);
    assert_int_equal(overview_grade(256, 1), 8);
    assert_int_equal(overview_grade(2, 2), 0);
    assert_int_equal(overview_grade(3, 2), 1);
    assert_int_equal(overview_grade(6, 2), 1);
    assert_int_equal(overview_grade(7, 2), 2);
    assert_int_equal(overview_grade(16, 2), 3);
    assert_int_equal(overview_grade(4, 4), 0);
    assert_int_equal(overview_grade(5, 4), 1);
    for (int c = 1; c <= 8; c *= 2)
        for (int32_t p = 0; p <= 600; p++) {
            int want = 0;
            for (int d = 1; d <= 9; d++)
                if ((int64_t)((1 << d) - 1) * c < p && (d == 9 || p <= (int64_t)((2 << d) - 1) * c))
                    want = d;
            assert_int_equal(overview_grade(p, c), want);
        }
    App *a = open_app("mesh:16x16", "rh");
    const char *const sets[] = {"set nu=0", "set nu=1", "set nu=2", "model postal"};
    const int caps[] = {1, 2, 4, 1};
    int64_t overloads = 0, graded = 0, quiet = 0;   /* (the cases the test reached) */
    for (int i = 0; i < 4; i++) {
        assert_true(app_command(a, sets[i]));
        assert_true(app_command(a, "overview 2"));
        for (int32_t k = 0; k < app_nsteps(a); k++) {
            app_goto(a, k + 1);
            OvSrc src = app_overview_src(a);
            assert_int_equal(overview_capacity(&src), caps[i]);
            const SimStep *S = sim_step(a->b.sim, k);
            int64_t over = 0;
            /* a block is 2 rows by 1 column: its first nodes are (2r, c) */
            for (int32_t r = 0; r < 16; r += 2)
                for (int32_t c = 0; c < 16; c++) {
                    OvBlock o;
                    int br, bc;
                    assert_true(overview_block(a->ov, &src, r * 16 + c, &o, &br, &bc));
                    assert_int_equal(o.nodes, 2);
                    over += o.over;
                    int d = overview_grade(o.peak, caps[i]);
                    assert_int_equal(d > 0, o.over > 0);
                    assert_int_equal(d > 0, o.peak > caps[i]);
                    graded += d > 0;
                    quiet += d == 0 && o.peak > 1;
                }
            assert_int_equal(over, S->link_overloads);
            overloads += over;
        }
    }
    /* the runs had overloaded links, graded blocks, and blocks sharing links within capacity */
    assert_true(overloads > 0);
    assert_true(graded > 0);
    assert_true(quiet > 0);
    app_free(a);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!srctree_enter(argv[0], "assets/contrast.theme")) return 1;
    char cwd[4096], dir[4200];
    if (!getcwd(cwd, sizeof cwd)) return 1;
    snprintf(dir, sizeof dir, "%s/assets", cwd);
    setenv("MESHCAST_ASSETS", dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_engine),
        cmocka_unit_test(test_build_cancel),
        cmocka_unit_test(test_folded_cursor),
        cmocka_unit_test(test_bytes_picker),
        cmocka_unit_test(test_theme_names),
        cmocka_unit_test(test_recv_vs_overload),
        cmocka_unit_test(test_narration),
        cmocka_unit_test(test_overview),
        cmocka_unit_test(test_overview_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
