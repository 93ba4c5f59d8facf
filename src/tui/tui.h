/* tui.h — the terminal UI: `meshcast [--net ...]` and `meshcast lesson NAME`.
 *
 * tui_run sets up the broadcast (and lesson) first, so that a bad option is reported as a
 * one-line usage error before the screen changes; then it takes the terminal (curses for
 * output, libtermkey on an abstract instance for input, SGR mouse on), runs the loop, and
 * restores the terminal on every way out: q, Ctrl-C, SIGINT, SIGTERM, SIGHUP, and fatal signals
 * (restore, then re-raise).  Signal handlers only set flags; the loop waits in pselect with
 * the signals unblocked.
 */
#ifndef MESHCAST_TUI_H
#define MESHCAST_TUI_H

#include <stdbool.h>

#include "../script/setup.h"

typedef struct {
    SetupSpec spec;        /* the broadcast to open on (NULL members: defaults) */
    bool no_color;         /* --no-color (NO_COLOR in the environment is honoured too) */
    bool ascii;            /* --ascii: no UTF-8 line drawing */
    const char *theme;     /* --theme NAME, or NULL */
    const char *record;    /* meshcast record FILE: the session as an asciicast v2 file */
    bool force;            /* record --force: replace FILE even if it is not an asciicast */
    const char *step;      /* --step N: open at that step, or NULL */
    const char *vs;        /* --vs ALGO: side by side with it, or NULL */
    const char *timing;    /* --timing async: open on the asynchronous time line, or NULL */
    bool big;              /* --big: projector mode (and the contrast theme unless --theme) */
    const char *lesson;    /* meshcast lesson NAME|FILE, or NULL */
    const char *measured;  /* --measured FILE.json (exec --json's output), or NULL */
} TuiOptions;

/* Returns the exit status: 0 after a normal quit, 2 for a usage error or when stdin/stdout is
 * not a terminal (one line on stderr naming the batch commands). */
int tui_run(const TuiOptions *o);

/* Restore the terminal (mouse off, curses ended) — safe to call more than once. */
void tui_restore(void);

/* Restore the terminal, print "meshcast: MSG" on stderr and exit(1). */
_Noreturn void tui_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
