/* run.c — `meshcast run`: one broadcast, built, simulated and summarised (text, --json or
 * --csv).  Exit 0 if verified and valid under the model, 1 if not (the report says where),
 * 2 on a usage error. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../algos/sanders/autotune.h"
#include "../engine/bounds.h"
#include "../engine/circuit.h"
#include "../engine/circuit-bounds.h"
#include "../engine/export.h"
#include "../engine/sim-async.h"
#include "../engine/tso.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"
#include "verdict.h"

#define RUN_SHOW_VIOLATIONS 10

static void run_help(void)
{
    puts("usage: meshcast run --net SPEC --algo NAME|FILE.lua [--source ID|R,C[,Z]] [--bytes M]\n"
         "                    [--model seidel|postal|circuit|saf] [--set K=V]...\n"
         "                    [--fit companions|virtual] [--timing lockstep|async]\n"
         "                    [--op broadcast|reduce] [--json|--csv]\n"
         "Builds and simulates one broadcast and prints a summary: verified, steps, cost\n"
         "against the paper's closed form, contention, the first violations.\n"
         "--op reduce runs the broadcast backwards as a reduction to the source and checks\n"
         "that it ends with every node's contribution exactly once (combine: --set gamma=V).\n"
         "Exit: 0 verified and valid, 1 wrong or violating schedule, 2 usage error.");
}

static void print_params(const CliRun *r)
{
    cli_print_params(&r->setup.cost);
}

/* Peters & Syska's terms and lower bounds (circuit model), beside the run. */
static void print_circuit_terms(const CliRun *r)
{
    const Setup *s = &r->setup;
    const SimTotals *t = sim_totals(r->sim);
    char b1[64], b2[64];
    if (s->cost.model != COST_CIRCUIT && s->cost.model != COST_SAF)
        return;
    uint64_t L = sched_bytes(r->sched);
    if (s->cost.model == COST_SAF) {   /* d_t * (beta + B_t * tau): no alpha, no delta */
        printf("terms:       %ld step%s, %lld hops on the steps' longest routes, each paying "
               "beta + B*tau (B: the step's largest transfer; store-and-forward: no alpha, no "
               "delta)\n", (long)t->phases, t->phases == 1 ? "" : "s",
               (long long)t->switch_hops);
        return;
    }
    printf("terms:       %ld start-up%s (alpha), %lld switched hops (delta), %s L*tau\n",
           (long)t->phases, t->phases == 1 ? "" : "s", (long long)t->switch_hops,
           export_format_double(L ? (double)t->phase_bytes / (double)L : 0, b1, sizeof b1));
    CircuitBounds bd;
    if (s->cost.model != COST_CIRCUIT || !bounds_circuit(s->net, &s->cost, L, &bd))
        return;
    printf("lower bound: %s  (Prop. 1: %ld alpha, %lld delta, L*tau/%d, "
           "alpha + %lld delta + L*tau/%d)\n",
           export_format_double(bd.total, b1, sizeof b1), (long)bd.phases,
           (long long)bd.diameter, bd.lambda, (long long)bd.diameter, bd.degree);
    if (bd.corollary)
        printf("corollary 1: %s  (as printed: %ld alpha; not a bound, docs/errata.md)\n",
               export_format_double(bd.cor_total, b2, sizeof b2), (long)bd.cor_phases);
}

/* Sanders & Sibeyn's lower bounds (4)-(6), beside a postal run on full:P. */
static void print_bounds(Sim *sim)
{
    const Sched *sc = sim_sched(sim);
    const CostParams *p = sim_params(sim);
    PostalBounds lb;
    if (net_kind(sched_net(sc)) != NET_FULL || p->model != COST_POSTAL ||
        !bounds_postal(net_size(sched_net(sc)), sched_bytes(sc), p, &lb))
        return;
    char b1[32], b2[32], b3[32], b4[32];
    printf("bounds:      (4) %s  (5) simplex %s  (6) packets %s (as printed %s) %s\n",
           export_format_double(lb.duplex, b1, sizeof b1),
           export_format_double(lb.simplex, b2, sizeof b2),
           export_format_double(lb.packets, b3, sizeof b3),
           export_format_double(lb.packets_paper, b4, sizeof b4), cost_unit(p->model));
}

/* print_text's parts, in the order they print. */

/* What ran: the algorithm, net, source(s), sizes, model, parameters. */
static void print_head(CliRun *r, const char *profile)
{
    const Setup *s = &r->setup;
    const Net *net = s->net;
    char b1[64];
    if (s->nsources > 1)
        printf("%s on %s from %ld sources (%s), %llu bytes each, %lu chunks", s->def->name,
               net_spec(net), (long)s->nsources, cli_dist_text(s, b1, sizeof b1),
               (unsigned long long)s->args.bytes, (unsigned long)sched_nchunks(r->sched));
    else
        printf("%s on %s from node %s, %llu bytes in %lu chunk%s", s->def->name,
               net_spec(net), net_node_name(net, s->args.source, b1, sizeof b1),
               (unsigned long long)s->args.bytes, (unsigned long)sched_nchunks(r->sched),
               sched_nchunks(r->sched) == 1 ? "" : "s");
    if (r->fit != FIT_NONE)
        printf(", --fit %s", algo_fit_name(r->fit));
    printf("\nmodel:       %s (", cost_model_name(s->cost.model));
    print_params(r);
    printf(")");
    if (profile)   /* --profile: say whose constants these are */
        printf(", profile %s", profile);
    printf("\n");
    for (int i = 0; i < s->def->nparams && i < ALGO_MAXPARAM; i++)
        printf("%s%s=%s%s", i ? " " : "params:      ", s->def->params[i].name,
               s->args.param[i] == ALGO_AUTO && s->def->params[i].min == ALGO_AUTO
                   ? "auto"
                   : export_format_double(s->args.param[i], b1, sizeof b1),
               i + 1 == s->def->nparams ? "\n" : "");
    char note[400];
    if (sanders_autotune(s->def, net, &s->args, note, sizeof note))
        printf("%s\n", note);
}

/* Whether every node ends with every chunk (a reduction: the root every contribution), and
 * whether the model was kept. */
static void print_verdict(CliRun *r)
{
    const Setup *s = &r->setup;
    const SimTotals *t = sim_totals(r->sim);
    const Net *net = s->net;
    char b1[64], b2[64];
    if (r->reduce) {
        const Reduce *rd = r->reduce;
        printf("operation:   reduce to node %s (%s; combine gamma=%s %s/byte)\n",
               net_node_name(net, s->args.source, b1, sizeof b1),
               r->reduce_declared ? "built as a reduction by the script"
                                  : "the broadcast run backwards",
               export_format_double(s->cost.gamma, b2, sizeof b2), cost_unit(s->cost.model));
        if (r->reduce_dropped > 0)
            printf("             %lld chunk deliveries of the broadcast went to nodes that held "
                   "them: not reversed\n", (long long)r->reduce_dropped);
        if (reduce_verified(rd))
            printf("verified:    yes, the root ends with every contribution to every chunk "
                   "exactly once%s\n", reduce_exact(rd) ? "" : " (counted and hashed)");
        else
            printf("verified:    NO: %lld contribution%s lost or combined twice\n",
                   (long long)reduce_violation_count(rd),
                   reduce_violation_count(rd) == 1 ? "" : "s");
        char text[256];
        for (size_t i = 0; i < reduce_nviolations(rd) && i < RUN_SHOW_VIOLATIONS; i++)
            printf("  %s\n", reduce_violation_text(rd, reduce_violation(rd, i), text,
                                                    sizeof text));
    } else if (t->verified)
        printf("verified:    yes, every node ends with every chunk\n");
    else
        printf("verified:    NO: %lld send%s of chunks not held, %lld node%s incomplete\n",
               (long long)t->not_held, t->not_held == 1 ? "" : "s",
               (long long)t->incomplete_nodes, t->incomplete_nodes == 1 ? "" : "s");
    if (t->valid)
        printf("valid:       yes, no violation of the %s model\n",
               cost_model_name(s->cost.model));
    else if (t->verified)
        printf("valid:       NO: %lld violation%s of the %s model\n",
               (long long)t->violations, t->violations == 1 ? "" : "s",
               cost_model_name(s->cost.model));
    else
        printf("valid:       NO (not verified)\n");
}

/* Steps, transfers, TCD (and its closed form), time step optimality. */
static void print_steps(CliRun *r)
{
    const SimTotals *t = sim_totals(r->sim);
    char b1[64];
    printf("steps:       %ld   transfers %lld   TCD %lld   bytes moved %llu\n",
           (long)t->nsteps, (long long)t->ntransfers, (long long)t->tcd,
           (unsigned long long)t->bytes);
    if (r->has_predicted_tcd)
        printf("TCD:         %lld simulated, %s predicted (closed form, %s)\n", (long long)t->tcd,
               export_format_double(r->predicted_tcd, b1, sizeof b1),
               export_difference((double)t->tcd, r->predicted_tcd) == 0 ? "matches" : "DIFFERS");
    TsoVerdict tso;
    char tb[192];
    tso_check(r->sim, &tso);
    if (r->reduce)   /* every node holds its contribution from the start: none is "informed" */
        printf("time steps:  (a reduction: the broadcast's time-step verdict does not apply)\n");
    else if (sched_nchunks(r->sched) > 1)   /* Cang & Wu define it for one message */
        printf("time steps:  optimal: does not apply (%lu chunks: time-step optimality, Cang & "
               "Wu, is defined for one-chunk broadcasts)\n",
               (unsigned long)sched_nchunks(r->sched));
    else
        printf("time steps:  optimal: %s\n", tso_text(r->sim, &tso, tb, sizeof tb));
    printf("             contention-free: %s (max link load %ld on the routes used)\n",
           tso.contention_free ? "yes" : "NO", (long)t->max_link_load);
}

/* The cost, the asynchronous time, the closed form and the combining cost. */
static void print_cost(CliRun *r, const SimAsync *as)
{
    const Setup *s = &r->setup;
    const SimTotals *t = sim_totals(r->sim);
    char b1[64], b2[64], b3[64], b4[64], b5[64];
    const char *unit = cost_unit(s->cost.model);
    printf("cost:        %s %s  (startup %s, transmission %s, contention %s, permutation %s)\n",
           export_format_double(t->cost.total, b1, sizeof b1), unit,
           export_format_double(t->cost.startup, b2, sizeof b2),
           export_format_double(t->cost.transmission, b3, sizeof b3),
           export_format_double(t->cost.contention, b4, sizeof b4),
           export_format_double(t->cost.permutation, b5, sizeof b5));
    if (as)
        printf("timing:      async: %s %s  (event by event; lockstep above: %s %s)\n",
               export_format_double(sim_async_total(as), b1, sizeof b1), unit,
               export_format_double(t->cost.total, b2, sizeof b2), unit);
    double timed = as ? sim_async_total(as) : t->cost.total;
    if (r->has_predicted) {
        double d = export_difference(timed, r->predicted);
        const char *verdict = d == 0 ? "matches" : "DIFFERS";
        printf("predicted:   %s %s  (closed form, %s; difference %s)\n",
               export_format_double(r->predicted, b1, sizeof b1), unit, verdict,
               export_format_double(d, b2, sizeof b2));
        char why[256];
        if (d != 0 && algo_predict_note(r->setup.def, r->setup.net, &r->setup.args,
                                        &r->setup.cost, why, sizeof why))
            printf("             known: %s\n", why);
    } else {
        char why[256];
        if (algo_predict_none(r->setup.def, r->setup.net, &r->setup.args, &r->setup.cost, why,
                              sizeof why))
            printf("predicted:   none (%s)\n", why);
        else
            printf("predicted:   none (no closed form for this net and model)\n");
    }
    if (r->reduce)
        printf("combine:     %s %s  (total with combining %s %s)\n",
               export_format_double(reduce_combine_cost(r->reduce), b1, sizeof b1), unit,
               export_format_double(t->cost.total + reduce_combine_cost(r->reduce), b2,
                                    sizeof b2), unit);
}

/* Link and port contention, one-port sub-rounds, hxbar channels. */
static void print_contention(CliRun *r, const SimAsync *as)
{
    const Setup *s = &r->setup;
    const SimTotals *t = sim_totals(r->sim);
    const char *unit = cost_unit(s->cost.model);
    char b1[64], b2[64];
    if (s->cost.model == COST_CIRCUIT)
        printf("contention:  max arc load %ld, %lld shared arc%s, %lld all-port conflict%s\n",
               (long)t->max_link_load, (long long)t->link_overloads,
               t->link_overloads == 1 ? "" : "s", (long long)t->port_conflicts,
               t->port_conflicts == 1 ? "" : "s");
    else if (s->cost.model == COST_SAF)   /* store-and-forward: no one-port rule */
        printf("contention:  max link load %ld, %lld overloaded link%s\n",
               (long)t->max_link_load, (long long)t->link_overloads,
               t->link_overloads == 1 ? "" : "s");
    else
        printf("contention:  max link load %ld, %lld overloaded link%s, %lld port conflict%s\n",
               (long)t->max_link_load, (long long)t->link_overloads,
               t->link_overloads == 1 ? "" : "s", (long long)t->port_conflicts,
               t->port_conflicts == 1 ? "" : "s");
    if (t->split_steps > 0)   /* seidel: one-port sub-rounds (subround.h) */
        printf("one-port:    %ld step%s played in sub-rounds (%lld sub-rounds in all): a node's "
               "sends go one after another\n", (long)t->split_steps,
               t->split_steps == 1 ? "" : "s", (long long)t->subrounds);
    if (net_kind(s->net) == NET_HXBAR)
        printf("channels:    at most %ld transfers over one module's channel in a step "
               "(%ld channels per module: a channel's link load is transfers/%ld, rounded up)\n",
               (long)t->max_channel_load, (long)net_hxbar_channels(s->net),
               (long)net_hxbar_channels(s->net));
    if (as && net_kind(s->net) == NET_HXBAR)
        printf("             async: %lld transfer%s waited for a free channel, %s %s in all "
               "(longest %s)\n", (long long)sim_async_channel_waits(as),
               sim_async_channel_waits(as) == 1 ? "" : "s",
               export_format_double(sim_async_channel_wait(as), b1, sizeof b1), unit,
               export_format_double(sim_async_channel_wait_max(as), b2, sizeof b2));
}

/* The model's violations, the first RUN_SHOW_VIOLATIONS of them with the transfers involved. */
static void print_violations(CliRun *r)
{
    const SimTotals *t = sim_totals(r->sim);
    if (t->violations > 0) {
        size_t nv = sim_nviolations(r->sim);
        printf("violations:  %lld", (long long)t->violations);
        if ((int64_t)nv > RUN_SHOW_VIOLATIONS || (int64_t)nv < t->violations)
            printf(" (the first %d shown)", nv < RUN_SHOW_VIOLATIONS ? (int)nv
                                                                    : RUN_SHOW_VIOLATIONS);
        printf("\n");
        char text[256];
        char inv[1024];
        for (size_t i = 0; i < nv && i < RUN_SHOW_VIOLATIONS; i++) {
            const SimViolation *sv = sim_violation(r->sim, i);
            printf("  %s\n", sim_violation_text(r->sim, sv, text, sizeof text));
            /* the transfers that collide, by name (sim-involved.c) */
            if (sim_violation_involved_text(r->sim, sv, inv, sizeof inv)[0])
                printf("    transfers: %s\n", inv);
        }
    }
}

static void print_text(CliRun *r, const SimAsync *as, const char *profile)
{
    print_head(r, profile);
    print_verdict(r);
    print_steps(r);
    print_cost(r, as);
    print_bounds(r->sim);
    print_contention(r, as);
    print_circuit_terms(r);
    print_violations(r);
}

int cmd_run(int argc, char **argv)
{
    CliOpts o;
    int st = cli_opts_begin(argc, argv,
                            OPT_NET | OPT_ALGO | OPT_SOURCE | OPT_SOURCES | OPT_MAP | OPT_BYTES | OPT_MODEL | OPT_SET | OPT_PROFILE |
                                OPT_FIT | OPT_JSON | OPT_CSV | OPT_TIMING | OPT_OP,
                            &o, run_help);
    if (st >= 0)
        return st;
    bool async = false;
    if (o.timing && strcmp(o.timing, "async") == 0) {
        async = true;
    } else if (o.timing && strcmp(o.timing, "lockstep") != 0) {
        cli_opts_free(&o);
        return cli_usage_error("unknown --timing (lockstep, async)");
    }
    CliRun r;
    /* one pass over the steps replays, verifies and times them asynchronously */
    int rc = cli_prepare(&o, async ? SIM_ASYNC : 0, &r);
    if (rc != 0) {
        cli_run_free(&r);
        cli_opts_free(&o);
        return rc;
    }
    SimAsync *as = NULL;
    char err[256];
    if (!cli_verdict_time(&r, async, &as, err, sizeof err)) {
        cli_error("%s", err);
        cli_run_free(&r);
        cli_opts_free(&o);
        return 1;
    }
    if (o.json) {
        const char *names[ALGO_MAXPARAM];
        int np = 0;
        for (; np < r.setup.def->nparams && np < ALGO_MAXPARAM; np++)
            names[np] = r.setup.def->params[np].name;
        char none[256] = "", note[256] = "";
        if (!r.has_predicted)
            algo_predict_none(r.setup.def, r.setup.net, &r.setup.args, &r.setup.cost, none,
                              sizeof none);
        else
            algo_predict_note(r.setup.def, r.setup.net, &r.setup.args, &r.setup.cost, note,
                              sizeof note);
        ExportRun info = {
            .algo = r.setup.def->name, .algo_ref = r.setup.def->ref,
            .fit = algo_fit_name(r.fit), .has_predicted = r.has_predicted,
            .predicted = r.predicted, .predicted_none = none[0] ? none : NULL,
            .predicted_note = note[0] ? note : NULL,
            .has_predicted_tcd = r.has_predicted_tcd,
            .predicted_tcd = r.predicted_tcd, .param_names = names,
            .param_values = r.setup.args.param, .nparams = np, .max_violations = 100,
            .reduce = r.reduce,
            .has_async = as != NULL, .async_total = sim_async_total(as),
            .async_channel_waits = sim_async_channel_waits(as),
            .async_channel_wait = sim_async_channel_wait(as),
        };
        char dist[64];
        info.dist = r.setup.sources ? cli_dist_text(&r.setup, dist, sizeof dist) : NULL;
        export_run_json(stdout, r.sim, &info, false);
    } else if (o.csv) {
        export_run_csv(stdout, r.sim);
    } else {
        print_text(&r, as, o.profile);
    }
    CliVerdict v;   /* the judgement `check` gives too (verdict.h) */
    cli_verdict(&r, as, NULL, &v);
    rc = v.ok ? 0 : 1;
    sim_async_free(as);
    cli_run_free(&r);
    cli_opts_free(&o);
    return cli_out_finish(rc);
}
