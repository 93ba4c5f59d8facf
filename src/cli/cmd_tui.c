/* cmd_tui.c — `meshcast [--net SPEC] [--algo NAME] ...` and `meshcast lesson NAME|FILE`: parse
 * the options, refuse a non-terminal, and hand over to the terminal UI (src/tui/tui.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tui/tui.h"
#include "cli-opts.h"
#include "commands.h"

static const char usage_tui[] =
    "usage: meshcast [--net SPEC] [--algo NAME] [--source ID|R,C | --sources SPEC] [--bytes M]\n"
    "                [--model seidel|postal|circuit|saf] [--set K=V]... [--fit F]\n"
    "                [--no-color] [--ascii] [--theme NAME] [--big]\n"
    "       meshcast lesson NAME|FILE.lua [--no-color] [--ascii] [--theme NAME] [--big]\n";

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
                                            "--set", "--fit", "--theme", "--sources", NULL};
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
        if (k < 0 || (lesson && k != 7)) {
            cli_error("unknown option '%s' (meshcast --help)", arg);
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
        case 8: slot = &o->spec.sources; break;
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
