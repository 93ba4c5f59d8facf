/* termcheck.h — whether the terminal TERM names can draw the screen, asked of terminfo before
 * curses starts: the screen needs a known terminal that can move the cursor (cup) and clear
 * (clear or ed).  A dumb, hardcopy or unknown terminal is refused with one line (the screen
 * would be a status line scrolling past), pointing at the batch commands.
 *
 * Ownership: nothing kept (the terminfo entry read is freed).
 */
#ifndef MESHCAST_TUI_TERMCHECK_H
#define MESHCAST_TUI_TERMCHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when the terminal on fd can draw the screen; else false with the reason in err. */
bool termcheck_ok(int fd, char *err, size_t errlen);

#endif
