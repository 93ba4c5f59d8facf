/* goal.h — LogGOPSim's GOAL schedules in and out (the text that schedgen writes and txt2bin
 * reads; docs/goal.md).
 *
 * Reading (goal-read.c) streams the file line by line: a line longer than GOAL_MAX_LINE bytes
 * or more than GOAL_MAX_OPS operations is refused, so memory stays bounded (about 60 bytes an
 * operation).  The grammar is txt2bin's: `num_ranks N`, then blocks `rank R {` ... `}` of
 *     [LABEL:] send SIZEb to R [tag T] [cpu C] [nic K]
 *     [LABEL:] recv SIZEb from R [tag T] [cpu C] [nic K]
 *     [LABEL:] calc TIME [cpu C]
 *     LABEL requires LABEL        (start after the other is done)
 *     LABEL irequires LABEL       (start once the other has started)
 * with line (//) and block (slash-star ... star-slash) comments.  Refused although txt2bin takes them: any source or tag (-1),
 * a rank block given twice, a 0-byte send.
 *
 * Planning (goal-plan.c) turns the operations into meshcast steps: the k-th send from rank A
 * to rank B with tag T meets the k-th recv of B from A with tag T (MPI's order); the bytes
 * A sends B, in file order, are one stream over the message from offset 0 (so a binomial
 * tree's every edge carries the whole message and a pipelined ring's k-th segment is bytes
 * [k*s, (k+1)*s)); the chunks are the message cut at every stream boundary (equal chunks of
 * the greatest common divisor); the source is the one rank that sends and never receives.
 * Steps: list scheduling, one send per rank per step, each send in the first step after the
 * operations it requires are done (irequires: in or after the step the other starts), ready
 * sends of a rank in file order.  A recv is done in the step its message is sent (or when it
 * is posted, if later); calc takes no step (meshcast's models price bytes, not compute time).
 * tag, cpu and nic are read and checked; only tag takes part in matching.
 *
 * Writing (goal-write.c): every node is one rank; step k's transfers become a send on the
 * source and a recv on the destination, both with tag k; a send requires the recvs that
 * brought the node the chunks it sends.  txt2bin accepts the result.
 *
 * Errors: one line, "FILE:LINE: what is wrong" (line 0: the file as a whole).
 * Ownership: goal_read returns a GoalProg the caller frees with goal_free; goal_algo returns
 * an AlgoDef the caller frees with algo_release.
 */
#ifndef MESHCAST_GOAL_H
#define MESHCAST_GOAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../engine/net.h"
#include "../../engine/sched.h"
#include "../algo.h"

#define GOAL_MAX_LINE 4096
#define GOAL_MAX_OPS (1u << 24)

typedef struct GoalProg GoalProg;

/* Parse and plan the GOAL text read from f (name is used in messages).  NULL with a one-line
 * message in err on a malformed file, on one meshcast cannot turn into a broadcast (no single
 * source, an unmatched send or recv, a dependency cycle) or past the limits. */
GoalProg *goal_read(FILE *f, const char *name, char *err, size_t errlen);
void goal_free(GoalProg *g);

int32_t goal_nranks(const GoalProg *g);
uint64_t goal_bytes(const GoalProg *g);      /* the message: the longest stream */
uint32_t goal_nchunks(const GoalProg *g);
int32_t goal_source(const GoalProg *g);      /* the rank that sends and never receives */
int32_t goal_nsteps(const GoalProg *g);
int64_t goal_nsends(const GoalProg *g);

/* Add the planned steps to s (rank r on node node_of_rank[r]; NULL: rank r on node r).
 * s must have goal_nchunks chunks; its bytes may differ (the chunks scale). */
bool goal_build(const GoalProg *g, Sched *s, const int32_t *node_of_rank);

/* Read a --map file: the node of every rank in rank order, whitespace separated, each an id
 * or coordinates R,C[,Z]; '#' starts a comment.  Every node at most once.  malloc'd array of
 * nranks entries, or NULL with a one-line message. */
int32_t *goal_read_map(const char *path, const Net *net, int32_t nranks, char *err,
                       size_t errlen);

/* The algorithm of a GOAL file on net (ranks row-major, or as map_path says): an owned def
 * named after the file; its default bytes is goal_bytes (read back with goal_algo_bytes), its
 * source goal_algo_source.  NULL with a one-line message. */
AlgoDef *goal_algo(const char *path, const Net *net, const char *map_path, char *err,
                   size_t errlen);
bool goal_is_algo(const AlgoDef *d);
uint64_t goal_algo_bytes(const AlgoDef *d);
int32_t goal_algo_source(const AlgoDef *d);   /* a node of the net */

/* Does this --algo name a GOAL file (ends in ".goal")? */
bool goal_is_path(const char *name);

/* Write s as GOAL: one rank per node.  comment (may be NULL) goes into a leading comment.
 * False on a write error. */
bool goal_write(FILE *out, const Sched *s, const char *comment);

#endif
