/* test_sched_strided.c — strided blocks as rules (sched-strided.h) against the same transfers
 * stored one by one with sched_send (the reference, built here from the block's definition:
 * node first + j stride sends to itself + offset): random blocks on arrays and meshes (any
 * stride and offset, one or two ranges, power-of-two counts with stride == +-2 offset that
 * become tree steps, rows that continue each other and merge), interleaved with stored
 * sends (sched_step_unrule keeping every transfer's place), explicit routes and runs of single
 * sends through sched_send_compact (a progression of 8 becomes a block); compared
 * transfer by transfer in order, by sched_equal, through a pack round trip (where the blocks
 * cross as blocks: the bytes are few) and by simulation under every model.  Then the
 * checks of a block as a whole, each refused with its message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sched-internal.h"
#include "../../src/engine/sched-pack.h"
#include "../../src/engine/sched-strided.h"
#include "../../src/engine/sim.h"
#include "mknet.h"
#include "packtrip.h"
#include "simcmp.h"

static void same_transfers(const Sched *a, const Sched *b)
{
    assert_int_equal(sched_nsteps(a), sched_nsteps(b));
    assert_int_equal(sched_total_transfers(a), sched_total_transfers(b));
    for (int32_t st = 0; st < sched_nsteps(a); st++) {
        assert_int_equal(sched_ntransfers(a, st), sched_ntransfers(b, st));
        for (int64_t i = 0; i < sched_ntransfers(a, st); i++) {
            SchedTransfer x, y;
            sched_transfer(a, st, i, &x);
            sched_transfer(b, st, i, &y);
            if (x.src != y.src || x.dst != y.dst)
                fail_msg("step %d transfer %lld: %d->%d against %d->%d", (int)st,
                         (long long)i, (int)x.src, (int)x.dst, (int)y.src, (int)y.dst);
            assert_int_equal(x.nranges, y.nranges);
            for (uint32_t q = 0; q < x.nranges; q++) {
                assert_int_equal(x.ranges[q].lo, y.ranges[q].lo);
                assert_int_equal(x.ranges[q].hi, y.ranges[q].hi);
            }
            assert_int_equal(x.explicit_route, y.explicit_route);
            assert_int_equal(x.nseg, y.nseg);
            assert_int_equal(x.len, y.len);
            assert_int_equal(x.bytes, y.bytes);
        }
        assert_int_equal(sched_nlocals(a, st), sched_nlocals(b, st));
    }
    assert_true(sched_equal(a, b));
}

static void same_sims(const Sched *a, const Sched *b)
{
    static const CostModel models[] = { COST_SEIDEL, COST_POSTAL, COST_CIRCUIT, COST_SAF };
    for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
        CostParams p;
        cost_defaults(&p, models[mi]);
        char err[256];
        Sim *sa = sim_run(a, &p, SIM_HISTORY, err, sizeof err);
        Sim *sb = sim_run(b, &p, SIM_HISTORY, err, sizeof err);
        assert_non_null(sa);
        assert_non_null(sb);
        simcmp_runs(sa, sb);   /* every field, link loads, violations, holdings */
        sim_free(sa);
        sim_free(sb);
    }
}

/* The reference: the block's transfers, each sent with sched_send. */
static void ref_block(Sched *s, const SchedStrided *b)
{
    for (int64_t j = 0; j < b->count; j++) {
        int32_t src = (int32_t)(b->first + (int64_t)b->stride * j);
        assert_true(sched_send(s, src, src + b->offset, b->r, b->nr));
    }
}

/* A random valid block on a net of P nodes and nc chunks; shape 0 any, 1 a tree step's
 * (power-of-two count, stride +-2 offset), 2 the row after prev (same stride, offset, chunks). */
static SchedStrided random_block(int32_t P, uint32_t nc, int shape, const SchedStrided *prev)
{
    for (;;) {
        SchedStrided b = { 0 };
        if (shape == 2 && prev) {
            b = *prev;
            b.first = (int32_t)(prev->first + (int64_t)prev->stride * prev->count);
            b.count = 1 + rand() % 8;
        } else {
            b.offset = (rand() % 2 ? 1 : -1) * (1 + rand() % (P / 4 + 1));
            b.stride = shape == 1 ? (rand() % 2 ? 2 : -2) * b.offset
                                  : (rand() % 7) - 3 + (rand() % 3 == 0 ? b.offset : 0);
            b.count = shape == 1 ? INT64_C(1) << (rand() % 5) : 1 + rand() % 12;
            b.first = rand() % P;
            uint32_t lo = (uint32_t)(rand() % (int)nc);
            uint32_t hi = lo + 1 + (uint32_t)(rand() % (int)(nc - lo));
            b.nr = 1;
            b.r[0] = (ChunkRange){ lo, hi };
            if (shape == 0 && hi + 1 < nc && rand() % 3 == 0) {
                b.nr = 2;
                b.r[1] = (ChunkRange){ hi + 1, nc };
            }
        }
        int64_t last = b.first + (int64_t)b.stride * (b.count - 1);
        if (b.offset != 0 && b.first >= 0 && b.first < P && last >= 0 && last < P &&
            b.first + b.offset >= 0 && b.first + b.offset < P && last + b.offset >= 0 &&
            last + b.offset < P)
            return b;
        if (shape == 2)
            return (SchedStrided){ 0 };   /* (count 0: no row fits after prev) */
    }
}

static int64_t all_merged, all_trees, all_compacted;   /* over the rounds: both paths were taken */

/* Random schedules: blocks (rules, as lua-mc adds them: tree false), stored sends after them
 * (unrule first), explicit routes; against the reference. */
static void random_round(const char *spec, unsigned seed)
{
    srand(seed);
    Net *net = mknet(spec);
    int32_t P = net_size(net);
    uint32_t nc = 6;
    Sched *a = sched_new(net, nc, 600), *ref = sched_new(net, nc, 600);
    assert_true(sched_give(a, 0, 0, nc) && sched_give(ref, 0, 0, nc));
    int nsteps = 1 + rand() % 5;
    int64_t merged = 0, trees = 0, compacted = 0;
    for (int k = 0; k < nsteps; k++) {
        assert_true(sched_step(a) >= 0 && sched_step(ref) >= 0);
        int nops = 1 + rand() % 12;
        SchedStrided prev = { 0 };
        bool have_prev = false;
        for (int o = 0; o < nops; o++) {
            /* now and then go back to an earlier step (sched_at), as scripts may */
            int32_t at = k > 0 && rand() % 6 == 0 ? rand() % (k + 1) : k;
            assert_true(sched_at(a, at) && sched_at(ref, at));
            if (at != k)
                have_prev = false;
            int what = rand() % 10;
            if (what >= 8) {
                /* a run of single sends (sched_send_compact), in a progression or not */
                SchedStrided run = random_block(P, nc, rand() % 2, NULL);
                bool straight = rand() % 3 != 0;
                for (int64_t j = 0; j < run.count * (straight ? 3 : 1); j++) {
                    int64_t src = run.first + (int64_t)run.stride * j;
                    if (!straight || src < 0 || src >= P || src + run.offset < 0 ||
                        src + run.offset >= P)
                        src = run.first + (int64_t)run.stride * (j % run.count);
                    int32_t from = (int32_t)src;
                    if (!sched_send_compact(a, from, from + run.offset, run.r, run.nr))
                        fail_msg("%s: %s", spec, sched_error(a));
                    assert_true(sched_send(ref, from, from + run.offset, run.r, run.nr));
                }
                compacted += sched_step_nrules(a, at) > 0;
                have_prev = false;
                continue;
            }
            if (what < 5) {
                int shape = have_prev && what % 2 == 0 ? 2 : what % 2;
                SchedStrided b = random_block(P, nc, shape, have_prev ? &prev : NULL);
                if (b.count == 0)
                    continue;
                int32_t before = sched_step_nrules(a, at);
                if (!sched_send_strided(a, &b, what >= 3))
                    fail_msg("%s: %s", spec, sched_error(a));
                merged += sched_step_nrules(a, at) == before;
                trees += what >= 3 && b.nr == 1 && (b.count & (b.count - 1)) == 0 &&
                         (b.stride == 2 * b.offset || b.stride == -2 * b.offset);
                ref_block(ref, &b);
                prev = b;
                have_prev = at == k;
            } else if (what < 7) {
                int32_t src = rand() % P, dst = (src + 1 + rand() % (P - 1)) % P;
                ChunkRange r = { 0, 1 + (uint32_t)(rand() % (int)nc) };
                if (sched_step_nrules(a, at) > 0)
                    assert_true(sched_step_unrule(a, at));
                assert_int_equal(sched_step_nrules(a, at), 0);
                assert_true(sched_send(a, src, dst, &r, 1));
                assert_true(sched_send(ref, src, dst, &r, 1));
                have_prev = false;
            } else {
                /* one hop along dimension 0 by an explicit route, where there is one */
                int32_t src = rand() % P, dst = net_neighbor(net, src, 0, 1);
                if (dst < 0)
                    continue;
                NetSeg seg = { 0, 1, 1 };
                ChunkRange r = { 0, nc };
                if (sched_step_nrules(a, at) > 0)
                    assert_true(sched_step_unrule(a, at));
                assert_true(sched_send_route(a, src, dst, &r, 1, &seg, 1));
                assert_true(sched_send_route(ref, src, dst, &r, 1, &seg, 1));
                have_prev = false;
            }
        }
        if (rand() % 3 == 0)
            assert_true(sched_local(a, -1, 10) && sched_local(ref, -1, 10));
    }
    assert_null(sched_error(a));
    same_transfers(a, ref);
    size_t nb;
    Sched *c = packround(a, &nb);
    same_transfers(c, ref);
    same_sims(c, ref);
    same_sims(a, ref);
    sched_free(c);
    sched_free(a);
    sched_free(ref);
    net_free(net);
    all_merged += merged;
    all_trees += trees;
    all_compacted += compacted;
}

static void test_random(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:64", "ring:33", "mesh:8x8", "torus:6x10",
                                        "mesh:4x4x4" };
    for (unsigned seed = 1; seed <= 60; seed++)
        random_round(nets[seed % 5], seed);
    if (all_merged <= 20 || all_trees <= 20 || all_compacted <= 20)
        fail_msg("merged %lld, trees %lld, compacted %lld", (long long)all_merged,
                 (long long)all_trees, (long long)all_compacted);
}

/* A script's tree (st.lua's blocks on array:1024 from any source: step i one block of 2^i
 * transfers, stride 2^(10-i), offset +-half): stored as one block per step, packed in a few
 * bytes, unpacked as tree steps (sched_step_is_tree); the same transfers as stored sends. */
static void test_tree_blocks(void **state)
{
    (void)state;
    Net *net = mknet("array:1024");
    for (int32_t root = 0; root < 1024; root += 77) {
        Sched *a = sched_new(net, 1, 1024), *ref = sched_new(net, 1, 1024);
        assert_true(sched_give(a, root, 0, 1) && sched_give(ref, root, 0, 1));
        for (int i = 0; i < 10; i++) {
            int64_t span = INT64_C(1) << (10 - i), half = span / 2;
            SchedStrided b = { (int32_t)(root & (span - 1)), (int32_t)span,
                               (int32_t)((root & half) ? -half : half), 1, INT64_C(1) << i,
                               { { 0, 1 }, { 0, 0 } } };
            assert_true(sched_step(a) >= 0 && sched_step(ref) >= 0);
            assert_true(sched_send_strided(a, &b, false));
            ref_block(ref, &b);
            assert_int_equal(sched_step_nrules(a, i), 1);
        }
        same_transfers(a, ref);
        size_t nb;
        Sched *c = packround(a, &nb);
        assert_true(nb < 1024);   /* (the stored schedule: 16 bytes a transfer, 16 KiB) */
        for (int32_t i = 0; i < 10; i++)
            assert_true(sched_step_is_tree(c, i));
        same_transfers(c, ref);
        if (root == 0)
            same_sims(c, ref);
        sched_free(c);
        sched_free(a);
        sched_free(ref);
    }
    net_free(net);
}

/* Rows that continue each other (st-mesh.lua's lines of one step) become one block. */
static void test_merge(void **state)
{
    (void)state;
    Net *net = mknet("mesh:16x16");
    Sched *a = sched_new(net, 1, 64), *ref = sched_new(net, 1, 64);
    assert_true(sched_step(a) >= 0 && sched_step(ref) >= 0);
    for (int32_t row = 0; row < 16; row++) {
        /* step 1 of a tree along each row: members 0, 4, 8, 12 send 2 to the right */
        SchedStrided b = { row * 16, 4, 2, 1, 4, { { 0, 1 }, { 0, 0 } } };
        assert_true(sched_send_strided(a, &b, false));
        ref_block(ref, &b);
    }
    assert_int_equal(sched_step_nrules(a, 0), 1);
    SchedStrided got;
    assert_true(sched_rule_as_strided(a, 0, 0, &got));
    assert_int_equal(got.count, 64);
    assert_int_equal(got.first, 0);
    /* a row that does not continue it (another offset) is a block of its own */
    SchedStrided other = { 1, 4, 1, 1, 4, { { 0, 1 }, { 0, 0 } } };
    assert_true(sched_send_strided(a, &other, false));
    ref_block(ref, &other);
    assert_int_equal(sched_step_nrules(a, 0), 2);
    /* nor does one of the same stride, offset and chunks that starts elsewhere */
    SchedStrided elsewhere = { 1, 4, 2, 1, 4, { { 0, 1 }, { 0, 0 } } };
    SchedStrided again = { 17, 4, 2, 1, 2, { { 0, 1 }, { 0, 0 } } };
    assert_true(sched_send_strided(a, &again, false) && sched_send_strided(a, &elsewhere, false));
    ref_block(ref, &again);
    ref_block(ref, &elsewhere);
    assert_int_equal(sched_step_nrules(a, 0), 4);
    same_transfers(a, ref);
    size_t nb;
    Sched *c = packround(a, &nb);
    assert_true(sched_step_nrules(c, 0) == 4);
    same_transfers(c, ref);
    sched_free(c);
    sched_free(a);
    sched_free(ref);
    net_free(net);
}

/* Single sends (sched_send_compact): 8 in a progression (the same offset and chunks, evenly
 * spaced) become a block and the next ones join it; a send that differs in its chunks, its
 * offset or its spacing does not; one that does not continue the block is stored after it. */
static void test_compact(void **state)
{
    (void)state;
    Net *net = mknet("array:64");
    Sched *a = sched_new(net, 4, 64), *ref = sched_new(net, 4, 64);
    ChunkRange one = { 0, 1 }, other = { 0, 2 }, two[2] = { { 0, 1 }, { 2, 4 } };
#define BOTH(SRC, DST, R, NR)                                                                  \
    do {                                                                                       \
        assert_true(sched_send_compact(a, SRC, DST, R, NR));                                   \
        assert_true(sched_send(ref, SRC, DST, R, NR));                                         \
    } while (0)
    /* step 1: two stored sends, 7 of a run, then one of other chunks: nothing to compact */
    assert_true(sched_step(a) >= 0 && sched_step(ref) >= 0);
    BOTH(40, 3, &one, 1);
    BOTH(41, 2, &one, 1);
    for (int32_t j = 0; j < 7; j++)
        BOTH(3 * j, 3 * j + 1, &one, 1);
    BOTH(21, 22, &other, 1);          /* continues the spacing, not the chunks */
    BOTH(24, 26, &one, 1);            /* nor the offset */
    assert_int_equal(sched_step_nrules(a, 0), 0);
    /* a run of 8 after them: a block (the 2 before it stay stored); 3 more join it */
    for (int32_t j = 0; j < 11; j++)
        BOTH(30 + 2 * j, 30 + 2 * j + 1, two, 2);
    assert_int_equal(sched_step_nrules(a, 0), 1);
    SchedStrided got;
    assert_true(sched_rule_as_strided(a, 0, 0, &got));
    assert_int_equal(got.first, 30);
    assert_int_equal(got.stride, 2);
    assert_int_equal(got.count, 11);
    assert_int_equal(got.nr, 2);
    /* one that does not continue it: the block stored first, then the send */
    BOTH(53, 54, two, 2);
    assert_int_equal(sched_step_nrules(a, 0), 0);
    /* step 2: a run going down (negative stride and offset) */
    assert_true(sched_step(a) >= 0 && sched_step(ref) >= 0);
    for (int32_t j = 0; j < 20; j++)
        BOTH(63 - 3 * j, 62 - 3 * j, &one, 1);
    assert_int_equal(sched_step_nrules(a, 1), 1);
    assert_true(sched_rule_as_strided(a, 1, 0, &got));
    assert_int_equal(got.stride, -3);
    assert_int_equal(got.count, 20);
#undef BOTH
    same_transfers(a, ref);
    size_t nb;
    Sched *c = packround(a, &nb);
    same_transfers(c, ref);
    same_sims(c, ref);
    sched_free(c);
    sched_free(a);
    sched_free(ref);
    net_free(net);
}

/* Each wrong block refused whole, with a message saying what it needs. */
static void test_refused(void **state)
{
    (void)state;
    Net *net = mknet("array:16");
    static const struct {
        SchedStrided b;
        const char *want;
    } bad[] = {
        { { 0, 1, 1, 1, 0, { { 0, 1 }, { 0, 0 } } }, "a count of 1" },
        { { 0, 1, 1, 1, INT64_C(1) << 31, { { 0, 1 }, { 0, 0 } } }, "a count of 1" },
        { { 0, 1, 0, 1, 4, { { 0, 1 }, { 0, 0 } } }, "offset 0" },
        { { 0, 2, 2, 1, 8, { { 0, 1 }, { 0, 0 } } }, "a node outside the net" },  /* 14 -> 16 */
        { { 15, -1, -1, 1, 16, { { 0, 1 }, { 0, 0 } } }, "a node outside the net" },
        { { -1, 1, 1, 1, 1, { { 0, 1 }, { 0, 0 } } }, "a node outside the net" },
        { { 0, INT32_MAX, 1, 1, 3, { { 0, 1 }, { 0, 0 } } }, "a node outside the net" },
        { { 0, 1, 1, 3, 1, { { 0, 1 }, { 0, 0 } } }, "1 or 2 chunk ranges" },
        { { 0, 1, 1, 0, 1, { { 0, 1 }, { 0, 0 } } }, "1 or 2 chunk ranges" },
        { { 0, 1, 1, 1, 1, { { 1, 1 }, { 0, 0 } } }, "chunk ranges sorted" },
        { { 0, 1, 1, 1, 1, { { 0, 5 }, { 0, 0 } } }, "chunk ranges sorted" },
        { { 0, 1, 1, 2, 1, { { 2, 3 }, { 0, 1 } } }, "chunk ranges sorted" },
        { { 0, 1, 1, 2, 1, { { 0, 1 }, { 1, 2 } } }, "chunk ranges sorted" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (int tree = 0; tree < 2; tree++) {
            Sched *s = sched_new(net, 4, 64);
            assert_true(sched_step(s) >= 0);
            SchedStrided b = bad[i].b;
            assert_false(sched_send_strided(s, &b, tree));
            if (!strstr(sched_error(s), bad[i].want) || !strstr(sched_error(s), "step 1: strided"))
                fail_msg("block %zu: [%s] lacks [%s]", i, sched_error(s), bad[i].want);
            assert_int_equal(sched_total_transfers(s), 0);
            sched_free(s);
        }
    }
    /* the valid neighbours of the blocks above: 0, 2, .. 14 each send to the next node, and
     * 15 .. 1 each to the one before */
    SchedStrided ok[2] = { { 0, 2, 1, 1, 8, { { 0, 1 }, { 0, 0 } } },
                           { 15, -1, -1, 1, 15, { { 0, 4 }, { 0, 0 } } } };
    Sched *s = sched_new(net, 4, 64);
    assert_true(sched_step(s) >= 0);
    assert_true(sched_send_strided(s, &ok[0], false) && sched_send_strided(s, &ok[1], true));
    assert_int_equal(sched_ntransfers(s, 0), 23);
    sched_free(s);
    s = sched_new(net, 4, 64);   /* no step open */
    assert_false(sched_send_strided(s, &ok[0], false));
    assert_non_null(strstr(sched_error(s), "no step opened"));
    sched_free(s);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_tree_blocks),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_compact),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
