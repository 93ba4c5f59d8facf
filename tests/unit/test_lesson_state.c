/* test_lesson_state.c — issue 9 defect 1: every page of every shipped lesson shows exactly the
 * broadcast its lesson defines (what pages 1..k add up to from meshcast's defaults), whatever
 * was on screen before: reached forwards, backwards, by reopening the lesson at that page, and
 * right after another lesson's page (no nu, bytes, source or anything else leaking).
 *
 * The expected broadcast is folded here from the pages' own fields, independently of
 * lesson_state, built with setup_make, and compared field by field (net, algorithm, source,
 * bytes, model and every cost parameter, the algorithm's parameters, the step) with what the
 * App actually built and shows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "srctree.h"

#include "../../src/script/lesson-state.h"
#include "../../src/script/lesson-try.h"
#include "../../src/script/lesson.h"
#include "../../src/script/setup.h"
#include "../../src/tui/app-core.h"

#define MAXL 32

static char *names[MAXL];
static size_t nnames;

/* The page's broadcast, folded from the page fields of pages 1..k. */
typedef struct {
    const char *net, *algo, *source, *model, *sources, *fit;
    char bytes[24];
    const char *sets[64];
    size_t nsets;
    int32_t step;
} Want;

static void fold(const Lesson *l, size_t k, Want *w)
{
    memset(w, 0, sizeof *w);
    for (size_t i = 0; i <= k; i++) {
        const LessonPage *p = lesson_page(l, i);
        if (p->net) w->net = p->net, w->source = NULL, w->sources = NULL;
        if (p->algo) w->algo = p->algo;
        if (p->source) w->source = p->source, w->sources = NULL;
        if (p->sources) w->sources = p->sources, w->source = NULL;
        if (p->model) w->model = p->model;
        if (p->fit) w->fit = p->fit;
        if (p->bytes) snprintf(w->bytes, sizeof w->bytes, "%llu", (unsigned long long)p->bytes);
        if (p->step >= 0) w->step = p->step;
        for (size_t j = 0; j < p->nset; j++) {
            size_t kl = strcspn(p->set[j], "=");
            size_t m;
            for (m = 0; m < w->nsets; m++)
                if (strncmp(w->sets[m], p->set[j], kl + 1) == 0) break;
            if (m == w->nsets) w->nsets++;
            w->sets[m] = p->set[j];
        }
    }
}

static void check_shows(App *a, const Lesson *l, size_t k, const char *how)
{
    const char *id = lesson_id(l);
    Want w;
    fold(l, k, &w);
    SetupSpec spec = {w.net, w.algo, w.source, w.bytes[0] ? w.bytes : NULL, w.model, w.fit,
                      w.sets, w.nsets, w.sources, NULL, NULL, NULL};
    Setup want;
    char err[300];
    if (!setup_make(&spec, &want, err, sizeof err))
        fail_msg("%s page %zu: the page's own broadcast does not build: %s", id, k + 1, err);
    if (!a->b.ready) fail_msg("%s page %zu (%s): nothing shown", id, k + 1, how);
    if (a->page != k) fail_msg("%s (%s): page %zu shown, not %zu", id, how, a->page + 1, k + 1);
    const Setup *got = &a->b.setup;
    char what[400] = "";
#define DIFF(cond, ...) do { if (cond) { size_t n_ = strlen(what); \
        snprintf(what + n_, sizeof what - n_, __VA_ARGS__); } } while (0)
    DIFF(strcmp(net_spec(got->net), net_spec(want.net)) != 0, " net %s (want %s)",
         net_spec(got->net), net_spec(want.net));
    DIFF(strcmp(got->def->name, want.def->name) != 0, " algo %s (want %s)", got->def->name,
         want.def->name);
    DIFF(got->args.source != want.args.source, " source %d (want %d)", (int)got->args.source,
         (int)want.args.source);
    DIFF(got->nsources != want.nsources || (want.nsources && memcmp(got->sources, want.sources,
         sizeof *want.sources * (size_t)want.nsources) != 0), " sources %d (want %d)",
         (int)got->nsources, (int)want.nsources);
    DIFF(got->args.bytes != want.args.bytes, " bytes %llu (want %llu)",
         (unsigned long long)got->args.bytes, (unsigned long long)want.args.bytes);
    DIFF(got->args.nu != want.args.nu, " args nu %d (want %d)", got->args.nu, want.args.nu);
    DIFF(got->args.fit != want.args.fit, " fit %d (want %d)", (int)got->args.fit,
         (int)want.args.fit);
    for (int i = 0; i < want.def->nparams && i < ALGO_MAXPARAM; i++)
        DIFF(got->args.param[i] != want.args.param[i], " %s %g (want %g)",
             want.def->params[i].name, got->args.param[i], want.args.param[i]);
    const CostParams *gc = &got->cost, *wc = &want.cost;
    DIFF(gc->model != wc->model, " model %s (want %s)", cost_model_name(gc->model),
         cost_model_name(wc->model));
    DIFF(gc->nu != wc->nu, " nu %d (want %d)", gc->nu, wc->nu);
    DIFF(gc->a != wc->a || gc->b != wc->b || gc->rho != wc->rho || gc->t != wc->t ||
         gc->beta != wc->beta || gc->duplex != wc->duplex || gc->alpha != wc->alpha ||
         gc->delta != wc->delta || gc->tau != wc->tau, " cost parameters differ");
    /* predict, then see: a click question about step k opens at k - 1 until answered */
    const LessonPage *pg = lesson_page(l, k);
    int32_t pos = w.step;
    if ((pg->qkind == LESSON_Q_NODE || pg->qkind == LESSON_Q_LINK ||
         (pg->qkind == LESSON_Q_CHOICE && pg->predict)) && w.step > 0 && !a->answered)
        pos = w.step - 1;
    DIFF(a->b.pos != pos, " step %d (want %d)", (int)a->b.pos, (int)pos);
#undef DIFF
    /* the computed state says the same */
    LessonState st;
    lesson_state(l, k, &st);
    if (st.step != w.step || (st.net != w.net) || st.algo != w.algo || st.source != w.source || st.sources != w.sources ||
        st.model != w.model || st.fit != w.fit || strcmp(st.bytes_text, w.bytes) != 0 || st.nset != w.nsets)
        snprintf(what + strlen(what), sizeof what - strlen(what), " lesson_state differs");
    setup_free(&want);
    if (what[0]) fail_msg("%s page %zu reached %s shows:%s", id, k + 1, how, what);
}

static App *new_app(void)
{
    App *a = app_new();
    assert_non_null(a);
    SetupSpec spec = {0};   /* what meshcast shows with no options: st on mesh:8x8 */
    assert_true(app_set_spec(a, &spec));
    return a;
}

/* The test's own copy of lesson `name`, loaded once (a load runs the script in a child
 * process: under the sanitizers each fork copies the page tables of their shadow memory, and
 * these loads were half the program's time); the App still loads its own every time. */
static Lesson *loaded[MAXL];
static const Lesson *lesson_of(const char *name)
{
    for (size_t i = 0; i < nnames; i++)
        if (strcmp(names[i], name) == 0) {
            if (!loaded[i]) {
                char err[300];
                loaded[i] = lesson_load(name, err, sizeof err);
                if (!loaded[i]) fail_msg("%s: %s", name, err);
            }
            return loaded[i];
        }
    fail_msg("%s: not a shipped lesson", name);
    return NULL;
}

/* Open lesson `name` in a (which may show anything) with its progress saying `last`. */
static const Lesson *open_at(App *a, const char *name, size_t last)
{
    char err[300];
    const Lesson *l = lesson_of(name);
    LessonProgress p;
    lesson_progress_load(l, &p);
    p.npages = lesson_npages(l);
    p.last_page = last;
    assert_true(lesson_progress_save(l, &p, err, sizeof err));
    if (!app_open_lesson(a, name)) fail_msg("%s: %s", name, a->msg);
    return a->lesson;
}

static void test_forwards_backwards(void **state)
{
    (void)state;
    for (size_t i = 0; i < nnames; i++) {
        App *a = new_app();
        const Lesson *l = open_at(a, names[i], 0);
        size_t n = lesson_npages(l);
        check_shows(a, l, 0, "first");
        for (size_t k = 1; k < n; k++) {
            app_goto(a, app_nsteps(a));   /* the student steps about on the page */
            app_lesson_page(a, k);
            check_shows(a, l, k, "forwards (])");
        }
        for (size_t k = n - 1; k-- > 0;) {
            app_goto(a, 0);
            app_lesson_page(a, k);
            check_shows(a, l, k, "backwards ([)");
        }
        app_free(a);
    }
}

static void test_reopen(void **state)
{
    (void)state;
    for (size_t i = 0; i < nnames; i++) {
        App *a = new_app();
        const Lesson *l = open_at(a, names[i], 0);
        size_t n = lesson_npages(l);
        for (size_t k = 0; k < n; k++) {
            /* a fresh start of meshcast, and the same screen reopening the lesson */
            App *fresh = new_app();
            l = open_at(fresh, names[i], k);
            check_shows(fresh, l, k, "by reopening (a fresh start)");
            app_free(fresh);
            l = open_at(a, names[i], k);
            check_shows(a, l, k, "by reopening (:lesson again)");
        }
        app_free(a);
    }
}

static size_t npages_of(const char *name) { return lesson_npages(lesson_of(name)); }

/* Every page of every lesson right after a page of another lesson (the other lesson and its
 * page go round, so that every lesson's every page also comes before some page: what leaked
 * before was whatever the page before left on screen). */
static void test_after_another(void **state)
{
    (void)state;
    App *a = new_app();
    size_t turn = 0;
    for (size_t i = 0; i < nnames; i++) {
        size_t n = npages_of(names[i]);
        for (size_t k = 0; k < n; k++, turn++) {
            size_t j = (i + 1 + turn % (nnames - 1)) % nnames;   /* never i */
            size_t no = npages_of(names[j]);
            open_at(a, names[j], (turn * 7 + k) % no);
            app_goto(a, app_nsteps(a));
            const Lesson *l = open_at(a, names[i], k);
            check_shows(a, l, k, "after another lesson");
        }
    }
    app_free(a);
}

/* The reproducers of the issue, by name. */
static void test_reproducers(void **state)
{
    (void)state;
    App *a = new_app();
    /* a finished st-array reopens at its last page: the 16-node array, not the start-up
     * mesh; [ back to the node-5 pages still shows the array */
    size_t last = 0;
    {
        char err[300];
        Lesson *l = lesson_load("st-array", err, sizeof err);
        assert_non_null(l);
        last = lesson_npages(l) - 1;
        lesson_free(l);
    }
    open_at(a, "st-array", last);
    assert_string_equal(net_spec(a->b.setup.net), "array:16");
    app_lesson_page(a, 6);   /* "Click the node that node 5 sends to in step 1" */
    assert_string_equal(net_spec(a->b.setup.net), "array:16");
    assert_int_equal(a->b.setup.args.source, 5);
    /* rh-contention: forwards to the 4x4 page, then [ [ back to the step-10 page: rh on
     * mesh:8x8 at step 10, nu = 0 */
    open_at(a, "rh-contention", 0);
    for (size_t k = 1; k <= 8; k++) app_lesson_page(a, k);
    assert_string_equal(net_spec(a->b.setup.net), "mesh:4x4");
    app_lesson_page(a, 7);
    app_lesson_page(a, 6);
    assert_string_equal(net_spec(a->b.setup.net), "mesh:8x8");
    assert_int_equal(a->b.pos, 10);
    assert_int_equal(a->b.setup.cost.nu, 0);
    /* rh-contention's nu = 1 page, then bst-crossover page 1: ST at nu = 0, 320.48 us */
    open_at(a, "rh-contention", 7);
    assert_int_equal(a->b.setup.cost.nu, 1);
    open_at(a, "bst-crossover", 0);
    assert_int_equal(a->b.setup.cost.nu, 0);
    assert_float_equal(sim_totals(a->b.sim)->cost.total, 4 * (64 * 0.08 + 75), 1e-9);
    app_free(a);
}

/* Every "now you try" task: not met on arriving (Enter is a wrong first try, kept in the
 * progress), met once the state asked for is reached (Enter: right); then every choice and
 * click question answered, ] past the last page gives the summary with the score. */
static void test_try_and_score(void **state)
{
    (void)state;
    for (size_t i = 0; i < nnames; i++) {
        App *a = new_app();
        const Lesson *l = open_at(a, names[i], 0);
        size_t n = lesson_npages(l), tries = 0, questions = 0;
        for (size_t k = 0; k < n; k++) {
            app_lesson_page(a, k);
            const LessonPage *p = lesson_page(l, k);
            questions += p->qkind != LESSON_Q_NONE;
            if (p->qkind == LESSON_Q_CHOICE) {
                /* every wrong choice first: marked, and its feedback kept for the pane */
                for (size_t c = 0; c < p->nchoices; c++) {
                    if ((int)c == p->answer_choice) continue;
                    char key[2] = {(char)('a' + c), 0};
                    app_key(a, key);
                    assert_int_equal(a->last_answer, -1);
                    assert_int_equal(a->last_choice, (int)c);
                    assert_false(a->answered);
                }
                char key[2] = {(char)('a' + p->answer_choice), 0};
                app_key(a, key);
            } else if (p->qkind == LESSON_Q_NODE) {
                a->cursor = p->answer_node;
                app_key(a, "<Enter>");
            } else if (p->qkind == LESSON_Q_LINK) {
                a->sel_link = p->answer_link;
                app_key(a, "<Enter>");
            } else if (p->qkind == LESSON_Q_TRY) {
                tries++;
                app_key(a, "<Enter>");
                if (a->answered || a->prog.first[k] != -1)
                    fail_msg("%s page %zu: the task is met before the student does anything",
                             lesson_id(l), k + 1);
                /* reach the state asked for */
                LessonState st;
                lesson_state(l, k, &st);
                const LessonTry *w = &p->want;
                const char *sets[LESSON_STATE_MAXSET + 8];
                size_t ns = 0;
                for (size_t j = 0; j < st.nset; j++) sets[ns++] = st.set[j];
                for (size_t j = 0; j < w->nset; j++) sets[ns++] = w->set[j];   /* later wins */
                char bytes[24], src[24];
                snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)(w->bytes ? w->bytes
                                                                          : st.bytes ? st.bytes : 1024));
                snprintf(src, sizeof src, "%d", (int)w->source);
                SetupSpec spec = {w->net ? w->net : st.net, w->algo ? w->algo : st.algo,
                                  w->source >= 0 ? src : w->net ? NULL : st.source, bytes,
                                  w->model ? w->model : st.model, NULL, sets, ns,
                                  w->source >= 0 || w->net ? NULL : st.sources, NULL, NULL,
                                  NULL};
                if (!app_set_spec(a, &spec)) fail_msg("%s page %zu: %s", lesson_id(l), k + 1, a->msg);
                app_goto(a, w->step >= 0 ? w->step : st.step);
                if (w->node >= 0) a->cursor = w->node;
                app_key(a, "<Enter>");
            }
            if (p->qkind != LESSON_Q_NONE && !a->answered)
                fail_msg("%s page %zu: the right answer was not taken (%s)", lesson_id(l), k + 1,
                         a->msg);
            if (p->qkind != LESSON_Q_NONE) {
                /* then see: the page's own step is shown once answered */
                LessonState st;
                lesson_state(l, k, &st);
                if (p->qkind != LESSON_Q_TRY) assert_int_equal(a->b.pos, st.step);
            }
        }
        app_key(a, "]");
        assert_true(a->lesson_done);
        LessonScore sc;
        lesson_score(l, &a->prog, &sc);
        assert_int_equal(sc.questions, questions);
        assert_int_equal(sc.tries, tries);
        assert_int_equal(sc.right, questions);
        /* right at the first try: only the questions with nothing wrong to pick first */
        size_t first = 0;
        for (size_t k = 0; k < n; k++) {
            const LessonPage *p = lesson_page(l, k);
            first += p->qkind == LESSON_Q_NODE || p->qkind == LESSON_Q_LINK;
        }
        assert_int_equal(sc.first_right, first);
        /* kept in the progress file */
        LessonProgress again;
        assert_true(lesson_progress_load(l, &again));
        for (size_t k = 0; k < n; k++) assert_int_equal(again.first[k], a->prog.first[k]);
        app_key(a, "[");
        assert_false(a->lesson_done);
        assert_int_equal(a->page, n - 1);
        app_free(a);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!srctree_enter(argv[0], "lessons/st-array.lua")) return 2;
    char cwd[4096], state[] = "/tmp/meshcast-lstate-XXXXXX";
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(state)) return 2;
    setenv("MESHCAST_PATH", cwd, 1);
    setenv("XDG_STATE_HOME", state, 1);
    nnames = lesson_list(names, MAXL);
    if (nnames < 3) {
        fprintf(stderr, "only %zu shipped lessons found\n", nnames);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reproducers),
        cmocka_unit_test(test_forwards_backwards),
        cmocka_unit_test(test_reopen),
        cmocka_unit_test(test_after_another),
        cmocka_unit_test(test_try_and_score),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (size_t i = 0; i < nnames; i++) {
        lesson_free(loaded[i]);
        free(names[i]);
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", state);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
