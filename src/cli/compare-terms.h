/* compare-terms.h — `meshcast compare --terms`: Peters & Syska's Table 1, measured.
 *
 * For one message size: every algorithm given is built and simulated, and its start-ups
 * (phases: multiples of alpha), switched hops (multiples of delta) and L*tau multiples are
 * printed under the row of Proposition 1's lower bounds (on rings and tori), with its cost in
 * lockstep and/or asynchronous timing.  Text or JSON.  Every algorithm that runs on the net
 * is listed, built-in or shipped script; every one that does not is named with why.
 *
 * Ownership: borrows everything; prints to stdout.
 */
#ifndef MESHCAST_COMPARE_TERMS_H
#define MESHCAST_COMPARE_TERMS_H

#include <stdbool.h>
#include <stddef.h>

#include "../algos/algo.h"

enum { TERMS_LOCKSTEP = 1, TERMS_ASYNC = 2 };

/* defs/args: the built-ins that run on net.  The table adds every shipped Lua script that
 * runs there too (with the --set K=V that name its parameters), and ends with the built-ins
 * and scripts that do not run there, each with why ("st: runs on array, mesh only"; JSON
 * "not_run").  Returns the exit status: 0 if every schedule was verified, 1 otherwise. */
int compare_terms(const Net *net, const CostParams *cost, const AlgoDef *const *defs,
                  const AlgoArgs *args, size_t n, int32_t source, const char *const *sets,
                  size_t nsets, uint64_t bytes, unsigned timing, bool json);

#endif
