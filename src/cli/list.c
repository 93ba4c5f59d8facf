/* list.c — `meshcast list [algorithms|lessons|models|nets|distributions|profiles]`: what
 * meshcast knows.  Without an argument, everything, under headings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../engine/cost.h"
#include "../engine/dist.h"
#include "../engine/text.h"
#include "../script/lesson.h"
#include "../script/profile.h"
#include "../script/script.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"

static void list_algorithms(void)
{
    char kinds[64];
    /* the columns as wide as their widest entry, so that every summary starts in one column */
    int wname = 0, wnets = 0;
    for (size_t i = 0; i < algo_count(); i++) {
        const AlgoDef *d = algo_at(i);
        int ln = (int)strlen(d->name), lk = (int)strlen(algo_nets_text(d->nets, kinds, sizeof kinds));
        if (ln > wname) wname = ln;
        if (lk > wnets) wnets = lk;
    }
    for (size_t i = 0; i < algo_count(); i++) {
        const AlgoDef *d = algo_at(i);
        printf("%-*s %-*s %s", wname, d->name, wnets, algo_nets_text(d->nets, kinds, sizeof kinds),
               d->summary ? d->summary : "");
        if (d->ref && d->ref[0])
            printf(" [%s]", d->ref);
        for (int k = 0; k < d->nparams; k++)
            if (d->params[k].def == ALGO_AUTO)
                printf("%s%s=auto", k ? " " : "  params: ", d->params[k].name);
            else
                printf("%s%s=%g", k ? " " : "  params: ", d->params[k].name, d->params[k].def);
        putchar('\n');
    }
    /* a write that failed in the table (the s-to-p algorithms make it pass stdio's buffer) is
     * remembered before the script search below can change errno */
    if (cli_out_failed())
        return;
    /* Scripts on the search path, each loaded in the sandbox so that what is shown is what
     * the script itself declares (a script that is refused says why). */
    char *names[256];
    size_t n = script_list(names, sizeof names / sizeof names[0]);
    if (n > 0)
        printf("\nLua scripts on the search path (--algo NAME.lua):\n");
    /* (a file's name, a script's summary and its error are shown through text_quote); the
     * columns as wide as their widest entry, as the built-ins' */
    typedef struct {
        char name[128], nets[64], text[340];
        bool refused;
    } Line;
    Line *lines = n ? calloc(n, sizeof *lines) : NULL;
    int wn = 0, wk = 0;
    for (size_t i = 0; i < n && lines; i++) {
        AlgoDef *owned = NULL;
        char err[256], shown[320], file[300];
        Line *l = &lines[i];
        snprintf(file, sizeof file, "%s.lua", names[i]);
        text_quote(names[i], 100, l->name, sizeof l->name);
        const AlgoDef *d = script_algo(file, NULL, &owned, err, sizeof err);
        if (d) {
            algo_nets_text(d->nets, l->nets, sizeof l->nets);
            snprintf(l->text, sizeof l->text, "%s", text_quote(d->summary, 300, shown, sizeof shown));
            if ((int)strlen(l->nets) > wk) wk = (int)strlen(l->nets);
        } else {
            l->refused = true;
            snprintf(l->text, sizeof l->text, "refused: %s", text_quote(err, 300, shown, sizeof shown));
        }
        if ((int)strlen(l->name) > wn) wn = (int)strlen(l->name);
        algo_release(owned);
    }
    for (size_t i = 0; i < n && lines && !cli_out_failed(); i++)
        if (lines[i].refused)
            printf("%-*s %s\n", wn, lines[i].name, lines[i].text);
        else
            printf("%-*s %-*s %s\n", wn, lines[i].name, wk, lines[i].nets, lines[i].text);
    if (n && !lines)
        cli_error("out of memory");
    free(lines);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

static void list_lessons(void) { course_list_lessons(); }

static void list_models(void)
{
    for (int m = 0; m < COST_NMODELS; m++) {
        CostParams p;
        cost_defaults(&p, (CostModel)m);
        printf("%-8s %s\n", cost_model_name((CostModel)m), cost_model_summary((CostModel)m));
        const char *const *names = cost_param_names((CostModel)m);
        printf("         defaults:");
        for (size_t i = 0; names && names[i]; i++)
            printf(" %s=%g", names[i], cost_param_get(&p, names[i]));
        putchar('\n');
    }
    puts("Every model: --set gamma=V prices combining in a reduction (per byte, default 0).\n"
         "Operations (--op, run, schedule and the screen; :op on its command line):\n"
         "broadcast  every node ends with the source's message (the default)\n"
         "reduce     the broadcast run backwards: the source ends with every node's\n"
         "           contribution to every chunk combined exactly once (a Lua script may\n"
         "           build its own reduction, op = \"reduce\")");
}

/* The machine profiles (profile.h): name, where it is read from, what it is, its constants;
 * a profile that is refused says why. */
static void list_profiles(void)
{
    char *names[256];
    size_t n = profile_list(names, sizeof names / sizeof names[0]);
    if (n == 0)
        puts("(no profiles: assets/profiles/NAME.profile or "
             "$XDG_CONFIG_HOME/meshcast/profiles/NAME.profile)");
    for (size_t i = 0; i < n; i++) {
        char err[400], shown[420], name[80];
        text_quote(names[i], 64, name, sizeof name);
        Profile *p = cli_out_failed() ? NULL : profile_load(names[i], err, sizeof err);
        if (p) {
            printf("%-10s %s\n", name, text_quote(profile_about(p), 300, shown, sizeof shown));
            printf("           %s\n          ", text_quote(profile_file(p), 300, shown,
                                                           sizeof shown));
            const char *k, *v;
            for (size_t e = 0; profile_entry(p, e, &k, &v); e++)
                printf(" %s=%s", k, text_quote(v, 100, shown, sizeof shown));
            putchar('\n');
        } else if (!cli_out_failed()) {
            printf("%-10s refused: %s\n", name, text_quote(err, 380, shown, sizeof shown));
        }
        profile_free(p);
        free(names[i]);
    }
}

static void list_distributions(void)
{
    char buf[16];
    for (int k = 0; k < DIST_NKINDS; k++)
        if (snprintf(buf, sizeof buf, "%s:S", dist_name((DistKind)k)) > 0)
            printf("%-6s %s\n", buf, dist_summary((DistKind)k));
    puts("Or a list of nodes: ids separated by commas (0,17,42), or ids and coordinates\n"
         "separated by ';' (3,4;5,6).  --sources SPEC; s-to-p algorithms take any number.");
}

static void list_nets(void)
{
    puts("array:N        linear array of N nodes (array:16)\n"
         "ring:N         ring of N nodes, wrap-around link (ring:16)\n"
         "mesh:RxC       2-D mesh, R rows and C columns, node (r,c) = r*C+c (mesh:16x32)\n"
         "mesh:AxBxC     3-D mesh (mesh:4x4x4)\n"
         "torus:RxC      2-D torus, wrap-around in both dimensions (torus:25x25)\n"
         "torus:AxBxC    3-D torus\n"
         "full:P         P processors, any to any in one hop, a private link per pair;\n"
         "               only the ports count (Sanders & Sibeyn; full:64)\n"
         "hxbar:AxB      hierarchical crossbar: A modules of B processors, any to any in\n"
         "               one hop, C channels per module to the others (hxbar:AxB,c=C,\n"
         "               default 2, or --set c=C); the simulator counts channel\n"
         "               contention, --timing async the channel waits (hxbar:256x64)\n"
         "Sources: a node id (37) or coordinates (3,4 or 1,2,3).");
}

int cmd_list(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } what[] = {
        {"algorithms", list_algorithms}, {"lessons", list_lessons},
        {"models", list_models},         {"nets", list_nets},
        {"distributions", list_distributions}, {"profiles", list_profiles},
    };
    if (argc > 1) {
        cli_error("list takes one argument (algorithms, lessons, models, "
                "nets, distributions, profiles)");
        return 2;
    }
    if (argc == 1) {
        if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
            puts("usage: meshcast list [algorithms|lessons|models|nets|distributions|profiles]");
            return 0;
        }
        for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
            if (strcmp(argv[0], what[i].name) == 0) {
                what[i].fn();
                return cli_out_finish(0);
            }
        const char *topics[sizeof what / sizeof what[0] + 1];
        for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
            topics[i] = what[i].name;
        topics[sizeof what / sizeof what[0]] = NULL;
        char hint[96];
        cli_error("cannot list '%s'%s (algorithms, lessons, models, nets, distributions, "
                  "profiles)", argv[0], text_did_you_mean(argv[0], topics, hint, sizeof hint));
        return 2;
    }
    for (size_t i = 0; i < sizeof what / sizeof what[0] && !cli_out_failed(); i++) {
        printf("%s%s:\n", i ? "\n" : "", what[i].name);
        what[i].fn();
    }
    return cli_out_finish(0);
}
