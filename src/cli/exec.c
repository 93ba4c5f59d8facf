/* exec.c — `meshcast exec`: build and verify a schedule, run it on MPI ranks (meshcast-mpi),
 * print the measured time per step and in total beside the model's prediction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/schedbin.h"
#include "../engine/sim-async.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"
#include "exec-launch.h"
#include "exec-opts.h"

static void exec_help(void)
{
    puts("usage: meshcast exec --net SPEC --algo NAME|FILE.lua [--bytes M] [--source ID]\n"
         "                     [--sources SPEC] [--op broadcast|reduce] [--model M] [--set K=V]...\n"
         "                     [--profile NAME]\n"
         "                     [--np N] [--reps R] [--timing lockstep|async] [--barrier]\n"
         "                     [--mpirun 'CMD'] [--hostfile F] [--timeout SEC] [--vs-bcast]\n"
         "                     [--json|--csv]\n"
         "Builds the schedule, refuses it if the simulator does not verify it, runs it on MPI\n"
         "ranks (meshcast-mpi under mpirun, or CMD / $MESHCAST_MPIRUN; {np} in CMD is N), one\n"
         "rank per node, every transfer a real message, and prints the measured time per step\n"
         "and in total (median over R repetitions after a warm-up) beside the prediction;\n"
         "--vs-bcast also times MPI_Bcast of the same bytes on the same ranks.\n"
         "Exit: 0 run and verified, 1 refused or failed (one line says where), 2 usage error\n"
         "or Open MPI missing.");
}

/* Measured, in microseconds: median total, spread (max - min), median per-step durations
 * (step k's duration: how much later than every earlier step its last transfer ended). */
typedef struct {
    double total, spread, *steps;
    double bcast;   /* --vs-bcast: median MPI_Bcast of the same bytes (us), else 0 */
} Measured;

static bool measure(const ExecResult *x, Measured *m)
{
    int R = x->reps, S = x->nsteps;
    double *v = malloc((size_t)R * sizeof *v);
    m->steps = calloc((size_t)(S ? S : 1), sizeof *m->steps);
    if (!v || !m->steps) {
        free(v);
        return false;
    }
    for (int r = 0; r < R; r++)
        v[r] = x->total[r] * 1e6;
    m->total = exec_median(v, R);
    m->spread = v[R - 1] - v[0];
    m->bcast = 0;
    if (x->bcast) {
        for (int r = 0; r < R; r++)
            v[r] = x->bcast[r] * 1e6;
        m->bcast = exec_median(v, R);
    }
    double *d = malloc((size_t)R * (size_t)(S ? S : 1) * sizeof *d);
    if (!d) {
        free(v);
        return false;
    }
    for (int r = 0; r < R; r++) {
        double prev = 0;
        for (int k = 0; k < S; k++) {
            double e = x->ends[(size_t)r * S + k];
            d[(size_t)k * R + r] = e > prev ? (e - prev) * 1e6 : 0;
            if (e > prev)
                prev = e;
        }
    }
    for (int k = 0; k < S; k++)
        m->steps[k] = exec_median(d + (size_t)k * R, R);
    free(d);
    free(v);
    return true;
}

/* The first violation that makes the schedule wrong (not a model violation). */
static void refuse(Sim *sim, const CliRun *r)
{
    char text[256] = "";
    for (size_t i = 0; i < sim_nviolations(sim); i++) {
        const SimViolation *v = sim_violation(sim, i);
        if (v->kind == SIM_V_NOT_HELD || v->kind == SIM_V_INCOMPLETE) {
            sim_violation_text(sim, v, text, sizeof text);
            break;
        }
    }
    if (!text[0] && r->reduce && reduce_nviolations(r->reduce) > 0)
        reduce_violation_text(r->reduce, reduce_violation(r->reduce, 0), text, sizeof text);
    cli_error("exec: refused before launch, the simulator does not verify the schedule: %s",
              text[0] ? text : "(no detail)");
}

static void print_json(CliRun *r, const SimAsync *as, const ExecResult *x, const Measured *m,
                       int np)
{
    const char *names[ALGO_MAXPARAM];
    int npar = 0;
    for (; npar < r->setup.def->nparams && npar < ALGO_MAXPARAM; npar++)
        names[npar] = r->setup.def->params[npar].name;
    ExportRun info = {
        .algo = r->setup.def->name, .algo_ref = r->setup.def->ref,
        .fit = algo_fit_name(r->fit), .has_predicted = r->has_predicted,
        .predicted = r->predicted, .has_predicted_tcd = r->has_predicted_tcd,
        .predicted_tcd = r->predicted_tcd, .param_names = names,
        .param_values = r->setup.args.param, .nparams = npar, .max_violations = 100,
        .reduce = r->reduce, .has_async = as != NULL, .async_total = sim_async_total(as),
    };
    char dist[64];
    info.dist = r->setup.sources ? cli_dist_text(&r->setup, dist, sizeof dist) : NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    if (!mf)
        return;
    export_run_json(mf, r->sim, &info, false);
    fclose(mf);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '}'))
        if (buf[--len] == '}')
            break;
    fwrite(buf, 1, len, stdout);
    free(buf);
    JsonOut j;
    json_init(&j, stdout, false);
    fputs(",\"measured\":", stdout);
    json_begin_object(&j);
    json_key(&j, "unit");
    json_str(&j, "us");
    json_key(&j, "total");
    json_num(&j, m->total);
    json_key(&j, "steps");
    json_begin_array(&j);
    for (int k = 0; k < x->nsteps; k++)
        json_num(&j, m->steps[k]);
    json_end_array(&j);
    json_key(&j, "reps");
    json_int(&j, x->reps);
    json_key(&j, "spread");
    json_num(&j, m->spread);
    json_key(&j, "ranks");
    json_int(&j, np);
    json_key(&j, "launcher");
    json_str(&j, x->launcher);
    json_key(&j, "timing");
    json_str(&j, as ? "async" : "lockstep");
    json_key(&j, "verified");
    json_bool(&j, true);
    if (x->bcast) {   /* the same bytes by MPI_Bcast on the same ranks, and exec's ratio */
        json_key(&j, "bcast");
        json_num(&j, m->bcast);
        json_key(&j, "ratio");
        json_num(&j, m->bcast > 0 ? m->total / m->bcast : NAN);
    }
    json_end_object(&j);
    fputs("}\n", stdout);
}

static void print_table(CliRun *r, const SimAsync *as, const ExecResult *x, const Measured *m,
                        int np, bool csv)
{
    const char *unit = cost_unit(r->setup.cost.model);
    char b1[64], b2[64], b3[64];
    double pred = as ? sim_async_total(as) : sim_totals(r->sim)->cost.total;
    if (csv) {
        printf("step,measured_us,predicted_%s\n", unit);
        for (int k = 0; k < x->nsteps; k++)
            printf("%d,%s,%s\n", k + 1, export_format_double(m->steps[k], b1, sizeof b1),
                   as ? "" : export_format_double(sim_step(r->sim, k)->cost.total, b2,
                                                   sizeof b2));
        printf("total,%s,%s\n", export_format_double(m->total, b1, sizeof b1),
               export_format_double(pred, b2, sizeof b2));
        return;
    }
    printf("%s on %s, %llu bytes in %lu chunks, %d ranks, %s%s\n", r->setup.def->name,
           net_spec(r->setup.net), (unsigned long long)sched_bytes(r->sched),
           (unsigned long)sched_nchunks(r->sched), np, as ? "async" : "lockstep",
           r->reduce ? ", reduction" : "");
    printf("launcher:  %s\n", x->launcher);
    printf("verified:  yes, every rank ended with the right bytes (a checksum of every chunk%s)\n",
           r->reduce ? "; the root: the combined value" : "");
    printf("reps:      %d measured after a warm-up; medians; spread of the total %s us\n",
           x->reps, export_format_double(m->spread, b1, sizeof b1));
    printf("%-6s %14s %14s\n", "step", "measured us", as ? "" : "predicted");
    for (int k = 0; k < x->nsteps; k++)
        printf("%-6d %14s %14s\n", k + 1, export_format_double(m->steps[k], b1, sizeof b1),
               as ? "" : export_format_double(sim_step(r->sim, k)->cost.total, b2, sizeof b2));
    printf("%-6s %14s %14s %s (model %s%s)\n", "total",
           export_format_double(m->total, b1, sizeof b1),
           export_format_double(pred, b3, sizeof b3), unit,
           cost_model_name(r->setup.cost.model), as ? ", async" : "");
    if (x->bcast)
        printf("MPI_Bcast of the same bytes on the same ranks: %s us; this schedule / MPI_Bcast "
               "= %s\n", export_format_double(m->bcast, b1, sizeof b1),
               m->bcast > 0 ? export_format_double(m->total / m->bcast, b2, sizeof b2) : "-");
}

int cmd_exec(int argc, char **argv)
{
    ExecOpts e;
    memset(&e, 0, sizeof e);
    int st = exec_opts_take(&argc, argv, EXECOPT_BARRIER | EXECOPT_VS_BCAST, &e);
    if (st >= 0)
        return st;
    CliOpts o;
    st = cli_opts_begin_also(argc, argv,
                             OPT_NET | OPT_ALGO | OPT_SOURCE | OPT_SOURCES | OPT_BYTES |
                                 OPT_MODEL | OPT_SET | OPT_FIT | OPT_JSON | OPT_CSV |
                                 OPT_TIMING | OPT_OP | OPT_PROFILE,
                             exec_opts_names(), &o, exec_help);
    if (st >= 0)
        return st;
    int rc = exec_opts_finish(&e, o.timing);
    if (rc >= 0) {
        cli_opts_free(&o);
        return rc;
    }
    CliRun r;
    rc = cli_prepare(&o, e.l.async ? SIM_ASYNC : 0, &r);
    if (rc != 0) {
        cli_run_free(&r);
        cli_opts_free(&o);
        return rc;
    }
    if ((rc = exec_opts_np(&e, (int)net_size(r.setup.net))) >= 0) {
        cli_run_free(&r);
        cli_opts_free(&o);
        return rc;
    }
    rc = 0;
    const SimTotals *t = sim_totals(r.sim);
    if (!t->verified || (r.reduce && !reduce_verified(r.reduce))) {
        refuse(r.sim, &r);
        cli_run_free(&r);
        cli_opts_free(&o);
        return 1;
    }
    SimAsync *as = NULL;
    char err[512] = "";
    if (e.l.async && !(as = sim_async_take(r.sim, err, sizeof err))) {
        cli_error("%s", err);
        rc = 1;
    }
    ExecResult x;
    memset(&x, 0, sizeof x);
    if (!rc) {
        rc = exec_launch(r.sched, r.reduce ? SCHEDBIN_REDUCE : SCHEDBIN_BROADCAST,
                         (uint32_t)r.setup.args.source, &e.l, &x, err, sizeof err);
        if (rc)
            cli_error("exec: %s", err);
    }
    Measured m = {0, 0, NULL, 0};
    if (!rc && !measure(&x, &m)) {
        cli_error("exec: out of memory");
        rc = 1;
    }
    if (!rc) {
        if (o.json)
            print_json(&r, as, &x, &m, e.l.np);
        else
            print_table(&r, as, &x, &m, e.l.np, o.csv);
    }
    free(m.steps);
    exec_result_free(&x);
    sim_async_free(as);
    cli_run_free(&r);
    cli_opts_free(&o);
    return cli_out_finish(rc);
}
