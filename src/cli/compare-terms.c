/* compare-terms.c — Table 1 of Peters & Syska, measured (compare-terms.h). */
#include "compare-terms.h"

#include <stdio.h>

#include "../engine/circuit-bounds.h"
#include "../engine/export.h"
#include "../engine/sim-async.h"
#include "../engine/sim.h"

typedef struct {
    bool built, verified, valid;
    int32_t phases;
    int64_t hops;
    double ltau, lockstep, async;
    char why[200];
} Row;

static void measure(const Net *net, const CostParams *cost, const AlgoDef *d, AlgoArgs a,
                    uint64_t bytes, unsigned timing, Row *r)
{
    a.bytes = bytes;
    a.cost = *cost;
    a.async = false;
    Sched *s = algo_build(d, net, &a, r->why, sizeof r->why);
    if (!s)
        return;
    Sim *sim = sim_run(s, cost, 0, r->why, sizeof r->why);
    if (sim) {
        const SimTotals *t = sim_totals(sim);
        r->built = true;
        r->verified = t->verified;
        r->valid = t->valid;
        r->phases = t->phases;
        r->hops = t->switch_hops;
        r->ltau = bytes ? (double)t->phase_bytes / (double)bytes : 0;
        r->lockstep = t->cost.total;
        sim_free(sim);
        if (timing & TERMS_ASYNC) {
            SimAsync *as = sim_async_run(s, cost, 0, r->why, sizeof r->why);
            r->built = as != NULL;
            r->async = sim_async_total(as);
            sim_async_free(as);
        }
    }
    sched_free(s);
}

int compare_terms(const Net *net, const CostParams *cost, const AlgoDef *const *defs,
                  const AlgoArgs *args, size_t n, uint64_t bytes, unsigned timing, bool json)
{
    int rc = 0;
    CircuitBounds bd;
    bool hasb = cost->model == COST_CIRCUIT && bounds_circuit(net, cost, bytes, &bd);
    char b1[64], b2[64], b3[64];
    JsonOut j;
    if (json) {
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "net");
        json_str(&j, net_spec(net));
        json_key(&j, "model");
        json_str(&j, cost_model_name(cost->model));
        json_key(&j, "bytes");
        json_uint(&j, bytes);
        if (hasb) {
            json_key(&j, "lower_bound");
            json_begin_object(&j);
            json_key(&j, "phases");
            json_int(&j, bd.phases);
            json_key(&j, "switch_hops");
            json_int(&j, bd.diameter);
            json_key(&j, "ltau");
            json_num(&j, 1.0 / bd.lambda);
            json_key(&j, "total");
            json_num(&j, bd.total);
            json_end_object(&j);
        }
        json_key(&j, "algorithms");
        json_begin_array(&j);
    } else {
        printf("Table 1, measured: %s, %s model, %llu bytes\n", net_spec(net),
               cost_model_name(cost->model), (unsigned long long)bytes);
        printf("%-18s %10s %14s %8s %14s %14s  %s\n", "", "start-ups", "switched hops",
               "L*tau", (timing & TERMS_LOCKSTEP) ? "lockstep" : "", 
               (timing & TERMS_ASYNC) ? "async" : "", "");
        if (hasb)
            printf("%-18s %10ld %14lld %8s %14s %14s  %s\n", "lower bound", (long)bd.phases,
                   (long long)bd.diameter,
                   export_format_double(1.0 / bd.lambda, b1, sizeof b1),
                   export_format_double(bd.total, b2, sizeof b2), "",
                   "(Prop. 1: each term, and their max as the cost)");
    }
    for (size_t i = 0; i < n; i++) {
        Row r = { 0 };
        measure(net, cost, defs[i], args[i], bytes, timing, &r);
        if (!r.built || !r.verified)
            rc = 1;
        if (json) {
            json_begin_object(&j);
            json_key(&j, "algo");
            json_str(&j, defs[i]->name);
            json_key(&j, "built");
            json_bool(&j, r.built);
            if (r.built) {
                json_key(&j, "verified");
                json_bool(&j, r.verified);
                json_key(&j, "valid");
                json_bool(&j, r.valid);
                json_key(&j, "phases");
                json_int(&j, r.phases);
                json_key(&j, "switch_hops");
                json_int(&j, r.hops);
                json_key(&j, "ltau");
                json_num(&j, r.ltau);
                if (timing & TERMS_LOCKSTEP) {
                    json_key(&j, "lockstep");
                    json_num(&j, r.lockstep);
                }
                if (timing & TERMS_ASYNC) {
                    json_key(&j, "async");
                    json_num(&j, r.async);
                }
            } else {
                json_key(&j, "why");
                json_str(&j, r.why);
            }
            json_end_object(&j);
            continue;
        }
        if (!r.built) {
            printf("%-18s %s\n", defs[i]->name, r.why);
            continue;
        }
        printf("%-18s %10ld %14lld %8s %14s %14s  %s\n", defs[i]->name, (long)r.phases,
               (long long)r.hops, export_format_double(r.ltau, b1, sizeof b1),
               (timing & TERMS_LOCKSTEP) ? export_format_double(r.lockstep, b2, sizeof b2) : "",
               (timing & TERMS_ASYNC) ? export_format_double(r.async, b3, sizeof b3) : "",
               !r.verified ? "NOT verified" : !r.valid ? "violates the model" : "");
    }
    if (json) {
        json_end_array(&j);
        json_end_object(&j);
        putchar('\n');
    }
    return rc;
}
