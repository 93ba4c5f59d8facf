/* test_tree_rule.c — a binomial tree's step as a rule (sched_send_tree) against the same step
 * stored transfer by transfer: a reference built here from the tree's definition (the
 * holders after each step, found by walking a bitmap), and blocks_st (which now makes its
 * steps so); for many group sizes, strides, bases and every root, on arrays and meshes (rows,
 * columns, interleaved groups).  Compared: every transfer in order (sched_transfer), the flat views
 * (sched_flat: one range slot for a whole tree step, slots apart once a stored send of another
 * range shares the step, ext once an explicit route does), sched_equal, a pack round trip and
 * the simulations under every model (totals, every step's figures, violations).  Then the
 * builder's checks of the block as a whole, and a big block read back at its far end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algos-internal.h"
#include "../../src/algos/blocks.h"
#include "../../src/engine/sched-internal.h"
#include "../../src/engine/sched-pack.h"
#include "../../src/engine/sim.h"
#include "mknet.h"
#include "packtrip.h"
#include "xfercmp.h"
#include "simcmp.h"

/* ---- the reference: the tree from its definition ------------------------------------------ */
/* (blocks_st makes its steps with sched_send_tree too: the references here store every send.) */

/* Stored sends of step i of the tree over members base + m*stride (m < 2^k) rooted at `root`,
 * derived from what the tree is: the members holding the range before step i are exactly the
 * 2^i members whose offset from the root (m ^ root) is a multiple of 2^(k-i) (tracked in
 * `held`, checked here); each sends to the member whose offset has bit k-1-i set as well,
 * and the senders go in increasing order of their offset. */
static void ref_step(Sched *s, unsigned char *held, int32_t base, int32_t stride, int k, int i,
                     int32_t root, uint32_t lo, uint32_t hi)
{
    int64_t M = INT64_C(1) << k;
    int64_t nheld = 0;
    for (int64_t m = 0; m < M; m++)
        nheld += held[m];
    assert_int_equal(nheld, INT64_C(1) << i);
    unsigned char *next = malloc((size_t)M);
    assert_non_null(next);
    memcpy(next, held, (size_t)M);
    for (int64_t off = 0; off < M; off++) {   /* senders by offset from the root */
        int64_t m = off ^ root;
        if (!held[m])
            continue;
        int64_t to = (off | (INT64_C(1) << (k - 1 - i))) ^ root;
        assert_false(held[to]);
        next[to] = 1;
        assert_true(sched_send_range(s, (int32_t)(base + stride * m),
                                     (int32_t)(base + stride * to), lo, hi));
    }
    memcpy(held, next, (size_t)M);
    free(next);
}

/* ---- comparisons ---------------------------------------------------------------------------- */

static void same_transfers(const Sched *a, const Sched *b)
{
    assert_int_equal(sched_nsteps(a), sched_nsteps(b));
    assert_int_equal(sched_total_transfers(a), sched_total_transfers(b));
    for (int32_t st = 0; st < sched_nsteps(a); st++) {
        assert_int_equal(sched_ntransfers(a, st), sched_ntransfers(b, st));
        for (int64_t i = 0; i < sched_ntransfers(a, st); i++)
            xfercmp_same(a, b, st, i);
    }
    assert_true(sched_equal(a, b));
    assert_int_equal(sched_first_difference(a, b), -1);
}

/* Step st's flat view against sched_transfer, transfer by transfer. */
static void flat_matches(const Sched *s, int32_t st, SchedFlatBuf *fb, SchedFlat *f)
{
    assert_true(sched_flat(s, st, fb, f));
    assert_int_equal(f->n, sched_ntransfers(s, st));
    for (int64_t i = 0; i < f->n; i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        assert_int_equal(f->x[i].src, t.src);
        assert_int_equal(f->x[i].dst, t.dst);
        assert_int_equal(sched_flat_nr(f, i), t.nranges);
        const ChunkRange *r = sched_flat_ranges(f, i);
        for (uint32_t q = 0; q < t.nranges; q++) {
            assert_int_equal(r[q].lo, t.ranges[q].lo);
            assert_int_equal(r[q].hi, t.ranges[q].hi);
        }
        assert_int_equal(sched_flat_route(f, i) != SCHED_DEFAULT_ROUTE, t.explicit_route);
    }
}

/* Each packed and unpacked into a fresh schedule: the same transfers, in order, as the other
 * (a tree step whose transfers are a progression crosses as a strided block, sched-strided.h;
 * any other as its transfers). */
static void same_pack(const Sched *a, const Sched *b)
{
    for (int side = 0; side < 2; side++) {
        const Sched *from = side ? b : a, *other = side ? a : b;
        Sched *c = packround(from, NULL);
        same_transfers(c, other);
        sched_free(c);
    }
}

static void same_sims(const Sched *a, const Sched *b)
{
    static const CostModel models[] = { COST_SEIDEL, COST_POSTAL, COST_CIRCUIT, COST_SAF };
    for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
        for (int nu = 0; nu < 2; nu++) {
            CostParams p;
            cost_defaults(&p, models[mi]);
            p.nu = nu;
            char err[256];
            Sim *sa = sim_run(a, &p, SIM_HISTORY, err, sizeof err);
            Sim *sb = sim_run(b, &p, SIM_HISTORY, err, sizeof err);
            assert_non_null(sa);
            assert_non_null(sb);
            simcmp_runs(sa, sb);
            sim_free(sa);
            sim_free(sb);
        }
    }
}

/* ---- the comparison over groups ------------------------------------------------------------ */

typedef struct {
    const char *net;
    int32_t base, stride;
    int k;
    uint32_t nchunks, lo, hi;
    bool sims;   /* also simulate (the group covers the net: the broadcast completes) */
} Group;

/* One group and root: the rule against the reference and against blocks_st. */
static void check_group(const Group *g, int32_t root)
{
    Net *n = mknet(g->net);
    Sched *a = sched_new(n, g->nchunks, 1000);
    Sched *b = sched_new(n, g->nchunks, 1000);
    Sched *c = sched_new(n, g->nchunks, 1000);
    int32_t src = g->base + g->stride * root;
    assert_true(sched_give(a, src, g->lo, g->hi) && sched_give(b, src, g->lo, g->hi) &&
                sched_give(c, src, g->lo, g->hi));
    unsigned char *held = calloc((size_t)1 << g->k, 1);
    assert_non_null(held);
    held[root] = 1;
    for (int i = 0; i < g->k; i++) {
        if (!sched_at(a, i) ||
            !sched_send_tree(a, g->base, g->stride, g->k, i, root, g->lo, g->hi))
            fail_msg("%s root %ld: %s", g->net, (long)root, sched_error(a));
        assert_true(sched_at(b, i));
        ref_step(b, held, g->base, g->stride, g->k, i, root, g->lo, g->hi);
    }
    for (int64_t m = 0; m < (INT64_C(1) << g->k); m++)
        assert_true(held[m]);
    assert_true(blocks_st(c, 0, g->base, g->stride, g->k, (int)root, g->lo, g->hi));
    assert_null(sched_error(a));
    same_transfers(a, b);
    same_transfers(a, c);
    same_pack(a, b);
    /* the rule's flat view: the ends as stored, one range slot for the step */
    SchedFlatBuf fb = { 0 };
    for (int32_t st = 0; st < sched_nsteps(a); st++) {
        SchedFlat f;
        flat_matches(a, st, &fb, &f);
        assert_null(f.r);
        assert_null(f.ext);
        assert_int_equal(f.r1.one.lo, g->lo);
        assert_int_equal(f.r1.one.hi, g->hi);
    }
    sched_flatbuf_free(&fb);
    if (g->sims)
        same_sims(a, b);
    free(held);
    sched_free(a);
    sched_free(b);
    sched_free(c);
    net_free(n);
}

static void test_tree_vs_reference(void **state)
{
    (void)state;
    static const Group groups[] = {
        { "array:2", 0, 1, 1, 1, 0, 1, true },
        { "array:8", 0, 1, 3, 1, 0, 1, true },
        { "array:64", 0, 1, 6, 4, 0, 4, true },
        { "array:1024", 0, 1, 10, 1, 0, 1, false },
        { "array:64", 3, 4, 4, 4, 1, 3, false },      /* interleaved, part of the range */
        { "array:64", 60, -4, 4, 2, 0, 2, false },    /* a negative stride */
        { "array:32", 8, 1, 3, 1, 0, 1, false },      /* a contiguous subarray */
        { "ring:16", 0, 1, 4, 1, 0, 1, true },
        { "mesh:8x16", 5, 16, 3, 1, 0, 1, false },    /* a column */
        { "mesh:8x16", 48, 1, 4, 1, 0, 1, false },    /* a row */
        { "mesh:8x16", 17, 32, 2, 8, 2, 6, false },
        { "torus:8x8", 0, 1, 6, 1, 0, 1, true },      /* the whole torus in row-major order */
        { "mesh:4x4x4", 0, 1, 6, 2, 0, 2, true },
    };
    for (size_t gi = 0; gi < sizeof groups / sizeof groups[0]; gi++) {
        const Group *g = &groups[gi];
        int32_t M = INT32_C(1) << g->k;
        int32_t step = M > 64 ? 37 : 1;   /* every root, or a spread of them on big groups */
        for (int32_t root = 0; root < M; root += step)
            check_group(g, root);
        check_group(g, M - 1);
    }
}

/* A tree step sharing its step with stored sends: after them, in the order added; the flat
 * view keeps one slot while the ranges agree, a slot per transfer once they do not, and ext
 * once a stored send has an explicit route. */
static void test_tree_mixed_steps(void **state)
{
    (void)state;
    Net *n = mknet("array:32");
    Sched *a = sched_new(n, 4, 4000), *b = sched_new(n, 4, 4000);
    assert_true(sched_give(a, 0, 0, 4) && sched_give(b, 0, 0, 4));
    unsigned char held[16] = { 0 };
    held[0] = 1;
    NetSeg seg = { 0, 1, 1 };
    for (int kind = 0; kind < 3; kind++) {
        /* step 2 kind: a stored send of the same range first, then the tree, then of another
         * range (slots apart), then one with an explicit route (ext) */
        for (Sched *s = a; s; s = s == a ? b : NULL) {
            assert_true(sched_at(s, kind));
            if (kind == 0)
                assert_true(sched_send_range(s, 16, 17, 0, 1));
            else if (kind == 1)
                assert_true(sched_send_range(s, 16, 17, 1, 3));
            else
                assert_true(sched_send_route(s, 16, 17, &(ChunkRange){ 0, 1 }, 1, &seg, 1));
        }
        assert_true(sched_send_tree(a, 0, 1, 4, kind, 0, 0, 1));
        ref_step(b, held, 0, 1, 4, kind, 0, 0, 1);
    }
    same_transfers(a, b);
    SchedFlatBuf fb = { 0 };
    SchedFlat f;
    flat_matches(a, 0, &fb, &f);
    assert_null(f.r);
    assert_null(f.ext);
    flat_matches(a, 1, &fb, &f);
    assert_non_null(f.r);
    assert_null(f.ext);
    flat_matches(a, 2, &fb, &f);
    assert_null(f.r);
    assert_non_null(f.ext);
    /* and the views again, out of order, into the same buffer */
    flat_matches(a, 1, &fb, &f);
    flat_matches(a, 0, &fb, &f);
    sched_flatbuf_free(&fb);
    same_sims(a, b);
    sched_free(a);
    sched_free(b);
    net_free(n);
}

/* The block is checked whole: each bad argument fails with a message, and nothing is added. */
static void test_tree_checks(void **state)
{
    (void)state;
    Net *n = mknet("array:16");
    struct {
        int32_t base, stride;
        int k, i;
        int32_t root;
        uint32_t lo, hi;
        const char *msg;
    } bad[] = {
        { 0, 1, 5, 0, 0, 0, 1, "leaves" },       /* 32 members */
        { 1, 1, 4, 0, 0, 0, 1, "leaves" },       /* the last member is node 16 */
        { 3, -1, 3, 0, 0, 0, 1, "leaves" },      /* goes below 0 */
        { -1, 1, 2, 0, 0, 0, 1, "leaves" },
        { 0, 0, 3, 0, 0, 0, 1, "leaves" },       /* stride 0: a node would send to itself */
        { 0, 1, 4, 4, 0, 0, 1, "bad block" },    /* no step 4 of a 4-step tree */
        { 0, 1, 4, -1, 0, 0, 1, "bad block" },
        { 0, 1, 0, 0, 0, 0, 1, "bad block" },
        { 0, 1, 4, 0, 16, 0, 1, "bad block" },   /* root out of the group */
        { 0, 1, 4, 0, -1, 0, 1, "bad block" },
        { 0, 1, 4, 0, 0, 0, 3, "bad block" },    /* chunk 2 of 2 */
        { 0, 1, 4, 0, 0, 2, 1, "bad block" },
    };
    for (size_t q = 0; q < sizeof bad / sizeof bad[0]; q++) {
        Sched *s = sched_new(n, 2, 100);
        assert_false(sched_send_tree(s, 0, 1, 4, 0, 0, 0, 1));   /* no step opened */
        assert_non_null(strstr(sched_error(s), "no step opened"));
        sched_free(s);
        s = sched_new(n, 2, 100);
        assert_true(sched_step(s) == 0);
        assert_false(sched_send_tree(s, bad[q].base, bad[q].stride, bad[q].k, bad[q].i,
                                     bad[q].root, bad[q].lo, bad[q].hi));
        assert_non_null(sched_error(s));
        if (!strstr(sched_error(s), bad[q].msg))
            fail_msg("case %zu: %s", q, sched_error(s));
        assert_int_equal(sched_ntransfers(s, 0), 0);
        sched_free(s);
    }
    /* an empty range sends nothing, as blocks_st */
    Sched *s = sched_new(n, 2, 100);
    assert_true(sched_step(s) == 0);
    assert_true(sched_send_tree(s, 0, 1, 4, 3, 0, 1, 1));
    assert_int_equal(sched_ntransfers(s, 0), 0);
    assert_null(sched_error(s));
    /* the largest group the net holds, with a negative stride from its end */
    assert_true(sched_send_tree(s, 15, -1, 4, 3, 5, 0, 2));
    assert_int_equal(sched_ntransfers(s, 0), 8);
    SchedTransfer t;
    sched_transfer(s, 0, 0, &t);   /* offset 0: member 5 (node 10) to member 4 (node 11) */
    assert_int_equal(t.src, 10);
    assert_int_equal(t.dst, 11);
    sched_free(s);
    net_free(n);
}

/* A whole tree of stored sends (ref_step for each step), as blocks_st built it before its
 * steps were rules. */
static void ref_tree(Sched *s, int32_t first, int32_t base, int32_t stride, int k, int32_t root,
                     uint32_t lo, uint32_t hi)
{
    if (k == 0)
        return;
    unsigned char *held = calloc((size_t)1 << k, 1);
    assert_non_null(held);
    held[root] = 1;
    for (int i = 0; i < k; i++) {
        assert_true(sched_at(s, first + i));
        ref_step(s, held, base, stride, k, i, root, lo, hi);
    }
    free(held);
}

/* The linear ST of eq. 2 as algo_lin_st built it before its trees were rules: distribute,
 * 2^nu interleaved trees of stored sends (ref_tree), exchange. */
static void ref_lin_st(Sched *s, int32_t t, int32_t base, int32_t stride, int k, int nu,
                       int32_t root, uint32_t lo, uint32_t hi)
{
    int32_t g = INT32_C(1) << nu, meta = root >> nu;
    uint32_t q = (hi - lo) >> nu;
    assert_true(algo_meta_distribute(s, t, base, stride, nu, root, lo, hi));
    for (int32_t p = 0; p < g; p++)
        ref_tree(s, t + nu, base + p * stride, stride * g, k - nu, meta, lo + (uint32_t)p * q,
                 lo + (uint32_t)(p + 1) * q);
    assert_true(algo_meta_exchange(s, t + k, base, stride, k, nu, lo, hi));
}

/* st on arrays and st-simple on meshes, every nu they take and several sources, through the
 * algorithm table, against the same built with stored trees. */
static void test_algos_vs_stored(void **state)
{
    (void)state;
    static const char *nets[] = { "array:2", "array:16", "array:256", "mesh:4x4",
                                  "mesh:8x32", "mesh:32x8", "mesh:16x16" };
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        Net *n = mknet(nets[ni]);
        bool mesh = net_kind(n) == NET_MESH || net_kind(n) == NET_TORUS;
        const AlgoDef *d = algo_find(mesh ? "st-simple" : "st", n);
        if (!d)
            fail_msg("no st for %s", nets[ni]);
        int32_t size = net_size(n);
        int dims[2] = { mesh ? algo_log2(net_dim(n, 0)) : algo_log2(size),
                        mesh ? algo_log2(net_dim(n, 1)) : 0 };
        int maxnu = mesh ? (dims[0] < dims[1] ? dims[0] : dims[1]) : dims[0] - 1;
        for (int nu = 0; nu <= maxnu && nu <= 3; nu++) {
            for (int32_t src = 0; src < size; src += size / 3 + 1) {
                AlgoArgs a;
                algo_args_init(&a, d);
                a.nu = nu;
                a.source = src;
                char err[256];
                Sched *got = algo_build(d, n, &a, err, sizeof err);
                if (!got)
                    fail_msg("%s nu %d source %ld: %s", nets[ni], nu, (long)src, err);
                Sched *ref = sched_new(n, sched_nchunks(got), sched_bytes(got));
                assert_true(sched_give(ref, src, 0, sched_nchunks(got)));
                uint32_t nc = UINT32_C(1) << nu;
                if (!mesh && nu == 0) {
                    ref_tree(ref, 0, 0, 1, dims[0], src, 0, 1);
                } else if (!mesh) {
                    ref_lin_st(ref, 0, 0, 1, dims[0], nu, src, 0, nc);
                } else {
                    int32_t cols = net_dim(n, 1), sr = src / cols, sc = src % cols;
                    ref_lin_st(ref, 0, sc, cols, dims[0], nu, sr, 0, nc);
                    for (int32_t r = 0; r < net_dim(n, 0); r++)
                        ref_lin_st(ref, dims[0] + nu, r * cols, 1, dims[1], nu, sc, 0, nc);
                }
                assert_null(sched_error(ref));
                same_transfers(got, ref);
                sched_free(got);
                sched_free(ref);
            }
        }
        net_free(n);
    }
}

/* bst on arrays as it was built with stored trees (bst_array.c before its trees were rules):
 * for each packet pair p, halve to the complement, two trees over the parities, pair exchange;
 * with nu > 0 a distribute before and an exchange in the metanodes after. */
static void ref_bst(Sched *s, int dd, int nu, int32_t k)
{
    int D = dd - nu;
    int32_t g = INT32_C(1) << nu, meta = k >> nu;
    if (nu > 0)
        assert_true(algo_meta_distribute(s, 0, 0, 1, nu, k, 0, 2 * (uint32_t)g));
    for (int32_t p = 0; p < g; p++) {
        int32_t base = p, stride = g, j = meta, jbar = j ^ ((INT32_C(1) << D) - 1);
        uint32_t lo = 2 * (uint32_t)p;
        uint32_t mine = lo + (uint32_t)(j & 1), other = lo + (uint32_t)(jbar & 1);
        assert_true(sched_at(s, nu) &&
                    sched_send_range(s, base + j * stride, base + jbar * stride, other,
                                     other + 1));
        ref_tree(s, nu + 1, base + (j & 1) * stride, 2 * stride, D - 1, j >> 1, mine, mine + 1);
        ref_tree(s, nu + 1, base + (jbar & 1) * stride, 2 * stride, D - 1, jbar >> 1, other,
                 other + 1);
        for (int32_t t = 0; t < (INT32_C(1) << (D - 1)); t++)
            assert_true(blocks_exchange(s, nu + D, base + 2 * t * stride, stride, 1, lo,
                                        lo + 2));
    }
    if (nu > 0)
        assert_true(algo_meta_exchange(s, dd + 1, 0, 1, dd, nu, 0, 2 * (uint32_t)g));
}

static void test_bst_vs_stored(void **state)
{
    (void)state;
    int built = 0;
    for (int dd = 1; dd <= 8; dd++) {
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", 1 << dd);
        Net *n = mknet(spec);
        const AlgoDef *d = algo_find("bst", n);
        assert_non_null(d);
        for (int nu = 0; nu < dd; nu++) {
            for (int32_t src = 0; src < (1 << dd); src += (1 << dd) / 5 + 1) {
                AlgoArgs a;
                algo_args_init(&a, d);
                a.nu = nu;
                a.source = src;
                char err[256];
                Sched *got = algo_build(d, n, &a, err, sizeof err);
                if (!got)
                    continue;   /* (a size bst refuses) */
                Sched *ref = sched_new(n, sched_nchunks(got), sched_bytes(got));
                assert_true(sched_give(ref, src, 0, sched_nchunks(got)));
                ref_bst(ref, dd, nu, src);
                assert_null(sched_error(ref));
                same_transfers(got, ref);
                built++;
                sched_free(got);
                sched_free(ref);
            }
        }
        net_free(n);
    }
    assert_true(built >= 100);
}

/* The 2x2 exchange of the mesh st and bst (algo_sub_exchange_2x2: two proved rules) against
 * its stored form (blocks_exchange per pair, as it was built before), on submeshes of several
 * shapes, spacings and offsets, ranges even and odd (odd ones stay stored). */
static void test_exchange_2x2_vs_stored(void **state)
{
    (void)state;
    static const struct {
        const char *net;
        int32_t r0, c0, g;
        int D1, D2;
        uint32_t lo, hi;
    } cases[] = {
        { "mesh:2x2", 0, 0, 1, 1, 1, 0, 4 },    { "mesh:8x8", 0, 0, 1, 3, 3, 0, 4 },
        { "mesh:8x16", 1, 1, 2, 2, 3, 4, 12 },  { "mesh:16x8", 3, 1, 4, 2, 1, 2, 6 },
        { "mesh:4x32", 0, 0, 1, 2, 5, 0, 2 },   { "mesh:8x8", 1, 1, 2, 2, 2, 1, 8 },
        { "mesh:8x8", 0, 0, 1, 3, 3, 0, 3 },    { "mesh:16x16", 2, 3, 4, 2, 2, 8, 16 },
    };
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        Net *n = mknet(cases[ci].net);
        Sched *a = sched_new(n, 16, 100), *b = sched_new(n, 16, 100);
        AlgoSub ma = { a, net_dim(n, 1), cases[ci].r0, cases[ci].c0, cases[ci].g, cases[ci].D1,
                       cases[ci].D2 };
        uint32_t lo = cases[ci].lo, hi = cases[ci].hi, half = (hi - lo) / 2;
        if (!algo_sub_exchange_2x2(&ma, 1, lo, hi))
            fail_msg("case %zu: %s", ci, sched_error(a));
        AlgoSub mb = ma;
        mb.s = b;
        for (int32_t x = 0; x < (INT32_C(1) << (mb.D1 - 1)); x++)
            for (int32_t y = 0; y < (INT32_C(1) << (mb.D2 - 1)); y++) {
                for (int q = 0; q < 2; q++)
                    assert_true(blocks_exchange(b, 1, algo_sub_node(&mb, 2 * x + q, 2 * y), mb.g,
                                                1, lo + (uint32_t)q * half,
                                                lo + (uint32_t)(q + 1) * half));
                for (int q = 0; q < 2; q++)
                    assert_true(blocks_exchange(b, 2, algo_sub_node(&mb, 2 * x, 2 * y + q),
                                                mb.g * mb.cols, 1, lo, hi));
            }
        assert_null(sched_error(a));
        same_transfers(a, b);
        sched_free(a);
        sched_free(b);
        net_free(n);
    }
}

/* A block of 2^23 transfers (the last step on 2^24 nodes), read back at its far end. */
static void test_tree_big(void **state)
{
    (void)state;
    Net *n = mknet("array:16777216");
    Sched *s = sched_new(n, 1, 1);
    assert_true(sched_step(s) == 0);
    assert_true(sched_send_tree(s, 0, 1, 24, 23, 12345, 0, 1));
    assert_int_equal(sched_ntransfers(s, 0), INT64_C(1) << 23);
    SchedTransfer t;
    int64_t last = (INT64_C(1) << 23) - 1;   /* offset 2 last: member 12345 ^ that */
    sched_transfer(s, 0, last, &t);
    assert_int_equal(t.src, (int32_t)((2 * last) ^ 12345));
    assert_int_equal(t.dst, (int32_t)((2 * last + 1) ^ 12345));
    sched_free(s);
    net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_vs_reference),
        cmocka_unit_test(test_tree_mixed_steps),
        cmocka_unit_test(test_tree_checks),
        cmocka_unit_test(test_tree_big),
        cmocka_unit_test(test_algos_vs_stored),
        cmocka_unit_test(test_bst_vs_stored),
        cmocka_unit_test(test_exchange_2x2_vs_stored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
