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
 * A job can also outlive the call that started it (a broadcast shown while the rest of it is
 * simulated): job_start starts it and returns at once; job_wait waits (drawing, as job_run)
 * until the job ends or a flag the worker sets comes true; job_finished says whether fn has
 * returned; job_cancel asks it to stop; job_join waits for fn's end and frees the Job.  Every
 * started Job must be joined once.
 *
 * The worker must not touch what the UI thread draws: fn gets its own objects (arg) and
 * hands them over only through arg, read after job_run returns (a job left running: through
 * what arg points to, once the flag or job_finished says so).
 */
#ifndef MESHCAST_TUI_JOB_H
#define MESHCAST_TUI_JOB_H

#include <stdatomic.h>
#include <stdbool.h>

#include "../engine/progress.h"

typedef bool (*JobWaitFn)(const Progress *p, double elapsed_s, void *ctx);

bool job_run(void (*fn)(void *arg), void *arg, JobWaitFn wait, void *ctx);

typedef struct Job Job;
/* NULL when no thread can be started (then nothing ran: the caller runs fn itself). */
Job *job_start(void (*fn)(void *arg), void *arg);
/* Until the job ends or *until (may be NULL) is true: false if wait returned false (the job
 * is not cancelled: that is the caller's choice). */
bool job_wait(Job *j, const atomic_bool *until, JobWaitFn wait, void *ctx);
bool job_finished(const Job *j);
const Progress *job_progress(const Job *j);
void job_cancel(Job *j);
void job_join(Job *j);

#endif
