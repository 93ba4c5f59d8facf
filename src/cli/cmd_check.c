/* cmd_check.c — `meshcast check FILE.lua [--net SPEC]...`: verify a scripted (or built-in)
 * algorithm over a sweep of sizes and every source.
 *
 * For each net (the --net ones, or a default sweep over the kinds the script claims) and each
 * source node: build, simulate, verify.  One table row per net: sources tried, how many
 * verified, and the worst over sources of steps, max link load, port conflicts, cost and the
 * closed form.  Under the table, the first failure of each failing net, exactly
 * ("mesh:4x4 source 5: step 2: node 5 sends chunk 3 it does not hold").
 *
 * Exit: 0 every run verified; 1 some run not verified; 2 usage error, a script that cannot be
 * loaded, or a script error while building.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../algos/goal/goal.h"
#include "../engine/cost.h"
#include "../engine/num.h"
#include "../engine/reduce.h"
#include "../engine/sim.h"
#include "../engine/text.h"
#include "../script/script.h"
#include "../script/setup.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"

#define CHECK_MAXNETS 64
#define CHECK_MAXSETS 32
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
         "                      [--set K=V]... [--max-sources N]\n"
         "Builds, simulates and verifies the algorithm on every source of each net (the --net\n"
         "ones, or a sweep of sizes over the kinds it claims) and prints one row per net:\n"
         "sources, verified, and the worst over sources of steps, max link load, port\n"
         "conflicts, cost and the closed form (* where it differs).  Under it, each failing\n"
         "net's first failure.  Nets over 256 nodes are checked from a sample of sources\n"
         "spread over the net: 64, and fewer on big nets so that nodes x sources stays\n"
         "within 4194304 (4 sources on 1M nodes, 1 from 4M on); --max-sources N sets the\n"
         "sample instead.  The sources column says how many were checked.\n"
         "Exit: 0 all verified, 1 some not verified, 2 usage or script error.");
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
    uint64_t bytes;
    bool bytes_given;
    CostModel model;
    long max_sources;
} CheckOpts;

static int parse_opts(int argc, char **argv, CheckOpts *o)
{
    memset(o, 0, sizeof *o);
    o->bytes = 1024;
    o->model = COST_SEIDEL;
    o->max_sources = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[32];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            check_help();
            return -1;
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
                                                "--max-sources"};
            bool is_known = false;
            for (size_t k = 0; k < sizeof known / sizeof *known; k++)
                is_known |= strcmp(name, known[k]) == 0;
            if (!is_known) {
                char m[96];
                snprintf(m, sizeof m, "unknown option '%s'", name);
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
            if (strcmp(name, "--net") == 0) {
                if (o->nnets == CHECK_MAXNETS)
                    return usage("too many --net");
                o->nets[o->nnets++] = val;
            } else if (strcmp(name, "--set") == 0) {
                if (o->nsets == CHECK_MAXSETS)
                    return usage("too many --set");
                o->sets[o->nsets++] = val;
            } else if (strcmp(name, "--bytes") == 0) {
                const char *why = setup_bytes_problem(val, &o->bytes);
                o->bytes_given = true;
                if (why) {
                    char m[160], q[48];
                    snprintf(m, sizeof m, "bad --bytes '%s': %s", text_quote(val, 40, q, sizeof q),
                             why);
                    return usage(m);
                }
            } else if (strcmp(name, "--model") == 0) {
                if (!cost_model_parse(val, &o->model)) {
                    char m[128];
                    snprintf(m, sizeof m, "unknown model '%s' (seidel, postal, circuit, saf)",
                             val);
                    return usage(m);
                }
            } else if (strcmp(name, "--max-sources") == 0) {
                uint64_t v = 0;
                NumStatus ns = num_u64(val, &v, NULL);   /* num.h's one rule */
                char m[128], q[48];
                text_quote(val, 40, q, sizeof q);
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
            } else {
                char m[96];
                snprintf(m, sizeof m, "unknown option '%s'", name);
                return usage(m);
            }
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
    return 0;
}

/* Apply --set K=V to cost params and algorithm args, as setup.h describes. */
static bool apply_sets(const CheckOpts *o, const AlgoDef *d, AlgoArgs *a, CostParams *p,
                       char *err, size_t errlen)
{
    for (int i = 0; i < o->nsets; i++) {
        const char *eq = strchr(o->sets[i], '=');
        if (!eq || eq == o->sets[i]) {
            snprintf(err, errlen, "bad --set '%s' (K=V)", o->sets[i]);
            return false;
        }
        char k[64];
        size_t n = (size_t)(eq - o->sets[i]);
        if (n >= sizeof k) {
            snprintf(err, errlen, "bad --set '%s'", o->sets[i]);
            return false;
        }
        memcpy(k, o->sets[i], n);
        k[n] = '\0';
        const char *v = eq + 1;
        bool known = false;
        if (cost_is_param(k)) {
            if (!cost_set(p, k, v, err, errlen))
                return false;
            known = true;
            if (strcmp(k, "nu") == 0)
                a->nu = p->nu;
        }
        int r = algo_args_set(a, d, k, v, err, errlen);
        if (r == -2)
            return false;
        if (r == 0)
            known = true;
        if (!known) {
            snprintf(err, errlen, "--set %s: '%s' is neither a cost parameter nor a parameter "
                     "of %s", o->sets[i], k, d->name);
            return false;
        }
    }
    return true;
}

typedef struct {
    int32_t sources, verified;
    int32_t steps_min, steps_max, load;
    int64_t conflicts;
    double cost, predicted;
    bool has_pred, pred_mismatch;
    int64_t tcd_min, tcd_max;            /* Cang & Wu: the TCD over the sources, */
    int32_t tcd_pred, tcd_bad;           /* sources with a closed form of it, disagreeing */
    char tcd_first_bad[160];
    char first_fail[512];
    char script_error[1024];
} Row;

static void first_failure(const Sim *sim, char *buf, size_t len)
{
    for (size_t i = 0; i < sim_nviolations(sim); i++) {
        const SimViolation *v = sim_violation(sim, i);
        if (v->kind == SIM_V_NOT_HELD || v->kind == SIM_V_INCOMPLETE) {
            sim_violation_text(sim, v, buf, len);
            return;
        }
    }
    snprintf(buf, len, "not verified");
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

/* Run every source of one net.  Returns 0 all verified, 1 some not, 2 a script error, 3 the
 * algorithm does not run on this net (message in row->first_fail). */
static int check_net(const CheckOpts *o, const AlgoDef *d, const Net *net, Row *row)
{
    memset(row, 0, sizeof *row);
    row->steps_min = INT32_MAX;
    AlgoArgs a;
    CostParams p;
    char err[1024];
    algo_args_init(&a, d);
    a.bytes = o->bytes;
    cost_defaults(&p, o->model);
    if (!apply_sets(o, d, &a, &p, err, sizeof err)) {
        snprintf(row->script_error, sizeof row->script_error, "%s", err);
        return 4;
    }
    int32_t n = net_size(net);
    /* big nets: every source would take long; a sample spread over the net unless told,
     * within the work budget */
    int32_t nsrc = sources_for(o, n);
    a.source = 0;
    bool goal = goal_is_algo(d);   /* a GOAL file: its own source (and bytes, unless given) */
    if (goal) {
        nsrc = 1;
        a.source = goal_algo_source(d);
        if (!o->bytes_given)
            a.bytes = goal_algo_bytes(d);
    }
    if (!algo_check(d, net, &a, err, sizeof err)) {
        snprintf(row->first_fail, sizeof row->first_fail, "%.480s", err);
        return 3;
    }
    int rc = 0;
    for (int32_t src = 0; src < nsrc; src++) {
        /* with --max-sources, spread the sources over the net */
        int32_t s = goal ? a.source : nsrc == n ? src : (int32_t)((int64_t)src * n / nsrc);
        a.source = s;
        row->sources++;
        Sched *sc = algo_build(d, net, &a, err, sizeof err);
        if (!sc) {
            snprintf(row->script_error, sizeof row->script_error, "%s source %ld: %.900s",
                     net_spec(net), (long)s, err);
            return 2;
        }
        Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
        if (!sim) {
            sched_free(sc);
            snprintf(row->script_error, sizeof row->script_error, "%s source %ld: %.900s",
                     net_spec(net), (long)s, err);
            return 2;
        }
        const SimTotals *t = sim_totals(sim);
        /* a script's own reduction (op = "reduce"): the root must end with every node's
         * contribution to every chunk exactly once (reduce.h) */
        Reduce *rd = NULL;
        if (d->flags & ALGO_REDUCE) {
            rd = reduce_run(sc, s, p.gamma, err, sizeof err);
            if (!rd) {
                sim_free(sim);
                sched_free(sc);
                snprintf(row->script_error, sizeof row->script_error, "%s source %ld: %.900s",
                         net_spec(net), (long)s, err);
                return 2;
            }
        }
        bool ok = t->verified && (!rd || reduce_verified(rd));
        if (ok)
            row->verified++;
        else if (!row->first_fail[0]) {
            char v[400];
            if (rd && t->verified)
                reduce_violation_text(rd, reduce_violation(rd, 0), v, sizeof v);
            else
                first_failure(sim, v, sizeof v);
            snprintf(row->first_fail, sizeof row->first_fail, "%s source %ld: %.900s",
                     net_spec(net), (long)s, v);
            rc = 1;
        }
        if (t->nsteps < row->steps_min)
            row->steps_min = t->nsteps;
        if (t->nsteps > row->steps_max)
            row->steps_max = t->nsteps;
        if (t->max_link_load > row->load)
            row->load = t->max_link_load;
        if (t->port_conflicts > row->conflicts)
            row->conflicts = t->port_conflicts;
        if (t->cost.total > row->cost)
            row->cost = t->cost.total;
        if (row->sources == 1 || t->tcd < row->tcd_min)
            row->tcd_min = t->tcd;
        if (t->tcd > row->tcd_max)
            row->tcd_max = t->tcd;
        double ptcd;
        if (algo_predict_tcd(d, net, &a, &ptcd)) {
            row->tcd_pred++;
            if (ptcd != (double)t->tcd && row->tcd_bad++ == 0)
                snprintf(row->tcd_first_bad, sizeof row->tcd_first_bad,
                         "%s source %ld: TCD %lld simulated, %.0f predicted", net_spec(net),
                         (long)s, (long long)t->tcd, ptcd);
        }
        double pr;
        bool has_pr = algo_predict(d, net, &a, &p, &pr);
        if (!has_pr && algo_predict_error(d)) {   /* predict raised: a script error */
            snprintf(row->script_error, sizeof row->script_error, "%s source %ld: %.900s",
                     net_spec(net), (long)s, algo_predict_error(d));
            reduce_free(rd);
            sim_free(sim);
            sched_free(sc);
            return 2;
        }
        if (has_pr) {
            if (!row->has_pred || pr > row->predicted)
                row->predicted = pr;
            row->has_pred = true;
            if (fabs(pr - t->cost.total) > 1e-9 * fmax(1.0, fabs(pr)))
                row->pred_mismatch = true;
        }
        reduce_free(rd);
        sim_free(sim);
        sched_free(sc);
    }
    return rc;
}

int cmd_check(int argc, char **argv)
{
    CheckOpts o;
    int r = parse_opts(argc, argv, &o);
    if (r)
        return r < 0 ? 0 : r;

    char err[1024];
    AlgoDef *owned = NULL;
    const AlgoDef *d = NULL;
    if (goal_is_path(o.file)) {   /* a GOAL file is read for each net (its ranks on it) */
        Net *n0 = o.nnets ? net_parse(o.nets[0], err, sizeof err) : NULL;
        if (!o.nnets)
            snprintf(err, sizeof err, "a GOAL file needs --net (as many nodes as ranks)");
        d = n0 ? owned = goal_algo(o.file, n0, NULL, err, sizeof err) : NULL;
        net_free(n0);
    } else {
        d = script_algo(o.file, NULL, &owned, err, sizeof err);
    }
    if (!d) {
        cli_error("check: %s", err);
        return 2;
    }
    /* The nets: given, or the default sweep over the kinds the algorithm claims. */
    const char *nets[CHECK_MAXNETS * 2];
    char specs[CHECK_MAXNETS * 2][32];
    int nn = 0;
    bool explicit_nets = o.nnets > 0;
    if (explicit_nets) {
        for (int i = 0; i < o.nnets; i++)
            nets[nn++] = o.nets[i];
    } else {
        unsigned kinds = d->nets;
        if (!owned) /* a built-in name: every def of that name */
            for (size_t i = 0; i < algo_count(); i++)
                if (strcmp(algo_at(i)->name, d->name) == 0)
                    kinds |= algo_at(i)->nets;
        for (int k = NET_ARRAY; k < NET_NKINDS; k++) {
            if (!(kinds & (1u << k)))
                continue;
            const char *const *sw = k == NET_ARRAY || k == NET_RING || k == NET_FULL
                                        ? sweep_array
                                    : k == NET_MESH                 ? sweep_mesh
                                                                    : sweep_torus;
            size_t nsw = k == NET_ARRAY || k == NET_RING || k == NET_FULL ? sizeof sweep_array / sizeof *sweep_array
                         : k == NET_MESH ? sizeof sweep_mesh / sizeof *sweep_mesh
                                         : sizeof sweep_torus / sizeof *sweep_torus;
            for (size_t j = 0; j < nsw && nn < CHECK_MAXNETS * 2; j++) {
                snprintf(specs[nn], sizeof specs[nn], "%s:%s", net_kind_name((NetKind)k),
                         sw[j]);
                nets[nn] = specs[nn];
                nn++;
            }
        }
    }

    if (!within_budget(&o, nets, nn, err, sizeof err)) {
        cli_error("check: %s", err);
        algo_release(owned);
        return 2;
    }
    char qfile[160], qname[80], qsummary[320];
    printf("check %s: %s%s%s\n", text_quote(o.file, 150, qfile, sizeof qfile),
           text_quote(d->name, 70, qname, sizeof qname),
           d->summary && *d->summary ? " — " : "", text_quote(d->summary, 300, qsummary,
                                                            sizeof qsummary));
    if (d->flags & ALGO_REDUCE)
        printf("a reduction (op = \"reduce\"): verified = the root ends with every node's "
               "contribution to every chunk exactly once\n");
    printf("%-14s %7s %9s %6s %5s %9s %12s %12s %12s\n", "net", "sources", "verified", "steps",
           "load", "conflicts", "cost", "predicted", "tcd");
    int status = 0, nets_ok = 0, nets_run = 0, skipped = 0, sampled = 0;
    char fails[CHECK_MAXNETS * 2][512];
    char samples[CHECK_MAXNETS * 2][80];
    int nfails = 0;
    for (int i = 0; i < nn && !cli_out_failed(); i++) {
        Net *net = net_parse(nets[i], err, sizeof err);
        if (!net) {
            cli_error("check: %s", err);
            status = 2;
            break;
        }
        const AlgoDef *dn = d;
        AlgoDef *goal_def = NULL;
        if (goal_is_algo(d) && i > 0) {
            goal_def = goal_algo(o.file, net, NULL, err, sizeof err);
            if (!goal_def) {
                cli_error("check: %s", err);
                status = 2;
                net_free(net);
                break;
            }
            dn = goal_def;
        }
        if (!owned) {
            dn = algo_find(d->name, net);
            if (!dn) {
                if (explicit_nets) {
                    cli_error("check: %s does not run on %s", d->name,
                            net_spec(net));
                    status = 2;
                    net_free(net);
                    break;
                }
                net_free(net);
                continue;
            }
        }
        Row row;
        int rc = check_net(&o, dn, net, &row);
        algo_release(goal_def);
        if (rc == 4) {
            cli_error("check: %s", row.script_error);
            status = 2;
            net_free(net);
            break;
        }
        if (rc == 3) {
            if (explicit_nets) {
                cli_error("check: %s", row.first_fail);
                status = 2;
                net_free(net);
                break;
            }
            printf("%-14s skipped: %s\n", net_spec(net),
                   text_quote(row.first_fail, sizeof row.first_fail, err, sizeof err));
            skipped++;
            net_free(net);
            continue;
        }
        if (rc == 2) {
            printf("%-14s ERROR\n", net_spec(net));
            fflush(stdout);
            cli_error("check: %s", row.script_error);
            status = 2;
            net_free(net);
            break;
        }
        nets_run++;
        if (row.sources < net_size(net) && sampled < CHECK_MAXNETS * 2)
            snprintf(samples[sampled++], sizeof samples[0], "%s from %ld of %ld sources",
                     net_spec(net), (long)row.sources, (long)net_size(net));
        char steps[32], verified[32], pred[32], cost[32];
        if (row.steps_min == row.steps_max)
            snprintf(steps, sizeof steps, "%ld", (long)row.steps_max);
        else
            snprintf(steps, sizeof steps, "%ld-%ld", (long)row.steps_min, (long)row.steps_max);
        snprintf(verified, sizeof verified, "%ld/%ld", (long)row.verified, (long)row.sources);
        snprintf(cost, sizeof cost, "%.6g", row.cost);
        if (row.has_pred)
            snprintf(pred, sizeof pred, "%.6g%s", row.predicted, row.pred_mismatch ? "*" : "");
        else
            snprintf(pred, sizeof pred, "-");
        /* the TCD over the sources; '=' every one equals its closed form, '*' some differ */
        char tcd[48];
        if (row.tcd_min == row.tcd_max)
            snprintf(tcd, sizeof tcd, "%lld", (long long)row.tcd_max);
        else
            snprintf(tcd, sizeof tcd, "%lld-%lld", (long long)row.tcd_min,
                     (long long)row.tcd_max);
        if (row.tcd_bad)
            snprintf(tcd + strlen(tcd), sizeof tcd - strlen(tcd), "*");
        else if (row.tcd_pred == row.sources && row.sources > 0)
            snprintf(tcd + strlen(tcd), sizeof tcd - strlen(tcd), "=");
        printf("%-14s %7ld %9s %6s %5ld %9lld %12s %12s %12s\n", net_spec(net),
               (long)row.sources, verified, steps, (long)row.load, (long long)row.conflicts, cost,
               pred, tcd);
        if (row.tcd_bad)
            printf("  TCD differs from its closed form from %ld source%s; the first: %s\n",
                   (long)row.tcd_bad, row.tcd_bad == 1 ? "" : "s", row.tcd_first_bad);
        if (rc == 1) {
            if (status == 0)
                status = 1;
            snprintf(fails[nfails++], sizeof fails[0], "%s", row.first_fail);
        } else {
            nets_ok++;
        }
        net_free(net);
    }
    if (status != 2) {
        for (int i = 0; i < nfails; i++)
            printf("FAIL %s\n", text_quote(fails[i], sizeof fails[i], err, sizeof err));
        for (int i = 0; i < sampled; i++)
            printf("sampled: %s\n", samples[i]);
        printf("%d of %d nets verified from every source%s%s%s\n", nets_ok, nets_run,
               sampled ? " tried (on big nets a sample of sources, spread over the net; "
                         "--max-sources N to change)"
                       : "",
               skipped ? "; skipped " : "", skipped ? "some sizes it does not run on" : "");
        if (nets_run == 0 && status == 0) {
            cli_error("check: %s runs on none of the nets tried", d->name);
            status = 2;
        }
    }
    algo_release(owned);
    return cli_out_finish(status);
}
