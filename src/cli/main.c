/* main.c — meshcast's entry point: pick the subcommand and hand it its arguments.
 *
 *   meshcast                      the terminal UI (cmd_tui)
 *   meshcast --net mesh:8x8 ...   the terminal UI on that broadcast (any first argument that
 *                                 starts with '-', except --help and --version)
 *   meshcast lesson|check|run|schedule|compare|list ...
 *   meshcast help|--help, meshcast --version
 *
 * Exit status (commands.h): 0 verified and valid, 1 a wrong or violating schedule, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-opts.h"
#include "cli-out.h"
#include "cli-table.h"
#include "commands.h"

#ifndef MESHCAST_VERSION
#define MESHCAST_VERSION "0.1"
#endif

static void usage(FILE *f)
{
    fputs("usage: meshcast [--net SPEC] [--algo NAME] [--source ID | --sources SPEC] ...\n"
          "                [--big] [--vs ALGO] [--ascii] [--no-color] [--theme NAME]\n"
          "                [--step N] [--measured FILE.json]    the terminal UI\n"
          "                (--big, --ascii, --no-color, --theme also before lesson, record)\n"
          "       meshcast lesson NAME|FILE.lua                  a guided lesson\n"
          "       meshcast course [--json]                       the lessons, in the course's order\n"
          "       meshcast progress [--json] | --reset [LESSON]  your progress over the course\n"
          "       meshcast record FILE.cast [--force] [... | lesson NAME]   the screen, recorded\n"
          "       meshcast replay FILE.cast [--step N]           step through a recording\n"
          "       meshcast run --net SPEC --algo NAME [--source ID|R,C[,Z]] [--bytes M]\n"
          "                    [--model seidel|postal|circuit|saf] [--set K=V]... [--profile NAME]\n"
          "                    [--fit companions|virtual] [--timing lockstep|async]\n"
          "                    [--op broadcast|reduce] [--json|--csv]\n"
          "       meshcast schedule ... [--format text|json|csv|goal]\n"
          "       meshcast tcd-table --net SPEC [--algo tcd|tcd-opt] [--set K=V]...\n"
          "       meshcast exec --net SPEC --algo NAME [--bytes M] [--reps R] [--timing T]\n"
          "                    [--mpirun CMD] [--json|--csv]   run it on MPI ranks, measured\n"
          "       meshcast calibrate [--np N] [--save NAME]      fit the models to this machine\n"
          "       meshcast advise --net SPEC --bytes M [--profile P]   the fastest algorithm\n"
          "       meshcast compare --net SPEC [--bytes LO:HI] [--model M] [--set K=V]...\n"
          "                    [--json|--csv]\n"
          "       meshcast tradeoff [--p P,...] [--kt LO:HI] [--verify]   Sanders & Sibeyn Fig. 3\n"
          "       meshcast check FILE.lua [--net SPEC]... [--model M] [--timing lockstep|async|both]\n"
          "                      [--source ID | --sources SPEC]... [--json|--csv]\n"
          "       meshcast diff A B --net SPEC [--source ID] [--bytes M] [--model M] [--json]\n"
          "       meshcast list [algorithms|lessons|models|nets|profiles]\n"
          "       meshcast --help | --version\n"
          "\n"
          "Nets: array:16, ring:16, mesh:16x32, torus:25x25, mesh:4x4x4, full:64, hxbar:16x8.\n"
          "Bytes: 1024, 64K, 1M.\n"
          "Exit status: 0 verified and valid, 1 wrong or violating schedule, 2 usage error.\n"
          "See meshcast(1).\n",
          f);
}

/* `meshcast --theme light lesson X`, `meshcast --big record f.cast ...`: the display options
 * (cli_display_opts) before a subcommand go to it when it draws (lesson, record); any other
 * subcommand refuses them in one line; no subcommand: the screen's options as ever. */
static int display_first(int argc, char **argv)
{
    /* past the screen's options (and their values) to the first bare word */
    int i = 1, takes = 0, first_other = 0;
    const char *screen = cli_command_find("")->opts;
    while (i < argc && argv[i][0] == '-' &&
           cli_opts_has(screen, argv[i], strcspn(argv[i], "="), &takes)) {
        if (!first_other && !cli_opts_has(cli_display_opts, argv[i], strcspn(argv[i], "="), NULL))
            first_other = i;
        i += takes && !strchr(argv[i], '=') ? 2 : 1;
    }
    const CliCommand *c = i < argc && argv[i][0] != '-' ? cli_command_find(argv[i]) : NULL;
    if (!c || !c->name[0])
        return cmd_tui(argc - 1, argv + 1);
    if (first_other) {   /* meshcast --net mesh:8x8 run ...: only display options go first */
        const char *o = argv[first_other];
        int ol = (int)strcspn(o, "=");
        if (cli_opts_has(c->opts, o, (size_t)ol, NULL))
            cli_error("%.*s goes after the subcommand (meshcast %s ... %.*s); only --big, "
                      "--ascii, --no-color and --theme may come before it", ol, o, c->name,
                      ol, o);
        else
            cli_error("%s does not take %.*s (meshcast %s --help)", c->name, ol, o, c->name);
        return 2;
    }
    if (strcmp(c->name, "lesson") != 0 && strcmp(c->name, "record") != 0) {
        cli_error("%s goes with the screen (meshcast %s [--net ...], lesson, record), not with "
                  "%s", argv[1], argv[1], c->name);
        return 2;
    }
    /* the subcommand's own arguments first (record's FILE), then the display options */
    char **args = calloc((size_t)argc, sizeof *args);
    if (!args)
        return 1;
    int n = 0;
    for (int k = i + 1; k < argc; k++)
        args[n++] = argv[k];
    for (int k = 1; k < i; k++)
        args[n++] = argv[k];
    int rc = c->fn(n, args);
    free(args);
    return rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2)
        return cmd_tui(argc - 1, argv + 1);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("meshcast %s\n", MESHCAST_VERSION);
        return 0;
    }
    if (cmd[0] == '-')
        return display_first(argc, argv);

    const CliCommand *c = cli_command_find(cmd);
    if (c && c->name[0])
        return c->fn(argc - 2, argv + 2);

    char hint[96], names[400] = "";
    for (size_t i = 0; i < cli_command_count(); i++) {   /* the table's, as completion's */
        const CliCommand *k = cli_command_at(i);
        size_t l = strlen(names);
        if (k->name[0] && !k->hidden)
            snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", k->name);
    }
    cli_error("unknown command '%s'%s (%s; meshcast --help)", cmd,
              cli_command_hint(cmd, hint, sizeof hint), names);
    return 2;
}

/* Whatever the command, a failed write on stdout (its help too) is reported, not lost. */
int main(int argc, char **argv)
{
    return cli_out_finish(dispatch(argc, argv));
}
