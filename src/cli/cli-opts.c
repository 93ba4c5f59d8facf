/* cli-opts.c — option parsing shared by the batch commands. */
#include "cli-opts.h"

#include "../engine/dist.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/text.h"

static const struct {
    const char *name;
    unsigned bit;
    bool takes_value;
} options[] = {
    {"net", OPT_NET, true},     {"algo", OPT_ALGO, true},   {"source", OPT_SOURCE, true},
    {"bytes", OPT_BYTES, true}, {"model", OPT_MODEL, true}, {"set", OPT_SET, true},
    {"fit", OPT_FIT, true},     {"json", OPT_JSON, false},  {"csv", OPT_CSV, false},
    {"format", OPT_FORMAT, true}, {"op", OPT_OP, true},
    {"timing", OPT_TIMING, true}, {"terms", OPT_TERMS, false},
    {"by", OPT_BY, true},
    {"sources", OPT_SOURCES, true},
    {"vs", OPT_VS, true},
    {"profile", OPT_PROFILE, true},
    {"map", OPT_MAP, true},
};

static const char **slot(CliOpts *o, unsigned bit)
{
    switch (bit) {
    case OPT_NET: return &o->net;
    case OPT_ALGO: return &o->algo;
    case OPT_SOURCE: return &o->source;
    case OPT_BYTES: return &o->bytes;
    case OPT_MODEL: return &o->model;
    case OPT_FIT: return &o->fit;
    case OPT_FORMAT: return &o->format;
    case OPT_OP: return &o->op;
    case OPT_TIMING: return &o->timing;
    case OPT_BY: return &o->by;
    case OPT_SOURCES: return &o->sources;
    case OPT_VS: return &o->vs;
    case OPT_PROFILE: return &o->profile;
    case OPT_MAP: return &o->map;
    }
    return NULL;
}

bool cli_opts_parse(int argc, char **argv, unsigned allowed, const char *const *also,
                    CliOpts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->sets = calloc((size_t)argc + 1, sizeof *o->sets);
    if (!o->sets) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            o->help = true;
            return true;
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            snprintf(err, errlen, "unexpected argument '%s'", arg);
            return false;
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
        size_t k;
        for (k = 0; k < sizeof options / sizeof options[0]; k++)
            if (strlen(options[k].name) == nlen && strncmp(options[k].name, name, nlen) == 0)
                break;
        if (k == sizeof options / sizeof options[0] || !(allowed & options[k].bit)) {
            enum { NOPT = sizeof options / sizeof options[0], NALSO = 16 };
            char dashed[NOPT][24], word[80], hint[96];
            const char *mine[NOPT + NALSO + 1];
            size_t nm = 0;
            for (size_t j = 0; j < NOPT; j++)
                if (allowed & options[j].bit) {
                    snprintf(dashed[nm], sizeof dashed[nm], "--%s", options[j].name);
                    mine[nm] = dashed[nm];
                    nm++;
                }
            for (size_t j = 0; also && also[j] && j < NALSO; j++)
                mine[nm++] = also[j];
            mine[nm] = NULL;
            snprintf(word, sizeof word, "--%.*s", (int)nlen, name);
            snprintf(err, errlen, "unknown option '--%.*s'%s", (int)nlen, name,
                     text_did_you_mean(word, mine, hint, sizeof hint));
            return false;
        }
        if (!options[k].takes_value) {
            if (eq) {
                snprintf(err, errlen, "option '--%s' takes no value", options[k].name);
                return false;
            }
            if (options[k].bit == OPT_JSON)
                o->json = true;
            else if (options[k].bit == OPT_TERMS)
                o->terms = true;
            else
                o->csv = true;
            continue;
        }
        const char *value;
        if (eq)
            value = eq + 1;
        else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
            value = argv[++i];
        else {
            snprintf(err, errlen, "option '--%s' needs a value", options[k].name);
            return false;
        }
        if (value[0] == '\0') {
            snprintf(err, errlen, "option '--%s' needs a value", options[k].name);
            return false;
        }
        if (options[k].bit == OPT_SET) {
            o->sets[o->nsets++] = value;
            continue;
        }
        const char **p = slot(o, options[k].bit);
        if (*p) {
            snprintf(err, errlen, "option '--%s' given twice", options[k].name);
            return false;
        }
        *p = value;
    }
    if (o->json && o->csv) {
        snprintf(err, errlen, "--json and --csv exclude each other");
        return false;
    }
    return true;
}

void cli_opts_free(CliOpts *o)
{
    free(o->sets);
    o->sets = NULL;
    o->nsets = 0;
}

int cli_opts_begin(int argc, char **argv, unsigned allowed, CliOpts *o, void (*help)(void))
{
    return cli_opts_begin_also(argc, argv, allowed, NULL, o, help);
}

int cli_opts_begin_also(int argc, char **argv, unsigned allowed, const char *const *also,
                        CliOpts *o, void (*help)(void))
{
    char err[512];
    if (!cli_opts_parse(argc, argv, allowed, also, o, err, sizeof err)) {
        cli_opts_free(o);
        return cli_usage_error(err);
    }
    if (o->help) {
        cli_opts_free(o);
        help();
        return 0;
    }
    return -1;
}

SetupSpec cli_opts_spec(const CliOpts *o)
{
    SetupSpec s = {
        .net = o->net, .algo = o->algo, .source = o->source, .sources = o->sources, .map = o->map,
        .bytes = o->bytes,
        .model = o->model, .fit = o->fit, .sets = o->sets, .nsets = o->nsets, .op = o->op,
        .profile = o->profile,
    };
    return s;
}

void cli_error(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One line, whatever the user typed: a control character echoed from an argument
     * (a newline in --algo, an escape sequence in a script's error) would split the message
     * or reach the terminal. */
    char shown[sizeof msg + 8];
    fprintf(stderr, "meshcast: %s\n", text_quote(msg, sizeof msg, shown, sizeof shown));
}

const char *cli_dist_text(const Setup *s, char *buf, size_t len)
{
    if (s->args.dist < 0 || s->args.dist >= DIST_NKINDS)
        snprintf(buf, len, "list");
    else
        snprintf(buf, len, "%s:%ld", dist_name((DistKind)s->args.dist), (long)s->nsources);
    return buf;
}

int cli_usage_error(const char *msg)
{
    cli_error("%s", msg);
    return 2;
}

static bool pow2(int64_t x) { return x >= 1 && (x & (x - 1)) == 0; }

int cli_prepare_setup(Setup *setup, unsigned simflags, CliRun *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->setup = *setup;
    memset(setup, 0, sizeof *setup);
    const Setup *s = &r->setup;

    r->fit = FIT_NONE;
    if (s->def->flags & ALGO_POW2)
        for (int k = 0; k < net_ndim(s->net); k++)
            if (!pow2(net_dim(s->net, k)))
                r->fit = s->args.fit == FIT_VIRTUAL ? FIT_VIRTUAL : FIT_COMPANIONS;

    r->sched = algo_build(s->def, s->net, &s->args, err, errlen);
    if (!r->sched)
        return 1;
    r->sim = sim_run(r->sched, &s->cost, simflags, err, errlen);
    if (!r->sim)
        return strstr(err, SIM_NOT_FINITE) ? 2 : 1;   /* too large a setting: a usage error */
    r->has_predicted = algo_predict(s->def, s->net, &s->args, &s->cost, &r->predicted);
    if (!r->has_predicted && algo_predict_error(s->def)) {   /* predict raised: an error */
        snprintf(err, errlen, "%s", algo_predict_error(s->def));
        return 1;
    }
    if (r->has_predicted && !isfinite(r->predicted)) {
        snprintf(err, errlen, "the closed form of %s on %s " SIM_NOT_FINITE " (the cost "
                 "parameters are too large)", s->def->name, net_spec(s->net));
        return 2;
    }
    r->has_predicted_tcd = algo_predict_tcd(s->def, s->net, &s->args, &r->predicted_tcd);
    return 0;
}

int cli_prepare(const CliOpts *o, unsigned simflags, CliRun *r)
{
    char err[512] = "";
    SetupSpec spec = cli_opts_spec(o);
    Setup setup;
    memset(r, 0, sizeof *r);
    if (!o->net)
        return cli_usage_error("missing --net SPEC (e.g. --net mesh:8x8)");
    if (!o->algo)
        return cli_usage_error("missing --algo NAME (meshcast list algorithms)");
    if (!setup_make(&spec, &setup, err, sizeof err))
        return cli_usage_error(err);
    int rc = cli_prepare_made(&setup, simflags, r, err, sizeof err);
    if (rc != 0)
        cli_error("%s", err);
    return rc;
}

static int check_reduce_e(CliRun *r, char *err, size_t errlen)
{
    r->reduce = reduce_run(r->sched, r->setup.args.source, r->setup.cost.gamma, err, errlen);
    if (!r->reduce)
        return 1;
    r->reduce_declared = true;
    return 0;
}

static int prepare_reduce_e(CliRun *r, unsigned simflags, char *err, size_t errlen)
{
    Sched *rs = reduce_reverse(r->sched, &r->reduce_dropped, err, errlen);
    Sim *sim = rs ? sim_run(rs, &r->setup.cost, simflags, err, errlen) : NULL;
    Reduce *rd = sim ? reduce_run(rs, r->setup.args.source, r->setup.cost.gamma, err, errlen)
                     : NULL;
    if (!rd) {
        if (sim)
            sim_free(sim);
        sched_free(rs);
        return 1;
    }
    sim_free(r->sim);
    sched_free(r->sched);
    r->sched = rs;
    r->sim = sim;
    r->reduce = rd;
    if (!reduce_prediction_holds(r->setup.net, r->setup.cost.model))
        r->has_predicted = false;
    return 0;
}

int cli_prepare_made(Setup *setup, unsigned simflags, CliRun *r, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    /* a script that declares a reduction (op = "reduce") builds it itself */
    bool declared = setup->def->flags & ALGO_REDUCE, reduce = setup->reduce;
    int rc = cli_prepare_setup(setup, simflags, r, err, errlen);
    if (rc == 0 && declared)
        rc = check_reduce_e(r, err, errlen);
    else if (rc == 0 && reduce)
        rc = prepare_reduce_e(r, simflags, err, errlen);
    if (rc != 0 && errlen && !err[0])
        snprintf(err, errlen, "cannot build the broadcast");
    return rc;
}

int cli_check_reduce(CliRun *r)
{
    char err[512] = "";
    int rc = check_reduce_e(r, err, sizeof err);
    if (rc)
        cli_error("%s", err);
    return rc;
}

int cli_prepare_reduce(CliRun *r, unsigned simflags)
{
    char err[512] = "";
    int rc = prepare_reduce_e(r, simflags, err, sizeof err);
    if (rc)
        cli_error("%s", err);
    return rc;
}

void cli_run_free(CliRun *r)
{
    reduce_free(r->reduce);
    if (r->sim)
        sim_free(r->sim);
    if (r->sched)
        sched_free(r->sched);
    setup_free(&r->setup);
    memset(r, 0, sizeof *r);
}
