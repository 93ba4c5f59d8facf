/* asynctl.h — the asynchronous time line on the screen (--timing async, :timing async, key
 * A): instead of lockstep steps, n/p/g/G and play move from moment to moment of the
 * asynchronous run (engine asyncview.h: every time a transfer starts or ends), the map shows
 * the circuits in flight then and what every node holds, the Step panel the moment's time and
 * its transfers, the Timeline panel times instead of step numbers.
 *
 * The run and its view are computed on demand, once per broadcast, and kept in the App;
 * asynctl_free drops them.  Side by side (:vs) the second broadcast has a time line of its
 * own (App.vatl), shown at the latest of its moments not after the first's time: the two
 * halves show the same instant, n/p/g/G move the first.
 */
#ifndef MESHCAST_TUI_ASYNCTL_H
#define MESHCAST_TUI_ASYNCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/asyncview.h"
#include "app.h"

/* Largest schedule (transfers) the time line is built for. */
#define ASYNCTL_MAXTRANSFERS 2000000

/* Turn the time line on or off; false with a message when it cannot be built.  Off keeps the
 * place: the position becomes the last step any of whose transfers has started by the moment
 * shown (0 at moment 0). */
bool asynctl_set(App *a, bool on);
/* The view of the current broadcast at its moment, or NULL when off (rebuilt, at moment 0,
 * when the broadcast changed). */
AsyncView *asynctl_view(App *a);
/* Move: to moment `to` (absolute), or by `to` moments (relative). */
void asynctl_move(App *a, int64_t to, bool relative);
/* Whether the last moment is shown (play stops there). */
bool asynctl_at_end(App *a);
/* The time line's transfers to or from node, as indices of sim_async_event (by start time)
 * into *ev (kept by the App until the next call for another node or asynctl_free); how many,
 * or -1 when the time line is off or memory runs out. */
int64_t asynctl_node_events(App *a, int32_t node, const int64_t **ev);
void asynctl_free(App *a);
/* Side by side: put the second broadcast (a->vs, which must be open) and its time line in the
 * first's places (a->b, a->atl) at time t, so that the map and headers draw it; then back.
 * asynctl_vs_free drops the second's time line. */
void asynctl_vs_enter(App *a, double t);
void asynctl_vs_leave(App *a);
void asynctl_vs_free(App *a);

#endif
