/* tileview.h — the broadcast tree's tiles drawn on the map (engine tiles.h): `T` or
 * `:tiles [N|off]` turns them on at level N (the tiles the last N informing phases grow:
 * for `tiling` level 1 the C_0 crosses round the knight's-move centres, level 2 the S_1
 * squares, ...), `T` again goes one level up and finally off.  Each tile's nodes take one of
 * six colours, never that of a tile beside it where six suffice, and a letter a..f for the
 * same (monochrome terminals); the tile's centre is marked O.
 *
 * The tree and the colours are computed on demand, once per (broadcast, level), and kept in
 * the App; tileview_free drops them.
 */
#ifndef MESHCAST_TUI_TILEVIEW_H
#define MESHCAST_TUI_TILEVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "app.h"

/* Largest number of nodes the tiles are computed for. */
#define TILEVIEW_MAXNODES (1 << 20)

/* Set the level (0: off); false with a message when the broadcast has no tiles to show. */
bool tileview_set(App *a, int level);
/* The key: one level up, off past the last. */
void tileview_cycle(App *a);
/* Node n's tile for the level shown: colour 0..5 and whether it is the centre; false when
 * tiles are off or the node is in none. */
bool tileview_node(App *a, int32_t n, int *colour, bool *centre);
void tileview_free(App *a);

#endif
