/* test_schedbin.c — the MCX1 binary schedule format: a hand-built schedule written and read
 * back field by field (offsets per sched.h's rule), the bytes of the header checked against
 * the layout in docs/exec.md, and a reader that refuses every truncation, a byte after the
 * end, out-of-range nodes, chunks and ranges, and survives every single-byte corruption. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/schedbin.h"

/* array:4, 6 chunks of 100 bytes: step 1: 0 -> 1 chunks [0,3); step 2: 0 -> 2 [3,6),
 * 1 -> 3 chunks {0, 2} (two ranges). */
static unsigned char *build(size_t *len)
{
    Net *n = net_parse("array:4", NULL, 0);
    Sched *s = sched_new(n, 6, 100);
    assert_true(sched_give(s, 0, 0, 6));
    sched_step(s);
    assert_true(sched_send_range(s, 0, 1, 0, 3));
    sched_step(s);
    assert_true(sched_send_range(s, 0, 2, 3, 6));
    ChunkRange r[2] = {{0, 1}, {2, 3}};
    assert_true(sched_send(s, 1, 3, r, 2));
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    char err[128];
    assert_true(schedbin_write(f, s, SCHEDBIN_BROADCAST, 0, err, sizeof err));
    fclose(f);
    sched_free(s);
    net_free(n);
    return (unsigned char *)buf;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_round_trip(void **state)
{
    (void)state;
    size_t len;
    unsigned char *buf = build(&len);
    /* 40 header + 1 given * 12 + step 1: 4 + 12 + 8 + step 2: 4 + (12 + 8) + (12 + 16) */
    assert_int_equal(len, 40 + 12 + 24 + 52);
    assert_memory_equal(buf, "MCX1", 4);
    assert_int_equal(le32(buf + 4), 1);
    assert_int_equal(le32(buf + 12), 4);     /* nodes */
    assert_int_equal(le32(buf + 16), 6);     /* chunks */
    assert_int_equal(le32(buf + 24), 100);   /* bytes, low word */
    assert_int_equal(le32(buf + 36), 2);     /* steps */
    char err[128];
    SchedBin *b = schedbin_read(buf, len, 0, 0, err, sizeof err);
    assert_non_null(b);
    assert_int_equal(schedbin_nodes(b), 4);
    assert_int_equal(schedbin_nchunks(b), 6);
    assert_int_equal(schedbin_bytes(b), 100);
    assert_int_equal(schedbin_nsteps(b), 2);
    assert_int_equal(schedbin_ngiven(b), 1);
    assert_int_equal(schedbin_step_count(b, 0), 1);
    assert_int_equal(schedbin_step_count(b, 1), 2);
    SchedBinXfer x;
    schedbin_xfer(b, schedbin_step_first(b, 1) + 1, &x);
    assert_int_equal(x.src, 1);
    assert_int_equal(x.dst, 3);
    assert_int_equal(x.nranges, 2);
    assert_int_equal(x.ranges[1].lo, 2);
    /* chunk c starts at floor(c * 100 / 6): 0 16 33 50 66 83 100 */
    static const uint64_t off[] = {0, 16, 33, 50, 66, 83, 100};
    for (uint32_t c = 0; c <= 6; c++)
        assert_int_equal(schedbin_chunk_offset(b, c), off[c]);
    schedbin_free(b);
    free(buf);
}

static void expect_refused(const unsigned char *buf, size_t len, const char *what)
{
    char err[160] = "";
    SchedBin *b = schedbin_read(buf, len, 0, 0, err, sizeof err);
    if (b)
        fail_msg("accepted: %s", what);
    assert_true(err[0] != 0);
}

static void test_refuses(void **state)
{
    (void)state;
    size_t len;
    unsigned char *buf = build(&len);
    for (size_t cut = 0; cut < len; cut++)
        expect_refused(buf, cut, "a truncated file");
    unsigned char *more = malloc(len + 1);
    memcpy(more, buf, len);
    more[len] = 0;
    expect_refused(more, len + 1, "a byte after the end");
    free(more);
    unsigned char *t = malloc(len);
    struct { size_t at; uint32_t v; const char *what; } bad[] = {
        {12, 0, "no nodes"}, {16, 0, "no chunks"}, {20, 9, "root past the nodes"},
        /* step 1 starts at 52: count, then src 56, dst 60, nranges 64, lo 68, hi 72 */
        {56, 4, "transfer source past the nodes"},
        {60, 0, "a transfer to itself"},                    /* dst = src = 0 */
        {64, 0, "no ranges"}, {72, 7, "a range past the last chunk"},
        {68, 3, "an empty range"},                          /* lo = hi = 3 */
        {52, 2, "a step count past its transfers"},
        {40, 4, "holding of a node past the net"},
        {44, 6, "an empty holding"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(t, buf, len);
        for (int k = 0; k < 4; k++)
            t[bad[i].at + k] = (unsigned char)(bad[i].v >> (8 * k));
        expect_refused(t, len, bad[i].what);
    }
    /* the two ranges of step 2's second transfer swapped: not sorted */
    memcpy(t, buf, len);
    unsigned char tmp[8];
    memcpy(tmp, t + len - 16, 8);
    memcpy(t + len - 16, t + len - 8, 8);
    memcpy(t + len - 8, tmp, 8);
    expect_refused(t, len, "unsorted ranges");
    /* limits: 4 nodes with max 3, 100 bytes with max 99 */
    char err[128];
    assert_null(schedbin_read(buf, len, 3, 0, err, sizeof err));
    assert_null(schedbin_read(buf, len, 0, 99, err, sizeof err));
    /* every single-byte change: refused or read, never a crash (ASan watches) */
    for (size_t i = 0; i < len; i++)
        for (int v = 0; v < 256; v += 51) {
            memcpy(t, buf, len);
            t[i] = (unsigned char)(t[i] ^ (v | 1));
            SchedBin *b = schedbin_read(t, len, 0, 0, err, sizeof err);
            schedbin_free(b);
        }
    /* a huge step count in a small file is refused before allocating */
    memcpy(t, buf, len);
    memset(t + 36, 0xff, 4);
    expect_refused(t, len, "2^32-1 steps");
    free(t);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
