/* dist.h — source distributions for s-to-p broadcasting (the s-to-p paper, Section 4 and Fig. 1).
 *
 * A distribution places s sources on an r x c grid of nodes (a 2-D mesh or torus; an array
 * or ring of n nodes is a 1 x n grid), row-major ids, (0,0) top-left.  The paper's text is
 * partly garbled in our copy; every definition below is the one meshcast decided, written out
 * in docs/algorithms.md ("Source distributions") with the paper's examples it reproduces:
 *
 *   R:s   rows.  i = ceil(s/c) rows at floor(k*r/i), k = 0..i-1 (evenly spaced, the first row
 *         included); every row but the last is full, the last holds the rest in its first
 *         columns.  R:20 on 10x10 is rows 0 and 5 (the paper's "first and sixth row").
 *   Ri:s  ideal rows for br-xy-source (what repos-xy-source moves to): R:s, then each row
 *         whose first-level Br_Lin partner row (x + ceil(r/2) or x - ceil(r/2); on an odd r
 *         the middle row's is ceil(r/2), row 0's too) is already taken, a source or another
 *         source row's partner, moves on to the next row that is neither and whose partner
 *         is neither, so that the first iteration in the columns doubles the sources (Ri:20
 *         on 10x10: rows 0 and 6, the paper's "first and seventh row"; Ri:18 on 9x9: rows 0
 *         and 6, not 0 and 4, which share row 5).
 *   C:s   columns, as R:s with rows and columns exchanged.
 *   E:s   equal: source k at node floor(k*p/s); node 0 is a source and consecutive sources are
 *         floor(p/s) or ceil(p/s) apart.
 *   Dr:s  right diagonals.  L = min(r,c), M = max(r,c); a diagonal with offset o is
 *         {(x, (x+o) mod c)} for x < r when r <= c, else {((y+o) mod r, y)} for y < c.
 *         i = ceil(s/L) diagonals at offsets floor(k*M/i) (offset 0: the main diagonal from
 *         (0,0)); every diagonal but the last is full, the last holds its first cells.
 *   Dl:s  left diagonals: Dr:s mirrored left to right (the first from (0,c-1)).
 *   B:s   bands: i = ceil(s/L) diagonals grouped into b = ceil(sqrt(i)) bands of
 *         w = ceil(i/b) adjacent diagonals, band k starting at offset floor(k*M/b); filled
 *         band by band (a diagonal already used is skipped, free offsets follow).
 *   X:s   cross: a horizontal bar (row floor(r/2), then the rows below and above it in turn)
 *         and a vertical bar (column floor(c/2), then the columns right and left of it),
 *         each bar filled from its start; sources are taken alternately from the two bars,
 *         a cell in both counted once, so each bar holds about s/2.
 *   SB:s  square block: h = min(r, ceil(sqrt(s))) rows, w = ceil(s/h) columns (if w > c:
 *         w = c, h = ceil(s/c)) in the top-left corner, filled row by row.
 *
 * Ownership: dist_parse allocates the node list the caller frees with free().
 */
#ifndef MESHCAST_DIST_H
#define MESHCAST_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net.h"

typedef enum {
    DIST_ROW, DIST_ROW_IDEAL, DIST_COL, DIST_EQUAL, DIST_DIAG_R, DIST_DIAG_L, DIST_BAND,
    DIST_CROSS, DIST_BLOCK, DIST_NKINDS,
    DIST_LIST = DIST_NKINDS  /* an explicit list of nodes */
} DistKind;

const char *dist_name(DistKind k);      /* "R", "Ri", "C", "E", "Dr", "Dl", "B", "X", "SB" */
const char *dist_summary(DistKind k);   /* one line */
bool dist_kind_parse(const char *name, DistKind *out);   /* case-insensitive */

/* The s sources of kind k on an r x c grid (1 <= s <= r*c), as sorted row-major local ids
 * into out (s entries).  False (message in err) only for bad arguments. */
bool dist_cells(DistKind k, int32_t r, int32_t c, int32_t s, int32_t *out, char *err,
                size_t errlen);

/* The grid of a net: rows and columns of a 2-D mesh or torus, 1 x n for an array or ring;
 * false for a 3-D net. */
bool dist_grid(const Net *net, int32_t *r, int32_t *c);

/* Parse a --sources spec on net: "R:20" (a kind and s), or an explicit list of nodes: ids
 * separated by commas ("0,17,42"), or, when the spec holds a ';', ids or coordinates
 * separated by ';' ("3,4;5,6").  On success *out (sorted ids, malloc'd), *n and *kind are
 * set.  Refused with a one-line message: an unknown kind, s < 1 or s > p, a node outside the
 * net, the same node twice, an empty item, a distribution on a 3-D net. */
bool dist_parse(const Net *net, const char *spec, int32_t **out, int32_t *n, DistKind *kind,
                char *err, size_t errlen);

/* How many of the n sources lie in each row and each column (the most in one row into
 * *maxrow, in one column into *maxcol); the grid as dist_grid. */
void dist_max_per_line(int32_t r, int32_t c, const int32_t *src, int32_t n, int32_t *maxrow,
                       int32_t *maxcol);

#endif
