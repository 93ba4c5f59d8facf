/* test_grade.c — s-to-p grades on the map (tui/grade.h): for every s up to 1000 the grades
 * 0..4 split the counts 0..s into runs that grade_range states exactly (0 alone, s alone, the
 * partial counts in three nearly equal thirds, in order), and a node holding part of one
 * message is never drawn as holding none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/tui/grade.h"

static void test_ranges_partition(void **state)
{
    (void)state;
    for (uint64_t s = 1; s <= 1000; s++) {
        int last = 0;
        for (uint64_t k = 0; k <= s; k++) {
            int g = grade_of(k, s, k > 0);
            uint64_t lo, hi;
            assert_true(g >= last);   /* more messages, never a lower grade */
            last = g;
            assert_true(grade_range(g, s, &lo, &hi));
            if (k < lo || k > hi) fail_msg("s=%llu k=%llu grade %d range %llu-%llu",
                                           (unsigned long long)s, (unsigned long long)k, g,
                                           (unsigned long long)lo, (unsigned long long)hi);
        }
        assert_int_equal(grade_of(0, s, false), 0);
        assert_int_equal(grade_of(s, s, true), GRADE_N - 1);
        /* the partial thirds differ in size by at most one */
        if (s >= 4) {
            uint64_t w[3];
            for (int g = 1; g <= 3; g++) {
                uint64_t lo, hi;
                assert_true(grade_range(g, s, &lo, &hi));
                w[g - 1] = hi - lo + 1;
            }
            assert_true(w[0] + w[1] + w[2] == s - 1);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) assert_true(w[a] <= w[b] + 1);
        }
    }
    assert_int_equal(grade_of(0, 10, true), 1);   /* a part of one message is not none */
    uint64_t lo, hi;
    assert_true(grade_range(2, 10, &lo, &hi));
    assert_int_equal(lo, 4);
    assert_int_equal(hi, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_ranges_partition)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
