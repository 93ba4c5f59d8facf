/* test_asyncview.c — an asynchronous run seen moment by moment (engine asyncview.h): the
 * moments are 0 and every start and end; at a moment a transfer that started and has not
 * ended is in flight (its links loaded, its destination receiving), one that ended has
 * delivered, one waiting for an arc is neither; a small schedule, by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/engine/asyncview.h"

static void test_moments(void **state)
{
    (void)state;
    char err[200];
    Net *n = net_parse("array:4", err, sizeof err);
    Sched *s = sched_new(n, 2, 20);   /* two chunks of 10 bytes */
    sched_give(s, 0, 0, 2);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 2);   /* [0, 1+20) with alpha 1, tau 1 */
    sched_step(s);
    sched_send_range(s, 1, 2, 0, 1);   /* starts at 21 (1 holds it), 10 bytes: ends 32 */
    sched_send_range(s, 0, 3, 1, 2);   /* needs the arc 1->2 too: waits for it, [32, 43) */
    CostParams p;
    cost_defaults(&p, COST_CIRCUIT);
    p.alpha = 1, p.delta = 0, p.tau = 1;
    SimAsync *as = sim_async_run(s, &p, SIM_ASYNC_EVENTS, err, sizeof err);
    assert_non_null(as);
    AsyncView *v = asyncview_new(s, as, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(asyncview_ntimes(v), 4);   /* 0, 21, 32, 43 */
    assert_true(asyncview_time(v, 1) == 21 && asyncview_time(v, 2) == 32 &&
                asyncview_time(v, 3) == 43);
    /* t = 0: 0 -> 1 in flight; 1 holds nothing yet */
    assert_int_equal(asyncview_pos(v), 0);
    assert_int_equal(asyncview_nflight(v), 1);
    assert_int_equal(asyncview_nstarting(v), 1);
    assert_int_equal(asyncview_link_load(v, net_link(n, 0, 0, 1)), 1);
    assert_int_equal(asyncview_receiving(v, 1), 1);
    assert_int_equal(asyncview_held(v, 1), 0);
    assert_int_equal(asyncview_held(v, 0), 2);
    /* t = 21: 0 -> 1 delivered; 1 -> 2 in flight, 0 -> 3 still waiting for the arc 1->2 */
    assert_true(asyncview_seek(v, 1));
    assert_int_equal(asyncview_nflight(v), 1);
    assert_int_equal(asyncview_nending(v), 1);
    assert_int_equal(asyncview_nstarting(v), 1);
    assert_int_equal(asyncview_held(v, 1), 2);
    assert_int_equal(asyncview_link_load(v, net_link(n, 1, 0, 1)), 1);
    assert_int_equal(asyncview_link_load(v, net_link(n, 0, 0, 1)), 0);
    assert_int_equal(asyncview_receiving(v, 3), 0);
    /* t = 32: 1 -> 2 delivered, 0 -> 3 up over 0->1, 1->2, 2->3 */
    assert_true(asyncview_seek(v, 2));
    assert_int_equal(asyncview_nflight(v), 1);
    assert_int_equal(asyncview_flight(v, 0)->index, 1);
    assert_int_equal(asyncview_link_load(v, net_link(n, 0, 0, 1)), 1);
    assert_int_equal(asyncview_link_load(v, net_link(n, 2, 0, 1)), 1);
    assert_int_equal(asyncview_receiving(v, 3), 1);
    assert_false(asyncview_holds(v, 3, 1));
    assert_true(asyncview_holds(v, 2, 0));
    /* the end: everything delivered, nothing in flight */
    assert_true(asyncview_seek(v, 99));
    assert_int_equal(asyncview_pos(v), 3);
    assert_int_equal(asyncview_nflight(v), 0);
    assert_int_equal(asyncview_link_load(v, net_link(n, 1, 0, 1)), 0);
    assert_true(asyncview_holds(v, 3, 1));
    assert_int_equal(asyncview_held(v, 2), 1);
    assert_null(asyncview_flight(v, 0));
    /* and back: the moment 21 again, the same */
    assert_true(asyncview_seek(v, 1));
    assert_int_equal(asyncview_link_load(v, net_link(n, 1, 0, 1)), 1);
    assert_int_equal(asyncview_flight(v, 0)->step, 1);
    asyncview_free(v);
    sim_async_free(as);
    sched_free(s);
    net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
