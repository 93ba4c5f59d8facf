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
    double best = -1;
    /* fractional: also r = 2^20, one group as long as the message (the chain's limit) */
    for (int64_t r = rlo; r <= rhi + (!chain && !bin); r++) {
        if (r == rhi + 1)
            r = 1 << 20;
        int64_t d = chain ? P - 2 : sanders_tree_depth(Pt < 2 ? 2 : Pt, r);
        for (int64_t s = 1; s <= smax; s++) {
            int64_t steps = chain ? d + s
                            : d == 0 ? s
                                     : d + (r + 1) * ((s - 1) / r) + (s - 1) % r + 1;
            if (simplex)
                steps *= 2;
            double c = (double)steps * (p->t + p->beta * ceil((double)k / (double)s));
            if (best < 0 || c < best) {
                best = c;
                *best_s = s;
                *best_r = r;
            }
        }
    }
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
    char rtxt[32] = "", btxt[32] = "";
    if (ir >= 0) {
        snprintf(rtxt, sizeof rtxt, " r=%lld", (long long)rp);
        snprintf(btxt, sizeof btxt, " r=%lld", (long long)br);
    }
    const char *u = cost_unit(a->cost.model);
    snprintf(note, len, "auto: the paper's s=%lld%s costs %.10g %s; the best found by search, "
             "s=%lld%s, costs %.10g %s", (long long)sp, rtxt, cp, u, (long long)bs, btxt, bc, u);
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
