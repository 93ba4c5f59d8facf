/* schedule.c — `meshcast schedule`: the whole schedule, step by step (--format text, json or
 * csv; --json and --csv are short for the last two).  Same options and exit status as run. */
#include <stdio.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/text.h"
#include "../algos/goal/goal.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"

static void schedule_help(void)
{
    puts("usage: meshcast schedule --net SPEC --algo NAME|FILE.lua [--source ID|R,C[,Z]]\n"
         "                    [--bytes M] [--model M] [--set K=V]... [--fit F]\n"
         "                    [--format text|json|csv|goal] [--op broadcast|reduce]\n"
         "                    [--map FILE]  (with --algo FILE.goal)\n"
         "Prints every step of the broadcast: each transfer's source, destination, chunks,\n"
         "bytes, route, busiest link load and cost.  --format goal writes it as a GOAL file\n"
         "(LogGOPSim's schedgen/txt2bin format: one rank per node, tag = step).");
}

#define SCHED_LABEL_SHOWN 200   /* bytes of a step's label in the text format */

static void print_text(CliRun *r)
{
    const Sched *s = r->sched;
    const Net *net = sched_net(s);
    SchedTransfer tr;
    char b1[64], b2[64], chunks[256], route[256], label[SCHED_LABEL_SHOWN + 8];

    const char *unit = cost_unit(r->setup.cost.model);
    printf("# %s on %s, %llu bytes in %lu chunk%s, source %s, model %s, total %s %s, "
           "%lld transfers\n",
           r->setup.def->name, net_spec(net), (unsigned long long)sched_bytes(s),
           (unsigned long)sched_nchunks(s), sched_nchunks(s) == 1 ? "" : "s", net_node_name(net, sched_source(s), b1, sizeof b1),
           cost_model_name(r->setup.cost.model),
           export_format_double(sim_totals(r->sim)->cost.total, b2, sizeof b2), unit,
           (long long)sched_total_transfers(s));
    for (int32_t st = 0; st < sched_nsteps(s) && !cli_out_failed(); st++) {
        const SimStep *ss = sim_step(r->sim, st);
        /* a script's label, shown as text: one line, no control character */
        text_quote(sched_step_label(s, st), SCHED_LABEL_SHOWN, label, sizeof label);
        /* Steps are numbered from 1 in text (as sim_violation_text does), from 0 in JSON
         * and CSV (indices). */
        char subs[48] = "";
        if (ss->subrounds > 1)   /* seidel: some node's messages go one after another */
            snprintf(subs, sizeof subs, " in %ld one-port sub-rounds", (long)ss->subrounds);
        printf("step %ld%s%s: %lld transfer%s%s, cost %s %s, max link load %ld\n", (long)st + 1,
               label[0] ? " " : "", label, (long long)ss->ntransfers,
               ss->ntransfers == 1 ? "" : "s", subs,
               export_format_double(ss->cost.total, b1, sizeof b1), unit,
               (long)ss->max_link_load);
        int64_t n = sched_ntransfers(s, st);
        for (int64_t i = 0; i < n && !((i & 255) == 255 && cli_out_failed()); i++) {
            SimTransferInfo ti;
            char from[32], to[32];
            sched_transfer(s, st, i, &tr);
            sim_transfer_info(r->sim, st, i, &ti);
            char sub[24] = "";
            if (ti.subround > 0)
                snprintf(sub, sizeof sub, "  sub-round %ld", (long)ti.subround);
            printf("  %s -> %s  chunks %s  %llu B  route %s  load %ld%s  cost %s\n",
                   net_node_name(net, tr.src, from, sizeof from),
                   net_node_name(net, tr.dst, to, sizeof to),
                   chunkset_format(tr.ranges, tr.nranges, chunks, sizeof chunks),
                   (unsigned long long)tr.bytes,
                   export_route_text(net, tr.seg, tr.nseg, route, sizeof route),
                   (long)ti.load, sub, export_format_double(ti.cost, b1, sizeof b1));
        }
        int64_t nl = sched_nlocals(s, st);
        for (int64_t i = 0; i < nl; i++) {
            SchedLocal l;
            sched_local_get(s, st, i, &l);
            if (l.node < 0)
                printf("  local: every node permutes %llu B\n", (unsigned long long)l.bytes);
            else
                printf("  local: node %s permutes %llu B\n",
                       net_node_name(net, l.node, b1, sizeof b1), (unsigned long long)l.bytes);
        }
    }
}

int cmd_schedule(int argc, char **argv)
{
    CliOpts o;
    char err[512];
    int st = cli_opts_begin(argc, argv,
                            OPT_NET | OPT_ALGO | OPT_SOURCE | OPT_SOURCES | OPT_MAP | OPT_BYTES | OPT_MODEL | OPT_SET | OPT_PROFILE |
                                OPT_FIT | OPT_JSON | OPT_CSV | OPT_FORMAT | OPT_OP,
                            &o, schedule_help);
    if (st >= 0)
        return st;
    enum { F_TEXT, F_JSON, F_CSV, F_GOAL } fmt = o.json ? F_JSON : o.csv ? F_CSV : F_TEXT;
    if (o.format) {
        int want = strcmp(o.format, "text") == 0 ? F_TEXT
                   : strcmp(o.format, "json") == 0 ? F_JSON
                   : strcmp(o.format, "csv") == 0 ? F_CSV
                   : strcmp(o.format, "goal") == 0 ? F_GOAL : -1;
        if (want < 0) {
            snprintf(err, sizeof err, "unknown format '%s' (text, json, csv, goal)", o.format);
            cli_opts_free(&o);
            return cli_usage_error(err);
        }
        if ((o.json || o.csv) && want != (int)fmt) {
            cli_opts_free(&o);
            return cli_usage_error("--format disagrees with --json/--csv");
        }
        fmt = want;
    }
    CliRun r;
    int rc = cli_prepare(&o, 0, &r);
    if (rc != 0) {
        cli_run_free(&r);
        cli_opts_free(&o);
        return rc;
    }
    if (fmt == F_GOAL) {
        if (r.reduce) {
            cli_run_free(&r);
            cli_opts_free(&o);
            cli_error("--format goal writes broadcasts, not --op reduce");
            return 2;
        }
        char comment[512];
        snprintf(comment, sizeof comment, "meshcast: %s on %s, %llu bytes in %lu chunk(s)",
                 r.setup.def->name, net_spec(sched_net(r.sched)),
                 (unsigned long long)sched_bytes(r.sched), (unsigned long)sched_nchunks(r.sched));
        goal_write(stdout, r.sched, comment);
    } else if (fmt == F_JSON)
        export_schedule_json(stdout, r.sched, r.sim, false);
    else if (fmt == F_CSV)
        export_schedule_csv(stdout, r.sched, r.sim);
    else
        print_text(&r);
    const SimTotals *t = sim_totals(r.sim);
    rc = t->verified && t->valid ? 0 : 1;
    cli_run_free(&r);
    cli_opts_free(&o);
    return cli_out_finish(rc);
}
