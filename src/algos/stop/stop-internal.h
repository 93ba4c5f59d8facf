/* stop-internal.h — what the s-to-p algorithms (the s-to-p paper) share inside src/algos/stop.
 *
 * The builders keep their own model of what every node holds (StopHold), a lower bound of
 * what the simulator will find: a transfer carries what its sender holds in the model and its
 * receiver lacks, so messages from different sources travel combined ("whenever messages
 * from different sources meet at a processor, messages are combined") and nothing is sent
 * twice.  Sends of one step are applied to the model together (stop_hold_commit), as the
 * simulator applies a synchronous step.
 *
 * A linear array is a sequence of node ids; Br_Lin runs on many equal-length sequences at once
 * (the rows, the columns, the snake of a whole mesh or of each half).
 */
#ifndef MESHCAST_STOP_INTERNAL_H
#define MESHCAST_STOP_INTERNAL_H

#include "../../engine/dist.h"
#include "../algos-internal.h"

typedef struct StopHold StopHold;

/* The model, started from s's givens.  NULL when memory runs out (after sched_fail). */
StopHold *stop_hold_new(Sched *s);
void stop_hold_free(StopHold *h);
bool stop_hold_empty(const StopHold *h, int32_t node);
/* Queue a transfer src -> dst of what src holds and dst lacks (none if that is empty) in
 * the current step of s.  Returns false after sched_fail. */
bool stop_hold_send(StopHold *h, int32_t src, int32_t dst);
/* Apply the queued transfers to the model. */
bool stop_hold_commit(StopHold *h);
/* The model forgets node's holdings (a source that handed its message on). */
void stop_hold_forget(StopHold *h, int32_t node);
/* Node holds every chunk from now on (the gathering node of 2-Step after the gather). */
bool stop_hold_all(StopHold *h, int32_t node);
/* The nodes holding something in the model, ascending, into out (net_size entries); count. */
int32_t stop_hold_nodes(const StopHold *h, int32_t *out);

/* Br_Lin (Section 2) on ngroups linear arrays of n nodes, group g being seq[g*n .. g*n+n-1],
 * all at once, level L at step t0 + L (opened with sched_at, labelled "label (L+1/levels)").
 * A segment of len nodes pairs its i-th node with its (ceil(len/2)+i)-th; the pair exchange
 * (each sends what the other lacks, so one that holds nothing only receives); an odd
 * segment's middle node also sends to the first node of the second half (our decision: the
 * paper's p/2 halves assume even sizes).  Then both halves recurse.  Returns the number of
 * levels, ceil(log2 n), or -1 after sched_fail. */
int stop_brlin(StopHold *h, Sched *s, int32_t t0, const int32_t *seq, int32_t n,
               int32_t ngroups, const char *label);
int stop_levels(int32_t n);   /* ceil(log2 n) */

/* A rectangle of the grid: rows r0..r0+nr-1, columns c0..c0+nc-1 of a grid of `cols`
 * columns. */
typedef struct {
    int32_t r0, c0, nr, nc, cols;
} StopRect;

/* The snake (row-major, every other row reversed) of a rectangle into out (nr*nc ids). */
void stop_snake(const StopRect *q, int32_t *out);
/* Br_xy on a rectangle: Br_Lin in every row then every column (rows_first), or the other way
 * round, from step t0.  Returns the number of steps used, -1 after sched_fail. */
int stop_brxy(StopHold *h, Sched *s, int32_t t0, const StopRect *q, bool rows_first);
/* Br_xy_source's choice on the rectangle: rows first iff the most sources (nodes holding
 * something in h) in one row <= the most in one column. */
bool stop_rows_first(const StopHold *h, const StopRect *q);

/* The whole grid of s's net (dist_grid) as a rectangle; false (after sched_fail) on 3-D. */
bool stop_grid(Sched *s, StopRect *q);
/* fits: a 2-D mesh (meshonly) or a 2-D mesh or array; schedules of about per_node transfers
 * per node (a Br_Lin level is at most one per node, and one more for an odd segment's middle)
 * within STOP_MAX_TRANSFERS. */
#define STOP_MAX_TRANSFERS (INT64_C(1) << 25)
bool stop_fits(const AlgoDef *d, const Net *net, bool meshonly, int64_t per_node, char *err,
               size_t errlen);
/* The size of a Br_Lin-based def's schedule, for stop_fits_levels (its AlgoDef.ud): `extra`
 * transfers per node beside Br_Lin's levels, over the whole net in one linear order, or along
 * both dimensions of a 2-D mesh (xy). */
typedef struct {
    int extra;
    bool xy;
} StopSize;
/* fits of the defs whose ud is a StopSize: stop_fits with extra + the levels per node. */
bool stop_fits_levels(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                      size_t errlen);

#endif
