/* sim-async.h — asynchronous timing of a schedule, under every model (one file per
 * timing; sim.c is lockstep: docs/engine.md).
 *
 * The schedule's transfers are taken in schedule order (step by step, in order within a
 * step); each starts as soon as
 *   - its source holds the chunks it sends (the time the last of them arrived there; given
 *     chunks at time 0) and has finished its local operations of earlier steps, and
 *   - the resources the model gives it are free:
 *       circuit, saf  every arc (directed link) of its route (all-port: a port is its arc);
 *       seidel        its source's send port and its destination's receive port (one-port),
 *                     and every link of its route, which carries up to 2^nu circuits at once;
 *       postal        its source's send port and its destination's receive port (duplex), or
 *                     one port per node for both (simplex).
 *   and, on hxbar:AxB,c=C whatever the model, a transfer between two modules also needs one
 *   of the C out channels of its source's module and one of the C in channels of its
 *   destination's (each the one that frees first), held until it ends; the transfers that
 *   wait for a channel (start later than they could without the channels) are counted.
 *   A resource serves its transfers in schedule order (first come in the schedule, first
 *   served): a transfer never overtakes an earlier one on a shared resource.
 * It then lasts cost_transfer (cost.h) with no contention factor (sharing is waiting here),
 * and its chunks arrive at its destination when it ends.  A local operation of node v (or of
 * every node) in step s starts when v's receives of earlier steps have arrived and its earlier
 * local operations have ended, and lasts rho*B.  The broadcast ends when the last transfer or
 * local operation does.  Verification (holdings, violations) is the lockstep simulator's job;
 * the same schedule is timed here.  sim_run with SIM_ASYNC (sim.h) does both in one pass over
 * the steps (what `run --timing async` does; a schedule of edge blocks whose edges have arcs of
 * their own is timed per edge, on a second thread: sim-async.c); sim_async_run times alone.
 *
 * Memory: one time per arc (per link slot under seidel nu > 0), per node port, and per
 * arrival range a sending node may still read (a pipeline's node keeps its newest two; a run
 * that turns out to need one it dropped is timed again keeping all: sim-async.c); for a
 * schedule of edge blocks only, 24 bytes per edge of its table (and no arc times at all when
 * every edge owns its arcs); with SIM_ASYNC_EVENTS, 24 bytes per transfer.
 *
 * Ownership: sim_async_run borrows the Sched (and its Net), which must outlive the result; the
 * caller frees it with sim_async_free.
 */
#ifndef MESHCAST_SIM_ASYNC_H
#define MESHCAST_SIM_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"
#include "sched.h"

typedef struct SimAsync SimAsync;

enum {
    SIM_ASYNC_EVENTS = 1 << 0, /* keep every transfer's start and end (a time line) */
};

typedef struct {
    double start, end;
    int32_t step;     /* the schedule step the transfer belongs to */
    int64_t index;    /* its index within the step */
} SimAsyncEvent;

/* Time s under p.  NULL with a message in err on bad arguments, a model setting it cannot
 * time (seidel links of more than 64 circuits on a net too big for a slot each) or no
 * memory. */
SimAsync *sim_async_run(const Sched *s, const CostParams *p, unsigned flags, char *err,
                        size_t errlen);
void sim_async_free(SimAsync *a);

/* When the last transfer or local operation ends. */
double sim_async_total(const SimAsync *a);
/* When the last transfer (or local operation) of a step ends (0 for an empty step). */
double sim_async_step_end(const SimAsync *a, int32_t step);
/* With SIM_ASYNC_EVENTS: the transfers sorted by start time (ties: schedule order); else 0. */
int64_t sim_async_nevents(const SimAsync *a);
const SimAsyncEvent *sim_async_event(const SimAsync *a, int64_t i);
/* hxbar: how many transfers waited for a module channel, their waits summed and the longest
 * (0 on other nets). */
int64_t sim_async_channel_waits(const SimAsync *a);
double sim_async_channel_wait(const SimAsync *a);
double sim_async_channel_wait_max(const SimAsync *a);

#endif
