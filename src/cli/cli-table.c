/* cli-table.c — the subcommands, their options and their positional words (cli-table.h). */
#include "cli-table.h"

#include <stdio.h>
#include <string.h>

#include "../engine/text.h"
#include "commands.h"

#define SCREEN_OPTS "--net= --algo= --source= --sources= --bytes= --model= --set= --fit= " \
                    "--no-color --ascii --theme= --big --vs= --step= --timing= --op= "   \
                    "--profile= --measured="
#define EXEC_OPTS "--np= --reps= --mpirun= --hostfile= --timeout="

const char cli_display_opts[] = "--big --ascii --no-color --theme=";

static const CliCommand commands[] = {
    {"", cmd_tui, SCREEN_OPTS, CLI_ARGS_NONE, 0},
    {"lesson", cmd_lesson, "--no-color --ascii --big --theme= --vs= --step=", CLI_ARGS_LESSON, 0},
    {"course", cmd_course, "--json", CLI_ARGS_NONE, 0},
    {"progress", cmd_progress, "--json --reset", CLI_ARGS_LESSON, 0},
    {"record", cmd_record, "--force " SCREEN_OPTS, CLI_ARGS_FILE, 0},
    {"replay", cmd_replay, "--step=", CLI_ARGS_FILE, 0},
    {"run", cmd_run,
     "--net= --algo= --source= --sources= --map= --bytes= --model= --set= --profile= --fit= "
     "--timing= --op= --json --csv", CLI_ARGS_NONE, 0},
    {"schedule", cmd_schedule,
     "--net= --algo= --source= --sources= --map= --bytes= --model= --set= --profile= --fit= "
     "--op= --format= --json --csv", CLI_ARGS_NONE, 0},
    {"compare", cmd_compare,
     "--net= --algo= --source= --sources= --map= --bytes= --model= --set= --profile= --fit= "
     "--timing= --terms --by= --sweep= --nets= --s= --total= --relative= --exec --bisect= "
     EXEC_OPTS " --json --csv", CLI_ARGS_NONE, 0},
    {"diff", cmd_diff, "--net= --source= --bytes= --model= --set= --fit= --json", CLI_ARGS_ALGO,
     0},
    {"check", cmd_check,
     "--net= --bytes= --model= --set= --max-sources= --source= --sources= --timing= "
     "--profile= --op= --json --csv", CLI_ARGS_ALGO, 0},
    {"tradeoff", cmd_tradeoff, "--p= --kt= --points= --verify", CLI_ARGS_NONE, 0},
    {"tcd-table", cmd_tcd_table, "--net= --algo= --set= --profile= --vs=", CLI_ARGS_NONE, 0},
    {"exec", cmd_exec,
     "--net= --algo= --source= --sources= --bytes= --model= --set= --profile= --fit= "
     "--timing= --op= " EXEC_OPTS " --barrier --vs-bcast --json --csv", CLI_ARGS_NONE, 0},
    {"calibrate", cmd_calibrate, "--fit= --bytes= --save= " EXEC_OPTS " --json", CLI_ARGS_NONE, 0},
    {"advise", cmd_advise,
     "--net= --source= --bytes= --model= --set= --profile= --exec --reps= --mpirun= "
     "--timeout= --json", CLI_ARGS_NONE, 0},
    {"list", cmd_list, "", CLI_ARGS_LIST, 0},
    {"complete", cmd_complete, "", CLI_ARGS_NONE, 1},
};

size_t cli_command_count(void) { return sizeof commands / sizeof commands[0]; }

const CliCommand *cli_command_at(size_t i)
{
    return i < cli_command_count() ? &commands[i] : NULL;
}

const CliCommand *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_command_count(); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int cli_opts_has(const char *opts, const char *name, size_t namelen, int *takes)
{
    for (const char *p = opts; *p;) {
        while (*p == ' ')
            p++;
        size_t l = strcspn(p, " ");
        if (l == 0)
            break;
        int eq = p[l - 1] == '=';
        if (l - (size_t)eq == namelen && strncmp(p, name, namelen) == 0) {
            if (takes)
                *takes = eq;
            return 1;
        }
        p += l;
    }
    return 0;
}

const char *cli_opt_hint(const char *opts, const char *arg, char *buf, size_t len)
{
    char words[1024], *names[96];
    size_t n = 0;
    snprintf(words, sizeof words, "%s", opts);
    for (char *save = NULL, *t = strtok_r(words, " ", &save); t && n < 95;
         t = strtok_r(NULL, " ", &save)) {
        size_t l = strlen(t);
        if (l && t[l - 1] == '=')
            t[l - 1] = '\0';
        names[n++] = t;
    }
    names[n] = NULL;
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(arg, "="), arg);
    return text_did_you_mean(word, (const char *const *)names, buf, len);
}

const char *cli_command_hint(const char *word, char *buf, size_t len)
{
    const char *names[sizeof commands / sizeof commands[0] + 1];
    size_t n = 0;
    for (size_t i = 0; i < cli_command_count(); i++)
        if (commands[i].name[0] && !commands[i].hidden)
            names[n++] = commands[i].name;
    names[n] = NULL;
    return text_did_you_mean(word, names, buf, len);
}
