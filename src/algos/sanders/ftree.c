/* ftree.c — Sanders & Sibeyn's fractional trees (Section 3, Fig. 2) and, as the case r = 1,
 * the pipelined binary tree (Section 2), for the duplex postal model, and their simplex
 * versions by the two-substep emulation of footnote 2.  Any number of nodes, any net.
 *
 * The tree.  A group is a chain of r PUs; its head receives from the predecessor group, member
 * i > 0 from member i-1.  Member r-1 feeds the head of the "down" successor group; member j
 * feeds the j-th packet of every run of r packets to the head of the "right" successor group.
 * Fig. 2's program makes every PU's timing a shift of one pattern: a PU that receives packet 0
 * at step x (0-based) receives packet m*r + j at step x + m(r+1) + j (0 <= j < r), sends it
 * down one step later and, if it is member j of its group, sends packet m*r + j right at step
 * x - j + (m+1)(r+1) + j — the pause step of the next period (sendRight|Recv).  The root is
 * member 0 of the root group with x = -1.  A group whose head gets packet 0 at step h has its
 * members at x = h..h+r-1, its down head at h + r and its right head at h + r + 1.
 *
 * Layout.  The "level" of a PU is its x.  H[h], the number of groups whose head is at level h,
 * satisfies H[-1] = 1, H[h] = H[h-r] + H[h-r-1]; the PUs with level <= x number
 * P_{x+1} = r + P_{x+1-r} + P_{x-r} (the paper's recurrence, P_i = i+1 for i <= r).  With
 * d = min{i : P_i >= P} - 1 every PU of the tree cut to P nodes has level <= d: the PUs of
 * levels < d and the first P - P_d of level d (all leaves, so any prefix is a tree).
 * Positions 0..P-1 number the PUs level by level; inside level x the members of the groups of
 * head level h come in order of h descending (member 0 = the heads first: down heads, in the
 * order of their parents, then right heads), each block in the order of its groups.  Then
 * every step's transfers are a few affine blocks (dst = a + k, src = b + k), given to the
 * schedule as one rule per step: a step of a million transfers costs a few hundred bytes.
 * Position -> node: the source first, then the nodes in order (wrapping): the line on arrays,
 * rings and full nets, the snake on meshes and tori (as the chain does) — "the tree embedded
 * in node order"; the simulator measures what that costs in link load.
 *
 * Steps (duplex; s packets, runs of r with the last run j0+1 = s - r*floor((s-1)/r) long):
 *     D(P, r, s) = d + (r+1)*floor((s-1)/r) + (s-1) mod r + 1     (P = 2: s, below)
 * i.e. d + s(1+1/r) - 1 when r divides s: the paper's (7) counts d + s(1+1/r), one step more —
 * the pause after the last run, which nobody waits for (docs/errata.md).  r = 1 is the binary
 * tree (d + 2s - 1 against the paper's d + 2s); r >= P-1 with s <= r is the chain (P - 2 + s).
 * A step in which nobody communicates is not a step (no schedule entry, no cost): that
 * happens only for P = 2, where the root's pauses (sendRight to nobody) are empty: s steps.
 *
 * Simplex (footnote 2): PUs 2w and 2w+1 (positions) form couple w, which plays PU w of the
 * duplex tree on ceil(P/2) PUs.  Each duplex step is two substeps: (1) for every duplex
 * transfer u -> v, A(u) = 2u sends to B(v) = 2v+1; (2) every B that received forwards the
 * packet to its A; in the root couple A(0) gives B(0) the packet it sent down.  With P odd the
 * last couple is a lone A at a leaf (it only receives, in substep 1).  Steps 2*D(P/2) for P
 * even (s for P = 2); for P odd at most 2*D(ceil(P/2)) (a substep with nothing to forward,
 * because only the lone A received, is skipped): no closed form offered for odd P > 3.
 * (The paper's direct simplex schedule, 2r+1 steps per run, is in its full version only.)
 *
 * Costs (postal, s dividing the message): steps * (t + beta*m/s); the simplex versions hold
 * under duplex and simplex ports alike.  seidel on full:P: steps * (a*m/s + b) (load 1).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"
#include "../../engine/sched-affine.h"

bool ftree_affine = true;

/* ---- the layout ---------------------------------------------------------------------------- */

int64_t sanders_tree_size(int64_t i, int64_t r)
{
    if (i < 0)
        return 0;
    if (i <= r)
        return i + 1;
    /* P_i = r + P_{i-r} + P_{i-r-1}, iteratively, saturating at 2^62 */
    int64_t n = i + 1, lim = INT64_C(1) << 62;
    int64_t *p = malloc((size_t)n * sizeof *p);
    if (!p)
        return -1;
    for (int64_t k = 0; k < n; k++) {
        if (k <= r)
            p[k] = k + 1;
        else {
            int64_t v = r + p[k - r] + p[k - r - 1];
            p[k] = v > lim ? lim : v;
        }
    }
    int64_t v = p[i];
    free(p);
    return v;
}

int64_t sanders_tree_depth(int64_t P, int64_t r)
{
    /* d = min{i : P_i >= P} - 1, by the recurrence (P_i = i+1 for i <= r) */
    if (P <= 1)
        return -1;
    if (P - 1 <= r)
        return P - 2;
    int64_t cap = P + 2;
    int64_t *p = malloc((size_t)cap * sizeof *p);
    if (!p)
        return -2;
    int64_t i = 0;
    for (;; i++) {
        p[i] = i <= r ? i + 1 : r + p[i - r] + p[i - r - 1];
        if (p[i] >= P)
            break;
    }
    free(p);
    return i - 1;
}

int64_t sanders_tree_steps(int64_t P, int64_t r, int64_t s)
{
    int64_t d = sanders_tree_depth(P, r);
    if (d < -1 || s < 1 || r < 1)
        return -1;
    if (d == 0)
        return s;   /* P = 2: the root's pause steps are empty, and skipped */
    int64_t q = (s - 1) / r, j = (s - 1) % r;
    return d + q * (r + 1) + j + 1;
}

typedef struct {
    int64_t r;
    int64_t n;        /* PUs (positions 0..n-1) */
    int64_t d;        /* deepest level */
    int64_t *H;       /* H[h+1]: groups with head level h, h = -1..d */
    int64_t *cumH;    /* cumH[h+1] = sum of H over -1..h */
    int64_t *lstart;  /* lstart[x+1]: first position of level x, x = -1..d+1 */
    int64_t *nzh;     /* head levels with H > 0, ascending */
    int64_t nnz;
} Layout;

static void layout_free(Layout *L)
{
    free(L->H);
    free(L->cumH);
    free(L->lstart);
    free(L->nzh);
}

static int64_t Hof(const Layout *L, int64_t h) { return h < -1 ? 0 : L->H[h + 1]; }
static int64_t cumHof(const Layout *L, int64_t h) { return h < -1 ? 0 : L->cumH[h + 1]; }

/* Position of the member at level lev of group #k among those with head level h. */
static int64_t pos_of(const Layout *L, int64_t lev, int64_t h, int64_t k)
{
    return L->lstart[lev + 1] + cumHof(L, lev) - cumHof(L, h) + k;
}

static bool layout_make(Layout *L, int64_t n, int64_t r)
{
    memset(L, 0, sizeof *L);
    L->r = r;
    L->n = n;
    L->d = sanders_tree_depth(n, r);
    if (L->d < -1)
        return false;
    int64_t m = L->d + 3;
    L->H = calloc((size_t)m, sizeof *L->H);
    L->cumH = calloc((size_t)m, sizeof *L->cumH);
    L->lstart = calloc((size_t)m + 1, sizeof *L->lstart);
    L->nzh = calloc((size_t)m, sizeof *L->nzh);
    if (!L->H || !L->cumH || !L->lstart || !L->nzh) {
        layout_free(L);
        return false;
    }
    for (int64_t h = -1; h <= L->d; h++) {
        int64_t v = h == -1 ? 1 : Hof(L, h - r) + Hof(L, h - r - 1);
        if (v > n)
            v = n;   /* never more than the net; only counts past the cut are clamped */
        L->H[h + 1] = v;
        L->cumH[h + 1] = cumHof(L, h - 1) + v;
        if (v > 0)
            L->nzh[L->nnz++] = h;
    }
    int64_t at = 0;
    for (int64_t x = -1; x <= L->d; x++) {
        L->lstart[x + 1] = at;
        int64_t size = cumHof(L, x) - cumHof(L, x - r);
        at += size;
        if (at > n)
            at = n;
    }
    L->lstart[L->d + 2] = at;
    return at == n;
}

/* ---- the rule of one step ------------------------------------------------------------------ */

enum { SEG_PLAIN, SEG_UP, SEG_FWD, SEG_ROOT };

typedef struct {
    int64_t at;       /* transfers of the rule before this block */
    int32_t dst, src; /* positions (PLAIN) or duplex positions (UP, FWD) */
    int32_t len;
    uint32_t pk;
    int32_t kind;
    int32_t pad;
} Seg;

typedef struct {
    int32_t n, source_pos, nd;
    int32_t dims[NET_MAXDIM];
    int64_t nseg;
    Seg seg[];
} Rule;

int32_t sanders_order_node(const int32_t *dims, int nd, int64_t pos)
{
    int32_t c[NET_MAXDIM];
    int64_t rest = pos, lines = 0;
    int64_t below[NET_MAXDIM + 1];
    below[nd] = 1;
    for (int i = nd - 1; i >= 0; i--)
        below[i] = below[i + 1] * dims[i];
    for (int i = 0; i < nd; i++) {
        int64_t digit = rest / below[i + 1];
        rest %= below[i + 1];
        c[i] = (int32_t)((lines & 1) ? dims[i] - 1 - digit : digit);
        lines = lines * dims[i] + digit;
    }
    int64_t id = 0;
    for (int i = 0; i < nd; i++)
        id = id * dims[i] + c[i];
    return (int32_t)id;
}

int64_t sanders_order_pos(const int32_t *dims, int nd, int32_t node)
{
    /* inverse of sanders_order_node: undo the reflections from the slowest dimension */
    int32_t c[NET_MAXDIM];
    int64_t id = node;
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = (int32_t)(id % dims[i]);
        id /= dims[i];
    }
    int64_t lines = 0;
    for (int i = 0; i < nd; i++) {
        int64_t digit = (lines & 1) ? dims[i] - 1 - c[i] : c[i];
        lines = lines * dims[i] + digit;
    }
    return lines;
}

static int32_t node_at(const Rule *R, int64_t pos)
{
    int64_t q = R->source_pos + pos;   /* both < n */
    if (q >= R->n)
        q -= R->n;
    if (R->nd == 1)
        return (int32_t)q;
    return sanders_order_node(R->dims, R->nd, q);
}

/* Transfers j0..j0+n-1 of the step: the block holding j0 found by a binary search, then the
 * blocks walked in order. */
static void rule_fn(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const Rule *R = ctx;
    int64_t lo = 0, hi = R->nseg - 1;
    while (lo < hi) {   /* the last block with at <= j0 */
        int64_t mid = (lo + hi + 1) / 2;
        if (R->seg[mid].at <= j0)
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t j = j0, end = j0 + n;
    for (int64_t q = lo; j < end; q++) {
        const Seg *g = &R->seg[q];
        int64_t k = j - g->at, kend = g->len < end - g->at ? g->len : end - g->at;
        ChunkRange pk = { g->pk, g->pk + 1 };
        if (g->kind == SEG_PLAIN && R->nd == 1) {   /* the common block: two affine runs */
            int64_t a = R->source_pos + g->src, b = R->source_pos + g->dst;
            for (; k < kend; k++, j++, out++) {
                int64_t s = a + k, t = b + k;
                out->src = (int32_t)(s >= R->n ? s - R->n : s);
                out->dst = (int32_t)(t >= R->n ? t - R->n : t);
                out->nr = 1;
                out->r[0] = pk;
            }
            continue;
        }
        for (; k < kend; k++, j++, out++) {
            int64_t s, t;
            switch (g->kind) {
            case SEG_UP:   /* A(u) -> B(v); a lone A (the last, P odd) receives itself */
                s = 2 * (g->src + k);
                t = 2 * (g->dst + k) + 1;
                if (t >= R->n)
                    t--;
                break;
            case SEG_FWD:
                s = 2 * (g->dst + k) + 1;
                t = 2 * (g->dst + k);
                break;
            case SEG_ROOT:
                s = 0;
                t = 1;
                break;
            default:
                s = g->src + k;
                t = g->dst + k;
                break;
            }
            out->src = node_at(R, s);
            out->dst = node_at(R, t);
            out->nr = 1;
            out->r[0] = pk;
        }
    }
}

/* ---- building ------------------------------------------------------------------------------ */

typedef struct {
    Seg *seg;
    int64_t n, cap, total;
    bool oom;
} SegBuf;

static void seg_add(SegBuf *b, int kind, int64_t dst, int64_t src, int64_t len, uint32_t pk)
{
    if (len <= 0 || b->oom)
        return;
    if (b->n == b->cap) {
        int64_t nc = b->cap ? b->cap * 2 : 64;
        Seg *g = realloc(b->seg, (size_t)nc * sizeof *g);
        if (!g) {
            b->oom = true;
            return;
        }
        b->seg = g;
        b->cap = nc;
    }
    b->seg[b->n++] = (Seg){ .at = b->total, .dst = (int32_t)dst, .src = (int32_t)src,
                            .len = (int32_t)len, .pk = pk, .kind = kind };
    b->total += len;
}

/* The duplex transfers of step tau, as PLAIN blocks (or UP blocks for the simplex first
 * substep); *rootdown gets the packet the root sends down in this step, or -1. */
static void duplex_blocks(const Layout *L, int64_t s, int64_t tau, int64_t per, int kind,
                          SegBuf *b, int64_t *rootdown)
{
    int64_t r = L->r;
    *rootdown = -1;
    /* level x receives at step tau the packet of offset u = tau - x, u = m*per + j, j < r
     * (per = r + 1; the direct simplex binary tree: per = 3 with r = 1) */
    int64_t ulast = ((s - 1) / r) * per + (s - 1) % r;
    int64_t xlo = tau - ulast > 0 ? tau - ulast : 0, xhi = tau < L->d ? tau : L->d;
    for (int64_t x = xlo; x <= xhi; x++) {
        int64_t u = tau - x, m = u / per, j = u % per;
        if (j >= r)
            continue;
        int64_t pk = m * r + j;
        if (pk >= s)
            continue;
        int64_t left = L->lstart[x + 2] - L->lstart[x + 1];   /* the level, cut at d */
        /* head levels h in [x-r+1, x] with groups, descending: the nzh entries in range */
        int64_t a = 0, z = L->nnz;
        while (a < z) {   /* first nzh > x */
            int64_t mid = (a + z) / 2;
            if (L->nzh[mid] <= x)
                a = mid + 1;
            else
                z = mid;
        }
        for (int64_t q = a - 1; q >= 0 && left > 0; q--) {
            int64_t h = L->nzh[q];
            if (h < x - r + 1)
                break;
            int64_t cnt = Hof(L, h) < left ? Hof(L, h) : left;
            left -= cnt;
            int64_t dst0 = pos_of(L, x, h, 0);
            if (h < x) {   /* members i = x - h >= 1: from member i-1, one level up */
                seg_add(b, kind, dst0, pos_of(L, x - 1, h, 0), cnt, (uint32_t)pk);
                continue;
            }
            /* heads: first the down heads (children of the groups of head level x - r, fed
             * by their member r-1, at level x-1), then the right heads (of head level
             * x - r - 1, fed by member j, at level x - r - 1 + j) */
            int64_t nd = Hof(L, x - r) < cnt ? Hof(L, x - r) : cnt;
            if (nd > 0) {
                seg_add(b, kind, dst0, pos_of(L, x - 1, x - r, 0), nd, (uint32_t)pk);
                if (x - r == -1 && r == 1)
                    *rootdown = pk;   /* r = 1: the root's down child */
            }
            if (cnt > nd)
                seg_add(b, kind, dst0 + nd, pos_of(L, x - r - 1 + j, x - r - 1, 0), cnt - nd,
                        (uint32_t)pk);
        }
        /* the root (member 0 of the root group) sends packet pk down when member 1 (r > 1)
         * receives it: level 0, head level -1 */
        if (r > 1 && x == 0)
            *rootdown = pk;
    }
}

/* Node order is position order shifted by the source (nets of one dimension): b's blocks are
 * all PLAIN, so each is two affine runs of nodes, cut where either run wraps past the last
 * node.  Given to the schedule as affine blocks (sched-affine.h), which the simulator can
 * replay block by block; the same transfers in the same order as rule_fn's. */
static bool emit_affine(Sched *s, const Rule *proto, const SegBuf *b)
{
    SchedAffine *a = malloc((size_t)(3 * b->n + 1) * sizeof *a);
    if (!a) {
        sched_fail(s, "out of memory");
        return false;
    }
    int64_t na = 0, n = proto->n;
    for (int64_t q = 0; q < b->n; q++) {
        const Seg *g = &b->seg[q];
        int64_t src = proto->source_pos + g->src, dst = proto->source_pos + g->dst;
        for (int64_t k = 0, len = g->len; k < len;) {
            int64_t s0 = src + k, d0 = dst + k, end = len;
            if (s0 < n && n - s0 + k < end)
                end = n - s0 + k;   /* the source run wraps here */
            if (d0 < n && n - d0 + k < end)
                end = n - d0 + k;
            a[na++] = (SchedAffine){ .src = (int32_t)(s0 >= n ? s0 - n : s0),
                                     .dst = (int32_t)(d0 >= n ? d0 - n : d0),
                                     .len = (int32_t)(end - k),
                                     .r = { g->pk, g->pk + 1 } };
            k = end;
        }
    }
    bool ok = sched_send_affine(s, a, na);
    free(a);
    return ok;
}

/* Open step `*step` with b's transfers (none: no step, nobody communicates). */
static bool emit(Sched *s, const Rule *proto, SegBuf *b, int32_t *step, const char *label)
{
    if (b->total == 0)
        return true;
    if (!sched_at(s, (*step)++) || !sched_label(s, label))
        return false;
    bool plain = proto->nd == 1;
    for (int64_t q = 0; plain && q < b->n; q++)
        plain = b->seg[q].kind == SEG_PLAIN;
    if (plain && ftree_affine)
        return emit_affine(s, proto, b);
    size_t size = sizeof(Rule) + (size_t)b->n * sizeof(Seg);
    Rule *R = malloc(size);
    if (!R) {
        sched_fail(s, "out of memory");
        return false;
    }
    memcpy(R, proto, sizeof *R);
    R->nseg = b->n;
    memcpy(R->seg, b->seg, (size_t)b->n * sizeof(Seg));
    bool ok = sched_send_rule_batch(s, b->total, rule_fn, R, size);
    free(R);
    return ok;
}

typedef struct {
    int64_t r;        /* group size (1: binary tree) */
    bool simplex;
    bool direct;      /* simplex, directly: period 3 per packet (r = 1 only) */
} Variant;

/* Steps of the direct simplex binary tree: a PU at level x receives packet p at step x + 3p,
 * sends it down at x + 3p + 1 and right at x + 3p + 2, so d + 3(s-1) + 1 steps; with d <= 1
 * the levels leave steps in which nobody communicates (not steps): s for P = 2, 2s for P = 3. */
int64_t sanders_direct_steps(int64_t P, int64_t s)
{
    int64_t d = sanders_tree_depth(P, 1);
    if (d < -1 || s < 1)
        return -1;
    if (d <= 1)
        return (d + 1) * s;
    return d + 3 * s - 2;
}

/* --set r=auto: the paper's "close to optimal" r = (k(r+1)/(d t))^(1/3) (Section 3), solved
 * by iterating from r = 1 (d depends on r); r = 1 where k(r+1) < d t, as the paper says. */
int64_t sanders_paper_r(int64_t P, double k, double t)
{
    if (!(t > 0))
        return P;   /* no startup cost: the chain */
    int64_t r = 1;
    for (int it = 0; it < 64; it++) {
        int64_t d = sanders_tree_depth(P, r);
        if (d < 1)
            return r;
        double x = cbrt(k * (double)(r + 1) / ((double)d * t));
        int64_t nr = x < 1 ? 1 : (int64_t)llround(x);
        if (nr > P)
            nr = P;
        if (nr == r)
            break;
        r = nr;
    }
    int64_t d = sanders_tree_depth(P, r);
    return k * (double)(r + 1) >= (double)d * t ? r : 1;
}

/* --set s=auto: the paper's s = sqrt(k d r / (t (r+1))) (after eq. 7; r = 1: the binary tree,
 * sqrt(k d / (2t)) — Section 2 prints sqrt(2kd/t), see docs/errata.md), rounded, in 1..m. */
int64_t sanders_paper_s(int64_t P, int64_t r, double k, double t, uint64_t bytes)
{
    int64_t d = sanders_tree_depth(P, r);
    double x = t > 0 ? sqrt(k * (double)d * (double)r / (t * (double)(r + 1))) : (double)bytes;
    int64_t s = x < 1 ? 1 : (int64_t)llround(x);
    if ((uint64_t)s > bytes)
        s = (int64_t)bytes;
    return s > (1 << 20) ? (1 << 20) : s;
}

static int64_t group_size(const AlgoDef *d, const AlgoArgs *a)
{
    const Variant *v = d->ud;
    if (v->r > 0)
        return v->r;
    double r = algo_param(d, a, "r");
    if (r == ALGO_AUTO)
        return -1;   /* resolved with the net: group_size_on */
    return r >= 1 ? (int64_t)r : 1;
}

/* The group size on net (r=auto resolved for it). */
static int64_t group_size_on(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    int64_t r = group_size(d, a);
    if (r > 0)
        return r;
    const Variant *v = d->ud;
    int64_t P = net_size(net);
    if (v->simplex)
        P = (P + 1) / 2;
    return sanders_paper_r(P < 2 ? 2 : P, a->cost.beta * (double)a->bytes, a->cost.t);
}

static uint32_t packets_on(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    double v = algo_param(d, a, "s");
    uint64_t s;
    if (v == ALGO_AUTO) {
        const Variant *va = d->ud;
        int64_t P = net_size(net);
        if (va->direct) {   /* T = (d + 3s)(t + k/s): s = sqrt(k d / (3t)) */
            double k = a->cost.beta * (double)a->bytes, t = a->cost.t;
            double x = t > 0 ? sqrt(k * (double)sanders_tree_depth(P < 2 ? 2 : P, 1) / (3 * t))
                             : (double)a->bytes;
            s = x < 1 ? 1 : x > (1 << 20) ? (1 << 20) : (uint64_t)llround(x);
            return (uint32_t)(s < a->bytes ? s : a->bytes);
        }
        if (va->simplex)
            P = (P + 1) / 2;
        s = (uint64_t)sanders_paper_s(P < 2 ? 2 : P, group_size_on(d, net, a),
                                      a->cost.beta * (double)a->bytes, a->cost.t, a->bytes);
    } else {
        s = v >= 1 ? (uint64_t)v : 1;
    }
    return (uint32_t)(s < a->bytes ? s : a->bytes);
}

#define FT_MAX_STEPS (INT64_C(1) << 21)
#define FT_MAX_TRANSFERS (INT64_C(1) << 28)

static int64_t steps_of(const AlgoDef *d, int64_t P, int64_t r, int64_t s)
{
    const Variant *v = d->ud;
    if (v->direct)
        return sanders_direct_steps(P, s);
    if (!v->simplex)
        return sanders_tree_steps(P, r, s);
    int64_t Pv = (P + 1) / 2;
    if (Pv < 2)   /* P = 2: one couple, the root sends packet after packet */
        return s;
    int64_t D = sanders_tree_steps(Pv, r, s);
    return D < 0 ? -1 : 2 * D;
}

bool sanders_why(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool sanders_price(const Net *net, const CostParams *p, uint64_t m, int64_t np, double steps,
                   double *total, char *why, size_t len)
{
    if (np < 1 || m % (uint64_t)np != 0)
        return sanders_why(why, len, "the closed form needs packets of equal size: %llu bytes "
                           "do not split into %lld packets", (unsigned long long)m,
                           (long long)np);
    double L = (double)(m / (uint64_t)np);
    switch (p->model) {
    case COST_POSTAL:
        *total = steps * (p->t + p->beta * L);
        return true;
    case COST_SEIDEL:
        if (net_kind(net) != NET_FULL)
            return sanders_why(why, len, "on %s the links the embedded tree shares decide the "
                               "cost", net_kind_name(net_kind(net)));
        *total = steps * (p->a * L + p->b);
        return true;
    default:
        return false;
    }
}

bool sanders_params_whole(const AlgoDef *d, const AlgoArgs *a, char *err, size_t errlen)
{
    for (int i = 0; i < d->nparams; i++)
        if (a->param[i] != ALGO_AUTO && a->param[i] < 1) {
            snprintf(err, errlen, "%s: %s must be at least 1 (or auto)", d->name,
                     d->params[i].name);
            return false;
        } else if (a->param[i] != floor(a->param[i])) {
            snprintf(err, errlen, "%s: %s=%.15g is not a whole number", d->name,
                     d->params[i].name, a->param[i]);
            return false;
        }
    return true;
}

static bool ft_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    if (!sanders_params_whole(d, a, err, errlen))
        return false;
    int64_t P = net_size(net), s = packets_on(d, net, a), r = group_size_on(d, net, a);
    int64_t steps = steps_of(d, P, r, s);
    if (steps < 0 || steps > FT_MAX_STEPS) {
        snprintf(err, errlen, "%s on %s with r=%lld s=%lld would need %lld steps (at most %lld)",
                 d->name, net_spec(net), (long long)r, (long long)s, (long long)steps,
                 (long long)FT_MAX_STEPS);
        return false;
    }
    const Variant *v = d->ud;
    int64_t t = (P - 1) * s * (v->simplex && !v->direct ? 2 : 1);
    if (t > FT_MAX_TRANSFERS) {
        snprintf(err, errlen, "%s on %s with s=%lld would need %lld transfers (at most %lld)",
                 d->name, net_spec(net), (long long)s, (long long)t,
                 (long long)FT_MAX_TRANSFERS);
        return false;
    }
    return true;
}

static uint32_t ft_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    return packets_on(d, net, a);
}

/* The direct simplex binary tree (Section 2, "replace the two by a three"): the duplex layout
 * (r = 1), every PU in turn receiving a packet, sending it down, sending it right, so that it
 * sends or receives, never both, in a step: the duplex blocks with period 3. */
static bool direct_build(Sched *s, const Rule *proto, int64_t np)
{
    Layout L;
    if (!layout_make(&L, net_size(sched_net(s)), 1)) {
        layout_free(&L);
        sched_fail(s, "out of memory laying out the tree");
        return false;
    }
    int64_t last = L.d + 3 * (np - 1);   /* level d gets the last packet */
    SegBuf b = { 0 };
    bool ok = true;
    int32_t out = 0;
    char label[128];
    for (int64_t tau = 0; ok && tau <= last; tau++) {
        int64_t rootdown;
        b.n = b.total = 0;
        duplex_blocks(&L, np, tau, 3, SEG_PLAIN, &b, &rootdown);
        if (b.oom)
            break;
        snprintf(label, sizeof label, "binary tree (simplex, direct): step %lld of %lld",
                 (long long)tau + 1, (long long)last + 1);
        ok = emit(s, proto, &b, &out, label);
    }
    if (b.oom && ok) {
        sched_fail(s, "out of memory");
        ok = false;
    }
    free(b.seg);
    layout_free(&L);
    return ok;
}

static bool ft_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    const Variant *v = d->ud;
    const Net *net = sched_net(s);
    int64_t P = net_size(net), np = sched_nchunks(s), r = group_size_on(d, net, a);
    Rule proto;
    memset(&proto, 0, sizeof proto);
    proto.n = (int32_t)P;
    proto.nd = net_kind(net) == NET_FULL ? 1 : net_ndim(net);
    for (int i = 0; i < proto.nd; i++)
        proto.dims[i] = net_dim(net, i);
    proto.source_pos = (int32_t)(proto.nd == 1 ? a->source
                                               : sanders_order_pos(proto.dims, proto.nd,
                                                                   a->source));
    const char *name = v->r == 1 ? "binary tree" : "fractional tree";
    char label[128];
    SegBuf b = { 0 }, b2 = { 0 };
    bool ok = true;
    int32_t out = 0;
    if (v->simplex && P == 2) {   /* one couple: the root sends packet after packet */
        for (int64_t pk = 0; ok && pk < np; pk++) {
            snprintf(label, sizeof label, "%s (simplex): packet %lld", name, (long long)pk);
            b.n = b.total = 0;
            seg_add(&b, SEG_ROOT, 0, 0, 1, (uint32_t)pk);
            ok = !b.oom && emit(s, &proto, &b, &out, label);
        }
        free(b.seg);
        return ok;
    }
    if (v->direct)
        return direct_build(s, &proto, np);
    Layout L;
    int64_t Pv = v->simplex ? (P + 1) / 2 : P;
    if (!layout_make(&L, Pv, r)) {
        layout_free(&L);
        sched_fail(s, "out of memory laying out the tree");
        return false;
    }
    int64_t D = sanders_tree_steps(Pv, r, np);
    if (L.d == 0)
        D = L.d + ((np - 1) / r) * (r + 1) + (np - 1) % r + 1;   /* walk the pauses too */
    for (int64_t tau = 0; ok && tau < D; tau++) {
        int64_t rootdown;
        b.n = b.total = 0;
        duplex_blocks(&L, np, tau, r + 1, v->simplex ? SEG_UP : SEG_PLAIN, &b, &rootdown);
        if (b.oom)
            break;
        if (!v->simplex) {
            snprintf(label, sizeof label, "%s r=%lld: step %lld of %lld", name, (long long)r,
                     (long long)tau + 1, (long long)D);
            ok = emit(s, &proto, &b, &out, label);
            continue;
        }
        snprintf(label, sizeof label, "%s r=%lld (simplex): step %lld/%lld, A sends to B",
                 name, (long long)r, (long long)tau + 1, (long long)D);
        ok = ok && emit(s, &proto, &b, &out, label);
        /* substep 2: every B that received forwards to its A (a lone A has no B) */
        b2.n = b2.total = 0;
        for (int64_t q = 0; q < b.n; q++) {
            const Seg *g = &b.seg[q];
            int64_t len = g->len;
            if (2 * ((int64_t)g->dst + len - 1) + 1 >= P)
                len--;
            seg_add(&b2, SEG_FWD, g->dst, 0, len, g->pk);
        }
        if (rootdown >= 0)
            seg_add(&b2, SEG_ROOT, 0, 0, 1, (uint32_t)rootdown);
        if (b2.oom)
            break;
        snprintf(label, sizeof label, "%s r=%lld (simplex): step %lld/%lld, B forwards to A",
                 name, (long long)r, (long long)tau + 1, (long long)D);
        ok = emit(s, &proto, &b2, &out, label);
    }
    b.oom |= b2.oom;
    free(b2.seg);
    if (b.oom && ok) {
        sched_fail(s, "out of memory");
        ok = false;
    }
    free(b.seg);
    layout_free(&L);
    return ok;
}

/* The closed form (eq. 7 and its relatives, with our step counts) into *total, or false with
 * why there is none into why (when why is not NULL). */
static bool ft_closed(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                      double *total, char *why, size_t len)
{
    const Variant *v = d->ud;
    int64_t P = net_size(net), np = packets_on(d, net, a), r = group_size_on(d, net, a);
    double steps = (double)steps_of(d, P, r, np);
    if (steps < 0)
        return false;
    /* P odd (> 3): the lone A's receives leave some forwarding substeps empty; the paper
     * gives only the bound 2 * D(ceil(P/2)), no closed form */
    if (v->simplex && !v->direct && (P & 1) && P > 3)
        return sanders_why(why, len, "the emulation on an odd number of PUs leaves one PU "
                           "without a partner: the paper gives only the bound 2 D(ceil(P/2))");
    if (p->model == COST_POSTAL && !p->duplex && !v->simplex)
        return sanders_why(why, len, "under duplex=0 the duplex schedule breaks the simplex rule");
    return sanders_price(net, p, a->bytes, np, steps, total, why, len);
}

static bool ft_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    return ft_closed(d, net, a, p, total, NULL, 0);
}

static bool ft_predict_none(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                            const CostParams *p, char *why, size_t len)
{
    double t;
    return !ft_closed(d, net, a, p, &t, why, len);
}

static const AlgoParam frac_params[] = {
    {"r", 2, ALGO_AUTO, 1 << 20,
     "group size: PUs per group (1: binary tree, large: chain; auto: the paper's r)"},
    {"s", 8, ALGO_AUTO, 1 << 20, "packets the message is cut into (auto: the paper's s)"},
};
static const AlgoParam bin_params[] = {
    {"s", 8, ALGO_AUTO, 1 << 20, "packets the message is cut into (auto: the paper's s)"},
};

static const Variant v_frac = { 0, false, false }, v_frac_simplex = { 0, true, false };
static const Variant v_bin = { 1, false, false }, v_bin_simplex = { 1, true, false };
static const Variant v_bin_direct = { 1, true, true };

#define FT_NETS ((1u << NET_ARRAY) | (1u << NET_RING) | (1u << NET_MESH) | (1u << NET_TORUS) | \
                 (1u << NET_FULL) | (1u << NET_HXBAR))

const AlgoDef algo_fractional = {
    .name = "fractional",
    .summary = "fractional tree: groups of r PUs in chains, a binary tree of groups (duplex)",
    .ref = "Sanders & Sibeyn 3, Fig. 2, eq. 7",
    .nets = FT_NETS,
    .params = frac_params,
    .nparams = 2,
    .fits = ft_fits,
    .nchunks = ft_nchunks,
    .build = ft_build,
    .predict = ft_predict,
    .predict_none = ft_predict_none,
    .ud = (void *)&v_frac,
};

const AlgoDef algo_fractional_simplex = {
    .name = "fractional-simplex",
    .summary = "fractional tree for simplex ports: couples emulate duplex PUs in two substeps",
    .ref = "Sanders & Sibeyn 3 and footnote 2 (two-substep emulation)",
    .nets = FT_NETS,
    .params = frac_params,
    .nparams = 2,
    .fits = ft_fits,
    .nchunks = ft_nchunks,
    .build = ft_build,
    .predict = ft_predict,
    .predict_none = ft_predict_none,
    .ud = (void *)&v_frac_simplex,
};

const AlgoDef algo_bintree = {
    .name = "bintree",
    .summary = "pipelined binary tree, skewed layout P_i = 1 + P_{i-1} + P_{i-2} (duplex)",
    .ref = "Sanders & Sibeyn 2, T_1^s = (d + 2s)(t + k/s)",
    .nets = FT_NETS,
    .params = bin_params,
    .nparams = 1,
    .fits = ft_fits,
    .nchunks = ft_nchunks,
    .build = ft_build,
    .predict = ft_predict,
    .predict_none = ft_predict_none,
    .ud = (void *)&v_bin,
};

const AlgoDef algo_bintree_simplex = {
    .name = "bintree-simplex",
    .summary = "pipelined binary tree for simplex ports (two-substep emulation)",
    .ref = "Sanders & Sibeyn 2 and footnote 2",
    .nets = FT_NETS,
    .params = bin_params,
    .nparams = 1,
    .fits = ft_fits,
    .nchunks = ft_nchunks,
    .build = ft_build,
    .predict = ft_predict,
    .predict_none = ft_predict_none,
    .ud = (void *)&v_bin_simplex,
};

const AlgoDef algo_bintree_direct = {
    .name = "bintree-direct",
    .summary = "pipelined binary tree for simplex ports, directly: 3 steps per packet",
    .ref = "Sanders & Sibeyn 2, T = (d + 3s)(t + k/s) for simplex",
    .nets = FT_NETS,
    .params = bin_params,
    .nparams = 1,
    .fits = ft_fits,
    .nchunks = ft_nchunks,
    .build = ft_build,
    .predict = ft_predict,
    .predict_none = ft_predict_none,
    .ud = (void *)&v_bin_direct,
};
