/* test_rules.c — sends given by a rule (sched_send_rule): the builder's checks, reading rule
 * transfers back (after the stored ones, blocks in order), equality with the same transfers
 * stored one by one, the simulator giving bit-identical results for a schedule stored
 * transfer by transfer and the same schedule made partly of rule blocks (every model, every
 * load-counting path, history; random schedules and an allgather exchange on mesh:16x32),
 * all checked against a naive walk over net_route as well, and the shortcut for
 * one-send-one-receive seidel steps (first_at_cost) choosing the critical node a full scan
 * would choose. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "near.h"

#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim.h"
#include "simcmp.h"
#include "xfercmp.h"


#define EPS 1e-9
#define A 0.08
#define B 75.0

/* ---- rules used by the tests --------------------------------------------------------------- */

/* A table of transfers: entry j is transfer j.  Copied whole into the schedule (ctxsize covers
 * the flexible array). */
typedef struct {
    int64_t n;
    SchedRuleXfer x[];
} Table;

static void table_rule(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    const Table *t = ctx;
    assert_true(j >= 0 && j < t->n);
    *out = t->x[j];
}

/* The same table as a batch rule: transfers j0..j0+n-1 at once. */
static void table_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const Table *t = ctx;
    assert_true(j0 >= 0 && n >= 1 && j0 + n <= t->n);
    memcpy(out, t->x + j0, (size_t)n * sizeof *out);
}

static Table *table_new(int64_t n)
{
    Table *t = calloc(1, sizeof *t + (size_t)n * sizeof t->x[0]);
    assert_non_null(t);
    t->n = n;
    return t;
}

static size_t table_size(const Table *t)
{
    return sizeof *t + (size_t)t->n * sizeof t->x[0];
}

/* The exchange x -> x ^ span (one range: the block of 4 chunks of x's group). */
typedef struct {
    int32_t span;
    uint32_t shift;   /* chunks added to the range (to show the ctx is read, not pointers) */
} XorCtx;

static void xor_rule(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    const XorCtx *c = ctx;
    int32_t x = (int32_t)j;
    out->src = x;
    out->dst = x ^ c->span;
    out->nr = 1;
    uint32_t lo = (uint32_t)(x & ~3) + c->shift;
    out->r[0] = (ChunkRange){ lo, lo + 4 };
}

/* Two ranges: x -> x ^ 1 for x < 8, chunks {x} and {x + 8}. */
static void two_rule(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    (void)ctx;
    int32_t x = (int32_t)j;
    out->src = x;
    out->dst = x ^ 1;
    out->nr = 2;
    out->r[0] = (ChunkRange){ (uint32_t)x, (uint32_t)x + 1 };
    out->r[1] = (ChunkRange){ (uint32_t)x + 8, (uint32_t)x + 9 };
}

/* A rule whose transfer `bad` is the one given in ctx (all others fine: 0->1 chunk 0). */
typedef struct {
    int64_t bad;
    SchedRuleXfer x;
} BadCtx;

static void bad_rule(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    const BadCtx *c = ctx;
    if (j == c->bad) {
        *out = c->x;
        return;
    }
    out->src = 0;
    out->dst = 1;
    out->nr = 1;
    out->r[0] = (ChunkRange){ 0, 1 };
}

/* ---- 1. builder errors --------------------------------------------------------------------- */

/* On array:8 with 16 chunks, two steps open (the current one is step 2): a rule of 3 transfers
 * whose transfer 2 is x must fail the schedule, naming step 2 and adding nothing. */
static void expect_bad(const Net *n, SchedRuleXfer x, const char *want)
{
    Sched *s = sched_new(n, 16, 1600);
    sched_give(s, 0, 0, 16);
    sched_step(s);
    sched_step(s);
    assert_true(sched_send_range(s, 0, 2, 0, 16));
    BadCtx c = { 2, x };
    assert_false(sched_send_rule(s, 3, bad_rule, &c, sizeof c));
    const char *err = sched_error(s);
    assert_non_null(err);
    if (!strstr(err, "step 2") || (want && !strstr(err, want))) {
        print_error("error '%s' lacks 'step 2' or '%s'\n", err, want ? want : "");
        fail();
    }
    /* nothing of the failed block was added */
    assert_int_equal(sched_ntransfers(s, 1), 1);
    assert_int_equal(sched_total_transfers(s), 1);
    /* the first error sticks */
    assert_false(sched_send_range(s, 0, 0, 0, 1));
    assert_string_equal(sched_error(s), err);
    sched_free(s);
}

/* A batch rule (sched_send_rule_batch) of more transfers than the builder generates at a time
 * reads back, compares and simulates like the same table given one transfer at a time; a bad
 * transfer deep inside it is named by its index. */
static void test_batch_rule(void **state)
{
    (void)state;
    Net *n = net_parse("full:64", NULL, 0);
    assert_non_null(n);
    enum { M = 1000 };
    Table *t = table_new(M);
    for (int64_t j = 0; j < M; j++) {   /* node j % 63 + 1 gets chunk j % 16 from node 0.. */
        int32_t dst = (int32_t)(j % 63) + 1;
        t->x[j] = (SchedRuleXfer){ (int32_t)((j * 5) % 64), dst, 1,
                                   { { (uint32_t)(j % 16), (uint32_t)(j % 16) + 1 }, { 0, 0 } } };
        if (t->x[j].src == dst)
            t->x[j].src = 0;
    }
    Sched *a = sched_new(n, 16, 1600), *b = sched_new(n, 16, 1600);
    for (int k = 0; k < 2; k++) {
        Sched *s = k ? b : a;
        sched_give(s, 0, 0, 16);
        sched_step(s);
        assert_true(k ? sched_send_rule_batch(s, M, table_batch, t, table_size(t))
                      : sched_send_rule(s, M, table_rule, t, table_size(t)));
        assert_null(sched_error(s));
    }
    assert_true(sched_equal(a, b));
    for (int64_t j = 0; j < M; j += 97) {   /* read back one by one */
        SchedTransfer x;
        sched_transfer(b, 0, j, &x);
        assert_int_equal(x.src, t->x[j].src);
        assert_int_equal(x.dst, t->x[j].dst);
        assert_int_equal(x.nranges, 1);
        assert_int_equal(x.ranges[0].lo, t->x[j].r[0].lo);
    }
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    Sim *sa = sim_run(a, &p, 0, NULL, 0), *sb = sim_run(b, &p, 0, NULL, 0);
    assert_non_null(sa);
    assert_non_null(sb);
    assert_int_equal(sim_nviolations(sa), sim_nviolations(sb));
    assert_true(sim_nviolations(sb) > 0);   /* node 0 sends many times: the port rule */
    assert_true(sim_totals(sa)->cost.total == sim_totals(sb)->cost.total);
    sim_free(sa);
    sim_free(sb);
    /* transfer 700 sends chunk 16 of 16 */
    t->x[700].r[0] = (ChunkRange){ 15, 17 };
    Sched *c = sched_new(n, 16, 1600);
    sched_give(c, 0, 0, 16);
    sched_step(c);
    assert_false(sched_send_rule_batch(c, M, table_batch, t, table_size(t)));
    assert_non_null(sched_error(c));
    assert_non_null(strstr(sched_error(c), "chunk 16"));
    assert_int_equal(sched_total_transfers(c), 0);
    t->x[700].r[0] = (ChunkRange){ 3, 3 };   /* empty: named by its index */
    Sched *d = sched_new(n, 16, 1600);
    sched_give(d, 0, 0, 16);
    sched_step(d);
    assert_false(sched_send_rule_batch(d, M, table_batch, t, table_size(t)));
    assert_non_null(strstr(sched_error(d), "rule transfer 700"));
    free(t);
    sched_free(a);
    sched_free(b);
    sched_free(c);
    sched_free(d);
    net_free(n);
}

static void test_rule_errors(void **state)
{
    (void)state;
    Net *n = net_parse("array:8", NULL, 0);
    assert_non_null(n);
    /* src == dst */
    expect_bad(n, (SchedRuleXfer){ 3, 3, 1, { { 0, 1 }, { 0, 0 } } }, "itself");
    /* nodes out of range */
    expect_bad(n, (SchedRuleXfer){ 8, 1, 1, { { 0, 1 }, { 0, 0 } } }, "not in array:8");
    expect_bad(n, (SchedRuleXfer){ 1, -1, 1, { { 0, 1 }, { 0, 0 } } }, "not in array:8");
    expect_bad(n, (SchedRuleXfer){ -1, 1, 1, { { 0, 1 }, { 0, 0 } } }, "not in array:8");
    /* a chunk >= nchunks */
    expect_bad(n, (SchedRuleXfer){ 0, 1, 1, { { 15, 17 }, { 0, 0 } } }, "chunk 16");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 2, { { 0, 1 }, { 5, 17 } } }, "chunk 16");
    /* two ranges touching, out of order, overlapping, an empty one, three ranges */
    expect_bad(n, (SchedRuleXfer){ 0, 1, 2, { { 0, 3 }, { 3, 5 } } }, "rule transfer 2");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 2, { { 6, 8 }, { 0, 3 } } }, "rule transfer 2");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 2, { { 0, 5 }, { 3, 8 } } }, "rule transfer 2");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 1, { { 4, 4 }, { 0, 0 } } }, "rule transfer 2");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 2, { { 0, 2 }, { 7, 7 } } }, "rule transfer 2");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 1, { { 5, 3 }, { 0, 0 } } }, "rule transfer 2");
    expect_bad(n, (SchedRuleXfer){ 0, 1, 3, { { 0, 1 }, { 3, 4 } } }, "rule transfer 2");
    /* (a rule that writes nothing leaves src = dst = -1) */
    expect_bad(n, (SchedRuleXfer){ -1, -1, 0, { { 0, 0 }, { 0, 0 } } }, "not in array:8");

    /* no step opened */
    Sched *s = sched_new(n, 16, 1600);
    XorCtx xc = { 4, 0 };
    assert_false(sched_send_rule(s, 8, xor_rule, &xc, sizeof xc));
    assert_non_null(sched_error(s));
    assert_non_null(strstr(sched_error(s), "no step"));
    assert_int_equal(sched_total_transfers(s), 0);
    sched_free(s);

    /* fn NULL, negative count, a ctx size without a ctx */
    for (int k = 0; k < 3; k++) {
        s = sched_new(n, 16, 1600);
        sched_step(s);
        bool ok = k == 0   ? sched_send_rule(s, 8, NULL, &xc, sizeof xc)
                  : k == 1 ? sched_send_rule(s, -1, xor_rule, &xc, sizeof xc)
                           : sched_send_rule(s, 8, xor_rule, NULL, sizeof xc);
        assert_false(ok);
        assert_non_null(sched_error(s));
        assert_non_null(strstr(sched_error(s), "step 1"));
        assert_int_equal(sched_ntransfers(s, 0), 0);
        assert_int_equal(sched_total_transfers(s), 0);
        sched_free(s);
    }

    /* count 0: a no-op that succeeds */
    s = sched_new(n, 16, 1600);
    sched_step(s);
    assert_true(sched_send_rule(s, 0, xor_rule, &xc, sizeof xc));
    assert_true(sched_send_rule(s, 0, bad_rule, NULL, 0));
    assert_null(sched_error(s));
    assert_int_equal(sched_ntransfers(s, 0), 0);
    assert_int_equal(sched_total_transfers(s), 0);
    /* a good block after it; a transfer of the block that is fine is accepted with no ctx */
    assert_true(sched_send_rule(s, 8, two_rule, NULL, 0));
    assert_int_equal(sched_ntransfers(s, 0), 8);
    assert_null(sched_error(s));
    sched_free(s);

    /* the ctx is copied: changing (and freeing) it afterwards changes nothing */
    s = sched_new(n, 16, 1600);
    sched_step(s);
    XorCtx *heap = malloc(sizeof *heap);
    assert_non_null(heap);
    *heap = (XorCtx){ 2, 8 };
    assert_true(sched_send_rule(s, 8, xor_rule, heap, sizeof *heap));
    heap->span = 1;
    heap->shift = 0;
    free(heap);
    BadCtx bc = { 0, { 6, 7, 1, { { 9, 10 }, { 0, 0 } } } };
    assert_true(sched_send_rule(s, 2, bad_rule, &bc, sizeof bc));
    bc.x.src = 5;
    bc.x.r[0] = (ChunkRange){ 1, 2 };
    assert_int_equal(sched_ntransfers(s, 0), 10);
    for (int32_t x = 0; x < 8; x++) {
        SchedTransfer t;
        sched_transfer(s, 0, x, &t);
        assert_int_equal(t.src, x);
        assert_int_equal(t.dst, x ^ 2);
        assert_int_equal(t.nranges, 1);
        assert_int_equal(t.ranges[0].lo, (uint32_t)(x & ~3) + 8);
        assert_int_equal(t.ranges[0].hi, (uint32_t)(x & ~3) + 12);
    }
    SchedTransfer t;
    sched_transfer(s, 0, 8, &t);
    assert_int_equal(t.src, 6);
    assert_int_equal(t.dst, 7);
    assert_int_equal(t.ranges[0].lo, 9);
    assert_int_equal(t.ranges[0].hi, 10);
    sched_transfer(s, 0, 9, &t);
    assert_int_equal(t.src, 0);
    assert_int_equal(t.dst, 1);
    assert_null(sched_error(s));
    sched_free(s);
    net_free(n);
}

/* ---- 2. reading back ----------------------------------------------------------------------- */

static uint64_t rbytes(uint64_t bytes, uint32_t nchunks, uint32_t lo, uint32_t hi)
{
    return hi * bytes / nchunks - lo * bytes / nchunks;
}

typedef struct {
    int32_t src, dst;
    uint32_t nr;
    ChunkRange r[2];
} Want;

static void check_transfer(const Sched *s, int32_t step, int64_t i, const Want *w, bool rule)
{
    SchedTransfer t;
    sched_transfer(s, step, i, &t);
    assert_int_equal(t.src, w->src);
    assert_int_equal(t.dst, w->dst);
    assert_int_equal(t.nranges, w->nr);
    uint64_t b = 0;
    for (uint32_t k = 0; k < w->nr; k++) {
        assert_int_equal(t.ranges[k].lo, w->r[k].lo);
        assert_int_equal(t.ranges[k].hi, w->r[k].hi);
        b += rbytes(sched_bytes(s), sched_nchunks(s), w->r[k].lo, w->r[k].hi);
    }
    assert_int_equal(t.bytes, b);
    assert_false(t.explicit_route);
    int32_t d = w->dst - w->src;   /* array */
    assert_int_equal(t.len, d < 0 ? -d : d);
    assert_int_equal(t.nseg, 1);
    assert_int_equal(t.seg[0].dim, 0);
    assert_int_equal(t.seg[0].dir, d < 0 ? -1 : 1);
    assert_int_equal(t.seg[0].len, d < 0 ? -d : d);
    if (rule)
        assert_ptr_equal(t.ranges, t.rbuf);
}

/* Step 0 of array:16 (16 chunks, 1000 bytes: chunks of 62 or 63 bytes): a stored send, the
 * exchange x -> x^4 as a rule, a stored two-range send, x -> x^1 with two ranges as a rule.
 * Readers see the two stored sends, then the 16, then the 8. */
static Sched *build_mixed(const Net *n)
{
    Sched *s = sched_new(n, 16, 1000);
    sched_give(s, 0, 0, 16);
    sched_step(s);
    assert_true(sched_send_range(s, 5, 9, 0, 3));
    XorCtx xc = { 4, 0 };
    assert_true(sched_send_rule(s, 16, xor_rule, &xc, sizeof xc));
    ChunkRange two[3] = { { 4, 6 }, { 1, 2 }, { 5, 6 } };   /* normalised: {1,2}, {4,6} */
    assert_true(sched_send(s, 0, 15, two, 3));
    assert_true(sched_send_rule(s, 8, two_rule, NULL, 0));
    assert_null(sched_error(s));
    return s;
}

static void mixed_wants(Want *w)
{
    w[0] = (Want){ 5, 9, 1, { { 0, 3 }, { 0, 0 } } };
    w[1] = (Want){ 0, 15, 2, { { 1, 2 }, { 4, 6 } } };
    for (int32_t x = 0; x < 16; x++) {
        uint32_t lo = (uint32_t)(x & ~3);
        w[2 + x] = (Want){ x, x ^ 4, 1, { { lo, lo + 4 }, { 0, 0 } } };
    }
    for (int32_t x = 0; x < 8; x++)
        w[18 + x] = (Want){ x, x ^ 1, 2,
                            { { (uint32_t)x, (uint32_t)x + 1 },
                              { (uint32_t)x + 8, (uint32_t)x + 9 } } };
}

static void test_read_back(void **state)
{
    (void)state;
    Net *n = net_parse("array:16", NULL, 0);
    Sched *s = build_mixed(n);
    Want w[26];
    mixed_wants(w);
    assert_int_equal(sched_nsteps(s), 1);
    assert_int_equal(sched_ntransfers(s, 0), 26);
    assert_int_equal(sched_total_transfers(s), 26);
    for (int64_t i = 0; i < 26; i++)
        check_transfer(s, 0, i, &w[i], i >= 2);
    /* the byte counts by hand for two of them (1000 bytes / 16 chunks) */
    SchedTransfer t;
    sched_transfer(s, 0, 0, &t);
    assert_int_equal(t.bytes, 187);             /* chunks 0..2: floor(3000/16) = 187 */
    sched_transfer(s, 0, 25, &t);               /* chunks 7 and 15: 500-437 + 1000-937 */
    assert_int_equal(t.bytes, 63 + 63);
    sched_transfer(s, 0, 2, &t);                /* 0 -> 4, chunks 0..3: 250 */
    assert_int_equal(t.bytes, 250);
    assert_int_equal(t.len, 4);
    /* out of range */
    int64_t bad_i[] = { -1, 26, 1000 };
    for (int k = 0; k < 3; k++) {
        sched_transfer(s, 0, bad_i[k], &t);
        assert_int_equal(t.src, -1);
        assert_int_equal(t.dst, -1);
        assert_int_equal(t.nranges, 0);
    }
    sched_transfer(s, 1, 0, &t);
    assert_int_equal(t.src, -1);
    sched_transfer(s, -1, 0, &t);
    assert_int_equal(t.src, -1);
    assert_int_equal(sched_ntransfers(s, 1), 0);

    /* a step opened later; then sends to step 0 again with sched_at (a rule block and a stored
     * send: the stored one goes before every rule transfer) */
    sched_step(s);
    XorCtx xc = { 8, 0 };
    assert_true(sched_send_rule(s, 16, xor_rule, &xc, sizeof xc));
    assert_true(sched_at(s, 0));
    assert_true(sched_send_rule(s, 2, two_rule, NULL, 0));
    assert_true(sched_send_range(s, 3, 1, 7, 9));
    assert_int_equal(sched_ntransfers(s, 0), 29);
    assert_int_equal(sched_ntransfers(s, 1), 16);
    assert_int_equal(sched_total_transfers(s), 45);
    Want w3 = { 3, 1, 1, { { 7, 9 }, { 0, 0 } } };
    check_transfer(s, 0, 2, &w3, false);        /* the third stored one */
    for (int64_t i = 2; i < 26; i++)            /* the rule transfers moved up by one */
        check_transfer(s, 0, i + 1, &w[i], true);
    for (int32_t x = 0; x < 2; x++) {           /* the third block */
        Want wx = { x, x ^ 1, 2,
                    { { (uint32_t)x, (uint32_t)x + 1 }, { (uint32_t)x + 8, (uint32_t)x + 9 } } };
        check_transfer(s, 0, 27 + x, &wx, true);
    }
    for (int32_t x = 0; x < 16; x++) {
        uint32_t lo = (uint32_t)(x & ~3);
        Want wx = { x, x ^ 8, 1, { { lo, lo + 4 }, { 0, 0 } } };
        check_transfer(s, 1, x, &wx, true);
    }
    sched_transfer(s, 1, 16, &t);
    assert_int_equal(t.src, -1);

    /* truncation removes the rule transfers from the total */
    sched_truncate(s, 1);
    assert_int_equal(sched_nsteps(s), 1);
    assert_int_equal(sched_total_transfers(s), 29);
    assert_int_equal(sched_ntransfers(s, 1), 0);
    sched_truncate(s, 0);
    assert_int_equal(sched_nsteps(s), 0);
    assert_int_equal(sched_total_transfers(s), 0);
    assert_int_equal(sched_ntransfers(s, 0), 0);
    /* and the schedule can be built again */
    sched_step(s);
    assert_true(sched_send_rule(s, 8, two_rule, NULL, 0));
    assert_int_equal(sched_total_transfers(s), 8);
    check_transfer(s, 0, 7, &w[25], true);
    assert_null(sched_error(s));
    sched_free(s);
    net_free(n);
}

/* ---- 3. equality --------------------------------------------------------------------------- */

static void test_rule_equal(void **state)
{
    (void)state;
    Net *n = net_parse("array:16", NULL, 0);
    Sched *a = build_mixed(n);
    Want w[26];
    mixed_wants(w);
    /* the same transfers one by one, in reverse order */
    Sched *b = sched_new(n, 16, 1000);
    sched_give(b, 0, 0, 16);
    sched_step(b);
    for (int i = 25; i >= 0; i--)
        assert_true(sched_send(b, w[i].src, w[i].dst, w[i].r, w[i].nr));
    assert_true(sched_equal(a, b));
    assert_true(sched_equal(b, a));
    /* the same as rules split differently (a table in two blocks, shuffled) */
    Sched *c = sched_new(n, 16, 1000);
    sched_give(c, 0, 0, 16);
    sched_step(c);
    Table *t1 = table_new(13), *t2 = table_new(13);
    for (int i = 0; i < 13; i++) {
        const Want *x = &w[(i * 7) % 26], *y = &w[(13 + i * 7) % 26];
        t1->x[i] = (SchedRuleXfer){ x->src, x->dst, x->nr, { x->r[0], x->r[1] } };
        t2->x[i] = (SchedRuleXfer){ y->src, y->dst, y->nr, { y->r[0], y->r[1] } };
    }
    assert_true(sched_send_rule(c, 13, table_rule, t2, table_size(t2)));
    assert_true(sched_send_rule(c, 13, table_rule, t1, table_size(t1)));
    assert_null(sched_error(c));
    assert_true(sched_equal(a, c));
    assert_true(sched_equal(c, b));
    /* one transfer differs: its second range */
    Sched *d = sched_new(n, 16, 1000);
    sched_give(d, 0, 0, 16);
    sched_step(d);
    for (int i = 0; i < 26; i++) {
        Want x = w[i];
        if (i == 20)
            x.r[1].hi++;
        assert_true(sched_send(d, x.src, x.dst, x.r, x.nr));
    }
    assert_false(sched_equal(a, d));
    assert_false(sched_equal(d, c));
    /* one transfer differs: its destination (the rule version differs this time) */
    t1->x[5].dst = t1->x[5].dst == 0 ? 1 : 0;
    if (t1->x[5].dst == t1->x[5].src)
        t1->x[5].dst = 15;
    Sched *e = sched_new(n, 16, 1000);
    sched_give(e, 0, 0, 16);
    sched_step(e);
    assert_true(sched_send_rule(e, 13, table_rule, t1, table_size(t1)));
    assert_true(sched_send_rule(e, 13, table_rule, t2, table_size(t2)));
    assert_null(sched_error(e));
    assert_false(sched_equal(e, a));
    assert_false(sched_equal(b, e));
    /* one transfer missing */
    Sched *f = sched_new(n, 16, 1000);
    sched_give(f, 0, 0, 16);
    sched_step(f);
    t2->n = 12;
    assert_true(sched_send_rule(f, 13, table_rule, t1, table_size(t1)));
    assert_true(sched_send_rule(f, 12, table_rule, t2, table_size(t2)));
    assert_false(sched_equal(f, a));
    free(t1);
    free(t2);
    Sched *all[] = { a, b, c, d, e, f };
    for (int k = 0; k < 6; k++)
        sched_free(all[k]);
    net_free(n);
}

/* ---- naive model (independent of the simulator) ------------------------------------------- */

/* One transfer as the tests plan it: its rule form plus an optional explicit route. */
typedef struct {
    SchedRuleXfer x;
    int nseg;             /* > 0: explicit route */
    NetSeg seg[NET_MAXSEG];
} TX;

static int tx_route(const Net *n, const TX *t, NetSeg *seg)
{
    if (t->nseg > 0) {
        memcpy(seg, t->seg, (size_t)t->nseg * sizeof *seg);
        return t->nseg;
    }
    return net_route(n, t->x.src, t->x.dst, seg);
}

/* Loads of every directed link (by id) of transfers t[0..m), by walking the routes. */
static void naive_loads(const Net *n, const TX *t, int64_t m, int32_t *load)
{
    memset(load, 0, (size_t)net_nlinks(n) * sizeof *load);
    for (int64_t i = 0; i < m; i++) {
        NetSeg seg[NET_MAXSEG];
        int ns = tx_route(n, &t[i], seg);
        int32_t u = t[i].x.src;
        for (int j = 0; j < ns; j++)
            for (int h = 0; h < seg[j].len; h++) {
                load[net_link(n, u, seg[j].dim, seg[j].dir)]++;
                u = net_neighbor(n, u, seg[j].dim, seg[j].dir);
            }
        assert_int_equal(u, t[i].x.dst);
    }
}

static int32_t naive_k(const Net *n, const TX *t, const int32_t *load)
{
    NetSeg seg[NET_MAXSEG];
    int ns = tx_route(n, t, seg);
    int32_t u = t->x.src, k = 0;
    for (int j = 0; j < ns; j++)
        for (int h = 0; h < seg[j].len; h++) {
            int32_t l = load[net_link(n, u, seg[j].dim, seg[j].dir)];
            if (l > k)
                k = l;
            u = net_neighbor(n, u, seg[j].dim, seg[j].dir);
        }
    return k;
}

static int64_t tx_len(const Net *n, const TX *t)
{
    NetSeg seg[NET_MAXSEG];
    int ns = tx_route(n, t, seg);
    int64_t l = 0;
    for (int j = 0; j < ns; j++)
        l += seg[j].len;
    return l;
}

static uint64_t tx_bytes(const TX *t, uint64_t bytes, uint32_t nchunks)
{
    uint64_t b = 0;
    for (uint32_t k = 0; k < t->x.nr; k++)
        b += rbytes(bytes, nchunks, t->x.r[k].lo, t->x.r[k].hi);
    return b;
}

/* Seidel's sub-rounds (docs/model.md): in order, each transfer after its source's previous
 * send and its destination's previous receive of the step; each link's most circuits in one
 * sub-round into load, each transfer's busiest load within its sub-round into k (m entries);
 * returns the sum over sub-rounds of their costliest transfer. */
static double naive_sub(const Net *n, const TX *t, int64_t m, uint64_t bytes, uint32_t nchunks,
                        double a, double b, int nu, int32_t *load, int32_t *k)
{
    int64_t nl = net_nlinks(n);
    int32_t size = net_size(n), cap = 1 << nu;
    int32_t *rd = calloc((size_t)m + 1, sizeof *rd);
    int32_t *ls = calloc((size_t)size, sizeof *ls), *lr = calloc((size_t)size, sizeof *lr);
    int32_t *cur = malloc((size_t)nl * sizeof *cur);
    TX *sub = malloc(((size_t)m + 1) * sizeof *sub);
    int64_t *idx = malloc(((size_t)m + 1) * sizeof *idx);
    assert_true(rd && ls && lr && cur && sub && idx);
    int32_t nsub = 0;
    for (int64_t i = 0; i < m; i++) {
        int32_t r = ls[t[i].x.src] > lr[t[i].x.dst] ? ls[t[i].x.src] : lr[t[i].x.dst];
        rd[i] = r;
        ls[t[i].x.src] = lr[t[i].x.dst] = r + 1;
        nsub = r + 1 > nsub ? r + 1 : nsub;
    }
    memset(load, 0, (size_t)nl * sizeof *load);
    double cost = 0;
    for (int32_t r = 0; r < nsub; r++) {
        int64_t ns = 0;
        for (int64_t i = 0; i < m; i++)
            if (rd[i] == r) {
                sub[ns] = t[i];
                idx[ns++] = i;
            }
        naive_loads(n, sub, ns, cur);
        for (int64_t l = 0; l < nl; l++)
            load[l] = cur[l] > load[l] ? cur[l] : load[l];
        double best = -1;
        for (int64_t j = 0; j < ns; j++) {
            int32_t kk = naive_k(n, &sub[j], cur);
            if (k)
                k[idx[j]] = kk;
            double mult = kk <= cap ? 1.0 : (double)((kk + cap - 1) / cap);
            double c = mult * a * (double)tx_bytes(&sub[j], bytes, nchunks) + b;
            best = c > best ? c : best;
        }
        cost += best;
    }
    free(rd);
    free(ls);
    free(lr);
    free(cur);
    free(sub);
    free(idx);
    return cost;
}

typedef struct {
    int32_t critical;
    double comm;          /* communication cost of the step */
    bool onek;            /* the case first_at_cost handles */
    bool onek_rmq;        /* ... and the walk budget runs out before the answer */
    int32_t mx;
} NaiveSeidel;

/* A seidel step by the definition in sim.h: every transfer priced with its busiest link; with
 * no port conflict the first costliest transfer decides, else the sum of the sub-rounds'. */
static NaiveSeidel naive_seidel(const Net *n, const TX *t, int64_t m, uint64_t bytes,
                                uint32_t nchunks, double a, double b, int nu, int32_t *load)
{
    NaiveSeidel r = { -1, 0, false, false, 0 };
    if (m == 0)
        return r;
    naive_loads(n, t, m, load);
    int32_t cap = 1 << nu;
    for (int64_t l = 0; l < net_nlinks(n); l++)
        if (load[l] > r.mx)
            r.mx = load[l];
    int32_t size = net_size(n);
    int32_t *sends = calloc((size_t)size, sizeof *sends), *recvs = calloc((size_t)size, sizeof *recvs);
    double *c = calloc((size_t)m, sizeof *c);
    assert_true(sends && recvs && c);
    bool conflict = false, sameb = true;
    uint64_t b0 = tx_bytes(&t[0], bytes, nchunks);
    for (int64_t i = 0; i < m; i++) {
        conflict |= ++sends[t[i].x.src] > 1;
        conflict |= ++recvs[t[i].x.dst] > 1;
        uint64_t bi = tx_bytes(&t[i], bytes, nchunks);
        sameb &= bi == b0;
        int32_t k = naive_k(n, &t[i], load);
        double mult = k <= cap ? 1.0 : (double)((k + cap - 1) / cap);
        c[i] = mult * a * (double)bi + b;
    }
    if (!conflict) {
        double best = -1;
        int64_t arg = 0;
        for (int64_t i = 0; i < m; i++)
            if (c[i] > best) {
                best = c[i];
                arg = i;
            }
        r.critical = t[arg].x.src;
        r.comm = best;
        r.onek = sameb && r.mx > cap;
        if (r.onek) {
            int64_t budget = net_nlinks(n) / 4 + 64;
            for (int64_t i = 0; i <= arg; i++) {
                if (budget < 0)
                    r.onek_rmq = true;
                budget -= tx_len(n, &t[i]);
            }
        }
    } else {
        /* sub-rounds; the critical node has the most sends or receives (senders first) */
        r.comm = naive_sub(n, t, m, bytes, nchunks, a, b, nu, load, NULL);
        r.mx = 0;
        for (int64_t l = 0; l < net_nlinks(n); l++)
            if (load[l] > r.mx)
                r.mx = load[l];
        int32_t most = 0;
        for (int64_t i = 0; i < m; i++)
            if (sends[t[i].x.src] > most) {
                most = sends[t[i].x.src];
                r.critical = t[i].x.src;
            }
        for (int64_t i = 0; i < m; i++)
            if (recvs[t[i].x.dst] > most) {
                most = recvs[t[i].x.dst];
                r.critical = t[i].x.dst;
            }
    }
    free(sends);
    free(recvs);
    free(c);
    return r;
}

/* ---- 4. random schedules: stored vs rules -------------------------------------------------- */

static uint64_t rng_state, rng2_state;

static uint32_t rnd_from(uint64_t *st, uint32_t n)
{
    /* xorshift64* */
    *st ^= *st >> 12;
    *st ^= *st << 25;
    *st ^= *st >> 27;
    return (uint32_t)(((*st * UINT64_C(2685821657736338717)) >> 32) % n);
}

static uint32_t rnd(uint32_t n) { return rnd_from(&rng_state, n); }
/* (a second stream, for variations added later: the plans of rnd stay as they were, and with
 * them the coverage test_random_equivalence counts) */
static uint32_t rnd2(uint32_t n) { return rnd_from(&rng2_state, n); }

typedef struct {
    TX *t;
    int64_t n;
    int64_t nstored;      /* B stores t[0..nstored) with sched_send(_route) */
    int64_t split;        /* B: rule blocks [nstored, split) and [split, n); split == n: one */
    bool rules_first;     /* B adds its rule blocks before its stored sends */
    bool perm;            /* every node sends and receives at most once, equal bytes */
    int nloc;
    int32_t locnode[3];
    uint64_t locbytes[3];
} PStep;

typedef struct {
    const Net *net;
    uint32_t nchunks;
    uint64_t bytes;
    int ngive;
    int32_t gnode[1024];
    ChunkRange grange[1024];
    int nsteps;
    PStep st[12];
    uint8_t *hold;        /* (nsteps+1) x size x nchunks: holdings at every position */
} Plan;

static uint8_t *hold_at(const Plan *p, int pos, int32_t v)
{
    return p->hold + ((size_t)pos * (size_t)net_size(p->net) + (size_t)v) * p->nchunks;
}

/* A range of src's holdings (held) or anywhere (not held). */
static ChunkRange pick_range(const Plan *p, const uint8_t *h, bool anywhere)
{
    uint32_t nc = p->nchunks;
    if (!anywhere) {
        for (int tries = 0; tries < 3 * (int)nc; tries++) {
            uint32_t c = rnd(nc);
            if (!h[c])
                continue;
            uint32_t hi = c + 1;
            while (hi < nc && h[hi] && rnd(3))
                hi++;
            return (ChunkRange){ c, hi };
        }
    }
    uint32_t lo = rnd(nc), hi = lo + 1 + rnd(nc - lo);
    return (ChunkRange){ lo, hi };
}

static bool holds_any(const Plan *p, const uint8_t *h)
{
    for (uint32_t c = 0; c < p->nchunks; c++)
        if (h[c])
            return true;
    return false;
}

/* Ranges for a transfer: one or two, normalised (sorted, apart, non-empty), or none. */
static void pick_ranges(const Plan *p, const uint8_t *h, bool anywhere, SchedRuleXfer *x)
{
    if (rnd(40) == 0) {
        x->nr = 0;
        return;
    }
    ChunkRange r0 = pick_range(p, h, anywhere);
    x->nr = 1;
    x->r[0] = r0;
    if (rnd(3) == 0) {
        ChunkRange r1 = pick_range(p, h, anywhere);
        if (r1.lo < r0.lo) {
            ChunkRange tmp = r0;
            r0 = r1;
            r1 = tmp;
        }
        if (r0.hi < r1.lo) {
            x->nr = 2;
            x->r[0] = r0;
            x->r[1] = r1;
        } else {
            x->r[0] = (ChunkRange){ r0.lo, r1.hi > r0.hi ? r1.hi : r0.hi };
        }
    }
}

static void plan_step(Plan *p, int s, const uint8_t *h0)
{
    const Net *n = p->net;
    int32_t size = net_size(n);
    PStep *ps = &p->st[s];
    memset(ps, 0, sizeof *ps);
    uint32_t kind = rnd(10);
    int64_t cap = 2 * size + 8;
    ps->t = calloc((size_t)cap, sizeof *ps->t);
    assert_non_null(ps->t);
    int64_t m = 0;
    if (kind < 4) {
        /* permutation-like: a cycle or chain over k shuffled nodes, equal byte counts */
        ps->perm = true;
        int32_t *perm = malloc((size_t)size * sizeof *perm);
        assert_non_null(perm);
        for (int32_t v = 0; v < size; v++)
            perm[v] = v;
        for (int32_t v = size - 1; v > 0; v--) {
            int32_t j = (int32_t)rnd((uint32_t)v + 1), tmp = perm[v];
            perm[v] = perm[j];
            perm[j] = tmp;
        }
        int32_t k = 2 + (int32_t)rnd((uint32_t)size - 1);
        bool cycle = rnd(2) && k > 2;
        bool same = rnd(2) || p->bytes % p->nchunks != 0;
        SchedRuleXfer common = { 0, 0, 0, { { 0, 0 }, { 0, 0 } } };
        pick_ranges(p, h0, true, &common);
        if (common.nr == 0)
            common = (SchedRuleXfer){ 0, 0, 1, { { 0, p->nchunks }, { 0, 0 } } };
        uint32_t len = 1 + rnd(p->nchunks);
        for (int32_t i = 0; i + 1 < k || (cycle && i < k); i++) {
            TX *t = &ps->t[m++];
            t->x = common;
            t->x.src = perm[i];
            t->x.dst = perm[(i + 1) % k];
            if (!same) {
                /* same length (uniform chunks: same bytes), preferably one the source holds */
                const uint8_t *h = h0 + (size_t)t->x.src * p->nchunks;
                uint32_t lo = rnd(p->nchunks - len + 1);
                for (int tries = 0; tries < 8; tries++) {
                    uint32_t c = rnd(p->nchunks - len + 1), q = c;
                    while (q < c + len && h[q])
                        q++;
                    if (q == c + len) {
                        lo = c;
                        break;
                    }
                }
                t->x.nr = 1;
                t->x.r[0] = (ChunkRange){ lo, lo + len };
            }
        }
        /* every transfer the same ranges but one, late in the step (the stored step keeps one
         * range for all until then, then a range per transfer: sched-internal.h) */
        if (same && m >= 3 && common.nr == 1 && rnd2(3) == 0) {
            TX *t = &ps->t[1 + rnd2((uint32_t)m - 1)];
            uint32_t w = common.r[0].hi - common.r[0].lo;
            uint32_t lo = rnd2(p->nchunks - w + 1);
            t->x.r[0] = (ChunkRange){ lo, lo + w };
        }
        free(perm);
        uint32_t order = rnd(3);
        if (order) {
            /* the walk budget of first_at_cost runs out before the answer: longest routes
             * first (order 1) or the busiest-link load ascending, the top transfers last
             * (order 2); insertion sorts, stable */
            int32_t *load = malloc((size_t)net_nlinks(n) * sizeof *load);
            int64_t *key = malloc((size_t)m * sizeof *key);
            assert_true(load && key);
            naive_loads(n, ps->t, m, load);
            for (int64_t i = 0; i < m; i++)
                key[i] = order == 1 ? -tx_len(n, &ps->t[i]) : naive_k(n, &ps->t[i], load);
            for (int64_t i = 1; i < m; i++) {
                TX cur = ps->t[i];
                int64_t kc = key[i], j = i;
                for (; j > 0 && key[j - 1] > kc; j--) {
                    ps->t[j] = ps->t[j - 1];
                    key[j] = key[j - 1];
                }
                ps->t[j] = cur;
                key[j] = kc;
            }
            free(load);
            free(key);
        }
    } else if (kind < 9) {
        int64_t want = 1 + rnd((uint32_t)(size + size / 2));
        bool local_pairs = rnd(2);
        for (int64_t i = 0; i < want; i++) {
            TX *t = &ps->t[m];
            int32_t src = (int32_t)rnd((uint32_t)size);
            bool anywhere = rnd(8) == 0;
            if (!anywhere && !holds_any(p, h0 + (size_t)src * p->nchunks))
                src = rnd(2) ? p->gnode[0] : src;
            int32_t dst;
            if (local_pairs) {
                dst = net_neighbor(n, src, (int)rnd((uint32_t)net_ndim(n)), rnd(2) ? 1 : -1);
                if (dst < 0 || dst == src)
                    continue;
            } else {
                dst = (int32_t)rnd((uint32_t)size);
                if (dst == src)
                    continue;
            }
            t->x.src = src;
            t->x.dst = dst;
            pick_ranges(p, h0 + (size_t)src * p->nchunks, anywhere, &t->x);
            m++;
        }
    }
    /* (kind 9: a step without transfers) */
    ps->n = m;
    ps->nstored = m ? (int64_t)rnd((uint32_t)(m < 4 ? m + 1 : 4)) : 0;
    if (m > 0 && ps->nstored == m && rnd(2))
        ps->nstored = 0;   /* mostly rules */
    int64_t rest = m - ps->nstored;
    ps->split = m;
    if (rest >= 2 && rnd(2))
        ps->split = ps->nstored + 1 + (int64_t)rnd((uint32_t)(rest - 1));
    ps->rules_first = rnd(2);
    /* explicit routes for some stored transfers: the default route's segments reversed */
    for (int64_t i = 0; i < ps->nstored; i++) {
        if (rnd(3))
            continue;
        TX *t = &ps->t[i];
        NetSeg seg[NET_MAXSEG];
        int ns = net_route(n, t->x.src, t->x.dst, seg);
        for (int j = 0; j < ns; j++)
            t->seg[j] = seg[ns - 1 - j];
        t->nseg = ns;
        assert_int_equal(net_route_end(n, t->x.src, t->seg, ns), t->x.dst);
    }
    ps->nloc = (int)rnd(4);
    for (int k = 0; k < ps->nloc; k++) {
        ps->locnode[k] = rnd(3) ? (int32_t)rnd((uint32_t)size) : -1;
        ps->locbytes[k] = 1 + rnd(5000);
    }
}

static void plan_receive(Plan *p, int s);

static void plan_make(Plan *p, const Net *n, uint32_t nchunks, uint64_t bytes, int nsteps)
{
    memset(p, 0, sizeof *p);
    p->net = n;
    p->nchunks = nchunks;
    p->bytes = bytes;
    p->nsteps = nsteps;
    int32_t size = net_size(n);
    p->hold = calloc((size_t)(nsteps + 1) * (size_t)size * nchunks, 1);
    assert_non_null(p->hold);
    p->ngive = 1 + (int)rnd(4);
    p->gnode[0] = (int32_t)rnd((uint32_t)size);
    p->grange[0] = (ChunkRange){ 0, nchunks };
    for (int g = 1; g < p->ngive; g++) {
        p->gnode[g] = (int32_t)rnd((uint32_t)size);
        uint32_t lo = rnd(nchunks);
        p->grange[g] = (ChunkRange){ lo, lo + 1 + rnd(nchunks - lo) };
    }
    for (int g = 0; g < p->ngive; g++)
        for (uint32_t c = p->grange[g].lo; c < p->grange[g].hi; c++)
            hold_at(p, 0, p->gnode[g])[c] = 1;
    for (int s = 0; s < nsteps; s++) {
        plan_step(p, s, hold_at(p, s, 0));
        plan_receive(p, s);
    }
}

/* Holdings after step s: those before plus everything sent in it. */
static void plan_receive(Plan *p, int s)
{
    size_t size = (size_t)net_size(p->net);
    memcpy(hold_at(p, s + 1, 0), hold_at(p, s, 0), size * p->nchunks);
    const PStep *ps = &p->st[s];
    for (int64_t i = 0; i < ps->n; i++) {
        const SchedRuleXfer *x = &ps->t[i].x;
        for (uint32_t k = 0; k < x->nr; k++)
            for (uint32_t c = x->r[k].lo; c < x->r[k].hi; c++)
                hold_at(p, s + 1, x->dst)[c] = 1;
    }
}

static void plan_free(Plan *p)
{
    for (int s = 0; s < p->nsteps; s++)
        free(p->st[s].t);
    free(p->hold);
}

static void send_stored(Sched *s, const TX *t)
{
    if (t->nseg > 0)
        assert_true(sched_send_route(s, t->x.src, t->x.dst, t->x.r, t->x.nr, t->seg, t->nseg));
    else
        assert_true(sched_send(s, t->x.src, t->x.dst, t->x.nr ? t->x.r : NULL, t->x.nr));
}

static void send_block(Sched *s, const TX *t, int64_t m)
{
    if (m <= 0)
        return;
    Table *tb = table_new(m);
    for (int64_t j = 0; j < m; j++)
        tb->x[j] = t[j].x;
    /* every other block as a batch rule: the two kinds must read the same */
    static int turn;
    if (turn++ & 1)
        assert_true(sched_send_rule_batch(s, m, table_batch, tb, table_size(tb)));
    else
        assert_true(sched_send_rule(s, m, table_rule, tb, table_size(tb)));
    /* the schedule has its own copy */
    memset(tb->x, 0xff, (size_t)m * sizeof tb->x[0]);
    free(tb);
}

static void add_locals(Sched *s, const PStep *ps)
{
    for (int k = 0; k < ps->nloc; k++)
        assert_true(sched_local(s, ps->locnode[k], ps->locbytes[k]));
}

/* A: every transfer stored.  B: the first few stored, the rest in one or two rule blocks. */
static Sched *build(const Plan *p, bool rules)
{
    Sched *s = sched_new(p->net, p->nchunks, p->bytes);
    assert_non_null(s);
    for (int g = 0; g < p->ngive; g++)
        assert_true(sched_give(s, p->gnode[g], p->grange[g].lo, p->grange[g].hi));
    for (int st = 0; st < p->nsteps; st++) {
        const PStep *ps = &p->st[st];
        assert_int_equal(sched_step(s), st);
        if (!rules) {
            add_locals(s, ps);
            for (int64_t i = 0; i < ps->n; i++)
                send_stored(s, &ps->t[i]);
            continue;
        }
        if (ps->rules_first) {
            send_block(s, ps->t + ps->nstored, ps->split - ps->nstored);
            send_block(s, ps->t + ps->split, ps->n - ps->split);
        }
        for (int64_t i = 0; i < ps->nstored; i++)
            send_stored(s, &ps->t[i]);
        add_locals(s, ps);
        if (!ps->rules_first) {
            send_block(s, ps->t + ps->nstored, ps->split - ps->nstored);
            send_block(s, ps->t + ps->split, ps->n - ps->split);
        }
    }
    assert_null(sched_error(s));
    return s;
}

typedef struct {
    int onek, onek_rmq, steps, notheld;
} Coverage;

/* Everything observable of two Sims of equal schedules must be identical. */
static void compare_sims(const Plan *p, Sim *sa, Sim *sb, const CostParams *cp, Coverage *cov,
                         bool count)
{
    const Net *n = p->net;
    int32_t size = net_size(n);
    int64_t nl = net_nlinks(n);
    simcmp_totals(sa, sb);
    assert_int_equal(sim_totals(sa)->ntransfers, sched_total_transfers(sim_sched(sa)));
    simcmp_violations(sa, sb);
    for (size_t i = 0; i < sim_nviolations(sa); i++)
        cov->notheld += count && sim_violation(sa, i)->kind == SIM_V_NOT_HELD;
    int32_t *naive = malloc((size_t)nl * sizeof *naive);
    int32_t *copy = malloc((size_t)nl * sizeof *copy);
    int64_t maxn = 0;
    for (int32_t st = 0; st < p->nsteps; st++)
        maxn = p->st[st].n > maxn ? p->st[st].n : maxn;
    int32_t *kk = malloc(((size_t)maxn + 1) * sizeof *kk);
    assert_true(naive && copy && kk);
    for (int32_t st = 0; st < p->nsteps; st++) {
        const PStep *ps = &p->st[st];
        const SimStep *x = sim_step(sa, st), *y = sim_step(sb, st);
        assert_memory_equal(x, y, sizeof *x);
        assert_true(sim_cost_until(sa, st) == sim_cost_until(sb, st));
        assert_int_equal(x->ntransfers, ps->n);
        /* the seidel step against the definition */
        if (cp->model == COST_SEIDEL && cov) {
            NaiveSeidel nv = naive_seidel(n, ps->t, ps->n, p->bytes, p->nchunks, cp->a, cp->b,
                                          cp->nu, naive);
            assert_int_equal(x->critical_node, nv.critical);
            assert_int_equal(x->max_link_load, nv.mx);
            assert_double_equal(x->cost.total - x->cost.permutation, nv.comm,
                                1e-9 * (1 + nv.comm));
            if (nv.onek) {
                /* the shortcut's case (first_at_cost): the breakdown is that of the first
                 * costliest transfer */
                assert_double_equal(x->cost.startup, cp->b, 0);
                assert_double_equal(x->cost.transmission,
                                    cp->a * (double)tx_bytes(&ps->t[0], p->bytes, p->nchunks),
                                    0);
                cov->onek += count;
                cov->onek_rmq += count && nv.onek_rmq;
            }
            cov->steps += count;
        }
        /* per transfer */
        for (int64_t i = 0; i < ps->n; i++) {
            SimTransferInfo ia, ib;
            sim_transfer_info(sa, st, i, &ia);
            sim_transfer_info(sb, st, i, &ib);
            assert_int_equal(ia.load, ib.load);
            assert_true(ia.cost == ib.cost);
            assert_true(ia.contention == ib.contention);
        }
        /* link loads, equal to a naive walk (seidel: the most in one sub-round) */
        if (cp->model == COST_SEIDEL)
            naive_sub(n, ps->t, ps->n, p->bytes, p->nchunks, cp->a, cp->b, cp->nu, naive, kk);
        else
            naive_loads(n, ps->t, ps->n, naive);
        const int32_t *la = sim_link_loads(sa, st);
        assert_non_null(la);
        memcpy(copy, la, (size_t)nl * sizeof *copy);
        const int32_t *lb = sim_link_loads(sb, st);
        assert_non_null(lb);
        assert_memory_equal(copy, lb, (size_t)nl * sizeof *copy);
        assert_memory_equal(copy, naive, (size_t)nl * sizeof *copy);
        for (int64_t i = 0; i < ps->n; i++) {
            SimTransferInfo ia;
            sim_transfer_info(sb, st, i, &ia);
            assert_int_equal(ia.load, cp->model == COST_SEIDEL ? kk[i]
                                                               : naive_k(n, &ps->t[i], naive));
        }
        /* ports */
        const int32_t *sa_s, *sa_r, *sb_s, *sb_r;
        sim_port_counts(sa, st, &sa_s, &sa_r);
        int32_t *ps_copy = malloc(2 * (size_t)size * sizeof *ps_copy);
        assert_non_null(ps_copy);
        memcpy(ps_copy, sa_s, (size_t)size * sizeof *ps_copy);
        memcpy(ps_copy + size, sa_r, (size_t)size * sizeof *ps_copy);
        sim_port_counts(sb, st, &sb_s, &sb_r);
        assert_memory_equal(ps_copy, sb_s, (size_t)size * sizeof *ps_copy);
        assert_memory_equal(ps_copy + size, sb_r, (size_t)size * sizeof *ps_copy);
        int64_t tot_s = 0;
        for (int32_t v = 0; v < size; v++)
            tot_s += sb_s[v];
        assert_int_equal(tot_s, ps->n);
        free(ps_copy);
    }
    /* the same per-transfer detail read in another order (step caches switch back and forth) */
    for (int32_t st = p->nsteps - 1; st >= 0; st--)
        for (int64_t i = p->st[st].n - 1; i >= 0; i -= 3) {
            SimTransferInfo ia, ib;
            sim_transfer_info(sa, st, i, &ia);
            sim_transfer_info(sb, st, i, &ib);
            assert_int_equal(ia.load, ib.load);
            assert_true(ia.cost == ib.cost);
        }
    free(naive);
    free(copy);
    free(kk);
    /* holdings at every position (and against the plan's own bookkeeping) */
    for (int pass = 0; pass < 2; pass++)
        for (int32_t q = 0; q <= p->nsteps; q++) {
            int32_t pos = pass ? p->nsteps - q : q;
            assert_true(sim_seek(sa, pos));
            assert_true(sim_seek(sb, pos));
            for (int32_t v = 0; v < size; v++) {
                size_t na, nb;
                const ChunkRange *ra = sim_holdings(sa, v, &na), *rb = sim_holdings(sb, v, &nb);
                assert_int_equal(na, nb);
                if (na)
                    assert_memory_equal(ra, rb, na * sizeof *ra);
                const uint8_t *h = hold_at(p, pos, v);
                uint32_t c = 0;
                for (size_t k = 0; k < na; k++) {
                    for (; c < ra[k].lo; c++)
                        assert_int_equal(h[c], 0);
                    for (; c < ra[k].hi; c++)
                        assert_int_equal(h[c], 1);
                }
                for (; c < p->nchunks; c++)
                    assert_int_equal(h[c], 0);
            }
        }
}

/* Simulate a and b (the same transfers) under seidel (nu 0 and 1), postal, circuit and saf,
 * on every load-counting path, with history, and compare everything. */
static void run_compare(const Plan *p, const Sched *a, const Sched *b, Coverage *cov)
{
    CostParams params[5];
    cost_defaults(&params[0], COST_SEIDEL);
    cost_defaults(&params[1], COST_SEIDEL);
    params[1].nu = 1;
    cost_defaults(&params[2], COST_POSTAL);
    cost_defaults(&params[3], COST_CIRCUIT);
    cost_defaults(&params[4], COST_SAF);
    assert_double_equal(params[0].a, A, 0);
    assert_double_equal(params[0].b, B, 0);
    for (int mi = 0; mi < 5; mi++) {
        for (int path = SIM_PATH_AUTO; path <= SIM_PATH_DIFF; path++) {
            char err[200] = "";
            sim_load_path = path;
            Sim *sa = sim_run(a, &params[mi], SIM_HISTORY, err, sizeof err);
            Sim *sb = sim_run(b, &params[mi], SIM_HISTORY, err, sizeof err);
            sim_load_path = SIM_PATH_AUTO;
            assert_non_null(sa);
            assert_non_null(sb);
            compare_sims(p, sa, sb, &params[mi], cov, path == SIM_PATH_AUTO && mi < 2);
            sim_free(sa);
            sim_free(sb);
        }
    }
}

static void check_net(const char *spec, uint64_t seed, Coverage *cov)
{
    Net *n = net_parse(spec, NULL, 0);
    assert_non_null(n);
    rng_state = seed;
    rng2_state = seed ^ UINT64_C(0x5851f42d4c957f2d);
    for (int round = 0; round < 2; round++) {
        Plan p;
        uint32_t nchunks = 4 + rnd(13);
        uint64_t bytes = round ? 100 * (uint64_t)nchunks : 1000 + rnd(3000);
        plan_make(&p, n, nchunks, bytes, 8 + (int)rnd(5));
        Sched *a = build(&p, false), *b = build(&p, true);
        assert_true(sched_equal(a, b));
        assert_int_equal(sched_total_transfers(a), sched_total_transfers(b));
        for (int32_t st = 0; st < p.nsteps; st++) {
            assert_int_equal(sched_ntransfers(b, st), p.st[st].n);
            for (int64_t i = 0; i < p.st[st].n; i++) {
                xfercmp_same(a, b, st, i);
                SchedTransfer tb;
                sched_transfer(b, st, i, &tb);
                assert_int_equal(tb.bytes, tx_bytes(&p.st[st].t[i], bytes, nchunks));
                assert_int_equal(tb.len, tx_len(n, &p.st[st].t[i]));
            }
        }
        run_compare(&p, a, b, cov);
        sched_free(a);
        sched_free(b);
        plan_free(&p);
    }
    net_free(n);
}

static void test_random_equivalence(void **state)
{
    (void)state;
    const char *nets[] = { "mesh:5x9", "torus:6x7", "mesh:3x4x5", "ring:100", "array:64",
                           "mesh:8x8" };
    Coverage cov = { 0, 0, 0, 0 };
    for (int k = 0; k < 6; k++)
        check_net(nets[k], UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(k + 1), &cov);
    /* the cases of interest did occur */
    print_message("seidel steps %d, first_at_cost steps %d (rmq %d), not-held %d\n", cov.steps,
                  cov.onek, cov.onek_rmq, cov.notheld);
    assert_true(cov.onek >= 30);
    assert_true(cov.onek_rmq >= 10);
    assert_true(cov.notheld >= 20);
}

/* The exchange of an allgather by recursive doubling on mesh:16x32, node x starting with chunk
 * x: in step b, x sends its block of 2^b chunks to x ^ 2^b.  Stored one by one, or as one rule
 * per step whose ctx is just b (plus, on one step, a table for the upper half).  Each step is
 * one send and one receive per node with equal bytes, contended from b = 1 on. */
typedef struct {
    int bit;
} ExchCtx;

static void exch_rule(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    const ExchCtx *c = ctx;
    int32_t x = (int32_t)j, span = 1 << c->bit;
    uint32_t lo = (uint32_t)(x & ~(span - 1));
    *out = (SchedRuleXfer){ x, x ^ span, 1, { { lo, lo + (uint32_t)span }, { 0, 0 } } };
}

static void test_exchange(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:16x32", NULL, 0);
    assert_non_null(n);
    Plan p;
    memset(&p, 0, sizeof p);
    p.net = n;
    p.nchunks = 512;
    p.bytes = 512 * 10;
    p.nsteps = 9;
    p.hold = calloc((size_t)(p.nsteps + 1) * 512 * 512, 1);
    assert_non_null(p.hold);
    p.ngive = 512;
    for (int32_t x = 0; x < 512; x++) {
        p.gnode[x] = x;
        p.grange[x] = (ChunkRange){ (uint32_t)x, (uint32_t)x + 1 };
        hold_at(&p, 0, x)[x] = 1;
    }
    for (int bit = 0; bit < 9; bit++) {
        PStep *ps = &p.st[bit];
        ps->n = 512;
        ps->nstored = 0;
        ps->split = 512;
        ps->t = calloc(512, sizeof *ps->t);
        assert_non_null(ps->t);
        ExchCtx c = { bit };
        for (int32_t x = 0; x < 512; x++)
            exch_rule(&c, x, &ps->t[x].x);
        plan_receive(&p, bit);
    }
    Sched *a = build(&p, false);
    Sched *b = sched_new(n, 512, 512 * 10);
    for (int32_t x = 0; x < 512; x++)
        sched_give(b, x, (uint32_t)x, (uint32_t)x + 1);
    for (int bit = 0; bit < 9; bit++) {
        sched_step(b);
        ExchCtx c = { bit };
        if (bit == 5) {
            /* the lower half by the rule, the upper half from a table */
            assert_true(sched_send_rule(b, 256, exch_rule, &c, sizeof c));
            send_block(b, p.st[bit].t + 256, 256);
        } else {
            assert_true(sched_send_rule(b, 512, exch_rule, &c, sizeof c));
        }
    }
    assert_null(sched_error(b));
    assert_true(sched_equal(a, b));
    Coverage cov = { 0, 0, 0, 0 };
    run_compare(&p, a, b, &cov);
    assert_int_equal(cov.notheld, 0);
    /* An exchange at distance s along a line loads the link in the middle of each block of
     * 2s nodes s times: row distances 1, 2, 4, 8, 16 (bits 0-4), column distances 1, 2, 4, 8
     * (bits 5-8).  Over capacity: s >= 2 under nu = 0 (7 steps), s >= 4 under nu = 1 (5). */
    assert_int_equal(cov.onek, 7 + 5);
    /* by hand: 0 -> s is the first transfer over a busiest link, so node 0 sets the cost
     * s * a * B + b, B = 2^bit chunks of 10 bytes; complete and verified */
    CostParams cp;
    cost_defaults(&cp, COST_SEIDEL);
    for (int path = SIM_PATH_AUTO; path <= SIM_PATH_DIFF; path++) {
        sim_load_path = path;
        Sim *sim = sim_run(b, &cp, 0, NULL, 0);
        sim_load_path = SIM_PATH_AUTO;
        assert_non_null(sim);
        assert_true(sim_totals(sim)->verified);
        assert_int_equal(sim_totals(sim)->ntransfers, 9 * 512);
        for (int bit = 0; bit < 9; bit++) {
            const SimStep *st = sim_step(sim, bit);
            int32_t dist = bit < 5 ? 1 << bit : 1 << (bit - 5);
            double bytes = 10.0 * (1 << bit);
            assert_int_equal(st->max_link_load, dist);
            assert_int_equal(st->port_conflicts, 0);
            assert_int_equal(st->critical_node, 0);
            assert_double_equal(st->cost.total, dist * A * bytes + B, 1e-6);
            assert_double_equal(st->cost.contention, (dist - 1) * A * bytes, 1e-6);
        }
        sim_free(sim);
    }
    sched_free(a);
    sched_free(b);
    plan_free(&p);
    net_free(n);
}

/* ---- 5. first_at_cost on hand-made steps --------------------------------------------------- */

typedef struct {
    int32_t src, dst;
} Pair;

/* One step of transfers each carrying chunk 0 (of 4 chunks, 4000 bytes: 1000 each), every
 * source given the chunk; stored or as a rule. */
static Sched *pairs_sched(const Net *n, const Pair *t, int m, bool rule)
{
    Sched *s = sched_new(n, 4, 4000);
    for (int i = 0; i < m; i++)
        sched_give(s, t[i].src, 0, 4);
    sched_step(s);
    if (rule) {
        Table *tb = table_new(m);
        for (int i = 0; i < m; i++)
            tb->x[i] = (SchedRuleXfer){ t[i].src, t[i].dst, 1, { { 0, 1 }, { 0, 0 } } };
        assert_true(sched_send_rule(s, m, table_rule, tb, table_size(tb)));
        free(tb);
    } else {
        for (int i = 0; i < m; i++)
            assert_true(sched_send_range(s, t[i].src, t[i].dst, 0, 1));
    }
    assert_null(sched_error(s));
    return s;
}

static void expect_step(const char *spec, const Pair *t, int m, int32_t crit, int32_t mx,
                        const int32_t *loads)
{
    Net *n = net_parse(spec, NULL, 0);
    assert_non_null(n);
    const double Bytes = 1000;
    for (int rule = 0; rule < 2; rule++) {
        Sched *s = pairs_sched(n, t, m, rule);
        for (int path = SIM_PATH_AUTO; path <= SIM_PATH_DIFF; path++) {
            CostParams p;
            cost_defaults(&p, COST_SEIDEL);
            sim_load_path = path;
            Sim *sim = sim_run(s, &p, 0, NULL, 0);
            sim_load_path = SIM_PATH_AUTO;
            assert_non_null(sim);
            const SimStep *st = sim_step(sim, 0);
            assert_int_equal(st->port_conflicts, 0);
            assert_int_equal(st->max_link_load, mx);
            assert_int_equal(st->critical_node, crit);
            double k = mx;
            assert_double_equal(st->cost.total, k * A * Bytes + B, EPS);
            assert_double_equal(st->cost.startup, B, EPS);
            assert_double_equal(st->cost.transmission, A * Bytes, EPS);
            assert_double_equal(st->cost.contention, (k - 1) * A * Bytes, EPS);
            assert_true(sim_totals(sim)->not_held == 0);
            for (int i = 0; i < m; i++) {
                SimTransferInfo ti;
                sim_transfer_info(sim, 0, i, &ti);
                assert_int_equal(ti.load, loads[i]);
                assert_double_equal(ti.cost, loads[i] * A * Bytes + B, EPS);
            }
            sim_free(sim);
        }
        sched_free(s);
    }
    net_free(n);
}

static void test_first_at_cost(void **state)
{
    (void)state;
    /* (a) array:8: 0->1 (link 0+, load 1), 2->5 (links 2..4+), 3->6 (links 3..5+): links 3
     * and 4 carry 2; the first transfer at cost 2aB+b is 2->5, so node 2. */
    Pair a[] = { { 0, 1 }, { 2, 5 }, { 3, 6 } };
    expect_step("array:8", a, 3, 2, 2, (const int32_t[]){ 1, 2, 2 });
    /* the same with the contended pair first: node 3 */
    Pair a2[] = { { 3, 6 }, { 0, 1 }, { 2, 5 } };
    expect_step("array:8", a2, 3, 3, 2, (const int32_t[]){ 2, 1, 2 });
    /* (b) array:256 (512 link ids, walk budget 192): 0->120 (120 links +), 255->130 (125
     * links -) use up the budget; 121->129 (+, links 121..128) and 122->128 (+, 122..127)
     * share 122..127: load 2.  The answer comes from the range-maximum structure (DIFF/AUTO)
     * or the walk (DIRECT): node 121. */
    Pair b[] = { { 0, 120 }, { 255, 130 }, { 121, 129 }, { 122, 128 } };
    expect_step("array:256", b, 4, 121, 2, (const int32_t[]){ 1, 1, 2, 2 });
    /* the contended transfers reversed: 122->128 comes first */
    Pair b2[] = { { 0, 120 }, { 255, 130 }, { 122, 128 }, { 121, 129 } };
    expect_step("array:256", b2, 4, 122, 2, (const int32_t[]){ 1, 1, 2, 2 });
    /* an uncontended transfer after the budget is spent, then the contended one far away,
     * crossing a block boundary of the range-maximum structure (links 120..134 and 125..130) */
    Pair b3[] = { { 0, 100 }, { 255, 150 }, { 200, 201 }, { 140, 130 }, { 120, 135 },
                  { 125, 131 } };
    expect_step("array:256", b3, 6, 120, 2, (const int32_t[]){ 1, 1, 1, 1, 2, 2 });
    /* load 3 on one link: three nested transfers, the top is the first with k = 3 */
    Pair b4[] = { { 0, 126 }, { 255, 129 }, { 140, 150 }, { 141, 149 }, { 142, 148 } };
    expect_step("array:256", b4, 5, 140, 3, (const int32_t[]){ 1, 1, 3, 3, 3 });

    /* a naive full scan over net_route on a ring, where the tops compete */
    Net *n = net_parse("ring:300", NULL, 0);
    TX t[40];
    int m = 0;
    for (int32_t v = 0; v < 300 && m < 40; v += 7, m++)
        t[m] = (TX){ { v, (v + 101) % 300, 1, { { 0, 1 }, { 0, 0 } } }, 0, { { 0, 0, 0 } } };
    int32_t *load = malloc((size_t)net_nlinks(n) * sizeof *load);
    NaiveSeidel nv = naive_seidel(n, t, m, 4000, 4, A, B, 0, load);
    assert_true(nv.onek);
    Pair pr[40];
    int32_t ks[40];
    for (int i = 0; i < m; i++) {
        pr[i] = (Pair){ t[i].x.src, t[i].x.dst };
        ks[i] = naive_k(n, &t[i], load);
    }
    free(load);
    net_free(n);
    expect_step("ring:300", pr, m, nv.critical, nv.mx, ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_errors),
        cmocka_unit_test(test_batch_rule),
        cmocka_unit_test(test_read_back),
        cmocka_unit_test(test_rule_equal),
        cmocka_unit_test(test_random_equivalence),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_first_at_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
