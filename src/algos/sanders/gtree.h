/* gtree.h — Fig. 2's fractional-tree schedule on a tree of groups given explicitly: the
 * embeddings of Section 4 (embed.c: the H-tree on a mesh; hxbar.c: a hierarchical crossbar)
 * place the groups themselves, and this turns their tree into steps.
 *
 * A group is a chain of up to r PUs (member 0 its head).  A group may have a "down" child
 * (fed by its member r-1, its head one step after member r-1 got a packet) and a "right"
 * child (member j feeds the j-th packet of every run of r packets, in the pause of the next
 * period), exactly as in ftree.c; a group with a child must have all r members, only
 * childless groups may be shorter.  The timing: a PU at offset x (the step it gets packet 0)
 * gets packet m*r + j at step x + m(r+1) + j; the source is member 0 of the root group at
 * offset -1, member i of a group whose head is at h at h + i, a down head at h + r, a right
 * head at h + r + 1.  With d the largest offset, the schedule takes
 *     d + (r+1) floor((s-1)/r) + (s-1) mod r + 1
 * steps (sanders_tree_steps' formula with this tree's d; a step where nobody sends is skipped).
 *
 * Routes: every transfer gets the net's default route, given explicitly (x-y on meshes) so
 * that exports show it (full nets take no explicit routes: there the pair's own link). */
#ifndef MESHCAST_SANDERS_GTREE_H
#define MESHCAST_SANDERS_GTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../engine/sched.h"

typedef struct {
    int32_t r;              /* group size (>= 1) */
    int32_t ngroups;
    const int32_t *member;  /* member[g*r + i]: node id of member i of group g, -1 past the end
                             * of a short (childless) group */
    const int32_t *down;    /* down[g], right[g]: child group or -1 */
    const int32_t *right;
    int32_t root;           /* the root group: its member 0 is the source */
} SandersGTree;

/* The largest offset d of the tree's PUs, into *d; false (with a one-line message in err) if
 * the tree is malformed: a group reached twice or never, a group with a child but fewer than
 * r members, a node used twice. */
bool sanders_gtree_depth(const SandersGTree *t, int32_t nnodes, int64_t *d, char *err,
                         size_t errlen);

/* Steps of the schedule with s packets on a tree of depth d (-1: nothing to do). */
int64_t sanders_gtree_steps(int64_t d, int64_t r, int64_t s);

/* Add the broadcast of s's chunks (one per packet) along t to s, steps labelled "name r=..: step
 * i of n".  False after sched_fail on a malformed tree or out of memory. */
bool sanders_gtree_build(const SandersGTree *t, Sched *s, const char *name);

/* hxbar.c: the tree of groups of `fractional-hxbar` on an hxbar net with group size r from
 * src (r <= processors per module); *block holds member, down and right (the caller frees
 * it).  False when memory runs out. */
bool sanders_hxbar_tree(const Net *net, int32_t r, int32_t src, SandersGTree *t,
                        int32_t **block);

#endif
