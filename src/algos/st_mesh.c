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

#include "algos-internal.h"
#include "blocks.h"

/* ---- shared helpers ---------------------------------------------------------------------- */

/* Open steps first..first+count-1 in order and label them ("label (i/count)" when count > 1). */
static bool open_steps(Sched *s, int32_t first, int count, const char *label)
{
    char buf[160];
    for (int i = 0; i < count; i++) {
        if (count > 1)
            snprintf(buf, sizeof buf, "%s (%d/%d)", label, i + 1, count);
        else
            snprintf(buf, sizeof buf, "%s", label);
        if (!sched_at(s, first + i) || !sched_label(s, buf))
            return false;
    }
    return true;
}

/* The log2 extents of a 2-D power-of-two mesh, or false. */
static bool mesh_dims(const Net *net, int *d1, int *d2)
{
    if (net_kind(net) != NET_MESH || net_ndim(net) != 2)
        return false;
    *d1 = algo_log2(net_dim(net, 0));
    *d2 = algo_log2(net_dim(net, 1));
    return *d1 >= 0 && *d2 >= 0;
}

static int imin(int x, int y) { return x < y ? x : y; }
static int imax(int x, int y) { return x > y ? x : y; }

/* A (sub)mesh of 2^D1 x 2^D2 nodes embedded in the physical mesh: its node (R,C) is the
 * physical node (r0 + R*g, c0 + C*g). */
typedef struct {
    Sched *s;
    int32_t cols;   /* physical columns */
    int32_t r0, c0; /* physical coordinates of the submesh's node (0,0) */
    int32_t g;      /* physical distance between neighbouring submesh nodes */
    int D1, D2;
} Sub;

static int32_t sub_node(const Sub *m, int32_t R, int32_t C)
{
    return (m->r0 + R * m->g) * m->cols + m->c0 + C * m->g;
}

/* Phase b of 3.2.1: the four sub-submeshes (a,b) (submesh rows a+2R', columns b+2C', a
 * 2^(D1-1) x 2^(D2-1) mesh) broadcast [cls_lo[2a+b], +len) from their node (R1,C1), red ones
 * column then row, black ones row then column; red are the classes with (a^b)&1 == red_par.
 * Steps t .. t + 2L - 1 with L = max(D1,D2) - 1; the shorter axis waits |D1-D2| steps. */
static bool checker_st(const Sub *m, int32_t t, int red_par, int32_t R1, int32_t C1,
                       const uint32_t cls_lo[4], uint32_t len)
{
    int k1 = m->D1 - 1, k2 = m->D2 - 1, L = imax(k1, k2);
    int32_t vstride = 2 * m->g * m->cols, hstride = 2 * m->g;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            uint32_t lo = cls_lo[2 * a + b], hi = lo + len;
            bool red = ((a ^ b) & 1) == red_par;
            int32_t tc = red ? t + L - k1 : t + L; /* the column STs start */
            int32_t tr = red ? t + L : t + L - k2; /* the row STs start */
            if (red) {
                if (!blocks_st(m->s, tc, sub_node(m, a, b + 2 * C1), vstride, k1, (int)R1, lo,
                               hi))
                    return false;
                for (int32_t R = 0; R < (INT32_C(1) << k1); R++)
                    if (!blocks_st(m->s, tr, sub_node(m, a + 2 * R, b), hstride, k2, (int)C1, lo,
                                   hi))
                        return false;
            } else {
                if (!blocks_st(m->s, tr, sub_node(m, a + 2 * R1, b), hstride, k2, (int)C1, lo,
                               hi))
                    return false;
                for (int32_t C = 0; C < (INT32_C(1) << k2); C++)
                    if (!blocks_st(m->s, tc, sub_node(m, a, b + 2 * C), vstride, k1, (int)R1, lo,
                                   hi))
                        return false;
            }
        }
    return true;
}

/* 3.2.1's "better" ST in submesh m from its node (SR,SC), of chunks [lo,hi) (hi-lo divisible
 * by 4), at steps t .. t + 3 + 2(max(D1,D2)-1).  Needs D1, D2 >= 1. */
static bool better_st(const Sub *m, int32_t t, int32_t SR, int32_t SC, uint32_t lo, uint32_t hi)
{
    uint32_t q = (hi - lo) / 4;
    int32_t BR = SR & ~1, BC = SC & ~1;
    int L = imax(m->D1, m->D2) - 1;
    /* a. the 2x2 block holding the source: down the column, then along both rows */
    if (!blocks_distribute(m->s, t, sub_node(m, BR, SC), m->g * m->cols, 1, (int)(SR & 1), lo,
                           hi))
        return false;
    for (int a = 0; a < 2; a++)
        if (!blocks_distribute(m->s, t + 1, sub_node(m, BR + a, BC), m->g, 1, (int)(SC & 1),
                               lo + 2 * (uint32_t)a * q, lo + 2 * (uint32_t)(a + 1) * q))
            return false;
    /* b. four interleaved STs, checkerboard orientation relative to the source */
    uint32_t cls[4] = {lo, lo + q, lo + 2 * q, lo + 3 * q};
    if (!checker_st(m, t + 2, (int)((SR ^ SC) & 1), SR >> 1, SC >> 1, cls, q))
        return false;
    /* c. two exchanges in every 2x2 block: along the row, then the column */
    int32_t te = t + 2 + 2 * L;
    for (int32_t x = 0; x < (INT32_C(1) << (m->D1 - 1)); x++)
        for (int32_t y = 0; y < (INT32_C(1) << (m->D2 - 1)); y++) {
            for (int a = 0; a < 2; a++)
                if (!blocks_exchange(m->s, te, sub_node(m, 2 * x + a, 2 * y), m->g, 1,
                                     lo + 2 * (uint32_t)a * q, lo + 2 * (uint32_t)(a + 1) * q))
                    return false;
            for (int b = 0; b < 2; b++)
                if (!blocks_exchange(m->s, te + 1, sub_node(m, 2 * x, 2 * y + b),
                                     m->g * m->cols, 1, lo, hi))
                    return false;
        }
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

/* Linear ST of eq. 2 (3.1.2, any source 4.2) on the group base + j*stride (2^k members) from
 * member root, of [lo,hi) cut into 2^nu packets: steps t .. t + k + nu - 1. */
static bool lin_st(Sched *s, int32_t t, int32_t base, int32_t stride, int k, int nu, int32_t root,
                   uint32_t lo, uint32_t hi)
{
    int32_t g = INT32_C(1) << nu, meta = root >> nu;
    uint32_t q = (hi - lo) >> nu;
    if (!blocks_distribute(s, t, base + meta * g * stride, stride, nu, (int)(root & (g - 1)), lo,
                           hi))
        return false;
    for (int32_t p = 0; p < g; p++)
        if (!blocks_st(s, t + nu, base + p * stride, stride * g, k - nu, (int)meta,
                       lo + (uint32_t)p * q, lo + (uint32_t)(p + 1) * q))
            return false;
    for (int32_t mm = 0; mm < (INT32_C(1) << (k - nu)); mm++)
        if (!blocks_exchange(s, t + k, base + mm * g * stride, stride, nu, lo, hi))
            return false;
    return true;
}

/* Common checks: a 2-D mesh of 2^d1 x 2^d2 nodes with need <= min(d1,d2). */
static bool mesh_fits(const AlgoDef *d, const Net *net, int need, const char *why, char *err,
                      size_t errlen)
{
    int d1, d2;
    if (!mesh_dims(net, &d1, &d2)) {
        snprintf(err, errlen, "%s needs a 2-D mesh of 2^d1 x 2^d2 nodes (got %s)", d->name,
                 net_spec(net));
        return false;
    }
    if (imin(d1, d2) < need) {
        snprintf(err, errlen, "%s on %s needs %s", d->name, net_spec(net), why);
        return false;
    }
    return true;
}

/* About per_node transfers per node: refuse schedules too big to hold in memory (as chain and
 * the linear rh do). */
#define MESH_MAX_TRANSFERS (INT64_C(1) << 24)

static bool too_big(const AlgoDef *d, const Net *net, int64_t per_node, char *err,
                    size_t errlen)
{
    int64_t t = (int64_t)net_size(net) * per_node;
    if (t <= MESH_MAX_TRANSFERS)
        return false;
    snprintf(err, errlen, "%s on %s would need about %lld transfers (at most %lld)", d->name,
             net_spec(net), (long long)t, (long long)MESH_MAX_TRANSFERS);
    return true;
}

static bool predict_ok(const Net *net, const AlgoArgs *a, const CostParams *p, int *d1, int *d2)
{
    return p->model == COST_SEIDEL && p->nu == a->nu && mesh_dims(net, d1, d2);
}

/* ---- st: the "better" ST (3.2.1, eq. 6) -------------------------------------------------- */

static bool st_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    char why[96];
    if (a->nu < 0 || a->nu > 14) {
        snprintf(err, errlen, "%s: nu must be 0..14 (got %d)", d->name, a->nu);
        return false;
    }
    snprintf(why, sizeof why, "at least %d rows and columns for nu = %d (nu+1 <= min(d1,d2))",
             2 << a->nu, a->nu);
    return mesh_fits(d, net, a->nu + 1, why, err, errlen) &&
           !too_big(d, net, 3 + 2 * a->nu, err, errlen);
}

static uint32_t st_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 4u << (2 * a->nu);
}

static bool st_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int d1, d2, nu = a->nu;
    if (!mesh_dims(net, &d1, &d2)) {
        sched_fail(s, "not a 2-D power-of-two mesh");
        return false;
    }
    int32_t cols = net_dim(net, 1), g = INT32_C(1) << nu;
    int32_t sr = a->source / cols, sc = a->source % cols;
    int32_t R0 = sr & ~(g - 1), C0 = sc & ~(g - 1);
    uint32_t n = 4u << (2 * nu), pk = 4; /* chunks; chunks per block packet */
    int D1 = d1 - nu, D2 = d2 - nu, L = imax(D1, D2) - 1;
    int32_t t = 0;

    char lab[2][96];
    snprintf(lab[0], sizeof lab[0], "distribute down the column of the %dx%d block", (int)g,
             (int)g);
    snprintf(lab[1], sizeof lab[1], "distribute along the rows of the %dx%d block", (int)g,
             (int)g);
    if (nu > 0) {
        if (!open_steps(s, t, nu, lab[0]) || !open_steps(s, t + nu, nu, lab[1]))
            return false;
        if (!blocks_distribute(s, t, R0 * cols + sc, cols, nu, (int)(sr - R0), 0, n))
            return false;
        for (int32_t i = 0; i < g; i++)
            if (!blocks_distribute(s, t + nu, (R0 + i) * cols + C0, 1, nu, (int)(sc - C0),
                                   (uint32_t)i * (uint32_t)g * pk,
                                   (uint32_t)(i + 1) * (uint32_t)g * pk))
                return false;
        t += 2 * nu;
    }
    if (!open_steps(s, t, 2, nu ? "distribute to the 2x2 corner of every submesh"
                                : "distribute to the 2x2 corner") ||
        !open_steps(s, t + 2, 2 * L, "ST in submeshes (checkerboard)") ||
        !open_steps(s, t + 2 + 2 * L, 2, "exchange in 2x2 blocks"))
        return false;
    for (int32_t i = 0; i < g; i++)
        for (int32_t j = 0; j < g; j++) {
            Sub m = {s, cols, i, j, g, D1, D2};
            uint32_t lo = (uint32_t)(i * g + j) * pk;
            if (!better_st(&m, t, R0 >> nu, C0 >> nu, lo, lo + pk))
                return false;
        }
    t += 4 + 2 * L;
    if (nu > 0) {
        snprintf(lab[0], sizeof lab[0], "exchange along the rows of %dx%d blocks", (int)g, (int)g);
        snprintf(lab[1], sizeof lab[1], "exchange along the columns of %dx%d blocks", (int)g,
                 (int)g);
        if (!open_steps(s, t, nu, lab[0]) || !open_steps(s, t + nu, nu, lab[1]))
            return false;
        int32_t rows = net_dim(net, 0);
        for (int32_t X = 0; X < rows; X += g)
            for (int32_t Y = 0; Y < cols; Y += g) {
                for (int32_t i = 0; i < g; i++)
                    if (!blocks_exchange(s, t, (X + i) * cols + Y, 1, nu,
                                         (uint32_t)i * (uint32_t)g * pk,
                                         (uint32_t)(i + 1) * (uint32_t)g * pk))
                        return false;
                for (int32_t j = 0; j < g; j++)
                    if (!blocks_exchange(s, t + nu, X * cols + Y + j, cols, nu, 0, n))
                        return false;
            }
    }
    return true;
}

static bool st_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    (void)d;
    int d1, d2;
    if (!predict_ok(net, a, p, &d1, &d2))
        return false;
    double m = (double)a->bytes, nu = p->nu, mx = imax(d1, d2);
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
    char why[96];
    if (a->nu < 0 || a->nu > 14) {
        snprintf(err, errlen, "%s: nu must be 0..14 (got %d)", d->name, a->nu);
        return false;
    }
    snprintf(why, sizeof why, "at least %d rows and columns for nu = %d (nu <= min(d1,d2))",
             1 << a->nu, a->nu);
    return mesh_fits(d, net, a->nu, why, err, errlen) &&
           !too_big(d, net, 2 + 2 * a->nu, err, errlen);
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
    if (!mesh_dims(net, &d1, &d2)) {
        sched_fail(s, "not a 2-D power-of-two mesh");
        return false;
    }
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1);
    int32_t sr = a->source / cols, sc = a->source % cols;
    uint32_t n = 1u << nu;
    if (nu > 0) {
        if (!open_steps(s, 0, nu, "distribute in the source's column metanode") ||
            !open_steps(s, nu, d1 - nu, "ST down the column (interleaved)") ||
            !open_steps(s, d1, nu, "exchange in column metanodes") ||
            !open_steps(s, d1 + nu, nu, "distribute in row metanodes") ||
            !open_steps(s, d1 + 2 * nu, d2 - nu, "ST along the rows (interleaved)") ||
            !open_steps(s, d1 + d2 + nu, nu, "exchange in row metanodes"))
            return false;
    } else if (!open_steps(s, 0, d1, "ST down the column") ||
               !open_steps(s, d1, d2, "ST along the rows")) {
        return false;
    }
    if (!lin_st(s, 0, sc, cols, d1, nu, sr, 0, n))
        return false;
    for (int32_t r = 0; r < rows; r++)
        if (!lin_st(s, d1 + nu, r * cols, 1, d2, nu, sc, 0, n))
            return false;
    return true;
}

static bool simple_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const CostParams *p, double *total)
{
    (void)d;
    int d1, d2;
    if (!predict_ok(net, a, p, &d1, &d2))
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
    if (!mesh_dims(net, &d1, &d2)) {
        sched_fail(s, "not a 2-D power-of-two mesh");
        return false;
    }
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
    if (!open_steps(s, 0, nu, lab[0]) || !open_steps(s, nu, kf - nu, lab[1]) ||
        !open_steps(s, kf, nu, lab[2]) || !open_steps(s, kf + nu, ke - nu, lab[3]) ||
        !open_steps(s, kf + ke, 2 * nu, lab[4]))
        return false;

    int32_t b1, s1;
    line_of(cols, f, pe, &b1, &s1);   /* the first line: through the source */
    /* 1 */
    if (!blocks_distribute(s, 0, b1 + mf * g * s1, s1, nu, (int)(pf & (g - 1)), 0, n))
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
        if (!blocks_distribute(s, kf, b2 + me * g * s2, s2, nu, (int)(pe & (g - 1)), i * G,
                               (i + 1) * G))
            return false;
        for (int32_t j = 0; j < g; j++)
            if (!blocks_st(s, kf + nu, b2 + j * s2, s2 * g, ke - nu, (int)me,
                           i * G + (uint32_t)j, i * G + (uint32_t)j + 1))
                return false;
        for (int32_t mm = 0; mm < (INT32_C(1) << (ke - nu)); mm++)
            if (!blocks_exchange(s, kf + ke, b2 + mm * g * s2, s2, nu, i * G, (i + 1) * G))
                return false;
    }
    /* the second half of 5: along the first axis */
    for (int32_t y = 0; y < (INT32_C(1) << ke); y++) {
        int32_t b3, s3;
        line_of(cols, f, y, &b3, &s3);
        for (int32_t mm = 0; mm < (INT32_C(1) << (kf - nu)); mm++)
            if (!blocks_exchange(s, kf + ke + nu, b3 + mm * g * s3, s3, nu, 0, n))
                return false;
    }
    return true;
}

static bool five_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                         const CostParams *p, double *total)
{
    (void)d;
    int d1, d2;
    if (!predict_ok(net, a, p, &d1, &d2))
        return false;
    /* eq. 4 as printed, with the shorter axis first (see the top of this file) */
    double m = (double)a->bytes, nu = p->nu, x = imin(d1, d2), y = imax(d1, d2);
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
