/* test_sched_pack.c — a schedule packed into bytes and unpacked again (sched-pack.h, how a Lua
 * script's schedule crosses from its child process): the same schedule (sched_equal) for
 * simple steps, several ranges, explicit routes, rule blocks, edge blocks, strided blocks
 * (which cross as blocks, a tree step's as a tree step), local operations, labels, empty steps
 * and holdings; every truncation refused cleanly; a transfer that does not fit the schedule it
 * is unpacked into (nodes outside the net, chunks past nchunks) refused with sched_send's own
 * message, the bulk path included; a hostile child's strided blocks (every field wrong in
 * turn, more transfers than the cap, random bytes flipped) refused with a message, never a
 * crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sched-pack.h"
#include "../../src/engine/sched-strided.h"

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
    /* strided blocks (sched-strided.h) after a stored send: they cross as blocks */
    assert_true(sched_step(s) >= 0 && sched_label(s, "strided"));
    assert_true(sched_send_range(s, 3, 2, 0, 8));
    SchedStrided b1 = { 0, 4, 1, 2, 4, { { 0, 2 }, { 4, 8 } } };    /* 0->1, 4->5, 8->9, 12->13 */
    SchedStrided b2 = { 0, 2, 1, 1, 8, { { 0, 8 }, { 0, 0 } } };    /* a tree step: 0->1 .. 14->15 */
    assert_true(sched_send_strided(s, &b1, false) && sched_send_strided(s, &b2, false));
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

/* The packed bytes of the block b (as sched-pack.c writes it) in p[0..len), or NULL. */
static unsigned char *find_block(unsigned char *p, size_t len, const SchedStrided *b)
{
    struct {
        int32_t first, stride, offset;
        uint32_t nr;
        int64_t count;
        uint32_t r[4];
    } w = { b->first, b->stride, b->offset, b->nr, b->count,
            { b->r[0].lo, b->r[0].hi, b->nr > 1 ? b->r[1].lo : 0, b->nr > 1 ? b->r[1].hi : 0 } };
    assert_int_equal(sizeof w, 40);
    for (size_t o = 0; o + sizeof w <= len; o++)
        if (memcmp(p + o, &w, sizeof w) == 0)
            return p + o;
    return NULL;
}

/* The packed blocks of a hostile child: each field made wrong in turn is refused (by
 * sched_send_strided's checks or the cap on transfers given by blocks), with a message. */
static void test_hostile_blocks(void **state)
{
    (void)state;
    Net *net = net_parse("mesh:4x4", NULL, 0);
    Sched *a = mixed(net);
    Buf b = pack(a);
    SchedStrided b1 = { 0, 4, 1, 2, 4, { { 0, 2 }, { 4, 8 } } };
    unsigned char *at = find_block(b.p, b.len, &b1);
    assert_non_null(at);
    unsigned char save[40];
    memcpy(save, at, 40);
    static const struct {
        size_t off;       /* of the field in the packed block */
        int64_t v;
        int width;        /* bytes */
        const char *want;
    } bad[] = {
        { 0, 16, 4, "a node outside the net" },              /* first */
        { 0, -1, 4, "a node outside the net" },
        { 4, 5, 4, "a node outside the net" },               /* stride: 15 + 1 */
        { 8, 0, 4, "offset 0" },                             /* offset */
        { 8, -1, 4, "a node outside the net" },
        { 12, 0, 4, "1 or 2 chunk ranges" },                 /* nr */
        { 12, 3, 4, "1 or 2 chunk ranges" },
        { 16, 0, 8, "transfers by rules" },                  /* count */
        { 16, -4, 8, "transfers by rules" },
        { 16, (INT64_C(1) << 25) + 1, 8, "transfers by rules" },
        { 16, INT64_C(1) << 40, 8, "transfers by rules" },
        { 16, 5, 8, "a node outside the net" },
        { 20, 1, 4, "transfers by rules" },                  /* count's high half */
        { 24, 3, 4, "chunk ranges sorted" },                 /* lo past hi */
        { 28, 9, 4, "chunk ranges sorted" },                 /* hi past nchunks */
        { 32, 1, 4, "chunk ranges sorted" },                 /* touching the first */
        { 36, 4, 4, "chunk ranges sorted" },                 /* the second empty */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(at, save, 40);
        if (bad[i].width == 4) {
            int32_t v = (int32_t)bad[i].v;
            memcpy(at + bad[i].off, &v, 4);
        } else {
            memcpy(at + bad[i].off, &bad[i].v, 8);
        }
        Sched *c = sched_new(net, 8, 8192);
        assert_false(sched_unpack(c, b.p, b.len, 0, NULL));
        if (!strstr(sched_error(c), bad[i].want))
            fail_msg("field %zu = %lld: [%s] lacks [%s]", bad[i].off, (long long)bad[i].v,
                     sched_error(c), bad[i].want);
        sched_free(c);
    }
    memcpy(at, save, 40);
    /* the step's number of blocks past the bytes there */
    uint64_t nb;
    memcpy(&nb, at - 8, 8);
    assert_int_equal(nb, 2);
    uint64_t many = UINT64_C(1) << 40;
    memcpy(at - 8, &many, 8);
    Sched *c = sched_new(net, 8, 8192);
    assert_false(sched_unpack(c, b.p, b.len, 0, NULL));
    assert_non_null(strstr(sched_error(c), "malformed"));
    sched_free(c);
    memcpy(at - 8, &nb, 8);
    /* blocks giving more transfers than the cap in all (each under it): a node sending to its
     * neighbour again and again (stride 0), 2^24 + 1 times, twice */
    Sched *s = sched_new(net, 1, 64);
    assert_true(sched_give(s, 0, 0, 1) && sched_step(s) >= 0);
    SchedStrided once = { 0, 0, 1, 1, 1, { { 0, 1 }, { 0, 0 } } };
    SchedStrided twice = { 0, 0, 4, 1, 1, { { 0, 1 }, { 0, 0 } } };
    assert_true(sched_send_strided(s, &once, false) && sched_send_strided(s, &twice, false));
    Buf b2 = pack(s);
    int64_t big = (INT64_C(1) << 24) + 1;
    unsigned char *p1 = find_block(b2.p, b2.len, &once), *p2 = find_block(b2.p, b2.len, &twice);
    assert_non_null(p1);
    assert_non_null(p2);
    memcpy(p1 + 16, &big, 8);
    memcpy(p2 + 16, &big, 8);
    c = sched_new(net, 1, 64);
    assert_false(sched_unpack(c, b2.p, b2.len, 0, NULL));
    assert_non_null(strstr(sched_error(c), "more than 33554432 transfers by rules"));
    sched_free(c);
    free(b2.p);
    sched_free(s);
    /* random bytes flipped anywhere: refused or read, never a crash (ASan watches) */
    srand(11);
    for (int round = 0; round < 3000; round++) {
        unsigned char *q = malloc(b.len);
        memcpy(q, b.p, b.len);
        int nflip = 1 + rand() % 3;
        for (int f = 0; f < nflip; f++)
            q[(size_t)rand() % b.len] ^= (unsigned char)(1 + rand() % 255);
        c = sched_new(net, 8, 8192);
        size_t used = 0;
        if (!sched_unpack(c, q, b.len, 0, &used))
            assert_non_null(sched_error(c));
        assert_true(used <= b.len);
        sched_free(c);
        free(q);
    }
    free(b.p);
    sched_free(a);
    net_free(net);
}

/* A binomial tree's 16 steps on array:65536 as strided blocks: packed in a few bytes (not 16
 * a transfer), unpacked as one block a step, the same transfers in the same order. */
static void test_blocks_cross(void **state)
{
    (void)state;
    Net *net = net_parse("array:65536", NULL, 0);
    Sched *a = sched_new(net, 1, 64), *ref = sched_new(net, 1, 64);
    assert_true(sched_give(a, 0, 0, 1) && sched_give(ref, 0, 0, 1));
    for (int i = 0; i < 16; i++) {
        int32_t span = (int32_t)1 << (16 - i);
        SchedStrided bl = { 0, span, span / 2, 1, INT64_C(1) << i, { { 0, 1 }, { 0, 0 } } };
        assert_true(sched_step(a) >= 0 && sched_send_strided(a, &bl, false));
        assert_true(sched_step(ref) >= 0);
        for (int64_t j = 0; j < bl.count; j++)
            assert_true(sched_send_range(ref, (int32_t)(j * span), (int32_t)(j * span + span / 2),
                                         0, 1));
    }
    Buf b = pack(a);
    assert_true(b.len < 2048);   /* 65535 transfers; stored: 16 bytes each */
    Sched *c = sched_new(net, 1, 64);
    assert_true(sched_unpack(c, b.p, b.len, 0, NULL));
    assert_true(sched_equal(c, ref));
    for (int32_t st = 0; st < 16; st++) {
        assert_int_equal(sched_step_nrules(c, st), 1);
        for (int64_t j = 0; j < sched_ntransfers(c, st); j += 97) {
            SchedTransfer x, y;
            sched_transfer(c, st, j, &x);
            sched_transfer(ref, st, j, &y);
            assert_int_equal(x.src, y.src);
            assert_int_equal(x.dst, y.dst);
        }
    }
    sched_free(c);
    free(b.p);
    sched_free(a);
    sched_free(ref);
    net_free(net);
}

/* A transfer of no chunk range (sched_send with nr 0, as an extended record of a hostile
 * child's may say) into a schedule whose range pool is still empty: stored empty, packed and
 * read back.  (fuzz_pack found pointer arithmetic on the empty pool there, which clang's
 * UBSan aborts on and gcc's does not: tests/fuzz/corpus/pack/regress-nr0 pins it.) */
static void test_no_ranges(void **state)
{
    (void)state;
    Net *net = net_parse("mesh:4x4", NULL, 0);
    Sched *s = sched_new(net, 8, 8192);
    NetSeg hop = { 1, 1, 1 };
    ChunkRange r = { 0, 8 };
    assert_true(sched_step(s) >= 0);
    assert_true(sched_send(s, 0, 1, NULL, 0));
    assert_true(sched_send_route(s, 1, 2, &r, 0, &hop, 1));
    assert_true(sched_send(s, 2, 3, &r, 1));
    assert_int_equal(sched_ntransfers(s, 0), 3);
    SchedTransfer t;
    sched_transfer(s, 0, 0, &t);
    assert_int_equal(t.nranges, 0);
    assert_int_equal(t.bytes, 0);
    Buf b = pack(s);
    Sched *c = sched_new(net, 8, 8192);
    assert_true(sched_unpack(c, b.p, b.len, 0, NULL));
    assert_true(sched_equal(s, c));
    sched_free(c);
    free(b.p);
    sched_free(s);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_checked),
        cmocka_unit_test(test_random_simple),
        cmocka_unit_test(test_hostile_blocks),
        cmocka_unit_test(test_blocks_cross),
        cmocka_unit_test(test_no_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
