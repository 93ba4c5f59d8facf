/* cellput.h — text written to the curses screen a row of cells at a time.
 *
 * waddnstr converts every byte of a string (mbrtowc), renders every character with the
 * window's attributes and places it: ~1,000 instructions a cell, most of a frame's time.
 * Here each character's cell (its glyph with an attribute, exactly as waddnstr renders it:
 * drawn once through curses into a scratch pad and read back) is kept in a small cache, and a
 * string becomes one wadd_wchnstr of cached cells.  The screen ends up the same, cell for cell,
 * with the cursor where waddnstr leaves it.  Strings this path does not take (a control
 * character, a character that is not one column wide in the locale, a write that reaches the
 * screen's last column, more than CELLPUT_MAX characters) are left to the caller's curses
 * path: the functions return -1 and write nothing.
 *
 * Curses must be started (any SCREEN: the pad is made and freed per cache miss).  Not
 * thread-safe (the cache is the module's own state, as curses' is).
 */
#ifndef MESHCAST_TUI_CELLPUT_H
#define MESHCAST_TUI_CELLPUT_H

#include <stdbool.h>

#define CELLPUT_MAX 512

/* Write s at (y,x) of stdscr with attributes attr: at most w characters; when cut is not
 * NULL and s has more than w characters (w >= 2), its first w-1 and then the one character
 * cut.  The caller has checked 0 <= y < LINES, 0 <= x, 1 <= w, x + w <= COLS.  Returns the
 * columns written (*nchars: the characters of s), or -1 when this path does not take it. */
int cellput_str(int y, int x, int w, int attr, const char *s, const char *cut, int *nchars);

/* w blanks at (y,x) with attributes attr (as mvaddch(' ') each); the same preconditions.
 * Returns w, or -1 (nothing written). */
int cellput_fill(int y, int x, int w, int attr);

/* Off: every call returns -1 (curses' own path everywhere; for the tests that pin this path
 * against it).  On by default. */
void cellput_enable(bool on);

#endif
