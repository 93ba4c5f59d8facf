/* test_sched_pack.c — a schedule packed into bytes and unpacked again (sched-pack.h, how a Lua
 * script's schedule crosses from its child process): the same schedule (sched_equal) for
 * simple steps, several ranges, explicit routes, rule blocks, edge blocks, local operations,
 * labels, empty steps and holdings; every truncation refused cleanly; and a transfer that does not fit the
 * schedule it is unpacked into (nodes outside the net, chunks past nchunks) refused with
 * sched_send's own message, the bulk path included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sched-pack.h"

typedef struct {
    unsigned char *p;
    size_t len, cap;
} Buf;

static void sink(void *ud, const void *p, size_t n)
{
    Buf *b = ud;
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void pair_rule(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    (void)ctx;
    *out = (SchedRuleXfer){ (int32_t)(2 * j), (int32_t)(2 * j + 1), 2, { { 0, 1 }, { 3, 5 } } };
}

/* mesh:4x4, 8 chunks: every kind of step */
static Sched *mixed(const Net *net)
{
    Sched *s = sched_new(net, 8, 8192);
    assert_non_null(s);
    assert_true(sched_give(s, 0, 0, 8));
    assert_true(sched_give(s, 5, 2, 5));
    assert_true(sched_step(s) >= 0 && sched_label(s, "simple"));
    for (int32_t v = 1; v < 16; v++)
        assert_true(sched_send_range(s, 0, v, (uint32_t)(v % 8), (uint32_t)(v % 8) + 1));
    assert_true(sched_step(s) >= 0);
    ChunkRange two[2] = { { 0, 2 }, { 4, 8 } };
    assert_true(sched_send(s, 0, 3, two, 2));
    NetSeg route[2] = { { 0, 1, 2 }, { 1, 1, 1 } };   /* two down, one right */
    assert_true(sched_send_route(s, 0, 9, two, 1, route, 2));
    assert_true(sched_send_range(s, 5, 6, 2, 3));
    assert_true(sched_step(s) >= 0 && sched_label(s, "rules"));
    assert_true(sched_send_range(s, 15, 14, 0, 8));
    assert_true(sched_send_rule(s, 8, pair_rule, NULL, 0));
    assert_true(sched_step(s) >= 0);
    assert_true(sched_local(s, -1, 64) && sched_local(s, 3, 16));
    assert_true(sched_step(s) >= 0);   /* empty */
    assert_true(sched_step(s) >= 0);
    assert_true(sched_send_range(s, 1, 2, 0, 8));
    /* edge blocks (sched_send_edges): explicit routes from the edge table */
    NetSeg e1[1] = { { 1, 1, 1 } }, e2[2] = { { 0, 1, 1 }, { 1, 1, 2 } };
    int64_t e0 = sched_edge(s, 0, 1, e1, 1, 0);
    assert_true(e0 >= 0 && sched_edge(s, 0, 6, e2, 2, 1) == e0 + 1);
    assert_true(sched_step(s) >= 0 && sched_send_edges(s, e0, 2, 2, 1));
    assert_null(sched_error(s));
    return s;
}

static Buf pack(const Sched *s)
{
    Buf b = {0};
    assert_true(sched_pack(s, sink, &b));
    return b;
}

static void test_round_trip(void **state)
{
    (void)state;
    Net *net = net_parse("mesh:4x4", NULL, 0);
    Sched *a = mixed(net);
    Buf b = pack(a);
    /* into a fresh schedule whose source is given already (as the parent does) */
    Sched *c = sched_new(net, 8, 8192);
    assert_true(sched_give(c, 0, 0, 8));
    size_t used = 0;
    assert_true(sched_unpack(c, b.p, b.len, 1, &used));
    assert_int_equal(used, b.len);
    assert_true(sched_equal(a, c));
    assert_int_equal(sched_total_transfers(c), sched_total_transfers(a));
    assert_string_equal(sched_step_label(c, 2), "rules");
    assert_int_equal(sched_nlocals(c, 3), 2);
    SchedTransfer t;
    sched_transfer(c, 1, 1, &t);
    assert_true(t.explicit_route && t.nseg == 2 && t.dst == 9);
    sched_free(c);
    /* and with every holding from the bytes */
    c = sched_new(net, 8, 8192);
    assert_true(sched_unpack(c, b.p, b.len, 0, NULL));
    assert_true(sched_equal(a, c));
    sched_free(c);
    free(b.p);
    sched_free(a);
    net_free(net);
}

static void test_truncated(void **state)
{
    (void)state;
    Net *net = net_parse("mesh:4x4", NULL, 0);
    Sched *a = mixed(net);
    Buf b = pack(a);
    for (size_t len = 0; len < b.len; len++) {
        unsigned char *cut = malloc(len ? len : 1);   /* exactly len bytes: ASan sees overreads */
        memcpy(cut, b.p, len);
        Sched *c = sched_new(net, 8, 8192);
        size_t used = 0;
        assert_false(sched_unpack(c, cut, len, 0, &used));
        assert_non_null(sched_error(c));
        assert_true(used <= len);
        sched_free(c);
        free(cut);
    }
    free(b.p);
    sched_free(a);
    net_free(net);
}

static void test_checked(void **state)
{
    (void)state;
    Net *net = net_parse("mesh:4x4", NULL, 0), *small = net_parse("mesh:2x2", NULL, 0);
    Sched *a = mixed(net);
    Buf b = pack(a);
    /* a net too small for the holdings: the give is refused */
    Sched *c = sched_new(small, 8, 8192);
    assert_false(sched_unpack(c, b.p, b.len, 0, NULL));
    assert_non_null(strstr(sched_error(c), "give: node 5 is not in mesh:2x2"));
    sched_free(c);
    /* a schedule of one simple step to nodes outside a smaller net: the bulk path refuses it
     * and sched_send names the transfer */
    Sched *s = sched_new(net, 8, 8192);
    assert_true(sched_give(s, 0, 0, 8) && sched_step(s) >= 0);
    assert_true(sched_send_range(s, 0, 1, 0, 8) && sched_send_range(s, 0, 7, 0, 8));
    Buf b2 = pack(s);
    c = sched_new(small, 8, 8192);
    assert_false(sched_unpack(c, b2.p, b2.len, 0, NULL));
    assert_string_equal(sched_error(c), "step 1: send 0->7: node not in mesh:2x2");
    assert_int_equal(sched_total_transfers(c), 1);   /* the good one, then the bad one named */
    sched_free(c);
    /* fewer chunks */
    c = sched_new(net, 2, 8192);
    assert_false(sched_unpack(c, b2.p, b2.len, 0, NULL));
    assert_non_null(sched_error(c));
    sched_free(c);
    free(b2.p);
    sched_free(s);
    free(b.p);
    sched_free(a);
    net_free(net);
    net_free(small);
}

/* Random schedules of simple steps (the bulk path: copied once into the step, then checked
 * in place), unpacked from an unaligned copy of the bytes: the same schedule; then one packed
 * transfer corrupted in the bytes (found by its 16-byte record) is refused with sched_send's
 * message for it, and nothing of its step is kept beyond the transfers before it. */
static void test_random_simple(void **state)
{
    (void)state;
    Net *net = net_parse("array:64", NULL, 0);
    srand(21);
    for (int round = 0; round < 40; round++) {
        Sched *a = sched_new(net, 4, 4096);
        assert_true(sched_give(a, 0, 0, 4));
        int nsteps = 1 + rand() % 6;
        int32_t mark_src = -1, mark_dst = -1;
        int mark_step = -1;
        int64_t before = 0;
        for (int k = 0; k < nsteps; k++) {
            assert_true(sched_step(a) >= 0);
            int n = rand() % 300;
            for (int i = 0; i < n; i++) {
                int32_t src = rand() % 64, dst = (src + 1 + rand() % 63) % 64;
                uint32_t lo = (uint32_t)(rand() % 4), hi = lo + 1 + (uint32_t)(rand() % (4 - (int)lo));
                assert_true(sched_send_range(a, src, dst, lo, hi));
                if (mark_step < 0 && k == nsteps - 1 && i == n / 2) {
                    mark_step = k;
                    before = sched_total_transfers(a) - 1;
                    mark_src = src;
                    mark_dst = dst;
                }
            }
        }
        Buf b = pack(a);
        unsigned char *odd = malloc(b.len + 1);   /* unaligned on purpose */
        memcpy(odd + 1, b.p, b.len);
        Sched *c = sched_new(net, 4, 4096);
        size_t used = 0;
        assert_true(sched_unpack(c, odd + 1, b.len, 0, &used));
        assert_int_equal(used, b.len);
        assert_true(sched_equal(a, c));
        assert_int_equal(sched_total_transfers(c), sched_total_transfers(a));
        for (int32_t k = 0; k < sched_nsteps(a); k++)
            assert_int_equal(sched_ntransfers(c, k), sched_ntransfers(a, k));
        sched_free(c);
        if (mark_step >= 0) {
            /* the marked transfer's record: src, dst, then its range; make it a send to itself,
             * then a chunk past the end */
            SchedTransfer t;
            int64_t idx = before;
            for (int k = 0; k < mark_step; k++)
                idx -= sched_ntransfers(a, k);
            sched_transfer(a, mark_step, idx, &t);
            assert_int_equal(t.src, mark_src);
            uint32_t rec[4] = { (uint32_t)mark_src, (uint32_t)mark_dst, t.ranges[0].lo,
                                t.ranges[0].hi };
            unsigned char *hit = NULL;
            for (size_t o = 0; o + 16 <= b.len && !hit; o++)
                if (memcmp(odd + 1 + o, rec, sizeof rec) == 0)
                    hit = odd + 1 + o;
            assert_non_null(hit);
            int32_t self[2] = { mark_src, mark_src };
            unsigned char save[16];
            memcpy(save, hit, 16);
            memcpy(hit, self, sizeof self);
            c = sched_new(net, 4, 4096);
            assert_false(sched_unpack(c, odd + 1, b.len, 0, NULL));
            assert_non_null(strstr(sched_error(c), "a node cannot send to itself"));
            sched_free(c);
            memcpy(hit, save, 16);
            uint32_t badr[2] = { 0, 5 };   /* chunks 0..4 of 4 */
            memcpy(hit + 8, badr, sizeof badr);
            c = sched_new(net, 4, 4096);
            assert_false(sched_unpack(c, odd + 1, b.len, 0, NULL));
            assert_non_null(strstr(sched_error(c), "is not below 4"));
            sched_free(c);
        }
        free(odd);
        free(b.p);
        sched_free(a);
    }
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_checked),
        cmocka_unit_test(test_random_simple),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
