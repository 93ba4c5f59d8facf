/* test_sched.c — the schedule builder: byte sizes of chunks, normalised sends, explicit routes,
 * errors (first one sticks), steps filled in any order, truncation, equality as multisets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sched-internal.h"

static void test_bytes(void **state)
{
    (void)state;
    Net *n = net_parse("array:4", NULL, 0);
    Sched *s = sched_new(n, 3, 10);
    /* chunk i has floor((i+1)*10/3) - floor(i*10/3) bytes: 3, 3, 4 */
    assert_int_equal(sched_range_bytes(s, 0, 1), 3);
    assert_int_equal(sched_range_bytes(s, 1, 2), 3);
    assert_int_equal(sched_range_bytes(s, 2, 3), 4);
    assert_int_equal(sched_range_bytes(s, 0, 3), 10);
    assert_int_equal(sched_range_bytes(s, 2, 2), 0);
    assert_int_equal(sched_range_bytes(s, 2, 1), 0);
    assert_int_equal(sched_range_bytes(s, 0, 99), 10);   /* clipped to the message */
    sched_free(s);
    /* no overflow with huge messages and many chunks */
    s = sched_new(n, UINT32_MAX, UINT64_MAX);
    assert_true(sched_range_bytes(s, 0, UINT32_MAX) == UINT64_MAX);
    uint64_t sum = 0;
    uint32_t cuts[] = { 0, 1, 77, 1u << 31, UINT32_MAX - 1, UINT32_MAX };
    for (int i = 0; i + 1 < 6; i++)
        sum += sched_range_bytes(s, cuts[i], cuts[i + 1]);
    assert_true(sum == UINT64_MAX);
    sched_free(s);
    s = sched_new(n, 1000, 1);
    assert_int_equal(sched_range_bytes(s, 0, 999), 0);
    assert_int_equal(sched_range_bytes(s, 999, 1000), 1);
    sched_free(s);
    assert_null(sched_new(n, 0, 10));
    assert_null(sched_new(NULL, 1, 10));
    net_free(n);
}

/* sched_ranges_bytes against the definition, floor(hi*bytes/N) - floor(lo*bytes/N) per range
 * summed, computed here in 128 bits: sorted strided sets (the walk without division), gaps
 * too far for it, unsorted and clipped ranges, uniform and huge messages. */
static uint64_t bytes_def(uint64_t bytes, uint32_t N, const ChunkRange *r, size_t n)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t hi = r[k].hi < N ? r[k].hi : N;
        if (r[k].lo >= hi)
            continue;
        sum += (uint64_t)((unsigned __int128)bytes * hi / N) -
               (uint64_t)((unsigned __int128)bytes * r[k].lo / N);
    }
    return sum;
}

static void test_ranges_bytes(void **state)
{
    (void)state;
    Net *net = net_parse("array:4", NULL, 0);
    srand(21);
    const uint32_t Ns[] = { 1, 3, 1000, 1u << 20, 999983, UINT32_MAX };
    const uint64_t Bs[] = { 1, 10, 1024, 1u << 20, 3000017, UINT32_MAX, (uint64_t)UINT32_MAX + 2,
                            UINT64_MAX };
    ChunkRange r[300];
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (size_t j = 0; j < sizeof Bs / sizeof *Bs; j++) {
            Sched *s = sched_new(net, Ns[i], Bs[j]);
            assert_non_null(s);
            for (int trial = 0; trial < 40; trial++) {
                size_t n = (size_t)(rand() % 300);
                uint64_t x = (uint64_t)rand() % (Ns[i] / 2 + 1);
                for (size_t k = 0; k < n; k++) {   /* mostly short gaps, some long, some back */
                    int kind = rand() % 10;
                    uint64_t gap = kind < 6   ? (uint64_t)(rand() % 3)
                                   : kind < 7 ? (uint64_t)(10 + rand() % 10)   /* near 16 */
                                   : kind < 9 ? (uint64_t)rand() % 5000
                                              : 0;
                    uint64_t lo = kind == 9 ? (uint64_t)rand() % ((uint64_t)Ns[i] + 1) : x + gap;
                    uint64_t hi = lo + 1 + (uint64_t)(rand() % (kind < 7 ? 3 : 40));
                    r[k].lo = (uint32_t)(lo < UINT32_MAX ? lo : UINT32_MAX - 1);
                    r[k].hi = (uint32_t)(hi < UINT32_MAX ? hi : UINT32_MAX);
                    x = r[k].hi;
                }
                uint64_t want = bytes_def(Bs[j], Ns[i], r, n);
                assert_true(sched_ranges_bytes(s, r, n) == want);
            }
            sched_free(s);
        }
    net_free(net);
}

static void test_build_read(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:4x4", NULL, 0);
    Sched *s = sched_new(n, 8, 800);
    assert_int_equal(sched_source(s), -1);
    assert_true(sched_give(s, 5, 0, 8));
    assert_int_equal(sched_source(s), 5);
    assert_int_equal(sched_ngiven(s), 1);
    int32_t node;
    ChunkRange r;
    sched_given(s, 0, &node, &r);
    assert_int_equal(node, 5);
    assert_int_equal(r.lo, 0);
    assert_int_equal(r.hi, 8);
    sched_given(s, 1, &node, &r);
    assert_int_equal(node, -1);
    assert_int_equal(sched_step(s), 0);
    assert_true(sched_label(s, "phase 1"));
    ChunkRange rs[] = { { 4, 6 }, { 0, 2 }, { 1, 3 }, { 7, 7 } };
    assert_true(sched_send(s, 5, 15, rs, 4));
    assert_true(sched_send_range(s, 5, 4, 0, 8));
    assert_int_equal(sched_step(s), 1);
    NetSeg route[] = { { 0, 1, 1 }, { 1, 1, 2 }, { 0, -1, 1 } };
    assert_true(sched_send_route(s, 4, 6, rs, 2, route, 3));
    assert_true(sched_local(s, -1, 100));
    assert_true(sched_local(s, 3, 50));
    assert_null(sched_error(s));

    assert_int_equal(sched_nsteps(s), 2);
    assert_int_equal(sched_ntransfers(s, 0), 2);
    assert_int_equal(sched_ntransfers(s, 1), 1);
    assert_int_equal(sched_ntransfers(s, 2), 0);
    assert_int_equal(sched_total_transfers(s), 3);
    assert_string_equal(sched_step_label(s, 0), "phase 1");
    assert_string_equal(sched_step_label(s, 1), "");
    assert_string_equal(sched_step_label(s, 7), "");

    SchedTransfer t;
    sched_transfer(s, 0, 0, &t);
    assert_int_equal(t.src, 5);
    assert_int_equal(t.dst, 15);
    assert_int_equal(t.nranges, 2);   /* {0-2},{4-5} normalised: 0..3 and 4..6 */
    assert_int_equal(t.ranges[0].lo, 0);
    assert_int_equal(t.ranges[0].hi, 3);
    assert_int_equal(t.ranges[1].lo, 4);
    assert_int_equal(t.ranges[1].hi, 6);
    assert_int_equal(t.bytes, 500);
    assert_false(t.explicit_route);
    assert_int_equal(t.nseg, 2);      /* (1,1) -> (3,3): along the row, then the column */
    assert_int_equal(t.seg[0].dim, 1);
    assert_int_equal(t.seg[0].len, 2);
    assert_int_equal(t.seg[1].dim, 0);
    assert_int_equal(t.seg[1].len, 2);
    assert_int_equal(t.len, 4);
    sched_transfer(s, 1, 0, &t);
    assert_true(t.explicit_route);
    assert_int_equal(t.nseg, 3);
    assert_int_equal(t.len, 4);
    assert_int_equal(t.bytes, 400);   /* ranges {4,6},{0,2} */
    sched_transfer(s, 1, 5, &t);
    assert_int_equal(t.src, -1);
    assert_int_equal(sched_nlocals(s, 1), 2);
    SchedLocal l;
    sched_local_get(s, 1, 1, &l);
    assert_int_equal(l.node, 3);
    assert_int_equal(l.bytes, 50);
    sched_local_get(s, 1, 2, &l);
    assert_int_equal(l.node, -1);
    assert_int_equal(l.bytes, 0);
    sched_free(s);
    net_free(n);
}

static void test_at(void **state)
{
    (void)state;
    Net *n = net_parse("array:8", NULL, 0);
    Sched *s = sched_new(n, 1, 8);
    assert_true(sched_give(s, 0, 0, 1));
    /* two sub-operations composed: the second fills steps 0..2 after the first filled 1..3 */
    assert_true(sched_at(s, 3));
    assert_int_equal(sched_nsteps(s), 4);
    assert_true(sched_send_range(s, 0, 1, 0, 1));
    assert_true(sched_at(s, 1));
    assert_true(sched_send_range(s, 0, 2, 0, 1));
    assert_true(sched_send_range(s, 0, 3, 0, 1));
    assert_int_equal(sched_nsteps(s), 4);
    assert_int_equal(sched_ntransfers(s, 1), 2);
    assert_int_equal(sched_ntransfers(s, 3), 1);
    assert_int_equal(sched_ntransfers(s, 0), 0);
    assert_false(sched_at(s, -1));
    assert_null(sched_error(s));
    assert_int_equal(sched_step(s), 4);   /* a new step goes at the end */
    sched_truncate(s, 2);
    assert_int_equal(sched_nsteps(s), 2);
    assert_int_equal(sched_total_transfers(s), 2);
    sched_truncate(s, 5);                 /* no-op */
    assert_int_equal(sched_nsteps(s), 2);
    assert_true(sched_send_range(s, 0, 7, 0, 1));   /* current step clipped to the last */
    assert_int_equal(sched_ntransfers(s, 1), 3);
    sched_truncate(s, 0);
    assert_int_equal(sched_nsteps(s), 0);
    assert_false(sched_send_range(s, 0, 7, 0, 1));  /* no step opened any more */
    sched_free(s);
    /* an absurd step index is refused, not allocated */
    s = sched_new(n, 1, 8);
    assert_false(sched_at(s, INT32_MAX));
    assert_string_equal(sched_error(s), "step 2147483648: more than 16777216 steps");
    assert_int_equal(sched_nsteps(s), 0);
    sched_free(s);
    net_free(n);
}

static void test_errors(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:3x3", NULL, 0);
    struct {
        const char *msg;
    } cases[] = {
        { "send 0->1: no step opened" },
        { "step 1: send 0->9: node not in mesh:3x3" },
        { "step 1: send 4->4: a node cannot send to itself" },
        { "step 1: send 0->1: chunk 4 is not below 4" },
        { "step 1: send 0->2: the route ends at node 1" },
        { "step 1: send 0->6: the route is not a path in mesh:3x3" },
        { "give: node -1 is not in mesh:3x3" },
        { "give: chunks 2..2 are not a range of 0..4" },
        { "step 1: local operation on node 9 not in mesh:3x3" },
    };
    NetSeg one[] = { { 1, 1, 1 } };
    NetSeg off[] = { { 1, -1, 1 }, { 0, 1, 2 } };
    for (int c = 0; c < 9; c++) {
        Sched *s = sched_new(n, 4, 100);
        if (c > 0)
            sched_step(s);
        bool ok = true;
        switch (c) {
        case 0: ok = sched_send_range(s, 0, 1, 0, 1); break;
        case 1: ok = sched_send_range(s, 0, 9, 0, 1); break;
        case 2: ok = sched_send_range(s, 4, 4, 0, 1); break;
        case 3: ok = sched_send_range(s, 0, 1, 2, 5); break;
        case 4: ok = sched_send_route(s, 0, 2, &(ChunkRange){ 0, 1 }, 1, one, 1); break;
        case 5: ok = sched_send_route(s, 0, 6, &(ChunkRange){ 0, 1 }, 1, off, 2); break;
        case 6: ok = sched_give(s, -1, 0, 1); break;
        case 7: ok = sched_give(s, 0, 2, 2); break;
        case 8: ok = sched_local(s, 9, 1); break;
        }
        assert_false(ok);
        assert_non_null(sched_error(s));
        assert_string_equal(sched_error(s), cases[c].msg);
        /* the first error sticks */
        sched_fail(s, "later %d", 5);
        sched_send_range(s, 0, 0, 0, 1);
        assert_string_equal(sched_error(s), cases[c].msg);
        sched_free(s);
    }
    Sched *s = sched_new(n, 4, 100);
    sched_fail(s, "algorithm %s: k = %d too large", "bst", 7);
    assert_string_equal(sched_error(s), "algorithm bst: k = 7 too large");
    sched_free(s);
    s = sched_new(n, 4, 100);
    sched_step(s);
    assert_false(sched_send(s, 0, 1, NULL, 2));
    sched_free(s);
    s = sched_new(n, 4, 100);
    sched_step(s);
    NetSeg many[NET_MAXSEG + 1];
    assert_false(sched_send_route(s, 0, 1, &(ChunkRange){ 0, 1 }, 1, many, NET_MAXSEG + 1));
    sched_free(s);
    assert_false(sched_send_range(NULL, 0, 1, 0, 1));
    assert_false(sched_label(NULL, "x"));
    assert_int_equal(sched_nsteps(NULL), 0);
    assert_non_null(sched_error(NULL));
    sched_fail(NULL, "x");
    sched_free(NULL);
    net_free(n);
}

static Sched *small(const Net *n, bool reversed, bool explicit_default)
{
    Sched *s = sched_new(n, 4, 64);
    sched_give(s, 0, 0, 4);
    sched_step(s);
    if (!reversed) {
        sched_send_range(s, 0, 2, 0, 4);
        sched_send_range(s, 0, 1, 0, 2);
        sched_local(s, 3, 5);
        sched_local(s, -1, 7);
    } else {
        sched_local(s, -1, 7);
        sched_local(s, 3, 5);
        ChunkRange two[] = { { 1, 2 }, { 0, 1 } };
        sched_send(s, 0, 1, two, 2);
        if (explicit_default)
            sched_send_route(s, 0, 2, &(ChunkRange){ 0, 4 }, 1, (NetSeg[]){ { 1, 1, 2 } }, 1);
        else
            sched_send_range(s, 0, 2, 0, 4);
    }
    return s;
}

static void test_equal(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:3x3", NULL, 0);
    Sched *a = small(n, false, false), *b = small(n, true, false), *c = small(n, true, true);
    assert_true(sched_equal(a, a));
    assert_true(sched_equal(a, b));   /* same multiset of transfers and locals */
    assert_true(sched_equal(a, c));   /* an explicit route equal to the default one */
    sched_at(b, 0);
    sched_send_range(b, 1, 4, 0, 1);
    assert_false(sched_equal(a, b));
    sched_truncate(c, 0);
    assert_false(sched_equal(a, c));
    Sched *d = small(n, false, false);
    sched_give(d, 4, 0, 1);
    assert_false(sched_equal(a, d));
    Sched *e = small(n, false, false);
    sched_step(e);
    assert_false(sched_equal(a, e));
    Sched *f = small(n, false, false);
    sched_at(f, 0);
    sched_send_route(f, 3, 5, &(ChunkRange){ 0, 1 }, 1, (NetSeg[]){ { 1, 1, 2 } }, 1);
    Sched *g = small(n, false, false);
    sched_at(g, 0);
    sched_send_route(g, 3, 5, &(ChunkRange){ 0, 1 }, 1,
                     (NetSeg[]){ { 0, 1, 1 }, { 1, 1, 2 }, { 0, -1, 1 } }, 3);
    assert_false(sched_equal(f, g));  /* same ends, different routes */
    Sched *h = small(n, false, false);
    sched_at(h, 0);
    sched_local(h, 3, 6);
    Sched *i = small(n, false, false);
    sched_at(i, 0);
    sched_local(i, 3, 5);
    assert_false(sched_equal(h, i));
    assert_false(sched_equal(a, NULL));
    assert_true(sched_equal(NULL, NULL));
    Sched *all[] = { a, b, c, d, e, f, g, h, i };
    for (size_t k = 0; k < 9; k++)
        sched_free(all[k]);
    net_free(n);
}

/* Step labels are stored once per distinct text (a pipeline's million steps share a few):
 * random labels over random steps, relabelled, some given back from the schedule itself; each
 * step reads back the text it was given last (kept in a plain array here), and no more copies
 * are kept than there were distinct texts given. */
static void test_labels_shared(void **state)
{
    (void)state;
    Net *net = net_parse("array:8", NULL, 0);
    Sched *s = sched_new(net, 1, 8);
    char want[300][16];
    memset(want, 0, sizeof want);
    srand(7);
    int given[10] = {0};
    for (int i = 0; i < 3000; i++) {
        int32_t st = rand() % 300;
        assert_true(sched_at(s, st));
        int k = rand() % 10;
        char text[16];
        snprintf(text, sizeof text, "phase %d", k);
        if (i % 7 == 0 && want[st][0]) {   /* its own label back, from the schedule */
            assert_true(sched_label(s, sched_step_label(s, st)));
            continue;
        }
        assert_true(sched_label(s, text));
        snprintf(want[st], sizeof want[st], "%s", text);
        given[k] = 1;
    }
    int distinct = 0;
    for (int k = 0; k < 10; k++)
        distinct += given[k];
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        assert_string_equal(sched_step_label(s, st), want[st]);
    assert_int_equal(s->nlabels, distinct);   /* up to 64 distinct: each stored once */
    /* consecutive steps of one label: one copy, the same pointer */
    Sched *c = sched_new(net, 1, 8);
    for (int32_t st = 0; st < 1000; st++)
        assert_true(sched_at(c, st) && sched_label(c, st < 500 ? "fill" : "drain"));
    assert_int_equal(c->nlabels, 2);
    assert_ptr_equal(sched_step_label(c, 0), sched_step_label(c, 499));
    assert_string_equal(sched_step_label(c, 999), "drain");
    sched_truncate(c, 10);
    assert_string_equal(sched_step_label(c, 9), "fill");
    sched_free(c);
    sched_free(s);
    net_free(net);
}

/* Big steps (blocks far above malloc's mmap threshold, so realloc moves their pages rather than
 * copying them): transfers added one by one (the block grows by doubling), after a reserve of
 * part or all of them, and with the range slots set apart late in the step (the block doubles
 * again and its slots move), then another step in between: every transfer read back equals
 * the formula it was made from. */
static uint32_t big_lo(int64_t i, int64_t apart) { return i < apart ? 3u : (uint32_t)(i % 7); }

static void test_big_steps(void **state)
{
    (void)state;
    const int32_t N = 1 << 12;
    Net *n = net_parse("array:4096", NULL, 0);
    assert_non_null(n);
    Sched *s = sched_new(n, 16, 1 << 20);
    assert_true(sched_give(s, 0, 0, 16));
    /* step 0: 1.5M transfers, no reserve, one range for all; step 1: 1M reserved half,
     * slots apart from transfer 700000 on; step 2: 2^20 reserved exactly, apart from 1 */
    const int64_t cnt[3] = { 1500000, 1000000, INT64_C(1) << 20 };
    const int64_t res[3] = { 0, 500000, INT64_C(1) << 20 };
    const int64_t apart[3] = { INT64_MAX, 700000, 1 };
    for (int st = 0; st < 3; st++) {
        assert_true(sched_at(s, st));
        if (res[st])
            assert_true(sched_reserve(s, res[st], 0));
        for (int64_t i = 0; i < cnt[st]; i++) {
            uint32_t lo = big_lo(i, apart[st]);
            assert_true(sched_send_range(s, (int32_t)(i % N), (int32_t)((i * 7 + 1) % N), lo,
                                         lo + 1 + (uint32_t)st));
            if (st == 1 && i == 300000) {   /* another step in between, then back */
                assert_true(sched_at(s, 0));
                assert_true(sched_send_range(s, 5, 6, 0, 16));
                assert_true(sched_at(s, 1));
            }
        }
    }
    assert_null(sched_error(s));
    assert_int_equal(sched_ntransfers(s, 0), cnt[0] + 1);
    for (int st = 0; st < 3; st++) {
        if (st > 0)
            assert_int_equal(sched_ntransfers(s, st), cnt[st]);
        int64_t bad = 0;
        SchedTransfer t;
        for (int64_t i = 0; i < cnt[st]; i++) {
            sched_transfer(s, st, i, &t);
            uint32_t lo = big_lo(i, apart[st]);
            bad += t.src != (int32_t)(i % N) || t.dst != (int32_t)((i * 7 + 1) % N) ||
                   t.nranges != 1 || t.ranges[0].lo != lo ||
                   t.ranges[0].hi != lo + 1 + (uint32_t)st;
        }
        assert_int_equal(bad, 0);
    }
    SchedTransfer t;
    sched_transfer(s, 0, cnt[0], &t);
    assert_true(t.src == 5 && t.dst == 6 && t.nranges == 1 && t.ranges[0].lo == 0 &&
                t.ranges[0].hi == 16);
    sched_free(s);
    net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes),  cmocka_unit_test(test_ranges_bytes),
        cmocka_unit_test(test_build_read),
        cmocka_unit_test(test_at),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_labels_shared),
        cmocka_unit_test(test_big_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
