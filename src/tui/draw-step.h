/* draw-step.h — the Step panel: the step shown (its transfers, its cost and their parts, its
 * overloads), the running total and the total beside the paper's prediction, the run's checks
 * (bounds, verification, reduction, TCD, time-step optimality) and the step's violations.
 *
 * A narrow interface: the panel reads only the broadcast shown (bcast.h) and how far the
 * simulation of its rest is (a big broadcast opened before its whole history is simulated:
 * no total yet), never the App.  It keeps nothing but what it is given to keep: the lines of
 * the step's first transfers (StepLines, owned by the caller), which cost time proportional to
 * their chunk ranges (a strided set of rh's distribution has 2^18) and are the same in every
 * frame of the step, so they are made once per step shown.
 */
#ifndef MESHCAST_TUI_DRAW_STEP_H
#define MESHCAST_TUI_DRAW_STEP_H

#include <stdbool.h>

#include "bcast.h"
#include "draw-text.h"

/* The lines of a step's first transfers, kept from one frame to the next (NULL from
 * steplines_new when memory runs out; steplines_free(NULL) does nothing). */
typedef struct StepLines StepLines;
StepLines *steplines_new(void);
void steplines_free(StepLines *l);

/* What the Step panel is drawn from: a ready broadcast, and whether its rest is still being
 * simulated (then rest_done of rest_total steps are); lines: where the transfers' lines are
 * kept (NULL: made in every frame). */
typedef struct {
    const Bcast *b;
    bool simulating;
    long long rest_done, rest_total;
    StepLines *lines;
} StepSrc;

/* The Step panel in box b; full: the transfers get the room the panel has. */
void draw_step(const StepSrc *src, Box *b, bool full);

#endif
