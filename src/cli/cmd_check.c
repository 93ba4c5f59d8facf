/* cmd_check.c — `meshcast check FILE.lua|NAME [--net SPEC]...`: judge a scripted (or built-in)
 * algorithm over a sweep of sizes, every source (or the --source, or each --sources
 * distribution) and each timing, exactly as `run` judges one case.
 *
 * Each case is made and judged through run's own code path (setup_make, cli_prepare_made,
 * verdict.h): verified, valid under the model and the timing, the first rule broken and
 * where.  One table row per net and timing (and distribution): cases, verified, valid, and
 * the worst over them of steps, max link load, port conflicts, cost and the closed form.
 * Under the table, each failing row's first failure with the rule it broke
 * ("FAIL mesh:4x4 source 5: delivery: step 2: node 5 sends chunk 3 it does not hold").
 * A net the algorithm claims but refuses at this size (a script's `sizes`) is listed as
 * skipped with its reason.  --json: one object per case and a summary; --csv: one line per
 * case (and per skipped net).
 *
 * Exit: 0 every case verified and valid; 1 some case not; 2 usage error, a script that cannot
 * be loaded, or a script error while building.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../algos/goal/goal.h"
#include "../engine/cost.h"
#include "../engine/export.h"
#include "../engine/num.h"
#include "../engine/reduce.h"
#include "../engine/sim.h"
#include "../engine/text.h"
#include "../engine/tso.h"
#include "../script/course.h"
#include "../script/lesson.h"
#include "../script/profile.h"
#include "../script/script.h"
#include "../script/setup.h"
#include "cli-opts.h"
#include "cli-table.h"
#include "cli-out.h"
#include "commands.h"
#include "verdict.h"

#define CHECK_MAXNETS 64
#define CHECK_MAXSETS 32
#define CHECK_MAXDISTS 16
#define CHECK_MAXSAME 8            /* built-ins a script's schedule is compared with, named */
#define CHECK_SAME_MAXNODES 4096   /* ... on nets up to this size */
#define CHECK_ALL_SOURCES 256   /* nets up to this size are checked from every source */
#define CHECK_SAMPLE 64         /* bigger ones from at most this many, spread over the net */
/* ... and at most this many nodes x sources in all (each source is a full build and
 * simulation, linear in the nodes): 64 sources up to 65536 nodes, 4 on 1M, 1 from 4M on.
 * (bst.lua on array:16777216 from 64 sources ran past 120 s; from 1 it takes ~6 s.) */
#define CHECK_WORK_BUDGET 4194304L
/* The whole check: nodes x sources summed over the nets (what --max-sources and many big
 * --net can ask for) is refused at once over this, with the --max-sources that fits: 4
 * sources on 16M nodes (~25 s for bst.lua).  --max-sources 16777216 on array:16777216 would
 * have run for days. */
#define CHECK_TOTAL_BUDGET 67108864LL

static const char *const sweep_array[] = {"2", "3", "4", "5", "7", "8", "12", "16", "32", "64"};
static const char *const sweep_mesh[] = {"2x2", "2x4", "4x2", "3x3", "4x4", "3x5",
                                         "4x8", "8x4", "8x8", "5x7"};
static const char *const sweep_torus[] = {"3x3", "4x4", "5x5", "4x8", "8x8"};

static void check_help(void)
{
    puts("usage: meshcast check FILE.lua|FILE.goal|NAME [--net SPEC]... [--bytes M] [--model MODEL]\n"
         "                      [--set K=V]... [--max-sources N] [--source ID|R,C]\n"
         "                      [--sources SPEC]... [--timing lockstep|async|both]\n"
         "                      [--profile NAME] [--op broadcast|reduce] [--json|--csv]\n"
         "Builds, simulates and judges the algorithm as `run` does (verified, valid under the\n"
         "model and the timing) on every source of each net (the --net ones, or a sweep of\n"
         "sizes over the kinds it claims) and prints one row per net and timing: cases,\n"
         "verified, valid, and the worst over them of steps, max link load, port conflicts,\n"
         "cost and the closed form (* where it differs).  Under it, each failing row's first\n"
         "failure and the rule it broke.  A size the algorithm refuses is listed as skipped\n"
         "with its reason.  --source ID checks that source only; --sources SPEC (repeatable)\n"
         "checks each s-to-p distribution instead (R:20, E:7, a list).  Nets over 256 nodes\n"
         "are checked from a sample of sources spread over the net: 64, and fewer on big nets\n"
         "so that nodes x sources stays within 4194304 (4 sources on 1M nodes, 1 from 4M on);\n"
         "--max-sources N sets the sample instead.  --profile NAME and --op reduce as for run\n"
         "(a machine's constants; the broadcast run backwards as a reduction).  --json: one object per case and a\n"
         "summary; --csv: one line per case.\n"
         "Exit: 0 all verified and valid, 1 some case not, 2 usage or script error.");
}

static int usage(const char *msg)
{
    cli_error("check: %s", msg);
    return 2;
}

typedef struct {
    const char *file;
    const char *nets[CHECK_MAXNETS];
    int nnets;
    const char *sets[CHECK_MAXSETS];
    int nsets;
    const char *dists[CHECK_MAXDISTS];   /* --sources */
    int ndists;
    const char *bytes, *model, *source;
    const char *profile, *op;            /* --profile NAME, --op broadcast|reduce: as run */
    bool timing[2];                      /* [0] lockstep, [1] async */
    bool timing_given;
    bool json, csv;
    long max_sources;
} CheckOpts;

static int set_value(CheckOpts *o, const char *name, const char *val)
{
    char m[192], q[48];
    text_quote(val, 40, q, sizeof q);
    if (strcmp(name, "--net") == 0) {
        if (o->nnets == CHECK_MAXNETS)
            return usage("too many --net");
        o->nets[o->nnets++] = val;
    } else if (strcmp(name, "--set") == 0) {
        if (o->nsets == CHECK_MAXSETS)
            return usage("too many --set");
        o->sets[o->nsets++] = val;
    } else if (strcmp(name, "--sources") == 0) {
        if (o->ndists == CHECK_MAXDISTS)
            return usage("too many --sources");
        o->dists[o->ndists++] = val;
    } else if (strcmp(name, "--source") == 0) {
        if (o->source)
            return usage("--source given twice");
        o->source = val;
    } else if (strcmp(name, "--bytes") == 0) {
        uint64_t b;
        const char *why = setup_bytes_problem(val, &b);
        if (why) {
            snprintf(m, sizeof m, "bad --bytes '%s': %s", q, why);
            return usage(m);
        }
        o->bytes = val;
    } else if (strcmp(name, "--model") == 0) {
        CostModel cm;
        if (!cost_model_parse(val, &cm)) {
            snprintf(m, sizeof m, "unknown model '%s' (seidel, postal, circuit, saf)", q);
            return usage(m);
        }
        o->model = val;
    } else if (strcmp(name, "--timing") == 0) {
        bool l = strcmp(val, "lockstep") == 0, a = strcmp(val, "async") == 0,
             b = strcmp(val, "both") == 0;
        if (!l && !a && !b) {
            snprintf(m, sizeof m, "unknown --timing '%s' (lockstep, async, both)", q);
            return usage(m);
        }
        o->timing[0] = l || b;
        o->timing[1] = a || b;
        o->timing_given = true;
    } else if (strcmp(name, "--profile") == 0 || strcmp(name, "--op") == 0) {
        bool is_profile = name[2] == 'p';
        const char **slot = is_profile ? &o->profile : &o->op;
        if (*slot) {
            snprintf(m, sizeof m, "%s given twice", name);
            return usage(m);
        }
        /* refused here, before the table's header, with setup_make's own messages */
        char why[256] = "";
        Profile *pf = is_profile ? profile_load(val, why, sizeof why) : NULL;
        profile_free(pf);
        if (!is_profile && strcmp(val, "broadcast") != 0 && strcmp(val, "reduce") != 0)
            snprintf(why, sizeof why, "bad --op: broadcast or reduce");
        if (why[0])
            return usage(why);
        *slot = val;
    } else if (strcmp(name, "--max-sources") == 0) {
        uint64_t v = 0;
        NumStatus ns = num_u64(val, &v, NULL);   /* num.h's one rule */
        if (ns == NUM_TOO_LARGE || (ns == NUM_OK && v > NET_MAXNODES))
            snprintf(m, sizeof m, "bad --max-sources '%s': too large (a net has at most "
                     "%d nodes)", q, NET_MAXNODES);
        else if (ns != NUM_OK || v < 1)
            snprintf(m, sizeof m, "bad --max-sources '%s': expected a number >= 1", q);
        else
            m[0] = '\0';
        if (m[0])
            return usage(m);
        o->max_sources = (long)v;
    }
    return 0;
}

static int parse_opts(int argc, char **argv, CheckOpts *o)
{
    memset(o, 0, sizeof *o);
    o->timing[0] = true;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[32];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            check_help();
            return -1;
        }
        if (strcmp(a, "--json") == 0 || strcmp(a, "--csv") == 0) {
            if (a[2] == 'j')
                o->json = true;
            else
                o->csv = true;
            if (o->json && o->csv)
                return usage("--json and --csv exclude each other");
            continue;
        }
        if (strncmp(a, "--", 2) == 0) {
            const char *eq = strchr(a, '=');
            size_t n = eq ? (size_t)(eq - a) : strlen(a);
            if (n >= sizeof name) {
                char m[96];
                snprintf(m, sizeof m, "unknown option '%.40s'", a);
                return usage(m);
            }
            memcpy(name, a, n);
            name[n] = '\0';
            /* an unknown option is named as such, even as the last argument */
            static const char *const known[] = {"--net", "--set", "--bytes", "--model",
                                                "--max-sources", "--timing", "--source",
                                                "--sources", "--profile", "--op"};
            bool is_known = false;
            for (size_t k = 0; k < sizeof known / sizeof *known; k++)
                is_known |= strcmp(name, known[k]) == 0;
            if (!is_known) {
                char m[200];
                char hint[96];
                snprintf(m, sizeof m, "unknown option '%s'%s", name,
                         cli_opt_hint(cli_command_find("check")->opts, name, hint, sizeof hint));
                return usage(m);
            }
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                char m[96];
                snprintf(m, sizeof m, "%s needs a value", name);
                return usage(m);
            }
            int r = set_value(o, name, val);
            if (r)
                return r;
        } else if (!o->file) {
            o->file = a;
        } else {
            char m[160];
            snprintf(m, sizeof m, "unexpected argument '%s'", a);
            return usage(m);
        }
    }
    if (!o->file)
        return usage("which script? meshcast check FILE.lua [--net SPEC]...");
    if (o->source && o->ndists)
        return usage("--source and --sources exclude each other");
    return 0;
}

/* How many sources of a net of n nodes are checked. */
static int32_t sources_for(const CheckOpts *o, int32_t n)
{
    long maxs = o->max_sources;
    if (maxs <= 0 && n > CHECK_ALL_SOURCES) {
        maxs = CHECK_WORK_BUDGET / n;
        if (maxs > CHECK_SAMPLE)
            maxs = CHECK_SAMPLE;
        if (maxs < 1)
            maxs = 1;
    }
    return maxs > 0 && maxs < n ? (int32_t)maxs : n;
}

/* Refuse at once a check over CHECK_TOTAL_BUDGET, saying what fits.  Returns false with the
 * message in err (a bad net spec is left for the main loop to report). */
static bool within_budget(const CheckOpts *o, const char *const *nets, int nn, char *err,
                          size_t errlen)
{
    long long work = 0, nodes = 0;
    int32_t biggest = 0;
    const char *big = "";
    for (int i = 0; i < nn; i++) {
        Net *net = net_parse(nets[i], NULL, 0);
        if (!net)
            continue;
        int32_t n = net_size(net);
        work += (long long)n * sources_for(o, n);
        nodes += n;
        if (n > biggest) {
            biggest = n;
            big = nets[i];
        }
        net_free(net);
    }
    if (work <= CHECK_TOTAL_BUDGET)
        return true;
    long long fit = CHECK_TOTAL_BUDGET / (nodes ? nodes : 1);
    char shown[48];
    text_quote(big, 40, shown, sizeof shown);
    if (fit >= 1)
        snprintf(err, errlen, "%lld node-builds (nodes x sources over %d net%s; %s has %ld "
                 "nodes) is over check's work budget of %lld: --max-sources %lld fits",
                 work, nn, nn == 1 ? "" : "s", shown, (long)biggest, CHECK_TOTAL_BUDGET, fit);
    else
        snprintf(err, errlen, "%lld nodes in %d nets is over check's work budget of %lld "
                 "node-builds even from one source each: check fewer or smaller nets", nodes,
                 nn, CHECK_TOTAL_BUDGET);
    return false;
}

static int label_width = 14;   /* the net column: wider with timing and distribution labels */

typedef struct {
    char label[96];                      /* "mesh:4x4", "mesh:4x4 async", "mesh:4x4 R:4" */
    int32_t cases, verified, valid;
    int32_t steps_min, steps_max, load;
    int64_t conflicts;
    double cost, predicted;
    bool has_pred, pred_mismatch;
    int64_t tcd_min, tcd_max;            /* Cang & Wu: the TCD over the cases, */
    int32_t tcd_pred, tcd_bad;           /* cases with a closed form of it, disagreeing */
    char tcd_first_bad[192];
    char first_fail[900];
    int32_t claims_checked, claims_bad;  /* the script's claims, verified per case */
    char claim_first_bad[512];
} Row;

typedef struct {
    const CheckOpts *o;
    const AlgoDef *d;       /* the algorithm as loaded (a built-in: the first def of it) */
    const AlgoDef *script;  /* the script's def (loaded once), NULL for a built-in */
    bool goal;              /* a GOAL file: read for each net (its ranks on it), its own
                             * source unless --source */
    JsonOut j;
    int ncases, nok;
    char err[1024];         /* a script error: the message */
    /* the built-ins whose schedule the script builds exactly (from the first source of a
     * net, lockstep): each name and the nets */
    char same_name[CHECK_MAXSAME][32];
    char same_nets[CHECK_MAXSAME][512];
    int nsame;
} Ctx;

/* Does the script's schedule r equal a built-in's on the same net and settings?  Each match
 * is added to c's list (the first source of each net only: a first script often re-invents a
 * built-in). */
static void same_as_builtin(Ctx *c, const char *netspec, const char *source, const CliRun *r)
{
    const Net *net = r->setup.net;
    if (net_size(net) > CHECK_SAME_MAXNODES)
        return;
    for (size_t i = 0; i < algo_count(); i++) {
        const AlgoDef *d = algo_at(i);
        if (!(d->nets & (1u << net_kind(net))) || (d->flags & (ALGO_STOP | ALGO_SEARCH)))
            continue;
        const CheckOpts *o = c->o;
        /* the built-in with its own defaults, under the same model, bytes and source */
        SetupSpec spec = {.net = netspec, .algo = d->name, .source = source,
                          .bytes = o->bytes, .model = o->model, .profile = o->profile};
        Setup su;
        bool refused;
        char err[256];
        if (!setup_make_def(&spec, d, &su, &refused, err, sizeof err))
            continue;
        Sched *sc = algo_build(su.def, su.net, &su.args, err, sizeof err);
        bool same = sc && sched_equal(sc, r->sched);
        sched_free(sc);
        setup_free(&su);
        if (!same)
            continue;
        int k = 0;
        while (k < c->nsame && strcmp(c->same_name[k], d->name) != 0)
            k++;
        if (k == c->nsame) {
            if (c->nsame == CHECK_MAXSAME)
                continue;
            snprintf(c->same_name[k], sizeof c->same_name[k], "%s", d->name);
            c->same_nets[k][0] = '\0';
            c->nsame++;
        }
        size_t used = strlen(c->same_nets[k]);
        snprintf(c->same_nets[k] + used, sizeof c->same_nets[k] - used, "%s%s",
                 used ? ", " : "", netspec);
    }
}

static void case_out(Ctx *c, const char *netspec, const char *source, const char *dist,
                     bool async, const CliRun *r, const CliVerdict *v, int nclaims,
                     const char *claim_bad)
{
    const SimTotals *t = sim_totals(r->sim);
    const char *timing = async ? "async" : "lockstep";
    char b1[64], b2[64], b3[64];
    if (c->o->json) {
        JsonOut *j = &c->j;
        json_begin_object(j);
        json_key(j, "net"); json_str(j, netspec);
        json_key(j, "source");
        if (dist) json_null(j); else json_int(j, r->setup.args.source);
        json_key(j, "sources"); json_str(j, dist);
        json_key(j, "timing"); json_str(j, timing);
        json_key(j, "verified"); json_bool(j, v->verified);
        json_key(j, "valid"); json_bool(j, v->ok);
        json_key(j, "rule"); json_str(j, v->rule);
        json_key(j, "where"); json_str(j, v->ok ? NULL : v->where);
        json_key(j, "steps"); json_int(j, t->nsteps);
        json_key(j, "transfers"); json_int(j, t->ntransfers);
        json_key(j, "load"); json_int(j, t->max_link_load);
        json_key(j, "conflicts"); json_int(j, t->port_conflicts);
        json_key(j, "cost"); json_num(j, v->cost);
        json_key(j, "predicted");
        if (v->has_predicted) json_num(j, v->predicted); else json_null(j);
        json_key(j, "difference");
        if (v->has_predicted) json_num(j, v->difference); else json_null(j);
        json_key(j, "tcd"); json_int(j, t->tcd);
        json_key(j, "claims_checked"); json_int(j, nclaims);
        json_key(j, "claim_failed"); json_str(j, claim_bad);
        json_end_object(j);
    } else if (c->o->csv) {
        csv_field(stdout, netspec);
        printf(",");
        if (!dist)
            printf("%ld", (long)r->setup.args.source);
        printf(",");
        csv_field(stdout, dist ? dist : "");
        printf(",%s,%s,%s,", timing, v->verified ? "yes" : "no", v->ok ? "yes" : "no");
        csv_field(stdout, v->rule ? v->rule : "");
        printf(",");
        csv_field(stdout, v->ok ? "" : v->where);
        printf(",%ld,%lld,%ld,%lld,%s,%s,%s,%lld\n", (long)t->nsteps, (long long)t->ntransfers,
               (long)t->max_link_load, (long long)t->port_conflicts,
               export_format_double(v->cost, b1, sizeof b1),
               v->has_predicted ? export_format_double(v->predicted, b2, sizeof b2) : "",
               v->has_predicted ? export_format_double(v->difference, b3, sizeof b3) : "",
               (long long)t->tcd);
    }
    (void)source;
}

static void skipped_out(Ctx *c, const char *netspec, const char *why)
{
    char q[1100];
    if (c->o->csv) {
        csv_field(stdout, netspec);
        printf(",,,,,,skipped,");
        csv_field(stdout, why);
        printf(",,,,,,,,\n");
    } else if (!c->o->json) {
        printf("%-*s skipped: %s\n", label_width, netspec, text_quote(why, 1000, q, sizeof q));
    }
}

/* The script's claims on this case: how many were checked (-1: the script raised, message in
 * c->err); the first that does not hold into bad (else ""). */
static int check_claims(Ctx *c, const CliRun *r, char *bad, size_t badlen)
{
    bad[0] = '\0';
    if (!c->script)
        return 0;
    ScriptClaims cl;
    char err[512];
    if (!script_claims(c->script, r->setup.net, &r->setup.args, &cl, err, sizeof err)) {
        snprintf(c->err, sizeof c->err, "claims: %s", err);
        return -1;
    }
    const SimTotals *t = sim_totals(r->sim);
    TsoVerdict tv;
    tso_check(r->sim, &tv);
    int n = 0;
    if (cl.has_steps && ++n && cl.steps != (double)t->nsteps)
        snprintf(bad, badlen, "claims steps = %.12g, the schedule takes %ld", cl.steps,
                 (long)t->nsteps);
    else if (cl.has_tcd && ++n && cl.tcd != (double)t->tcd)
        snprintf(bad, badlen, "claims tcd = %.12g, the schedule's TCD is %lld", cl.tcd,
                 (long long)t->tcd);
    else if (cl.has_contention_free && ++n && cl.contention_free != tv.contention_free)
        snprintf(bad, badlen, "claims contention_free = %s, but the max link load is %ld",
                 cl.contention_free ? "true" : "false", (long)t->max_link_load);
    else if (cl.has_time_step_optimal && ++n && cl.time_step_optimal != tv.optimal)
        snprintf(bad, badlen, "claims time_step_optimal = %s, but it is %s (%ld steps, at "
                 "least %ld needed)", cl.time_step_optimal ? "true" : "false",
                 tv.optimal ? "optimal" : "not", (long)t->nsteps, (long)tv.min_steps);
    /* count the rest too */
    n = cl.has_steps + cl.has_tcd + cl.has_contention_free + cl.has_time_step_optimal;
    return n;
}

/* One case, made and judged through run's code path.  Returns 0 judged (into the row), 2 a
 * script error or a setting refused (message in c->err). */
static int check_case(Ctx *c, const char *netspec, const char *source, const char *dist,
                      bool async, Row *row)
{
    const CheckOpts *o = c->o;
    SetupSpec spec = {
        .net = netspec, .algo = o->file, .source = source, .bytes = o->bytes,
        .model = o->model, .sets = o->sets, .nsets = (size_t)o->nsets, .sources = dist,
        .profile = o->profile, .op = o->op,
    };
    Setup setup;
    bool refused;
    char err[900];
    if (!setup_make_def(&spec, c->script, &setup, &refused, err, sizeof err)) {
        snprintf(c->err, sizeof c->err, "%s", err);
        return 2;
    }
    CliRun r;
    int rc = cli_prepare_made(&setup, async ? SIM_ASYNC : 0, &r, err, sizeof err);
    if (rc != 0) {
        snprintf(c->err, sizeof c->err, "%s%s%s: %s", netspec, dist ? " sources " : " source ",
                 dist ? dist : source ? source : "0", err);
        cli_run_free(&r);
        return 2;
    }
    SimAsync *as = NULL;
    char aerr[256] = "";
    if (row->cases == 0 && !async && !dist && c->script && !r.reduce)
        same_as_builtin(c, netspec, source, &r);
    bool timed = cli_verdict_time(&r, async, &as, aerr, sizeof aerr);
    CliVerdict v;
    cli_verdict(&r, as, timed ? NULL : aerr, &v);
    const SimTotals *t = sim_totals(r.sim);

    row->cases++;
    c->ncases++;
    row->verified += v.verified;
    row->valid += v.ok;
    c->nok += v.ok;
    if (!v.ok && !row->first_fail[0]) {
        char who[64];
        if (dist)
            snprintf(who, sizeof who, "sources %s", dist);
        else
            snprintf(who, sizeof who, "%ld", (long)r.setup.args.source);
        snprintf(row->first_fail, sizeof row->first_fail, "%s %s%s: %s: %s", row->label,
                 dist ? "" : "source ", who, v.rule, v.where);
    }
    if (t->nsteps < row->steps_min)
        row->steps_min = t->nsteps;
    if (t->nsteps > row->steps_max)
        row->steps_max = t->nsteps;
    if (t->max_link_load > row->load)
        row->load = t->max_link_load;
    if (t->port_conflicts > row->conflicts)
        row->conflicts = t->port_conflicts;
    if (row->cases == 1 || v.cost > row->cost)
        row->cost = v.cost;
    if (row->cases == 1 || t->tcd < row->tcd_min)
        row->tcd_min = t->tcd;
    if (t->tcd > row->tcd_max)
        row->tcd_max = t->tcd;
    if (r.has_predicted_tcd) {
        row->tcd_pred++;
        if (r.predicted_tcd != (double)t->tcd && row->tcd_bad++ == 0)
            snprintf(row->tcd_first_bad, sizeof row->tcd_first_bad,
                     "%s source %ld: TCD %lld simulated, %.0f predicted", netspec,
                     (long)r.setup.args.source, (long long)t->tcd, r.predicted_tcd);
    }
    if (v.has_predicted) {
        if (!row->has_pred || v.predicted > row->predicted)
            row->predicted = v.predicted;
        row->has_pred = true;
        if (v.difference != 0)
            row->pred_mismatch = true;
    }
    char cbad[300];
    int nclaims = check_claims(c, &r, cbad, sizeof cbad);
    if (nclaims < 0) {
        sim_async_free(as);
        cli_run_free(&r);
        return 2;
    }
    row->claims_checked += nclaims > 0;
    if (cbad[0] && row->claims_bad++ == 0)
        snprintf(row->claim_first_bad, sizeof row->claim_first_bad, "%.96s source %ld: %.300s",
                 row->label, (long)r.setup.args.source, cbad);
    case_out(c, netspec, source, dist, async, &r, &v, nclaims, cbad[0] ? cbad : NULL);
    sim_async_free(as);
    cli_run_free(&r);
    return 0;
}

static void row_print(const Row *row)
{
    char steps[32], verified[32], valid[32], pred[48], cost[48], tcd[48];
    if (row->steps_min == row->steps_max)
        snprintf(steps, sizeof steps, "%ld", (long)row->steps_max);
    else
        snprintf(steps, sizeof steps, "%ld-%ld", (long)row->steps_min, (long)row->steps_max);
    snprintf(verified, sizeof verified, "%ld/%ld", (long)row->verified, (long)row->cases);
    snprintf(valid, sizeof valid, "%ld/%ld", (long)row->valid, (long)row->cases);
    export_format_double(row->cost, cost, sizeof cost);
    if (row->has_pred) {
        export_format_double(row->predicted, pred, sizeof pred);
        if (row->pred_mismatch)
            strcat(pred, "*");
    } else {
        snprintf(pred, sizeof pred, "-");
    }
    /* the TCD over the cases; '=' every one equals its closed form, '*' some differ */
    if (row->tcd_min == row->tcd_max)
        snprintf(tcd, sizeof tcd, "%lld", (long long)row->tcd_max);
    else
        snprintf(tcd, sizeof tcd, "%lld-%lld", (long long)row->tcd_min,
                 (long long)row->tcd_max);
    if (row->tcd_bad)
        strcat(tcd, "*");
    else if (row->tcd_pred == row->cases && row->cases > 0)
        strcat(tcd, "=");
    printf("%-*s %7ld %9s %9s %6s %5ld %9lld %14s %14s %8s\n", label_width, row->label,
           (long)row->cases,
           verified, valid, steps, (long)row->load, (long long)row->conflicts, cost, pred, tcd);
    if (row->tcd_bad)
        printf("  TCD differs from its closed form from %ld source%s; the first: %s\n",
               (long)row->tcd_bad, row->tcd_bad == 1 ? "" : "s", row->tcd_first_bad);
}

/* One row: a net under one timing, over its sources (or one distribution).  Returns 0 all
 * valid, 1 some case not, 2 a script error (c->err). */
static int check_row(Ctx *c, const Net *net, bool async, const char *dist, Row *row)
{
    const CheckOpts *o = c->o;
    memset(row, 0, sizeof *row);
    row->steps_min = INT32_MAX;
    snprintf(row->label, sizeof row->label, "%s%s%s%s%s", net_spec(net),
             o->timing_given ? " " : "", o->timing_given ? (async ? "async" : "lockstep") : "",
             dist ? " " : "", dist ? dist : "");
    int32_t n = net_size(net);
    int rc;
    if (dist || o->source || c->goal) {
        rc = check_case(c, net_spec(net), o->source, dist, async, row);
    } else {
        /* big nets: every source would take long; a sample spread over the net unless
         * told, within the work budget */
        int32_t nsrc = sources_for(o, n);
        rc = 0;
        for (int32_t i = 0; i < nsrc && rc == 0 && !cli_out_failed(); i++) {
            int32_t s = nsrc == n ? i : (int32_t)((int64_t)i * n / nsrc);
            char src[24];
            snprintf(src, sizeof src, "%ld", (long)s);
            rc = check_case(c, net_spec(net), src, NULL, async, row);
        }
    }
    if (rc)
        return rc;
    return row->valid == row->cases && row->claims_bad == 0 ? 0 : 1;
}

/* Is the net of a kind the algorithm claims (else a usage error with an explicit --net)? */
static bool claims(const Ctx *c, const Net *net)
{
    if (c->goal)
        return true;
    if (c->script)
        return c->script->nets & (1u << net_kind(net));
    return algo_find(c->d->name, net) != NULL;
}

/* A lesson file: a .lua whose text has a `pages =` field (an algorithm script has none). */
static bool looks_like_lesson(const char *file)
{
    size_t n = strlen(file);
    if (n < 5 || strcmp(file + n - 4, ".lua") != 0)
        return false;
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    static char text[1 << 20];
    size_t k = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[k] = '\0';
    for (const char *p = text; (p = strstr(p, "pages")); p += 5) {
        const char *q = p + 5;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '=' && q[1] != '=' && (p == text || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))))
            return true;
    }
    return false;
}

/* `meshcast check LESSON.lua`: the lesson loaded and checked against the engine
 * (lesson-check.h): every page's step, every try task. */
static int check_lesson(const char *file)
{
    char err[1024], q[160];
    Lesson *l = lesson_load(file, err, sizeof err);
    if (!l) {
        cli_error("check: %s", err);
        return 2;
    }
    printf("check %s: lesson \"%s\", %zu pages: every page's broadcast builds, its step "
           "exists and its try task is reachable\n", text_quote(file, 150, q, sizeof q),
           lesson_title(l), lesson_npages(l));
    lesson_free(l);
    return 0;
}

/* `meshcast check COURSE-FILE`: every lesson it names is found and passes check_lesson's
 * checks (course.h). */
static int check_course(const char *file)
{
    char err[1200], q[160];
    Course *c = course_load(file, err, sizeof err);
    if (!c || !course_check(c, err, sizeof err)) {
        cli_error("check: %s", err);
        course_free(c);
        return 2;
    }
    const char *names[COURSE_MAXLESSONS];
    size_t track[COURSE_MAXLESSONS], n = course_order(c, names, track, COURSE_MAXLESSONS), k = 0;
    while (k < n && track[k] < course_ntracks(c)) k++;
    printf("check %s: course of %zu tracks, %zu lessons: every lesson is found and checks\n",
           text_quote(file, 150, q, sizeof q), course_ntracks(c), k);
    course_free(c);
    return 0;
}

/* The algorithm to check: a GOAL file (read for the first net given), a script or a built-in
 * name; NULL with a message in err.  *owned: what the caller releases (algo_release). */
static const AlgoDef *check_load(const CheckOpts *o, AlgoDef **owned, bool goal, char *err,
                                 size_t errlen)
{
    *owned = NULL;
    if (!goal)
        return script_algo(o->file, NULL, owned, err, errlen);
    /* a GOAL file is read for each net (as many nodes as ranks) */
    Net *n0 = o->nnets ? net_parse(o->nets[0], err, errlen) : NULL;
    if (!o->nnets)
        snprintf(err, errlen, "a GOAL file needs --net (as many nodes as ranks)");
    const AlgoDef *d = n0 ? *owned = goal_algo(o->file, n0, NULL, err, errlen) : NULL;
    net_free(n0);
    return d;
}

/* The default nets: the sweep over the kinds the algorithm claims (a built-in name: every def
 * of that name), written into specs; their count. */
static int check_sweep(const AlgoDef *d, const AlgoDef *owned, const char **nets,
                       char (*specs)[32])
{
    int nn = 0;
    unsigned kinds = d->nets;
    if (!owned) /* a built-in name: every def of that name */
        for (size_t i = 0; i < algo_count(); i++)
            if (strcmp(algo_at(i)->name, d->name) == 0)
                kinds |= algo_at(i)->nets;
    for (int k = NET_ARRAY; k < NET_NKINDS; k++) {
        if (!(kinds & (1u << k)))
            continue;
        bool line = k == NET_ARRAY || k == NET_RING || k == NET_FULL;
        const char *const *sw = line ? sweep_array : k == NET_MESH ? sweep_mesh : sweep_torus;
        size_t nsw = line ? sizeof sweep_array / sizeof *sweep_array
                     : k == NET_MESH ? sizeof sweep_mesh / sizeof *sweep_mesh
                                     : sizeof sweep_torus / sizeof *sweep_torus;
        for (size_t j = 0; j < nsw && nn < CHECK_MAXNETS * 2; j++) {
            snprintf(specs[nn], sizeof specs[nn], "%s:%s", net_kind_name((NetKind)k),
                     sw[j]);
            nets[nn] = specs[nn];
            nn++;
        }
    }
    return nn;
}

/* The report's head: the JSON document opened, the CSV header, or the title and columns. */
static void check_begin(Ctx *c)
{
    const CheckOpts *o = c->o;
    char qfile[160], qname[80], qsummary[320];
    if (o->json) {
        json_init(&c->j, stdout, false);
        json_begin_object(&c->j);
        json_key(&c->j, "check"); json_str(&c->j, o->file);
        json_key(&c->j, "algo"); json_str(&c->j, c->d->name);
        json_key(&c->j, "model"); json_str(&c->j, o->model ? o->model : "seidel");
        json_key(&c->j, "reduction"); json_bool(&c->j, c->d->flags & ALGO_REDUCE);
        json_key(&c->j, "cases");
        json_begin_array(&c->j);
    } else if (o->csv) {
        printf("net,source,sources,timing,verified,valid,rule,where,steps,transfers,load,"
               "conflicts,cost,predicted,difference,tcd\n");
    } else {
        printf("check %s: %s%s%s\n", text_quote(o->file, 150, qfile, sizeof qfile),
               text_quote(c->d->name, 70, qname, sizeof qname),
               c->d->summary && *c->d->summary ? " — " : "",
               text_quote(c->d->summary, 300, qsummary, sizeof qsummary));
        if (c->d->flags & ALGO_REDUCE)
            printf("a reduction (op = \"reduce\"): verified = the root ends with every node's "
                   "contribution to every chunk exactly once\n");
        size_t dw = 0;
        for (int i = 0; i < o->ndists; i++)
            if (strlen(o->dists[i]) + 1 > dw)
                dw = strlen(o->dists[i]) + 1;
        label_width = 14 + (o->timing_given ? 9 : 0) + (int)(dw < 40 ? dw : 40);
        printf("%-*s %7s %9s %9s %6s %5s %9s %14s %14s %8s\n", label_width, "net", "cases",
               "verified",
               "valid", "steps", "load", "conflicts", "cost", "predicted", "tcd");
    }
}

/* What cmd_check tallies over the nets: the exit status, counts, what the summary lists. */
typedef struct {
    int status, nets_ok, nets_run, nskipped, sampled, nfails;
    char fails[CHECK_MAXNETS * 4][900];
    char samples[CHECK_MAXNETS * 2][80];
    char skipped[CHECK_MAXNETS * 2][2][256];
} Tally;

/* One net: skipped if the algorithm does not claim it (an error when it was given) or refuses
 * its size; else a row per timing and distribution, tallied in T (T->status 2: stop). */
static void check_net(Ctx *c, Tally *T, const char *spec, bool explicit_nets,
                      const AlgoDef *owned)
{
    char err[1024];
    bool goal = c->goal;
    Net *net = net_parse(spec, err, sizeof err);
    if (!net) {
        cli_error("check: %s", err);
        T->status = 2;
        return;
    }
    if (!claims(c, net)) {
        if (explicit_nets) {
            char why[64];
            snprintf(why, sizeof why, "a %s", net_kind_name(net_kind(net)));
            cli_error("check: %s does not run on %s", c->d->name, owned ? why : net_spec(net));
            T->status = 2;
        }
        net_free(net);
        return;
    }
    /* a size the algorithm refuses (a script's `sizes`): skipped, with its reason */
    const CheckOpts *o = c->o;
    SetupSpec probe = {.net = spec, .algo = o->file, .bytes = o->bytes, .model = o->model,
                       .sets = o->sets, .nsets = (size_t)o->nsets, .profile = o->profile,
                       .op = o->op};
    Setup su;
    bool refused;
    if (!setup_make_def(&probe, owned, &su, &refused, err, sizeof err)) {
        if (!refused) {
            cli_error("check: %s", err);
            T->status = 2;
        } else {
            skipped_out(c, net_spec(net), err);
            if (T->nskipped < CHECK_MAXNETS * 2) {
                snprintf(T->skipped[T->nskipped][0], sizeof T->skipped[0][0], "%s",
                         net_spec(net));
                snprintf(T->skipped[T->nskipped][1], sizeof T->skipped[0][1], "%.250s", err);
            }
            T->nskipped++;
        }
        net_free(net);
        return;
    }
    setup_free(&su);
    T->nets_run++;
    bool net_ok = true;
    int32_t nsrc = 0;
    for (int tm = 0; tm < 2 && T->status != 2; tm++) {
        if (!c->o->timing[tm])
            continue;
        for (int k = 0; k < (c->o->ndists ? c->o->ndists : 1) && T->status != 2; k++) {
            Row row;
            int rc = check_row(c, net, tm == 1, c->o->ndists ? c->o->dists[k] : NULL, &row);
            if (rc == 2) {
                if (!c->o->json && !c->o->csv)
                    printf("%-*s ERROR\n", label_width, row.label);
                fflush(stdout);
                cli_error("check: %s", c->err);
                T->status = 2;
                break;
            }
            nsrc = row.cases;
            if (!c->o->json && !c->o->csv)
                row_print(&row);
            if (rc == 1) {
                net_ok = false;
                if (T->status == 0)
                    T->status = 1;
                if (T->nfails < CHECK_MAXNETS * 4 && row.first_fail[0])
                    snprintf(T->fails[T->nfails++], sizeof T->fails[0], "%s", row.first_fail);
                if (T->nfails < CHECK_MAXNETS * 4 && row.claims_bad)
                    snprintf(T->fails[T->nfails++], sizeof T->fails[0], "CLAIM %s (%ld of %ld "
                             "cases)", row.claim_first_bad, (long)row.claims_bad,
                             (long)row.cases);
            }
        }
    }
    /* a GOAL file fixes its own source: nothing was sampled */
    if (!goal && !c->o->source && !c->o->ndists && nsrc < net_size(net) &&
        T->sampled < CHECK_MAXNETS * 2)
        snprintf(T->samples[T->sampled++], sizeof T->samples[0], "%s from %ld of %ld sources",
                 net_spec(net), (long)nsrc, (long)net_size(net));
    T->nets_ok += net_ok;
    net_free(net);
}

/* The report's end: the JSON document closed (even after an error), or the failures, the
 * samples, the identical built-ins and the count of nets that held. */
static void check_summary(Ctx *c, const Tally *T)
{
    const CheckOpts *o = c->o;
    char err[1024];
    if (o->json) {   /* one JSON document even after an error (then exit 2, said on stderr) */
        json_end_array(&c->j);
        json_key(&c->j, "skipped");
        json_begin_array(&c->j);
        for (int i = 0; i < T->nskipped && i < CHECK_MAXNETS * 2; i++) {
            json_begin_object(&c->j);
            json_key(&c->j, "net"); json_str(&c->j, T->skipped[i][0]);
            json_key(&c->j, "reason"); json_str(&c->j, T->skipped[i][1]);
            json_end_object(&c->j);
        }
        json_end_array(&c->j);
        json_key(&c->j, "identical");
        json_begin_array(&c->j);
        for (int i = 0; i < c->nsame; i++) {
            json_begin_object(&c->j);
            json_key(&c->j, "algo"); json_str(&c->j, c->same_name[i]);
            json_key(&c->j, "nets"); json_str(&c->j, c->same_nets[i]);
            json_end_object(&c->j);
        }
        json_end_array(&c->j);
        json_key(&c->j, "summary");
        json_begin_object(&c->j);
        json_key(&c->j, "cases"); json_int(&c->j, c->ncases);
        json_key(&c->j, "valid"); json_int(&c->j, c->nok);
        json_key(&c->j, "invalid"); json_int(&c->j, c->ncases - c->nok);
        json_key(&c->j, "nets"); json_int(&c->j, T->nets_run);
        json_key(&c->j, "nets_valid"); json_int(&c->j, T->nets_ok);
        json_key(&c->j, "skipped"); json_int(&c->j, T->nskipped);
        json_key(&c->j, "exit"); json_int(&c->j, T->status);
        json_end_object(&c->j);
        json_end_object(&c->j);
        printf("\n");
    } else if (!o->csv && T->status != 2) {
        for (int i = 0; i < T->nfails; i++)
            printf("FAIL %s\n", text_quote(T->fails[i], sizeof T->fails[i], err, sizeof err));
        for (int i = 0; i < T->sampled; i++)
            printf("sampled: %s\n", T->samples[i]);
        for (int i = 0; i < c->nsame; i++)
            printf("identical to the built-in `%s` (the same schedule from the first source) "
                   "on %s\n", c->same_name[i], c->same_nets[i]);
        printf("%d of %d nets verified and valid in every case%s%s%s\n", T->nets_ok, T->nets_run,
               T->sampled ? " tried (on big nets a sample of sources, spread over the net; "
                         "--max-sources N to change)"
                       : "",
               T->nskipped ? "; skipped " : "", T->nskipped ? "sizes it does not run on" : "");
    }
}

int cmd_check(int argc, char **argv)
{
    CheckOpts o;
    int r = parse_opts(argc, argv, &o);
    if (r)
        return r < 0 ? 0 : r;
    if (looks_like_lesson(o.file))
        return check_lesson(o.file);
    if (course_is_file(o.file))
        return check_course(o.file);

    char err[1024];
    AlgoDef *owned = NULL;
    bool goal = goal_is_path(o.file);
    const AlgoDef *d = check_load(&o, &owned, goal, err, sizeof err);
    if (!d) {
        cli_error("check: %s", err);
        return 2;
    }
    Ctx c = {.o = &o, .d = d, .script = goal ? NULL : owned, .goal = goal};
    /* The nets: given, or the default sweep over the kinds the algorithm claims. */
    const char *nets[CHECK_MAXNETS * 2];
    char specs[CHECK_MAXNETS * 2][32];
    int nn = 0;
    bool explicit_nets = o.nnets > 0;
    if (explicit_nets) {
        for (int i = 0; i < o.nnets; i++)
            nets[nn++] = o.nets[i];
    } else {
        nn = check_sweep(d, owned, nets, specs);
    }
    if (!within_budget(&o, nets, nn, err, sizeof err)) {
        cli_error("check: %s", err);
        algo_release(owned);
        return 2;
    }
    check_begin(&c);
    Tally T = {0};
    for (int i = 0; i < nn && !cli_out_failed() && T.status != 2; i++)
        check_net(&c, &T, nets[i], explicit_nets, owned);
    if (T.status != 2 && T.nets_run == 0) {
        cli_error("check: %s runs on none of the nets tried", d->name);
        T.status = 2;
    }
    check_summary(&c, &T);
    algo_release(owned);
    return cli_out_finish(T.status);
}
