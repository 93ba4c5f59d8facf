/* embed.c — Section 4, "Meshes": a fractional tree embedded in an a x b mesh
 * (`fractional-htree`).
 *
 * The paper: take r = r1*r2 with a/r1 = b/r2 a power of two, cut the mesh into r1 x r2
 * submeshes, each a group (its PUs in snake order), and embed the binary tree of groups with
 * an H-tree, which "yields a complete binary tree with one leaf in every 2 x 2 submesh"; Fig. 4
 * (r = 2 on 8 x 16) is said to have edge congestion one with x-y routing.  The figure is not in
 * our copy, so the construction is ours, as close to the text as we can make it:
 *
 *  - the grid of groups is GR x GC = a/r1 x b/r2, both powers of two (we also take GR != GC:
 *    the H-tree then halves the longer side first), with G = GR*GC >= 2 groups;
 *  - a region of 2^n >= 2 groups holds a complete binary tree of 2^n - 1 groups (2^(n-1)
 *    leaves, one in every pair of groups) and leaves one group free: a pair is a leaf and a
 *    free group; a larger region is halved (the longer physical side; ties: the columns), the
 *    half holding the region's free group keeps it free, the other half frees the group next
 *    to the cut nearest the cut's middle (the H-tree's centre), and the region's root goes
 *    there, with the two halves' roots as its children (down: the half it sits in, right:
 *    the other);
 *  - the whole grid's free group is the source's: it holds the root group of the fractional
 *    tree (its member 0 the source; when the source is not the first PU of its group's snake,
 *    the group's snake order is rotated to start there), whose only child (down) is the H-tree's
 *    root.  So G groups: 1 + (G - 1), every PU in the tree.
 *
 * Timing is Fig. 2's (gtree.c): with G = 2^n the deepest PU is at offset
 *     d = 2r - 2 + (n - 1)(r + 1)
 * (the source group's last member, one down edge, then n-1 right edges to a leaf, its last
 * member), and the schedule takes d + (r+1)floor((s-1)/r) + (s-1) mod r + 1 steps (s for
 * d = 0: one pair of single PUs).  Every transfer follows the mesh's x-y route, given
 * explicitly; the simulator measures the link load (docs/errata.md says what it finds for
 * Fig. 4).  Cost (postal, s dividing the message): steps * (t + beta*m/s).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"
#include "gtree.h"

static const AlgoParam embed_params[] = {
    {"r", 2, 1, 1 << 12, "group size r = r1*r2: PUs per group (an r1 x r2 submesh)"},
    {"s", 8, ALGO_AUTO, 1 << 20, "packets the message is cut into (auto: the paper's s)"},
    {"r1", ALGO_AUTO, ALGO_AUTO, 1 << 12,
     "rows of a group (auto: the r1 that makes the grid of groups square, else most square)"},
};

#define EMBED_MAX_TRANSFERS (INT64_C(1) << 24)

typedef struct {
    int32_t rows, cols;   /* the mesh */
    int32_t r, r1, r2;
    int32_t GR, GC;       /* the grid of groups */
} Shape;

/* The shape for these args, or false with a message. */
static bool shape_of(const AlgoDef *d, const Net *net, const AlgoArgs *a, Shape *sh, char *err,
                     size_t errlen)
{
    memset(sh, 0, sizeof *sh);
    if (net_kind(net) != NET_MESH || net_ndim(net) != 2) {
        snprintf(err, errlen, "%s needs a 2-D mesh (mesh:AxB), not %s", d->name, net_spec(net));
        return false;
    }
    double rv = algo_param(d, a, "r"), r1v = algo_param(d, a, "r1");
    if (rv != floor(rv) || (r1v != ALGO_AUTO && (r1v != floor(r1v) || r1v < 1))) {
        snprintf(err, errlen, "%s: r and r1 must be whole numbers >= 1", d->name);
        return false;
    }
    sh->rows = net_dim(net, 0);
    sh->cols = net_dim(net, 1);
    sh->r = (int32_t)rv;
    int best = -1;
    for (int32_t r1 = 1; r1 <= sh->r; r1++) {
        if (sh->r % r1 || (r1v != ALGO_AUTO && r1 != (int32_t)r1v))
            continue;
        int32_t r2 = sh->r / r1;
        if (sh->rows % r1 || sh->cols % r2)
            continue;
        int l1 = algo_log2(sh->rows / r1), l2 = algo_log2(sh->cols / r2);
        if (l1 < 0 || l2 < 0 || l1 + l2 < 1)
            continue;
        int skew = abs(l1 - l2);
        if (best < 0 || skew < best) {
            best = skew;
            sh->r1 = r1;
            sh->r2 = r2;
            sh->GR = sh->rows / r1;
            sh->GC = sh->cols / r2;
        }
    }
    if (best < 0) {
        if (r1v != ALGO_AUTO)
            snprintf(err, errlen,
                     "%s on %s with r=%d: r1=%d must divide r and %d, r/r1 divide %d, and "
                     "both quotients be powers of two (not both 1)",
                     d->name, net_spec(net), (int)sh->r, (int)r1v, (int)sh->rows,
                     (int)sh->cols);
        else
            snprintf(err, errlen,
                     "%s on %s with r=%d: no r = r1*r2 with %d/r1 and %d/r2 powers of two and "
                     "at least 2 groups (e.g. mesh:8x16 with r=2)",
                     d->name, net_spec(net), (int)sh->r, (int)sh->rows, (int)sh->cols);
        return false;
    }
    return true;
}

static uint32_t packets_on(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const Shape *sh);

/* ---- the H-tree ---------------------------------------------------------------------------- */

typedef struct {
    const Shape *sh;
    int32_t *down, *right;
} Place;

static int32_t cell(const Shape *sh, int32_t gr, int32_t gc) { return gr * sh->GC + gc; }

/* Lay the complete binary tree of the region [r0,r1) x [c0,c1) of groups, leaving group f
 * free; returns its root. */
static int32_t place(Place *P, int32_t r0, int32_t r1, int32_t c0, int32_t c1, int32_t f)
{
    const Shape *sh = P->sh;
    int32_t fr = f / sh->GC, fc = f % sh->GC;
    if ((r1 - r0) * (c1 - c0) == 2) {   /* a pair: the leaf is the other group */
        return r1 - r0 == 2 ? cell(sh, fr == r0 ? r0 + 1 : r0, c0)
                            : cell(sh, r0, fc == c0 ? c0 + 1 : c0);
    }
    bool by_cols = c1 - c0 >= 2 &&
                   ((int64_t)(c1 - c0) * sh->r2 >= (int64_t)(r1 - r0) * sh->r1 || r1 - r0 < 2);
    int32_t g, ra, rb;
    if (by_cols) {
        int32_t cm = (c0 + c1) / 2, rmid = (r0 + r1 - 1) / 2;
        bool f_left = fc < cm;
        g = cell(sh, rmid, f_left ? cm : cm - 1);   /* B's group next to the cut, mid-way */
        ra = f_left ? place(P, r0, r1, c0, cm, f) : place(P, r0, r1, cm, c1, f);
        rb = f_left ? place(P, r0, r1, cm, c1, g) : place(P, r0, r1, c0, cm, g);
    } else {
        int32_t rm = (r0 + r1) / 2, cmid = (c0 + c1 - 1) / 2;
        bool f_top = fr < rm;
        g = cell(sh, f_top ? rm : rm - 1, cmid);
        ra = f_top ? place(P, r0, rm, c0, c1, f) : place(P, rm, r1, c0, c1, f);
        rb = f_top ? place(P, rm, r1, c0, c1, g) : place(P, r0, rm, c0, c1, g);
    }
    P->down[g] = rb;
    P->right[g] = ra;
    return g;
}

/* Member i of an r1 x r2 group in snake orientation o (bit 0: columns reversed, bit 1: rows
 * reversed, bit 2: the snake runs down the columns instead of along the rows): its local
 * offset lr * r2 + lc. */
static int32_t snake_local(const Shape *sh, int o, int32_t i)
{
    int32_t lr, lc;
    if (o & 4) {
        lc = i / sh->r1;
        lr = i % sh->r1;
        if (lc & 1)
            lr = sh->r1 - 1 - lr;
    } else {
        lr = i / sh->r2;
        lc = i % sh->r2;
        if (lr & 1)
            lc = sh->r2 - 1 - lc;
    }
    if (o & 1)
        lc = sh->r2 - 1 - lc;
    if (o & 2)
        lr = sh->r1 - 1 - lr;
    return lr * sh->r2 + lc;
}

static int32_t group_node(const Shape *sh, int32_t g, int32_t loc)
{
    int32_t R0 = (g / sh->GC) * sh->r1, C0 = (g % sh->GC) * sh->r2;
    return (R0 + loc / sh->r2) * sh->cols + C0 + loc % sh->r2;
}

static int32_t manhattan(const Shape *sh, int32_t u, int32_t v)
{
    return abs(u / sh->cols - v / sh->cols) + abs(u % sh->cols - v % sh->cols);
}

/* Orient group g's snake (fill its members): the head as near as can be to the PUs that feed
 * it (feed[0..nfeed)), then the last member as near as can be to the head of its down child
 * group's centre (dc, a node; -1 none).  Fewer hops, fewer shared links. */
static void orient(const Shape *sh, int32_t g, const int32_t *feed, int nfeed, int32_t dc,
                   int32_t *m)
{
    int32_t r = sh->r, best = -1;
    int64_t bestkey = 0;
    for (int o = 0; o < 8; o++) {
        int32_t head = group_node(sh, g, snake_local(sh, o, 0));
        int32_t last = group_node(sh, g, snake_local(sh, o, r - 1));
        int64_t k1 = 0;
        for (int f = 0; f < nfeed; f++)
            k1 += manhattan(sh, feed[f], head);
        int64_t key = k1 * 4096 + (dc >= 0 ? manhattan(sh, last, dc) : 0);
        if (best < 0 || key < bestkey) {
            best = o;
            bestkey = key;
        }
    }
    for (int32_t i = 0; i < r; i++)
        m[(int64_t)g * r + i] = group_node(sh, g, snake_local(sh, best, i));
}

/* The tree of groups for source src: member[], down[], right[] (caller frees *block, which
 * holds all three). */
static bool make_tree(const Shape *sh, int32_t src, SandersGTree *t, int32_t **block)
{
    int32_t G = sh->GR * sh->GC, r = sh->r;
    int32_t *m = malloc(((size_t)G * (size_t)r + 3 * (size_t)G) * sizeof *m);
    if (!m)
        return false;
    int32_t *down = m + (size_t)G * r, *right = down + G, *queue = right + G;
    for (int32_t g = 0; g < G; g++)
        down[g] = right[g] = -1;
    int32_t sr = src / sh->cols, sc = src % sh->cols;
    int32_t root = cell(sh, sr / sh->r1, sc / sh->r2);
    Place P = { sh, down, right };
    down[root] = place(&P, 0, sh->GR, 0, sh->GC, root);
    /* the source's group: an orientation that starts at the source, or (an inner source) the
     * first one rotated to start there */
    int o0 = 0;
    int32_t loc = (sr % sh->r1) * sh->r2 + sc % sh->r2;
    while (o0 < 7 && snake_local(sh, o0, 0) != loc)
        o0++;
    int32_t shift = 0;
    if (snake_local(sh, o0, 0) != loc) {
        o0 = 0;
        while (snake_local(sh, 0, shift) != loc)
            shift++;
    }
    for (int32_t i = 0; i < r; i++)
        m[(int64_t)root * r + i] = group_node(sh, root, snake_local(sh, o0, (i + shift) % r));
    /* the others top-down, each oriented towards the PUs that feed it */
    int32_t qh = 0, qt = 0;
    queue[qt++] = root;
    while (qh < qt) {
        int32_t g = queue[qh++];
        for (int k = 0; k < 2; k++) {
            int32_t c = k ? right[g] : down[g];
            if (c < 0)
                continue;
            const int32_t *feed = k ? &m[(int64_t)g * r] : &m[(int64_t)g * r + r - 1];
            int32_t dc = down[c] >= 0 ? group_node(sh, down[c], (sh->r1 / 2) * sh->r2 +
                                                                    sh->r2 / 2) : -1;
            orient(sh, c, feed, k ? r : 1, dc, m);
            queue[qt++] = c;
        }
    }
    *t = (SandersGTree){ .r = r, .ngroups = G, .member = m, .down = down, .right = right,
                         .root = root };
    *block = m;
    return true;
}

/* ---- the AlgoDef --------------------------------------------------------------------------- */

/* d = 2r - 2 + (n-1)(r+1) for G = 2^n groups (the header says why). */
static int64_t depth_of(const Shape *sh)
{
    int n = algo_log2((int64_t)sh->GR * sh->GC);
    return 2 * (int64_t)sh->r - 2 + (int64_t)(n - 1) * (sh->r + 1);
}

static int64_t steps_of(const Shape *sh, int64_t s)
{
    int64_t d = depth_of(sh);
    return d == 0 ? s : sanders_gtree_steps(d, sh->r, s);
}

static uint32_t packets_on(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const Shape *sh)
{
    double v = algo_param(d, a, "s");
    uint64_t s;
    if (v == ALGO_AUTO) {
        /* the paper's s = sqrt(k d r / (t (r+1))) with this embedding's d */
        double k = a->cost.beta * (double)a->bytes, t = a->cost.t;
        double x = t > 0 ? sqrt(k * (double)depth_of(sh) * sh->r / (t * (sh->r + 1)))
                         : (double)a->bytes;
        s = x < 1 ? 1 : (uint64_t)llround(x);
        if (s > (1u << 20))
            s = 1u << 20;
    } else {
        s = v >= 1 ? (uint64_t)v : 1;
    }
    (void)net;
    return (uint32_t)(s < a->bytes ? s : a->bytes);
}

static bool embed_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                       size_t errlen)
{
    Shape sh;
    if (!shape_of(d, net, a, &sh, err, errlen))
        return false;
    double sv = algo_param(d, a, "s");
    if (sv != ALGO_AUTO && (sv < 1 || sv != floor(sv))) {
        snprintf(err, errlen, "%s: s must be a whole number >= 1 (or auto)", d->name);
        return false;
    }
    int64_t t = ((int64_t)net_size(net) - 1) * packets_on(d, net, a, &sh);
    if (t > EMBED_MAX_TRANSFERS) {
        snprintf(err, errlen, "%s on %s would need %lld transfers (at most %lld)", d->name,
                 net_spec(net), (long long)t, (long long)EMBED_MAX_TRANSFERS);
        return false;
    }
    return true;
}

static uint32_t embed_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    Shape sh;
    char err[200];
    if (!shape_of(d, net, a, &sh, err, sizeof err))
        return 1;
    return packets_on(d, net, a, &sh);
}

static bool embed_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    const Net *net = sched_net(s);
    Shape sh;
    char err[200];
    if (!shape_of(d, net, a, &sh, err, sizeof err)) {
        sched_fail(s, "%s", err);
        return false;
    }
    SandersGTree t;
    int32_t *block;
    if (!make_tree(&sh, a->source, &t, &block)) {
        sched_fail(s, "out of memory");
        return false;
    }
    char name[64];
    snprintf(name, sizeof name, "H-tree of %dx%d groups (%dx%d)", (int)sh.GR, (int)sh.GC,
             (int)sh.r1, (int)sh.r2);
    bool ok = sanders_gtree_build(&t, s, name);
    free(block);
    return ok;
}

static bool embed_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                          const CostParams *p, double *total)
{
    Shape sh;
    char err[200];
    if (p->model != COST_POSTAL || !p->duplex || !shape_of(d, net, a, &sh, err, sizeof err))
        return false;
    uint32_t np = packets_on(d, net, a, &sh);
    if (a->bytes % np != 0)
        return false;
    *total = (double)steps_of(&sh, np) * (p->t + p->beta * (double)(a->bytes / np));
    return true;
}

int64_t sanders_embed_depth(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    Shape sh;
    char err[200];
    return shape_of(d, net, a, &sh, err, sizeof err) ? depth_of(&sh) : -1;
}

const AlgoDef algo_fractional_htree = {
    .name = "fractional-htree",
    .summary = "fractional tree on a mesh: r1 x r2 snake groups, the group tree an H-tree",
    .ref = "Sanders & Sibeyn 4 (Meshes), Fig. 4; timing Fig. 2, eq. 7",
    .nets = 1u << NET_MESH,
    .params = embed_params,
    .nparams = 3,
    .fits = embed_fits,
    .nchunks = embed_nchunks,
    .build = embed_build,
    .predict = embed_predict,
};
