/* tileview.h — the broadcast tree's tiles drawn on the map (engine tiles.h): `T` or
 * `:tiles [N|off]` turns them on at level N (the tiles the last N informing phases grow:
 * for `tiling` level 1 the C_0 crosses round the knight's-move centres, level 2 the S_1
 * squares, ...), `T` again goes one level up and finally off.  Each tile's nodes take one of
 * six colours, never that of a tile beside it where six suffice, and a letter a..f for the
 * same (monochrome terminals); the tile's centre is marked O.
 *
 * A narrow interface: the view reads only the broadcast shown (a TileSrc), never the App.
 * The tree and the colours are computed on demand, once per (broadcast, level), and kept in
 * the TileView for the last two broadcasts drawn (side by side, vs.h, draws two a frame).  Ownership: tileview_new allocates, tileview_free frees (the App owns one).
 */
#ifndef MESHCAST_TUI_TILEVIEW_H
#define MESHCAST_TUI_TILEVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/net.h"
#include "../engine/sched.h"

/* Largest number of nodes the tiles are computed for. */
#define TILEVIEW_MAXNODES (1 << 20)

typedef struct TileView TileView;

/* What the tiles are drawn from: the broadcast shown (sched NULL: none), its net, and its
 * generation (another one drops what was computed). */
typedef struct {
    const Sched *sched;
    const Net *net;
    long gen;
} TileSrc;

TileView *tileview_new(void);   /* NULL when out of memory */
void tileview_free(TileView *tv);
/* The level shown (0: off). */
int tileview_level(const TileView *tv);
/* How many times the tiles of a broadcast were computed (tests: two broadcasts drawn in turn,
 * side by side, are computed once each; the last two computed are kept). */
long tileview_computed(const TileView *tv);
/* Set the level (0: off): true with what it shows in msg, or false (the level off) with why
 * not (the broadcast has no tiles to show). */
bool tileview_set(TileView *tv, const TileSrc *src, int level, char *msg, size_t len);
/* The key: one level up, off past the last (as tileview_set). */
bool tileview_cycle(TileView *tv, const TileSrc *src, char *msg, size_t len);
/* Node n's tile for the level shown: colour 0..5 and whether it is the centre; false when
 * tiles are off or the node is in none. */
bool tileview_node(TileView *tv, const TileSrc *src, int32_t n, int *colour, bool *centre);

#endif
