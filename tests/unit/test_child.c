/* test_child.c — the child process scripts run in (lua-child.h; issue 8, finding 1): answers
 * come back whole, prints travel to the parent, a call that never returns — even one stuck in
 * C, where no Lua hook runs — ends at the wall-clock limit with the child killed, the wait
 * hook cancels, a killed child is not alive, and the Wire reader never reads past its end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../../src/script/lua-child.h"
#include "../../src/script/lua-sandbox.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The child's side: the start answers "ready"; a request "echo X" answers X; "print X" prints
 * X and answers; "spin" loops in C for ever; "fail" fails. */
static bool serve(void *ud, const Wire *req, Wire *out, char *err, size_t errlen)
{
    (void)ud;
    if (!req) {
        wire_str(out, "ready");
        return true;
    }
    WireIn r = wire_in(req);
    const char *what = wire_get_str(&r);
    const char *arg = wire_get_str(&r);
    if (strcmp(what, "echo") == 0) {
        wire_str(out, arg);
        wire_i64(out, -7);
        wire_f64(out, 2.5);
        return true;
    }
    if (strcmp(what, "print") == 0) {
        child_print("t", arg);
        wire_str(out, "printed");
        return true;
    }
    if (strcmp(what, "spin") == 0) {
        child_where("spin.lua:42");
        for (volatile unsigned long i = 0;; i++)
            ;
    }
    snprintf(err, errlen, "t.lua:1: it failed");
    return false;
}

static bool request(Child *c, const char *what, const char *arg, Wire *res, char *err,
                    size_t errlen)
{
    Wire q = {0};
    wire_str(&q, what);
    wire_str(&q, arg);
    bool ok = child_request(c, "build", &q, res, err, errlen);
    wire_free(&q);
    return ok;
}

static char printed[256];
static void on_print(const char *name, const char *text, void *ud)
{
    (void)ud;
    snprintf(printed, sizeof printed, "%s|%s", name, text);
}

static void test_requests(void **state)
{
    (void)state;
    char err[512] = "";
    Wire res;
    Child *c = child_start("t.lua", "load", serve, NULL, &res, err, sizeof err);
    assert_non_null(c);
    WireIn r = wire_in(&res);
    assert_string_equal(wire_get_str(&r), "ready");
    wire_free(&res);
    for (int i = 0; i < 50; i++) {   /* many round trips on one child */
        char arg[32];
        snprintf(arg, sizeof arg, "n%d", i);
        assert_true(request(c, "echo", arg, &res, err, sizeof err));
        r = wire_in(&res);
        assert_string_equal(wire_get_str(&r), arg);
        assert_int_equal(wire_get_i64(&r), -7);
        assert_true(wire_get_f64(&r) == 2.5);
        assert_false(r.bad);
        wire_free(&res);
    }
    box_set_print_handler(on_print, NULL);
    assert_true(request(c, "print", "hello", &res, err, sizeof err));
    box_set_print_handler(NULL, NULL);
    assert_string_equal(printed, "t.lua|hello");
    wire_free(&res);
    assert_false(request(c, "fail", "", &res, err, sizeof err));
    assert_string_equal(err, "t.lua:1: it failed");
    assert_true(child_alive(c));   /* an error is an answer: the child lives on */
    child_stop(c);
}

static void test_time_limit(void **state)
{
    (void)state;
    setenv("MESHCAST_LUA_SECONDS", "0.3", 1);
    char err[512] = "";
    Wire res;
    Child *c = child_start("t.lua", "load", serve, NULL, &res, err, sizeof err);
    assert_non_null(c);
    wire_free(&res);
    double t0 = now_s();
    assert_false(request(c, "spin", "", &res, err, sizeof err));
    double el = now_s() - t0;
    assert_true(el >= 0.25 && el < 5);
    assert_non_null(strstr(err, "spin.lua:42: in build: stopped: time limit of 0.3 s used up"));
    assert_non_null(strstr(err, "MESHCAST_LUA_SECONDS"));
    assert_false(child_alive(c));
    assert_false(request(c, "echo", "x", &res, err, sizeof err));   /* dead: says so */
    assert_non_null(strstr(err, "not running"));
    child_stop(c);
    unsetenv("MESHCAST_LUA_SECONDS");
}

static int polls;
static bool cancel_after_3(void *ud)
{
    (void)ud;
    return ++polls >= 3;
}

static void test_cancel(void **state)
{
    (void)state;
    char err[512] = "";
    Wire res;
    Child *c = child_start("t.lua", "load", serve, NULL, &res, err, sizeof err);
    assert_non_null(c);
    wire_free(&res);
    polls = 0;
    child_set_wait_hook(cancel_after_3, NULL);
    assert_false(request(c, "spin", "", &res, err, sizeof err));
    child_set_wait_hook(NULL, NULL);
    assert_int_equal(polls, 3);
    assert_non_null(strstr(err, "in build: cancelled"));
    assert_false(child_alive(c));
    child_stop(c);
}

static void test_wire_bounds(void **state)
{
    (void)state;
    Wire w = {0};
    wire_str(&w, "abc");
    wire_i64(&w, 5);
    WireIn r = wire_in(&w);
    assert_string_equal(wire_get_str(&r), "abc");
    assert_int_equal(wire_get_i64(&r), 5);
    assert_false(r.bad);
    assert_int_equal(wire_get_i64(&r), 0);   /* past the end: 0 and bad */
    assert_true(r.bad);
    /* a string whose length points past the end */
    Wire v = {0};
    wire_i64(&v, 1000);
    wire_put(&v, "xy", 3);
    r = wire_in(&v);
    assert_string_equal(wire_get_str(&r), "");
    assert_true(r.bad);
    wire_free(&w);
    wire_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_requests),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_wire_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
