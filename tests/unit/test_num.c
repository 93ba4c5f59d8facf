/* test_num.c — the one number parser (src/engine/num.h): plain decimal everywhere, and each
 * refusal says why (too large, negative, not a number). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/engine/num.h"

static void test_u64(void **state)
{
    (void)state;
    uint64_t v = 0;
    const char *end;
    assert_int_equal(num_u64("0", &v, NULL), NUM_OK);
    assert_int_equal(v, 0);
    assert_int_equal(num_u64("18446744073709551615", &v, NULL), NUM_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(num_u64("18446744073709551616", &v, NULL), NUM_TOO_LARGE);
    assert_int_equal(num_u64("99999999999999999999999", &v, NULL), NUM_TOO_LARGE);
    assert_int_equal(num_u64("-0", &v, NULL), NUM_NEGATIVE);
    assert_int_equal(num_u64("-5", &v, NULL), NUM_NEGATIVE);
    static const char *const bad[] = {"", " 1", "1 ", "+1", "0x10", "1e3", "\t1", "1.0", "-",
                                      "１", NULL};
    for (int i = 0; bad[i]; i++)
        assert_int_equal(num_u64(bad[i], &v, NULL), NUM_SYNTAX);
    assert_int_equal(num_u64(NULL, &v, NULL), NUM_SYNTAX);
    assert_int_equal(num_u64("64K", &v, &end), NUM_OK);
    assert_int_equal(v, 64);
    assert_string_equal(end, "K");
}

static void test_i64(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(num_i64("-1", &v), NUM_OK);
    assert_int_equal(v, -1);
    assert_int_equal(num_i64("-9223372036854775808", &v), NUM_OK);
    assert_true(v == INT64_MIN);
    assert_int_equal(num_i64("9223372036854775808", &v), NUM_TOO_LARGE);
    assert_int_equal(num_i64("--1", &v), NUM_SYNTAX);
    assert_int_equal(num_i64("+1", &v), NUM_SYNTAX);
    assert_int_equal(num_i64(" 1", &v), NUM_SYNTAX);
}

static void test_real(void **state)
{
    (void)state;
    double v = -1;
    assert_int_equal(num_real("1.5", &v), NUM_OK);
    assert_true(v == 1.5);
    assert_int_equal(num_real(".5", &v), NUM_OK);
    assert_int_equal(num_real("5.", &v), NUM_OK);
    assert_int_equal(num_real("1e3", &v), NUM_OK);
    assert_true(v == 1000);
    assert_int_equal(num_real("1E-2", &v), NUM_OK);
    assert_int_equal(num_real("-2.5", &v), NUM_OK);
    assert_true(v == -2.5);
    assert_int_equal(num_real("-0", &v), NUM_OK);
    assert_true(v == 0 && !signbit(v));
    assert_int_equal(num_real("1e-400", &v), NUM_OK);   /* underflow: tiny, as given */
    assert_true(v >= 0 && v < 1e-300);
    assert_int_equal(num_real("1e400", &v), NUM_TOO_LARGE);
    assert_int_equal(num_real("-1e400", &v), NUM_TOO_LARGE);
    static const char *const bad[] = {"", " 1", "1 ", "+1", "0x10", "0x1p3", "inf", "nan",
                                      "INF", "1e", "1e+", ".", "-", "1,5", "1..2", "e5", NULL};
    for (int i = 0; bad[i]; i++)
        assert_int_equal(num_real(bad[i], &v), NUM_SYNTAX);
    assert_string_equal(num_status_text(NUM_TOO_LARGE), "too large");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_u64),
        cmocka_unit_test(test_i64),
        cmocka_unit_test(test_real),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
