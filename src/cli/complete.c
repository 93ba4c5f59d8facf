/* complete.c — `meshcast complete [--] WORD...`: the completions of the last WORD (the one
 * under the cursor, possibly "") after the words before it, one per line; what the bash and
 * zsh scripts (scripts/completion/) print.  Every candidate comes from meshcast's own tables:
 * the commands and their options (cli-table.h), the built-in algorithms and the scripts,
 * lessons, themes and profiles on the search path, the cost models, net kinds and source
 * distributions.  Hidden: not in --help nor completed itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../engine/cost.h"
#include "../engine/dist.h"
#include "../engine/net.h"
#include "../script/lesson.h"
#include "../script/profile.h"
#include "../script/script.h"
#include "../tui/theme.h"
#include "cli-out.h"
#include "cli-table.h"
#include "commands.h"

static const char *const list_topics[] = {"algorithms", "lessons", "models", "nets",
                                          "distributions", "profiles", NULL};

/* Print word (with lead before it) if it starts with cur and was not printed already. */
typedef struct {
    const char *lead, *cur;
    char seen[4096];
    size_t nseen;
} Out;

static void put(Out *o, const char *word)
{
    size_t ll = strlen(o->lead), lc = strlen(o->cur);
    if (strncmp(o->cur, o->lead, ll < lc ? ll : lc) != 0)
        return;
    if (lc > ll && strncmp(word, o->cur + ll, lc - ll) != 0)
        return;
    char line[512];
    snprintf(line, sizeof line, "%s%s", o->lead, word);
    size_t l = strlen(line);
    for (size_t p = 0; p < o->nseen;) {   /* "\n"-separated list of what was printed */
        size_t e = strcspn(o->seen + p, "\n");
        if (e == l && strncmp(o->seen + p, line, l) == 0)
            return;
        p += e + 1;
    }
    if (o->nseen + l + 1 < sizeof o->seen) {
        memcpy(o->seen + o->nseen, line, l);
        o->seen[o->nseen + l] = '\n';
        o->nseen += l + 1;
    }
    puts(line);
}

static void put_list(Out *o, size_t (*lister)(char **, size_t))
{
    char *names[256];
    size_t n = lister(names, sizeof names / sizeof names[0]);
    for (size_t i = 0; i < n; i++) {
        put(o, names[i]);
        free(names[i]);
    }
}

static void put_algos(Out *o)
{
    for (size_t i = 0; i < algo_count(); i++)
        put(o, algo_at(i)->name);
    put_list(o, script_list);
}

static void put_opts(Out *o, const char *opts)
{
    char words[1024];
    snprintf(words, sizeof words, "%s", opts);
    for (char *save = NULL, *t = strtok_r(words, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        size_t l = strlen(t);
        if (l && t[l - 1] == '=')
            t[l - 1] = '\0';
        put(o, t);
    }
}

/* The values of option name (e.g. "--net") in command cmd. */
static void put_values(Out *o, const CliCommand *cmd, const char *name)
{
    if (!strcmp(name, "--net") || !strcmp(name, "--nets")) {
        char k[32];
        for (int i = 0; i < NET_NKINDS; i++)
            if (snprintf(k, sizeof k, "%s:", net_kind_name((NetKind)i)) > 0)
                put(o, k);
    } else if (!strcmp(name, "--algo") || !strcmp(name, "--vs") || !strcmp(name, "--relative")) {
        if (!strcmp(cmd->name, "compare") && !strcmp(name, "--algo"))
            put(o, "all");   /* every built-in beside the named */
        put_algos(o);
    } else if (!strcmp(name, "--model")) {
        for (int m = 0; m < COST_NMODELS; m++)
            put(o, cost_model_name((CostModel)m));
    } else if (!strcmp(name, "--theme")) {
        put(o, "default");
        put_list(o, theme_list);
    } else if (!strcmp(name, "--profile")) {
        put_list(o, profile_list);
    } else if (!strcmp(name, "--timing")) {
        put(o, "lockstep");
        put(o, "async");
        if (!strcmp(cmd->name, "compare") || !strcmp(cmd->name, "check"))
            put(o, "both");
    } else if (!strcmp(name, "--op")) {
        put(o, "broadcast");
        put(o, "reduce");
    } else if (!strcmp(name, "--fit") && strcmp(cmd->name, "calibrate") != 0) {
        put(o, "companions");
        put(o, "virtual");
    } else if (!strcmp(name, "--format")) {
        put(o, "text");
        put(o, "json");
        put(o, "csv");
        put(o, "goal");
    } else if (!strcmp(name, "--by")) {
        put(o, "tcd");
    } else if (!strcmp(name, "--sources")) {
        char k[16];
        for (int i = 0; i < DIST_NKINDS; i++)
            if (snprintf(k, sizeof k, "%s:", dist_name((DistKind)i)) > 0)
                put(o, k);
    }
}

/* The positional word number pos (0 = the first) of cmd. */
static void put_positional(Out *o, const CliCommand *cmd, int pos, const char *first)
{
    switch (cmd->args) {
    case CLI_ARGS_LESSON:
        if (pos == 0)
            put_list(o, lesson_list);
        break;
    case CLI_ARGS_LIST:
        for (size_t i = 0; pos == 0 && list_topics[i]; i++)
            put(o, list_topics[i]);
        break;
    case CLI_ARGS_ALGO:
        put_algos(o);
        break;
    case CLI_ARGS_FILE:   /* record FILE [lesson NAME]: the file is the shell's */
        if (!strcmp(cmd->name, "record") && pos == 1)
            put(o, "lesson");
        else if (!strcmp(cmd->name, "record") && pos == 2 && first && !strcmp(first, "lesson"))
            put_list(o, lesson_list);
        break;
    case CLI_ARGS_NONE:
        break;
    }
}

static int takes_value(const char *opts, const char *w)
{
    int t = 0;
    return w[0] == '-' && !strchr(w, '=') && cli_opts_has(opts, w, strlen(w), &t) && t;
}

int cmd_complete(int argc, char **argv)
{
    if (argc > 0 && !strcmp(argv[0], "--")) {
        argc--;
        argv++;
    }
    Out o;
    memset(&o, 0, sizeof o);
    o.lead = "";
    o.cur = argc > 0 ? argv[argc - 1] : "";
    int n = argc > 0 ? argc - 1 : 0;   /* the complete words before the cursor's */
    /* the display options that may come before a subcommand, then the subcommand */
    int i = 0;
    while (i < n && argv[i][0] == '-' &&
           cli_opts_has(cli_display_opts, argv[i], strcspn(argv[i], "="), NULL)) {
        int step = takes_value(cli_display_opts, argv[i]) ? 2 : 1;
        if (i + step > n)
            break;   /* its value is the word being completed */
        i += step;
    }
    const CliCommand *cmd = NULL;
    if (i < n && argv[i][0] != '-')
        cmd = cli_command_find(argv[i]);
    int start = i + 1;
    if (!cmd) {
        if (i < n && argv[i][0] != '-')
            return cli_out_finish(0);   /* an unknown command: nothing to offer */
        cmd = cli_command_find("");
        start = i;
        if (n == i && o.cur[0] != '-') {   /* the command's place */
            for (size_t k = 0; k < cli_command_count(); k++)
                if (cli_command_at(k)->name[0] && !cli_command_at(k)->hidden)
                    put(&o, cli_command_at(k)->name);
            return cli_out_finish(0);
        }
    }
    if (n - 1 >= start && takes_value(cmd->opts, argv[n - 1])) {
        /* the value of the option before: "--algo st,b" completes after the last comma */
        const char *comma = strrchr(o.cur, ',');
        char lead[256] = "";
        if (comma && (size_t)(comma - o.cur) < sizeof lead - 1)
            snprintf(lead, sizeof lead, "%.*s", (int)(comma - o.cur + 1), o.cur);
        o.lead = lead;
        put_values(&o, cmd, argv[n - 1]);
        return cli_out_finish(0);
    }
    if (o.cur[0] == '-') {
        const char *eq = strchr(o.cur, '=');
        if (eq) {   /* --net=m */
            char name[64], lead[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - o.cur), o.cur);
            const char *comma = strrchr(eq, ',');
            snprintf(lead, sizeof lead, "%.*s", (int)((comma ? comma : eq) - o.cur + 1), o.cur);
            o.lead = lead;
            put_values(&o, cmd, name);
            return cli_out_finish(0);
        }
        put_opts(&o, cmd->opts);
        if (start == i && n == i) {   /* meshcast -<TAB> */
            put(&o, "--help");
            put(&o, "--version");
        } else {
            put(&o, "--help");
        }
        return cli_out_finish(0);
    }
    /* a positional word: count those before it */
    int pos = 0;
    const char *second = NULL;
    for (int k = start; k < n; k++) {
        if (argv[k][0] == '-') {
            k += takes_value(cmd->opts, argv[k]);
            continue;
        }
        if (pos == 1)
            second = argv[k];
        pos++;
    }
    put_positional(&o, cmd, pos, second);
    return cli_out_finish(0);
}
