/* job.c — a worker thread for long builds (see job.h). */
#include "job.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#define JOB_QUIET_S 0.03

typedef struct {
    void (*fn)(void *);
    void *arg;
    Progress *p;
    atomic_bool finished;
} Job;

static void *job_main(void *v)
{
    Job *j = v;
    progress_attach(j->p);
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

bool job_run(void (*fn)(void *arg), void *arg, JobWaitFn wait, void *ctx)
{
    Progress p;
    progress_init(&p);
    Job j = {fn, arg, &p, false};
    pthread_t th;
    if (pthread_create(&th, NULL, job_main, &j) != 0) {
        fn(arg);
        return true;
    }
    double t0 = now_s(), next = t0 + JOB_QUIET_S;   /* a quick job draws nothing */
    bool cancelled = false;
    while (!atomic_load(&j.finished)) {
        double t = now_s();
        if (!cancelled && wait && t >= next) {
            if (!wait(&p, t - t0, ctx)) {
                atomic_store(&p.cancel, true);
                cancelled = true;
            }
            next = now_s() + 0.04;
        }
        struct timespec ts = {0, 2000000};   /* 2 ms */
        nanosleep(&ts, NULL);
    }
    pthread_join(th, NULL);
    return !cancelled;
}
