/* test_lesson_predict.c — issue 9: a lesson page sets every run parameter a user can, --fit
 * included, and a choice question marked predict hides the step it asks about until it is
 * answered right (predict, then see).  The lesson goes through lesson_load (its child process
 * and the wire back), then through the App as the screen uses it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/script/lesson-state.h"
#include "../../src/script/lesson.h"
#include "../../src/tui/app-core.h"

static char dir[64];

static const char *write_lesson(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s.lua", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *const LESSON =
    "return { title = 'fit and predict', pages = {\n"
    "  { text = 'virtual', net = 'array:12', algo = 'st', fit = 'virtual', step = 0 },\n"
    "  { text = 'guess', step = 3, question = { text = 'How many nodes are informed after step 3?',\n"
    "      choices = { '7', '8' }, answer = 'a', predict = true } },\n"
    "  { text = 'companions', fit = 'companions', step = 1 },\n"
    "  { text = 'click', step = 2, question = { text = 'who?', choices = { 'x', 'y' },\n"
    "      answer = 1 } },\n"
    "} }\n";

static int32_t informed(App *a) { return sim_step(a->b.sim, a->b.pos - 1)->informed; }

static void test_fit_and_predict(void **state)
{
    (void)state;
    const char *path = write_lesson("fitpredict", LESSON);
    char err[300];
    Lesson *l = lesson_load(path, err, sizeof err);
    if (!l) fail_msg("%s", err);
    assert_string_equal(lesson_page(l, 0)->fit, "virtual");
    assert_true(lesson_page(l, 1)->predict);
    assert_false(lesson_page(l, 3)->predict);
    LessonState st;
    lesson_state(l, 1, &st);
    assert_string_equal(st.fit, "virtual");      /* kept from page 1 */
    assert_int_equal(lesson_state_shown_step(l, 1, &st), 2);
    lesson_state(l, 3, &st);
    assert_string_equal(st.fit, "companions");
    assert_int_equal(lesson_state_shown_step(l, 3, &st), 2);   /* not marked: shown at once */
    lesson_free(l);

    App *a = app_new();
    assert_non_null(a);
    if (!app_open_lesson(a, path)) fail_msg("%s", a->msg);
    assert_int_equal(a->page, 0);
    assert_int_equal(a->b.setup.args.fit, FIT_VIRTUAL);
    app_key(a, "]");
    assert_int_equal(a->page, 1);
    assert_int_equal(a->b.setup.args.fit, FIT_VIRTUAL);
    assert_int_equal(a->b.pos, 2);              /* step 3 hidden: predict first */
    app_key(a, "b");                            /* wrong: still hidden */
    assert_int_equal(a->last_answer, -1);
    assert_int_equal(a->b.pos, 2);
    app_key(a, "a");                            /* right: then see */
    assert_int_equal(a->last_answer, 1);
    assert_int_equal(a->b.pos, 3);
    assert_int_equal(informed(a), 7);           /* the answer is what the engine shows */
    app_key(a, "]");
    assert_int_equal(a->page, 2);
    assert_int_equal(a->b.setup.args.fit, FIT_COMPANIONS);
    assert_int_equal(a->b.pos, 1);
    app_key(a, "]");
    assert_int_equal(a->b.pos, 2);              /* an unmarked choice question: at once */
    app_key(a, "[");
    app_key(a, "[");
    app_key(a, "[");
    assert_int_equal(a->page, 0);
    assert_int_equal(a->b.setup.args.fit, FIT_VIRTUAL);   /* back: the page's own fit */
    app_free(a);

    /* a fit that is none, or predict that is not a boolean: refused when loading */
    path = write_lesson("badfit", "return { title = 't', pages = { { text = 'x', fit = 'snug' } } }\n");
    assert_null(lesson_load(path, err, sizeof err));
    assert_non_null(strstr(err, "fit 'snug'"));
    path = write_lesson("badpredict", "return { title = 't', pages = { { text = 'x', question = {"
                        " text = 'q', choices = { 'a', 'b' }, answer = 1, predict = 'yes' } } } }\n");
    assert_null(lesson_load(path, err, sizeof err));
    assert_non_null(strstr(err, "predict must be true or false"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/mc-predict-XXXXXX");
    assert_non_null(mkdtemp(dir));
    setenv("XDG_STATE_HOME", dir, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_fit_and_predict) };
    return cmocka_run_group_tests(tests, setup, teardown);
}
