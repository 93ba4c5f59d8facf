/* draw-text.h — text as the frame draws it (draw.c): at a screen cell, cut to a width,
 * control characters quoted, an ellipsis when cut short; line by line in a panel's Box; costs
 * and byte counts as the panels print them.  No App: the views and panels with a narrow
 * interface (mapview.h, draw-step.h) draw through these.  Curses must be started.
 */
#ifndef MESHCAST_TUI_DRAW_TEXT_H
#define MESHCAST_TUI_DRAW_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most w columns of s at (y,x) (as text: control characters quoted); columns written. */
int draw_put(int y, int x, int w, int attr, const char *s);
/* One glyph at (y,x) only if that cell is still blank. */
void draw_put_blank(int y, int x, int attr, const char *s);
/* put_cut: cut short, the line ends in an ellipsis. */
int draw_put_cut(int y, int x, int w, int attr, const char *s);
/* putf: a formatted put_cut. */
int draw_putf(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A panel's region on the screen; `row` is the next line to write (0-based in the box).
 * A scrolling box (the lesson pane) lays out all its lines: line `row` shows at y + row - off
 * when it falls inside the h lines, `more` says one fell below them; `dry` only measures. */
typedef struct {
    int x, y, w, h, row;
    int off;
    bool scroll, dry, more;
} Box;

/* The next line of the box (cut short with an ellipsis); nothing when the box is full. */
void draw_line(Box *b, int attr, const char *s);
/* Is there a next line in the box? */
bool draw_box_line(Box *b);
/* A formatted line of the box (cut short with an ellipsis); nothing when the box is full. */
void draw_box_put(Box *b, int attr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "label ........ value", the value at the box's right edge. */
void draw_box_kv(Box *b, int attr, const char *label, const char *value);
/* Word-wrapped text from the next line of the box. */
void draw_wrap(Box *b, int attr, const char *text, int indent);

/* A cost as the panels print it (2 decimals, or 4 significant digits when huge). */
void draw_fmt_cost(char *buf, size_t len, double v);
/* A byte count as 4K, 1M, 100 (exact multiples only). */
void draw_fmt_bytes(char *buf, size_t len, uint64_t v);
/* The first of `rows` lines to show out of n so that line cur sits in the middle. */
int64_t draw_window_first(int64_t cur, int64_t n, int64_t rows);

#endif
