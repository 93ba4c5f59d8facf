/* job.h — run a long piece of work (building and simulating a broadcast, a script's build) on
 * a worker thread while the calling (UI) thread keeps drawing and reading keys.
 *
 * job_run starts fn(arg) on a worker thread with a Progress attached to it (engine/progress.h:
 * the schedule builder and the simulator report on it and stop early when it is cancelled),
 * and calls wait(p, ctx) on the calling thread after 30 ms (a job done sooner draws nothing)
 * and then about every 40 ms until fn returns.  When wait returns false, job_run sets p->cancel and keeps waiting (calling wait
 * no more) until fn has returned.  Returns true if the job ran to its end uncancelled.
 * If no thread can be started, fn runs on the calling thread (no progress is drawn).
 *
 * The worker must not touch what the UI thread draws: fn gets its own objects (arg) and
 * hands them over only through arg, read after job_run returns.
 */
#ifndef MESHCAST_TUI_JOB_H
#define MESHCAST_TUI_JOB_H

#include <stdbool.h>

#include "../engine/progress.h"

typedef bool (*JobWaitFn)(const Progress *p, double elapsed_s, void *ctx);

bool job_run(void (*fn)(void *arg), void *arg, JobWaitFn wait, void *ctx);

#endif
