/* progress.h — how far a long build or simulation has got, and a request to stop it.
 *
 * A caller that runs algo_build + sim_run (or a Lua script's build) on a worker thread
 * attaches a Progress to that thread with progress_attach(); the engine then reports on it
 * (the transfers a schedule has so far while it is built, the step being simulated) and stops
 * early when another thread has set `cancel`: the schedule builder fails with the error
 * "cancelled" (the build returns NULL) and sim_run returns NULL with "cancelled".  Script
 * layers can check progress_cancelled() in their own hooks (a Lua count hook) to stop a script
 * the same way.  Nothing is attached by default: then every call here is a no-op and costs a
 * thread-local load.
 *
 * Ownership: the caller owns the Progress; it must outlive its attachment (attach NULL to
 * detach).  Fields are atomics: the worker writes, the UI thread reads and sets `cancel`.
 */
#ifndef MESHCAST_PROGRESS_H
#define MESHCAST_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum { PROGRESS_SETUP, PROGRESS_BUILD, PROGRESS_SIM, PROGRESS_SEEK } ProgressPhase;

typedef struct {
    _Atomic int phase;           /* ProgressPhase */
    _Atomic long long done;      /* BUILD: transfers added so far; SIM/SEEK: steps done */
    _Atomic long long total;     /* SIM/SEEK: steps in all; BUILD: -1 (unknown) */
    atomic_bool cancel;          /* set by another thread: stop as soon as possible */
} Progress;

/* Reset every field (phase SETUP, nothing done, not cancelled). */
void progress_init(Progress *p);
/* Attach p to the calling thread (NULL detaches). */
void progress_attach(Progress *p);
/* The calling thread's Progress, or NULL. */
Progress *progress_current(void);
/* True if the calling thread's Progress asks to stop. */
bool progress_cancelled(void);
/* Report on the calling thread's Progress (nothing when none is attached). */
void progress_report(ProgressPhase phase, long long done, long long total);
/* Add to `done` (nothing when none is attached). */
void progress_add(long long n);

#endif
