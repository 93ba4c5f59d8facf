/* fill.h — filling m x n blocks from their bosses by cross splits: the general "expand nodes
 * into blocks" of Peters & Syska, Section 4, for blocks of any shape.
 *
 * A block is m x n units (nodes, or S_k squares); a sub-block is a rectangle of units with one
 * informed unit, its boss.  In a phase every sub-block of more than one unit splits the way a
 * C_0 cross informs: a band of rows holding the boss (the rows above and below it become two
 * parts, each the full width) and, inside the band, a range of columns holding the boss (the
 * columns left and right of it become two more parts) — or the same with rows and columns
 * swapped.  The boss informs each new part's boss by one straight circuit along its own column
 * or row.  The (up to) four circuits of a sub-block leave through its boss's four different
 * ports, and every circuit stays inside its sub-block, so every phase is arc-disjoint and
 * all-port valid; a phase multiplies the informed units by up to five, the factor of Proposition 1.
 * The sizes of the parts are chosen by a table of the fewest phases that fills a rectangle
 * (computed once per m x n), and a new boss sits in the middle of the range its own next split
 * keeps for it.
 *
 * The plan is made once for one block (relative to its boss, which sits in the block's middle)
 * and sent from every boss: units are u0 x u1 nodes apart (1 when the blocks are the last
 * phases, 5^k when the blocks are made of S_k squares), so a plan's circuits are stretched
 * copies and stay arc-disjoint.
 *
 * Ownership: peters_fill_new allocates the plan; peters_fill_free frees it.
 */
#ifndef MESHCAST_PETERS_FILL_H
#define MESHCAST_PETERS_FILL_H

#include <stdint.h>

#include "phases.h"

typedef struct PetersFill PetersFill;

/* The plan for m x n blocks (m, n >= 1, m * n <= 2^31); NULL when memory runs out. */
PetersFill *peters_fill_new(int32_t m, int32_t n);
void peters_fill_free(PetersFill *f);
/* Its phases (0 for a 1 x 1 block). */
int peters_fill_phases(const PetersFill *f);
/* Add phase p's circuits (0-based; none past the last) to the open step: boss is a block's
 * boss, units (u0, u1) nodes apart; every node informed is appended to out.  False after
 * sched_fail. */
bool peters_fill_send(Sched *s, const PetersFill *f, int p, int32_t boss, int64_t u0,
                      int64_t u1, PetersSet *out);

#endif
