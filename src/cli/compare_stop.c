/* compare_stop.c — `meshcast compare --sources ...`: the s-to-p algorithms side by side, the
 * paper's figures as measured tables (papers/004, Figs. 2-8).
 *
 *   meshcast compare --sources SPEC[,SPEC...] [--net SPEC | --nets SPEC,SPEC...]
 *                    [--s LO:HI[:STEP]] [--bytes M|LO:HI | --total M] [--algos A,B,...]
 *                    [--relative ALGO] [--model M] [--set K=V]... [--timing T]
 *                    [--json|--csv]
 *
 * Rows are every combination of: the nets, the source specs, the values of s, the message
 * lengths; columns the algorithms (default: every s-to-p algorithm that runs on the net).
 * A source spec is a distribution with its s (R:30), with s a percentage of p (Dr:10%: at
 * least 1), or without s when --s gives the values (E with --s 1:100:9).  --bytes LO:HI runs
 * LO, 2LO, ... HI; --total M gives every source M/s bytes (the total data fixed, Fig. 6).
 * --relative ALGO prints every other algorithm's cell as the percentage by which it is
 * cheaper than ALGO (positive: it pays; Fig. 8's "percentage difference").
 * --timing async prices every schedule event by event (sim-async.h: no synchronisation
 * between iterations, as the paper's runs); lockstep (the default) step by step.
 * Cells: the simulated cost in us; '#' not verified, '!' breaks the model, '-' does not run.
 * Exit: 0 if every schedule that was built was verified, 1 if one was not, 2 usage.
 *
 *   Fig. 2  compare --net mesh:10x10 --sources E --s 1:100:9 --bytes 4K
 *   Fig. 3  compare --net mesh:10x10 --sources Dr:30 --bytes 32:16K
 *   Fig. 4  compare --nets mesh:2x2,mesh:4x4,mesh:8x8,mesh:16x16 --sources Dr:25% --bytes 4K
 *   Fig. 5  compare --net mesh:10x10 --sources R:30,C:30,E:30,Dr:30,Dl:30,B:30,X:30,SB:30
 *   Fig. 6  compare --net mesh:10x10 --sources Dr --s 5:40:5 --total 80K
 *   Fig. 7  compare --nets mesh:4x30,mesh:8x15,mesh:10x12 --sources E:10,E:40,E:100 --bytes 4K
 *   Fig. 8  compare --net mesh:16x16 --sources E,X,B,SB --s 16:192:16 --bytes 6K
 *           --algos br-xy-source,repos-xy-source --relative br-xy-source
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/dist.h"
#include "../engine/export.h"
#include "../engine/sim-async.h"
#include "../engine/text.h"
#include "cli-opts.h"
#include "commands.h"

#define MAXITEMS 64
#define MAXROWS 4096
#define WORK_BUDGET 8388608ull   /* node-builds, as compare's */

typedef struct {
    const char *net, *nets, *sources, *s, *bytes, *total, *algos, *relative, *model, *timing;
    const char *sets[64];
    size_t nsets;
    bool json, csv;
} Opts;

typedef struct {
    char net[64], src[64];
    int32_t s;
    uint64_t bytes;
    double cost[MAXITEMS];
    int state[MAXITEMS];   /* 0 ok, 1 not verified, 2 invalid, 3 does not run */
    int32_t steps[MAXITEMS];
} Row;

static void help(void)
{
    puts("usage: meshcast compare --sources SPEC[,SPEC...] [--net SPEC | --nets SPEC,...]\n"
         "                        [--s LO:HI[:STEP]] [--bytes M|LO:HI | --total M]\n"
         "                        [--algos A,B,...] [--relative ALGO] [--model M]\n"
         "                        [--set K=V]... [--timing lockstep|async] [--json|--csv]\n"
         "The s-to-p algorithms side by side: one row for every net, source spec, s and\n"
         "message length; cells are simulated costs (us).  A spec is R:30, Dr:10% (of p) or\n"
         "a bare kind with --s.  --total M: each source M/s bytes.  --relative ALGO: the\n"
         "others as the percentage by which they are cheaper than ALGO.");
}

/* Split text at ',' into items (copied into buf). */
static int split(const char *text, char *buf, size_t len, char **items, int max)
{
    snprintf(buf, len, "%s", text);
    int n = 0;
    for (char *t = buf; n < max;) {
        items[n++] = t;
        char *c = strchr(t, ',');
        if (!c)
            break;
        *c = '\0';
        t = c + 1;
    }
    return n;
}

static int usage(const char *fmt, const char *arg)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, arg);
    return cli_usage_error(msg);
}

static int parse_args(int argc, char **argv, Opts *o)
{
    static const char *const names[] = {"net", "nets", "sources", "s", "bytes", "total",
                                        "algos", "relative", "model", "timing", "set", "json",
                                        "csv"};
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            help();
            return 0;
        }
        if (strncmp(a, "--", 2) != 0)
            return usage("unexpected argument '%s'", a);
        size_t k, nn = sizeof names / sizeof names[0];
        for (k = 0; k < nn; k++)
            if (strcmp(a + 2, names[k]) == 0)
                break;
        if (k == nn)
            return usage("unknown option '%s' for compare --sources", a);
        if (k >= 11) {
            *(k == 11 ? &o->json : &o->csv) = true;
            continue;
        }
        if (i + 1 >= argc || argv[i + 1][0] == '\0')
            return usage("option '%s' needs a value", a);
        const char *v = argv[++i];
        if (k == 10) {
            if (o->nsets == sizeof o->sets / sizeof o->sets[0])
                return usage("too many %s", "--set");
            o->sets[o->nsets++] = v;
            continue;
        }
        const char **slot[] = {&o->net, &o->nets, &o->sources, &o->s, &o->bytes, &o->total,
                               &o->algos, &o->relative, &o->model, &o->timing};
        if (*slot[k])
            return usage("option '%s' given twice", a);
        *slot[k] = v;
    }
    if (o->json && o->csv)
        return usage("%s", "--json and --csv exclude each other");
    if (!o->sources)
        return usage("%s", "missing --sources SPEC[,SPEC...] (e.g. R:30,C:30)");
    if (!o->net == !o->nets)
        return usage("%s", "give one of --net SPEC and --nets SPEC,SPEC,...");
    if (o->timing && strcmp(o->timing, "lockstep") != 0 && strcmp(o->timing, "async") != 0)
        return usage("unknown --timing '%s' (lockstep, async)", o->timing);
    if (o->total && o->bytes)
        return usage("%s", "--bytes and --total exclude each other");
    return -1;
}

/* One cell: setup through the same path as run, build, simulate. */
static void cell(const Opts *o, const char *algo, Row *r, int col)
{
    char bytes[32], err[512];
    snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)r->bytes);
    SetupSpec spec = {.net = r->net, .algo = algo, .bytes = bytes, .model = o->model,
                      .sets = o->sets, .nsets = o->nsets, .sources = r->src};
    Setup st;
    CliRun run;
    r->state[col] = 3;
    if (!setup_make(&spec, &st, err, sizeof err))
        return;
    if (cli_prepare_setup(&st, 0, &run, err, sizeof err) == 0) {
        const SimTotals *t = sim_totals(run.sim);
        r->cost[col] = t->cost.total;
        if (o->timing && strcmp(o->timing, "async") == 0) {
            /* the paper's runs: no synchronisation between iterations (sim-async.h) */
            SimAsync *as = sim_async_run(run.sched, &run.setup.cost, 0, err, sizeof err);
            r->cost[col] = as ? sim_async_total(as) : -1;
            if (!as)
                r->state[col] = 3;
            sim_async_free(as);
            if (!as) {
                cli_run_free(&run);
                return;
            }
        }
        r->steps[col] = t->nsteps;
        r->state[col] = !t->verified ? 1 : !t->valid ? 2 : 0;
    }
    cli_run_free(&run);
}

int cmd_compare_stop(int argc, char **argv)
{
    Opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    char nbuf[1024], sbuf[1024], abuf[1024], q[48];
    char *nets[MAXITEMS], *specs[MAXITEMS], *algos[MAXITEMS];
    int nn = split(o.net ? o.net : o.nets, nbuf, sizeof nbuf, nets, MAXITEMS);
    int ns = split(o.sources, sbuf, sizeof sbuf, specs, MAXITEMS);
    int na = 0;
    /* the values of s */
    int64_t slo = 0, shi = 0, sstep = 1;
    if (o.s) {
        long long a, b, c = 1;
        int got = sscanf(o.s, "%lld:%lld:%lld", &a, &b, &c);
        if (got < 2 || a < 1 || b < a || c < 1)
            return usage("bad --s '%s': expected LO:HI[:STEP] with 1 <= LO <= HI", o.s);
        slo = a;
        shi = b;
        sstep = c;
    }
    /* the message lengths */
    uint64_t blo = 1024, bhi = 1024, total = 0;
    if (o.bytes) {
        const char *c = strchr(o.bytes, ':');
        char lo[32];
        snprintf(lo, sizeof lo, "%.*s", c ? (int)(c - o.bytes) : (int)strlen(o.bytes), o.bytes);
        if (!setup_parse_bytes(lo, &blo) || (c && !setup_parse_bytes(c + 1, &bhi)) ||
            (c && bhi < blo))
            return usage("bad --bytes '%s': expected M or LO:HI (e.g. 4K or 32:16K)", o.bytes);
        if (!c)
            bhi = blo;
    }
    if (o.total && !setup_parse_bytes(o.total, &total))
        return usage("bad --total '%s': expected a byte count such as 80K", o.total);

    Row *rows = calloc(MAXROWS, sizeof *rows);
    if (!rows)
        return usage("%s", "out of memory");
    int nr = 0;
    uint64_t work = 0;
    for (int i = 0; i < nn; i++) {
        char err[256];
        Net *net = net_parse(nets[i], err, sizeof err);
        if (!net) {
            free(rows);
            return cli_usage_error(err);
        }
        int32_t p = net_size(net);
        for (int j = 0; j < ns; j++) {
            const char *colon = strchr(specs[j], ':');
            char kind[16];
            DistKind dk;
            snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - specs[j]) : 15, specs[j]);
            if (!dist_kind_parse(kind, &dk)) {
                net_free(net);
                free(rows);
                return usage("bad --sources item '%s': expected a distribution such as R:30, "
                             "Dr:10%% or E (meshcast list distributions)",
                             text_quote(specs[j], 24, q, sizeof q));
            }
            int64_t lo = slo, hi = shi, step = sstep;
            if (colon) {
                char *e;
                errno = 0;
                long long v = strtoll(colon + 1, &e, 10);
                if (errno || e == colon + 1 || (*e && strcmp(e, "%") != 0) || v < 1) {
                    net_free(net);
                    free(rows);
                    return usage("bad --sources item '%s': s must be a positive number or a "
                                 "percentage", text_quote(specs[j], 24, q, sizeof q));
                }
                if (*e == '%')
                    v = (v * p + 50) / 100 < 1 ? 1 : (v * p + 50) / 100;
                lo = hi = v;
                step = 1;
            } else if (!o.s) {
                net_free(net);
                free(rows);
                return usage("--sources item '%s' has no s: give KIND:S or --s LO:HI", kind);
            }
            for (int64_t s = lo; s <= hi; s += step)
                for (uint64_t m = blo; m <= bhi; m = m > bhi / 2 && m < bhi ? bhi : m * 2) {
                    if (nr == MAXROWS) {
                        net_free(net);
                        free(rows);
                        return usage("too many rows (at most %s)", "4096");
                    }
                    Row *r = &rows[nr++];
                    snprintf(r->net, sizeof r->net, "%s", net_spec(net));
                    snprintf(r->src, sizeof r->src, "%s:%lld", dist_name(dk),
                             (long long)(s > p ? p : s));
                    r->s = (int32_t)(s > p ? p : s);
                    r->bytes = total ? (total / (uint64_t)r->s ? total / (uint64_t)r->s : 1) : m;
                    work += (uint64_t)p;
                    if (m == bhi)
                        break;
                }
        }
        net_free(net);
    }
    /* the algorithms: the named ones, or every s-to-p def */
    if (o.algos) {
        na = split(o.algos, abuf, sizeof abuf, algos, MAXITEMS);
        for (int k = 0; k < na; k++)
            if (!algo_exists(algos[k])) {
                free(rows);
                return usage("unknown algorithm '%s' (meshcast list algorithms)",
                             text_quote(algos[k], 24, q, sizeof q));
            }
    } else {
        for (size_t k = 0; k < algo_count() && na < MAXITEMS; k++) {
            const AlgoDef *d = algo_at(k);
            bool dup = false;
            for (int j = 0; j < na; j++)
                dup |= strcmp(algos[j], d->name) == 0;
            if ((d->flags & ALGO_STOP) && !dup)
                algos[na++] = (char *)d->name;
        }
    }
    int relcol = -1;
    for (int k = 0; o.relative && k < na; k++)
        if (strcmp(algos[k], o.relative) == 0)
            relcol = k;
    if (o.relative && relcol < 0) {
        free(rows);
        return usage("--relative '%s' is not one of the compared algorithms",
                     text_quote(o.relative, 24, q, sizeof q));
    }
    if (work * (uint64_t)na > WORK_BUDGET) {
        free(rows);
        return usage("%s", "too much work for compare (rows x algorithms x nodes over 8M "
                     "node-builds): fewer rows, algorithms or a smaller net");
    }
    /* a bad --model or --set is a usage error, found on the first cell's setup */
    {
        char bytes[32], err[512];
        snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)rows[0].bytes);
        SetupSpec spec = {.net = rows[0].net, .algo = algos[0], .bytes = bytes,
                          .model = o.model, .sets = o.sets, .nsets = o.nsets,
                          .sources = rows[0].src};
        Setup st;
        if (!setup_make(&spec, &st, err, sizeof err) && (strstr(err, "model") ||
                                                         strstr(err, "setting") ||
                                                         strstr(err, "--set"))) {
            free(rows);
            return cli_usage_error(err);
        }
        setup_free(&st);
    }
    rc = 0;
    for (int i = 0; i < nr; i++)
        for (int k = 0; k < na; k++) {
            cell(&o, algos[k], &rows[i], k);
            if (rows[i].state[k] == 1)
                rc = 1;
        }

    /* output */
    char b1[64];
    if (o.csv) {
        fputs("net,sources,s,bytes,algo,cost,steps,verified,valid\n", stdout);
        for (int i = 0; i < nr; i++)
            for (int k = 0; k < na; k++) {
                const Row *r = &rows[i];
                if (r->state[k] == 3)
                    continue;
                printf("%s,%s,%ld,%llu,%s,%s,%ld,%s,%s\n", r->net, r->src, (long)r->s,
                       (unsigned long long)r->bytes, algos[k],
                       export_format_double(r->cost[k], b1, sizeof b1), (long)r->steps[k],
                       r->state[k] != 1 ? "true" : "false", r->state[k] == 0 ? "true" : "false");
            }
    } else if (o.json) {
        JsonOut j;
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "algos");
        json_begin_array(&j);
        for (int k = 0; k < na; k++)
            json_str(&j, algos[k]);
        json_end_array(&j);
        json_key(&j, "rows");
        json_begin_array(&j);
        for (int i = 0; i < nr; i++) {
            const Row *r = &rows[i];
            json_begin_object(&j);
            json_key(&j, "net");
            json_str(&j, r->net);
            json_key(&j, "sources");
            json_str(&j, r->src);
            json_key(&j, "s");
            json_int(&j, r->s);
            json_key(&j, "bytes");
            json_uint(&j, r->bytes);
            json_key(&j, "cost");
            json_begin_object(&j);
            for (int k = 0; k < na; k++) {
                json_key(&j, algos[k]);
                if (r->state[k] == 3)
                    json_null(&j);
                else
                    json_num(&j, r->cost[k]);
            }
            json_end_object(&j);
            if (relcol >= 0) {
                json_key(&j, "percent");
                json_begin_object(&j);
                for (int k = 0; k < na; k++) {
                    if (k == relcol)
                        continue;
                    json_key(&j, algos[k]);
                    if (r->state[k] == 3 || r->state[relcol] == 3)
                        json_null(&j);
                    else
                        json_num(&j, 100 * (r->cost[relcol] - r->cost[k]) / r->cost[relcol]);
                }
                json_end_object(&j);
            }
            json_key(&j, "verified");
            json_bool(&j, true);
            for (int k = 0; k < na; k++)
                if (r->state[k] == 1) {
                    json_bool(&j, false);
                    break;
                }
            json_end_object(&j);
        }
        json_end_array(&j);
        json_end_object(&j);
        fputc('\n', stdout);
    } else {
        printf("s-to-p compare, model %s, %s timing: simulated cost in us%s\n",
               o.model ? o.model : "seidel", o.timing ? o.timing : "lockstep",
               relcol >= 0 ? "; other columns: % cheaper than the first" : "");
        printf("%-16s %-9s %9s", "net", "sources", "bytes");
        if (relcol >= 0)
            printf(" %16s", algos[relcol]);
        for (int k = 0; k < na; k++)
            if (k != relcol)
                printf(" %16s", algos[k]);
        putchar('\n');
        for (int i = 0; i < nr; i++) {
            const Row *r = &rows[i];
            printf("%-16s %-9s %9llu", r->net, r->src, (unsigned long long)r->bytes);
            for (int t = -1; t < na; t++) {
                int k = t < 0 ? relcol : t;
                if (k < 0 || (t >= 0 && k == relcol))
                    continue;
                char c[40];
                if (r->state[k] == 3)
                    snprintf(c, sizeof c, "-");
                else if (t >= 0 && relcol >= 0 && r->state[relcol] != 3)
                    snprintf(c, sizeof c, "%+.1f%%",
                             100 * (r->cost[relcol] - r->cost[k]) / r->cost[relcol]);
                else
                    snprintf(c, sizeof c, "%s%s", export_format_double(r->cost[k], b1, sizeof b1),
                             r->state[k] == 1 ? "#" : r->state[k] == 2 ? "!" : "");
                printf(" %16s", c);
            }
            putchar('\n');
        }
    }
    free(rows);
    return rc;
}
