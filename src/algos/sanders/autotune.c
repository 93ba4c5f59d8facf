/* autotune.c — the paper's s and r beside the best a search of the simulated cost finds (see
 * autotune.h). */
#include "autotune.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/sim.h"
#include "../algos-internal.h"

/* Simulated cost of d with (r, s) on net, or -1. */
static double simulated(const AlgoDef *d, const Net *net, const AlgoArgs *a0, int64_t r,
                        int64_t s)
{
    AlgoArgs a = *a0;
    for (int i = 0; i < d->nparams; i++) {
        if (strcmp(d->params[i].name, "s") == 0)
            a.param[i] = (double)s;
        if (strcmp(d->params[i].name, "r") == 0)
            a.param[i] = (double)r;
    }
    char err[256];
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        return -1;
    Sim *sim = sim_run(sc, &a.cost, 0, err, sizeof err);
    double c = sim && sim_totals(sim)->verified ? sim_totals(sim)->cost.total : -1;
    sim_free(sim);
    sched_free(sc);
    return c;
}

static int pidx(const AlgoDef *d, const char *name)
{
    for (int i = 0; i < d->nparams; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return i;
    return -1;
}

#define NCAND 5

/* The s worth pricing for one r: every s whose lower bound m*(d0 + c*s)*(t + beta*k/s) is
 * not above `best`, widened by 2 against rounding, in *lo..*hi; false if none.  The tree's
 * steps d + s + floor((s-1)/r) are at least (d - 1) + s*(r+1)/r (d0 = d - 1, c = (r+1)/r), the
 * chain's are d + s (d0 = d, c = 1), and ceil(k/s) >= k/s.  The bound is convex in s, so these
 * s are an interval: the roots of m*c*t*s^2 + (m*t*d0 + m*c*beta*k - best)*s + m*beta*d0*k.
 * best < 0 or t, beta <= 0: all s. */
static bool s_window(double m, double c, double d0, double k, const CostParams *p, double best,
                     int64_t smax, int64_t *lo, int64_t *hi)
{
    *lo = 1;
    *hi = smax;
    if (best < 0 || !(p->t > 0) || !(p->beta > 0))
        return true;
    double A = m * c * p->t, B = m * p->t * d0 + m * c * p->beta * k - best,
           C = m * p->beta * d0 * k;
    double disc = B * B - 4 * A * C;
    if (disc < 0)
        return false;
    double q = sqrt(disc), r1 = (-B - q) / (2 * A), r2 = (-B + q) / (2 * A);
    if (r2 < 1 - 2 || r1 > (double)smax + 2)
        return false;
    if (r1 - 2 > 1)
        *lo = (int64_t)floor(r1 - 2);
    if (r2 + 2 < (double)smax)
        *hi = (int64_t)ceil(r2 + 2);
    if (*lo < 1)
        *lo = 1;
    return *lo <= *hi;
}

double sanders_search_best(const char *name, int64_t P, uint64_t k, const CostParams *p,
                           int64_t rlo, int64_t rhi, int64_t *best_s, int64_t *best_r)
{
    bool chain = strcmp(name, "chain") == 0, simplex = strstr(name, "simplex") != NULL;
    bool bin = strncmp(name, "bintree", 7) == 0;
    if (!chain && !bin && strncmp(name, "fractional", 10) != 0)
        return -1;
    int64_t Pt = simplex ? (P + 1) / 2 : P;
    if (chain || bin)
        rlo = rhi = 1;
    if (rhi > Pt)
        rhi = Pt;
    int64_t cap = chain ? 1 << 20 : 16384;   /* the chain's steps cost nothing to count */
    int64_t smax = k < (uint64_t)cap ? (int64_t)k : cap;
    double m = simplex ? 2 : 1;
    /* Every (r, s) in the order r = rlo..rhi (then 2^20 for fractional: one group as long as
     * the message, the chain's limit), s = 1..smax; the cheapest, the first in that order on a
     * tie.  Pruning never changes the answer: an s is skipped only when a lower bound of its
     * cost is above the best so far (s_window), and the best is seeded with one (r, s) near
     * the continuous optimum for each r, kept only if nothing earlier in the order ties it. */
    int64_t nr = rhi - rlo + 1 + (!chain && !bin);
    double best = -1;
    int64_t bi = 0, bs = 1;
    int64_t depth[80];   /* per r, computed once (nr <= 66 from the callers; else recomputed) */
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < nr; i++) {
            int64_t r = i == rhi - rlo + 1 ? 1 << 20 : rlo + i;
            int64_t d;
            if (chain)
                d = P - 2;
            else if (pass == 1 && i < 80)
                d = depth[i];
            else
                d = sanders_tree_depth(Pt < 2 ? 2 : Pt, r);
            if (pass == 0 && i < 80)
                depth[i] = d;
            int64_t slo, shi;
            if (pass == 0) {   /* the seeds: for each r, s near sqrt(beta*d*k/t) */
                double g = p->t > 0 ? sqrt(p->beta * (double)(d > 0 ? d : 1) * (double)k / p->t)
                                    : (double)smax;
                slo = shi = g < 1 ? 1 : g > (double)smax ? smax : (int64_t)llround(g);
            } else if (!s_window(m, chain || d == 0 ? 1 : (double)(r + 1) / (double)r,
                                 chain || d == 0 ? (double)d : (double)(d - 1), (double)k, p,
                                 best, smax, &slo, &shi)) {
                continue;
            }
            for (int64_t s = slo; s <= shi; s++) {
                int64_t steps = chain ? d + s
                                : d == 0 ? s
                                         : d + (r + 1) * ((s - 1) / r) + (s - 1) % r + 1;
                if (simplex)
                    steps *= 2;
                double c = (double)steps * (p->t + p->beta * ceil((double)k / (double)s));
                if (best < 0 || c < best || (c == best && (i < bi || (i == bi && s < bs)))) {
                    best = c;
                    bi = i;
                    bs = s;
                }
            }
        }
    }
    *best_s = bs;
    *best_r = bi == rhi - rlo + 1 ? 1 << 20 : rlo + bi;
    return best;
}

bool sanders_autotune(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *note,
                      size_t len)
{
    if (len)
        note[0] = '\0';
    bool chain = strcmp(d->name, "chain") == 0;
    bool tree = strcmp(d->name, "bintree") == 0 || strcmp(d->name, "fractional") == 0 ||
                strcmp(d->name, "bintree-simplex") == 0 ||
                strcmp(d->name, "fractional-simplex") == 0;
    bool direct = strcmp(d->name, "bintree-direct") == 0;   /* (d + 3s)(t + k/s) */
    bool fdirect = strcmp(d->name, "fractional-direct") == 0;   /* fdirect.c */
    tree = tree || direct || fdirect;
    int is = pidx(d, "s"), ir = pidx(d, "r");
    if ((!chain && !tree) || is < 0)
        return false;
    bool sauto = a->param[is] == ALGO_AUTO, rauto = ir >= 0 && a->param[ir] == ALGO_AUTO;
    if (!sauto && !rauto)
        return false;
    int64_t P = net_size(net), Pt = strstr(d->name, "simplex") ? (P + 1) / 2 : P;
    if (Pt < 2)
        Pt = 2;
    double k = a->cost.beta * (double)a->bytes, t = a->cost.t;
    /* the paper's values, as the build resolves them */
    int64_t rp = ir < 0 ? 1 : rauto ? sanders_paper_r(Pt, k, t) : (int64_t)a->param[ir];
    int64_t sp = !sauto ? (int64_t)a->param[is]
                 : chain ? (t > 0 ? (int64_t)fmax(1, llround(sqrt(k * (double)(P - 2) / t)))
                                  : (int64_t)a->bytes)
                 : direct || fdirect ? (int64_t)d->nchunks(d, net, a)   /* ftree.c, fdirect.c */
                          : sanders_paper_s(Pt, rp, k, t, a->bytes);
    if ((uint64_t)sp > a->bytes)
        sp = (int64_t)a->bytes;
    double cp = simulated(d, net, a, rp, sp);
    /* the search */
    int64_t smax = a->bytes < 4096 ? (int64_t)a->bytes : 4096;
    int64_t rlo = rauto ? 1 : rp, rhi = rauto ? (Pt < 32 ? Pt : 32) : rp;
    int64_t cs[NCAND], cr[NCAND];
    double ce[NCAND];
    int nc = 0;
    /* the continuous model beside it: the same step counts, packets of k/s bytes (not whole
     * bytes), at the paper's (r, s) and at its own best over the same range */
    double kc = a->cost.beta * (double)a->bytes;
    double cont_paper = -1, cont_best = -1;
    int64_t cont_s = 0, cont_r = 0;
    for (int64_t r = rlo; r <= rhi; r++) {
        /* fractional-direct: its bound, one run's steps (per last-run length) + 2r+1 a run */
        int64_t lat[32];
        for (int64_t j = 0; fdirect && j < r && j < 32; j++)
            lat[j] = sanders_fdirect_latency(Pt, r, j);
        for (int64_t s = sauto ? 1 : sp; s <= (sauto ? smax : sp); s++) {
            if (fdirect && (r > 32 || lat[(s - 1) % r] < 0))
                continue;
            int64_t steps = chain ? P - 2 + s
                            : fdirect ? lat[(s - 1) % r] + (s - 1) / r * (2 * r + 1)
                            : direct ? sanders_direct_steps(Pt, s)
                            : strstr(d->name, "simplex") ? 2 * sanders_tree_steps(Pt, r, s)
                                                         : sanders_tree_steps(Pt, r, s);
            double e = (double)steps * (t + a->cost.beta * ceil((double)a->bytes / (double)s));
            double ec = (double)steps * (t + kc / (double)s);
            if (r == rp && s == sp)
                cont_paper = ec;
            if (cont_best < 0 || ec < cont_best) {
                cont_best = ec;
                cont_s = s;
                cont_r = r;
            }
            int w = nc < NCAND ? nc++ : -1;
            if (w < 0) {   /* replace the worst kept */
                w = 0;
                for (int q = 1; q < NCAND; q++)
                    if (ce[q] > ce[w])
                        w = q;
                if (e >= ce[w])
                    continue;
            }
            ce[w] = e;
            cs[w] = s;
            cr[w] = r;
        }
    }
    int64_t bs = sp, br = rp;
    double bc = cp;
    for (int q = 0; q < nc; q++) {
        double c = simulated(d, net, a, cr[q], cs[q]);
        if (c >= 0 && (bc < 0 || c < bc)) {
            bc = c;
            bs = cs[q];
            br = cr[q];
        }
    }
    char rtxt[32] = "", btxt[32] = "", ctxt[32] = "";
    if (ir >= 0) {
        snprintf(rtxt, sizeof rtxt, " r=%lld", (long long)rp);
        snprintf(btxt, sizeof btxt, " r=%lld", (long long)br);
        snprintf(ctxt, sizeof ctxt, " r=%lld", (long long)cont_r);
    }
    const char *u = cost_unit(a->cost.model);
    /* The binary tree: meshcast's s = sqrt(kd/(2t)) is the corrected formula (Section 3's
     * at r = 1); Section 2 prints sqrt(2kd/t) (docs/errata.md), shown beside it, simulated. */
    bool bin = sauto && (strcmp(d->name, "bintree") == 0 || strcmp(d->name, "bintree-simplex") == 0);
    const char *who = bin ? "the corrected formula's" : "the paper's";
    char printed[96] = "";
    if (bin) {
        int64_t d1 = sanders_tree_depth(Pt, 1);
        double x = t > 0 ? sqrt(2 * k * (double)d1 / t) : (double)a->bytes;
        int64_t s2 = x < 1 ? 1 : (int64_t)llround(x);
        if ((uint64_t)s2 > a->bytes)
            s2 = (int64_t)a->bytes;
        snprintf(printed, sizeof printed, " (Section 2's printed s=%lld: %.10g)", (long long)s2,
                 simulated(d, net, a, 1, s2));
    }
    char cont[200] = "";
    if (cont_best >= 0 && cont_paper >= 0)
        snprintf(cont, sizeof cont, "; with packets of k/s bytes: %.6g, and its best s=%lld%s "
                 "%.6g", cont_paper, (long long)cont_s, ctxt, cont_best);
    snprintf(note, len, "auto: %s s=%lld%s costs %.10g %s%s; the best found by search, "
             "s=%lld%s, costs %.10g %s (simulated, whole bytes%s)", who, (long long)sp, rtxt,
             cp, u, printed, (long long)bs, btxt, bc, u, cont);
    return true;
}

void sanders_fig3_point(int64_t P, uint64_t k, const CostParams *p, SandersFig3 *out)
{
    int64_t r;
    out->chain = sanders_search_best("chain", P, k, p, 1, 1, &out->s_chain, &r);
    out->bintree = sanders_search_best("bintree", P, k, p, 1, 1, &out->s_bin, &r);
    out->frac = sanders_search_best("fractional", P, k, p, 1, 64, &out->s_frac, &out->r_frac);
    double best2 = out->chain < out->bintree ? out->chain : out->bintree;
    out->speedup = out->frac > 0 ? best2 / out->frac : 0;
}

/* ---- the largest speedup: branch and bound over every integer k ----------------------- */

typedef struct {
    int64_t P;
    const CostParams *p;
    SandersFig3Max *out;
} MaxSearch;

static double num_of(const SandersFig3 *f) { return f->chain < f->bintree ? f->chain : f->bintree; }

static void note_point(MaxSearch *m, uint64_t k, const SandersFig3 *f)
{
    m->out->evaluated++;
    if (m->out->evaluated == 1 || f->speedup > m->out->at.speedup ||
        (f->speedup == m->out->at.speedup && k < m->out->k)) {
        m->out->k = k;
        m->out->at = *f;
    }
}

/* [a, b] with both ends priced: every k strictly inside is bounded by num(b)/frac(a) (each
 * cost is nondecreasing in k); split until that bound cannot beat the best found. */
static void bnb(MaxSearch *m, uint64_t a, const SandersFig3 *fa, uint64_t b, const SandersFig3 *fb)
{
    if (b - a < 2)
        return;
    double ub = fa->frac > 0 ? num_of(fb) / fa->frac : INFINITY;
    if (ub <= m->out->at.speedup)
        return;
    uint64_t mid = a + (b - a) / 2;
    SandersFig3 fm;
    sanders_fig3_point(m->P, mid, m->p, &fm);
    note_point(m, mid, &fm);
    bnb(m, a, fa, mid, &fm);
    bnb(m, mid, &fm, b, fb);
}

int sanders_fig3_grid(uint64_t lo, uint64_t hi, int n, uint64_t *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        double x = n == 1 ? (double)lo
                          : (double)lo * pow((double)hi / (double)lo, (double)i / (n - 1));
        uint64_t k = (uint64_t)llround(x);
        if (k < lo)
            k = lo;
        if (k > hi || i == n - 1)
            k = hi;
        if (m == 0 || k != out[m - 1])
            out[m++] = k;
    }
    return m;
}

void sanders_fig3_max(int64_t P, uint64_t lo, uint64_t hi, const CostParams *p,
                      SandersFig3Max *out)
{
    memset(out, 0, sizeof *out);
    MaxSearch m = {P, p, out};
    SandersFig3 fa, fb;
    sanders_fig3_point(P, lo, p, &fa);
    note_point(&m, lo, &fa);
    if (hi > lo) {
        sanders_fig3_point(P, hi, p, &fb);
        note_point(&m, hi, &fb);
        bnb(&m, lo, &fa, hi, &fb);
    }
}
