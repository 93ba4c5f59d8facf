/* asyncview.h — an asynchronous run (sim-async.h) seen at one moment: the time line the
 * screen steps through with --timing async (event by event rather than step by step).
 *
 * The moments are 0 and every time a transfer starts or ends (sorted, distinct).  At moment
 * t a transfer is *in flight* when it started at or before t and ends after t (its circuit is
 * up: it occupies every link of its route); its chunks are held by its destination from its
 * end on (a transfer that ends at t has delivered).  So stepping from moment to moment shows
 * circuits coming up and going down as they do, not as the lockstep steps group them.
 *
 * Cost: asyncview_seek replays the transfers that started by t: O(transfers + links they
 * touch); holdings are kept per node as chunk sets.
 *
 * Ownership: asyncview_new borrows the Sched and the SimAsync (made with SIM_ASYNC_EVENTS),
 * which must outlive every call on the view but asyncview_free (which touches neither); the
 * caller frees it with asyncview_free.
 */
#ifndef MESHCAST_ASYNCVIEW_H
#define MESHCAST_ASYNCVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched.h"
#include "sim-async.h"

typedef struct AsyncView AsyncView;

/* NULL with a message when the run kept no events or memory runs out.  The view starts at
 * moment 0. */
AsyncView *asyncview_new(const Sched *s, const SimAsync *as, char *err, size_t errlen);
void asyncview_free(AsyncView *v);

int64_t asyncview_ntimes(const AsyncView *v);
double asyncview_time(const AsyncView *v, int64_t i);
/* Move to moment i (clamped); false when memory runs out. */
bool asyncview_seek(AsyncView *v, int64_t i);
int64_t asyncview_pos(const AsyncView *v);

/* At the current moment: the transfers in flight (by start time), how many start and how
 * many end exactly then. */
int64_t asyncview_nflight(const AsyncView *v);
const SimAsyncEvent *asyncview_flight(const AsyncView *v, int64_t k);
int64_t asyncview_nstarting(const AsyncView *v);
int64_t asyncview_nending(const AsyncView *v);
/* Circuits in flight on a directed link; transfers in flight to a node; what a node holds. */
int32_t asyncview_link_load(const AsyncView *v, int64_t link);
int32_t asyncview_receiving(const AsyncView *v, int32_t node);
uint64_t asyncview_held(const AsyncView *v, int32_t node);
bool asyncview_holds(const AsyncView *v, int32_t node, uint32_t chunk);

#endif
