/* vs.h — side by side: a second broadcast on the same net as the first (another algorithm, or
 * the same with other settings), stepped together with it, drawn in the right half of the map
 * with its own costs (`meshcast --vs bst`, `:vs bst`, `:vs st nu=1`, `:vs off`).
 *
 * The second broadcast takes the first one's words and changes what :vs says: a word K=V is a
 * setting, any other word the algorithm.  It follows the first: a new net, source, size or
 * model rebuilds it.  Position k shows step min(k, its steps) of it.  On the asynchronous time
 * line (asynctl.h) it has a time line of its own, shown at the latest of its moments not after
 * the first's time.  No curses here.
 *
 * A narrow interface: what the second broadcast needs of the first and of the screen comes
 * through a VsHost (the first's state, and callbacks to build and free a broadcast, post a
 * message, ask whether the last build was cancelled), never the App; the App fills one
 * (app-vs.c).  Ownership: vs_new allocates a Vs, closed; it owns the second broadcast and its
 * time line; vs_free frees it (the App owns one).
 */
#ifndef MESHCAST_TUI_VS_H
#define MESHCAST_TUI_VS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/asyncview.h"
#include "../engine/sim-async.h"
#include "../script/setup.h"
#include "bcast.h"

typedef struct Vs Vs;

/* What the second broadcast reads of the first (whether it is built, its position, its
 * algorithm's name and its words: valid during the call) and what it asks of its host. */
typedef struct {
    bool ready;
    int32_t pos;
    const char *name;
    SetupSpec spec;
    void *ctx;
    /* build a broadcast from words, sought to pos (on a worker, with the host's wait);
     * false with a message in err */
    bool (*build)(void *ctx, Bcast *out, const SetupSpec *spec, int32_t pos, char *err,
                  size_t errlen);
    void (*bcast_free)(Bcast *b);
    void (*msg)(void *ctx, bool error, const char *text);
    bool (*cancelled)(void *ctx);   /* the last build was cancelled (Esc) */
} VsHost;

Vs *vs_new(void);   /* NULL when out of memory */
void vs_free(Vs *v, const VsHost *h);
/* `:vs WORDS...` (n words): open, replace or ("off") close the second broadcast. */
bool vs_command(Vs *v, const VsHost *h, const char *const *words, int n);
/* Rebuild the second broadcast after the first changed (keeps its words): false (and closed,
 * the reason posted) when it no longer builds; true when it did or none is open. */
bool vs_follow(Vs *v, const VsHost *h);
/* Seek the second broadcast to the position the first goes to (up to its own end). */
void vs_sync(Vs *v, int32_t pos);
void vs_close(Vs *v, const VsHost *h);
/* The second broadcast when open and built, else NULL; its label ("bst", "st nu=1"). */
const Bcast *vs_bcast(const Vs *v);
const char *vs_label(const Vs *v);
/* Its steps and its position (0 when none is shown). */
int32_t vs_nsteps(const Vs *v);
int32_t vs_pos(const Vs *v);
/* On the time line: its own at the latest of its moments not after time t (built on first
 * use; NULL when none is shown or it cannot be built: the half shows steps).  A message for
 * the user in err ("" none): why it cannot be built (the first time only), or that memory
 * ran out moving it.  vs_async_run: its run (NULL: none built). */
AsyncView *vs_async_view(Vs *v, double t, char *err, size_t errlen);
const SimAsync *vs_async_run(const Vs *v);

#endif
