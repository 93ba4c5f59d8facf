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
 * ("auto: the paper's s=23 r=3 costs 1234 units; the best found by search, s=25 r=3, costs 1220
 * units (simulated, whole bytes; with packets of k/s bytes: 1201.5, and its best s=24 r=3
 * 1199.2)": both simulated, packets of ceil(k/s) bytes; then the same step counts in the
 * continuous model the paper's formulas assume, at the paper's (r, s) and at that model's own
 * best.  For the binary tree the s is the corrected formula's sqrt(kd/(2t)), and Section 2's
 * printed sqrt(2kd/t) is shown beside it, simulated; docs/errata.md) and
 * return true; false (note empty) otherwise.  *s_paper, *r_paper get the paper's values (may
 * be NULL). */
bool sanders_autotune(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *note,
                      size_t len);

/* The cheapest (s, r) of algorithm `name` (chain, bintree, fractional, or a -simplex one) on
 * P PUs for k bytes under p, by the exact step count times t + beta*ceil(k/s): s in
 * 1..min(k, 16384) (chain: 2^20), r in rlo..min(rhi, P) and 2^20 (fractional); the first in
 * that order on a tie.  Every (r, s) is accounted for: those whose lower bound
 * (d + s)*(t + beta*k/s) is above the best so far are skipped unpriced.  Returns that cost
 * (-1 for an unknown name). */
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

/* The largest speedup of Fig. 3 over every integer k in lo..hi (not a sample): branch and
 * bound.  Each of the three costs is nondecreasing in k (every (r, s) costs
 * steps*(t + beta*ceil(k/s)), nondecreasing, and the s allowed only grow with k, each new one
 * costing at least the last k's best), so on [a, b] every speedup is at most
 * min(chain, bintree)(b) / fractional(a); an interval whose bound does not beat the best
 * speedup found is dropped, the others are halved until every integer is either priced or
 * bounded.  The result is the exact maximum (the smallest k on a tie) with its point;
 * `evaluated` says how many k were priced. */
typedef struct {
    uint64_t k;
    SandersFig3 at;
    uint64_t evaluated;
} SandersFig3Max;
void sanders_fig3_max(int64_t P, uint64_t lo, uint64_t hi, const CostParams *p,
                      SandersFig3Max *out);

/* The dense grid of Fig. 3's curves: n values of k/t from lo to hi evenly spaced on a log
 * scale, llround(lo * (hi/lo)^(i/(n-1))), repeats dropped, into out (room for n); returns how
 * many.  `tradeoff --points N` and the Chart panel's plots use it. */
int sanders_fig3_grid(uint64_t lo, uint64_t hi, int n, uint64_t *out);

#endif
