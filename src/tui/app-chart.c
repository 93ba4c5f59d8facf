/* app-chart.c — the comparison chart of the Chart panel: every algorithm that runs on the
 * net shown, simulated at sampled sizes one (algorithm, size) per call between frames, then
 * each change of the cheapest bisected to its exact first byte count, as `meshcast compare`
 * does.  See app.h (app_chart, app_chart_work). */
#include "app-core.h"

#include <stdio.h>
#include <string.h>

#include "../algos/algo.h"

/* ---- the comparison chart ------------------------------------------------------------- */

/* The simulated cost of algorithm `name` on the current net, source, model and settings at
 * `bytes`; -1 if it cannot be built or is not verified.  *ok: verified and valid. */
static double chart_cost(App *a, const char *name, uint64_t bytes, bool *ok)
{
    char netspec[64], src[32], by[32], err[200];
    snprintf(netspec, sizeof netspec, "%s", net_spec(a->b.setup.net));
    snprintf(src, sizeof src, "%ld", (long)a->b.setup.args.source);
    snprintf(by, sizeof by, "%llu", (unsigned long long)bytes);
    SetupSpec ss = {netspec, name, a->b.spec.sources ? NULL : src, by, a->b.spec.model,
                    a->b.spec.fit, (const char *const *)a->b.spec.sets, a->b.spec.nsets,
                    a->b.spec.sources, NULL, a->b.spec.profile, NULL};
    Setup st;
    double cost = -1;
    *ok = false;
    if (setup_make(&ss, &st, err, sizeof err)) {
        Sched *sc = algo_build(st.def, st.net, &st.args, err, sizeof err);
        if (sc) {
            Sim *sim = sim_run(sc, &st.cost, 0, err, sizeof err);
            if (sim) {
                const SimTotals *t = sim_totals(sim);
                if (t->verified) {
                    cost = t->cost.total;
                    *ok = t->valid;
                }
                sim_free(sim);
            }
            sched_free(sc);
        }
        setup_free(&st);
    }
    return cost;
}

const Chart *app_chart(App *a)
{
    Chart *c = &a->chart;
    if (!a->b.ready || c->gen == a->b.gen) return c;
    memset(c, 0, sizeof *c);
    c->gen = a->b.gen;
    const Net *net = a->b.setup.net;
    for (int i = 0; i < CHART_NSIZES; i++) c->bytes[i] = (uint64_t)8 << i;
    if (net_size(net) > 16384) {
        snprintf(c->note, sizeof c->note, "net too large for a live chart: meshcast compare --net %s",
                 net_spec(net));
        c->done = true;
    }
    return c;
}

static void chart_sampled(Chart *c);
static void chart_bisect_step(App *a, Chart *c);

bool app_chart_work(App *a)
{
    Chart *c = (Chart *)app_chart(a);
    if (!a->b.ready || c->done) return false;
    const Net *net = a->b.setup.net;
    if (c->sampled) {
        if (c->cross_next < c->ncross) {
            chart_bisect_step(a, c);
            return true;
        }
        c->done = true;
        return false;
    }
    if (!c->busy) {
        /* the next built-in that runs on this kind of net and is not charted yet */
        bool found = false;
        while (c->next_def < algo_count() && c->nalgo < CHART_MAXALGO && !found) {
            size_t i = c->next_def++;
            const AlgoDef *t = algo_at(i);
            if (!(t->nets & (1u << net_kind(net)))) continue;
            bool dup = false;
            for (int j = 0; j < c->nalgo; j++) if (strcmp(c->name[j], t->name) == 0) dup = true;
            if (dup) continue;
            c->cur_def = i;
            found = true;
        }
        if (!found) {
            if (c->nalgo == 0) {
                c->done = true;
                snprintf(c->note, sizeof c->note, "no algorithm runs on %s under these settings",
                         net_spec(net));
                return false;
            }
            chart_sampled(c);
            return true;
        }
        c->busy = true;
        c->cur_any = false;
        c->next_size = 0;
    }
    /* one simulation: algorithm cur_def at size next_size */
    const AlgoDef *d = algo_at(c->cur_def);
    int k = c->nalgo, s = c->next_size;
    c->cost[k][s] = chart_cost(a, d->name, c->bytes[s], &c->ok[k][s]);
    if (c->cost[k][s] >= 0) c->cur_any = true;
    if (++c->next_size == CHART_NSIZES) {
        c->busy = false;
        if (c->cur_any) {
            snprintf(c->name[k], sizeof c->name[k], "%s", d->name);
            c->nalgo++;
        }
    }
    return true;
}

/* The cheapest row that may win at size s, or -1 (a tie goes to the first, as in compare). */
static int chart_winner(const Chart *c, int s)
{
    int best = -1;
    for (int k = 0; k < c->nalgo; k++)
        if (c->ok[k][s] && (best < 0 || c->cost[k][s] < c->cost[best][s])) best = k;
    return best;
}

/* Every size sampled: equal curves, and the changes of winner to bisect. */
static void chart_sampled(Chart *c)
{
    c->sampled = true;
    for (int k = 0; k < c->nalgo; k++) {
        c->same_as[k] = -1;
        for (int j = 0; j < k && c->same_as[k] < 0; j++) {
            bool same = true;
            for (int s = 0; s < CHART_NSIZES && same; s++)
                same = c->cost[k][s] == c->cost[j][s];
            if (same) c->same_as[k] = j;
        }
    }
    for (int s = 1; s < CHART_NSIZES && c->ncross < CHART_MAXCROSS; s++) {
        int w0 = chart_winner(c, s - 1), w1 = chart_winner(c, s);
        if (w0 >= 0 && w1 >= 0 && w0 != w1 && c->ok[w0][s])
            c->cross[c->ncross++] = (ChartCross){w1, w0, c->bytes[s - 1], c->bytes[s], 0};
    }
}

/* One bisection step of the crossover being worked on: the smallest m in (lo, hi] at which
 * the winner is cheaper than the loser, found as compare finds it. */
static void chart_bisect_step(App *a, Chart *c)
{
    ChartCross *x = &c->cross[c->cross_next];
    if (x->hi - x->lo <= 1) {
        x->exact = x->hi;
        c->cross_next++;
        return;
    }
    uint64_t mid = x->lo + (x->hi - x->lo) / 2;
    bool okw, okl;
    double w = chart_cost(a, c->name[x->winner], mid, &okw);
    double l = chart_cost(a, c->name[x->loser], mid, &okl);
    if (!okw || !okl) {               /* cannot price it there: keep the sampled interval */
        x->exact = 0;
        c->cross_next++;
        return;
    }
    if (w < l) x->hi = mid;
    else x->lo = mid;
}
