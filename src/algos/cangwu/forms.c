/* forms.c — Cang & Wu's eyes and closed forms (cangwu.h).
 *
 * Decisions (our copy of the paper is a PDF-to-text copy; figures 3-6 are lost):
 *  - The eye-square of a 2^k segment is centred (Definition 2: the eyes are the sub-eyes
 *    closest to the centre, and 2a_k + 2a_(k-1) = 2^k), so the eyes sit at offsets
 *    (2^k - 1 - a_k)/2 and that plus a_k.  a_k is odd for k >= 1, so the offset is an integer.
 *  - eq. 5's regions: u_k is the column offset of S from E_k(1) (positive towards the
 *    mesh's left edge), v_k the row offset (positive towards the top edge).  The printed upper
 *    bound 2^(k-1) - 1 - a_k/2 would leave out the mesh's edge row and column (u_k = (2^k - 1 -
 *    a_k)/2 is half a unit larger), so the outer regions run to the edge (docs/errata.md).
 *  - eq. 13's denominator "(2^d+1)(2^d-1-1)" reads 3(2^d+1)(2^(d-1)-1): that gives eq. 10 at
 *    d = 2 and eq. 14 at d = 3, as the text says it must.  It is undefined at d = 1.
 */
#include "cangwu.h"

#include <stdio.h>

#include "../algos-internal.h"

int64_t cangwu_a(int k)
{
    if (k <= 0)
        return 0;
    return ((INT64_C(1) << k) - ((k & 1) ? -1 : 1)) / 3;
}

int64_t cangwu_eye_lo(int k)
{
    return ((INT64_C(1) << k) - 1 - cangwu_a(k)) / 2;
}

bool cangwu_shape(const Net *net, int *d, int *k)
{
    int nd = net_ndim(net);
    int k0 = algo_log2(net_dim(net, 0));
    if (k0 < 0 || nd < 1 || nd > 3)
        return false;
    for (int i = 1; i < nd; i++)
        if (net_dim(net, i) != net_dim(net, 0))
            return false;
    *d = nd;
    *k = k0;
    return true;
}

int cangwu_step_level(const Net *net, int32_t step)
{
    int d, k;
    if (!cangwu_shape(net, &d, &k) || step < 0 || step >= d * k)
        return 0;
    return k - step / d;
}

/* Virtual coordinates on a torus: the tcd broadcast puts the source at offset lo_k. */
static int32_t torus_shift(const Net *net, int32_t source, int i, int k)
{
    if (!net_wraps(net))
        return 0;
    int32_t c[NET_MAXDIM], n = net_dim(net, 0);
    net_coords(net, source, c);
    return (int32_t)((((c[i] - cangwu_eye_lo(k)) % n) + n) % n);
}

int cangwu_eyes(const Net *net, int32_t source, int level, int32_t node, int32_t out[8])
{
    int d, k;
    if (!cangwu_shape(net, &d, &k) || level < 1 || level > k || node < 0 ||
        node >= net_size(net) || source < 0 || source >= net_size(net))
        return 0;
    int32_t c[NET_MAXDIM], n = net_dim(net, 0), side = INT32_C(1) << level;
    int32_t lo = (int32_t)cangwu_eye_lo(level), a = (int32_t)cangwu_a(level);
    int32_t sh[NET_MAXDIM], base[NET_MAXDIM];
    net_coords(net, node, c);
    for (int i = 0; i < d; i++) {
        sh[i] = torus_shift(net, source, i, k);
        int32_t v = ((c[i] - sh[i]) % n + n) % n;
        base[i] = v - v % side;
    }
    for (int e = 0; e < (1 << d); e++) {
        int32_t p[NET_MAXDIM];
        for (int i = 0; i < d; i++)
            p[i] = (base[i] + lo + (((e >> i) & 1) ? a : 0) + sh[i]) % n;
        out[e] = net_id(net, p);
    }
    return 1 << d;
}

bool cangwu_is_eye(const Net *net, int32_t node)
{
    int d, k;
    if (!cangwu_shape(net, &d, &k) || node < 0 || node >= net_size(net))
        return false;
    if (net_wraps(net) || k == 0)   /* Section 5: on a torus every node is an eye */
        return true;
    int32_t c[NET_MAXDIM];
    net_coords(net, node, c);
    for (int i = 0; i < d; i++)
        if (c[i] != cangwu_eye_lo(k) && c[i] != cangwu_eye_lo(k) + cangwu_a(k))
            return false;
    return true;
}

static bool eye_at(const Net *net, int32_t source, int level, int32_t node)
{
    int32_t e[8];
    int ne = cangwu_eyes(net, source, level, node, e);
    for (int i = 0; i < ne; i++)
        if (e[i] == node)
            return true;
    return false;
}

int cangwu_eye_mark(const Net *net, int32_t source, int32_t step, int32_t node)
{
    int d, k;
    if (!cangwu_shape(net, &d, &k) || k < 1)
        return 0;
    if (!net_wraps(net) ? cangwu_is_eye(net, node) : eye_at(net, source, k, node))
        return 2;
    int j = step < 0 ? k : cangwu_step_level(net, step);
    return j >= 2 && eye_at(net, source, j - 1, node) ? 1 : 0;
}

bool cangwu_quadrant_edge(const Net *net, int32_t source, int32_t step, int32_t node, int dim)
{
    int d, k;
    if (!cangwu_shape(net, &d, &k) || dim < 0 || dim >= d || node < 0 ||
        node >= net_size(net) || source < 0 || source >= net_size(net))
        return false;
    int j = step < 0 ? k : cangwu_step_level(net, step);
    if (j < 2)
        return false;
    int32_t c[NET_MAXDIM], n = net_dim(net, 0), q = INT32_C(1) << (j - 1);
    net_coords(net, node, c);
    int32_t v = ((c[dim] - torus_shift(net, source, dim, k)) % n + n) % n;
    return (v + 1) % q == 0;
}

/* ---- closed forms --------------------------------------------------------------------------- */

int64_t cangwu_md_eye_rec(int d, int k)
{
    int64_t md = (INT64_C(1) << d) - 1;           /* eq. 11 */
    for (int j = 2; j <= k; j++)                  /* eq. 12 */
        md = ((INT64_C(1) << d) - 1) * cangwu_a(j) + (INT64_C(1) << d) * md;
    return md;
}

bool cangwu_md_eye_closed(int d, int k, int64_t *out)
{
    int64_t D = INT64_C(1) << d;
    int64_t den = 3 * (D + 1) * ((D >> 1) - 1);
    if (den == 0 || d * (k + 1) > 58)
        return false;
    int64_t sgn = (k & 1) ? -1 : 1;
    int64_t num = (D - 1) * (3 * (INT64_C(1) << (d * (k + 1) - 1)) - sgn * ((D >> 1) - 1) -
                             (INT64_C(1) << k) * (D + 1));
    if (num % den != 0)
        return false;
    *out = num / den;
    return true;
}

int64_t cangwu_md_eye_eq10(int k)
{
    int64_t sgn = (k & 1) ? -1 : 1;
    return (3 * (INT64_C(1) << (2 * k + 1)) - sgn) / 5 - (INT64_C(1) << k);
}

int64_t cangwu_md_eye_eq14(int k)
{
    int64_t sgn = (k & 1) ? -1 : 1;
    return 7 * ((INT64_C(1) << (3 * k + 2)) - sgn - 3 * (INT64_C(1) << k)) / 27;
}

int64_t cangwu_md_corner_rec(int k)
{
    int64_t md = 3;                                           /* MD_1(0,0) */
    for (int j = 2; j <= k; j++)                              /* eq. 8 */
        md = 5 * (INT64_C(1) << (j - 1)) - 2 - 2 * cangwu_a(j - 1) + md +
             3 * cangwu_md_eye_rec(2, j - 1);
    return md;
}

int64_t cangwu_md_corner_eq9(int k)
{
    /* 6/5 4^k + 4/3 2^k - 2k - (-1)^k/30 - 5/2, over the common denominator 30 */
    int64_t sgn = (k & 1) ? -1 : 1;
    return (36 * (INT64_C(1) << (2 * k)) + 40 * (INT64_C(1) << k) - 60 * k - sgn - 75) / 30;
}

static int64_t iabs(int64_t x) { return x < 0 ? -x : x; }

int64_t cangwu_f(int k, int64_t u, int64_t v)
{
    int64_t a1 = cangwu_a(k - 1);
    bool vpos = v > 0;
    if (u <= 0)                              /* (i), (ii) */
        return vpos ? 2 * v : 0;
    if (2 * u <= a1)                         /* (iii), (iv): 0 < u <= a_(k-1)/2 */
        return 2 * u + (vpos ? 2 * v : 0);
    return u + iabs(u - a1) + (vpos ? 2 * v : 0);   /* (v), (vi) */
}

int64_t cangwu_d_rec(int k, int32_t r, int32_t c, int literal)
{
    int64_t total = 0;
    for (int j = k; j >= 1; j--) {
        int64_t side = INT64_C(1) << j, half = side >> 1;
        int64_t rr = r % side, cc = c % side;
        /* literal 1: a quarter turn brings S into the upper-left quadrant when it is in the
         * upper-right or lower-left one; that swaps u and v (the mirror below keeps them) */
        bool turn = literal == 1 && ((rr >= half) != (cc >= half));
        /* mirror S into the upper-left quadrant */
        if (rr >= half)
            rr = side - 1 - rr;
        if (cc >= half)
            cc = side - 1 - cc;
        int64_t e = cangwu_eye_lo(j);
        int64_t u = e - cc, v = e - rr;
        int64_t f = turn ? cangwu_f(j, v, u) : cangwu_f(j, u, v);
        if (!literal) {
            int64_t g = cangwu_f(j, v, u);
            f = g < f ? g : f;
        }
        total += f + 3 * cangwu_a(j) + 3 * cangwu_md_eye_rec(2, j - 1) * (j > 1);
    }
    return total;
}
