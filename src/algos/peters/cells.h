/* cells.h — a torus cut into 5^k x 5^k cells of uneven sizes, and circuits between the cells'
 * bosses (Peters & Syska Section 4's "expand nodes into blocks" when 5^k does not divide the
 * extents).
 *
 * An extent E cut into K cells: cell i has E*(i+1)/K - E*i/K nodes (floor; the sizes differ
 * by at most one and spread evenly), its boss in the middle of it ((size - 1) / 2 from its
 * first node, where fill.h puts a block's boss).  A route given in cells (the S_k patterns
 * with distance 1 between cells) is stretched to the nodes between the bosses: an arc between
 * cells i and i+1 becomes the run of arcs between their bosses, and different arcs become
 * disjoint runs, so arc-disjoint phases stay arc-disjoint.
 *
 * Ownership: a PetersCells owns its arrays; free with peters_cells_free.
 */
#ifndef MESHCAST_PETERS_CELLS_H
#define MESHCAST_PETERS_CELLS_H

#include <stdint.h>

#include "phases.h"

typedef struct {
    int32_t extent, ncell;
    int32_t *size;   /* size[i]: nodes of cell i */
    int32_t *boss;   /* boss[i]: the boss of cell i, nodes after the boss of cell 0 */
} PetersCells;

/* Cut extent into ncell cells (1 <= ncell <= extent); false when memory runs out. */
bool peters_cells_init(PetersCells *c, int32_t extent, int32_t ncell);
void peters_cells_free(PetersCells *c);
/* The route r (lengths in cells) from cell (i0, i1) stretched between the bosses: its pieces
 * into seg (at most PETERS_MAXSEG), the cell it ends in into *j0, *j1; returns the pieces. */
int peters_cells_route(const PetersCells c[2], int32_t i0, int32_t i1, const PetersRoute *r,
                       NetSeg *seg, int32_t *j0, int32_t *j1);

#endif
