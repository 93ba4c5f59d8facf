/* tiling.c — Peters & Syska Section 4: the recursive tiling broadcast ("tiling").
 *
 * On a 5^k x 5^k torus (Theorem 2) the broadcast has 2k phases.  Numbering the phases from
 * the last (phase 1) to the first (phase 2k), in phase j every informed node (x, y) sends the
 * whole message to (x+u, y+v), (x-u, y-v), (x+v, y-u), (x-v, y+u) with
 *     j = 2i   (even): u = 5^(i-1), v = 2*5^(i-1)    — the knight's moves between C_(i-1)s
 *     j = 2i-1 (odd):  u = 0,      v = 5^(i-1)      — the cross between S_(i-1)s.
 * (The text's u_j, v_j formula is garbled in our copy: "5^((j-1)/2) if even"; we decided on
 * the values above from the proof's own examples, phase 2 = (x+1, y+2)... and the sum
 * u_(2i-1) + u_(2i) + v_(2i-1) + v_(2i) = 4*5^(i-1) it states.)  x is dimension 0 (rows), y
 * dimension 1 (columns).  Routes (the paper draws the knight's paths without saying which leg
 * goes first; we decided): the four circuits of a knight phase are one path turned by 90
 * degrees each time — (+u,+v): u along rows then v along columns; (+v,-u): -u along columns
 * then +v along rows; and so on — so the four leave through the four out-ports and enter
 * through four different in-ports; the simulator checks that every phase is arc-disjoint.
 * Cost: 2k alpha + (5^k - 1) delta + 2k L tau.
 *
 * Expansions (Section 4, after Theorem 2): a torus (5^k 2^a) x (5^k 2^b):
 *   blocks=0 (default) "expand nodes into blocks": the S_k broadcast runs on the bosses of
 *     2^a x 2^b blocks (every distance of dimension 0 times 2^a, of dimension 1 times 2^b),
 *     then the blocks are filled by halving phases, each at half the distance of the one
 *     before: in a phase where both dimensions halve with half-sizes (h0, h1) a node informs
 *     three (the 2x2 block), where one halves it informs one (the 1x2 block of 5x10).
 *     The 2x2 phase is the paper's "ordinary" block broadcast — (h0,0) directly, (h0,h1)
 *     along dimension 1 then 0, (0,h1) round (-1,0), (-1,h1): h1 + 2 hops — or, with slant=1
 *     (the default) for the finest 2x2 phase, the "slanting" block: (-h0,0) and (0,h1)
 *     directly and (h0,h1) along dimension 0 then 1.  10x10: 3 alpha + 10 delta + 3 L tau
 *     slanting, 11 delta ordinary; 5x10: 3 alpha + 8 delta + 3 L tau.
 *     (The paper gives the slanting block for h = 1 only; it tiles at any half-size because
 *     the three offsets are the three non-zero classes of the 2h-lattice mod h.)
 *   blocks=1 "blocks of squares" (Fig. 6): the halving phases come first, between the bosses
 *     of 2^a x 2^b S_k squares, then every boss broadcasts in its square.  10x10: 3 alpha +
 *     14 delta + 3 L tau.
 * a = b = 0 is Theorem 2; k = 0 is the pure 2x2 expansion (log_4 N phases on 2^a x 2^a).
 *
 * Every other 2-D torus X x Y (the paper: "We can generalize our constructions to any size of
 * torus by expanding nodes into blocks of the appropriate dimensions"; it gives no
 * construction; we decided, tiling-cells.c):
 *   blocks=0: cut each extent into 5^k cells of floor or ceil(E / 5^k) nodes (cells.h), k
 *     the largest with 5^k <= X, Y, or one less when that takes fewer phases; S_k on the
 *     cells' bosses with every route stretched between the bosses (arc-disjoint because the
 *     5^k x 5^k phases are: each arc of those becomes its own run of arcs), then every cell
 *     filled by cross splits (fill.h: up to four straight circuits per boss, inside its
 *     sub-block, the factor 5 of Proposition 1).  When 5^k divides both extents the cells are
 *     the brief's m x n blocks of the largest common power; 5 x 25 (k differs per dimension:
 *     no S_k is 5 x 25) is S_1 on 1x5 cells.
 *   blocks=1: X = 5^k m, Y = 5^k n with the largest common power of 5: the m x n block of S_k
 *     squares is filled by cross splits first (cells 5^k apart), then S_k in every square.
 *   Measured on every torus up to 32x32 (tests/unit/test_peters.c): at most two phases more
 *   than Proposition 1's ceil(log_5 N), half of them exactly on it.  1-wide tori (torus:1xN)
 *   are accepted: the cells are 1 x n, filled by splits into thirds.
 * Any source: the torus is vertex-transitive, every offset is relative to the source.
 *
 * Predicted (circuit model): Theorem 2 on 5^k x 5^k, and the paper's three 10x10 and the
 * 5x10 (10x5) totals; no closed form elsewhere (predict_none says why).
 */
#include <stdio.h>

#include "fill.h"
#include "phases.h"
#include "tiling.h"

static const AlgoParam tiling_params[] = {
    {"blocks", 0, 0, 1, "0: expand nodes into blocks (S_k first, the blocks last); 1: blocks of S_k squares (the blocks first)"},
    {"slant", 1, 0, 1, "1: the finest 2x2 phase of 2^a x 2^b blocks uses the slanting blocks; 0: the ordinary ones"},
};

typedef struct {
    int k;           /* extents 5^k m x 5^k n, the largest common power of 5 */
    int32_t m, n;
    bool pow2;       /* m = 2^a, n = 2^b: the paper's halving blocks */
    int a, b;
} Shape;

/* The power of 5 in e, into *k5; e without it. */
static int32_t fives(int32_t e, int *k5)
{
    *k5 = 0;
    while (e % 5 == 0) {
        e /= 5;
        (*k5)++;
    }
    return e;
}

static int log2_exact(int32_t e)
{
    int k = 0;
    while (e % 2 == 0) {
        e /= 2;
        k++;
    }
    return e == 1 ? k : -1;
}

static bool shape_of(const Net *net, Shape *sh)
{
    if (net_kind(net) != NET_TORUS || net_ndim(net) != 2 || net_size(net) < 2)
        return false;
    int k0, k1;
    fives(net_dim(net, 0), &k0);
    fives(net_dim(net, 1), &k1);
    sh->k = k0 < k1 ? k0 : k1;
    int32_t p = 1;
    for (int i = 0; i < sh->k; i++)
        p *= 5;
    sh->m = net_dim(net, 0) / p;
    sh->n = net_dim(net, 1) / p;
    sh->a = log2_exact(sh->m);
    sh->b = log2_exact(sh->n);
    sh->pow2 = sh->a >= 0 && sh->b >= 0;
    return true;
}

static bool tiling_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                        size_t errlen)
{
    Shape sh;
    for (int i = 0; i < 2; i++)
        if (a->param[i] != 0 && a->param[i] != 1) {
            snprintf(err, errlen, "%s: %s must be 0 or 1", d->name, tiling_params[i].name);
            return false;
        }
    if (!shape_of(net, &sh)) {
        snprintf(err, errlen, "%s runs on 2-D tori of at least 2 nodes (torus:XxY), not on %s",
                 d->name, net_spec(net));
        return false;
    }
    return true;
}

static int64_t ipow(int64_t b, int e)
{
    int64_t r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

static PetersRoute rt(int n, int d0, int32_t l0, int d1, int32_t l1, int d2, int32_t l2)
{
    PetersRoute r = { .nseg = n };
    r.dim[0] = (int8_t)d0, r.len[0] = l0;
    r.dim[1] = (int8_t)d1, r.len[1] = l1;
    r.dim[2] = (int8_t)d2, r.len[2] = l2;
    return r;
}

/* The halving phase with half-sizes h0, h1 (0: that dimension does not halve). */
static PetersPattern halving(int32_t h0, int32_t h1, bool slant)
{
    PetersPattern p = { 0 };
    if (h0 && h1 && slant) {
        p.out[p.nout++] = rt(1, 0, -h0, 0, 0, 0, 0);
        p.out[p.nout++] = rt(1, 1, h1, 0, 0, 0, 0);
        p.out[p.nout++] = rt(2, 0, h0, 1, h1, 0, 0);
    } else if (h0 && h1) {
        p.out[p.nout++] = rt(1, 0, h0, 0, 0, 0, 0);
        p.out[p.nout++] = rt(2, 1, h1, 0, h0, 0, 0);
        p.out[p.nout++] = rt(3, 0, -1, 1, h1, 0, 1);
    } else if (h0) {
        p.out[p.nout++] = rt(1, 0, h0, 0, 0, 0, 0);
    } else {
        p.out[p.nout++] = rt(1, 1, h1, 0, 0, 0, 0);
    }
    return p;
}

PetersPattern tiling_knight(int32_t u0, int32_t v0, int32_t u1, int32_t v1)
{
    /* (u,v) scaled: u0 = u*c0, v0 = v*c0 along rows; u1, v1 along columns */
    PetersPattern p = { .nout = 4 };
    p.out[0] = rt(2, 0, u0, 1, v1, 0, 0);
    p.out[1] = rt(2, 0, -u0, 1, -v1, 0, 0);
    p.out[2] = rt(2, 1, -u1, 0, v0, 0, 0);
    p.out[3] = rt(2, 1, u1, 0, -v0, 0, 0);
    return p;
}

PetersPattern tiling_cross(int32_t s0, int32_t s1)
{
    PetersPattern p = { .nout = 4 };
    p.out[0] = rt(1, 1, s1, 0, 0, 0, 0);
    p.out[1] = rt(1, 1, -s1, 0, 0, 0, 0);
    p.out[2] = rt(1, 0, s0, 0, 0, 0, 0);
    p.out[3] = rt(1, 0, -s0, 0, 0, 0, 0);
    return p;
}

static bool run_halvings(Sched *s, const Shape *sh, int64_t unit, bool slant, PetersSet *inf)
{
    int levels = sh->a > sh->b ? sh->a : sh->b, both = sh->a < sh->b ? sh->a : sh->b;
    for (int t = 1; t <= levels; t++) {
        int32_t h0 = t <= sh->a ? (int32_t)(unit * ipow(2, sh->a - t)) : 0;
        int32_t h1 = t <= sh->b ? (int32_t)(unit * ipow(2, sh->b - t)) : 0;
        bool sl = slant && t == both;
        PetersPattern p = halving(h0, h1, sl);
        char label[96];
        snprintf(label, sizeof label, "tiling: %s %s to the %ldx%ld blocks",
                 h0 && h1 ? (sl ? "slanting" : "ordinary") : "1x2", "halving",
                 (long)(h0 ? 2 * h0 : 1), (long)(h1 ? 2 * h1 : 1));
        if (!peters_phase(s, label, &p, inf, inf->n, inf))
            return false;
    }
    return true;
}

/* The S_k phases (knight's moves and crosses), every distance of dimension 0 times c0, of
 * dimension 1 times c1, from every node of inf. */
static bool run_sk(Sched *s, int k, int64_t c0, int64_t c1, PetersSet *inf)
{
    for (int i = k; i >= 1; i--) {
        int32_t u = (int32_t)ipow(5, i - 1);
        char label[96];
        PetersPattern p = tiling_knight((int32_t)(u * c0), (int32_t)(2 * u * c0),
                                        (int32_t)(u * c1), (int32_t)(2 * u * c1));
        snprintf(label, sizeof label, "tiling: knight's moves (%ld,%ld) between the C_%d of each S_%d",
                 (long)u, (long)(2 * u), i - 1, i);
        if (!peters_phase(s, label, &p, inf, inf->n, inf))
            return false;
        p = tiling_cross((int32_t)(u * c0), (int32_t)(u * c1));
        snprintf(label, sizeof label, "tiling: cross at distance %ld between the S_%d of each C_%d",
                 (long)u, i - 1, i - 1);
        if (!peters_phase(s, label, &p, inf, inf->n, inf))
            return false;
    }
    return true;
}

/* The m x n blocks of S_k squares (blocks=1) on a torus 5^k m x 5^k n, m or n not a power of
 * 2: the blocks' cross splits first, cells 5^k apart, from the source (fill.h). */
static bool fill_squares(Sched *s, const Shape *sh, int64_t unit, PetersSet *inf)
{
    PetersFill *f = peters_fill_new(sh->m, sh->n);
    if (!f) {
        sched_fail(s, "out of memory");
        return false;
    }
    bool ok = true;
    int64_t nb = inf->n;   /* the block's boss (the source): the plan is relative to it */
    for (int p = 0; ok && p < peters_fill_phases(f); p++) {
        char label[96];
        snprintf(label, sizeof label, "tiling: cross splits of the %ldx%ld block of S_%d squares",
                 (long)sh->m, (long)sh->n, sh->k);
        ok = sched_step(s) >= 0 && sched_label(s, label);
        for (int64_t i = 0; ok && i < nb; i++)
            ok = peters_fill_send(s, f, p, inf->node[i], unit, unit, inf);
    }
    peters_fill_free(f);
    return ok;
}

static bool tiling_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    Shape sh;
    if (!shape_of(net, &sh)) {
        sched_fail(s, "tiling: not a 2-D torus");
        return false;
    }
    bool outer = a->param[0] != 0, slant = a->param[1] != 0;
    PetersSet inf;
    if (!peters_set_init(&inf, net_size(net))) {
        sched_fail(s, "out of memory");
        return false;
    }
    inf.node[inf.n++] = a->source;
    bool ok = true;
    int64_t p5 = ipow(5, sh.k);
    if (!sh.pow2 && !outer)   /* any other torus: S_k on uneven cells, then the cells */
        ok = tiling_cells(s, tiling_cells_k(net), a->source);
    else if (outer)   /* blocks of S_k squares: the blocks first, cells 5^k apart */
        ok = (sh.pow2 ? run_halvings(s, &sh, p5, slant, &inf) : fill_squares(s, &sh, p5, &inf)) &&
             run_sk(s, sh.k, 1, 1, &inf);
    else   /* nodes expanded into 2^a x 2^b blocks: S_k on the bosses, the blocks last */
        ok = run_sk(s, sh.k, sh.m, sh.n, &inf) && run_halvings(s, &sh, 1, slant, &inf);
    peters_set_free(&inf);
    return ok;
}

static bool tiling_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const CostParams *p, double *total)
{
    (void)d;
    Shape sh;
    if (p->model != COST_CIRCUIT || !shape_of(net, &sh) || !sh.pow2)
        return false;
    double A, D, T;   /* multiples of alpha, delta, L tau */
    bool outer = a->param[0] != 0, slant = a->param[1] != 0;
    if (sh.a == 0 && sh.b == 0 && sh.k >= 1) {           /* Theorem 2 */
        A = T = 2 * sh.k;
        D = (double)(ipow(5, sh.k) - 1);
    } else if (sh.k == 1 && sh.a == 1 && sh.b == 1) {    /* the three 10x10 tilings */
        A = T = 3;
        D = outer ? 14 : slant ? 10 : 11;
    } else if (sh.k == 1 && sh.a + sh.b == 1 && !outer) { /* 5x10 */
        A = T = 3;
        D = 8;
    } else {
        return false;
    }
    *total = A * p->alpha + D * p->delta + T * (double)a->bytes * p->tau;
    return true;
}

static bool tiling_predict_none(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                                const CostParams *p, char *why, size_t len)
{
    (void)d;
    Shape sh;
    double t;
    if (p->model != COST_CIRCUIT || !shape_of(net, &sh) || tiling_predict(d, net, a, p, &t))
        return false;
    snprintf(why, len, "the paper's closed forms are for 5^k x 5^k (Theorem 2), 10x10 and "
             "5x10; it does not analyse the other blocks (Section 4)");
    return true;
}

const AlgoDef algo_tiling = {
    .name = "tiling",
    .summary = "circuit-switched recursive tiling (knight's moves), log_5 N phases; any 2-D torus by blocks",
    .ref = "Peters & Syska, Section 4, Theorem 2; expansions Figs. 5-6",
    .nets = 1u << NET_TORUS,
    .flags = 0,
    .params = tiling_params,
    .nparams = 2,
    .fits = tiling_fits,
    .nchunks = NULL,
    .build = tiling_build,
    .predict = tiling_predict,
    .predict_none = tiling_predict_none,
};
