/* common.c — helpers the algorithm families share (declared in algos-internal.h): opening
 * labelled steps, the size checks of the power-of-two arrays and meshes, the seidel
 * prediction's preconditions, and the mesh pieces common to the "better" ST and BST
 * (submeshes, checkerboard trees, the 2^nu x 2^nu block distribution and exchange).
 */
#include <stdio.h>

#include "algos-internal.h"
#include "blocks.h"

/* ---- steps --------------------------------------------------------------------------------- */

bool algo_open_steps(Sched *s, int32_t first, int count, const char *label)
{
    for (int i = 0; i < count; i++)
        if (!sched_at(s, first + i) || !sched_label(s, label))
            return false;
    return true;
}

bool algo_open_steps_n(Sched *s, int32_t first, int count, const char *label)
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

/* ---- size checks ---------------------------------------------------------------------------- */

int algo_array_dims(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    int dd = algo_log2(net_size(net));
    if (dd < 0) {
        snprintf(err, errlen, "%s on %s needs 2^d nodes", d->name, net_spec(net));
        return -1;
    }
    if (a->nu < 0 || (a->nu > 0 && a->nu >= dd)) {
        snprintf(err, errlen, "%s on %s needs nu < %d (got nu=%d)", d->name, net_spec(net), dd,
                 a->nu);
        return -1;
    }
    return dd;
}

#define ARRAY_MAX_TRANSFERS (INT64_C(3) << 23)

bool algo_array_tree_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                          size_t errlen)
{
    if (algo_array_dims(d, net, a, err, errlen) < 0)
        return false;
    /* about n transfers for the trees plus n per exchange step (nu of them): refuse what will
     * not fit in memory, like rh and the mesh algorithms (nu = 16 on 2^24 nodes took 8 GB) */
    int64_t t = (int64_t)net_size(net) * (1 + a->nu);
    if (t > ARRAY_MAX_TRANSFERS) {
        snprintf(err, errlen, "%s on %s with nu=%d would need about %lld transfers (at most %lld)",
                 d->name, net_spec(net), a->nu, (long long)t, (long long)ARRAY_MAX_TRANSFERS);
        return false;
    }
    return true;
}

bool algo_mesh_dims(const Net *net, int *d1, int *d2)
{
    if (net_kind(net) != NET_MESH || net_ndim(net) != 2)
        return false;
    *d1 = algo_log2(net_dim(net, 0));
    *d2 = algo_log2(net_dim(net, 1));
    return *d1 >= 0 && *d2 >= 0;
}

bool algo_mesh_build_dims(Sched *s, int *d1, int *d2)
{
    if (algo_mesh_dims(sched_net(s), d1, d2))
        return true;
    sched_fail(s, "not a 2-D power-of-two mesh");
    return false;
}

bool algo_mesh_fits(const AlgoDef *d, const Net *net, int need, const char *why, char *err,
                    size_t errlen)
{
    int d1, d2;
    if (!algo_mesh_dims(net, &d1, &d2)) {
        snprintf(err, errlen, "%s needs a 2-D mesh of 2^d1 x 2^d2 nodes (got %s)", d->name,
                 net_spec(net));
        return false;
    }
    if (algo_imin(d1, d2) < need) {
        snprintf(err, errlen, "%s on %s needs %s", d->name, net_spec(net), why);
        return false;
    }
    return true;
}

bool algo_too_big(const AlgoDef *d, const Net *net, int64_t per_node, int64_t cap, char *err,
                  size_t errlen)
{
    int64_t t = (int64_t)net_size(net) * per_node;
    if (t <= cap)
        return false;
    snprintf(err, errlen, "%s on %s would need about %lld transfers (at most %lld)", d->name,
             net_spec(net), (long long)t, (long long)cap);
    return true;
}

bool algo_mesh_nu_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, int numax,
                       int plus, int64_t per_node, char *err, size_t errlen)
{
    char why[96];
    if (a->nu < 0 || a->nu > numax) {
        snprintf(err, errlen, "%s: nu must be 0..%d (got %d)", d->name, numax, a->nu);
        return false;
    }
    snprintf(why, sizeof why, "at least %d rows and columns for nu = %d (nu%s <= min(d1,d2))",
             1 << (a->nu + plus), a->nu, plus ? "+1" : "");
    return algo_mesh_fits(d, net, a->nu + plus, why, err, errlen) &&
           !algo_too_big(d, net, per_node, ALGO_MESH_MAX_TRANSFERS, err, errlen);
}

bool algo_seidel_mesh_predict_ok(const Net *net, const AlgoArgs *a, const CostParams *p,
                                 int *d1, int *d2)
{
    return p->model == COST_SEIDEL && p->nu == a->nu && algo_mesh_dims(net, d1, d2);
}

/* ---- linear blocks -------------------------------------------------------------------------- */

bool algo_meta_distribute(Sched *s, int32_t t, int32_t base, int32_t stride, int nu,
                          int32_t root, uint32_t lo, uint32_t hi)
{
    int32_t g = INT32_C(1) << nu, meta = root >> nu;
    return blocks_distribute(s, t, base + meta * g * stride, stride, nu, (int)(root & (g - 1)),
                             lo, hi);
}

bool algo_meta_exchange(Sched *s, int32_t t, int32_t base, int32_t stride, int k, int nu,
                        uint32_t lo, uint32_t hi)
{
    int32_t g = INT32_C(1) << nu;
    for (int32_t mm = 0; mm < (INT32_C(1) << (k - nu)); mm++)
        if (!blocks_exchange(s, t, base + mm * g * stride, stride, nu, lo, hi))
            return false;
    return true;
}

bool algo_lin_st(Sched *s, int32_t t, int32_t base, int32_t stride, int k, int nu,
                 int32_t root, uint32_t lo, uint32_t hi)
{
    int32_t g = INT32_C(1) << nu, meta = root >> nu;
    uint32_t q = (hi - lo) >> nu;
    if (!algo_meta_distribute(s, t, base, stride, nu, root, lo, hi))
        return false;
    /* the interleaved trees: blocks_st's transfers, each step a rule (sched_send_tree) */
    for (int32_t p = 0; p < g; p++)
        for (int i = 0; i < k - nu; i++)
            if (!sched_at(s, t + nu + i) ||
                !sched_send_tree(s, base + p * stride, stride * g, k - nu, i, meta,
                                 lo + (uint32_t)p * q, lo + (uint32_t)(p + 1) * q))
                return false;
    return algo_meta_exchange(s, t + k, base, stride, k, nu, lo, hi);
}

/* ---- the mesh ST and BST: submeshes and 2^nu x 2^nu blocks ---------------------------------- */

int32_t algo_sub_node(const AlgoSub *m, int32_t R, int32_t C)
{
    return (m->r0 + R * m->g) * m->cols + m->c0 + C * m->g;
}

bool algo_checker_st(const AlgoSub *m, int32_t t, int red_par, int32_t R1, int32_t C1,
                     const uint32_t cls_lo[4], uint32_t len)
{
    int k1 = m->D1 - 1, k2 = m->D2 - 1, L = algo_imax(k1, k2);
    int32_t vstride = 2 * m->g * m->cols, hstride = 2 * m->g;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            uint32_t lo = cls_lo[2 * a + b], hi = lo + len;
            bool red = ((a ^ b) & 1) == red_par;
            int32_t tc = red ? t + L - k1 : t + L; /* the column STs start */
            int32_t tr = red ? t + L : t + L - k2; /* the row STs start */
            if (red) {
                if (!blocks_st(m->s, tc, algo_sub_node(m, a, b + 2 * C1), vstride, k1, (int)R1,
                               lo, hi))
                    return false;
                for (int32_t R = 0; R < (INT32_C(1) << k1); R++)
                    if (!blocks_st(m->s, tr, algo_sub_node(m, a + 2 * R, b), hstride, k2,
                                   (int)C1, lo, hi))
                        return false;
            } else {
                if (!blocks_st(m->s, tr, algo_sub_node(m, a + 2 * R1, b), hstride, k2, (int)C1,
                               lo, hi))
                    return false;
                for (int32_t C = 0; C < (INT32_C(1) << k2); C++)
                    if (!blocks_st(m->s, tc, algo_sub_node(m, a, b + 2 * C), vstride, k1,
                                   (int)R1, lo, hi))
                        return false;
            }
        }
    return true;
}

/* One step of the 2x2 exchange as a rule: transfer j is member (j & 1) of pair (j >> 1) & 1 of
 * 2x2 block j >> 2 (x = block >> (D2-1), y = the rest) sending its part of the pair's range
 * to the other member, in the order blocks_exchange(k = 1) sent them.  col == 0: the pairs are
 * rows 2x+a of the block (members g apart), the range [lo + a*half, lo + (a+1)*half); col == 1:
 * columns 2y+b (members g*cols apart), the range [lo, lo + 2*half). */
typedef struct {
    int32_t r0, c0, cols, g;
    int D1, D2, col;
    uint32_t lo, half;
} Exch2x2;

static void exch2x2_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const Exch2x2 *e = ctx;
    int64_t ymask = (INT64_C(1) << (e->D2 - 1)) - 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t j = j0 + i, blk = j >> 2;
        int mem = (int)(j & 1), a = (int)((j >> 1) & 1);
        int64_t x = blk >> (e->D2 - 1), y = blk & ymask;
        int64_t R = 2 * x + (e->col ? 0 : a), C = 2 * y + (e->col ? a : 0);
        int64_t base = (e->r0 + R * e->g) * e->cols + e->c0 + C * e->g;
        int64_t stride = e->col ? (int64_t)e->g * e->cols : e->g;
        uint32_t L = e->col ? e->lo : e->lo + (uint32_t)a * e->half;
        uint32_t W = e->col ? 2 * e->half : e->half;   /* the pair's range: [L, L + W) */
        uint32_t mid = L + W / 2;
        out[i].src = (int32_t)(base + mem * stride);
        out[i].dst = (int32_t)(base + (mem ^ 1) * stride);
        out[i].nr = 1;
        out[i].r[0] = mem ? (ChunkRange){ mid, L + W } : (ChunkRange){ L, mid };
    }
}

/* Valid from the parameters: the submesh's last row r0 + (2^D1-1) g and column c0 + (2^D2-1) g
 * lie in the net (and its first ones, >= 0), so every node (R,C) and its partner (R,C+1) or
 * (R+1,C) of a 2x2 block does, apart; each part is non-empty (W >= 2) and ends by
 * lo + 2*half <= nchunks.  count = 2^(D1+D2). */
static bool exch2x2_prove(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    const Exch2x2 *e = ctx;
    if (e->D1 < 1 || e->D2 < 1 || e->D1 + e->D2 > 30 || count != (INT64_C(1) << (e->D1 + e->D2)))
        return false;
    int64_t rows = net_dim(net, 0), cols = net_dim(net, 1);
    int64_t rl = e->r0 + ((INT64_C(1) << e->D1) - 1) * (int64_t)e->g;
    int64_t cl = e->c0 + ((INT64_C(1) << e->D2) - 1) * (int64_t)e->g;
    return net_kind(net) == NET_MESH && net_ndim(net) == 2 && cols == e->cols && e->g >= 1 &&
           e->r0 >= 0 && e->c0 >= 0 && rl < rows && cl < cols && e->half >= 2 &&
           (uint64_t)e->lo + 2 * (uint64_t)e->half <= nchunks;
}

bool algo_sub_exchange_2x2(const AlgoSub *m, int32_t t, uint32_t lo, uint32_t hi)
{
    uint32_t half = (hi - lo) / 2;
    if (half >= 2 && hi - lo == 2 * half) {   /* every part non-empty: two rules */
        for (int col = 0; col < 2; col++) {
            Exch2x2 e = { m->r0, m->c0, m->cols, m->g, m->D1, m->D2, col, lo, half };
            if (!sched_at(m->s, t + col) ||
                !sched_send_rule_proved(m->s, INT64_C(1) << (m->D1 + m->D2), exch2x2_batch, &e,
                                        sizeof e, exch2x2_prove))
                return false;
        }
        return true;
    }
    for (int32_t x = 0; x < (INT32_C(1) << (m->D1 - 1)); x++)
        for (int32_t y = 0; y < (INT32_C(1) << (m->D2 - 1)); y++) {
            for (int a = 0; a < 2; a++)
                if (!blocks_exchange(m->s, t, algo_sub_node(m, 2 * x + a, 2 * y), m->g, 1,
                                     lo + (uint32_t)a * half, lo + (uint32_t)(a + 1) * half))
                    return false;
            for (int b = 0; b < 2; b++)
                if (!blocks_exchange(m->s, t + 1, algo_sub_node(m, 2 * x, 2 * y + b),
                                     m->g * m->cols, 1, lo, hi))
                    return false;
        }
    return true;
}

bool algo_block_distribute(Sched *s, int32_t t, int32_t source, int nu, uint32_t pk)
{
    if (nu == 0)
        return true;
    int32_t cols = net_dim(sched_net(s), 1), g = INT32_C(1) << nu;
    int32_t sr = source / cols, sc = source % cols;
    int32_t R0 = sr & ~(g - 1), C0 = sc & ~(g - 1);
    uint32_t G = (uint32_t)g;
    char lab[2][96];
    snprintf(lab[0], sizeof lab[0], "distribute down the column of the %dx%d block", (int)g,
             (int)g);
    snprintf(lab[1], sizeof lab[1], "distribute along the rows of the %dx%d block", (int)g,
             (int)g);
    if (!algo_open_steps_n(s, t, nu, lab[0]) ||
        !algo_open_steps_n(s, t + nu, nu, lab[1]))
        return false;
    if (!blocks_distribute(s, t, R0 * cols + sc, cols, nu, (int)(sr - R0), 0, G * G * pk))
        return false;
    for (int32_t i = 0; i < g; i++)
        if (!blocks_distribute(s, t + nu, (R0 + i) * cols + C0, 1, nu, (int)(sc - C0),
                               (uint32_t)i * G * pk, (uint32_t)(i + 1) * G * pk))
            return false;
    return true;
}

bool algo_block_exchange(Sched *s, int32_t t, int nu, uint32_t pk)
{
    if (nu == 0)
        return true;
    const Net *net = sched_net(s);
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1), g = INT32_C(1) << nu;
    uint32_t G = (uint32_t)g;
    char lab[2][96];
    snprintf(lab[0], sizeof lab[0], "exchange along the rows of %dx%d blocks", (int)g, (int)g);
    snprintf(lab[1], sizeof lab[1], "exchange along the columns of %dx%d blocks", (int)g,
             (int)g);
    if (!algo_open_steps_n(s, t, nu, lab[0]) ||
        !algo_open_steps_n(s, t + nu, nu, lab[1]))
        return false;
    for (int32_t X = 0; X < rows; X += g)
        for (int32_t Y = 0; Y < cols; Y += g) {
            for (int32_t i = 0; i < g; i++)
                if (!blocks_exchange(s, t, (X + i) * cols + Y, 1, nu, (uint32_t)i * G * pk,
                                     (uint32_t)(i + 1) * G * pk))
                    return false;
            for (int32_t j = 0; j < g; j++)
                if (!blocks_exchange(s, t + nu, X * cols + Y + j, cols, nu, 0, G * G * pk))
                    return false;
        }
    return true;
}

bool algo_better_mesh_build(Sched *s, const AlgoArgs *a, uint32_t pk, int fixed_steps,
                            AlgoSubLabels labels, AlgoSubBuild sub)
{
    const Net *net = sched_net(s);
    int d1, d2, nu = a->nu;
    if (!algo_mesh_build_dims(s, &d1, &d2))
        return false;
    int32_t cols = net_dim(net, 1), g = INT32_C(1) << nu;
    int32_t sr = a->source / cols, sc = a->source % cols;
    int32_t R0 = sr & ~(g - 1), C0 = sc & ~(g - 1);
    int D1 = d1 - nu, D2 = d2 - nu, L = algo_imax(D1, D2) - 1;
    int32_t t = 2 * nu;
    if (!algo_block_distribute(s, 0, a->source, nu, pk) || !labels(s, t, nu, L))
        return false;
    for (int32_t i = 0; i < g; i++)
        for (int32_t j = 0; j < g; j++) {
            AlgoSub m = {s, cols, i, j, g, D1, D2};
            uint32_t lo = (uint32_t)(i * g + j) * pk;
            if (!sub(&m, t, R0 >> nu, C0 >> nu, lo, lo + pk))
                return false;
        }
    return algo_block_exchange(s, t + fixed_steps + 2 * L, nu, pk);
}
