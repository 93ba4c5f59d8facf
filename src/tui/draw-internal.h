/* draw-internal.h — what draw.c shares with the panels drawn in their own files
 * (draw-figure.c, draw-chart.c, ...) that read the App (the panel box and the text helpers
 * are draw-text.h's).  Only for src/tui/draw*.c.
 */
#ifndef MESHCAST_TUI_DRAW_INTERNAL_H
#define MESHCAST_TUI_DRAW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "draw-text.h"

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
