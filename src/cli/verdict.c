/* verdict.c — run's and check's one judgement of a broadcast (verdict.h). */
#include "verdict.h"

#include <stdio.h>
#include <string.h>

#include "../engine/export.h"

bool cli_verdict_time(CliRun *r, bool async, SimAsync **as, char *err, size_t errlen)
{
    *as = NULL;
    if (!async)
        return true;
    *as = sim_async_take(r->sim, err, errlen);
    if (!*as)
        return false;
    r->setup.args.async = true;
    r->has_predicted = algo_predict(r->setup.def, r->setup.net, &r->setup.args, &r->setup.cost,
                                    &r->predicted);
    return true;
}

static const char *rule_of(const SimViolation *v, CostModel model)
{
    switch (v->kind) {
    case SIM_V_NOT_HELD:
    case SIM_V_INCOMPLETE: return "delivery";
    case SIM_V_LINK: return model == COST_CIRCUIT ? "arc-disjoint circuits" : "link capacity";
    case SIM_V_PORT: return "postal one-port";
    case SIM_V_ALLPORT: return "all-port";
    }
    return "model";
}

void cli_verdict(const CliRun *r, const SimAsync *as, const char *async_err, CliVerdict *v)
{
    memset(v, 0, sizeof *v);
    const SimTotals *t = sim_totals(r->sim);
    bool reduced = !r->reduce || reduce_verified(r->reduce);
    v->verified = t->verified && reduced;
    v->valid = v->verified && t->valid;
    v->ok = v->valid && !async_err;
    v->cost = as ? sim_async_total(as) : t->cost.total;
    v->has_predicted = r->has_predicted;
    v->predicted = r->predicted;
    v->difference = r->has_predicted ? export_difference(v->cost, r->predicted) : 0;
    if (v->ok)
        return;
    /* the first violation by step: the simulator keeps them in order of step */
    if (sim_nviolations(r->sim) > 0) {
        const SimViolation *sv = sim_violation(r->sim, 0);
        v->rule = rule_of(sv, r->setup.cost.model);
        sim_violation_text(r->sim, sv, v->where, sizeof v->where);
        char inv[400];   /* the transfers that collide, by name */
        if (sim_violation_involved_text(r->sim, sv, inv, sizeof inv)[0]) {
            size_t used = strlen(v->where);
            snprintf(v->where + used, sizeof v->where - used, " (transfers: %s)", inv);
        }
    } else if (!reduced && reduce_nviolations(r->reduce) > 0) {
        v->rule = "reduction";
        reduce_violation_text(r->reduce, reduce_violation(r->reduce, 0), v->where,
                              sizeof v->where);
    } else if (async_err) {
        v->rule = "async timing";
        snprintf(v->where, sizeof v->where, "%s", async_err);
    } else {
        v->rule = t->verified ? "model" : "delivery";
        snprintf(v->where, sizeof v->where, "%lld violation%s", (long long)t->violations,
                 t->violations == 1 ? "" : "s");
    }
}
