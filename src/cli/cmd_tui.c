/* cmd_tui.c — `meshcast [--net SPEC] [--algo NAME] ...` and `meshcast lesson NAME|FILE`: parse
 * the options, refuse a non-terminal, and hand over to the terminal UI (src/tui/tui.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tui/replay.h"
#include "../tui/tui.h"
#include "../engine/num.h"
#include "cli-opts.h"
#include "cli-table.h"
#include "commands.h"

static const char usage_tui[] =
    "usage: meshcast [--net SPEC] [--algo NAME] [--source ID|R,C | --sources SPEC] [--bytes M]\n"
    "                [--model seidel|postal|circuit|saf] [--set K=V]... [--fit F]\n"
    "                [--no-color] [--ascii] [--theme NAME] [--big] [--vs ALGO] [--step N]\n"
    "                [--timing lockstep|async] [--op broadcast|reduce] [--profile NAME]\n"
    "                [--measured FILE.json]  (a run meshcast exec --json wrote, drawn beside)\n"
    "       meshcast lesson NAME|FILE.lua [--no-color] [--ascii] [--theme NAME] [--big]\n"
    "       meshcast record FILE.cast [--force] [the options above | lesson NAME ...]\n"
    "Display options (--big, --ascii, --no-color, --theme NAME) may also come before\n"
    "lesson and record: meshcast --theme light lesson st-array.\n"
    "       meshcast replay FILE.cast [--step N]\n";

/* Parse the options shared by both commands.  Returns -1 to go on, else an exit status. */
static int parse(int argc, char **argv, TuiOptions *o, const char ***sets, bool lesson)
{
    size_t nsets = 0;
    *sets = calloc((size_t)argc + 1, sizeof **sets);
    if (!*sets) return 1;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(usage_tui, stdout);
            return 0;
        }
        if (strcmp(arg, "--no-color") == 0 || strcmp(arg, "--no-colour") == 0) {
            o->no_color = true;
            continue;
        }
        if (strcmp(arg, "--ascii") == 0) {
            o->ascii = true;
            continue;
        }
        if (strcmp(arg, "--big") == 0) {
            o->big = true;
            continue;
        }
        if (lesson && arg[0] != '-') {
            if (o->lesson) {
                cli_error("lesson takes one lesson, got '%s' and '%s'", o->lesson, arg);
                return 2;
            }
            o->lesson = arg;
            continue;
        }
        static const char *const names[] = {"--net", "--algo", "--source", "--bytes", "--model",
                                            "--set", "--fit", "--theme", "--vs", "--step",
                                            "--sources", "--timing", "--op", "--profile",
                                            "--measured", NULL};
        int k = -1;
        const char *val = NULL;
        for (int j = 0; names[j]; j++) {
            size_t l = strlen(names[j]);
            if (strncmp(arg, names[j], l) == 0 && (arg[l] == '\0' || arg[l] == '=')) {
                k = j;
                val = arg[l] == '=' ? arg + l + 1 : NULL;
                break;
            }
        }
        if (k < 0 || (lesson && (k < 7 || k >= 10))) {
            char hint[96];
            if (arg[0] != '-')   /* meshcast --big lesonn: a mistyped command */
                cli_error("unknown command '%s'%s (meshcast --help)", arg,
                          cli_command_hint(arg, hint, sizeof hint));
            else
                cli_error("unknown option '%s'%s (meshcast --help)", arg,
                          cli_opt_hint(cli_command_find(lesson ? "lesson" : "")->opts, arg,
                                       hint, sizeof hint));
            return 2;
        }
        if (!val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "meshcast: %s needs a value\n", names[k]);
                return 2;
            }
            val = argv[++i];
        }
        const char **slot = NULL;
        switch (k) {
        case 0: slot = &o->spec.net; break;
        case 1: slot = &o->spec.algo; break;
        case 2: slot = &o->spec.source; break;
        case 3: slot = &o->spec.bytes; break;
        case 4: slot = &o->spec.model; break;
        case 5: (*sets)[nsets++] = val; continue;
        case 6: slot = &o->spec.fit; break;
        case 7: slot = &o->theme; break;
        case 8: slot = &o->vs; break;
        case 9: {
            uint64_t v;   /* num.h's one rule */
            if (num_u64(val, &v, NULL) != NUM_OK || v > INT32_MAX) {
                cli_error("--step takes a step number (0, 1, ...), not '%s'", val);
                return 2;
            }
            slot = &o->step;
            break;
        }
        case 10: slot = &o->spec.sources; break;
        case 11:
            if (strcmp(val, "async") != 0 && strcmp(val, "lockstep") != 0) {
                cli_error("--timing takes lockstep or async, not '%s'", val);
                return 2;
            }
            slot = &o->timing;
            break;
        case 12: slot = &o->spec.op; break;
        case 13: slot = &o->spec.profile; break;
        case 14: slot = &o->measured; break;
        }
        if (*slot) {
            fprintf(stderr, "meshcast: %s given twice\n", names[k]);
            return 2;
        }
        *slot = val;
    }
    o->spec.sets = *sets;
    o->spec.nsets = nsets;
    if (lesson && !o->lesson) {
        fputs("meshcast: lesson needs a lesson name or file (meshcast list lessons)\n", stderr);
        return 2;
    }
    return -1;   /* tui_run checks the terminal after the options' meaning */
}

static int run(int argc, char **argv, bool lesson)
{
    TuiOptions o;
    memset(&o, 0, sizeof o);
    const char **sets = NULL;
    int rc = parse(argc, argv, &o, &sets, lesson);
    if (rc < 0) rc = tui_run(&o);
    free(sets);
    return rc;
}

int cmd_tui(int argc, char **argv) { return run(argc, argv, false); }

int cmd_lesson(int argc, char **argv) { return run(argc, argv, true); }

/* `meshcast record FILE [options]`: the terminal UI, the session written to FILE. */
int cmd_record(int argc, char **argv)
{
    if (argc < 1 || argv[0][0] == '-') {
        fputs("meshcast: record needs a file: meshcast record FILE.cast [--net SPEC] ...\n", stderr);
        return 2;
    }
    TuiOptions o;
    memset(&o, 0, sizeof o);
    o.record = argv[0];
    /* --force (replace a FILE that is not an asciicast) is record's own option */
    char **rest = calloc((size_t)argc, sizeof *rest);
    if (!rest) return 1;
    int nrest = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--force") == 0) o.force = true;
        else rest[nrest++] = argv[i];
    }
    const char **sets = NULL;
    /* record FILE lesson NAME [options]: the lesson, recorded */
    bool lesson = nrest > 0 && strcmp(rest[0], "lesson") == 0;
    int rc = parse(nrest - lesson, rest + lesson, &o, &sets, lesson);
    free(rest);
    if (rc < 0) rc = tui_run(&o);
    free(sets);
    return rc;
}

/* `meshcast replay FILE [--step N]`: step through a recording. */
int cmd_replay(int argc, char **argv)
{
    const char *file = NULL;
    long step = -1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--step") == 0 || strncmp(argv[i], "--step=", 7) == 0) {
            const char *v = argv[i][6] == '=' ? argv[i] + 7 : i + 1 < argc ? argv[++i] : NULL;
            uint64_t u = 0;   /* num.h's one rule */
            if (!v || num_u64(v, &u, NULL) != NUM_OK || u > INT32_MAX) {
                fputs("meshcast: --step takes a step number (0, 1, ...)\n", stderr);
                return 2;
            }
            step = (long)u;
        } else if (argv[i][0] == '-' || file) {
            char hint[96];
            cli_error("replay takes FILE [--step N], not '%s'%s", argv[i],
                      argv[i][0] == '-' ? cli_opt_hint("--step=", argv[i], hint, sizeof hint) : "");
            return 2;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fputs("meshcast: replay needs a file: meshcast replay FILE.cast [--step N]\n", stderr);
        return 2;
    }
    return replay_run(file, step);
}
