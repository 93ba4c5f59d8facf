/* draw-timeline.h — the Timeline panel: the steps as bars of their cost (a measured run's
 * bars under them, measfile.h), and on the asynchronous time line (engine asyncview.h) the
 * moments, with the Step panel's counterpart there, the moment shown.
 *
 * A narrow interface: the panels read only the broadcast shown (bcast.h), how far its rest is
 * simulated, a measured run and the time line's run and view they are given, never the App;
 * where the step rows went (for clicks) comes back in a TlRows.  They keep nothing.
 */
#ifndef MESHCAST_TUI_DRAW_TIMELINE_H
#define MESHCAST_TUI_DRAW_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/asyncview.h"
#include "../engine/sim-async.h"
#include "bcast.h"
#include "draw-text.h"
#include "measfile.h"

/* What the Timeline is drawn from: a ready broadcast, whether its rest is still being
 * simulated (rest_done of rest_total steps are), and a measured run shown beside it (NULL:
 * none). */
typedef struct {
    const Bcast *b;
    bool simulating;
    long long rest_done, rest_total;
    const MeasFile *meas;
} TlSrc;

/* Where the step rows were drawn: lines y0 .. y0+rows-1 of the screen, per lines a step (2
 * with a measured run), the schedule step on the first.  Only what a draw sets changes (rows
 * is always set; 0: no rows). */
typedef struct {
    int y0, rows;
    int32_t first;
    int per;
} TlRows;

/* The steps' bars. */
void draw_timeline(const TlSrc *src, Box *b, TlRows *rows);
/* On the time line: a row per moment of v (v is moved and put back). */
void draw_timeline_async(Box *b, AsyncView *v, TlRows *rows);
/* The Step panel on the time line: the moment of v, what starts and ends then, what is in
 * flight; as (v's run, or NULL) for a crossbar's channel waits. */
void draw_moment(const Bcast *bc, const SimAsync *as, Box *b, AsyncView *v);

#endif
