/* compare_sweep.c — `meshcast compare --algo a,b,... --sweep PARAM=LO:HI`: the cost of each
 * named algorithm (built-in or Lua script) at every value of one parameter (Sanders &
 * Sibeyn's tradeoff, live: `--sweep r=1:16` for the fractional tree against chain and
 * bintree; `--sweep s=1:4096`).
 *
 * Values: every whole number LO..HI when there are at most SWEEP_MAX_LINEAR of them, else LO,
 * 2LO, 4LO, ... and HI.  PARAM is a cost parameter (then every algorithm gets it) or a
 * parameter of at least one of the algorithms; an algorithm without it runs with its own
 * settings at every value (its cost is then the same across the row: the baseline);
 * PARAM = bytes sweeps the message size.  --timing async|both: async columns.  Each
 * cell is built, simulated and priced by the engine (the same path as `run`); a cell where
 * the algorithm does not apply (algo_check refuses) is "-", with the reason under the table.
 * Text (a table, the best cell) or --json.  Exit: 0 when every built schedule was verified,
 * 1 when one was not, 2 on a usage error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/num.h"
#include "../engine/sim.h"
#include "../script/setup.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"
#include "verdict.h"

#define SWEEP_MAX_NAMES 8    /* --algo names */
#define SWEEP_MAX_ALGOS 16   /* columns: each name under lockstep and async (--timing both) */
#define SWEEP_MAX_LINEAR 64
#define SWEEP_MAX_VALUES 80
#define SWEEP_WORK_BUDGET 8388608ull   /* node-builds, as compare's */

typedef struct {
    char name[256];               /* as given */
    char shown[64];               /* its def's name */
    bool has_param;
    bool async;                   /* timed event by event (--timing async|both) */
    double cost[SWEEP_MAX_VALUES];
    int32_t steps[SWEEP_MAX_VALUES];
    bool ran[SWEEP_MAX_VALUES], verified[SWEEP_MAX_VALUES], valid[SWEEP_MAX_VALUES];
    char why[400];                /* the first refusal */
} Col;

static void sweep_help(void)
{
    puts("usage: meshcast compare --net SPEC --algo A,B,... --sweep PARAM=LO:HI\n"
         "                        [--bytes M] [--source S] [--model M] [--set K=V]... [--json]\n"
         "                        [--timing lockstep|async|both]\n"
         "The cost of each algorithm (built-in names or Lua files) at every value of PARAM:\n"
         "LO..HI (whole numbers; more than 64 of them: LO, 2LO, 4LO, ... HI).  PARAM is a cost\n"
         "parameter, a parameter of some of the algorithms (the others run unchanged), or\n"
         "bytes (the message size).  --timing async times each cell event by event; both\n"
         "gives each algorithm a lockstep and an async column.\n"
         "e.g. meshcast compare --net full:1024 --model postal --bytes 4096\n"
         "         --algo chain,bintree,fractional --set s=auto --sweep r=1:16");
}

static bool parse_sweep(const char *text, char *param, size_t plen, double *lo, double *hi)
{
    const char *eq = strchr(text, '='), *colon = eq ? strchr(eq, ':') : NULL;
    if (!eq || eq == text || (size_t)(eq - text) >= plen || !colon)
        return false;
    memcpy(param, text, (size_t)(eq - text));
    param[eq - text] = '\0';
    char a[32];
    size_t n = (size_t)(colon - eq - 1);
    if (n == 0 || n >= sizeof a)
        return false;
    memcpy(a, eq + 1, n);
    a[n] = '\0';
    return num_real(a, lo) == NUM_OK && num_real(colon + 1, hi) == NUM_OK && *lo >= 0 &&
           *lo <= *hi && *lo == floor(*lo) && *hi == floor(*hi) && *hi < 1e15;
}

static bool def_has(const AlgoDef *d, const char *name)
{
    for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return true;
    return false;
}

static void print_text(const char *net, const CostParams *cp, uint64_t bytes,
                       const char *param, const double *v, int nv, const Col *col, int nc)
{
    printf("compare on %s, %s model, %llu bytes: %s = %.15g .. %.15g\n", net,
           cost_model_name(cp->model), (unsigned long long)bytes, param, v[0], v[nv - 1]);
    printf("%10s", param);
    for (int a = 0; a < nc; a++)
        printf("  %14s", col[a].shown);
    printf("\n");
    int bi = -1, bk = -1;
    for (int k = 0; k < nv; k++) {
        printf("%10.15g", v[k]);
        for (int a = 0; a < nc; a++) {
            const Col *c = &col[a];
            if (!c->ran[k]) {
                printf("  %14s", "-");
                continue;
            }
            char buf[40];
            snprintf(buf, sizeof buf, "%.6g%s", c->cost[k],
                     !c->verified[k] ? "#" : !c->valid[k] ? "!" : "");
            printf("  %14s", buf);
            if (c->verified[k] && c->valid[k] &&
                (bi < 0 || c->cost[k] < col[bi].cost[bk])) {
                bi = a;
                bk = k;
            }
        }
        printf("\n");
    }
    if (bi >= 0)
        printf("best: %s at %s=%.15g, %.6g (simulated)\n", col[bi].shown, param, v[bk],
               col[bi].cost[bk]);
    for (int a = 0; a < nc; a++) {
        if (!col[a].has_param)
            printf("%s has no parameter %s: the same run at every value\n", col[a].shown,
                   param);
        if (col[a].why[0])
            printf("%s: - %s\n", col[a].shown, col[a].why);
    }
    printf("'#' not verified, '!' breaks the model's rules\n");
}

static void print_json(const char *net, const CostParams *cp, uint64_t bytes,
                       const char *param, const double *v, int nv, const Col *col, int nc)
{
    JsonOut j;
    json_init(&j, stdout, false);
    json_begin_object(&j);
    json_key(&j, "net");
    json_str(&j, net);
    json_key(&j, "model");
    json_str(&j, cost_model_name(cp->model));
    json_key(&j, "bytes");
    json_uint(&j, bytes);
    json_key(&j, "sweep");
    json_str(&j, param);
    json_key(&j, "values");
    json_begin_array(&j);
    for (int k = 0; k < nv; k++)
        json_num(&j, v[k]);
    json_end_array(&j);
    json_key(&j, "algorithms");
    json_begin_array(&j);
    for (int a = 0; a < nc; a++) {
        const Col *c = &col[a];
        json_begin_object(&j);
        json_key(&j, "name");
        json_str(&j, c->shown);
        json_key(&j, "has_param");
        json_bool(&j, c->has_param);
        json_key(&j, "cost");
        json_begin_array(&j);
        for (int k = 0; k < nv; k++)
            c->ran[k] ? json_num(&j, c->cost[k]) : json_null(&j);
        json_end_array(&j);
        json_key(&j, "steps");
        json_begin_array(&j);
        for (int k = 0; k < nv; k++)
            c->ran[k] ? json_int(&j, c->steps[k]) : json_null(&j);
        json_end_array(&j);
        json_key(&j, "verified");
        json_begin_array(&j);
        for (int k = 0; k < nv; k++)
            c->ran[k] ? json_bool(&j, c->verified[k] && c->valid[k]) : json_null(&j);
        json_end_array(&j);
        json_key(&j, "refused");
        json_str(&j, c->why[0] ? c->why : NULL);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    printf("\n");
}

/* Takes --sweep out of argv into *sweep, the rest into av (NULL-terminated).  Returns how
 * many are left, -1 for a --sweep without its value. */
static int take_sweep(int argc, char **argv, char **av, const char **sweep)
{
    int ac = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--sweep") == 0 && i + 1 < argc)
            *sweep = argv[++i];
        else if (strncmp(argv[i], "--sweep=", 8) == 0)
            *sweep = argv[i] + 8;
        else if (strcmp(argv[i], "--sweep") == 0)
            return -1;
        else
            av[ac++] = argv[i];
    }
    av[ac] = NULL;
    return ac;
}

/* The values swept: every whole number LO..HI, or LO, 2LO, 4LO, ... and HI.  Returns how
 * many. */
static int sweep_values(double lo, double hi, double *v)
{
    int nv = 0;
    if (hi - lo + 1 <= SWEEP_MAX_LINEAR) {
        for (double x = lo; x <= hi; x++)
            v[nv++] = x;
    } else {
        for (double x = lo < 1 ? 1 : lo; nv < SWEEP_MAX_VALUES - 1 && x < hi; x *= 2)
            v[nv++] = x;
        v[nv++] = hi;
    }
    return nv;
}

/* The columns: each --algo name, under lockstep (the default), async, or both (each name
 * twice, the async after); *t_lock whether lockstep is one.  Returns 0, or the usage
 * error's exit status. */
static int parse_columns(const CliOpts *o, Col *col, int *ncol, bool *t_lock)
{
    char names[512], err[512];
    if (strlen(o->algo) >= sizeof names)
        return cli_usage_error("--algo list too long");
    memcpy(names, o->algo, strlen(o->algo) + 1);
    int nc = 0;
    for (char *p = names, *tok; (tok = strsep(&p, ",")) != NULL;) {
        if (!*tok || nc == SWEEP_MAX_NAMES || strlen(tok) >= sizeof col[0].name) {
            snprintf(err, sizeof err, "bad --algo list '%.60s': 1 to %d names or files, comma "
                     "separated", o->algo, SWEEP_MAX_NAMES);
            return cli_usage_error(err);
        }
        strcpy(col[nc++].name, tok);
    }
    *t_lock = !o->timing || strcmp(o->timing, "lockstep") == 0 ||
              strcmp(o->timing, "both") == 0;
    bool t_async = o->timing && (strcmp(o->timing, "async") == 0 ||
                                 strcmp(o->timing, "both") == 0);
    if (!*t_lock && !t_async)
        return cli_usage_error("unknown --timing (lockstep, async, both)");
    if (t_async) {
        int base = nc;
        for (int a = 0; a < base; a++) {
            Col *d = *t_lock ? &col[nc++] : &col[a];
            if (d != &col[a])
                strcpy(d->name, col[a].name);
            d->async = true;
        }
    }
    *ncol = nc;
    return 0;
}

/* Every algorithm sets up with the base settings (a usage error otherwise): its name shown,
 * whether it has the parameter; the sweep is refused when none has it or it is over the
 * work budget.  *shown_cost: the cost parameters shown in the head.  Returns 0 or the usage
 * error's exit status. */
static int setup_columns(const CliOpts *o, const char *param, bool is_bytes, bool t_lock,
                         Col *col, int nc, int nv, CostParams *shown_cost)
{
    char err[512];
    bool cost_param = cost_is_param(param) || is_bytes, some = cost_param;
    int32_t nodes = 0;
    for (int a = 0; a < nc; a++) {
        SetupSpec spec = cli_opts_spec(o);
        spec.algo = col[a].name;
        Setup s;
        if (!setup_make(&spec, &s, err, sizeof err))
            return cli_usage_error(err);
        col[a].has_param = cost_param || def_has(s.def, param);
        some |= col[a].has_param;
        snprintf(col[a].shown, sizeof col[a].shown, "%s%s", s.def->name,
                 col[a].async && t_lock ? " async" : "");
        *shown_cost = s.cost;
        nodes = net_size(s.net);
        setup_free(&s);
    }
    if (!some) {
        snprintf(err, sizeof err, "--sweep %s: neither a cost parameter nor a parameter of %s",
                 param, o->algo);
        return cli_usage_error(err);
    }
    if ((uint64_t)nodes * (uint64_t)nc * (uint64_t)nv > SWEEP_WORK_BUDGET) {
        snprintf(err, sizeof err, "%s: %d values x %d algorithms x %ld nodes is over the work "
                 "budget (%llu node-builds): sweep fewer values or a smaller net", o->net, nv,
                 nc, (long)nodes, (unsigned long long)SWEEP_WORK_BUDGET);
        return cli_usage_error(err);
    }
    return 0;
}

/* One cell: column c at the k-th value val, built, simulated and priced as `run` does (a
 * refusal noted in c->why).  sets: room for the --set ones and the swept one; *bytes the
 * message size it ran with.  Returns 1 when it did not run through or was not verified. */
static int run_cell(const CliOpts *o, Col *c, int k, const char *param, double val,
                    bool is_bytes, const char **sets, uint64_t *bytes)
{
    char kv[64];
    snprintf(kv, sizeof kv, "%s=%.15g", param, val);
    size_t ns = o->nsets;
    if (c->has_param && !is_bytes)
        sets[ns++] = kv;
    SetupSpec spec = cli_opts_spec(o);
    spec.algo = c->name;
    spec.sets = sets;
    spec.nsets = ns;
    char bv[32];
    if (is_bytes) {
        snprintf(bv, sizeof bv, "%.0f", val);
        spec.bytes = bv;
    }
    Setup s;
    char why[200];
    if (!setup_make(&spec, &s, why, sizeof why)) {   /* out of range for it */
        if (!c->why[0])
            snprintf(c->why, sizeof c->why, "at %.60s: %s", kv, why);
        return 0;
    }
    *bytes = s.args.bytes;
    if (!algo_check(s.def, s.net, &s.args, why, sizeof why)) {
        if (!c->why[0])
            snprintf(c->why, sizeof c->why, "at %.60s: %s", kv, why);
        setup_free(&s);
        return 0;
    }
    CliRun r;
    int prc = cli_prepare_setup(&s, c->async ? SIM_ASYNC : 0, &r, why, sizeof why);
    SimAsync *as = NULL;
    if (prc == 0 && r.sim && !cli_verdict_time(&r, c->async, &as, why, sizeof why))
        prc = 1;
    if (prc != 0 || !r.sim) {
        if (!c->why[0])
            snprintf(c->why, sizeof c->why, "at %.60s: %s", kv, why);
        cli_run_free(&r);
        return 1;
    }
    const SimTotals *t = sim_totals(r.sim);
    c->ran[k] = true;
    c->cost[k] = as ? sim_async_total(as) : t->cost.total;
    sim_async_free(as);
    c->steps[k] = t->nsteps;
    c->verified[k] = t->verified;
    c->valid[k] = t->valid;
    cli_run_free(&r);
    return c->verified[k] ? 0 : 1;
}

/* Every cell of column c; one without the parameter runs once (the baseline) and is copied
 * along the row.  Returns 1 when some cell did not run through or was not verified. */
static int run_column(const CliOpts *o, Col *c, const char *param, const double *v, int nv,
                      bool is_bytes, const char **sets, uint64_t *bytes)
{
    int rc = 0;
    for (int k = 0; k < nv; k++) {
        if (!c->has_param && k > 0) {   /* the same run: copy the baseline */
            c->ran[k] = c->ran[0];
            c->cost[k] = c->cost[0];
            c->steps[k] = c->steps[0];
            c->verified[k] = c->verified[0];
            c->valid[k] = c->valid[0];
            continue;
        }
        if (run_cell(o, c, k, param, v[k], is_bytes, sets, bytes))
            rc = 1;
    }
    return rc;
}

/* After the options: the sweep checked, the columns set up, every cell run, the table or
 * JSON printed. */
static int sweep_run(const CliOpts *o, const char *sweep)
{
    char param[32], err[512];
    double lo, hi;
    if (!o->net || !o->algo)
        return cli_usage_error(!o->net ? "missing --net SPEC (e.g. --net full:1024)"
                                       : "compare --sweep needs --algo A,B,... (e.g. "
                                         "--algo chain,bintree,fractional)");
    if (!sweep || !parse_sweep(sweep, param, sizeof param, &lo, &hi)) {
        snprintf(err, sizeof err, "bad --sweep '%.40s': expected PARAM=LO:HI with whole "
                 "numbers 0 <= LO <= HI (e.g. r=1:16)", sweep ? sweep : "");
        return cli_usage_error(err);
    }
    double v[SWEEP_MAX_VALUES];
    int nv = sweep_values(lo, hi, v);
    Col *col = calloc(SWEEP_MAX_ALGOS, sizeof *col);
    const char **sets = malloc((o->nsets + 1) * sizeof *sets);
    int rc = 0, nc = 0;
    bool t_lock = true;
    /* --sweep bytes=LO:HI: the message size is the parameter (every algorithm has it) */
    bool is_bytes = strcmp(param, "bytes") == 0;
    CostParams shown_cost;
    memset(&shown_cost, 0, sizeof shown_cost);
    if (!col || !sets)
        rc = cli_usage_error("out of memory");
    else if ((rc = parse_columns(o, col, &nc, &t_lock)) != 0)
        ;
    else if (is_bytes && o->bytes)
        rc = cli_usage_error("--sweep bytes=LO:HI and --bytes exclude each other");
    else if (is_bytes && lo < 1)
        rc = cli_usage_error("--sweep bytes=LO:HI: LO must be at least 1 byte");
    if (rc) {
        free(col);
        free(sets);
        return rc;
    }
    for (size_t i = 0; i < o->nsets; i++)
        sets[i] = o->sets[i];
    rc = setup_columns(o, param, is_bytes, t_lock, col, nc, nv, &shown_cost);
    if (rc == 0) {
        uint64_t bytes = 1024;
        for (int a = 0; a < nc; a++)
            if (run_column(o, &col[a], param, v, nv, is_bytes, sets, &bytes))
                rc = 1;
        if (o->json)
            print_json(o->net, &shown_cost, bytes, param, v, nv, col, nc);
        else
            print_text(o->net, &shown_cost, bytes, param, v, nv, col, nc);
        rc = cli_out_finish(rc);
    }
    free(col);
    free(sets);
    return rc;
}

int cmd_compare_sweep(int argc, char **argv)
{
    /* take --sweep out of argv; the rest are the usual options */
    const char *sweep = NULL;
    char **av = malloc(((size_t)argc + 1) * sizeof *av);
    if (!av)
        return cli_usage_error("out of memory");
    int ac = take_sweep(argc, argv, av, &sweep);
    if (ac < 0) {
        free(av);
        return cli_usage_error("--sweep needs PARAM=LO:HI (e.g. --sweep r=1:16)");
    }
    CliOpts o;
    int rc = cli_opts_begin(ac, av,
                            OPT_NET | OPT_ALGO | OPT_SOURCE | OPT_BYTES | OPT_MODEL | OPT_SET | OPT_PROFILE |
                                OPT_JSON | OPT_TIMING,
                            &o, sweep_help);
    if (rc >= 0) {
        free(av);
        return rc;
    }
    rc = sweep_run(&o, sweep);
    free(av);
    cli_opts_free(&o);
    return rc;
}
