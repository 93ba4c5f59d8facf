/* test_sim_shape.c — sim_step_shape (the narration's facts about a step's routes) equals what
 * reading every transfer back with sched_transfer gives, for every step of every built-in
 * algorithm that runs on a sweep of nets (arrays, rings, meshes, tori, 3-D, full; default and
 * explicit routes), in order and then asked again in random order (it keeps the last few). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sim.h"
#include "quicksearch.h"

static void reference(const Sched *s, int32_t st, SimShape *r)
{
    const Net *net = sched_net(s);
    *r = (SimShape){ 0, -1, 0, false, INT64_MAX, 0 };
    int64_t nt = sched_ntransfers(s, st);
    char *sends = calloc((size_t)net_size(net), 1);
    assert_non_null(sends);
    for (int64_t i = 0; i < nt; i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        sends[t.src] = 1;
        if (t.nseg > 0) r->dirs |= 1u << (2 * t.seg[0].dim + (t.seg[0].dir > 0));
        if (t.nseg > 1) r->turns = true;
        if (t.len < r->hmin) r->hmin = t.len;
        if (t.len > r->hmax) r->hmax = t.len;
    }
    for (int32_t v = 0; v < net_size(net); v++)
        if (sends[v]) {
            r->senders++;
            r->one_sender = v;
        }
    if (nt == 0) r->hmin = 0;
    free(sends);
}

static void shape_sweep(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:16", "array:13", "ring:12", "mesh:8x8",
                                        "mesh:6x5", "torus:5x5", "torus:8x8", "mesh:4x4x4",
                                        "torus:4x4x4", "full:8", "mesh:4x16", "torus:4x8" };
    int checked = 0, turning = 0;
    for (size_t ni = 0; ni < sizeof nets / sizeof *nets; ni++) {
        Net *net = net_parse(nets[ni], NULL, 0);
        assert_non_null(net);
        for (size_t ai = 0; ai < algo_count(); ai++) {
            const AlgoDef *d = algo_at(ai);
            AlgoArgs a;
            algo_args_init(&a, d);
            quick_search(d, &a);
            char err[256];
            if (!algo_check(d, net, &a, err, sizeof err)) continue;
            Sched *s = algo_build(d, net, &a, err, sizeof err);
            if (!s) continue;
            CostParams p;
            cost_defaults(&p, COST_SEIDEL);
            Sim *sim = sim_run(s, &p, 0, err, sizeof err);
            assert_non_null(sim);
            for (int32_t st = 0; st < sched_nsteps(s); st++) {
                SimShape got, want;
                assert_true(sim_step_shape(sim, st, &got));
                reference(s, st, &want);
                if (got.senders != want.senders || got.one_sender != want.one_sender ||
                    got.dirs != want.dirs || got.turns != want.turns ||
                    got.hmin != want.hmin || got.hmax != want.hmax)
                    fail_msg("%s on %s step %d: senders %lld/%lld one %d/%d dirs %x/%x turns "
                             "%d/%d hops %lld..%lld / %lld..%lld", d->name, nets[ni], st,
                             (long long)got.senders, (long long)want.senders, got.one_sender,
                             want.one_sender, got.dirs, want.dirs, got.turns, want.turns,
                             (long long)got.hmin, (long long)got.hmax, (long long)want.hmin,
                             (long long)want.hmax);
                checked++;
                turning += got.turns;
            }
            /* asked again in any order (back and forth, as the TUI steps): the shapes it
             * keeps are still each step's own */
            int32_t ns = sched_nsteps(s);
            for (int q = 0; ns > 0 && q < 3 * ns + 8; q++) {
                int32_t st = (int32_t)(rand() % ns);
                if (q % 5 == 4) st = (st + 64) % ns;   /* the same slot of the memo, another step */
                SimShape got, want;
                assert_true(sim_step_shape(sim, st, &got));
                reference(s, st, &want);
                assert_true(got.senders == want.senders && got.one_sender == want.one_sender &&
                            got.dirs == want.dirs && got.turns == want.turns &&
                            got.hmin == want.hmin && got.hmax == want.hmax);
            }
            SimShape x;
            assert_false(sim_step_shape(sim, sched_nsteps(s), &x));
            assert_false(sim_step_shape(sim, -1, &x));
            sim_free(sim);
            sched_free(s);
        }
        net_free(net);
    }
    assert_true(checked > 200);
    assert_true(turning > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(shape_sweep) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
