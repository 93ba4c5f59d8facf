/* diff.c — `meshcast diff A B --net SPEC [...]`: two algorithms or scripts on the same net and
 * settings.  Both are built and simulated as `run` builds them (setup_make, cli_prepare_made);
 * the schedules are the same when every step has the same transfers and local operations
 * (order within a step aside: sched_equal), else the first step where they differ is named,
 * and the cost of every step under the model is printed side by side with the difference.
 *
 * Exit: 0 the same schedule, 1 they differ, 2 usage error or a build that fails.
 */
#include <stdio.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/sim.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"

#define DIFF_SHOW_STEPS 64   /* per-step costs printed at most (the totals always) */

static void diff_help(void)
{
    puts("usage: meshcast diff A B --net SPEC [--source ID] [--bytes M] [--model MODEL]\n"
         "                         [--set K=V]... [--fit F] [--json]\n"
         "A and B: built-in names or FILE.lua scripts, built on the same net and settings.\n"
         "Says whether the two schedules are the same (the same transfers and local\n"
         "operations step by step; order within a step does not matter), else the first\n"
         "step where they differ, and each step's cost under the model for both with the\n"
         "difference (B - A).  Exit: 0 the same, 1 they differ, 2 usage error.");
}

static int prepare(const CliOpts *o, const char *algo, CliRun *r)
{
    CliOpts one = *o;
    one.algo = algo;
    return cli_prepare(&one, 0, r);
}

static double step_cost(const Sim *sim, int32_t st)
{
    return st < sim_totals(sim)->nsteps ? sim_step(sim, st)->cost.total : 0;
}

int cmd_diff(int argc, char **argv)
{
    const char *name[2] = {NULL, NULL};
    char *rest[256];
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            diff_help();
            return cli_out_finish(0);
        }
        bool takes_value = strncmp(argv[i], "--", 2) == 0 && !strchr(argv[i], '=') &&
                           strcmp(argv[i], "--json") != 0;
        if (argv[i][0] != '-' && (!name[0] || !name[1])) {
            name[name[0] ? 1 : 0] = argv[i];
            continue;
        }
        if (nrest + 2 >= (int)(sizeof rest / sizeof *rest))
            return cli_usage_error("diff: too many arguments");
        rest[nrest++] = argv[i];
        if (takes_value && i + 1 < argc)
            rest[nrest++] = argv[++i];
    }
    if (!name[0] || !name[1])
        return cli_usage_error("diff: which two? meshcast diff A B --net SPEC");
    CliOpts o;
    int st = cli_opts_begin(nrest, rest,
                            OPT_NET | OPT_SOURCE | OPT_BYTES | OPT_MODEL | OPT_SET | OPT_FIT |
                                OPT_JSON,
                            &o, diff_help);
    if (st >= 0)
        return st;
    CliRun r[2];
    memset(r, 0, sizeof r);
    int rc = prepare(&o, name[0], &r[0]);
    if (rc == 0)
        rc = prepare(&o, name[1], &r[1]);
    if (rc != 0) {
        cli_run_free(&r[0]);
        cli_run_free(&r[1]);
        cli_opts_free(&o);
        return rc;
    }
    const Sim *s0 = r[0].sim, *s1 = r[1].sim;
    int32_t first = sched_first_difference(r[0].sched, r[1].sched);
    int32_t n0 = sim_totals(s0)->nsteps, n1 = sim_totals(s1)->nsteps;
    int32_t n = n0 > n1 ? n0 : n1;
    const char *a = r[0].setup.def->name, *b = r[1].setup.def->name;
    double t0 = sim_totals(s0)->cost.total, t1 = sim_totals(s1)->cost.total;
    char b1[64], b2[64], b3[64];
    if (o.json) {
        JsonOut j;
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "a"); json_str(&j, a);
        json_key(&j, "b"); json_str(&j, b);
        json_key(&j, "net"); json_str(&j, net_spec(r[0].setup.net));
        json_key(&j, "same"); json_bool(&j, first == -1);
        json_key(&j, "first_difference");
        if (first >= 0) json_int(&j, first + 1); else json_null(&j);
        json_key(&j, "setup_differs"); json_bool(&j, first == -2);
        json_key(&j, "steps_a"); json_int(&j, n0);
        json_key(&j, "steps_b"); json_int(&j, n1);
        json_key(&j, "cost_a"); json_num(&j, t0);
        json_key(&j, "cost_b"); json_num(&j, t1);
        json_key(&j, "steps");
        json_begin_array(&j);
        for (int32_t i = 0; i < n; i++) {
            json_begin_object(&j);
            json_key(&j, "step"); json_int(&j, i + 1);
            json_key(&j, "cost_a"); json_num(&j, step_cost(s0, i));
            json_key(&j, "cost_b"); json_num(&j, step_cost(s1, i));
            json_key(&j, "difference"); json_num(&j, step_cost(s1, i) - step_cost(s0, i));
            json_end_object(&j);
        }
        json_end_array(&j);
        json_end_object(&j);
        printf("\n");
    } else {
        printf("diff %s %s on %s: %s\n", a, b, net_spec(r[0].setup.net),
               first == -1 ? "the same schedule (order within a step aside)" : "different");
        if (first == -2)
            printf("differ before any step: chunks, bytes or what each node holds at the start "
                   "(%s: %lu chunks, %s: %lu)\n", a, (unsigned long)sched_nchunks(r[0].sched), b,
                   (unsigned long)sched_nchunks(r[1].sched));
        else if (first >= 0)
            printf("first difference: step %ld (%s: %lld transfers, %s: %lld)\n",
                   (long)first + 1, a,
                   first < n0 ? (long long)sched_ntransfers(r[0].sched, first) : 0LL, b,
                   first < n1 ? (long long)sched_ntransfers(r[1].sched, first) : 0LL);
        printf("%6s %16s %16s %16s\n", "step", a, b, "difference");
        for (int32_t i = 0; i < n && i < DIFF_SHOW_STEPS; i++)
            printf("%6ld %16s %16s %16s\n", (long)i + 1,
                   export_format_double(step_cost(s0, i), b1, sizeof b1),
                   export_format_double(step_cost(s1, i), b2, sizeof b2),
                   export_format_double(step_cost(s1, i) - step_cost(s0, i), b3, sizeof b3));
        if (n > DIFF_SHOW_STEPS)
            printf("%6s (%ld more steps)\n", "...", (long)(n - DIFF_SHOW_STEPS));
        printf("%6s %16s %16s %16s  %s\n", "total", export_format_double(t0, b1, sizeof b1),
               export_format_double(t1, b2, sizeof b2),
               export_format_double(t1 - t0, b3, sizeof b3), cost_unit(r[0].setup.cost.model));
    }
    rc = first == -1 ? 0 : 1;
    cli_run_free(&r[0]);
    cli_run_free(&r[1]);
    cli_opts_free(&o);
    return cli_out_finish(rc);
}
