/* draw-text.h — text at a screen cell, as the frame draws it (draw.c): cut to a width, control
 * characters quoted, an ellipsis when cut short.  No App: the views with a narrow interface
 * (mapview.h) draw through these.  Curses must be started.
 */
#ifndef MESHCAST_TUI_DRAW_TEXT_H
#define MESHCAST_TUI_DRAW_TEXT_H

/* At most w columns of s at (y,x) (as text: control characters quoted); columns written. */
int draw_put(int y, int x, int w, int attr, const char *s);
/* One glyph at (y,x) only if that cell is still blank. */
void draw_put_blank(int y, int x, int attr, const char *s);
/* put_cut: cut short, the line ends in an ellipsis. */
int draw_put_cut(int y, int x, int w, int attr, const char *s);
/* putf: a formatted put_cut. */
int draw_putf(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
