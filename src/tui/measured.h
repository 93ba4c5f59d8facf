/* measured.h — a real run beside the simulated one: `meshcast --measured FILE.json` (what
 * `meshcast exec --json` wrote), `:measured FILE.json|off`, and `:exec [REPS]`, which runs
 * `meshcast exec --json` for the broadcast shown as a child process (never blocking the screen:
 * app_poll reads it; progress in the message line; Escape or `:exec cancel` ends it, launcher
 * and ranks too).  While a measurement for the broadcast shown is loaded, the Timeline draws a
 * measured bar under each step's simulated one and the Chart panel a measured point beside the
 * curves (draw.c asks measured_shown).
 *
 * A file for another net, algorithm, message size or step count is refused with one line; a
 * measurement loaded earlier is kept but not drawn while another broadcast is shown.
 *
 * A narrow interface: what it reads of the App comes through app.h (app_bcast, app_msg,
 * app_async_timing); its state (the measurement and the job) is a Measured, which
 * measured_new makes and the App keeps (app_measured).
 *
 * Ownership: the App owns its Measured, with the measurement and the job (measured_free, when
 * the App ends).
 */
#ifndef MESHCAST_TUI_MEASURED_H
#define MESHCAST_TUI_MEASURED_H

#include <stdbool.h>

#include "app.h"
#include "measfile.h"

typedef struct Measured Measured;
Measured *measured_new(void);   /* NULL when out of memory */

/* Load FILE for the broadcast shown: false with the message set. */
bool measured_load(App *a, const char *path);
/* The measurement, when it is for the broadcast shown; else NULL. */
const MeasFile *measured_shown(const App *a);
/* :measured FILE|off, :exec [REPS|cancel] (cmd is the command's name, w its words). */
bool measured_command(App *a, const char *cmd, const char *const *w, int n);
/* Take in what a running :exec wrote; the message shows its progress. */
void measured_poll(App *a);
bool measured_busy(const App *a);
/* End a running :exec (its child, launcher and ranks); true if one ran. */
bool measured_cancel(App *a);
/* At the App's end: a running :exec ended, the measurement and the Measured freed. */
void measured_free(App *a);

#endif
