/* draw-map.c — the map area of the frame: what the App shows handed to the view that draws
 * it (a full net's tree: fulltree.h; a hierarchical crossbar's modules: hxview.h; any other
 * net on its grid: mapview.h), each through its own narrow source struct.
 */
#include <string.h>

#include "asynctl.h"
#include "draw-internal.h"
#include "fulltree.h"
#include "hxview.h"
#include "mapview.h"
#include "tileview.h"

/* What the grid map reads of the App for one frame. */
static MapSrc map_src(App *a)
{
    MapSrc s = {
        .net = a->b.setup.net,
        .sim = a->b.sim,
        .step = app_step_shown(a), .pos = a->b.pos,
        .partials = a->b.partials,
        .av = asynctl_view(a),
        .L = &a->lay,
        .sources = a->b.setup.sources,
        .nsources = a->b.setup.sources ? a->b.setup.nsources : 0,
        .eyes = strncmp(a->b.setup.def->name, "tcd", 3) == 0,
        .tv = a->tv,
        .tsrc = app_tiles_src(a),
        .page = a->lesson && a->panel == PANEL_LESSON ? lesson_page(a->lesson, a->page) : NULL,
        .cursor = a->cursor,
        .sel_link = a->sel_link,
    };
    return s;
}

void draw_map(App *a)
{
    FtSrc fs = app_fulltree_src(a);
    if (fulltree_active(&fs)) {   /* full:P: no links, the broadcast's tree instead */
        fulltree_draw(a->ft, &fs);
        return;
    }
    if (hxview_active(&fs)) {   /* hxbar: its modules as boxes, their channels on the borders */
        hxview_draw(a->ft, &fs);
        return;
    }
    MapSrc ms = map_src(a);
    mapview_draw(&ms);
}
