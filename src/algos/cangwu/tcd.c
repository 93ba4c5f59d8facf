/* tcd.c — Cang & Wu's Algorithm 1 (Cang & Wu, Sections 3-5): the minimum-TCD time-step
 * optimal broadcast on a d-D 2^k mesh (array:2^k, mesh:2^kx2^k, mesh:2^kx2^kx2^k) and torus,
 * from any source.
 *
 * The mesh is solved level by level, j = k .. 1, d steps per level.  At level j every submesh
 * of side 2^j holds one informed node X (the source, or an eye of the submesh) and informs one
 * node in each of its 2^d orthants (sub-submeshes of side 2^(j-1)), each an eye E_(j-1) of its
 * orthant: at step s of the level every informed orthant sends across one dimension pi[s]
 * (X's orthant first), so the informed nodes double every step (kd = log2 N steps).
 *
 * Which eye of an orthant, and in which order of dimensions: the route length is a sum over
 * dimensions, and every orthant's eyes are its near (closest to the centre) and far coordinate
 * in each dimension independently, so for an order pi each dimension's coordinates are chosen
 * to minimise that dimension's share (2^(2^d - 1) choices, d <= 3).  In 2-D with the row first
 * this is exactly the paper's rule: E_k(2) in step 1, then E_k(3) or E_(k-1)(1) (the lower-left
 * orthant's far-column eye), whichever is closer to S, and E_k(2) -> E_k(4) (Fig. 4).  From an
 * eye every target is the near eye: the eye-square broadcast of eq. 3 / eq. 12.
 *
 * Parameter `literal`:
 *   0 (default)  each level takes the best order of the dimensions (in 2-D: row first or column
 *                first).  Algorithm 1 as printed is not symmetric under transposition (the
 *                first message always goes along the row), so from (0,1) it gives 17 where
 *                (1,0) gives 16 on 4x4 (docs/errata.md); the best order gives the smaller.
 *   1            Algorithm 1 as the paper words it: "rotate the mesh, if necessary, until S is
 *                in the upper-left submesh", then the first message along the (rotated) row.
 *                In 2-D at every level (the algorithm recurses into each submesh, which
 *                rotates again): a holder in the upper-left or lower-right quadrant (rotation
 *                0 or 180 degrees) sends along the row first, one in the upper-right or
 *                lower-left (90 or 270 degrees) along the column first.  The table is then
 *                invariant under rotations, not reflections (a pinwheel of 17s on 4x4: the
 *                printed Fig. 2(a)).  d = 1, 3: as 2 (the paper rotates 2-D meshes only).
 *   2            the row first at every level and in every quadrant (rotation read as a
 *                mirror): symmetric under reflections, not rotations.
 * Tori (Section 5): every node is an eye; the mesh is laid over the torus with the source at
 * E_k(1), and routes take the torus's shorter way (never longer than in that mesh).
 * Routes: the default dimension-ordered ones (XY on a 2-D mesh).  Every message stays inside
 * its submesh and, within a level, crosses only its own orthants' lines: contention-free.
 *
 * Predicted TCD: 2-D mesh, eq. 4's recursion unrolled (eq. 7) with f_k of eq. 5 (the best of
 * f_k(u,v), f_k(v,u) unless literal) — eq. 10 at the eyes, eq. 9 at the corners; d-D from an
 * eye (any node of a torus): eq. 13 (eq. 12's recursion at d = 1, where eq. 13 is undefined).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"
#include "cangwu.h"

typedef struct {
    int d, k;
    int32_t n;
    int32_t sh[NET_MAXDIM];  /* torus: physical = virtual + sh (mod n) */
    const Net *net;
} Geo;

static int32_t phys(const Geo *g, const int32_t *v)
{
    int32_t p[NET_MAXDIM];
    for (int i = 0; i < g->d; i++)
        p[i] = (v[i] + g->sh[i]) % g->n;
    return net_id(g->net, p);
}

static int64_t iabs64(int64_t x) { return x < 0 ? -x : x; }

/* The permutations of 0..d-1, the literal order (d-1, ..., 0: the row first) first. */
static int perms(int d, int out[6][3])
{
    static const int p3[6][3] = {{2, 1, 0}, {2, 0, 1}, {1, 2, 0}, {1, 0, 2}, {0, 2, 1}, {0, 1, 2}};
    static const int p2[2][3] = {{1, 0, 0}, {0, 1, 0}};
    int np = d == 3 ? 6 : d == 2 ? 2 : 1;
    for (int i = 0; i < np; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = d == 3 ? p3[i][j] : d == 2 ? p2[i][j] : 0;
    return np;
}

/* One level's plan for a submesh: target virtual coordinates of each orthant (relative to
 * X's, rel = 0 is X) and the order of dimensions. */
typedef struct {
    int32_t c[8][NET_MAXDIM];
    int pi[3];
} Plan;

/* parent of rel (!= 0) in the order pi: rel without the bit crossed last */
static int parent_of(int rel, const int *pi, int d)
{
    for (int s = d - 1; s >= 0; s--)
        if (rel & (1 << pi[s]))
            return rel & ~(1 << pi[s]);
    return 0;
}

/* Plan the level for holder x in the submesh at origin o of side 2^j; returns the level's
 * TCD.  literal: only the row-first order. */
static int64_t plan_level(int d, int j, const int32_t *o, const int32_t *x, int literal,
                          Plan *pl)
{
    int32_t half = INT32_C(1) << (j - 1);
    int32_t lo = (int32_t)cangwu_eye_lo(j - 1), a1 = (int32_t)cangwu_a(j - 1);
    int32_t nearc[NET_MAXDIM][2], farc[NET_MAXDIM][2];
    int hx = 0;
    bool eye = true;
    for (int i = 0; i < d; i++) {
        for (int h = 0; h < 2; h++) {
            int32_t l = o[i] + h * half + lo;
            nearc[i][h] = h ? l : l + a1;
            farc[i][h] = h ? l + a1 : l;
        }
        int h = x[i] - o[i] >= half;
        hx |= h << i;
        eye = eye && x[i] == nearc[i][h];
    }
    int ps[6][3];
    int np = literal || eye ? 1 : perms(d, ps);
    if (np == 1)
        perms(d, ps);
    if (literal == 1 && d == 2 && (hx == 1 || hx == 2)) {
        /* rotated by 90 degrees: the rotated mesh's row is our column */
        ps[0][0] = 0;
        ps[0][1] = 1;
    }
    int nrel = 1 << d;
    int64_t best = -1;
    for (int q = 0; q < np; q++) {
        int64_t tot = 0;
        int32_t c[8][NET_MAXDIM];
        for (int i = 0; i < d; i++) {
            int64_t bi = -1;
            int bm = 0;
            /* choice bit (rel-1) of m: far coordinate for orthant rel in dimension i */
            for (int m = 0; m < (1 << (nrel - 1)); m++) {
                int64_t s = 0;
                int32_t cc[8];
                cc[0] = x[i];
                for (int rel = 1; rel < nrel; rel++) {
                    int h = ((hx ^ rel) >> i) & 1;
                    cc[rel] = ((m >> (rel - 1)) & 1) ? farc[i][h] : nearc[i][h];
                }
                for (int rel = 1; rel < nrel; rel++)
                    s += iabs64((int64_t)cc[rel] - cc[parent_of(rel, ps[q], d)]);
                if (bi < 0 || s < bi) {
                    bi = s;
                    bm = m;
                }
                if (eye)
                    break;   /* from an eye the near eyes are best: every hop is a_j */
            }
            tot += bi;
            c[0][i] = x[i];
            for (int rel = 1; rel < nrel; rel++) {
                int h = ((hx ^ rel) >> i) & 1;
                c[rel][i] = ((bm >> (rel - 1)) & 1) ? farc[i][h] : nearc[i][h];
            }
        }
        if (best < 0 || tot < best) {
            best = tot;
            memcpy(pl->c, c, sizeof c);
            memcpy(pl->pi, ps[q], sizeof pl->pi);
        }
    }
    return best;
}

bool cangwu_tcd_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen);
bool cangwu_tcd_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen)
{
    (void)a;
    int dd, k;
    if (!cangwu_shape(net, &dd, &k)) {
        snprintf(err, errlen, "%s on %s needs every extent the same power of two (a d-D 2^k "
                 "mesh or torus, d <= 3)", d->name, net_spec(net));
        return false;
    }
    return true;
}

static bool tcd_build(const AlgoDef *def, Sched *s, const AlgoArgs *a)
{
    const Net *net = sched_net(s);
    Geo g = {.net = net};
    if (!cangwu_shape(net, &g.d, &g.k)) {
        sched_fail(s, "not a d-D 2^k mesh or torus");
        return false;
    }
    int literal = (int)algo_param(def, a, "literal");
    g.n = net_dim(net, 0);
    int32_t src[NET_MAXDIM];
    net_coords(net, a->source, src);
    for (int i = 0; i < g.d; i++) {
        g.sh[i] = 0;
        if (net_wraps(net)) {
            g.sh[i] = (int32_t)(((src[i] - cangwu_eye_lo(g.k)) % g.n + g.n) % g.n);
            src[i] = (int32_t)cangwu_eye_lo(g.k);
        }
    }
    /* holders of the submeshes of the current level, as packed virtual coordinates */
    int d = g.d;
    size_t ncur = 1;
    int32_t *cur = malloc(sizeof *cur * NET_MAXDIM), *next = NULL;
    if (!cur) {
        sched_fail(s, "out of memory");
        return false;
    }
    memcpy(cur, src, sizeof(int32_t) * (size_t)d);
    bool ok = true;
    for (int j = g.k; j >= 1 && ok; j--) {
        int32_t t0 = (int32_t)(g.k - j) * d;
        char label[96];
        snprintf(label, sizeof label, "level %d: the eyes of the %ld-wide quadrants", j,
                 (long)(INT32_C(1) << (j - 1)));
        if (!algo_open_steps_n(s, t0, d, label)) {
            ok = false;
            break;
        }
        int32_t gside = g.n >> j;   /* submeshes per dimension at this level */
        size_t nnext = ncur << d;
        next = malloc(sizeof *next * (size_t)d * nnext);
        if (!next) {
            sched_fail(s, "out of memory");
            ok = false;
            break;
        }
        for (size_t sub = 0; sub < ncur && ok; sub++) {
            const int32_t *x = cur + sub * (size_t)d;
            int32_t o[NET_MAXDIM];
            for (int i = 0; i < d; i++)
                o[i] = x[i] - x[i] % (INT32_C(1) << j);
            Plan pl;
            plan_level(d, j, o, x, literal, &pl);
            int32_t node[8];
            for (int rel = 0; rel < (1 << d); rel++) {
                node[rel] = phys(&g, pl.c[rel]);
                /* the orthant's index in the next level's grid (row-major, side 2*gside) */
                size_t idx = 0;
                for (int i = 0; i < d; i++)
                    idx = idx * (size_t)(2 * gside) + (size_t)(pl.c[rel][i] >> (j - 1));
                memcpy(next + idx * (size_t)d, pl.c[rel], sizeof(int32_t) * (size_t)d);
            }
            int mask = 0;
            for (int st = 0; st < d && ok; st++) {
                int bit = 1 << pl.pi[st];
                ok = sched_at(s, t0 + st);
                for (int rel = 0; rel < (1 << d) && ok; rel++)
                    if ((rel & ~mask) == 0)
                        ok = sched_send_range(s, node[rel], node[rel | bit], 0, 1);
                mask |= bit;
            }
        }
        free(cur);
        cur = next;
        next = NULL;
        ncur <<= d;
    }
    free(cur);
    return ok && !sched_error(s);
}

static bool tcd_predict_tcd(const AlgoDef *def, const Net *net, const AlgoArgs *a, double *tcd)
{
    int d, k;
    if (!cangwu_shape(net, &d, &k))
        return false;
    if (k == 0) {
        *tcd = 0;
        return true;
    }
    int64_t v;
    if (cangwu_is_eye(net, a->source)) {
        if (!cangwu_md_eye_closed(d, k, &v))
            v = cangwu_md_eye_rec(d, k);   /* d = 1: eq. 12 (eq. 13 is undefined there) */
        *tcd = (double)v;
        return true;
    }
    if (d != 2)
        return false;   /* the paper gives d-D forms from an eye only */
    int32_t c[NET_MAXDIM];
    net_coords(net, a->source, c);
    *tcd = (double)cangwu_d_rec(k, c[0], c[1], (int)algo_param(def, a, "literal"));
    return true;
}

static const AlgoParam tcd_params[] = {
    {"literal", 0, 0, 2, "1: Algorithm 1 as worded (rotate the mesh until S is upper-left, then "
                         "the row first); 2: the row first always (mirror, no rotation); 0: the "
                         "better order of dimensions per level"},
};

const AlgoDef algo_tcd = {
    .name = "tcd",
    .summary = "minimum total communication distance via the eyes (Algorithm 1); d-D, tori",
    .ref = "Cang & Wu, Algorithm 1, eqs. 2-14; Section 5",
    .nets = 1u << NET_ARRAY | 1u << NET_RING | 1u << NET_MESH | 1u << NET_TORUS,
    .flags = 0,
    .params = tcd_params,
    .nparams = 1,
    .fits = cangwu_tcd_fits,
    .build = tcd_build,
    .predict_tcd = tcd_predict_tcd,
};
