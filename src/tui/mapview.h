/* mapview.h — the map of a net laid out on a grid (layout.h): its nodes as cells (what each
 * holds, receives, sends; a reduction's partials; s-to-p grades and sources; tiles; Cang &
 * Wu's eyes; a lesson page's marks; the cursor), the links between them (load, direction,
 * circuits, overload), the axis labels and the pan hints.  Full nets and hierarchical
 * crossbars have views of their own (fulltree.h, hxview.h).
 *
 * A narrow interface: the view reads only what it is given (a MapSrc), never the App; what a
 * frame derives from it (port counts, link loads) it computes itself.  It keeps nothing.
 */
#ifndef MESHCAST_TUI_MAPVIEW_H
#define MESHCAST_TUI_MAPVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/asyncview.h"
#include "../engine/net.h"
#include "../engine/partials.h"
#include "../engine/sim.h"
#include "../script/lesson.h"
#include "layout.h"
#include "portmarks.h"
#include "tileview.h"

/* What the map is drawn from: the broadcast shown (net, its simulation), the schedule step
 * shown (-1: none) and the position (a reduction's partials, NULL for a broadcast, are
 * counted at it), the asynchronous time line's view at its moment (NULL: lockstep steps), the
 * layout (the map area and the part of the grid in view), s-to-p's sorted sources (marked
 * '@' when nsources > 1), Cang & Wu's eyes (tcd), the tiles (tv NULL or at level 0: none) and
 * what they are drawn from, the lesson page whose nodes and links are marked (NULL: none),
 * the cursor's node and the selected link (-1: none); under the circuit model the nodes marked
 * with a port conflict come from pm (the broadcast's generation gen; NULL: none marked). */
typedef struct {
    const Net *net;
    Sim *sim;
    int32_t step, pos;
    const Partials *partials;
    const AsyncView *av;
    const Layout *L;
    const int32_t *sources;
    int32_t nsources;
    bool eyes;
    TileView *tv;
    TileSrc tsrc;
    const LessonPage *page;
    int32_t cursor;
    int64_t sel_link;
    PortMarks *pm;
    long gen;
} MapSrc;

/* Draw the map area of src->L (curses). */
void mapview_draw(const MapSrc *src);

#endif
