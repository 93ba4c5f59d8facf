/* cmdtab.c — the table of `:` commands and what each does (see cmdtab.h).  No curses here. */
#include "cmdtab.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/num.h"
#include "../script/lesson.h"
#include "../script/profile.h"
#include "algo-names.h"
#include "measured.h"
#include "overview.h"
#include "theme.h"

/* ---- candidates ----------------------------------------------------------------------- */

struct CmdtabCands {
    char **v;
    size_t n, cap;
};

void cmdtab_cands_add(CmdtabCands *c, const char *s)
{
    if (c->n + 2 > c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 32;
        char **g = realloc(c->v, cap * sizeof *g);
        if (!g) return;
        c->v = g;
        c->cap = cap;
    }
    char *d = strdup(s);
    if (d) c->v[c->n++] = d;
}

static void cands_take(CmdtabCands *c, char **names, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        cmdtab_cands_add(c, names[i]);
        free(names[i]);
    }
}

static void comp_algo(App *a, int wi, CmdtabCands *c)
{
    (void)wi;   /* built-ins and scripts on the search path that run here (algo-names.h) */
    char *names[64];
    const Bcast *b = app_bcast(a);
    cands_take(c, names, algo_names(b->ready ? b->setup.net : NULL, names, 64));
}

static void comp_model(App *a, int wi, CmdtabCands *c)
{
    (void)a;
    if (wi != 1) return;
    for (int m = 0; m < COST_NMODELS; m++) cmdtab_cands_add(c, cost_model_name((CostModel)m));
}

static void comp_profile(App *a, int wi, CmdtabCands *c)
{
    (void)a;
    if (wi != 1) return;
    char *names[62];
    cmdtab_cands_add(c, "off");
    cands_take(c, names, profile_list(names, 62));
}

static void comp_set(App *a, int wi, CmdtabCands *c)
{
    (void)wi;
    static const char *const p[] = {"a=", "b=", "rho=", "nu=", "t=", "beta=", "duplex=", "alpha=",
                                    "delta=", "tau=", "gamma=", NULL};
    for (int i = 0; p[i]; i++) cmdtab_cands_add(c, p[i]);
    const Bcast *b = app_bcast(a);
    if (b->ready && net_kind(b->setup.net) == NET_HXBAR) cmdtab_cands_add(c, "c=");
    if (b->ready)
        for (int i = 0; i < b->setup.def->nparams; i++) {
            char t[64];
            snprintf(t, sizeof t, "%s=", b->setup.def->params[i].name);
            cmdtab_cands_add(c, t);
        }
}

static void comp_lesson(App *a, int wi, CmdtabCands *c)
{
    (void)a;
    if (wi != 1) return;
    char *names[64];
    cands_take(c, names, lesson_list(names, 64));
}

static void comp_theme(App *a, int wi, CmdtabCands *c)
{
    (void)a;
    if (wi != 1) return;
    char *names[16];
    size_t k = theme_list(names, 16);
    cmdtab_cands_add(c, "default");
    for (size_t i = 0; i < k; i++) {
        if (strcmp(names[i], "default") != 0) cmdtab_cands_add(c, names[i]);
        free(names[i]);
    }
}

static void comp_figure(App *a, int wi, CmdtabCands *c)
{
    (void)a;
    if (wi == 2) cmdtab_cands_add(c, "async");
}

static void comp_chart(App *a, int wi, CmdtabCands *c)
{
    (void)a;
    static const char *const p[] = {"64", "1024", "16384", NULL};
    if (wi == 2)
        for (int i = 0; p[i]; i++) cmdtab_cands_add(c, p[i]);
}

/* ---- the commands --------------------------------------------------------------------- */

static bool run_quit(App *a, char **w, int n)
{
    (void)w, (void)n;
    app_quit(a);
    return true;
}

static bool run_help(App *a, char **w, int n)
{
    (void)w, (void)n;
    app_help_open(a);
    return true;
}

/* The commands that set one word of the broadcast (app_change), with an example each. */
static bool one_value(App *a, char **w, int n, const char *example)
{
    if (n != 2) {
        app_msg(a, true, ":%s takes one value, e.g. %s", w[0], example);
        return false;
    }
    return app_change(a, w[0], w[1]);
}
static bool run_algo(App *a, char **w, int n) { return one_value(a, w, n, ":algo bst"); }
static bool run_net(App *a, char **w, int n) { return one_value(a, w, n, ":net torus:5x5"); }
static bool run_source(App *a, char **w, int n) { return one_value(a, w, n, ":source 3,4"); }
static bool run_bytes(App *a, char **w, int n) { return one_value(a, w, n, ":bytes 4096"); }
static bool run_model(App *a, char **w, int n) { return one_value(a, w, n, ":model circuit"); }
static bool run_fit(App *a, char **w, int n) { return one_value(a, w, n, ":fit companions"); }
static bool run_sources(App *a, char **w, int n) { return one_value(a, w, n, ":sources Dr:10"); }
static bool run_op(App *a, char **w, int n) { return one_value(a, w, n, ":op reduce"); }
static bool run_profile(App *a, char **w, int n)
{
    return one_value(a, w, n, ":profile paragon (or :profile off)");
}

static bool run_set(App *a, char **w, int n)
{
    if (n < 2) {
        app_msg(a, true, ":set takes NAME=VALUE, e.g. :set nu=1");
        return false;
    }
    return app_sets(a, w + 1, (size_t)(n - 1));
}

static bool run_step(App *a, char **w, int n)
{
    uint64_t u = 0;
    NumStatus ns = n == 2 ? num_u64(w[1], &u, NULL) : NUM_SYNTAX;   /* num.h */
    long v = ns == NUM_TOO_LARGE || u > INT32_MAX ? INT32_MAX : (long)u;
    if (ns != NUM_OK && ns != NUM_TOO_LARGE) {
        app_msg(a, true, ":step takes a step number 0..%ld", (long)app_nsteps(a));
        return false;
    }
    if (v > app_nsteps(a)) {
        app_msg(a, true, "step %ld is past the last step (%ld)", v, (long)app_nsteps(a));
        return false;
    }
    app_goto(a, (int32_t)v);
    app_msg_clear(a);
    return true;
}

static bool run_lesson(App *a, char **w, int n)
{
    if (n != 2) {
        app_msg(a, true, ":lesson takes a lesson name or file");
        return false;
    }
    return app_open_lesson(a, w[1]);
}

static bool run_export(App *a, char **w, int n)
{
    bool force = n == 3 && strcmp(w[2], "--force") == 0;
    size_t l = n == 2 || force ? strlen(w[1]) : 0;
    if ((n != 2 && !force) || l < 5 || l >= APP_EXPORT_PATH_MAX ||
        (strcmp(w[1] + l - 4, ".txt") != 0 && strcmp(w[1] + l - 4, ".svg") != 0)) {
        app_msg(a, true, ":export takes FILE.txt (the screen as text) or FILE.svg (a picture)");
        return false;
    }
    app_export_request(a, w[1], force);
    return true;
}

static bool run_vs(App *a, char **w, int n)
{
    return app_vs_command(a, (const char *const *)w + 1, n - 1);
}

static bool run_measured(App *a, char **w, int n)   /* :exec and :measured (measured.h) */
{
    return measured_command(a, w[0], (const char *const *)w + 1, n - 1);
}

static bool run_figure(App *a, char **w, int n)
{
    return app_figure(a, (const char *const *)w + 1, n - 1);
}

static bool run_overview(App *a, char **w, int n)
{
    const Bcast *b = app_bcast(a);
    if (!b->ready || !overview_supported(b->setup.net)) {
        app_msg(a, true, ":overview draws arrays, rings, meshes and tori of 1 or 2 dimensions");
        return false;
    }
    if (n == 2 && strcmp(w[1], "off") == 0) {
        app_overview_set(a, false, 0);
    } else {
        uint64_t u = 0;   /* num.h's one rule: a block size, or the fit */
        if (n == 2 && num_u64(w[1], &u, NULL) != NUM_OK) {
            app_msg(a, true, ":overview takes a block size (a number), or off");
            return false;
        }
        app_overview_set(a, true, u < (1u << 20) ? (long)u : 0);
    }
    return true;
}

static bool run_timing(App *a, char **w, int n)
{
    if (n != 2 || (strcmp(w[1], "async") != 0 && strcmp(w[1], "lockstep") != 0)) {
        app_msg(a, true, ":timing takes async or lockstep");
        return false;
    }
    return app_timing(a, strcmp(w[1], "async") == 0);
}

static bool run_tiles(App *a, char **w, int n)
{
    int level = 0;
    if (!(n == 2 && strcmp(w[1], "off") == 0)) {
        uint64_t u = 1;
        if (n > 2 || (n == 2 && (num_u64(w[1], &u, NULL) != NUM_OK || u < 1 || u > 64))) {
            app_msg(a, true, ":tiles takes a level (1, 2, ...) or off");
            return false;
        }
        level = (int)u;
    }
    return app_tiles(a, level);
}

static bool run_hot(App *a, char **w, int n)
{
    (void)w, (void)n;
    OvSrc src = app_overview_src(a);
    int32_t h = overview_hot(&src);
    if (h < 0) {
        app_msg(a, true, "no link carries a circuit at this step");
        return false;
    }
    app_cursor_to(a, h);
    return true;
}

static bool run_chart(App *a, char **w, int n)   /* the Chart panel: cost vs size, or Fig. 3 */
{
    int64_t P = 1024;
    bool fig3 = n >= 2 && strcmp(w[1], "tradeoff") == 0;
    if (n >= 2 && !fig3 && strcmp(w[1], "cost") != 0)
        P = -1;
    if (fig3 && n == 3)
        P = strcmp(w[2], "64") == 0      ? 64
            : strcmp(w[2], "1024") == 0  ? 1024
            : strcmp(w[2], "16384") == 0 ? 16384
                                         : -1;
    if (n < 2 || n > 3 || P < 0 || (!fig3 && n == 3)) {
        app_msg(a, true, ":chart tradeoff [64|1024|16384] (Sanders & Sibeyn's Fig. 3) or "
                ":chart cost (cost against message size)");
        return false;
    }
    app_chart_show(a, fig3, P);
    return true;
}

static bool run_big(App *a, char **w, int n)
{
    app_big(a, n == 2 ? strcmp(w[1], "off") != 0 : -1);
    return true;
}

static bool run_theme(App *a, char **w, int n)
{
    if (n != 2) {
        app_msg(a, true, ":theme takes a theme name (assets/NAME.theme)");
        return false;
    }
    char terr[300];
    if (!theme_check(w[1], terr, sizeof terr)) {
        app_msg(a, true, "%s", terr);
        return false;
    }
    app_theme_request(a, w[1]);
    return true;
}

/* ---- the table ------------------------------------------------------------------------ */

#define W(...) ((const char *const[]){__VA_ARGS__, NULL})

static const CmdtabCmd table[] = {
    {"algo", NULL, {{"NAME", "algorithm (st, bst, rh, chain, ... or FILE.lua)"}}, run_algo, NULL,
     comp_algo},
    {"net", NULL, {{"SPEC", "net: array:16 ring:16 mesh:8x8 torus:5x5 mesh:4x4x4"}}, run_net,
     W("array:", "ring:", "mesh:", "torus:", "full:", "hxbar:"), NULL},
    {"source", NULL, {{"ID|R,C", "source node"}}, run_source, NULL, NULL},
    {"sources", NULL, {{"SPEC|off", "many sources (compare --sources: Dr:10, ...); off: one again"}},
     run_sources, W("off"), NULL},
    {"bytes", NULL, {{"N", "message length (1024, 64K, 1M)"}}, run_bytes,
     W("64", "1024", "4096", "64K", "1M"), NULL},
    {"model", NULL, {{"M", "seidel, postal, circuit, saf"}}, run_model, NULL, comp_model},
    {"op", NULL, {{"reduce", "the broadcast run backwards (:op broadcast back)"}}, run_op,
     W("broadcast", "reduce"), NULL},
    {"set", NULL, {{"K=V ...", "cost or algorithm parameter (nu=1, a=0.08, ...)"}}, run_set, NULL,
     comp_set},
    {"profile", NULL, {{"NAME", "a machine's constants (list profiles; :profile off)"}},
     run_profile, NULL, comp_profile},
    {"fit", NULL, {{"F", "companions, virtual, none, auto"}}, run_fit,
     W("companions", "virtual", "none", "auto"), NULL},
    {"step", NULL, {{"N", "jump to step N"}}, run_step, NULL, NULL},
    {"lesson", NULL, {{"NAME", "open a lesson"}}, run_lesson, NULL, comp_lesson},
    {"theme", NULL, {{"NAME", "colours from assets/NAME.theme"}}, run_theme, NULL, comp_theme},
    {"big", NULL, {{"[off]", "projector mode: tall cells, the map fills the screen"}}, run_big,
     W("off"), NULL},
    {"overview", NULL, {{"[B|off]", "a character a block of B rows by B/2 columns (Z past the smallest zoom)"}},
     run_overview, W("off"), NULL},
    {"hot", NULL, {{"", "cursor to the most loaded link of the step"}}, run_hot, NULL, NULL},
    {"tiles", NULL, {{"[N|off]", "the tiles the last N informing phases grow (tiling: crosses, "
                                 "squares)"}},
     run_tiles, W("1", "2", "off"), NULL},
    {"timing", NULL, {{"async|lockstep", "step through the asynchronous run moment by moment, or "
                                         "by steps"}},
     run_timing, W("async", "lockstep"), NULL},
    {"vs", NULL, {{"ALGO [K=V]..", "side by side: a second algorithm or settings, stepped together"},
                  {"off", "back to one broadcast"}},
     run_vs, NULL, comp_algo},
    {"figure", NULL, {{"N [async]", "Chart: Fig. N (2..8) of the s-to-p paper, as compare --sources"},
                      {"off", "Chart: back to cost vs message size"}},
     run_figure, W("2", "3", "4", "5", "6", "7", "8", "off"), comp_figure},
    {"export", NULL, {{"FILE [--force]", "the screen as FILE.txt or as an SVG picture FILE.svg "
                                         "(--force: replace)"}},
     run_export, NULL, NULL},
    {"chart", NULL, {{"tradeoff [P]", "Chart panel: Sanders & Sibeyn's Fig. 3, P = 64, 1024 or 16384"},
                     {"cost", "Chart panel: cost against message size"}},
     run_chart, W("tradeoff", "cost"), comp_chart},
    {"exec", NULL, {{"[R|cancel]", "run the broadcast on MPI ranks (R reps; Escape or :exec cancel "
                                   "ends it): measured beside"}},
     run_measured, W("cancel"), NULL},
    {"measured", NULL, {{"FILE|off", "exec --json's run drawn in Timeline and Chart beside the "
                                     "model"}},
     run_measured, W("off"), NULL},
    {"help", NULL, {{"", "this help"}}, run_help, NULL, NULL},
    {"quit", W("q", "q!"), {{"", "quit (also :q, :q!)"}}, run_quit, NULL, NULL},
};

const CmdtabCmd *cmdtab_all(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

const CmdtabCmd *cmdtab_find(const char *word)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].name, word) == 0) return &table[i];
        for (const char *const *al = table[i].aliases; al && *al; al++)
            if (strcmp(*al, word) == 0) return &table[i];
    }
    return NULL;
}

bool cmdtab_run(App *a, const char *line)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", line);
    char *words[16];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w && n < 16;
         w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    if (n == 0) return true;
    const CmdtabCmd *c = cmdtab_find(words[0]);
    if (!c) {
        app_msg(a, true, "unknown command '%s' (Tab lists the commands, :help says what they do)",
                words[0]);
        return false;
    }
    return c->run(a, words, n);
}

/* ---- completion ----------------------------------------------------------------------- */

char **cmdtab_candidates(App *a, const char *first, int wi, size_t *n)
{
    CmdtabCands c = {0};
    if (wi == 0) {
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
            cmdtab_cands_add(&c, table[i].name);
            for (const char *const *al = table[i].aliases; al && *al; al++)
                cmdtab_cands_add(&c, *al);
        }
    } else {
        const CmdtabCmd *cmd = cmdtab_find(first);
        if (cmd && wi == 1 && cmd->words)
            for (const char *const *w = cmd->words; *w; w++) cmdtab_cands_add(&c, *w);
        if (cmd && cmd->complete) cmd->complete(a, wi, &c);
    }
    if (!c.v) c.v = calloc(1, sizeof *c.v);
    if (c.v) c.v[c.n] = NULL;
    *n = c.v ? c.n : 0;
    return c.v;
}

void cmdtab_candidates_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}
