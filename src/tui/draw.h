/* draw.h — paint one frame of the App into curses' virtual screen (stdscr).
 *
 * draw_frame computes the layout for the current screen size, erases stdscr and draws the
 * title line, the map (only its visible part), the panel column, the status or command line,
 * and the help or picker overlay; it ends with wnoutrefresh(stdscr) and leaves the single
 * doupdate() to the caller.  Every number it shows comes from the engine.
 */
#ifndef MESHCAST_TUI_DRAW_H
#define MESHCAST_TUI_DRAW_H

#include "app.h"

void draw_frame(App *a);

#endif
