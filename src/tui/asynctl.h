/* asynctl.h — the asynchronous time line on the screen (--timing async, :timing async, key
 * A): instead of lockstep steps, n/p/g/G and play move from moment to moment of the
 * asynchronous run (engine asyncview.h: every time a transfer starts or ends), the map shows
 * the circuits in flight then and what every node holds, the Step panel the moment's time and
 * its transfers, the Timeline panel times instead of step numbers.
 *
 * A narrow interface: a time line is built from one broadcast's schedule, cost parameters and
 * generation (an AtlSrc), never from the App.  It is computed on demand, once per broadcast
 * (another generation rebuilds it, at moment 0), and kept in the AsyncTl.  The App keeps one
 * for the broadcast shown and, side by side (vs.h), the second broadcast's Vs keeps its own,
 * shown at the latest of its moments not after the first's time (asynctl_seek_time); what is
 * on and what the user is told is the App's (app-timeline.c).
 *
 * Ownership: asynctl_new allocates, asynctl_free frees; the run borrows the AtlSrc's schedule,
 * which must outlive it until the next asynctl_view for another generation or asynctl_drop.
 */
#ifndef MESHCAST_TUI_ASYNCTL_H
#define MESHCAST_TUI_ASYNCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/asyncview.h"
#include "../engine/cost.h"
#include "../engine/sched.h"
#include "../engine/sim-async.h"

/* Largest schedule (transfers) the time line is built for. */
#define ASYNCTL_MAXTRANSFERS 2000000

typedef struct AsyncTl AsyncTl;

/* What a time line is built from: a broadcast's schedule (NULL: none), its cost parameters
 * and its generation. */
typedef struct {
    const Sched *sched;
    const CostParams *params;
    long gen;
} AtlSrc;

AsyncTl *asynctl_new(void);   /* NULL when out of memory */
void asynctl_free(AsyncTl *tl);
/* Drop the run and its view (the next asynctl_view builds them again). */
void asynctl_drop(AsyncTl *tl);
/* Build the time line of src now, at moment 0: false with a one-line message in err. */
bool asynctl_build(AsyncTl *tl, const AtlSrc *src, char *err, size_t errlen);
/* The view of src's time line at its moment: built (at moment 0) when src's generation is
 * not the one it was built for.  NULL when there is no broadcast or it cannot be built: the
 * first time for a generation with the reason in err, afterwards (not tried again) with err
 * "". */
AsyncView *asynctl_view(AsyncTl *tl, const AtlSrc *src, char *err, size_t errlen);
/* The run, the view (NULL when none is built) and the generation it is for (-1: none). */
const SimAsync *asynctl_run(const AsyncTl *tl);
AsyncView *asynctl_current(const AsyncTl *tl);
long asynctl_gen(const AsyncTl *tl);
/* Move: to moment `to` (absolute), or by `to` moments (relative); false when memory runs
 * out (nothing built: true, nothing moves). */
bool asynctl_move(AsyncTl *tl, int64_t to, bool relative);
/* Whether the last moment is shown (true when nothing is built). */
bool asynctl_at_end(const AsyncTl *tl);
/* To the latest moment not after time t; false when memory runs out. */
bool asynctl_seek_time(AsyncTl *tl, double t);
/* The lockstep position of the moment shown: the last step any of whose transfers has
 * started by then (in flight or done); 0 at moment 0 or when nothing is built. */
int32_t asynctl_step_at_moment(const AsyncTl *tl);
/* The time line's transfers to or from node, as indices of sim_async_event (by start time)
 * into *ev (kept by the AsyncTl until the next call for another node, asynctl_drop or
 * asynctl_free); how many, or -1 when nothing is built or memory runs out.  sched is the one
 * the time line was built from. */
int64_t asynctl_node_events(AsyncTl *tl, const Sched *sched, int32_t node, const int64_t **ev);

#endif
