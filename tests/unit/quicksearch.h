/* quicksearch.h — for the unit tests that sweep every built-in algorithm over nets (test_reduce,
 * test_sim_shape): a search (ALGO_SEARCH, tcd-opt on a net over 16 nodes: its annealing's
 * 1.5M moves take seconds a build, tens under the sanitizers: 95% of those sweeps' time) is
 * run with QUICK_MOVES moves.  Its schedule is still the search's own (a time-step-optimal
 * broadcast from the same starts, the same code), only searched less: what the sweeps check of
 * a schedule (its steps' shapes, its reversal as a reduction) does not depend on how far its
 * TCD was brought down.  test_cangwu tests the search itself with its full budget.  Include
 * after <cmocka.h> and algo.h. */
#ifndef MESHCAST_TEST_QUICKSEARCH_H
#define MESHCAST_TEST_QUICKSEARCH_H

#define QUICK_MOVES "20000"

static inline void quick_search(const AlgoDef *d, AlgoArgs *a)
{
    if (d->flags & ALGO_SEARCH) {
        char err[256];
        if (algo_args_set(a, d, "moves", QUICK_MOVES, err, sizeof err) != 0)
            fail_msg("%s: moves=%s: %s", d->name, QUICK_MOVES, err);
    }
}

#endif
