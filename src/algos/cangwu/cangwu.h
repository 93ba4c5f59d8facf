/* cangwu.h — Cang & Wu: the eyes of a 2^k mesh, the closed forms of the total
 * communication distance (TCD) of their time-step optimal broadcasts, and the exact and
 * heuristic minimum-TCD search (tcd-opt).  For callers above src/algos (the TUI marks the eyes,
 * Lua reaches them, `tcd-table` and the tests use the forms); the algorithms themselves are
 * the AlgoDefs `tcd` and `tcd-opt` in algo.h's table.
 *
 * Coordinates: meshcast's, node (r,c) = id r*cols+c, (0,0) top-left.  The paper writes N(x,y)
 * with x the column and y the row; its u_k runs along the row (columns) and v_k along the
 * column (rows), both positive away from the centre (Fig. 4).
 *
 * Nets: the paper's d-D 2^k mesh is `array:2^k`, `mesh:2^kx2^k` or `mesh:2^kx2^kx2^k` (every
 * extent the same power of two); its torus remark (Section 5) is the same on `ring:`/`torus:`.
 */
#ifndef MESHCAST_CANGWU_H
#define MESHCAST_CANGWU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../engine/net.h"
#include "../../engine/sched.h"

/* eq. 2: the side of the eye-square of a 2^k mesh, a_k = (2^k - (-1)^k) / 3 (a_0 = 0: a 1-node
 * mesh is its own eye).  0 <= k <= 30. */
int64_t cangwu_a(int k);
/* Where the eyes sit along one dimension of a 2^k segment: offsets lo = (2^k - 1 - a_k)/2 and
 * lo + a_k (Definition 2: the eye-square is centred). */
int64_t cangwu_eye_lo(int k);

/* The net is a d-D 2^k mesh or torus (every extent 2^k, 1 <= d <= 3, k >= 0): d and k. */
bool cangwu_shape(const Net *net, int *d, int *k);
/* The level whose eyes step `step` of a tcd broadcast works on: k - step/d (k .. 1). */
int cangwu_step_level(const Net *net, int32_t step);
/* The 2^d eyes (node ids, in orthant order: bit i set = upper half of dimension i) of the
 * submesh of side 2^level holding `node`.  On a torus the mesh is the one the tcd broadcast
 * from `source` lays over it (the source at an eye E_k(1)); on a mesh `source` is ignored.
 * Returns 2^d, or 0 if the net is not a 2^k mesh/torus or level is outside 1..k. */
int cangwu_eyes(const Net *net, int32_t source, int level, int32_t node, int32_t out[8]);
/* What the map marks at node during step `step` of a tcd broadcast from source (step < 0:
 * before the first step): 2 = an eye of the whole net (E_k), 1 = an eye of a quadrant of the
 * submesh being solved (E_(j-1), j = cangwu_step_level; the nodes the level informs), 0 none.
 * 0 when the net is not a 2^k mesh/torus. */
int cangwu_eye_mark(const Net *net, int32_t source, int32_t step, int32_t node);
/* Does the link from node one step up dimension dim cross the boundary between two quadrants
 * of the level step `step` works on (quadrants of side 2^(j-1), j >= 2; step < 0: level k)?
 * The map leaves such idle links out, so the quadrants stand apart.  Torus: as cangwu_eyes. */
bool cangwu_quadrant_edge(const Net *net, int32_t source, int32_t step, int32_t node, int dim);
/* Is node an eye of the whole net (level k)? */
bool cangwu_is_eye(const Net *net, int32_t node);

/* The paper's closed forms and recursions (exact integers).  k >= 1, d in 1..3. */
/* eqs. 11-12 (eq. 3 at d = 2): MD_k^d(E_k) by its recursion. */
int64_t cangwu_md_eye_rec(int d, int k);
/* eq. 13 (eq. 10 at d = 2, eq. 14 at d = 3), with the garbled denominator read as
 * 3(2^d+1)(2^(d-1)-1); false when it is undefined (d = 1) or not an integer. */
bool cangwu_md_eye_closed(int d, int k, int64_t *out);
/* eq. 10 exactly as printed: (3*2^(2k+1) - (-1)^k)/5 - 2^k. */
int64_t cangwu_md_eye_eq10(int k);
/* eq. 14 as printed: 7/27 (2^(3k+2) - (-1)^k - 3*2^k). */
int64_t cangwu_md_eye_eq14(int k);
/* eq. 8 (recursion) and eq. 9 (closed form): MD_k(0,0), the corner of a 2^k x 2^k mesh. */
int64_t cangwu_md_corner_rec(int k);
int64_t cangwu_md_corner_eq9(int k);
/* eq. 5: f_k(u_k, v_k) for a source in the upper-left quadrant, by region (i)..(vi). */
int64_t cangwu_f(int k, int64_t u, int64_t v);
/* eq. 4 unrolled (eq. 7): D_k(S) of Algorithm 1 from node (r,c) of a 2^k x 2^k mesh.
 * literal 1: the paper's words, the mesh rotated until S is upper-left, then the row first
 * (f_k(v,u) in the upper-right and lower-left quadrants, f_k(u,v) in the others); 2: the row
 * first always (mirrored into the upper-left quadrant, f_k(u,v)); 0: each level the better of
 * row-first and column-first, f_k = min(f_k(u,v), f_k(v,u)). */
int64_t cangwu_d_rec(int k, int32_t r, int32_t c, int literal);

/* ---- the net's symmetries (sym.c) -------------------------------------------------------
 * g in 0 .. CANGWU_NSYMS-1 names a permutation of the dimensions (g / 8) and a set of
 * reflected dimensions (bits of g % 8); valid on a net when it permutes only dimensions of one
 * extent.  keep_routes: only those that map every dimension-ordered route onto the image's
 * route (reflections on a mesh; the identity on a torus), so contention is kept too. */
#define CANGWU_NSYMS 48
bool cangwu_sym_valid(const Net *net, int g, bool keep_routes);
int32_t cangwu_sym_apply(const Net *net, int g, int32_t node);
/* The least node id of node's orbit, and (if g_to_node) a symmetry carrying it to node. */
int32_t cangwu_orbit_rep(const Net *net, int32_t node, bool keep_routes, int *g_to_node);
/* Append src's steps (a one-chunk broadcast), every transfer mapped by g, to dst (whose
 * source, g of src's, the caller has given).  false on a failure of dst. */
bool cangwu_sched_map(const Sched *src, int g, Sched *dst);

/* ---- tcd-opt: the least TCD over all time-step optimal broadcasts (opt.c) ---------------
 *
 * A time-step optimal broadcast on N = 2^K nodes is a chain of informed sets X_0 = {s} ⊂ X_1
 * ⊂ ... ⊂ X_K = all, |X_t| = 2^t, and in step t a bijection from X_(t-1) onto X_t \ X_(t-1)
 * (every informed node sends once); its TCD is the sum of the route lengths.  Routes are the
 * net's default ones (XY on a 2-D mesh); with `cf` every step must also be contention-free
 * (no directed link used twice in a step).
 *
 * Exact (N <= 16): V[X] = the least TCD that completes the broadcast from informed set X, for
 * every X whose size is a power of two, by dynamic programming; the last step is an assignment
 * problem (Hungarian method, whose dual potentials are kept).  The proof that V[{s}] is the
 * minimum is the table itself, re-checked by cangwu_exact_check with other code: the duals
 * show each last-step value is a lower bound (u_i + v_j <= d(i,j), sum = V), and every other
 * set's value is checked against every doubling step from it by brute enumeration:
 * V[X] <= cost(step) + V[X + new nodes].  By induction no broadcast from s costs less than
 * V[{s}], and the schedule cangwu_exact_sched returns costs exactly that. */
typedef struct CangwuExact CangwuExact;
/* Solve every source of net (N = 2^K <= 16 nodes).  NULL with a message if too big. */
CangwuExact *cangwu_exact_new(const Net *net, bool cf, char *err, size_t errlen);
void cangwu_exact_free(CangwuExact *x);
/* V[{source}]: the least TCD from source (-1: no such broadcast, only possible with cf). */
int64_t cangwu_exact_value(const CangwuExact *x, int32_t source);
/* The informed sets the table holds (states) and the doubling steps the search weighed. */
int64_t cangwu_exact_states(const CangwuExact *x);
/* Re-check the proof (see above); false with the first failure in why.  *checked counts the
 * inequalities verified. */
bool cangwu_exact_check(const CangwuExact *x, int64_t *checked, char *why, size_t len);
/* Add the optimal broadcast from source to s (steps 0..K-1; s's givens set). */
bool cangwu_exact_sched(const CangwuExact *x, int32_t source, Sched *s);

/* Best effort (any N = 2^K): local search over the informed sets, each step an optimal
 * assignment (Hungarian), starting from `start` (a time-step optimal schedule, e.g. tcd's);
 * `moves` swap attempts with a fixed seed (deterministic).  Adds the best broadcast found to s
 * (never costlier than start); its TCD into *tcd.  false on a bad start (not time-step
 * optimal) or out of memory, with sched_fail. */
bool cangwu_search_sched(const Sched *start, bool cf, int64_t moves, Sched *s, int64_t *tcd);

/* The stronger search (anneal.c; cf = 0): simulated annealing over the informed sets with
 * every step's assignment kept optimal incrementally (dual potentials, one augmenting path per
 * changed row or column), in rounds from each of starts[0 .. nstarts-1] (time-step optimal
 * broadcasts from one source) and from the best so far; `moves` swap attempts in all.  Adds the
 * best broadcast found to s (never costlier than the best start), its TCD into *tcd.  Reports
 * progress and stops with "cancelled" when asked (engine/progress.h). */
bool cangwu_anneal(Sched *const *starts, int nstarts, int64_t moves, Sched *s, int64_t *tcd);

/* Inside cangwu/: the min-cost assignment of an n x n matrix a (n <= 256), row_of[j] = the row
 * matched to column j; scratch w64 of 4(n+1) and wint of 2(n+1).  Returns the cost. */
int64_t cangwu_hungarian(int n, const int32_t *a, int *row_of, int64_t *w64, int *wint);

#endif
