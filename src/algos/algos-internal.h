/* algos-internal.h — what the algorithm families share inside src/algos (not for callers
 * outside the layer: they use algo.h).
 *
 * Every family file defines its AlgoDef objects; the table in algo.c lists them all.
 */
#ifndef MESHCAST_ALGOS_INTERNAL_H
#define MESHCAST_ALGOS_INTERNAL_H

#include "algo.h"

/* ---- The algorithms, one folder per paper (docs/algorithms.md).  Each paper
 * declares its defs in its own section below; the table in algo.c lists them in the same
 * sections. ------------------------------------------------------------------------------- */

/* == Seidel: seidel/ ==
 * Linear arrays (3.1, 3.3, 3.5, 4.x) — st_array.c, bst_array.c, rh_array.c */
extern const AlgoDef algo_st_array;     /* "st"  Table I linear ST (eq. 1, eq. 2 for nu > 0) */
extern const AlgoDef algo_bst_array;    /* "bst" Table I linear BST (eq. 7, eq. 8) */
extern const AlgoDef algo_rh_array;     /* "rh"  Table I linear RH */
/* Meshes (3.2, 3.4, 3.6) — st_mesh.c, bst_mesh.c, rh_mesh.c */
extern const AlgoDef algo_st_mesh;      /* "st"  eq. 6 ("better"; the nu = 0 form in 3.2.1) */
extern const AlgoDef algo_st_simple;    /* "st-simple" column then rows, eq. 3 */
extern const AlgoDef algo_st_5phase;    /* "st-5phase" eq. 4 */
extern const AlgoDef algo_bst_mesh;     /* "bst" eq. 10 and its nu > 0 form */
extern const AlgoDef algo_bst_rowcol;   /* "bst-rowcol" (d1+d2+2)(ma/2+b) */
extern const AlgoDef algo_bst_snake;    /* "bst-snake" eq. 9 */
extern const AlgoDef algo_rh_mesh;      /* "rh"  Table I mesh RH */

/* == Sanders & Sibeyn: sanders/ ==
 * Pipelined chain, any net — chain.c */
extern const AlgoDef algo_chain;        /* "chain" parameter s (packets) */
/* Fractional trees and the pipelined binary tree (r = 1), duplex and simplex — ftree.c */
extern const AlgoDef algo_bintree;            /* "bintree" s */
extern const AlgoDef algo_fractional;         /* "fractional" r, s */
extern const AlgoDef algo_bintree_simplex;    /* "bintree-simplex" s */
extern const AlgoDef algo_fractional_simplex; /* "fractional-simplex" r, s */
extern const AlgoDef algo_bintree_direct;     /* "bintree-direct" s (simplex, 3 per packet) */
extern const AlgoDef algo_fractional_direct;  /* "fractional-direct" r, s (simplex, 2r+1 a run) */
/* fdirect.c: the direct simplex fractional tree's periodic-model bound on its steps, and its
 * closed form (the bound where it is exact, and the small nets; -1 where none is offered). */
int64_t sanders_fdirect_bound(int64_t P, int64_t r, int64_t s);
/* its steps for one run of j0 + 1 packets (the bound is that plus (2r+1) per further run) */
int64_t sanders_fdirect_latency(int64_t P, int64_t r, int64_t j0);
int64_t sanders_fdirect_steps(int64_t P, int64_t r, int64_t s);
/* Steps of the direct simplex binary tree: d + 3s - 2 (s for P = 2, 2s for P = 3). */
int64_t sanders_direct_steps(int64_t P, int64_t s);
/* The layout recurrence P_i = r + P_{i-r} + P_{i-r-1} (P_i = i+1 for i <= r); -1 if i < 0. */
int64_t sanders_tree_size(int64_t i, int64_t r);
/* d = min{i : P_i >= P} - 1: the level (0-based step) at which the last PU gets packet 0. */
int64_t sanders_tree_depth(int64_t P, int64_t r);
/* Steps of the duplex fractional tree (Fig. 2) with s packets: d + (r+1)floor((s-1)/r) +
 * (s-1) mod r + 1 (ftree.c says why; -1 on bad arguments). */
int64_t sanders_tree_steps(int64_t P, int64_t r, int64_t s);
/* ftree.c gives a duplex step on a net of one dimension as affine blocks (sched-affine.h),
 * which the simulator may replay block by block; false (tests only): as the general rule, the
 * same transfers in the same order, replayed transfer by transfer. */
extern bool ftree_affine;
/* Every parameter of d in a a whole number >= 1 or auto; else false with a one-line message
 * (ftree.c, for the trees' fits). */
bool sanders_params_whole(const AlgoDef *d, const AlgoArgs *a, char *err, size_t errlen);
/* A predict's "no closed form, because ...": writes the phrase into why when why is not NULL
 * (printf-style) and returns false, the predict's answer. */
bool sanders_why(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The trees' closed forms price their steps alike: steps * (t + beta L) under postal, steps *
 * (a L + b) under seidel on full:P (elsewhere the embedding's shared links decide), with L the
 * bytes of one of np equal packets of m.  Into *total, or false with why (sanders_why). */
bool sanders_price(const Net *net, const CostParams *p, uint64_t m, int64_t np, double steps,
                   double *total, char *why, size_t len);
/* The paper's choices (ftree.c): r = (k(r+1)/(d t))^(1/3) iterated, and s = sqrt(kdr/(t(r+1)))
 * for k = beta*m, on P PUs. */
int64_t sanders_paper_r(int64_t P, double k, double t);
int64_t sanders_paper_s(int64_t P, int64_t r, double k, double t, uint64_t bytes);
/* The order in which chain and trees are embedded: position -> node id and back (the line on
 * 1-D nets; the snake on meshes and tori). */
int32_t sanders_order_node(const int32_t *dims, int nd, int64_t pos);
int64_t sanders_order_pos(const int32_t *dims, int nd, int32_t node);
/* Section 4 (Meshes): the fractional tree embedded in a mesh, the group tree an H-tree —
 * embed.c (its tree is scheduled by gtree.c) */
extern const AlgoDef algo_fractional_htree;   /* "fractional-htree" r, s, r1 */
/* Its deepest offset d = 2r - 2 + (log2 G - 1)(r+1) on net (-1 if it does not fit). */
int64_t sanders_embed_depth(const AlgoDef *d, const Net *net, const AlgoArgs *a);
/* Section 4 (Hierarchies of Crossbars): the global tree of one group per module and local
 * trees inside — hxbar.c */
extern const AlgoDef algo_fractional_hxbar;   /* "fractional-hxbar" r, s */

/* == Cang & Wu: cangwu/ ==
 * The eyes and closed forms: forms.c (cangwu/cangwu.h); Algorithm 1: tcd.c */
extern const AlgoDef algo_tcd;          /* "tcd" Algorithm 1, any source; d-D; tori */
extern const AlgoDef algo_tcd_opt;      /* "tcd-opt" least TCD: exact (opt.c) or search.c */

/* == Peters & Syska: peters/ ==
 * Circuit-switched tori — tiling.c, dc.c, htree.c, flood.c, saftrees.c (phases.c: shared phase patterns and trees) */
extern const AlgoDef algo_tiling;       /* "tiling" Section 4, Theorem 2 and expansions */
extern const AlgoDef algo_dc;           /* "dc" Section 5, divide and conquer, pipelined */
extern const AlgoDef algo_htree;        /* "htree" Section 5, two H-trees, pipelined */
extern const AlgoDef algo_flood;        /* "flood" Table 1's store-and-forward baseline, d = 1 */
extern const AlgoDef algo_saf_trees;    /* "saf-trees" Table 1's store-and-forward row, 4 trees */

/* == s-to-p (the s-to-p paper): stop/ ==
 * Br_Lin and Br_xy (Section 2) — brlin.c; Xor and 2-Step — xor.c; Repos and Part (Section
 * 3) — repos.c; the messages' chunk order — order.c */
extern const AlgoDef algo_br_lin;          /* "br-lin" */
extern const AlgoDef algo_br_xy_source;    /* "br-xy-source" */
extern const AlgoDef algo_br_xy_dim;       /* "br-xy-dim" */
extern const AlgoDef algo_xor;             /* "xor" */
extern const AlgoDef algo_two_step;        /* "2-step" */
extern const AlgoDef algo_repos_lin;       /* "repos-lin" */
extern const AlgoDef algo_repos_xy_source; /* "repos-xy-source" */
extern const AlgoDef algo_part_lin;        /* "part-lin" */
extern const AlgoDef algo_part_xy_source;  /* "part-xy-source" */
/* The givens of an s-to-p schedule: the ns sources each get k chunks, in the order that keeps
 * Br_Lin's combined messages contiguous (order.c). */
bool stop_give(Sched *s, const int32_t *src, int32_t ns, uint32_t k);

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
bool algo_open_steps_n(Sched *s, int32_t first, int count, const char *label);

/* A linear array of 2^d nodes with nu = 0 or nu < d: d, or -1 with a message in err. */
int algo_array_dims(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen);
/* fits of the linear st and bst: algo_array_dims, and about n(1+nu) transfers at most 3*2^23. */
bool algo_array_tree_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                          size_t errlen);

/* Metanodes (Seidel 3.1.2, 4.2): the 2^nu consecutive members of a group base + j*stride.
 * At steps t .. t+nu-1, member root scatters [lo,hi) over its metanode (blocks_distribute). */
bool algo_meta_distribute(Sched *s, int32_t t, int32_t base, int32_t stride, int nu,
                          int32_t root, uint32_t lo, uint32_t hi);
/* At steps t .. t+nu-1, the dimensional exchange of [lo,hi) in every metanode of the group of
 * 2^k members (blocks_exchange). */
bool algo_meta_exchange(Sched *s, int32_t t, int32_t base, int32_t stride, int k, int nu,
                        uint32_t lo, uint32_t hi);
/* Linear ST of eq. 2 (3.1.2, any source 4.2) on the group base + j*stride (2^k members) from
 * member root, of [lo,hi) cut into 2^nu packets: distribute over root's metanode, 2^nu
 * interleaved trees, exchange in every metanode; steps t .. t + k + nu - 1 (opened, not
 * labelled).  The linear st (nu > 0) and the mesh st-simple. */
bool algo_lin_st(Sched *s, int32_t t, int32_t base, int32_t stride, int k, int nu,
                 int32_t root, uint32_t lo, uint32_t hi);

/* x with its low d bits reversed (0 < d <= 32; bits above d ignored). */
static inline uint32_t algo_bitrev(uint32_t x, int d)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    x = (x >> 16) | (x << 16);
    return x >> (32 - d);
}

static inline int algo_imin(int x, int y) { return x < y ? x : y; }
static inline int algo_imax(int x, int y) { return x > y ? x : y; }

/* The log2 extents of a 2-D power-of-two mesh, or false. */
bool algo_mesh_dims(const Net *net, int *d1, int *d2);
/* algo_mesh_dims of s's net for a build: false after sched_fail "not a 2-D power-of-two mesh". */
bool algo_mesh_build_dims(Sched *s, int *d1, int *d2);
/* A 2-D mesh of 2^d1 x 2^d2 nodes with need <= min(d1,d2); else "... needs <why>" in err. */
bool algo_mesh_fits(const AlgoDef *d, const Net *net, int need, const char *why, char *err,
                    size_t errlen);
/* True, with a message in err, if about per_node transfers per node exceed cap: schedules
 * too big to hold in memory. */
bool algo_too_big(const AlgoDef *d, const Net *net, int64_t per_node, int64_t cap, char *err,
                  size_t errlen);
#define ALGO_MESH_MAX_TRANSFERS (INT64_C(1) << 24)   /* the mesh ST and BST family's cap */
#define ALGO_RH_MAX_TRANSFERS (INT64_C(3) << 23)     /* RH's (n lg n): admits 2^20 nodes */
/* fits of the mesh ST and BST families: 0 <= nu <= numax, nu+plus <= min(d1,d2) (plus is 0
 * or 1), and at most ALGO_MESH_MAX_TRANSFERS for about per_node transfers per node. */
bool algo_mesh_nu_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, int numax,
                       int plus, int64_t per_node, char *err, size_t errlen);
/* The mesh closed forms' preconditions: the seidel model, its nu the structural nu, and a
 * 2-D power-of-two mesh (its log2 extents into d1, d2). */
bool algo_seidel_mesh_predict_ok(const Net *net, const AlgoArgs *a, const CostParams *p,
                                 int *d1, int *d2);

/* The mesh ST and BST (st_mesh.c, bst_mesh.c).  A (sub)mesh of 2^D1 x 2^D2 nodes embedded in
 * the physical mesh: its node (R,C) is the physical node (r0 + R*g, c0 + C*g). */
typedef struct {
    Sched *s;
    int32_t cols;   /* physical columns */
    int32_t r0, c0; /* physical coordinates of the submesh's node (0,0) */
    int32_t g;      /* physical distance between neighbouring submesh nodes */
    int D1, D2;
} AlgoSub;

int32_t algo_sub_node(const AlgoSub *m, int32_t R, int32_t C);
/* Phase b of 3.2.1 (and of 3.4.1, once per tree): the four parity classes (a,b) of m (submesh
 * rows a+2R', columns b+2C', a 2^(D1-1) x 2^(D2-1) mesh) broadcast [cls_lo[2a+b], +len) from
 * their node (R1,C1), red ones column then row, black ones row then column; red are the
 * classes with (a^b)&1 == red_par.  Steps t .. t + 2L - 1 with L = max(D1,D2) - 1; the shorter
 * axis waits |D1-D2| steps. */
bool algo_checker_st(const AlgoSub *m, int32_t t, int red_par, int32_t R1, int32_t C1,
                     const uint32_t cls_lo[4], uint32_t len);
/* Phase c: two exchanges in every 2x2 block of m, at steps t (along the row, halves of
 * [lo,hi)) and t+1 (along the column, all of [lo,hi)). */
bool algo_sub_exchange_2x2(const AlgoSub *m, int32_t t, uint32_t lo, uint32_t hi);
/* Steps t .. t+2nu-1 (opened and labelled here; nothing when nu = 0): the source scatters
 * [0, 2^2nu pk) over the 2^nu x 2^nu block holding it, down its column then along the block's
 * rows, so that block position (i,j) gets [(i 2^nu + j) pk, +pk). */
bool algo_block_distribute(Sched *s, int32_t t, int32_t source, int nu, uint32_t pk);
/* Steps t .. t+2nu-1 (opened and labelled here; nothing when nu = 0): the dimensional exchange
 * in every 2^nu x 2^nu block, along the rows then the columns; every node ends with all of
 * [0, 2^2nu pk) in order. */
bool algo_block_exchange(Sched *s, int32_t t, int nu, uint32_t pk);

/* Open and label the steps t .. of the per-submesh algorithm (L = max(D1,D2) - 1). */
typedef bool (*AlgoSubLabels)(Sched *s, int32_t t, int nu, int L);
/* The per-submesh algorithm: in m from its node (SR,SC), of chunks [lo,hi), from step t. */
typedef bool (*AlgoSubBuild)(const AlgoSub *m, int32_t t, int32_t SR, int32_t SC, uint32_t lo,
                             uint32_t hi);
/* The frame of the "better" mesh ST (3.2.1-2) and BST (3.4.1-2) on s's 2^d1 x 2^d2 mesh:
 * algo_block_distribute of 2^2nu packets of pk chunks (steps 0 .. 2nu-1); labels, then sub in
 * each of the 2^2nu interleaved 2^(d1-nu) x 2^(d2-nu) submeshes on its block position's packet,
 * from the source's submesh coordinates (steps 2nu .. 2nu + fixed_steps + 2L - 1);
 * algo_block_exchange (the last 2nu steps). */
bool algo_better_mesh_build(Sched *s, const AlgoArgs *a, uint32_t pk, int fixed_steps,
                            AlgoSubLabels labels, AlgoSubBuild sub);

#endif
