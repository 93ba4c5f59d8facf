/* compare_tcd.c — `meshcast compare --by tcd`: every built-in algorithm that runs on the net,
 * ranked by total communication distance (Cang & Wu's cost), with its steps, whether it is
 * time-step optimal and contention-free, and the paper's closed form of the TCD where there is
 * one.  One message size (--bytes, default 1024): the TCD of a one-chunk broadcast does not
 * depend on it.  Ties keep the table's order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/tso.h"
#include "cli-opts.h"
#include "commands.h"

typedef struct {
    const char *name;
    int32_t steps;
    int64_t tcd, transfers;
    bool has_pred, tso, cf, verified;
    double pred;
} Row;

static int by_tcd(const void *x, const void *y)
{
    const Row *a = x, *b = y;
    if (a->verified != b->verified)
        return a->verified ? -1 : 1;
    return (a->tcd > b->tcd) - (a->tcd < b->tcd);
}

int compare_by_tcd(const CliOpts *o)
{
    size_t n = algo_count(), nr = 0;
    Row *rows = calloc(n, sizeof *rows);
    if (!rows) {
        cli_error("out of memory");
        return 1;
    }
    char err[512];
    for (size_t i = 0; i < n; i++) {
        const AlgoDef *d = algo_at(i);
        bool dup = false;   /* a name with defs for several nets: the first that fits */
        for (size_t j = 0; j < nr; j++)
            dup = dup || strcmp(rows[j].name, d->name) == 0;
        if (dup)
            continue;
        SetupSpec spec = cli_opts_spec(o);
        spec.algo = d->name;
        Setup setup;
        if (!setup_make(&spec, &setup, err, sizeof err))
            continue;   /* does not run on this net (or a --set it lacks) */
        CliRun r;
        if (cli_prepare_setup(&setup, 0, &r, err, sizeof err) != 0) {
            cli_run_free(&r);
            continue;
        }
        const SimTotals *t = sim_totals(r.sim);
        TsoVerdict v;
        tso_check(r.sim, &v);
        rows[nr++] = (Row){.name = d->name, .steps = t->nsteps, .tcd = t->tcd,
                           .transfers = t->ntransfers, .has_pred = r.has_predicted_tcd,
                           .pred = r.predicted_tcd, .tso = v.optimal,
                           .cf = v.contention_free, .verified = t->verified};
        cli_run_free(&r);
    }
    qsort(rows, nr, sizeof *rows, by_tcd);
    if (o->json) {
        JsonOut j;
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "net");
        json_str(&j, o->net);
        json_key(&j, "by");
        json_str(&j, "tcd");
        json_key(&j, "algorithms");
        json_begin_array(&j);
        for (size_t i = 0; i < nr; i++) {
            json_begin_object(&j);
            json_key(&j, "algo");
            json_str(&j, rows[i].name);
            json_key(&j, "tcd");
            json_int(&j, rows[i].tcd);
            json_key(&j, "predicted_tcd");
            if (rows[i].has_pred)
                json_num(&j, rows[i].pred);
            else
                json_null(&j);
            json_key(&j, "steps");
            json_int(&j, rows[i].steps);
            json_key(&j, "verified");
            json_bool(&j, rows[i].verified);
            json_key(&j, "time_step_optimal");
            json_bool(&j, rows[i].tso);
            json_key(&j, "contention_free");
            json_bool(&j, rows[i].cf);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_end_object(&j);
        printf("\n");
    } else {
        printf("by total communication distance (TCD) on %s\n", o->net);
        printf("%-14s %8s %10s %6s  %-18s %s\n", "algorithm", "TCD", "predicted", "steps",
               "time-step optimal", "contention-free");
        for (size_t i = 0; i < nr; i++) {
            char p[32];
            if (rows[i].has_pred)
                export_format_double(rows[i].pred, p, sizeof p);
            else
                snprintf(p, sizeof p, "-");
            printf("%-14s %8lld %10s %6ld  %-18s %s%s\n", rows[i].name,
                   (long long)rows[i].tcd, p, (long)rows[i].steps, rows[i].tso ? "yes" : "no",
                   rows[i].cf ? "yes" : "no", rows[i].verified ? "" : "  (NOT verified)");
        }
    }
    free(rows);
    return 0;
}
