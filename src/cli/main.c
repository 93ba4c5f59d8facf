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
#include <string.h>

#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"

#ifndef MESHCAST_VERSION
#define MESHCAST_VERSION "0.1"
#endif

static void usage(FILE *f)
{
    fputs("usage: meshcast [--net SPEC] [--algo NAME] ...     the terminal UI\n"
          "       meshcast lesson NAME|FILE.lua                  a guided lesson\n"
          "       meshcast course [--json]                       the lessons, in the course's order\n"
          "       meshcast progress [--json] | --reset [LESSON]  your progress over the course\n"
          "       meshcast record FILE.cast [--force] ...        the terminal UI, recorded\n"
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
        return cmd_tui(argc - 1, argv + 1);

    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
        {"run", cmd_run},       {"schedule", cmd_schedule}, {"compare", cmd_compare},
        {"list", cmd_list},     {"check", cmd_check},       {"lesson", cmd_lesson},
        {"record", cmd_record}, {"replay", cmd_replay},     {"tradeoff", cmd_tradeoff},
        {"tcd-table", cmd_tcd_table}, {"exec", cmd_exec}, {"calibrate", cmd_calibrate},
        {"advise", cmd_advise}, {"diff", cmd_diff}, {"course", cmd_course},
        {"progress", cmd_progress},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmd, cmds[i].name) == 0)
            return cmds[i].fn(argc - 2, argv + 2);

    cli_error("unknown command '%s' (run, schedule, compare, diff, exec, calibrate, advise, "
            "list, check, lesson, course, progress, record, replay, tradeoff; meshcast --help)", cmd);
    return 2;
}

/* Whatever the command, a failed write on stdout (its help too) is reported, not lost. */
int main(int argc, char **argv)
{
    return cli_out_finish(dispatch(argc, argv));
}
