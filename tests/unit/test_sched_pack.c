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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
