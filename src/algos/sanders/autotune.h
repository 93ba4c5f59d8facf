/* autotune.h — `--set s=auto` / `--set r=auto` for Sanders & Sibeyn's algorithms (chain,
 * bintree, fractional and the simplex versions): the run uses the paper's formulas
 * (ftree.c, chain.c); this says, beside them, which s and r a search of the simulated cost
 * finds.  The search: every s in 1..min(m, 4096) (and r in 1..min(P, 32) for r=auto) is
 * priced by the step count (which equals the simulation's, test_ftree) times t + beta*ceil(m/s);
 * the five cheapest are built and simulated, and the cheapest simulated one is reported. */
#ifndef MESHCAST_SANDERS_AUTOTUNE_H
#define MESHCAST_SANDERS_AUTOTUNE_H

#include <stdbool.h>
#include <stddef.h>

#include "../algo.h"

/* If d is one of the paper's algorithms and a asks for s or r = auto: write one line into note
 * ("auto: the paper's s=23 r=3 costs 1234 units; the best found, s=25 r=3, costs 1220 units") and
 * return true; false (note empty) otherwise.  *s_paper, *r_paper get the paper's values (may
 * be NULL). */
bool sanders_autotune(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *note,
                      size_t len);

/* The cheapest (s, r) of algorithm `name` (chain, bintree, fractional, or a -simplex one) on
 * P PUs for k bytes under p, by the exact step count times t + beta*ceil(k/s): s in
 * 1..min(k, 16384) (chain: 2^20), r in rlo..min(rhi, P) and 2^20 (fractional).  Returns
 * that cost (-1 for an unknown name). */
double sanders_search_best(const char *name, int64_t P, uint64_t k, const CostParams *p,
                           int64_t rlo, int64_t rhi, int64_t *best_s, int64_t *best_r);

/* One point of Fig. 3 (`meshcast tradeoff`, the TUI's Chart panel): on P PUs for k bytes
 * under p, the cheapest chain, binary tree and fractional tree (r in 1..64, or one group as
 * long as the message) by sanders_search_best, and the speedup of the fractional tree over
 * the better of the other two. */
typedef struct {
    double chain, bintree, frac, speedup;
    int64_t s_chain, s_bin, s_frac, r_frac;
} SandersFig3;
void sanders_fig3_point(int64_t P, uint64_t k, const CostParams *p, SandersFig3 *out);

#endif
