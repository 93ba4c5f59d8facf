/* test_measfile.c — exec --json's output read back for the screen (src/tui/measfile.h): the
 * fields kept from a hand-written file, everything else skipped (nested objects, escapes,
 * arrays), and one line for every way a file is not a verified run: a missing field, steps
 * not matching, a run not verified, bad JSON at a named byte offset, nesting too deep, a
 * negative time, something after the object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/tui/measfile.h"

static const char good[] =
    "{\"net\":\"array:8\",\"algo\":\"st\",\"ref\":\"Seidel \\\"3.1\\\" \\u00e9\",\"bytes\":4096,"
    "\"steps\":3,\"cost\":{\"model\":\"seidel\",\"nested\":[1,[2,{\"x\":null}]]},"
    "\"violations\":[],\"measured\":{\"unit\":\"us\",\"total\":175,\"steps\":[100,50.5,2.5e1],"
    "\"reps\":7,\"spread\":12.5,\"ranks\":8,\"launcher\":\"mpirun -np 8\","
    "\"timing\":\"lockstep\",\"verified\":true}}\n";

static void test_reads(void **state)
{
    (void)state;
    MeasFile m;
    char err[200] = "";
    assert_true(measfile_parse(good, strlen(good), &m, err, sizeof err));
    assert_string_equal(m.net, "array:8");
    assert_string_equal(m.algo, "st");
    assert_int_equal(m.bytes, 4096);
    assert_int_equal(m.nsteps, 3);
    assert_int_equal(m.nmeas, 3);
    assert_true(m.steps[0] == 100 && m.steps[1] == 50.5 && m.steps[2] == 25);
    assert_true(m.total == 175 && m.spread == 12.5);
    assert_int_equal(m.reps, 7);
    assert_int_equal(m.ranks, 8);
    assert_string_equal(m.timing, "lockstep");
    assert_string_equal(m.launcher, "mpirun -np 8");
    assert_true(m.verified);
    measfile_free(&m);
}

/* good with the first `from` replaced by `to`: refused, err containing `want`. */
static void refused(const char *from, const char *to, const char *want)
{
    char text[2048];
    const char *at = strstr(good, from);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    MeasFile m;
    char err[200] = "";
    if (measfile_parse(text, strlen(text), &m, err, sizeof err))
        fail_msg("accepted: %s", text);
    if (!strstr(err, want))
        fail_msg("'%s' does not say '%s'", err, want);
    assert_null(m.steps);
}

static void test_refuses(void **state)
{
    (void)state;
    refused("\"measured\":", "\"measurex\":", "no \"measured\"");
    refused("\"net\":", "\"nex\":", "no \"net\"");
    refused("[100,50.5,2.5e1]", "[100,50.5]", "2 measured steps for a run of 3 steps");
    refused("\"verified\":true", "\"verified\":false", "not verified");
    refused("\"total\":175", "\"total\":-1", "out of range");
    refused("[100,50.5,2.5e1]", "[100,-50.5,2.5e1]", "negative step time");
    refused("\"bytes\":4096", "\"bytes\":40.5", "whole number");
    /* the comma after "steps":3 is byte 81 (0-based) of good; without it, the quote of "cost"
     * at byte 82 is where the reader stops */
    assert_int_equal(strstr(good, "\"steps\":3,") - good + 9, 81);
    refused("\"steps\":3,", "\"steps\":3 ", "byte 82: expected ',' or '}'");
    refused("}}\n", "}} x", "something after the object");
    refused("\"total\":175", "\"total\":1e999", "bad number");
    refused("\"steps\":[", "\"steps\":{", "expected an array of numbers");
    refused("\"unit\":\"us\"", "\"unit\":\"u\ts\"", "control character");
    char deep[400];
    size_t o = (size_t)snprintf(deep, sizeof deep, "{\"x\":");
    for (int k = 0; k < 70; k++) deep[o++] = '[';
    deep[o] = '\0';
    MeasFile m;
    char err[200] = "";
    assert_false(measfile_parse(deep, strlen(deep), &m, err, sizeof err));
    assert_non_null(strstr(err, "nested more than 64 deep"));
    /* every prefix of the good file is refused, none crashes */
    for (size_t n = 0; n + 2 < strlen(good); n++)
        assert_false(measfile_parse(good, n, &m, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads),
        cmocka_unit_test(test_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
