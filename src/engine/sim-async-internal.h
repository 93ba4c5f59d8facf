/* sim-async-internal.h — the asynchronous timing step by step, for the simulator inside
 * src/engine: sim.c times a schedule in the same pass as it replays it (SIM_ASYNC), on the
 * step views it has already made, instead of a second walk over every transfer.
 * Callers outside the engine use sim-async.h (sim_async_run) or sim.h (SIM_ASYNC).
 *
 * Ownership: the run borrows the Sched; sim_async_end frees the run and hands over the
 * result (NULL if a step ran out of memory), which the caller frees with sim_async_free. */
#ifndef MESHCAST_SIM_ASYNC_INTERNAL_H
#define MESHCAST_SIM_ASYNC_INTERNAL_H

#include "sched-internal.h"
#include "sim-async.h"

typedef struct SimAsyncRun SimAsyncRun;

/* As sim_async_run, before the first step: NULL with a message in err on the same errors. */
SimAsyncRun *sim_async_begin(const Sched *s, const CostParams *p, unsigned flags, char *err,
                             size_t errlen);
/* Time step st (steps in order, each once): its transfers f (NULL: the run expands them
 * itself).  False when memory ran out (the run then stays failed). */
bool sim_async_step(SimAsyncRun *r, int32_t st, const SchedFlat *f);
/* True when sim_async_step(r, st, NULL) expands no step (a schedule of exclusive edges: it
 * reads the edge table): the steps may then be timed on a thread of their own, in order, while
 * the caller replays them (the Sched is only read by both). */
bool sim_async_own_steps(const SimAsyncRun *r);
/* The timing of the steps given; r is freed.  NULL with "async: out of memory" in err (when
 * err is not NULL) if a step failed. */
SimAsync *sim_async_end(SimAsyncRun *r, char *err, size_t errlen);

#endif
