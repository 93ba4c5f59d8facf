/* test_bigmem.c — bigmem_alloc, bigmem_alloc_whole and bigmem_alloc_huge: a zeroed array is
 * zero in every byte at every size (below and above the sizes from which bigmem_alloc_whole
 * makes the pages at once and bigmem_alloc_huge advises huge pages, and again after a dirty
 * block of the same size was freed, so that reused memory is cleared too); an array not asked
 * zeroed is usable to its last byte; all are freed with free(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/bigmem.h"

static void all_zero(const unsigned char *p, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += p[i] != 0;
    assert_int_equal(bad, 0);
}

static void test_zeroed(void **state)
{
    (void)state;
    const size_t M = (size_t)1 << 20;
    const size_t sizes[] = { 0, 1, 4095, M - 1, M, M + 4097, 4 * M - 1, 4 * M, 4 * M + 1,
                             6 * M + 12345, 37 * M };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int round = 0; round < 4; round++) {
            unsigned char *p = round == 1   ? bigmem_alloc_whole(sizes[k])
                               : round == 3 ? bigmem_alloc_huge(sizes[k])
                                            : bigmem_alloc(sizes[k], true);
            assert_non_null(p);
            all_zero(p, sizes[k]);
            if (sizes[k])
                memset(p, 0xA5, sizes[k]);   /* dirty it: the next round may get it back */
            free(p);
        }
    }
}

static void test_unzeroed(void **state)
{
    (void)state;
    const size_t n = ((size_t)9 << 20) + 7;
    unsigned char *p = bigmem_alloc(n, false);
    assert_non_null(p);
    p[0] = 1;
    p[n - 1] = 2;
    assert_int_equal(p[0] + p[n - 1], 3);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zeroed),
        cmocka_unit_test(test_unzeroed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
