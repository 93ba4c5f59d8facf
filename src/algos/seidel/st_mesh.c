/* st_mesh.c — Seidel's spanning tree (ST) broadcasts on a 2^d1 x 2^d2 mesh (ORNL/TM-12356,
 * Section 3.2; any source: Section 4's conjecture, docs/algorithms.md).
 *
 * Node (r,c) has id r*cols+c; dimension 0 runs down the rows (a column is a vertical line),
 * dimension 1 along the columns (a row is a horizontal line).  Routing is XY: along the row
 * first, then along the column.  Every transfer below is straight (one row or one column).
 *
 *   st         the "better" ST: eq. 6, which is the 3.2.1 algorithm when nu = 0.
 *              1. (nu > 0) distribute the message as 2^2nu packets over the 2^nu x 2^nu block
 *                 holding the source: down the source's column, then along each block row, so
 *                 that block position (i,j) gets packet i*2^nu + j.
 *              2. every block node runs 3.2.1 in its interleaved submesh (nodes i + 2^nu R,
 *                 j + 2^nu C, a 2^(d1-nu) x 2^(d2-nu) mesh), on its packet cut in four:
 *                 a. distribute to the 2x2 corner (of the submesh): down the column, then along
 *                    the rows; position (a,b) gets quarter 2a+b;
 *                 b. four interleaved sub-submeshes (rows of parity a, columns of parity b)
 *                    each broadcast their quarter with a column-then-row ST (red cells) or a
 *                    row-then-column ST (black cells).  The broadcasts along the shorter axis
 *                    wait |D1-D2| steps, so that every ST switches axis at the same step
 *                    max(D1,D2)-1: 2(max(D1,D2)-1) steps;
 *                 c. two exchanges in every 2x2 block: along the row, then along the column.
 *              3. (nu > 0) dimensional exchange in every 2^nu x 2^nu block: along the rows (nu
 *                 steps), then the columns (nu steps).
 *              (2 + (max-nu-2)/2^(2nu+1)) ma + (2max + 2nu + 2) b  (eq. 6).
 *   st-simple  column, then rows (the first algorithm of 3.2.1; 3.2.2's eq. 3 for nu > 0): a
 *              linear ST (eq. 2: distribute over a metanode, interleaved trees, exchange) down
 *              the source's column, then one in every row.  (d1+d2)(ma+b) for nu = 0.
 *   st-5phase  the five phases of 3.2.2 (eq. 4): the exchange at the end of the first linear
 *              broadcast is delayed until the second is done, so the second axis carries
 *              m/2^2nu packets.
 *
 * Decisions (the figures are missing from our copy of the report):
 *  - The 2x2 corner distribution goes down the column first, then along the rows; the two
 *    final exchanges go along the row first (Figure 5 is lost; this keeps every node's packets
 *    in order, as Figure 10 does for the BST).
 *  - Red cells are the sub-submeshes whose corner has the source's colour (for node 0: (0,0)
 *    and (1,1)); red broadcast column then row, black row then column (3.2.1).
 *  - st-5phase goes along the shorter axis first: eq. 4 weighs the first axis by 1/2^nu and the
 *    second by 1/2^2nu, and 3.2.2 remarks that for d1 > d2 one should go along the top row
 *    first.  So: down the column first when d1 <= d2, along the row first when d1 > d2; the
 *    prediction is eq. 4 with (d1,d2) replaced by (min, max).
 *  - Any source: every tree is XOR-ed with the source's position along its line (blocks.h
 *    roots), the 2^nu x 2^nu block and the 2x2 block are those holding the source, and the
 *    checkerboard colours are taken relative to the source.  Packets stay where node 0's
 *    broadcast puts them (block position (i,j) holds packet i*2^nu+j), so no permutation.
 *  - Sizes: st needs nu+1 <= min(d1,d2) (3.2.1 needs a 2x2 corner in every submesh);
 *    st-simple and st-5phase need nu <= min(d1,d2) (a 2^nu metanode on every line).
 *  - Closed forms are given for the seidel model only, and only when the model's nu equals the
 *    structural nu the schedule was built with (as for the linear arrays).
 */
#include <math.h>
#include <stdio.h>

#include "../algos-internal.h"
#include "../blocks.h"

/* ---- helpers (those shared with bst_mesh.c are in common.c) ----------------------------- */

/* 3.2.1's "better" ST in submesh m from its node (SR,SC), of chunks [lo,hi) (hi-lo divisible
 * by 4), at steps t .. t + 3 + 2(max(D1,D2)-1).  Needs D1, D2 >= 1. */
static bool better_st(const AlgoSub *m, int32_t t, int32_t SR, int32_t SC, uint32_t lo,
                      uint32_t hi)
{
    uint32_t q = (hi - lo) / 4;
    int32_t BR = SR & ~1, BC = SC & ~1;
    int L = algo_imax(m->D1, m->D2) - 1;
    /* a. the 2x2 block holding the source: down the column, then along both rows */
    if (!blocks_distribute(m->s, t, algo_sub_node(m, BR, SC), m->g * m->cols, 1, (int)(SR & 1), lo,
                           hi))
        return false;
    for (int a = 0; a < 2; a++)
        if (!blocks_distribute(m->s, t + 1, algo_sub_node(m, BR + a, BC), m->g, 1, (int)(SC & 1),
                               lo + 2 * (uint32_t)a * q, lo + 2 * (uint32_t)(a + 1) * q))
            return false;
    /* b. four interleaved STs, checkerboard orientation relative to the source */
    uint32_t cls[4] = {lo, lo + q, lo + 2 * q, lo + 3 * q};
    if (!algo_checker_st(m, t + 2, (int)((SR ^ SC) & 1), SR >> 1, SC >> 1, cls, q))
        return false;
    /* c. two exchanges in every 2x2 block: along the row, then the column */
    if (!algo_sub_exchange_2x2(m, t + 2 + 2 * L, lo, hi))
        return false;
    return true;
}

/* A line of the mesh: axis 0 is the column `fixed` (vertical), axis 1 the row `fixed`. */
static void line_of(int32_t cols, int axis, int32_t fixed, int32_t *base, int32_t *stride)
{
    if (axis == 0) {
        *base = fixed;
        *stride = cols;
    } else {
        *base = fixed * cols;
        *stride = 1;
    }
}

/* ---- st: the "better" ST (3.2.1, eq. 6) -------------------------------------------------- */

static bool st_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    return algo_mesh_nu_fits(d, net, a, 14, 1, 3 + 2 * a->nu, err, errlen);
}

static uint32_t st_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 4u << (2 * a->nu);
}

static bool st_labels(Sched *s, int32_t t, int nu, int L)
{
    return algo_open_steps_n(s, t, 2, nu ? "distribute to the 2x2 corner of every submesh"
                                         : "distribute to the 2x2 corner") &&
           algo_open_steps_n(s, t + 2, 2 * L, "ST in submeshes (checkerboard)") &&
           algo_open_steps_n(s, t + 2 + 2 * L, 2, "exchange in 2x2 blocks");
}

static bool st_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    return algo_better_mesh_build(s, a, 4, 4, st_labels, better_st);
}

static bool st_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    (void)d;
    int d1, d2;
    if (!algo_seidel_mesh_predict_ok(net, a, p, &d1, &d2))
        return false;
    double m = (double)a->bytes, nu = p->nu, mx = algo_imax(d1, d2);
    *total = (2.0 + (mx - nu - 2.0) / ldexp(1.0, 2 * p->nu + 1)) * m * p->a +
             (2.0 * mx + 2.0 * nu + 2.0) * p->b;
    return true;
}

const AlgoDef algo_st_mesh = {
    .name = "st",
    .summary = "better mesh ST: 2x2 corner, four checkerboard submesh trees, two exchanges",
    .ref = "Seidel 3.2.1, 3.2.2 eqs. 5-6; Table I",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2,
    .fits = st_fits,
    .nchunks = st_nchunks,
    .build = st_build,
    .predict = st_predict,
};

/* ---- st-simple: column, then rows (3.2.1; eq. 3) ----------------------------------------- */

static bool nu_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    return algo_mesh_nu_fits(d, net, a, 14, 0, 2 + 2 * a->nu, err, errlen);
}

static uint32_t simple_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 1u << a->nu;
}

static bool simple_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int d1, d2, nu = a->nu;
    if (!algo_mesh_build_dims(s, &d1, &d2))
        return false;
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1);
    int32_t sr = a->source / cols, sc = a->source % cols;
    uint32_t n = 1u << nu;
    if (nu > 0) {
        if (!algo_open_steps_n(s, 0, nu, "distribute in the source's column metanode") ||
            !algo_open_steps_n(s, nu, d1 - nu, "ST down the column (interleaved)") ||
            !algo_open_steps_n(s, d1, nu, "exchange in column metanodes") ||
            !algo_open_steps_n(s, d1 + nu, nu, "distribute in row metanodes") ||
            !algo_open_steps_n(s, d1 + 2 * nu, d2 - nu, "ST along the rows (interleaved)") ||
            !algo_open_steps_n(s, d1 + d2 + nu, nu, "exchange in row metanodes"))
            return false;
    } else if (!algo_open_steps_n(s, 0, d1, "ST down the column") ||
               !algo_open_steps_n(s, d1, d2, "ST along the rows")) {
        return false;
    }
    if (!algo_lin_st(s, 0, sc, cols, d1, nu, sr, 0, n))
        return false;
    for (int32_t r = 0; r < rows; r++)
        if (!algo_lin_st(s, d1 + nu, r * cols, 1, d2, nu, sc, 0, n))
            return false;
    return true;
}

static bool simple_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const CostParams *p, double *total)
{
    (void)d;
    int d1, d2;
    if (!algo_seidel_mesh_predict_ok(net, a, p, &d1, &d2))
        return false;
    double m = (double)a->bytes, nu = p->nu;
    /* eq. 3; for nu = 0 it is (d1+d2)(ma+b) */
    *total = (4.0 + (d1 + d2 - 2.0 * nu - 4.0) / ldexp(1.0, p->nu)) * m * p->a +
             (d1 + d2 + 2.0 * nu) * p->b;
    return true;
}

const AlgoDef algo_st_simple = {
    .name = "st-simple",
    .summary = "simple mesh ST: linear ST down the column, then along every row",
    .ref = "Seidel 3.2.1 (simple), 3.2.2 eq. 3",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2 | ALGO_VIRTUAL,
    .fits = nu_fits,
    .nchunks = simple_nchunks,
    .build = simple_build,
    .predict = simple_predict,
};

/* ---- st-5phase: eq. 4 --------------------------------------------------------------------- */

static uint32_t five_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 1u << (2 * a->nu);
}

static bool five_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int d1, d2, nu = a->nu;
    if (!algo_mesh_build_dims(s, &d1, &d2))
        return false;
    int32_t cols = net_dim(net, 1), g = INT32_C(1) << nu;
    int32_t src[2] = {a->source / cols, a->source % cols};   /* (row, column) */
    /* f: the axis of the first broadcast (0: down a column), e: the second */
    int f = d1 <= d2 ? 0 : 1, e = 1 - f;
    int kd[2] = {d1, d2};
    int kf = kd[f], ke = kd[e];
    /* position along the axis: a column runs over rows (coordinate 0), a row over columns */
    int32_t pf = src[f], pe = src[e];
    int32_t mf = pf >> nu, me = pe >> nu;
    uint32_t n = 1u << (2 * nu), G = (uint32_t)g;
    const char *fl = f == 0 ? "column" : "row", *el = f == 0 ? "rows" : "columns";
    char lab[5][96];
    snprintf(lab[0], sizeof lab[0], "phase 1: distribute in the source's %s metanode", fl);
    snprintf(lab[1], sizeof lab[1], "phase 2: ST along the %s (interleaved)", fl);
    snprintf(lab[2], sizeof lab[2], "phase 3: distribute in the %s' metanodes", el);
    snprintf(lab[3], sizeof lab[3], "phase 4: ST along the %s (interleaved)", el);
    snprintf(lab[4], sizeof lab[4], "phase 5: exchange in %dx%d blocks", (int)g, (int)g);
    if (!algo_open_steps_n(s, 0, nu, lab[0]) || !algo_open_steps_n(s, nu, kf - nu, lab[1]) ||
        !algo_open_steps_n(s, kf, nu, lab[2]) ||
        !algo_open_steps_n(s, kf + nu, ke - nu, lab[3]) ||
        !algo_open_steps_n(s, kf + ke, 2 * nu, lab[4]))
        return false;

    int32_t b1, s1;
    line_of(cols, f, pe, &b1, &s1);   /* the first line: through the source */
    /* 1 */
    if (!algo_meta_distribute(s, 0, b1, s1, nu, pf, 0, n))
        return false;
    /* 2 */
    for (int32_t i = 0; i < g; i++)
        if (!blocks_st(s, nu, b1 + i * s1, s1 * g, kf - nu, (int)mf, (uint32_t)i * G,
                       (uint32_t)(i + 1) * G))
            return false;
    /* 3, 4 and the first half of 5, on every line of the second axis */
    for (int32_t x = 0; x < (INT32_C(1) << kf); x++) {
        uint32_t i = (uint32_t)(x & (g - 1));
        int32_t b2, s2;
        line_of(cols, e, x, &b2, &s2);
        if (!algo_meta_distribute(s, kf, b2, s2, nu, pe, i * G, (i + 1) * G))
            return false;
        for (int32_t j = 0; j < g; j++)
            if (!blocks_st(s, kf + nu, b2 + j * s2, s2 * g, ke - nu, (int)me,
                           i * G + (uint32_t)j, i * G + (uint32_t)j + 1))
                return false;
        if (!algo_meta_exchange(s, kf + ke, b2, s2, ke, nu, i * G, (i + 1) * G))
            return false;
    }
    /* the second half of 5: along the first axis */
    for (int32_t y = 0; y < (INT32_C(1) << ke); y++) {
        int32_t b3, s3;
        line_of(cols, f, y, &b3, &s3);
        if (!algo_meta_exchange(s, kf + ke + nu, b3, s3, kf, nu, 0, n))
            return false;
    }
    return true;
}

static bool five_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                         const CostParams *p, double *total)
{
    (void)d;
    int d1, d2;
    if (!algo_seidel_mesh_predict_ok(net, a, p, &d1, &d2))
        return false;
    /* eq. 4 as printed, with the shorter axis first (see the top of this file) */
    double m = (double)a->bytes, nu = p->nu, x = algo_imin(d1, d2), y = algo_imax(d1, d2);
    *total = (3.0 + (x - nu - 2.0) / ldexp(1.0, p->nu) + (y - nu - 1.0) / ldexp(1.0, 2 * p->nu)) *
                 m * p->a +
             (d1 + d2 + 2.0 * nu) * p->b;
    return true;
}

const AlgoDef algo_st_5phase = {
    .name = "st-5phase",
    .summary = "mesh ST in five phases: the first axis' exchange waits for the second axis",
    .ref = "Seidel 3.2.2, eq. 4",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2,
    .fits = nu_fits,
    .nchunks = five_nchunks,
    .build = five_build,
    .predict = five_predict,
};
