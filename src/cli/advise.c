/* advise.c — `meshcast advise`: the fastest built-in broadcast for a net, a message size and
 * a cost model (or a calibrated profile), found by simulation: every algorithm that runs on
 * the net, over a grid of its pipelining parameters (s, r, B: powers of two in their range,
 * and "auto" where allowed), built, verified and priced; the winner, its parameters and the
 * margin to the best other algorithm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/sim.h"
#include "../script/setup.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"
#include "exec-launch.h"
#include "../engine/schedbin.h"

#define ADV_GRID 12        /* values per swept parameter */
#define ADV_MAXVAR 256     /* variants per algorithm */

typedef struct {
    const AlgoDef *def;
    AlgoArgs args;
    double cost;
    bool found;
    long tried;
} Best;

static void advise_help(void)
{
    puts("usage: meshcast advise --net SPEC [--bytes M] [--source ID] [--model M]\n"
         "                       [--set K=V]... [--profile NAME] [--json]\n"
         "                       [--exec [--reps R] [--mpirun 'CMD'] [--timeout SEC]]\n"
         "The fastest built-in algorithm for this net, size and model by simulation: every\n"
         "algorithm that runs here, its s, r and B swept over powers of two, each verified\n"
         "and priced; prints the winner with its parameters and the margin to the runner-up.\n"
         "--exec runs both on MPI ranks (as meshcast exec) and says whether the measured\n"
         "winner agrees.");
}

static bool swept(const char *name)
{
    return !strcmp(name, "s") || !strcmp(name, "r") || !strcmp(name, "B");
}

/* The values tried for parameter i: powers of two in range (and auto). */
static int grid(const AlgoParam *p, double *v)
{
    int n = 0;
    if (p->min == ALGO_AUTO)
        v[n++] = ALGO_AUTO;
    double lo = p->min == ALGO_AUTO ? 1 : p->min;
    for (double x = 1; x <= p->max && n < ADV_GRID; x *= 2)
        if (x >= lo)
            v[n++] = x;
    return n;
}

static void try_one(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *cp,
                    Best *b)
{
    char err[256];
    b->tried++;
    if (!algo_check(d, net, a, err, sizeof err))
        return;
    Sched *s = algo_build(d, net, a, err, sizeof err);
    if (!s)
        return;
    Sim *sim = sim_run(s, cp, 0, err, sizeof err);
    if (sim) {
        const SimTotals *t = sim_totals(sim);
        if (t->verified && t->valid && isfinite(t->cost.total) &&
            (!b->found || t->cost.total < b->cost)) {
            b->found = true;
            b->cost = t->cost.total;
            b->def = d;
            b->args = *a;
        }
        sim_free(sim);
    }
    sched_free(s);
}

/* Every variant of d: the cross product of its swept parameters' grids (capped). */
static void sweep(const AlgoDef *d, const Net *net, const AlgoArgs *base, const CostParams *cp,
                  Best *b)
{
    double vals[ALGO_MAXPARAM][ADV_GRID];
    int nv[ALGO_MAXPARAM], idx[ALGO_MAXPARAM] = {0};
    long total = 1;
    for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++) {
        nv[i] = swept(d->params[i].name) ? grid(&d->params[i], vals[i]) : 0;
        if (nv[i] > 0)
            total *= nv[i];
    }
    if (total > ADV_MAXVAR || total <= 1) {   /* too many (or none): the defaults alone */
        try_one(d, net, base, cp, b);
        return;
    }
    for (long k = 0; k < total; k++) {
        AlgoArgs a = *base;
        long r = k;
        for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++)
            if (nv[i] > 0) {
                idx[i] = (int)(r % nv[i]);
                r /= nv[i];
                a.param[i] = vals[i][idx[i]];
            }
        try_one(d, net, &a, cp, b);
    }
}

static void params_text(const Best *b, char *buf, size_t len)
{
    char v[64];
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < b->def->nparams && i < ALGO_MAXPARAM && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", i ? " " : "", b->def->params[i].name,
                              b->args.param[i] == ALGO_AUTO
                                  ? "auto"
                                  : export_format_double(b->args.param[i], v, sizeof v));
    if (!buf[0])
        snprintf(buf, len, "(no parameters)");
}

/* advise's own options (--exec and its settings), taken out of argv. */
static int take_opts(int *argc, char **argv, ExecLaunch *l, bool *exec)
{
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--exec")) {
            *exec = true;
            continue;
        }
        bool reps = !strcmp(a, "--reps"), mpirun = !strcmp(a, "--mpirun"),
             tmo = !strcmp(a, "--timeout");
        if (!reps && !mpirun && !tmo) {
            argv[out++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc)
            return cli_usage_error("an advise option without its value");
        const char *v = argv[++i];
        char *end;
        if (mpirun) {
            l->mpirun = v;
        } else if (reps) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 100000)
                return cli_usage_error("--reps takes 1..100000");
            l->reps = (int)n;
        } else {
            l->timeout = strtod(v, &end);
            if (*end || !(l->timeout > 0 && l->timeout <= 86400))
                return cli_usage_error("--timeout takes seconds, 0 < SEC <= 86400");
        }
    }
    *argc = out;
    return -1;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Run b's schedule on MPI ranks: the median total in us, or -1 with the message printed. */
static double measure(const Best *b, const Net *net, ExecLaunch *l)
{
    char err[512];
    Sched *s = algo_build(b->def, net, &b->args, err, sizeof err);
    if (!s) {
        cli_error("advise: %s: %s", b->def->name, err);
        return -1;
    }
    ExecResult x;
    int rc = exec_launch(s, SCHEDBIN_BROADCAST, (uint32_t)b->args.source, l, &x, err,
                         sizeof err);
    sched_free(s);
    if (rc) {
        cli_error("advise: exec %s: %s", b->def->name, err);
        exec_result_free(&x);
        return -1;
    }
    qsort(x.total, (size_t)x.reps, sizeof *x.total, cmpd);
    double m = x.total[x.reps / 2] * 1e6;
    exec_result_free(&x);
    return m;
}

/* --set: cost parameters only (the algorithms' own are searched).  Returns 0, or the
 * usage error's exit status. */
static int apply_sets(const CliOpts *o, CostParams *cp)
{
    char err[256];
    for (size_t i = 0; i < o->nsets; i++) {
        const char *kv = o->sets[i], *eq = strchr(kv, '=');
        char name[64];
        if (!eq || (size_t)(eq - kv) >= sizeof name)
            return cli_usage_error("bad --set (a cost parameter NAME=VALUE)");
        snprintf(name, sizeof name, "%.*s", (int)(eq - kv), kv);
        if (!cost_is_param(name))
            return cli_usage_error("advise: --set takes cost parameters (the algorithms' own "
                                   "are searched)");
        if (!cost_set(cp, name, eq + 1, err, sizeof err))
            return cli_usage_error(err);
    }
    return 0;
}

/* The net, the cost parameters (model, profile, --set), the message size and the source
 * from the options.  Returns 0, or the usage error's exit status (*net may then be set). */
static int advise_setup(const CliOpts *o, Net **net, CostParams *cp, uint64_t *bytes,
                        int32_t *source)
{
    char err[256];
    CostModel model = COST_SEIDEL;
    if (!o->net)
        return cli_usage_error("advise needs --net SPEC");
    if (!(*net = net_parse(o->net, err, sizeof err)))
        return cli_usage_error(err);
    if (o->model && !cost_model_parse(o->model, &model))
        return cli_usage_error("unknown --model (seidel, postal, circuit, saf)");
    cost_defaults(cp, model);
    if (!setup_profile(o->profile, cp, err, sizeof err))
        return cli_usage_error(err);
    int rc = apply_sets(o, cp);
    if (rc)
        return rc;
    if (o->bytes) {
        char *end;
        unsigned long long v = strtoull(o->bytes, &end, 10);
        if (*end == 'K' || *end == 'M')
            v <<= *end++ == 'K' ? 10 : 20;
        if (*end || v < 1 || v > (1ull << 40))
            return cli_usage_error("bad --bytes (1..2^40; 1024, 64K, 1M)");
        *bytes = v;
    }
    if (o->source && (*source = net_parse_node(*net, o->source)) < 0)
        return cli_usage_error("bad --source for this net");
    return 0;
}

/* Every built-in that runs on the net, its parameters swept: best[i] the cheapest verified
 * and valid variant of the i-th.  Returns the schedules tried. */
static long search_all(const Net *net, const CostParams *cp, uint64_t bytes, int32_t source,
                       Best *best)
{
    char err[256];
    long tried = 0;
    for (size_t i = 0; i < algo_count(); i++) {
        const AlgoDef *d = algo_at(i);
        AlgoArgs a;
        algo_args_init(&a, d);
        a.source = source;
        a.bytes = bytes;
        a.nu = cp->nu;
        a.cost = *cp;
        a.fit = FIT_AUTO;
        if (!algo_check(d, net, &a, err, sizeof err))
            continue;
        sweep(d, net, &a, cp, &best[i]);
        tried += best[i].tried;
    }
    return tried;
}

/* What advise found, for printing. */
typedef struct {
    const Net *net;
    const CostParams *cp;
    const char *profile;
    uint64_t bytes;
    long tried;
    const Best *w, *r2;       /* the best and the runner-up (NULL: none) */
    double mw, mr;            /* measured on MPI ranks (us, medians); -1: not measured */
    int np, reps;
} Advice;

static void advice_json(const Advice *a, const char *p1, const char *p2, double margin)
{
    JsonOut j;
    json_init(&j, stdout, false);
    json_begin_object(&j);
    json_key(&j, "net");
    json_str(&j, net_spec(a->net));
    json_key(&j, "bytes");
    json_uint(&j, a->bytes);
    json_key(&j, "model");
    json_str(&j, cost_model_name(a->cp->model));
    json_key(&j, "tried");
    json_int(&j, a->tried);
    json_key(&j, "best");
    json_str(&j, a->w->def->name);
    json_key(&j, "params");
    json_str(&j, p1);
    json_key(&j, "cost");
    json_num(&j, a->w->cost);
    json_key(&j, "runner_up");
    json_str(&j, a->r2 ? a->r2->def->name : NULL);
    json_key(&j, "runner_up_params");
    json_str(&j, a->r2 ? p2 : NULL);
    json_key(&j, "runner_up_cost");
    json_num(&j, a->r2 ? a->r2->cost : NAN);
    json_key(&j, "margin_percent");
    json_num(&j, margin);
    if (a->mw >= 0) {   /* measured on MPI ranks (us, medians) */
        json_key(&j, "exec");
        json_begin_object(&j);
        json_key(&j, "best_measured");
        json_num(&j, a->mw);
        json_key(&j, "runner_up_measured");
        json_num(&j, a->mr);
        json_key(&j, "reps");
        json_int(&j, a->reps);
        json_key(&j, "agrees");
        json_bool(&j, a->mw <= a->mr);
        json_end_object(&j);
    }
    json_end_object(&j);
    fputc('\n', stdout);
}

static void advice_text(const Advice *a, const char *p1, const char *p2, double margin)
{
    char b1[64], b2[64], b3[64];
    const char *unit = cost_unit(a->cp->model);
    printf("%s, %llu bytes, model %s%s%s: %ld schedules built, verified and priced\n",
           net_spec(a->net), (unsigned long long)a->bytes, cost_model_name(a->cp->model),
           a->profile ? ", profile " : "", a->profile ? a->profile : "", a->tried);
    printf("best:       %s %s  %s %s\n", a->w->def->name, p1,
           export_format_double(a->w->cost, b1, sizeof b1), unit);
    if (a->r2)
        printf("runner-up:  %s %s  %s %s  (%s%% slower)\n", a->r2->def->name, p2,
               export_format_double(a->r2->cost, b2, sizeof b2), unit,
               export_format_double(margin, b3, sizeof b3));
    if (a->mw >= 0)
        printf("measured:   %s %s us, %s %s us on %d MPI ranks (medians of %d): the "
               "measured winner %s\n", a->w->def->name,
               export_format_double(a->mw, b1, sizeof b1), a->r2->def->name,
               export_format_double(a->mr, b2, sizeof b2), a->np, a->reps,
               a->mw <= a->mr ? "agrees" : "DISAGREES");
}

/* The advice printed as text or JSON: the best, the runner-up and its margin. */
static void advice_print(const Advice *a, bool json)
{
    char p1[256], p2[256];
    params_text(a->w, p1, sizeof p1);
    if (a->r2)
        params_text(a->r2, p2, sizeof p2);
    double margin = a->r2 ? (a->r2->cost - a->w->cost) / a->w->cost * 100 : NAN;
    if (json)
        advice_json(a, p1, p2, margin);
    else
        advice_text(a, p1, p2, margin);
}

/* The cheapest (*w) and the next (*r2) of the algorithms found; -1 for none. */
static void rank_best(const Best *best, int *w, int *r2)
{
    *w = *r2 = -1;
    for (size_t i = 0; i < algo_count(); i++) {
        if (!best[i].found)
            continue;
        if (*w < 0 || best[i].cost < best[*w].cost) {
            *r2 = *w;
            *w = (int)i;
        } else if (*r2 < 0 || best[i].cost < best[*r2].cost) {
            *r2 = (int)i;
        }
    }
}

int cmd_advise(int argc, char **argv)
{
    ExecLaunch l;
    memset(&l, 0, sizeof l);
    l.reps = 5;
    l.timeout = 60;
    bool exec = false;
    int st0 = take_opts(&argc, argv, &l, &exec);
    if (st0 >= 0)
        return st0;
    CliOpts o;
    int st = cli_opts_begin(argc, argv,
                            OPT_NET | OPT_SOURCE | OPT_BYTES | OPT_MODEL | OPT_SET | OPT_JSON |
                                OPT_PROFILE,
                            &o, advise_help);
    if (st >= 0)
        return st;
    Net *net = NULL;
    CostParams cp;
    uint64_t bytes = 1024;
    int32_t source = 0;
    int rc = advise_setup(&o, &net, &cp, &bytes, &source);
    if (rc) {
        net_free(net);
        cli_opts_free(&o);
        return rc;
    }
    Best *best = calloc(algo_count(), sizeof *best);
    long tried = best ? search_all(net, &cp, bytes, source, best) : 0;
    int w = -1, r2 = -1;
    if (best)
        rank_best(best, &w, &r2);
    double mw = -1, mr = -1;
    if (w >= 0 && exec && r2 >= 0) {
        l.np = (int)net_size(net);
        mw = measure(&best[w], net, &l);
        mr = mw >= 0 ? measure(&best[r2], net, &l) : -1;
        if (mw < 0 || mr < 0)
            rc = 1;
    }
    if (w < 0) {
        cli_error("advise: no built-in algorithm runs verified and valid on %s", net_spec(net));
        rc = 1;
    } else if (!rc) {
        Advice a = {.net = net, .cp = &cp, .profile = o.profile, .bytes = bytes,
                    .tried = tried, .w = &best[w], .r2 = r2 >= 0 ? &best[r2] : NULL,
                    .mw = mw, .mr = mr, .np = l.np, .reps = l.reps};
        advice_print(&a, o.json);
    }
    free(best);
    net_free(net);
    cli_opts_free(&o);
    return cli_out_finish(rc);
}
