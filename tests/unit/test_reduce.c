/* test_reduce.c — reductions (reduce.h): every built-in broadcast, run backwards, on a few
 * nets and sources, ends with every contribution at the root exactly once, in as many steps as
 * the broadcast; a hand-made reduction that combines a contribution twice, or loses one, fails
 * with its step, node, chunk and contribution named (exactly and, on a big net, hashed);
 * combining costs gamma per byte received by the busiest node of a step. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/partials.h"
#include "../../src/engine/reduce.h"
#include "../../src/engine/sim.h"
#include "quicksearch.h"
#include "mknet.h"

static void test_builtins_reversed(void **state)
{
    (void)state;
    const char *nets[] = { "array:16", "array:13", "mesh:8x8", "mesh:6x6", "ring:10", "full:37",
                           "torus:4x5" };
    int checked = 0;
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        Net *net = mknet(nets[i]);
        for (size_t k = 0; k < algo_count(); k++) {
            const AlgoDef *d = algo_at(k);
            if (!(d->nets & (1u << net_kind(net))))
                continue;
            for (int32_t src = 0; src < net_size(net); src += 11) {
                AlgoArgs a;
                algo_args_init(&a, d);
                quick_search(d, &a);
                a.source = src;
                a.bytes = 4096;
                char err[256];
                Sched *b = algo_build(d, net, &a, err, sizeof err);
                if (!b)
                    continue;   /* e.g. a power-of-two algorithm refusing a size */
                int64_t dropped = -1;
                Sched *r = reduce_reverse(b, &dropped, err, sizeof err);
                assert_non_null(r);
                assert_true(dropped >= 0);
                assert_int_equal(sched_nsteps(r), sched_nsteps(b));
                Reduce *rd = reduce_run(r, src, 0.5, err, sizeof err);
                assert_non_null(rd);
                assert_true(reduce_exact(rd));
                if (!reduce_verified(rd)) {
                    char t[256];
                    fail_msg("%s on %s from %d: %s", d->name, nets[i], (int)src,
                             reduce_violation_text(rd, reduce_violation(rd, 0), t, sizeof t));
                }
                /* the partials shown: the root ends with every contribution to every chunk */
                Partials *pt = partials_new(r, err, sizeof err);
                assert_non_null(pt);
                assert_int_equal(partials_count(pt, sched_nsteps(r), src),
                                 (int64_t)net_size(net) * sched_nchunks(r));
                assert_int_equal(partials_count(pt, 0, src), sched_nchunks(r));
                partials_free(pt);
                /* the reversed schedule is valid under the model the broadcast was */
                CostParams p;
                cost_defaults(&p, COST_SEIDEL);
                Sim *sim = sim_run(r, &p, 0, err, sizeof err);
                assert_non_null(sim);
                assert_true(sim_totals(sim)->verified);
                sim_free(sim);
                reduce_free(rd);
                sched_free(r);
                sched_free(b);
                checked++;
            }
        }
        net_free(net);
    }
    assert_true(checked > 60);
}

/* 0 <- 1 <- 2 <- 3 on full:4, two chunks; `bad` 1: node 2 sends chunk 1 to node 1 twice (its
 * contribution and 3's doubled); 2: node 3 never sends chunk 0 (its contribution lost). */
static Sched *line(const Net *net, int bad)
{
    Sched *s = sched_new(net, 2, 200);
    for (int v = 0; v < 4; v++)
        assert_true(sched_give(s, v, 0, 2));
    assert_true(sched_at(s, 0));
    if (bad == 2)
        assert_true(sched_send_range(s, 3, 2, 1, 2));
    else
        assert_true(sched_send_range(s, 3, 2, 0, 2));
    assert_true(sched_at(s, 1));
    assert_true(sched_send_range(s, 2, 1, 0, 2));
    assert_true(sched_at(s, 2));
    assert_true(sched_send_range(s, 1, 0, 0, 2));
    if (bad == 1) {
        assert_true(sched_at(s, 3));
        assert_true(sched_send_range(s, 2, 1, 1, 2));
        assert_true(sched_at(s, 4));
        assert_true(sched_send_range(s, 1, 0, 1, 2));
    }
    return s;
}

static void test_violations_named(void **state)
{
    (void)state;
    Net *net = mknet("full:4");
    char err[256], t[256];
    Sched *s = line(net, 0);
    Reduce *rd = reduce_run(s, 0, 0.25, err, sizeof err);
    assert_non_null(rd);
    assert_true(reduce_verified(rd));
    /* every step one node receives 200 bytes (both chunks) */
    assert_float_equal(reduce_combine_cost(rd), 3 * 0.25 * 200, 1e-9);
    assert_float_equal(reduce_step_combine(rd, 1), 50, 1e-9);
    reduce_free(rd);
    sched_free(s);

    s = line(net, 1);
    rd = reduce_run(s, 0, 0, err, sizeof err);
    assert_false(reduce_verified(rd));
    const ReduceViolation *v = reduce_violation(rd, 0);
    assert_non_null(v);
    assert_true(v->doubled);
    assert_int_equal(v->step, 3);
    assert_int_equal(v->node, 1);
    assert_int_equal(v->chunk, 1);
    assert_int_equal(v->contribution, 2);
    reduce_violation_text(rd, v, t, sizeof t);
    assert_string_equal(t, "step 4: node 1 combines node 2's contribution to chunk 1 a second "
                           "time");
    reduce_free(rd);
    sched_free(s);

    s = line(net, 2);
    rd = reduce_run(s, 0, 0, err, sizeof err);
    assert_false(reduce_verified(rd));
    assert_int_equal(reduce_violation_count(rd), 1);
    v = reduce_violation(rd, 0);
    assert_false(v->doubled);
    assert_int_equal(v->step, 3);   /* the end */
    assert_int_equal(v->contribution, 3);
    assert_int_equal(v->chunk, 0);
    reduce_violation_text(rd, v, t, sizeof t);
    assert_int_equal(v->reached, -1);
    assert_string_equal(t, "end (after step 3): the root 0 lacks node 3's contribution to chunk "
                           "0: node 3 never sent it on");
    reduce_free(rd);
    sched_free(s);
    /* 3 (both chunks) -> 2 -> 1 (chunk 1 only) -> 0: 2's and 3's contributions to chunk 0 got as
     * far as node 2 */
    s = sched_new(net, 2, 200);
    for (int q = 0; q < 4; q++)
        assert_true(sched_give(s, q, 0, 2));
    assert_true(sched_at(s, 0) && sched_send_range(s, 3, 2, 0, 2));
    assert_true(sched_at(s, 1) && sched_send_range(s, 2, 1, 1, 2));
    assert_true(sched_at(s, 2) && sched_send_range(s, 1, 0, 0, 2));
    rd = reduce_run(s, 0, 0, err, sizeof err);
    assert_int_equal(reduce_violation_count(rd), 2);
    v = reduce_violation(rd, 1);
    assert_int_equal(v->contribution, 3);
    assert_int_equal(v->reached, 2);
    reduce_violation_text(rd, v, t, sizeof t);
    assert_string_equal(t, "end (after step 3): the root 0 lacks node 3's contribution to chunk "
                           "0: it got as far as node 2");
    reduce_free(rd);
    sched_free(s);
    assert_null(reduce_run(s = line(net, 0), 9, 0, err, sizeof err));
    assert_string_equal(err, "reduce: root 9 is outside full:4");
    sched_free(s);
    net_free(net);
}

/* On a net too big to track contributors one by one, counts and hashed sums still catch a
 * wrong root partial. */
/* partials.h: each node starts with its own (a count per chunk), a transfer adds the
 * sender's count as the step began; a doubled contribution is counted twice. */
static void test_partials(void **state)
{
    (void)state;
    Net *net = mknet("full:4");
    char err[256];
    Sched *s = line(net, 0);   /* 0 <- 1 <- 2 <- 3, two chunks */
    Partials *p = partials_new(s, err, sizeof err);
    assert_non_null(p);
    assert_int_equal(partials_full(p), 8);
    static const int64_t want[4][4] = { { 2, 2, 2, 2 }, { 2, 2, 4, 2 }, { 2, 6, 4, 2 },
                                        { 8, 6, 4, 2 } };
    for (int32_t pos = 0; pos <= 3; pos++)
        for (int32_t v = 0; v < 4; v++)
            assert_int_equal(partials_count(p, pos, v), want[pos][v]);
    assert_int_equal(partials_count(p, 99, 0), 8);   /* clamped */
    assert_int_equal(partials_count(p, 0, 4), 0);    /* outside the net */
    partials_free(p);
    sched_free(s);
    s = line(net, 1);   /* chunk 1 of 2 and 3 sent on twice: counted twice */
    p = partials_new(s, err, sizeof err);
    assert_int_equal(partials_count(p, sched_nsteps(s), 0), 13);   /* c1: 4, then 1 of 5 */
    partials_free(p);
    sched_free(s);
    /* one step: 3 -> 2 and 2 -> 1 at once; 1 gets 2's partial as the step began */
    s = sched_new(net, 1, 100);
    for (int v = 0; v < 4; v++)
        assert_true(sched_give(s, v, 0, 1));
    assert_true(sched_at(s, 0));
    assert_true(sched_send_range(s, 3, 2, 0, 1));
    assert_true(sched_send_range(s, 2, 1, 0, 1));
    p = partials_new(s, err, sizeof err);
    assert_int_equal(partials_count(p, 1, 1), 2);
    assert_int_equal(partials_count(p, 1, 2), 2);
    partials_free(p);
    sched_free(s);
    net_free(net);
}

static void test_hashed(void **state)
{
    (void)state;
    Net *net = mknet("full:9000");
    const AlgoDef *d = algo_find("bintree", net);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.bytes = 4096;
    char err[256], t[256];
    Sched *b = algo_build(d, net, &a, err, sizeof err);
    assert_non_null(b);
    Sched *r = reduce_reverse(b, NULL, err, sizeof err);
    assert_non_null(r);
    Reduce *rd = reduce_run(r, 0, 0, err, sizeof err);
    assert_false(reduce_exact(rd));
    assert_true(reduce_verified(rd));
    reduce_free(rd);
    /* the broadcast itself, read as a reduction, gets nothing to the root */
    rd = reduce_run(b, 0, 0, err, sizeof err);
    assert_false(reduce_verified(rd));
    reduce_violation_text(rd, reduce_violation(rd, 0), t, sizeof t);
    assert_non_null(strstr(t, "end: the root 0's partial of chunk 0 combines 1 contributions"));
    reduce_free(rd);
    sched_free(r);
    sched_free(b);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_violations_named),
        cmocka_unit_test(test_builtins_reversed),
        cmocka_unit_test(test_hashed),
        cmocka_unit_test(test_partials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
