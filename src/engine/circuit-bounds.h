/* circuit-bounds.h — Peters & Syska's lower bounds on broadcasting under the circuit model.
 *
 * Proposition 1: in a vertex-transitive graph with N nodes, degree Delta, edge connectivity
 * lambda and diameter D, a broadcast of L bytes takes at least
 *     max( ceil(log_{Delta+1} N) alpha,  D delta,  L tau / lambda,  alpha + D delta + L tau / Delta ).
 * Rings and tori are vertex-transitive; Delta and lambda are their 2*ndim ports (a dimension
 * of extent 2 still has two arcs each way: two parallel links), D = sum of floor(extent/2).
 *
 * Corollary 1 (n x n tori only), as printed:
 *     max( 2 ceil(log_5 n) alpha,  alpha + 2 floor(n/2) delta + L tau / 4 ).
 * Its start-up term is NOT implied by Proposition 1 (ceil(log_5 n^2) can be smaller than
 * 2 ceil(log_5 n)) and is beaten by the paper's own 10x10 tiling and 8x8 divide-and-conquer
 * (3 phases): docs/errata.md.  It is computed here to be shown beside the measured runs, and
 * never used as a bound.
 *
 * Ownership: plain values.
 */
#ifndef MESHCAST_CIRCUIT_BOUNDS_H
#define MESHCAST_CIRCUIT_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"
#include "net.h"

typedef struct {
    int32_t phases;        /* ceil(log_{Delta+1} N): the start-up multiple of alpha */
    int64_t diameter;      /* D: the switching multiple of delta */
    int degree, lambda;    /* Delta, lambda */
    double startup, switching, propagation, combined; /* the four terms of Proposition 1 */
    double total;          /* their max */
    bool corollary;        /* an n x n torus: Corollary 1's terms below are set */
    int32_t cor_phases;    /* 2 ceil(log_5 n) */
    double cor_startup, cor_rest, cor_total;
} CircuitBounds;

/* The bounds for a broadcast of `bytes` on net under p's alpha, delta and tau.  False (and
 * nothing set) when net is not a ring or torus (not vertex-transitive: Proposition 1 does not
 * apply). */
bool bounds_circuit(const Net *net, const CostParams *p, uint64_t bytes, CircuitBounds *out);

/* The smallest k with base^k >= n (n >= 1, base >= 2). */
int32_t bounds_ceil_log(int64_t n, int64_t base);

#endif
