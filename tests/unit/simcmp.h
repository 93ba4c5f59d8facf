/* simcmp.h — two Sims of one schedule (or of two schedules of the same transfers) the same,
 * field by field, for the unit tests that pin a fast path of the replay against a slow one
 * (test_fuse, test_holdtab, test_load_disjoint, test_load_mesh2, test_affine, the strided
 * tests): every field of the totals; every field of every step, its running total
 * (sim_cost_until) and its link loads link by link (a pair net's, full:P, pair link by pair
 * link); every field of every violation kept, and its text; at the Sims' present positions
 * every node's holdings (ranges, count, and chunk by chunk).  The costs are compared bit for
 * bit.  (test_tree_rule, test_rules and test_sim use parts of it too.)  A mismatch fails the
 * test with the step, node or violation it was found at.  Include after <cmocka.h> and the
 * engine's sim.h. */
#ifndef MESHCAST_TEST_SIMCMP_H
#define MESHCAST_TEST_SIMCMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x->f == y->f, or the test fails naming the field and where it differs (at -1: the totals) */
static inline void simcmp_eq_(unsigned long long x, unsigned long long y, const char *field,
                              const char *where, long long at, const char *file, int line)
{
    if (x != y) {
        if (at < 0)
            print_error("simcmp: %s of the %s: %lld != %lld\n", field, where, (long long)x,
                        (long long)y);
        else
            print_error("simcmp: %s of %s %lld: %lld != %lld\n", field, where, at, (long long)x,
                        (long long)y);
        _fail(file, line);
    }
}
static inline void simcmp_cost_(double x, double y, const char *field, const char *where,
                                long long at, const char *file, int line)
{
    if (memcmp(&x, &y, sizeof x) != 0) {   /* bit for bit */
        if (at < 0)
            print_error("simcmp: cost.%s of the %s: %.17g != %.17g\n", field, where, x, y);
        else
            print_error("simcmp: cost.%s of %s %lld: %.17g != %.17g\n", field, where, at, x, y);
        _fail(file, line);
    }
}
#define SIMCMP_EQ(f, where, at) \
    simcmp_eq_((unsigned long long)x->f, (unsigned long long)y->f, #f, where, at, __FILE__, __LINE__)
#define SIMCMP_COST(f, where, at) simcmp_cost_(x->cost.f, y->cost.f, #f, where, at, __FILE__, __LINE__)
#define SIMCMP_COSTS(where, at)                                                          \
    do {                                                                                 \
        SIMCMP_COST(total, where, at);                                                   \
        SIMCMP_COST(startup, where, at);                                                 \
        SIMCMP_COST(transmission, where, at);                                            \
        SIMCMP_COST(contention, where, at);                                              \
        SIMCMP_COST(permutation, where, at);                                             \
    } while (0)

static inline void simcmp_totals(const Sim *a, const Sim *b)
{
    const SimTotals *x = sim_totals(a), *y = sim_totals(b);
    SIMCMP_EQ(nsteps, "totals", -1);
    SIMCMP_COSTS("totals", -1);
    SIMCMP_EQ(ntransfers, "totals", -1);
    SIMCMP_EQ(tcd, "totals", -1);
    SIMCMP_EQ(bytes, "totals", -1);
    SIMCMP_EQ(max_link_load, "totals", -1);
    SIMCMP_EQ(link_overloads, "totals", -1);
    SIMCMP_EQ(max_channel_load, "totals", -1);
    SIMCMP_EQ(port_conflicts, "totals", -1);
    SIMCMP_EQ(violations, "totals", -1);
    SIMCMP_EQ(not_held, "totals", -1);
    SIMCMP_EQ(incomplete_nodes, "totals", -1);
    SIMCMP_EQ(verified, "totals", -1);
    SIMCMP_EQ(valid, "totals", -1);
    SIMCMP_EQ(informed_before, "totals", -1);
    SIMCMP_EQ(phases, "totals", -1);
    SIMCMP_EQ(switch_hops, "totals", -1);
    SIMCMP_EQ(phase_bytes, "totals", -1);
    SIMCMP_EQ(split_steps, "totals", -1);
    SIMCMP_EQ(subrounds, "totals", -1);
}

/* Step st's figures (every SimStep field) and its link loads, link by link. */
static inline void simcmp_step(Sim *a, Sim *b, int32_t st)
{
    const SimStep *x = sim_step(a, st), *y = sim_step(b, st);
    assert_non_null(x);
    assert_non_null(y);
    SIMCMP_COSTS("step", st);
    SIMCMP_EQ(ntransfers, "step", st);
    SIMCMP_EQ(tcd, "step", st);
    SIMCMP_EQ(bytes, "step", st);
    SIMCMP_EQ(max_link_load, "step", st);
    SIMCMP_EQ(link_overloads, "step", st);
    SIMCMP_EQ(max_channel_load, "step", st);
    SIMCMP_EQ(port_conflicts, "step", st);
    SIMCMP_EQ(violations, "step", st);
    SIMCMP_EQ(critical_node, "step", st);
    SIMCMP_EQ(informed, "step", st);
    SIMCMP_EQ(max_len, "step", st);
    SIMCMP_EQ(max_bytes, "step", st);
    SIMCMP_EQ(subrounds, "step", st);
    simcmp_cost_(sim_cost_until(a, st), sim_cost_until(b, st), "total until", "step", st,
                 __FILE__, __LINE__);
    /* the loads asked for after the run (counted then), copied before b's are asked for */
    const Net *net = sched_net(sim_sched(a));
    int64_t nl = net_nlinks(net);
    assert_int_equal(nl, net_nlinks(sched_net(sim_sched(b))));
    if (net_kind(net) == NET_FULL) {   /* a pair net: no array of loads, pair link by link */
        for (int64_t l = 0; l < nl; l++)
            simcmp_eq_((unsigned long long)sim_link_load(a, st, l),
                       (unsigned long long)sim_link_load(b, st, l), "pair link's load", "step",
                       st, __FILE__, __LINE__);
        return;
    }
    const int32_t *lp = sim_link_loads(a, st);
    assert_non_null(lp);
    int32_t *la = malloc((size_t)(nl > 0 ? nl : 1) * sizeof *la);
    assert_non_null(la);
    memcpy(la, lp, (size_t)nl * sizeof *la);
    const int32_t *lb = sim_link_loads(b, st);
    assert_non_null(lb);
    for (int64_t l = 0; l < nl; l++)
        if (la[l] != lb[l]) {
            print_error("simcmp: link %lld's load in step %ld: %ld != %ld\n", (long long)l,
                        (long)st, (long)la[l], (long)lb[l]);
            free(la);
            _fail(__FILE__, __LINE__);
        }
    free(la);
}

/* Every violation kept (the same number), every field, and its text. */
static inline void simcmp_violations(const Sim *a, const Sim *b)
{
    assert_int_equal(sim_nviolations(a), sim_nviolations(b));
    for (size_t i = 0; i < sim_nviolations(a); i++) {
        const SimViolation *x = sim_violation(a, i), *y = sim_violation(b, i);
        SIMCMP_EQ(kind, "violation", (long long)i);
        SIMCMP_EQ(step, "violation", (long long)i);
        SIMCMP_EQ(node, "violation", (long long)i);
        SIMCMP_EQ(link, "violation", (long long)i);
        SIMCMP_EQ(chunk, "violation", (long long)i);
        SIMCMP_EQ(transfer, "violation", (long long)i);
        SIMCMP_EQ(load, "violation", (long long)i);
        SIMCMP_EQ(recvs, "violation", (long long)i);
        char ta[256], tb[256];
        sim_violation_text(a, x, ta, sizeof ta);
        sim_violation_text(b, y, tb, sizeof tb);
        assert_string_equal(ta, tb);
    }
}

/* Every node's holdings at the Sims' present positions: the same position, the same ranges,
 * the same count, and chunk by chunk. */
static inline void simcmp_holdings(const Sim *a, const Sim *b)
{
    const Net *net = sched_net(sim_sched(a));
    int32_t nodes = net_size(net);
    uint32_t nch = sched_nchunks(sim_sched(a));
    assert_int_equal(nodes, net_size(sched_net(sim_sched(b))));
    assert_int_equal(nch, sched_nchunks(sim_sched(b)));
    assert_int_equal(sim_pos(a), sim_pos(b));
    for (int32_t v = 0; v < nodes; v++) {
        size_t na, nb;
        const ChunkRange *ra = sim_holdings(a, v, &na), *rb = sim_holdings(b, v, &nb);
        simcmp_eq_(na, nb, "number of held ranges", "node", v, __FILE__, __LINE__);
        for (size_t j = 0; j < na; j++) {
            simcmp_eq_(ra[j].lo, rb[j].lo, "a held range's lo", "node", v, __FILE__, __LINE__);
            simcmp_eq_(ra[j].hi, rb[j].hi, "a held range's hi", "node", v, __FILE__, __LINE__);
        }
        simcmp_eq_(sim_held(a, v), sim_held(b, v), "chunks held", "node", v, __FILE__, __LINE__);
        for (uint32_t c = 0; c < nch; c++)
            simcmp_eq_(sim_holds(a, v, c), sim_holds(b, v, c), "a chunk held", "node", v,
                       __FILE__, __LINE__);
    }
}

/* A not-held violation a test's own reference (bitmaps) expects: the step, the sender, the
 * transfer and the first chunk it lacked. */
typedef struct {
    int32_t step, node;
    int64_t x;
    uint32_t chunk;
} SimcmpNotHeld;

/* s's not-held violations are exactly nh[0..nnh), in order (other kinds skipped). */
static inline void simcmp_not_held(const Sim *s, const SimcmpNotHeld *nh, int nnh)
{
    int k = 0;
    for (size_t i = 0; i < sim_nviolations(s); i++) {
        const SimViolation *v = sim_violation(s, i);
        if (v->kind != SIM_V_NOT_HELD)
            continue;
        assert_true(k < nnh);
        assert_int_equal(v->step, nh[k].step);
        assert_int_equal(v->node, nh[k].node);
        assert_int_equal(v->transfer, nh[k].x);
        assert_int_equal(v->chunk, nh[k].chunk);
        k++;
    }
    assert_int_equal(k, nnh);
}

/* Everything above: the totals, every step, the violations, the holdings. */
static inline void simcmp_runs(Sim *a, Sim *b)
{
    simcmp_totals(a, b);
    for (int32_t st = 0; st < sim_totals(a)->nsteps; st++)
        simcmp_step(a, b, st);
    simcmp_violations(a, b);
    simcmp_holdings(a, b);
}

#endif
