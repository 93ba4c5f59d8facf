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
 * Ownership: the App owns its measurement and its job (measured_free).
 */
#ifndef MESHCAST_TUI_MEASURED_H
#define MESHCAST_TUI_MEASURED_H

#include <stdbool.h>

#include "app.h"
#include "measfile.h"

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
void measured_free(App *a);

#endif
