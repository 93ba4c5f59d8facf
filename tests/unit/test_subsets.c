/* test_subsets.c — a submask send (sched_send_submasks) kept as its two words (SchedSub), its
 * ranges' place reserved in the pool and written only when a reader asks (sched_pool_ready),
 * and the replay that reads the set's bits instead of its ranges (sched_flat_sets, flat_set,
 * flat_bytes, ht_holds_set).
 *   test_lazy_layout   random builds (steps opened, steps gone back to with sched_at, sets
 *                      sent again, plain sends of one, two or many ranges between, reads in
 *                      the middle of the build, sched_truncate) against the same schedule
 *                      sent with sched_send of the sets listed by brute force: every transfer
 *                      read back, the pool byte for byte, the slots, and each view's sets;
 *   test_lazy_untouched  the pending ranges poisoned after the build: sched_flat_sets leaves
 *                      them so, sched_flat (and sched_transfer, the pack) write them right;
 *                      sched_submasks_bytes against the bytes summed chunk by chunk;
 *   test_sets_replay   runs of relayed sets (whole, in part, with a chunk the sender lacks,
 *                      into a node that holds some already, a node sending twice) under every
 *                      model, uniform chunks and not, against the same schedule sent with
 *                      sched_send: every figure, violation and holding (simcmp.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sched-internal.h"
#include "../../src/engine/sched-pack.h"
#include "../../src/engine/sim.h"
#include "mknet.h"
#include "subsetref.h"
#include "xfercmp.h"
#include "simcmp.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* A random strided set below nchunks, now and then with a run of low ones. */
static void random_set(uint32_t nchunks, uint32_t *fixed, uint32_t *free_)
{
    int bits = 0;
    while (bits < 32 && (UINT64_C(1) << bits) < nchunks)
        bits++;
    uint32_t all = bits >= 32 ? UINT32_MAX : (UINT32_C(1) << bits) - 1;
    for (;;) {
        uint32_t f = rnd() & all;
        if (rnd() % 3 == 0)
            f |= ((UINT32_C(1) << (rnd() % (bits + 1))) - 1) & all;
        uint32_t x = rnd() & all & ~f;
        if ((uint64_t)(x | f) < nchunks) {
            *fixed = x;
            *free_ = f;
            return;
        }
    }
}

/* The two schedules the same, transfer by transfer, and in their stored layout: the same
 * slots (pool offsets), range counts and pool size, and the pool the same byte for byte where
 * a transfer's ranges are (the place of a set sent in a step since dropped by sched_truncate
 * is never written: nothing reads it). */
static void same_layout(const Sched *a, const Sched *b)
{
    assert_true(sched_equal(a, b));
    assert_int_equal(a->nranges, b->nranges);
    assert_int_equal(a->nsteps, b->nsteps);
    for (int32_t st = 0; st < a->nsteps; st++) {
        const SchedStep *x = &a->steps[st], *y = &b->steps[st];
        assert_int_equal(x->n, y->n);
        for (int64_t i = 0; i < x->n; i++) {
            uint32_t nr = sched_xfer_nr(x, i);
            assert_int_equal(nr, sched_xfer_nr(y, i));
            const SchedXferR *p = sched_xfer_slot(x, i), *q = sched_xfer_slot(y, i);
            assert_int_equal(p->one.lo, q->one.lo);
            assert_int_equal(p->one.hi, q->one.hi);
            if (nr >= 2)
                assert_memory_equal(a->ranges + p->pool.roff, b->ranges + q->pool.roff,
                                    nr * sizeof *a->ranges);
        }
    }
}

/* What a test sent as a set: step, index in the step, the set (free_ SCHED_SUB_NONE: sent
 * otherwise, or a set of one range). */
typedef struct {
    int32_t st;
    int64_t i;
    SchedSub set;
} Sent;

/* Every step's view from sched_flat_sets names the sets sent, and only them. */
static void views_name_sets(const Sched *a, const Sent *sent, int nsent)
{
    SchedFlatBuf fb = { 0 };
    for (int32_t st = 0; st < a->nsteps; st++) {
        SchedFlat f;
        assert_true(sched_flat_sets(a, st, &fb, &f));
        int64_t nset = 0;
        for (int k = 0; k < nsent; k++) {
            if (sent[k].st != st)
                continue;
            SchedSub want = sent[k].set;
            if (want.free_ == SCHED_SUB_NONE) {
                assert_true(!f.sub || f.sub[sent[k].i].free_ == SCHED_SUB_NONE);
                continue;
            }
            assert_non_null(f.sub);
            assert_int_equal(f.sub[sent[k].i].fixed, want.fixed);
            assert_int_equal(f.sub[sent[k].i].free_, want.free_);
            nset++;
        }
        int64_t seen = 0;
        for (int64_t i = 0; f.sub && i < f.n; i++)
            seen += f.sub[i].free_ != SCHED_SUB_NONE;
        assert_int_equal(seen, nset);
    }
    sched_flatbuf_free(&fb);
}

#define MAXSENT 512

static void lazy_round(const Net *net, uint32_t nch, bool check)
{
    bool saved = sched_check_proofs;
    sched_check_proofs = check;
    ChunkRange *r = malloc(nch * sizeof *r);
    Sent *sent = malloc(MAXSENT * sizeof *sent);
    assert_non_null(r);
    assert_non_null(sent);
    Sched *a = sched_new(net, nch, 1000003), *b = sched_new(net, nch, 1000003);
    assert_non_null(a);
    assert_non_null(b);
    int nsent = 0, reads = 0;
    uint32_t fixed = 0, free_ = 0;
    bool have = false;
    for (int op = 0; op < 120 && nsent < MAXSENT; op++) {
        int32_t ns = sched_nsteps(a), cur = a->cur;
        uint32_t what = rnd() % 16;
        if (ns == 0 || what == 0) {   /* a new step */
            assert_int_equal(sched_step(a), ns);
            assert_int_equal(sched_step(b), ns);
            continue;
        }
        if (what == 1) {   /* back to an earlier step */
            int32_t to = (int32_t)(rnd() % (uint32_t)ns);
            assert_true(sched_at(a, to) && sched_at(b, to));
            continue;
        }
        if (what == 2 && rnd() % 4 == 0) {   /* steps dropped (now and then all of them) */
            int32_t keep = rnd() % 3 == 0 ? 0 : (int32_t)(rnd() % (uint32_t)ns);
            sched_truncate(a, keep);
            sched_truncate(b, keep);
            int k = 0;
            for (int j = 0; j < nsent; j++)
                if (sent[j].st < keep)
                    sent[k++] = sent[j];
            nsent = k;
            if (keep == 0)
                have = false;
            continue;
        }
        if (what == 3) {   /* a read in the middle of the build */
            int32_t st = (int32_t)(rnd() % (uint32_t)ns);
            int64_t n = sched_ntransfers(a, st);
            if (n > 0) {
                xfercmp_same(a, b, st, (int64_t)(rnd() % (uint64_t)n));
                reads++;
            }
            continue;
        }
        int32_t src = (int32_t)(rnd() % (uint32_t)net_size(net));
        int32_t dst = (int32_t)(rnd() % (uint32_t)(net_size(net) - 1));
        dst += dst >= src;
        int64_t at = sched_ntransfers(a, cur);
        if (what <= 6) {   /* a plain send: one range, two, or a set's ranges */
            size_t n;
            if (what == 4) {
                r[0] = (ChunkRange){ 1, nch };
                n = 1;
            } else if (what == 5 || !have) {
                r[0] = (ChunkRange){ 0, 1 };
                r[1] = (ChunkRange){ 2, 3 };
                n = nch >= 3 ? 2 : 1;
            } else {   /* the ranges of the set sent last: shared with it */
                n = brute(nch, fixed, free_, r);
            }
            assert_true(sched_send(a, src, dst, r, n));
            assert_true(sched_send(b, src, dst, r, n));
            sent[nsent++] = (Sent){ cur, at, { 0, SCHED_SUB_NONE } };
            continue;
        }
        if (!have || rnd() % 3 != 0) {   /* else: the set sent last, again */
            random_set(nch, &fixed, &free_);
            have = true;
        }
        size_t n = brute(nch, fixed, free_, r);
        assert_true(sched_send_submasks(a, src, dst, fixed, free_));
        assert_true(sched_send(b, src, dst, r, n));
        sent[nsent++] = (Sent){ cur, at, { fixed, n >= 2 ? free_ : SCHED_SUB_NONE } };
    }
    assert_null(sched_error(a));
    assert_null(sched_error(b));
    views_name_sets(a, sent, nsent);
    for (int32_t st = 0; st < a->nsteps; st++)
        for (int64_t i = 0; i < sched_ntransfers(a, st); i++)
            xfercmp_same(a, b, st, i);
    same_layout(a, b);
    sched_free(a);
    sched_free(b);
    free(sent);
    free(r);
    sched_check_proofs = saved;
}

static void test_lazy_layout(void **state)
{
    (void)state;
    Net *net = mknet("mesh:4x8");
    static const uint32_t sizes[] = { 2, 3, 16, 100, 1024, 4096 };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (int round = 0; round < 12; round++)
            lazy_round(net, sizes[k], round % 2 == 0);
    net_free(net);
}

/* The set sent last, in a step since dropped, is still the pool's last: a plain send of its
 * ranges shares them (as sched_send's would), so they are written first. */
static void test_truncated_last(void **state)
{
    (void)state;
    Net *net = mknet("array:8");
    ChunkRange r[64];
    Sched *a = sched_new(net, 256, 256), *b = sched_new(net, 256, 256);
    uint32_t sets[2][2] = { { 0x01, 0x30 }, { 0x02, 0x8c } };
    for (int st = 0; st < 2; st++) {
        assert_int_equal(sched_step(a), st);
        assert_int_equal(sched_step(b), st);
        size_t n = brute(256, sets[st][0], sets[st][1], r);
        assert_true(sched_send_submasks(a, 1, 2, sets[st][0], sets[st][1]));
        assert_true(sched_send(b, 1, 2, r, n));
    }
    sched_truncate(a, 1);
    sched_truncate(b, 1);
    size_t n = brute(256, sets[1][0], sets[1][1], r);
    assert_true(sched_send(a, 3, 4, r, n));
    assert_true(sched_send(b, 3, 4, r, n));
    same_layout(a, b);
    assert_int_equal(a->nranges, 4 + 8);   /* (shared: nothing appended) */
    sched_free(a);
    sched_free(b);
    net_free(net);
}

/* The bytes of the set, chunk by chunk: chunk c has floor((c+1)B/N) - floor(cB/N). */
static uint64_t bytes_by_chunk(uint32_t nch, uint64_t bytes, uint32_t fixed, uint32_t free_)
{
    uint64_t sum = 0;
    for (uint32_t c = 0; c < nch; c++)
        if ((c & ~free_) == fixed)
            sum += (uint64_t)(((unsigned __int128)(c + 1) * bytes) / nch -
                              ((unsigned __int128)c * bytes) / nch);
    return sum;
}

static void sink(void *ud, const void *p, size_t n)
{
    (void)ud;
    (void)p;
    (void)n;
}

static void test_lazy_untouched(void **state)
{
    (void)state;
    Net *net = mknet("array:64");
    ChunkRange *r = malloc(8192 * sizeof *r);
    assert_non_null(r);
    static const uint64_t sizes[] = { 8192, 1000003, 81920, 12345678901ull };
    for (int round = 0; round < 40; round++) {
        uint32_t nch = round % 2 ? 8192 : 1000;
        uint64_t bytes = sizes[round % 4];
        Sched *s = sched_new(net, nch, bytes);
        SchedSub set[64];
        int32_t nst = 1 + (int32_t)(rnd() % 3);
        int nset = 0;
        for (int32_t st = 0; st < nst; st++) {
            assert_int_equal(sched_step(s), st);
            for (int k = 0; k < 8; k++, nset++) {
                uint32_t f, m;
                do
                    random_set(nch, &f, &m);
                while (__builtin_popcount(m & (m + 1)) == 0);   /* two ranges or more */
                set[nset] = (SchedSub){ f, m };
                assert_true(sched_send_submasks(s, k, k + 1, f, m));
                /* its bytes from its bits, against chunk by chunk */
                assert_int_equal(sched_submasks_bytes(s, f, m), bytes_by_chunk(nch, bytes, f, m));
            }
        }
        /* nothing written yet: poison every set's place */
        assert_true(atomic_load(&s->lazy));
        assert_int_equal(s->pend_roff, 0);
        memset(s->ranges, 0xa5, s->nranges * sizeof *s->ranges);
        SchedFlatBuf fb = { 0 };
        for (int32_t st = 0; st < nst; st++) {
            SchedFlat f;
            assert_true(sched_flat_sets(s, st, &fb, &f));
            assert_non_null(f.sub);
            for (int64_t i = 0; i < f.n; i++) {
                assert_int_equal(f.sub[i].fixed, set[st * 8 + i].fixed);
                assert_int_equal(f.sub[i].free_, set[st * 8 + i].free_);
                const ChunkRange *q = sched_flat_ranges(&f, i);
                assert_int_equal(q[0].lo, 0xa5a5a5a5u);   /* not written by this view */
            }
        }
        /* the readers write them: sched_flat, sched_transfer or the pack, whichever first */
        int how = round % 3;
        if (how == 0) {
            SchedFlat f;
            assert_true(sched_flat(s, 0, &fb, &f));
        } else if (how == 1) {
            SchedTransfer t;
            sched_transfer(s, nst - 1, 7, &t);
        } else {
            assert_true(sched_pack(s, sink, NULL));
        }
        assert_false(atomic_load(&s->lazy));
        for (int32_t st = 0; st < nst; st++)
            for (int64_t i = 0; i < 8; i++) {
                SchedSub q = set[st * 8 + i];
                size_t n = brute(nch, q.fixed, q.free_, r);
                SchedTransfer t;
                sched_transfer(s, st, i, &t);
                assert_int_equal(t.nranges, n);
                assert_memory_equal(t.ranges, r, n * sizeof *r);
                assert_int_equal(t.bytes, bytes_by_chunk(nch, bytes, q.fixed, q.free_));
            }
        sched_flatbuf_free(&fb);
        sched_free(s);
    }
    free(r);
    net_free(net);
}

/* One random schedule of relayed sets, sent twice: as sets into a, range by range into b.
 * Node 0 holds everything; in each step every holder sends a subset of its set (now and
 * then with a chunk outside it) to a fresh node, some to a node that holds a set already,
 * and one holder now and then a second time in the step. */
static void relay_pair(const Net *net, uint32_t nch, uint64_t bytes, Sched **pa, Sched **pb,
                       int *notheld)
{
    int32_t size = net_size(net);
    ChunkRange *r = malloc(nch * sizeof *r);
    assert_non_null(r);
    Sched *a = sched_new(net, nch, bytes), *b = sched_new(net, nch, bytes);
    assert_true(sched_give(a, 0, 0, nch) && sched_give(b, 0, 0, nch));
    uint32_t *hf = calloc((size_t)size, sizeof *hf), *hm = calloc((size_t)size, sizeof *hm);
    int32_t *holders = malloc((size_t)size * sizeof *holders);
    assert_true(hf && hm && holders);
    int32_t nh = 0, next = 1;
    for (int st = 0; st < 5 && next < size; st++) {
        assert_int_equal(sched_step(a), st);
        assert_int_equal(sched_step(b), st);
        int32_t nh0 = nh;
        for (int32_t k = -1; k < nh0 && next < size; k++) {
            int32_t v = k < 0 ? 0 : holders[k];
            uint32_t f, m;
            if (k < 0) {
                if (st > 0)
                    continue;
                random_set(nch, &f, &m);
            } else {   /* a subset: some free bits fixed; now and then a fixed bit flipped */
                uint32_t keep = hm[v] & rnd(), set = hm[v] & ~keep & rnd();
                f = hf[v] | set;
                m = keep;
                if (rnd() % 5 == 0) {
                    uint32_t bit = UINT32_C(1) << (rnd() % 11);
                    if (!(hm[v] & bit) && ((f ^ bit) | m) < nch) {
                        f ^= bit;
                        (*notheld)++;
                    }
                }
            }
            int32_t to = next;
            if (nh > 1 && rnd() % 6 == 0)   /* into a node that holds a set already */
                to = holders[rnd() % (uint32_t)nh];
            if (to == v)
                to = next;
            int reps = rnd() % 7 == 0 ? 2 : 1;   /* a second send from v: sub-rounds */
            for (int q = 0; q < reps && next < size; q++) {
                size_t n = brute(nch, f, m, r);
                assert_true(sched_send_submasks(a, v, to, f, m));
                assert_true(sched_send(b, v, to, r, n));
                if (to == next) {
                    hf[to] = f;
                    hm[to] = m;
                    holders[nh++] = to;
                    next++;
                }
                to = next;
            }
        }
    }
    assert_null(sched_error(a));
    assert_null(sched_error(b));
    free(hf);
    free(hm);
    free(holders);
    free(r);
    *pa = a;
    *pb = b;
}

static void test_sets_replay(void **state)
{
    (void)state;
    static const char *nets[] = { "mesh:4x8", "torus:4x4", "array:32" };
    int notheld = 0, split = 0;
    for (int round = 0; round < 36; round++) {
        Net *net = mknet(nets[round % 3]);
        uint32_t nch = round % 2 ? 2048 : 1000;
        uint64_t bytes = round % 4 < 2 ? (uint64_t)nch * 512 : 1000003;
        Sched *a, *b;
        relay_pair(net, nch, bytes, &a, &b, &notheld);
        for (int model = 0; model < 6; model++) {
            CostParams p;
            cost_defaults(&p, model < 3 ? COST_SEIDEL
                                        : model == 3 ? COST_POSTAL
                                                     : model == 4 ? COST_CIRCUIT : COST_SAF);
            if (model < 3)
                p.nu = model;
            char err[256];
            Sim *x = sim_run(a, &p, 0, err, sizeof err), *y = sim_run(b, &p, 0, err, sizeof err);
            assert_non_null(x);
            assert_non_null(y);
            simcmp_runs(x, y);
            split += sim_totals(x)->split_steps > 0;
            sim_free(x);
            sim_free(y);
        }
        sched_free(a);
        sched_free(b);
        net_free(net);
    }
    assert_true(notheld > 10);
    assert_true(split > 3);
}

/* A sender that holds its set but for its last range (sent to it as plain ranges): the send
 * of the set is not held, its first missing chunk the last range's first; short sets (listed
 * by the replay) and long ones (read from the pool), under seidel and postal. */
static void test_set_tail_missing(void **state)
{
    (void)state;
    Net *net = mknet("mesh:4x4");
    ChunkRange r[64];
    static const uint32_t frees[] = { 0x0a, 0x2d, 0x1f0, 0x3e };   /* 4, 8, 32, 16 ranges */
    for (size_t k = 0; k < sizeof frees / sizeof *frees; k++) {
        uint32_t nch = 1024, f = 0x100 & ~frees[k], m = frees[k];
        size_t n = brute(nch, f, m, r);
        Sched *a = sched_new(net, nch, 1 << 20), *b = sched_new(net, nch, 1 << 20);
        assert_true(sched_give(a, 0, 0, nch) && sched_give(b, 0, 0, nch));
        assert_int_equal(sched_step(a), 0);
        assert_int_equal(sched_step(b), 0);
        assert_true(sched_send(a, 0, 5, r, n - 1) && sched_send(b, 0, 5, r, n - 1));
        assert_int_equal(sched_step(a), 1);
        assert_int_equal(sched_step(b), 1);
        assert_true(sched_send_submasks(a, 5, 9, f, m));
        assert_true(sched_send(b, 5, 9, r, n));
        for (int model = 0; model < 2; model++) {
            CostParams p;
            cost_defaults(&p, model ? COST_POSTAL : COST_SEIDEL);
            char err[256];
            Sim *x = sim_run(a, &p, 0, err, sizeof err), *y = sim_run(b, &p, 0, err, sizeof err);
            assert_non_null(x);
            assert_non_null(y);
            simcmp_runs(x, y);
            assert_int_equal(sim_totals(x)->not_held, 1);
            const SimViolation *v = sim_violation(x, 0);
            assert_int_equal(v->kind, SIM_V_NOT_HELD);
            assert_int_equal(v->chunk, r[n - 1].lo);
            sim_free(x);
            sim_free(y);
        }
        sched_free(a);
        sched_free(b);
    }
    net_free(net);
}

/* rh built through the algorithm table: a run reads its distribution's sets as bits and
 * never writes their ranges (the schedule still lazy after sim_run), with the pending ranges
 * poisoned before; every figure, violation and holding as a run of the same schedule whose
 * ranges were written first (sched_pool_ready), under seidel nu 0 and 2 and postal. */
static Sched *build_rh(const Net *net, int32_t source)
{
    const AlgoDef *def = algo_find("rh", net);
    assert_non_null(def);
    AlgoArgs args;
    algo_args_init(&args, def);
    args.source = source;
    args.bytes = 1000003;
    char err[256];
    Sched *s = algo_build(def, net, &args, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

static void test_rh_lazy(void **state)
{
    (void)state;
    static const struct {
        const char *net;
        int32_t source;
    } cases[] = { { "mesh:16x16", 0 }, { "mesh:8x32", 77 }, { "mesh:32x4", 5 } };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        Net *net = mknet(cases[c].net);
        for (int model = 0; model < 3; model++) {
            Sched *a = build_rh(net, cases[c].source), *b = build_rh(net, cases[c].source);
            sched_pool_ready(b);
            assert_true(atomic_load(&a->lazy));
            memset(a->ranges + a->pend_roff, 0xa5,
                   (a->nranges - a->pend_roff) * sizeof *a->ranges);
            CostParams p;
            cost_defaults(&p, model == 2 ? COST_POSTAL : COST_SEIDEL);
            if (model == 1)
                p.nu = 2;
            char err[256];
            Sim *x = sim_run(a, &p, 0, err, sizeof err);
            assert_non_null(x);
            assert_true(atomic_load(&a->lazy));   /* nothing written by the run */
            assert_int_equal(a->ranges[a->pend_roff].lo, 0xa5a5a5a5u);
            Sim *y = sim_run(b, &p, 0, err, sizeof err);
            assert_non_null(y);
            assert_true(sim_totals(x)->verified);
            simcmp_runs(x, y);
            sim_free(x);
            sim_free(y);
            sched_free(a);
            sched_free(b);
        }
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lazy_layout),
        cmocka_unit_test(test_truncated_last),
        cmocka_unit_test(test_lazy_untouched),
        cmocka_unit_test(test_sets_replay),
        cmocka_unit_test(test_set_tail_missing),
        cmocka_unit_test(test_rh_lazy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
