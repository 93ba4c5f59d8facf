/* subround.h — Seidel's one-port rule as it happens in lockstep: sub-rounds.
 *
 * Under seidel a node sends one message at a time and receives one at a time.  A step in
 * which some node sends or receives more than once is played as *sub-rounds*: taking the
 * transfers in schedule order, each goes in the sub-round right after both its source's
 * previous send and its destination's previous receive of the step (sub-round 0 if it has
 * neither).  Every sub-round is then one-port, and a link's load counts only the circuits of
 * the same sub-round: a node's own successive messages never raise each other's load.  The
 * step costs the sum over its sub-rounds of each one's costliest transfer (docs/model.md,
 * "Sub-rounds").  A step where every node sends and receives at most once is one sub-round.
 *
 * Ownership: subround_new allocates scratch sized by the net; the caller frees it with
 * subround_free.  The arrays returned by the accessors belong to the SubRound and stay valid
 * until the next subround_split on it.
 */
#ifndef MESHCAST_SUBROUND_H
#define MESHCAST_SUBROUND_H

#include <stdint.h>

#include "sched.h"

typedef struct SubRound SubRound;

SubRound *subround_new(const Net *net);
void subround_free(SubRound *sr);

/* Split step st of s into sub-rounds; cap is the link capacity (2^nu).  Returns the number of sub-rounds (0 for a
 * step without transfers), -1 when memory runs out.  The result is cached per step. */
int32_t subround_split(SubRound *sr, const Sched *s, int32_t st, int32_t cap);
/* Per transfer of the step last split (schedule order): its sub-round (0-based) and the
 * largest load on its route counting only the circuits of its sub-round. */
const int32_t *subround_of(const SubRound *sr);
const int32_t *subround_load(const SubRound *sr);
/* A link's load in a step played in sub-rounds is the most circuits using it at once: its
 * largest load in any one sub-round (subround_link_load; 0 on full:P and hxbar, whose pair links
 * carry 1).  The largest of them, and the links where it exceeds cap. */
int32_t subround_link_load(const SubRound *sr, int64_t link);
int32_t subround_maxload(const SubRound *sr);
int64_t subround_overloads(const SubRound *sr);

#endif
