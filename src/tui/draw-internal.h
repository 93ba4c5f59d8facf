/* draw-internal.h — what draw.c shares with the panels drawn in their own files
 * (draw-figure.c, draw-chart.c, ...): the panel box and the text helpers.  Only for src/tui/draw*.c.
 */
#ifndef MESHCAST_TUI_DRAW_INTERNAL_H
#define MESHCAST_TUI_DRAW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"

/* A panel's region on the screen; `row` is the next line to write (0-based in the box).
 * A scrolling box (the lesson pane) lays out all its lines: line `row` shows at y + row - off
 * when it falls inside the h lines, `more` says one fell below them; `dry` only measures. */
typedef struct {
    int x, y, w, h, row;
    int off;
    bool scroll, dry, more;
} Box;

/* At most w columns of s at (y,x) (as text: control characters quoted); columns written. */
int draw_put(int y, int x, int w, int attr, const char *s);
/* One glyph at (y,x) only if that cell is still blank. */
void draw_put_blank(int y, int x, int attr, const char *s);
/* The next line of the box (cut short with an ellipsis); nothing when the box is full. */
void draw_line(Box *b, int attr, const char *s);
/* put_cut: cut short, the line ends in an ellipsis. */
int draw_put_cut(int y, int x, int w, int attr, const char *s);
/* putf: a formatted put_cut. */
int draw_putf(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
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

/* The Node panel on the asynchronous time line (draw-asyncnode.c): the cursor node's
 * transfers with their times, those in flight at the moment marked. */
void draw_node_async(App *a, Box *b, struct AsyncView *v);

/* What a map shows: a broadcast and, on the asynchronous time line, its view at the moment
 * shown (NULL: lockstep steps).  The frame's map shows the App's (draw_shown); side by side
 * the right half shows the second broadcast's (vs.h), passed explicitly: nothing is swapped
 * into the App. */
typedef struct {
    const Bcast *b;
    struct AsyncView *av;
    const struct SimAsync *as;   /* av's run */
} Shown;
/* The App's broadcast and time line (building a stale time line's view: app_async_view). */
Shown draw_shown(App *a);

/* The map of s (draw-map.c) in the App's layout a->lay: nodes, links, labels, pan hints
 * (full nets and crossbars: their own views); the cursor, selection, tiles and lesson page
 * are the App's. */
void draw_map(App *a, const Shown *s);

/* The Step panel (draw-step.c); full: the transfers get the room the panel has. */
void draw_step(App *a, Box *b, bool full);

/* The Timeline panel (draw-timeline.c): the steps' bars; on the asynchronous time line the
 * moments, and the Step panel's counterpart there (the moment shown). */
void draw_timeline(App *a, Box *b);
void draw_timeline_async(App *a, Box *b, struct AsyncView *v);
void draw_moment(App *a, Box *b, struct AsyncView *v);

/* The Chart panel (draw-chart.c): cost against size, Fig. 3, or a figure (below). */
void draw_chart(App *a, Box *b);

/* The Chart panel showing a figure of the s-to-p paper (figure.h). */
void draw_figure(App *a, Box *b);

#endif
