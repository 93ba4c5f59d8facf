/* lastphase.h — the last phase of a tree broadcast on a 2-D torus: every node still lacking
 * a sub-message gets it over a circuit of at most `maxhops` (1 or 2) hops from a node that
 * holds it, every circuit on arcs no earlier circuit uses and no two circuits on one arc
 * (so the phase can run pipelined beside the trees' levels: Peters & Syska's H-trees).
 *
 * The search: demands (node v, sub-message m) in node order, then m; each takes its first
 * free route (one hop first, from the neighbours up, down, left, right; then two hops, the
 * first hop's side in the same order), and a demand with no free route evicts the one demand
 * holding its route and looks for another route for it, recursively (an augmenting path, as
 * in bipartite matching; bounded in depth and work).  Demands it cannot serve are left for
 * another phase.  With one hop and no eviction needed this is the greedy the build had before.
 *
 * Ownership: the caller owns every array; `used` (one bit per arc id) is read and the arcs of
 * the new circuits are set in it; `has` (bit m: the node holds sub-message m) is read, and
 * updated with the deliveries once the phase is planned. */
#ifndef MESHCAST_PETERS_LASTPHASE_H
#define MESHCAST_PETERS_LASTPHASE_H

#include <stdint.h>

#include "phases.h"

typedef struct {
    int64_t left;      /* demands not served in this phase */
    int maxhops;       /* the longest circuit added (0: none added) */
} LastPhase;

/* Add the phase's circuits to the level of t opened last.  False (with out->left = -1) when
 * memory runs out. */
bool peters_last_phase(const Net *net, PetersTree *t, uint8_t *has, uint8_t *used, int maxhops,
                       LastPhase *out);

#endif
