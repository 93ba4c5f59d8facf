/* tileview.c — tiles on the map: tileview.h. */
#include "tileview.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine/tiles.h"

#define NCOLOUR 6

/* What is computed for one broadcast.  Two are kept: side by side (vs.h) the two halves
 * draw two broadcasts every frame, and neither drops the other's. */
typedef struct {
    long gen;                /* the broadcast the cache is for; -1 none */
    int cached;              /* the level the colours are for */
    struct Tiles *tiles;
    unsigned char *colour;   /* per node, 0xff in no tile */
    long used;               /* when last used (the older one goes) */
} TvSlot;

struct TileView {
    int level;               /* the level shown, 0 off */
    TvSlot slot[2];
    TvSlot *cur;             /* the slot of the last ensure (NULL: none) */
    long clock;
    long computed;           /* tiles computed so far (tileview_computed) */
};

TileView *tileview_new(void)
{
    TileView *tv = calloc(1, sizeof *tv);
    if (tv) tv->slot[0].gen = tv->slot[1].gen = -1;
    return tv;
}

long tileview_computed(const TileView *tv) { return tv ? tv->computed : 0; }

int tileview_level(const TileView *tv) { return tv ? tv->level : 0; }

static void say(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
}

/* Colour the tiles of the level greedily in node order: each tile the smallest colour no
 * neighbouring tile has yet (its centre's id order), the tile number mod 6 when all six are
 * taken. */
static bool colour_tiles(TileView *tv, TvSlot *sl, const Net *net)
{
    Tiles *t = sl->tiles;
    int32_t size = net_size(net);
    int lv = tv->level;
    free(sl->colour);
    sl->colour = malloc((size_t)size);
    int32_t *order = malloc((size_t)size * sizeof *order);   /* nodes grouped by centre */
    int32_t *first = calloc((size_t)size + 1, sizeof *first);
    if (!sl->colour || !order || !first) {
        free(order);
        free(first);
        return false;
    }
    for (int32_t v = 0; v < size; v++) {
        sl->colour[v] = 0xff;
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
                    if (u >= 0 && sl->colour[u] != 0xff && tiles_centre(t, lv, u) != c)
                        used |= 1u << sl->colour[u];
                }
        int k = 0;
        while (k < NCOLOUR && (used >> k & 1))
            k++;
        if (k == NCOLOUR)
            k = ntile % NCOLOUR;
        for (int32_t i = first[c]; i < first[c + 1]; i++)
            sl->colour[order[i]] = (unsigned char)k;
        ntile++;
    }
    free(order);
    free(first);
    return true;
}

static bool ensure(TileView *tv, const TileSrc *src)
{
    if (!tv || !src->sched || tv->level <= 0)
        return false;
    TvSlot *sl = tv->slot[0].gen == src->gen ? &tv->slot[0]
               : tv->slot[1].gen == src->gen ? &tv->slot[1]
               : tv->slot[0].used <= tv->slot[1].used ? &tv->slot[0] : &tv->slot[1];
    sl->used = ++tv->clock;
    tv->cur = sl;
    if (sl->gen == src->gen && sl->cached == tv->level && sl->colour)
        return true;
    if (sl->gen != src->gen) {
        tiles_free(sl->tiles);
        sl->tiles = tiles_new(src->sched);
        tv->computed++;
        sl->gen = src->gen;
        sl->cached = 0;
        free(sl->colour);
        sl->colour = NULL;
    }
    if (!sl->tiles)
        return false;
    if (!colour_tiles(tv, sl, src->net))
        return false;
    sl->cached = tv->level;
    return true;
}

bool tileview_set(TileView *tv, const TileSrc *src, int level, char *msg, size_t len)
{
    if (!tv) {
        say(msg, len, "no tiles: out of memory");
        return false;
    }
    if (level <= 0) {
        tv->level = 0;
        say(msg, len, "tiles off");
        return true;
    }
    if (!src->sched || net_size(src->net) > TILEVIEW_MAXNODES ||
        net_kind(src->net) == NET_FULL) {
        say(msg, len, "tiles are drawn on arrays, rings, meshes and tori of up to %d nodes",
                TILEVIEW_MAXNODES);
        return false;
    }
    tv->level = level;
    if (!ensure(tv, src)) {
        tv->level = 0;
        say(msg, len, "no tiles: out of memory");
        return false;
    }
    int32_t np = tiles_phases(tv->cur->tiles);
    if (np < 2) {
        tv->level = 0;
        say(msg, len, "no tiles: the broadcast informs in fewer than 2 phases");
        return false;
    }
    if (level >= np) {
        tv->level = 0;
        say(msg, len, "tiles: levels 1 to %ld here (level %ld is the whole net)",
                (long)np - 1, (long)np);
        return false;
    }
    say(msg, len, "tiles of the last %d informing phase%s: %ld tiles (O their centres; "
            "T: next level)", level, level == 1 ? "" : "s",
            (long)tiles_count(tv->cur->tiles, level));
    return true;
}

bool tileview_cycle(TileView *tv, const TileSrc *src, char *msg, size_t len)
{
    if (tileview_level(tv) == 0)
        return tileview_set(tv, src, 1, msg, len);
    /* the phases of src's broadcast (computed when the level was set) */
    TvSlot *sl = tv->slot[0].gen == src->gen ? &tv->slot[0]
               : tv->slot[1].gen == src->gen ? &tv->slot[1] : NULL;
    int32_t np = sl && sl->tiles ? tiles_phases(sl->tiles) : 0;
    if (tv->level + 1 >= np)
        return tileview_set(tv, src, 0, msg, len);
    return tileview_set(tv, src, tv->level + 1, msg, len);
}

bool tileview_node(TileView *tv, const TileSrc *src, int32_t n, int *colour, bool *centre)
{
    if (!ensure(tv, src) || tv->cur->colour[n] == 0xff)
        return false;
    *colour = tv->cur->colour[n];
    *centre = tiles_centre(tv->cur->tiles, tv->level, n) == n;
    return true;
}

void tileview_free(TileView *tv)
{
    if (!tv) return;
    for (int i = 0; i < 2; i++) {
        tiles_free(tv->slot[i].tiles);
        free(tv->slot[i].colour);
    }
    free(tv);
}
