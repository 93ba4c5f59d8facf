/* test_chunkset.c — chunk sets as interval lists: operations, normalisation, formatting, and
 * random sequences checked against a plain bitmap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/chunkset.h"

static void expect(const ChunkSet *cs, const char *want)
{
    char buf[256];
    assert_string_equal(chunkset_format(chunkset_ranges(cs), chunkset_nranges(cs), buf, sizeof buf),
                        want);
}

static void test_basic(void **state)
{
    (void)state;
    ChunkSet *cs = chunkset_new();
    assert_non_null(cs);
    expect(cs, "");
    assert_int_equal(chunkset_count(cs), 0);
    assert_true(chunkset_add_range(cs, 10, 20));
    assert_true(chunkset_add_range(cs, 0, 4));
    expect(cs, "0-3,10-19");
    assert_true(chunkset_add(cs, 4));          /* adjacent: merges */
    expect(cs, "0-4,10-19");
    assert_int_equal(chunkset_nranges(cs), 2);
    assert_true(chunkset_add_range(cs, 7, 7)); /* empty: no-op */
    assert_true(chunkset_add_range(cs, 9, 3)); /* lo > hi: no-op */
    expect(cs, "0-4,10-19");
    assert_true(chunkset_add(cs, 7));
    expect(cs, "0-4,7,10-19");
    assert_true(chunkset_add_range(cs, 3, 12)); /* swallows a range, merges two */
    expect(cs, "0-19");
    assert_int_equal(chunkset_count(cs), 20);
    assert_true(chunkset_remove_range(cs, 5, 8));
    expect(cs, "0-4,8-19");
    assert_true(chunkset_remove_range(cs, 0, 1));
    assert_true(chunkset_remove_range(cs, 19, 30));
    expect(cs, "1-4,8-18");
    assert_true(chunkset_remove_range(cs, 2, 10));
    expect(cs, "1,10-18");
    assert_true(chunkset_contains(cs, 1));
    assert_false(chunkset_contains(cs, 2));
    assert_false(chunkset_contains(cs, UINT32_MAX));
    uint32_t miss = 99;
    assert_true(chunkset_contains_range(cs, 10, 19, &miss));
    assert_int_equal(miss, 99);
    assert_false(chunkset_contains_range(cs, 10, 20, &miss));
    assert_int_equal(miss, 19);
    assert_false(chunkset_contains_range(cs, 0, 5, &miss));
    assert_int_equal(miss, 0);
    assert_false(chunkset_contains_range(cs, 1, 12, &miss));
    assert_int_equal(miss, 2);
    assert_true(chunkset_contains_range(cs, 5, 5, &miss));   /* empty range */
    ChunkSet *c = chunkset_copy(cs);
    assert_true(chunkset_equal(c, cs));
    assert_true(chunkset_add(c, 5));
    assert_false(chunkset_equal(c, cs));
    ChunkSet *u = chunkset_new();
    assert_true(chunkset_add_range(u, 2, 5));
    assert_true(chunkset_add_range(u, 18, 25));
    assert_true(chunkset_add_set(cs, u));
    expect(cs, "1-4,10-24");
    assert_true(chunkset_add_set(cs, cs));
    expect(cs, "1-4,10-24");
    chunkset_clear(cs);
    assert_int_equal(chunkset_count(cs), 0);
    assert_true(chunkset_add_set(cs, u));
    expect(cs, "2-4,18-24");
    assert_true(chunkset_add_range(cs, 0, UINT32_MAX));
    assert_int_equal(chunkset_count(cs), UINT32_MAX);
    chunkset_free(c);
    chunkset_free(u);
    chunkset_free(cs);
    chunkset_free(NULL);
}

static void test_null_safety(void **state)
{
    (void)state;
    uint32_t miss = 7;
    assert_false(chunkset_add(NULL, 1));
    assert_false(chunkset_add_range(NULL, 1, 2));
    assert_false(chunkset_contains(NULL, 1));
    assert_false(chunkset_contains_range(NULL, 3, 4, &miss));
    assert_int_equal(miss, 3);
    assert_int_equal(chunkset_count(NULL), 0);
    assert_int_equal(chunkset_nranges(NULL), 0);
    assert_non_null(chunkset_ranges(NULL));
    assert_true(chunkset_equal(NULL, NULL));
    ChunkSet *c = chunkset_copy(NULL);
    assert_non_null(c);
    assert_true(chunkset_equal(c, NULL));
    chunkset_free(c);
    assert_int_equal(chunkset_normalize(NULL, 3), 0);
    char buf[8];
    assert_string_equal(chunkset_format(NULL, 3, buf, sizeof buf), "");
    assert_null(chunkset_format(NULL, 0, NULL, 0));
}

static void test_format_truncation(void **state)
{
    (void)state;
    ChunkRange r[] = { { 0, 4 }, { 7, 8 }, { 9, 13 }, { 100, 200 }, { 1000, 1001 } };
    char buf[64];
    assert_string_equal(chunkset_format(r, 5, buf, sizeof buf), "0-3,7,9-12,100-199,1000");
    char small[12];
    chunkset_format(r, 5, small, sizeof small);
    assert_string_equal(small, "0-3,7...");
    assert_true(strlen(small) < sizeof small);
    char tiny[3];
    chunkset_format(r, 5, tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
    for (size_t len = 1; len < 30; len++) {
        char b[30];
        memset(b, 'Z', sizeof b);
        chunkset_format(r, 5, b, len);
        assert_true(strlen(b) < len);
        if (len >= 4 && len <= 23)   /* the full text has 23 characters */
            assert_non_null(strstr(b, "..."));
    }
}

static void test_normalize(void **state)
{
    (void)state;
    ChunkRange r[] = { { 9, 12 }, { 0, 3 }, { 5, 5 }, { 3, 4 }, { 10, 15 }, { 20, 19 }, { 1, 2 } };
    size_t n = chunkset_normalize(r, 7);
    assert_int_equal(n, 2);
    assert_int_equal(r[0].lo, 0);
    assert_int_equal(r[0].hi, 4);
    assert_int_equal(r[1].lo, 9);
    assert_int_equal(r[1].hi, 15);
    ChunkRange e[] = { { 4, 4 } };
    assert_int_equal(chunkset_normalize(e, 1), 0);
    ChunkRange ok[] = { { 0, 1 }, { 2, 3 } };
    assert_int_equal(chunkset_normalize(ok, 2), 2);
}

#define NBITS 300

static void check_against(const ChunkSet *cs, const unsigned char *bits)
{
    /* ranges are sorted, disjoint, non-adjacent, non-empty */
    size_t n = chunkset_nranges(cs);
    const ChunkRange *r = chunkset_ranges(cs);
    for (size_t i = 0; i < n; i++) {
        assert_true(r[i].lo < r[i].hi);
        if (i)
            assert_true(r[i - 1].hi < r[i].lo);
    }
    uint64_t count = 0;
    for (uint32_t i = 0; i < NBITS; i++) {
        assert_int_equal(chunkset_contains(cs, i), bits[i]);
        count += bits[i];
    }
    assert_int_equal(chunkset_count(cs), count);
}

static void test_random_vs_bitmap(void **state)
{
    (void)state;
    srand(12345);
    for (int round = 0; round < 200; round++) {
        ChunkSet *cs = chunkset_new();
        unsigned char bits[NBITS] = { 0 };
        for (int op = 0; op < 60; op++) {
            uint32_t lo = (uint32_t)(rand() % NBITS), len = (uint32_t)(rand() % 40);
            uint32_t hi = lo + len > NBITS ? NBITS : lo + len;
            int kind = rand() % 5;
            if (kind <= 1) {
                assert_true(chunkset_add_range(cs, lo, hi));
                for (uint32_t i = lo; i < hi; i++)
                    bits[i] = 1;
            } else if (kind == 2) {
                assert_true(chunkset_remove_range(cs, lo, hi));
                for (uint32_t i = lo; i < hi; i++)
                    bits[i] = 0;
            } else if (kind == 3) {
                ChunkSet *o = chunkset_new();
                uint32_t a = (uint32_t)(rand() % NBITS);
                uint32_t b = a + (uint32_t)(rand() % 10);
                if (b > NBITS)
                    b = NBITS;
                assert_true(chunkset_add_range(o, a, b));
                assert_true(chunkset_add_range(o, hi, hi + (hi < NBITS - 2 ? 2 : 0)));
                for (uint32_t i = a; i < b; i++)
                    bits[i] = 1;
                for (uint32_t i = hi; i < hi + (hi < NBITS - 2 ? 2u : 0u); i++)
                    bits[i] = 1;
                assert_true(chunkset_add_set(cs, o));
                chunkset_free(o);
            } else {
                uint32_t miss = UINT32_MAX;
                bool all = true;
                uint32_t first = UINT32_MAX;
                for (uint32_t i = lo; i < hi; i++)
                    if (!bits[i]) {
                        all = false;
                        first = i;
                        break;
                    }
                assert_int_equal(chunkset_contains_range(cs, lo, hi, &miss), all);
                if (!all)
                    assert_int_equal(miss, first);
            }
            check_against(cs, bits);
        }
        ChunkSet *c = chunkset_copy(cs);
        assert_true(chunkset_equal(c, cs));
        chunkset_free(c);
        chunkset_free(cs);
    }
}

static void test_random_normalize(void **state)
{
    (void)state;
    srand(777);
    for (int round = 0; round < 300; round++) {
        ChunkRange r[20];
        unsigned char bits[NBITS] = { 0 };
        size_t nr = (size_t)(rand() % 20);
        for (size_t i = 0; i < nr; i++) {
            r[i].lo = (uint32_t)(rand() % NBITS);
            r[i].hi = (uint32_t)(rand() % NBITS);
            for (uint32_t k = r[i].lo; k < r[i].hi; k++)
                bits[k] = 1;
        }
        size_t n = chunkset_normalize(r, nr);
        ChunkSet *cs = chunkset_new();
        for (size_t i = 0; i < n; i++) {
            assert_true(r[i].lo < r[i].hi);
            if (i)
                assert_true(r[i - 1].hi < r[i].lo);
            assert_true(chunkset_add_range(cs, r[i].lo, r[i].hi));
        }
        assert_int_equal(chunkset_nranges(cs), n);
        check_against(cs, bits);
        chunkset_free(cs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),          cmocka_unit_test(test_null_safety),
        cmocka_unit_test(test_format_truncation), cmocka_unit_test(test_normalize),
        cmocka_unit_test(test_random_vs_bitmap), cmocka_unit_test(test_random_normalize),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
