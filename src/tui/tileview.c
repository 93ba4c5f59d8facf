/* tileview.c — tiles on the map: tileview.h. */
#include "tileview.h"

#include <stdlib.h>

#include "../engine/tiles.h"

#define NCOLOUR 6

/* Colour the tiles of the level greedily in node order: each tile the smallest colour no
 * neighbouring tile has yet (its centre's id order), the tile number mod 6 when all six are
 * taken. */
static bool colour_tiles(App *a)
{
    const Net *net = a->b.setup.net;
    Tiles *t = a->tv.tiles;
    int32_t size = net_size(net);
    int lv = a->tiles_level;
    free(a->tv.colour);
    a->tv.colour = malloc((size_t)size);
    int32_t *order = malloc((size_t)size * sizeof *order);   /* nodes grouped by centre */
    int32_t *first = calloc((size_t)size + 1, sizeof *first);
    if (!a->tv.colour || !order || !first) {
        free(order);
        free(first);
        return false;
    }
    for (int32_t v = 0; v < size; v++) {
        a->tv.colour[v] = 0xff;
        int32_t c = tiles_centre(t, lv, v);
        if (c >= 0)
            first[c + 1]++;
    }
    for (int32_t c = 0; c < size; c++)
        first[c + 1] += first[c];
    int32_t *at = malloc((size_t)size * sizeof *at);
    if (!at) {
        free(order);
        free(first);
        return false;
    }
    for (int32_t c = 0; c < size; c++)
        at[c] = first[c];
    for (int32_t v = 0; v < size; v++) {
        int32_t c = tiles_centre(t, lv, v);
        if (c >= 0)
            order[at[c]++] = v;
    }
    free(at);
    int32_t ntile = 0;
    for (int32_t c = 0; c < size; c++) {
        if (first[c] == first[c + 1])
            continue;
        unsigned used = 0;
        for (int32_t i = first[c]; i < first[c + 1]; i++)
            for (int d = 0; d < net_ndim(net); d++)
                for (int dir = -1; dir <= 1; dir += 2) {
                    int32_t u = net_neighbor(net, order[i], d, dir);
                    if (u >= 0 && a->tv.colour[u] != 0xff && tiles_centre(t, lv, u) != c)
                        used |= 1u << a->tv.colour[u];
                }
        int k = 0;
        while (k < NCOLOUR && (used >> k & 1))
            k++;
        if (k == NCOLOUR)
            k = ntile % NCOLOUR;
        for (int32_t i = first[c]; i < first[c + 1]; i++)
            a->tv.colour[order[i]] = (unsigned char)k;
        ntile++;
    }
    free(order);
    free(first);
    return true;
}

static bool ensure(App *a)
{
    if (!a->b.ready || a->tiles_level <= 0)
        return false;
    if (a->tv.gen == a->b.gen && a->tv.level == a->tiles_level && a->tv.colour)
        return true;
    if (a->tv.gen != a->b.gen) {
        tiles_free(a->tv.tiles);
        a->tv.tiles = tiles_new(a->b.sched);
        a->tv.gen = a->b.gen;
        a->tv.level = 0;
        free(a->tv.colour);
        a->tv.colour = NULL;
    }
    if (!a->tv.tiles)
        return false;
    if (!colour_tiles(a))
        return false;
    a->tv.level = a->tiles_level;
    return true;
}

bool tileview_set(App *a, int level)
{
    if (level <= 0) {
        a->tiles_level = 0;
        app_msg(a, false, "tiles off");
        return true;
    }
    if (!a->b.ready || net_size(a->b.setup.net) > TILEVIEW_MAXNODES ||
        net_kind(a->b.setup.net) == NET_FULL) {
        app_msg(a, true, "tiles are drawn on arrays, rings, meshes and tori of up to %d nodes",
                TILEVIEW_MAXNODES);
        return false;
    }
    a->tiles_level = level;
    if (!ensure(a)) {
        a->tiles_level = 0;
        app_msg(a, true, "no tiles: out of memory");
        return false;
    }
    int32_t np = tiles_phases(a->tv.tiles);
    if (np < 2) {
        a->tiles_level = 0;
        app_msg(a, true, "no tiles: the broadcast informs in fewer than 2 phases");
        return false;
    }
    if (level >= np) {
        a->tiles_level = 0;
        app_msg(a, true, "tiles: levels 1 to %ld here (level %ld is the whole net)",
                (long)np - 1, (long)np);
        return false;
    }
    app_msg(a, false, "tiles of the last %d informing phase%s: %ld tiles (O their centres; "
            "T: next level)", level, level == 1 ? "" : "s",
            (long)tiles_count(a->tv.tiles, level));
    return true;
}

void tileview_cycle(App *a)
{
    if (a->tiles_level == 0) {
        tileview_set(a, 1);
        return;
    }
    int32_t np = a->tv.tiles ? tiles_phases(a->tv.tiles) : 0;
    if (a->tiles_level + 1 >= np) {
        tileview_set(a, 0);
        return;
    }
    tileview_set(a, a->tiles_level + 1);
}

bool tileview_node(App *a, int32_t n, int *colour, bool *centre)
{
    if (!ensure(a) || a->tv.colour[n] == 0xff)
        return false;
    *colour = a->tv.colour[n];
    *centre = tiles_centre(a->tv.tiles, a->tiles_level, n) == n;
    return true;
}

void tileview_free(App *a)
{
    tiles_free(a->tv.tiles);
    free(a->tv.colour);
    a->tv.tiles = NULL;
    a->tv.colour = NULL;
    a->tv.gen = -1;
}
