/* fit.c — Seidel's Section 5: broadcasting on arrays and 2-D meshes of any size, for the
 * ALGO_POW2 algorithms.
 *
 * Both methods build the algorithm on a power-of-two *logical* net with algo_build and map its
 * node ids, per dimension, onto the physical net; routes stay the default physical routes (an
 * explicit route is mapped segment by segment).  The per-dimension maps are monotone, so two
 * logical circuits that share no directed link still share none after mapping, and link loads
 * and port use carry over.
 *
 * Companions (5.2; --fit companions, the default): per dimension of extent n, N = 2^floor(lg n)
 * full lines and c = n - N companions, the companions being the first c odd positions
 * 1, 3, ..., 2c-1; full line f sits at 2f for f < c and at f + c after.  The algorithm runs on
 * the N (or N1 x N2) full nodes, then one more phase hands the message to the companions:
 *   - arrays, or a mesh where only one extent is not a power of two: every full node sends the
 *     whole message to its one companion (1 step, ma + b);
 *   - a mesh where both are not: a full node has up to 3 companions (right, below, diagonal)
 *     and its 2x2 block does the cheaper of a 2x2 ST (2 steps: to the vertical companion, then
 *     both to the right: 2(ma+b)) and the linear BST on the block's snake (3 steps of half
 *     messages: 3(ma/2+b)).  Nodes with a single companion send it the two halves in the BST's
 *     first two steps, so the phase keeps its cost.
 *   Decision: the builder does not see the cost model, so it picks the 2x2 variant with the
 *   Intel Delta constants of Table II (ST when m*0.08 <= 2*75, i.e. m <= 1875 bytes); the
 *   prediction then prices the variant actually built under the model's a and b, which can
 *   exceed Seidel's min(2(ma+b), 3(ma/2+b)) when a and b differ much from the Delta's.
 *   Decision (source on a companion): the companion and its full node trade roles (the pair
 *   (2f, 2f+1) puts its full node at 2f+1), per dimension.  The map stays monotone, so nothing
 *   changes in loads or cost: the broadcast from a companion costs the same as from node 0.
 *   Prediction: the inner closed form on the full nodes plus the companion phase.
 *
 * Virtual nodes (5.1; --fit virtual; defs flagged ALGO_VIRTUAL with nu = 0): the logical net
 * has 2^ceil(lg n) per dimension and the last physical line simulates the virtual ones
 * (logical x -> min(x, n-1)).  Transfers that map to src == dst disappear; transfers of one
 * step that map to the same (src, dst) are the same message sent on behalf of several virtual
 * nodes and are sent once (their chunk sets united).  Prediction: the inner closed form on the
 * 2^ceil(lg n) net (Seidel: "the same as the cost of a broadcast on ... 2^ceil(lg n) nodes").
 *
 * Only arrays and 2-D meshes (Seidel's nets) are fitted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos-internal.h"

/* The threshold of the 2x2 companion phase: ST when m*a <= 2b with the Table II constants. */
#define FIT_DELTA_A 0.08
#define FIT_DELTA_B 75.0

typedef struct {
    AlgoFit fit;                  /* FIT_COMPANIONS or FIT_VIRTUAL */
    int nd;
    int32_t phys[NET_MAXDIM];     /* physical extents */
    int32_t lext[NET_MAXDIM];     /* logical extents (powers of two) */
    int32_t ncomp[NET_MAXDIM];    /* companions per dimension */
    int32_t swap[NET_MAXDIM];     /* pair whose roles are traded (source on a companion), -1 */
    int32_t lsrc[NET_MAXDIM];     /* logical coordinates of the source */
} Fit;

static int floor_lg(int64_t x)
{
    int k = 0;
    while ((INT64_C(2) << k) <= x)
        k++;
    return k;
}

static int ceil_lg(int64_t x)
{
    int k = 0;
    while ((INT64_C(1) << k) < x)
        k++;
    return k;
}

/* Logical coordinate -> physical coordinate along dimension i. */
static int32_t map1(const Fit *f, int i, int32_t x)
{
    if (f->fit == FIT_VIRTUAL)
        return x < f->phys[i] - 1 ? x : f->phys[i] - 1;
    if (x < f->ncomp[i])
        return 2 * x + (x == f->swap[i]);
    return x + f->ncomp[i];
}

/* Physical coordinate of the companion of full line x (logical), or -1. */
static int32_t comp1(const Fit *f, int i, int32_t x)
{
    if (x >= f->ncomp[i])
        return -1;
    return 2 * x + (x != f->swap[i]);
}

static int32_t map_node(const Fit *f, const Net *lnet, const Net *net, int32_t id)
{
    int32_t c[NET_MAXDIM];
    net_coords(lnet, id, c);
    for (int i = 0; i < f->nd; i++)
        c[i] = map1(f, i, c[i]);
    return net_id(net, c);
}

static AlgoFit effective(const AlgoArgs *a)
{
    return a->fit == FIT_AUTO ? FIT_COMPANIONS : a->fit;
}

/* Work out the fit; message in err when it cannot apply. */
static bool fit_plan(const AlgoDef *d, const Net *net, const AlgoArgs *a, Fit *f, char *err,
                     size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->fit = effective(a);
    f->nd = net_ndim(net);
    NetKind kind = net_kind(net);
    if ((kind != NET_ARRAY && kind != NET_MESH) || f->nd > 2) {
        /* no fit applies here, whatever --fit says: one straight refusal with a net that
         * works (issue 9 defect 4), e.g. torus:5x5 -> torus:4x4 */
        char try_[64];
        const char *spec = net_spec(net), *colon = strchr(spec, ':');
        int o = snprintf(try_, sizeof try_, "%.*s:", colon ? (int)(colon - spec) : 0, spec);
        for (int i = 0; i < f->nd && o > 0 && (size_t)o < sizeof try_; i++) {
            int32_t p = 1;
            while (p * 2 <= net_dim(net, i)) p *= 2;
            o += snprintf(try_ + o, sizeof try_ - (size_t)o, "%s%ld", i ? "x" : "", (long)p);
        }
        snprintf(err, errlen, "%s on %s needs power-of-two extents, and --fit applies to arrays "
                 "and 2-D meshes only: try %s", d->name, spec, try_);
        return false;
    }
    if (f->fit == FIT_NONE) {
        snprintf(err, errlen,
                 "%s on %s needs power-of-two extents (use --fit companions%s)", d->name,
                 net_spec(net), (d->flags & ALGO_VIRTUAL) ? " or --fit virtual" : "");
        return false;
    }
    if ((kind != NET_ARRAY && kind != NET_MESH) || f->nd > 2) {
        snprintf(err, errlen, "%s on %s: --fit %s applies to arrays and 2-D meshes only",
                 d->name, net_spec(net), algo_fit_name(f->fit));
        return false;
    }
    if (f->fit == FIT_VIRTUAL) {
        if (!(d->flags & ALGO_VIRTUAL)) {
            snprintf(err, errlen, "--fit virtual does not apply to '%s' (Seidel 5.1)", d->name);
            return false;
        }
        if (a->nu != 0) {
            snprintf(err, errlen, "%s on %s: --fit virtual needs nu = 0 (Seidel 5.1; got nu=%d)",
                     d->name, net_spec(net), a->nu);
            return false;
        }
    }
    int32_t sc[NET_MAXDIM];
    net_coords(net, a->source, sc);
    for (int i = 0; i < f->nd; i++) {
        int32_t n = net_dim(net, i);
        f->phys[i] = n;
        f->swap[i] = -1;
        if (f->fit == FIT_VIRTUAL) {
            f->lext[i] = INT32_C(1) << ceil_lg(n);
            f->lsrc[i] = sc[i];
        } else {
            f->lext[i] = INT32_C(1) << floor_lg(n);
            f->ncomp[i] = n - f->lext[i];
            if (sc[i] < 2 * f->ncomp[i]) {
                f->lsrc[i] = sc[i] / 2;
                if (sc[i] & 1)
                    f->swap[i] = sc[i] / 2;
            } else {
                f->lsrc[i] = sc[i] - f->ncomp[i];
            }
        }
    }
    return true;
}

static Net *logical_net(const Net *net, const Fit *f, char *err, size_t errlen)
{
    return net_new(net_kind(net), f->nd, f->lext, err, errlen);
}

static void logical_args(const AlgoArgs *a, const Fit *f, const Net *lnet, AlgoArgs *la)
{
    *la = *a;
    la->fit = FIT_NONE;
    la->source = net_id(lnet, f->lsrc);
}

bool fit_needed(const AlgoDef *d, const Net *net)
{
    if (!(d->flags & ALGO_POW2))
        return false;
    for (int k = 0; k < net_ndim(net); k++)
        if (algo_log2(net_dim(net, k)) < 0)
            return true;
    return false;
}

bool fit_check(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    Fit f;
    if (!fit_plan(d, net, a, &f, err, errlen))
        return false;
    Net *lnet = logical_net(net, &f, err, errlen);
    if (!lnet)
        return false;
    AlgoArgs la;
    logical_args(a, &f, lnet, &la);
    char inner[256] = "";
    bool ok = !d->fits || d->fits(d, lnet, &la, inner, sizeof inner);
    if (!ok)
        snprintf(err, errlen, "%s (--fit %s runs it on %s)", inner, algo_fit_name(f.fit),
                 net_spec(lnet));
    net_free(lnet);
    return ok;
}

/* The 2x2 companion phase variant: true = BST (3 half steps), false = ST (2 steps). */
static bool use_bst2x2(const AlgoArgs *a)
{
    return (double)a->bytes * FIT_DELTA_A > 2 * FIT_DELTA_B;
}

static bool both_dims(const Fit *f)
{
    return f->nd == 2 && f->ncomp[0] > 0 && f->ncomp[1] > 0;
}

/* One inner transfer, mapped.  Kept small (a step of a big net has millions): an explicit
 * route's mapped segments are not stored but mapped again when the transfer is added. */
typedef struct {
    int32_t src, dst;
    int64_t idx;    /* inner transfer index */
    int32_t nseg;   /* -1: default route */
} Mapped;

static int cmp_mapped(const void *x, const void *y)
{
    const Mapped *p = x, *q = y;
    if (p->src != q->src)
        return p->src < q->src ? -1 : 1;
    if (p->dst != q->dst)
        return p->dst < q->dst ? -1 : 1;
    if (p->nseg != q->nseg)
        return p->nseg < q->nseg ? -1 : 1;
    return p->idx < q->idx ? -1 : p->idx > q->idx;
}

/* Map an explicit logical route from logical node lsrc; returns the physical segment count. */
static int map_route(const Fit *f, const Net *lnet, int32_t lsrc, const NetSeg *seg, int nseg,
                     NetSeg *out)
{
    int32_t c[NET_MAXDIM];
    net_coords(lnet, lsrc, c);
    int n = 0;
    for (int i = 0; i < nseg; i++) {
        int dim = seg[i].dim;
        int32_t from = c[dim], to = c[dim] + seg[i].dir * seg[i].len;
        int32_t pl = map1(f, dim, to) - map1(f, dim, from);
        c[dim] = to;
        if (pl == 0)
            continue;
        out[n].dim = (int8_t)dim;
        out[n].dir = (int8_t)(pl > 0 ? 1 : -1);
        out[n].len = pl > 0 ? pl : -pl;
        n++;
    }
    return n;
}

/* Copy the inner schedule's steps onto s. */
static bool copy_steps(const Fit *f, const Sched *in, const Net *lnet, Sched *s, uint32_t mult)
{
    const Net *net = sched_net(s);
    Mapped *mp = NULL;
    int64_t cap = 0;
    ChunkSet *cs = chunkset_new();
    ChunkRange *buf = NULL;
    size_t bufcap = 0;
    bool ok = cs != NULL;
    for (int32_t st = 0; ok && st < sched_nsteps(in); st++) {
        ok = sched_step(s) >= 0 && sched_label(s, sched_step_label(in, st));
        int64_t nt = sched_ntransfers(in, st), nm = 0;
        if (ok && nt > cap) {
            Mapped *q = realloc(mp, sizeof *mp * (size_t)nt);
            if (!q) {
                sched_fail(s, "out of memory");
                ok = false;
                break;
            }
            mp = q;
            cap = nt;
        }
        for (int64_t i = 0; ok && i < nt; i++) {
            SchedTransfer t;
            sched_transfer(in, st, i, &t);
            Mapped *m = &mp[nm];
            m->src = map_node(f, lnet, net, t.src);
            m->dst = map_node(f, lnet, net, t.dst);
            m->idx = i;
            m->nseg = -1;
            if (m->src == m->dst)
                continue;
            if (t.explicit_route) {
                NetSeg seg[NET_MAXSEG];
                m->nseg = map_route(f, lnet, t.src, t.seg, t.nseg, seg);
            }
            nm++;
        }
        if (!ok)
            break;
        if (nm > 1)
            qsort(mp, (size_t)nm, sizeof *mp, cmp_mapped);
        for (int64_t i = 0; ok && i < nm;) {
            int64_t j = i;
            chunkset_clear(cs);
            /* default routes with the same ends merge; explicit routes stay apart */
            do {
                SchedTransfer t;
                sched_transfer(in, st, mp[j].idx, &t);
                for (uint32_t r = 0; ok && r < t.nranges; r++)
                    ok = chunkset_add_range(cs, t.ranges[r].lo * mult, t.ranges[r].hi * mult);
                j++;
            } while (ok && mp[i].nseg < 0 && j < nm && mp[j].src == mp[i].src &&
                     mp[j].dst == mp[i].dst && mp[j].nseg < 0);
            if (!ok) {
                sched_fail(s, "out of memory");
                break;
            }
            size_t nr = chunkset_nranges(cs);
            if (nr > bufcap) {
                ChunkRange *q = realloc(buf, sizeof *buf * nr);
                if (!q) {
                    sched_fail(s, "out of memory");
                    ok = false;
                    break;
                }
                buf = q;
                bufcap = nr;
            }
            memcpy(buf, chunkset_ranges(cs), sizeof *buf * nr);
            if (mp[i].nseg < 0) {
                ok = sched_send(s, mp[i].src, mp[i].dst, buf, nr);
            } else {
                SchedTransfer t;
                NetSeg seg[NET_MAXSEG];
                sched_transfer(in, st, mp[i].idx, &t);
                int nseg = map_route(f, lnet, t.src, t.seg, t.nseg, seg);
                ok = sched_send_route(s, mp[i].src, mp[i].dst, buf, nr, seg, nseg);
            }
            i = j;
        }
        for (int64_t i = 0; ok && i < sched_nlocals(in, st); i++) {
            SchedLocal l;
            sched_local_get(in, st, i, &l);
            ok = sched_local(s, l.node < 0 ? -1 : map_node(f, lnet, net, l.node), l.bytes);
        }
    }
    if (cs == NULL)
        sched_fail(s, "out of memory");
    chunkset_free(cs);
    free(mp);
    free(buf);
    return ok;
}

static int32_t node2(const Net *net, int32_t r, int32_t c)
{
    int32_t rc[2] = {r, c};
    return net_id(net, rc);
}

/* The companion phase: hand the message to every companion. */
static bool companion_phase(const Fit *f, const Net *net, Sched *s, const AlgoArgs *a)
{
    uint32_t nch = sched_nchunks(s), h = nch / 2;
    int32_t base = sched_nsteps(s);
    if (f->nd == 1) {
        if (sched_step(s) < 0 || !sched_label(s, "companions"))
            return false;
        for (int32_t x = 0; x < f->ncomp[0]; x++)
            if (!sched_send_range(s, map1(f, 0, x), comp1(f, 0, x), 0, nch))
                return false;
        return true;
    }
    bool two = both_dims(f), bst = two && use_bst2x2(a);
    int nsteps = !two ? 1 : bst ? 3 : 2;
    for (int i = 0; i < nsteps; i++)
        if (!sched_at(s, base + i) ||
            !sched_label(s, !two ? "companions"
                            : bst ? "companions: 2x2 BST" : "companions: 2x2 ST"))
            return false;
    for (int32_t r = 0; r < f->lext[0]; r++) {
        for (int32_t q = 0; q < f->lext[1]; q++) {
            int32_t R = map1(f, 0, r), C = map1(f, 1, q);
            int32_t cr = comp1(f, 0, r), cc = comp1(f, 1, q);
            int32_t F = node2(net, R, C);
            int32_t right = cc >= 0 ? node2(net, R, cc) : -1;
            int32_t below = cr >= 0 ? node2(net, cr, C) : -1;
            int32_t diag = cr >= 0 && cc >= 0 ? node2(net, cr, cc) : -1;
            int32_t single = diag >= 0 ? -1 : right >= 0 ? right : below;
            bool ok = true;
            if (!bst) {
                if (single >= 0)
                    ok = sched_at(s, base) && sched_send_range(s, F, single, 0, nch);
                else if (diag >= 0)
                    ok = sched_at(s, base) && sched_send_range(s, F, below, 0, nch) &&
                         sched_at(s, base + 1) && sched_send_range(s, F, right, 0, nch) &&
                         sched_send_range(s, below, diag, 0, nch);
            } else {
                if (single >= 0)
                    ok = sched_at(s, base) && sched_send_range(s, F, single, 0, h) &&
                         sched_at(s, base + 1) && sched_send_range(s, F, single, h, nch);
                else if (diag >= 0)
                    /* linear BST on the snake F, right, diag, below: F keeps the first half
                     * and sends the second to below; F -> diag and below -> right; then the
                     * pairs (F, right) and (diag, below) swap halves. */
                    ok = sched_at(s, base) && sched_send_range(s, F, below, h, nch) &&
                         sched_at(s, base + 1) && sched_send_range(s, F, diag, 0, h) &&
                         sched_send_range(s, below, right, h, nch) &&
                         sched_at(s, base + 2) && sched_send_range(s, F, right, 0, h) &&
                         sched_send_range(s, right, F, h, nch) &&
                         sched_send_range(s, diag, below, 0, h) &&
                         sched_send_range(s, below, diag, h, nch);
            }
            if (!ok)
                return false;
        }
    }
    return true;
}

Sched *fit_build(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    Fit f;
    if (!fit_check(d, net, a, err, errlen) || !fit_plan(d, net, a, &f, err, errlen))
        return NULL;
    Net *lnet = logical_net(net, &f, err, errlen);
    if (!lnet)
        return NULL;
    AlgoArgs la;
    logical_args(a, &f, lnet, &la);
    Sched *in = algo_build(d, lnet, &la, err, errlen);
    if (!in) {
        net_free(lnet);
        return NULL;
    }
    uint32_t inch = sched_nchunks(in), mult = 1;
    if (f.fit == FIT_COMPANIONS && f.nd == 2 && both_dims(&f) && use_bst2x2(a) && inch % 2)
        mult = 2;
    Sched *s = NULL;
    if ((uint64_t)inch * mult > UINT32_MAX) {
        snprintf(err, errlen, "%s: too many chunks", d->name);
    } else if (!(s = sched_new(net, inch * mult, a->bytes))) {
        snprintf(err, errlen, "out of memory");
    } else if (!sched_give(s, a->source, 0, inch * mult) || !copy_steps(&f, in, lnet, s, mult) ||
               (f.fit == FIT_COMPANIONS && !companion_phase(&f, net, s, a)) || sched_error(s)) {
        const char *e = sched_error(s);
        snprintf(err, errlen, "%s (--fit %s): %s", d->name, algo_fit_name(f.fit),
                 e ? e : "build failed");
        sched_free(s);
        s = NULL;
    }
    sched_free(in);
    net_free(lnet);
    return s;
}

bool fit_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                 double *total)
{
    Fit f;
    char err[256];
    if (!d->predict || !fit_plan(d, net, a, &f, err, sizeof err))
        return false;
    if (p->model != COST_SEIDEL && !(p->model == COST_POSTAL && p->duplex))
        return false;
    Net *lnet = logical_net(net, &f, err, sizeof err);
    if (!lnet)
        return false;
    AlgoArgs la;
    logical_args(a, &f, lnet, &la);
    double inner = 0;
    bool ok = (!d->fits || d->fits(d, lnet, &la, err, sizeof err)) &&
              d->predict(d, lnet, &la, p, &inner);
    net_free(lnet);
    if (!ok)
        return false;
    double extra = 0, m = (double)a->bytes;
    if (f.fit == FIT_COMPANIONS) {
        /* one whole message, or the 2x2 phase: 2 whole or 3 half messages */
        double whole, half;
        if (p->model == COST_SEIDEL) {
            whole = p->a * m + p->b;
            half = p->a * m / 2 + p->b;
        } else {
            whole = p->t + p->beta * m;
            half = p->t + p->beta * m / 2;
        }
        extra = !both_dims(&f) ? whole : use_bst2x2(a) ? 3 * half : 2 * whole;
    }
    *total = inner + extra;
    return true;
}
