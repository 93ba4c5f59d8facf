/* draw-map.c — the map area of the frame: what the App shows handed to the view that draws
 * it (a full net's tree: fulltree.h; a hierarchical crossbar's modules: hxview.h; any other
 * net on its grid: mapview.h), each through its own narrow source struct.
 */
#include <string.h>

#include "app.h"
#include "draw-internal.h"
#include "fulltree.h"
#include "hxview.h"
#include "mapview.h"
#include "tileview.h"

/* What the grid map reads for one frame: the broadcast and moment of s, in layout L; the
 * cursor, selection, tiles and lesson page of the App (st). */
static MapSrc map_src(const AppMapState *st, const Shown *s, const Layout *L)
{
    const Bcast *b = s->b;
    MapSrc m = {
        .net = b->setup.net,
        .sim = b->sim,
        .step = bcast_step_shown(b), .pos = b->pos,
        .partials = b->ready ? b->partials : NULL,
        .av = s->av,
        .L = L,
        .sources = b->setup.sources,
        .nsources = b->setup.sources ? b->setup.nsources : 0,
        .eyes = strncmp(b->setup.def->name, "tcd", 3) == 0,
        .tv = st->tv,
        .tsrc = {b->ready ? b->sched : NULL, b->ready ? b->setup.net : NULL, b->gen},
        .page = st->page,
        .cursor = st->cursor,
        .sel_link = st->sel_link,
        .pm = st->pm, .gen = b->gen,
    };
    return m;
}

void draw_map(App *a, const Shown *s, const Layout *L)
{
    AppMapState st = app_map_state(a);
    FtSrc fs = app_fulltree_src(a, s->b, s->av, L);
    if (fulltree_active(&fs)) {   /* full:P: no links, the broadcast's tree instead */
        fulltree_draw(st.ft, &fs);
        return;
    }
    if (hxview_active(&fs)) {   /* hxbar: its modules as boxes, their channels on the borders */
        hxview_draw(st.ft, &fs);
        return;
    }
    MapSrc ms = map_src(&st, s, L);
    mapview_draw(&ms);
}
