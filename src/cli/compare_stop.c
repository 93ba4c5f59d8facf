/* compare_stop.c — `meshcast compare --sources ...`: the s-to-p algorithms side by side, the
 * paper's figures as measured tables (the s-to-p paper, Figs. 2-8).
 *
 *   meshcast compare --sources SPEC[,SPEC...] [--net SPEC | --nets SPEC,SPEC...]
 *                    [--s LO:HI[:STEP]] [--bytes M|LO:HI | --total M] [--algos A,B,...]
 *                    [--relative ALGO] [--model M] [--set K=V]... [--profile NAME]
 *                    [--timing T]
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
 * Cells: the simulated cost (in the model's unit: us under seidel); '#' not verified, '!' breaks the model, '-' does not run.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/text.h"
#include "../script/stopcmp.h"
#include "cli-opts.h"
#include "commands.h"

typedef struct {
    const char *net, *nets, *sources, *s, *bytes, *total, *algos, *relative, *model, *timing;
    const char *profile;
    const char *sets[64];
    size_t nsets;
    bool json, csv;
} Opts;

static void help(void)
{
    puts("usage: meshcast compare --sources SPEC[,SPEC...] [--net SPEC | --nets SPEC,...]\n"
         "                        [--s LO:HI[:STEP]] [--bytes M|LO:HI | --total M]\n"
         "                        [--algo[s] A,B,FILE.lua,...] [--relative ALGO] [--model M]\n"
         "                        [--set K=V]... [--profile NAME] [--timing lockstep|async]\n"
         "                        [--json|--csv]\n"
         "The s-to-p algorithms side by side: one row for every net, source spec, s and\n"
         "message length; cells are simulated costs (us).  A spec is R:30, Dr:10% (of p) or\n"
         "a bare kind with --s.  --total M: each source M/s bytes.  --relative ALGO: the\n"
         "others as the percentage by which they are cheaper than ALGO.");
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
                                        "csv", "profile"};
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
        const char *nm = strcmp(a + 2, "algo") == 0 ? "algos" : a + 2;   /* as every compare */
        for (k = 0; k < nn; k++)
            if (strcmp(nm, names[k]) == 0)
                break;
        if (k == nn) {   /* with the nearest of names (--algo for "algos") */
            char m[200], hint[96], dashed[sizeof names / sizeof names[0]][24];
            const char *all[sizeof names / sizeof names[0] + 1];
            for (k = 0; k < nn; k++) {
                snprintf(dashed[k], sizeof dashed[k], "--%s",
                         strcmp(names[k], "algos") == 0 ? "algo" : names[k]);
                all[k] = dashed[k];
            }
            all[nn] = NULL;
            char word[80];
            snprintf(word, sizeof word, "%.*s", (int)strcspn(a, "="), a);
            snprintf(m, sizeof m, "unknown option '%.60s'%s for compare --sources", a,
                     text_did_you_mean(word, all, hint, sizeof hint));
            return cli_usage_error(m);
        }
        if (k == 13) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                return usage("option '%s' needs a value", a);
            if (o->profile)
                return usage("option '%s' given twice", a);
            o->profile = argv[++i];
            continue;
        }
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

int cmd_compare_stop(int argc, char **argv)
{
    Opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    StopCmpSpec spec = {.net = o.net, .nets = o.nets, .sources = o.sources, .s = o.s,
                        .bytes = o.bytes, .total = o.total, .algos = o.algos,
                        .relative = o.relative, .model = o.model, .profile = o.profile,
                        .async = o.timing && strcmp(o.timing, "async") == 0,
                        .sets = o.sets, .nsets = o.nsets};
    char err[512];
    StopCmp *c = stopcmp_plan(&spec, err, sizeof err);
    if (!c)
        return cli_usage_error(err);
    stopcmp_run(c);
    int nr = stopcmp_nrows(c), na = stopcmp_nalgos(c), relcol = stopcmp_relcol(c);
    rc = 0;
    for (int i = 0; i < nr; i++)
        for (int k = 0; k < na; k++)
            if (stopcmp_row(c, i)->state[k] == STOPCMP_UNVERIFIED)
                rc = 1;

    /* output */
    char b1[64];
    if (o.csv) {
        fputs("net,sources,s,bytes,algo,cost,steps,verified,valid\n", stdout);
        for (int i = 0; i < nr; i++)
            for (int k = 0; k < na; k++) {
                const StopCmpRow *r = stopcmp_row(c, i);
                if (r->state[k] >= STOPCMP_NORUN)
                    continue;
                printf("%s,%s,%ld,%llu,%s,%s,%ld,%s,%s\n", r->net, r->src, (long)r->s,
                       (unsigned long long)r->bytes, stopcmp_algo(c, k),
                       export_format_double(r->cost[k], b1, sizeof b1), (long)r->steps[k],
                       r->state[k] != STOPCMP_UNVERIFIED ? "true" : "false",
                       r->state[k] == STOPCMP_OK ? "true" : "false");
            }
    } else if (o.json) {
        JsonOut j;
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "algos");
        json_begin_array(&j);
        for (int k = 0; k < na; k++)
            json_str(&j, stopcmp_algo(c, k));
        json_end_array(&j);
        json_key(&j, "rows");
        json_begin_array(&j);
        for (int i = 0; i < nr; i++) {
            const StopCmpRow *r = stopcmp_row(c, i);
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
                json_key(&j, stopcmp_algo(c, k));
                if (r->state[k] >= STOPCMP_NORUN)
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
                    json_key(&j, stopcmp_algo(c, k));
                    double pc;
                    if (stopcmp_percent(c, i, k, &pc))
                        json_num(&j, pc);
                    else
                        json_null(&j);
                }
                json_end_object(&j);
            }
            json_key(&j, "verified");
            json_bool(&j, true);
            for (int k = 0; k < na; k++)
                if (r->state[k] == STOPCMP_UNVERIFIED) {
                    json_bool(&j, false);
                    break;
                }
            json_end_object(&j);
        }
        json_end_array(&j);
        json_end_object(&j);
        fputc('\n', stdout);
    } else {
        CostModel cm = COST_SEIDEL;
        if (o.model)
            cost_model_parse(o.model, &cm);
        printf("s-to-p compare, model %s, %s timing: simulated cost in %s%s\n",
               o.model ? o.model : "seidel", o.timing ? o.timing : "lockstep", cost_unit(cm),
               relcol >= 0 ? "; other columns: % cheaper than the first" : "");
        printf("%-16s %-9s %9s", "net", "sources", "bytes");
        if (relcol >= 0)
            printf(" %16s", stopcmp_algo(c, relcol));
        for (int k = 0; k < na; k++)
            if (k != relcol)
                printf(" %16s", stopcmp_algo(c, k));
        putchar('\n');
        for (int i = 0; i < nr; i++) {
            const StopCmpRow *r = stopcmp_row(c, i);
            printf("%-16s %-9s %9llu", r->net, r->src, (unsigned long long)r->bytes);
            for (int t = -1; t < na; t++) {
                int k = t < 0 ? relcol : t;
                if (k < 0 || (t >= 0 && k == relcol))
                    continue;
                char cl[40];
                double pc;
                if (r->state[k] >= STOPCMP_NORUN)
                    snprintf(cl, sizeof cl, "-");
                else if (t >= 0 && stopcmp_percent(c, i, k, &pc))
                    snprintf(cl, sizeof cl, "%+.1f%%", pc);
                else
                    snprintf(cl, sizeof cl, "%s%s",
                             export_format_double(r->cost[k], b1, sizeof b1),
                             r->state[k] == STOPCMP_UNVERIFIED ? "#"
                             : r->state[k] == STOPCMP_INVALID  ? "!" : "");
                printf(" %16s", cl);
            }
            putchar('\n');
        }
    }
    stopcmp_free(c);
    return rc;
}
