/* test_affine.c — affine blocks of transfers (sched-affine.h) and their replay block by block
 * on full:P (sim-affine.c).  Pinned against the general replay (sim_affine_on false: every
 * figure, link load, violation and holding the same: simcmp.h) and against bitmaps replayed here (not-held
 * violations in transfer order, informed nodes, holdings, bytes, the critical node); the
 * schedule's transfers against the blocks; the fractional and binary trees built as affine
 * blocks against the same trees built as the general rule (ftree_affine false), transfer by
 * transfer and simulated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <stdio.h>

#include "../../src/algos/algo.h"
#include "../../src/algos/algos-internal.h"
#include "../../src/engine/net.h"
#include "../../src/engine/sched-affine.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim-affine.h"
#include "../../src/engine/sim.h"
#include "simcmp.h"
#include "xfercmp.h"

#define MAXN 24
#define CH 12
#define STEPS 10
#define MAXB 6

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

/* s simulated block by block (where it can be) and transfer by transfer; *blocks gets the
 * steps the first replayed block by block. */
static void run_both(const Sched *s, const CostParams *p, Sim **aff, Sim **gen, int64_t *blocks)
{
    bool saved = sim_affine_on;
    sim_affine_on = true;
    int64_t before = sim_affine_steps;
    *aff = sim_run(s, p, 0, NULL, 0);
    *blocks = sim_affine_steps - before;
    sim_affine_on = false;
    before = sim_affine_steps;
    *gen = sim_run(s, p, 0, NULL, 0);
    assert_int_equal(sim_affine_steps, before);   /* off: never taken */
    sim_affine_on = saved;
    assert_non_null(*aff);
    assert_non_null(*gen);
}

/* Random steps of affine blocks on full:N: mostly blocks whose source runs and destination
 * runs are apart (the block replay), some not (a node sending or receiving twice: the general
 * replay), chunks held and not held (relays of what a node receives in the same step among
 * them), a chunk size that leaves the last chunk smaller, now and then a local operation.
 * Under postal (duplex, simplex) and seidel (nu 0-2). */
static void test_affine_random(void **state)
{
    (void)state;
    int64_t taken = 0, declined = 0;
    for (unsigned seed = 1; seed <= 240; seed++) {
        srand(seed * 7919u);
        int32_t N = 4 + (int32_t)rnd(MAXN - 3);
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", (int)N);
        Net *net = net_parse(spec, NULL, 0);
        assert_non_null(net);
        uint64_t bytes = CH * 100 + rnd(3) * 7;   /* (uneven chunks when not a multiple) */
        Sched *s = sched_new(net, CH, bytes);
        static bool have[MAXN][CH], start[MAXN][CH];
        memset(have, 0, sizeof have);
        int32_t src0 = (int32_t)rnd((uint32_t)N);
        sched_give(s, src0, 0, CH);
        for (uint32_t c = 0; c < CH; c++)
            have[src0][c] = true;
        SimcmpNotHeld nh[STEPS * MAXN];
        int nnh = 0;
        int32_t informed[STEPS], crit[STEPS];
        uint64_t sbytes[STEPS];
        int nsteps = 1 + (int)rnd(STEPS);
        for (int st = 0; st < nsteps; st++) {
            sched_step(s);
            memcpy(start, have, sizeof have);
            SchedAffine b[MAXB];
            int nb = 1 + (int)rnd(MAXB);
            bool apart = rnd(5) != 0;
            for (int q = 0; q < nb; q++) {
                int32_t len = (int32_t)rnd(4);   /* (0: dropped) */
                int32_t sv = (int32_t)rnd((uint32_t)N), dv = (int32_t)rnd((uint32_t)N);
                if (sv + len > N)
                    len = N - sv;
                if (dv + len > N)
                    len = N - dv;
                if (sv == dv)
                    len = 0;
                /* apart: no node in two source runs, none in two destination runs (a node
                 * may send and receive: relays, which must not pass) */
                for (int k = 0; apart && k < q && len > 0; k++)
                    if (b[k].len > 0 &&
                        ((sv < b[k].src + b[k].len && b[k].src < sv + len) ||
                         (dv < b[k].dst + b[k].len && b[k].dst < dv + len)))
                        len = 0;
                uint32_t lo = rnd(CH), hi = lo + 1 + rnd(CH - lo);
                if (rnd(3) == 0) {   /* a chunk the source holds, if any */
                    lo = 0;
                    while (lo + 1 < CH && !start[sv][lo])
                        lo++;
                    hi = lo + 1;
                }
                b[q] = (SchedAffine){ sv, dv, len, { lo, hi } };
            }
            assert_true(sched_send_affine(s, b, nb));
            if (rnd(6) == 0)
                assert_true(sched_local(s, (int32_t)rnd((uint32_t)N), 64 + rnd(100)));
            /* the reference */
            int64_t x = 0;
            crit[st] = -1;
            sbytes[st] = 0;
            uint64_t most = 0;
            for (int q = 0; q < nb; q++)
                for (int32_t k = 0; k < b[q].len; k++, x++) {
                    int32_t u = b[q].src + k, v = b[q].dst + k;
                    for (uint32_t c = b[q].r.lo; c < b[q].r.hi; c++)
                        if (!start[u][c]) {
                            nh[nnh].step = st, nh[nnh].node = u, nh[nnh].x = x;
                            nh[nnh].chunk = c;
                            nnh++;
                            break;
                        }
                    for (uint32_t c = b[q].r.lo; c < b[q].r.hi; c++)
                        have[v][c] = true;
                    uint64_t by = b[q].r.hi * bytes / CH - b[q].r.lo * bytes / CH;
                    sbytes[st] += by;
                    if (by > most || crit[st] < 0)
                        most = by, crit[st] = u;
                }
            informed[st] = 0;
            for (int32_t v = 0; v < N; v++) {
                bool any = false;
                for (uint32_t c = 0; c < CH; c++)
                    any = any || have[v][c];
                informed[st] += any;
            }
        }
        assert_null(sched_error(s));
        CostParams p;
        int m = (int)(seed % 5);
        cost_defaults(&p, m <= 2 ? COST_SEIDEL : COST_POSTAL);
        if (m <= 2)
            p.nu = m;
        if (m == 4)
            p.duplex = !p.duplex;
        Sim *aff, *gen;
        int64_t blocks;
        run_both(s, &p, &aff, &gen, &blocks);
        simcmp_runs(aff, gen);
        taken += blocks;
        declined += sim_totals(aff)->nsteps - blocks;
        /* against the bitmaps */
        simcmp_not_held(aff, nh, nnh);
        for (int st = 0; st < nsteps; st++) {
            const SimStep *o = sim_step(aff, st);
            assert_int_equal(o->informed, informed[st]);
            assert_int_equal(o->bytes, sbytes[st]);
            /* postal: the first transfer of the most bytes (with no transfer, none) */
            if (p.model == COST_POSTAL && o->ntransfers > 0)
                assert_int_equal(o->critical_node, crit[st]);
        }
        for (int32_t v = 0; v < N; v++)
            for (uint32_t c = 0; c < CH; c++)
                assert_int_equal(sim_holds(aff, v, c), have[v][c]);
        sim_free(aff);
        sim_free(gen);
        sched_free(s);
        net_free(net);
    }
    /* both replays were exercised */
    assert_true(taken > 200);
    assert_true(declined > 50);
}

/* The schedule's transfers are the blocks' (blocks of length 0 left out), in order; the step
 * is one affine rule; wrong blocks fail the schedule, naming the transfer. */
static void test_affine_sched(void **state)
{
    (void)state;
    Net *net = net_parse("full:10", NULL, 0);
    Sched *s = sched_new(net, 4, 400);
    sched_give(s, 0, 0, 4);
    sched_step(s);
    SchedAffine b[3] = { { 0, 5, 2, { 1, 3 } }, { 7, 9, 0, { 0, 1 } }, { 3, 1, 3, { 0, 4 } } };
    assert_true(sched_send_affine(s, b, 3));
    assert_int_equal(sched_ntransfers(s, 0), 5);
    const int32_t want[5][2] = { { 0, 5 }, { 1, 6 }, { 3, 1 }, { 4, 2 }, { 5, 3 } };
    for (int i = 0; i < 5; i++) {
        SchedTransfer t;
        sched_transfer(s, 0, i, &t);
        assert_int_equal(t.src, want[i][0]);
        assert_int_equal(t.dst, want[i][1]);
        assert_int_equal(t.nranges, 1);
        assert_int_equal(t.ranges[0].lo, i < 2 ? 1 : 0);
        assert_int_equal(t.ranges[0].hi, i < 2 ? 3 : 4);
    }
    const SchedAffine *g;
    int64_t nb, n;
    assert_true(sched_step_affine(s, 0, &g, &nb, &n));
    assert_int_equal(nb, 2);
    assert_int_equal(n, 5);
    assert_int_equal(g[1].src, 3);
    sched_step(s);   /* a stored transfer too: not an affine step */
    assert_true(sched_send_affine(s, b, 1));
    assert_true(sched_send_range(s, 2, 3, 0, 1));
    assert_false(sched_step_affine(s, 1, &g, &nb, &n));
    assert_false(sched_step_affine(s, 5, &g, &nb, &n));
    assert_null(sched_error(s));
    sched_free(s);
    /* wrong blocks */
    const SchedAffine bad[] = {
        { 2, 2, 1, { 0, 1 } },     /* to itself */
        { 8, 0, 3, { 0, 1 } },     /* past the last node */
        { 0, 8, 3, { 0, 1 } },
        { -1, 3, 1, { 0, 1 } },
        { 0, 1, 1, { 2, 5 } },     /* past the last chunk */
        { 0, 1, 1, { 2, 2 } },     /* empty */
        { 0, 1, -1, { 0, 1 } },    /* negative length */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = sched_new(net, 4, 400);
        sched_step(s);
        SchedAffine two[2] = { { 0, 1, 1, { 0, 1 } }, bad[i] };
        assert_false(sched_send_affine(s, two, 2));
        assert_non_null(sched_error(s));
        sched_free(s);
    }
    net_free(net);
}

/* A tree built with and without affine blocks: the same transfers, step by step. */
static void same_scheds(const Sched *a, const Sched *b)
{
    assert_int_equal(sched_nsteps(a), sched_nsteps(b));
    for (int32_t st = 0; st < sched_nsteps(a); st++) {
        assert_string_equal(sched_step_label(a, st), sched_step_label(b, st));
        assert_int_equal(sched_ntransfers(a, st), sched_ntransfers(b, st));
        for (int64_t i = 0; i < sched_ntransfers(a, st); i++)
            xfercmp_same(a, b, st, i);
    }
}

static Sched *build(const char *netspec, const char *algo, int32_t source, const char *r,
                    const char *sp, Net **net, bool affine)
{
    *net = net_parse(netspec, NULL, 0);
    assert_non_null(*net);
    const AlgoDef *d = algo_find(algo, *net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.bytes = 3000;
    a.source = source;
    char err[200];
    if (r)
        assert_int_equal(algo_args_set(&a, d, "r", r, err, sizeof err), 0);
    assert_int_equal(algo_args_set(&a, d, "s", sp, err, sizeof err), 0);
    bool saved = ftree_affine;
    ftree_affine = affine;
    Sched *s = algo_build(d, *net, &a, err, sizeof err);
    ftree_affine = saved;
    assert_non_null(s);
    return s;
}

/* fractional, bintree and bintree-direct on full nets, arrays and rings, from every kind of
 * source (the runs wrap past the last node): as affine blocks and as the general rule, the
 * same schedule and, simulated under postal and seidel, the same run; the affine replay taken
 * on full:P (every step of a valid tree). */
static void test_affine_ftree(void **state)
{
    (void)state;
    const char *nets[] = { "full:2", "full:3", "full:9", "full:40", "full:121", "array:17",
                           "ring:30" };
    const struct { const char *algo, *r; } algos[] = {
        { "fractional", "2" }, { "fractional", "3" }, { "fractional", "5" },
        { "bintree", NULL }, { "bintree-direct", NULL },
    };
    const char *ss[] = { "1", "4", "7" };
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++)
        for (size_t ai = 0; ai < sizeof algos / sizeof algos[0]; ai++)
            for (size_t si = 0; si < 3; si++) {
                Net *n1, *n2;
                int32_t P = 0;
                sscanf(strchr(nets[ni], ':') + 1, "%d", &P);
                int32_t src = (int32_t)((ni * 7 + ai * 3 + si * 5) % (size_t)P);
                Sched *a = build(nets[ni], algos[ai].algo, src, algos[ai].r, ss[si], &n1, true);
                Sched *b = build(nets[ni], algos[ai].algo, src, algos[ai].r, ss[si], &n2, false);
                same_scheds(a, b);
                for (int m = 0; m < 3; m++) {
                    CostParams p;
                    cost_defaults(&p, m == 0 ? COST_SEIDEL : COST_POSTAL);
                    if (m == 2)
                        p.duplex = false;
                    int64_t before = sim_affine_steps;
                    Sim *x = sim_run(a, &p, 0, NULL, 0);
                    int64_t taken = sim_affine_steps - before;
                    Sim *y = sim_run(b, &p, 0, NULL, 0);
                    assert_non_null(x);
                    assert_non_null(y);
                    assert_int_equal(sim_affine_steps - before, taken);   /* not b's */
                    simcmp_runs(x, y);
                    assert_true(sim_totals(x)->verified);
                    bool full = strncmp(nets[ni], "full:", 5) == 0;
                    /* every step on full:P under duplex postal and seidel (the direct
                     * tree's nodes never send and receive at once: simplex too; on
                     * full:2 it is the simplex trees' couple, not affine blocks) */
                    bool direct = strcmp(algos[ai].algo, "bintree-direct") == 0;
                    if (full && (m < 2 || direct) && !(direct && P == 2))
                        assert_int_equal(taken, sim_totals(x)->nsteps);
                    if (!full)
                        assert_int_equal(taken, 0);
                    sim_free(x);
                    sim_free(y);
                }
                sched_free(a);
                sched_free(b);
                net_free(n1);
                net_free(n2);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_affine_sched),
        cmocka_unit_test(test_affine_random),
        cmocka_unit_test(test_affine_ftree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
