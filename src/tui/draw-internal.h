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

/* The map of s (draw-map.c) in layout L (the frame's, or side by side a half's: app.h):
 * nodes, links, labels, pan hints (full nets and crossbars: their own views); the cursor,
 * selection, tiles and lesson page are the App's. */
void draw_map(App *a, const Shown *s, const Layout *L);

#endif
