/* algos-internal.h — what the algorithm families share inside src/algos (not for callers
 * outside the layer: they use algo.h).
 *
 * Every family file defines its AlgoDef objects; the table in algo.c lists them all.
 */
#ifndef MESHCAST_ALGOS_INTERNAL_H
#define MESHCAST_ALGOS_INTERNAL_H

#include "algo.h"

/* Linear arrays (Seidel 3.1, 3.3, 3.5, 4.x) — st_array.c, bst_array.c, rh_array.c */
extern const AlgoDef algo_st_array;     /* "st"  Table I linear ST (eq. 1, eq. 2 for nu > 0) */
extern const AlgoDef algo_bst_array;    /* "bst" Table I linear BST (eq. 7, eq. 8) */
extern const AlgoDef algo_rh_array;     /* "rh"  Table I linear RH */
/* Pipelined chain, any net — chain.c */
extern const AlgoDef algo_chain;        /* "chain" parameter s (packets) */
/* Meshes (Seidel 3.2, 3.4, 3.6) — st_mesh.c, bst_mesh.c, rh_mesh.c */
extern const AlgoDef algo_st_mesh;      /* "st"  eq. 6 ("better"; the nu = 0 form in 3.2.1) */
extern const AlgoDef algo_st_simple;    /* "st-simple" column then rows, eq. 3 */
extern const AlgoDef algo_st_5phase;    /* "st-5phase" eq. 4 */
extern const AlgoDef algo_bst_mesh;     /* "bst" eq. 10 and its nu > 0 form */
extern const AlgoDef algo_bst_rowcol;   /* "bst-rowcol" (d1+d2+2)(ma/2+b) */
extern const AlgoDef algo_bst_snake;    /* "bst-snake" eq. 9 */
extern const AlgoDef algo_rh_mesh;      /* "rh"  Table I mesh RH */

/* Section 5 — fit.c.  For an ALGO_POW2 def on a net whose extents are not all powers of two. */
bool fit_needed(const AlgoDef *d, const Net *net);
/* Check that the fit a->fit (FIT_AUTO means companions) can apply; message in err. */
bool fit_check(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen);
Sched *fit_build(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen);
bool fit_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                 double *total);

/* log2 of x if x is a power of two (x >= 1), else -1. */
int algo_log2(int64_t x);

/* ---- common.c: helpers shared by the families ----------------------------------------------- */

/* Open steps first..first+count-1 (in order) and label them all `label`. */
bool algo_open_steps(Sched *s, int32_t first, int count, const char *label);
/* The same, labelled "label (i/count)" when count > 1. */
bool algo_open_steps_counted(Sched *s, int32_t first, int count, const char *label);

/* A linear array of 2^d nodes with nu = 0 or nu < d: d, or -1 with a message in err. */
int algo_array_dims(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen);
/* fits of the linear st and bst: algo_array_dims, and about n(1+nu) transfers at most 3*2^23. */
bool algo_array_tree_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                          size_t errlen);

#endif
