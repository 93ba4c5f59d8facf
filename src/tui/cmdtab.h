/* cmdtab.h — the screen's `:` commands.  One table (cmdtab.c) is the one source of a command's
 * name, arguments, help lines and Tab completion: the command line dispatches through it,
 * the help screen (?) lists it, Tab completes from it.  A command not in the table does not
 * exist.  Adding one: a row in cmdtab.c's table (its run function, help, completion).
 */
#ifndef MESHCAST_TUI_CMDTAB_H
#define MESHCAST_TUI_CMDTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"

/* Candidates for completing one word (cmdtab.c owns the strings it collects). */
typedef struct CmdtabCands CmdtabCands;
void cmdtab_cands_add(CmdtabCands *c, const char *s);   /* copied */

/* One help line of a command: ":NAME ARGS" and what it does. */
typedef struct {
    const char *args;      /* "NAME", "[off]", "" */
    const char *text;
} CmdtabHelp;

typedef struct {
    const char *name;
    const char *const *aliases;          /* other names, NULL-terminated (or NULL) */
    CmdtabHelp help[2];                     /* the second may be {NULL, NULL} */
    /* w[0] is the command as typed, w[1..n-1] its words; false with a message on failure */
    bool (*run)(App *a, char **w, int n);
    /* completion of word wi (>= 1): a fixed list for word 1 (NULL-terminated, or NULL) ... */
    const char *const *words;
    /* ... or computed (may be NULL) */
    void (*complete)(App *a, int wi, CmdtabCands *c);
} CmdtabCmd;

/* The table, in the order the help screen lists it. */
const CmdtabCmd *cmdtab_all(size_t *n);
/* The command called `word` (its name or an alias), or NULL. */
const CmdtabCmd *cmdtab_find(const char *word);

/* Run a command line ("algo bst", "step 5", "q"): false with a message when it failed. */
bool cmdtab_run(App *a, const char *line);

/* The candidates for completing word wi of a line whose first word is `first` (wi 0: the
 * commands' names): a NULL-terminated array of strings; *n their count.  Free with
 * cmdtab_candidates_free. */
char **cmdtab_candidates(App *a, const char *first, int wi, size_t *n);
void cmdtab_candidates_free(char **v);

/* (Tab on the command line, which completes from these candidates, is the App's:
 * app_cmdline_complete, app-cmdline.c.) */

#endif
