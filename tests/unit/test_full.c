/* test_full.c — the net full:P (Sanders & Sibeyn's machine): parsing, one-hop routes, the
 * private link of every ordered pair, and the simulator on it: link load 1 whatever the
 * transfers unless two join the same pair in one step (then the pair's link is overloaded under
 * the circuit model, named by its ends), TCD = transfers, and the postal port rule (duplex and
 * simplex) still named per node. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim.h"

static void test_full_net(void **state)
{
    (void)state;
    char err[200];
    Net *n = net_parse("full:64", err, sizeof err);
    assert_non_null(n);
    assert_int_equal(net_kind(n), NET_FULL);
    assert_string_equal(net_spec(n), "full:64");
    assert_int_equal(net_size(n), 64);
    assert_int_equal(net_ndim(n), 1);
    assert_int_equal(net_nlinks(n), 64 * 64);
    assert_int_equal(net_distance(n, 0, 63), 1);
    assert_int_equal(net_distance(n, 5, 5), 0);
    NetSeg seg[NET_MAXDIM];
    assert_int_equal(net_route(n, 3, 40, seg), 1);
    assert_int_equal(seg[0].len, 1);
    assert_int_equal(net_route(n, 40, 3, seg), 1);
    assert_int_equal(seg[0].dir, -1);
    /* explicit routes are refused: a full net has no path to follow */
    assert_int_equal(net_route_end(n, 3, seg, 1), -1);
    int64_t l = net_pair_link(n, 7, 9);
    assert_int_equal(l, 7 * 64 + 9);
    int32_t tail;
    int dim, dir;
    net_link_info(n, l, &tail, &dim, &dir);
    assert_int_equal(tail, 7);
    assert_int_equal(net_link_head(n, l), 9);
    assert_int_equal(net_pair_link(n, 7, 7), -1);
    assert_int_equal(net_link(n, 7, 0, 1), -1);
    net_free(n);

    assert_null(net_parse("full:4x4", err, sizeof err));
    assert_string_equal(err, "bad net 'full:4x4': a full net is full:P (P processors)");
    assert_null(net_parse("full:1", err, sizeof err));
    assert_null(net_parse("full:0", err, sizeof err));
    Net *big = net_parse("full:1048576", err, sizeof err);
    assert_non_null(big);
    assert_int_equal(net_nlinks(big), (int64_t)1 << 40);
    net_free(big);
}

static Sim *simulate(const Sched *s, CostModel m, int duplex)
{
    CostParams p;
    cost_defaults(&p, m);
    p.duplex = duplex;
    char err[200] = "";
    Sim *sim = sim_run(s, &p, SIM_HISTORY, err, sizeof err);
    assert_non_null(sim);
    return sim;
}

static void test_full_sim(void **state)
{
    (void)state;
    char err[200];
    Net *n = net_parse("full:8", err, sizeof err);
    assert_non_null(n);
    /* a binomial tree: node 0 -> 4, then 0 -> 2, 4 -> 6, then every node to the next; far
     * apart ids cost one hop each */
    Sched *s = sched_new(n, 1, 64);
    assert_true(sched_give(s, 0, 0, 1));
    assert_true(sched_at(s, 0));
    assert_true(sched_send_range(s, 0, 4, 0, 1));
    assert_true(sched_at(s, 1));
    assert_true(sched_send_range(s, 0, 2, 0, 1));
    assert_true(sched_send_range(s, 4, 6, 0, 1));
    assert_true(sched_at(s, 2));
    for (int u = 0; u < 8; u += 2)
        assert_true(sched_send_range(s, u, u + 1, 0, 1));
    Sim *sim = simulate(s, COST_CIRCUIT, 1);
    const SimTotals *t = sim_totals(sim);
    assert_true(t->verified);
    assert_true(t->valid);
    assert_int_equal(t->tcd, 7);
    assert_int_equal(t->max_link_load, 1);
    assert_int_equal(sim_link_load(sim, 1, net_pair_link(n, 4, 6)), 1);
    assert_int_equal(sim_link_load(sim, 1, net_pair_link(n, 6, 4)), 0);
    assert_null(sim_link_loads(sim, 1));
    SimTransferInfo ti;
    sim_transfer_info(sim, 2, 3, &ti);
    assert_int_equal(ti.load, 1);
    sim_free(sim);
    sched_free(s);

    /* two transfers 0 -> 5 in one step: the pair's link carries 2 (a circuit violation naming
     * the pair); 0 -> 3 beside them does not share it.  Under postal it is node 0's port. */
    s = sched_new(n, 2, 64);
    assert_true(sched_give(s, 0, 0, 2));
    assert_true(sched_at(s, 0));
    assert_true(sched_send_range(s, 0, 5, 0, 1));
    assert_true(sched_send_range(s, 0, 3, 0, 1));
    assert_true(sched_send_range(s, 0, 5, 1, 2));
    sim = simulate(s, COST_CIRCUIT, 1);
    t = sim_totals(sim);
    assert_int_equal(t->max_link_load, 2);
    assert_int_equal(t->link_overloads, 1);
    assert_false(t->valid);
    char buf[200];
    const SimViolation *v = NULL;
    for (size_t i = 0; i < sim_nviolations(sim); i++)
        if (sim_violation(sim, i)->kind == SIM_V_LINK)
            v = sim_violation(sim, i);
    assert_non_null(v);
    assert_int_equal(v->link, net_pair_link(n, 0, 5));
    sim_violation_text(sim, v, buf, sizeof buf);
    assert_non_null(strstr(buf, "link 0->5 carries 2 circuits"));
    assert_int_equal(sim_link_load(sim, 0, net_pair_link(n, 0, 5)), 2);
    assert_int_equal(sim_link_load(sim, 0, net_pair_link(n, 0, 3)), 1);
    sim_transfer_info(sim, 0, 0, &ti);
    assert_int_equal(ti.load, 2);
    sim_transfer_info(sim, 0, 1, &ti);
    assert_int_equal(ti.load, 1);
    sim_free(sim);
    sim = simulate(s, COST_POSTAL, 1);
    t = sim_totals(sim);
    assert_false(t->valid);
    assert_int_equal(t->port_conflicts, 3);   /* node 0 sends 3 times, node 5 receives twice */
    sim_free(sim);
    sched_free(s);

    /* simplex: a node that receives and sends in one step is named; duplex allows it */
    s = sched_new(n, 2, 64);
    assert_true(sched_give(s, 0, 0, 2));
    assert_true(sched_at(s, 0));
    assert_true(sched_send_range(s, 0, 1, 0, 1));
    assert_true(sched_at(s, 1));
    assert_true(sched_send_range(s, 0, 1, 1, 2));
    assert_true(sched_send_range(s, 1, 2, 0, 1));
    sim = simulate(s, COST_POSTAL, 1);
    for (size_t i = 0; i < sim_nviolations(sim); i++)   /* only nodes 3.. lacking chunks */
        assert_int_equal(sim_violation(sim, i)->kind, SIM_V_INCOMPLETE);
    sim_free(sim);
    sim = simulate(s, COST_POSTAL, 0);
    assert_false(sim_totals(sim)->valid);
    v = sim_violation(sim, 0);
    assert_non_null(v);
    assert_int_equal(v->kind, SIM_V_PORT);
    assert_int_equal(v->node, 1);
    sim_violation_text(sim, v, buf, sizeof buf);
    assert_non_null(strstr(buf, "simplex"));
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_net),
        cmocka_unit_test(test_full_sim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
