/* test_sim.c — the simulator on hand-made schedules: verification (NOT_HELD, INCOMPLETE),
 * costs under every model (Seidel's contention and one-port serialisation, postal ports,
 * circuit arc-disjointness, store-and-forward), torus wrap-around loads, history and seeking,
 * and the two ways of counting link loads checked against a naive walk. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
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


#define EPS 1e-9
#define A 0.08
#define B 75.0

static CostParams model(CostModel m)
{
    CostParams p;
    cost_defaults(&p, m);
    return p;
}

static Sim *run(const Sched *s, CostModel m, unsigned flags)
{
    CostParams p = model(m);
    char err[200] = "";
    Sim *sim = sim_run(s, &p, flags, err, sizeof err);
    assert_non_null(sim);
    return sim;
}

static char *vtext(const Sim *sim, size_t i, char *buf, size_t len)
{
    return sim_violation_text(sim, sim_violation(sim, i), buf, len);
}

/* ST on array:8 from node 0, by hand: 0->4; 0->2, 4->6; 0->1, 2->3, 4->5, 6->7. */
static Sched *st_array8(const Net *n, uint64_t bytes)
{
    Sched *s = sched_new(n, 1, bytes);
    sched_give(s, 0, 0, 1);
    for (int h = 4; h >= 1; h /= 2) {
        sched_step(s);
        for (int v = 0; v < 8; v += 2 * h)
            sched_send_range(s, v, v + h, 0, 1);
    }
    return s;
}

static void test_st_array8(void **state)
{
    (void)state;
    Net *n = net_parse("array:8", NULL, 0);
    Sched *s = st_array8(n, 1000);
    Sim *sim = run(s, COST_SEIDEL, 0);
    const SimTotals *t = sim_totals(sim);
    assert_int_equal(t->nsteps, 3);
    assert_true(t->verified);
    assert_true(t->valid);
    assert_int_equal(t->violations, 0);
    assert_int_equal(sim_nviolations(sim), 0);
    double step = 1000 * A + B;
    assert_double_equal(t->cost.total, 3 * step, EPS);
    assert_double_equal(t->cost.startup, 3 * B, EPS);
    assert_double_equal(t->cost.transmission, 3 * 1000 * A, EPS);
    assert_double_equal(t->cost.contention, 0, EPS);
    assert_double_equal(t->cost.permutation, 0, EPS);
    assert_int_equal(t->ntransfers, 7);
    assert_int_equal(t->tcd, 4 + 2 * 2 + 4 * 1);
    assert_int_equal(t->bytes, 7000);
    assert_int_equal(t->max_link_load, 1);
    assert_int_equal(t->link_overloads, 0);
    assert_int_equal(t->port_conflicts, 0);
    for (int i = 0; i < 3; i++) {
        const SimStep *st = sim_step(sim, i);
        assert_double_equal(st->cost.total, step, EPS);
        assert_double_equal(sim_cost_until(sim, i), (i + 1) * step, EPS);
        assert_int_equal(st->ntransfers, 1 << i);
        assert_int_equal(st->critical_node, 0);   /* ties: the first sender */
        assert_int_equal(st->informed, 2 << i);    /* the informed nodes double */
    }
    assert_int_equal(t->informed_before, 1);
    assert_null(sim_step(sim, 3));
    assert_null(sim_step(sim, -1));
    assert_double_equal(sim_cost_until(sim, -1), 0, EPS);
    assert_double_equal(sim_cost_until(sim, 99), 3 * step, EPS);
    assert_int_equal(sim_pos(sim), 3);
    for (int v = 0; v < 8; v++) {
        assert_int_equal(sim_held(sim, v), 1);
        assert_true(sim_holds(sim, v, 0));
        assert_false(sim_holds(sim, v, 1));
    }
    assert_false(sim_seek(sim, 0));   /* no history */
    assert_true(sim_seek(sim, 3));
    assert_ptr_equal(sim_sched(sim), s);
    assert_int_equal(sim_params(sim)->model, COST_SEIDEL);
    sim_free(sim);

    /* the other models on the same schedule */
    sim = run(s, COST_POSTAL, 0);
    assert_double_equal(sim_totals(sim)->cost.total, 3 * (1 + 1000), EPS);
    assert_true(sim_totals(sim)->valid);
    sim_free(sim);
    sim = run(s, COST_CIRCUIT, 0);
    assert_double_equal(sim_totals(sim)->cost.total, 3 * (1 + 1000), EPS);
    sim_free(sim);
    sim = run(s, COST_SAF, 0);
    /* d*(beta + L*tau): the longest transfer of each step, 4, 2, 1 hops */
    assert_double_equal(sim_totals(sim)->cost.total, (4 + 2 + 1) * (1 + 1000), EPS);
    assert_double_equal(sim_totals(sim)->cost.startup, 7, EPS);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static void test_not_held(void **state)
{
    (void)state;
    Net *n = net_parse("array:4", NULL, 0);
    Sched *s = sched_new(n, 4, 400);
    sched_give(s, 0, 0, 4);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 2);
    sched_send_range(s, 1, 2, 0, 1);   /* node 1 gets chunk 0 only at the end of this step */
    sched_step(s);
    sched_send_range(s, 1, 2, 0, 4);   /* holds 0-1, not 2 */
    sched_send_range(s, 0, 3, 0, 4);
    sched_send_range(s, 0, 1, 2, 4);
    Sim *sim = run(s, COST_SEIDEL, 0);
    const SimTotals *t = sim_totals(sim);
    assert_false(t->verified);
    assert_false(t->valid);
    assert_int_equal(t->not_held, 2);
    assert_int_equal(t->incomplete_nodes, 0);   /* receivers get what they were sent */
    assert_int_equal(t->informed_before, 1);
    assert_int_equal(sim_step(sim, 0)->informed, 3);   /* 1 and 2 (one receive each counted) */
    assert_int_equal(sim_step(sim, 1)->informed, 4);   /* 3; 1 and 2 received again */
    assert_int_equal(t->violations, 2);
    assert_int_equal(sim_nviolations(sim), 2);
    const SimViolation *v = sim_violation(sim, 0);
    assert_int_equal(v->kind, SIM_V_NOT_HELD);
    assert_int_equal(v->step, 0);
    assert_int_equal(v->node, 1);
    assert_int_equal(v->chunk, 0);
    assert_int_equal(v->transfer, 1);
    assert_int_equal(v->link, -1);
    v = sim_violation(sim, 1);
    assert_int_equal(v->step, 1);
    assert_int_equal(v->node, 1);
    assert_int_equal(v->chunk, 2);
    assert_int_equal(v->transfer, 0);
    assert_null(sim_violation(sim, 2));
    char buf[128];
    assert_string_equal(vtext(sim, 0, buf, sizeof buf),
                        "step 1: node 1 sends chunk 0 it does not hold");
    assert_string_equal(vtext(sim, 1, buf, sizeof buf),
                        "step 2: node 1 sends chunk 2 it does not hold");
    assert_int_equal(sim_step(sim, 0)->violations, 1);
    assert_int_equal(sim_step(sim, 1)->violations, 1);
    char small[10];
    vtext(sim, 0, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_string_equal(sim_violation_text(sim, NULL, buf, sizeof buf), "");
    sim_free(sim);
    sched_free(s);

    /* on a mesh nodes are named by coordinates */
    Net *m = net_parse("mesh:2x3", NULL, 0);
    s = sched_new(m, 1, 1);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    sched_send_range(s, 4, 5, 0, 1);
    sim = run(s, COST_SEIDEL, 0);
    assert_string_equal(vtext(sim, 0, buf, sizeof buf),
                        "step 1: node (1,1) sends chunk 0 it does not hold");
    sim_free(sim);
    sched_free(s);
    net_free(m);
    net_free(n);
}

static void test_incomplete(void **state)
{
    (void)state;
    Net *n = net_parse("array:8", NULL, 0);
    Sched *s = sched_new(n, 4, 64);
    sched_give(s, 0, 0, 4);
    sched_step(s);
    sched_send_range(s, 0, 4, 0, 4);
    sched_step(s);
    sched_send_range(s, 0, 2, 0, 4);
    sched_send_range(s, 4, 6, 0, 4);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 4);
    sched_send_range(s, 2, 3, 0, 4);
    sched_send_range(s, 4, 5, 0, 1);   /* node 5 gets only chunk 0 */
    sched_send_range(s, 4, 5, 2, 4);   /* ... and 2-3: lacks chunk 1 */
    /* node 7 gets nothing */
    Sim *sim = run(s, COST_SEIDEL, 0);
    const SimTotals *t = sim_totals(sim);
    assert_false(t->verified);
    assert_false(t->valid);
    assert_int_equal(t->incomplete_nodes, 2);
    assert_int_equal(t->not_held, 0);
    assert_int_equal(t->violations, 2);
    char buf[128];
    const SimViolation *v = sim_violation(sim, 0);
    assert_int_equal(v->kind, SIM_V_INCOMPLETE);
    assert_int_equal(v->step, 3);
    assert_int_equal(v->node, 5);
    assert_int_equal(v->chunk, 1);
    assert_string_equal(vtext(sim, 0, buf, sizeof buf), "end: node 5 lacks chunk 1");
    assert_string_equal(vtext(sim, 1, buf, sizeof buf), "end: node 7 lacks chunk 0");
    size_t nr;
    const ChunkRange *r = sim_holdings(sim, 5, &nr);
    assert_int_equal(nr, 2);
    assert_int_equal(r[0].lo, 0);
    assert_int_equal(r[0].hi, 1);
    assert_int_equal(r[1].lo, 2);
    assert_int_equal(r[1].hi, 4);
    assert_int_equal(sim_held(sim, 5), 3);
    assert_int_equal(sim_held(sim, 7), 0);
    sim_holdings(sim, 8, &nr);
    assert_int_equal(nr, 0);
    /* node 4 sent two messages (16 and 32 bytes) to node 5 in step 3: one after the other,
     * in two one-port sub-rounds, so they never share the link 4->5 at once (k = 1); the
     * first sub-round also holds 0->1 and 2->3 (64 bytes each), the second only the 32 */
    const SimStep *st = sim_step(sim, 2);
    assert_int_equal(st->port_conflicts, 2);   /* one extra send at 4, one extra receive at 5 */
    assert_int_equal(st->critical_node, 4);
    assert_int_equal(st->subrounds, 2);
    assert_int_equal(st->max_link_load, 1);
    assert_double_equal(st->cost.total, (64 * A + B) + (32 * A + B), EPS);
    assert_double_equal(st->cost.contention, 0, EPS);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

/* Two circuits share the links 1->2, 2->3, 3->4 of array:8. */
static void test_contention(void **state)
{
    (void)state;
    Net *n = net_parse("array:8", NULL, 0);
    Sched *s = sched_new(n, 1, 1000);
    sched_give(s, 0, 0, 1);
    sched_give(s, 1, 0, 1);
    sched_step(s);
    sched_send_range(s, 0, 4, 0, 1);
    sched_send_range(s, 1, 5, 0, 1);
    CostParams p = model(COST_SEIDEL);
    Sim *sim = sim_run(s, &p, 0, NULL, 0);
    const SimStep *st = sim_step(sim, 0);
    assert_int_equal(st->max_link_load, 2);
    assert_int_equal(st->link_overloads, 3);
    assert_int_equal(st->violations, 0);   /* seidel prices contention */
    assert_double_equal(st->cost.total, 2 * 1000 * A + B, EPS);
    assert_double_equal(st->cost.contention, 1000 * A, EPS);
    assert_double_equal(st->cost.transmission, 1000 * A, EPS);
    assert_double_equal(st->cost.startup, B, EPS);
    SimTransferInfo ti;
    sim_transfer_info(sim, 0, 1, &ti);
    assert_int_equal(ti.load, 2);
    assert_double_equal(ti.cost, 2 * 1000 * A + B, EPS);
    assert_double_equal(ti.contention, 1000 * A, EPS);
    const int32_t *loads = sim_link_loads(sim, 0);
    assert_int_equal(loads[net_link(n, 0, 0, 1)], 1);
    assert_int_equal(loads[net_link(n, 1, 0, 1)], 2);
    assert_int_equal(loads[net_link(n, 3, 0, 1)], 2);
    assert_int_equal(loads[net_link(n, 4, 0, 1)], 1);
    assert_int_equal(loads[net_link(n, 5, 0, 1)], 0);
    assert_int_equal(loads[net_link(n, 2, 0, -1)], 0);
    assert_false(sim_totals(sim)->verified);   /* nodes 2, 3, 6, 7 lack the chunk */
    assert_int_equal(sim_totals(sim)->link_overloads, 3);
    sim_free(sim);

    /* nu = 1: a link carries two circuits at full speed */
    p.nu = 1;
    sim = sim_run(s, &p, 0, NULL, 0);
    st = sim_step(sim, 0);
    assert_double_equal(st->cost.total, 1000 * A + B, EPS);
    assert_double_equal(st->cost.contention, 0, EPS);
    assert_int_equal(st->link_overloads, 0);
    sim_transfer_info(sim, 0, 0, &ti);
    assert_int_equal(ti.load, 2);
    assert_double_equal(ti.contention, 0, EPS);
    sim_free(sim);

    /* circuit model: a shared directed link is a violation */
    sim = run(s, COST_CIRCUIT, 0);
    const SimTotals *t = sim_totals(sim);
    assert_int_equal(sim_step(sim, 0)->violations, 3);
    assert_int_equal(t->violations, 3 + t->incomplete_nodes);
    assert_false(t->valid);
    const SimViolation *v = sim_violation(sim, 0);
    assert_int_equal(v->kind, SIM_V_LINK);
    assert_int_equal(v->link, net_link(n, 1, 0, 1));
    assert_int_equal(v->load, 2);
    assert_int_equal(v->step, 0);
    char buf[128];
    assert_string_equal(vtext(sim, 0, buf, sizeof buf),
                        "phase 1: arc 1->2 is shared by 2 circuits (arc-disjoint: one per arc)");
    assert_string_equal(vtext(sim, 2, buf, sizeof buf),
                        "phase 1: arc 3->4 is shared by 2 circuits (arc-disjoint: one per arc)");
    sim_free(sim);

    /* opposite directions of one physical link do not contend */
    Sched *o = sched_new(n, 1, 1000);
    sched_give(o, 0, 0, 1);
    sched_give(o, 7, 0, 1);
    sched_step(o);
    sched_send_range(o, 0, 7, 0, 1);
    sched_send_range(o, 7, 0, 0, 1);
    sim = run(o, COST_CIRCUIT, 0);
    assert_int_equal(sim_step(sim, 0)->max_link_load, 1);
    assert_int_equal(sim_step(sim, 0)->violations, 0);
    sim_free(sim);
    sched_free(o);
    sched_free(s);
    net_free(n);
}

/* The centre of mesh:3x3 sends to its four neighbours in one step (no shared link). */
/* One send and one receive per node, transfers of different sizes: the costliest transfer is
 * not always one over the busiest link. */
static void unequal_case(uint32_t big, int32_t want_crit, double want_cost)
{
    Net *n = net_parse("array:16", NULL, 0);
    Sched *s = sched_new(n, 8, 800);   /* 100 bytes a chunk */
    for (int32_t v = 0; v < 4; v++)
        sched_give(s, v, 0, 8);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, big);   /* load 1, `big` chunks */
    sched_send_range(s, 2, 6, 0, 2);     /* load 2 on links 3..5, 2 chunks */
    sched_send_range(s, 3, 7, 0, 2);
    CostParams p = model(COST_SEIDEL);
    for (int path = SIM_PATH_AUTO; path <= SIM_PATH_DIFF; path++) {
        sim_load_path = path;
        Sim *sim = sim_run(s, &p, 0, NULL, 0);
        sim_load_path = SIM_PATH_AUTO;
        const SimStep *st = sim_step(sim, 0);
        assert_int_equal(st->max_link_load, 2);
        assert_int_equal(st->port_conflicts, 0);
        assert_int_equal(st->critical_node, want_crit);
        assert_double_equal(st->cost.total, want_cost, EPS);
        sim_free(sim);
    }
    sched_free(s);
    net_free(n);
}

static void test_unequal_bytes(void **state)
{
    (void)state;
    /* 8 chunks at load 1 (800 a + b) beat 2 chunks at load 2 (400 a + b) */
    unequal_case(8, 0, 800 * A + B);
    /* 2 chunks at load 1 (200 a + b) lose to the first of the two at load 2 */
    unequal_case(2, 2, 400 * A + B);
    /* 4 chunks at load 1 tie with 2 chunks at load 2: the first transfer */
    unequal_case(4, 0, 400 * A + B);
}

static void test_port_serialisation(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:3x3", NULL, 0);
    Sched *s = sched_new(n, 2, 100);
    sched_give(s, 4, 0, 2);
    sched_step(s);
    sched_send_range(s, 4, 1, 0, 2);
    sched_send_range(s, 4, 3, 0, 1);
    sched_send_range(s, 4, 5, 0, 2);
    sched_send_range(s, 4, 7, 0, 2);
    Sim *sim = run(s, COST_SEIDEL, 0);
    const SimStep *st = sim_step(sim, 0);
    assert_int_equal(st->max_link_load, 1);
    assert_int_equal(st->port_conflicts, 3);
    assert_int_equal(st->critical_node, 4);
    assert_double_equal(st->cost.total, 3 * (100 * A + B) + (50 * A + B), EPS);
    assert_double_equal(st->cost.startup, 4 * B, EPS);
    assert_double_equal(st->cost.transmission, 350 * A, EPS);
    const int32_t *sends, *recvs;
    sim_port_counts(sim, 0, &sends, &recvs);
    assert_int_equal(sends[4], 4);
    assert_int_equal(recvs[4], 0);
    assert_int_equal(recvs[1], 1);
    assert_int_equal(sends[0], 0);
    sim_port_counts(sim, 7, &sends, &recvs);
    assert_null(sends);
    assert_null(recvs);
    sim_free(sim);
    sched_free(s);

    /* on an array, node 0's two messages both use the link 0->1, but one after the other
     * (sub-rounds 1 and 2): serialised, never contended (docs/model.md, "Sub-rounds") */
    Net *a = net_parse("array:4", NULL, 0);
    s = sched_new(a, 1, 100);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 1);
    sched_send_range(s, 0, 2, 0, 1);
    sim = run(s, COST_SEIDEL, 0);
    assert_double_equal(sim_step(sim, 0)->cost.total, 2 * (100 * A + B), EPS);
    assert_double_equal(sim_step(sim, 0)->cost.contention, 0, EPS);
    assert_int_equal(sim_step(sim, 0)->max_link_load, 1);
    assert_int_equal(sim_link_load(sim, 0, net_link(a, 0, 0, 1)), 1);
    SimTransferInfo ti;
    sim_transfer_info(sim, 0, 1, &ti);
    assert_int_equal(ti.subround, 2);
    assert_int_equal(ti.load, 1);
    sim_free(sim);
    sched_free(s);

    /* a third node's circuit in the same sub-round as one of node 0's does contend: 0->2 and
     * 1->3 (sub-round 1) share 1->2; 0->3 (sub-round 2) is alone */
    s = sched_new(a, 1, 100);
    sched_give(s, 0, 0, 1);
    sched_give(s, 1, 0, 1);
    sched_step(s);
    sched_send_range(s, 0, 2, 0, 1);
    sched_send_range(s, 1, 3, 0, 1);
    sched_send_range(s, 0, 3, 0, 1);
    sim = run(s, COST_SEIDEL, 0);
    assert_int_equal(sim_step(sim, 0)->subrounds, 2);
    assert_int_equal(sim_step(sim, 0)->max_link_load, 2);
    assert_int_equal(sim_step(sim, 0)->link_overloads, 1);
    assert_int_equal(sim_link_load(sim, 0, net_link(a, 1, 0, 1)), 2);
    assert_int_equal(sim_link_load(sim, 0, net_link(a, 0, 0, 1)), 1);
    assert_int_equal(sim_link_load(sim, 0, net_link(a, 2, 0, 1)), 1);
    assert_double_equal(sim_step(sim, 0)->cost.total, (2 * 100 * A + B) + (100 * A + B), EPS);
    assert_double_equal(sim_step(sim, 0)->cost.contention, 100 * A, EPS);
    /* a receiver's previous receive pushes a send back too: 2->3 waits for 0->3 */
    sim_free(sim);
    sched_free(s);
    s = sched_new(a, 1, 100);
    sched_give(s, 0, 0, 1);
    sched_give(s, 2, 0, 1);
    sched_step(s);
    sched_send_range(s, 0, 3, 0, 1);
    sched_send_range(s, 2, 3, 0, 1);
    sched_send_range(s, 2, 1, 0, 1);
    sim = run(s, COST_SEIDEL, 0);
    int32_t want[3] = { 1, 2, 3 };
    for (int i = 0; i < 3; i++) {
        sim_transfer_info(sim, 0, i, &ti);
        assert_int_equal(ti.subround, want[i]);
    }
    assert_int_equal(sim_step(sim, 0)->subrounds, 3);
    assert_double_equal(sim_step(sim, 0)->cost.total, 3 * (100 * A + B), EPS);
    sim_free(sim);
    sched_free(s);
    net_free(a);

    /* receives serialise too: four neighbours send to the centre */
    s = sched_new(n, 1, 100);
    for (int v = 1; v < 9; v += 2)
        sched_give(s, v, 0, 1);
    sched_step(s);
    for (int v = 1; v < 9; v += 2)
        sched_send_range(s, v, 4, 0, 1);
    sim = run(s, COST_SEIDEL, 0);
    st = sim_step(sim, 0);
    assert_int_equal(st->critical_node, 4);
    assert_double_equal(st->cost.total, 4 * (100 * A + B), EPS);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

/* The replay counts sends and receives per node in a byte each (saturating); a node that
 * sends or receives more than 255 times in a step still gets its exact counts: in the postal
 * violation, in seidel's sub-rounds and critical node, in sim_port_counts.  A star of 300
 * sends from node 0 (step 1), then 300 sends into node 301 (step 2). */
static void test_port_counts_saturate(void **state)
{
    (void)state;
    enum { K = 300 };
    Net *n = net_parse("array:302", NULL, 0);
    Sched *s = sched_new(n, 1, 100);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    for (int v = 1; v <= K; v++)
        sched_send_range(s, 0, v, 0, 1);
    sched_step(s);
    for (int v = 1; v <= K; v++)
        sched_send_range(s, v, K + 1, 0, 1);
    Sim *sim = run(s, COST_POSTAL, 0);
    assert_int_equal(sim_step(sim, 0)->port_conflicts, K - 1);
    assert_int_equal(sim_step(sim, 1)->port_conflicts, K - 1);
    assert_int_equal(sim_nviolations(sim), 2);
    const SimViolation *v = sim_violation(sim, 0);
    assert_int_equal(v->kind, SIM_V_PORT);
    assert_int_equal(v->node, 0);
    assert_int_equal(v->load, K);
    assert_int_equal(v->recvs, 0);
    v = sim_violation(sim, 1);
    assert_int_equal(v->node, K + 1);
    assert_int_equal(v->load, 0);
    assert_int_equal(v->recvs, K);
    sim_free(sim);

    sim = run(s, COST_SEIDEL, 0);
    for (int st = 0; st < 2; st++) {
        const SimStep *o = sim_step(sim, st);
        assert_int_equal(o->subrounds, K);   /* one transfer each */
        assert_int_equal(o->critical_node, st == 0 ? 0 : K + 1);
        assert_double_equal(o->cost.total, K * (100 * A + B), 1e-6);
    }
    const int32_t *sends, *recvs;
    sim_port_counts(sim, 0, &sends, &recvs);
    assert_int_equal(sends[0], K);
    assert_int_equal(recvs[0], 0);
    assert_int_equal(recvs[K], 1);
    sim_port_counts(sim, 1, &sends, &recvs);
    assert_int_equal(sends[0], 0);
    assert_int_equal(sends[K], 1);
    assert_int_equal(recvs[K + 1], K);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static void test_postal(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:3x3", NULL, 0);
    Sched *s = sched_new(n, 4, 40);
    sched_give(s, 4, 0, 4);
    sched_step(s);
    sched_send_range(s, 4, 1, 0, 4);
    sched_send_range(s, 4, 3, 0, 1);   /* node 4 sends twice */
    sched_step(s);
    sched_send_range(s, 1, 0, 0, 2);   /* node 1 sends ... */
    sched_send_range(s, 4, 2, 0, 4);   /* ... and nobody else is involved twice */
    sched_send_range(s, 3, 1, 0, 1);   /* node 1 also receives: only simplex breaks */
    Sim *sim = run(s, COST_POSTAL, 0);
    const SimTotals *t = sim_totals(sim);
    /* t + beta * largest packet per step */
    assert_double_equal(sim_step(sim, 0)->cost.total, 1 + 40, EPS);
    assert_double_equal(sim_step(sim, 1)->cost.total, 1 + 40, EPS);
    assert_double_equal(t->cost.startup, 2, EPS);
    assert_double_equal(t->cost.transmission, 80, EPS);
    assert_int_equal(sim_step(sim, 0)->violations, 1);
    assert_int_equal(sim_step(sim, 1)->violations, 0);
    const SimViolation *v = sim_violation(sim, 0);
    assert_int_equal(v->kind, SIM_V_PORT);
    assert_int_equal(v->node, 4);
    assert_int_equal(v->load, 2);
    assert_int_equal(v->recvs, 0);
    char buf[128];
    assert_string_equal(vtext(sim, 0, buf, sizeof buf),
                        "step 1: node (1,1) sends 2 and receives 0 messages (duplex: at most one of each)");
    assert_false(t->valid);
    sim_free(sim);

    CostParams p = model(COST_POSTAL);
    p.duplex = 0;
    sim = sim_run(s, &p, 0, NULL, 0);
    assert_int_equal(sim_step(sim, 1)->violations, 1);
    v = sim_violation(sim, 1);
    assert_int_equal(v->node, 1);
    assert_int_equal(v->load, 1);
    assert_int_equal(v->recvs, 1);
    assert_string_equal(vtext(sim, 1, buf, sizeof buf),
                        "step 2: node (0,1) sends 1 and receives 1 messages (simplex: one send or one receive)");
    /* the port conflicts say so too: step 1's second send, step 2's send-and-receive */
    assert_int_equal(sim_step(sim, 0)->port_conflicts, 1);
    assert_int_equal(sim_step(sim, 1)->port_conflicts, 1);
    assert_int_equal(sim_totals(sim)->port_conflicts, 2);
    sim_free(sim);

    /* a step without transfers costs nothing */
    sched_step(s);
    sim = run(s, COST_POSTAL, 0);
    assert_double_equal(sim_step(sim, 2)->cost.total, 0, EPS);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static void test_circuit_saf_costs(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:4x4", NULL, 0);
    Sched *s = sched_new(n, 1, 10);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    sched_send_range(s, 0, 15, 0, 1);   /* 6 hops */
    sched_send_range(s, 0, 4, 0, 1);    /* 1 hop */
    CostParams p = model(COST_CIRCUIT);
    p.alpha = 2;
    p.delta = 0.5;
    p.tau = 3;
    Sim *sim = sim_run(s, &p, 0, NULL, 0);
    const SimStep *st = sim_step(sim, 0);
    assert_double_equal(st->cost.total, 2 + 6 * 0.5 + 10 * 3, EPS);
    assert_double_equal(st->cost.startup, 2 + 3, EPS);
    assert_double_equal(st->cost.transmission, 30, EPS);
    assert_int_equal(st->violations, 0);   /* all-port: two sends are fine */
    SimTransferInfo ti;
    sim_transfer_info(sim, 0, 1, &ti);
    assert_double_equal(ti.cost, 2 + 0.5 + 30, EPS);
    sim_free(sim);
    p = model(COST_SAF);
    p.beta = 2;
    p.tau = 0.5;
    sim = sim_run(s, &p, 0, NULL, 0);
    assert_double_equal(sim_step(sim, 0)->cost.total, 6 * (2 + 10 * 0.5), EPS);
    assert_double_equal(sim_step(sim, 0)->cost.startup, 12, EPS);
    assert_double_equal(sim_step(sim, 0)->cost.transmission, 30, EPS);
    sim_transfer_info(sim, 0, 1, &ti);
    assert_double_equal(ti.cost, 1 * (2 + 5), EPS);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static void test_locals(void **state)
{
    (void)state;
    Net *n = net_parse("array:4", NULL, 0);
    Sched *s = sched_new(n, 1, 100);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    sched_local(s, -1, 1000);
    sched_local(s, 2, 300);
    sched_local(s, 2, 200);
    sched_local(s, 1, 400);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 1);
    sched_local(s, 3, 100);
    sched_step(s);   /* empty */
    Sim *sim = run(s, COST_SEIDEL, 0);
    assert_double_equal(sim_step(sim, 0)->cost.total, 0.01 * (1000 + 500), EPS);
    assert_double_equal(sim_step(sim, 0)->cost.permutation, 0.01 * 1500, EPS);
    assert_double_equal(sim_step(sim, 1)->cost.total, 100 * A + B + 0.01 * 100, EPS);
    assert_double_equal(sim_step(sim, 2)->cost.total, 0, EPS);
    const SimTotals *t = sim_totals(sim);
    assert_double_equal(t->cost.total,
                        t->cost.startup + t->cost.transmission + t->cost.contention +
                            t->cost.permutation, EPS);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

/* Naive loads: walk every route hop by hop with the public Net API. */
static void naive_loads(const Sched *s, int32_t step, int32_t *loads)
{
    const Net *n = sched_net(s);
    memset(loads, 0, (size_t)net_nlinks(n) * sizeof *loads);
    for (int64_t i = 0; i < sched_ntransfers(s, step); i++) {
        SchedTransfer t;
        sched_transfer(s, step, i, &t);
        int32_t u = t.src;
        for (int k = 0; k < t.nseg; k++)
            for (int h = 0; h < t.seg[k].len; h++) {
                loads[net_link(n, u, t.seg[k].dim, t.seg[k].dir)]++;
                u = net_neighbor(n, u, t.seg[k].dim, t.seg[k].dir);
            }
        assert_int_equal(u, t.dst);
    }
}

static int32_t naive_k(const Sched *s, int32_t step, int64_t i, const int32_t *loads)
{
    const Net *n = sched_net(s);
    SchedTransfer t;
    sched_transfer(s, step, i, &t);
    int32_t u = t.src, k = 0;
    for (int j = 0; j < t.nseg; j++)
        for (int h = 0; h < t.seg[j].len; h++) {
            int32_t l = loads[net_link(n, u, t.seg[j].dim, t.seg[j].dir)];
            if (l > k)
                k = l;
            u = net_neighbor(n, u, t.seg[j].dim, t.seg[j].dir);
        }
    return k;
}

/* Seidel's sub-rounds, naively (docs/model.md, "Sub-rounds"): in transfer order each goes in
 * the sub-round after its source's previous send and its destination's previous receive.
 * Each link's largest load in one sub-round goes into loads, each transfer's busiest load
 * within its own sub-round into k; returns the step's seidel cost (nu = 0): the sum over the
 * sub-rounds of their costliest transfer. */
static double naive_sub(const Sched *s, int32_t step, int32_t *loads, int32_t *k)
{
    const Net *n = sched_net(s);
    int64_t nt = sched_ntransfers(s, step), nl = net_nlinks(n);
    int32_t *rd = calloc((size_t)nt + 1, sizeof *rd);
    int32_t *ls = calloc((size_t)net_size(n), sizeof *ls);
    int32_t *lr = calloc((size_t)net_size(n), sizeof *lr);
    int32_t *cur = malloc((size_t)nl * sizeof *cur);
    int32_t nsub = 0;
    for (int64_t i = 0; i < nt; i++) {
        SchedTransfer t;
        sched_transfer(s, step, i, &t);
        int32_t r = ls[t.src] > lr[t.dst] ? ls[t.src] : lr[t.dst];
        rd[i] = r;
        ls[t.src] = lr[t.dst] = r + 1;
        nsub = r + 1 > nsub ? r + 1 : nsub;
    }
    memset(loads, 0, (size_t)nl * sizeof *loads);
    double cost = 0;
    for (int32_t r = 0; r < nsub; r++) {
        memset(cur, 0, (size_t)nl * sizeof *cur);
        for (int64_t i = 0; i < nt; i++) {
            if (rd[i] != r)
                continue;
            SchedTransfer t;
            sched_transfer(s, step, i, &t);
            int32_t u = t.src;
            for (int g = 0; g < t.nseg; g++)
                for (int h = 0; h < t.seg[g].len; h++) {
                    cur[net_link(n, u, t.seg[g].dim, t.seg[g].dir)]++;
                    u = net_neighbor(n, u, t.seg[g].dim, t.seg[g].dir);
                }
        }
        for (int64_t l = 0; l < nl; l++)
            loads[l] = cur[l] > loads[l] ? cur[l] : loads[l];
        double best = 0;
        for (int64_t i = 0; i < nt; i++) {
            if (rd[i] != r)
                continue;
            SchedTransfer t;
            sched_transfer(s, step, i, &t);
            k[i] = naive_k(s, step, i, cur);
            double c = k[i] * A * (double)t.bytes + B;
            best = c > best ? c : best;
        }
        cost += best;
    }
    free(rd);
    free(ls);
    free(lr);
    free(cur);
    return cost;
}

static void test_torus_wrap(void **state)
{
    (void)state;
    Net *n = net_parse("ring:8", NULL, 0);
    Sched *s = sched_new(n, 1, 8);
    sched_give(s, 6, 0, 1);
    sched_give(s, 1, 0, 1);
    sched_step(s);
    sched_send_range(s, 6, 1, 0, 1);   /* 3 hops forward: 6->7->0->1 */
    sched_send_range(s, 1, 6, 0, 1);   /* 3 hops back: 1->0->7->6 */
    for (int path = SIM_PATH_DIRECT; path <= SIM_PATH_DIFF; path++) {
        sim_load_path = path;
        Sim *sim = run(s, COST_SEIDEL, 0);
        sim_load_path = SIM_PATH_AUTO;
        const int32_t *L = sim_link_loads(sim, 0);
        int32_t want[8][2] = { { 0 } };
        want[6][0] = want[7][0] = want[0][0] = 1;   /* +: both pieces of the wrap */
        want[1][1] = want[0][1] = want[7][1] = 1;   /* -: both pieces */
        for (int v = 0; v < 8; v++) {
            assert_int_equal(L[net_link(n, v, 0, 1)], want[v][0]);
            assert_int_equal(L[net_link(n, v, 0, -1)], want[v][1]);
        }
        assert_int_equal(sim_step(sim, 0)->tcd, 6);
        assert_int_equal(sim_step(sim, 0)->max_link_load, 1);
        sim_free(sim);
    }
    sched_free(s);
    net_free(n);

    /* torus:4x6: wrap in both dimensions, contended on the wrap pieces */
    Net *t = net_parse("torus:4x6", NULL, 0);
    s = sched_new(t, 1, 100);
    sched_give(s, 23, 0, 1);
    sched_give(s, 17, 0, 1);
    sched_step(s);
    sched_send_range(s, 23, 1, 0, 1);   /* (3,5) -> (0,1): row +2 wrapping, column +1 wrapping */
    sched_send_range(s, 17, 1, 0, 1);   /* (2,5) -> (0,1): row +2 wrapping, column +2 wrapping */
    int32_t *naive = malloc((size_t)net_nlinks(t) * sizeof *naive);
    naive_loads(s, 0, naive);
    assert_int_equal(naive[net_link(t, 19, 0, 1)], 2);   /* (3,1)->(0,1) wraps, shared */
    for (int path = SIM_PATH_DIRECT; path <= SIM_PATH_DIFF; path++) {
        sim_load_path = path;
        Sim *sim = run(s, COST_SAF, 0);   /* all-port: both circuits at once */
        const int32_t *L = sim_link_loads(sim, 0);
        assert_memory_equal(L, naive, (size_t)net_nlinks(t) * sizeof *L);
        assert_int_equal(sim_step(sim, 0)->max_link_load, 2);
        sim_free(sim);
        sim = run(s, COST_SEIDEL, 0);
        sim_load_path = SIM_PATH_AUTO;
        /* both are received by one node: two sub-rounds, each circuit alone on the wrap */
        assert_int_equal(sim_step(sim, 0)->max_link_load, 1);
        assert_double_equal(sim_step(sim, 0)->cost.total, 2 * (100 * A + B), EPS);
        sim_free(sim);
    }
    free(naive);
    sched_free(s);
    net_free(t);
}

/* Random schedules with explicit detours: both load-counting paths must agree with a naive walk
 * (loads, busiest links, costs, violations). */
static void check_paths(const char *spec, int nsteps, int per_step, int explicit_pct,
                        unsigned seed)
{
    Net *n = net_parse(spec, NULL, 0);
    assert_non_null(n);
    srand(seed);
    int32_t size = net_size(n);
    Sched *s = sched_new(n, 8, 8000);
    sched_give(s, 0, 0, 8);
    for (int st = 0; st < nsteps; st++) {
        sched_step(s);
        /* alternate long-route and short-route steps so that AUTO takes both ways */
        bool shortstep = st % 2;
        for (int i = 0; i < per_step; i++) {
            int32_t a = rand() % size, b;
            if (shortstep) {
                int dim = rand() % net_ndim(n);
                b = net_neighbor(n, a, dim, rand() % 2 ? 1 : -1);
                if (b < 0 || b == a)
                    continue;
            } else {
                b = rand() % size;
                if (b == a)
                    continue;
            }
            uint32_t lo = (uint32_t)(rand() % 8);
            if (rand() % 100 < explicit_pct) {
                /* a detour: first one hop along some dimension, then the default route */
                NetSeg seg[NET_MAXSEG];
                int dim = rand() % net_ndim(n);
                int dir = rand() % 2 ? 1 : -1;
                int32_t m = net_neighbor(n, a, dim, dir);
                if (m < 0 || m == b)
                    continue;
                seg[0] = (NetSeg){ (int8_t)dim, (int8_t)dir, 1 };
                int k = net_route(n, m, b, seg + 1);
                if (net_route_end(n, a, seg, k + 1) != b)
                    continue;   /* e.g. the detour runs round a whole ring */
                assert_true(sched_send_route(s, a, b, &(ChunkRange){ lo, 8 }, 1, seg, k + 1));
            } else {
                assert_true(sched_send_range(s, a, b, lo, 8));
            }
        }
    }
    assert_null(sched_error(s));
    int64_t nl = net_nlinks(n);
    int32_t *naive = malloc((size_t)nl * sizeof *naive);
    int32_t *kk = malloc(((size_t)per_step + 1) * sizeof *kk);
    CostModel models[] = { COST_SEIDEL, COST_CIRCUIT, COST_POSTAL, COST_SAF };
    for (int mi = 0; mi < 4; mi++) {
        CostParams p = model(models[mi]);
        Sim *sims[3];
        for (int path = SIM_PATH_AUTO; path <= SIM_PATH_DIFF; path++) {
            sim_load_path = path;
            sims[path] = sim_run(s, &p, 0, NULL, 0);
            /* every step's loads counted on the second thread: the same results */
            sim_par_min = 0;
            Sim *par = sim_run(s, &p, SIM_HISTORY, NULL, 0);
            sim_par_min = INT64_MAX;
            Sim *ser = sim_run(s, &p, SIM_HISTORY, NULL, 0);
            sim_par_min = 65536;
            sim_load_path = SIM_PATH_AUTO;
            assert_non_null(sims[path]);
            assert_non_null(par);
            assert_non_null(ser);
            assert_memory_equal(sim_totals(par), sim_totals(ser), sizeof(SimTotals));
            for (int st = 0; st < nsteps; st++)
                assert_memory_equal(sim_step(par, st), sim_step(ser, st), sizeof(SimStep));
            assert_int_equal(sim_nviolations(par), sim_nviolations(ser));
            for (size_t i = 0; i < sim_nviolations(ser); i++)
                assert_memory_equal(sim_violation(par, i), sim_violation(ser, i),
                                    sizeof(SimViolation));
            for (int32_t pos = nsteps; pos >= 0; pos--) {
                assert_true(sim_seek(par, pos));
                assert_true(sim_seek(ser, pos));
                for (int32_t v = 0; v < size; v++)
                    assert_int_equal(sim_held(par, v), sim_held(ser, v));
            }
            sim_free(par);
            sim_free(ser);
        }
        for (int st = 0; st < nsteps; st++) {
            /* seidel: a link's load is its most circuits in one sub-round */
            if (models[mi] == COST_SEIDEL)
                naive_sub(s, st, naive, kk);
            else
                naive_loads(s, st, naive);
            int32_t mx = 0;
            int64_t over = 0;
            for (int64_t l = 0; l < nl; l++) {
                if (naive[l] > mx)
                    mx = naive[l];
                over += naive[l] > 1;
            }
            for (int path = 0; path < 3; path++) {
                const SimStep *x = sim_step(sims[path], st);
                /* the breakdown adds up to the total */
                assert_double_equal(x->cost.total,
                                    x->cost.startup + x->cost.transmission + x->cost.contention +
                                        x->cost.permutation, 1e-6);
                assert_int_equal(x->max_link_load, mx);
                assert_int_equal(x->link_overloads, over);
                assert_double_equal(x->cost.total, sim_step(sims[0], st)->cost.total, 1e-6);
                assert_double_equal(x->cost.contention, sim_step(sims[0], st)->cost.contention,
                                    1e-6);
                /* one link at a time (before the whole array is made for this step) */
                for (int64_t l = 0; l < nl; l++)
                    assert_int_equal(sim_link_load(sims[path], st, l), naive[l]);
                assert_int_equal(sim_link_load(sims[path], st, -1), 0);
                assert_int_equal(sim_link_load(sims[path], st, nl), 0);
                assert_int_equal(sim_link_load(sims[path], nsteps, 0), 0);
                const int32_t *L = sim_link_loads(sims[path], st);
                assert_memory_equal(L, naive, (size_t)nl * sizeof *L);
                for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
                    SimTransferInfo ti;
                    sim_transfer_info(sims[path], st, i, &ti);
                    assert_int_equal(ti.load, models[mi] == COST_SEIDEL
                                                  ? kk[i] : naive_k(s, st, i, naive));
                }
            }
        }
        /* the seidel cost of each step from the naive sub-rounds */
        if (models[mi] == COST_SEIDEL) {
            for (int st = 0; st < nsteps; st++) {
                double want = naive_sub(s, st, naive, kk);
                for (int path = 0; path < 3; path++)
                    assert_double_equal(sim_step(sims[path], st)->cost.total, want, 1e-6);
            }
        }
        const SimTotals *t0 = sim_totals(sims[0]);
        for (int path = 1; path < 3; path++) {
            const SimTotals *t = sim_totals(sims[path]);
            assert_int_equal(t->violations, t0->violations);
            assert_int_equal(sim_nviolations(sims[path]), sim_nviolations(sims[0]));
            for (size_t i = 0; i < sim_nviolations(sims[0]); i++)
                assert_memory_equal(sim_violation(sims[path], i), sim_violation(sims[0], i),
                                    sizeof(SimViolation));
        }
        for (int path = 0; path < 3; path++)
            sim_free(sims[path]);
    }
    free(naive);
    free(kk);
    sched_free(s);
    net_free(n);
}

/* Sub-rounds of long routes (issue 24 finding 4): the ends of the array each send to every
 * node in one step (and a ring's node to every node, both ways round), interleaved, so each
 * sub-round holds two or three long circuits that overlap; subround.c counts those from their
 * ranges, not link by link.  Loads, each transfer's busiest link, overloads and the cost must
 * be the naive walk's. */
static void check_star(const char *spec, int senders, bool overlap)
{
    Net *n = net_parse(spec, NULL, 0);
    assert_non_null(n);
    int32_t size = net_size(n);
    Sched *s = sched_new(n, 1, 64);
    int32_t src[3] = { 0, size / 3, size - 1 };
    for (int k = 0; k < senders; k++)
        sched_give(s, src[k], 0, 1);
    sched_step(s);
    for (int32_t v = 0; v < size; v++)
        for (int k = 0; k < senders; k++)
            if (v != src[k])
                assert_true(sched_send_range(s, src[k], v, 0, 1));
    int64_t nl = net_nlinks(n), nt = sched_ntransfers(s, 0);
    int32_t *naive = malloc((size_t)nl * sizeof *naive);
    int32_t *kk = malloc((size_t)nt * sizeof *kk);
    double want = naive_sub(s, 0, naive, kk);
    Sim *sim = run(s, COST_SEIDEL, 0);
    const SimStep *x = sim_step(sim, 0);
    assert_double_equal(x->cost.total, want, 1e-6);
    int32_t mx = 0;
    int64_t over = 0;
    for (int64_t l = 0; l < nl; l++) {
        mx = naive[l] > mx ? naive[l] : mx;
        over += naive[l] > 1;
        assert_int_equal(sim_link_load(sim, 0, l), naive[l]);
    }
    if (overlap)
        assert_true(mx >= 2);   /* the circuits of one sub-round do overlap */
    assert_int_equal(x->max_link_load, mx);
    assert_int_equal(x->link_overloads, over);
    for (int64_t i = 0; i < nt; i++) {
        SimTransferInfo ti;
        sim_transfer_info(sim, 0, i, &ti);
        assert_int_equal(ti.load, kk[i]);
    }
    sim_free(sim);
    free(naive);
    free(kk);
    sched_free(s);
    net_free(n);
}

static void test_subround_long_routes(void **state)
{
    (void)state;
    check_star("array:300", 2, true);
    check_star("array:301", 3, true);
    check_star("ring:257", 3, true);
    check_star("mesh:9x40", 3, false);
    check_star("torus:17x19", 2, false);
}

static void test_paths_agree(void **state)
{
    (void)state;
    check_paths("mesh:5x9", 8, 30, 30, 1);
    check_paths("torus:6x7", 8, 30, 30, 2);
    check_paths("torus:4x4", 6, 20, 30, 3);   /* ties in every dimension */
    check_paths("mesh:3x4x5", 6, 30, 30, 4);
    check_paths("torus:3x4x5", 6, 30, 30, 5);
    check_paths("ring:1000", 6, 40, 20, 6);   /* long pieces: the sparse-table query */
    check_paths("array:777", 6, 40, 20, 7);
    check_paths("mesh:2x300", 6, 40, 20, 8);
    check_paths("torus:2x3", 4, 10, 30, 9);    /* extent 2: + and - lead to the same node */
    check_paths("torus:1x5", 4, 10, 30, 10);   /* extent 1: never travelled */
    check_paths("ring:2", 4, 4, 0, 11);
    check_paths("mesh:8x16", 6, 30, 30, 12);   /* power-of-two sides: loads read by shifts */
    check_paths("torus:2x4x8", 6, 30, 30, 13);
    check_paths("array:512", 6, 40, 20, 14);
    /* powers of two, lines of unequal lengths: the touched lines marked by start >> lshift */
    check_paths("mesh:4x32", 6, 60, 20, 15);
    check_paths("torus:16x2x4", 6, 60, 20, 16);
    check_paths("mesh:64x8", 6, 200, 10, 17);
}

/* ST on mesh:R x C by hand, with redundant resends so that deltas are partial. */
static Sched *st_mesh(const Net *n, int32_t R, int32_t C, uint32_t nchunks, bool redundant)
{
    Sched *s = sched_new(n, nchunks, 1 << 20);
    sched_give(s, 0, 0, nchunks);
    for (int32_t h = R / 2; h >= 1; h /= 2) {
        sched_step(s);
        for (int32_t r = 0; r < R; r += 2 * h) {
            if (redundant && nchunks > 2) {
                sched_send_range(s, r * C, (r + h) * C, 0, nchunks / 2);
                sched_send_range(s, r * C, (r + h) * C, 1, nchunks);
            } else {
                sched_send_range(s, r * C, (r + h) * C, 0, nchunks);
            }
        }
    }
    for (int32_t h = C / 2; h >= 1; h /= 2) {
        sched_step(s);
        for (int32_t r = 0; r < R; r++)
            for (int32_t c = 0; c < C; c += 2 * h)
                sched_send_range(s, r * C + c, r * C + c + h, 0, nchunks);
    }
    return s;
}

static void test_seek(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:8x8", NULL, 0);
    Sched *full = st_mesh(n, 8, 8, 6, true);
    /* extra: some nodes get scattered chunk pieces late, some already held */
    sched_step(full);
    sched_send_range(full, 9, 10, 2, 4);
    ChunkRange two[] = { { 0, 1 }, { 3, 5 } };
    sched_send(full, 63, 62, two, 2);
    int32_t ns = sched_nsteps(full);
    Sim *h = run(full, COST_SEIDEL, SIM_HISTORY);
    assert_true(sim_totals(h)->verified);
    /* a fresh run of the first k steps gives the holdings at position k */
    Sim **fresh = calloc((size_t)ns + 1, sizeof *fresh);
    Sched **parts = calloc((size_t)ns + 1, sizeof *parts);
    for (int32_t k = 0; k <= ns; k++) {
        parts[k] = st_mesh(n, 8, 8, 6, true);
        sched_step(parts[k]);
        sched_send_range(parts[k], 9, 10, 2, 4);
        sched_send(parts[k], 63, 62, two, 2);
        sched_truncate(parts[k], k);
        fresh[k] = run(parts[k], COST_SEIDEL, 0);
        assert_int_equal(sim_pos(fresh[k]), k);
    }
    simcmp_holdings(h, fresh[ns]);
    int32_t order[] = { 0, 7, 3, 3, 8, 1, 0, 6, 2, 5, 4, 8, 0 };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int32_t k = order[i] > ns ? ns : order[i];
        assert_true(sim_seek(h, k));
        assert_int_equal(sim_pos(h), k);
        simcmp_holdings(h, fresh[k]);
    }
    assert_false(sim_seek(h, ns + 1));
    assert_false(sim_seek(h, -1));
    assert_int_equal(sim_pos(h), 0);
    /* at position 0 only the source holds anything */
    assert_int_equal(sim_held(h, 0), 6);
    assert_int_equal(sim_held(h, 1), 0);
    /* per-step detail does not depend on the position */
    assert_non_null(sim_link_loads(h, 2));
    for (int32_t k = 0; k <= ns; k++) {
        sim_free(fresh[k]);
        sched_free(parts[k]);
    }
    free(fresh);
    free(parts);
    sim_free(h);
    sched_free(full);
    net_free(n);
}

/* Scattered holdings: receives that fill one-chunk gaps between held pieces. */
static Sched *scattered(const Net *n, int32_t upto)
{
    Sched *s = sched_new(n, 10, 100);
    sched_give(s, 0, 0, 10);
    sched_step(s);
    ChunkRange odd[] = { { 1, 2 }, { 3, 4 }, { 7, 9 } };
    sched_send(s, 0, 1, odd, 3);
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 10);
    sched_send_range(s, 1, 2, 3, 4);
    sched_step(s);
    sched_send_range(s, 1, 2, 3, 10);  /* starts with the one chunk node 2 holds */
    sched_send_range(s, 1, 2, 0, 3);
    sched_send_range(s, 0, 3, 5, 6);
    sched_send_range(s, 0, 3, 5, 7);   /* twice in one step, overlapping */
    sched_step(s);
    sched_send_range(s, 2, 3, 0, 10);
    sched_truncate(s, upto);
    return s;
}

/* A schedule of 4 steps cut after its first k steps (k = 4: whole). */
typedef Sched *(*Upto)(const Net *n, int k);

/* Simulate make(n, 4) with history and seek through `order`: at every position the holdings
 * must be those of a fresh simulation of the first steps alone.  Returns the Sim with history
 * (its schedule freed by seek_done). */
static Sim *seek_through(const Net *n, Upto make, const int32_t *order, size_t norder)
{
    Sched *full = make(n, 4);
    Sim *h = run(full, COST_SEIDEL, SIM_HISTORY);
    assert_true(sim_totals(h)->verified);
    for (size_t i = 0; i < norder; i++) {
        Sched *part = make(n, order[i]);
        Sim *fresh = run(part, COST_SEIDEL, 0);
        assert_true(sim_seek(h, order[i]));
        simcmp_holdings(h, fresh);
        sim_free(fresh);
        sched_free(part);
    }
    return h;
}

static void seek_done(Sim *h)
{
    Sched *full = (Sched *)sim_sched(h);
    sim_free(h);
    sched_free(full);
}

static void test_seek_scattered(void **state)
{
    (void)state;
    Net *n = net_parse("array:4", NULL, 0);
    int32_t order[] = { 4, 1, 2, 0, 3, 1, 4, 2, 3, 0, 4 };
    Sim *h = seek_through(n, scattered, order, sizeof order / sizeof order[0]);
    assert_true(sim_seek(h, 1));
    size_t nr;
    const ChunkRange *r = sim_holdings(h, 1, &nr);
    assert_int_equal(nr, 3);
    assert_int_equal(r[0].lo, 1);
    assert_int_equal(r[0].hi, 2);
    assert_int_equal(r[1].lo, 3);
    assert_int_equal(r[1].hi, 4);
    assert_int_equal(r[2].lo, 7);
    assert_int_equal(r[2].hi, 9);
    seek_done(h);
    net_free(n);
}

/* Strided sets with gaps, received many ranges at once: the seek applies a node's run of
 * deltas with one merge (forward) or one subtraction (back). */
static Sched *strided(const Net *n, int upto)
{
    Sched *s = sched_new(n, 64, 6400);
    sched_give(s, 0, 0, 64);
    for (uint32_t c = 0; c < 64; c += 8)
        sched_give(s, 1, c, c + 1);            /* node 1 starts with chunks 0, 8, ..., 56 */
    ChunkRange even[32], odd[32];
    for (uint32_t i = 0; i < 32; i++) {
        even[i] = (ChunkRange){ 2 * i, 2 * i + 1 };
        odd[i] = (ChunkRange){ 2 * i + 1, 2 * i + 2 };
    }
    if (upto >= 1) {   /* 24 new even chunks for node 1, 32 for node 2 */
        sched_step(s);
        sched_send(s, 0, 1, even, 32);
        sched_send(s, 0, 2, even, 32);
    }
    if (upto >= 2) {   /* everything: node 1 gains the 32 odd chunks */
        sched_step(s);
        sched_send_range(s, 0, 1, 0, 64);
        sched_send(s, 0, 2, odd, 16);           /* half the odd ones to node 2 */
        sched_send(s, 0, 3, odd, 32);
    }
    if (upto >= 3) {
        sched_step(s);
        sched_send_range(s, 1, 2, 0, 64);
        sched_send(s, 0, 3, even, 32);          /* node 3 then holds everything */
        sched_send_range(s, 0, 5, 0, 64);
        sched_send_range(s, 2, 6, 0, 32);       /* node 2 held [0,32) after step 2 */
        sched_send(s, 0, 4, odd, 32);
    }
    if (upto >= 4) {   /* the rest */
        sched_step(s);
        sched_send_range(s, 3, 4, 0, 64);
        sched_send_range(s, 5, 6, 0, 64);
        sched_send_range(s, 1, 7, 0, 64);
    }
    assert_null(sched_error(s));
    return s;
}

static void test_seek_strided(void **state)
{
    (void)state;
    Net *n = net_parse("array:8", NULL, 0);
    int32_t order[] = { 4, 0, 1, 2, 3, 4, 2, 0, 3, 1, 4, 3, 2, 1, 0, 4 };
    Sim *h = seek_through(n, strided, order, sizeof order / sizeof order[0]);
    /* after step 1 node 1 holds every even chunk and nothing else: 32 intervals */
    assert_true(sim_seek(h, 1));
    size_t nr;
    const ChunkRange *r = sim_holdings(h, 1, &nr);
    assert_int_equal(nr, 32);
    assert_int_equal(r[5].lo, 10);
    assert_int_equal(r[5].hi, 11);
    assert_int_equal(sim_held(h, 1), 32);
    assert_true(sim_seek(h, 0));
    assert_int_equal(sim_held(h, 1), 8);
    assert_int_equal(sim_held(h, 2), 0);
    seek_done(h);
    net_free(n);
}

static void test_large_mesh(void **state)
{
    (void)state;
    Net *n = net_parse("mesh:256x256", NULL, 0);
    Sched *s = st_mesh(n, 256, 256, 1, false);
    Sim *sim = run(s, COST_SEIDEL, SIM_HISTORY);
    const SimTotals *t = sim_totals(sim);
    assert_true(t->verified);
    assert_true(t->valid);
    assert_int_equal(t->nsteps, 16);
    assert_int_equal(t->ntransfers, 65535);
    assert_int_equal(t->max_link_load, 1);
    assert_double_equal(t->cost.total, 16 * ((1 << 20) * A + B), 1e-6);
    /* TCD: in a line of 256, every step moves 128 hops in all: 8 steps in column 0, then
     * 8 steps in each of the 256 rows */
    assert_int_equal(t->tcd, 8 * 128 + 256 * 8 * 128);
    assert_true(sim_seek(sim, 8));
    assert_int_equal(sim_held(sim, 255 * 256), 1);   /* column 0 done after 8 steps */
    assert_int_equal(sim_held(sim, 1), 0);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static void test_many_violations(void **state)
{
    (void)state;
    Net *n = net_parse("array:9000", NULL, 0);
    Sched *s = sched_new(n, 1, 1);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    Sim *sim = run(s, COST_SEIDEL, 0);
    const SimTotals *t = sim_totals(sim);
    assert_int_equal(t->incomplete_nodes, 8999);
    assert_int_equal(t->violations, 8999);
    assert_int_equal(sim_nviolations(sim), SIM_MAXVIOL);
    assert_int_equal(sim_violation(sim, SIM_MAXVIOL - 1)->node, SIM_MAXVIOL);
    sim_free(sim);
    sched_free(s);
    net_free(n);
}

static void test_bad_args(void **state)
{
    (void)state;
    Net *n = net_parse("array:4", NULL, 0);
    Sched *s = sched_new(n, 1, 1);
    CostParams p = model(COST_SEIDEL);
    char err[128];
    assert_null(sim_run(NULL, &p, 0, err, sizeof err));
    assert_null(sim_run(s, NULL, 0, err, sizeof err));
    p.nu = 99;
    assert_null(sim_run(s, &p, 0, err, sizeof err));
    p = model(COST_SEIDEL);
    sched_step(s);
    sched_send_range(s, 0, 9, 0, 1);
    assert_null(sim_run(s, &p, 0, err, sizeof err));
    assert_string_equal(err, "bad schedule: step 1: send 0->9: node not in array:4");
    sched_free(s);
    /* an empty schedule: only the source holds the message */
    s = sched_new(n, 1, 1);
    sched_give(s, 2, 0, 1);
    Sim *sim = sim_run(s, &p, SIM_HISTORY, err, sizeof err);
    assert_non_null(sim);
    assert_int_equal(sim_totals(sim)->nsteps, 0);
    assert_int_equal(sim_totals(sim)->incomplete_nodes, 3);
    assert_null(sim_link_loads(sim, 0));
    SimTransferInfo ti;
    sim_transfer_info(sim, 0, 0, &ti);
    assert_int_equal(ti.load, 0);
    assert_true(sim_seek(sim, 0));
    assert_false(sim_holds(sim, 9, 0));
    assert_false(sim_holds(sim, 2, UINT32_MAX));
    assert_true(sim_holds(sim, 2, 0));
    sim_free(sim);
    sched_free(s);
    sim_free(NULL);
    assert_null(sim_totals(NULL));
    assert_int_equal(sim_nviolations(NULL), 0);
    assert_false(sim_seek(NULL, 0));
    assert_null(sim_link_loads(NULL, 0));
    net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_array8),        cmocka_unit_test(test_not_held),
        cmocka_unit_test(test_incomplete),       cmocka_unit_test(test_contention),
        cmocka_unit_test(test_unequal_bytes),
        cmocka_unit_test(test_port_serialisation), cmocka_unit_test(test_postal),
        cmocka_unit_test(test_port_counts_saturate),
        cmocka_unit_test(test_circuit_saf_costs), cmocka_unit_test(test_locals),
        cmocka_unit_test(test_torus_wrap),       cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_subround_long_routes),
        cmocka_unit_test(test_seek),             cmocka_unit_test(test_seek_scattered),
        cmocka_unit_test(test_seek_strided),     cmocka_unit_test(test_large_mesh),
        cmocka_unit_test(test_many_violations),  cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
