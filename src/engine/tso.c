/* tso.c — time-step optimality and contention verdicts (tso.h). */
#include "tso.h"

#include <stdio.h>

#include "net.h"

void tso_check(const Sim *sim, TsoVerdict *out)
{
    const SimTotals *t = sim_totals(sim);
    int64_t n = net_size(sched_net(sim_sched(sim)));
    int64_t have = t->informed_before;
    out->min_steps = 0;
    for (int64_t k = have; k > 0 && k < n; k *= 2)
        out->min_steps++;
    out->first_short = -1;
    out->contention_free = t->max_link_load <= 1;
    if (have <= 0) {
        out->first_short = 0;
        out->optimal = false;
        return;
    }
    for (int32_t i = 0; i < t->nsteps; i++) {
        int64_t want = have * 2 < n ? have * 2 : n;
        int64_t got = sim_step(sim, i)->informed;
        if (got < want || (have == n && i >= out->min_steps)) {
            out->first_short = i;
            break;
        }
        have = got;
    }
    if (out->first_short < 0 && have < n)
        out->first_short = t->nsteps;
    out->optimal = t->verified && out->first_short < 0 && t->nsteps == out->min_steps;
}

char *tso_text(const Sim *sim, const TsoVerdict *v, char *buf, size_t len)
{
    const SimTotals *t = sim_totals(sim);
    long n = (long)net_size(sched_net(sim_sched(sim)));
    if (v->optimal) {
        snprintf(buf, len, "yes (%ld step%s, the least for %ld nodes; informed nodes double "
                 "every step)", (long)t->nsteps, t->nsteps == 1 ? "" : "s", n);
    } else if (v->first_short >= 0 && v->first_short < t->nsteps) {
        int32_t i = v->first_short;
        long before = i == 0 ? (long)t->informed_before : (long)sim_step(sim, i - 1)->informed;
        long want = 2 * before < n ? 2 * before : n;
        if (before == n)
            snprintf(buf, len, "NO: step %ld comes after every node is informed",
                     (long)i + 1);
        else
            snprintf(buf, len, "NO: step %ld informs %ld nodes in all, not %ld (doubling)",
                     (long)i + 1, (long)sim_step(sim, i)->informed, want);
    } else if (!t->verified) {
        snprintf(buf, len, "NO (not verified)");
    } else if (t->nsteps < v->min_steps) {
        /* more than doubling: nodes sent more than once a step (all-port circuits) */
        snprintf(buf, len, "no, faster: %ld step%s, fewer than the %ld of one-port doubling "
                 "(nodes send more than once a step)", (long)t->nsteps,
                 t->nsteps == 1 ? "" : "s", (long)v->min_steps);
    } else {
        snprintf(buf, len, "NO: %ld steps, the least is %ld", (long)t->nsteps,
                 (long)v->min_steps);
    }
    return buf;
}
