/* job.c — a worker thread for long builds (see job.h). */
#include "job.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define JOB_QUIET_S 0.03

struct Job {
    void (*fn)(void *);
    void *arg;
    Progress p;
    atomic_bool finished;
    pthread_t th;
};

static void *job_main(void *v)
{
    Job *j = v;
    progress_attach(&j->p);
    j->fn(j->arg);
    progress_attach(NULL);
    atomic_store(&j->finished, true);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

Job *job_start(void (*fn)(void *arg), void *arg)
{
    Job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->fn = fn;
    j->arg = arg;
    progress_init(&j->p);
    atomic_init(&j->finished, false);
    if (pthread_create(&j->th, NULL, job_main, j) != 0) {
        free(j);
        return NULL;
    }
    return j;
}

bool job_finished(const Job *j) { return atomic_load(&j->finished); }
const Progress *job_progress(const Job *j) { return &j->p; }
void job_cancel(Job *j) { atomic_store(&j->p.cancel, true); }

void job_join(Job *j)
{
    if (!j) return;
    pthread_join(j->th, NULL);
    free(j);
}

bool job_wait(Job *j, const atomic_bool *until, JobWaitFn wait, void *ctx)
{
    double t0 = now_s(), next = t0 + JOB_QUIET_S;   /* a quick job draws nothing */
    while (!atomic_load(&j->finished) && !(until && atomic_load(until))) {
        double t = now_s();
        if (wait && t >= next) {
            if (!wait(&j->p, t - t0, ctx)) return false;
            next = now_s() + 0.04;
        }
        struct timespec ts = {0, 2000000};   /* 2 ms */
        nanosleep(&ts, NULL);
    }
    return true;
}

bool job_run(void (*fn)(void *arg), void *arg, JobWaitFn wait, void *ctx)
{
    Job *j = job_start(fn, arg);
    if (!j) {
        fn(arg);
        return true;
    }
    bool ok = job_wait(j, NULL, wait, ctx);
    if (!ok) job_cancel(j);
    job_join(j);
    return ok;
}
