/* narrate.h — one line per step saying in words what happens, every number from the engine:
 *   "Step 5/13: 8 holders send right, 4 hops each; no link shared; 8 newly informed;
 *    costs b + m·a = 75.00 + 81.92 = 156.92"
 * No curses here: the screen (draw.c), record files and tests use the same text.
 */
#ifndef MESHCAST_TUI_NARRATE_H
#define MESHCAST_TUI_NARRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/sim.h"

/* The line for position pos (0: before the first step; k: after step k) into buf; ascii: the
 * cost terms in ASCII ("m*a", "beta*L") instead of their symbols. */
void narrate_step(Sim *sim, int32_t pos, bool ascii, char *buf, size_t len);

/* The line for the asynchronous time line's current moment (asyncview.h), unit the model's:
 *   "t = 645.00 of 1290.00 units (moment 5/10): 84 transfers start, 84 end, 84 in flight" */
struct AsyncView;
void narrate_moment(struct AsyncView *v, const char *unit, char *buf, size_t len);

#endif
