/* test_submasks.c — sched_send_submasks (rh's distribution on meshes and arrays) against
 * sched_send of the same chunk set listed by brute force: every id below nchunks tested for
 * membership ((id & ~free) == fixed), runs of consecutive members merged into ranges.  The two
 * schedules must be the same transfer by transfer (sched_equal) and in their stored layout: the
 * same range pool, byte for byte, the same range slots, the same range counts (a strided send
 * that repeats the one before shares its ranges, as sched_send's do).  Then the bad sets, the
 * bad nodes and a send with no step open, each refused with its message; and rh's distribution
 * (mesh and array, built through the algorithm table) against what its tree says each transfer
 * must carry (check_rh).  And the O(1) test of a submask set inside another
 * (sched_pool_submasks, then sched_submasks_within: what the replay asks before walking a
 * borrowed base) against chunk-by-chunk containment, and replays with it against replays
 * without it. */
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
#include "../../src/engine/sim.h"
#include "mknet.h"
#include "subsetref.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* The two schedules' stored layout is the same: pool, slots, range counts. */
static void same_layout(const Sched *a, const Sched *b)
{
    assert_true(sched_equal(a, b));
    assert_int_equal(a->nranges, b->nranges);
    if (a->nranges)
        assert_memory_equal(a->ranges, b->ranges, a->nranges * sizeof *a->ranges);
    assert_int_equal(a->nsteps, b->nsteps);
    for (int32_t st = 0; st < a->nsteps; st++) {
        const SchedStep *x = &a->steps[st], *y = &b->steps[st];
        assert_int_equal(x->n, y->n);
        for (int64_t i = 0; i < x->n; i++) {
            assert_int_equal(x->x[i].src, y->x[i].src);
            assert_int_equal(x->x[i].dst, y->x[i].dst);
            assert_int_equal(sched_xfer_nr(x, i), sched_xfer_nr(y, i));
            assert_int_equal(sched_xfer_route(x, i), sched_xfer_route(y, i));
            const SchedXferR *p = sched_xfer_slot(x, i), *q = sched_xfer_slot(y, i);
            assert_int_equal(p->one.lo, q->one.lo);
            assert_int_equal(p->one.hi, q->one.hi);
        }
    }
}

/* A random strided set below nchunks: free a random mask of the id bits, fixed the rest. */
static void random_set(uint32_t nchunks, uint32_t *fixed, uint32_t *free_)
{
    int bits = 0;
    while (bits < 32 && (UINT64_C(1) << bits) < nchunks)
        bits++;
    uint32_t all = bits >= 32 ? UINT32_MAX : (UINT32_C(1) << bits) - 1;
    for (;;) {
        uint32_t f = rnd() & all;
        switch (rnd() % 4) {   /* now and then a run of low ones (ranges longer than 1) */
        case 0: f |= (UINT32_C(1) << (rnd() % (bits + 1))) - 1; f &= all; break;
        case 1: f &= rnd(); break;
        default: break;
        }
        uint32_t x = rnd() & all & ~f;
        if ((uint64_t)(x | f) < nchunks) {
            *fixed = x;
            *free_ = f;
            return;
        }
    }
}

static void compare_random(bool check)
{
    bool saved = sched_check_proofs;
    sched_check_proofs = check;
    Net *net = mknet("mesh:4x8");
    static const uint32_t sizes[] = { 1, 2, 3, 7, 8, 64, 100, 256, 1000, 1024, 4096 };
    ChunkRange *r = malloc(4096 * sizeof *r);
    assert_non_null(r);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        uint32_t nch = sizes[k];
        for (int round = 0; round < 20; round++) {
            Sched *a = sched_new(net, nch, 1000), *b = sched_new(net, nch, 1000);
            assert_non_null(a);
            assert_non_null(b);
            int nsteps = 1 + (int)(rnd() % 3);
            for (int st = 0; st < nsteps; st++) {
                assert_int_equal(sched_step(a), st);
                assert_int_equal(sched_step(b), st);
                int nsend = 1 + (int)(rnd() % 12);
                uint32_t fixed = 0, free_ = 0;
                for (int i = 0; i < nsend; i++) {
                    int32_t src = (int32_t)(rnd() % 32), dst = (int32_t)(rnd() % 31);
                    dst += dst >= src;
                    if (i == 0 || rnd() % 4 != 0)   /* else: the set sent before, again */
                        random_set(nch, &fixed, &free_);
                    if (rnd() % 5 == 0) {   /* a plain send between (one range or several) */
                        ChunkRange q[2] = { { 0, 1 }, { 2, nch > 2 ? 3 : 2 } };
                        size_t nq = nch > 2 ? 2 : 1;
                        assert_true(sched_send(a, src, dst, q, nq));
                        assert_true(sched_send(b, src, dst, q, nq));
                    }
                    size_t n = brute(nch, fixed, free_, r);
                    assert_true(n >= 1);
                    assert_true(sched_send_submasks(a, src, dst, fixed, free_));
                    assert_true(sched_send(b, src, dst, r, n));
                    /* the transfer read back: the brute-force ranges */
                    SchedTransfer t;
                    sched_transfer(a, st, sched_ntransfers(a, st) - 1, &t);
                    assert_int_equal(t.nranges, n);
                    assert_memory_equal(t.ranges, r, n * sizeof *r);
                }
            }
            assert_null(sched_error(a));
            same_layout(a, b);
            sched_free(a);
            sched_free(b);
        }
    }
    free(r);
    net_free(net);
    sched_check_proofs = saved;
}

static void test_random_checked(void **state)
{
    (void)state;
    compare_random(true);
}

static void test_random_trusted(void **state)
{
    (void)state;
    compare_random(false);
}

/* Every shape of set on 16 chunks (every free mask, every fixed outside it): against brute. */
static void test_exhaustive16(void **state)
{
    (void)state;
    Net *net = mknet("array:4");
    ChunkRange r[16];
    for (uint32_t f = 0; f < 16; f++)
        for (uint32_t x = 0; x < 16; x++) {
            if (x & f)
                continue;
            Sched *a = sched_new(net, 16, 16), *b = sched_new(net, 16, 16);
            assert_int_equal(sched_step(a), 0);
            assert_int_equal(sched_step(b), 0);
            size_t n = brute(16, x, f, r);
            assert_true(sched_send_submasks(a, 1, 2, x, f));
            assert_true(sched_send(b, 1, 2, r, n));
            same_layout(a, b);
            sched_free(a);
            sched_free(b);
        }
    net_free(net);
}

static void expect_error(Sched *s, int32_t src, int32_t dst, uint32_t fixed, uint32_t free_,
                         const char *text)
{
    assert_false(sched_send_submasks(s, src, dst, fixed, free_));
    assert_non_null(sched_error(s));
    if (!strstr(sched_error(s), text))
        fail_msg("error \"%s\" does not say \"%s\"", sched_error(s), text);
}

static void test_errors(void **state)
{
    (void)state;
    Net *net = mknet("array:8");
    struct {
        int32_t src, dst;
        uint32_t fixed, free_;
        const char *text;
    } bad[] = {
        { 0, 1, 1, 3, "overlap" },                        /* fixed and free share bit 0 */
        { 0, 1, 64, 0, "not below the chunk count" },     /* fixed itself too high */
        { 0, 1, 0, 64, "not below the chunk count" },     /* a free bit too high */
        { 0, 1, 32, 31, "not below the chunk count" },    /* 63 >= 60 chunks */
        { 0, 0, 0, 1, "cannot send to itself" },
        { 0, 8, 0, 1, "not in" },
        { -1, 2, 0, 1, "not in" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        Sched *s = sched_new(net, 60, 60);
        assert_int_equal(sched_step(s), 0);
        expect_error(s, bad[i].src, bad[i].dst, bad[i].fixed, bad[i].free_, bad[i].text);
        sched_free(s);
    }
    Sched *s = sched_new(net, 60, 60);
    expect_error(s, 0, 1, 0, 1, "no step opened");
    sched_free(s);
    /* the largest set that fits: every id of 64 chunks, one range */
    s = sched_new(net, 64, 64);
    assert_int_equal(sched_step(s), 0);
    assert_true(sched_send_submasks(s, 0, 1, 0, 63));
    SchedTransfer t;
    sched_transfer(s, 0, 0, &t);
    assert_int_equal(t.nranges, 1);
    assert_int_equal(t.ranges[0].lo, 0);
    assert_int_equal(t.ranges[0].hi, 64);
    sched_free(s);
    net_free(net);
}

/* rh's distribution (the steps before its first rule step), checked against what a
 * distribution must send, derived from its tree alone: replayed on bitmaps, every sender holds
 * what it sends and no receiver held any of it; at its end each node keeps exactly one chunk
 * of its own (held, not sent on), all distinct; and every transfer to v carries exactly the
 * own chunks of the nodes v serves (v and, transitively, the nodes v sends to in the later
 * steps).  A strided set one chunk off anywhere fails it.  Then the whole run is verified. */
static void check_rh(const char *spec, int32_t source)
{
    Net *net = mknet(spec);
    const AlgoDef *def = algo_find("rh", net);
    assert_non_null(def);
    AlgoArgs args;
    algo_args_init(&args, def);
    args.source = source;
    char err[256];
    Sched *s = algo_build(def, net, &args, err, sizeof err);
    if (!s)
        fail_msg("rh on %s: %s", spec, err);
    int32_t n = net_size(net);
    uint32_t nch = sched_nchunks(s);
    assert_int_equal(nch, (uint32_t)n);
    int32_t end = 1;
    while (end < sched_nsteps(s) && s->steps[end].nrule == 0)
        end++;
    int logn = 0;
    while ((INT32_C(1) << logn) < n)
        logn++;
    assert_int_equal(end - 1, logn);   /* d1 + d2 (or d) distribution steps */
    size_t cells = (size_t)n * nch;
    uint8_t *hold = calloc(cells, 1), *sent = calloc(cells, 1), *want = calloc(nch, 1);
    int32_t *own = malloc(sizeof *own * (size_t)n), *owner = malloc(sizeof *owner * nch);
    assert_true(hold && sent && want && own && owner);
    for (uint32_t c = 0; c < nch; c++)
        hold[(size_t)source * nch + c] = 1;
    for (int32_t st = 1; st < end; st++)
        for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            for (uint32_t k = 0; k < t.nranges; k++)
                for (uint32_t c = t.ranges[k].lo; c < t.ranges[k].hi; c++) {
                    assert_true(hold[(size_t)t.src * nch + c]);
                    assert_false(hold[(size_t)t.dst * nch + c]);
                    hold[(size_t)t.dst * nch + c] = 1;
                    sent[(size_t)t.src * nch + c] = 1;
                }
        }
    for (uint32_t c = 0; c < nch; c++)
        owner[c] = -1;
    for (int32_t v = 0; v < n; v++) {
        int cnt = 0;
        for (uint32_t c = 0; c < nch; c++)
            if (hold[(size_t)v * nch + c] && !sent[(size_t)v * nch + c]) {
                cnt++;
                own[v] = (int32_t)c;
            }
        assert_int_equal(cnt, 1);
        assert_int_equal(owner[own[v]], -1);
        owner[own[v]] = v;
    }
    /* serve[v]: v and the nodes it sends to after step st, transitively (walked per transfer) */
    uint8_t *serve = calloc((size_t)n, 1);
    assert_non_null(serve);
    for (int32_t st = 1; st < end; st++)
        for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            memset(serve, 0, (size_t)n);
            serve[t.dst] = 1;
            for (int32_t later = st + 1; later < end; later++)
                for (int64_t j = 0; j < sched_ntransfers(s, later); j++) {
                    SchedTransfer u;
                    sched_transfer(s, later, j, &u);
                    if (serve[u.src])
                        serve[u.dst] = 1;
                }
            memset(want, 0, nch);
            for (int32_t v = 0; v < n; v++)
                if (serve[v])
                    want[own[v]] = 1;
            uint32_t k = 0, c = 0;
            for (; c < nch; c++) {   /* the transfer's ranges are exactly `want` */
                while (k < t.nranges && t.ranges[k].hi <= c)
                    k++;
                bool in = k < t.nranges && t.ranges[k].lo <= c;
                if (in != (want[c] != 0))
                    fail_msg("rh on %s step %ld transfer %ld: chunk %lu %s", spec, (long)st,
                             (long)i, (unsigned long)c, in ? "sent, not wanted" : "wanted");
            }
        }
    free(serve);
    free(hold);
    free(sent);
    free(want);
    free(own);
    free(owner);
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    if (!sim)
        fail_msg("%s", err);
    assert_true(sim_totals(sim)->verified);
    sim_free(sim);
    sched_free(s);
    net_free(net);
}

static void test_rh(void **state)
{
    (void)state;
    check_rh("mesh:2x2", 0);
    check_rh("mesh:2x8", 3);
    check_rh("mesh:4x8", 5);
    check_rh("mesh:8x4", 31);
    check_rh("mesh:16x16", 77);
    check_rh("mesh:32x4", 100);
    check_rh("array:2", 1);
    check_rh("array:64", 0);
    check_rh("array:256", 201);
}

/* A subset of the set (fixed, free): some free bits fixed (to 0 or 1), or, now and then, one
 * chunk outside it (a fixed bit flipped), so that the containment can fail. */
static void sub_of(uint32_t nch, uint32_t fixed, uint32_t free_, uint32_t *sf, uint32_t *sm,
                   bool *inside)
{
    for (;;) {
        uint32_t keep = free_ & rnd(), set = free_ & ~keep & rnd();
        uint32_t f = fixed | set, m = keep;
        *inside = true;
        if (rnd() % 4 == 0) {   /* flip one bit outside free_ below nch's width */
            int b = (int)(rnd() % 12);
            uint32_t bit = UINT32_C(1) << b;
            if (!(free_ & bit)) {
                f ^= bit;
                m &= ~bit;
                *inside = false;
            }
        }
        if ((uint64_t)(f | m) < nch && (f & m) == 0) {
            *sf = f;
            *sm = m;
            return;
        }
    }
}

/* sched_pool_submasks and sched_submasks_within against containment tested chunk by chunk, on
 * sets stored in one schedule (and false for ranges that are no whole submask set: a plain send's, a prefix of
 * odd length, after the pool is emptied by sched_truncate). */
static void test_within(void **state)
{
    (void)state;
    Net *net = mknet("array:16");
    uint32_t nch = 4096;
    int shown = 0, outside = 0;
    for (int round = 0; round < 300; round++) {
        Sched *s = sched_new(net, nch, nch);
        assert_int_equal(sched_step(s), 0);
        uint32_t bf, bm, tf, tm;
        random_set(nch, &bf, &bm);
        bool inside;
        sub_of(nch, bf, bm, &tf, &tm, &inside);
        if (rnd() % 8 == 0)   /* a set that is no subset at all */
            random_set(nch, &tf, &tm);
        assert_true(sched_send_submasks(s, 1, 2, bf, bm));
        assert_true(sched_send_submasks(s, 2, 3, tf, tm));
        SchedTransfer b, t;
        sched_transfer(s, 0, 0, &b);
        sched_transfer(s, 0, 1, &t);
        uint32_t ft, mt, fb, mb;
        bool within = sched_pool_submasks(s, t.ranges, t.nranges, &ft, &mt) &&
                      sched_pool_submasks(s, b.ranges, b.nranges, &fb, &mb) &&
                      sched_submasks_within(ft, mt, fb, mb);
        bool truth = true;   /* chunk by chunk */
        for (uint32_t c = 0; c < nch; c++)
            if ((c & ~tm) == tf && (c & ~bm) != bf)
                truth = false;
        if (t.nranges >= 2 && b.nranges >= 2) {
            assert_int_equal(within, truth);   /* both are whole sets: shown either way */
            shown += within;
            outside += !truth;
        } else {
            assert_false(within);              /* one range: not in the pool */
        }
        if (b.nranges >= 3) {   /* a slice of 3 ranges: no whole set */
            uint32_t f, m;
            assert_false(sched_pool_submasks(s, b.ranges, 3, &f, &m));
        }
        sched_truncate(s, 0);   /* the pool emptied: its marks too */
        assert_int_equal(sched_step(s), 0);
        ChunkRange q[2] = { { 0, 1 }, { 2, 3 } };
        assert_true(sched_send(s, 1, 2, q, 2));
        SchedTransfer u;
        sched_transfer(s, 0, 0, &u);
        uint32_t f, m;
        assert_false(sched_pool_submasks(s, u.ranges, u.nranges, &f, &m));
        sched_free(s);
    }
    assert_true(shown > 50);
    assert_true(outside > 20);
    net_free(net);
}

/* The replay with the O(1) test (sets sent with sched_send_submasks, which the hold table
 * recognises) against the same schedule sent with sched_send (no marks: every range walked):
 * relays of borrowed submask sets, sent on whole, in part, or with a chunk the sender lacks;
 * every total and every violation the same. */
static void test_replay(void **state)
{
    (void)state;
    Net *net = mknet("mesh:4x8");
    uint32_t nch = 2048;
    ChunkRange *r = malloc(nch * sizeof *r);
    assert_non_null(r);
    int notheld = 0;
    for (int round = 0; round < 40; round++) {
        Sched *a = sched_new(net, nch, 1 << 20), *b = sched_new(net, nch, 1 << 20);
        assert_true(sched_give(a, 0, 0, nch) && sched_give(b, 0, 0, nch));
        /* node 0 holds all; each step every holder of a set sends a subset on to a node
         * that holds nothing yet */
        uint32_t hf[32], hm[32];
        bool has[32] = { false };
        int32_t holders[32], nh = 0;
        int32_t next = 1;
        for (int st = 0; st < 4 && next < 32; st++) {
            assert_int_equal(sched_step(a), st);
            assert_int_equal(sched_step(b), st);
            int32_t nnew = 0, newh[32];
            uint32_t nf[32], nm[32];
            for (int32_t k = -1; k < nh && next < 32; k++) {
                int32_t v = k < 0 ? 0 : holders[k];
                uint32_t f, m;
                bool inside = true;
                if (k < 0) {
                    if (st > 0)
                        continue;
                    random_set(nch, &f, &m);
                    if (__builtin_popcount(m) < 5)
                        m |= 0x3e0 & ~f & (nch - 1), f &= ~m;
                } else {
                    sub_of(nch, hf[v], hm[v], &f, &m, &inside);
                }
                size_t n = brute(nch, f, m, r);
                assert_true(sched_send_submasks(a, v, next, f, m));
                assert_true(sched_send(b, v, next, r, n));
                notheld += !inside;
                newh[nnew] = next;
                nf[nnew] = f;
                nm[nnew++] = m;
                next++;
            }
            for (int32_t k = 0; k < nnew; k++) {
                hf[newh[k]] = nf[k];
                hm[newh[k]] = nm[k];
                has[newh[k]] = true;
                holders[nh++] = newh[k];
            }
        }
        (void)has;
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        char err[256];
        Sim *x = sim_run(a, &p, 0, err, sizeof err), *y = sim_run(b, &p, 0, err, sizeof err);
        assert_non_null(x);
        assert_non_null(y);
        const SimTotals *tx = sim_totals(x), *ty = sim_totals(y);
        assert_true(tx->cost.total == ty->cost.total);
        assert_int_equal(tx->not_held, ty->not_held);
        assert_int_equal(tx->violations, ty->violations);
        assert_int_equal(tx->incomplete_nodes, ty->incomplete_nodes);
        assert_int_equal(tx->verified, ty->verified);
        assert_int_equal(sim_nviolations(x), sim_nviolations(y));
        for (size_t i = 0; i < sim_nviolations(x); i++) {
            const SimViolation *u = sim_violation(x, i), *w = sim_violation(y, i);
            assert_int_equal(u->kind, w->kind);
            assert_int_equal(u->step, w->step);
            assert_int_equal(u->node, w->node);
            assert_int_equal(u->chunk, w->chunk);
            assert_int_equal(u->transfer, w->transfer);
        }
        sim_free(x);
        sim_free(y);
        sched_free(a);
        sched_free(b);
    }
    assert_true(notheld > 5);
    free(r);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_checked),
        cmocka_unit_test(test_random_trusted),
        cmocka_unit_test(test_exhaustive16),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_rh),
        cmocka_unit_test(test_within),
        cmocka_unit_test(test_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
