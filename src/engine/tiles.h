/* tiles.h — the tiles a broadcast tree cuts a net into (Peters & Syska's tilings, Section 4).
 *
 * Reading a schedule as a broadcast tree — each node's *informer* is the source of the first
 * transfer that brings it a chunk, in schedule order — the tiles of level j are the subtrees
 * the last j informing phases grow: a node informed before those phases (or a given node,
 * such as the source) is a tile's *centre*, and every other node belongs to the tile of its
 * nearest ancestor that is one.  For `tiling` on torus:5x5 level 1 gives the five crosses C_0
 * round the centres the knight's moves reached; on torus:25x25 level 1 the 125 C_0 crosses,
 * level 2 the 25 S_1 squares, level 3 the five C_1 crosses.  Nothing is special-cased: the
 * same works for any broadcast (dc's squares, a Seidel tree's subtrees).
 *
 * Ownership: tiles_new allocates; the caller frees with tiles_free.  The Sched is read only
 * during tiles_new.
 */
#ifndef MESHCAST_TILES_H
#define MESHCAST_TILES_H

#include <stdint.h>

#include "sched.h"

typedef struct Tiles Tiles;

/* The broadcast tree of s; NULL when memory runs out. */
Tiles *tiles_new(const Sched *s);
void tiles_free(Tiles *t);
/* The informing phases: steps in which some node is informed for the first time. */
int32_t tiles_phases(const Tiles *t);
/* Node v's tile at level j (1..tiles_phases; clamped): its centre's node id, or -1 for a
 * node the broadcast never informs.  Amortised O(1) per node once a level is asked. */
int32_t tiles_centre(Tiles *t, int level, int32_t v);
/* The number of tiles at level j. */
int32_t tiles_count(Tiles *t, int level);

#endif
