/* helptext.h — the help screen's lines, laid out without curses: the map's keys
 * (app_key_help) then every `:` command of the table (cmdtab.h), each with its text word-wrapped
 * to the width it gets, so that no entry is cut.  Keys wider than their column stand on a line
 * of their own, the text below them.
 */
#ifndef MESHCAST_TUI_HELPTEXT_H
#define MESHCAST_TUI_HELPTEXT_H

#include <stddef.h>

typedef struct {
    char keys[64];         /* "" on a continuation line */
    char text[256];
} HelpRow;

/* The rows for a key column keyw and a text column textw columns wide (both >= 8): a malloc'd
 * array (the caller frees it), *n rows; NULL (and *n 0) when out of memory. */
HelpRow *helptext_rows(int keyw, int textw, size_t *n);

#endif
