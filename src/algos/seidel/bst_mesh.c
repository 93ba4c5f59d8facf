/* bst_mesh.c — Seidel's bidirectional spanning tree (BST) broadcasts on a 2^d1 x 2^d2 mesh
 * (ORNL/TM-12356, Section 3.4; any source: Section 4's conjecture, docs/algorithms.md).
 *
 * Node (r,c) has id r*cols+c; routing is XY (along the row, then the column).
 *
 *   bst        the "better" BST: eq. 10 for nu = 0, the end of 3.4.2 for nu > 0.
 *              1. (nu > 0) distribute the message as 2^2nu packets over the 2^nu x 2^nu block
 *                 holding the source (down the column, then along the rows): block position
 *                 (i,j) gets packet i*2^nu + j.
 *              2. every block node runs 3.4.1 in its interleaved 2^(d1-nu) x 2^(d2-nu) submesh,
 *                 on its packet cut into eight (numbered 0..7):
 *                 a. distribution (3 steps, 7/8 ma + 3b): the source sends the odd packets
 *                    1,3,5,7 to the opposite corner (the complement of its coordinates); then
 *                    each of the two corners sends two packets down/up its column, then each of
 *                    the four holders one packet along its row.  The 2x2 block at the source's
 *                    corner ends with packet 2(2a+b) at parity position (a,b), the opposite
 *                    block with 2(2a+b)+1 (Figure 10's layout once broadcast).
 *                 b. every parity class (a,b) (rows of parity a, columns of parity b, a
 *                    2^(D1-1) x 2^(D2-1) mesh) holds two trees: T0 from the source's corner
 *                    carries packet 2(2a+b) right/down, T1 from the opposite corner (the XOR
 *                    complement of T0) carries 2(2a+b)+1 left/up.  Both trees of a class have
 *                    the class's checkerboard orientation (red: column then row; black: row
 *                    then column) and the shorter axis waits |D1-D2| steps, as in 3.2.1:
 *                    2(max(D1,D2)-1) steps.
 *                 c. two exchanges in every 2x2 block, along the row then the column (Figure
 *                    10: (0,0) holds 01, (0,1) 23, (1,0) 45, (1,1) 67).
 *              3. (nu > 0) dimensional exchange in every 2^nu x 2^nu block.
 *   bst-rowcol a linear BST (eq. 7) down the source's column, then one in every row (3.4.1):
 *              (d1+d2+2)(ma/2+b).
 *   bst-snake  the mesh as one linear array in snake order (row r left to right when r is
 *              even, right to left when odd) and one linear BST on it (eq. 9):
 *              (d1+d2+1)(ma/2+b).  Transfers take the default XY route, not the snake.
 *
 * Decisions (the figures are missing from our copy of the report):
 *  - Figure 9 is lost.  The layout of Figure 10 (which survives as a table) forces the first
 *    distribution step to carry packets 1,3,5,7: a strided send, priced by the model as one
 *    message of 4m/8 bytes (like any other message; the simulator holds chunk sets).  The
 *    opposite corner is the mirror of the source, (d-1-r, d-1-c) in submesh terms.
 *  - The two trees of a class share their orientation; the simulator confirms that they never
 *    share a port (XOR-complementary trees receive at disjoint nodes) nor a directed link.
 *  - Any source: the 2^nu x 2^nu block, the corner 2x2 block and the checkerboard colours are
 *    taken relative to the source; trees are XOR-ed with the source's position on each line.
 *  - Sizes: bst needs nu+1 <= min(d1,d2).  bst-rowcol and bst-snake are the nu = 0 algorithms
 *    of 3.4.1; the paper gives them no nu > 0 form, so nu > 0 is refused.  bst-rowcol needs
 *    d1, d2 >= 1 (a linear BST needs two nodes); bst-snake needs at least two nodes.
 *  - Closed forms for the seidel model only, and only when the model's nu equals the
 *    structural nu.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../algos-internal.h"
#include "../blocks.h"

/* ---- helpers (those shared with st_mesh.c are in common.c) ------------------------------ */

/* Send the packets p0, p0+step, ... (count of them, each `q` chunks from lo) in one transfer. */
static bool send_packets(Sched *s, int32_t t, int32_t src, int32_t dst, uint32_t lo, uint32_t q,
                         const int *pk, int count)
{
    ChunkRange r[8];
    for (int i = 0; i < count; i++) {
        r[i].lo = lo + (uint32_t)pk[i] * q;
        r[i].hi = r[i].lo + q;
    }
    return sched_at(s, t) && sched_send(s, src, dst, r, (size_t)count);
}

/* ---- bst: the "better" BST (3.4.1 eq. 10, 3.4.2) ---------------------------------------- */

/* 3.4.1 in submesh m from its node (SR,SC), chunks [lo,hi) (hi-lo divisible by 8): steps
 * t .. t + 4 + 2(max(D1,D2)-1).  Needs D1, D2 >= 1. */
static bool better_bst(const AlgoSub *m, int32_t t, int32_t SR, int32_t SC, uint32_t lo,
                       uint32_t hi)
{
    Sched *s = m->s;
    uint32_t q = (hi - lo) / 8;
    int32_t N1 = INT32_C(1) << m->D1, N2 = INT32_C(1) << m->D2;
    int32_t OR = SR ^ (N1 - 1), OC = SC ^ (N2 - 1);  /* the opposite corner */
    int sa = (int)(SR & 1), sb = (int)(SC & 1);       /* the source's parity class */
    int L = algo_imax(m->D1, m->D2) - 1;

    /* a. distribution: 1: odd packets to the opposite corner */
    int odd[4] = {1, 3, 5, 7};
    if (!send_packets(s, t, algo_sub_node(m, SR, SC), algo_sub_node(m, OR, OC), lo, q, odd, 4))
        return false;
    /* 2: each corner sends the packets of the other row parity along its column */
    int p0[2] = {2 * (2 * (1 - sa) + 0), 2 * (2 * (1 - sa) + 1)};   /* T0, rows of parity 1-sa */
    int oa = (int)(OR & 1);                                         /* = 1 - sa */
    int p1[2] = {2 * (2 * (1 - oa) + 0) + 1, 2 * (2 * (1 - oa) + 1) + 1};
    if (!send_packets(s, t + 1, algo_sub_node(m, SR, SC), algo_sub_node(m, SR ^ 1, SC), lo, q,
                      p0, 2) ||
        !send_packets(s, t + 1, algo_sub_node(m, OR, OC), algo_sub_node(m, OR ^ 1, OC), lo, q,
                      p1, 2))
        return false;
    /* 3: each of the four holders sends the packet of the other column parity along its row */
    for (int side = 0; side < 2; side++) {
        int32_t R = side ? OR : SR, C = side ? OC : SC;
        for (int h = 0; h < 2; h++) {
            int32_t r = R ^ h;
            int a = (int)(r & 1), b = (int)((C & 1) ^ 1);
            int pk[1] = {2 * (2 * a + b) + side};
            if (!send_packets(s, t + 2, algo_sub_node(m, r, C), algo_sub_node(m, r, C ^ 1), lo, q,
                              pk, 1))
                return false;
        }
    }
    /* b. two trees per class: T0 (even packets) from the source's corner, T1 (odd) from the
     *    opposite one; colours relative to the source */
    uint32_t c0[4], c1[4];
    for (int p = 0; p < 4; p++) {
        c0[p] = lo + (uint32_t)(2 * p) * q;
        c1[p] = lo + (uint32_t)(2 * p + 1) * q;
    }
    int red_par = (sa ^ sb) & 1;
    if (!algo_checker_st(m, t + 3, red_par, SR >> 1, SC >> 1, c0, q) ||
        !algo_checker_st(m, t + 3, red_par, OR >> 1, OC >> 1, c1, q))
        return false;
    /* c. two exchanges in every 2x2 block */
    return algo_sub_exchange_2x2(m, t + 3 + 2 * L, lo, hi);
}

static bool bst_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen)
{
    return algo_mesh_nu_fits(d, net, a, 13, 1, 4 + 2 * a->nu, err, errlen);
}

static uint32_t bst_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    return 8u << (2 * a->nu);
}

static bool bst_labels(Sched *s, int32_t t, int nu, int L)
{
    (void)nu;
    return algo_open_steps_n(s, t, 1, "distribute: odd packets to the opposite corner") &&
           algo_open_steps_n(s, t + 1, 2, "distribute to the two 2x2 corner blocks") &&
           algo_open_steps_n(s, t + 3, 2 * L,
                             "two ST per submesh (checkerboard, opposite corners)") &&
           algo_open_steps_n(s, t + 3 + 2 * L, 2, "exchange in 2x2 blocks");
}

static bool bst_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    return algo_better_mesh_build(s, a, 8, 5, bst_labels, better_bst);
}

static bool bst_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                        double *total)
{
    (void)d;
    int d1, d2;
    if (!algo_seidel_mesh_predict_ok(net, a, p, &d1, &d2))
        return false;
    /* 3.4.2's total; for nu = 0 it is eq. 10, (2max+11)/8 ma + (2max+3) b */
    double m = (double)a->bytes, nu = p->nu, mx = algo_imax(d1, d2);
    *total = (2.0 + (2.0 * mx - 2.0 * nu - 5.0) / ldexp(1.0, 2 * p->nu + 3)) * m * p->a +
             (2.0 * mx + 2.0 * nu + 3.0) * p->b;
    return true;
}

const AlgoDef algo_bst_mesh = {
    .name = "bst",
    .summary = "better mesh BST: two opposite 2x2 corners, eight checkerboard trees, exchanges",
    .ref = "Seidel 3.4.1 eq. 10, 3.4.2; Table I",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2,
    .fits = bst_fits,
    .nchunks = bst_nchunks,
    .build = bst_build,
    .predict = bst_predict,
};

/* ---- linear BST on a list of nodes (eq. 7; any source 4.3) ------------------------------- */

/* Linear BST of [lo,hi) (two halves) over nodes[0..2^k-1] (k >= 1) from member x, at steps
 * t .. t+k: x keeps the half of its parity and sends the other to its complement x^(2^k-1);
 * the two halves then go down XOR trees on the even and the odd members (the tree of parity p
 * rooted at the member of parity p among x and its complement); then neighbours (2y, 2y+1)
 * exchange.  Member j ends its tree with half j&1, so no permutation. */
static bool lin_bst(Sched *s, int32_t t, const int32_t *nodes, int k, int32_t x, uint32_t lo,
                    uint32_t hi)
{
    int32_t n = INT32_C(1) << k, xc = x ^ (n - 1);
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t hl[2] = {lo, mid}, hh[2] = {mid, hi};
    int hx = (int)(xc & 1);  /* the half x sends: that of its complement's parity */
    if (!sched_at(s, t) || !sched_send_range(s, nodes[x], nodes[xc], hl[hx], hh[hx]))
        return false;
    for (int p = 0; p < 2; p++) {
        int32_t root = ((x & 1) == p ? x : xc) >> 1; /* index among the members of parity p */
        for (int i = 0; i < k - 1; i++) {
            if (!sched_at(s, t + 1 + i))
                return false;
            int32_t span = INT32_C(1) << (k - 1 - i), half = span >> 1;
            for (int32_t r = 0; r < (n >> 1); r += span) {
                int32_t from = r ^ root, to = (r ^ half) ^ root;
                if (!sched_send_range(s, nodes[2 * from + p], nodes[2 * to + p], hl[p], hh[p]))
                    return false;
            }
        }
    }
    if (!sched_at(s, t + k))
        return false;
    for (int32_t y = 0; y < n; y += 2)
        if (!sched_send_range(s, nodes[y], nodes[y + 1], hl[0], hh[0]) ||
            !sched_send_range(s, nodes[y + 1], nodes[y], hl[1], hh[1]))
            return false;
    return true;
}

static bool nu0_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen, int need)
{
    if (a->nu != 0) {
        snprintf(err, errlen, "%s is Seidel's nu = 0 algorithm (3.4.1); nu = %d is not defined "
                 "(use bst)", d->name, a->nu);
        return false;
    }
    return algo_mesh_fits(d, net, need, "at least 2 rows and 2 columns", err, errlen) &&
           !algo_too_big(d, net, 3, ALGO_MESH_MAX_TRANSFERS, err, errlen);
}

static uint32_t two_chunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)net;
    (void)a;
    return 2;
}

/* ---- bst-rowcol --------------------------------------------------------------------------- */

static bool rowcol_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                        size_t errlen)
{
    return nu0_fits(d, net, a, err, errlen, 1);
}

static bool rowcol_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int d1, d2;
    if (!algo_mesh_build_dims(s, &d1, &d2))
        return false;
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1);
    int32_t sr = a->source / cols, sc = a->source % cols;
    if (!algo_open_steps_n(s, 0, 1, "column BST: half to the opposite end") ||
        !algo_open_steps_n(s, 1, d1 - 1, "column BST: two trees") ||
        !algo_open_steps_n(s, d1, 1, "column BST: exchange with the neighbour") ||
        !algo_open_steps_n(s, d1 + 1, 1, "row BSTs: half to the opposite end") ||
        !algo_open_steps_n(s, d1 + 2, d2 - 1, "row BSTs: two trees") ||
        !algo_open_steps_n(s, d1 + d2 + 1, 1, "row BSTs: exchange with the neighbour"))
        return false;
    int32_t *line = calloc((size_t)(rows > cols ? rows : cols), sizeof *line);
    if (!line) {
        sched_fail(s, "out of memory");
        return false;
    }
    bool ok = true;
    for (int32_t r = 0; r < rows; r++)
        line[r] = r * cols + sc;
    ok = lin_bst(s, 0, line, d1, sr, 0, 2);
    for (int32_t r = 0; ok && r < rows; r++) {
        for (int32_t c = 0; c < cols; c++)
            line[c] = r * cols + c;
        ok = lin_bst(s, d1 + 1, line, d2, sc, 0, 2);
    }
    free(line);
    return ok;
}

/* (d1+d2+extra)(ma/2+b): bst-rowcol (extra 2) and bst-snake (eq. 9, extra 1). */
static bool lin_bst_predict(const Net *net, const AlgoArgs *a, const CostParams *p, double extra,
                            double *total)
{
    int d1, d2;
    if (!algo_seidel_mesh_predict_ok(net, a, p, &d1, &d2))
        return false;
    double m = (double)a->bytes;
    *total = (d1 + d2 + extra) * (m * p->a / 2.0 + p->b);
    return true;
}

static bool rowcol_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const CostParams *p, double *total)
{
    (void)d;
    return lin_bst_predict(net, a, p, 2.0, total);
}

const AlgoDef algo_bst_rowcol = {
    .name = "bst-rowcol",
    .summary = "linear BST down the column, then along every row (nu = 0)",
    .ref = "Seidel 3.4.1 (first algorithm), from eq. 7",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2 | ALGO_VIRTUAL,
    .fits = rowcol_fits,
    .nchunks = two_chunks,
    .build = rowcol_build,
    .predict = rowcol_predict,
};

/* ---- bst-snake ---------------------------------------------------------------------------- */

static bool snake_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                       size_t errlen)
{
    if (!nu0_fits(d, net, a, err, errlen, 0))
        return false;
    if (net_size(net) < 2) {
        snprintf(err, errlen, "%s needs at least 2 nodes", d->name);
        return false;
    }
    return true;
}

static bool snake_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int d1, d2;
    if (!algo_mesh_build_dims(s, &d1, &d2))
        return false;
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1), n = rows * cols;
    int k = d1 + d2;
    int32_t *snake = malloc(sizeof *snake * (size_t)n);
    if (!snake) {
        sched_fail(s, "out of memory");
        return false;
    }
    int32_t x = 0;
    for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++) {
            int32_t id = r * cols + ((r & 1) ? cols - 1 - c : c);
            snake[r * cols + c] = id;
            if (id == a->source)
                x = r * cols + c;
        }
    bool ok = algo_open_steps_n(s, 0, 1, "snake BST: half to the other end of the snake") &&
              algo_open_steps_n(s, 1, k - 1, "snake BST: two trees along the snake") &&
              algo_open_steps_n(s, k, 1, "snake BST: exchange with the snake neighbour") &&
              lin_bst(s, 0, snake, k, x, 0, 2);
    free(snake);
    return ok;
}

static bool snake_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                          const CostParams *p, double *total)
{
    (void)d;
    return lin_bst_predict(net, a, p, 1.0, total);
}

const AlgoDef algo_bst_snake = {
    .name = "bst-snake",
    .summary = "the mesh as one snake-ordered linear array, one linear BST (nu = 0)",
    .ref = "Seidel 3.4.1, eq. 9",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2,
    .fits = snake_fits,
    .nchunks = two_chunks,
    .build = snake_build,
    .predict = snake_predict,
};
